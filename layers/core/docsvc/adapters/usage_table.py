"""Usage counters in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `DAY#<YYYY-MM-DD>`, atomic ADDs."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from docsvc.clock import utc_now
from docsvc.config import settings
from docsvc.domain.usage import Charge, is_billable
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
