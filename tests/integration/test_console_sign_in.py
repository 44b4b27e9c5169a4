"""Signing in to the console with the user pool, the session's cookies, signing out, and a console
session that never opens the API."""

from __future__ import annotations

import base64
import json
import re
import time

import httpx
from console import session
from docsvc.config import settings
from docsvc.domain.members import DirectoryUser
from docsvc.services import member_service
from moto.cognitoidp.models import cognitoidp_backends
from starlette.requests import Request

from tests.conftest import Org, auth
from tests.integration.console_client import (
    PASSWORD,
    console_client,
    member_with_password,
    sign_in_with,
)


def cookie_headers(answer: httpx.Response) -> dict[str, str]:
    return {value.split("=", 1)[0]: value for value in answer.headers.get_list("set-cookie")}


def test_signing_in_with_the_right_password_sets_the_session_cookies_and_goes_to_next(
    deployment, org: Org
) -> None:
    member_with_password(org.id, "admin", "ada@acme.example")
    with console_client(deployment) as client:
        answer = sign_in_with(client, "Ada@acme.example", PASSWORD, target=f"/console/{org.id}/test/keys")
        page = client.get(answer.headers["location"])

    assert answer.status_code == 303
    assert answer.headers["location"] == f"/console/{org.id}/test/keys"
    cookies = cookie_headers(answer)
    for name in ("docsvc_session", "docsvc_refresh"):
        flags = [flag.strip().lower() for flag in cookies[name].split(";")[1:]]
        assert {"httponly", "samesite=strict", "path=/console", "secure"} <= set(flags), cookies[name]
    assert page.status_code == 200
    assert "ada@acme.example" in page.text


def test_session_cookies_are_not_secure_only_over_plain_http_to_this_machine() -> None:
    def cookie_for(scheme: str, host: str) -> str:
        scope = {"type": "http", "scheme": scheme, "headers": [(b"host", host.encode())]}
        return session.cookie(Request(scope), "docsvc_session", "token", 3600)

    assert "Secure" not in cookie_for("http", "127.0.0.1:3000")
    assert "Secure" not in cookie_for("http", "localhost:8080")
    assert cookie_for("http", "console.example.com").endswith("; Secure")
    assert cookie_for("https", "127.0.0.1:3000").endswith("; Secure")


def test_a_next_outside_the_console_is_not_followed(deployment, org: Org) -> None:
    member_with_password(org.id, "admin", "ada@acme.example")
    with console_client(deployment) as client:
        for target in ("https://evil.example/console", "//evil.example/console", "/v1/files"):
            answer = sign_in_with(client, "ada@acme.example", PASSWORD, target=target)
            assert answer.headers["location"] == "/console", target


def test_a_wrong_password_or_an_unknown_email_answers_the_sign_in_page_with_one_sentence(
    deployment, org: Org
) -> None:
    member_with_password(org.id, "admin", "ada@acme.example")
    with console_client(deployment) as client:
        wrong = sign_in_with(client, "ada@acme.example", "Not-the-password-1")
        unknown = sign_in_with(client, "nobody@acme.example", "Not-the-password-1")

    for answer in (wrong, unknown):
        assert answer.status_code == 401
        assert "The email or the password is wrong." in answer.text
        assert "docsvc_session" not in cookie_headers(answer)
    alerts = [re.sub(r"\s+", " ", alert) for alert in re.findall(r'role="alert">([^<]*)<', wrong.text)]
    assert (
        alerts
        == re.findall(r'role="alert">([^<]*)<', unknown.text)
        == ["The email or the password is wrong."]
    )


