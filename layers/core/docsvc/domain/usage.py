"""Usage: pages and credits per organization, environment and day.

A charge is written in the same transaction as the state change that earns it, so a finished
operation is counted exactly once. Test usage is recorded like production usage but marked not
billable (spec 5 rule 8).
"""

from __future__ import annotations

from dataclasses import dataclass

from docsvc.tenancy import Tenant


@dataclass(frozen=True)
class Charge:
    pages: int
    credits: float


def is_billable(tenant: Tenant) -> bool:
    return tenant.environment == "production"
