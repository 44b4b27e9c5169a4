# ruff: noqa: RUF001 (Cyrillic letters in Russian and Uzbek labels)
"""Invoices in Russian, Uzbek, Indonesian, Vietnamese and Arabic: their labels said in English, their
currencies, dates with a Russian month's name after the title's "от", the Russian taxpayer number (ИНН)
and a party's name printed with a labelled id after a comma."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import national_vat
from docsvc.intelligence.labels import label_key

PARTIES = {
    "type": "object",
    "properties": {
        party: {"type": "object", "properties": {"name": {"type": "string"}, "vat_id": {"type": "string"}}}
        for party in ("issuer", "customer")
    },
}
CURRENCY = {"type": "object", "properties": {"currency": {"type": ["string", "null"]}}}
DATE = {"type": "object", "properties": {"invoice_date": {"type": "string", "format": "date"}}}


@pytest.mark.parametrize(
    ("label", "key"),
    [
        # Uzbek (Cyrillic)
        ("Жами", ("total",)),
        ("Етказиб берувчи", ("vendor",)),
        ("Сотиб олувчи", ("customer",)),
        ("СТИР", ("vat", "id")),
        ("ҚҚС", ("tax",)),
        # Indonesian
        ("No Faktur", ("invoice", "number")),
        ("Jatuh Tempo", ("due", "date")),
        ("Kepada Yth", ("customer",)),
        ("NPWP", ("vat", "id")),
        ("PPN", ("tax",)),
        # Vietnamese
        ("Số hóa đơn", ("invoice", "number")),
        ("HÓA ĐƠN", ("invoice",)),
        ("Tổng phải trả", ("total",)),
        ("Giảm giá", ("discount",)),
        ("Tên khách hàng", ("customer", "name")),
        ("Mã số thuế", ("vat", "id")),
        # Arabic, in the presentation forms a PDF's text layer gives, and in plain letters
        ("ﺍﻟﻤﺒﻠﻎ ﺍﻹﺟﻤﺎﻟﻲ", ("total",)),
        ("المبلغ الإجمالي", ("total",)),
        ("رقم الفاتورة", ("invoice", "number")),
        ("ﻓﺎﺗﻮﺭﺓ ﺷﺮﺍﺀ", ("invoice",)),
        # Russian
        ("Счет на оплату", ("invoice",)),
    ],
)
def test_an_invoice_label_in_uzbek_indonesian_vietnamese_arabic_or_russian_has_its_english_key(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_the_english_subtotal_and_grand_total_keep_their_own_keys() -> None:
    assert (label_key("Subtotal"), label_key("Grand Total")) == (("subtotal",), ("grand", "total"))


@pytest.mark.parametrize(
    ("printed", "code"),
    [
        ("Total: Rp1,000,000", "IDR"),
        ("Jumlah: Rp 250.000", "IDR"),
        ("Tổng phải trả: 800.000đ", "VND"),
        ("Tổng: 800.000 ₫", "VND"),
        ("Жами тўлов учун: Бир миллион сум 00 тийин", "UZS"),
        ("ﺷﻴﻜﻞ93.00 :ﺍﻟﻤﺒﻠﻎ ﺍﻹﺟﻤﺎﻟﻲ", "ILS"),
        ("Total: ₪93.00", "ILS"),
        ("Amount: 93.00 ILS", "ILS"),
    ],
)
def test_a_currency_printed_as_an_indonesian_vietnamese_uzbek_or_israeli_sign_or_word_gives_its_code(
    printed: str, code: str
) -> None:
    assert extract([printed], CURRENCY).output == {"currency": code}


def test_rupiah_printed_with_points_between_thousands_are_whole() -> None:
    schema = {"type": "object", "properties": {"total": {"type": "number"}}}

    assert extract(["Total: Rp 1.500.000"], schema).output == {"total": 1500000.0}


@pytest.mark.parametrize(
    ("printed", "iso"),
    [
        ("02 ноября 2024г.", "2024-11-02"),
        ("1 мая 2024 г.", "2024-05-01"),
        ("03 березня 2026", "2026-03-03"),
        ("17 Desember 2025", "2025-12-17"),
    ],
)
def test_a_date_with_a_russian_ukrainian_or_indonesian_months_name_is_read(printed: str, iso: str) -> None:
    assert extract([f"Дата: {printed}"], DATE).output == {"invoice_date": iso}


def test_the_date_after_от_on_a_russian_invoices_title_is_its_date() -> None:
    page = "Счет на оплату №1730574869 от 02 ноября 2024г.\nОснование: договор №39431 от 14.02.2023"

    assert extract([page], DATE).output == {"invoice_date": "2024-11-02"}


def test_a_russian_taxpayer_number_passes_its_check_and_a_wrong_one_does_not() -> None:
    assert national_vat("ИНН 7707083893", ("RU",)) == ("7707083893", 1.0)
    assert national_vat("ИНН 911000073763", ("RU",)) == ("911000073763", 1.0)
    assert national_vat("ИНН 7707083894", ("RU",)) != ("7707083894", 1.0)


def test_a_partys_name_and_its_id_labelled_after_a_comma_give_both() -> None:
    page = "\n".join(
        [
            "Поставщик: ИП Зинштейн Харитон Владимирович, ИНН: 911000073763",
            'Покупатель: ООО "ДИЗО", ИНН: 6317091400',
            "Итого: 2 000,00 руб.",
        ]
    )

    assert extract([page], PARTIES).output == {
        "issuer": {"name": "ИП Зинштейн Харитон Владимирович", "vat_id": "911000073763"},
        "customer": {"name": 'ООО "ДИЗО"', "vat_id": "6317091400"},
    }


def test_an_english_buyers_name_before_its_vat_id_after_a_comma_is_its_name() -> None:
    page = "Seller: Acme Trading Ltd, VAT ID: DE123456789\nBuyer: Beta GmbH, VAT ID: DE987654321\nTotal: 5.00"

    output = extract([page], PARTIES).output

    assert (output["issuer"]["name"], output["customer"]["name"]) == ("Acme Trading Ltd", "Beta GmbH")


def test_an_indonesian_invoice_gives_its_number_dates_total_and_currency() -> None:
    page = "\n".join(
        ["FAKTUR", "No Faktur : 20250427001", "Tanggal : 27/04/2025", "Jatuh Tempo: 27/05/2025",
         "Total: Rp1,000,000"]
    )  # fmt: skip
    schema = {
        "type": "object",
        "properties": {
            "invoice_number": {"type": "string"},
            "invoice_date": {"type": "string", "format": "date"},
            "due_date": {"type": "string", "format": "date"},
            "total": {"type": "number"},
            "currency": {"type": "string"},
        },
    }

    assert extract([page], schema).output == {
        "invoice_number": "20250427001",
        "invoice_date": "2025-04-27",
        "due_date": "2025-05-27",
        "total": 1000000.0,
        "currency": "IDR",
    }


def test_a_vietnamese_bill_gives_its_number_and_the_total_to_pay() -> None:
    page = "Hóa Đơn\nSố hóa đơn: 85\nTổng: 800000\nGiảm giá: 0\nTổng phải trả: 800000\nNgày: 20/06/2023"
    schema = {
        "type": "object",
        "properties": {"invoice_number": {"type": "string"}, "total": {"type": "number"}},
    }

    assert extract([page], schema).output == {"invoice_number": "85", "total": 800000.0}


TOTAL = {"type": "object", "properties": {"total": {"type": "number"}, "currency": {"type": "string"}}}


def test_an_arabic_total_whose_label_is_read_after_its_value_is_the_total() -> None:
    page = "فاتورة شراء\nشيكل 93.00 :المبلغ الإجمالي"

    assert extract([page], TOTAL).output == {"total": 93.0, "currency": "ILS"}


def test_an_arabic_total_in_a_table_cell_after_its_value_is_the_total() -> None:
    page = "\n".join(
        [
            "فاتورة شراء",
            "",
            "| الإجمالي | السعر | الكمية المنتج |",
            "|---|---|---|",
            "| 75.00 | 15.00 | 5 حمص |",
            "| 18.00 | 0.50 | 36 فلافل |",
            "|  |  | شيكل 93.00 :المبلغ الإجمالي |",
        ]
    )

    assert extract([page], TOTAL).output == {"total": 93.0, "currency": "ILS"}


def test_labels_with_their_colons_beside_their_values_in_a_tables_first_row_are_read() -> None:
    page = "\n".join(
        [
            '| Етказиб берувчи: | "AT-GOOD SERVIS" MCHJ | Сотиб олувчи: | "TEXNOSTORE" MCHJ |',
            "|---|---|---|---|",
            "| Манзил: | Andijon tumani, Navbahor ko`chasi | Манзил: | Qaraqalpaqstan ko'chasi, 38/8-uy |",
        ]
    )

    output = extract([page], PARTIES).output

    assert (output["issuer"]["name"], output["customer"]["name"]) == (
        '"AT-GOOD SERVIS" MCHJ',
        '"TEXNOSTORE" MCHJ',
    )


def test_a_due_date_beside_its_label_in_a_tables_first_row_is_read() -> None:
    page = "\n".join(
        [
            "| PT. Contoh Sejahtera | FAKTUR | Kepada Yth: |",
            "|---|---|---|",
            "| Jl. Merdeka No.1 | No Faktur : 20250427001 | APOTEK SEHAT |",
            "",
            "| No Rek: 010101003113305 (BRI) | Jatuh Tempo: | 27/05/2025 | Barat. |",
            "|---|---|---|---|",
            "| No Nama Barang | Qty | Harga | Diskon Total |",
            "| 1 BILIRUBIN | 1 KIT | Rp1,000,000 | 0% Rp1,000,000 |",
        ]
    )
    schema = {"type": "object", "properties": {"due_date": {"type": "string", "format": "date"}}}

    assert extract([page], schema).output == {"due_date": "2025-05-27"}


def test_an_uzbek_suppliers_taxpayer_number_beside_its_label_in_the_genitive_is_its_vat_id() -> None:
    page = "\n".join(
        [
            '| Етказиб берувчи: | "AT-GOOD SERVIS" MCHJ | Сотиб олувчи: | "TEXNOSTORE" MCHJ |',
            "|---|---|---|---|",
            "| Етказиб берувчининг СТИР | 308876454 | Сотиб олувчининг СТИР рақами | 312096064 |",
            "",
            "Жами тўлов учун: 1 523 700 000.00 сум",
        ]
    )

    output = extract([page], PARTIES).output

    assert (output["issuer"]["vat_id"], output["customer"]["vat_id"]) == ("308876454", "312096064")


def test_an_invoice_number_that_starts_with_the_word_invoice_keeps_it() -> None:
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}

    assert extract(["Invoice n° INVOICE-0001\nTotal: 5.00"], schema).output == {
        "invoice_number": "INVOICE-0001"
    }


def test_a_suppliers_name_before_its_tax_id_and_address_on_one_line_is_its_name() -> None:
    page = "\n".join(
        [
            "Поставщик:",
            'ООО "Компания", ИНН 7707083893, КПП 770701001, 125009, Москва г,',
            "Тверская ул, дом № 9",
            "",
            "Итого: 36 663,00 руб.",
        ]
    )

    output = extract([page], PARTIES).output

    assert output["issuer"] == {"name": 'ООО "Компания"', "vat_id": "7707083893"}
