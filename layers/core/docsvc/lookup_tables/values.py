"""Converting cell text to typed values. Strict converters decide a column's inferred type: each takes
a column's distinct texts and answers None unless it accepts them all. Lenient ones apply a type the
uploader forced: each takes one text and raises ValueError when it refuses it.

Typed values: integer -> int, number -> float, boolean -> bool, date -> "YYYY-MM-DD" str, string -> str.
Only ASCII digits count; thousands separators ("1,234"), currency signs, percentages, NaN and infinities
are not numbers. Surrounding whitespace is ignored, except in string values, which are kept as written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import date
from typing import Any

from docsvc.lookup_tables.model import ColumnType

Converter = Callable[[str], Any]
BulkConverter = Callable[[list[str]], list[Any] | None]

# At most 18 digits (fits 64 bits), no leading zeros: "00123" is a code, not a number.
_INTEGER_TEXT = r"[+-]?(?:0|[1-9][0-9]{0,17})"
# A decimal point or an exponent, no leading zeros: "3.14", ".5", "-0.5", "1e3", "2.5E-4".
_DECIMAL_TEXT = (
    r"[+-]?(?:(?:0|[1-9][0-9]*)?\.[0-9]+(?:[eE][+-]?[0-9]{1,3})?"  # 3.14, .5, 2.5E-4
    r"|(?:0|[1-9][0-9]*)[eE][+-]?[0-9]{1,3})"  # 1e3
)
_INTEGER = re.compile(rf"\s*{_INTEGER_TEXT}\s*")
_NUMBER = re.compile(rf"\s*(?:{_INTEGER_TEXT}|{_DECIMAL_TEXT})\s*")
_ANY_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*")
_ANY_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")
_DATE = re.compile(r"\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*")
_BOOLEANS = {"true": True, "false": False, "yes": True, "no": False}
_LENIENT_BOOLEANS = {**_BOOLEANS, "1": True, "0": False}


def integers(texts: list[str]) -> list[int] | None:
    """The texts as integers, or None when one is not an integer in the strict sense."""
    if not all(map(_INTEGER.fullmatch, texts)):
        return None
    return list(map(int, texts))


def numbers(texts: list[str]) -> list[float] | None:
    """Integers or decimals without leading zeros, as floats."""
    if not all(map(_NUMBER.fullmatch, texts)):
        return None
    values = list(map(float, texts))
    return values if all(map(math.isfinite, values)) else None


def booleans(texts: list[str]) -> list[bool] | None:
    """true/false and yes/no in any case; not 1/0, which make an integer column."""
    values: list[bool] = []
    for text in texts:
        value = _BOOLEANS.get(text.strip().lower())
        if value is None:
            return None
        values.append(value)
    return values


def dates(texts: list[str]) -> list[str] | None:
    """Real days written YYYY-MM-DD, kept as that text."""
    if not all(map(_DATE.fullmatch, texts)):
        return None
    values = [text.strip() for text in texts]
    try:
        for value in values:
            date.fromisoformat(value)  # rejects 2024-02-30
    except ValueError:
        return None
    return values


# Tried in this order on a column's distinct non-blank texts; when none accepts them all: string.
INFERRED: tuple[tuple[ColumnType, BulkConverter], ...] = (
    ("integer", integers),
    ("number", numbers),
    ("boolean", booleans),
    ("date", dates),
)


def iso_date(raw: str) -> str:
    if not _DATE.fullmatch(raw):
        raise ValueError(raw)
    text = raw.strip()
    date.fromisoformat(text)  # rejects 2024-02-30
    return text


def any_integer(raw: str) -> int:
    if not _ANY_INTEGER.fullmatch(raw):
        raise ValueError(raw)
    return int(raw)


def any_number(raw: str) -> float:
    if not _ANY_NUMBER.fullmatch(raw):
        raise ValueError(raw)
    return _finite(float(raw), raw)


def any_boolean(raw: str) -> bool:
    return _lookup(_LENIENT_BOOLEANS, raw)


def as_string(raw: str) -> str:
    return raw


# For a type the uploader forced: leading zeros, "1"/"0" booleans and any float spelling are accepted.
FORCED: dict[ColumnType, Converter] = {
    "integer": any_integer,
    "number": any_number,
    "boolean": any_boolean,
    "date": iso_date,
    "string": as_string,
}


def text_form(value: Any) -> str:
    """The text a typed value is searched by: booleans as "true"/"false", numbers as Python prints them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _finite(value: float, raw: str) -> float:
    if not math.isfinite(value):
        raise ValueError(raw)
    return value


def _lookup(spellings: dict[str, bool], raw: str) -> bool:
    value = spellings.get(raw.strip().lower())
    if value is None:
        raise ValueError(raw)
    return value
