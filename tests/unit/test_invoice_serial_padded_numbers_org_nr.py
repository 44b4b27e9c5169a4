"""Labels and a number convention of further invoices: the English "Invoice Serial #" and "Taxable
Total", the Swedish organisation number printed beside "VAT No", and Brazil's NF-e number printed
zero-padded in groups of three. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import reference_code
from docsvc.intelligence.labels import SYNONYM_GROUPS, label_key

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Invoice Serial #:", ("invoice", "number")),
        ("Taxable Total", ("subtotal",)),
        ("Total Taxable Value", ("subtotal",)),
        ("Org.nr / VAT No:", ("vat", "id")),
        ("Organisationsnummer:", ("vat", "id")),
    ],
)
def test_further_labels_are_said_as_their_group(label: str, key: tuple[str, ...]) -> None:
    said = label_key(label)
    assert said == key or any(said in group and key in group for group in SYNONYM_GROUPS)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("000.043.445", "43445"),
        ("000,001,452", "1452"),
        ("001.234.567", "1234567"),
        ("012.345", "012.345"),  # one group: a code as printed
        ("1.234.567", "1.234.567"),  # not padded
        ("0001234", "0001234"),  # padded but not grouped: kept as printed
        ("000.043,445", "000.043,445"),  # two separators: no grouping
    ],
)
def test_a_padded_number_printed_in_groups_of_three_is_the_number_it_pads(text: str, code: str) -> None:
    assert reference_code(text) == code


def test_danfe_number_is_read_without_its_padding() -> None:
    page = "\n".join(
        ["DANFE", "Documento Auxiliar da Nota Fiscal Eletrônica", "Nº 000.043.445", "DATA DA EMISSÃO 03/06/2025"]
    )
    assert extract([page], SCHEMA).output["invoice_number"] == "43445"


def test_ticket_invoice_reads_its_serial_number_and_taxable_total() -> None:
    page = "\n".join(
        [
            "Conference Publications",
            "Invoice Serial #:",
            "",
            "431186/154",
            "Invoice Date: May 03, 2024",
            "| Item(s) | QTY | Value of Tickets Sold (INR) |",
            "|---|---|---|",
            "| Student Member | 1 | 7750.0 |",
            "| Taxable Total |  | 7750.0 |",
            "| Total Invoice Amount |  | 7750.0 |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "431186/154"
    assert (output["net_total"], output["total"]) == (7750.0, 7750.0)


def test_bilingual_swedish_invoice_takes_the_sellers_org_number_over_the_buyers_vat() -> None:
    page = "\n".join(
        [
            "HANDELSFAKTURA / COMMERCIAL INVOICE",
            "| Säljare / Seller: | Nordic Parts AB | Fakturanummer / Invoice No: | INV-77 |",
            "|---|---|---|---|",
            "| Org.nr / VAT No: | SE556012345601 | Fakturadatum / Invoice Date: | 2026-03-01 |",
            "| Köpare / Buyer: | Handel GmbH |  |  |",
            "| VAT No: | DE123456789 |  |  |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["issuer"]["vat_id"] == "SE556012345601"
