"""Columns of a table detected by alignment that only a gap between columns fills."""

from docsvc.intelligence.page_tables import table_parts


def test_a_column_a_summary_row_fills_only_with_a_dash_is_left_out() -> None:
    rows = [
        ("Item", "Qty", "", "Price"),
        ("Apple", "1", "", "2.00"),
        ("Pear", "2", "", "3.00"),
        ("Plum", "1", "", "1.00"),
        ("Fig", "4", "", "5.00"),
        ("Total", "", "-", "11.00"),
    ]
    _, table = table_parts(rows)
    assert table[-1] == ("Total", "", "11.00")


def test_a_column_a_summary_row_fills_with_an_amount_is_kept() -> None:
    rows = [
        ("Item", "Qty", "", "Price"),
        ("Apple", "1", "", "2.00"),
        ("Pear", "2", "", "3.00"),
        ("Plum", "1", "", "1.00"),
        ("Fig", "4", "", "5.00"),
        ("Total", "", "11.00", ""),
    ]
    _, table = table_parts(rows)
    assert table[-1] == ("Total", "", "11.00", "")
