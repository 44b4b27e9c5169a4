"""The console's shell: pages of an organization's environment, the environment switch, errors as pages."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.conftest import Org
from tests.integration.console_client import console_client


def test_a_page_without_a_session_redirects_to_sign_in(deployment, org: Org) -> None:
    with console_client(deployment) as client:
        answer = client.get(f"/console/{org.id}/test?status=failed")
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/console/sign-in?next=/console/{org.id}/test%3Fstatus%3Dfailed"


def test_the_console_root_opens_the_first_organizations_test_environment(signed_in, org: Org) -> None:
    page = signed_in(org)
    answer = page.get("/console")
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/console/{org.id}/test/files"


def test_another_organization_or_an_unknown_environment_is_not_found(
    signed_in, org: Org, other_org: Org
) -> None:
    page = signed_in(org)
    for path in (f"/console/{other_org.id}/test", f"/console/{org.id}/staging", "/console/nobody/test"):
        answer = page.get(path)
        assert answer.status_code == 404, path
        assert "There is no such page" in answer.text


def test_pages_carry_security_headers_and_are_not_cached(signed_in, org: Org) -> None:
    answer: httpx.Response = signed_in(org).get(f"/console/{org.id}/staging")
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_static_files_are_served_under_the_console(deployment) -> None:
    with console_client(deployment) as client:
        answer = client.get("/console/static/console.css")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/css")


def test_a_post_without_the_forms_token_is_refused(signed_in, org: Org) -> None:
    page = signed_in(org)
    answer = page.client.post("/console/sign-out", data={"csrf": "forged"})
    assert answer.status_code in (403, 404, 405)


def test_a_person_without_an_organization_can_still_sign_out(signed_in, org: Org) -> None:
    from docsvc.services import member_service

    signed_in(org, role="admin", email="keeper@docsvc.example")  # the organization keeps an admin
    page = signed_in(org, role="member")
    member_service().remove(org.id, page.user_id)

    home = page.get("/console")
    token = re.search(r'name="csrf" value="([^"]+)"', home.text)
    assert home.status_code == 200 and "No organization yet" in home.text and token is not None
    answer = page.client.post("/console/sign-out", data={"csrf": token.group(1)})

    assert answer.status_code == 303 and answer.headers["location"].startswith("/console/sign-in")


@pytest.mark.parametrize("section", ["keys", "members"])
def test_a_forged_cursor_is_a_422_page_and_one_at_the_limit_is_read(
    signed_in, org: Org, section: str
) -> None:
    page = signed_in(org)
    path = f"{page.base()}/{section}"

    at_limit = page.get(path, params={"after": "k" * 128})
    too_long = page.get(path, params={"after": "k" * 129})
    forged = page.get(path, params={"after": "key_1<script>"})

    assert at_limit.status_code == 200
    assert too_long.status_code == 422 and "after" in too_long.text
    assert forged.status_code == 422 and "<script>" not in forged.text
