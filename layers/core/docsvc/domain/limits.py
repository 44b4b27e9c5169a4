"""Request limits: how many requests a second each organization and each API key may send.

Two limits hold at once, each counted in one-second windows: one for every key of an organization in
one environment together (so a load test with test keys never slows production), and one for each key
alone (so one runaway client cannot take its organization's whole share). A request over either is
refused with 429, `Retry-After` and a sentence naming the limit it hit; a refused request is not
counted. The defaults are DEFAULT_LIMITS; an operator sets an organization's own limits
(`docsvc admin orgs limits`), stored on the organization and carried by each of its keys, so a request
reads nothing more than its key to know its limits.
"""

from __future__ import annotations

import math
import time
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from docsvc.errors import TooManyRequests
from docsvc.tenancy import Tenant

WINDOW_SECONDS = 1
MAX_REQUESTS_PER_SECOND = 1000  # what an operator may set: the writes a second one DynamoDB item takes


class RequestLimits(BaseModel):
    """Requests a second: of all keys of an organization in one environment, and of each key."""

    organization_per_second: int = Field(ge=1, le=MAX_REQUESTS_PER_SECOND)
    key_per_second: int = Field(ge=1, le=MAX_REQUESTS_PER_SECOND)


DEFAULT_LIMITS = RequestLimits(organization_per_second=100, key_per_second=50)

LimitName = Literal["organization", "key"]


class RequestCounter(Protocol):
    def count(self, tenant: Tenant, key_id: str, window: int, limits: RequestLimits) -> LimitName | None:
        """Count one request of the key in the window (a Unix second) unless the organization's or the
        key's count there has reached its limit; the limit reached (nothing counted), else None."""
        ...


class RequestLimiter:
    def __init__(self, counter: RequestCounter) -> None:
        self._counter = counter

    def admit(self, tenant: Tenant, key_id: str, limits: RequestLimits | None) -> None:
        """Count the request, or refuse it with TooManyRequests naming the limit it is over."""
        limits = limits or DEFAULT_LIMITS
        now = _now()
        window = int(now) // WINDOW_SECONDS * WINDOW_SECONDS
        reached = self._counter.count(tenant, key_id, window, limits)
        if reached is None:
            return
        retry_after = max(1, math.ceil(window + WINDOW_SECONDS - now))
        if reached == "organization":
            message = (
                f"too many requests: this organization may send {limits.organization_per_second} requests "
                f"a second in its {tenant.environment} environment, with all its keys together"
            )
            limit = limits.organization_per_second
        else:
            message = f"too many requests: this API key may send {limits.key_per_second} requests a second"
            limit = limits.key_per_second
        raise TooManyRequests(
            f"{message}; send again after {retry_after} s", retry_after, limit=reached, limit_per_second=limit
        )


def _now() -> float:
    return time.time()
