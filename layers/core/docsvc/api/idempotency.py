"""`Idempotency-Key` on every creating POST of every API function (the rules: docsvc.domain.idempotency).

The `IdempotentRequests` middleware of the app factory handles it: a POST with the header, to any route
but those of NOT_CREATING and OWN_MECHANISM, is claimed under its key, for the tenant of its API key,
before any route sees it. Its answer is then kept, or an earlier answer is replayed with
`Idempotent-Replayed: true`, or a 409/422 is answered. A request whose key cannot be authenticated goes
on to its route, which answers 401. The request is counted against its request limits where its key is
authenticated here (the route does not count it again); over a limit it is answered 429.

The fingerprint is the SHA-256 of the method, the path, the query (its pairs in order) and the media type
and bytes of the body; a multipart body's boundary is set aside, so the same parts sent again under
another boundary are the same request. The claim of a request lasts the time its function has left
(Lambda's context), so a request that dies with its function frees its key then.

The middleware sits inside LargeAnswers: it keeps the whole answer (in S3 when large, see the adapter),
and a replayed answer too large for Lambda is handed out through a fresh link.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.routing import compile_path

from docsvc.api.auth import admit, remember_key
from docsvc.api.large_answers import App, Message, Receive, Send
from docsvc.api.request_bodies import read_body, replayed
from docsvc.domain.accounts import ApiKey
from docsvc.domain.idempotency import (
    HEADER,
    MAX_KEY_LENGTH,
    Claim,
    IdempotencyService,
    KeyInFlight,
    StoredAnswer,
)
from docsvc.errors import DomainError, InvalidField, TooManyRequests
from docsvc.tenancy import Tenant

REPLAYED = "Idempotent-Replayed"
# POST routes that create nothing and bill nothing, or move a resource to a state once (a second move is
# refused by the resource itself): the header means nothing there.
NOT_CREATING = {
    "/v1/edits/{edit_id}/cancel": "cancels an edit; cancelling again changes nothing",
    "/v1/files/upload/{file_id}/complete": "finishes an upload session once; the file is then ready",
    "/v1/jobs/{job_id}/cancel": "cancels a job; cancelling again changes nothing",
    "/v1/jobs/{job_id}/retry": "moves a failed job back to queued once; a second move is refused",
    "/v1/parses/{parse_id}/cancel": "cancels a parse; cancelling again changes nothing",
    "/v1/tables/{table_id}/query": "reads rows",
    "/v1/webhooks/deliveries/{delivery_id}/retry": "queues an ended delivery once; while it waits, "
    "another retry is refused (409)",
    "/v1/workflows/{workflow_id}/diagnose-graph": "reads a graph",
}
# Jobs have their own Idempotency-Key, fixed by the API contract: the same key and body answer the first
# job, another body 409 (docsvc.domain.jobs).
OWN_MECHANISM = frozenset({"/v1/jobs"})
FALLBACK_SECONDS = 30  # without a Lambda context (the app called directly): the API Gateway's 29 s
# The headers of an answer that are kept with it: those that describe its body or point at what it made.
KEPT_HEADERS = frozenset(
    {
        "content-type",
        "content-disposition",
        "content-encoding",
        "content-language",
        "location",
        "link",
        "etag",
        "last-modified",
        "cache-control",
    }
)
_EXEMPT = [compile_path(path)[0] for path in (*NOT_CREATING, *OWN_MECHANISM)]
_BOUNDARY = re.compile(rb"""boundary=(?:"([^"]+)"|([^;\s]+))""", re.IGNORECASE)

_log = logging.getLogger("docsvc.api")

Authenticate = Callable[[str], ApiKey]
Services = Callable[[], IdempotencyService]


def is_creating(method: str, path: str) -> bool:
    """Whether the route `path` (or a path of it) is a creating POST, where an Idempotency-Key is
    honoured."""
    return method == "POST" and not any(pattern.fullmatch(path) for pattern in _EXEMPT)


def fingerprint(method: str, path: str, query: bytes, content_type: bytes, body: bytes) -> str:
    media = content_type.split(b";", 1)[0].strip().lower()
    found = _BOUNDARY.search(content_type) if media.startswith(b"multipart/") else None
    if found:
        body = body.replace(b"--" + (found.group(1) or found.group(2)), b"--")
    digest = hashlib.sha256()
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    for part in (method.encode(), path.encode(), json.dumps(pairs).encode(), media):
        digest.update(len(part).to_bytes(8, "big") + part)
    digest.update(body)
    return digest.hexdigest()


def seconds_left(scope: Message) -> int:
    """How long this invocation of the function may still run: how long its claim holds the key."""
    context = scope.get("aws.context")
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    if callable(remaining):
        return max(1, math.ceil(int(remaining()) / 1000) + 1)
    return FALLBACK_SECONDS


def authenticate(presented: str) -> ApiKey:
    from docsvc.services import account_service, request_limiter

    key = account_service().authenticate(presented)
    admit(request_limiter(), key)
    return key


def idempotency_service() -> IdempotencyService:
    from docsvc.services import idempotency_service

    return idempotency_service()


