"""Request counts in DynamoDB (LimitsTable of template.yaml): partition key `pk`, sort
key `sk`, and `ttl` (Unix seconds) for DynamoDB's TTL to delete what is no longer needed.

- `ORG#<org>#ENV#<env>#REQUESTS` / `<window, Unix seconds>`: the requests of one second, `requests` for
  the tenant and `key#<key id>` for each key; one conditional UpdateItem a request; `ttl` a minute on.
"""

from __future__ import annotations

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain.limits import LimitName, RequestLimits
from docsvc.tenancy import Tenant

COUNT_KEPT_SECONDS = 60


class _LimitsTable(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().limits_table)


class DynamoRequestCounter(_LimitsTable):
    def count(self, tenant: Tenant, key_id: str, window: int, limits: RequestLimits) -> LimitName | None:
        key = {"pk": f"{tenant.key}#REQUESTS", "sk": str(window)}
        try:
            self._table.update_item(
                Key=key,
                UpdateExpression="ADD requests :one, #key :one SET #ttl = :ttl",
                ConditionExpression="(attribute_not_exists(requests) OR requests < :organization) "
                "AND (attribute_not_exists(#key) OR #key < :per_key)",
                ExpressionAttributeNames={"#key": f"key#{key_id}", "#ttl": "ttl"},
                ExpressionAttributeValues={
                    ":one": 1,
                    ":ttl": window + COUNT_KEPT_SECONDS,
                    ":organization": limits.organization_per_second,
                    ":per_key": limits.key_per_second,
                },
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except Exception as error:
            if not aws.condition_refused(error):
                raise
            return "organization" if self._counted(error, key) >= limits.organization_per_second else "key"
        return None

    def _counted(self, refusal: Exception, key: dict[str, str]) -> int:
        """The tenant's count in the window, from the refused write's item (or read, when not given)."""
        old = getattr(refusal, "response", {}).get("Item")
        if old is not None:
            return int(old.get("requests", {}).get("N", 0))
        return int(self._table.get_item(Key=key, ConsistentRead=True).get("Item", {}).get("requests", 0))
