"""Edits and edit templates in the results table: partition `ORG#<org>#ENV#<env>`, sort key
`EDIT#<edit id>` or `EDITTEMPLATE#<template id>` (ids are time-ordered: a date range is a key range).
An edit's form data and a template's fields go through the PayloadStore: in the item when small, else in
S3 under `results/<org>/<env>/<id>.json` (a template's: `<id>-<version id>.json`), deleted with the record
or the version it belonged to. A list of templates reads no fields. The filled documents and
the blank forms are files of the environment (FilesTable), referenced by id."""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.usage import usage_add
from docsvc.adapters.dynamo.values import record_fields, to_dynamo
from docsvc.adapters.payloads import PayloadStore
from docsvc.config import settings
from docsvc.domain.edits import EditQuery, EditRecord, EditTemplate, TemplateQuery
from docsvc.domain.lists import Page
from docsvc.domain.usage import Charge
from docsvc.ids import new_id
from docsvc.tenancy import Tenant

_EDIT = "EDIT#"
_TEMPLATE = "EDITTEMPLATE#"


class DynamoEditRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None, bucket: str | None = None) -> None:
        super().__init__(table_name or settings().results_table)
        self._payloads = PayloadStore(bucket or settings().files_bucket)

    # ------------------------------------------------------------------ edits
    def put_edit(self, tenant: Tenant, record: EditRecord, charge: Charge) -> None:
        output = self._payloads.stored(
            f"results/{tenant.storage_prefix}/{record.id}.json", record.output.model_dump(mode="json")
        )
        item = {
            "pk": tenant.key,
            "sk": _EDIT + record.id,
            **record.model_dump(mode="json", exclude={"output"}),
            "output": output,
            "filename_lower": _filled_name(record).lower(),
        }
        put = {
            "TableName": self._table_name,
            "Item": to_dynamo(item),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        try:
            self._table.meta.client.transact_write_items(
                TransactItems=[{"Put": put}, usage_add(tenant, charge)]
            )
        except Exception:
            self._payloads.forget(output)  # nothing of an edit that was not stored stays behind
            raise

    def get_edit(self, tenant: Tenant, edit_id: str) -> EditRecord | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _EDIT + edit_id}, ConsistentRead=True).get(
            "Item"
        )
        return self._edit(item) if item else None

    def list_edits(self, tenant: Tenant, query: EditQuery) -> Page[EditRecord]:
        def keep(item: dict[str, Any]) -> bool:
            named = query.filename is None or str(item.get("filename_lower", "")).startswith(
                query.filename.lower()
            )
            return named and (query.template_id is None or item.get("template_id") == query.template_id)

        filtered = query.filename is not None or query.template_id is not None
        listing = Listing(tenant.key, _EDIT, "edit", tenant.key)
        return list_page(self._table, listing, query, keep=keep if filtered else None).of(self._edit)

    def delete_edit(self, tenant: Tenant, edit_id: str) -> EditRecord | None:
        old = self._table.delete_item(Key={"pk": tenant.key, "sk": _EDIT + edit_id}, ReturnValues="ALL_OLD")
        if "Attributes" not in old:
            return None
        record = self._edit(old["Attributes"])
        self._payloads.forget(old["Attributes"].get("output"))
        return record

    def _edit(self, item: dict[str, Any]) -> EditRecord:
        fields = record_fields(item, EditRecord)
        fields["output"] = self._payloads.load(fields.get("output"))
        return EditRecord.model_validate(fields)

    # ------------------------------------------------------------------ templates
    def put_template(self, tenant: Tenant, template: EditTemplate) -> None:
        self._table.put_item(
            Item=self._template_item(tenant, template), ConditionExpression="attribute_not_exists(pk)"
        )

    def replace_template(self, tenant: Tenant, template: EditTemplate, updated_at: str) -> bool:
        item = self._template_item(tenant, template)
        replaced: dict[str, Any] = {}

        def put() -> None:
            replaced.update(
                self._table.put_item(
                    Item=item,
                    ConditionExpression="updated_at = :seen",
                    ExpressionAttributeValues={":seen": updated_at},
                    ReturnValues="ALL_OLD",
                )
            )

        if not aws.written(put):
            self._payloads.forget(item.get("form_fields"))  # written for nothing
            return False
        old = replaced.get("Attributes", {}).get("form_fields")
        if old != item.get("form_fields"):
            self._payloads.forget(old)
        return True

    def get_template(self, tenant: Tenant, template_id: str) -> EditTemplate | None:
        key = {"pk": tenant.key, "sk": _TEMPLATE + template_id}
        item = self._table.get_item(Key=key, ConsistentRead=True).get("Item")
        return self._template(item, with_fields=True) if item else None

    def list_templates(self, tenant: Tenant, query: TemplateQuery) -> Page[EditTemplate]:
        def keep(item: dict[str, Any]) -> bool:
            return query.name is None or query.name.lower() in str(item.get("name", "")).lower()

        listing = Listing(tenant.key, _TEMPLATE, "etpl", tenant.key)
        page = list_page(self._table, listing, query, keep=keep if query.name is not None else None)
        return page.of(self._template)

    def delete_template(self, tenant: Tenant, template_id: str) -> EditTemplate | None:
        old = self._table.delete_item(
            Key={"pk": tenant.key, "sk": _TEMPLATE + template_id}, ReturnValues="ALL_OLD"
        )
        if "Attributes" not in old:
            return None
        template = self._template(old["Attributes"], with_fields=True)
        self._payloads.forget(old["Attributes"].get("form_fields"))
        return template

    def _template_item(self, tenant: Tenant, template: EditTemplate) -> dict[str, Any]:
        fields = [field.model_dump(mode="json") for field in template.form_fields or []]
        stored = self._payloads.stored(  # each version its own key: a losing writer deletes only its own
            f"results/{tenant.storage_prefix}/{template.id}-{new_id('ver')}.json", fields
        )
        item = {
            "pk": tenant.key,
            "sk": _TEMPLATE + template.id,
            **template.model_dump(mode="json", exclude={"form_fields"}),
            "form_fields": stored,
        }
        return to_dynamo(item)  # type: ignore[no-any-return]

    def _template(self, item: dict[str, Any], with_fields: bool = False) -> EditTemplate:
        fields = record_fields(item, EditTemplate)
        fields["form_fields"] = self._payloads.load(fields.get("form_fields")) if with_fields else None
        return EditTemplate.model_validate(fields)


def _filled_name(record: EditRecord) -> str:
    reference = record.filled_document_ref
    return reference.filename if reference is not None else record.file.filename
