"""Values coerced to the type a schema gives a field.

Text becomes a number or integer (either decimal mark), a boolean, the allowed value of an enum it
names most closely, a date, date-time or time in ISO form, an e-mail or web address, or a string
matching the field's pattern; each comes with how cleanly it read. A value not found stands as null.
"""

from __future__ import annotations

import difflib
import re
from datetime import date
from typing import Any

from docsvc.intelligence.labels import Key, label_key
from docsvc.intelligence.reading import Reading
from docsvc.intelligence.schemas import Node
from docsvc.intelligence.values import RTL, ParsedDate, parse_bool, parse_date, parse_number, parse_time

_COMPACT_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})")
# Words of a right-to-left script before an amount: a bilingual document's label said again in its
# other language ("TOTAL" over "المستحق الإجمالي 20.000 KD"), no part of the amount.
_TRANSLATED_LABEL = re.compile(rf"(?:[{RTL}]+\s+)+")

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s,;]+")


def coerce_value(text: str, node: Node, reading: Reading) -> tuple[Any, float] | None:
    """`text` as a value of the node's type, with how cleanly it read; None when it is not one."""
    text = " ".join(text.split()).lstrip(":; ")  # what a label's colon left, spaced off it
    if not text:
        return None
    if node.enum is not None:
        return _enum_value(text, node.enum, reading)
    for kind in node.types or ("string",):
        found = _as_kind(kind, text, node, reading)
        if found is not None:
            return found
    return None


def _as_kind(kind: str, text: str, node: Node, reading: Reading) -> tuple[Any, float] | None:
    if kind in {"number", "integer"}:
        number = parse_number(text, reading.layout.decimal_comma)
        translated = _TRANSLATED_LABEL.match(text)
        if number is None and translated:
            number = parse_number(text[translated.end() :], reading.layout.decimal_comma)
        if number is None or (kind == "integer" and not number[0].is_integer()):
            return None
        return (int(number[0]) if kind == "integer" else number[0]), number[1]
    if kind == "boolean":
        flag = parse_bool(text)
        return None if flag is None else (flag, 1.0)
    if kind == "string":
        return _as_string(text, node, reading)
    return None


def _as_string(text: str, node: Node, reading: Reading) -> tuple[str, float] | None:
    form = node.text("format")
    if form in {"date", "date-time"}:
        found = parse_date(text, reading.day_first) or _compact_date(text)
        if found is None:
            return None
        quality = reading.ambiguous_date if found.ambiguous else 1.0
        after = text[text.find(found.printed) + len(found.printed) :] if found.printed else ""
        later = parse_date(after, reading.day_first)
        if later is not None and later.value != found.value:
            quality *= 0.5  # a text of several dates ("bis zum 01.03. ... bis zum 31.03."): which one?
        if form == "date":
            return found.value.isoformat(), quality
        time = parse_time(text)
        return f"{found.value.isoformat()}T{time or '00:00:00'}", quality * (1.0 if time else 0.9)
    if form == "time":
        time = parse_time(text)
        return (time, 1.0) if time else None
    if form in {"email", "uri", "url"}:
        match = (EMAIL if form == "email" else URL).search(text)
        return (match.group(), 1.0) if match else None
    return _matching_pattern(text, node.text("pattern"))


def _compact_date(text: str) -> ParsedDate | None:
    """A labelled date printed as its eight digits, year first ("Date : 20260815", as e-invoice data
    holds it); only a value that is nothing else, and a plausible year."""
    match = _COMPACT_DATE.fullmatch(text.strip())
    if not match or not 1900 <= int(match[1]) <= 2100:
        return None
    try:
        return ParsedDate(date(int(match[1]), int(match[2]), int(match[3])), False, 8, match[0])
    except ValueError:
        return None


def _matching_pattern(text: str, pattern: str) -> tuple[str, float] | None:
    """The text, or the one word of it that matches the property's pattern."""
    quality = 1.0 if len(text) <= 200 else 0.8
    if not pattern:
        return text, quality
    try:
        if re.search(pattern, text):
            return text, quality
        words = [word.strip(",;()") for word in text.split()]
        return next(((word, 0.85) for word in words if word and re.search(pattern, word)), None)
    except re.error:
        return text, quality


def _enum_value(text: str, allowed: list[Any], reading: Reading) -> tuple[Any, float] | None:
    """The allowed value `text` names: the same words, one holding the other, or a close spelling."""
    best: tuple[Any, float] | None = None
    for option in allowed:
        score = _closeness(text, option, reading)
        if score >= 0.6 and (best is None or score > best[1]):
            best = (option, score)
    return best


def _closeness(text: str, option: Any, reading: Reading) -> float:
    if isinstance(option, bool):
        return 1.0 if parse_bool(text) is option else 0.0
    if isinstance(option, int | float):
        number = parse_number(text, reading.layout.decimal_comma)
        return 1.0 if number and number[0] == option else 0.0
    if not isinstance(option, str):
        return 0.0
    said, named = label_key(text), label_key(option)
    if text.casefold() == option.casefold() or (named and said == named):
        return 1.0
    if named and (_within(named, said) or _within(said, named)):
        return 0.85
    return difflib.SequenceMatcher(None, text.casefold(), option.casefold()).ratio() * 0.85


def _within(part: Key, whole: Key) -> bool:
    return bool(part) and any(whole[start : start + len(part)] == part for start in range(len(whole)))


def missing_value(node: Node) -> tuple[bool, Any]:
    """What stands for a value not found: null, whatever type the schema gives the field (the service
    reads a null as "not found" and validates everything else); a property the schema forbids is left
    out."""
    return (False, None) if node.never else (True, None)