def test_an_invited_member_chooses_a_password_at_the_first_sign_in(deployment, org: Org) -> None:
    invitation = member_service().invite(org.id, "grace@acme.example", "member", by="tests")
    assert invitation.temporary_password
    with console_client(deployment) as client:
        first = sign_in_with(
            client, "grace@acme.example", invitation.temporary_password, f"/console/{org.id}/test"
        )
        assert first.status_code == 303
        assert first.headers["location"].startswith("/console/new-password?")
        assert "docsvc_session" not in cookie_headers(first)
        challenge = cookie_headers(first)["docsvc_challenge"].lower()
        assert "httponly" in challenge and "max-age=180" in challenge
        assert "session" not in first.headers["location"]

        form = client.get(first.headers["location"])
        assert form.status_code == 200 and "Choose your password" in form.text
        csrf = client.cookies["docsvc_csrf"]
        mismatch = client.post(
            "/console/new-password",
            data={
                "password": "Chosen-password-42",
                "repeated": "Other-password-42",
                "next": f"/console/{org.id}/test",
                "csrf": csrf,
            },
        )
        weak = client.post(
            "/console/new-password",
            data={"password": "short", "repeated": "short", "next": f"/console/{org.id}/test", "csrf": csrf},
        )
        chosen = client.post(
            "/console/new-password",
            data={
                "password": "Chosen-password-42",
                "repeated": "Chosen-password-42",
                "next": f"/console/{org.id}/test",
                "csrf": csrf,
            },
        )
        home = client.get(chosen.headers["location"])

    assert mismatch.status_code == 400 and "The two passwords are not the same." in mismatch.text
    assert weak.status_code == 400 and "at least 12 characters" in weak.text
    assert chosen.status_code == 303 and chosen.headers["location"] == f"/console/{org.id}/test"
    assert {"docsvc_session", "docsvc_refresh"} <= set(cookie_headers(chosen))
    assert home.status_code == 303 and home.headers["location"] == f"/console/{org.id}/test/files"
    with console_client(deployment) as again:
        assert sign_in_with(again, "grace@acme.example", "Chosen-password-42").status_code == 303
        assert sign_in_with(again, "grace@acme.example", invitation.temporary_password).status_code == 401


def test_the_password_step_without_its_cookie_goes_back_to_sign_in(deployment) -> None:
    with console_client(deployment) as client:
        answer = client.get("/console/new-password")

    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/console/sign-in?")


def test_signing_out_revokes_the_session(signed_in, org: Org) -> None:
    page = signed_in(org)
    old_session = page.client.cookies["docsvc_session"]
    old_refresh = page.client.cookies["docsvc_refresh"]

    answer = page.post("/console/sign-out")

    assert answer.status_code == 303 and answer.headers["location"].startswith("/console/sign-in")
    assert all(
        "max-age=0" in value.lower() for value in cookie_headers(answer).values() if "docsvc_session" in value
    )
    page.client.cookies.clear()
    page.client.cookies.set("docsvc_session", old_session, path="/console")
    page.client.cookies.set("docsvc_refresh", old_refresh, path="/console")
    again = page.get(f"{page.base()}/keys")
    assert again.status_code == 303
    assert again.headers["location"].startswith("/console/sign-in?next=")


def test_an_expired_access_token_is_renewed_with_the_refresh_token(signed_in, org: Org) -> None:
    page = signed_in(org)
    old = page.client.cookies["docsvc_session"]
    pool = cognitoidp_backends["123456789012"]["us-east-1"].user_pools[settings().user_pool_id]
    del pool.access_tokens[old]  # the user pool no longer takes it, as when it expires
    session.forget(old)  # and this warm function has forgotten it (a minute at most)

    answer = page.get(f"{page.base()}/keys")

    assert answer.status_code == 200
    renewed = cookie_headers(answer)["docsvc_session"]
    assert "httponly" in renewed.lower()
    assert page.client.cookies["docsvc_session"] != old


def test_a_removed_member_is_refused_at_their_next_request(signed_in, org: Org) -> None:
    admin = signed_in(org)
    member = signed_in(org, role="member")
    assert member.get(f"{member.base()}").status_code == 303

    member_service().remove(org.id, member.user_id)

    for path in (member.base(), member.base("production"), f"{member.base()}/files"):
        answer = member.get(path)
        assert answer.status_code == 404, path
    assert admin.get(f"{admin.base()}/members").status_code == 200


def test_the_console_session_is_refused_by_the_api(signed_in, org: Org, api: httpx.Client) -> None:
    page = signed_in(org)
    session = page.client.cookies["docsvc_session"]

    as_bearer = api.get("/v1/auth/status", headers=auth(session))
    as_api_key = api.get("/v1/files", headers={"Api-Key": session})
    as_cookie = api.get("/v1/files", headers={"Cookie": f"docsvc_session={session}"})

    assert [as_bearer.status_code, as_api_key.status_code, as_cookie.status_code] == [401, 401, 401]


def test_the_warm_functions_memory_of_a_token_never_outlives_the_token() -> None:
    def token(seconds: int) -> str:
        claims = base64.urlsafe_b64encode(json.dumps({"exp": int(time.time()) + seconds}).encode()).decode()
        return f"header.{claims.rstrip('=')}.signature"

    user = DirectoryUser(user_id="user-1", email="ada@acme.example")
    for fresh, expired in ((token(3600), token(-5)), (token(3601), "not-a-jwt")):
        session._remember(fresh, user)
        session._remember(expired, user)
        assert session._remembered(fresh) == user
        assert session._remembered(expired) is None
