"""Pages of list answers, iterable over every item of every page.

The API lists in three shapes, all read here:

- `{data, list_metadata: {before, after}}`: `after` is set when a next page exists (most lists);
- `{object: "list", data, first_id, last_id, has_more}`: jobs;
- `{"<plural>": [...]}`: one page, no cursors (secrets, tables, webhook endpoints); and
  `{object: "list", data}` (models) is one page too.

Iterating a page walks forward with `after=<cursor>` until the last page. `data` and `has_more` are
the first page's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsvc_client._http import APIObject

__all__ = ["AsyncPage", "SyncPage"]


def read_page(body: APIObject, key: str | None) -> tuple[list[APIObject], bool, str | None]:
    """(items, has_more, cursor of the next page) of a list answer."""
    if key is not None and key in body and "data" not in body:
        items = body[key]
    else:
        items = body.get("data", [])
    items = list(items) if isinstance(items, list) else []
    metadata = body.get("list_metadata")
    if isinstance(metadata, dict):
        after = metadata.get("after")
        return items, after is not None, after
    if "has_more" in body:
        has_more = bool(body["has_more"])
        cursor = body.get("last_id")
        if cursor is None and items and isinstance(items[-1], dict):
            cursor = items[-1].get("id")
        return items, has_more and cursor is not None, cursor if has_more else None
    return items, False, None


class _PageBase:
    def __init__(self, body: APIObject, *, params: dict[str, Any], key: str | None) -> None:
        self.body = body
        self.params = params
        self.key = key
        self.data, self.has_more, self.next_cursor = read_page(body, key)

    @property
    def list_metadata(self) -> Any:
        return self.body.get("list_metadata")

    def _next_params(self) -> dict[str, Any]:
        params = {name: value for name, value in self.params.items() if name not in {"after", "before"}}
        params["after"] = self.next_cursor
        return params

    def __repr__(self) -> str:
        return f"{type(self).__name__}(data=<{len(self.data)} items>, has_more={self.has_more})"


class SyncPage(_PageBase):
    """One page of a list; `for item in page` reads every item of this page and the pages after it."""

    def __init__(
        self,
        body: APIObject,
        *,
        params: dict[str, Any],
        key: str | None,
        fetch: Callable[[dict[str, Any]], APIObject],
    ) -> None:
        super().__init__(body, params=params, key=key)
        self._fetch = fetch

    def next_page(self) -> SyncPage | None:
        """The next page, or None after the last one."""
        if not self.has_more or self.next_cursor is None:
            return None
        params = self._next_params()
        return SyncPage(self._fetch(params), params=params, key=self.key, fetch=self._fetch)

    def iter_pages(self) -> Iterator[SyncPage]:
        page: SyncPage | None = self
        seen: set[str] = set()
        while page is not None:
            yield page
            if page.next_cursor is not None:
                if page.next_cursor in seen:  # a cursor that does not move on: stop rather than loop
                    return
                seen.add(page.next_cursor)
            page = page.next_page()

    def auto_paging_iter(self) -> Iterator[APIObject]:
        for page in self.iter_pages():
            yield from page.data

    def __iter__(self) -> Iterator[APIObject]:
        return self.auto_paging_iter()


class AsyncPage(_PageBase):
    """One page of a list; `async for item in page` reads every item of this page and the pages after it."""

    def __init__(
        self,
        body: APIObject,
        *,
        params: dict[str, Any],
        key: str | None,
        fetch: Callable[[dict[str, Any]], Awaitable[APIObject]],
    ) -> None:
        super().__init__(body, params=params, key=key)
        self._fetch = fetch

    async def next_page(self) -> AsyncPage | None:
        """The next page, or None after the last one."""
        if not self.has_more or self.next_cursor is None:
            return None
        params = self._next_params()
        return AsyncPage(await self._fetch(params), params=params, key=self.key, fetch=self._fetch)

    async def iter_pages(self) -> AsyncIterator[AsyncPage]:
        page: AsyncPage | None = self
        seen: set[str] = set()
        while page is not None:
            yield page
            if page.next_cursor is not None:
                if page.next_cursor in seen:
                    return
                seen.add(page.next_cursor)
            page = await page.next_page()

    async def auto_paging_iter(self) -> AsyncIterator[APIObject]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item

    def __aiter__(self) -> AsyncIterator[APIObject]:
        return self.auto_paging_iter()
