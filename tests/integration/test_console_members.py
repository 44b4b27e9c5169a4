"""The members page (admins): invitations with a temporary password shown once, roles, removal, and an
organization that always keeps an admin."""

from __future__ import annotations

import html
import re

import pytest
from console.context import ConsoleContext, Membership, Viewer
from console.rendering import render
from docsvc.services import member_service
from docsvc.tenancy import Tenant
from starlette.requests import Request

from tests.conftest import Org
from tests.integration.console_client import console_client, sign_in_with


def test_an_admin_sees_the_organizations_members(signed_in, org: Org, other_org: Org) -> None:
    admin = signed_in(org)
    signed_in(org, role="member", email="grace@acme.example")
    signed_in(other_org, email="someone@globex.example")

    answer = admin.get(f"{admin.base()}/members")

    assert answer.status_code == 200
    assert "grace@acme.example" in answer.text and admin.email in answer.text
    assert "someone@globex.example" not in answer.text
    assert "<caption>" in answer.text and 'scope="col"' in answer.text


def test_inviting_a_new_person_shows_their_temporary_password_once(signed_in, deployment, org: Org) -> None:
    admin = signed_in(org)

    answer = admin.post(f"{admin.base()}/members", {"email": "Linus@acme.example", "role": "member"})

    assert answer.status_code == 200
    password = re.search(r'<output id="temporary-password" class="secret-once">([^<]+)</output>', answer.text)
    assert password is not None
    listed = admin.get(f"{admin.base()}/members")
    assert "linus@acme.example" in listed.text
    assert password.group(1) not in listed.text
    with console_client(deployment) as browser:
        first = sign_in_with(browser, "linus@acme.example", html.unescape(password.group(1)))
    assert first.status_code == 303 and first.headers["location"].startswith("/console/new-password")


def test_inviting_somebody_who_already_has_an_account_only_adds_the_membership(
    signed_in, org: Org, other_org: Org
) -> None:
    signed_in(other_org, email="ada@globex.example")
    admin = signed_in(org)

    answer = admin.post(f"{admin.base()}/members", {"email": "ada@globex.example", "role": "admin"})

    assert answer.status_code == 303
    assert "ada%40globex.example+is+now+a+member" in answer.headers["location"]
    ada = member_service().user_by_email("ada@globex.example")
    names = [membership.organization_name for membership in member_service().memberships(ada.user_id)]
    assert names == ["acme", "globex"]


def test_inviting_a_member_twice_or_a_bad_email_is_refused_with_a_sentence(signed_in, org: Org) -> None:
    admin = signed_in(org)
    admin.post(f"{admin.base()}/members", {"email": "grace@acme.example", "role": "member"})

    twice = admin.post(f"{admin.base()}/members", {"email": "grace@acme.example", "role": "member"})
    bad = admin.post(f"{admin.base()}/members", {"email": "not an email", "role": "member"})
    role = admin.post(f"{admin.base()}/members", {"email": "x@acme.example", "role": "owner"})

    assert twice.status_code == 409 and "grace@acme.example is already a member" in twice.text
    assert bad.status_code == 400 and "is not an email address" in bad.text
    assert role.status_code == 400 and "the role must be admin or member" in role.text


def test_an_admin_changes_a_members_role(signed_in, org: Org) -> None:
    admin = signed_in(org)
    member = signed_in(org, role="member")

    answer = admin.post(f"{admin.base()}/members/{member.user_id}/role", {"role": "admin"})

    assert answer.status_code == 303
    assert member_service().member(org.id, member.user_id).role == "admin"
    assert member.get(f"{member.base()}/members").status_code == 200


def test_removing_a_member_asks_first_then_removes_them(signed_in, org: Org) -> None:
    admin = signed_in(org)
    member = signed_in(org, role="member")

    confirm = admin.get(f"{admin.base()}/members/{member.user_id}/remove")
    removed = admin.post(f"{admin.base()}/members/{member.user_id}/remove")

    assert confirm.status_code == 200 and f"Remove {member.email}" in confirm.text
    assert removed.status_code == 303
    assert member.email not in admin.get(f"{admin.base()}/members").text
    assert member.get(member.base()).status_code == 404


