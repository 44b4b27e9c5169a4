"""Invoice layouts of real documents the built-in extractor reads: a window envelope's sender line,
party blocks under headings, totals that must add up, currencies as codes, due dates in sentences, and
key tables with a neighbouring column run into them. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.lines import segments

PARTIES: dict[str, Any] = {
    "type": "object",
    "properties": {
        "issuer": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "address": {"type": "string"}},
        },
        "customer": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "address": {"type": "string"}},
        },
    },
}
AMOUNTS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "total": {"type": "number"},
        "net_total": {"type": "number"},
        "tax_total": {"type": "number"},
        "currency": {"type": "string"},
        "due_date": {"type": "string", "format": "date"},
    },
}


def test_the_sender_line_over_a_window_address_names_the_issuer_and_the_customer_under_it() -> None:
    page = "\n".join(
        [
            "Hafenbau Kiel GmbH  •  Kaistraße 4  •  24103 Kiel",
            "Ilse Brandt",
            "Lindenweg 7",
            "23552 Lübeck",
            "",
            "Rechnung Nr. 2024-55",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Hafenbau Kiel GmbH"
    assert output["customer"]["name"] == "Ilse Brandt"
    assert output["customer"]["address"] == "Lindenweg 7, 23552 Lübeck"


def test_parties_under_headings_take_the_names_of_their_own_blocks_whatever_their_order() -> None:
    page = "\n\n".join(
        [
            "Käufer",
            "Nummer:\nK-220",
            "Name:\nBrandt & Söhne KG",
            "Anschrift:\nAm Markt 9",
            "Verkäufer",
            "Nummer:\n7781",
            "Name:\nOstsee Werft AG",
            "Anschrift:\nMolenweg 3",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Ostsee Werft AG"
    assert output["customer"]["name"] == "Brandt & Söhne KG"


def test_a_net_amount_that_does_not_add_up_gives_way_to_one_that_does() -> None:
    page = "\n".join(
        [
            "| Pos | Beschreibung | Nettobetrag |",
            "|---|---|---|",
            "| 1 | Wartung | 300,00 |",
            "| 2 | Anfahrt | 80,00 |",
            "",
            "Rechnungssumme ohne USt.: 380,00 €",
            "Steuerbetrag: 72,20 €",
            "Bruttosumme: 452,20 €",
        ]
    )

    found = extract([page], AMOUNTS)

    assert (found.output["net_total"], found.output["tax_total"], found.output["total"]) == (
        380.0,
        72.2,
        452.2,
    )
    assert min(found.likelihoods[name] for name in ("net_total", "tax_total", "total")) >= 0.9


def test_amounts_that_cannot_be_made_to_add_up_are_the_less_likely() -> None:
    agreeing = extract(["Net total: 100.00\nVAT: 20.00\nTotal: 120.00"], AMOUNTS)
    disagreeing = extract(["Net total: 100.00\nVAT: 20.00\nTotal: 150.00"], AMOUNTS)

    assert disagreeing.likelihoods["net_total"] < agreeing.likelihoods["net_total"]
    assert disagreeing.likelihoods["tax_total"] < agreeing.likelihoods["tax_total"]


def test_a_currency_is_given_as_its_code() -> None:
    assert extract(["Devise : EURO (EUR)"], AMOUNTS).output["currency"] == "EUR"
    assert extract(["Währung: £"], AMOUNTS).output["currency"] == "GBP"


def test_a_due_date_stated_in_a_sentence_of_payment_terms_is_found() -> None:
    german = "Zahlbar innerhalb 30 Tagen netto bis 04.04.2025, 2% Skonto innerhalb 10 Tagen."
    english = "Please pay by 2025-05-01 to the account below."

    assert extract([german], AMOUNTS).output["due_date"] == "2025-04-04"
    assert extract([english], AMOUNTS).output["due_date"] == "2025-05-01"


def test_a_key_table_with_a_neighbouring_column_run_into_it_still_pairs_keys_and_values() -> None:
    page = "\n".join(
        [
            "| Conditions de paiement | 30 jours | Contact : J. Martin |",
            "|---|---|---|",
            "| Date d'échéance | 15/06/2025 | +33 1 23 45 67 89 |",
            "| Votre référence | PO-17 | j.martin@example.org |",
        ]
    )

    assert extract([page], AMOUNTS).output["due_date"] == "2025-06-15"


DOCUMENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "invoice_date": {"type": "string", "format": "date"},
    },
}


def test_the_number_and_date_printed_with_the_title_under_a_title_without_them_are_the_invoices() -> None:
    page = "\n\n".join(["WARENRECHNUNG", "Handelsrechnung Nr. R-5512 vom 06.08.2018", "Lieferant GmbH"])

    output = extract([page], DOCUMENT).output

    assert output == {"invoice_number": "R-5512", "invoice_date": "2018-08-06"}


def test_a_document_type_code_after_the_title_is_not_its_number() -> None:
    page = "\n\n".join(["Stand: 10.11.2025", "Handelsrechnung (380)   Nr. 123   vom   03.06.2025"])

    output = extract([page], DOCUMENT).output

    assert output == {"invoice_number": "123", "invoice_date": "2025-06-03"}


def test_the_number_and_date_printed_with_the_title_in_a_table_cell_are_the_invoices() -> None:
    page = "\n".join(
        [
            "| Stylesheet-Version: | 2.3 vom 30.06.2020 |",
            "|---|---|",
            "| Handelsrechnung (380) Nr. 471102 vom 05.03.2018 |  |",
            "| Währung: | EUR |",
        ]
    )

    output = extract([page], DOCUMENT).output

    assert output == {"invoice_number": "471102", "invoice_date": "2018-03-05"}


def test_a_partys_label_with_a_colon_over_labelled_lines_heads_its_block() -> None:
    page = "\n\n".join(
        [
            "Stylesheet Lesbarmachung der XML-Daten\nHANDELSRECHNUNG (380) Nr. 471102 vom 05.06.2018",
            "Verkäufer:",
            "Globale Nummer: 4000001123452 (GLN)\nLieferant GmbH\nLieferantenstraße 20\nDE 80333 München",
            "Käufer:\nNummer        : GE2020211\nKunden AG Mitte\nKundenstraße 15\nDE 69876 Frankfurt",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Lieferant GmbH"
    assert output["customer"]["name"] == "Kunden AG Mitte"


def test_the_date_an_invoice_title_is_of_is_its_date_rather_than_an_earlier_date() -> None:
    page = "\n\n".join(["Imprimé le 02/01/2025", "Facture n° F-12 du 3 mai 2024", "Total TTC : 12,00 €"])

    assert extract([page], DOCUMENT).output["invoice_date"] == "2024-05-03"


def test_parties_in_tables_of_keys_and_values_under_their_headings_take_their_own_names() -> None:
    page = "\n".join(
        [
            "Rechnung Nr. 4711",
            "",
            "| Verkäufer |  |",
            "|---|---|",
            "| Name: | Brandt & Söhne KG |",
            "| Anschrift: | Mühlweg 3 |",
            "",
            "| Käufer |  |",
            "|---|---|",
            "| Name: | Hafenbau Kiel GmbH |",
            "| Anschrift: | Kaistraße 4 |",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"] == {"name": "Brandt & Söhne KG", "address": "Mühlweg 3"}
    assert output["customer"] == {"name": "Hafenbau Kiel GmbH", "address": "Kaistraße 4"}


def test_a_party_heading_run_into_the_first_labelled_row_of_its_block_still_heads_it() -> None:
    page = "\n".join(
        [
            "Rechnung Nr. 4711",
            "",
            "| Verkäufer Nummer: 549910 |  |",
            "|---|---|",
            "| Name: | Brandt & Söhne KG |",
            "| Anschrift: | Mühlweg 3 |",
            "",
            "| Käufer/Leistungsempfänger Nummer: K-220 |  |",
            "|---|---|",
            "| Name: | Hafenbau Kiel GmbH |",
            "| Anschrift: | Kaistraße 4 |",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Brandt & Söhne KG"
    assert output["customer"]["name"] == "Hafenbau Kiel GmbH"


def test_a_name_printed_over_two_lines_is_read_whole() -> None:
    page = "\n\n".join(
        [
            "Rechnung Nr. 4711",
            "Verkäufer",
            "Name:\nMVM Musterhafter\nVersicherungsverein Musterstadt a.G.",
            "Anschrift:\nMusterstr. 12",
            "Käufer",
            "Name:\nHerrn\nMax Mustermann",
            "Anschrift:\nMusterstr. 11",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "MVM Musterhafter Versicherungsverein Musterstadt a.G."
    assert output["customer"]["name"] == "Herrn Max Mustermann"


def test_a_salutation_over_a_recipient_block_is_read_with_the_name_under_it_but_not_the_street() -> None:
    page = "\n".join(["Bill to", "Mrs.", "Jane Doe", "12 High Street", "Leeds LS1 4AP", "", "Invoice 1"])

    output = extract([page], PARTIES).output

    assert output["customer"]["name"] == "Mrs. Jane Doe"


def test_a_due_date_ending_a_sentence_with_its_full_stop_is_found() -> None:
    page = "Rechnung Nr. 505\n\nGesamtbetrag: 571,04 €\n\nBitte überweisen Sie bis zum 30.05.2017."

    assert extract([page], AMOUNTS).output["due_date"] == "2017-05-30"


def test_the_date_of_an_order_a_remark_names_after_the_word_invoice_is_not_the_invoices_date() -> None:
    remark = "Rechnung gemäß Bestellung Nr. 2018-471331 vom 01.03.2018"
    page = "\n\n".join(["05.06.2018", "Bemerkung", remark])

    assert extract([page], DOCUMENT).output["invoice_date"] == "2018-06-05"


def test_a_due_date_stated_as_the_date_to_remit_until_is_found() -> None:
    page = "Invoice # RE-508\n\nDue payable: 571.04 €\n\nPlease remit until 2020-12-12."

    assert extract([page], AMOUNTS).output["due_date"] == "2020-12-12"


def test_a_number_starting_with_a_titles_abbreviation_is_not_a_title_with_its_number() -> None:
    page = "\n\n".join(["PURCHASE ORDER", "Order No.:\nPO-26880", "Date:\n10/27/2025"])
    schema = {"type": "object", "properties": {"po_number": {"type": "string"}}}

    assert extract([page], schema).output["po_number"] == "PO-26880"


def test_a_party_cell_holding_its_whole_block_gives_the_name_up_to_its_legal_form() -> None:
    page = "\n".join(
        [
            "| Verkäufer | Käufer |",
            "|---|---|",
            "| BRANDT & SÖHNE KG MÜHLWEG 3 DE 24103 KIEL Tel: +49 431 5550 info@brandt.example "
            "| HAFENBAU KIEL GMBH KAISTRASSE 4 DE 24103 KIEL |",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "BRANDT & SÖHNE KG"
    assert output["customer"]["name"] == "HAFENBAU KIEL GMBH"


def test_a_summary_row_with_a_remark_before_its_label_pairs_the_label_beside_its_amount() -> None:
    page = "\n".join(
        [
            "| Date Description | Qté | Prix unit. | Total HT |",
            "|---|---|---|---|",
            "| 10/01/2024 Consultation | 1.00 | 50.00 EUR | 50.00 EUR |",
            "|  |  | Total HT: | 50.00 EUR |",
            "| Payée le 15/01/2024 par carte bancaire |  | TVA (20.00%): | 10.00 EUR |",
            "|  |  | Total TTC: | 60.00 EUR |",
        ]
    )

    output = extract([page], AMOUNTS).output

    assert (output["net_total"], output["tax_total"], output["total"]) == (50.0, 10.0, 60.0)


def test_a_label_word_left_alone_in_a_partys_block_is_not_its_name() -> None:
    page = "\n".join(
        [
            "Rechnung Nr. 4711",
            "",
            "Verkäufer:",
            "",
            "Nummer      \u00a0\u00a0\u00a0\u00a0 : 12345676",
            "Rohstoff AG Salzgitter",
            "Marktstr. 153",
            "DE 38226 Salzgitter",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Rohstoff AG Salzgitter"


def test_the_documents_title_and_number_at_its_top_is_not_who_issued_it() -> None:
    page = "Invoice 103767\n\nFebruary 17, 2026\n\nTotal: 681.87 EUR"

    assert extract([page], PARTIES).output["issuer"]["name"] is None


def test_without_a_billing_block_the_customer_is_the_one_the_goods_are_delivered_to() -> None:
    page = "\n\n".join(
        [
            "Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène",
            "Invoice FA-2017-0008",
            "Delivery Address",
            "Me gusta olive\n87 camino de la calor\n41700 Dos Hermanas",
            "| Invoice Date | 11/03/2017 |\n|---|---|\n| Due Date | 12/03/2017 |",
        ]
    )

    result = extract([page], PARTIES)

    assert result.output["customer"]["name"] == "Me gusta olive"
    assert result.likelihoods["customer.name"] < 0.5


def test_a_due_date_under_stacked_column_headings_is_the_first_line_that_is_only_a_date() -> None:
    page = "\n".join(
        [
            "Rechnung Nr. 4711",
            "Zahlungsbedingungen",
            "",
            "Beschreibung",
            "Fälligkeit",
            "Teilzahlung",
            "Zahlbar ohne Abschlag bis",
            "20.11.2018",
        ]
    )

    result = extract([page], AMOUNTS)

    assert result.output["due_date"] == "2018-11-20"
    assert result.likelihoods["due_date"] < 0.7


def test_a_labelled_value_holding_several_dates_is_a_less_likely_date() -> None:
    page = "Due date: 14.02.2025 with 2 % discount, 31.03.2025 net"

    assert extract([page], AMOUNTS).likelihoods["due_date"] < 0.6


def test_the_date_an_invoice_says_it_was_issued_at_is_its_date_not_a_date_of_delivery() -> None:
    page = "Invoice # RE-508 issued at 2020-11-21\nDate of delivery 2020-11-10\n\nDue payable: 571.04 €"

    assert extract([page], DOCUMENT).output["invoice_date"] == "2020-11-21"


NUMBERED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "invoice_date": {"type": "string", "format": "date"},
        **PARTIES["properties"],
    },
}
SENDER = "Nordlicht Ltd. · 12 Harbour Road · M1 1AA Manchester"


def test_an_address_printed_as_the_first_column_of_a_key_table_under_the_sender_line_is_the_customer() -> (
    None
):
    page = "\n".join(
        [
            SENDER,
            "",
            "| Fjord Analytics | Invoice Number: | INV-88-01 |",
            "|---|---|---|",
            "| Ines Lorca | Invoice Date: | March 3, 2025 |",
            "| 4 Quay Street | Order Number: | PO-7731 |",
            "| 75011 Paris |  |  |",
            "|  | Due Date: | April 2, 2025 |",
        ]
    )

    output = extract([page], NUMBERED).output

    assert output["customer"]["name"] == "Fjord Analytics"
    assert output["invoice_number"] == "INV-88-01"  # the name beside the label is no part of it
    assert output["invoice_date"] == "2025-03-03"


def test_an_address_printed_between_labels_and_values_under_the_sender_line_is_the_customer() -> None:
    page = "\n".join(
        [
            "Nordlicht Ltd. • 12 Harbour Road • 1234-1234 Faraway",
            "Date:",
            "24 Sep 2024",
            "Fjord Analytics",
            "Start of service:",
            "23 Apr 2024",
            "7 Quay Street",
            "End of service:",
            "23 Sep 2024",
            "80085 Springfield",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["customer"]["name"] == "Fjord Analytics"
    assert output["customer"]["address"] == "7 Quay Street, 80085 Springfield"


def test_lines_between_labels_under_the_sender_line_are_no_address_without_a_postcode_at_their_end() -> None:
    page = "\n".join(
        [
            "Nordlicht Ltd. • 12 Harbour Road • 1234-1234 Faraway",
            "Date:",
            "24 Sep 2024",
            "Thank you for your order",
            "Reference:",
            "A-17",
            "We look forward to working with you",
        ]
    )

    output = extract([page], PARTIES).output

    assert (output.get("customer") or {}).get("name") is None


def test_a_code_that_opens_with_a_label_word_is_not_that_labels_value() -> None:
    page = "\n".join(
        [
            SENDER,
            "",
            "Fjord Analytics",
            "Ines Lorca",
            "4 Quay Street",
            "D02 XA00 Dublin",
            "",
            "Numéro client:",
            "CUST-IE-001",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["customer"]["name"] == "Fjord Analytics"


def test_a_date_or_a_period_is_no_partys_name() -> None:
    page = "Bill to:\nJanuary 1, 2024 - January 31, 2024\n\nTotal: 12.00"

    output = extract([page], PARTIES).output

    assert (output.get("customer") or {}).get("name") is None


def test_a_tax_labelled_with_its_rate_and_the_amount_it_is_taken_of_is_the_tax() -> None:
    page = "\n".join(
        [
            "Net Total Amount",
            "€121.50",
            "Value Added Tax (19.00% of €121.50)",
            "€23.09",
            "Gross Total Amount",
            "€144.59",
        ]
    )

    output = extract([page], AMOUNTS).output

    assert output["tax_total"] == 23.09


def test_french_net_and_tax_labels_written_out_name_the_net_amount_and_the_tax() -> None:
    page = "\n".join(
        [
            "| Montant total net |  | 135,00 € |",
            "|---|---|---|",
            "| Taxe sur la valeur ajoutée (19,00 %) |  | 25,65 € |",
            "| Montant total brut |  | 160,65 € |",
        ]
    )

    output = extract([page], AMOUNTS).output

    assert (output["net_total"], output["tax_total"], output["total"]) == (135.0, 25.65, 160.65)


def test_a_sender_line_heading_a_tables_first_column_names_the_issuer_and_the_customer_under_it() -> None:
    page = "\n".join(
        [
            "Draft",
            "",
            "| Muster GmbH · Musterstraße 17 · 65432 Musterort | Leistungsadresse | Kontakt |",
            "|---|---|---|",
            "| Ilse Brandt | Ilse Brandt | Muster GmbH |",
            "| Lindenweg 7 | Hofweg 2 | Musterstraße 17 |",
            "| 23552 Lübeck | 23552 Lübeck | 65432 Musterort |",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Muster GmbH"
    assert output["customer"]["name"] == "Ilse Brandt"


def test_a_six_digit_postcode_makes_a_sender_line() -> None:
    page = "\n".join(
        [
            "Muster GmbH · Musterstraße 17 · 654321 Musterort",
            "",
            "Paul Peter",
            "Mercedesstr. 24",
            "70188 Stuttgart",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Muster GmbH"
    assert output["customer"]["name"] == "Paul Peter"


def test_a_date_a_sentence_says_the_invoice_is_payable_on_is_its_due_date() -> None:
    page = "Rechnungssumme\n9,90\n\nDie Rechnung ist zahlbar zum 25.02.2025 rein netto ohne Abzug."

    output = extract([page], AMOUNTS).output

    assert output["due_date"] == "2025-02-25"


def test_the_sum_of_the_goods_is_the_net_amount() -> None:
    page = "Summe Waren\n9,90\nMwSt.\n1,88\nRechnungssumme\n11,78"

    output = extract([page], AMOUNTS).output

    assert output["net_total"] == 9.9


def test_a_corrected_invoices_title_gives_its_number_not_the_number_of_the_invoice_it_corrects() -> None:
    page = "Acme Ltd.\n\nCorrected invoice No. 1234567890\n\nfor invoice No. 1234567889 from 12 Sep 2024"

    output = extract([page], NUMBERED).output

    assert output["invoice_number"] == "1234567890"


def test_a_sender_line_whose_name_opens_with_a_label_word_names_the_issuer_whole() -> None:
    page = "\n".join(
        [
            "Seller Company · 123 Seller St · 12345 Seller City",
            "",
            "Ilse Brandt",
            "Lindenweg 7",
            "23552 Lübeck",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Seller Company"


def test_numero_de_tva_names_the_issuers_vat_id() -> None:
    schema = {
        "type": "object",
        "properties": {"issuer": {"type": "object", "properties": {"vat_id": {"type": "string"}}}},
    }
    page = "\n".join(
        [
            "| Global Goods Inc. | Directeur : Olivia Green |",
            "|---|---|",
            "| 789 Commerce Street | Numéro de TVA: GB123456789 |",
        ]
    )

    output = extract([page], schema).output

    assert output["issuer"]["vat_id"] == "GB123456789"


IBAN_ONLY: dict[str, Any] = {"type": "object", "properties": {"iban": {"type": "string"}}}


def test_the_one_iban_a_page_prints_alone_on_its_line_is_the_iban() -> None:
    page = "Bankverbindung\nBank\nDE02120300000000202051\nBYLADEM1001"

    assert extract([page], IBAN_ONLY).output["iban"] == "DE02120300000000202051"


def test_a_lone_iban_whose_check_digits_are_wrong_is_not_taken() -> None:
    page = "Bankverbindung\nBank\nDE03120300000000202051\nBYLADEM1001"

    assert extract([page], IBAN_ONLY).output.get("iban") is None


def test_two_lone_ibans_give_none() -> None:
    page = "Bank A\nDE02120300000000202051\n\nBank B\nDE89370400440532013000"

    assert extract([page], IBAN_ONLY).output.get("iban") is None


def test_a_dated_line_in_a_block_a_buyers_label_opens_leaves_the_customer_named_by_its_address_block() -> (
    None
):
    first = "\n".join(
        [
            "Nordlicht Ltd. · 12 Harbour Road · EC1A 1BB London",
            "",
            "| Fjord Analytics Corp. | Invoice Number: | INV-2023-00789 |",
            "|---|---|---|",
            "| Ines Lorca | Invoice Date: | October 1, 2023 |",
            "| 4 Quay Street | Order Number: | PO-2023-10-005 |",
            "| 10001 New York | Due Date: | February 1, 2024 |",
        ]
    )
    second = "\n".join(
        [
            "Product Identification:",
            "Buyer Product ID: TECH-REQ-789B",
            "",
            "Billing Period:",
            "January 1, 2024 - January 31, 2024",
            "",
            "Accounting Reference:",
            "Cost Center Alpha-100",
        ]
    )

    output = extract([first, second], PARTIES).output

    assert output["customer"]["name"] == "Fjord Analytics Corp."


def test_a_rate_beside_the_tax_label_is_not_the_tax_amount() -> None:
    page = "\n".join(
        [
            "Zwischensumme    2900,00 €",
            "Übertrag 2 900,00 e",
            "Reisekosten 685,00 e",
            "",
            "Summe Netto",
            "3 585,00 e",
            "",
            "Umsatzsteuer 19%",
            "681,15 e",
            "",
            "Summe Brutto",
            "4 266,15 e",
        ]
    )

    output = extract([page], AMOUNTS).output

    assert output["tax_total"] == 681.15
    assert output["net_total"] == 3585.0


def test_a_page_marker_at_the_head_of_the_page_names_no_issuer() -> None:
    page = "\n".join(
        [
            "7F31-0042 · $35.00 USD due March 3, 2025",
            "Page 1 of 1",
            "",
            "Invoice",
            "",
            "Invoice number 7F31-0042",
            "Date of issue",
            "March 3, 2025",
            "",
            "Northwind Traders, LLC",
            "12 Harbor Road",
            "Portland, Oregon 97201",
            "United States",
            "billing@northwind.example",
        ]
    )

    name = extract([page], PARTIES).output["issuer"]["name"]

    assert name == "Northwind Traders, LLC"


def test_the_block_after_the_letterhead_names_the_customer_though_it_ends_with_its_vat_id() -> None:
    page = "\n".join(
        [
            "Holzbau Steiner GmbH",
            "",
            "Gartengasse 12",
            "1050 Wien",
            "office@holzbau-steiner.example",
            "",
            "",
            "Alpenblick Hotel AG",
            "Seestraße 3",
            "6020 Innsbruck",
            "UID-Nr: ATU98765432",
            "",
            "Rechnungsdatum: 2021-03-02",
            "",
            "Rechnung Nr. 44",
        ]
    )

    customer = extract([page], PARTIES).output["customer"]

    assert customer["name"] == "Alpenblick Hotel AG"
    assert customer["address"] == "Seestraße 3, 6020 Innsbruck"


def test_a_vat_id_labelled_in_the_customers_block_is_not_the_issuers() -> None:
    schema = {
        "type": "object",
        "properties": {
            "issuer": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "vat_id": {"type": "string"}},
            },
            "customer": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
    }
    page = "\n".join(
        [
            "Invoice",
            "",
            "Northwind Traders, LLC",
            "12 Harbor Road",
            "Portland, Oregon 97201",
            "",
            "Bill to",
            "Wisła Meble Sp. z o.o.",
            "Długa 5",
            "NIP: 5213938224",
            "00-238 Warszawa",
            "Poland",
            "PL VAT PL5213938224",
        ]
    )

    found = extract([page], schema)

    assert found.output["customer"]["name"] == "Wisła Meble Sp. z o.o."
    assert found.likelihoods["issuer.vat_id"] < 0.5


def test_the_issuers_vat_id_is_its_own_not_the_one_in_the_addressees_block() -> None:
    schema = {
        "type": "object",
        "properties": {
            "issuer": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "vat_id": {"type": "string"}},
            },
            "customer": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
    }
    page = "\n".join(
        [
            "Holzbau Steiner GmbH",
            "",
            "Gartengasse 12",
            "1050 Wien",
            "office@holzbau-steiner.example",
            "",
            "",
            "Alpenblick Hotel AG",
            "Seestraße 3",
            "6020 Innsbruck",
            "UID-Nr: AT55512345",
            "",
            "Rechnungsdatum: 2021-03-02",
            "",
            "Rechnung Nr. 44",
            "",
            "Gesamtbetrag Brutto: 1.200,00 €",
            "",
            "Holzbau Steiner GmbH",
            "Gartengasse 12",
            "1050 Wien",
            "UID-Nr: AT 987654321",
        ]
    )

    found = extract([page], schema).output

    assert found["customer"]["name"] == "Alpenblick Hotel AG"
    assert found["issuer"]["vat_id"] == "AT 987654321"


def test_uid_and_oss_vat_name_a_vat_id() -> None:
    schema = {"type": "object", "properties": {"vat_id": {"type": "string"}}}

    assert extract(["UID-Nr: ATU13585627"], schema).output["vat_id"] == "ATU13585627"
    assert extract(["EU OSS VAT EU372041333"], schema).output["vat_id"] == "EU372041333"


def test_a_number_alone_under_a_title_alone_is_the_invoice_number() -> None:
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}
    page = "Ditta Rossi\nVia Roma 1\n\nFattura\n\n7 / 2023\nData\n\n05/06/2023"

    assert extract([page], schema).output["invoice_number"] == "7/2023"
    assert extract(["Rechnung\n\n12.03.2024\n\nSehr geehrte Damen"], schema).output["invoice_number"] is None


def test_parties_printed_side_by_side_keep_their_names_from_the_shared_paragraph() -> None:
    page = "\n".join(
        [
            "Krajowy System e-Faktur",
            "Numer faktury",
            "7/01/2024",
            "",
            "Faktura podstawowa",
            "",
            "Numer KSeF: 1111111111-20240105-ABCDEF123456-01",
            "",
            "Sprzedawca",
            "Nabywca",
            "",
            "NIP: 9999999999",
            "NIP: 1111111111",
            "",
            "Nazwa: Tartak Leśny S.A.",
            "Nazwa: P.H.U. Anna Nowak",
            "",
            "Adres",
            "",
            "ul. Sadowa 1 m. 3, 00-002 Kraków",
            "",
            "Adres",
            "",
            "ul. Polna 1, 00-001 Warszawa",
            "",
            "Dane kontaktowe",
            "",
            "E-mail: biuro@tartak.example",
            "Tel.: 667444555",
            "",
            "Dane kontaktowe",
            "",
            "E-mail: anna@nowak.example",
            "Tel.: 555777999",
            "Numer klienta: K-0042",
            "ID Nabywcy: 0001",
            "",
            "Podmiot inny",
            "",
            "NIP: 2222222222",
            "Nazwa: Gmina Przykładowo",
            "Rola:  Wystawca faktury",
            "",
            "Adres",
            "ul. Lipowa 20",
            "00-009 Przykładowo",
            "",
            "Dane kontaktowe",
            "",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Tartak Leśny S.A."
    assert output["customer"]["name"] == "P.H.U. Anna Nowak"


def test_a_tax_rate_of_nothing_is_a_tax_of_nothing() -> None:
    found = extract(["Subtotal\n\n$19.00\n\nTax Rate\n\n0%\n\nAmount Due\n\n$19.00"], AMOUNTS)

    assert found.output["tax_total"] == 0.0
    assert found.likelihoods["total"] >= 0.9


def test_a_summary_row_ending_in_its_rate_gives_the_amount_before_the_rate() -> None:
    page = "\n".join(
        [
            "| Aantal | Omschrijving | Bedrag | Totaal | BTW |",
            "|---|---|---|---|---|",
            "| 1 | web | €6 | €6 | 0% |",
            "|  |  | Subtotaal | €6 | 0% |",
            "|  |  | Korting | €0 | 0% |",
        ]
    )

    found = extract([page], AMOUNTS)

    assert found.output["net_total"] == 6.0


def test_a_row_of_sums_under_a_column_of_rates_gives_the_net_and_the_tax() -> None:
    page = "\n".join(
        [
            "| Lp. | Nazwa | Ilość | Wartość netto | Stawka VAT | Kwota VAT | Wartość brutto |",
            "|---|---|---|---|---|---|---|",
            "| 1 | cheese | 2 | 3,98zł | 23% | 0,92zł | 4,90zł |",
            "| 2 | milk | 1 | 0,99zł | 23% | 0,23zł | 1,22zł |",
            "|  |  | Razem: | 4,97zł | 23% | 1,15zł | 6,12zł |",
        ]
    )

    output = extract([page], AMOUNTS).output

    assert (output["net_total"], output["tax_total"], output["total"]) == (4.97, 1.15, 6.12)


def test_a_party_label_heading_a_table_column_takes_the_cells_under_it_as_its_block() -> None:
    page = "\n".join(
        [
            "| Rue des Lilas 4 |  | Cliente |",
            "|---|---|---|",
            "| +33 1 23 45 67 | Factura Nº: 77 | Almacenes Robledo |",
            "| hola@ejemplo.es | Fecha: 02/03/2025 | Calle Mayor 9 |",
        ]
    )

    result = extract([page], PARTIES)

    assert result.output["customer"]["name"] == "Almacenes Robledo"


def test_an_invoice_from_heading_names_the_issuer_of_the_block_under_it() -> None:
    page = "\n".join(
        [
            "INVOICE FROM",
            "",
            "Blue Harbour Ltd.",
            "7 Quay Street",
            "Galway H91 XK2",
            "",
            "INVOICE TO",
            "",
            "Northwind Traders",
            "12 Market Lane",
        ]
    )

    result = extract([page], PARTIES)

    assert result.output["issuer"]["name"] == "Blue Harbour Ltd."
    assert result.output["customer"]["name"] == "Northwind Traders"


def test_a_lone_letter_is_no_ones_name() -> None:
    page = "x\n\nVia Garibaldi 8, 10122 Torino\n\nTotale: € 12,00"

    result = extract([page], PARTIES)

    assert (result.output.get("issuer") or {}).get("name") != "x"


def test_a_bare_amount_label_gives_the_total_no_total_label_names() -> None:
    page = "Lasku\n\nNimi: Matti Virtanen\n\nSumma: 42,50 €\n\nEräpäivä: 01.06.2024"

    result = extract([page], AMOUNTS)

    assert result.output["total"] == 42.5
    assert result.likelihoods["total"] < 0.9


def test_a_bare_amount_label_does_not_outdo_a_total_label() -> None:
    page = "Summa: 10,00 €\nSumma: 5,00 €\nYhteensä: 15,00 €"

    assert extract([page], AMOUNTS).output["total"] == 15.0


def test_the_amount_paid_in_italian_is_the_total() -> None:
    page = "MT Studio\n\n1 x Crema viso\n€ 9,90\n\nImporto pagato\n€ 9,90"

    assert extract([page], AMOUNTS).output["total"] == 9.9


def test_a_page_opening_with_a_table_whose_first_cell_is_a_name_has_its_letterhead_there() -> None:
    page = "\n".join(
        [
            "| Pommes Vertes Inc. |  | Facture #00310 |",
            "|---|---|---|",
            "| 45 rue Principale, Sherbrooke |  | Date 2024/05/02 |",
            "| Article | Qté | Montant |",
            "| Tarte | 2 | 8.00$ |",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] == "Pommes Vertes Inc."


def test_a_table_opening_with_a_label_gives_no_letterhead() -> None:
    page = "\n".join(["| Description | Qty | Amount |", "|---|---|---|", "| Widgets | 2 | 8.00 |"])

    assert (extract([page], PARTIES).output.get("issuer") or {}).get("name") is None


def test_two_companies_printed_side_by_side_are_the_issuer_left_and_the_customer_right() -> None:
    page = "\n".join(
        [
            "Invoice #: 51",
            "Created: March 3, 2021",
            "",
            "Lakeside Tools, Inc.    Birchwood Corp.",
            "88 Harbor Road    Jane Roe",
            "Portland, OR 97201    jane@example.com",
        ]
    )

    result = extract([page], PARTIES)

    assert result.output["issuer"]["name"] == "Lakeside Tools, Inc."
    assert result.output["customer"]["name"] == "Birchwood Corp."


def test_a_date_in_a_later_cell_of_the_letterheads_row_is_still_the_invoices_date() -> None:
    page = "\n".join(
        [
            "| Pommes Vertes Inc. |  | Facture #00310 |",
            "|---|---|---|",
            "| 45 rue Principale, Sherbrooke |  | Émise 2024/05/02 |",
            "| Article | Qté | Montant |",
            "| Tarte | 2 | 8.00$ |",
        ]
    )
    schema = {
        **PARTIES,
        "properties": {**PARTIES["properties"], "invoice_date": {"type": "string", "format": "date"}},
    }

    result = extract([page], schema)

    assert result.output["issuer"]["address"] == "45 rue Principale, Sherbrooke"
    assert result.output["invoice_date"] == "2024-05-02"


@pytest.mark.parametrize(
    "page",
    [
        "Invoice 17\nWidget   2   50.00\nSub      Total:      100.00\nVAT:      20.00",
        "Invoice 17\nWidget   2   50.00\nNet          Total       100.00\nVAT:      20.00",
    ],
)
def test_a_labels_words_spread_apart_on_its_line_are_read_together_not_as_a_plain_total(page: str) -> None:
    schema = {"type": "object", "properties": {"total": {"type": "number"}, "net_total": {"type": "number"}}}

    output = extract([page], schema).output

    assert output["net_total"] == 100.0
    assert output["total"] != 100.0


def test_a_row_of_column_headings_spread_apart_is_not_joined_into_one_label() -> None:
    assert [piece for _, piece in segments("Net    Tax    Total")] == ["Net", "Tax", "Total"]
    assert [piece for _, piece in segments("Sub      Total:      100.00")] == ["Sub      Total:", "100.00"]


def test_a_boxed_tax_label_with_its_rate_is_no_label_and_value() -> None:
    page = "\n".join(
        [
            "| Bank |  |  |",
            "|---|---|---|",
            "| Account: 2001587386/2010 | DPH 21 % | 19,970.28 Kč |",
        ]
    )

    found = extract([page], AMOUNTS)

    assert found.output["tax_total"] == 19970.28


def test_a_row_ending_in_a_summary_label_and_its_amount_after_other_cells_pairs_them() -> None:
    page = "\n".join(
        [
            "| Bank account |  |  |  |",
            "|---|---|---|---|",
            "| SWIFT: | GIBACZPX | VAT 21 % | 210.00 |",
        ]
    )

    found = extract([page], AMOUNTS)

    assert found.output["tax_total"] == 210.0


def test_a_total_label_closing_a_table_takes_the_amount_printed_alone_under_it() -> None:
    page = "\n".join(
        [
            "| Bank account |  |  |",
            "|---|---|---|",
            "| IBAN: | CZ6508000000192000145399 | Net | 1,000.00 |",
            "|  |  |  | Total due |",
            "",
            "1,210.00 Kč",
            "",
            "Thank you for your order.",
        ]
    )

    found = extract([page], AMOUNTS)

    assert found.output["total"] == 1210.0


def test_a_total_label_closing_a_table_takes_no_line_of_text_under_it() -> None:
    page = "\n".join(
        [
            "| Item | Amount |",
            "|---|---|",
            "| Widget | 10.00 |",
            "|  | Total |",
            "",
            "Payable within 30 days of 2024",
        ]
    )

    found = extract([page], AMOUNTS)

    assert found.output["total"] != 2024.0


NUMBER_ONLY: dict[str, Any] = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}


def test_the_number_at_the_right_of_a_title_cell_is_the_documents_number() -> None:
    page = "\n".join(
        [
            "| Faktura - daňový doklad |  | 2022001 |",
            "|---|---|---|",
            "| Dodavatel | Odběratel |  |",
            "| Alfa s.r.o. | Beta s.r.o. |  |",
        ]
    )

    found = extract([page], NUMBER_ONLY)

    assert found.output["invoice_number"] == "2022001"


def test_words_at_the_right_of_a_title_cell_are_no_number() -> None:
    page = "\n".join(
        [
            "| Invoice |  | Alfa Trading 2024 |",
            "|---|---|---|",
            "| Supplier | Customer |  |",
        ]
    )

    found = extract([page], NUMBER_ONLY)

    assert found.output["invoice_number"] != "2024"
    assert found.output["invoice_number"] != "Alfa Trading 2024"


@pytest.mark.parametrize("label", ["Phone No", "Contact No.", "Sender Contact No", "Mobile No"])
def test_a_phones_number_label_names_no_invoice_number(label: str) -> None:
    page = "\n".join(["INVOICE", "Acme Trading", f"{label}: 93806220"])

    found = extract([page], NUMBER_ONLY)

    assert found.output["invoice_number"] != "93806220"


def test_a_bare_number_label_still_names_the_invoice_number() -> None:
    page = "\n".join(["INVOICE", "Acme Trading", "No: 2024-117", "Phone No: 93806220"])

    found = extract([page], NUMBER_ONLY)

    assert found.output["invoice_number"] == "2024-117"


def test_a_label_run_into_its_value_inside_a_table_cell_is_read() -> None:
    """A footer's table holds "USt-IdNr. DE812871812" in one cell, the label and the value without a
    colon between them: the issuer's VAT id, as on a line of its own."""
    page = "\n".join(
        [
            "Rechnung R0005532486",
            "",
            "Netto 87,39 €",
            "",
            "| Muster Online GmbH | Industriestr. 25 | Bankverbindung: |",
            "|---|---|---|",
            "| Geschäftsführer: Max Muster | Tel.: +49 9831 505-0 | Deutsche Bank AG |",
            "| USt-IdNr. DE812871812 | info@muster.de | Nürnberg |",
        ]
    )
    schema = {
        "type": "object",
        "properties": {"issuer": {"type": "object", "properties": {"vat_id": {"type": "string"}}}},
    }

    assert extract([page], schema).output["issuer"]["vat_id"] == "DE812871812"


def test_a_name_in_a_table_cell_that_opens_with_a_partys_word_is_not_cut_after_it() -> None:
    """ "| Buyer Company | Invoice Number: | DOC-12345 |": the customer's name is the whole cell, not
    "Company" after a label "Buyer"."""
    page = "\n".join(
        [
            "Seller Company · 123 Seller St · 12345 Seller City",
            "",
            "| Buyer Company | Invoice Number: | DOC-12345 |",
            "|---|---|---|",
            "| 456 Buyer St | Invoice Date: | October 1, 2023 |",
            "| 67890 Buyer City | Customer Number: | BUYER-1 |",
        ]
    )

    assert extract([page], PARTIES).output["customer"]["name"] == "Buyer Company"
