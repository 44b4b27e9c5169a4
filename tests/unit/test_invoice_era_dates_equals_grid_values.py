"""A Japanese date counted in an era's years, a total set off from its label by an equals sign, and the
values beside colon labels in a grid that also holds the items. Every document here is written for the
test."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.values import parse_date

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "invoice_date": {"type": ["string", "null"], "format": "date"},
        "due_date": {"type": ["string", "null"], "format": "date"},
        "total": {"type": ["number", "null"]},
    },
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("発行日: 令和6年1月15日", date(2024, 1, 15)),
        ("令和元年5月1日", date(2019, 5, 1)),
        ("平成31年4月30日", date(2019, 4, 30)),
        ("令和 7 年 12 月 3 日", date(2025, 12, 3)),
    ],
)
def test_era_dated_japanese_date_is_read_as_its_western_year(text: str, expected: date) -> None:
    parsed = parse_date(text)
    assert parsed is not None and parsed.value == expected


def test_invoice_dated_in_reiwa_years_gets_its_issue_and_due_dates() -> None:
    page = "請求書\n請求番号: A-17\n発行日: 令和6年1月15日\n支払期限: 令和6年2月15日\n合計: ¥55,000\n"
    output = extract([page], SCHEMA).output
    assert (output["invoice_date"], output["due_date"]) == ("2024-01-15", "2024-02-15")


def test_total_after_an_equals_sign_is_the_total() -> None:
    page = "Invoice 42\nDate: 2022-04-02\nLessons in March\n10.5 hours\nTotal = £319\nPayable to:\nA. Tutor"
    assert extract([page], SCHEMA).output["total"] == 319.0


def test_sum_with_an_equals_sign_is_no_label() -> None:
    page = "Invoice 43\nDate: 2022-04-02\n3 x 5 = 15\nTotal: 15.00\n"
    assert extract([page], SCHEMA).output["total"] == 15.0


def _grid(items: int) -> str:
    """The head of an invoice printed in the grid of its items: the customer's lines down the left, the
    number and dates as labels with their colons and values in two columns of their own, then many
    item rows that leave those columns empty."""
    rows = [
        "| BILL TO |  | Invoice Number: | 3295 |  |",
        "|---|---|---|---|---|",
        "| Owners Corporation |  | Invoice Date: | June 24, 2025 |  |",
        "| PO BOX 162 |  | Payment Due: | July 24, 2025 |  |",
        "| South Melbourne |  |  |  |  |",
        "| Services | Quantity | Rate |  | Amount |",
    ]
    for number in range(items):
        rows.append(f"| Repair {number} | 1 | $10.00 |  | $10.00 |")
        rows.append("| Site visit, labour as per schedule |  |  |  |  |")
    return "TAX INVOICE\n\nBlu Works Pty Ltd\n\n" + "\n".join(rows) + "\n\nTotal: $80.00\n"


def test_values_beside_colon_labels_in_an_items_grid_are_read() -> None:
    output = extract([_grid(8)], SCHEMA).output
    assert (output["invoice_number"], output["invoice_date"], output["due_date"]) == (
        "3295",
        "2025-06-24",
        "2025-07-24",
    )


@pytest.mark.parametrize("company", ["株式会社ミナト商事", "ミナト商事合同会社"])
def test_japanese_company_over_its_address_is_the_issuer(company: str) -> None:
    page = (
        f"請求書\n\n請求番号: A-18\n\n発行日: 2024年3月1日\n\n{company}\n\n"
        "〒100-0001 東京都千代田区千代田1-1-1\n\nTEL: 03-1234-5678\n\n"
        "請求先:\n\n有限会社テスト\n\n合計: ¥11,000"
    )
    schema = {
        "type": "object",
        "properties": {"issuer": {"type": "object", "properties": {"name": {"type": "string"}}}},
    }
    assert extract([page], schema).output["issuer"]["name"] == company


def test_total_after_an_equals_sign_in_a_tables_last_row_is_the_total() -> None:
    page = (
        "Invoice\n\nCustomer: Mr Ball\n\n"
        "| Description | Quantity | Price Subtotal | Currency |\n|---|---|---|---|\n"
        "| Cement | 30 | 1.0 30.0 | ZAR |\n| Wood | 30 | 2.0 60.0 | ZAR |\n"
        "|  |  | Total = 90.0 | ZAR |\n"
    )
    assert extract([page], SCHEMA).output["total"] == 90.0
