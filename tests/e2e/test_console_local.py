"""The console of the local stack: the admin `make dev` prints signs in over plain HTTP on loopback."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.e2e.conftest import RunningStack

pytestmark = pytest.mark.e2e


def test_the_printed_console_user_signs_in_to_the_local_organization(stack: RunningStack) -> None:
    assert f"  console:      {stack.url}/console" in "".join(stack.output)
    with httpx.Client(base_url=stack.url, timeout=30) as browser:
        form = browser.get("/console/sign-in")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert csrf is not None, form.text
        fields = {"email": stack.console_user, "password": stack.console_password, "next": "/console"}
        signed_in = browser.post("/console/sign-in", data={**fields, "csrf": csrf.group(1)})
        home = browser.get("/console")
        keys = browser.get(f"/console/{stack.organization_id}/test/keys")
        api = browser.get(
            "/v1/auth/status", headers={"Authorization": f"Bearer {browser.cookies['docsvc_session']}"}
        )

    assert signed_in.status_code == 303, signed_in.text
    assert "secure" not in signed_in.headers["set-cookie"].lower()  # plain HTTP to this machine
    assert (
        home.status_code == 303 and home.headers["location"] == f"/console/{stack.organization_id}/test/files"
    )
    assert keys.status_code == 200 and stack.test_key[:13] in keys.text
    assert api.status_code == 401
