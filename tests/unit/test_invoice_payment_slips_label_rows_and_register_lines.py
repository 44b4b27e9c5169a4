"""Invoices whose parties are named by a payment slip's headings ("Zahlbar durch", "Konto / Zahlbar an")
or by the "To:" of a payment advice (the payee),
whose customer is named under "Empfänger", whose due date is stated as the day the amount is to be
paid by inside a sentence, whose net amount is labelled "Importe base", whose two dates stand under two
labels run into one line, and whose VAT id follows its label after the words of a company register.
Every document here is written for the test."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.intelligence import pairs as pairs_module

from tests.unit.test_invoice_labels_sl_ro_mx_au import invoice_output


@pytest.mark.parametrize(
    ("payee", "payer"),
    [("Konto / Zahlbar an", "Zahlbar durch"), ("Compte / Payable à", "Payable par"),
     ("Conto / Pagabile a", "Pagabile da")],
)  # fmt: skip
def test_a_payment_slips_headings_name_the_issuer_and_the_customer(payee: str, payer: str) -> None:
    output = invoice_output(
        "Rechnung 2023-000744",
        "Rechnungsdatum 01.01.2024",
        "Total CHF 29.00",
        f"{payee}\nBeispiel Werkstatt AG\nEine Strasse 4\n8000 Zürich",
        f"{payer}\nMuster Handel GmbH\nMusterstrasse 1\n3000 Bern",
    )
    assert output["customer"]["name"] == "Muster Handel GmbH"  # type: ignore[index]
    assert output["issuer"]["name"] == "Beispiel Werkstatt AG"  # type: ignore[index]


def test_the_party_under_empfaenger_is_the_customer() -> None:
    output = invoice_output(
        "Rechnung",
        "Rechnungsnummer: 2019-17",
        "Empfänger\n\nGyro Gearloose\nInventor Drive 23, 12345 Duckburg",
        "Aussteller\n\nScrooge McDuck\nKillmotor Hill 1, 12345 Duckburg",
    )
    assert output["customer"]["name"] == "Gyro Gearloose"  # type: ignore[index]
    assert output["issuer"]["name"] == "Scrooge McDuck"  # type: ignore[index]


@pytest.mark.parametrize(
    "sentence",
    ["Bitte überweise den Betrag bis 2019-09-06 auf folgendes Konto:",
     "Bitte überweisen Sie den Rechnungsbetrag bis 06.09.2019 auf unser Konto."],
)  # fmt: skip
def test_the_day_the_amount_is_to_be_paid_by_in_a_sentence_is_the_due_date(sentence: str) -> None:
    output = invoice_output(
        "Rechnung 2019-17", "Ausstellungsdatum: 2019-08-23", "Gesamtbetrag: 100,00 €", sentence
    )
    assert output["due_date"] == "2019-09-06"


def test_a_date_after_betrag_without_bis_is_no_due_date() -> None:
    output = invoice_output(
        "Rechnung 2019-17", "Ausstellungsdatum: 2019-08-23", "Der Betrag wurde am 2019-09-06 bezahlt."
    )
    assert output["due_date"] is None


def test_importe_base_is_the_net_amount() -> None:
    output = invoice_output(
        "Factura INV/2026/00001", "Importe base\n194,85 €", "IVA 21%\n40,92 €", "Total\n235,77 €"
    )
    assert (output["net_total"], output["tax_total"], output["total"]) == (194.85, 40.92, 235.77)


def test_two_labels_run_into_one_line_over_two_dates_each_take_their_own() -> None:
    output = invoice_output(
        "Factura INV/2026/00001",
        "Fecha de factura Fecha de vencimiento\n21/05/2026 20/06/2026",
        "Total\n235,77 €",
    )
    assert (output["invoice_date"], output["due_date"]) == ("2026-05-21", "2026-06-20")


def test_two_labels_over_one_value_keep_their_one_pair() -> None:
    rows = [(0, ("Fecha de factura Fecha de vencimiento", "")), (1, ("21/05/2026", ""))]
    found = [(pair.label, pair.value) for pair in pairs_module._keys_over_values(rows)]
    assert found == [("Fecha de factura Fecha de vencimiento", "21/05/2026")]


@pytest.mark.parametrize(
    ("labels", "parted"),
    [("Total amount excluding VAT VAT amount Total amount including VAT", True),  # ten words
     ("Total amount excluding VAT Amount of VAT Total amount including VAT", False)],  # eleven
)  # fmt: skip
def test_labels_in_a_row_are_parted_in_a_cell_of_ten_words_at_most(labels: str, parted: bool) -> None:
    rows = [(0, (labels, "")), (1, ("100,00 20,00 120,00", ""))]
    assert (len(pairs_module._keys_over_values(rows)) == 3) is parted


def _issuer_vat_id(footer: str, iban: bool = True) -> object:
    """The issuer's VAT id of an Italian bill whose footer line is `footer`; with `iban`, an Italian IBAN
    shows the country whose national form of VAT id the number has."""
    output = invoice_output(
        "Fattura N. 1471FP del 05/01/2026",
        "Totale da pagare 158,40 €",
        "ENTRACO S.r.l.\nSede Legale Via Solferino, 40 20121 Milano (MI)",
        footer,
        "IBAN IT60X0542811101000000123456" if iban else "",
    )
    return output["issuer"]["vat_id"]  # type: ignore[index]


def test_a_vat_id_after_its_label_and_a_registers_words_is_the_issuers() -> None:
    assert _issuer_vat_id("C.F/P.IVA e Registro Imprese di Milano 02031070994") == "02031070994"


def test_a_number_after_a_registers_words_whose_check_fails_is_no_vat_id() -> None:
    assert _issuer_vat_id("C.F/P.IVA e Registro Imprese di Milano 02031070995") is None


@pytest.mark.parametrize("label", ["Partita IVA", "P.IVA", "C.F. e P.IVA"])
def test_the_name_of_the_italian_vat_number_makes_its_national_form_readable(label: str) -> None:
    assert _issuer_vat_id(f"{label} 02031070994", iban=False) == "02031070994"


@pytest.mark.parametrize(
    ("between", "found"),
    [("e Registro delle Imprese di Milano", True), ("e numero Registro delle Imprese di Milano", False)],
)
def test_a_vat_id_is_read_after_six_words_of_its_register_at_most(between: str, found: bool) -> None:
    assert (_issuer_vat_id(f"C.F/P.IVA {between} 02031070994") == "02031070994") is found


def test_labels_run_into_one_table_cell_spaced_unevenly_take_their_values_too() -> None:
    rows = [(0, ("Fecha de  factura   Fecha de vencimiento", "")), (1, ("21/05/2026   20/06/2026", ""))]
    found = [(pair.label, pair.value) for pair in pairs_module._keys_over_values(rows)]
    assert found == [("Fecha de factura", "21/05/2026"), ("Fecha de vencimiento", "20/06/2026")]


def _advice(heading: str) -> dict[str, Any]:
    """A one-page invoice whose addressee's block has no caption and whose payment advice, under
    `heading`, says "To:" the company that issued it, as Xero prints one."""
    return invoice_output(
        "INVOICE",
        "Invoice Number\nINV-0041\nInvoice Date\n14 Sep 2021",
        "Harbour Dental Group\n12 Quay Street\nAuckland 1010",
        "Total USD $1,200.00",
        f"| {heading} |  | Amount Due | $1,200.00 |\n|---|---|---|---|\n"
        "| To: Kauri Software Ltd |  | Due Date | 21 Sep 2021 |",
    )


@pytest.mark.parametrize("heading", ["PAYMENT ADVICE", "Remittance slip", "Zahlungsavis"])
def test_the_to_of_a_payment_advice_names_the_payee_the_issuer(heading: str) -> None:
    output = _advice(heading)
    assert output["issuer"]["name"] == "Kauri Software Ltd"
    assert (output["customer"] or {}).get("name") != "Kauri Software Ltd"


def test_a_to_under_another_heading_names_the_addressee() -> None:
    output = _advice("DELIVERY NOTE")
    assert output["customer"]["name"] == "Kauri Software Ltd"


@pytest.mark.parametrize(("rows", "payee"), [(2, True), (3, False)])
def test_the_to_of_a_payment_advice_is_the_payees_up_to_three_lines_under_its_heading(
    rows: int, payee: bool
) -> None:
    filler = "".join(f"| Reference {number} |  | Line {number} | {number} |\n" for number in range(rows))
    output = invoice_output(
        "INVOICE",
        "Invoice Number\nINV-0041",
        "Total USD $1,200.00",
        f"| PAYMENT ADVICE |  | Amount Due | $1,200.00 |\n|---|---|---|---|\n{filler}"
        "| To: Kauri Software Ltd |  | Due Date | 21 Sep 2021 |",
    )
    assert ((output["issuer"] or {}).get("name") == "Kauri Software Ltd") is payee  # type: ignore[attr-defined]