class IdempotentRequests:
    """ASGI middleware: the Idempotency-Key of creating POSTs."""

    def __init__(
        self,
        app: App,
        posts: Iterable[str],
        key_of: Authenticate = authenticate,
        service: Services = idempotency_service,
    ) -> None:
        """`posts`: the paths of the app's POST routes (`/v1/files/{file_id}/...`)."""
        self.app, self.key_of, self.service = app, key_of, service
        self.creating = [compile_path(path)[0] for path in posts if is_creating("POST", path)]

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        headers = _headers(scope) if scope["type"] == "http" and scope["method"] == "POST" else {}
        key = headers.get(HEADER.lower())
        if key is None or not any(pattern.fullmatch(scope["path"]) for pattern in self.creating):
            await self.app(scope, receive, send)
            return
        try:
            presented = await run_in_threadpool(self._authenticated, headers)
        except TooManyRequests as error:
            await _refuse(send, error)
            return
        if presented is None:  # the route answers 401
            await self.app(scope, receive, send)
            return
        remember_key(scope, *presented)  # the route's authentication takes it instead of reading it again
        tenant = presented[1].tenant
        body = await read_body(receive)
        if body is None:  # the client went away: nothing to answer
            return
        requested = fingerprint(
            scope["method"], scope["path"], scope.get("query_string", b""), _raw(scope, b"content-type"), body
        )
        try:
            outcome = await run_in_threadpool(
                self.service().begin, tenant, key, requested, seconds_left(scope)
            )
        except (InvalidField, KeyInFlight) as error:
            await _refuse(send, error)
            return
        if isinstance(outcome, StoredAnswer):
            await _replay(send, outcome)
            return
        await self._first(scope, replayed(body, receive), send, tenant, outcome)

    async def _first(
        self, scope: Message, receive: Receive, send: Send, tenant: Tenant, claim: Claim
    ) -> None:
        start: Message = {}
        chunks: list[bytes] = []
        finished = False

        async def kept(message: Message) -> None:
            nonlocal finished
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False) and not finished:
                    finished = True
                    answer = StoredAnswer(start["status"], _kept_headers(start), b"".join(chunks))
                    await self._finish(tenant, claim, answer)
            await send(message)

        try:
            await self.app(scope, receive, kept)
        finally:
            if not finished:  # no whole answer (an error escaped, or the client left): free the key
                await run_in_threadpool(self.service().abandon, tenant, claim)

    async def _finish(self, tenant: Tenant, claim: Claim, answer: StoredAnswer) -> None:
        """Keep the answer; the client has it either way. When it cannot be kept, the key is freed."""
        try:
            await run_in_threadpool(self.service().finish, tenant, claim, answer)
        except Exception:
            _log.exception(
                "the answer of an idempotent request could not be kept", extra={"status": answer.status}
            )
            await run_in_threadpool(self.service().abandon, tenant, claim)

    def _authenticated(self, headers: dict[str, str]) -> tuple[str, ApiKey] | None:
        bearer = headers.get("authorization", "")
        scheme, _, credentials = bearer.partition(" ")
        from_bearer = credentials.strip() if scheme.lower() == "bearer" else ""
        api_key = headers.get("api-key", "")
        if api_key and from_bearer and api_key != from_bearer:
            return None
        presented = api_key or from_bearer
        if not presented:
            return None
        try:
            return presented, self.key_of(presented)
        except TooManyRequests:
            raise
        except DomainError:
            return None


def header_parameter() -> dict[str, Any]:
    """The header in an operation of the OpenAPI description."""
    return {
        "name": HEADER,
        "in": "header",
        "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": "^[ -~]+$"},
        "description": "Makes a retry safe: the answer of the first request with this key is kept 24 hours "
        f"and given again, with `{REPLAYED}: true`, to a request with the same key, method, path, query and "
        "body (the work is done once). The same key with another request: 422; while the first request "
        "still runs: 409 with Retry-After. A 5xx or 429 answer is not kept. Keys are per environment.",
    }


def document_header(document: dict[str, Any]) -> dict[str, Any]:
    """Adds the header to every creating POST of an OpenAPI document (once)."""
    for path, operations in document.get("paths", {}).items():
        operation = operations.get("post")
        if operation is None or not is_creating("POST", path):
            continue
        parameters = operation.setdefault("parameters", [])
        if not any(parameter.get("name") == HEADER for parameter in parameters):
            parameters.append(header_parameter())
    return document


def _headers(scope: Message) -> dict[str, str]:
    return {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())
    }


def _raw(scope: Message, name: bytes) -> bytes:
    for header, value in scope.get("headers", ()):
        if header.lower() == name:
            return bytes(value)
    return b""


def _kept_headers(start: Message) -> tuple[tuple[str, str], ...]:
    return tuple(
        (name.decode("latin-1").lower(), value.decode("latin-1"))
        for name, value in start.get("headers", ())
        if name.decode("latin-1").lower() in KEPT_HEADERS
    )


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    length = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": [*headers, *length]})
    await send({"type": "http.response.body", "body": body})


async def _replay(send: Send, answer: StoredAnswer) -> None:
    headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in answer.headers]
    await _answer(send, answer.status, [*headers, (REPLAYED.lower().encode(), b"true")], answer.body)


async def _refuse(send: Send, error: DomainError) -> None:
    json_type = [(b"content-type", b"application/json")]
    if isinstance(error, InvalidField):
        problem = {"loc": list(error.location), "msg": error.message, "type": "value_error"}
        await _answer(send, 422, json_type, json.dumps({"detail": [problem]}).encode())
        return
    assert isinstance(error, KeyInFlight | TooManyRequests)
    retry = [(b"retry-after", str(error.retry_after).encode())]
    body = json.dumps({"detail": error.message, **error.extra}).encode()
    await _answer(send, error.status_code, [*json_type, *retry], body)
