"""Arrays: table rows read as the items of an array of objects, and lists of plain values.

The table whose headers best name the item's properties gives the items, continued across pages,
without its total rows and rows whose amounts do not read, or the rows under a row of such headers
inside a table, up to its totals. Text cut across columns is joined back and a column headed by a
count and a text is cut in two. Without a table, the items are the lines of a text and an amount a
receipt prints. An array of plain values is a table column or a comma-separated value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from docsvc.intelligence.candidates import PRIOR
from docsvc.intelligence.coercion import coerce_value, missing_value
from docsvc.intelligence.labels import (
    SUMMARY_KEYS,
    Key,
    is_label_text,
    is_summary_row,
    label_key,
    without_rate,
)
from docsvc.intelligence.lines import label_colon, rejoined
from docsvc.intelligence.page_tables import Table
from docsvc.intelligence.reading import Aliases, Reading, field_aliases, header_score, labelled_pairs
from docsvc.intelligence.schemas import Node
from docsvc.intelligence.values import parse_number


def array_value(node: Node, name: str, reading: Reading) -> tuple[list[Any] | None, float]:
    item = node.items or Node({}, {}, (), True)
    if item.kind == "object" and item.properties:
        return _table_items(item, reading)
    if item.kind in {"object", "array", "null"} or item.never:
        return None, 0.0
    return _listed(item, field_aliases(name, node), reading)


def _columns(header: tuple[str, ...], fields: list[tuple[str, Aliases]]) -> dict[str, tuple[int, float]]:
    """Which column holds which field: best matches first, one column per field."""
    scored: list[tuple[float, str, int]] = []
    for name, aliases in fields:
        for column, cell in enumerate(header):
            score = header_score(cell, aliases)
            if score > 0:
                scored.append((score, name, column))
    scored.sort(key=lambda item: (-item[0], item[2]))
    mapping: dict[str, tuple[int, float]] = {}
    taken: set[int] = set()
    for score, name, column in scored:
        if name not in mapping and column not in taken:
            mapping[name] = (column, score)
            taken.add(column)
    return mapping


def _table_items(item: Node, reading: Reading) -> tuple[list[Any] | None, float]:
    """The rows of the table that best names the item's properties, as objects."""
    fields = [
        (name, field_aliases(name, child))
        for name, child in item.properties
        if child.kind not in {"object", "array"}
    ]
    best: tuple[float, Table, bool, dict[str, tuple[int, float]]] | None = None
    for table, whole in _item_tables(reading.layout.tables):
        mapping = _columns(table.header, fields)
        if not fields or len(mapping) < min(2, len(fields)):
            continue
        quality = sum(score for _, score in mapping.values()) / len(mapping)
        quality *= 0.7 + 0.3 * len(mapping) / len(fields)
        if best is None or quality > best[0] + 1e-9:
            best = (quality, table, whole, mapping)
    if best is None:
        return _item_lines(item, fields, reading)
    quality, table, whole, mapping = best
    same = tuple(map(label_key, table.header))
    rows = [
        row
        for other in map(_tidied, reading.layout.tables)
        if tuple(map(label_key, other.header)) == same
        for row in other.rows
    ]
    return _rows_as_items(rows if whole else table.rows, item, mapping, quality, reading)


_COUNTED_TEXT = re.compile(r"(?P<count>\d+)\s*[x\u00d7]?\s+(?P<text>\D.*)")


def _item_tables(tables: Sequence[Table]) -> Iterator[tuple[Table, bool]]:
    """Each table (True), and each table under a row of headers inside one (False), as a till roll
    prints QTY/ITEM/AMOUNT under its heading lines: its rows up to the first total or next headers."""
    for table in tables:
        yield _tidied(table), True
        for at, row in enumerate(table.rows):
            if not _is_header_row(row):
                continue
            rest = table.rows[at + 1 :]
            end = next((n for n, other in enumerate(rest) if _ends_items(other)), None)
            rows = rest[: len(rest) if end is None else end]
            if rows:
                inner = Table(row, rows, table.lines[at + 1 : at + 2 + len(rows)], table.page)
                yield _tidied(inner), False


def _ends_items(row: Sequence[str]) -> bool:
    """A total, also when its word was cut across cells ("SUBTOT | AL"), or the next row of headers."""
    text = "".join(cell for cell in row if not _is_amount(cell))
    return is_summary_row(row) or is_summary_row([text]) or _is_header_row(row)


def _is_header_row(row: Sequence[str]) -> bool:
    filled = [cell for cell in row if cell]
    return len(filled) >= 2 and all(is_label_text(cell) for cell in filled)


