"""Extraction evals in the results table: partition `ORG#<org>#ENV#<env>`, sort keys

- `EVAL#<eval_id>`: the eval (name, schema, default settings, document count, status);
- `EVALDOC#<eval_id>#<document_id>`: a document of its dataset and its annotation;
- `EVALITER#<eval_id>#<iteration_id>`: an iteration, its metrics and per-document results.

Ids are time-ordered, so each list is a key range. Schemas, annotations, documents and results go
through the PayloadStore: in the item when small, else in S3 under `results/<org>/<env>/evals/<eval_id>/`,
and are deleted with what they belong to.
Every write is conditional: a document is added (and the eval's count raised) in one transaction that
requires the eval active and not full; an iteration is created or completed only while its eval is
active; a deleting eval is removed after everything in it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.events import event_put
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.values import record_fields, to_dynamo
from docsvc.adapters.payloads import PayloadStore
from docsvc.config import settings
from docsvc.domain.evals import (
    DOCUMENT_PREFIX,
    EVAL_PREFIX,
    ITERATION_PREFIX,
    EvalDocumentRecord,
    EvalRecord,
    IterationRecord,
)
from docsvc.domain.events import Event
from docsvc.domain.lists import ListQuery, Page
from docsvc.tenancy import Tenant

EVAL, DOCUMENT, ITERATION = "EVAL#", "EVALDOC#", "EVALITER#"
# The payloads a document and an iteration may keep in S3: `<folder>/<id>.<name>.json`.
_DOCUMENT_PAYLOADS = ("document", "annotation")
_ITERATION_PAYLOADS = ("schema", "metrics", "documents")
_ACTIVE = "attribute_exists(pk) AND #status = :active"


class DynamoEvalRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None, bucket: str | None = None) -> None:
        super().__init__(table_name or settings().results_table)
        self._payloads = PayloadStore(bucket or settings().files_bucket)

    # ------------------------------------------------------------------ evals
    def put_eval(self, tenant: Tenant, record: EvalRecord) -> None:
        self._table.put_item(
            Item=self._eval_item(tenant, record), ConditionExpression="attribute_not_exists(pk)"
        )

    def get_eval(self, tenant: Tenant, eval_id: str) -> EvalRecord | None:
        item = self._table.get_item(Key=_key(tenant, EVAL + eval_id), ConsistentRead=True).get("Item")
        return self._eval(item) if item else None

    def list_evals(self, tenant: Tenant, query: ListQuery) -> Page[EvalRecord]:
        listing = Listing(tenant.key, EVAL, EVAL_PREFIX, tenant.key)
        page = list_page(self._table, listing, query, keep=lambda item: item.get("status") == "active")
        return page.of(self._eval)

    def update_eval(self, tenant: Tenant, record: EvalRecord) -> bool:
        item = self._eval_item(tenant, record)
        return aws.written(
            lambda: self._table.update_item(
                Key=_key(tenant, EVAL + record.id),
                UpdateExpression="SET #name = :name, json_schema = :schema, inference_settings = :settings, "
                "updated_at = :updated_at",
                ConditionExpression=_ACTIVE,
                ExpressionAttributeNames={"#status": "status", "#name": "name"},
                ExpressionAttributeValues={
                    ":active": "active",
                    ":name": item["name"],
                    ":schema": item["json_schema"],
                    ":settings": item["inference_settings"],
                    ":updated_at": item["updated_at"],
                },
            )
        )

    def mark_deleting(self, tenant: Tenant, eval_id: str) -> bool:
        return aws.written(
            lambda: self._table.update_item(
                Key=_key(tenant, EVAL + eval_id),
                UpdateExpression="SET #status = :deleting",
                ConditionExpression=_ACTIVE,
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={":active": "active", ":deleting": "deleting"},
            )
        )

    def purge(self, tenant: Tenant, eval_id: str) -> None:
        folder = _payload_prefix(tenant, eval_id)
        payloads = [f"{folder}/schema.json"]
        with self._table.batch_writer() as batch:
            for prefix, names in ((DOCUMENT, _DOCUMENT_PAYLOADS), (ITERATION, _ITERATION_PAYLOADS)):
                for item in self._items(tenant, f"{prefix}{eval_id}#", keys_only=True):
                    batch.delete_item(Key={"pk": item["pk"], "sk": item["sk"]})
                    payloads += [f"{folder}/{item['sk'].rsplit('#', 1)[1]}.{name}.json" for name in names]
        self._payloads.forget_keys(payloads)
        self._table.delete_item(Key=_key(tenant, EVAL + eval_id))

    # ------------------------------------------------------------------ documents
    def add_document(self, tenant: Tenant, record: EvalDocumentRecord, max_documents: int) -> bool:
        prefix = f"{_payload_prefix(tenant, record.eval_id)}/{record.id}"
        item = {
            **_key(tenant, f"{DOCUMENT}{record.eval_id}#{record.id}"),
            **record.model_dump(mode="json", exclude={"document", "annotation"}),
            "document": self._payloads.stored(f"{prefix}.document.json", record.document.model_dump()),
            "annotation": self._payloads.stored(f"{prefix}.annotation.json", record.annotation),
        }
        put = {
            "TableName": self._table_name,
            "Item": to_dynamo(item),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        count = self._count(tenant, record.eval_id, +1, max_documents)
        added = self._transaction([{"Put": put}, count])
        if not added:  # refused (a full or deleting eval): what was stored for it goes too
            self._forget(tenant, record.eval_id, record.id, _DOCUMENT_PAYLOADS)
        return added

    def get_document(
        self, tenant: Tenant, eval_id: str, document_id: str, *, with_document: bool = False
    ) -> EvalDocumentRecord | None:
        key = _key(tenant, f"{DOCUMENT}{eval_id}#{document_id}")
        item = self._table.get_item(Key=key, ConsistentRead=True).get("Item")
        return self._document(item, with_document) if item else None

    def list_documents(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[EvalDocumentRecord]:
        listing = Listing(tenant.key, f"{DOCUMENT}{eval_id}#", DOCUMENT_PREFIX, tenant.key)
        return list_page(self._table, listing, query).of(self._document)

    def all_documents(self, tenant: Tenant, eval_id: str) -> Iterator[EvalDocumentRecord]:
        for item in self._items(tenant, f"{DOCUMENT}{eval_id}#"):
            yield self._document(item)

    def update_document(self, tenant: Tenant, record: EvalDocumentRecord) -> bool:
        prefix = f"{_payload_prefix(tenant, record.eval_id)}/{record.id}"
        update = {
            "TableName": self._table_name,
            "Key": _key(tenant, f"{DOCUMENT}{record.eval_id}#{record.id}"),
            "UpdateExpression": "SET annotation = :annotation, #split = :split, updated_at = :updated_at",
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeNames": {"#split": "split"},
            "ExpressionAttributeValues": {
                ":annotation": self._payloads.stored(f"{prefix}.annotation.json", record.annotation),
                ":split": record.split,
                ":updated_at": record.updated_at,
            },
        }
        return self._transaction([{"Update": update}, self._eval_active(tenant, record.eval_id)])

    def set_split(self, tenant: Tenant, eval_id: str, document_id: str, split: str, updated_at: str) -> bool:
        update = {
            "TableName": self._table_name,
            "Key": _key(tenant, f"{DOCUMENT}{eval_id}#{document_id}"),
            "UpdateExpression": "SET #split = :split, updated_at = :updated_at",
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeNames": {"#split": "split"},
            "ExpressionAttributeValues": {":split": split, ":updated_at": updated_at},
        }
        return self._transaction([{"Update": update}, self._eval_active(tenant, eval_id)])

    def delete_document(self, tenant: Tenant, eval_id: str, document_id: str) -> bool:
        delete = {
            "TableName": self._table_name,
            "Key": _key(tenant, f"{DOCUMENT}{eval_id}#{document_id}"),
            "ConditionExpression": "attribute_exists(pk)",
        }
        deleted = self._transaction([{"Delete": delete}, self._count(tenant, eval_id, -1)])
        if deleted:
            self._forget(tenant, eval_id, document_id, _DOCUMENT_PAYLOADS)
        return deleted

    # ------------------------------------------------------------------ iterations
    def put_iteration(self, tenant: Tenant, record: IterationRecord) -> bool:
        put = {
            "TableName": self._table_name,
            "Item": to_dynamo(self._iteration_item(tenant, record)),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        return self._transaction([{"Put": put}, self._eval_active(tenant, record.eval_id)])

    def get_iteration(
        self, tenant: Tenant, eval_id: str, iteration_id: str, *, with_documents: bool = False
    ) -> IterationRecord | None:
        key = _key(tenant, f"{ITERATION}{eval_id}#{iteration_id}")
        item = self._table.get_item(Key=key, ConsistentRead=True).get("Item")
        return self._iteration(item, with_documents) if item else None

    def list_iterations(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[IterationRecord]:
        listing = Listing(tenant.key, f"{ITERATION}{eval_id}#", ITERATION_PREFIX, tenant.key)
        return list_page(self._table, listing, query).of(self._iteration)

    def complete_iteration(self, tenant: Tenant, record: IterationRecord, event: Event) -> bool:
        put = {
            "TableName": self._table_name,
            "Item": to_dynamo(self._iteration_item(tenant, record)),
            "ConditionExpression": "attribute_exists(pk)",
        }
        items = [{"Put": put}, self._eval_active(tenant, record.eval_id), event_put(tenant, event)]
        return self._transaction(items)

    def delete_iteration(self, tenant: Tenant, eval_id: str, iteration_id: str) -> bool:
        deleted = aws.written(
            lambda: self._table.delete_item(
                Key=_key(tenant, f"{ITERATION}{eval_id}#{iteration_id}"),
                ConditionExpression="attribute_exists(pk)",
            )
        )
        if deleted:
            self._forget(tenant, eval_id, iteration_id, _ITERATION_PAYLOADS)
        return deleted

    def _forget(self, tenant: Tenant, eval_id: str, record_id: str, names: tuple[str, ...]) -> None:
        folder = _payload_prefix(tenant, eval_id)
        self._payloads.forget_keys([f"{folder}/{record_id}.{name}.json" for name in names])

    # ------------------------------------------------------------------ items
    def _eval_item(self, tenant: Tenant, record: EvalRecord) -> dict[str, Any]:
        schema_key = f"{_payload_prefix(tenant, record.id)}/schema.json"
        item: dict[str, Any] = to_dynamo(
            {
                **_key(tenant, EVAL + record.id),
                **record.model_dump(mode="json", exclude={"json_schema"}),
                "json_schema": self._payloads.stored(schema_key, record.json_schema),
            }
        )
        return item

    def _iteration_item(self, tenant: Tenant, record: IterationRecord) -> dict[str, Any]:
        prefix = f"{_payload_prefix(tenant, record.eval_id)}/{record.id}"
        return {
            **_key(tenant, f"{ITERATION}{record.eval_id}#{record.id}"),
            **record.model_dump(mode="json", exclude={"json_schema", "metrics", "documents"}),
            "json_schema": self._payloads.stored(f"{prefix}.schema.json", record.json_schema),
            "metrics": self._payloads.stored(
                f"{prefix}.metrics.json", record.metrics.model_dump(mode="json") if record.metrics else None
            ),
            "documents": self._payloads.stored(
                f"{prefix}.documents.json",
                [result.model_dump(mode="json") for result in record.documents]
                if record.documents is not None
                else None,
            ),
        }

    def _eval(self, item: dict[str, Any]) -> EvalRecord:
        fields = _fields(item, EvalRecord)
        fields["json_schema"] = self._payloads.load(fields.get("json_schema"))
        return EvalRecord.model_validate(fields)

    def _document(self, item: dict[str, Any], with_document: bool = False) -> EvalDocumentRecord:
        fields = _fields(item, EvalDocumentRecord)
        fields["annotation"] = self._payloads.load(fields.get("annotation"))
        # unloaded, a document is shown by its name only: the route never answers its bytes
        loaded = self._payloads.load(fields.get("document")) if with_document else None
        fields["document"] = loaded or {"filename": fields["filename"], "url": "data:,"}
        return EvalDocumentRecord.model_validate(fields)

    def _iteration(self, item: dict[str, Any], with_documents: bool = False) -> IterationRecord:
        fields = _fields(item, IterationRecord)
        fields["json_schema"] = self._payloads.load(fields.get("json_schema"))
        fields["metrics"] = self._payloads.load(fields.get("metrics"))
        fields["documents"] = self._payloads.load(fields.get("documents")) if with_documents else None
        return IterationRecord.model_validate(fields)

    def _count(self, tenant: Tenant, eval_id: str, change: int, most: int | None = None) -> dict[str, Any]:
        """The eval's document count changed by `change`, only while it is active (and, adding, holds
        fewer than `most`)."""
        condition, values = _ACTIVE, {":change": change, ":active": "active"}
        if most is not None:
            condition, values = condition + " AND document_count < :most", values | {":most": most}
        return {
            "Update": {
                "TableName": self._table_name,
                "Key": _key(tenant, EVAL + eval_id),
                "UpdateExpression": "SET document_count = document_count + :change",
                "ConditionExpression": condition,
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": values,
            }
        }

    def _eval_active(self, tenant: Tenant, eval_id: str) -> dict[str, Any]:
        return {
            "ConditionCheck": {
                "TableName": self._table_name,
                "Key": _key(tenant, EVAL + eval_id),
                "ConditionExpression": _ACTIVE,
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": {":active": "active"},
            }
        }

    def _transaction(self, items: list[dict[str, Any]]) -> bool:
        return aws.written(lambda: self._table.meta.client.transact_write_items(TransactItems=items))

    def _items(self, tenant: Tenant, prefix: str, *, keys_only: bool = False) -> Iterator[dict[str, Any]]:
        """Every item of the tenant whose sort key starts with `prefix`, in key order."""
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": tenant.key, ":prefix": prefix},
            "ConsistentRead": True,
        }
        if keys_only:
            params["ProjectionExpression"] = "pk, sk"
        while True:
            response = self._table.query(**params)
            yield from response["Items"]
            if "LastEvaluatedKey" not in response:
                return
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def _key(tenant: Tenant, sort_key: str) -> dict[str, str]:
    return {"pk": tenant.key, "sk": sort_key}


def _payload_prefix(tenant: Tenant, eval_id: str) -> str:
    return f"results/{tenant.storage_prefix}/evals/{eval_id}"


def _fields(item: dict[str, Any], model: type[Any]) -> dict[str, Any]:
    return record_fields(item, model)
