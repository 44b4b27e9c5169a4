"""Usage: pages and credits per organization, environment and day.

Test usage is recorded like production usage but marked not billable (spec 5 rule 8).
"""

from __future__ import annotations

from typing import Protocol

from docsvc.tenancy import Tenant


def is_billable(tenant: Tenant) -> bool:
    return tenant.environment == "production"


class UsageRecorder(Protocol):
    def record(self, tenant: Tenant, *, pages: int, credits: float) -> None: ...
