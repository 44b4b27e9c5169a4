"""The lines of a parsed page and the pieces they are made of.

A line is a text line of a block or a row of a table; a position is a line and a character (or a
cell). A line is cut into segments at wide spacing or dot leaders, a label ends at its colon, and text
cut at column edges is joined back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from docsvc.intelligence.labels import SYNONYM_GROUPS, is_label_text, label_key

Pos = tuple[int, int]  # where a label or value starts: (line, character) or, in a table row, (line, cell)
KNOWN_KEYS = frozenset(key for group in SYNONYM_GROUPS for key in group)  # the labels with a meaning
# Wide spacing, or dot leaders, spaced (". . . .") or not.
_GAP = re.compile(r"[ \u00a0]{2,}|\t|\s*(?:\.{3,}|…+|(?<!\S)\.(?: \.){2,})\s*")
# A slash between a value and the next label of the line ("Facture F1 du 26-05-2019 / Date d'échéance:
# 27-05-2019"): a digit before it, a word after it.
_SLASH_AFTER_VALUE = re.compile(r"(?<=\d)\s+/\s+(?=[^\W\d])")


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
    """The pieces of a line apart by wide spacing or dot leaders, each with its offset; the words of
    one label stay one piece however far apart ("Sub      Total:")."""
    found: list[tuple[int, str]] = []
    start = 0
    for gap in _GAP.finditer(text):
        if gap.start() > start:
            found.append((start, text[start : gap.start()]))
        start = gap.end()
    if start < len(text):
        found.append((start, text[start:]))
    return _labels_joined(text, [part for piece in found for part in _apart_at_slash(*piece)])


def _apart_at_slash(start: int, piece: str) -> list[tuple[int, str]]:
    """`piece` cut where a slash parts a value from a known label with its colon, as a line that runs
    two labelled values together prints them; a slash between two labels of one value ("Datum /
    Date:") or inside a value ("12 / 2024") stays."""
    for slash in _SLASH_AFTER_VALUE.finditer(piece):
        rest = piece[slash.end() :]
        colon = label_colon(rest)
        if colon is not None and label_key(rest[:colon]) in KNOWN_KEYS:
            return [(start, piece[: slash.start()]), *_apart_at_slash(start + slash.end(), rest)]
    return [(start, piece)]


def _labels_joined(text: str, pieces: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """`pieces` with a label's words spread over two of them joined back. Justified or OCR'd lines
    print "Sub      Total:" or "Net      Total      100.00"; read apart, "Total" alone would name the
    grand total. Joined only when the words together are a known label that the second piece alone is
    not, and the second ends with a colon or is followed by the line's last piece, a value (a row of
    column headings, "Net   Tax   Total", has no value after it)."""
    joined: list[tuple[int, str]] = []
    for index, (start, piece) in enumerate(pieces):
        if joined and _continues_label(joined[-1][1], piece, pieces[index + 1 :]):
            begin = joined[-1][0]
            joined[-1] = (begin, text[begin : start + len(piece)])
        else:
            joined.append((start, piece))
    return joined


def _continues_label(before: str, piece: str, after: list[tuple[int, str]]) -> bool:
    if not is_label_text(before) or before.rstrip().endswith(":"):
        return False
    colon = label_colon(piece)
    if colon is not None:
        words = piece[:colon]
    elif is_label_text(piece) and len(after) == 1 and any(char.isdigit() for char in after[0][1]):
        words = piece
    else:
        return False
    together, alone = label_key(f"{before} {words}"), label_key(words)
    return together != alone and together in KNOWN_KEYS


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
