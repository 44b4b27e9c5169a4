"""Secrets: metadata in DynamoDB (partition `ORG#<org>#ENV#<env>`, sort key `SECRET#<name>`), values in
AWS Secrets Manager under `<stack>/<org>/<env>/<name>`, the prefix the functions' IAM allows. Secrets
Manager's errors never carry the value; none of this module's do either."""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import query_page
from docsvc.adapters.dynamo.values import record_fields
from docsvc.config import settings
from docsvc.domain.secrets import SecretMeta, SecretPage
from docsvc.tenancy import Tenant

_SORT_PREFIX = "SECRET#"


class DynamoSecretRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().secrets_table)

    def put(self, tenant: Tenant, meta: SecretMeta, *, new: bool) -> bool:
        item = {"pk": tenant.key, "sk": _SORT_PREFIX + meta.name, **meta.model_dump()}
        condition = {"ConditionExpression": "attribute_not_exists(pk)"} if new else {}
        return aws.written(lambda: self._table.put_item(Item=item, **condition))

    def get(self, tenant: Tenant, name: str) -> SecretMeta | None:
        item = self._table.get_item(Key=_key(tenant, name), ConsistentRead=True).get("Item")
        return _meta(item) if item else None

    def list(self, tenant: Tenant) -> list[SecretMeta]:
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :secret)",
            "ExpressionAttributeValues": {":pk": tenant.key, ":secret": _SORT_PREFIX},
        }
        found: list[SecretMeta] = []
        while True:
            response = self._table.query(**params)
            found += [_meta(item) for item in response["Items"]]
            if "LastEvaluatedKey" not in response:
                return found
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def page(self, tenant: Tenant, after: str | None, limit: int) -> SecretPage:
        params = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :secret)",
            "ExpressionAttributeValues": {":pk": tenant.key, ":secret": _SORT_PREFIX},
        }
        start = _key(tenant, after) if after else None
        page = query_page(self._table, params, limit=limit, ascending=True, after=start)
        found = [_meta(item) for item in page.items]
        return found, found[-1].name if found and page.has_next else None

    def delete(self, tenant: Tenant, name: str) -> bool:
        old = self._table.delete_item(Key=_key(tenant, name), ReturnValues="ALL_OLD")
        return "Attributes" in old


def _key(tenant: Tenant, name: str) -> dict[str, str]:
    return {"pk": tenant.key, "sk": _SORT_PREFIX + name}


def _meta(item: dict[str, Any]) -> SecretMeta:
    return SecretMeta.model_validate(record_fields(item, SecretMeta))


class SecretsManagerVault:
    def __init__(self, prefix: str | None = None) -> None:
        self._prefix = prefix or settings().secrets_prefix

    def _id(self, tenant: Tenant, name: str) -> str:
        return f"{self._prefix}/{tenant.organization_id}/{tenant.environment}/{name}"

    def write(self, tenant: Tenant, name: str, value: str) -> None:
        client = aws.secretsmanager()
        try:
            client.put_secret_value(SecretId=self._id(tenant, name), SecretString=value)
        except client.exceptions.ResourceNotFoundException:
            client.create_secret(Name=self._id(tenant, name), SecretString=value)

    def create(self, tenant: Tenant, name: str, value: str) -> bool:
        """Stores `value` only if the secret does not exist yet; whether it did."""
        client = aws.secretsmanager()
        try:
            client.create_secret(Name=self._id(tenant, name), SecretString=value)
        except client.exceptions.ResourceExistsException:
            return False
        return True

    def read(self, tenant: Tenant, name: str) -> str | None:
        client = aws.secretsmanager()
        try:
            return str(client.get_secret_value(SecretId=self._id(tenant, name))["SecretString"])
        except client.exceptions.ResourceNotFoundException:
            return None

    def erase(self, tenant: Tenant, name: str) -> None:
        client = aws.secretsmanager()
        try:
            client.delete_secret(SecretId=self._id(tenant, name), ForceDeleteWithoutRecovery=True)
        except client.exceptions.ResourceNotFoundException:
            return
