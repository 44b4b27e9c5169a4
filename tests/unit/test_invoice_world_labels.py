"""Invoice labels and currencies of languages beyond the main European ones: Japanese, Chinese, Korean,
Turkish, Hungarian, Serbian (Latin and Cyrillic), Russian, Ukrainian, Greek, Romanian, Croatian and
Slovak, each said by its key in English; currencies printed as codes, local signs or words."""

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
        "tax_total": {"type": "number"},
    },
}
CURRENCY = {"type": "object", "properties": {"currency": {"type": ["string", "null"]}}}


@pytest.mark.parametrize(
    ("label", "key"),
    [
        # Japanese
        ("請求書番号", ("invoice", "number")),
        ("請求日", ("invoice", "date")),
        ("お支払期限", ("due", "date")),
        ("合計金額", ("total",)),
        ("御請求額", ("total",)),
        ("支払期限日", ("due", "date")),
        ("発 行 日", ("invoice", "date")),
        ("小計", ("net", "total")),
        ("消費税", ("tax",)),
        ("登録番号", ("vat", "id")),
        # Chinese
        ("发票号码", ("invoice", "number")),
        ("開票日期", ("invoice", "date")),
        ("价税合计", ("total",)),
        ("税额", ("tax",)),
        ("纳税人识别号", ("vat", "id")),
        ("购买方", ("customer",)),
        ("销售方", ("vendor",)),
        # Korean
        ("합계금액", ("total",)),
        ("공급가액", ("net", "total")),
        ("세액", ("tax",)),
        ("사업자등록번호", ("vat", "id")),
        ("공급받는자", ("customer",)),
        # Turkish
        ("Fatura Tarihi", ("invoice", "date")),
        ("Son Ödeme Tarihi", ("due", "date")),
        ("Genel Toplam", ("total",)),
        ("Ödenecek Tutar", ("total",)),
        ("Mal Hizmet Toplam Tutarı", ("net", "total")),  # noqa: RUF001
        ("Hesaplanan KDV", ("tax",)),
        ("Vergi No", ("vat", "id")),
        ("Para Birimi", ("currency",)),
        # Hungarian
        ("Számla sorszáma", ("invoice", "number")),
        ("Számla kelte", ("invoice", "date")),
        ("Teljesítés dátuma", ("delivery", "date")),
        ("Fizetési határidő", ("due", "date")),
        ("Fizetendő összeg", ("total",)),
        ("Nettó összesen", ("net", "total")),
        ("ÁFA összeg", ("tax",)),
        ("Adószám", ("vat", "id")),
        ("Eladó", ("vendor",)),
        ("Vevő", ("customer",)),
        ("Pénznem", ("currency",)),
        # Serbian, Latin and Cyrillic; Croatian
        ("Račun broj", ("invoice", "number")),
        ("Рачун број", ("invoice", "number")),  # noqa: RUF001
        ("Datum izdavanja", ("invoice", "date")),
        ("Датум промета", ("delivery", "date")),
        ("Rok plaćanja", ("due", "date")),
        ("Valuta plaćanja", ("due", "date")),
        ("Ukupno za plaćanje", ("total",)),
        ("УКУПНО ЗА ПЛАЋАЊЕ", ("total",)),  # noqa: RUF001
        ("Osnovica", ("net", "total")),
        ("Iznos PDV", ("tax",)),
        ("ПИБ", ("vat", "id")),
        ("OIB", ("vat", "id")),
        ("Kupac", ("customer",)),
        ("Продавац", ("vendor",)),
        # Russian, Ukrainian
        ("Счёт №", ("invoice", "number")),
        ("Итого к оплате", ("total",)),
        ("Сумма без НДС", ("net", "total")),
        ("В том числе НДС", ("tax",)),  # noqa: RUF001
        ("ИНН", ("vat", "id")),
        ("Покупатель", ("customer",)),
        ("Поставщик", ("vendor",)),
        ("Всього до сплати", ("total",)),
        ("Постачальник", ("vendor",)),
        # Greek
        ("Αριθμός Τιμολογίου", ("invoice", "number")),
        ("Ημερομηνία Έκδοσης", ("invoice", "date")),
        ("ΣΥΝΟΛΟ", ("total",)),
        ("Καθαρή Αξία", ("net", "total")),
        ("ΦΠΑ", ("tax",)),
        ("ΑΦΜ", ("vat", "id")),
        # Romanian
        ("Număr factură", ("invoice", "number")),
        ("Data emiterii", ("invoice", "date")),
        ("Data scadenței", ("due", "date")),
        ("Total de plată", ("total",)),
        ("Total fără TVA", ("net", "total")),
        ("Furnizor", ("vendor",)),
        ("Cumpărător", ("customer",)),
        # Slovak
        ("Faktúra číslo", ("invoice", "number")),
        ("Dátum vyhotovenia", ("invoice", "date")),
        ("Celkom k úhrade", ("total",)),
        ("IČ DPH", ("vat", "id")),
    ],
)
def test_an_invoice_label_of_a_language_beyond_western_europe_has_its_english_key(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_polish_suma_is_still_the_total() -> None:
    assert label_key("Suma") == ("total",)


def test_a_turkish_invoice_is_read_by_its_own_labels() -> None:
    page = "\n".join(
        [
            "e-Fatura",
            "Fatura No: ABC2024000000123",
            "Fatura Tarihi: 15.01.2024",
            "Son Ödeme Tarihi: 14.02.2024",
            "Mal Hizmet Toplam Tutarı: 1.000,00 TL",  # noqa: RUF001
            "Hesaplanan KDV (%20): 200,00 TL",
            "Ödenecek Tutar: 1.200,00 TL",
        ]
    )

    assert extract([page], SCHEMA).output == {
        "invoice_number": "ABC2024000000123",
        "invoice_date": "2024-01-15",
        "due_date": "2024-02-14",
        "total": 1200.0,
        "net_total": 1000.0,
        "tax_total": 200.0,
    }


def test_a_serbian_cyrillic_invoice_is_read_by_its_own_labels() -> None:
    page = "\n".join(
        [
            "Рачун број: 17/2024",  # noqa: RUF001
            "Датум издавања: 15.01.2024",
            "Рок плаћања: 14.02.2024",
            "Основица: 1.000,00 дин",
            "Износ ПДВ: 200,00 дин",
            "Укупно за плаћање: 1.200,00 дин",
        ]
    )

    assert extract([page], SCHEMA).output == {
        "invoice_number": "17/2024",
        "invoice_date": "2024-01-15",
        "due_date": "2024-02-14",
        "total": 1200.0,
        "net_total": 1000.0,
        "tax_total": 200.0,
    }


def test_a_japanese_invoice_gives_its_total_net_and_consumption_tax() -> None:
    page = "\n".join(
        [
            "請求書",
            "請求書番号: INV-0042",
            "小計: ¥10,000",
            "消費税: ¥1,000",
            "合計金額: ¥11,000",
            "お支払期限までにお振込みください",
        ]
    )

    schema = {**SCHEMA, "properties": {**SCHEMA["properties"], **CURRENCY["properties"]}}
    output = extract([page], schema).output

    assert output["invoice_number"] == "INV-0042"
    assert (output["net_total"], output["tax_total"], output["total"]) == (10000.0, 1000.0, 11000.0)
    assert output["currency"] == "JPY"


@pytest.mark.parametrize(
    ("printed", "code"),
    [
        ("Fizetendő: 12 700 Ft", "HUF"),
        ("Ödenecek Tutar: 1.200,00 TL", "TRY"),
        ("Toplam ₺1.200,00", "TRY"),
        ("Total: Kz 1 250,00", "AOA"),
        ("Total: Gs. 150.000", "PYG"),
        ("Total ₲ 150.000", "PYG"),
        ("Ukupno: 1.200,00 дин", "RSD"),
        ("Ukupno: 1.200,00 RSD", "RSD"),
        ("Total: Fr. 120.50", "CHF"),
        ("合計金額: 11,000円", "JPY"),
        ("合計: 113.00元", "CNY"),
        ("Total: RMB 113.00", "CNY"),
        ("价税合计 ¥113.00", "CNY"),
        ("Moneda: Guaraní", "PYG"),
        ("Iznos u dinara: 1.200,00", "RSD"),
        ("Para birimi: Türk Lirası", "TRY"),  # noqa: RUF001
        ("Total: 100,00 lei", "RON"),
        ("Kablo HRK 275FBK 1.200,00 TL", "TRY"),
    ],
)
def test_a_currency_printed_as_a_local_sign_or_word_gives_its_code(printed: str, code: str) -> None:
    assert extract([printed], CURRENCY).output == {"currency": code}


@pytest.mark.parametrize("printed", ["Fr 3.12.2024 geliefert", "TRY AGAIN LATER", "RON SMITH, 12 Main St"])
def test_a_word_spelt_like_a_currency_sign_or_code_away_from_an_amount_is_no_currency(printed: str) -> None:
    assert extract([printed], CURRENCY).output == {"currency": None}


@pytest.mark.parametrize(
    ("page", "issuer"),
    [
        (
            "\u3000御\u3000請\u3000求\u3000書\u3000\n株式会社サンプル商事\n"
            "東京都千代田区1-1\n合計金額: ¥11,000",
            "株式会社サンプル商事",
        ),
        ("I N V O I C E\nAcme Widgets Ltd\n1 High Street\nTotal: 5.00", "Acme Widgets Ltd"),
    ],
)
def test_a_title_printed_letter_spaced_is_the_documents_title_not_its_issuer(page: str, issuer: str) -> None:
    schema = {
        "type": "object",
        "properties": {"issuer": {"type": "object", "properties": {"name": {"type": "string"}}}},
    }

    assert extract([page], schema).output == {"issuer": {"name": issuer}}


@pytest.mark.parametrize(
    ("page", "iso"),
    [
        ("Számla kelte: 2008. 10. 17.", "2008-10-17"),
        ("請求日: 2025年12月31日", "2025-12-31"),
        ("开票日期: 2022年01月05日", "2022-01-05"),
        ("작성일자: 2025년 12월 31일", "2025-12-31"),
    ],
)
def test_a_date_written_year_first_as_hungarian_and_east_asian_invoices_print_it_is_read(
    page: str, iso: str
) -> None:
    schema = {"type": "object", "properties": {"invoice_date": {"type": "string", "format": "date"}}}

    assert extract([page], schema).output == {"invoice_date": iso}


def test_an_amount_of_three_decimals_on_a_page_whose_amounts_are_grouped_twice_by_points_is_whole() -> None:
    schema = {"type": "object", "properties": {"total": {"type": "number"}, "tax_total": {"type": "number"}}}

    output = extract(["Total a pagar: 1.560.000\nIVA: 141.818"], schema).output

    assert output == {"total": 1560000.0, "tax_total": 141818.0}


@pytest.mark.parametrize(
    ("printed", "iso"),
    [
        ("26 de março de 2023", "2023-03-26"),
        ("15 Ocak 2024", "2024-01-15"),
        ("17 octombrie 2008", "2008-10-17"),
        ("17. oktobar 2008", "2008-10-17"),
    ],
)
def test_a_date_with_a_portuguese_turkish_romanian_or_serbian_months_name_is_read(
    printed: str, iso: str
) -> None:
    schema = {"type": "object", "properties": {"invoice_date": {"type": "string", "format": "date"}}}

    assert extract([f"Data: {printed}"], schema).output == {"invoice_date": iso}


def test_a_paraguayan_invoice_gives_its_ruc_base_and_total_operation() -> None:
    page = "RUC: 4849678-2\nMoneda: Guarani\nTotal Operación: 1.560.000\nBase Gravada 10%: 1.418.182"
    schema = {
        "type": "object",
        "properties": {
            "total": {"type": "number"},
            "net_total": {"type": "number"},
            "currency": {"type": "string"},
        },
    }

    assert extract([page], schema).output == {"total": 1560000.0, "net_total": 1418182.0, "currency": "PYG"}


def test_an_angolan_amount_in_lower_case_kz_is_in_kwanzas() -> None:
    assert extract(["Total: 200,00kz"], CURRENCY).output == {"currency": "AOA"}


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Nettó/Net", ("net", "total")),
        ("Sorszám/Invoice No.", ("invoice", "number")),
        ("Fizetendő végösszeg/Total", ("total",)),
        ("Szállító/Sold by", ("sold", "by")),
        ("Destinatário/Remetente", ("customer", "remetente")),
    ],
)
def test_a_label_printed_in_two_languages_apart_by_a_slash_has_the_key_of_its_known_half(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_a_bilingual_hungarian_invoice_gives_its_number_and_total() -> None:
    page = "Sorszám/Invoice No.: 287/2008/V\nFizetendő végösszeg/Total: 600 EUR"
    properties = {"invoice_number": {"type": "string"}, "total": {"type": "number"}}

    output = extract([page], {"type": "object", "properties": properties}).output

    assert output == {"invoice_number": "287/2008/V", "total": 600.0}


def test_amounts_with_three_digits_after_a_point_in_dinars_are_thousands() -> None:
    page = "RACUN\nZaduzenje:\n10.700 din\n+ 9.400 din\nUkupno:\n20.100 din"
    schema = {"type": "object", "properties": {"total": {"type": "number"}, "currency": {"type": "string"}}}

    assert extract([page], schema).output == {"total": 20100.0, "currency": "RSD"}
