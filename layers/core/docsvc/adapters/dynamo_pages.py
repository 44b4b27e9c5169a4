"""Cursor pages over a DynamoDB Query: the one way every list of the API reads a page.

Ids are time-ordered, so a resource id is a cursor. A page is read in key order from the cursor; when
a filter has to run after the read, pages keep being read until the page is full or the data ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Keep = Callable[[dict[str, Any]], bool]

_FILTERED_READ = 200


@dataclass(frozen=True, slots=True)
class PageOfItems:
    items: list[dict[str, Any]]
    has_previous: bool
    has_next: bool


def _read(
    table: Any,
    params: dict[str, Any],
    *,
    limit: int,
    forward: bool,
    start: dict[str, Any] | None,
    keep: Keep | None,
) -> tuple[list[dict[str, Any]], bool]:
    """Up to `limit` items from just after `start` (only those `keep` accepts), and whether more follow."""
    request = dict(params, ScanIndexForward=forward)
    if start:
        request["ExclusiveStartKey"] = start
    filtered = "FilterExpression" in params or keep is not None
    items: list[dict[str, Any]] = []
    while True:
        request["Limit"] = _FILTERED_READ if filtered else limit + 1 - len(items)
        response = table.query(**request)
        items.extend(item for item in response["Items"] if keep is None or keep(item))
        if len(items) > limit:
            return items[:limit], True
        if "LastEvaluatedKey" not in response:
            return items, False
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def query_page(
    table: Any,
    params: dict[str, Any],
    *,
    limit: int,
    ascending: bool,
    after: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    keep: Keep | None = None,
) -> PageOfItems:
    """A page in the requested order. `after`/`before` are the exclusive start keys of the cursors;
    `keep`, a filter that runs on each item read (for what a FilterExpression cannot say)."""
    if before is not None:
        items, more = _read(table, params, limit=limit, forward=not ascending, start=before, keep=keep)
        return PageOfItems(list(reversed(items)), has_previous=more, has_next=True)
    items, more = _read(table, params, limit=limit, forward=ascending, start=after, keep=keep)
    return PageOfItems(items, has_previous=after is not None, has_next=more)
