"""Columns of a table detected by alignment that only a gap between columns fills."""

import pytest
from docsvc.intelligence.page_tables import table_parts

ITEMS = [
    ("Item", "Qty", "", "Price"),
    ("Apple", "1", "", "2.00"),
    ("Pear", "2", "", "3.00"),
    ("Plum", "1", "", "1.00"),
    ("Fig", "4", "", "5.00"),
]


@pytest.mark.parametrize(
    ("summary", "kept"),
    [
        (("Total", "", "-", "11.00"), ("Total", "", "11.00")),  # a dash only: the gap is left out
        (("Total", "", "11.00", ""), ("Total", "", "11.00", "")),  # an amount: the column is kept
    ],
)
def test_a_column_only_a_summary_row_fills_is_kept_for_an_amount_not_for_a_dash(
    summary: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    _, table = table_parts([*ITEMS, summary])
    assert table[-1] == kept
