"""Which blocks are columns written line across line (docsvc.documents.engine.layout), at the edges of
its rules: the gutter, the words a line, the lines a column, the switches between columns."""

from __future__ import annotations

from docsvc.documents.engine.layout import Box, interleaved_columns, may_interleave_columns, overlaps

FOUR_WORDS = "one two three four"
THREE_WORDS = "one two three"


def alternating(
    rows: int, left: str = FOUR_WORDS, right: str = FOUR_WORDS, gap: float = 20.0
) -> list[tuple[Box, str]]:
    """Lines of a left column (x 50-250) and a right one (x 250+gap on), written left, right, left, ..."""
    lines: list[tuple[Box, str]] = []
    for row in range(rows):
        y = 100.0 + 12 * row
        lines.append(((50.0, y, 250.0, y + 10), f"{left} L{row}"))
        lines.append(((250.0 + gap, y, 450.0 + gap, y + 10), f"{right} R{row}"))
    return lines


def test_two_columns_of_prose_written_line_across_line_are_read_left_then_right() -> None:
    columns = interleaved_columns(alternating(3))

    assert columns is not None
    assert [text.splitlines()[0] for _, text in columns] == [f"{FOUR_WORDS} L0", f"{FOUR_WORDS} R0"]
    assert [len(text.splitlines()) for _, text in columns] == [3, 3]
    assert columns[0][0] == (50.0, 100.0, 250.0, 134.0)


def test_a_gutter_must_be_wider_than_eight_points() -> None:
    assert interleaved_columns(alternating(3, gap=8.5)) is not None
    assert interleaved_columns(alternating(3, gap=8.0)) is None


def test_each_column_needs_three_lines() -> None:
    assert interleaved_columns(alternating(3)) is not None
    assert interleaved_columns(alternating(2)) is None


def test_lines_of_fewer_than_four_words_on_average_are_labels_and_values_not_prose() -> None:
    # "one two three four L0" has 5 words, "one two three L0" has 4: the boundary is the average of 4.
    assert interleaved_columns(alternating(3, right=THREE_WORDS)) is not None
    assert interleaved_columns(alternating(3, right="one two")) is None


def test_columns_already_read_one_after_the_other_keep_their_order() -> None:
    lines = alternating(3)
    column_after_column = lines[0::2] + lines[1::2]

    assert interleaved_columns(column_after_column) is None


def test_the_first_look_passes_over_blocks_whose_lines_fill_them() -> None:
    block = (50.0, 100.0, 450.0, 172.0)  # 6 lines of 12 pt: a glyph of about 5 pt
    full = "\n".join([" ".join(["abcd"] * 18)] * 6)  # 89 characters a line
    half = "\n".join([" ".join(["abcd"] * 8)] * 6)  # 39 characters a line

    assert not may_interleave_columns(block, full)
    assert may_interleave_columns(block, half)
    assert not may_interleave_columns(block, "\n".join([" ".join(["abcd"] * 8)] * 5))  # under 2 x 3 lines


def test_the_first_look_passes_over_blocks_of_labels_and_values() -> None:
    # Short lines side by side, but fewer than four words a line on average: no columns of prose.
    block = (50.0, 100.0, 450.0, 172.0)
    labels = "\n".join(["Invoice number 4711", "Date 2024-01-31", "Due 2024-02-29"] * 2)  # 2.3 words a line
    prose = "\n".join(["one two three four L0", "one two three R0", "", "one two three four L1"] * 2)

    assert not may_interleave_columns(block, labels)
    assert may_interleave_columns(block, prose)  # 4.7 words a line, the empty lines not counted


def test_a_block_of_columns_whose_lines_are_the_text_lines_is_still_found() -> None:
    # The block of `alternating`: what the first look lets through is split into its columns.
    lines = alternating(3)
    block = (50.0, 100.0, 470.0, 134.0)
    text = "\n".join(text for _, text in lines)

    assert may_interleave_columns(block, text)
    assert interleaved_columns(lines) is not None


def test_a_block_with_another_line_separator_is_looked_at() -> None:
    # `splitlines` breaks at a form feed too, where MuPDF's lines do not: no count of words is trusted.
    block = (50.0, 100.0, 450.0, 172.0)
    assert may_interleave_columns(block, "\n".join(["a\fb", "c", "d", "e", "f", "g"]))


def test_boxes_overlap_only_where_they_share_area_not_where_their_edges_touch() -> None:
    assert overlaps((0, 0, 10, 10), (5, 5, 15, 15))
    assert overlaps((0, 0, 10, 10), (2, 2, 4, 4))
    assert not overlaps((0, 0, 10, 10), (10, 0, 20, 10))
    assert not overlaps((0, 0, 10, 10), (0, 10, 10, 20))
