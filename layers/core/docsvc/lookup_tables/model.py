"""The shapes of a parsed table and the one error every table operation raises."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

ColumnType = Literal["integer", "number", "boolean", "date", "string"]
COLUMN_TYPES: dict[str, ColumnType] = {
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "date": "date",
    "string": "string",
}

MAX_BYTES = 20 * 1024 * 1024

_FIELD_OF_CODE = {
    "too_large": "file",
    "invalid_csv": "file",
    "invalid_override": "column_schema_overrides",
    "invalid_filter": "filters",
}


@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType
    nullable: bool
    sample_values: list[Any]  # up to 3 distinct non-null typed values, first seen first; long texts cut


@dataclass(frozen=True)
class ParsedTable:
    columns: list[Column]
    rows: list[list[Any]]  # typed values (None for blanks), one list per row, in file order
    delimiter: str
    encoding: str  # "utf-8", "utf-8-sig", "utf-16" or "windows-1252" (before: "latin-1")


class TableError(ValueError):
    """A table or a request about one that cannot be used.

    `code` is "too_large" (413), "invalid_csv", "invalid_override" or "invalid_filter" (422);
    `field` is the request field a 422 names: "file", "column_schema_overrides" or "filters".
    """

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field or _FIELD_OF_CODE.get(code, "file")
