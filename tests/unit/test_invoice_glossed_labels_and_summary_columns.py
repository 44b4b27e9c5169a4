"""Bilingual labels glossed in brackets, a party's label over labels without values, summary labels
under an item table, a currency named by a column's heading, and a few more labels for a party and
an amount before tax."""

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import glossed_label, is_label_text
from docsvc.intelligence.layout import read_layout
from docsvc.intelligence.values import currency_of

SCHEMA = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "invoice_date": {"type": ["string", "null"], "format": "date"},
        "due_date": {"type": ["string", "null"], "format": "date"},
        "currency": {"type": ["string", "null"], "description": "ISO 4217 code of the invoice currency"},
        "total": {"type": ["number", "null"], "description": "Grand total including tax"},
        "net_total": {"type": ["number", "null"], "description": "Total amount without tax"},
        "tax_total": {"type": ["number", "null"], "description": "Total tax (VAT) amount"},
        "issuer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
    },
}


@pytest.mark.parametrize(
    ("label", "known"),
    [
        ("Úhrnem (total)", "total"),
        ("Odběratel (Client)", "Odběratel"),
        ("Datum vystavení faktury (invoice date)", "Datum vystavení faktury"),
    ],
)
def test_a_label_glossed_in_brackets_is_known_by_the_part_the_vocabulary_knows(
    label: str, known: str
) -> None:
    assert glossed_label(label) == known


@pytest.mark.parametrize(
    "label", ["Grand Total (USD)", "VAT (19%)", "Umsatzsteuer (E)", "Invoice date", "Kód (interní)"]
)
def test_a_label_known_whole_or_bracketing_a_currency_or_nothing_known_has_no_gloss(label: str) -> None:
    assert glossed_label(label) is None


def test_a_gloss_does_not_count_in_a_labels_length() -> None:
    assert is_label_text("Datum uskutečnění zdaň.plnění (tax point):")
    assert not is_label_text("Datum uskutečnění zdanitelného plnění a další údaje:")
    assert not is_label_text("DPH (sazba 19 %)")


def test_a_bilingual_total_label_gives_the_total_under_it() -> None:
    text = "Faktura 2024-17\nZboží | 1 | 900.00\n\nCelkem (total):\n1 900.00\n\nUhrazeno (paid):\n0.00"
    found = extract([text], SCHEMA)
    assert found.output["total"] == 1900.0
    assert found.likelihoods["total"] >= 0.9  # named by its label, not by a word of it


def test_stacked_bilingual_date_labels_pair_with_the_stacked_dates_beside_them() -> None:
    text = (
        "Daňový doklad č.: 2406000590\n\n"
        "Datum splatnosti faktury (payment date):\nDatum vystavení faktury (invoice date):\n"
        "Datum uskutečnění zdaň.plnění (tax point):\n\n17.10.2006\n3.10.2006\n2.10.2006"
    )
    output = extract([text], SCHEMA).output
    assert (output["invoice_date"], output["due_date"]) == ("2006-10-03", "2006-10-17")


def test_a_party_label_over_labels_without_values_takes_the_block_after_them() -> None:
    text = (
        "Registry Services s.r.o.\n\nOdběratel (Client):\n\nIČO:\nDIČ (VAT number):\n\n"
        "Alfa Beta a.s.\n\nHlavní 37\n\n370 01 Tábor\n\n45021295\nCZ45021295\n\n"
        "Daňový doklad č. (Invoice No): 2406000591"
    )
    assert extract([text], SCHEMA).output["customer"]["name"] == "Alfa Beta a.s."


def test_a_party_label_over_bare_labels_takes_no_figure_after_them() -> None:
    text = "Odběratel:\n\nIČO:\nDIČ:\n\n45021295\nCZ45021295"
    pairs = {(pair.label, pair.value) for pair in read_layout([text]).pairs}
    assert not any(label == "Odběratel" for label, _ in pairs)


def test_summary_labels_under_an_item_table_pair_with_the_amounts_under_them() -> None:
    text = (
        "Invoice No: 20-A0091\n\nErika Mustermann\nMusterallee 1\n12345 Musterstadt\nGermany\n\n"
        "| Description | Quantity | Unit price | Net amount |\n|---|---|---|---|\n"
        "| Supplies | 7 | 320.33 | 2,242.31 € |\n| Installation | 1 | 7,120.00 | 7,120.00 € |\n\n"
        "Subtotal\n9,362.31 €\n\nVAT\n1,778.84 €\n\nTotal\n\n11,141.15 €\n\nPayment instructions"
    )
    output = extract([text], SCHEMA).output
    assert (output["net_total"], output["tax_total"], output["total"]) == (9362.31, 1778.84, 11141.15)


def test_an_unruled_tables_header_does_not_run_across_a_ruled_table() -> None:
    text = (
        "Germany\n\n| Item | Amount |\n|---|---|\n| A | 1.00 |\n| B | 2.00 |\n\n"
        "Subtotal\n3.00 €\n\nVAT\n0.57 €\n\nTotal\n\n3.57 €\n\nThanks"
    )
    pairs = {(pair.label, pair.value) for pair in read_layout([text]).pairs}
    assert ("Subtotal", "3.00 €") in pairs


@pytest.mark.parametrize(
    ("heading", "code"),
    [("č.fa. | čerpáno Kč | zůstatek zálohy Kč", "CZK"), ("Kwota (zł)", "PLN"), ("Цена ден", "MKD")],
)
def test_a_currency_sign_in_a_line_without_figures_names_the_currency(heading: str, code: str) -> None:
    assert currency_of([heading]) == code


def test_a_sign_inside_a_word_names_no_currency() -> None:
    assert currency_of(["Kčs účet", "Total 12"]) is None


def test_an_amount_labelled_subtotal_without_tax_is_the_net_total() -> None:
    text = "INVOICE\nReference: MG1\nSubtotal without tax\n165.00 EUR\nTax\n16.50 EUR\nAmount due\n181.50 EUR"
    output = extract([text], SCHEMA).output
    assert (output["net_total"], output["total"]) == (165.0, 181.5)


@pytest.mark.parametrize("label", ["Pay To:", "Remit To:"])
def test_the_party_paid_is_who_issued_the_invoice(label: str) -> None:
    text = (
        "INVOICE\nInvoice #: 1001\n\nBill To:\n\nMock Client Inc.\n123 Fake Street\n\n"
        f"{label}\n\nMock Developer\n456 Developer Lane\n\nTOTAL $4555.00"
    )
    output = extract([text], SCHEMA).output
    assert (output["issuer"]["name"], output["customer"]["name"]) == ("Mock Developer", "Mock Client Inc.")


def test_an_invoice_without_a_number_label_is_numbered_by_its_reference() -> None:
    text = "My company\n\nINVOICE\n\nReference:\nMG202200000\nDue date:\n20/08/2022\nAmount due:\n181.50 EUR"
    found = extract([text], SCHEMA)
    assert found.output["invoice_number"] == "MG202200000"
    assert found.likelihoods["invoice_number"] < 0.9  # a reference may be an order's


def test_a_number_label_outranks_a_reference() -> None:
    text = "INVOICE\nInvoice No: 2024-17\nReference: PO-4711\nTotal: 10.00 EUR"
    assert extract([text], SCHEMA).output["invoice_number"] == "2024-17"


def test_the_customers_reference_does_not_number_the_invoice() -> None:
    text = "INVOICE\nYour reference: PO-4711\nTotal: 10.00 EUR"
    assert extract([text], SCHEMA).output["invoice_number"] != "PO-4711"
