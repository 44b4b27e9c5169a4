"""The rules of the console's members that need no AWS: temporary passwords, emails, roles, and
where a sign-in may lead."""

from __future__ import annotations

import string

import pytest
from console.session import same_site_path
from docsvc.domain.members import checked_role, generate_temporary_password, normalized_email
from docsvc.errors import BadRequest


def test_a_temporary_password_meets_the_user_pools_policy_and_is_never_the_same() -> None:
    passwords = {generate_temporary_password() for _ in range(200)}

    assert len(passwords) == 200
    for password in passwords:
        assert len(password) >= 12
        assert any(c in string.ascii_lowercase for c in password)
        assert any(c in string.ascii_uppercase for c in password)
        assert any(c in string.digits for c in password)
        assert any(c in "^$*.[]{}()?!@#%&/,><:;|_~=+-" for c in password)
        assert not any(c.isspace() for c in password)


def test_emails_are_compared_in_lower_case_and_a_non_email_is_refused() -> None:
    assert normalized_email("  Ada@Example.COM ") == "ada@example.com"
    for wrong in ("", "ada", "ada@", "@example.com", "ada@example", "a da@example.com"):
        with pytest.raises(BadRequest):
            normalized_email(wrong)


def test_a_role_is_admin_or_member() -> None:
    assert checked_role("admin") == "admin" and checked_role("member") == "member"
    with pytest.raises(BadRequest, match="admin or member"):
        checked_role("owner")


@pytest.mark.parametrize(
    ("target", "followed"),
    [
        (None, "/console"),
        ("/console", "/console"),
        ("/console/org_1/test/jobs?status=failed", "/console/org_1/test/jobs?status=failed"),
        ("https://evil.example/console", "/console"),
        ("//evil.example/console/x", "/console"),
        ("/\\evil.example", "/console"),
        ("/v1/files", "/console"),
        ("/consolex", "/console"),
        ("javascript:alert(1)", "/console"),
    ],
)
def test_a_sign_in_leads_only_to_a_page_of_the_console(target: str | None, followed: str) -> None:
    assert same_site_path(target) == followed
