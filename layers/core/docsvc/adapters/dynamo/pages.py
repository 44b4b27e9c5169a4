"""Cursor pages over a DynamoDB Query: the one way every list of the API reads a page.

Ids are time-ordered, so a resource id is a cursor. A page is read in key order from the cursor; when
a filter has to run after the read, pages keep being read until the page is full or the data ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from docsvc.clock import to_millis
from docsvc.domain.lists import HasId, ListQuery, Page
from docsvc.errors import InvalidField
from docsvc.ids import id_ceiling, id_floor

Keep = Callable[[dict[str, Any]], bool]
Record = TypeVar("Record", bound=HasId)

_FILTERED_READ = 200
_CURSOR = re.compile(r"[A-Za-z0-9_]{1,128}")  # an id


@dataclass(frozen=True, slots=True)
class PageOfItems:
    items: list[dict[str, Any]]
    has_previous: bool
    has_next: bool

    def of(self, record: Callable[[dict[str, Any]], Record]) -> Page[Record]:
        """The page of the domain's records made from these items."""
        return Page(
            items=[record(item) for item in self.items],
            has_previous=self.has_previous,
            has_next=self.has_next,
        )


@dataclass(frozen=True, slots=True)
class Listing:
    """Where a list reads: a partition of the table (`key` = `partition`), or of one of its indexes,
    whose sort key is `<sort_prefix><id>` with time-ordered ids of `id_prefix`."""

    tenant_key: str  # the items' own partition key, for the cursors
    sort_prefix: str
    id_prefix: str
    partition: str
    key: str = "pk"
    index: str | None = None


def list_page(
    table: Any,
    listing: Listing,
    query: ListQuery,
    *,
    keep: Keep | None = None,
    filter_expression: str | None = None,
    filter_values: dict[str, Any] | None = None,
    filter_names: dict[str, str] | None = None,
) -> PageOfItems:
    """A page of a list with its cursors, order and date bounds (a key range: ids are time-ordered)."""
    low = id_floor(listing.id_prefix, to_millis(query.from_date)) if query.from_date else ""
    high = id_ceiling(listing.id_prefix, to_millis(query.to_date)) if query.to_date else "~"
    params: dict[str, Any] = {
        "KeyConditionExpression": f"{listing.key} = :pk AND sk BETWEEN :low AND :high",
        "ExpressionAttributeValues": {
            ":pk": listing.partition,
            ":low": listing.sort_prefix + low,
            ":high": listing.sort_prefix + high,
            **(filter_values or {}),
        },
    }
    if listing.index:
        params["IndexName"] = listing.index
    if filter_expression:
        params["FilterExpression"] = filter_expression
    if filter_names:
        params["ExpressionAttributeNames"] = filter_names

    def cursor(resource_id: str | None, name: str) -> dict[str, Any] | None:
        if not resource_id:
            return None
        sort_key = listing.sort_prefix + resource_id
        check_cursor(resource_id, name, sort_key, params)
        start = {"pk": listing.tenant_key, "sk": sort_key}
        return start | {listing.key: listing.partition} if listing.index else start

    return query_page(
        table,
        params,
        limit=query.limit,
        ascending=query.order == "asc",
        after=cursor(query.after, "after"),
        before=cursor(query.before, "before"),
        keep=keep,
    )


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


def check_cursor(resource_id: str, name: str, sort_key: str, params: dict[str, Any]) -> None:
    """A 422 naming the cursor where DynamoDB would refuse its start key (a 500): one that is not an id,
    is longer than a key may be, or lies outside the key range of the query's dates (`:low`/`:high`)."""
    values = params.get("ExpressionAttributeValues", {})
    low, high = values.get(":low"), values.get(":high")
    outside = low is not None and high is not None and not low <= sort_key <= high
    if outside or not _CURSOR.fullmatch(resource_id):
        raise InvalidField(
            ("query", name),
            "not a cursor of this list: pass the `after` or `before` of one of its pages (same dates)",
        )


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
