"""Portuguese invoices and bills (their numbers "FT 2023/59" issued "emitida em" a date, "Contribuinte" and
"NIPC" for the tax id, "N.º" for number, "Data limite de pagamento", their postcodes), party names that
are no street, postcode, sentence or the other party's, a sender's line opening with its label, a lone
VAT id, labels with a rate in brackets run on one line, a sum printed after a row of labelled amounts,
an amount with a rule of dashes after it, "Invoice for <customer>". Every document here is written for
the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.identifiers import find_identifier
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.receipts import _AMOUNT_AT_END
from docsvc.intelligence.values import parse_number

from tests.unit.test_invoice_labels_sl_ro_mx_au import invoice_output


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("N.º Documento", ("invoice", "number")),
        ("Nº do Documento", ("invoice", "number")),
        ("Contribuinte", ("vat", "id")),
        ("N.º de contribuinte", ("vat", "id")),
        ("NIPC", ("vat", "id")),
        ("Data Lim. Pagamento", ("due", "date")),
        ("Data limite de pagamento", ("due", "date")),
        ("Aussteller", ("vendor",)),
        ("Totaalprijs", ("total",)),
    ],
)
def test_portuguese_german_and_dutch_labels_are_read(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


def test_a_title_with_its_series_code_and_issued_em_a_date_gives_the_number_and_the_date() -> None:
    output = invoice_output(
        "Águas do Exemplo, S.A.",
        "FATURA nº FT 20230/00000819, emitida em 2023.01.03",
        "Valor a Pagar 87,16 €",
    )
    assert (output["invoice_number"], output["invoice_date"]) == ("FT 20230/00000819", "2023-01-03")


def test_the_addressee_block_after_the_letterheads_registration_block_is_the_customer() -> None:
    letterhead = "Destino Exemplo Lda\nRua dos Mercadores, 77 - 1C\n4050-551 Porto Portugal"
    registration = "Contribuinte: 515593354\nCapital Social:  10,000.00\nConservatória:  Porto"
    customer = "MARIA EXEMPLO COSTA\nRua da Boavista, 751\n4405-571 Vila Nova de Gaia Portugal\n"
    customer += "Contribuinte: 292462352"
    output = invoice_output(letterhead, registration, customer, "FATURA", "Total: 402.99€")
    assert output["customer"]["name"] == "MARIA EXEMPLO COSTA"  # type: ignore[index]
    assert output["issuer"]["vat_id"] == "515593354"  # type: ignore[index]


def test_a_senders_line_opening_with_its_label_names_the_sender() -> None:
    sender = "Abs.: Beispiel GmbH. | Hauptstraße 123 | 10115 Berlin"
    customer = "Kunde Exemplar KG\nHerr Max Muster\nSchöpfergasse 6\n1120 WIEN"
    output = invoice_output(
        sender, customer, "Rechnung: Re-147/2025", "Datum: 08.08.2025", "Brutto: 2.840,00 €"
    )
    assert output["issuer"]["name"] == "Beispiel GmbH."  # type: ignore[index]


@pytest.mark.parametrize("street", ["Skönabergsvägen 8", "Hauptstraße 123", "Kerkstraat 12"])
def test_a_street_and_a_postcode_over_a_name_are_no_name(street: str) -> None:
    head = f"Faktura\n{street}\n261 51  Landskrona\n\nExempel AB"
    output = invoice_output(head, "Fakturanummer\n116", "ATT BETALA SEK 46 923,00")
    assert output["issuer"]["name"] == "Exempel AB"  # type: ignore[index]


def test_a_sum_with_thousands_apart_by_spaces_is_read_whole_after_its_label() -> None:
    found = _AMOUNT_AT_END.search("ATT BETALA SEK 46 923,00")
    assert found is not None and (found[1], found[2]) == ("46 923", "00")
    output = invoice_output("Faktura", "Fakturanummer\n116", "ATT BETALA SEK 46 923,00")
    assert output["total"] == 46923.0


def test_the_one_vat_id_a_document_prints_alone_is_the_issuers() -> None:
    footer = "info@exempel.se\nSE556677889901\nGodkänd för F-skatt"
    output = invoice_output("Faktura", "Fakturanummer\n116", "Att betala 120,00 kr", footer)
    assert output["issuer"]["vat_id"] == "SE556677889901"  # type: ignore[index]
    assert find_identifier("vat", "Som köpare blir du betalningsskyldig om Skatteverkets avslag") is None


def test_two_lone_vat_ids_are_nobodys() -> None:
    output = invoice_output(
        "Faktura", "Fakturanummer\n116", "SE556677889901", "SE556036079301", "Att betala 120,00 kr"
    )
    assert (output["issuer"] or {}).get("vat_id") is None  # type: ignore[attr-defined]


def test_a_dated_sentence_and_the_customers_name_are_not_the_issuers_name() -> None:
    sentence = "De acordo com as instruções, o valor será debitado na conta\n"
    sentence += "bancária indicada a partir de 2023.01.25."
    window = "DESTINO EXEMPLO LDA\nR MARIA PIA\n24-A RC ESQ\n1350-208 LISBOA"
    contract = "Titular do Contrato - DESTINO EXEMPLO LDA\nNIF - 515593354"
    output = invoice_output(sentence, window, "FATURA nº FT 20230/00000819, emitida em 2023.01.03", contract)
    assert output["customer"]["name"] == "DESTINO EXEMPLO LDA"  # type: ignore[index]
    assert (output["issuer"] or {}).get("name") is None  # type: ignore[attr-defined]


def test_a_companys_name_before_a_labelled_seat_in_a_footer_with_its_registration_is_the_issuer() -> None:
    header = "Original\nFatura dez 2022\n\nNº Documento\nNº de Conta\n\nFT 101/049255178\n313695986"
    footer = "Exemplo Comunicações, S.A. Sede: Avenida D. João II 36, 1998-017 Lisboa NIPC PT502544180"
    output = invoice_output(
        header, "PRISCILLA EXEMPLO\nRUA DA CEDOFEITA 68\n4050-172 PORTO", footer, "Total € 34,90"
    )
    assert output["invoice_number"] == "FT 101/049255178"
    assert output["issuer"]["name"] == "Exemplo Comunicações, S.A."  # type: ignore[index]


def test_labels_with_a_rate_in_brackets_run_on_one_line_each_take_their_amount() -> None:
    line = "Netto: £ 3.200,50 Mehrwertsteuer (20%): £ 640,10 Brutto: £ 3.840,60"
    output = invoice_output("Rechnung Nr. UK-44552 Datum: 03. April 2026 Aussteller: Exemplar Group,", line)
    assert (output["net_total"], output["tax_total"], output["total"]) == (3200.5, 640.1, 3840.6)
    assert output["issuer"]["name"] == "Exemplar Group"  # type: ignore[index]


def test_a_sum_after_a_row_of_labelled_amounts_leaves_the_labels_their_own() -> None:
    row = "GRAVADO    Impuestos    Sub Total    IVA\n"
    row += "10.356,06    0,00    10.356,06    2.174,77    $    12.530,83"
    output = invoice_output("Factura", "N° 0008-00021658", row)
    assert output["net_total"] == 10356.06


def test_a_title_and_number_over_a_piece_set_apart_on_a_line_below() -> None:
    output = invoice_output(
        "Factura\nEXEMPLO S.A.\nCEREALES/INSUMOS    N° 0008-00021658\nFECHA: 01/11/2022", "Total: 5,00"
    )
    assert output["invoice_number"] == "0008-00021658"


def test_a_rule_of_dashes_after_an_amount_is_no_part_of_it() -> None:
    assert parse_number("€ 59,38 ---") == (59.38, 1.0)
    assert parse_number("59,38-") == (-59.38, 1.0)  # a minus after the amount stays one


@pytest.mark.parametrize(
    ("title", "name"), [("Factuur voor Bram", "Bram"), ("Invoice for Acme Ltd", "Acme Ltd")]
)
def test_the_name_after_a_title_and_for_is_the_customers_not_the_issuers(title: str, name: str) -> None:
    output = invoice_output(title, "Totaalprijs\n200.12")
    assert output["customer"]["name"] == name  # type: ignore[index]
    assert (output["issuer"] or {}).get("name") != title  # type: ignore[attr-defined]


def test_a_seller_and_a_buyer_each_under_its_own_label_keep_one_name_a_sample_gives_both() -> None:
    parties = "Sprzedawca:\n\nFirma XYZ\nAdres firmy\nNIP: 1234567802\n\nNabywca:\n\nFirma XYZ\nAdres firmy"
    output = invoice_output("Data wystawienia: 2024-10-29", parties, "Suma 2800zł")
    assert output["issuer"]["name"] == output["customer"]["name"] == "Firma XYZ"  # type: ignore[index]


def test_a_registers_folio_in_a_footer_is_no_documents_number() -> None:
    footer = (
        "EXEMPLO CONSTRUCCIONS SL  CIF B16585507   TOMO 2778   LIBRO 0   FOLIO 62   HOJA PM-84861  INCRIP. 1"
    )
    output = invoice_output("Factura", "Total Factura\n12.164,74", footer)
    assert output["invoice_number"] is None


def test_a_run_on_cell_with_dates_still_names_the_company_it_opens_with() -> None:
    cell = (
        "| Rechnungsersteller Beispiel GmbH Beispielstraße 20 RECHNUNG 80333 München Rechnungsnummer 471102"
        " Rechnungsdatum 05.03.2013 Leistungsdatum 05.03.2013 |  |\n|---|---|\n"
        "| Rechnungssumme Brutto | 529,87 |"
    )
    output = invoice_output(cell)
    assert output["issuer"]["name"] == "Rechnungsersteller Beispiel GmbH"  # type: ignore[index]


def test_a_gst_registration_number_is_the_issuers_vat_id_and_a_billing_address_opens_with_the_customer() -> (
    None
):
    sold_by = "Sold By :\nExample Retail India Private Limited\nThane, Maharashtra, 421302\nIN"
    gst = "PAN No: AAQCS4259Q\nGST Registration No: 27AAQCS4259Q1ZA"
    billing = (
        "Billing Address :\n\nAsha Verma\n504, A-Wing, Marigold Chs Ltd\nMira Road(East), MAHARASHTRA, 401107"
    )
    output = invoice_output(
        "Tax Invoice", "Invoice Number : BOM5-5826861", sold_by, gst, billing, "TOTAL: ₹764.00"
    )
    assert output["issuer"]["vat_id"] == "27AAQCS4259Q1ZA"  # type: ignore[index]
    assert output["customer"]["name"] == "Asha Verma"  # type: ignore[index]


def test_party_blocks_side_by_side_read_a_row_at_a_time_take_every_other_line() -> None:
    rows = [
        "Szkółka Przykładowa",
        "Gmina Wronowo",
        "Jan Kowalski",
        "Ul. Wrońska",
        "Ptasia 15",
        "11-111 Wronowo",
    ]
    output = invoice_output(
        "Sprzedawca:\n\nNabywca:", *rows, "Rachunek sprzedaży nr 1/3/2024", "Razem do zapłaty: 38.00 zł"
    )
    assert output["issuer"]["name"] == "Szkółka Przykładowa"  # type: ignore[index]
    assert output["customer"]["name"] == "Gmina Wronowo"  # type: ignore[index]


@pytest.mark.parametrize("line", ["Rachunek sprzedaży nr 1/3/2024", "Faktura nr 1/3/2024"])
def test_a_number_shaped_as_a_date_after_its_no_is_the_documents_number(line: str) -> None:
    output = invoice_output("Firma Przykład", line, "Razem do zapłaty: 38.00 zł")
    assert output["invoice_number"] == "1/3/2024"


def test_a_date_after_a_title_without_its_no_stays_a_date() -> None:
    output = invoice_output("Firma Przykład", "Invoice 03/06/2025", "Total: 38.00")
    assert (output["invoice_number"], output["invoice_date"]) == (None, "2025-06-03")


def test_a_czech_crown_before_its_amount_and_a_country_code_under_an_address() -> None:
    head = "14000 Praha 4 - Krč\nTočitá 1721/16\n\nCZ"
    output = invoice_output(head, "IČ: 47486333", "Číslo faktury: 15 FAKTURA", "CELKOVÁ ČÁSTKA:\nKč 463.00")
    assert output["total"] == 463.0
    assert parse_number("Kč 463.00") == (463.0, 1.0)
    assert (output["issuer"] or {}).get("name") != "CZ"  # type: ignore[attr-defined]
