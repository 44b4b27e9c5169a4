"""Who issued an invoice and whom it is for when no label names them: the company's block by its legal
form, the footer line that names it with its registration, a street that is no name, and the Italian
headings of the parties' blocks. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

from docsvc.intelligence.extraction import extract

PARTIES: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "invoice_date": {"type": "string", "format": "date"},
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
FLAT: dict[str, Any] = {
    "type": "object",
    "properties": {"vendor_name": {"type": "string"}, "invoice_number": {"type": "string"}},
}


def test_a_block_whose_name_ends_with_a_legal_form_over_its_address_names_the_issuer() -> None:
    page = "\n".join(
        [
            "Invoice",
            "",
            "Invoice Number",
            "2207",
            "Issue Date",
            "May 4, 2024",
            "",
            "Nordlicht Media, LLC",
            "42 Harbor Road",
            "Portland, OR 97201",
            "(503) 555-0142",
            "",
            "Bill To",
            "Jane Roe",
            "9 Elm Street",
            "Salem, OR 97301",
        ]
    )

    result = extract([page], PARTIES)

    assert result.output["issuer"]["name"] == "Nordlicht Media, LLC"
    assert result.output["customer"]["name"] == "Jane Roe"
    assert result.likelihoods["issuer.name"] < 0.9  # found by its form, not named by a label


def test_a_company_printed_under_a_persons_name_is_an_addressee_not_the_issuer() -> None:
    page = "\n".join(
        [
            "Bonjour, voici votre facture du 2 mars 2024 :",
            "",
            "N° de facture : 55120",
            "Date de facture : 02/03/2024",
            "",
            "M DUPRE JEAN",
            "ATELIER DUPRE SARL",
            "12 RUE DES LILAS",
            "69003 LYON",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] is None


def test_the_footer_line_naming_the_company_with_its_registration_names_the_issuer() -> None:
    page = "\n".join(
        [
            "Rechnung",
            "",
            "Rechnungsnummer: 4711",
            "Rechnungsdatum: 01.02.2024",
            "",
            "| Position | Menge | Betrag |",
            "|---|---|---|",
            "| Wartung | 1 | 120,00 |",
            "",
            "Sonnenfeld Solar GmbH · Amtsgericht Freiburg HRB 1234 · USt-IdNr. DE123456789",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] == "Sonnenfeld Solar GmbH"
    assert extract([page], FLAT).output["vendor_name"] == "Sonnenfeld Solar GmbH"


def test_a_legal_form_after_the_registration_words_is_no_footer_name() -> None:
    page = "\n".join(
        [
            "Rechnung",
            "",
            "Rechnungsnummer: 4711",
            "",
            "Eingetragen beim Amtsgericht Freiburg, Registergericht der Sonnenfeld GmbH, HRB 1234",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] is None


def test_a_street_printed_house_number_first_is_not_the_letterheads_name() -> None:
    page = "\n".join(
        [
            "8636 Sentinel Place",
            "Jaxson Van Doorn",
            "North Saanich, BC V8L 4Z8",
            "",
            "Invoice To:",
            "Woofers Inc",
            "1234 Woof Street",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Jaxson Van Doorn"
    assert output["customer"]["name"] == "Woofers Inc"


def test_italian_headings_of_the_supplier_and_customer_data_head_their_blocks() -> None:
    page = "\n".join(
        [
            "numero: 88",
            "data: 18/01/2024",
            "",
            "Dati fornitore",
            "GAMMA SRL",
            "P. IVA: 01234567890",
            "VIA ROMA 5",
            "07100 SASSARI IT",
            "",
            "Dati cliente",
            "COMUNE DI DELTA",
            "VIA TORINO 38",
            "00145 ROMA IT",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "GAMMA SRL"
    assert output["customer"]["name"] == "COMUNE DI DELTA"


def test_a_footer_address_line_with_no_name_first_is_no_sender_line() -> None:
    page = "\n".join(
        [
            "FACTURE",
            "",
            "Société Hôtelière du Lac",
            "2, rue de la Paix",
            "75000 Paris",
            "",
            "Facture n° : 2023-6013",
            "Date : 20/09/2023",
            "",
            "2, rue de la Paix - 75000 Paris - Tel: +33 1 01 12 34 56",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] == "Société Hôtelière du Lac"


def test_a_companys_block_for_the_attention_of_someone_is_the_addressee_not_the_issuer() -> None:
    page = "\n".join(
        [
            "Datum: 30.10.2024",
            "",
            "Nordwind Leasing GmbH",
            "",
            "USt-IdNr. DE238574172",
            "",
            "Lilienweg 26",
            "80786 München",
            "",
            "Rechnungsnummer: 2015738820",
            "",
            "Muster GmbH",
            "z. Hd. Herr Mustermann",
            "Musterweg 1",
            "60325 Frankfurt am Main",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] == "Nordwind Leasing GmbH"


def test_a_companys_name_after_a_short_label_in_a_sender_line_is_the_issuers_name() -> None:
    page = "\n".join(
        [
            "Rechnung",
            "",
            "Rechnungsnummer: 6063",
            "",
            "REG: Feldmann GmbH & Co. KG • 98765 Feldstadt • T +49 7891 11-0 • info@feldmann.example",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] == "Feldmann GmbH & Co. KG"


def test_the_address_block_right_after_the_letterhead_is_the_customers() -> None:
    page = "\n".join(
        [
            "Hôtel du Lac",
            "2, rue de la Paix",
            "75000 Paris",
            "",
            "Atelier Moreau SARL",
            "27, rue de Bassano",
            "75008 Paris",
            "",
            "Facture n° : 2023-6013",
            "Date : 20/09/2023",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"] == "Hôtel du Lac"
    assert output["customer"]["name"] == "Atelier Moreau SARL"


def test_a_block_after_a_letterhead_without_an_address_is_not_taken_for_the_customer() -> None:
    page = "\n".join(
        [
            "Hôtel du Lac",
            "",
            "Atelier Moreau SARL",
            "27, rue de Bassano",
            "75008 Paris",
            "",
            "Facture n° : 2023-6013",
        ]
    )

    assert extract([page], PARTIES).output["customer"]["name"] is None


def test_the_senders_own_street_under_its_letterhead_is_not_taken_for_the_customer() -> None:
    page = "\n".join(
        [
            "Falke GmbH",
            "",
            "Falke GmbH • Flugweg 17 • 12345 Feldstadt",
            "",
            "Flugweg 17",
            "12345 Feldstadt",
            "",
            "Rechnungsnummer: 1",
        ]
    )

    assert extract([page], PARTIES).output["customer"]["name"] is None


def test_the_one_block_of_a_name_over_a_street_and_a_place_is_the_customer_nothing_else_names() -> None:
    page = "\n".join(
        [
            "Kraxi GmbH",
            "",
            "Kraxi GmbH • Flugzeugallee 17 • 12345 Papierfeld • Deutschland",
            "",
            "Flugzeugallee 17",
            "12345 Papierfeld",
            "",
            "Tel. (0123) 4567",
            "",
            "Papierflieger-Vertriebs-GmbH",
            "Helga Musterfrau",
            "Rabattstr. 25",
            "34567 Osterhausen",
            "",
            "Rechnungsnummer: 2019-03",
        ]
    )

    customer = extract([page], PARTIES).output["customer"]

    assert customer["name"] == "Papierflieger-Vertriebs-GmbH"


def test_two_blocks_of_a_name_over_an_address_name_no_customer_when_nothing_tells_them_apart() -> None:
    page = "\n".join(
        [
            "Kraxi GmbH • Flugzeugallee 17 • 12345 Papierfeld • Deutschland",
            "",
            "Flugzeugallee 17",
            "12345 Papierfeld",
            "",
            "Papierflieger-Vertriebs-GmbH",
            "Rabattstr. 25",
            "34567 Osterhausen",
            "",
            "Drachenbau AG",
            "Windweg 3",
            "45678 Sturmstadt",
            "",
            "Rechnungsnummer: 2019-03",
        ]
    )

    assert (extract([page], PARTIES).output["customer"] or {}).get("name") is None


def test_business_and_customer_details_in_a_run_on_line_name_the_issuer_and_the_customer() -> None:
    page = (
        "Date: 12 Mar 2018 Due date: 19 Mar 2018 Invoice: #42 Payment link: https://example.com/42/pay "
        "Business Details: Screeb 123, place de Bretagne 44000 Nantes Email: billing@example.com "
        "EMEA office Business hours: 9am - 6pm Customer Details: John Doe Baxter Building, 42nd street"
    )

    output = extract([page], PARTIES).output

    assert output["issuer"]["name"].startswith("Screeb")
    assert output["customer"]["name"].startswith("John Doe")


def test_a_vat_id_inside_the_issuers_block_is_the_issuers_without_a_label_of_its_own() -> None:
    page = "\n".join(
        [
            "| Verkäufer | Käufer |",
            "|---|---|",
            "| MUSTER GMBH BAHNHOFSTR. 9 99199 MUSTERHAUSEN Tel: +49 932 431 500 USt-IdNr: DE136695976 "
            "| KUNDE AG KUNDENWEG 88 40235 DUESSELDORF |",
        ]
    )
    schema = {
        "type": "object",
        "properties": {
            "issuer": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "vat_id": {"type": "string"}},
            }
        },
    }

    assert extract([page], schema).output["issuer"]["vat_id"] == "DE136695976"


def test_a_line_of_bank_details_apart_by_bullets_is_no_senders_line() -> None:
    page = "\n".join(
        [
            "Fresh Company Ltd.",
            "",
            "Fruit Bank • BIC PEARADISE12 • IBAN PE12 3456 7890 1234 5678 90",
            "",
            "Invoice 42",
            "",
            "Fresh Company • Veggieroad 32 • 98765 Pearadise",
            "",
            "Awesome Client",
            "Mrs. Katy Banana",
            "Fruitlane 12",
            "12345 Strawberry Fields",
        ]
    )

    output = extract([page], PARTIES).output

    # the sender's line names the issuer, as the page prints its name in full over it
    assert (output["issuer"]["name"], output["customer"]["name"]) == ("Fresh Company Ltd.", "Awesome Client")


def test_a_letterhead_line_a_contacts_label_runs_into_still_names_the_issuer() -> None:
    page = "\n".join(
        [
            "Die Vordefinierte Firma Tel: +49 (030) 41092-0",
            "Waldstrasse 86-90 Fax: +49 (030) 41092-111",
            "13403 Berlin email: info@vordefiniert.de",
            "",
            "Rechnung",
            "Belegnummer: 90005178",
        ]
    )

    assert extract([page], PARTIES).output["issuer"]["name"] == "Die Vordefinierte Firma"
