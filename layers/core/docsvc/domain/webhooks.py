"""Webhook endpoints and signing secrets, per organization and environment (spec 6).

An environment's events go only to that environment's endpoints, signed only with that environment's
secret: everything here is read and written under the tenant, so a test key never sees, changes or
signs with anything of production.
"""

from __future__ import annotations

import ipaddress
import secrets as random_tokens
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from pydantic import BaseModel

from docsvc.clock import iso, utc_now
from docsvc.domain.secrets import SecretResolver, SecretVault
from docsvc.errors import BadRequest, DocumentRejected, InvalidField, NotFound
from docsvc.ids import new_id
from docsvc.tenancy import Environment, Tenant

EVENT_TYPES = (
    "parse.completed",
    "parse.failed",
    "parse.cancelled",
    "job.completed",
    "job.failed",
    "job.cancelled",
    "job.expired",
    "workflow.run.completed",
    "workflow.run.failed",
    "eval.iteration.completed",
)
EVENT_FAMILIES = tuple(sorted({kind.rpartition(".")[0] + ".*" for kind in EVENT_TYPES}))
MAX_ENDPOINTS = 16
MAX_URL_LENGTH = 2048
MAX_DESCRIPTION_LENGTH = 500
ROTATION_OVERLAP = timedelta(hours=24)
SIGNING_SECRET_NAME = "webhooks/signing-secret"  # noqa: S105 - a name; no customer secret's holds a "/"

# The addresses a receiver URL's host resolves to, once each is allowed (the SSRF guard of document
# URLs; loopback only where the deployment allows it); DocumentRejected otherwise.
AddressesOf = Callable[[str], list[str]]


class WebhookEndpoint(BaseModel):
    id: str
    url: str
    events: list[str] | None  # types or families ("job.*"); None: every event
    enabled: bool
    description: str | None
    disabled_reason: str | None = None  # why the service turned it off (a 410 Gone answer)
    environment: Environment
    created_at: str
    updated_at: str

    def wants(self, event_type: str) -> bool:
        if not self.enabled:
            return False
        if self.events is None:
            return True
        family = event_type.rpartition(".")[0] + ".*"
        return event_type in self.events or family in self.events


class EndpointStore(Protocol):
    def put_endpoint(self, tenant: Tenant, endpoint: WebhookEndpoint, *, new: bool) -> bool: ...
    def get_endpoint(self, tenant: Tenant, endpoint_id: str) -> WebhookEndpoint | None: ...
    def endpoints(self, tenant: Tenant) -> list[WebhookEndpoint]: ...
    def delete_endpoint(self, tenant: Tenant, endpoint_id: str) -> bool: ...


def checked_events(events: list[str] | None) -> list[str] | None:
    if events is None:
        return None
    if not events:
        raise InvalidField(("body", "events"), "name at least one event type, or leave 'events' out for all")
    unknown = [kind for kind in events if kind not in EVENT_TYPES and kind not in EVENT_FAMILIES]
    if unknown:
        raise InvalidField(
            ("body", "events"),
            f"unknown event type {unknown[0]!r}; known: {', '.join(EVENT_TYPES + EVENT_FAMILIES)}",
        )
    return sorted(set(events))


def checked_description(description: str | None) -> str | None:
    if description is not None and len(description) > MAX_DESCRIPTION_LENGTH:
        raise InvalidField(
            ("body", "description"), f"a description holds at most {MAX_DESCRIPTION_LENGTH} characters"
        )
    return description


