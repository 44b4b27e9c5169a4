"""Extractions, classifications, splits and partitions in DynamoDB: partition `ORG#<org>#ENV#<env>`,
sort key `<KIND>#<id>` (ids are time-ordered: a date range is a key range). Outputs and an extraction's
sources go through the PayloadStore: in the item when small, else in S3 under
`results/<org>/<env>/<id>.json` and `results/<org>/<env>/<id>.sources.json`. A list reads no sources.

With the ResultRetentionDays deployment parameter set, a result carries `ttl` (its `created_at` plus that
many days), which DynamoDB's TTL deletes it by, and its S3 objects the tag `retention=result`, which the
bucket's lifecycle rule of that name expires after the same number of days. A deleted result takes its
S3 objects with it; its usage stays (it is the bill)."""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.usage import usage_add
from docsvc.adapters.dynamo.values import from_dynamo, record_fields, retention, to_dynamo
from docsvc.adapters.payloads import PayloadStore
from docsvc.config import settings
from docsvc.domain.intelligence import ID_PREFIX, ResultKind, ResultRecord
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.usage import Charge
from docsvc.tenancy import Tenant


def _sort_key(kind: str, result_id: str) -> str:
    return f"{kind.upper()}#{result_id}"


class DynamoResultRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None, bucket: str | None = None) -> None:
        super().__init__(table_name or settings().results_table)
        self._payloads = PayloadStore(bucket or settings().files_bucket)

    def put(self, tenant: Tenant, record: ResultRecord, charge: Charge) -> None:
        prefix = f"results/{tenant.storage_prefix}/{record.id}"
        expiry = retention(record.created_at, settings().result_retention_days)
        tag = "result" if expiry else None
        output = self._payloads.stored(f"{prefix}.json", record.output, tag)
        sources = self._payloads.stored(f"{prefix}.sources.json", record.sources, tag)
        item = {
            "pk": tenant.key,
            "sk": _sort_key(record.object, record.id),
            **record.model_dump(mode="json", exclude={"output", "sources"}),
            "output": output,
            "sources": sources,
            **expiry,
        }
        put = {"TableName": self._table_name, "Item": to_dynamo(item)}
        self._table.meta.client.transact_write_items(TransactItems=[{"Put": put}, usage_add(tenant, charge)])

    def get(self, tenant: Tenant, kind: ResultKind, result_id: str) -> ResultRecord | None:
        key = {"pk": tenant.key, "sk": _sort_key(kind, result_id)}
        item = self._table.get_item(Key=key, ConsistentRead=True).get("Item")
        return self._record(item, with_sources=True) if item else None

    def delete(self, tenant: Tenant, kind: ResultKind, result_id: str) -> bool:
        key = {"pk": tenant.key, "sk": _sort_key(kind, result_id)}
        old = self._table.delete_item(Key=key, ReturnValues="ALL_OLD").get("Attributes")
        if not old:
            return False
        for name in ("output", "sources"):
            self._payloads.forget(from_dynamo(old).get(name))
        return True

    def list(self, tenant: Tenant, kind: ResultKind, query: ListQuery) -> Page[ResultRecord]:
        listing = Listing(tenant.key, _sort_key(kind, ""), ID_PREFIX[kind], tenant.key)
        return list_page(self._table, listing, query).of(self._record)

    def _record(self, item: dict[str, Any], with_sources: bool = False) -> ResultRecord:
        fields = record_fields(item, ResultRecord)
        fields["output"] = self._payloads.load(fields.get("output"))
        fields["sources"] = self._payloads.load(fields.get("sources")) if with_sources else None
        return ResultRecord.model_validate(fields)
