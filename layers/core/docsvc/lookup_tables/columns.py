"""One column's type, nullability, sample values and typed cells, inferred or forced."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsvc.lookup_tables.model import Column, ColumnType, TableError
from docsvc.lookup_tables.values import FORCED, INFERRED

SAMPLES = 3
SAMPLE_CHARACTERS = 200  # a longer text is cut in the samples (never in the rows)


def build_column(name: str, cells: Sequence[str], forced: ColumnType | None) -> tuple[Column, list[Any]]:
    """The column and its typed cells (None for blank ones), in row order.

    Each distinct text is converted once; when every cell differs (an id column), the cells are
    converted in place of the distinct texts, which then need no lookup.
    """
    distinct = set(cells)
    blanks = _blanks(distinct)
    unique = not blanks and len(distinct) == len(cells)
    texts = list(cells) if unique else list(distinct - blanks)
    if forced is None:
        column_type, converted = _infer(texts)
    else:
        column_type, converted = forced, _force(name, cells, texts, forced)
    values = _typed_cells(cells, blanks, texts, converted, unique)
    column = Column(
        name=name, type=column_type, nullable=bool(blanks) or not cells, sample_values=_samples(values)
    )
    return column, values


def _blanks(distinct: set[str]) -> set[str]:
    blanks = set(filter(str.isspace, distinct))
    if "" in distinct:
        blanks.add("")
    return blanks


def _infer(texts: list[str]) -> tuple[ColumnType, list[Any] | None]:
    """The first type that accepts every text, with the converted texts; None for strings as written."""
    if texts:
        for column_type, convert in INFERRED:
            converted = convert(texts)
            if converted is not None:
                return column_type, converted
    return "string", None


def _force(name: str, cells: Sequence[str], texts: list[str], forced: ColumnType) -> list[Any] | None:
    if forced == "string":
        return None
    convert = FORCED[forced]
    converted: list[Any] = []
    refused: set[str] = set()
    for text in texts:
        try:
            converted.append(convert(text))
        except ValueError:
            refused.add(text)
    if refused:
        row, text = next((row, text) for row, text in enumerate(cells, 1) if text in refused)
        others = f" ({len(refused) - 1} other distinct values fail too)" if len(refused) > 1 else ""
        raise TableError(
            "invalid_override", f'column "{name}" cannot be {forced}: row {row} holds {text!r}{others}'
        )
    return converted


def _typed_cells(
    cells: Sequence[str], blanks: set[str], texts: list[str], converted: list[Any] | None, unique: bool
) -> list[Any]:
    if converted is None:
        return list(cells) if not blanks else [None if cell in blanks else cell for cell in cells]
    if unique:
        return converted
    typed = dict(zip(texts, converted, strict=True))
    typed.update(dict.fromkeys(blanks))
    return list(map(typed.__getitem__, cells))


def _samples(values: list[Any]) -> list[Any]:
    samples: list[Any] = []
    for value in values:
        if isinstance(value, str) and len(value) > SAMPLE_CHARACTERS:
            value = value[:SAMPLE_CHARACTERS] + "…"
        if value is not None and value not in samples:
            samples.append(value)
            if len(samples) == SAMPLES:
                break
    return samples
