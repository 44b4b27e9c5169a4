"""Organizations, their two environments, and the API keys that select one of them.

A key is shown once; only its SHA-256 is stored. The environment stored with the key decides where a
request lands: the key's prefix is a hint for people, never trusted by the server. An organization's
own request limits (docsvc.domain.limits), when an operator set them, are stored on it and on each of
its keys.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel

from docsvc.clock import iso, utc_now
from docsvc.domain.limits import RequestLimits
from docsvc.errors import NotFound, Unauthorized
from docsvc.ids import new_id
from docsvc.tenancy import ENVIRONMENTS, Environment, Tenant

KEY_PREFIXES: dict[str, Environment] = {
    "svc_test_": "test",
    "svc_live_": "production",
    "sk_svc_": "production",
}
_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_SECRET_LENGTH = 40  # 40 base62 characters: about 238 bits of randomness
_SHOWN_CHARACTERS = 4


class Organization(BaseModel):
    id: str
    name: str
    environments: dict[Environment, str]
    created_at: str
    limits: RequestLimits | None = None  # None: the defaults (docsvc.domain.limits.DEFAULT_LIMITS)


class ApiKey(BaseModel):
    """The stored record of a key: everything but the key itself."""

    id: str
    organization_id: str
    environment: Environment
    environment_id: str
    name: str
    prefix: str
    legacy: bool = False
    created_at: str
    revoked_at: str | None = None
    limits: RequestLimits | None = None  # its organization's, copied when set: read with the key

    @property
    def tenant(self) -> Tenant:
        return Tenant(self.organization_id, self.environment)


@dataclass(frozen=True)
class KeyPage:
    items: list[ApiKey]
    after: str | None  # the cursor of the next page, None on the last


class IssuedKey(BaseModel):
    record: ApiKey
    key: str


def hash_key(presented: str) -> str:
    return hashlib.sha256(presented.encode("utf-8")).hexdigest()


def key_prefix_for(environment: Environment, *, legacy: bool) -> str:
    if legacy:
        if environment != "production":
            raise ValueError("legacy sk_svc_ keys exist only for production")
        return "sk_svc_"
    return "svc_test_" if environment == "test" else "svc_live_"


def generate_key(environment: Environment, *, legacy: bool = False) -> str:
    body = "".join(secrets.choice(_BASE62) for _ in range(_SECRET_LENGTH))
    return key_prefix_for(environment, legacy=legacy) + body


def display_prefix(key: str) -> str:
    """What may be shown of a key: its type prefix and a few characters, never enough to use it."""
    for prefix in KEY_PREFIXES:
        if key.startswith(prefix):
            return key[: len(prefix) + _SHOWN_CHARACTERS]
    return key[:_SHOWN_CHARACTERS]


class AccountRepository(Protocol):
    def put_organization(self, organization: Organization) -> None: ...
    def get_organization(self, organization_id: str) -> Organization | None: ...
    def put_key(self, key_hash: str, record: ApiKey) -> None: ...
    def get_key_by_hash(self, key_hash: str) -> ApiKey | None: ...
    def get_key_hash_by_id(self, key_id: str) -> str | None: ...
    def list_keys(self, organization_id: str) -> list[ApiKey]: ...
    def environment_keys(
        self, organization_id: str, environment: Environment, limit: int, before: str | None
    ) -> list[ApiKey]:
        """Up to `limit` keys of one environment, newest first, older than the key id `before`."""
        ...

    def mark_key_revoked(self, key_hash: str, revoked_at: str) -> ApiKey: ...
    def set_limits(self, organization_id: str, limits: RequestLimits | None) -> None:
        """Store the limits (None: the defaults) on the organization, then on each of its keys."""
        ...


class AccountService:
    def __init__(self, repository: AccountRepository) -> None:
        self._repository = repository

    def create_organization(self, name: str) -> Organization:
        if not name.strip():
            raise ValueError("an organization needs a name")
        organization = Organization(
            id=new_id("org"),
            name=name.strip(),
            environments={environment: new_id("env") for environment in ENVIRONMENTS},
            created_at=iso(utc_now()),
        )
        self._repository.put_organization(organization)
        return organization

    def create_key(
        self, organization_id: str, environment: Environment, *, name: str = "default", legacy: bool = False
    ) -> IssuedKey:
        organization = self._repository.get_organization(organization_id)
        if organization is None:
            raise NotFound(f"no organization '{organization_id}'")
        key = generate_key(environment, legacy=legacy)
        record = ApiKey(
            id=new_id("key"),
            organization_id=organization.id,
            environment=environment,
            environment_id=organization.environments[environment],
            name=name,
            prefix=display_prefix(key),
            legacy=legacy,
            created_at=iso(utc_now()),
            limits=organization.limits,
        )
        self._repository.put_key(hash_key(key), record)
        return IssuedKey(record=record, key=key)

    def revoke_key(self, key_id: str, *, at: datetime | None = None) -> ApiKey:
        key_hash = self._repository.get_key_hash_by_id(key_id)
        if key_hash is None:
            raise NotFound(f"no API key '{key_id}'")
        return self._repository.mark_key_revoked(key_hash, iso(at or utc_now()))

    def list_keys(self, organization_id: str) -> list[ApiKey]:
        if self._repository.get_organization(organization_id) is None:
            raise NotFound(f"no organization '{organization_id}'")
        return self._repository.list_keys(organization_id)

    def environment_keys(self, tenant: Tenant, *, limit: int = 25, after: str | None = None) -> KeyPage:
        """One page of an environment's keys (revoked ones too), newest first; `after` is the id of the
        last key of the page before."""
        keys = self._repository.environment_keys(tenant.organization_id, tenant.environment, limit + 1, after)
        shown = keys[:limit]
        return KeyPage(shown, shown[-1].id if len(keys) > limit else None)

    def environment_key(self, tenant: Tenant, key_id: str) -> ApiKey:
        """A key of this environment; a key of another one is not found."""
        return self._environment_key(tenant, key_id)[1]

    def revoke_environment_key(self, tenant: Tenant, key_id: str) -> ApiKey:
        """Revoke a key of this environment; a key of another one is not found."""
        key_hash, _ = self._environment_key(tenant, key_id)
        return self._repository.mark_key_revoked(key_hash, iso(utc_now()))

    def _environment_key(self, tenant: Tenant, key_id: str) -> tuple[str, ApiKey]:
        key_hash = self._repository.get_key_hash_by_id(key_id)
        record = self._repository.get_key_by_hash(key_hash) if key_hash else None
        if key_hash is None or record is None or record.tenant != tenant:
            raise NotFound(f"no API key '{key_id}'")
        return key_hash, record

    def organization(self, organization_id: str) -> Organization:
        organization = self._repository.get_organization(organization_id)
        if organization is None:
            raise NotFound(f"no organization '{organization_id}'")
        return organization

    def set_limits(self, organization_id: str, limits: RequestLimits | None) -> Organization:
        """An organization's own request limits, effective on the next request of each of its keys;
        None goes back to the defaults."""
        self.organization(organization_id)
        self._repository.set_limits(organization_id, limits)
        return self.organization(organization_id)

    def authenticate(self, presented: str | None) -> ApiKey:
        """The stored key record for a presented key; Unauthorized when missing, unknown or revoked."""
        if not presented:
            raise Unauthorized("missing API key: send 'Authorization: Bearer <key>' or 'Api-Key: <key>'")
        record = self._repository.get_key_by_hash(hash_key(presented.strip()))
        if record is None:
            raise Unauthorized("invalid API key")
        if record.revoked_at is not None:
            raise Unauthorized("this API key has been revoked")
        return record
