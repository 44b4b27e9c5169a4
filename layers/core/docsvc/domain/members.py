"""The console's members: who may sign in to an organization's console, and as what.

A member is a person of the user pool (Amazon Cognito) with a role in one organization: `admin` (also
manages API keys and members) or `member`. Membership is the organization's, the same in both of its
environments. People are invited: an admin (or an operator, with `docsvc admin members add`) names an
email; a person new to the pool gets a temporary password, which they replace at their first sign-in.
The user pool mails it to them; only where the deployment says so (the local stack, which mails nothing)
does the console show it to the admin, and `docsvc admin` prints it to the operator. Somebody already in
the pool who has never signed in is sent a new temporary password (the one before stops working, so
nobody who saw an earlier one can take the account over, and an expired one is replaced); somebody who
has signed in just becomes a member. An organization always keeps at least one admin.

The console's session is not an API credential: API keys stay the only way into /v1.
"""

from __future__ import annotations

import builtins
import re
import secrets
import string
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel

from docsvc.clock import iso, utc_now
from docsvc.domain.accounts import AccountService
from docsvc.errors import BadRequest, Conflict, NotFound

Role = Literal["admin", "member"]
ROLES: tuple[Role, ...] = ("admin", "member")
PAGE_SIZE = 25
LAST_ADMIN = "An organization needs at least one admin: make another member an admin first, then try again."
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_SYMBOLS = "^$*.[]{}()?!@#%&/,><:;|_~=+-"
TEMPORARY_PASSWORD_LENGTH = 16


class Member(BaseModel):
    organization_id: str
    user_id: str  # the person's id in the user pool (its `sub`)
    email: str
    role: Role
    added_at: str
    added_by: str  # the user id of the admin who invited them, or `docsvc admin`


class Membership(BaseModel):
    """One organization a person belongs to, with its name for the console's navigation."""

    organization_id: str
    organization_name: str
    role: Role


@dataclass(frozen=True)
class MemberPage:
    items: list[Member]
    after: str | None  # the cursor of the next page (a user id), None on the last


@dataclass(frozen=True)
class Invitation:
    member: Member
    # A new temporary password (a person new to the pool, or one who never signed in): never stored.
    temporary_password: str | None


@dataclass(frozen=True)
class DirectoryUser:
    user_id: str
    email: str
    awaiting_first_sign_in: bool = False  # still to replace a temporary password
    created_now: bool = False  # just created with the temporary password it was given


@dataclass(frozen=True)
class Tokens:
    """What a sign-in gives: the access token (checked by the user pool on use) and, at sign-in, the
    refresh token that renews it."""

    access_token: str
    refresh_token: str | None
    expires_in: int


@dataclass(frozen=True)
class NewPasswordRequired:
    """A first sign-in with a temporary password: the person chooses a password to finish it."""

    email: str
    session: str


class UserDirectory(Protocol):
    """The user pool. Every refusal of a credential is Unauthorized, saying nothing of whether the
    person exists; a password the pool's policy refuses is BadRequest with the policy in words."""

    def find_user(self, email: str) -> DirectoryUser | None: ...
    def create_user(self, email: str, temporary_password: str) -> DirectoryUser | None:
        """A new person with a temporary password (on AWS, mailed to them); None if they exist."""
        ...

    def reissue_invitation(self, email: str, temporary_password: str) -> bool:
        """A person awaiting their first sign-in gets a new temporary password (on AWS, mailed to them
        again); the one before stops working. False when they have signed in meanwhile."""
        ...

    def sign_in(self, email: str, password: str) -> Tokens | NewPasswordRequired: ...
    def answer_new_password(self, challenge: NewPasswordRequired, new_password: str) -> Tokens: ...
    def refresh(self, refresh_token: str) -> Tokens: ...
    def user_of(self, access_token: str) -> DirectoryUser:
        """The person an access token belongs to, as the user pool checks it (signature, expiry,
        sign-out); Unauthorized otherwise."""
        ...

    def sign_out(self, access_token: str) -> bool:
        """Revoke every token of the person (all their sessions); False when the access token was
        not valid any more (revoked or expired), so nothing was revoked with it."""
        ...


class MemberRepository(Protocol):
    def add(self, member: Member) -> bool:
        """Write a new member (and count an admin); False when they are a member already."""
        ...

    def get(self, organization_id: str, user_id: str) -> Member | None:
        """Read strongly consistently: a removal counts on the very next request."""
        ...

    def page(self, organization_id: str, limit: int, after: str | None) -> MemberPage: ...
    def of_user(self, user_id: str) -> list[Member]: ...
    def set_role(self, member: Member, role: Role) -> bool:
        """Change a member's role; False (nothing written) when it would leave no admin."""
        ...

    def remove(self, member: Member) -> bool:
        """Remove a member; False (nothing written) when it would leave no admin."""
        ...


