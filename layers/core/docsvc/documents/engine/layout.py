"""Geometry of a page, independent of the PDF library: whether tables may be on it, and columns whose
lines were written alternately (tables themselves are in `grids`).

Text keeps the order in which the document's producer wrote it (the content stream): that is the
reading order of PDFs from word processors, LaTeX and browsers, columns included, which geometric
sorting gets wrong whenever two columns share baselines. The one exception is a block whose lines
alternate between columns of prose side by side (some producers write two columns line across line):
its columns are read one after the other, left to right.
"""

from __future__ import annotations

import re
from bisect import bisect
from collections.abc import Sequence
from itertools import pairwise

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y downwards


Word = Sequence[object]  # x0, y0, x1, y1, text, ... as PyMuPDF's "words" give them

RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"  # Hebrew, Arabic, Syriac, Thaana
RIGHT_TO_LEFT = re.compile(f"[{RTL}]")


_SHORT_LINE = 40  # characters: a table cell is short, a line of prose is not


def may_hold_aligned_columns(block_texts: Sequence[str], min_rows: int = 3, min_columns: int = 3) -> bool:
    """A cheap first look: MuPDF breaks a line at wide whitespace, so a table of `min_rows` rows of
    `min_columns` cells shows as that many short lines. Pages of prose stop here."""
    short = sum(1 for text in block_texts for line in text.splitlines() if len(line) <= _SHORT_LINE)
    return short >= min_rows * min_columns


# ---------------------------------------------------------------------------------------- columns
_MIN_COLUMN_LINES = 3
_MIN_COLUMN_WORDS = 4.0  # words per line, on average, in a column of prose; labels and amounts have fewer
_GUTTER = 8.0  # points of empty width between two columns, at least
_GLYPH_PER_PITCH = 0.42  # a Latin glyph is about half the font size, and a line about 1.2 sizes high
_SHORT_LINES = 0.7  # of the block's width: the longest line is shorter than this in a block of columns
_OTHER_LINE_BREAKS = re.compile("[\r\v\f\x1c-\x1e\x85\u2028\u2029]")  # `splitlines` breaks at these too


def may_interleave_columns(box: Box, text: str) -> bool:
    """A cheap first look at a block: are even its longest lines much narrower than the block, as when
    the lines of columns side by side were written alternately and read as one block? The width of a
    line is guessed from its characters and the block's line height; prose blocks stop here. So do
    blocks of labels and values: columns of prose have `_MIN_COLUMN_WORDS` words a line on average
    each, so their block has too (its lines are the text's lines when nothing but a newline ends one;
    a block with another line separator is looked at)."""
    lines = text.splitlines()
    if len(lines) < 2 * _MIN_COLUMN_LINES:
        return False
    glyph = (box[3] - box[1]) / len(lines) * _GLYPH_PER_PITCH
    if max(len(line) for line in lines) * glyph >= _SHORT_LINES * (box[2] - box[0]):
        return False
    if _OTHER_LINE_BREAKS.search(text):
        return True
    filled = sum(1 for line in lines if line.strip())
    return len(text.split()) >= _MIN_COLUMN_WORDS * filled


def interleaved_columns(lines: Sequence[tuple[Box, str]]) -> list[tuple[Box, str]] | None:
    """A block's lines as its columns, left to right, when they stand in columns of prose that the
    block alternates between; None when they do not: one column, a list of labels and values (too
    few words a line), or columns already read one after the other."""
    if not lines:
        return None
    gutters = _gutters(sorted((box[0], box[2]) for box, _ in lines))
    if not gutters:
        return None
    columns: list[list[tuple[Box, str]]] = [[] for _ in range(len(gutters) + 1)]
    order = []
    for box, text in lines:
        index = bisect(gutters, box[0])
        columns[index].append((box, text))
        order.append(index)
    if any(not _is_prose_column(column) for column in columns):
        return None
    switches = sum(1 for before, after in pairwise(order) if before != after)
    if switches < min(len(column) for column in columns):
        return None
    return [(union([box for box, _ in column]), "\n".join(text for _, text in column)) for column in columns]


def _gutters(ranges: Sequence[tuple[float, float]]) -> list[float]:
    """The middles of the empty x ranges, wider than a gutter, between the given (x0, x1) ranges."""
    gutters = []
    end = ranges[0][1]
    for x0, x1 in ranges[1:]:
        if x0 - end > _GUTTER:
            gutters.append((end + x0) / 2)
        end = max(end, x1)
    return gutters


def _is_prose_column(column: Sequence[tuple[Box, str]]) -> bool:
    if len(column) < _MIN_COLUMN_LINES:
        return False
    return sum(len(text.split()) for _, text in column) / len(column) >= _MIN_COLUMN_WORDS


def union(boxes: Sequence[Box]) -> Box:
    """The box around the boxes (at least one)."""
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two boxes (x0, y0, x1, y1) share some area: touching edges share none."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
