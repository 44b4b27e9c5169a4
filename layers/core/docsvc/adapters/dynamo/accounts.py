"""Organizations and API keys in DynamoDB (the accounts table of template.yaml)."""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain.accounts import ApiKey, Organization
from docsvc.errors import NotFound


class DynamoAccountRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().accounts_table)

    def put_organization(self, organization: Organization) -> None:
        self._table.put_item(
            Item={"pk": f"ORG#{organization.id}", "kind": "organization", **organization.model_dump()},
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
        query: dict[str, Any] = {
            "IndexName": "keys_by_org",
            "KeyConditionExpression": "org_id = :org",
            "ExpressionAttributeValues": {":org": organization_id},
        }
        keys: list[ApiKey] = []
        while True:
            page = self._table.query(**query)
            keys.extend(ApiKey.model_validate(item) for item in page["Items"])
            if "LastEvaluatedKey" not in page:
                return keys
            query["ExclusiveStartKey"] = page["LastEvaluatedKey"]

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
