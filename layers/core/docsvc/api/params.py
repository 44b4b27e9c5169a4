"""Query parameters shared by the list routes: cursors, limit, order and date bounds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Query

from docsvc.clock import parse_bound
from docsvc.errors import InvalidField

DATE_HELP = "YYYY-MM-DD (the whole day) or an ISO 8601 date-time; inclusive."


def date_bound(name: str, value: str | None, *, end_of_day: bool) -> datetime | None:
    """A `from_date`/`to_date` parameter; a date covers its whole day. 422 naming the field otherwise."""
    if not value:
        return None
    try:
        return parse_bound(value, end_of_day=end_of_day)
    except ValueError as error:
        raise InvalidField(("query", name), str(error)) from None


def list_parameters(default_limit: int) -> Callable[..., dict[str, Any]]:
    """A dependency that reads the parameters every list takes, as the fields of a ListQuery."""

    def parameters(
        before: Annotated[
            str | None, Query(description="`before` of the current page: the previous page.")
        ] = None,
        after: Annotated[str | None, Query(description="`after` of the current page: the next page.")] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = default_limit,
        order: Annotated[Literal["asc", "desc"], Query(description="By creation time.")] = "desc",
        from_date: Annotated[str | None, Query(description=DATE_HELP)] = None,
        to_date: Annotated[str | None, Query(description=DATE_HELP)] = None,
    ) -> dict[str, Any]:
        return {
            "before": before,
            "after": after,
            "limit": limit,
            "order": order,
            "from_date": date_bound("from_date", from_date, end_of_day=False),
            "to_date": date_bound("to_date", to_date, end_of_day=True),
        }

    return parameters
