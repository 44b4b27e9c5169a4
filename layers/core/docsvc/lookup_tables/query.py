"""Filtering a parsed table's rows and paging through the matches.

A filter is `{"column", "operator", "value"}`. Values are converted to the column's type before
comparing ("10" against an integer column is 10). Blank cells match only `is_null`, `ne` and `not_in`.
`contains`, `starts_with` and `ends_with` compare the text form of cells, ignoring case.
"""

from __future__ import annotations

import math
import operator as op
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from docsvc.lookup_tables.model import Column, ColumnType, ParsedTable, TableError
from docsvc.lookup_tables.values import any_boolean, any_integer, any_number, iso_date, text_form

Predicate = Callable[[Any], bool]

_ORDERING: dict[str, Callable[[Any, Any], bool]] = {"gt": op.gt, "gte": op.ge, "lt": op.lt, "lte": op.le}
_TEXT_MATCH: dict[str, Callable[[str, str], bool]] = {
    "contains": lambda cell, needle: needle in cell,
    "starts_with": str.startswith,
    "ends_with": str.endswith,
}
OPERATORS = frozenset({"eq", "ne", "in", "not_in", "is_null", "is_not_null", *_ORDERING, *_TEXT_MATCH})


def query(
    table: ParsedTable, filters: Sequence[Mapping[str, Any]], *, limit: int = 100, offset: int = 0
) -> tuple[list[dict[str, Any]], int]:
    """The rows matching every filter as {column: value}, from `offset`, at most `limit` of them, and
    how many rows match in all. A filter that cannot apply is a TableError("invalid_filter")."""
    checks = [_compile(index, spec, table.columns) for index, spec in enumerate(filters)]
    matches = table.rows
    for position, predicate in checks:
        matches = [row for row in matches if predicate(row[position])]
    start = max(offset, 0)
    names = [column.name for column in table.columns]
    page = [dict(zip(names, row, strict=True)) for row in matches[start : start + max(limit, 0)]]
    return page, len(matches)


def _compile(index: int, spec: Mapping[str, Any], columns: list[Column]) -> tuple[int, Predicate]:
    """The column position a filter reads and the test a cell must pass."""
    if not isinstance(spec, Mapping):
        raise _invalid(index, "must be an object with column, operator and value")
    position = _column_position(index, spec.get("column"), columns)
    column = columns[position]
    name = spec.get("operator")
    if not isinstance(name, str) or name not in OPERATORS:
        raise _invalid(index, f"unknown operator {name!r}, expected one of {', '.join(sorted(OPERATORS))}")
    if name == "is_null":
        return position, _is_null
    if name == "is_not_null":
        return position, _is_not_null
    if "value" not in spec:
        raise _invalid(index, f"operator {name} needs a value")
    return position, _predicate(index, name, spec["value"], column)


def _predicate(index: int, name: str, value: Any, column: Column) -> Predicate:
    if name in _TEXT_MATCH:
        return _text_predicate(_TEXT_MATCH[name], _needle(index, value))
    if name in ("in", "not_in"):
        if not isinstance(value, list | tuple):
            raise _invalid(index, f"operator {name} needs a list of values")
        wanted = frozenset(_typed(index, item, column) for item in value)
        return wanted.__contains__ if name == "in" else lambda cell: cell not in wanted
    if name in _ORDERING and column.type == "boolean":
        raise _invalid(index, f'operator {name} does not apply to the boolean column "{column.name}"')
    target = _typed(index, value, column)
    if name == "eq":
        return lambda cell: cell == target
    if name == "ne":
        return lambda cell: cell != target
    compare = _ORDERING[name]
    return lambda cell: cell is not None and compare(cell, target)


def _text_predicate(match: Callable[[str, str], bool], needle: str) -> Predicate:
    return lambda cell: cell is not None and match(text_form(cell).casefold(), needle)


def _needle(index: int, value: Any) -> str:
    if isinstance(value, str | int | float):
        return text_form(value).casefold()
    raise _invalid(index, "the value must be text")


def _typed(index: int, value: Any, column: Column) -> Any:
    """A filter value as a value of the column's type."""
    if value is None:
        raise _invalid(index, "the value must not be null (is_null and is_not_null test for blanks)")
    try:
        return _CONVERT[column.type](value)
    except (ValueError, TypeError):
        raise _invalid(index, f'{value!r} is not a {column.type} value (column "{column.name}")') from None


def _to_numeric(value: Any) -> int | float:
    if isinstance(value, bool):
        raise TypeError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(value)
        return value
    if isinstance(value, str):
        try:
            return any_integer(value)
        except ValueError:
            return any_number(value)
    raise TypeError(value)


def _to_boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return any_boolean(value)
    raise TypeError(value)


def _to_date(value: Any) -> str:
    if isinstance(value, str):
        return iso_date(value)
    raise TypeError(value)


def _to_string(value: Any) -> str:
    if isinstance(value, str | int | float):
        return text_form(value)
    raise TypeError(value)


_CONVERT: dict[ColumnType, Callable[[Any], Any]] = {
    "integer": _to_numeric,
    "number": _to_numeric,
    "boolean": _to_boolean,
    "date": _to_date,
    "string": _to_string,
}


def _column_position(index: int, name: Any, columns: list[Column]) -> int:
    if not isinstance(name, str):
        raise _invalid(index, "needs a column name")
    for position, column in enumerate(columns):
        if column.name == name:
            return position
    key = name.strip().casefold()
    for position, column in enumerate(columns):
        if column.name.casefold() == key:
            return position
    raise _invalid(index, f'unknown column "{name}"')


def _is_null(cell: Any) -> bool:
    return cell is None


def _is_not_null(cell: Any) -> bool:
    return cell is not None


def _invalid(index: int, problem: str) -> TableError:
    return TableError("invalid_filter", f"filters[{index}]: {problem}")
