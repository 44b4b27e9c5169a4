"""Labels of other languages read as their English keys, and invoices in them extracted."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key

SCHEMA = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "invoice_date": {"type": "string", "format": "date"},
        "due_date": {"type": "string", "format": "date"},
        "total": {"type": "number"},
        "net_total": {"type": "number"},
        "vat_id": {"type": "string"},
        "iban": {"type": "string"},
    },
}


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Rechnungsnummer", ("invoice", "number")),
        ("Rechnungs-Nr.", ("invoice", "number")),
        ("Rg.-Nr.", ("invoice", "number")),
        ("Factuurnr.", ("invoice", "number")),
        ("N. fattura", ("invoice", "number")),
        ("Núm. factura", ("invoice", "number")),
        ("Faktura VAT nr", ("invoice", "number")),
        ("Fecha de expedición", ("invoice", "date")),
        ("Data di emissione", ("invoice", "date")),
        ("Montant à payer", ("total",)),
        ("Payable to", ("vendor",)),
        ("Endsumme", ("total",)),
        ("N° de facture", ("invoice", "number")),
        ("Factuurnummer", ("invoice", "number")),
        ("Numer faktury", ("invoice", "number")),
        ("Número de factura", ("invoice", "number")),
        ("Data wystawienia", ("invoice", "date")),
        ("Date d'échéance", ("due", "date")),
        ("Termin płatności", ("due", "date")),
        ("Fällig am", ("due", "date")),
        ("Gesamtbetrag", ("total",)),
        ("Total TTC", ("total",)),
        ("Te betalen", ("total",)),
        ("Totale documento", ("total",)),
        ("Total HT", ("net", "total")),
        ("Rechnungssumme ohne USt.", ("total", "excluding", "tax")),
        ("USt.-Id.-Nr.", ("vat", "id")),
        ("N° TVA intra", ("vat", "id")),
        ("Lieferdatum", ("delivery", "date")),
        ("Kundennummer", ("customer", "number")),
        ("Käufer", ("customer",)),
        ("Währung", ("currency",)),
        ("Invoice number", ("invoice", "number")),
        ("MwSt.", ("tax",)),
        ("zzgl. MwSt.", ("tax",)),
        ("Total taxes", ("tax",)),
        ("Montants TTC", ("total",)),
        ("Destinataire", ("customer",)),
        ("Gesamt", ("total",)),
        ("Date limite de règlement", ("due", "date")),
        ("N° intracom", ("vat", "id")),
        ("Totaal ex BTW", ("net", "total")),
        ("Crediteur", ("vendor",)),
        ("Debiteur", ("customer",)),
        ("Versicherungsteuer", ("tax",)),
        ("Laskun nro", ("invoice", "number")),
        ("Eräpäivä", ("due", "date")),
        ("Maksettava", ("total",)),
        ("Veroton yhteensä", ("net", "total")),
        ("Fakturanummer", ("invoice", "number")),
        ("Förfallodatum", ("due", "date")),
        ("Att betala", ("total",)),
        ("Total Net", ("net", "total")),
        ("N° d'enregistrement TVA", ("vat", "id")),
        ("Rechnungsbeitrag", ("total",)),
        ("Fälligkeitstag", ("due", "date")),
        ("Beitrag inklusive Versicherungsteuer", ("amount", "including", "tax")),
    ],
)
def test_a_label_of_another_language_has_the_key_of_its_english_words(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_a_german_invoice_is_read_by_its_own_labels() -> None:
    page = "\n".join(
        [
            "Muster GmbH - Hauptstraße 1 - 10115 Berlin",
            "",
            "Rechnung",
            "Rechnungsnummer: R-2024-117",
            "Rechnungsdatum: 15.01.2024",
            "Fällig am: 14.02.2024",
            "",
            "Nettobetrag: 1.000,00 €",
            "USt. 19 %: 190,00 €",
            "Gesamtbetrag: 1.190,00 €",
            "",
            "USt-IdNr.: DE136695976",
            "IBAN: DE89 3704 0044 0532 0130 00",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output == {
        "invoice_number": "R-2024-117",
        "invoice_date": "2024-01-15",
        "due_date": "2024-02-14",
        "total": 1190.0,
        "net_total": 1000.0,
        "vat_id": "DE136695976",
        "iban": "DE89 3704 0044 0532 0130 00",
    }


def test_a_french_invoice_gives_its_number_from_its_title_and_its_totals_by_ht_and_ttc() -> None:
    page = "\n".join(
        [
            "Facture FA-2024-0031",
            "",
            "Date de facture : 03/02/2024",
            "Date d'échéance : 04/03/2024",
            "",
            "| Total HT | 250,00 € |",
            "|---|---|",
            "| TVA 20% | 50,00 € |",
            "| Total TTC | 300,00 € |",
            "",
            "N° TVA intra : FR11999999998",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_number"] == "FA-2024-0031"
    assert (output["invoice_date"], output["due_date"]) == ("2024-02-03", "2024-03-04")
    assert (output["net_total"], output["total"]) == (250.0, 300.0)
    assert output["vat_id"] == "FR11999999998"


def test_a_plain_invoice_printing_its_number_after_its_title_gives_it() -> None:
    page = "Invoice INV-2041\n\nDate: 2026-03-02\nTotal due: $120.00"

    assert extract([page], SCHEMA).output["invoice_number"] == "INV-2041"


def test_a_tax_added_to_the_net_sum_as_zuzueglich_mwst_is_the_tax_total() -> None:
    page = "\n".join(
        [
            "| Pos. | Artikel | Betrag |",
            "|---|---|---|",
            "| 1 | Superdrachen | 40,00 |",
            "|  | Rechnungssumme netto | 40,00 |",
            "|  | zuzüglich 19% MwSt. | 7,60 |",
            "|  | Rechnungssumme brutto | 47,60 |",
        ]
    )

    output = extract([page], {"type": "object", "properties": {"tax_total": {"type": "number"}}}).output

    assert output["tax_total"] == 7.6


def test_the_recipient_under_a_destinataire_heading_is_the_customer() -> None:
    page = "\n\n".join(
        ["FACTURE", "Émetteur", "Atelier Lemoine SARL", "3 rue Haute", "Destinataire", "Mairie de Blois"]
    )
    schema = {
        "type": "object",
        "properties": {
            "issuer": {"type": "object", "properties": {"name": {"type": "string"}}},
            "customer": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
    }

    output = extract([page], schema).output

    assert output["issuer"]["name"] == "Atelier Lemoine SARL"
    assert output["customer"]["name"] == "Mairie de Blois"


@pytest.mark.parametrize(
    ("printed", "iso"),
    [
        ("8. Mai 2019", "2019-05-08"),
        ("5 juin 2018", "2018-06-05"),
        ("13 décembre 2023", "2023-12-13"),
        ("1 maart 2024", "2024-03-01"),
        ("3 de enero de 2024", "2024-01-03"),
        ("15 gennaio 2024", "2024-01-15"),
        ("12 marca 2024", "2024-03-12"),
    ],
)
def test_a_date_written_with_a_month_name_of_another_language_is_read(printed: str, iso: str) -> None:
    page = f"Rechnungsnummer: 2019-03\nLiefer- und Rechnungsdatum: {printed}"

    assert extract([page], SCHEMA).output["invoice_date"] == iso


@pytest.mark.parametrize(
    "label",
    ["Total € Incl. VAT", "Total incl. VAT", "Gesamt inkl. MwSt.", "Summe inkl. USt.", "Betrag inkl. MwSt."],
)
def test_a_total_said_to_include_the_tax_is_the_grand_total(label: str) -> None:
    page = f"Rechnung 12\n\nNettobetrag: 100,00 €\nMwSt. 19%: 19,00 €\n{label}: 119,00 €\n"

    output = extract([page], SCHEMA).output

    assert (output["total"], output["net_total"]) == (119.0, 100.0)


def test_a_total_said_to_exclude_the_tax_is_the_net_total() -> None:
    page = "Invoice 12\n\nTotal excl. VAT: 100.00 EUR\nVAT 20%: 20.00 EUR\nTotal incl. VAT: 120.00 EUR\n"

    output = extract([page], SCHEMA).output

    assert (output["total"], output["net_total"]) == (120.0, 100.0)


def test_a_labelled_date_printed_as_its_eight_digits_year_first_is_read() -> None:
    page = "FACTURE\nN° FA-2026-0001\nDate : 20260815  ·  Échéance : 20260914"

    output = extract([page], SCHEMA).output

    assert (output["invoice_date"], output["due_date"]) == ("2026-08-15", "2026-09-14")


def test_eight_digits_that_are_no_date_are_not_read_as_one() -> None:
    page = "Rechnung\nRechnungsdatum: 20261345\nFällig am: 19991231"

    output = extract([page], SCHEMA).output

    assert output["invoice_date"] is None
    assert output["due_date"] == "1999-12-31"


def test_the_vat_id_of_the_customer_is_not_the_issuers_and_one_labelled_tva_is() -> None:
    page = "\n".join(
        [
            "Au bon moulin SARL - 1242 chemin de l'olive - 84340 Malaucène",
            "TVA : FR11999999998 - SIRET : 99999999800010",
            "",
            "Facture FA-2017-0010",
            "",
            "| Votre référence | PO445 |",
            "|---|---|",
            "| N° TVA client | FR19787878784 |",
        ]
    )
    schema = {
        "type": "object",
        "properties": {"issuer": {"type": "object", "properties": {"vat_id": {"type": "string"}}}},
    }

    assert extract([page], schema).output["issuer"]["vat_id"] == "FR11999999998"


@pytest.mark.parametrize(
    "label", ["N° de facture associée", "Original invoice number", "Ursprüngliche Rechnungsnummer"]
)
def test_the_number_of_an_associated_or_original_invoice_is_not_the_invoices_own(label: str) -> None:
    page = f"Références\n{label} : F20200003\nDate de facture associée : 30/11/2019"

    result = extract([page], SCHEMA)

    assert result.output["invoice_number"] is None
    assert result.likelihoods["invoice_date"] < 0.5  # at most the document's first date, unlabelled


def test_a_dutch_invoice_names_its_seller_crediteur_and_its_buyer_debiteur() -> None:
    page = "\n".join(
        [
            "Leverancier",
            "Factuurnummer: 2024-88",
            "Factuurdatum: 12-03-2024",
            "",
            "Crediteur",
            "Bakkerij De Molen BV",
            "Molenweg 4",
            "1234 AB Zaandam",
            "",
            "Afnemer",
            "Debiteur",
            "Jansen Installatie BV",
            "Kerkstraat 9",
            "5611 AA Eindhoven",
            "",
            "Totaal ex BTW: 200,00",
            "BTW (21%): 42,00",
            "Totaal te betalen: 242,00",
        ]
    )
    party = {"type": "object", "properties": {"name": {"type": "string"}}}
    schema = {
        "type": "object",
        "properties": {
            "issuer": {**party, "description": "The seller who issued the invoice"},
            "customer": {**party, "description": "The buyer the invoice is addressed to"},
            "net_total": {"type": "number"},
            "total": {"type": "number"},
        },
    }

    output = extract([page], schema).output

    assert output["issuer"] == {"name": "Bakkerij De Molen BV"}
    assert output["customer"] == {"name": "Jansen Installatie BV"}
    assert (output["net_total"], output["total"]) == (200.0, 242.0)


def test_a_french_vat_id_labelled_n_intracom_is_the_vat_id_not_the_invoice_number() -> None:
    page = "\n".join(["Cabinet Exemple", "N° intracom", ": FR20123589444", "", "Facture n° : 20221100001"])

    output = extract([page], SCHEMA).output

    assert output["vat_id"] == "FR20123589444"
    assert output["invoice_number"] == "20221100001"


def test_the_date_of_a_title_printed_apart_from_its_number_is_the_invoice_date() -> None:
    page = "\n".join(
        [
            "Stylesheet-Version:",
            "2.3 vom 30.06.2020",
            "",
            "Schlussrechnung Bau (877)",
            "25.04.2018",
            "   Nr. 181301674 vom",
            "",
            "Währung:",
            "EUR",
        ]
    )

    found = extract([page], SCHEMA)

    assert (found.output["invoice_number"], found.output["invoice_date"]) == ("181301674", "2018-04-25")
    assert found.likelihoods["invoice_date"] >= 0.7


def test_a_sentence_that_starts_with_a_partys_label_and_ends_with_a_colon_names_no_party() -> None:
    page = "\n".join(
        [
            "Facture FA-2017-0010",
            "",
            "Adresse de livraison",
            "",
            "Ma jolie boutique",
            "35 rue de la République",
            "69001 Lyon",
            "",
            "Date de facture",
            "13/11/2017",
            "",
            "Facture à régler par virement sur le compte suivant :",
            "IBAN : FR20 1242 1242 1242 1242 1242 124 - BIC : FIDCFR21XXX",
            "Page 1 / 1",
        ]
    )
    party = {"type": "object", "properties": {"name": {"type": "string"}, "address": {"type": "string"}}}
    schema = {"type": "object", "properties": {"customer": {**party, "description": "The buyer"}}}

    customer = extract([page], schema).output["customer"]

    assert customer["name"] == "Ma jolie boutique"
    assert "Page 1" not in (customer["address"] or "")


def test_a_label_cut_over_two_cells_pairs_with_the_value_in_the_third() -> None:
    page = "\n".join(
        [
            "Cabinet Exemple",
            "",
            "| Facture | n° : | 20221100001 |",
            "|---|---|---|",
            "| Dossier | n° : | 000003 |",
            "| Date | : | 21/11/2022 |",
        ]
    )

    output = extract([page], SCHEMA).output

    assert output["invoice_number"] == "20221100001"


def test_an_iban_printed_with_a_space_after_its_country_and_after_another_label_on_its_line_is_read() -> None:
    page = "\n".join(
        [
            "Please wire the amount due to our bank account:",
            "BIC: KREDBEBB - IBAN: BE 41 7360 0661 9710",
        ]
    )
    schema = {"type": "object", "properties": {"iban": {"type": "string"}, "bic": {"type": "string"}}}

    output = extract([page], schema).output

    assert output == {"iban": "BE 41 7360 0661 9710", "bic": "KREDBEBB"}


def test_the_row_of_sums_under_a_tax_breakdown_gives_the_net_the_tax_and_the_total() -> None:
    page = "\n".join(
        [
            "| TAX: | % | Base amount: | Tax amount: | Total: | Curr.: |",
            "|---|---|---|---|---|---|",
            "| VAT | 21.00 | 400.00 | 84.00 | 484.00 | EUR |",
            "| VAT | 6.00 | 100.00 | 6.00 | 106.00 | EUR |",
            "|  |  | 500.00 | 90.00 | 590.00 | EUR |",
        ]
    )
    schema = {
        "type": "object",
        "properties": {
            "total": {"type": "number"},
            "net_total": {"type": "number"},
            "tax_total": {"type": "number"},
        },
    }

    output = extract([page], schema).output

    assert output == {"total": 590.0, "net_total": 500.0, "tax_total": 90.0}


def test_a_row_of_sums_opened_by_a_totals_label_gives_the_amounts_its_columns_are_headed_by() -> None:
    page = "\n".join(
        [
            "| Stawka VAT | Wartość netto | Kwota VAT | Wartość brutto |",
            "|---|---|---|---|",
            "| 23% | 1 000,00 | 230,00 | 1 230,00 |",
            "| 8% | 500,00 | 40,00 | 540,00 |",
            "| Razem | 1 500,00 | 270,00 | 1 770,00 |",
        ]
    )
    schema = {"type": "object", "properties": {"tax_total": {"type": "number"}}}

    assert extract([page], schema).output == {"tax_total": 270.0}


def test_a_heading_printing_its_rate_still_heads_the_row_of_sums() -> None:
    page = "\n".join(
        [
            "| Description | Units | Total Net | TVA (20%) | Total TTC |",
            "|---|---|---|---|---|",
            "| Consulting | 12 | 1 000,00 € | 200,00 € | 1 200,00 € |",
            "| Total de la facture |  | 1 000,00 € | 200,00 € | 1 200,00 € |",
        ]
    )
    schema = {"type": "object", "properties": {"tax_total": {"type": "number"}}}

    assert extract([page], schema).output == {"tax_total": 200.0}


def test_the_row_of_sums_is_found_above_the_summary_rows_printed_after_it() -> None:
    page = "\n".join(
        [
            "| Tuote/palvelu | Veroton e | ALV-% | ALV e | Verollinen e |",
            "|---|---|---|---|---|",
            "| Konsultointi | 300,00 | 24,00 | 72,00 | 372,00 |",
            "| Yhteensä | 300,00 | 24,00 | 72,00 | 372,00 |",
            "| Maksettava |  |  |  | 372,00 |",
        ]
    )
    schema = {
        "type": "object",
        "properties": {"net_total": {"type": "number"}, "tax_total": {"type": "number"}},
    }

    assert extract([page], schema).output == {"net_total": 300.0, "tax_total": 72.0}


def test_keys_beside_their_values_from_the_second_column_after_the_addressees_lines() -> None:
    page = "\n".join(
        [
            "| Matti Virtanen | Laskun nro: | 1234 | Maksettava: | 372,00 |",
            "|---|---|---|---|---|",
            "| Esimerkkikatu 5 | Päivämäärä: | 02.03.2021 | Maksuehdot: | 14 pv netto |",
            "| 00100 HELSINKI | Eräpäivä: | 16.03.2021 | Viivästyskorko: | 8% |",
        ]
    )
    schema = {"type": "object", "properties": {"due_date": {"type": "string", "format": "date"}}}

    assert extract([page], schema).output == {"due_date": "2021-03-16"}


@pytest.mark.parametrize(
    ("printed", "code"), [("Do zapłaty 1 230,00 zł", "PLN"), ("Celkem 1 230,00 Kč", "CZK")]
)
def test_a_currency_sign_written_as_a_word_after_the_amount_gives_its_currency(
    printed: str, code: str
) -> None:
    schema = {"type": "object", "properties": {"currency": {"type": ["string", "null"]}}}

    assert extract([printed], schema).output == {"currency": code}


def test_a_word_beginning_like_a_currency_sign_is_no_currency() -> None:
    schema = {"type": "object", "properties": {"currency": {"type": ["string", "null"]}}}

    assert extract(["Data złożenia 12 złożonych wniosków"], schema).output == {"currency": None}


def test_a_compound_key_ending_a_row_beside_its_value_counts_as_a_key_of_two_words() -> None:
    page = "\n".join(
        [
            "| Firma |  | Information |  |",
            "|---|---|---|---|",
            "| Muster Handel KG |  | Belegnummer | 4711 |",
            "| Hauptstraße 1 |  | Belegdatum | 07.01.2021 |",
        ]
    )
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}

    assert extract([page], schema).output == {"invoice_number": "4711"}


def test_a_row_under_items_whose_first_cell_is_empty_but_that_does_not_sum_them_is_no_sums_row() -> None:
    page = "\n".join(
        [
            "| Description | Quantity | Price | Total |",
            "|---|---|---|---|",
            "| Room | 6 | 205.90 | 1235.40 |",
            "|  | 6 | 1.65 | 9.90 |",
        ]
    )
    schema = {"type": "object", "properties": {"total": {"type": ["number", "null"]}}}

    assert extract([page], schema).output["total"] != 9.9


def test_an_insurance_premium_invoice_gives_its_total_tax_and_the_iban_named_in_a_sentence() -> None:
    page = "\n".join(
        [
            "Beitragsrechnung",
            "Fälligkeitstag: 01.04.2014",
            "Gesamtbeitrag",
            " 50,00 €",
            "Versicherungsteuer 19 %",
            "   9,50 €",
            "Rechnungsbeitrag",
            " 59,50 €",
            "",
            "Den Beitrag überweisen Sie bitte auf folgende Bankverbindung: IBAN",
            "DE89370400440532013000, BIC COBADEFFXXX, Musterbank.",
        ]
    )
    schema = {
        "type": "object",
        "properties": {
            "due_date": {"type": "string", "format": "date"},
            "total": {"type": "number"},
            "tax_total": {"type": "number"},
            "iban": {"type": "string"},
        },
    }

    output = extract([page], schema).output

    assert output == {
        "due_date": "2014-04-01",
        "total": 59.5,
        "tax_total": 9.5,
        "iban": "DE89370400440532013000",
    }


def test_a_company_whose_name_starts_with_a_label_word_keeps_its_whole_name() -> None:
    page = "\n".join(
        [
            "Lieferant GmbH & Co. KG",
            "Teststraße 12, 98765 Weitstadt, DE",
            "",
            "Invoice",
            "Invoice number:",
            "6063636771001",
        ]
    )
    party = {"type": "object", "properties": {"name": {"type": "string"}}}
    schema = {
        "type": "object",
        "properties": {"issuer": {**party, "description": "The seller who issued it"}},
    }

    assert extract([page], schema).output["issuer"]["name"] != "GmbH & Co. KG"


def test_a_heading_of_alternatives_is_no_label_and_value() -> None:
    page = "\n".join(
        [
            "Invoice number:",
            "6063636771001",
            "",
            "Customer name / company",
            "",
            "Musterkunde GmbH",
            "Musterstrasse 44, 40789 Musterstadt, DE",
        ]
    )
    party = {"type": "object", "properties": {"name": {"type": "string"}}}
    schema = {"type": "object", "properties": {"customer": {**party, "description": "The buyer"}}}

    assert extract([page], schema).output["customer"]["name"] in {None, "Musterkunde GmbH"}


def test_the_address_block_that_starts_with_a_salutation_is_the_customers() -> None:
    page = "\n".join(
        [
            "MVM Musterhafter",
            "Versicherungsverein Musterstadt a.G.",
            "",
            "Frau",
            "Erika Beispiel",
            "Lindenweg 3",
            "54321 Neustadt",
            "",
            "Beitragsrechnung",
            "24. Januar 2014",
            "Rechnungsbeitrag",
            " 59,50 €",
        ]
    )
    party = {"type": "object", "properties": {"name": {"type": "string"}}}
    customer = {**party, "description": "The buyer the invoice is addressed to"}
    schema = {"type": "object", "properties": {"customer": customer}}

    assert extract([page], schema).output["customer"]["name"] == "Frau Erika Beispiel"


def test_a_beleg_number_and_date_are_the_invoice_number_and_date() -> None:
    page = "\n".join(
        [
            "Lieferant",
            " Lief-Nr: 549910",
            "Beleg-Nr           : R87654321012345",
            " Beleg-Datum        : 06.08.2013",
            "Leistungs-Datum    : 05.08.2013",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output["invoice_number"], output["invoice_date"]) == ("R87654321012345", "2013-08-06")


def test_columns_run_together_in_a_row_of_sums_are_read_apart() -> None:
    page = "\n".join(
        [
            "| Warenwert Zu-/Abschlag | Fracht | Nettobetrag MwSt-Betrag | MwSt-% | Endbetrag |",
            "|---|---|---|---|---|",
            "| 326,50 -8,10 | 3,00 | 321,40 61,07 | 19,0 | 382,47 |",
            "| 130,70 -3,11 |  | 127,59 8,93 | 7,0 | 136,52 |",
            "| 457,20 -11,21 | 3,00 | 448,99 70,00 | EUR | 518,99 |",
            "| MUSTER GMBH | Geschäftsführung: | USt-IdNr: DE123456789 | HRB Nr. 372876 |  |",
        ]
    )
    schema = {
        "type": "object",
        "properties": {
            "total": {"type": "number"},
            "net_total": {"type": "number"},
            "tax_total": {"type": "number"},
        },
    }

    output = extract([page], schema).output

    assert output == {"total": 518.99, "net_total": 448.99, "tax_total": 70.0}


def test_an_amount_whose_thousands_are_apart_by_a_space_is_no_two_columns_run_together() -> None:
    page = "\n".join(
        [
            "| Stawka VAT | Wartość netto | Kwota VAT | Wartość brutto |",
            "|---|---|---|---|",
            "| 23% | 22 222,00 | 5 111,06 | 27 333,06 |",
            "| Razem | 22 222,00 | 5 111,06 | 27 333,06 |",
        ]
    )
    schema = {"type": "object", "properties": {"tax_total": {"type": "number"}}}

    assert extract([page], schema).output == {"tax_total": 5111.06}


def test_an_iban_inside_a_table_cell_of_payment_details_is_read_after_its_name() -> None:
    page = "\n".join(
        [
            "| Bénéficiaire | MOYEN DE PAIEMENT : VIREMENT |",
            "|---|---|",
            "| NOM : PAYEE | REF : F2022 IBAN : FR76 3000 6000 0112 3456 7890 189 - BIC : AGRIFRPP |",
        ]
    )
    schema = {"type": "object", "properties": {"iban": {"type": "string"}}}

    assert extract([page], schema).output == {"iban": "FR76 3000 6000 0112 3456 7890 189"}


def test_a_label_left_without_its_value_takes_the_lone_value_of_its_form_printed_apart() -> None:
    page = "\n".join(
        [
            "FACTURE N° :",
            "",
            "Date :",
            "",
            "N° CONTRAT : CT2018120802",
            "DATE DE LIVRAISON : 28/01/2022",
            "",
            "| TOTAL HT | TOTAL TVA | TOTAL TTC |",
            "|---|---|---|",
            "| 100,00 | 4,90 | 104,90 |",
            "",
            "F20220023",
            "",
            "31/01/2022",
            "",
            "LE CLIENT",
            "06000 NICE",
        ]
    )

    output = extract([page], SCHEMA).output

    assert (output["invoice_number"], output["invoice_date"]) == ("F20220023", "2022-01-31")


def test_a_label_left_without_its_value_takes_nothing_when_two_lone_values_could_be_it() -> None:
    page = "\n".join(["FACTURE N° :", "", "LE CLIENT", "06000 NICE", "", "F20220023", "", "F20220024"])

    assert extract([page], SCHEMA).output.get("invoice_number") is None


def test_the_documents_title_printed_as_a_label_among_others_on_a_line_gives_its_number() -> None:
    page = "Date: 12 Mar 2018 Due date: 19 Mar 2018 Invoice: #42 Payment link: https://example.com/42/pay"

    assert extract([page], SCHEMA).output["invoice_number"] == "42"


def test_umsatzsteuer_alone_is_the_tax_not_the_vat_id() -> None:
    assert label_key("Umsatzsteuer") == ("tax",)
    assert label_key("Umsatzsteuer-Identifikationsnummer") == ("vat", "id")


def test_marks_ocr_reads_between_a_label_and_its_value_are_no_label() -> None:
    page = "Date d'échéance :    02/03/2022    | [    NET À PAYER    104,90 EUR"

    assert extract([page], SCHEMA).output["total"] == 104.9
