"""Taiwanese payment requests (請款單), Peruvian sales slips (Boleta, IGV) and Kenyan and Malaysian
invoices whose amounts carry the shilling's "KSh" and the ringgit's "RM": their labels said in
English, their currencies and amounts read. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key, without_rate
from docsvc.intelligence.values import currency_of, parse_number

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("請款單編號:", ("invoice", "number")),
        ("開立日期:", ("invoice", "date")),
        ("開立公司:", ("vendor",)),
        ("客戶:", ("customer",)),
        ("統一編號:", ("vat", "id")),
        ("總金額", ("total",)),
        ("營業稅", ("tax",)),
        ("Boleta N:", ("invoice", "number")),
        ("Boleta de venta electrónica", ("invoice",)),
        ("IGV", ("tax",)),
    ],
)
def test_taiwanese_and_peruvian_labels_are_said_in_english(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


def test_a_rate_taken_of_a_named_sum_is_no_part_of_the_label() -> None:
    assert without_rate("Tax (16.00% on subtotal):") == "Tax :"


@pytest.mark.parametrize(
    ("text", "code", "amount"),
    [
        ("Total Amount: RM 100.00", "MYR", 100.0),
        ("TOTAL: KSh 1,184.92", "KES", 1184.92),
        ("NT$ 5,460", "TWD", 5460.0),
    ],
)
def test_signs_printed_before_amounts_name_their_currency(text: str, code: str, amount: float) -> None:
    assert currency_of([text]) == code
    assert parse_number(text.rpartition(":")[2]) == (amount, 1.0)


def test_a_page_naming_the_new_taiwan_dollar_prices_in_it_with_yuan_and_dollar_signs() -> None:
    assert currency_of(["2,600元*1月=2,600元", "總金額 新台幣 $ 5,460"]) == "TWD"
    assert currency_of(["2,600元*1月=2,600元"]) == "CNY"


def test_codes_of_further_currencies_outweigh_the_dollar_sign() -> None:
    assert currency_of(["$ 30,850.00", "$ 2,350.00", "TOTAL A PAGAR COP"]) == "COP"
    assert currency_of(["TOTAL: 98,000 DZD"]) == "DZD"
    assert currency_of(["Total 12.00 PEN"]) == "PEN"
    assert currency_of(["PEN DRIVE 16GB"]) is None  # a code that is a word: only beside an amount


def test_taiwanese_payment_request_reads_its_number_parties_tax_id_and_total() -> None:
    page = "\n".join(
        [
            "雲端進銷存系統 - 請款單",
            "請款單編號: QK-20240301-007",
            "開立日期: 2024/3/1",
            "開立公司: 山嵐資訊股份有限公司",
            "統一編號: 12345675",
            "客戶: 海風商行",
            "營業稅",
            "稅率 5%",
            "150",
            "總金額 新台幣 $ 3,150",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "QK-20240301-007"
    assert output["invoice_date"] == "2024-03-01"
    assert output["issuer"] == {"name": "山嵐資訊股份有限公司", "vat_id": "12345675"}
    assert output["customer"]["name"] == "海風商行"
    assert output["currency"] == "TWD"
    assert output["total"] == 3150.0


def test_peruvian_sales_slip_reads_its_number_and_igv() -> None:
    page = "\n".join(
        [
            "CLINICA SONRISA FELIZ",
            "RUC: 20481234567",
            "Boleta N: B002-00000789",
            "Cliente: JUAN PEREZ QUISPE",
            "Fecha: 03/02/2025",
            "Descripcion",
            "Total",
            "Limpieza dental",
            "80.00",
            "Subtotal:",
            "80.00",
            "IGV (18%):",
            "14.40",
            "Total a pagar:",
            "94.40",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "B002-00000789"
    assert (output["net_total"], output["tax_total"], output["total"]) == (80.0, 14.4, 94.4)


def test_kenyan_invoice_reads_its_shilling_amounts_and_the_tax_taken_of_the_subtotal() -> None:
    page = "\n".join(
        [
            "INVOICE",
            "Acme Traders Ltd",
            "Invoice #: INV-77",
            "Invoice Date: 02/03/2026",
            "Bill To:",
            "JANE WANJIRU",
            "Subtotal:",
            "KSh 2,000.00",
            "Tax (16.00% on subtotal):",
            "KSh 320.00",
            "TOTAL:",
            "KSh 2,320.00",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["currency"] == "KES"
    assert (output["net_total"], output["tax_total"], output["total"]) == (2000.0, 320.0, 2320.0)


def test_malaysian_invoice_reads_its_ringgit_amounts() -> None:
    page = "\n".join(
        [
            "EXAMPLE ACADEMY",
            "Invoice #: 2026000042",
            "Date: 06 March 2026",
            "Subtotal: RM 250.00",
            "Tax (0%): RM 0.00",
            "Total Amount: RM 250.00",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["currency"] == "MYR"
    assert (output["net_total"], output["tax_total"], output["total"]) == (250.0, 0.0, 250.0)


@pytest.mark.parametrize("dash", ["-", "—"])
def test_a_tax_row_with_a_dash_for_its_empty_quantity_gives_its_amount(dash: str) -> None:
    page = "\n".join(
        [
            "請款單",
            "請款單編號: QK-20240301-007",
            "",
            "| 項目 | 說明 | 數量 | 請款金額 |",
            "|---|---|---|---|",
            "| 月租費 | 2,600元*1月=2,600元 | 1 | 2600 |",
            "| 月租費 | 2,600元*1月=2,600元 | 1 | 2600 |",
            f"| 營業稅 | 稅率 5% | {dash} | 260 |",
            "",
            "總金額 新台幣 $ 5,460",
        ]
    )
    output = extract([page], SCHEMA).output
    assert (output["tax_total"], output["total"]) == (260.0, 5460.0)
