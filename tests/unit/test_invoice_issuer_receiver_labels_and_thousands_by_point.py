"""Invoices whose whole amounts group their thousands with a point and name no currency ("20.000"),
Spanish party headings ("Datos del Emisor", "Datos del Receptor"), a column heading printed under
"BILL TO", a Czech simplified tax document's number, "Deadline" for the due date, and a party's name
printed with its address after a comma. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.candidates import name_before_its_address
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import parse_number, writes_decimal_comma

from tests.unit.test_invoice_labels_sl_ro_mx_au import invoice_output


def test_a_whole_total_grouped_by_a_point_with_no_currency_named_is_thousands() -> None:
    items = "| CODICE | DESCRIZIONE | TOTALE |\n|---|---|---|\n"
    items += "| 18A | Cemento | 6000 |\n| 18B | Mattoni | 14000 |"
    output = invoice_output("Edilizia Esempio S.r.l.", "FATTURA N. 7/2024", items, "TOTALE\n20.000")
    assert output["total"] == 20000.0


@pytest.mark.parametrize(
    ("texts", "comma"),
    [
        (["TOTALE 20.000"], True),  # no cents anywhere, no currency: the point groups thousands
        (["Total 20.000 KWD"], False),  # a currency counted in thousandths names itself
        (["Total 20.000", "Tax 1.50"], False),  # an amount with cents shows the decimal point
        (["Date 30.04.2024", "Version 2.1", "Total 150"], False),  # a date's and a version's points
    ],
)
def test_the_decimal_mark_of_a_document_without_cents_follows_its_grouped_amounts(
    texts: list[str], comma: bool
) -> None:
    assert writes_decimal_comma(texts) is comma


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Datos del Emisor", ("vendor",)),
        ("Datos del Receptor", ("customer",)),
        ("Receptor", ("customer",)),
        ("Dados do Emitente", ("vendor",)),
        ("Deadline", ("due", "date")),
        ("Issuer Details", ("vendor",)),
        ("Recipient Details", ("customer",)),
        ("Klantgegevens", ("customer",)),
        ("Zjednodušený daňový doklad", ("invoice",)),
    ],
)
def test_spanish_and_portuguese_party_headings_and_a_deadline_are_read(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_the_parties_under_spanish_issuer_and_receiver_headings() -> None:
    output = invoice_output(
        "Factura\n#100200",
        "Datos del Emisor:\nEjemplo y Asociados S.L.\nCalle Mayor 9, Teruel 44001",
        "Datos del Receptor:\nAna María López Ruiz\nAvenida del Puerto 16, Ceuta 51001",
        "Subtotal: 100.00\nIVA (21%): 21.00\nTotal: 121.00",
    )
    assert output["issuer"]["name"] == "Ejemplo y Asociados S.L."  # type: ignore[index]
    assert output["customer"]["name"] == "Ana María López Ruiz"  # type: ignore[index]


def test_the_heading_of_the_column_beside_under_bill_to_is_no_customer() -> None:
    output = invoice_output(
        "INVOICE #17",
        "Example & Co.\n12 Avenue B\nGotham, NY 10001",
        "BILL TO\nFOR",
        "Maija Esimerkki",
        "Rantatie 3",
        "| Details | AMOUNT |\n|---|---|\n| Consulting | 150.00 $ |\n| TOTAL | 150.00 $ |",
    )
    assert output["customer"]["name"] == "Maija Esimerkki"  # type: ignore[index]


def test_a_czech_simplified_tax_documents_number_and_a_deadline() -> None:
    output = invoice_output(
        "Zjednodušený daňový doklad č. 12",
        "Dodavatel: Ukázkový obchod s.r.o.",
        "Odběratel: Petr Novák, Dlouhá 15, Brno",
        "Deadline: 15.05.2025",
        "Celkem k úhradě: 1210.00 Kč",
    )
    assert output["invoice_number"] == "12"
    assert output["due_date"] == "2025-05-15"
    assert output["customer"]["name"] == "Petr Novák"  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Petr Novák, Dlouhá 15, Brno", "Petr Novák"),
        ("Acme Ltd, 12 High Street", "Acme Ltd"),
        ("Jan Novák, 602 00 Brno", "Jan Novák"),
        ("Maria de la Cruz Ortega, Calle 5", "Maria de la Cruz Ortega"),  # five words: a name
        ("Maria de la Cruz Ortega Ruiz, Calle 5", "Maria de la Cruz Ortega Ruiz, Calle 5"),  # six
        ("Smith, John", "Smith, John"),  # a surname before the first name
        ("Acme, Inc.", "Acme, Inc."),
        ("Example, Inc., 12 Main St", "Example, Inc., 12 Main St"),  # the legal form after the comma
        (
            "The Very Long Named Trading Company Of Somewhere, 1 Road",
            "The Very Long Named Trading Company Of Somewhere, 1 Road",
        ),
    ],
)
def test_a_name_printed_with_its_address_after_a_comma_is_the_name(text: str, name: str) -> None:
    assert name_before_its_address(text) == name


def test_contact_lines_over_the_letterhead_leave_the_name_under_them_the_issuer() -> None:
    output = invoice_output(
        "Tel: 06-12345678\nE-mail: info@voorbeeld.nl",
        "Stichting Zang en Spel",
        "Tulpstraat 5, 3434 AB, Nieuwegein\nKvK-nr: 12345678",
        "Factuur 2025-01",
        "Totaal: € 25,00",
    )
    assert output["issuer"]["name"] == "Stichting Zang en Spel"  # type: ignore[index]


def test_a_dutch_customer_details_heading_names_the_customer() -> None:
    output = invoice_output(
        "Ordernummer: 2000-018",
        "Klantgegevens:\n\nVoorbeeld Computers B.V.\n\nKerkstraat 1\n\n1000 AA Amsterdam",
        "Subtotaal (excl. btw): 100.00\nBtw: 21.00\nTotaal: 121.00",
    )
    assert output["customer"]["name"] == "Voorbeeld Computers B.V."  # type: ignore[index]
    assert output["issuer"] is None or output["issuer"]["name"] != "Voorbeeld Computers B.V."  # type: ignore[index]


def test_a_name_over_its_tax_ids_line_outranks_a_section_heading_atop_the_page() -> None:
    output = invoice_output(
        "Ventas\n\nTotal Ventas: 100,00 €",
        "Fecha: 27/11/2024",
        "EjemploSport\nCIF: B12345674\nCalle Mayor, nº 5, 28039 Madrid",
        "Datos del Cliente\nNombre: Ana Ruiz",
        "Total General: 100,00 €",
    )
    assert output["issuer"]["name"] == "EjemploSport"  # type: ignore[index]


def test_a_table_of_the_two_parties_blocks_after_the_title_and_its_dates_opens_with_the_issuer() -> None:
    """The title with its number and the document's labelled dates stand over a table whose first
    column is the sender's block: that column is the letterhead, not the title's line."""
    output = invoice_output(
        "Invoice INV7",
        "Date: 2024-10-26\nDue Date: 2024-11-25",
        "| Example Trading SARL | Jean Client |\n|---|---|\n| 12 Rue Haute | 5 Rue Basse |\n"
        "| 33000 Bordeaux | 75000 Paris |",
        "| Product | Price |\n|---|---|\n| Service | $15.00 |\n| Total | $15.00 |",
    )
    assert output["issuer"]["name"] == "Example Trading SARL"  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "amount"), [("2906.99 zł.", 2906.99), ("2 906,99 zł.", 2906.99), ("100 EUR.", 100.0)]
)
def test_an_amount_whose_currency_ends_a_sentence_is_read(text: str, amount: float) -> None:
    assert parse_number(text) == (amount, 1.0)
    assert parse_number("163 253 571.42 .") == (163253571.42, 1.0)  # the stop apart, no currency between
    assert parse_number("12.") is None  # a stop right after the figures is no stop apart


def test_polish_sale_dates_and_copy_marks_are_labels_not_a_buyers_name() -> None:
    assert label_key("Data sprzedaży") == ("delivery", "date")
    output = invoice_output(
        "FAKTURA VAT NR\n37/G/03/2026",
        "SPRZEDAWCA\n\nNABYWCA\n\nData wystawienia\n\nData sprzedaży\nOryginał/Kopia",
        "Do zapłaty:\n2906.99 zł.",
    )
    assert output["total"] == 2906.99
    assert output["customer"] is None or output["customer"]["name"] not in {
        "Data sprzedaży",
        "Oryginał/Kopia",
    }  # type: ignore[index]


def test_an_invoice_written_as_a_letter_names_no_one_by_its_greeting_and_gives_the_iban_in_its_text() -> None:
    output = invoice_output(
        "Factuur",
        "Geachte medewerker van het Voorbeeld college,",
        "Ik zou graag 120.00 euro willen factureren voor de lessen.",
        "Dit bedrag graag overmaken op NL11 TRIO 0781 5094 40, ten name van J. Voorbeeld.",
        "Totaal: 120.00",
    )
    assert output["issuer"] is None or output["issuer"]["name"] is None  # type: ignore[index]
    assert output["iban"] == "NL11TRIO0781509440"


def test_the_customers_name_over_its_vat_id_under_the_senders_is_not_the_issuer() -> None:
    output = invoice_output(
        "Invoice No: 20-A0091",
        "Example Inc\nVAT ID: AT8375614432\n1640 Riverside Drive\nHill Valley, CA",
        "Erika Muster\nVAT ID: DE837566332\nMusterallee 1\n12345 Musterstadt",
        "Total 100.00 €",
    )
    assert output["issuer"]["name"] == "Example Inc"  # type: ignore[index]


def test_an_items_table_opening_the_page_is_no_letterhead() -> None:
    output = invoice_output(
        "| Article | Unid. | Descripción | Cantidad | Precio | Importe |\n|---|---|---|---|---|---|\n"
        "| P0001 | u | Servicio | 1 | 100,00 | 100,00 |",
        "Ejemplo Servicios S.L.\nCalle Mayor 9\n28001 Madrid\ncontacto@ejemplo.es",
        "Total: 100,00 €",
    )
    assert output["issuer"] is None or output["issuer"]["name"] != "Article"  # type: ignore[index]
