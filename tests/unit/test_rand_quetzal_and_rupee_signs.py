"""Currencies printed with a sign of their own that other currencies share or that reads as a letter: the
South African rand's "R", the Guatemalan quetzal's "Q" and the rupee's "Rs" of the country the document
names. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.values import currency_of, parse_number, rupee_of

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "currency": {"type": ["string", "null"], "description": "ISO 4217 code of the invoice currency"},
        "total": {"type": ["number", "null"]},
        "net_total": {"type": ["number", "null"], "description": "Total amount without tax"},
    },
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("R 4 968,00", 4968.0), ("R4,968.00", 4968.0), ("Q 6,599.00", 6599.0), ("Q 1250.00", 1250.0)],
)
def test_an_amount_after_a_letter_sign_is_read(text: str, expected: float) -> None:
    assert parse_number(text) == (expected, 1.0)


@pytest.mark.parametrize("text", ["Q1", "Q1 2024", "R2", "R 12"])
def test_a_letter_before_a_number_with_no_cents_is_no_amount(text: str) -> None:
    assert parse_number(text) is None


def test_a_letter_sign_before_amounts_names_its_currency() -> None:
    assert currency_of(["Subtotal: R 4 600,00", "Total: R 4 968,00"]) == "ZAR"
    assert currency_of(["Sofá cama  Q 900.00", "Q 6,599.00"]) == "GTQ"
    assert currency_of(["Q1 2024 report", "Total $12.00"]) == "USD"
    assert currency_of(["Total R$ 1.000,00"]) == "BRL"


def test_rupees_are_those_of_the_country_the_document_names() -> None:
    assert rupee_of(["Golbazar-4, Siraha, Nepal", "Total: Rs.722431.60"]) == "NPR"
    assert rupee_of(["Colombo 03, Sri Lanka", "Rs 1,250.00"]) == "LKR"
    assert rupee_of(["Total: Rs.100"]) is None
    assert rupee_of(["Trekking in Nepal", "Total 100.00"]) is None


def test_an_invoice_in_rand_gets_its_amounts_and_currency() -> None:
    page = (
        "The Monday Sessions\n\nINVOICE\nInvoice #: INV-1001\n\n"
        "| Equipment | Qty | Daily Rate | Total |\n|---|---|---|---|\n"
        "| Speaker | 2 | R 950,00 | R 1 900,00 |\n| Mixer | 1 | R 2 700,00 | R 2 700,00 |\n\n"
        "Subtotal: R 4 600,00\nTax: R 368,00\nTotal: R 4 968,00\n"
    )
    found = extract([page], SCHEMA)
    assert found.output["currency"] == "ZAR"
    assert found.output["total"] == 4968.0
    assert found.output["net_total"] == 4600.0


def test_an_invoice_in_rupees_of_a_named_country_gets_that_currency() -> None:
    page = (
        "MOUNTAIN TRADERS PVT. LTD.\nLakeside-6, Pokhara, Nepal\n\nTax Invoice\nBill No: 17\n\n"
        "Subtotal: Rs.1000.00\nVAT (13.0%): Rs.130.00\nTotal: Rs.1130.00\n"
    )
    assert extract([page], SCHEMA).output["currency"] == "NPR"
