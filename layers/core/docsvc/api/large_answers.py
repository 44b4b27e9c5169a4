"""Answers larger than Lambda lets a function return: stored in S3, answered 303 See Other.

Lambda refuses a function's answer over 6 MB, and API Gateway then answers 500 with nothing: a parse of
some 500 pages (its pages and its whole text), or a list with outputs, would be lost that way. Such an
answer is written to S3 under `answers/<org>/<env>/` instead and the client is sent to a presigned link
to it, valid LINK_SECONDS (the objects expire after a day). The SDK follows the link itself, without the
API key; `curl -L` and `httpx` with `follow_redirects=True` do too.
"""

from __future__ import annotations

import json
import logging
import math
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from mangum.adapter import DEFAULT_TEXT_MIME_TYPES

from docsvc.tenancy import Tenant

LAMBDA_ANSWER_BYTES = 6 * 1024 * 1024
ANSWER_BUDGET_BYTES = LAMBDA_ANSWER_BYTES - 64 * 1024  # the rest of Lambda's JSON answer: status, headers
LINK_SECONDS = 900
PREFIX = "answers"
_ESCAPED_AT_MOST = 6  # a byte of text becomes at most six in JSON ("\u001f")
# The headers an answer kept in S3 does not pass on to the 303: they describe the body, which S3 serves.
_BODY_HEADERS = frozenset({b"content-type", b"content-length", b"content-disposition", b"content-encoding"})
_log = logging.getLogger("docsvc.api")

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Message, Receive, Send], Awaitable[None]]
# Stores an answer's bytes for a tenant with its content type and disposition; returns a link to them.
Keeper = Callable[[Tenant, bytes, str, str | None], str]


def size_in_lambda_answer(body: bytes, content_type: str) -> int:
    """The body's size inside the function's JSON answer, as Mangum puts it there and the runtime writes
    it (UTF-8, `ensure_ascii=False`): text JSON-escaped, anything else (or text that is not UTF-8) in
    base64."""
    if any(kind in content_type for kind in DEFAULT_TEXT_MIME_TYPES):
        if len(body) * _ESCAPED_AT_MOST + 2 <= ANSWER_BUDGET_BYTES:
            return len(body) * _ESCAPED_AT_MOST + 2  # a bound, enough to know it fits
        try:
            return len(json.dumps(body.decode(), ensure_ascii=False).encode())
        except UnicodeDecodeError:
            pass
    return 4 * math.ceil(len(body) / 3)


def remember_tenant(scope: Message, tenant: Tenant) -> None:
    """Called on authentication: the tenant under whose prefix a large answer is kept."""
    scope.setdefault("state", {})["tenant"] = tenant


def keep_in_s3(tenant: Tenant, body: bytes, content_type: str, disposition: str | None) -> str:
    from docsvc.adapters.blobs import S3BlobStore

    key = f"{PREFIX}/{tenant.storage_prefix}/{uuid.uuid4().hex}"
    blobs = S3BlobStore()
    blobs.put(key, body, content_type)
    return blobs.link(key, LINK_SECONDS, disposition)


class LargeAnswers:
    """ASGI middleware: passes every answer through unless it is too large for Lambda."""

    def __init__(self, app: App, keep: Keeper = keep_in_s3) -> None:
        self.app, self.keep = app, keep

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope.setdefault("state", {})  # before routing copies the scope: the copies share this dict
        start: Message = {}
        chunks: list[bytes] = []

        async def held(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                await self._answer(scope, start, b"".join(chunks), send)

        await self.app(scope, receive, held)

    async def _answer(self, scope: Message, start: Message, body: bytes, send: Send) -> None:
        headers = {name.lower(): value.decode("latin-1") for name, value in start["headers"]}
        content_type = headers.get(b"content-type", "")
        tenant = scope["state"].get("tenant")
        # Only a success is kept (an error is short, and must keep its status), and only under the
        # prefix of an authenticated tenant.
        kept = 200 <= start["status"] < 300 and isinstance(tenant, Tenant)
        if not kept or size_in_lambda_answer(body, content_type) <= ANSWER_BUDGET_BYTES:
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        link = self.keep(tenant, body, content_type, headers.get(b"content-disposition"))
        _log.info("answer of %d bytes handed out through S3", len(body), extra={"path": scope.get("path")})
        see_other = json.dumps(
            {
                "detail": f"the answer ({len(body)} bytes) is larger than an API function may return "
                f"({LAMBDA_ANSWER_BYTES // (1024 * 1024)} MB); it is at the URL in Location for "
                f"{LINK_SECONDS // 60} minutes",
                "url": link,
                "expires_in": LINK_SECONDS,
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    *((name, value) for name, value in start["headers"] if name.lower() not in _BODY_HEADERS),
                    (b"location", link.encode("latin-1")),
                    (b"content-type", b"application/json"),
                    (b"cache-control", b"no-store"),
                    (b"content-length", str(len(see_other)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": see_other})
