"""Invoices that print identifiers, currencies and labels in their national forms: an account number
without its country code that is an IBAN once the code is put before it, a tax id under its national
name that is never an amount, "R$" for the real, Spanish and plural tax labels; and layouts of labels
and values that come apart ("Date:" and "Payment until:" over their two dates, a key and its value at
the end of a row that starts with a party's name). Every document here is written for the test."""

from __future__ import annotations

from typing import Any

from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import FORM_ONLY, countries_of, national_iban, national_vat
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.pairs import _colons_over_values, _summary_run

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "invoice_date": {"type": ["string", "null"], "format": "date"},
        "due_date": {"type": ["string", "null"], "format": "date"},
        "currency": {"type": ["string", "null"]},
        "total": {"type": ["number", "null"]},
        "net_total": {"type": ["number", "null"]},
        "tax_total": {"type": ["number", "null"], "description": "Total tax (VAT) amount"},
        "issuer": {
            "type": ["object", "null"],
            "properties": {"name": {"type": ["string", "null"]}, "vat_id": {"type": ["string", "null"]}},
        },
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
        "iban": {"type": ["string", "null"]},
    },
}

POLISH = "\n".join(
    [
        "Faktura VAT",
        "Numer faktury: FV 7/2024",
        "",
        "Sprzedawca",
        "Hurtownia Lipa Sp. z o.o.",
        "NIP: 545-182-41-19",
        "",
        "Razem do zapłaty: 1 230,00 PLN",
        "Numer rachunku: 73 1111 1111 1111 1111 1111 1111",
    ]
)


def test_an_account_number_that_is_an_iban_with_the_documents_country_code_is_that_iban() -> None:
    result = extract([POLISH], SCHEMA)

    assert result.output["iban"] == "PL73111111111111111111111111"


def test_an_account_number_is_no_iban_for_a_country_the_document_does_not_show() -> None:
    assert national_iban("73 1111 1111 1111 1111 1111 1111", ("PL",)) == (
        "73 1111 1111 1111 1111 1111 1111",
        "PL73111111111111111111111111",
    )
    assert national_iban("73 1111 1111 1111 1111 1111 1111", ("DE", "CZ")) is None
    assert national_iban("74 1111 1111 1111 1111 1111 1111", ("PL",)) is None  # its check fails


def test_a_document_is_from_the_country_of_its_national_currency_and_of_its_checked_vat_ids() -> None:
    assert countries_of("PLN", []) == ("PL",)
    assert countries_of("EUR", ["USt-IdNr.: DE136695976", "NIF PT999999990"]) == ("DE", "PT")
    assert countries_of("EUR", ["DE136695970"]) == ()  # its check fails


def test_a_tax_id_under_its_national_name_is_the_issuers_vat_id_and_never_the_tax() -> None:
    result = extract([POLISH], SCHEMA)

    assert result.output["issuer"]["vat_id"] == "545-182-41-19"
    assert result.output["tax_total"] is None
    assert national_vat("NIP: 545-182-41-19", ("PL",)) == ("545-182-41-19", 1.0)
    assert national_vat("NIP: 545-182-41-18", ("PL",)) == ("545-182-41-18", FORM_ONLY)  # its check fails
    assert national_vat("NIP: 545-182-41-19", ("DE",)) is None


def test_labels_of_identifiers_are_not_partial_labels_of_the_tax() -> None:
    page = "\n".join(["INVOICE 12", "Tax ID: 12-3456789", "VAT number: 998877665", "Total: 100.00"])

    assert extract([page], SCHEMA).output["tax_total"] is None


def test_r_dollar_is_the_brazilian_real() -> None:
    page = "\n".join(["NOTA FISCAL", "VALOR TOTAL DA NOTA", "R$ 76,67"])

    assert extract([page], SCHEMA).output["currency"] == "BRL"


def test_spanish_and_plural_tax_labels_name_the_tax() -> None:
    assert label_key("Taxes") == ("tax",)
    assert label_key("Total Impuesto") == ("tax",)
    page = "\n".join(["FACTURA", "", "Subtotal   £720.00", "Total Impuesto   £54.70", "Total   £774.70"])
    table = "\n".join(
        ["INVOICE", "", "| Subtotal | 42 € |", "|---|---|", "| Taxes | 8.4 € |", "| TOTAL | 50.4 € |"]
    )

    assert extract([page], SCHEMA).output["tax_total"] == 54.7
    assert extract([table], SCHEMA).output["tax_total"] == 8.4


