"""Request counts and job slots in DynamoDB (LimitsTable of template.yaml): partition key `pk`, sort
key `sk`, and `ttl` (Unix seconds) for DynamoDB's TTL to delete what is no longer needed. A tenant's
items are in its partition `ORG#<org>#ENV#<env>` (so the environment purge removes them):

- `REQUESTS#<window, Unix seconds>`: the requests of one second, `requests` for the tenant and
  `key#<key id>` for each key; one conditional UpdateItem a request; `ttl` a minute on.
- `SLOTS`: `jobs`, the string set of the tenant's jobs on the queue or running (docsvc.domain.dispatch).
- `HELD#<job id>`: a job held back until its tenant has a free slot (ids sort by creation, so a query
  reads the oldest first).

And `BACKLOGS` / `<org>#<env>`: a tenant that has held jobs, for the sweep to find without a Scan
(forgotten by the sweep once the tenant has none).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain.limits import LimitName, RequestLimits
from docsvc.tenancy import Tenant

COUNT_KEPT_SECONDS = 60
_BACKLOGS = "BACKLOGS"
_HELD = "HELD#"


class _LimitsTable(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().limits_table)


class DynamoRequestCounter(_LimitsTable):
    def count(self, tenant: Tenant, key_id: str, window: int, limits: RequestLimits) -> LimitName | None:
        key = {"pk": tenant.key, "sk": f"REQUESTS#{window}"}
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


class DynamoJobSlots(_LimitsTable):
    def take(self, tenant: Tenant, job_id: str, slots: int) -> bool:
        return aws.written(
            lambda: self._table.update_item(
                Key=_slots(tenant),
                UpdateExpression="ADD jobs :job",
                ConditionExpression="attribute_not_exists(jobs) OR size(jobs) < :slots "
                "OR contains(jobs, :id)",
                ExpressionAttributeValues={":job": {job_id}, ":slots": slots, ":id": job_id},
            )
        )

    def give_back(self, tenant: Tenant, job_id: str) -> None:
        self._table.update_item(
            Key=_slots(tenant),
            UpdateExpression="DELETE jobs :job",
            ExpressionAttributeValues={":job": {job_id}},
        )

    def in_flight(self, tenant: Tenant) -> frozenset[str]:
        item = self._table.get_item(Key=_slots(tenant), ConsistentRead=True).get("Item") or {}
        return frozenset(str(job_id) for job_id in item.get("jobs", ()))

    def hold(self, tenant: Tenant, job_id: str) -> None:
        self._table.put_item(Item={"pk": tenant.key, "sk": f"{_HELD}{job_id}"})
        self._table.put_item(
            Item={
                "pk": _BACKLOGS,
                "sk": f"{tenant.organization_id}#{tenant.environment}",
                "organization_id": tenant.organization_id,
                "environment": tenant.environment,
            }
        )

    def oldest_held(self, tenant: Tenant, count: int) -> list[str]:
        items = self._table.query(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :held)",
            ExpressionAttributeValues={":pk": tenant.key, ":held": _HELD},
            ConsistentRead=True,
            Limit=count,
        )["Items"]
        return [str(item["sk"]).removeprefix(_HELD) for item in items]

    def release_held(self, tenant: Tenant, job_id: str) -> bool:
        return aws.written(
            lambda: self._table.delete_item(
                Key={"pk": tenant.key, "sk": f"{_HELD}{job_id}"}, ConditionExpression="attribute_exists(pk)"
            )
        )

    def backlogged(self) -> Iterator[Tenant]:
        query: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": _BACKLOGS},
        }
        while True:
            page = self._table.query(**query)
            for item in page["Items"]:
                environment = item["environment"]
                if environment in ("test", "production"):
                    yield Tenant(str(item["organization_id"]), environment)
            if "LastEvaluatedKey" not in page:
                return
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def forget_backlog(self, tenant: Tenant) -> None:
        self._table.delete_item(Key={"pk": _BACKLOGS, "sk": f"{tenant.organization_id}#{tenant.environment}"})


def _slots(tenant: Tenant) -> dict[str, str]:
    return {"pk": tenant.key, "sk": "SLOTS"}
