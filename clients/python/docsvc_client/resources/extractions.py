"""Extractions: `POST /v1/extractions`, `GET /v1/extractions`, `GET /v1/extractions/{id}`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Results

__all__ = ["AsyncExtractions", "Extractions"]


class _Extractions(Results[O_co, P_co, N_co]):
    path = "/v1/extractions"

    def create(
        self,
        document: DocumentInput,
        json_schema: Mapping[str, Any],
        *,
        filename: str | None = None,
        model: str | None = None,
        instructions: str | None = None,
        image_resolution_dpi: int | None = None,
        bust_cache: bool | None = None,
        **extra: Any,
    ) -> O_co:
        """`POST /v1/extractions`: the result; its `output` is valid against `json_schema`.

        `document` is a path, bytes, an http(s) or data: URL, a file id or a File (see `document()`).
        """
        fields = dict(
            json_schema=dict(json_schema),
            model=model,
            instructions=instructions,
            image_resolution_dpi=image_resolution_dpi,
            bust_cache=bust_cache,
            **extra,
        )
        return self._create(document, filename, fields)


class Extractions(_Extractions[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncExtractions(_Extractions[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
