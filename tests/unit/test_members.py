"""The rules of the console's members that need no AWS: temporary passwords, emails, roles, where a
sign-in may lead, and what the user pool's refusals become (its client refusing every call)."""

from __future__ import annotations

import string
from typing import Any

import pytest
from botocore.exceptions import ClientError
from console.session import same_site_path
from docsvc.adapters import aws
from docsvc.adapters.cognito import CognitoUserDirectory
from docsvc.domain.members import checked_role, generate_temporary_password, normalized_email
from docsvc.errors import BadRequest, DomainError, TooManyRequests, Unauthorized


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


class _RefusingPool:
    """A user pool client whose every call is refused with one Cognito error code."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __getattr__(self, operation: str) -> Any:
        def refuse(**_: Any) -> None:
            raise ClientError({"Error": {"Code": self.code, "Message": "refused"}}, operation)

        return refuse


def refusing_directory(monkeypatch: pytest.MonkeyPatch, code: str) -> CognitoUserDirectory:
    monkeypatch.setattr(aws, "cognito_idp", lambda: _RefusingPool(code))
    return CognitoUserDirectory(user_pool_id="us-east-1_pool", client_id="client")


@pytest.mark.parametrize("code", ["LimitExceededException", "TooManyRequestsException"])
def test_a_user_pool_over_its_limits_answers_429_with_when_to_retry(
    monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    directory = refusing_directory(monkeypatch, code)

    for invite in (
        lambda: directory.create_user("ada@acme.example", "Temporary-pass-1"),
        lambda: directory.reissue_invitation("ada@acme.example", "Temporary-pass-1"),
        lambda: directory.find_user("ada@acme.example"),
        lambda: directory.sign_in("ada@acme.example", "a password"),
    ):
        with pytest.raises(TooManyRequests) as refused:
            invite()
        assert refused.value.status_code == 429 and refused.value.retry_after == 60


def test_an_invitation_email_that_cannot_be_delivered_is_a_sentence_not_a_500(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    directory = refusing_directory(monkeypatch, "CodeDeliveryFailureException")

    for invite in (
        lambda: directory.create_user("ada@acme.example", "Temporary-pass-1"),
        lambda: directory.reissue_invitation("ada@acme.example", "Temporary-pass-1"),
    ):
        with pytest.raises(DomainError) as refused:
            invite()
        assert refused.value.status_code == 400
        assert "could not send the invitation email to ada@acme.example" in refused.value.message


def test_a_sign_in_whose_password_must_be_reset_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    directory = refusing_directory(monkeypatch, "PasswordResetRequiredException")

    with pytest.raises(Unauthorized) as refused:
        directory.sign_in("ada@acme.example", "a password")

    assert "must be reset before it can sign in" in refused.value.message


def test_reissuing_for_somebody_who_signed_in_meanwhile_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    directory = refusing_directory(monkeypatch, "UnsupportedUserStateException")

    assert directory.reissue_invitation("ada@acme.example", "Temporary-pass-1") is False
