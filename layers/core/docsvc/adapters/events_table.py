"""The event log in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `EVT#<id>` (ids are time-ordered).

Events are written in the same transaction as the state change that caused them (see the tables of the
resources that emit them); `event_put` is that transaction's item.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo_pages import query_page
from docsvc.adapters.dynamo_values import from_dynamo, to_dynamo
from docsvc.clock import to_millis
from docsvc.config import settings
from docsvc.domain.events import Event, EventQuery
from docsvc.domain.lists import Page
from docsvc.ids import id_ceiling, id_floor
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
        low = id_floor("evt", to_millis(query.from_date)) if query.from_date else ""
        high = id_ceiling("evt", to_millis(query.to_date)) if query.to_date else "~"
        values: dict[str, Any] = {":pk": tenant.key, ":low": EVENT + low, ":high": EVENT + high}
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
            "ExpressionAttributeValues": values,
        }
        if query.type:  # an exact type, or a family with a trailing '*' ("job.*")
            exact = not query.type.endswith("*")
            params["FilterExpression"] = "#type = :type" if exact else "begins_with(#type, :type)"
            params["ExpressionAttributeNames"] = {"#type": "type"}
            values[":type"] = query.type if exact else query.type[:-1]

        def cursor(event_id: str | None) -> dict[str, Any] | None:
            return {"pk": tenant.key, "sk": EVENT + event_id} if event_id else None

        page = query_page(
            self._table,
            params,
            limit=query.limit,
            ascending=query.order == "asc",
            after=cursor(query.after),
            before=cursor(query.before),
        )
        return Page[Event](
            items=[_event(item) for item in page.items],
            has_previous=page.has_previous,
            has_next=page.has_next,
        )


def _event(item: dict[str, Any]) -> Event:
    return Event.model_validate(
        {key: value for key, value in from_dynamo(item).items() if key in Event.model_fields}
    )
