"""Events: what happened in one environment, recorded with the state change that caused it.

Delivery to webhook receivers reads this log; an event never leaves its environment.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from docsvc.clock import iso, utc_now
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
