# ruff: noqa: RUF001, RUF002 (Cyrillic letters in Macedonian labels)
"""Invoice labels of Macedonian invoices said by their keys in English, and the denar: "ден" after an
amount and "МКД" are MKD, whose amounts group thousands with a point ("413.000ден" is four hundred and
thirteen thousand denars). Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import currency_of, parse_number, writes_decimal_comma

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Број на фактура:", ("invoice", "number")),
        ("Датум на издавање:", ("invoice", "date")),
        ("Рок на плаќање:", ("due", "date")),
        ("Ден на извршен промет:", ("delivery", "date")),
        ("ВКУПНО ЗА ПЛАЌАЊЕ:", ("total",)),
        ("Вкупно без ДДВ:", ("net", "total")),
        ("Вкупно ДДВ:", ("tax", "total")),
        ("ДДВ износ", ("tax", "total")),
        ("ИЗДАВАЧ НА ФАКТУРА", ("vendor",)),
        ("ПРИМАТЕЛ НА ФАКТУРА", ("customer",)),
    ],
)
def test_macedonian_labels_are_said_in_english(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


def test_denar_sign_after_an_amount_is_mkd_and_its_point_groups_thousands() -> None:
    texts = ["| Вкупно: | 413.000ден |", "ДДВ 63.000 ден"]
    assert currency_of(texts) == "MKD"
    assert writes_decimal_comma(texts)
    assert parse_number("413.000ден", decimal_comma=True) == (413000.0, 1.0)


def test_macedonian_invoice_reads_its_dates_and_sums() -> None:
    page = "\n".join(
        [
            "ФАКТУРА",
            "",
            "| Број на фактура: | 2024000031 | Датум на издавање: | 03.04.2024 |",
            "|---|---|---|---|",
            "| Ден на извршен промет: | 03.04.2024 | Рок на плаќање: | 18.04.2024 |",
            "",
            "| Вкупно без ДДВ: | 120.000ден |",
            "|---|---|",
            "| Вкупно ДДВ: | 21.600ден |",
            "| ВКУПНО ЗА ПЛАЌАЊЕ: | 141.600ден |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "2024000031"
    assert output["invoice_date"] == "2024-04-03"
    assert output["due_date"] == "2024-04-18"
    assert output["currency"] == "MKD"
    assert (output["net_total"], output["tax_total"], output["total"]) == (120000.0, 21600.0, 141600.0)
