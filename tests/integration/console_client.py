"""A browser-like client of the console for integration tests: HTTP through the template's routes to the
real ConsoleFunction handler, with cookies kept, signed in as a member of an organization.

`signed_in(org, role)` signs a member in; `page.post(path, data)` sends a form with the CSRF token the
pages hand out, as a browser would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from console.app import app
from console.context import Membership, Viewer, _signed_in_viewer
from docsvc.local.gateway import RouteTable
from docsvc.local.stack import Deployment
from docsvc.local.transport import LambdaTransport
from fastapi import Request

from tests.conftest import Org

CONSOLE_URL = "https://console.docsvc.test"


@dataclass
class ConsolePage:
    """A signed-in browser: `client` keeps the cookies; `base(environment)` is that environment's root."""

    client: httpx.Client
    organization_id: str

    def base(self, environment: str = "test") -> str:
        return f"/console/{self.organization_id}/{environment}"

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.client.get(path, **kwargs)

    def csrf(self) -> str:
        """The token the forms carry (the cookie is set by the first page the browser loads)."""
        token = self.client.cookies.get("docsvc_csrf")
        if token is None:
            self.client.get("/console")
            token = self.client.cookies.get("docsvc_csrf")
        assert token, "no CSRF cookie was set"
        return str(token)

    def post(self, path: str, data: dict[str, Any] | None = None, **kwargs: Any) -> httpx.Response:
        return self.client.post(path, data={"csrf": self.csrf(), **(data or {})}, **kwargs)


def console_client(deployment: Deployment) -> httpx.Client:
    transport = LambdaTransport(RouteTable(deployment.functions))
    return httpx.Client(transport=transport, base_url=CONSOLE_URL, follow_redirects=False)


@pytest.fixture
def signed_in(deployment: Deployment) -> Iterator[Any]:
    """`signed_in(org, role="admin", email=...)` → a ConsolePage of a member of `org`."""
    clients: list[httpx.Client] = []
    viewers: dict[str, Viewer] = {}

    def sign_in(org: Org, role: str = "admin", email: str | None = None) -> ConsolePage:
        email = email or f"{role}@{org.id}.example"
        viewer = Viewer(user_id=email, email=email, memberships=(Membership(org.id, "acme", role),))  # type: ignore[arg-type]
        client = console_client(deployment)
        viewers[email] = viewer
        client.headers["x-test-viewer"] = email
        clients.append(client)
        return ConsolePage(client, org.id)

    def viewer_of_request(request: Request) -> Viewer:
        from console.context import SignInRequired

        viewer = viewers.get(request.headers.get("x-test-viewer", ""))
        if viewer is None:
            raise SignInRequired()
        return viewer

    app.dependency_overrides[_signed_in_viewer] = viewer_of_request
    yield sign_in
    app.dependency_overrides.pop(_signed_in_viewer, None)
    for client in clients:
        client.close()
