"""India's GST printed only as its halves: the central "CGST" and the state's "SGST" (or a union
territory's "UTGST") on labelled lines of their own are added up into the tax; a half printed twice, or
a half alone, names no tax. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


def _page(*tax_lines: str) -> str:
    head = ["Tax Invoice", "Date: 20-12-2024", "Shop Name: Ravi Stores", "Customer Name: Anil Kumar"]
    return "\n".join([*head, *tax_lines, "Total: 525.00"])


@pytest.mark.parametrize(
    ("lines", "tax"),
    [
        (("Total CGST: 12.50", "Total SGST: 12.50"), 25.0),
        (("CGST: 9.00", "UTGST: 9.00"), 18.0),
        (("CGST Amount: 1,012.25", "SGST Amount: 1,012.25"), 2024.5),
    ],
)
def test_the_tax_is_the_sum_of_its_gst_halves(lines: tuple[str, ...], tax: float) -> None:
    assert extract([_page(*lines)], SCHEMA).output["tax_total"] == tax


@pytest.mark.parametrize(
    "lines",
    [
        ("Total CGST: 12.50",),
        ("CGST: 12.50", "SGST: 12.50", "SGST: 3.00"),
    ],
)
def test_a_lone_or_repeated_half_names_no_tax(lines: tuple[str, ...]) -> None:
    assert extract([_page(*lines)], SCHEMA).output["tax_total"] is None
