"""The event log in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `EVT#<id>` (ids are time-ordered).

Events are written in the same transaction as the state change that caused them (see the tables of the
resources that emit them); `event_put` is that transaction's item.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo_pages import Listing, list_page
from docsvc.adapters.dynamo_values import from_dynamo, to_dynamo
from docsvc.config import settings
from docsvc.domain.events import Event, EventQuery
from docsvc.domain.lists import Page
from docsvc.tenancy import Tenant

EVENT = "EVT#"


def event_put(tenant: Tenant, event: Event) -> dict[str, Any]:
    """A TransactWriteItems entry that records `event` once."""
    return {
        "Put": {
            "TableName": settings().events_table,
            "Item": to_dynamo(
                {"pk": tenant.key, "sk": EVENT + event.id, "type": event.type, **event.model_dump()}
            ),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }


class DynamoEventLog(aws.DynamoTable):
    """The environment's event log, read newest first by key."""

    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().events_table)

    def get(self, tenant: Tenant, event_id: str) -> Event | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": EVENT + event_id}).get("Item")
        return _event(item) if item else None

    def list(self, tenant: Tenant, query: EventQuery) -> Page[Event]:
        listing = Listing(tenant.key, EVENT, "evt", tenant.key)
        if not query.type:
            return list_page(self._table, listing, query).of(_event)
        exact = not query.type.endswith("*")  # an exact type, or a family with a trailing '*' ("job.*")
        page = list_page(
            self._table,
            listing,
            query,
            filter_expression="#type = :type" if exact else "begins_with(#type, :type)",
            filter_values={":type": query.type if exact else query.type[:-1]},
            filter_names={"#type": "type"},
        )
        return page.of(_event)


def _event(item: dict[str, Any]) -> Event:
    return Event.model_validate(
        {key: value for key, value in from_dynamo(item).items() if key in Event.model_fields}
    )
