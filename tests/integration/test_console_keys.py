"""The API keys page (admins): this environment's keys only, a new key shown once that opens /v1 in
this environment, and revocation effective on the key's next request."""

from __future__ import annotations

import re

import httpx
from docsvc.services import account_service

from tests.conftest import Org, auth

NEW_KEY = re.compile(r'<output id="new-key" class="secret-once">([^<]+)</output>')


def test_the_keys_page_lists_this_environments_keys_only(signed_in, org: Org, other_org: Org) -> None:
    page = signed_in(org)

    test = page.get(f"{page.base('test')}/keys")
    production = page.get(f"{page.base('production')}/keys")

    assert test.status_code == production.status_code == 200
    assert org.test.key_id in test.text and org.test.key[:13] in test.text
    assert org.production.key_id not in test.text and "svc_live_" not in test.text
    assert org.production.key_id in production.text and "svc_test_" not in production.text
    assert other_org.test.key_id not in test.text
    assert org.test.key not in test.text  # never the key itself


def test_a_key_created_in_the_console_is_shown_once_and_opens_the_api_in_this_environment(
    signed_in, org: Org, api: httpx.Client
) -> None:
    page = signed_in(org)

    created = page.post(f"{page.base('production')}/keys", {"name": "billing"})

    assert created.status_code == 200
    shown = NEW_KEY.search(created.text)
    assert shown is not None and shown.group(1).startswith("svc_live_")
    key = shown.group(1)
    status = api.get("/v1/auth/status", headers=auth(key)).json()
    assert status["organization_id"] == org.id and status["environment_slug"] == "production"
    assert status["key"]["name"] == "billing"
    listed = page.get(f"{page.base('production')}/keys")
    assert "billing" in listed.text and key not in listed.text


def test_a_key_needs_a_name(signed_in, org: Org) -> None:
    page = signed_in(org)

    for name in ("", "   ", "x" * 65):
        answer = page.post(f"{page.base()}/keys", {"name": name})
        assert answer.status_code in (400, 422), name
        assert NEW_KEY.search(answer.text) is None


def test_a_revoked_key_answers_401_on_the_api(signed_in, org: Org, api: httpx.Client) -> None:
    page = signed_in(org)
    assert api.get("/v1/files", headers=auth(org.test.key)).status_code == 200

    confirm = page.get(f"{page.base()}/keys/{org.test.key_id}/revoke")
    revoked = page.post(f"{page.base()}/keys/{org.test.key_id}/revoke")

    assert confirm.status_code == 200 and "Revoke ci" in confirm.text
    assert revoked.status_code == 303
    assert api.get("/v1/files", headers=auth(org.test.key)).status_code == 401
    assert "revoked" in page.get(f"{page.base()}/keys").text
    assert api.get("/v1/files", headers=auth(org.production.key)).status_code == 200


def test_a_key_of_the_other_environment_or_organization_is_not_found(
    signed_in, org: Org, other_org: Org, api: httpx.Client
) -> None:
    page = signed_in(org)

    for key_id in (org.production.key_id, other_org.test.key_id, "key_unknown"):
        assert page.get(f"{page.base()}/keys/{key_id}/revoke").status_code == 404, key_id
        assert page.post(f"{page.base()}/keys/{key_id}/revoke").status_code == 404, key_id

    for key in (org.production.key, other_org.test.key):
        assert api.get("/v1/files", headers=auth(key)).status_code == 200


def test_a_member_is_refused_the_keys_page(signed_in, org: Org) -> None:
    member = signed_in(org, role="member")

    listing = member.get(f"{member.base()}/keys")
    created = member.post(f"{member.base()}/keys", {"name": "sneaky"})
    revoked = member.post(f"{member.base()}/keys/{org.test.key_id}/revoke")

    assert [listing.status_code, created.status_code, revoked.status_code] == [403, 403, 403]
    assert [key.name for key in account_service().list_keys(org.id)] == ["ci", "live"]
    assert all(key.revoked_at is None for key in account_service().list_keys(org.id))


def test_a_keys_form_without_the_token_is_refused(signed_in, org: Org) -> None:
    page = signed_in(org)

    answer = page.client.post(f"{page.base()}/keys", data={"name": "forged", "csrf": "forged"})

    assert answer.status_code == 403
    assert "forged" not in page.get(f"{page.base()}/keys").text


def test_the_keys_list_is_paged_newest_first(signed_in, org: Org) -> None:
    page = signed_in(org)
    for index in range(25):
        account_service().create_key(org.id, "test", name=f"k{index}")
        account_service().create_key(org.id, "production", name=f"p{index}")

    first = page.get(f"{page.base()}/keys")
    following = re.search(r'<a rel="next" href="([^"]+)"', first.text)
    assert following is not None
    second = page.get(following.group(1).replace("&amp;", "&"))

    names = re.findall(r"<tr>\s*<td>([^<]+)</td>", first.text + second.text)
    assert names == [f"k{index}" for index in reversed(range(25))] + ["ci"]
    assert 'rel="next"' not in second.text