def generate_temporary_password(length: int = TEMPORARY_PASSWORD_LENGTH) -> str:
    """Random, with a lower and an upper case letter, a digit and a symbol (the pool's policy)."""
    classes = (string.ascii_lowercase, string.ascii_uppercase, string.digits, _SYMBOLS)
    characters = [secrets.choice(kind) for kind in classes]
    alphabet = "".join(classes)
    characters += [secrets.choice(alphabet) for _ in range(length - len(characters))]
    secrets.SystemRandom().shuffle(characters)
    return "".join(characters)


def normalized_email(email: str) -> str:
    email = email.strip().lower()
    if not _EMAIL.match(email):
        raise BadRequest(f"'{email}' is not an email address")
    return email


def checked_role(role: str) -> Role:
    if role not in ROLES:
        raise BadRequest(f"the role must be admin or member, not '{role}'")
    return role


class MemberService:
    def __init__(self, members: MemberRepository, directory: UserDirectory, accounts: AccountService) -> None:
        self._members = members
        self._directory = directory
        self._accounts = accounts

    def invite(self, organization_id: str, email: str, role: str, *, by: str) -> Invitation:
        """Make `email` a member of the organization. A person new to the user pool is created with a
        temporary password, and one who has never signed in is given a new one; it is returned here once.
        Inviting again a member who has never signed in sends their invitation again."""
        self._accounts.organization(organization_id)  # NotFound for an unknown organization
        email, role = normalized_email(email), checked_role(role)
        password = generate_temporary_password()
        user = self._directory.find_user(email) or self._directory.create_user(email, password)
        if user is None:  # created meanwhile by another invitation
            user = self.user_by_email(email)
        issued = password if user.awaiting_first_sign_in else None
        if (
            issued is not None
            and not user.created_now
            and not self._directory.reissue_invitation(email, issued)
        ):
            issued = None  # signed in meanwhile: they keep their own password
        member = Member(
            organization_id=organization_id,
            user_id=user.user_id,
            email=email,
            role=role,
            added_at=iso(utc_now()),
            added_by=by,
        )
        if not self._members.add(member):
            existing = self._members.get(organization_id, user.user_id)
            if issued is None or existing is None:
                raise Conflict(f"{email} is already a member of this organization")
            return Invitation(existing, issued)  # invited again: the role they have stays
        return Invitation(member, issued)

    def member(self, organization_id: str, user_id: str) -> Member:
        member = self._members.get(organization_id, user_id)
        if member is None:
            raise NotFound("no such member in this organization")
        return member

    def list(self, organization_id: str, *, after: str | None = None, limit: int = PAGE_SIZE) -> MemberPage:
        return self._members.page(organization_id, limit, after)

    def set_role(self, organization_id: str, user_id: str, role: str) -> Member:
        wanted = checked_role(role)
        member = self.member(organization_id, user_id)
        if member.role == wanted:
            return member
        if not self._members.set_role(member, wanted):
            raise Conflict(LAST_ADMIN)
        return member.model_copy(update={"role": wanted})

    def remove(self, organization_id: str, user_id: str) -> Member:
        member = self.member(organization_id, user_id)
        if not self._members.remove(member):
            raise Conflict(LAST_ADMIN)
        return member

    def memberships(self, user_id: str) -> builtins.list[Membership]:
        """The organizations a person belongs to, with their names, by name."""
        found = []
        for member in self._members.of_user(user_id):
            try:
                name = self._accounts.organization(member.organization_id).name
            except NotFound:
                continue
            found.append(
                Membership(organization_id=member.organization_id, organization_name=name, role=member.role)
            )
        return sorted(
            found, key=lambda membership: (membership.organization_name.lower(), membership.organization_id)
        )

    def membership(self, organization_id: str, user_id: str) -> Membership | None:
        """One organization of a person, read strongly consistently (None: not a member)."""
        member = self._members.get(organization_id, user_id)
        if member is None:
            return None
        name = self._accounts.organization(organization_id).name
        return Membership(organization_id=organization_id, organization_name=name, role=member.role)

    def user_by_email(self, email: str) -> DirectoryUser:
        user = self._directory.find_user(normalized_email(email))
        if user is None:
            raise NotFound(f"nobody with the email {email.strip()} can sign in to the console")
        return user
