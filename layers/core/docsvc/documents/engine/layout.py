"""Geometry of a page, independent of the PDF library: where tables may be, and where they go.

Text keeps the order in which the document's producer wrote it (the content stream): that is the
reading order of PDFs from word processors, LaTeX and browsers, columns included, which geometric
sorting gets wrong whenever two columns share baselines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y downwards
_CELL_GAP = 12.0  # whitespace wider than this between words separates two cells of a row
_ALIGN = 4.0


def place_tables(blocks: Sequence[tuple[Box, str]], tables: Sequence[tuple[Box, str]]) -> list[str]:
    """The page's text blocks in their own order with each table in place of the text it covers.

    A block whose centre lies in a table is that table's text; each table goes where the first of its
    blocks was, or, when no block was inside, before the first block that starts below its top.
    """
    texts: list[str] = []
    placed: set[int] = set()
    for box, text in blocks:
        covering = next((index for index, (area, _) in enumerate(tables) if _inside(box, area)), None)
        if covering is None:
            for index, (area, table) in enumerate(tables):
                if index not in placed and area[1] < box[1]:
                    texts.append(table)
                    placed.add(index)
            texts.append(text)
        elif covering not in placed:
            texts.append(tables[covering][1])
            placed.add(covering)
    texts.extend(table for index, (_, table) in enumerate(tables) if index not in placed)
    return texts


def _inside(inner: Box, outer: Box) -> bool:
    """Whether the centre of `inner` lies in `outer`."""
    x, y = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] <= x <= outer[2] and outer[1] <= y <= outer[3]


def has_ruling_grid(horizontal: int, vertical: int) -> bool:
    """Enough ruling lines to draw at least a two-by-two grid."""
    return horizontal >= 3 and vertical >= 2


Word = Sequence[object]  # x0, y0, x1, y1, text, ... as PyMuPDF's "words" give them


_SHORT_LINE = 40  # characters: a table cell is short, a line of prose is not


def may_hold_aligned_columns(block_texts: Sequence[str], min_rows: int = 3, min_columns: int = 3) -> bool:
    """A cheap first look: MuPDF breaks a line at wide whitespace, so a table of `min_rows` rows of
    `min_columns` cells shows as that many short lines. Pages of prose stop here."""
    short = sum(1 for text in block_texts for line in text.splitlines() if len(line) <= _SHORT_LINE)
    return short >= min_rows * min_columns


def has_aligned_columns(words: Sequence[Word], min_rows: int = 3, min_columns: int = 3) -> bool:
    """Whether at least `min_rows` text lines break into `min_columns` cells that start at the same x.

    Cells are runs of words separated by wide whitespace; prose lines have one cell, so text-only
    pages are rejected here without the cost of table detection.
    """
    starts_by_line: dict[int, list[float]] = {}
    last_end: dict[int, float] = {}
    boxes = ((round(float(word[1]) / 2), float(word[0]), float(word[2])) for word in words)  # type: ignore[arg-type]
    for line, x0, x1 in sorted(boxes):
        if line not in last_end or x0 - last_end[line] > _CELL_GAP:
            starts_by_line.setdefault(line, []).append(x0)
        last_end[line] = x1
    rows = [starts for starts in starts_by_line.values() if len(starts) >= min_columns]
    if len(rows) < min_rows:
        return False
    aligned = Counter(round(start / _ALIGN) for starts in rows for start in set(starts))
    shared_columns = sum(1 for count in aligned.values() if count >= min_rows)
    return shared_columns >= min_columns
