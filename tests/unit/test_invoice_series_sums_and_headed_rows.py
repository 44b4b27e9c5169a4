"""Invoices whose number follows a series under the title ("Seria Z Nr. 4") or a title opened by an
article ("La factura de alquiler Nº 1"), whose total's label names the lines it sums ("Total
(A+B+C+D+E)"), whose total stands over its currency on a line of its own before a footer, whose IBAN
runs into the sentence after it, whose vendor heads a row of headings over one row of values, and whose
customer is asked for by a bare "Name:". Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import find_identifier
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.layout import read_layout

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA, invoice_output


@pytest.mark.parametrize(
    ("title", "line", "number"),
    [("FACTURĂ", "Seria Z Nr. 4 din 17/01/2021", "4"), ("FACTURA", "Serie B Nº 0031", "0031"),
     ("FACTURA", "Serie B Factura 7", None)],
)  # fmt: skip
def test_the_number_after_a_series_under_the_title_is_the_invoice_number(
    title: str, line: str, number: str | None
) -> None:
    output = invoice_output(f"{title}\n{line}", "Total 100,00 EUR")
    assert output["invoice_number"] == number


@pytest.mark.parametrize(
    ("line", "number"),
    [("La factura de alquiler Nº 1", "1"), ("The invoice No. 12", "12"),
     ("La factura de alquiler de mayo", None)],
)  # fmt: skip
def test_a_title_opened_by_an_article_gives_its_number_after_its_no(line: str, number: str | None) -> None:
    output = invoice_output(line, "Cliente: Gorak Var", "Data: 2024-04-22")
    assert output["invoice_number"] == number


def test_the_lines_a_sum_is_made_of_are_no_words_of_its_label() -> None:
    assert label_key("Total (A+B+C+D+E)") == ("total",)
    assert label_key("Total remise : (D+E)") == ("total", "discount")
    assert label_key("Total (x)") == ("total", "x")  # a letter alone in brackets is no sum
    output = invoice_output(
        "Facture 2018-7",
        "|  | Nature | Quantité | Prix unit. | € |\n|---|---|---|---|---|\n"
        "| A | Produit nisl | 5,00 | 100,00 | 500,00 |\n| B | Produit eget | 2,00 | 1 000,00 | 2 000,00 |\n"
        "|  | Total hors remise : (A+B) |  |  | 2 500,00 |\n"
        "| C | Remise 1 : (\u221210,00% sur A) |  |  | \u221250,00 |\n"
        "|  | Total remise : (C) |  |  | \u221250,00 |\n|  | Total (A+B+C) |  |  | 2 450,00 |",
    )
    assert output["total"] == 2450.0


def test_a_total_over_its_currency_before_the_footer_is_no_table() -> None:
    text = "\n\n".join(
        [
            "FACTURĂ",
            "Curs: 1 USD = 4.0172 Lei\nTotal factură\nUSD\n7800.00\nLei\n31334.16",
            "Finance Technologies S.R.L.",
        ]
    )
    layout = read_layout([text])
    assert not layout.tables
    assert extract([text], SCHEMA).output["total"] == 7800.0


def test_a_table_of_a_cell_per_line_and_a_block_per_row_is_still_read() -> None:
    text = "Description\nQty\nAmount\n\nWidget\n2\n10.00\n\nGadget\n1\n5.00"
    (table,) = read_layout([text]).tables
    assert table.rows == (("Widget", "2", "10.00"), ("Gadget", "1", "5.00"))


@pytest.mark.parametrize(
    ("text", "found"),
    [("A payer au compte bancaire BE95 0011 8359 9858 avant le 3 mars.", "BE95 0011 8359 9858"),
     ("DE02 1203 0000 0000 2020 51 Berlin", "DE02 1203 0000 0000 2020 51"),
     ("BE95 0011 8359 9859 avant", None),
     ("DE29 1234 5678 9012 3456 78", None)],  # its head "DE29 ... 3456" passes the check, 20 long: no IBAN
)  # fmt: skip
def test_an_iban_run_into_the_word_after_it_is_read_without_it(text: str, found: str | None) -> None:
    result = find_identifier("iban", text)
    assert (result[0] if result and result[1] == 1.0 else None) == found


def test_an_iban_inside_a_payment_sentence_is_the_iban() -> None:
    output = invoice_output(
        "Facture 12",
        "Total 2 493,21 €",
        "A payer au compte bancaire BE95 0011 8359 9858 avant le 30 mars 2024.",
    )
    assert output["iban"] == "BE95001183599858"


def test_the_vendor_heading_a_row_of_headings_over_values_is_the_value_under_it() -> None:
    output = invoice_output(
        "FATURA RPA",
        "Nº DA FATURA: 100",
        "| VENDEDOR | CARGO | CONDIÇÕES DE PAGAMENTO | DATA DE VENCIMENTO |\n|---|---|---|---|\n"
        "| Maria Lima | Desenvolvedor | Pagamento na Entrega | 30/08/2023 |",
    )
    assert output["issuer"]["name"] == "Maria Lima"  # type: ignore[index]


def test_keys_beside_values_in_two_rows_stay_pairs_beside() -> None:
    layout = read_layout(
        ["| Invoice No. | INV-1 | Currency | EUR |\n|---|---|---|---|\n| Date | 2024-01-02 | Total | 5.00 |"]
    )
    found = {(pair.label, pair.value) for pair in layout.pairs}
    assert ("Invoice No.", "INV-1") in found and ("Total", "5.00") in found


def test_a_bare_name_label_asks_for_the_customer_not_the_issuer() -> None:
    output = invoice_output(
        "Fatura",
        "Documento emitido em:\n20/04/2021 19:44",
        "Valor Total:\nR$ 2.464,80",
        "Nome: John Doe",
    )
    assert output["customer"]["name"] == "John Doe"  # type: ignore[index]
    assert (output["issuer"] or {}).get("name") != "John Doe"  # type: ignore[attr-defined]


def test_a_table_opening_the_page_under_its_title_is_the_letterhead_the_block_under_it_the_customer() -> None:
    output = invoice_output(
        "Rechnung 6844134",
        "| Infomaniak Network SA | Fällig am | 30.09.25 |\n|---|---|---|\n"
        "| Rue Eugène-Marziano, 25 | Datum | 31.08.25 |\n| CH - 1227 Genève - Suisse | Status | Bezahlt |",
        "Anna Muster\nSundernholz 112\n45134 Essen\nGERMANY",
        "Bruttobetrag EUR\n224,24",
    )
    assert output["issuer"]["name"] == "Infomaniak Network SA"  # type: ignore[index]
    assert output["customer"]["name"] == "Anna Muster"  # type: ignore[index]


def test_a_blanks_hint_in_square_brackets_is_no_name() -> None:
    from docsvc.intelligence.candidates import is_placeholder

    assert is_placeholder("[Espace pour Signature]") and is_placeholder("[Your Company Name]")
    assert is_placeholder("[CUSTOMER_NAME]") and is_placeholder("[ADDRESS_LINE_1]")
    assert not is_placeholder("Acme [UK] Ltd") and not is_placeholder("Jean Dupont")


def test_a_sum_of_thirteen_lines_in_brackets_is_no_label_word_a_hint_of_41_characters_a_name() -> None:
    from docsvc.intelligence.candidates import is_placeholder

    thirteen = "+".join("ABCDEFGHIJKLM")
    assert label_key(f"Total ({thirteen})") == ("total",)
    assert len(label_key(f"Total ({thirteen}+N)")) > 1  # fourteen lines: no sum's brackets
    assert is_placeholder("[" + "x" * 40 + "]")
    assert not is_placeholder("[" + "x" * 41 + "]")


def test_a_summary_by_rate_keeps_the_charged_rates_sums_over_rates_charged_nothing() -> None:
    summary = (
        "|  |  |  |  | Cena | Wartość | Kwota | Wartość |\n|---|---|---|---|---|---|---|---|\n"
        "| Lp. | Nazwa usługi | Jm | Ilość | Netto | Netto | VAT VAT | Brutto |\n"
        "| 1 | Holowanie | km. | 235.00 | 3.50 | 822.50 | 23.00 189.18 | 1011.68 |\n"
        "| 2 | Dojazd | km. | 299.00 | 3.00 | 897.00 | 23.00 206.31 | 1103.31 |\n"
        "|  |  |  |  |  | Wartość | Kwota | Wartość |\n"
        "|  |  |  | Stawka |  |  |  |  |\n"
        "|  |  |  |  |  | Netto | VAT | Brutto |\n"
        "|  |  |  | 23.00% |  | 1719.50 | 395.49 | 2114.99 |\n"
    )
    rates = "|  |  |  | 8.00% |  | - | - | - |\n|  |  |  | 0.00% |  | - | - | - |"
    output = invoice_output("FAKTURA VAT NR 37/G/03/2026", summary + rates)
    assert (output["net_total"], output["tax_total"]) == (1719.5, 395.49)


@pytest.mark.parametrize("label", ["EMISSÃO:", "Emisión:"])
def test_an_issue_printed_alone_dates_the_invoice_not_the_posting_before_it(label: str) -> None:
    output = invoice_output("FATURA", "POSTAGEM: 15/01/2024", f"{label} 07/01/2024", "Total R$ 4.600,90")
    assert output["invoice_date"] == "2024-01-07"
