"""What the console's lists of runs share (parses, results, jobs, workflows): a page of 25 read by
cursor, and the filters of a GET form read as the API reads its query (an empty control is no filter;
a value the API would refuse is a 422 page naming the control)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any

from docsvc.api.params import date_bound
from docsvc.errors import InvalidField
from fastapi import Query

PAGE_SIZE = 25

# The cursor of a list read by something other than an id range (API keys, members: a key id, a user id):
# what such a cursor can be, so a forged one is a 422 page, never a start key DynamoDB refuses (a 500).
Cursor = Annotated[str | None, Query(max_length=128, pattern=r"^[A-Za-z0-9_-]*$")]


def chosen(name: str, value: str | None, allowed: Iterable[str]) -> str | None:
    """The value of a select control: None for an empty one (no filter); one of `allowed` or a 422."""
    if not value:
        return None
    options = tuple(allowed)
    if value not in options:
        raise InvalidField(("query", name), f"{name} must be one of {', '.join(options)}")
    return value


def page_query(after: str | None, from_date: str | None, to_date: str | None) -> dict[str, Any]:
    """The fields of a ListQuery for a page of the console: 25 newest first after the cursor, within
    the dates (YYYY-MM-DD, the whole day; inclusive) as the API reads them."""
    return {
        "limit": PAGE_SIZE,
        "after": after or None,
        "from_date": _date("from_date", from_date, end_of_day=False),
        "to_date": _date("to_date", to_date, end_of_day=True),
    }


def _date(name: str, value: str | None, *, end_of_day: bool) -> datetime | None:
    """A date control read as the API reads its parameter; its 422 names the control."""
    try:
        return date_bound(name, value, end_of_day=end_of_day)
    except InvalidField as error:
        raise InvalidField(error.location, f"{name}: {error.message}") from None


def options(values: Iterable[str], anything: str) -> list[tuple[str, str]]:
    """The options of a select control: `anything` (no filter) first, then each value as text."""
    return [("", anything)] + [(value, value.replace("_", " ")) for value in values]
