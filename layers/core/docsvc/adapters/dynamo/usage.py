"""Usage counters in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `DAY#<YYYY-MM-DD>#OP#<operation>`
(one item an operation a day; items of `DAY#<YYYY-MM-DD>` alone were written before operations were
counted apart, and count in the day's totals only), atomic ADDs of operations, pages, credits and
tokens. A day's items are one key range, so a range of days is one query."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.values import from_dynamo
from docsvc.clock import utc_now
from docsvc.config import settings
from docsvc.domain.usage import Charge, OperationUsage, UsageDay, is_billable
from docsvc.tenancy import Tenant

_COUNTERS = ("operations", "pages", "credits", "input_tokens", "output_tokens")


def _update(tenant: Tenant, charge: Charge) -> dict[str, Any]:
    day = utc_now().date().isoformat()
    return {
        "Key": {"pk": tenant.key, "sk": f"DAY#{day}#OP#{charge.operation}"},
        "UpdateExpression": "ADD pages :pages, credits :credits, operations :one, "
        "input_tokens :input_tokens, output_tokens :output_tokens "
        "SET billable = :billable, environment = :environment, #day = :day, operation = :operation",
        "ExpressionAttributeNames": {"#day": "day"},
        "ExpressionAttributeValues": {
            ":pages": charge.pages,
            ":credits": Decimal(str(charge.credits)),
            ":one": 1,
            ":input_tokens": charge.input_tokens,
            ":output_tokens": charge.output_tokens,
            ":billable": is_billable(tenant),
            ":environment": tenant.environment,
            ":day": day,
            ":operation": charge.operation,
        },
    }


def usage_add(tenant: Tenant, charge: Charge) -> dict[str, Any]:
    """A TransactWriteItems entry that adds `charge` to the tenant's counters of today."""
    return {"Update": {"TableName": settings().usage_table, **_update(tenant, charge)}}


class DynamoUsageLedger(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().usage_table)

    def add(self, tenant: Tenant, charge: Charge) -> None:
        self._table.meta.client.update_item(TableName=self._table_name, **_update(tenant, charge))

    def days(self, tenant: Tenant, first: date, last: date) -> list[UsageDay]:
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :first AND :last",
            "ExpressionAttributeValues": {
                ":pk": tenant.key,
                ":first": f"DAY#{first.isoformat()}",
                ":last": f"DAY#{last.isoformat()}#~",  # after every operation of the last day
            },
        }
        found: dict[str, UsageDay] = {}
        while True:
            response = self._table.query(**params)
            for item in map(from_dynamo, response["Items"]):
                counted = OperationUsage(**{name: item.get(name, 0) for name in _COUNTERS})
                day = found.setdefault(
                    item["day"],
                    UsageDay(
                        day=item["day"],
                        environment=tenant.environment,
                        pages=0,
                        credits=0,
                        operations=0,
                        billable=bool(item.get("billable", False)),
                    ),
                )
                for name in _COUNTERS:
                    setattr(day, name, getattr(day, name) + getattr(counted, name))
                if "operation" in item:
                    day.by_operation[item["operation"]] = counted
            if "LastEvaluatedKey" not in response:
                return list(found.values())
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]
