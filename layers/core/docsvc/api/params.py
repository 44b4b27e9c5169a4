"""Query parameters shared by the list routes."""

from __future__ import annotations

from datetime import datetime

from docsvc.clock import parse_bound
from docsvc.errors import InvalidField


def date_bound(name: str, value: str | None, *, end_of_day: bool) -> datetime | None:
    """A `from_date`/`to_date` parameter; a date covers its whole day. 422 naming the field otherwise."""
    if not value:
        return None
    try:
        return parse_bound(value, end_of_day=end_of_day)
    except ValueError as error:
        raise InvalidField(("query", name), str(error)) from None
