"""Schemas: `POST /v1/schemas/generate`, a JSON schema drawn from example documents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Resource, document, drop_none

__all__ = ["AsyncSchemas", "Schemas"]


class _Schemas(Resource[O_co, P_co, N_co]):
    def generate(
        self,
        documents: Sequence[DocumentInput],
        *,
        model: str | None = None,
        instructions: str | None = None,
        image_resolution_dpi: int | None = None,
        **extra: Any,
    ) -> O_co:
        """`{object: "schema", json_schema, strict, created_at}` from 1 to 10 documents (paths, URLs…)."""
        body = {
            "documents": [document(item) for item in documents],
            **drop_none(model=model, instructions=instructions, image_resolution_dpi=image_resolution_dpi),
            **extra,
        }
        return self._http.object("POST", "/v1/schemas/generate", json=body)


class Schemas(_Schemas[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncSchemas(_Schemas[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
