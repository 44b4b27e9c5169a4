"""Usage: pages, credits and remote-model tokens per organization, environment, day and operation.

Every billable operation adds one entry, its charge, to the counters of its operation and day: a
parse, an extraction, a classification, a split, a partition, a schema generation, a deep research,
an edit (a fill of a document or of a template), and each extraction of an eval. A workflow run is
charged through its steps: each document block runs as a job of its endpoint, charged as that
operation. A charge that goes with a stored record (a parse, a result, an edit) is written in the same
transaction as the record, so a finished operation is counted exactly once; an operation that stores
nothing (a schema generation, a deep research) adds its charge alone once it has its answer.

Test usage is recorded like production usage but marked not billable (spec 5 rule 8): `billable` is
decided by the environment of the charge, never by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal, Protocol, get_args

from pydantic import BaseModel, Field

from docsvc.clock import utc_now
from docsvc.errors import InvalidField
from docsvc.tenancy import Environment, Tenant

MAX_DAYS = 366
DEFAULT_DAYS = 30

UsageOperation = Literal[
    "parse",
    "extraction",
    "classification",
    "split",
    "partition",
    "schema_generation",
    "deep_research",
    "edit",
    "eval",
]
OPERATIONS: tuple[str, ...] = get_args(UsageOperation)


@dataclass(frozen=True)
class Charge:
    pages: int
    credits: float
    operation: UsageOperation
    input_tokens: int = 0  # what a remote model's provider counted; 0 for built-in models
    output_tokens: int = 0


def is_billable(tenant: Tenant) -> bool:
    return tenant.environment == "production"


class OperationUsage(BaseModel):
    """One operation's share of a day."""

    operations: int = 0
    pages: int = 0
    credits: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0


class UsageDay(BaseModel):
    day: str  # YYYY-MM-DD, UTC
    environment: Environment
    pages: int
    credits: float
    operations: int
    input_tokens: int = 0
    output_tokens: int = 0
    billable: bool
    by_operation: dict[str, OperationUsage] = Field(
        default_factory=dict, description="The day's usage per operation (those with any)."
    )


class UsageLedger(Protocol):
    def add(self, tenant: Tenant, charge: Charge) -> None:
        """Add a charge that goes with no stored record to today's counters of the tenant."""
        ...

    def days(self, tenant: Tenant, first: date, last: date) -> list[UsageDay]: ...


def checked_operation(operation: str | None) -> UsageOperation | None:
    """`operation` if it is one the ledger counts (None for all); else a 422 naming them."""
    if operation is None or operation in OPERATIONS:
        return operation  # type: ignore[return-value]
    raise InvalidField(
        ("query", "operation"), f"unknown operation '{operation}'; known: {', '.join(OPERATIONS)}"
    )


class UsageService:
    def __init__(self, ledger: UsageLedger) -> None:
        self._ledger = ledger

    def add(self, tenant: Tenant, charge: Charge) -> None:
        self._ledger.add(tenant, charge)

    def days(
        self,
        tenant: Tenant,
        first: date | None = None,
        last: date | None = None,
        operation: str | None = None,
    ) -> tuple[date, date, list[UsageDay]]:
        """The tenant's usage per day from `first` to `last` (inclusive; by default the DEFAULT_DAYS up
        to today, UTC), of every operation or of `operation` only, days without usage left out; and the
        range it covers."""
        wanted = checked_operation(operation)
        last = last or utc_now().date()
        first = first or last - timedelta(days=DEFAULT_DAYS)
        if first > last:
            raise InvalidField(("query", "from_date"), "from_date is after to_date")
        if (last - first).days >= MAX_DAYS:
            raise InvalidField(("query", "to_date"), f"ask for at most {MAX_DAYS} days at a time")
        days = self._ledger.days(tenant, first, last)
        if wanted is None:
            return first, last, days
        return first, last, [only for day in days if (only := _only(day, wanted)) is not None]


def _only(day: UsageDay, operation: str) -> UsageDay | None:
    share = day.by_operation.get(operation)
    if share is None:
        return None
    return day.model_copy(
        update={**share.model_dump(), "by_operation": {operation: share}},
    )
