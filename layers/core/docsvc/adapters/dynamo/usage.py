"""Usage counters in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `DAY#<YYYY-MM-DD>`, atomic ADDs."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.values import from_dynamo
from docsvc.clock import utc_now
from docsvc.config import settings
from docsvc.domain.usage import Charge, UsageDay, is_billable
from docsvc.tenancy import Tenant


def usage_add(tenant: Tenant, charge: Charge) -> dict[str, Any]:
    """A TransactWriteItems entry that adds `charge` to the tenant's counters of today."""
    day = utc_now().date().isoformat()
    return {
        "Update": {
            "TableName": settings().usage_table,
            "Key": {"pk": tenant.key, "sk": f"DAY#{day}"},
            "UpdateExpression": "ADD pages :pages, credits :credits, operations :one "
            "SET billable = :billable, environment = :environment, #day = :day",
            "ExpressionAttributeNames": {"#day": "day"},
            "ExpressionAttributeValues": {
                ":pages": charge.pages,
                ":credits": Decimal(str(charge.credits)),
                ":one": 1,
                ":billable": is_billable(tenant),
                ":environment": tenant.environment,
                ":day": day,
            },
        }
    }


class DynamoUsageLedger(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().usage_table)

    def days(self, tenant: Tenant, first: date, last: date) -> list[UsageDay]:
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :first AND :last",
            "ExpressionAttributeValues": {
                ":pk": tenant.key,
                ":first": f"DAY#{first.isoformat()}",
                ":last": f"DAY#{last.isoformat()}",
            },
        }
        found: list[UsageDay] = []
        while True:
            response = self._table.query(**params)
            for item in map(from_dynamo, response["Items"]):
                found.append(
                    UsageDay(
                        day=item["day"],
                        environment=tenant.environment,
                        pages=item.get("pages", 0),
                        credits=item.get("credits", 0),
                        operations=item.get("operations", 0),
                        billable=bool(item.get("billable", False)),
                    )
                )
            if "LastEvaluatedKey" not in response:
                return found
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]
