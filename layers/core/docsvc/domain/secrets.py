"""Secrets: values a customer keeps for its workflows and models, per organization and environment
(spec 2.6, 4.5). Only metadata is ever answered; the value is read back only by `SecretResolver`,
inside the service, for `secret://NAME` references of the same organization and environment.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.errors import Conflict, InvalidField, NotFound
from docsvc.names import REFERENCE_PREFIX, SECRET_NAME_PATTERN
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

MAX_VALUE_BYTES = 65_536  # what AWS Secrets Manager holds
CACHE_SECONDS = 30.0


class SecretMeta(BaseModel):
    name: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    created_by: str
    updated_by: str
    created_at: str
    updated_at: str


# A page of a list: the records, and the cursor of the next page (None on the last).
SecretPage = tuple[list[SecretMeta], str | None]


class SecretRepository(Protocol):
    """Metadata, listed by the tenant's key; a put refuses to overwrite when `new` (False: not stored)."""

    def put(self, tenant: Tenant, meta: SecretMeta, *, new: bool) -> bool: ...
    def get(self, tenant: Tenant, name: str) -> SecretMeta | None: ...
    def list(self, tenant: Tenant) -> list[SecretMeta]: ...
    def page(self, tenant: Tenant, after: str | None, limit: int) -> SecretPage:
        """Up to `limit` secrets in name order after the name `after`; the name the next page follows."""
        ...

    def delete(self, tenant: Tenant, name: str) -> bool: ...


class SecretVault(Protocol):
    """The values, in AWS Secrets Manager under a name that holds the tenant."""

    def write(self, tenant: Tenant, name: str, value: str) -> None: ...
    def create(self, tenant: Tenant, name: str, value: str) -> bool: ...  # False: it exists already
    def read(self, tenant: Tenant, name: str) -> str | None: ...
    def erase(self, tenant: Tenant, name: str) -> None: ...


def check_name(name: str) -> None:
    if not SECRET_NAME_PATTERN.match(name):
        raise InvalidField(
            ("body", "name"),
            "a secret name starts with a letter or an underscore, then up to 127 letters, digits or "
            "underscores",
        )


def check_value(value: str) -> None:
    if not value:
        raise InvalidField(("body", "value"), "a secret needs a value")
    if len(value.encode()) > MAX_VALUE_BYTES:
        raise InvalidField(("body", "value"), f"a secret value holds at most {MAX_VALUE_BYTES} bytes")


class SecretService:
    def __init__(
        self, repository: SecretRepository, vault: SecretVault, on_change: Callable[[Tenant, str], None]
    ) -> None:
        self._repository = repository
        self._vault = vault
        self._on_change = on_change  # a resolver's cache forgets the secret

    def create(self, tenant: Tenant, name: str, value: str, by: str) -> SecretMeta:
        check_name(name)
        check_value(value)
        now = iso(utc_now())
        meta = SecretMeta(
            name=name,
            environment=tenant.environment,
            created_by=by,
            updated_by=by,
            created_at=now,
            updated_at=now,
        )
        if not self._repository.put(tenant, meta, new=True):
            raise Conflict(f"a secret '{name}' exists already in this environment; PUT to change its value")
        try:
            self._vault.write(tenant, name, value)
        except Exception:
            self._repository.delete(tenant, name)  # no metadata without a value
            raise
        return meta

    def set(self, tenant: Tenant, name: str, value: str, by: str) -> tuple[SecretMeta, bool]:
        """Set or rotate: the secret with its new value, and whether it was created."""
        check_name(name)
        check_value(value)
        current = self._repository.get(tenant, name)
        if current is None:
            return self.create(tenant, name, value, by), True
        self._vault.write(tenant, name, value)
        meta = current.model_copy(update={"updated_by": by, "updated_at": iso(utc_now())})
        self._repository.put(tenant, meta, new=False)
        self._on_change(tenant, name)
        return meta, False

    def get(self, tenant: Tenant, name: str) -> SecretMeta:
        meta = self._repository.get(tenant, name)
        if meta is None:
            raise NotFound(f"no secret '{name}' in this environment")
        return meta

    def list(self, tenant: Tenant) -> list[SecretMeta]:
        return self._repository.list(tenant)

    def page(self, tenant: Tenant, after: str | None, limit: int) -> SecretPage:
        """A page of the secrets by name, read by key (for lists shown a page at a time)."""
        return self._repository.page(tenant, after, limit)

    def delete(self, tenant: Tenant, name: str) -> None:
        if not self._repository.delete(tenant, name):
            raise NotFound(f"no secret '{name}' in this environment")
        self._vault.erase(tenant, name)
        self._on_change(tenant, name)


class SecretResolver:
    """`secret://NAME` to its value, for (organization, environment, NAME) only. Values are kept for
    CACHE_SECONDS; a change made through this process's SecretService forgets them at once."""

    def __init__(self, vault: SecretVault, seconds: float = CACHE_SECONDS) -> None:
        self._vault = vault
        self._seconds = seconds
        self._cache: dict[tuple[str, str, str], tuple[float, str]] = {}
        self._lock = threading.Lock()

    def resolve(self, tenant: Tenant, reference: str) -> str:
        name = reference.removeprefix(REFERENCE_PREFIX)
        key = (tenant.organization_id, tenant.environment, name)
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None and time.monotonic() - cached[0] < self._seconds:
            return cached[1]
        value = self._vault.read(tenant, name)
        if value is None:
            raise NotFound(f"no secret '{name}' in the {tenant.environment} environment")
        with self._lock:
            self._cache[key] = (time.monotonic(), value)
        return value

    def forget(self, tenant: Tenant, name: str) -> None:
        with self._lock:
            self._cache.pop((tenant.organization_id, tenant.environment, name), None)