class EndpointService:
    """`/v1/webhooks/endpoints`: where an environment's events are delivered."""

    def __init__(self, store: EndpointStore, addresses_of: AddressesOf) -> None:
        self._store = store
        self._addresses_of = addresses_of

    def _checked_url(self, tenant: Tenant, url: str) -> str:
        """A URL the service may POST to. Production receivers use https (loopback ones aside, where
        the deployment allows them: a local stack)."""
        if len(url) > MAX_URL_LENGTH:
            raise InvalidField(("body", "url"), f"a URL holds at most {MAX_URL_LENGTH} characters")
        try:
            addresses = self._addresses_of(url)
        except DocumentRejected as refusal:
            message = f"this receiver URL is not allowed: {refusal.message}"
            raise InvalidField(("body", "url"), message) from None
        local = all(ipaddress.ip_address(address).is_loopback for address in addresses)
        if tenant.environment == "production" and not url.lower().startswith("https://") and not local:
            raise InvalidField(("body", "url"), "a production webhook endpoint needs an https:// URL")
        return url

    def create(
        self,
        tenant: Tenant,
        url: str,
        events: list[str] | None = None,
        enabled: bool = True,
        description: str | None = None,
    ) -> WebhookEndpoint:
        if len(self._store.endpoints(tenant)) >= MAX_ENDPOINTS:
            raise BadRequest(
                f"an environment has at most {MAX_ENDPOINTS} webhook endpoints; delete one to add another"
            )
        now = iso(utc_now())
        endpoint = WebhookEndpoint(
            id=new_id("whe"),
            url=self._checked_url(tenant, url),
            events=checked_events(events),
            enabled=enabled,
            description=checked_description(description),
            environment=tenant.environment,
            created_at=now,
            updated_at=now,
        )
        self._store.put_endpoint(tenant, endpoint, new=True)
        return endpoint

    def get(self, tenant: Tenant, endpoint_id: str) -> WebhookEndpoint:
        endpoint = self._store.get_endpoint(tenant, endpoint_id)
        if endpoint is None:
            raise NotFound(f"no webhook endpoint '{endpoint_id}'")
        return endpoint

    def list(self, tenant: Tenant) -> list[WebhookEndpoint]:
        return sorted(self._store.endpoints(tenant), key=lambda endpoint: endpoint.id)

    def update(self, tenant: Tenant, endpoint_id: str, changes: dict[str, object]) -> WebhookEndpoint:
        """PATCH: only the fields given change. Enabling clears the reason the service disabled it."""
        current = self.get(tenant, endpoint_id)
        for field in ("url", "enabled"):
            if field in changes and changes[field] is None:
                raise InvalidField(("body", field), f"{field} cannot be null; leave it out to keep it")
        update: dict[str, object] = {"updated_at": iso(utc_now())}
        if "url" in changes:
            update["url"] = self._checked_url(tenant, str(changes["url"]))
        if "events" in changes:
            update["events"] = checked_events(changes["events"])  # type: ignore[arg-type]
        if "description" in changes:
            update["description"] = checked_description(changes["description"])  # type: ignore[arg-type]
        if "enabled" in changes:
            update["enabled"] = bool(changes["enabled"])
            if changes["enabled"]:
                update["disabled_reason"] = None
        endpoint = current.model_copy(update=update)
        if not self._store.put_endpoint(tenant, endpoint, new=False):
            raise NotFound(f"no webhook endpoint '{endpoint_id}'")
        return endpoint

    def delete(self, tenant: Tenant, endpoint_id: str) -> None:
        if not self._store.delete_endpoint(tenant, endpoint_id):
            raise NotFound(f"no webhook endpoint '{endpoint_id}'")


class SigningSecret(BaseModel):
    """What Secrets Manager holds for an environment: the secret, and the one it replaced while that
    one still signs (ROTATION_OVERLAP after the rotation)."""

    secret: str
    created_at: str
    previous: str | None = None
    previous_expires_at: str | None = None

    def signing(self, now: datetime) -> list[str]:
        """The secrets that sign a delivery made `now`, the newest first."""
        overlapping = self.previous and self.previous_expires_at and iso(now) < self.previous_expires_at
        return [self.secret, self.previous] if overlapping and self.previous else [self.secret]


def new_signing_secret() -> str:
    return "whsec_" + random_tokens.token_urlsafe(32)


class SigningSecrets:
    """The signing secret of each environment, in Secrets Manager, made on first use. Reads go through
    the secret resolver's short cache; a rotation made in this process forgets it at once."""

    def __init__(self, vault: SecretVault, resolver: SecretResolver) -> None:
        self._vault = vault
        self._resolver = resolver

    def current(self, tenant: Tenant) -> SigningSecret:
        try:
            return SigningSecret.model_validate_json(self._resolver.resolve(tenant, SIGNING_SECRET_NAME))
        except NotFound:
            pass
        first = SigningSecret(secret=new_signing_secret(), created_at=iso(utc_now()))
        if not self._vault.create(tenant, SIGNING_SECRET_NAME, first.model_dump_json()):
            self._resolver.forget(tenant, SIGNING_SECRET_NAME)  # another request made it first
            return SigningSecret.model_validate_json(self._resolver.resolve(tenant, SIGNING_SECRET_NAME))
        return first

    def rotate(self, tenant: Tenant) -> SigningSecret:
        """A new secret; the one it replaces keeps signing beside it for ROTATION_OVERLAP."""
        old = self.current(tenant)
        now = utc_now()
        rotated = SigningSecret(
            secret=new_signing_secret(),
            created_at=iso(now),
            previous=old.secret,
            previous_expires_at=iso(now + ROTATION_OVERLAP),
        )
        self._vault.write(tenant, SIGNING_SECRET_NAME, rotated.model_dump_json())
        self._resolver.forget(tenant, SIGNING_SECRET_NAME)
        return rotated

    def signing(self, tenant: Tenant) -> list[str]:
        return self.current(tenant).signing(utc_now())


class SigningSecretView(BaseModel):
    """`GET /v1/webhooks/signing-secret`: the environment's secret (the replaced one is never shown)."""

    signing_secret: str
    environment: Environment
    created_at: str
    previous_secret_expires_at: str | None  # while the replaced secret still signs beside this one

    @classmethod
    def of(cls, tenant: Tenant, secret: SigningSecret) -> SigningSecretView:
        overlapping = len(secret.signing(utc_now())) > 1
        return cls(
            signing_secret=secret.secret,
            environment=tenant.environment,
            created_at=secret.created_at,
            previous_secret_expires_at=secret.previous_expires_at if overlapping else None,
        )
