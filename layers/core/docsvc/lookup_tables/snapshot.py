"""A parsed table as compact JSON, stored beside the original CSV and loaded to answer queries."""

from __future__ import annotations

import json
from typing import Any

from docsvc.lookup_tables.memory import collector_paused
from docsvc.lookup_tables.model import COLUMN_TYPES, Column, ParsedTable

FORMAT = "docsvc.table/1"


def to_snapshot(table: ParsedTable) -> bytes:
    """UTF-8 JSON: the format, delimiter, encoding, columns, and the rows as arrays of typed values."""
    document = {
        "format": FORMAT,
        "delimiter": table.delimiter,
        "encoding": table.encoding,
        "columns": [
            {"name": c.name, "type": c.type, "nullable": c.nullable, "samples": c.sample_values}
            for c in table.columns
        ],
        "rows": table.rows,
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def from_snapshot(data: bytes) -> ParsedTable:
    """The table `to_snapshot` wrote; anything else is a ValueError."""
    with collector_paused():
        document = json.loads(data)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a table snapshot in the {FORMAT} format")
    rows = document["rows"]
    if not isinstance(rows, list):
        raise ValueError("a table snapshot's rows must be a list")
    return ParsedTable(
        columns=[_column(entry) for entry in document["columns"]],
        rows=rows,
        delimiter=str(document["delimiter"]),
        encoding=str(document["encoding"]),
    )


def _column(entry: dict[str, Any]) -> Column:
    column_type = COLUMN_TYPES.get(entry["type"])
    if column_type is None:
        raise ValueError(f"unknown column type {entry['type']!r} in a table snapshot")
    return Column(
        name=str(entry["name"]),
        type=column_type,
        nullable=bool(entry["nullable"]),
        sample_values=list(entry["samples"]),
    )