def _tidied(table: Table) -> Table:
    """The table with text cut across columns put back together: a column without a header and
    mostly of text joins the column left of it, and a column headed by a count and a text ("QTY
    ITEM") whose cells all start with a count is split in two."""
    rows = _counts_apart(_headless_joined([table.header, *table.rows]))
    if rows[0] == table.header and tuple(rows[1:]) == table.rows:
        return table
    return Table(rows[0], tuple(rows[1:]), table.lines, table.page)


def _headless_joined(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The rows with each column without a header and mostly of text joined to the column left of it."""
    for column in range(len(rows[0]) - 1, 0, -1):
        if not rows[0][column] and _mostly_text(row[column] for row in rows):
            rows = [
                (*row[: column - 1], rejoined(row[column - 1 : column + 1]), *row[column + 1 :])
                for row in rows
            ]
    return rows


def _counts_apart(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The rows with a column headed by a count and a text ("QTY ITEM") cut in two, when each of its
    cells starts with a count."""
    for column, head in enumerate(rows[0]):
        words = head.split(maxsplit=1)
        cells = [row[column] for row in rows[1:] if row[column]]
        counted = bool(cells) and all(_COUNTED_TEXT.fullmatch(cell) for cell in cells)
        if len(words) == 2 and label_key(words[0]) == ("quantity",) and counted:
            return [_split_count(row, column, index == 0) for index, row in enumerate(rows)]
    return rows


def _mostly_text(cells: Iterable[str]) -> bool:
    """Whether fewer of the filled cells are numbers than are text."""
    filled = [cell for cell in cells if cell]
    return 2 * sum(map(_is_amount, filled)) < len(filled) or not filled


def _is_amount(text: str) -> bool:
    """Whether `text` is a number alone, without a unit after it ("250 g" is not)."""
    number = parse_number(text) if text else None
    return number is not None and number[1] == 1.0


def _split_count(row: tuple[str, ...], column: int, header: bool) -> tuple[str, ...]:
    """The row with the cell at `column` cut into its count and its text."""
    cell = row[column]
    if header:
        parts = cell.split(maxsplit=1)
    else:
        match = _COUNTED_TEXT.fullmatch(cell)
        parts = [match["count"], match["text"]] if match else ["", cell]
    return (*row[:column], *parts, *row[column + 1 :])


def _rows_as_items(
    rows: Sequence[tuple[str, ...]],
    item: Node,
    mapping: dict[str, tuple[int, float]],
    quality: float,
    reading: Reading,
) -> tuple[list[Any], float]:
    items: list[Any] = []
    read = unread = 0
    for row in rows:
        cells = {name: row[column] for name, (column, _) in mapping.items() if column < len(row)}
        if is_summary_row(row) or not any(cells.values()) or (len(row) >= 3 and sum(map(bool, row)) <= 1):
            continue
        if _numbers_unread(cells, item, reading):
            continue
        value: dict[str, Any] = {}
        for name, child in item.properties:
            coerced = coerce_value(cells.get(name, ""), child, reading)
            if coerced is not None and reading.valid(child, coerced[0]):
                value[name], read = coerced[0], read + 1
                continue
            unread += bool(cells.get(name))
            present, empty = missing_value(child)
            if present:
                value[name] = empty
        items.append(value)
    return items, quality * (read / (read + unread) if read + unread else 1.0)


def _numbers_unread(cells: Mapping[str, str], item: Node, reading: Reading) -> bool:
    """Whether the row fills two numeric fields or more but none of them reads as a number: text cut
    from around the table (a summary the parse ran across its columns), not an item."""
    kinds = dict(item.properties)
    numeric = [text for name, text in cells.items() if kinds[name].kind in {"number", "integer"} and text]
    return len(numeric) >= 2 and all(
        parse_number(text, reading.layout.decimal_comma) is None for text in numeric
    )


_ITEM_LINE = re.compile(r"(?P<text>\D.*?)\s+(?P<amount>\(?-?\S*\d[.,]\d{2}\)?\S*)")
_COUNTED = re.compile(r"(?P<count>\d+)\s*[x\u00d7]\s+(?P<text>.+)")
_CENTS = re.compile(r"\d[.,]\d{2}(?!\d)")
_DETAIL = re.compile(r"(?P<count>\d+)\s*[@x\u00d7]\s*\S*\d[.,]\d{2}\S*")
_PAYMENTS = frozenset(
    (word,)
    for word in ("cash", "card", "change", "tendered", "visa", "mastercard", "amex", "tip", "payment", "paid")
)
_LINE_ITEMS = 0.6  # items read from lines without a table count for less


def _item_lines(
    item: Node, fields: list[tuple[str, Aliases]], reading: Reading
) -> tuple[list[Any] | None, float]:
    """Items printed as a text and an amount, on one line ("Cappuccino 3.50") or the amount on the line
    below, as receipts print them: the longest run of such items in a block, totals left out."""
    kinds = dict(item.properties)
    text = _field_for(fields, kinds, {"string"}, ("description",))
    amount = _field_for(fields, kinds, {"number"}, ("amount",), ("unit", "price"))
    count = _field_for(fields, kinds, {"integer", "number"}, ("quantity",))
    if text is None or amount is None:
        return None, 0.0
    runs = [_item_run(block, reading) for block in reading.layout.blocks]
    best = max(runs, key=len, default=[])
    if len(best) < 2:
        return None, 0.0
    rows = [(text_cell, amount_cell, count_cell) for count_cell, text_cell, amount_cell in best]
    mapping = {text: (0, 1.0), amount: (1, 1.0)} | ({count: (2, 1.0)} if count and count != amount else {})
    return _rows_as_items(rows, item, mapping, _LINE_ITEMS, reading)


def _item_run(block: tuple[int, ...], reading: Reading) -> list[tuple[str, str, str]]:
    """The longest run of (count, text, amount) items in a block."""
    texts = [reading.layout.lines[index].text for index in block]
    best: list[tuple[str, str, str]] = []
    run: list[tuple[str, str, str]] = []
    position = 0
    while position < len(texts):
        found, used = _item_at(texts, position, reading)
        if found:
            run.append(found)
        else:
            best, run = max(best, run, key=len), []
        position += used
    return max(best, run, key=len)


def _item_at(texts: list[str], position: int, reading: Reading) -> tuple[tuple[str, str, str] | None, int]:
    """The item starting at `texts[position]`, and how many lines it takes."""
    line = texts[position]
    following = texts[position + 1] if position + 1 < len(texts) else ""
    match = _ITEM_LINE.fullmatch(line) if len(line) <= 200 else None
    if match:
        described, amount, used = match["text"], match["amount"], 1
    elif _CENTS.search(following) and parse_number(following, reading.layout.decimal_comma):
        described, amount, used = line, following, 2
    else:
        return None, 1
    counted = _COUNTED.fullmatch(described)
    count, described = (counted["count"], counted["text"]) if counted else ("", described)
    key = tuple(word for word in label_key(without_rate(described)) if not word.isdigit())
    if key in SUMMARY_KEYS or key[:1] in _PAYMENTS or label_colon(described) is not None or not key:
        return None, 1
    detail = _DETAIL.fullmatch(texts[position + used].strip()) if position + used < len(texts) else None
    if detail:  # "4 @ 3.86" under the item: its count and unit price
        count, used = count or detail["count"], used + 1
    return (count, described, amount), used


def _field_for(
    fields: list[tuple[str, Aliases]], kinds: Mapping[str, Node], types: set[str], *keys: Key
) -> str | None:
    """The item property of one of `types` named like one of `keys`, else the first of those types."""
    typed = [(name, aliases) for name, aliases in fields if kinds[name].kind in types]
    named = next((name for name, aliases in typed if any(key in aliases for key in keys)), None)
    return named or (typed[0][0] if typed else None)


def _listed(item: Node, aliases: Aliases, reading: Reading) -> tuple[list[Any] | None, float]:
    """An array of plain values: a table column named like the array, else a labelled list "a, b, c"."""
    for table in reading.layout.tables:
        mapping = _columns(table.header, [("values", aliases)])
        if mapping:
            column, score = mapping["values"]
            cells = [row[column] for row in table.rows if not is_summary_row(row) and row[column]]
            return _values(cells, item, reading, score)
    labelled = sorted(labelled_pairs(aliases, reading).items(), key=lambda entry: (-entry[1], entry[0]))
    for index, score in labelled[:1]:
        pair = reading.layout.pairs[index]
        parts = [part for part in re.split(r"[,;]", pair.value) if part.strip()]
        return _values(parts, item, reading, score * PRIOR[pair.how])
    return None, 0.0


def _values(texts: list[str], item: Node, reading: Reading, score: float) -> tuple[list[Any], float]:
    values = []
    for text in texts:
        coerced = coerce_value(text, item, reading)
        if coerced is not None and reading.valid(item, coerced[0]):
            values.append(coerced[0])
    return values, score * (len(values) / len(texts) if texts else 1.0)
