"""Deep research: `POST /v1/beta/deepresearch/extract`, an extraction that takes several agentic steps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Resource, document, drop_none

__all__ = ["AsyncDeepResearch", "DeepResearch"]


class _DeepResearch(Resource[O_co, P_co, N_co]):
    def extract(
        self,
        document: DocumentInput,
        json_schema: Mapping[str, Any],
        *,
        filename: str | None = None,
        inference_settings: Mapping[str, Any] | None = None,
        num_agentic_steps: int | None = None,
        max_tool_calls: int | None = None,
        **extra: Any,
    ) -> O_co:
        """`inference_settings` is `{model?, reasoning_effort?, image_resolution_dpi?}` (defaults: `{}`)."""
        body = {
            "document": _document(document, filename),
            "json_schema": dict(json_schema),
            "inference_settings": dict(inference_settings or {}),
            **drop_none(num_agentic_steps=num_agentic_steps, max_tool_calls=max_tool_calls),
            **extra,
        }
        return self._http.object("POST", "/v1/beta/deepresearch/extract", json=body)


_document = document


class DeepResearch(_DeepResearch[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncDeepResearch(_DeepResearch[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
