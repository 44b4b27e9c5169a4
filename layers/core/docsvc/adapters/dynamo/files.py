"""Files and upload sessions in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `FILE#<id>`.

Indexes: `files_by_mime` (partition per tenant and MIME type) and `files_by_filename` (the tenant's
files in filename order). Date ranges are key conditions, because ids are time-ordered.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import check_cursor, query_page
from docsvc.adapters.dynamo.values import record_fields
from docsvc.clock import iso, to_millis, utc_now
from docsvc.config import settings
from docsvc.domain.embeddings import from_bytes, to_bytes
from docsvc.domain.files import FileQuery, FileRecord, Inspection, UploadSession
from docsvc.domain.lists import Page
from docsvc.errors import Conflict, InvalidField
from docsvc.ids import id_ceiling, id_floor
from docsvc.tenancy import Tenant

_FILE = "FILE#"
_UPLOAD = "UPLOAD#"
_LISTED = "pk, id, filename, mime_type, created_at, updated_at, page_count, size_bytes, sha256"


def _mime_partition(tenant: Tenant, mime_type: str) -> str:
    return f"{tenant.key}#MIME#{mime_type}"


def _filename_sort_key(filename: str, file_id: str) -> str:
    return f"{filename}#{file_id}"


def file_item(tenant: Tenant, record: FileRecord) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": tenant.key,
        "sk": _FILE + record.id,
        "filename_sk": _filename_sort_key(record.filename, record.id),
        **record.model_dump(exclude={"embedding"}, exclude_none=True),
    }
    if record.mime_type:
        item["mime_pk"] = _mime_partition(tenant, record.mime_type)
    if record.embedding is not None:
        item["embedding"] = to_bytes(record.embedding)
    return item


def _record(item: dict[str, Any]) -> FileRecord:
    fields = record_fields(item, FileRecord)
    if "embedding" in item:
        fields["embedding"] = from_bytes(bytes(item["embedding"]))
    return FileRecord.model_validate(fields)


class DynamoFileRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().files_table)

    def put_file(self, tenant: Tenant, record: FileRecord) -> None:
        self._table.put_item(Item=file_item(tenant, record), ConditionExpression="attribute_not_exists(pk)")

    def get_file(self, tenant: Tenant, file_id: str) -> FileRecord | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _FILE + file_id}).get("Item")
        return _record(item) if item else None

    def delete_file(self, tenant: Tenant, file_id: str) -> FileRecord | None:
        old = self._table.delete_item(
            Key={"pk": tenant.key, "sk": _FILE + file_id}, ReturnValues="ALL_OLD"
        ).get("Attributes")
        return _record(old) if old else None

    # ------------------------------------------------------------------ lists
    def list_files(self, tenant: Tenant, query: FileQuery) -> Page[FileRecord]:
        params, index = self._list_query(tenant, query)
        page = query_page(
            self._table,
            params,
            limit=query.limit,
            ascending=query.order == "asc",
            after=self._cursor(tenant, query, index, query.after, "after", params),
            before=self._cursor(tenant, query, index, query.before, "before", params),
        )
        return Page(
            items=[_record(item) for item in page.items],
            has_previous=page.has_previous,
            has_next=page.has_next,
        )

    def _list_query(self, tenant: Tenant, query: FileQuery) -> tuple[dict[str, Any], str | None]:
        values: dict[str, Any] = {}
        filters: list[str] = []
        if query.sort_by == "filename":
            index: str | None = "files_by_filename"
            values[":pk"] = tenant.key
            key_condition = "pk = :pk"
            if query.filename:
                key_condition += " AND begins_with(filename_sk, :prefix)"
                values[":prefix"] = query.filename
            if query.mime_type:
                filters.append("mime_type = :mime")
                values[":mime"] = query.mime_type
            if query.from_date:
                filters.append("created_at >= :from")
                values[":from"] = iso(query.from_date)
            if query.to_date:
                filters.append("created_at <= :to")
                values[":to"] = iso(query.to_date)
        else:
            if query.mime_type:
                index, partition = "files_by_mime", "mime_pk"
                values[":pk"] = _mime_partition(tenant, query.mime_type)
            else:
                index, partition = None, "pk"
                values[":pk"] = tenant.key
            values[":low"] = _FILE + (id_floor("file", to_millis(query.from_date)) if query.from_date else "")
            values[":high"] = _FILE + (id_ceiling("file", to_millis(query.to_date)) if query.to_date else "~")
            key_condition = f"{partition} = :pk AND sk BETWEEN :low AND :high"
            if query.filename:
                filters.append("begins_with(filename, :prefix)")
                values[":prefix"] = query.filename
        params: dict[str, Any] = {
            "KeyConditionExpression": key_condition,
            "ExpressionAttributeValues": values,
        }
        if index:
            params["IndexName"] = index
        if filters:
            params["FilterExpression"] = " AND ".join(filters)
        if not query.include_embeddings:
            params["ProjectionExpression"] = _LISTED
        return params, index

    def _cursor(
        self,
        tenant: Tenant,
        query: FileQuery,
        index: str | None,
        file_id: str | None,
        name: str,
        params: dict[str, Any],
    ) -> dict[str, Any] | None:
        if file_id is None:
            return None
        check_cursor(file_id, name, _FILE + file_id, params)
        start = {"pk": tenant.key, "sk": _FILE + file_id}
        if index == "files_by_mime" and query.mime_type:
            start["mime_pk"] = _mime_partition(tenant, query.mime_type)
        elif index == "files_by_filename":
            cursor = self.get_file(tenant, file_id)
            if cursor is None:
                raise InvalidField(("query", name), f"'{file_id}' is not a file of this environment")
            start["filename_sk"] = _filename_sort_key(cursor.filename, cursor.id)
        return start

    # ------------------------------------------------------------------ upload sessions
    def put_upload(self, tenant: Tenant, session: UploadSession) -> None:
        item = {"pk": tenant.key, "sk": _UPLOAD + session.file_id, **session.model_dump(exclude_none=True)}
        item["ttl"] = int(utc_now().timestamp()) + 2 * 86400
        self._table.put_item(Item=item)

    def get_upload(self, tenant: Tenant, file_id: str) -> UploadSession | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _UPLOAD + file_id}, ConsistentRead=True).get(
            "Item"
        )
        return UploadSession.model_validate(item) if item else None

    def complete_upload(self, tenant: Tenant, record: FileRecord) -> None:
        """Consume the session and create the file in one transaction: exactly one completion wins."""
        client = self._table.meta.client  # the resource's client: plain Python values, like the table
        try:
            client.transact_write_items(
                TransactItems=[
                    {
                        "Delete": {
                            "TableName": self._table_name,
                            "Key": {"pk": tenant.key, "sk": _UPLOAD + record.id},
                            "ConditionExpression": "attribute_exists(pk)",
                        }
                    },
                    {
                        "Put": {
                            "TableName": self._table_name,
                            "Item": file_item(tenant, record),
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                ]
            )
        except ClientError as error:
            if error.response["Error"]["Code"] == "TransactionCanceledException":
                raise Conflict(f"upload session '{record.id}' is already complete") from None
            raise

    def reopen_upload(self, tenant: Tenant, session: UploadSession) -> None:
        self.put_upload(tenant, session)

    # ------------------------------------------------------------------ inspection
    def record_inspection(self, tenant: Tenant, file_id: str, inspection: Inspection) -> bool:
        names = {"#size": "size_bytes"}
        values: dict[str, Any] = {
            ":sha": inspection.sha256,
            ":size": inspection.size_bytes,
            ":now": iso(utc_now()),
        }
        assignments = ["sha256 = :sha", "#size = :size", "updated_at = :now"]
        if inspection.mime_type:
            assignments += ["mime_type = :mime", "mime_pk = :mime_pk"]
            values[":mime"] = inspection.mime_type
            values[":mime_pk"] = _mime_partition(tenant, inspection.mime_type)
        if inspection.page_count is not None:
            assignments.append("page_count = :pages")
            values[":pages"] = inspection.page_count
        if inspection.embedding is not None:
            assignments.append("embedding = :embedding")
            values[":embedding"] = to_bytes(inspection.embedding)
        return aws.written(
            lambda: self._table.update_item(
                Key={"pk": tenant.key, "sk": _FILE + file_id},
                UpdateExpression="SET " + ", ".join(assignments),
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        )
