"""The event log in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `EVT#<id>` (ids are time-ordered).
Indexes `events_by_type` (a partition per tenant and type) and `events_by_family` (per tenant and the
type without its last part: `job` for `job.completed`) answer the type filters by key.

Events are written in the same transaction as the state change that caused them (see the tables of the
resources that emit them); `event_put` is that transaction's item. With the EventRetentionDays
deployment parameter set, each event carries `ttl` (its `created_at` plus that many days), and DynamoDB's
TTL deletes it then; by default events are kept.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.values import from_dynamo, retention, to_dynamo
from docsvc.config import settings
from docsvc.domain.events import Event, EventQuery
from docsvc.domain.lists import Page
from docsvc.observability import current_request_id
from docsvc.tenancy import Tenant

EVENT = "EVT#"


def event_put(tenant: Tenant, event: Event) -> dict[str, Any]:
    """A TransactWriteItems entry that records `event` once, with the request id of the work that
    caused it (not part of the event: the webhook dispatcher reads it from the stream, to log by it and
    carry it on to the deliveries)."""
    request_id = current_request_id()
    return {
        "Put": {
            "TableName": settings().events_table,
            "Item": to_dynamo(
                {
                    "pk": tenant.key,
                    "sk": EVENT + event.id,
                    "type_pk": f"{tenant.key}#TYPE#{event.type}",
                    "family_pk": f"{tenant.key}#FAMILY#{family_of(event.type)}",
                    **event.model_dump(),
                    **({"request_id": request_id} if request_id else {}),
                    **retention(event.created_at, settings().event_retention_days),
                }
            ),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }


def family_of(event_type: str) -> str:
    return event_type.rpartition(".")[0] or event_type


class DynamoEventLog(aws.DynamoTable):
    """The environment's event log, read newest first by key."""

    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().events_table)

    def get(self, tenant: Tenant, event_id: str) -> Event | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": EVENT + event_id}).get("Item")
        return _event(item) if item else None

    def list(self, tenant: Tenant, query: EventQuery) -> Page[Event]:
        if not query.type:
            listing = Listing(tenant.key, EVENT, "evt", tenant.key)
        elif query.type.endswith(".*"):  # a family: "job.*"
            family = f"{tenant.key}#FAMILY#{query.type[:-2]}"
            listing = Listing(tenant.key, EVENT, "evt", family, key="family_pk", index="events_by_family")
        else:
            kind = f"{tenant.key}#TYPE#{query.type}"
            listing = Listing(tenant.key, EVENT, "evt", kind, key="type_pk", index="events_by_type")
        return list_page(self._table, listing, query).of(_event)


def _event(item: dict[str, Any]) -> Event:
    return Event.model_validate(
        {key: value for key, value in from_dynamo(item).items() if key in Event.model_fields}
    )


def event_of_image(image: dict[str, Any]) -> Event | None:
    """The event in a stream record's NewImage (DynamoDB's typed JSON); None for any other item."""
    from boto3.dynamodb.types import TypeDeserializer

    deserializer = TypeDeserializer()
    item = {name: deserializer.deserialize(value) for name, value in image.items()}
    if not str(item.get("sk", "")).startswith(EVENT):
        return None
    return _event(item)