def test_two_labels_over_two_values_pair_in_order_when_the_next_labels_run_on_under_them() -> None:
    page = "\n".join(
        [
            "Invoice UZH-5",
            "",
            "Date:",
            "Payment until:",
            "",
            "30.06.2023",
            "30.07.2023",
            "Performance Period:",
            "Project reference:",
            "",
            "01.01.2023 - 30.06.2023",
            "ZI-2812-F",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_date"] == "2023-06-30"
    assert output["due_date"] == "2023-07-30"


def test_a_key_and_its_value_ending_a_row_that_starts_with_a_partys_name_pair() -> None:
    page = "\n".join(
        [
            "INVOICE",
            "",
            "| Customer Name | Invoice # | 0000007 |",
            "|---|---|---|",
            "|  | Invoice date | 2023-10-02 |",
            "| 1234 Customer St, |  |  |",
            "| Customer Town, ST 12345 | Due date | 2023-10-16 |",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_number"] == "0000007"
    assert output["due_date"] == "2023-10-16"


def test_to_whom_it_may_concern_is_no_customer() -> None:
    page = "\n".join(["Invoice 55", "Date: 30.06.2023", "", "To whom it may concern", "", "Total: 10.00"])

    output = extract([page], SCHEMA).output

    assert (output["customer"] or {}).get("name") is None


def test_a_vat_registration_no_is_the_vat_id() -> None:
    assert label_key("VAT Registration No.") == ("vat", "id")


def test_a_boxed_label_in_capitals_and_its_value_read_as_one_cell_pair() -> None:
    page = "\n".join(
        [
            "| RECEBEMOS DE ACME LTDA OS PRODUTOS CONSTANTES DA NOTA FISCAL |  | NF-e N°. 44525 SÉRIE 1 |",
            "|---|---|---|",
            "| DATA DE RECEBIMENTO | IDENTIFICAÇÃO E ASSINATURA DO RECEBEDOR |  |",
            "",
            "| BASE DE CÁLCULO DO ICMS 49,23 |  | VALOR DO IPI 2,46 | VALOR TOTAL DA NOTA 51,69 |",
            "|---|---|---|---|",
            "| VALOR DO FRETE 0,00 | DESCONTO 0,00 |  | OUTRAS DESPESAS 0,00 |",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_number"] == "44525"
    assert output["total"] == 51.69


def test_a_table_cell_holding_a_label_its_colon_and_its_value_pairs() -> None:
    page = "\n".join(
        [
            "FAKTURA VAT",
            "Nr: FA811/05/2025",
            "",
            "|  | Suma netto: |  | 43,60 PLN |",
            "|---|---|---|---|",
            "|  | Podatek VAT: |  | 10,03 PLN |",
            "|  | RAZEM BRUTTO: |  | 53,63 PLN |",
            "| PŁATNOŚĆ |  |  |  |",
            "| Termin płatności: 15.03.2026 |  |  |  |",
            "| Forma płatności: Przelew |  |  |  |",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["due_date"] == "2026-03-15"
    assert output["tax_total"] == 10.03


def test_several_labels_and_their_values_run_together_in_one_cell_each_pair() -> None:
    page = "\n".join(
        [
            "Faktura - daňový doklad č.FV77",
            "",
            "| Stavebniny Lipa a.s. IČ: 12345678 DIČ: CZ12345678 | Odběratel: Stavby Brno s.r.o. |",
            "|---|---|",
            "|  | Zakázka: ZP25 Dodací list: DL25 Vystavil: Jan Novák |",
            "| Datum vystavení: 05.09.2025 Datum plnění: 02.09.2025 Datum splatnosti: 05.10.2025 |  |",
            "",
            "Celkem k úhradě: 936,00 CZK",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_date"] == "2025-09-05"
    assert output["due_date"] == "2025-10-05"
    assert output["issuer"]["vat_id"] == "CZ12345678"


def test_a_spanish_cif_printed_alone_is_the_vat_id_of_a_document_paid_to_a_spanish_bank() -> None:
    page = "\n".join(
        [
            "Factura 103",
            "Construcciones Riba S.L.",
            "CIF: B16585507",
            "",
            "Total Factura: 1.210,00",
            "IBAN: ES94 0049 3209 4720 1405 3543",
        ]
    )

    output = extract([page], SCHEMA).output

    assert countries_of(None, page.splitlines()) == ("ES",)
    assert output["issuer"]["vat_id"] == "B16585507"


def test_a_spanish_cif_with_a_wrong_control_character_is_no_checked_national_vat_id() -> None:
    assert national_vat("CIF: B16585507", ("ES",)) == ("B16585507", 1.0)
    assert national_vat("CIF: B16585508", ("ES",)) == ("B16585508", FORM_ONLY)
    assert national_vat("NIF: 12345678Z", ("ES",)) == ("12345678Z", 1.0)


def test_a_customers_name_under_a_label_that_names_the_name_first_is_the_customers_name() -> None:
    page = "\n".join(
        [
            "Bedrijf XYZ",
            "Adres: Straat 123, 4567 AB Plaatsnaam",
            "",
            "Factuurnummer: 20241214-001",
            "Datum: 14-12-2024",
            "",
            "Naam klant: Jan Jansen",
            "Adres klant: Voorbeeldstraat 99, 1234 AB Plaatsnaam",
            "",
            "Totaal: € 1499.99",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["customer"]["name"] == "Jan Jansen"
    assert label_key("Nom du client") == label_key("Customer name")


def test_a_customer_label_before_a_customer_number_and_a_note_gives_no_customer_name() -> None:
    page = "\n".join(
        [
            "Yritys Oy",
            "LASKU",
            "",
            "| Saaja | YRITYS OY | LASKUNUMERO: 4321 ASIAKAS: 1234567-8 Viitenumero mainittava maksaessa! |",
            "|---|---|---|",
            "| Eräpäivä | 01.01.2015 | Euro 248,00 |",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output.get("customer") or {}).get("name") is None


def test_summary_labels_each_before_its_amount_in_one_cell_pair() -> None:
    page = "\n".join(
        [
            "| Jane Doe 12 rue de la Paix 69001 Lyon FACTURE 2026F02-001 |  |  |",
            "|---|---|---|",
            "| Prestation de services, conseil | 12 | 7 200,00 |",
            "| Sous-total HT 7 200,00 € TVA (20 %) 1 440,00 € Total TTC 8 640,00 € |  |  |",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output["net_total"], output["tax_total"], output["total"]) == (7200.0, 1440.0, 8640.0)


def test_a_cell_of_prose_with_prices_in_it_gives_no_summary_pairs() -> None:
    assert _summary_run("Prestation de services 600,00 puis conseil 12,00") == []
    assert _summary_run("Total TTC 8 640,00 €") == []  # one label and its amount: the row's own pair


def test_ust_identnr_is_the_vat_id_label() -> None:
    assert label_key("USt.-Identnr.") == label_key("USt-IdNr") == label_key("VAT ID")


def test_party_labels_stacked_over_their_blocks_pair_each_with_its_own_block() -> None:
    page = "\n".join(
        [
            "Faktura VAT nr. 522339",
            "Data wystawienia: 2023-11-08",
            "",
            "Sprzedawca:",
            "Nabywca:",
            "Hurtownia Lipa Sp. z o.o.",
            "ul. Lipowa 1",
            "00-001 Warszawa",
            "",
            "Jan Kowalski",
            "ul. Kowalska 1",
            "00-000 Kowalewo",
            "",
            "Razem do zapłaty: 1 230,00 PLN",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["issuer"]["name"] == "Hurtownia Lipa Sp. z o.o."
    assert output["customer"]["name"] == "Jan Kowalski"


def test_text_without_an_account_number_a_vat_id_or_a_country_gives_no_national_identifier() -> None:
    assert national_iban("", ("PL",)) is None
    assert national_iban("73 1111 1111 1111 1111 1111 1111", ()) is None
    assert national_vat("", ("PL", "PT", "IT")) is None
    assert national_vat("NIP: 545-182-41-19", ()) is None
    assert countries_of(None, []) == ()
    assert countries_of("EUR", ["", "VAT"]) == ()


def test_cells_holding_a_sign_a_bare_colon_or_a_label_without_its_value_pair_nothing() -> None:
    page = "\n".join(
        ["INVOICE 7", "", "| R$ |  | : |", "|---|---|---|", "|  | R$ 5 | TOTAL: |", "| NF 12 |  | AB 1 |"]
    )

    output = extract([page], SCHEMA).output

    assert (output["invoice_number"], output["currency"], output["total"]) == ("7", "BRL", None)


def test_czech_labels_name_the_totals_and_the_dates() -> None:
    page = "\n".join(
        [
            "Číslo faktury: 2025-117",
            "Datum vystavení: 05.09.2025",
            "Datum splatnosti: 05.10.2025",
            "Položky celkem",
            "- základ:",
            "773,25",
            "- DPH:",
            "162,38",
            "Doklad celkem:",
            "935,63 CZK",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output["total"], output["net_total"], output["tax_total"]) == (935.63, 773.25, 162.38)
    assert (output["invoice_date"], output["due_date"]) == ("2025-09-05", "2025-10-05")
    assert output["invoice_number"] == "2025-117"


def test_an_iban_after_its_banks_name_is_the_iban() -> None:
    page = "Factura 103\n\nTotal 12.164,74\n\nBanco: IBAN: SANTANDER  ES94 0049 3209 4720 1405 3543"

    assert extract([page], SCHEMA).output["iban"] == "ES94 0049 3209 4720 1405 3543"


def test_a_word_after_iban_with_a_number_of_wrong_check_digits_gives_no_iban() -> None:
    page = "Factura 103\n\nIBAN: SANTANDER  ES95 0049 3209 4720 1405 3543"

    assert extract([page], SCHEMA).output["iban"] is None


def test_a_czech_title_with_a_tax_document_subtitle_gives_the_number_after_its_c() -> None:
    page = "\n".join(
        [
            "Faktura - daňový doklad č.FV2024000117",
            "",
            "Datum vystavení: 05.09.2025",
            "Celkem k úhradě: 936,00 CZK",
        ]
    )

    assert extract([page], SCHEMA).output["invoice_number"] == "FV2024000117"


def test_a_number_word_far_into_a_line_after_the_title_is_not_the_titles_number() -> None:
    page = "\n".join(["Invoice to: Harbour Supplies, Dock Road, Unit No. 5", "", "Total: 120.00 EUR"])

    assert extract([page], SCHEMA).output["invoice_number"] != "5"


def test_a_title_and_its_number_in_a_cell_of_a_heading_row_give_the_number() -> None:
    page = "\n".join(
        [
            "| Chats Illimités Inc. |  | Facture #00917 |",
            "|---|---|---|",
            "| 12 rue Féline, Québec |  | Date d'émission 2024/04/15 |",
            "",
            "| Sous-total |  | 9.41$ |",
            "| Grand total |  | 10.82$ |",
        ]
    )

    assert extract([page], SCHEMA).output["invoice_number"] == "00917"


def test_canadian_sales_tax_labels_name_the_tax_total() -> None:
    page = "\n".join(["Facture 17", "", "Sous-total: 9,41 $", "TPS/TVQ: 1,41 $", "Grand total: 10,82 $"])

    assert extract([page], SCHEMA).output["tax_total"] == 1.41


def test_a_typeset_date_with_a_space_after_each_dot_is_a_date() -> None:
    page = "\n".join(["Rechnung", "", "Rechnungsnummer", "2018-77", "", "Rechnungsdatum", "14. 11. 2018"])

    assert extract([page], SCHEMA).output["invoice_date"] == "2018-11-14"


def test_a_cell_of_a_label_and_its_colon_has_its_value_in_the_cell_below() -> None:
    page = "\n".join(
        [
            "Tax Invoice",
            "",
            "| Northwind Traders Private Limited | Invoice No: | Date: 01-Oct-2023 |",
            "|---|---|---|",
            "| Street Line 1 | NWT-0417 | Invoice Type: B2C |",
            "| Street Line 2 | Buyer: |  |",
        ]
    )

    assert extract([page], SCHEMA).output["invoice_number"] == "NWT-0417"


def test_a_row_of_column_headings_with_colons_does_not_label_the_row_under_it() -> None:
    rows = [(0, ("Item:", "Quantity:", "Amount:")), (1, ("Consulting", "2", "300.00"))]

    assert _colons_over_values(rows) == []


def test_a_row_of_one_label_and_its_colon_labels_the_cell_under_it() -> None:
    rows = [(0, ("Northwind Traders", "Invoice No:", "Date: 01-Oct-2023")), (1, ("Street 1", "NWT-0417", ""))]

    assert [(pair.label, pair.value) for pair in _colons_over_values(rows)] == [("Invoice No", "NWT-0417")]


def test_excluding_tax_alone_before_an_amount_labels_the_net_total() -> None:
    page = "\n".join(["Faktura 2525", "", "Exkl. moms: 900,00", "Moms 25%: 225,00", "Summa: 1125,00 SEK"])

    assert extract([page], SCHEMA).output["net_total"] == 900.0


DANISH = "\n".join(
    [
        "Nordlys Tømrer ApS",
        "Strandvejen 12",
        "2900 Hellerup",
        "CVR: DK25313763",
        "",
        "FAKTURA",
        "",
        "Fakturanummer: 118",
        "Dato: 03.02.2025",
        "Forfaldsdato: 17.02.2025",
        "",
        "KØBER",
        "Havnens Bageri",
        "Kajgade 4",
        "8000 Aarhus",
        "",
        "Subtotal: 2.000,00 kr.",
        "Moms (25%): 500,00 kr.",
        "Total: 2.500,00 kr.",
    ]
)


def test_danish_labels_name_the_due_date_the_buyer_and_the_cvr_number() -> None:
    result = extract([DANISH], SCHEMA)

    assert result.output["due_date"] == "2025-02-17"
    assert result.output["customer"]["name"] == "Havnens Bageri"
    assert result.output["issuer"]["vat_id"] == "DK25313763"


def test_kr_after_amounts_is_the_krone_of_the_country_the_document_shows() -> None:
    assert extract([DANISH], SCHEMA).output["currency"] == "DKK"
    without_country = DANISH.replace("CVR: DK25313763", "Tlf. 33 12 34 56")
    assert extract([without_country], SCHEMA).output["currency"] is None
