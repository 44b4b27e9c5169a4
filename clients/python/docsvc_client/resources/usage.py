"""Usage: pages, credits and operations per day of the caller's environment."""

from __future__ import annotations

import datetime as dt

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Resource

__all__ = ["AsyncUsage", "Usage"]


class _Usage(Resource[O_co, P_co, N_co]):
    def get(
        self,
        from_date: str | dt.date | None = None,
        to_date: str | dt.date | None = None,
        *,
        operation: str | None = None,
    ) -> O_co:
        """`{object: "usage", from_date, to_date, data: [{day, environment, pages, credits, operations,
        input_tokens, output_tokens, by_operation, billable}]}`; the last 30 days by default. With
        `operation` (`parse`, `extraction`, `edit`, …), only that operation's share of each day."""
        params = {"from_date": from_date, "to_date": to_date, "operation": operation}
        return self._http.object("GET", "/v1/usage", params=params)


class Usage(_Usage[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncUsage(_Usage[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
