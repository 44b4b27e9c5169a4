"""Names: those a request lists (categories, subdocuments), each given once whatever its case; and a
secret's name, with the way a value refers to one (`secret://NAME`)."""

from __future__ import annotations

import re

SECRET_NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
REFERENCE_PREFIX = "secret://"


def check_distinct(names: list[str], what: str) -> None:
    """ValueError (a 422 on the field, inside a validator) for the first name given twice."""
    seen: set[str] = set()
    for name in names:
        key = name.strip().casefold()
        if key and key in seen:
            raise ValueError(f"the {what} name '{name.strip()}' is given twice")
        seen.add(key)
