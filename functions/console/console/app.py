"""The console's application: its pages, its static files and the answers to errors, as HTML.

Each section's routes are in pages/; sign-in and the session in session.py and pages/sign_in.py. Errors
are pages for people: 404 (unknown, or not this member's), 403, a form's problems (422, shown on the page
that sent it where the page handles them), and 500 with the request id.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from docsvc.api.app import request_id
from docsvc.api.large_answers import LargeAnswers
from docsvc.errors import DomainError, Forbidden, NotFound
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from console.context import SignInRequired
from console.forms import CSRF_COOKIE
from console.pages import ROUTERS
from console.rendering import render
from console.session import renewed_cookies

_log = logging.getLogger("docsvc.console")


def _storage_origins() -> str:
    """Where the browser may send a large upload's bytes: S3's presigned URLs (https), and the local
    stack's storage, an emulator on this machine over plain HTTP (AWS_ENDPOINT_URL)."""
    endpoint = urlsplit(os.environ.get("AWS_ENDPOINT_URL", ""))
    local = endpoint.scheme == "http" and endpoint.hostname in {"127.0.0.1", "localhost"}
    return "https:" + (f" http://{endpoint.netloc}" if local else "")


SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
    f"script-src 'self'; connect-src 'self' {_storage_origins()}; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
}


def _sign_in(request: Request, error: Exception) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    if request.method != "GET":
        target = request.url.path
    return RedirectResponse(f"/console/sign-in?next={quote(target, safe='/')}", status_code=303)


def _domain_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, DomainError)
    if isinstance(error, NotFound):
        return render(request, "error.html", status_code=404, title="Not found", message=_NOT_FOUND)
    title = "Not allowed" if isinstance(error, Forbidden) else "That did not work"
    return render(request, "error.html", status_code=error.status_code, title=title, message=error.message)


_NOT_FOUND = "There is no such page in this environment of your organization."


def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        return render(request, "error.html", status_code=404, title="Not found", message=_NOT_FOUND)
    return render(
        request, "error.html", status_code=error.status_code, title="Error", message=str(error.detail)
    )


def _invalid(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    problems = [f"{'.'.join(str(p) for p in e['loc'][1:]) or 'request'}: {e['msg']}" for e in error.errors()]
    return render(request, "error.html", status_code=422, title="Check the form", message="; ".join(problems))


def _unexpected(request: Request, error: Exception) -> Response:
    identifier = request_id(request)
    _log.exception("unhandled error", extra={"request_id": identifier, "path": request.url.path})
    message = f"Something went wrong on our side. Request id: {identifier}"
    return render(request, "error.html", status_code=500, title="Error", message=message)


class ConsoleHeaders:
    """Security headers on every answer; pages are never cached (an answer that sets its own
    cache-control, a page's picture, keeps it); a new CSRF token is set as a cookie, and so is a
    session the request renewed (console.session)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/console/static/")

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.decode().lower() not in SECURITY_HEADERS
                ]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                if not static and not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", b"no-store"))  # unless a page says otherwise
                token = scope.get("state", {}).get(CSRF_COOKIE)
                if token:
                    secure = "; Secure" if _secure(scope) else ""
                    cookie = f"{CSRF_COOKIE}={token}; Path=/console; HttpOnly; SameSite=Strict{secure}"
                    headers.append((b"set-cookie", cookie.encode()))
                headers += [(b"set-cookie", renewed.encode()) for renewed in renewed_cookies(scope)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def _secure(scope: Scope) -> bool:
    """Cookies are Secure except over plain HTTP to this machine (the local stack)."""
    headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
    scheme = headers.get("x-forwarded-proto") or scope.get("scheme", "https")
    host = headers.get("host", "").rsplit(":", 1)[0]
    return not (scheme == "http" and host in {"127.0.0.1", "localhost", "[::1]"})


def create_console() -> FastAPI:
    console = FastAPI(title="docsvc console", docs_url=None, redoc_url=None, openapi_url=None)
    # Before the pages: /console/static/x would otherwise match /console/{organization}/{environment}.
    console.mount("/console/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static")
    for router in ROUTERS:
        console.include_router(router)
    handlers: dict[Any, Any] = {
        SignInRequired: _sign_in,
        DomainError: _domain_error,
        HTTPException: _http_error,
        RequestValidationError: _invalid,
        Exception: _unexpected,
    }
    for kind, handler in handlers.items():
        console.add_exception_handler(kind, handler)
    console.add_middleware(LargeAnswers)  # a lookup table's CSV may pass Lambda's 6 MB: through S3
    console.add_middleware(ConsoleHeaders)
    return console


app = create_console()
