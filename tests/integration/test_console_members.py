"""The members page (admins): invitations (mailed by the user pool; a temporary password shown once only
where the deployment says so, as the local stack does), roles, removal, and an organization that always
keeps an admin."""

from __future__ import annotations

import html
import re

import pytest
from console.context import ConsoleContext, Membership, Viewer
from console.rendering import render
from docsvc import services
from docsvc.services import member_service
from docsvc.tenancy import Tenant
from starlette.requests import Request

from tests.conftest import Org
from tests.integration.console_client import PASSWORD, ConsolePage, console_client, sign_in_with

INVITED = "is+a+member+of+the+organization.+If+they+have+not+signed+in+to+the+console+yet"
SHOWN = re.compile(r'<output id="temporary-password" class="secret-once">([^<]+)</output>')


def shown_password(answer) -> str:
    found = SHOWN.search(answer.text)
    assert found is not None, answer.text
    return html.unescape(found.group(1))


def first_sign_in(deployment, email: str, password: str) -> int:
    """The status of a first sign-in with a temporary password (303 to choose a password, 401 refused)."""
    with console_client(deployment) as browser:
        answer = sign_in_with(browser, email, password)
    if answer.status_code == 303:
        assert answer.headers["location"].startswith("/console/new-password")
    return answer.status_code


@pytest.fixture
def mailed_invitations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The console as on AWS: the user pool mails temporary passwords, the console never shows them."""
    monkeypatch.setenv("SHOW_TEMPORARY_PASSWORDS", "false")
    services.reset()


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
    assert f"ada%40globex.example+{INVITED}" in answer.headers["location"]
    ada = member_service().user_by_email("ada@globex.example")
    names = [membership.organization_name for membership in member_service().memberships(ada.user_id)]
    assert names == ["acme", "globex"]


def test_inviting_a_member_twice_or_a_bad_email_is_refused_with_a_sentence(signed_in, org: Org) -> None:
    admin = signed_in(org)
    signed_in(org, role="member", email="grace@acme.example")

    twice = admin.post(f"{admin.base()}/members", {"email": "grace@acme.example", "role": "member"})
    bad = admin.post(f"{admin.base()}/members", {"email": "not an email", "role": "member"})
    role = admin.post(f"{admin.base()}/members", {"email": "x@acme.example", "role": "owner"})

    assert twice.status_code == 409 and "grace@acme.example is already a member" in twice.text
    assert bad.status_code == 400 and "is not an email address" in bad.text
    assert role.status_code == 400 and "the role must be admin or member" in role.text


def test_on_aws_the_answer_never_shows_a_password_nor_tells_whether_the_person_had_an_account(
    signed_in, mailed_invitations, org: Org, other_org: Org
) -> None:
    signed_in(other_org, email="ada@globex.example")
    admin = signed_in(org)

    new = admin.post(f"{admin.base()}/members", {"email": "linus@acme.example", "role": "member"})
    known = admin.post(f"{admin.base()}/members", {"email": "ada@globex.example", "role": "member"})

    assert (new.status_code, known.status_code) == (303, 303)
    sentences = [
        answer.headers["location"].split("notice=")[1].replace(email, "EMAIL")
        for answer, email in ((new, "linus%40acme.example"), (known, "ada%40globex.example"))
    ]
    assert sentences[0] == sentences[1] and INVITED in sentences[0]
    listed = admin.get(f"{admin.base()}/members")
    assert "linus@acme.example" in listed.text and "ada@globex.example" in listed.text
    for page in (new, known, listed):
        assert "temporary-password" not in page.text
    assert "gets an email with a temporary password" in listed.text


def test_an_invitation_replaces_the_temporary_password_another_organizations_admin_saw(
    signed_in, deployment, org: Org, other_org: Org
) -> None:
    intruder = signed_in(other_org)
    seen = shown_password(
        intruder.post(f"{intruder.base()}/members", {"email": "alice@acme.example", "role": "member"})
    )
    admin = signed_in(org)

    answer = admin.post(f"{admin.base()}/members", {"email": "alice@acme.example", "role": "admin"})

    assert answer.status_code == 200
    issued = shown_password(answer)
    assert issued != seen
    assert first_sign_in(deployment, "alice@acme.example", seen) == 401
    assert first_sign_in(deployment, "alice@acme.example", issued) == 303
    alice = member_service().user_by_email("alice@acme.example")  # one person in the pool, in both
    assert {m.organization_id for m in member_service().memberships(alice.user_id)} == {org.id, other_org.id}


def test_inviting_again_a_member_who_never_signed_in_sends_a_new_password_and_keeps_their_role(
    signed_in, deployment, org: Org
) -> None:
    admin = signed_in(org)
    first = shown_password(
        admin.post(f"{admin.base()}/members", {"email": "grace@acme.example", "role": "member"})
    )

    again = admin.post(f"{admin.base()}/members", {"email": "grace@acme.example", "role": "admin"})

    assert again.status_code == 200
    second = shown_password(again)
    assert first_sign_in(deployment, "grace@acme.example", first) == 401
    assert first_sign_in(deployment, "grace@acme.example", second) == 303
    grace = member_service().user_by_email("grace@acme.example")
    assert member_service().member(org.id, grace.user_id).role == "member"


def test_a_person_who_has_signed_in_keeps_their_password_when_invited(
    signed_in, deployment, org: Org, other_org: Org
) -> None:
    ada: ConsolePage = signed_in(other_org, email="ada@globex.example")
    admin = signed_in(org)

    answer = admin.post(f"{admin.base()}/members", {"email": ada.email, "role": "member"})

    assert answer.status_code == 303 and "temporary-password" not in answer.text
    with console_client(deployment) as browser:
        assert sign_in_with(browser, ada.email, PASSWORD).status_code == 303


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
