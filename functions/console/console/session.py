"""Who is signed in: the console's session cookies, checked on every request.

A sign-in (pages/sign_in.py) leaves two cookies, both HttpOnly, SameSite=Strict, path /console, and
Secure but over plain HTTP to this machine: `docsvc_session`, the user pool's access token (it lives
as long as the token, one hour), and `docsvc_refresh`, its refresh token (30 days). On each request:

- the user pool tells whose the access token is (Cognito checks its signature, expiry and revocation);
  the answer is kept in this warm function for at most a minute per token (never past the token's
  expiry), by the token's SHA-256;
- a token that expired (or a session cookie the browser already dropped) is renewed with the refresh
  token, and the answer sets the new session cookie;
- the person's memberships are read from the members table every time, and the membership of the
  organization in the URL with a strongly consistent read: a removed member is refused at once.

A console session is never an API credential: /v1 reads API keys only.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import threading
import time
from collections import OrderedDict
from contextlib import suppress
from typing import Any
from urllib.parse import urlsplit

from docsvc.domain.members import DirectoryUser, Tokens
from docsvc.errors import Unauthorized
from docsvc.services import member_service, user_directory
from fastapi import Request
from fastapi.responses import Response

from console.context import Membership, SignInRequired, Viewer

SESSION_COOKIE = "docsvc_session"
REFRESH_COOKIE = "docsvc_refresh"
CHALLENGE_COOKIE = "docsvc_challenge"  # a first sign-in's step of choosing a password
REFRESH_SECONDS = 30 * 24 * 3600  # the app client's refresh token validity (template.yaml)
CHALLENGE_SECONDS = 180  # the user pool's sign-in session lasts three minutes
CACHE_SECONDS = 60.0
CACHE_SIZE = 1024
_COOKIES = "console_cookies"  # what the answer sets, in the request's state (console.app adds them)

_users: OrderedDict[str, tuple[float, DirectoryUser]] = OrderedDict()
_lock = threading.Lock()


def signed_in_viewer(request: Request) -> Viewer:
    """The signed-in person with their organizations; SignInRequired without a valid session."""
    user = _user_of_session(request)
    members = member_service()
    memberships = members.memberships(user.user_id)
    organization = request.path_params.get("organization")
    if organization:  # the one this page is of, read strongly consistently
        memberships = [m for m in memberships if m.organization_id != organization]
        confirmed = members.membership(organization, user.user_id)
        memberships += [confirmed] if confirmed else []
    return Viewer(
        user_id=user.user_id,
        email=user.email,
        memberships=tuple(Membership(m.organization_id, m.organization_name, m.role) for m in memberships),
    )


def _user_of_session(request: Request) -> DirectoryUser:
    access = request.cookies.get(SESSION_COOKIE)
    if access:
        user = _remembered(access)
        if user is not None:
            return user
        try:
            user = user_directory().user_of(access)
        except Unauthorized:
            pass  # expired or revoked: the refresh token may renew it
        else:
            _remember(access, user)
            return user
    refresh = request.cookies.get(REFRESH_COOKIE)
    if not refresh:
        raise SignInRequired()
    try:
        tokens = user_directory().refresh(refresh)
        user = user_directory().user_of(tokens.access_token)
    except Unauthorized:
        raise SignInRequired() from None
    _remember(tokens.access_token, user)
    state: dict[str, Any] = request.scope.setdefault("state", {})
    state.setdefault(_COOKIES, []).append(_session_cookie(request, tokens))
    return user


# ---------------------------------------------------------------------- the warm function's memory
def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _remembered(token: str) -> DirectoryUser | None:
    with _lock:
        entry = _users.get(_digest(token))
        if entry is None:
            return None
        until, user = entry
        if until <= time.monotonic():
            _users.pop(_digest(token), None)
            return None
        return user


def _seconds_left(token: str) -> float:
    """How long the token says it is valid (its `exp`), read without checking it: the user pool
    checked it; this only keeps the memory from outliving it. A token without one: no time."""
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return float(claims["exp"]) - time.time()
    except (IndexError, ValueError, KeyError, TypeError, binascii.Error):
        return 0.0


def _remember(token: str, user: DirectoryUser) -> None:
    seconds = min(CACHE_SECONDS, _seconds_left(token))
    if seconds <= 0:
        return
    with _lock:
        _users[_digest(token)] = (time.monotonic() + seconds, user)
        _users.move_to_end(_digest(token))
        while len(_users) > CACHE_SIZE:
            _users.popitem(last=False)


def forget(token: str) -> None:
    with _lock:
        _users.pop(_digest(token), None)


# ---------------------------------------------------------------------- cookies
def cookie(request: Request, name: str, value: str, max_age: int, *, path: str = "/console") -> str:
    """A Set-Cookie value: HttpOnly, SameSite=Strict, Secure unless plain HTTP to this machine."""
    from console.app import _secure

    secure = "; Secure" if _secure(request.scope) else ""
    return f"{name}={value}; Max-Age={max_age}; Path={path}; HttpOnly; SameSite=Strict{secure}"


def _session_cookie(request: Request, tokens: Tokens) -> str:
    return cookie(request, SESSION_COOKIE, tokens.access_token, tokens.expires_in)


def start_session(request: Request, response: Response, tokens: Tokens) -> Response:
    response.headers.append("set-cookie", _session_cookie(request, tokens))
    if tokens.refresh_token:
        response.headers.append(
            "set-cookie", cookie(request, REFRESH_COOKIE, tokens.refresh_token, REFRESH_SECONDS)
        )
    return response


def end_session(request: Request, response: Response) -> Response:
    """Revoke the person's tokens at the user pool and clear the cookies."""
    directory = user_directory()
    access, refresh = request.cookies.get(SESSION_COOKIE), request.cookies.get(REFRESH_COOKIE)
    if access:
        forget(access)
    signed_out = directory.sign_out(access) if access else False
    if not signed_out and refresh:  # the access token expired: a fresh one signs the person out
        with suppress(Unauthorized):  # unless the refresh token is revoked or expired as well
            directory.sign_out(directory.refresh(refresh).access_token)
    for name in (SESSION_COOKIE, REFRESH_COOKIE, CHALLENGE_COOKIE):
        response.headers.append("set-cookie", cookie(request, name, "", 0))
    return response


def renewed_cookies(scope: Any) -> list[str]:
    """The cookies a request renewed, for its answer (console.app's middleware)."""
    return list(scope.get("state", {}).get(_COOKIES, ()))


def same_site_path(target: str | None) -> str:
    """Where a sign-in may lead: a path of the console, never another site."""
    if not target:
        return "/console"
    parts = urlsplit(target)
    path = parts.path
    if (
        parts.scheme
        or parts.netloc
        or target.startswith("//")
        or "\\" in target
        or not (path == "/console" or path.startswith("/console/"))
    ):
        return "/console"
    return path + (f"?{parts.query}" if parts.query else "")
