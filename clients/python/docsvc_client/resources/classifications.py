"""Classifications: `POST /v1/classifications`, `GET /v1/classifications`, `GET /v1/classifications/{id}`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Results

__all__ = ["AsyncClassifications", "Classifications"]


class _Classifications(Results[O_co, P_co, N_co]):
    path = "/v1/classifications"

    def create(
        self,
        document: DocumentInput,
        categories: Sequence[Mapping[str, Any]],
        *,
        filename: str | None = None,
        first_n_pages: int | None = None,
        model: str | None = None,
        instructions: str | None = None,
        image_resolution_dpi: int | None = None,
        bust_cache: bool | None = None,
        **extra: Any,
    ) -> O_co:
        """`POST /v1/classifications`: the result; its `output` is `{category, reasoning}`.

        `categories` are `{name, description}`.

        `document` is a path, bytes, an http(s) or data: URL, a file id or a File (see `document()`).
        """
        fields = dict(
            categories=[dict(c) for c in categories],
            first_n_pages=first_n_pages,
            model=model,
            instructions=instructions,
            image_resolution_dpi=image_resolution_dpi,
            bust_cache=bust_cache,
            **extra,
        )
        return self._create(document, filename, fields)


class Classifications(_Classifications[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncClassifications(_Classifications[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
