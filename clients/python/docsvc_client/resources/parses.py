"""Parses: the text of a document, page by page."""

from __future__ import annotations

from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import (
    Coro,
    DocumentInput,
    N_co,
    O_co,
    P_co,
    Resource,
    apoll,
    document,
    drop_none,
    poll,
)

__all__ = ["FINISHED", "AsyncParses", "Parses"]

FINISHED = frozenset({"completed", "failed", "cancelled"})


class _Parses(Resource[O_co, P_co, N_co]):
    def create(
        self,
        document: DocumentInput,
        *,
        filename: str | None = None,
        model: str | None = None,
        table_parsing_format: str | None = None,
        instructions: str | None = None,
        image_resolution_dpi: int | None = None,
        bust_cache: bool | None = None,
        background: bool | None = None,
        **extra: Any,
    ) -> O_co:
        """`POST /v1/parses`: the parse (`completed` with its output, or `queued` with `background=True`).

        `document` is a path, bytes, an http(s) or data: URL, a file id or a File (see `document()`).
        """
        body = {
            "document": _document(document, filename),
            **drop_none(
                model=model,
                table_parsing_format=table_parsing_format,
                instructions=instructions,
                image_resolution_dpi=image_resolution_dpi,
                bust_cache=bust_cache,
                background=background,
            ),
            **extra,
        }
        return self._http.object("POST", "/v1/parses", json=body)

    def get(self, parse_id: str) -> O_co:
        return self._http.object("GET", f"/v1/parses/{parse_id}")

    def list(
        self,
        *,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        filename: str | None = None,
        status: str | None = None,
        include_output: bool | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        params = {
            "limit": limit,
            "order": order,
            "after": after,
            "before": before,
            "filename": filename,
            "status": status,
            "include_output": include_output,
            "from_date": from_date,
            "to_date": to_date,
        }
        return self._http.page("/v1/parses", params)

    def cancel(self, parse_id: str) -> O_co:
        return self._http.object("POST", f"/v1/parses/{parse_id}/cancel")

    def delete(self, parse_id: str) -> N_co:
        return self._http.none("DELETE", f"/v1/parses/{parse_id}")


_document = document


class Parses(_Parses[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)

    def wait(self, parse_id: str, *, timeout: float = 600, poll_interval: float = 1.0) -> APIObject:
        """Polls a parse until it is completed, failed or cancelled; TimeoutError after `timeout` s."""
        return poll(
            lambda: self.get(parse_id),
            lambda parse: parse.get("status") in FINISHED,
            timeout=timeout,
            poll_interval=poll_interval,
            what=f"parse {parse_id}",
        )


class AsyncParses(_Parses[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)

    async def wait(self, parse_id: str, *, timeout: float = 600, poll_interval: float = 1.0) -> APIObject:
        """Polls a parse until it is completed, failed or cancelled; TimeoutError after `timeout` s."""
        return await apoll(
            lambda: self.get(parse_id),
            lambda parse: parse.get("status") in FINISHED,
            timeout=timeout,
            poll_interval=poll_interval,
            what=f"parse {parse_id}",
        )
