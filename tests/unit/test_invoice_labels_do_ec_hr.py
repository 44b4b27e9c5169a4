"""Invoice labels of Dominican (NCF, RNC, ITBIS), Ecuadorian ("Número de Comprobante", "Consumidor")
and Croatian ("Dospijeće računa", "Naziv kupca") invoices said by their keys in English. Every document
here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("NCF:", ("invoice", "number")),
        ("Número de Comprobante:", ("invoice", "number")),
        ("RNC:", ("vat", "id")),
        ("ITBIS", ("tax",)),
        ("Vence:", ("due", "date")),
        ("Consumidor:", ("customer",)),
        ("Dospijeće računa", ("due", "date")),
        ("Naziv kupca", ("customer", "name")),
    ],
)
def test_dominican_ecuadorian_and_croatian_labels_are_said_in_english(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_dominican_fiscal_invoice_reads_its_number_tax_id_due_date_and_itbis() -> None:
    page = "\n".join(
        [
            "Ferretería La Esquina SRL",
            "RNC: 101234567",
            "",
            "FACTURA DE CRÉDITO FISCAL",
            "",
            "NCF: B0100000077",
            "",
            "Fecha:",
            "27/02/2026",
            "",
            "Vence:",
            "29/03/2026",
            "",
            "Subtotal:",
            "$10,000.00",
            "",
            "ITBIS (18%):",
            "$1,800.00",
            "",
            "TOTAL A PAGAR:",
            "$11,800.00",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "B0100000077"
    assert output["due_date"] == "2026-03-29"
    assert output["tax_total"] == 1800.0
    assert output["issuer"]["vat_id"] == "101234567"


def test_ecuadorian_bill_reads_its_voucher_number_and_consumer() -> None:
    page = "\n".join(
        [
            "| Consumidor: | LUCIA MENDEZ | Barrio: | SAN JUAN |",
            "|---|---|---|---|",
            "| Codigo de Medidor: | 1234 | Número de Comprobante: | 002-001-0000000456 |",
            "",
            "Fecha de Emisión: 2025-10-02 10:15:00",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "002-001-0000000456"
    assert output["customer"]["name"] == "LUCIA MENDEZ"


@pytest.mark.parametrize(
    "line",
    ["PDV:25% (Osn:100,00 €)        25,00", "PDV: 25%        25,00", "VAT: 25 % (of 100.00)      25.00"],
)
def test_a_rate_after_a_tax_labels_colon_leaves_the_amount_after_it_to_the_label(line: str) -> None:
    page = "\n".join(["Ukupno bez PDV-a:", "100,00", "", line, "", "Ukupno €:", "125,00"])
    assert extract([page], SCHEMA).output["tax_total"] == 25.0


def test_a_party_block_of_a_name_on_two_lines_and_no_address_gives_no_address() -> None:
    schema = {
        "type": "object",
        "properties": {
            "customer": {
                "type": ["object", "null"],
                "properties": {"name": {"type": ["string", "null"]}, "address": {"type": ["string", "null"]}},
            }
        },
    }
    page = "Invoice number: 123\n\nBill to:\nNordlicht Beratung\nHoldings GmbH\n\nTotal: 100.00 EUR"
    customer = extract([page], schema).output["customer"]
    assert customer["name"] == "Nordlicht Beratung Holdings GmbH"
    assert customer["address"] is None
