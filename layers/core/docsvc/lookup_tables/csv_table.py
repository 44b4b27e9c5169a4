"""Parsing an uploaded CSV into a typed table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docsvc.lookup_tables.columns import build_column
from docsvc.lookup_tables.memory import collector_paused
from docsvc.lookup_tables.model import COLUMN_TYPES, MAX_BYTES, Column, ColumnType, ParsedTable, TableError
from docsvc.lookup_tables.reading import column_names, decode, read_records, sniff_delimiter

NAMES_LISTED = 20  # columns named in an unknown-column message


def parse_csv(content: bytes, overrides: Mapping[str, str] | None = None) -> ParsedTable:
    """The table a CSV file holds: typed columns and rows.

    `overrides` forces column types ({column name: type}, names matched ignoring case and surrounding
    spaces). Raises TableError: "too_large" over MAX_BYTES, "invalid_csv" for a file that is not a
    table, "invalid_override" for an unknown column or type or a value the forced type refuses.
    """
    if len(content) > MAX_BYTES:
        raise TableError(
            "too_large", f"a table's CSV may be at most {MAX_BYTES} bytes; this one has {len(content)}"
        )
    text, encoding = decode(content)
    delimiter = sniff_delimiter(text)
    with collector_paused():
        header, records = read_records(text, delimiter)
        names = column_names(header)
        columns, rows = _typed_rows(names, records, _forced_types(names, overrides or {}))
    return ParsedTable(columns=columns, rows=rows, delimiter=delimiter, encoding=encoding)


def _typed_rows(
    names: list[str], records: list[list[str]], forced: dict[int, ColumnType]
) -> tuple[list[Column], list[list[Any]]]:
    """Each column typed, then its values back in rows. `records` is emptied along the way."""
    cells_by_column: list[tuple[str, ...]] = list(zip(*records, strict=True)) or [()] * len(names)
    records.clear()
    columns: list[Column] = []
    values_by_column: list[list[Any]] = []
    for index, name in enumerate(names):
        column, values = build_column(name, cells_by_column[index], forced.get(index))
        cells_by_column[index] = ()  # the text goes as soon as its typed values exist
        columns.append(column)
        values_by_column.append(values)
    return columns, list(map(list, zip(*values_by_column, strict=True)))


def _forced_types(names: list[str], overrides: Mapping[str, str]) -> dict[int, ColumnType]:
    """The type forced on each column position."""
    index_of = {name.casefold(): index for index, name in enumerate(names)}
    forced: dict[int, ColumnType] = {}
    for name, type_name in overrides.items():
        index = index_of.get(str(name).strip().casefold())
        if index is None:
            listed = ", ".join(f'"{known}"' for known in names[:NAMES_LISTED])
            more = ", ..." if len(names) > NAMES_LISTED else ""
            raise TableError("invalid_override", f'unknown column "{name}": the columns are {listed}{more}')
        column_type = COLUMN_TYPES.get(type_name) if isinstance(type_name, str) else None
        if column_type is None:
            raise TableError(
                "invalid_override",
                f'column "{name}": unknown type {type_name!r}, expected one of {", ".join(COLUMN_TYPES)}',
            )
        forced[index] = column_type
    return forced
