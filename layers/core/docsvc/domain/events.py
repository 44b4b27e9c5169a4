"""Events: what happened in one environment, recorded with the state change that caused it.

Delivery to webhook receivers reads this log; an event never leaves its environment.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel

from docsvc.clock import iso, utc_now
from docsvc.domain.lists import ListQuery, Page
from docsvc.errors import NotFound
from docsvc.ids import new_id
from docsvc.tenancy import Environment, Tenant


class Event(BaseModel):
    id: str
    type: str
    environment: Environment
    organization_id: str
    created_at: str
    data: dict[str, Any]


def new_event(tenant: Tenant, event_type: str, data: dict[str, Any]) -> Event:
    return Event(
        id=new_id("evt"),
        type=event_type,
        environment=tenant.environment,
        organization_id=tenant.organization_id,
        created_at=iso(utc_now()),
        data=data,
    )


class EventQuery(ListQuery):
    type: str | None = None  # exact, or a family: "job.*" (the type without its last part, then ".*")


class EventLog(Protocol):
    def get(self, tenant: Tenant, event_id: str) -> Event | None: ...
    def list(self, tenant: Tenant, query: EventQuery) -> Page[Event]: ...


class EventService:
    """The event log of an environment, as its keys read it (`GET /v1/events`)."""

    def __init__(self, log: EventLog) -> None:
        self._log = log

    def get(self, tenant: Tenant, event_id: str) -> Event:
        event = self._log.get(tenant, event_id)
        if event is None:
            raise NotFound(f"no event '{event_id}'")
        return event

    def list(self, tenant: Tenant, query: EventQuery) -> Page[Event]:
        query.check()
        return self._log.list(tenant, query)
