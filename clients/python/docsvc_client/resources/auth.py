"""Auth: which organization and environment the API key selects."""

from __future__ import annotations

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Resource

__all__ = ["AsyncAuth", "Auth"]


class _Auth(Resource[O_co, P_co, N_co]):
    def status(self) -> O_co:
        """`{authenticated, organization_id, environment: {id, name}, environment_slug, key, …}`."""
        return self._http.object("GET", "/v1/auth/status")


class Auth(_Auth[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncAuth(_Auth[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
