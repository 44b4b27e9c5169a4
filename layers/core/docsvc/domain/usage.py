"""Usage: pages and credits per organization, environment and day.

A charge is written in the same transaction as the state change that earns it, so a finished
operation is counted exactly once. Test usage is recorded like production usage but marked not
billable (spec 5 rule 8).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol

from pydantic import BaseModel

from docsvc.clock import utc_now
from docsvc.errors import InvalidField
from docsvc.tenancy import Environment, Tenant

MAX_DAYS = 366
DEFAULT_DAYS = 30


@dataclass(frozen=True)
class Charge:
    pages: int
    credits: float


def is_billable(tenant: Tenant) -> bool:
    return tenant.environment == "production"


class UsageDay(BaseModel):
    day: str  # YYYY-MM-DD, UTC
    environment: Environment
    pages: int
    credits: float
    operations: int
    billable: bool


class UsageLedger(Protocol):
    def days(self, tenant: Tenant, first: date, last: date) -> list[UsageDay]: ...


class UsageService:
    def __init__(self, ledger: UsageLedger) -> None:
        self._ledger = ledger

    def days(
        self, tenant: Tenant, first: date | None = None, last: date | None = None
    ) -> tuple[date, date, list[UsageDay]]:
        """The tenant's usage per day from `first` to `last` (inclusive; by default the DEFAULT_DAYS up
        to today, UTC), days without usage left out; and the range it covers."""
        last = last or utc_now().date()
        first = first or last - timedelta(days=DEFAULT_DAYS)
        if first > last:
            raise InvalidField(("query", "from_date"), "from_date is after to_date")
        if (last - first).days >= MAX_DAYS:
            raise InvalidField(("query", "to_date"), f"ask for at most {MAX_DAYS} days at a time")
        return first, last, self._ledger.days(tenant, first, last)
