"""A count of sheets written with a word ("Folio 1 de 1", "Page 2 of 3") is no document number, whether
it follows the title or stands under it. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.intelligence.extraction import extract

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"invoice_number": {"type": ["string", "null"]}}}


@pytest.mark.parametrize(
    "page",
    [
        "FACTURA\nFolio 1 de 1\nFecha: 08/10/2022\nTotal: Q 100.00",
        "FACTURA CAMBIARIA\nFolio 1 de 1\nFecha: 08/10/2022",
    ],
)
def test_a_count_of_sheets_is_no_invoice_number(page: str) -> None:
    assert extract([page], SCHEMA).output["invoice_number"] is None


def test_a_number_beside_a_count_of_sheets_is_still_read() -> None:
    assert extract(["FACTURA\nFolio: A-77\nFolio 1 de 1"], SCHEMA).output["invoice_number"] == "A-77"
    assert extract(["Invoice 4711\nPage 1 of 2"], SCHEMA).output["invoice_number"] == "4711"
