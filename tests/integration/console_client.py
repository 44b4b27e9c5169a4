"""A browser-like client of the console for integration tests: HTTP through the template's routes to the
real ConsoleFunction handler, with cookies kept, signed in as a member of an organization.

`signed_in(org, role)` invites a member, gives them a password and signs them in through the sign-in
page; `page.post(path, data)` sends a form with the CSRF token the pages hand out, as a browser would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import httpx
import pytest
from docsvc.local.gateway import RouteTable
from docsvc.local.stack import REGION, Deployment
from docsvc.local.transport import LambdaTransport

from tests.conftest import Org

CONSOLE_URL = "https://console.docsvc.test"


@dataclass
class ConsolePage:
    """A signed-in browser: `client` keeps the cookies; `base(environment)` is that environment's root."""

    client: httpx.Client
    organization_id: str
    email: str = ""
    user_id: str = ""

    def base(self, environment: str = "test") -> str:
        return f"/console/{self.organization_id}/{environment}"

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.client.get(path, **kwargs)

    def csrf(self) -> str:
        """The token the forms carry (the cookie is set by the first page the browser loads)."""
        token = self.client.cookies.get("docsvc_csrf")
        if token is None:
            self.client.get(f"{self.base()}/secrets")  # a page every member may open
            token = self.client.cookies.get("docsvc_csrf")
        assert token, "no CSRF cookie was set"
        return str(token)

    def post(self, path: str, data: dict[str, Any] | None = None, **kwargs: Any) -> httpx.Response:
        return self.client.post(path, data={"csrf": self.csrf(), **(data or {})}, **kwargs)


def console_client(deployment: Deployment) -> httpx.Client:
    transport = LambdaTransport(RouteTable(deployment.functions))
    return httpx.Client(transport=transport, base_url=CONSOLE_URL, follow_redirects=False)


PASSWORD = "Correct-horse-7-battery"  # meets the user pool's policy


def sign_in_with(client: httpx.Client, email: str, password: str, target: str = "/console") -> httpx.Response:
    """The sign-in form as a browser sends it: the page first (it sets the CSRF cookie), then the form."""
    client.get("/console/sign-in", params={"next": target})
    form = {
        "email": email,
        "password": password,
        "next": target,
        "csrf": client.cookies.get("docsvc_csrf", ""),
    }
    return client.post("/console/sign-in", data=form)


def member_with_password(org_id: str, role: str, email: str, password: str = PASSWORD) -> str:
    """Invite `email` into the organization (a new person is created in the user pool) and give them
    `password` as their own; their user id."""
    from docsvc.config import settings
    from docsvc.services import member_service

    invitation = member_service().invite(org_id, email, role, by="tests")
    boto3.client("cognito-idp", region_name=REGION).admin_set_user_password(
        UserPoolId=settings().user_pool_id, Username=email, Password=password, Permanent=True
    )
    return invitation.member.user_id


@pytest.fixture
def signed_in(deployment: Deployment) -> Iterator[Any]:
    """`signed_in(org, role="admin", email=...)` → a ConsolePage of a member of `org`, signed in through
    the sign-in page with the user pool (moto's), its session cookies kept by the client."""
    clients: list[httpx.Client] = []

    def sign_in(org: Org, role: str = "admin", email: str | None = None) -> ConsolePage:
        email = email or f"{role}.{org.id.lower()}@docsvc.example"
        user_id = member_with_password(org.id, role, email)
        client = console_client(deployment)
        clients.append(client)
        answer = sign_in_with(client, email, PASSWORD)
        assert answer.status_code == 303, answer.text
        return ConsolePage(client, org.id, email, user_id)

    yield sign_in
    for client in clients:
        client.close()
