"""Secrets: values for models and workflows. Only their metadata is ever answered."""

from __future__ import annotations

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Resource

__all__ = ["AsyncSecrets", "Secrets"]


class _Secrets(Resource[O_co, P_co, N_co]):
    """Methods answer the secret's metadata `{name, created_by, updated_by, created_at, updated_at}`
    (the API's `{"secret": …}` envelope is taken off)."""

    def create(self, name: str, value: str) -> O_co:
        """A new secret (ConflictError if the name exists in this environment)."""
        return self._http.object("POST", "/v1/secrets", json={"name": name, "value": value}, unwrap="secret")

    def set(self, name: str, value: str) -> O_co:
        """Sets or rotates a secret, creating it if needed."""
        return self._http.object("PUT", f"/v1/secrets/{name}", json={"value": value}, unwrap="secret")

    def get(self, name: str) -> O_co:
        return self._http.object("GET", f"/v1/secrets/{name}", unwrap="secret")

    def list(self) -> P_co:
        return self._http.page("/v1/secrets", key="secrets")

    def delete(self, name: str) -> N_co:
        return self._http.none("DELETE", f"/v1/secrets/{name}")


class Secrets(_Secrets[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncSecrets(_Secrets[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
