"""The tables of a document's pages: markdown pipe tables, and tables printed without rules.

Pipe-table rows are read into cells, with text lines a detected table took in above its header given
back. Unruled tables are found as a line per cell (a run of header lines, then rows of as many lines)
or as lines of cells apart by wide spacing. A table that goes on at the top of the next page is joined
to the one it continues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from docsvc.intelligence.labels import is_blank_cell, is_label_text, is_summary_row, label_key
from docsvc.intelligence.lines import Line, is_cell, rejoined, segments
from docsvc.intelligence.values import parse_number

_RULE_CELL = re.compile(r":?-+:?")
_MAX_COLUMNS = 12  # of a table printed a cell per line


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]  # the header's line, then each row's
    page: int


def pipe_table_rows(chunk: list[str]) -> list[tuple[str, ...]]:
    rows = [
        tuple(cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line[1:-1]))
        for line in chunk
    ]
    rows = [row for row in rows if not all(_RULE_CELL.fullmatch(cell) for cell in row)] or [("",)]
    width = max(len(row) for row in rows)
    return [row + ("",) * (width - len(row)) for row in rows]


def table_parts(rows: list[tuple[str, ...]]) -> tuple[list[str], list[tuple[str, ...]]]:
    """Text lines a table detected by alignment took in above its header, and the table itself.

    The lines above are rows with less than half their cells filled; cut at column edges, their
    cells are joined back (without a space inside a word cut in two). A column empty in all rows but
    a few of four or more (a gap between columns, filled only where text ran across it) is left out,
    unless the few are summary rows (a total's label and amount in columns the items leave empty) that
    fill it with more than a dash, or values beside labels ending in their colon ("| Invoice Number: |
    3295 |" above an items table in one grid: the values' column is filled in those rows only).
    """
    width = len(rows[0])
    start = next(
        (n for n, row in enumerate(rows) if sum(map(bool, row)) >= max(2, (width + 1) // 2)), len(rows)
    )
    spilled = [rejoined(row) for row in rows[:start]]
    body = rows[start:]
    least = 1 if len(body) < 4 else len(body) / 4
    summaries = [row for row in body if is_summary_row(row)]
    used = [
        column
        for column in range(width)
        if sum(1 for row in body if row[column]) >= least
        or any(not is_blank_cell(row[column]) for row in summaries)
        or _beside_colons(body, column) >= 2
    ]
    return [text for text in spilled if text], [tuple(row[column] for column in used) for row in body]


def _beside_colons(rows: list[tuple[str, ...]], column: int) -> int:
    """How many rows fill `column` with the value of a label whose colon ends the filled cell before it."""
    count = 0
    for row in rows:
        before = [cell for cell in row[:column] if cell.strip()]
        count += bool(row[column].strip() and before and before[-1].rstrip().endswith(":"))
    return count


def header_lines(table: Table) -> range:
    """The lines of an unruled table's header: from its first line to its first row's."""
    return range(table.lines[0], table.lines[1] if len(table.lines) > 1 else table.lines[0] + 1)


def flat_tables(lines: list[Line], blocks: list[tuple[int, ...]]) -> list[Table]:
    """Tables printed without rules whose cells came out one per line, row after row (in one block, or
    a block per row): a run of header lines, then two rows or more of as many lines, each column numbers
    throughout or text throughout, numbers in one column at least."""
    order = [index for block in blocks for index in block]
    tables: list[Table] = []
    position = 0
    while position < len(order):
        run = 0
        while (
            position + run < len(order)
            and run < _MAX_COLUMNS
            and is_label_text(lines[order[position + run]].text)
        ):
            run += 1
        table = _flat_table(lines, order, position, run) if run >= 2 else None
        if table:
            tables.append(table)
            position = order.index(table.lines[-1]) + len(table.header)
        else:
            position += max(run, 1)
    return tables


def _flat_table(lines: list[Line], order: list[int], position: int, run: int) -> Table | None:
    """The best table whose header lies in the run of label lines at `position`, if any: the one whose
    rows start blocks (when the rows came out a block each), then the one with the most cells."""
    best: Table | None = None
    best_score = (0, 0)
    for start in range(position, position + run - 1):
        for width in range(position + run - start, 1, -1):
            table = _flat_rows(lines, order, start, width)
            if table is None:
                continue
            starts = sum(
                1 for index in table.lines[1:] if index == 0 or lines[index - 1].block != lines[index].block
            )
            score = (starts, len(table.rows) * len(table.header))
            if score > best_score:
                best, best_score = table, score
    return best


def _flat_rows(lines: list[Line], order: list[int], start: int, width: int) -> Table | None:
    page = lines[order[start]].page
    rows: list[tuple[str, ...]] = []
    firsts: list[int] = []
    profile: tuple[bool, ...] | None = None
    breaks: tuple[bool, ...] | None = None
    at = start + width
    while at + width <= len(order) and all(lines[index].page == page for index in order[at : at + width]):
        cells = tuple(lines[index].text for index in order[at : at + width])
        numbers = tuple(parse_number(cell) is not None for cell in cells)
        if not any(numbers) or not all(map(is_cell, cells)) or (profile is not None and numbers != profile):
            break
        # where the row's cells start a block: the same in every row ("USD" over "7800.00" over "Lei"
        # over "31334.16" then the company's name in the footer's block is no table of two rows)
        parted = tuple(
            lines[left].block != lines[right].block for left, right in pairwise(order[at : at + width])
        )
        if breaks is not None and parted != breaks:
            break
        profile, breaks = numbers, parted
        rows.append(cells)
        firsts.append(order[at])
        at += width
    if len(rows) < 2 or profile is None or all(profile) or not any(profile):
        return None
    header = tuple(lines[index].text.rstrip(":").strip() for index in order[start : start + width])
    return Table(header, tuple(rows), (order[start], *firsts), page)


def spaced_tables(lines: list[Line], blocks: list[tuple[int, ...]]) -> list[Table]:
    """Tables printed as lines of cells apart by wide spacing, under a line of headers."""
    tables: list[Table] = []
    for block in blocks:
        cells = [tuple(text for _, text in segments(lines[index].text)) for index in block]
        start = 0
        while start < len(block):
            end = start + 1
            if len(cells[start]) >= 2 and all(is_label_text(cell) for cell in cells[start]):
                while end < len(block) and len(cells[end]) == len(cells[start]):
                    end += 1
            if end - start >= 2:
                page = lines[block[start]].page
                tables.append(Table(cells[start], tuple(cells[start + 1 : end]), block[start:end], page))
            start = end
    return tables


def joined_across_pages(tables: list[Table], lines: list[Line]) -> list[Table]:
    """A table that goes on at the top of the next page, as one table: the continuation repeats the
    header, or its first row is data where the header was."""
    joined: list[Table] = []
    for table in tables:
        previous = joined[-1] if joined else None
        if previous and len(table.header) > len(previous.header):
            table = _narrowed(table, len(previous.header))
        if previous and _continues(previous, table, lines):
            repeated = tuple(map(label_key, table.header)) == tuple(map(label_key, previous.header))
            rows = table.rows if repeated else (table.header, *table.rows)
            more = table.lines[1:] if repeated else table.lines
            joined[-1] = Table(previous.header, previous.rows + rows, previous.lines + more, previous.page)
        else:
            joined.append(table)
    return joined


def _narrowed(table: Table, width: int) -> Table:
    """The table with text columns cut in two at a word put back together, down to `width` columns if
    it can be: a table found by alignment may split a column of text where its words line up, and
    keep a column empty but in a row or two where text below the table ran across it (a column empty
    in three rows of four or more is left out)."""
    rows = [table.header, *table.rows]
    while len(rows[0]) > width:
        column = next((n for n in range(len(rows[0]) - 1) if _split_text(rows, n)), None)
        if column is not None:
            rows = [(*row[:column], rejoined(row[column : column + 2]), *row[column + 2 :]) for row in rows]
            continue
        column = next((n for n in range(len(rows[0])) if _mostly_empty(rows, n)), None)
        if column is None:
            return table
        rows = [(*row[:column], *row[column + 1 :]) for row in rows]
    return Table(rows[0], tuple(rows[1:]), table.lines, table.page)


def _mostly_empty(rows: list[tuple[str, ...]], column: int) -> bool:
    return len(rows) >= 4 and 4 * sum(1 for row in rows if row[column]) <= len(rows)


def _split_text(rows: list[tuple[str, ...]], column: int) -> bool:
    """Whether a column and the next both hold text, hardly ever a number, the first in every row that
    has either."""
    pair = [(row[column], row[column + 1]) for row in rows if row[column] or row[column + 1]]
    texts = [cell for cells in pair for cell in cells if cell]
    numbers = sum(1 for cell in texts if parse_number(cell) is not None)
    return bool(pair) and all(left for left, _ in pair) and numbers <= len(texts) // 10


def _continues(previous: Table, table: Table, lines: list[Line]) -> bool:
    def has_digits(cells: tuple[str, ...]) -> bool:
        return any(char.isdigit() for cell in cells for char in cell)

    return (
        table.page == lines[previous.lines[-1]].page + 1
        and len(table.header) == len(previous.header)
        and (
            tuple(map(label_key, table.header)) == tuple(map(label_key, previous.header))
            or (has_digits(table.header) and not has_digits(previous.header))
        )
    )
