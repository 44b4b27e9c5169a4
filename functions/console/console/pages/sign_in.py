"""/console/sign-in, /console/new-password and /console/sign-out: the member's session.

Sign-in is an email and a password, checked by the user pool. A wrong one answers 401 with one
sentence that does not say which of the two was wrong, nor whether the person exists. A person
signing in for the first time with the temporary password of their invitation chooses their own
password next; the user pool's session for that step waits in a short-lived HttpOnly cookie, never
in the URL. After sign-in the browser goes to `next`, a path of the console only.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated
from urllib.parse import urlencode

from docsvc.domain.members import NewPasswordRequired
from docsvc.errors import BadRequest, Unauthorized
from docsvc.services import user_directory
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import RedirectResponse, Response

from console.forms import checked_form, csrf_token
from console.rendering import render
from console.session import (
    CHALLENGE_COOKIE,
    CHALLENGE_SECONDS,
    cookie,
    end_session,
    same_site_path,
    start_session,
)

router = APIRouter()

Field = Annotated[str, Form()]
Next = Annotated[str, Form(alias="next")]
NextQuery = Annotated[str | None, Query(alias="next")]


def _page(
    request: Request, template: str, target: str, *, status_code: int = 200, **values: object
) -> Response:
    return render(
        request, template, None, status_code=status_code, csrf=csrf_token(request), next=target, **values
    )


@router.get("/console/sign-in", include_in_schema=False)
def sign_in_page(request: Request, target: NextQuery = None) -> Response:
    return _page(request, "sign_in/sign_in.html", same_site_path(target), email="", error=None)


@router.post("/console/sign-in", include_in_schema=False, dependencies=[Depends(checked_form)])
def sign_in(request: Request, email: Field, password: Field, target: Next = "/console") -> Response:
    target = same_site_path(target)
    try:
        answer = user_directory().sign_in(email.strip().lower(), password)
    except Unauthorized as error:
        page = "sign_in/sign_in.html"
        return _page(request, page, target, status_code=401, email=email, error=error.message)
    if isinstance(answer, NewPasswordRequired):
        response = RedirectResponse(f"/console/new-password?{urlencode({'next': target})}", status_code=303)
        challenge = base64.urlsafe_b64encode(json.dumps([answer.email, answer.session]).encode()).decode()
        response.headers.append("set-cookie", cookie(request, CHALLENGE_COOKIE, challenge, CHALLENGE_SECONDS))
        return response
    return start_session(request, RedirectResponse(target, status_code=303), answer)


def _challenge(request: Request) -> NewPasswordRequired | None:
    try:
        email, session = json.loads(base64.urlsafe_b64decode(request.cookies.get(CHALLENGE_COOKIE, "")))
    except (ValueError, TypeError, binascii.Error):
        return None
    if not isinstance(email, str) or not isinstance(session, str) or not session:
        return None
    return NewPasswordRequired(email=email, session=session)


def _sign_in_again(target: str) -> Response:
    query = urlencode({"next": target, "notice": "Sign in again to choose your password."})
    return RedirectResponse(f"/console/sign-in?{query}", status_code=303)


@router.get("/console/new-password", include_in_schema=False)
def new_password_page(request: Request, target: NextQuery = None) -> Response:
    target = same_site_path(target)
    challenge = _challenge(request)
    if challenge is None:
        return _sign_in_again(target)
    return _page(request, "sign_in/new_password.html", target, email=challenge.email, error=None)


@router.post("/console/new-password", include_in_schema=False, dependencies=[Depends(checked_form)])
def new_password(request: Request, password: Field, repeated: Field, target: Next = "/console") -> Response:
    target = same_site_path(target)
    challenge = _challenge(request)
    if challenge is None:
        return _sign_in_again(target)
    try:
        if password != repeated:
            raise BadRequest("The two passwords are not the same.")
        tokens = user_directory().answer_new_password(challenge, password)
    except BadRequest as error:
        page = "sign_in/new_password.html"
        return _page(request, page, target, status_code=400, email=challenge.email, error=error.message)
    except Unauthorized:
        return _sign_in_again(target)
    response = start_session(request, RedirectResponse(target, status_code=303), tokens)
    response.headers.append("set-cookie", cookie(request, CHALLENGE_COOKIE, "", 0))
    return response


@router.post("/console/sign-out", include_in_schema=False, dependencies=[Depends(checked_form)])
def sign_out(request: Request) -> Response:
    query = urlencode({"notice": "You are signed out."})
    return end_session(request, RedirectResponse(f"/console/sign-in?{query}", status_code=303))
