"""Organizations and API keys in DynamoDB (the accounts table of template.yaml).

`ORG#<org>`: an organization (with `limits` when an operator set them). `KEY#<sha256 of the key>`: a
key's record, with `key_id` and `org_id` for the indexes `keys_by_id` and `keys_by_org`, and its
organization's `limits` copied onto it, so authenticating a request reads one item.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain.accounts import ApiKey, Organization
from docsvc.domain.limits import RequestLimits
from docsvc.errors import NotFound
from docsvc.tenancy import Environment


class DynamoAccountRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().accounts_table)

    def put_organization(self, organization: Organization) -> None:
        item = {"pk": f"ORG#{organization.id}", "kind": "organization"}
        self._table.put_item(
            Item=item | organization.model_dump(exclude_none=True),
            ConditionExpression="attribute_not_exists(pk)",
        )

    def get_organization(self, organization_id: str) -> Organization | None:
        item = self._table.get_item(Key={"pk": f"ORG#{organization_id}"}, ConsistentRead=True).get("Item")
        return Organization.model_validate(item) if item else None

    def put_key(self, key_hash: str, record: ApiKey) -> None:
        item = {
            "pk": f"KEY#{key_hash}",
            "kind": "api_key",
            "key_id": record.id,
            "org_id": record.organization_id,
        }
        item |= record.model_dump(exclude_none=True)
        self._table.put_item(Item=item, ConditionExpression="attribute_not_exists(pk)")

    def get_key_by_hash(self, key_hash: str) -> ApiKey | None:
        # Strongly consistent: a revocation is effective on the very next request.
        item = self._table.get_item(Key={"pk": f"KEY#{key_hash}"}, ConsistentRead=True).get("Item")
        return ApiKey.model_validate(item) if item else None

    def get_key_hash_by_id(self, key_id: str) -> str | None:
        items = self._table.query(
            IndexName="keys_by_id",
            KeyConditionExpression="key_id = :id",
            ExpressionAttributeValues={":id": key_id},
        )["Items"]
        return str(items[0]["pk"]).removeprefix("KEY#") if items else None

    def list_keys(self, organization_id: str) -> list[ApiKey]:
        return [ApiKey.model_validate(item) for item in self._key_items(organization_id)]

    def environment_keys(
        self, organization_id: str, environment: Environment, limit: int, before: str | None
    ) -> list[ApiKey]:
        """Newest first (key ids are time-ordered), the other environment's filtered out."""
        query: dict[str, Any] = {
            "IndexName": "keys_by_org",
            "KeyConditionExpression": "org_id = :org" + (" AND key_id < :before" if before else ""),
            "FilterExpression": "environment = :environment",
            "ExpressionAttributeValues": {":org": organization_id, ":environment": environment}
            | ({":before": before} if before else {}),
            "ScanIndexForward": False,
            "Limit": limit,
        }
        keys: list[ApiKey] = []
        while len(keys) < limit:
            page = self._table.query(**query)
            keys += [ApiKey.model_validate(item) for item in page["Items"]]
            if "LastEvaluatedKey" not in page:
                break
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        return keys[:limit]

    def mark_key_revoked(self, key_hash: str, revoked_at: str) -> ApiKey:
        try:
            result = self._table.update_item(
                Key={"pk": f"KEY#{key_hash}"},
                UpdateExpression="SET revoked_at = if_not_exists(revoked_at, :at)",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":at": revoked_at},
                ReturnValues="ALL_NEW",
            )
        except self._table.meta.client.exceptions.ConditionalCheckFailedException:
            raise NotFound("no such API key") from None
        return ApiKey.model_validate(result["Attributes"])

    def set_limits(self, organization_id: str, limits: RequestLimits | None) -> None:
        self._set_limits(f"ORG#{organization_id}", limits)
        for key in self._key_items(organization_id):
            self._set_limits(str(key["pk"]), limits)

    def _set_limits(self, pk: str, limits: RequestLimits | None) -> None:
        if limits is None:
            self._table.update_item(Key={"pk": pk}, UpdateExpression="REMOVE limits")
            return
        self._table.update_item(
            Key={"pk": pk},
            UpdateExpression="SET limits = :limits",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeValues={":limits": limits.model_dump()},
        )

    def _key_items(self, organization_id: str) -> list[dict[str, Any]]:
        query: dict[str, Any] = {
            "IndexName": "keys_by_org",
            "KeyConditionExpression": "org_id = :org",
            "ExpressionAttributeValues": {":org": organization_id},
        }
        items: list[dict[str, Any]] = []
        while True:
            page = self._table.query(**query)
            items.extend(page["Items"])
            if "LastEvaluatedKey" not in page:
                return items
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
