"""The layout of a document: its lines, blocks, label/value pairs and tables, read from its pages.

Each page is split into runs of text lines and pipe tables; the text lines give the blocks and the
pairs, the tables are read with the unruled ones found among the text, and the document's own dates
and amounts say how its numeric dates and decimal marks are written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from docsvc.intelligence.labels import glossed_label
from docsvc.intelligence.lines import Line
from docsvc.intelligence.page_tables import (
    Table,
    flat_tables,
    header_lines,
    joined_across_pages,
    pipe_table_rows,
    spaced_tables,
    table_parts,
)
from docsvc.intelligence.pairs import Pair, cell_pairs, text_pairs
from docsvc.intelligence.values import day_first_in, with_accents_joined, writes_decimal_comma

_MAX_LINE = 2000


@dataclass(frozen=True)
class Layout:
    lines: tuple[Line, ...]
    blocks: tuple[tuple[int, ...], ...]  # the text blocks, as their lines
    pairs: tuple[Pair, ...]
    bare: tuple[int, ...]  # lines of one piece of text without a colon: maybe a label run into its value
    tables: tuple[Table, ...]  # in document order, a table continued on the next page as one
    day_first: bool | None  # what the document's own unambiguous dates say
    decimal_comma: bool


def read_layout(pages: Iterable[str]) -> Layout:
    """The lines, label/value pairs and tables of a document's pages (markdown pipe tables, and
    tables printed without rules: a line per cell, or lines of cells apart by wide spacing)."""
    lines: list[Line] = []
    blocks: list[tuple[int, ...]] = []
    tables: list[Table] = []
    for page, text in enumerate(pages):
        for chunk, is_table in _chunks(with_accents_joined(text)):
            spilled, rows = table_parts(pipe_table_rows(chunk)) if is_table else (chunk, [])
            if spilled:
                start = len(lines)
                lines.extend(Line(line[:_MAX_LINE], page, len(blocks)) for line in spilled)
                blocks.append(tuple(range(start, len(lines))))
            if rows:
                start = len(lines)
                lines.extend(Line(" | ".join(row), page, -1, row) for row in rows)
                tables.append(Table(rows[0], tuple(rows[1:]), tuple(range(start, len(lines))), page))
    unruled = [
        table
        for table in flat_tables(lines, blocks) + spaced_tables(lines, blocks)
        if not _header_across_a_table(table, lines)
    ]
    headers = {index for table in unruled for index in header_lines(table)}
    column_heads = frozenset(table.lines[0] for table in unruled if len(table.rows) >= 2)
    pairs, bare = text_pairs(lines, blocks, headers, column_heads)
    pairs += [replace(pair, label=gloss) for pair in pairs if (gloss := glossed_label(pair.label))]
    texts = [line.text for line in lines]
    return Layout(
        lines=tuple(lines),
        blocks=tuple(blocks),
        pairs=tuple(pairs + cell_pairs(lines, tables)),
        bare=tuple(bare),
        tables=tuple(joined_across_pages(sorted(tables + unruled, key=lambda table: table.lines[0]), lines)),
        day_first=day_first_in(texts),
        decimal_comma=writes_decimal_comma(texts),
    )


def _chunks(text: str) -> Iterator[tuple[list[str], bool]]:
    """Runs of non-blank lines, split where pipe-table rows start or stop."""
    run: list[str] = []
    in_table = False
    for raw in text.split("\n"):
        line = raw.strip()
        is_row = len(line) > 1 and line.startswith("|") and line.endswith("|")
        if run and (not line or is_row != in_table):
            yield run, in_table
            run = []
        if line:
            run.append(line)
            in_table = is_row
    if run:
        yield run, in_table


def _header_across_a_table(table: Table, lines: Sequence[Line]) -> bool:
    """Whether an unruled table's header runs across the lines of a ruled table: a header is printed in
    one run, so a line before a table of items ("Germany", an address's last) and a label after it
    ("Subtotal") are no header of the lone amounts under that label, which a column of summary labels
    and their values, read one per line, would otherwise make a table of."""
    return any(lines[index].cells is not None for index in header_lines(table) if index < len(lines))
