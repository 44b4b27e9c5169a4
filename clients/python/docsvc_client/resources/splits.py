"""Splits: `POST /v1/splits`, `GET /v1/splits`, `GET /v1/splits/{id}`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Results

__all__ = ["AsyncSplits", "Splits"]


class _Splits(Results[O_co, P_co, N_co]):
    path = "/v1/splits"

    def create(
        self,
        document: DocumentInput,
        subdocuments: Sequence[Mapping[str, Any]],
        *,
        filename: str | None = None,
        model: str | None = None,
        instructions: str | None = None,
        image_resolution_dpi: int | None = None,
        bust_cache: bool | None = None,
        **extra: Any,
    ) -> O_co:
        """`POST /v1/splits`: the result; its `output` is `[{name, pages}]`.

        `subdocuments` are `{name, description, allow_multiple_instances}`.

        `document` is a path, bytes, an http(s) or data: URL, a file id or a File (see `document()`).
        """
        fields = dict(
            subdocuments=[dict(s) for s in subdocuments],
            model=model,
            instructions=instructions,
            image_resolution_dpi=image_resolution_dpi,
            bust_cache=bust_cache,
            **extra,
        )
        return self._create(document, filename, fields)


class Splits(_Splits[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncSplits(_Splits[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
