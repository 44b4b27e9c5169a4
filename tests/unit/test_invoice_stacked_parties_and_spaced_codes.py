"""Party blocks printed side by side whose text comes out headings first, then one block after the other;
a Polish account number printed without its country code; kinds of invoice named by one word; a footer
table opening with the company's name beside its registration number; a currency's code set apart between
a label and its amount; a rate's base before the tax; a title and its number beside an address; labels
with colons over a row of values; a template's unfilled field. Every document here is written for the
test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.labels import DOCUMENT_TITLES, label_key
from docsvc.intelligence.values import currency_of

from tests.unit.test_invoice_labels_sl_ro_mx_au import invoice_output

POLISH = (
    "FAKTURA VAT",
    "nr 7/24",
    "| Data wystawienia | 2024-05-06 |\n|---|---|\n| Termin zapłaty | 2024-05-20 |",
    "Sprzedawca\nNabywca",
    "Kowalski i Syn sp. z o.o.",
    "ul. Długa 5\n80-001 Gdańsk\n123-456-78-02\n60 1020 1026 0000 1234 5678 9012",
    "Przedsiębiorstwo Usługowe Nowak",
    "ul. Krótka 9\n00-950 Warszawa\n774-001-23-40",
    "Razem do zapłaty: 1 230.00 zl",
)


def test_party_headings_stacked_over_blocks_printed_one_after_the_other_take_their_blocks_in_order() -> None:
    output = invoice_output(*POLISH)
    assert output["issuer"]["name"] == "Kowalski i Syn sp. z o.o."  # type: ignore[index]
    assert output["customer"]["name"] == "Przedsiębiorstwo Usługowe Nowak"  # type: ignore[index]
    assert output["issuer"]["vat_id"] == "123-456-78-02"  # type: ignore[index]


def test_a_polish_account_number_alone_on_its_line_is_the_iban_its_country_code_makes() -> None:
    output = invoice_output(*POLISH)
    assert output["currency"] == "PLN"  # "zl": the złoty in a font without "ł"
    assert output["iban"] == "PL60102010260000123456789012"


def test_stacked_headings_take_no_block_when_a_block_has_no_line_of_figures() -> None:
    blocks = [block for block in POLISH if not block.startswith("ul. Krótka")]
    output = invoice_output(*blocks)
    assert output["customer"]["name"] != "Przedsiębiorstwo Usługowe Nowak"  # type: ignore[index]


@pytest.mark.parametrize("title", ["Kontantfaktura", "KONTANTFAKTURA (KORT)", "Slutfaktura", "Eindfactuur"])
def test_a_kind_of_invoice_in_one_word_is_a_title_not_a_name(title: str) -> None:
    assert label_key(title.split(" (")[0]) in DOCUMENT_TITLES
    footer = "| Fysio Norr | Org: | 556677-8899 | Webb: | www.example.se |\n|---|---|---|---|---|"
    output = invoice_output(
        title, "Datum\nFaktura nr.\n2024-08-13\n776959", "Belopp inkl. moms:\n920.00", footer
    )
    assert output["issuer"]["name"] == "Fysio Norr"  # type: ignore[index]


def test_a_footer_rows_first_cell_is_no_name_when_the_next_cell_is_no_registration() -> None:
    footer = "| Fysio Norr | Telefon: | 010-123 45 67 | Webb: | www.example.se |\n|---|---|---|---|---|"
    output = invoice_output("Kontantfaktura", "Faktura nr.\n776959", footer)
    assert (output["issuer"] or {}).get("name") != "Fysio Norr"  # type: ignore[attr-defined]


def test_a_code_set_apart_between_a_label_and_its_amount_is_the_amounts_currency() -> None:
    sums = "Subtotaal    Eur    319,03\nBTW 21,00 % over    319,03    Eur    67,00\n"
    sums += "Factuurtotaal    Eur    386,03"
    output = invoice_output("Factuurnummer : 600627", "Factuurdatum : 14-08-2024", sums)
    assert (output["net_total"], output["tax_total"], output["total"]) == (319.03, 67.0, 386.03)
    assert output["currency"] == "EUR"


@pytest.mark.parametrize(
    ("text", "code"), [("Totaal Eur 12,00", "EUR"), ("12,00 Eur", "EUR"), ("Europa", None)]
)
def test_a_code_in_capital_and_small_letters_names_a_currency_only_beside_an_amount(
    text: str, code: str | None
) -> None:
    assert currency_of([text]) == code


def test_a_documents_title_and_number_set_apart_from_an_address_on_its_line_number_it() -> None:
    line = "PASSARE FORTALEZA CE    NOTA FISCAL Nº 055984051 - SÉRIE ÚNICA / DATA DE EMISSÃO: 16/03/2023"
    output = invoice_output("Companhia de Exemplo", line)
    assert output["invoice_number"] == "055984051"


def test_labels_with_colons_side_by_side_take_the_values_under_them() -> None:
    row = "Emissão:    Vencimento:    Total:\n16/03/2023    17/04/2023    257,34"
    output = invoice_output("NOTA FISCAL Nº 4411", row)
    assert (output["invoice_date"], output["due_date"], output["total"]) == (
        "2023-03-16",
        "2023-04-17",
        257.34,
    )


def test_a_templates_unfilled_field_and_a_sentence_are_no_ones_name() -> None:
    head = "{BARCODE}\nA Tarifa Social de Energia Elétrica foi criada pela lei 10.438 de 26 de abril de 2002"
    head += "\nCompanhia Energética de Exemplo\nRua Padre Exemplo, 150\nFortaleza - CE - CEP: 60135-040"
    output = invoice_output(head, "NOTA FISCAL Nº 055984051", "TOTAL A PAGAR: R$ 257,34")
    assert output["issuer"]["name"] == "Companhia Energética de Exemplo"  # type: ignore[index]


def test_facturer_a_heads_the_customers_block() -> None:
    output = invoice_output(
        "FACTURE", "Ref. Commande: #CD4E3390", "FACTURER A", "Amina Benali", "Total: 120.00 MAD"
    )
    assert output["customer"]["name"] == "Amina Benali"  # type: ignore[index]
