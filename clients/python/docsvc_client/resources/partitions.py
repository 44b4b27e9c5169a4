"""Partitions: `POST /v1/partitions`, `GET /v1/partitions`, `GET /v1/partitions/{id}`."""

from __future__ import annotations

from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Results

__all__ = ["AsyncPartitions", "Partitions"]


class _Partitions(Results[O_co, P_co, N_co]):
    path = "/v1/partitions"

    def create(
        self,
        document: DocumentInput,
        key: str,
        *,
        filename: str | None = None,
        model: str | None = None,
        instructions: str | None = None,
        image_resolution_dpi: int | None = None,
        bust_cache: bool | None = None,
        **extra: Any,
    ) -> O_co:
        """`POST /v1/partitions`: the result; its `output` is `[{key, pages}]`, pages grouped by `key`.

        `document` is a path, bytes, an http(s) or data: URL, a file id or a File (see `document()`).
        """
        fields = dict(
            key=key,
            model=model,
            instructions=instructions,
            image_resolution_dpi=image_resolution_dpi,
            bust_cache=bust_cache,
            **extra,
        )
        return self._create(document, filename, fields)


class Partitions(_Partitions[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncPartitions(_Partitions[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
