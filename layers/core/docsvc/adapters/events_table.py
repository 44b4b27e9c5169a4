"""The event log in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `EVT#<id>` (ids are time-ordered).

Events are written in the same transaction as the state change that caused them (see the tables of the
resources that emit them); `event_put` is that transaction's item.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters.dynamo_values import to_dynamo
from docsvc.config import settings
from docsvc.domain.events import Event
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
