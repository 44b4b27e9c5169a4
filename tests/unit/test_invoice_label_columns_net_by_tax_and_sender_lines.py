"""Invoices whose labels stand in a column beside a column of values cut by a gap, whose net amount and
total are both labelled as totals with the tax between them, whose sender's line is set apart by commas,
whose tax is labelled with the amount it is taken of, whose dates and numbers are printed with
typographic hyphens, and whose pages print a customer's masked IBAN or a pre-euro currency's code in an
address. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.identifiers import find_identifier, reference_code
from docsvc.intelligence.labels import without_rate
from docsvc.intelligence.values import currency_of, parse_date

from tests.unit.test_invoice_labels_sl_ro_mx_au import invoice_output


def test_a_column_of_colon_labels_takes_its_values_in_order_across_a_gap_in_their_column() -> None:
    labels = "Invoice date :\nClient ID :\nInvoice ID :\nTotal Amount :\nPayment due date :"
    values = "04.06.2017\n192.922.3\n123881\nCHF 168.95"
    output = invoice_output(
        "Audio Example SA\nSchulstrasse 121\nCH-5512 Wohlenschwil", labels, values, "04.07.2017"
    )
    assert output["invoice_date"] == "2017-06-04"
    assert output["due_date"] == "2017-07-04"
    assert output["invoice_number"] == "123881"


def test_a_column_of_labels_does_not_run_on_into_blocks_of_words() -> None:
    labels = "Invoice date :\nClient ID :\nInvoice ID :"
    output = invoice_output("Example SA", labels, "04.06.2017", "Thank you for your order", "Items follow")
    assert output["invoice_number"] is None


@pytest.mark.parametrize(
    ("net_label", "tax_label", "total_label"),
    [
        ("Summe:", "19% Mehrwertsteuer:", "Gesamt:"),
        ("Summe Betrag", "+19 % USt. auf 283,66 €", "Rechnungsbetrag"),
    ],
)
def test_of_two_totals_with_the_tax_between_them_the_first_is_the_net_amount(
    net_label: str, tax_label: str, total_label: str
) -> None:
    output = invoice_output(
        "Rechnung #2023-001",
        f"{net_label}\n283,66€",
        f"{tax_label}\n66,54€",
        f"{total_label}\n350,20€",
    )
    assert (output["net_total"], output["tax_total"], output["total"]) == (283.66, 66.54, 350.2)


def test_two_totals_that_the_tax_does_not_part_are_left_as_they_are() -> None:
    output = invoice_output(
        "Rechnung #2023-001", "Summe:\n283,66€", "19% Mehrwertsteuer:\n12,00€", "Gesamt:\n350,20€"
    )
    assert output["net_total"] is None


def test_a_tax_labelled_with_its_rate_and_the_amount_it_is_taken_of() -> None:
    assert without_rate("zzgl. 19,00 % USt. auf 10,00 €") == "zzgl. USt."
    assert without_rate("Rabatt auf 10,00 €") == "Rabatt auf 10,00 €"  # no rate: the label is left whole
    table = "| Gesamt Netto |  | 10,00 € |\n|---|---|---|\n| zzgl. 19,00 % USt. auf 10,00 € |  | 1,90 € |"
    output = invoice_output("Rechnung Nr. 1", table + "\n| Gesamtbetrag |  | 11,90 € |")
    assert output["tax_total"] == 1.9


def test_a_sender_line_set_apart_by_commas_names_the_issuer_over_the_recipient() -> None:
    output = invoice_output(
        "Hauptstr 19\n86161 Augsburg\n0821 - 66099-0",
        "Beispiel Kommunikation GmbH,Haunstetter Str 19,86161 Augsburg\nTracecom\nHerrn Muster\n"
        "Bahnhofstr. 7\n86150 Augsburg",
        "Rechnung Nr. 202430192\nDatum: 01.02.2024",
        "Gesamtbetrag 11,90 €",
    )
    assert output["issuer"]["name"] == "Beispiel Kommunikation GmbH"  # type: ignore[index]
    assert output["customer"]["name"] == "Tracecom"  # type: ignore[index]


def test_a_due_date_in_a_french_sentence_asking_to_pay_by_it() -> None:
    output = invoice_output(
        "Facture N°: 2024-17\nDate d'émission: 2024-03-10", "Merci de régler d\u2019ici le 2024-03-20."
    )
    assert output["due_date"] == "2024-03-20"


def test_a_word_in_capitals_between_a_number_and_its_date_ends_the_number() -> None:
    assert reference_code("B424-020171400 DU 26/10/2024") == "B424-020171400"
    assert reference_code("FV 3/05/2021") == "FV 3/05/2021"  # a prefix before the number stays


def test_typographic_hyphens_in_dates_and_numbers_read_as_hyphens() -> None:
    found = parse_date("18\u201008\u20102026")
    assert found is not None and found.value.isoformat() == "2026-08-18"
    assert reference_code("IOPOLE\u2010jdz7fEbj4Va") == "IOPOLE-jdz7fEbj4Va"


def test_a_masked_iban_is_no_iban_and_leaves_the_footers_own() -> None:
    assert find_identifier("iban", "Konto: IBAN DE493505000013010XXXXX.") is None
    output = invoice_output(
        "Rechnung 7267525181\nDatum 14.04.2026",
        "Den Betrag von 59,94 € buchen wir ab. Konto: IBAN DE493505000013010XXXXX.",
        "Beispiel GmbH | Konto: IBAN DE08 2501 0030 0000 2893 04, Postbank",
    )
    assert output["iban"] == "DE08 2501 0030 0000 2893 04"


def test_a_pre_euro_currencys_code_in_an_address_is_no_currency_on_a_page_in_euros() -> None:
    assert currency_of(["RES FLEUR DE VILLE, PTE 7", "Total 10,98 €", "TVA 1,83 €"]) == "EUR"
    assert currency_of(["Total Amount (DEM) 1.234,00"]) == "DEM"  # an invoice of before 2002


def test_a_column_of_labels_takes_no_labelled_line_for_a_value() -> None:
    labels = "Subtotal:\nGST amount:\nBalance Due AUD:"
    output = invoice_output(
        "TAX INVOICE 1042",
        labels,
        "$624.64",
        "Issued: 2026-06-21",
        "Due: 2026-07-05",
        "$624.64",
        "EXEMPT (0%)",
    )
    assert output["total"] == 624.64
    assert output["due_date"] == "2026-07-05"


def test_a_sender_line_names_the_company_as_the_page_prints_it_in_full() -> None:
    output = invoice_output(
        "Alphabet Fuhrparkmanagement GmbH\nLilienthalallee 26\n80786 München",
        "Wir belasten Ihnen:",
        "Alphabet, Lilienthalallee 26, 80786 München\nMuster GmbH\nz. Hd. Herr Mustermann\nMusterweg 1\n"
        "60325 Frankfurt am Main",
        "Rechnungsnummer: 2015738820\nGesamtbetrag 119,00 EUR",
    )
    assert output["issuer"]["name"] == "Alphabet Fuhrparkmanagement GmbH"  # type: ignore[index]


def test_an_address_written_with_commas_with_no_address_under_it_is_no_senders_line() -> None:
    from docsvc.intelligence.layout import read_layout
    from docsvc.intelligence.matching import sender_line_of
    from docsvc.intelligence.reading import Reading

    def sender(text: str) -> object:
        return sender_line_of(Reading(read_layout([text]), None, True, 0.0))

    assert sender("Rechnung 17\n\nBeispiel GmbH, Hauptstr 19, 86161 Augsburg\n\nVielen Dank.") is None
    assert sender("Beispiel GmbH, Hauptstr 19, 86161 Augsburg\nTracecom\nBahnhofstr. 7\n86150 Augsburg")


def test_a_vat_id_after_its_label_ending_a_sentence_of_the_footer() -> None:
    footer = (
        "Haussmann, Peter Schoren, Alexandra Süß, Andreas Theel USt.-Id.-Nr./VAT-No.: DE 223 101 663\n"
        "Bankverbindung: Deutsche Bank AG, Stuttgart"
    )
    output = invoice_output("Beispiel GmbH\nRechnung 17\nGesamtbetrag 10,00 EUR", footer)
    assert output["issuer"]["vat_id"] == "DE 223 101 663"  # type: ignore[index]
    # a letter whose capital is two letters ("ß") leaves the offsets where they were
    assert find_identifier("vat", "Alexandra Süß USt-IdNr.: DE 223 101 663") == ("DE 223 101 663", 1.0)


def test_a_companys_register_number_is_no_invoice_number() -> None:
    output = invoice_output(
        "Beispiel GmbH\nRechnung\nGesamtbetrag 10,00 EUR", "HRB-Nr./Commercial\nRegister No.: 23 165"
    )
    assert output["invoice_number"] is None


def test_of_totals_labelled_alike_with_no_tax_found_the_larger_printed_after_is_the_total() -> None:
    items = "| Pos. | Bezeichnung | Wert/EUR |\n|---|---|---|\n| 1 | Erwachsener | 26.89 |\n"
    items += "| 2 | Jugendlicher | 6.72 |\n|  | Summe | 33.61 |"
    sums = "| Versandkosten |  |  | 0.00 |\n|---|---|---|---|\n| Endbetrag |  | EUR | 40.00 |"
    output = invoice_output("Rechnung 458", items, "Rechnungsbetrag dankend erhalten.", sums)
    assert output["total"] == 40.0


def test_a_polish_amount_in_words_names_the_zloty() -> None:
    assert currency_of(["Słownie: sto dwadzieścia cztery złote zero groszy"]) == "PLN"


def test_a_vat_id_labelled_as_the_customers_is_not_the_issuers() -> None:
    table = (
        "| Ihre UID: ATU12345678 |  | Netto: | 100,00 € |\n|---|---|---|---|\n|  |  | 19% USt.: | 19,00 € |"
    )
    output = invoice_output("Beispiel GmbH\nRechnung RE-147", table, "Gesamtbetrag 119,00 €")
    assert output["issuer"]["vat_id"] is None  # type: ignore[index]


def test_a_column_of_labels_runs_on_past_a_gap_from_three_labels_not_two() -> None:
    from docsvc.intelligence.layout import read_layout

    def column(labels: str, values: str) -> dict[str, str]:
        layout = read_layout(["\n\n".join(["Example SA", labels, values, "123881"])])
        return {pair.label: pair.value for pair in layout.pairs if pair.how == "column"}

    assert column("Invoice date :\nClient ID :\nInvoice ID :", "04.06.2017\n192.922.3") == {
        "Invoice date": "04.06.2017",
        "Client ID": "192.922.3",
        "Invoice ID": "123881",
    }
    assert "Invoice ID" not in column("Client ID :\nInvoice ID :", "192.922.3")
