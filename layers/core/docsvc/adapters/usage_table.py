"""Usage counters in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `DAY#<YYYY-MM-DD>`, atomic ADDs."""

from __future__ import annotations

from decimal import Decimal

from docsvc.adapters import aws
from docsvc.clock import utc_now
from docsvc.config import settings
from docsvc.domain.usage import is_billable
from docsvc.tenancy import Tenant


class DynamoUsageRecorder(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().usage_table)

    def record(self, tenant: Tenant, *, pages: int, credits: float) -> None:
        day = utc_now().date().isoformat()
        self._table.update_item(
            Key={"pk": tenant.key, "sk": f"DAY#{day}"},
            UpdateExpression="ADD pages :pages, credits :credits, operations :one "
            "SET billable = :billable, environment = :environment, #day = :day",
            ExpressionAttributeNames={"#day": "day"},
            ExpressionAttributeValues={
                ":pages": pages,
                ":credits": Decimal(str(credits)),
                ":one": 1,
                ":billable": is_billable(tenant),
                ":environment": tenant.environment,
                ":day": day,
            },
        )
