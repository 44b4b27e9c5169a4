"""Names a request lists (categories, subdocuments): each given once, whatever its case."""

from __future__ import annotations


def check_distinct(names: list[str], what: str) -> None:
    """ValueError (a 422 on the field, inside a validator) for the first name given twice."""
    seen: set[str] = set()
    for name in names:
        key = name.strip().casefold()
        if key and key in seen:
            raise ValueError(f"the {what} name '{name.strip()}' is given twice")
        seen.add(key)
