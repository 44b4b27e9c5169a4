"""The lines of a parsed page and the pieces they are made of.

A line is a text line of a block or a row of a table; a position is a line and a character (or a
cell). A line is cut into segments at wide spacing or dot leaders, a label ends at its colon, and text
cut at column edges is joined back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

Pos = tuple[int, int]  # where a label or value starts: (line, character) or, in a table row, (line, cell)
_GAP = re.compile(r"[ \u00a0]{2,}|\t|\s*(?:\.{3,}|…+)\s*")  # wide spacing or dot leaders


@dataclass(frozen=True)
class Line:
    text: str
    page: int  # 0-based
    block: int  # the text block holding the line; -1 for a table row
    cells: tuple[str, ...] | None = None  # the cells of a table row


def rejoined(row: Iterable[str]) -> str:
    """Cells of text cut at column edges joined back: without a space inside a word cut in two."""
    text = ""
    for cell in (cell for cell in row if cell):
        split_word = text and (
            (text[-1].isdigit() and cell[0].isdigit())
            or (text[-1].isalpha() and cell[0].islower())
            or len(text.split()[-1]) == 1
        )
        text += cell if split_word or not text else " " + cell
    return text


def segments(text: str) -> list[tuple[int, str]]:
    """The pieces of a line apart by wide spacing or dot leaders, each with its offset."""
    found: list[tuple[int, str]] = []
    start = 0
    for gap in _GAP.finditer(text):
        if gap.start() > start:
            found.append((start, text[start : gap.start()]))
        start = gap.end()
    if start < len(text):
        found.append((start, text[start:]))
    return found


def label_colon(segment: str) -> int | None:
    """Where the colon after a label is in `segment`, if it has one (not a time's, not a URL's)."""
    for match in re.finditer(":", segment):
        at = match.start()
        if segment[at - 1 : at].isdigit() and segment[at + 1 : at + 2].isdigit():
            continue
        label = segment[:at].strip()
        if segment.startswith("//", at + 1) or not 0 < len(label) <= 60:
            return None
        return at if any(char.isalpha() for char in label) else None
    return None


def is_cell(text: str) -> bool:
    return len(segments(text)) == 1 and label_colon(text) is None
