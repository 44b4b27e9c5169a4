"""Events: what happened in the caller's environment (`parse.completed`, `job.failed`, …)."""

from __future__ import annotations

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Resource

__all__ = ["AsyncEvents", "Events"]


class _Events(Resource[O_co, P_co, N_co]):
    def list(
        self,
        *,
        type: str | None = None,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        """`type` is exact (`job.completed`) or a family (`job.*`)."""
        params = {
            "type": type,
            "limit": limit,
            "order": order,
            "after": after,
            "before": before,
            "from_date": from_date,
            "to_date": to_date,
        }
        return self._http.page("/v1/events", params)

    def get(self, event_id: str) -> O_co:
        return self._http.object("GET", f"/v1/events/{event_id}")


class Events(_Events[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncEvents(_Events[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
