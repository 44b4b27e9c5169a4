"""A table rendered into page text in the requested `table_parsing_format`.

A table is a list of rows of cell strings, the first row its header. JSON and YAML render it as a
list of objects keyed by the header (empty or repeated header cells get `column_N` or `name_2`).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Literal

TableFormat = Literal["markdown", "html", "json", "yaml"]
Rows = Sequence[Sequence[str | None]]


def render_table(rows: Rows, table_format: TableFormat) -> str:
    grid = _squared(rows)
    if not grid:
        return ""
    if table_format == "markdown":
        return _markdown(grid)
    if table_format == "html":
        return _html(grid)
    records = _records(grid)
    if table_format == "json":
        return json.dumps(records, ensure_ascii=False, indent=2)
    return _yaml(records)


def _squared(rows: Rows) -> list[list[str]]:
    """Every row as long as the longest, cells as single-line strings, empty rows dropped."""
    cleaned = [[_cell(cell) for cell in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    width = max((len(row) for row in cleaned), default=0)
    return [row + [""] * (width - len(row)) for row in cleaned]


def _cell(value: str | None) -> str:
    return " ".join((value or "").split())


def _markdown(grid: list[list[str]]) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    header, *body = grid
    return "\n".join([line(header), "|" + "---|" * len(header), *(line(row) for row in body)])


def _html(grid: list[list[str]]) -> str:
    def line(cells: list[str], tag: str) -> str:
        return "<tr>" + "".join(f"<{tag}>{html.escape(cell)}</{tag}>" for cell in cells) + "</tr>"

    header, *body = grid
    rows = "".join(line(row, "td") for row in body)
    return f"<table><thead>{line(header, 'th')}</thead><tbody>{rows}</tbody></table>"


def _records(grid: list[list[str]]) -> list[dict[str, str]]:
    header, *body = grid
    keys = _keys(header)
    return [dict(zip(keys, row, strict=True)) for row in body]


def _keys(header: list[str]) -> list[str]:
    keys: list[str] = []
    for index, name in enumerate(header, start=1):
        key = name or f"column_{index}"
        candidate, suffix = key, 2
        while candidate in keys:
            candidate, suffix = f"{key}_{suffix}", suffix + 1
        keys.append(candidate)
    return keys


def _yaml(records: list[dict[str, str]]) -> str:
    """YAML 1.2 block sequence; every scalar double-quoted (a JSON string is a valid YAML scalar)."""
    if not records:
        return "[]"
    lines: list[str] = []
    for record in records:
        for position, (key, value) in enumerate(record.items()):
            lead = "- " if position == 0 else "  "
            lines.append(
                f"{lead}{json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
            )
        if not record:
            lines.append("- {}")
    return "\n".join(lines)