def test_the_last_admin_can_be_neither_removed_nor_made_a_member(signed_in, org: Org) -> None:
    admin = signed_in(org)
    signed_in(org, role="member")

    removed = admin.post(f"{admin.base()}/members/{admin.user_id}/remove")
    demoted = admin.post(f"{admin.base()}/members/{admin.user_id}/role", {"role": "member"})

    for answer in (removed, demoted):
        assert answer.status_code == 409
        assert "An organization needs at least one admin" in answer.text
    assert member_service().member(org.id, admin.user_id).role == "admin"


def test_a_member_is_refused_the_members_page(signed_in, org: Org) -> None:
    admin = signed_in(org)
    member = signed_in(org, role="member")

    listing = member.get(f"{member.base()}/members")
    invite = member.post(f"{member.base()}/members", {"email": "eve@acme.example", "role": "admin"})
    removal = member.post(f"{member.base()}/members/{admin.user_id}/remove")

    assert [listing.status_code, invite.status_code, removal.status_code] == [403, 403, 403]
    assert "only an admin of the organization" in listing.text
    assert member_service().member(org.id, admin.user_id).role == "admin"
    assert "eve@acme.example" not in admin.get(f"{admin.base()}/members").text


@pytest.mark.parametrize("role", ["admin", "member"])
def test_only_an_admin_sees_keys_and_members_in_the_navigation(role: str) -> None:
    viewer = Viewer("user-1", "ada@acme.example", (Membership("org_1", "acme", role),))  # type: ignore[arg-type]
    context = ConsoleContext(Tenant("org_1", "test"), viewer, viewer.memberships[0], "token")
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/console/org_1/test/files",
        "headers": [],
        "query_string": b"",
    }

    html = render(Request(scope), "home.html", context, viewer=viewer).body.decode()

    sections = re.findall(r'<nav aria-label="Sections".*?</nav>', html, re.DOTALL)[0]
    shown = {
        "keys": "/console/org_1/test/keys" in sections,
        "members": "/console/org_1/test/members" in sections,
    }
    assert shown == {"keys": role == "admin", "members": role == "admin"}
    assert "/console/org_1/test/files" in sections


def test_a_member_of_another_organization_is_not_found(signed_in, org: Org, other_org: Org) -> None:
    admin = signed_in(org)
    stranger = signed_in(other_org)

    for path in (f"/members/{stranger.user_id}/remove", "/members/nobody/remove"):
        assert admin.get(admin.base() + path).status_code == 404, path
    assert admin.post(f"{admin.base()}/members/{stranger.user_id}/remove").status_code == 404
    assert (
        admin.post(f"{admin.base()}/members/{stranger.user_id}/role", {"role": "member"}).status_code == 404
    )
    assert member_service().member(other_org.id, stranger.user_id).role == "admin"


def test_a_members_form_without_the_token_is_refused(signed_in, org: Org) -> None:
    admin = signed_in(org)

    answer = admin.client.post(
        f"{admin.base()}/members", data={"email": "eve@acme.example", "role": "admin", "csrf": "forged"}
    )

    assert answer.status_code == 403
    assert "eve@acme.example" not in admin.get(f"{admin.base()}/members").text


def test_the_members_list_is_paged(signed_in, org: Org) -> None:
    admin = signed_in(org)
    for index in range(26):
        member_service().invite(org.id, f"person{index}@acme.example", "member", by="tests")

    first = admin.get(f"{admin.base()}/members")
    following = re.search(r'<a rel="next" href="([^"]+)"', first.text)
    assert following is not None
    second = admin.get(following.group(1).replace("&amp;", "&"))

    emails = re.findall(r"<td>([^<\s]+@[^<\s]+)", first.text + second.text)
    assert len(emails) == 27 and len(set(emails)) == 27 and admin.email in emails
    assert 'rel="next"' not in second.text
