"""A Polish number that reads like a date after its prefix, a buyer's name wrapped in capitals, a
Kuwaiti bill in dinars with Arabic beside its labels, and a Brazilian consumer's receipt (NFC-e) whose
labels carry the real's sign and whose consumer is named under a line of its tax number. Every
document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import reference_code
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import currency_of, in_words, parse_number

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("FV 3/05/2021", "FV 3/05/2021"),  # invoice 3 of May 2021
        ("FV 12/2021", "FV 12/2021"),
        ("INV-001 2024-01-15", "INV-001"),  # a code with its own digits ends at the date
        ("03/06/2025", None),  # a date alone numbers nothing
    ],
)
def test_a_date_shaped_number_after_a_prefix_alone_is_the_code(text: str, code: str | None) -> None:
    assert reference_code(text) == code


_POLISH = [
    "Faktura VAT nr FV 3/05/2021",
    "Data wystawienia:\n2021-05-02",
    "Sprzedawca:\nFirma Krzak sp. z o.o.",
    "Wilanowska 13\n05-122 Wilanów",
    "Nabywca:\nFUNDACJA MUZEUM TECHNIKI I KOMUNIKACJI\nWOJEWÓDZTWA WIELKOPOLSKIEGO",
    "ul. Towarowa 35/37\n61-896 Poznań",
    "Razem do zapłaty: 639,59 PLN",
]


def test_a_polish_invoice_keeps_its_number_whole_and_its_buyers_name_on_both_lines() -> None:
    output = extract(["\n\n".join(_POLISH)], SCHEMA).output
    assert output["invoice_number"] == "FV 3/05/2021"
    assert output["customer"]["name"] == "FUNDACJA MUZEUM TECHNIKI I KOMUNIKACJI WOJEWÓDZTWA WIELKOPOLSKIEGO"


@pytest.mark.parametrize(
    "second",
    [
        "ul. Towarowa 35/37",  # the street comes next: one line of the name
        "DZIAŁ ZAKUPÓW: 12",  # a label: not the name's
    ],
)
def test_a_short_name_in_capitals_or_a_line_with_a_label_stays_apart(second: str) -> None:
    block = f"Nabywca:\nHURTOWNIA ABC\n{second}\n61-896 Poznań"
    page = "\n\n".join(["Faktura nr 7/2021", block, "Razem: 10,00 PLN"])
    assert extract([page], SCHEMA).output["customer"]["name"] == "HURTOWNIA ABC"


def test_the_kuwaiti_dinars_kd_after_an_amount_names_the_dinar() -> None:
    assert currency_of(["Subtotal 20.000 KD"]) == "KWD"
    assert parse_number("1,250.500 KD") == (1250.5, 0.9)
    assert currency_of(["KD 5"]) is None  # before the amount: not the sign


def test_an_amount_under_its_label_said_again_in_arabic_is_read() -> None:
    lines = ["Uellow W.L.L", "INVOICE", "No. INV/2026/00007", "TOTAL", "المستحق الإجمالي 20.000 KD"]
    page = "\n\n".join([*lines, "Twenty Dinar"])
    output = extract([page], SCHEMA).output
    assert (output["total"], output["currency"]) == (20.0, "KWD")


@pytest.mark.parametrize(
    ("label", "key"),
    [("VALOR TOTAL R$", ("total",)), ("Amount US$", ("amount",)), ("NFC-e nº", ("invoice", "number"))],
)
def test_a_lettered_currency_sign_is_no_word_of_a_label(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


_NFCE = [
    "Empresa Teste Ltda",
    "CNPJ: 10.845.180/0001-66",
    "QTD. TOTAL DE ITENS\n4",
    "Subtotal R$\n104,00",
    "DESCONTO R$\n12,00",
    "VALOR TOTAL R$\n92,00",
    "CONSUMIDOR CNPJ: 18.191.228/0001-71",
    "Maria Souza\nRua Tijucas, 99, Centro, Tijucas - SC",
    "NFC-e nº 1629 Série 1 24/03/2020 13:33:20",
]


def test_a_consumer_receipt_reads_its_total_number_date_and_consumer() -> None:
    output = extract(["\n\n".join(_NFCE)], SCHEMA).output
    assert output["total"] == 92.0  # not the count of items "QTD. TOTAL DE ITENS"
    assert (output["invoice_number"], output["invoice_date"]) == ("1629", "2020-03-24")
    assert output["customer"]["name"] == "Maria Souza"


def test_a_party_heading_run_into_its_tax_number_takes_no_sentence_under_it_for_a_name() -> None:
    lines = ["Empresa Teste Ltda", "CONSUMIDOR CNPJ: 18.191.228/0001-71", "Obrigado pela preferência"]
    page = "\n\n".join(lines)
    assert (extract([page], SCHEMA).output.get("customer") or {}).get("name") is None


def test_a_date_printed_with_spaces_is_no_reference_code() -> None:
    assert reference_code("10. 02. 2015 Datum splatnosti 24. 02. 2015") is None


_CZECH = [
    "| Datum vystavení 10. 02. 2015 |",
    "Jiná firma s.r.o.\nPokusná 321",
    "Celkem bez DPH\n1 000,00 Kč",
    "DPH 21 %\n210,00 Kč",
    "1 210,00 Kč",
    "Faktura 20150009",
]


def test_a_total_printed_alone_after_the_net_and_the_tax_it_sums_is_the_total() -> None:
    result = extract(["\n\n".join(_CZECH)], SCHEMA)
    output = result.output
    assert (output["net_total"], output["tax_total"], output["total"]) == (1000.0, 210.0, 1210.0)
    assert output["invoice_number"] == "20150009"
    assert 0.8 <= result.likelihoods["total"] < 0.9


def test_an_amount_alone_that_is_not_the_sum_is_no_total() -> None:
    page = "\n\n".join([*_CZECH[:4], "1 250,00 Kč"])
    assert extract([page], SCHEMA).output["total"] is None


def test_a_dutch_vat_id_printed_with_dots_and_a_net_labelled_excluding_vat_are_read() -> None:
    page = "\n".join(
        [
            "| E&U TRANSPORT | BTW : NL8513.49.985.B01 |",
            "I CONCEPT FACTUUR",
            "Factuurnummer: F-2026-0002",
            "Subtotaal (excl. BTW): € 913.00",
            "BTW (21%): € 191.73",
            "Totaal (incl. BTW): € 1104.73",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["issuer"]["vat_id"] == "NL8513.49.985.B01"
    assert output["net_total"] == 913.0
    assert output["issuer"]["name"] != "I CONCEPT FACTUUR"  # a draft's title names no one


def test_a_value_whose_cell_opens_with_its_labels_colon_is_the_labels_and_a_rut_is_a_tax_id() -> None:
    page = "\n".join(
        [
            "ERKE CHILE SPA",
            "|  | DESARROLLO DE SOFTWARE | R.U.T.: 76.269.769-6 |",
            "|---|---|---|",
            "|  | Comuna: Chile | N° 4117 |",
            "| Señor(es) | : Universo Informatico | Fecha emisión | : 01-06-2024 |",
            "| RUT | : 44552142-6 | Forma de Pago | : Crédito |",
            "| Comuna | : SAN MIGUEL | Ciudad | : TC |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["customer"]["name"] == "Universo Informatico"
    assert output["issuer"]["vat_id"] == "76.269.769-6"
    assert output["invoice_date"] == "2024-06-01"


def test_a_sellers_name_ending_co_ltd_before_its_address_on_one_line_keeps_both_legal_forms() -> None:
    page = "\n\n".join(
        [
            "COMMERCIAL INVOICE",
            "Säljare: Nippon Industrial Supplies Co., Ltd., 2-4-1 Marunouchi, Tokyo, Japan",
            "Köpare: Svensk Import AB, Industrigatan 12, 553 02 Jönköping, Sverige",
            "Totalt att betala: 700.00 EUR",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["issuer"]["name"] == "Nippon Industrial Supplies Co., Ltd."


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("SON TREINTA Y DOS MIL TRESCIENTOS VEINTIOCHO PESOS", True),
        ("Eight Hundred Twenty Six Rupees Only", True),
        ("ERKE CHILE SPA", False),
        ("Three Rivers Trading Co", False),  # a number word in a name
        ("Seven Eleven Inc", False),
    ],
)
def test_an_amount_written_out_in_words_is_told_from_a_name(text: str, written: bool) -> None:
    assert in_words(text) is written


def test_an_amount_in_words_over_the_letterhead_is_not_the_issuers_name() -> None:
    page = "\n".join(
        ["SON TREINTA Y DOS MIL TRESCIENTOS VEINTIOCHO PESOS", "ERKE CHILE SPA", "R.U.T.: 76.269.769-6"]
    )
    assert extract([page], SCHEMA).output["issuer"]["name"] == "ERKE CHILE SPA"


@pytest.mark.parametrize(
    ("first", "joined"),
    [
        ("FUNDACJA MUZEUM TECHNIKI ABCDE", True),  # 30 characters: long enough to have been wrapped
        ("FUNDACJA MUZEUM TECHNIKI ABCD", False),  # 29: a name of its own over another line
    ],
)
def test_a_name_in_capitals_goes_on_in_the_next_line_from_thirty_characters(first: str, joined: bool) -> None:
    assert len(first) == (30 if joined else 29)
    page = "\n\n".join(
        ["Faktura nr 7/2021", f"Nabywca:\n{first}\nWOJEWODZTWA WIELKOPOLSKIEGO", "Razem: 10,00 PLN"]
    )
    name = extract([page], SCHEMA).output["customer"]["name"]
    assert name == (f"{first} WOJEWODZTWA WIELKOPOLSKIEGO" if joined else first)


@pytest.mark.parametrize(
    ("name", "titled"),
    [
        ("Concept factuur", True),
        ("Pro forma invoice", True),  # three words, the title's and two before it
        ("Acme Builders Group invoice", False),  # four: a name that ends with the word
        ("Invoice", False),  # the title alone is a label, not read here
    ],
)
def test_a_title_with_one_or_two_words_before_it_names_no_one(name: str, titled: bool) -> None:
    from docsvc.intelligence.candidates import _is_a_title

    assert _is_a_title(name) is titled


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("dos mil tres pesos", True),  # three number words, three of four words
        ("dos mil pesos", False),  # two
        ("tres mil cuatro pesos de la empresa", False),  # three of seven: under half
        ("tres mil cuatro pesos de la", True),  # three of six: half
    ],
)
def test_an_amount_in_words_takes_three_number_words_and_half_the_line(text: str, written: bool) -> None:
    assert in_words(text) is written
