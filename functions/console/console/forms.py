"""Forms of the console: a CSRF token per browser, checked on every POST.

The token is a random value in the `docsvc_csrf` cookie (SameSite=Strict, path /console) that every form
sends back in its hidden `csrf` field (double submit); a POST whose field does not match, or whose Origin
is another site, is refused 403 before the page runs. The session cookie is SameSite=Strict as well.
"""

from __future__ import annotations

import hmac
import secrets

from docsvc.errors import Forbidden
from fastapi import Request

CSRF_COOKIE = "docsvc_csrf"
CSRF_FIELD = "csrf"


def csrf_token(request: Request) -> str:
    """This browser's token: the cookie's, or a new one the answer sets (console.app's middleware)."""
    token = request.cookies.get(CSRF_COOKIE) or request.scope.setdefault("state", {}).get(CSRF_COOKIE)
    if not token:
        token = secrets.token_urlsafe(24)
        request.scope.setdefault("state", {})[CSRF_COOKIE] = token
    return token


async def checked_form(request: Request) -> None:
    """A dependency of every POST route: the form's token matches the cookie's, from this site."""
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.rstrip("/") != _own_origin(request):
        raise Forbidden("this form was sent from another site")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get("x-csrf-token")
    sent = header if header is not None else str((await request.form()).get(CSRF_FIELD) or "")
    if not cookie or not hmac.compare_digest(cookie, sent):
        raise Forbidden("the form has expired: load the page again and send it once more")


def _own_origin(request: Request) -> str:
    host = request.headers.get("host", "")
    scheme = request.headers.get("x-forwarded-proto") or request.url.scheme
    return f"{scheme}://{host}"
