"""Invoice labels of Slovenian, Romanian, Mexican (CFDI) and Australian invoices said by their keys in
English; a Mexican RFC as a tax id; an IBAN that starts its line before its bank's name; a caption
printed under its value (a layout where labels stand below what they name). Every document here is
written for the test."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import unformed_tax_id
from docsvc.intelligence.labels import is_known_label, label_key

# The fields of an invoice the label tests of several languages read
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "invoice_date": {"type": ["string", "null"], "format": "date"},
        "due_date": {"type": ["string", "null"], "format": "date"},
        "currency": {"type": ["string", "null"]},
        "total": {"type": ["number", "null"]},
        "net_total": {"type": ["number", "null"]},
        "tax_total": {"type": ["number", "null"]},
        "iban": {"type": ["string", "null"]},
        "issuer": {
            "type": ["object", "null"],
            "properties": {"name": {"type": ["string", "null"]}, "vat_id": {"type": ["string", "null"]}},
        },
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
    },
}


def invoice_output(*blocks: str) -> dict[str, object]:
    """What the built-in extractor answers, with `SCHEMA`, for a one-page invoice of these text blocks."""
    return extract(["\n\n".join(blocks)], SCHEMA).output


@pytest.mark.parametrize(
    ("label", "key"),
    [
        # Slovenian
        ("Številka dokumenta", ("invoice", "number")),
        ("Številka računa", ("invoice", "number")),
        ("Datum fakture", ("invoice", "date")),
        ("Datum izdaje", ("invoice", "date")),
        ("Rok plačila", ("due", "date")),
        ("Datum dobave", ("delivery", "date")),
        ("Neto vrednost", ("net", "total")),
        ("Osnova za DDV", ("net", "total")),
        ("DDV skupaj", ("tax", "total")),
        ("DDV", ("tax",)),
        ("Skupaj", ("total",)),
        ("Za plačilo", ("total",)),
        ("ID za DDV", ("vat", "id")),
        ("Plačnik", ("customer",)),
        ("Dobavitelj", ("vendor",)),
        # Romanian
        ("Data emitere", ("invoice", "date")),
        ("Data scadenta", ("due", "date")),
        ("TOTAL PLATA", ("total",)),
        ("Identificatorul TVA", ("vat", "id")),
        ("Moneda facturii", ("currency",)),
        ("Cont", ("account", "number")),
        ("fără TVA", ("excluding", "tax")),
        # Mexican CFDI
        ("FOLIO", ("invoice", "number")),
        ("FOLIO FISCAL UUID", ("reference", "uuid")),
        ("RFC", ("vat", "id")),
        ("RECEPTOR", ("customer",)),
        ("TOTAL IMP. TRASLADADOS", ("tax",)),
        # Australian
        ("ABN", ("vat", "id")),
    ],
)
def test_an_invoice_label_of_slovenian_romanian_mexican_or_australian_invoices_has_its_english_key(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_a_slovenian_invoice_is_read_by_its_own_labels() -> None:
    page = "\n".join(
        [
            "Račun",
            "Številka dokumenta: 1090010602",
            "Datum fakture: 18.3.2025",
            "Rok plačila: 17.4.2025",
            "Neto vrednost: 100,00",
            "DDV skupaj: 22,00",
            "Za plačilo EUR: 122,00",
        ]
    )

    assert extract([page], SCHEMA).output | {"iban": None, "issuer": None, "customer": None} == {
        "invoice_number": "1090010602",
        "invoice_date": "2025-03-18",
        "due_date": "2025-04-17",
        "currency": "EUR",
        "total": 122.0,
        "net_total": 100.0,
        "tax_total": 22.0,
        "iban": None,
        "issuer": None,
        "customer": None,
    }


def test_a_mexican_rfc_is_a_tax_id_and_a_folio_the_invoice_number() -> None:
    page = "\n".join(
        [
            "FOLIO: 10826",
            "FECHA: 2024-02-08",
            "",
            "EMISOR",
            "NOMBRE: IMPORTADORA EJEMPLO",
            "RFC: IEJ691119E20",
            "",
            "NUMERO SERIE CERTIFICADO SAT",
            "00001000000505619865",
            "",
            "TOTAL: $598.70",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_number"] == "10826"
    assert output["issuer"]["vat_id"] == "IEJ691119E20"
    assert unformed_tax_id("RERR6008226N5") == "RERR6008226N5"
    assert unformed_tax_id("IEJ69111E20") is None  # five digits: no date in it


def test_an_australian_business_number_is_the_issuers_tax_id() -> None:
    page = "\n".join(
        ["TAX INVOICE", "No. INV-1002", "", "Harbour Counselling", "ABN: 33257573623", "", "Total: $624.64"]
    )

    assert extract([page], SCHEMA).output["issuer"]["vat_id"] == "33257573623"


def test_an_iban_that_starts_its_line_before_its_bank_is_the_payment_account() -> None:
    page = "\n".join(
        [
            "Račun 1090010602",
            "Za plačilo EUR 0,48",
            "",
            "Prosimo, da znesek nakažete na račun:",
            "",
            "SI56 0400 0027 6166 895 odprt pri OTP banka d.d., SWIFT/BIC: KBMASI2X",
        ]
    )

    assert extract([page], SCHEMA).output["iban"] == "SI56040000276166895"


def test_an_iban_inside_a_sentence_is_the_lone_iban_only_when_no_other_is_printed() -> None:
    page = "\n".join(["Invoice 17", "Total: 10.00", "", "Please pay to SI56 0400 0027 6166 895 by Friday"])
    assert extract([page], SCHEMA).output["iban"] == "SI56040000276166895"

    debit = "We collect it from your account DE89 3704 0044 0532 0130 00 on the 5th."
    assert extract([f"{page}\n{debit}"], SCHEMA).output["iban"] is None  # two: neither is the one


def test_a_caption_printed_under_its_value_labels_it() -> None:
    page = "\n".join(
        [
            "eFactura",
            "",
            "PROD 69420",
            "Nr. factura",
            "",
            "Data emitere",
            "2024-09-10",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output["invoice_number"], output["invoice_date"]) == ("PROD 69420", "2024-09-10")


def test_an_english_caption_under_a_value_labelled_above_in_another_script_labels_it() -> None:
    page = "\n".join(
        [
            "TAX INVOICE",
            "Invoice Number",
            "603962",
            "",
            "សរុប",
            "$ 9.09",
            "Sub Total",
            "",
            "សរុបរួម",
            "$ 10.00",
            "Grand Total (USD)",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output["net_total"], output["total"]) == (9.09, 10.0)


def test_a_label_with_its_value_under_it_takes_that_value_not_the_line_above() -> None:
    page = "\n".join(["Muster GmbH", "Hauptstr. 5", "Invoice number", "12345", "", "Total: 10.00"])

    assert extract([page], SCHEMA).output["invoice_number"] == "12345"


@pytest.mark.parametrize("above", ["Reference PO 4711", "Ship via UPS 2 day"])
def test_a_party_label_takes_the_name_under_it_not_a_figure_above(above: str) -> None:
    page = "\n".join(["Invoice 17", "Total: 10.00", "", above, "Customer", "Globex Corporation"])

    assert extract([page], SCHEMA).output["customer"]["name"] == "Globex Corporation"


def test_a_party_label_after_its_party_line_takes_it_when_no_name_is_under_it() -> None:
    page = "\n".join(
        ["Invoice 17", "Total: 10.00", "", "Globex Corporation, 12 Main Street", "Customer:", "№"]
    )

    assert extract([page], SCHEMA).output["customer"]["name"].startswith("Globex Corporation")


def test_a_bracketed_currency_or_rate_after_a_label_leaves_it_known() -> None:
    assert is_known_label("Grand Total (USD)")
    assert is_known_label("Nr. factura")
    assert not is_known_label("Lorem ipsum")


def test_a_quoted_name_after_make_payment_to_in_a_sentence_is_the_seller() -> None:
    page = "\n".join(
        [
            "TAX INVOICE",
            "Invoice Number: 603962",
            "Grand Total: $ 10.00",
            "",
            'Please make payment to "Ezecom Co., Ltd"',
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["issuer"]["name"] == "Ezecom Co., Ltd"
    assert output["customer"] is None


def test_a_labelled_seller_wins_over_a_quoted_payee() -> None:
    page = "\n".join(
        ["Seller: Acme Ltd", "Total: 10.00", "", 'Please make checks payable to "Acme Payments Ltd"']
    )

    assert extract([page], SCHEMA).output["issuer"]["name"] == "Acme Ltd"


def test_a_romanian_net_total_whose_total_stands_a_line_apart_is_read_by_fara_tva() -> None:
    page = "\n".join(
        ["FACTURA PROD 69420", "", "TVA TOTAL", "", "19.05", "", "TOTAL", "", "fără TVA", "108.95"]
    )

    assert extract([page], SCHEMA).output["net_total"] == 108.95
