"""Models: what the deployment offers, and for which tasks."""

from __future__ import annotations

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Resource

__all__ = ["AsyncModels", "Models"]


class _Models(Resource[O_co, P_co, N_co]):
    def list(self) -> P_co:
        """A page of `{id, provider, tasks}`."""
        return self._http.page("/v1/models")


class Models(_Models[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncModels(_Models[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
