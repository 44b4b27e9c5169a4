"""Tables: records in DynamoDB (partition `ORG#<org>#ENV#<env>`, sort key `TABLE#<id>`); the original
CSV and its parsed snapshot in S3 under `tables/<org>/<env>/<id>/`. A record holds the columns'
descriptions, so its size grows with them: `fits` tells whether DynamoDB's 400 KB item takes it."""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import query_page
from docsvc.adapters.dynamo.values import ITEM_LIMIT_BYTES, item_bytes, record_fields, to_dynamo
from docsvc.config import settings
from docsvc.domain.tables import TablePage, TableRecord
from docsvc.tenancy import Tenant

_TABLE = "TABLE#"


class DynamoTableRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().tables_table)

    def put(self, tenant: Tenant, record: TableRecord) -> None:
        self._table.put_item(Item=to_dynamo(_item(tenant, record)))

    def fits(self, tenant: Tenant, record: TableRecord) -> bool:
        return item_bytes(_item(tenant, record)) <= ITEM_LIMIT_BYTES

    def get(self, tenant: Tenant, table_id: str) -> TableRecord | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _TABLE + table_id}, ConsistentRead=True).get(
            "Item"
        )
        return _record(item) if item else None

    def list(self, tenant: Tenant) -> list[TableRecord]:
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :table)",
            "ExpressionAttributeValues": {":pk": tenant.key, ":table": _TABLE},
            "ScanIndexForward": False,
        }
        found: list[TableRecord] = []
        while True:
            response = self._table.query(**params)
            found += [_record(item) for item in response["Items"]]
            if "LastEvaluatedKey" not in response:
                return found
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def page(self, tenant: Tenant, after: str | None, limit: int) -> TablePage:
        params = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :table)",
            "ExpressionAttributeValues": {":pk": tenant.key, ":table": _TABLE},
        }
        start = {"pk": tenant.key, "sk": _TABLE + after} if after else None
        page = query_page(self._table, params, limit=limit, ascending=False, after=start)
        found = [_record(item) for item in page.items]
        return found, found[-1].id if found and page.has_next else None

    def delete(self, tenant: Tenant, table_id: str) -> bool:
        old = self._table.delete_item(Key={"pk": tenant.key, "sk": _TABLE + table_id}, ReturnValues="ALL_OLD")
        return "Attributes" in old


def _item(tenant: Tenant, record: TableRecord) -> dict[str, Any]:
    return {"pk": tenant.key, "sk": _TABLE + record.id, **record.model_dump(mode="json")}


def _record(item: dict[str, Any]) -> TableRecord:
    return TableRecord.model_validate(record_fields(item, TableRecord))


class S3TableStore:
    def __init__(self, bucket: str | None = None) -> None:
        self._bucket = bucket or settings().files_bucket

    def _key(self, tenant: Tenant, table_id: str, name: str) -> str:
        return f"tables/{tenant.storage_prefix}/{table_id}/{name}"

    def save(self, tenant: Tenant, table_id: str, original: bytes, snapshot: bytes) -> None:
        s3 = aws.s3()
        s3.put_object(Bucket=self._bucket, Key=self._key(tenant, table_id, "original.csv"), Body=original)
        s3.put_object(Bucket=self._bucket, Key=self._key(tenant, table_id, "snapshot.json"), Body=snapshot)

    def original(self, tenant: Tenant, table_id: str) -> bytes:
        return self._read(self._key(tenant, table_id, "original.csv"))

    def snapshot(self, tenant: Tenant, table_id: str) -> bytes:
        return self._read(self._key(tenant, table_id, "snapshot.json"))

    def delete(self, tenant: Tenant, table_id: str) -> None:
        names = ("original.csv", "snapshot.json")
        aws.s3().delete_objects(
            Bucket=self._bucket,
            Delete={"Objects": [{"Key": self._key(tenant, table_id, name)} for name in names], "Quiet": True},
        )

    def _read(self, key: str) -> bytes:
        return bytes(aws.s3().get_object(Bucket=self._bucket, Key=key)["Body"].read())
