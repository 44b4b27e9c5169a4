"""What every resource shares: the requester it calls, documents and files read from paths or bytes.

A resource's plain routes are written once, generic over the requester: with the blocking transport
they return objects and pages, with the asynchronous one coroutines of them. Routes with more logic
(uploads, downloads, waiting) are written for each.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from pathlib import Path, PurePosixPath
from typing import IO, Any, Generic, Protocol, TypeAlias, TypeVar
from urllib.parse import urlsplit

from docsvc_client import _http
from docsvc_client._http import APIObject, FileTypes, Params
from docsvc_client.pagination import SyncPage

__all__ = [
    "Coro",
    "DocumentInput",
    "FileInput",
    "Requester",
    "Resource",
    "Results",
    "SyncResource",
    "apoll",
    "document",
    "drop_none",
    "poll",
    "read_file",
]

FileInput: TypeAlias = "str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]"
DocumentInput: TypeAlias = (
    "str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes] | Mapping[str, Any]"
)

O_co = TypeVar("O_co", covariant=True)  # one object
P_co = TypeVar("P_co", covariant=True)  # a page
N_co = TypeVar("N_co", covariant=True)  # nothing (204)

_MAGIC = (
    (b"%PDF-", "application/pdf", ".pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"GIF8", "image/gif", ".gif"),
    (b"II*\x00", "image/tiff", ".tiff"),
    (b"MM\x00*", "image/tiff", ".tiff"),
)


class Requester(Protocol[O_co, P_co, N_co]):
    """The transport as resources see it (`SyncHTTP` or `AsyncHTTP`)."""

    def object(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = None,
        files: FileTypes | None = None,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        unwrap: str | None = None,
    ) -> O_co: ...

    def none(self, method: str, path: str, *, params: Params | None = None, json: Any = None) -> N_co: ...

    def page(self, path: str, params: Params | None = None, *, key: str | None = None) -> P_co: ...


class Resource(Generic[O_co, P_co, N_co]):
    def __init__(self, http: Requester[O_co, P_co, N_co]) -> None:
        self._http = http


def drop_none(**fields: Any) -> dict[str, Any]:
    """A JSON body of the fields that were given."""
    return {name: value for name, value in fields.items() if value is not None}


def _sniff(content: bytes) -> tuple[str, str] | None:
    for magic, mime, extension in _MAGIC:
        if content.startswith(magic):
            return mime, extension
    return None


def read_file(source: FileInput, filename: str | None = None) -> tuple[str, bytes]:
    """(filename, bytes) of a path, bytes or binary file object; bytes without a name get a name
    from their magic bytes (`document.pdf`) or `document`."""
    if isinstance(source, bytes | bytearray | memoryview):
        content = bytes(source)
        name = filename
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        content = path.read_bytes()
        name = filename or path.name
    else:
        raw = source.read()
        content = raw if isinstance(raw, bytes) else bytes(raw)
        given = getattr(source, "name", None)
        name = filename or (Path(given).name if isinstance(given, str) and given else None)
    if not name:
        sniffed = _sniff(content)
        name = f"document{sniffed[1]}" if sniffed else "document"
    return name, content


def content_type(filename: str, content: bytes) -> str:
    sniffed = _sniff(content)
    if sniffed:
        return sniffed[0]
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def document(source: DocumentInput, filename: str | None = None) -> dict[str, Any]:
    """The `document` of a request (MIMEData or a file reference) from what a caller has at hand.

    - a path or bytes (or a binary file object): `{"filename", "url": "data:<type>;base64,…"}`;
    - an `http(s)://` or `data:` URL: as is, `{"filename", "url"}`;
    - an uploaded file's id (`"file_…"`, when no such path exists) or a File object: `{"id"}`;
    - a dict already in the API's shape: as is.
    """
    if isinstance(source, Mapping):
        if source.get("object") == "file" and "id" in source:
            return {"id": source["id"]}
        return dict(source)
    if isinstance(source, str):
        if source.startswith(("http://", "https://")):
            name = filename or PurePosixPath(urlsplit(source).path).name or "document"
            return {"filename": name, "url": source}
        if source.startswith("data:"):
            return {"filename": filename or "document", "url": source}
        if source.startswith("file_") and not os.path.exists(source):
            return {"id": source}
    name, content = read_file(source, filename)
    encoded = base64.b64encode(content).decode("ascii")
    return {"filename": name, "url": f"data:{content_type(name, content)};base64,{encoded}"}


T = TypeVar("T")
Coro: TypeAlias = Coroutine[Any, Any, T]
SyncResource: TypeAlias = "Resource[APIObject, SyncPage, None]"


def poll(
    fetch: Callable[[], APIObject],
    finished: Callable[[APIObject], bool],
    *,
    timeout: float,
    poll_interval: float,
    what: str,
) -> APIObject:
    """Calls `fetch` every `poll_interval` seconds until `finished`; TimeoutError after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        current = fetch()
        if finished(current):
            return current
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"{what} is still {current.get('status')!r} after {timeout} s")
        _http._sleep(min(poll_interval, remaining))


async def apoll(
    fetch: Callable[[], Awaitable[APIObject]],
    finished: Callable[[APIObject], bool],
    *,
    timeout: float,
    poll_interval: float,
    what: str,
) -> APIObject:
    """`poll`, asynchronously."""
    deadline = time.monotonic() + timeout
    while True:
        current = await fetch()
        if finished(current):
            return current
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"{what} is still {current.get('status')!r} after {timeout} s")
        await _http._async_sleep(min(poll_interval, remaining))


class Results(Resource[O_co, P_co, N_co]):
    """A kind of document-intelligence result: `GET /v1/<kind>`, `GET` and `DELETE /v1/<kind>/{id}`."""

    path = ""

    def get(self, result_id: str) -> O_co:
        return self._http.object("GET", f"{self.path}/{result_id}")

    def delete(self, result_id: str) -> N_co:
        """The result and its stored output (its usage stays)."""
        return self._http.none("DELETE", f"{self.path}/{result_id}")

    def list(
        self,
        *,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        return self._listed({}, limit, order, after, before, from_date, to_date)

    def _listed(
        self,
        filters: Mapping[str, Any],
        limit: int | None,
        order: str | None,
        after: str | None,
        before: str | None,
        from_date: str | None,
        to_date: str | None,
    ) -> P_co:
        """A page of the list: `filters` (a kind's own) beside the cursors, order and dates."""
        paging = {"limit": limit, "order": order, "after": after, "before": before}
        return self._http.page(self.path, {**filters, **paging, "from_date": from_date, "to_date": to_date})

    def _create(self, source: DocumentInput, filename: str | None, fields: dict[str, Any]) -> O_co:
        body = {"document": document(source, filename), **drop_none(**fields)}
        return self._http.object("POST", self.path, json=body)
