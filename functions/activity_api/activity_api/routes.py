"""Routes of /v1/events and /v1/usage: what happened in the caller's environment, and what it used."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.events import Event, EventQuery, EventService
from docsvc.domain.usage import OPERATIONS, UsageDay, UsageService
from docsvc.endpoints.lists import ListMetadata
from docsvc.services import event_service, usage_service
from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel

router = APIRouter(prefix="/v1")
Events = Annotated[EventService, Depends(event_service)]
Usage = Annotated[UsageService, Depends(usage_service)]


class EventList(BaseModel):
    data: list[Event]
    list_metadata: ListMetadata


class UsageAnswer(BaseModel):
    object: str = "usage"
    from_date: date
    to_date: date
    data: list[UsageDay]


@router.get("/events", response_model=EventList, tags=["events"], summary="The environment's events")
def list_events(
    tenant: CurrentTenant,
    events: Events,
    paging: Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))],
    type: Annotated[
        str | None, Query(max_length=100, description='An event type, or a family: "job.*".')
    ] = None,
) -> EventList:
    page = events.list(tenant, EventQuery(**paging, type=type))
    return EventList(data=page.items, list_metadata=ListMetadata.of(page))


@router.get("/events/{event_id}", response_model=Event, tags=["events"], summary="One event")
def get_event(tenant: CurrentTenant, events: Events, event_id: str) -> Event:
    return events.get(tenant, event_id)


@router.get(
    "/usage",
    response_model=UsageAnswer,
    tags=["usage"],
    summary="Pages, credits and tokens per day and operation",
)
def get_usage(
    tenant: CurrentTenant,
    usage: Usage,
    from_date: Annotated[
        date | None, Query(description="YYYY-MM-DD; 30 days before to_date if omitted.")
    ] = None,
    to_date: Annotated[
        date | None, Query(description="YYYY-MM-DD, inclusive; today (UTC) if omitted.")
    ] = None,
    operation: Annotated[
        str | None,
        Query(max_length=100, description=f"Only this operation's usage: one of {', '.join(OPERATIONS)}."),
    ] = None,
) -> UsageAnswer:
    first, last, days = usage.days(tenant, from_date, to_date, operation)
    return UsageAnswer(from_date=first, to_date=last, data=days)
