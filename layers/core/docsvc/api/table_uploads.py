"""A table's CSV as a form sends it: a multipart `file`, or the `file_id` of an uploaded file (for CSVs
over a request's size), with optional column type overrides as a JSON object. Shared by the tables API
and the console's upload form, so both take and refuse the same things."""

from __future__ import annotations

from fastapi import UploadFile

from docsvc.api.json_bodies import loads
from docsvc.domain.tables import TableService
from docsvc.errors import InvalidField
from docsvc.lookup_tables import MAX_BYTES
from docsvc.tenancy import Tenant

OVERRIDES_HELP = "A JSON object {column: type}, type one of integer, number, boolean, date, string."


async def table_csv(
    tables: TableService, tenant: Tenant, file: UploadFile | None, file_id: str | None
) -> tuple[str, bytes]:
    """The CSV's file name and bytes (at most MAX_BYTES + 1 are read: the service refuses more)."""
    if (file is None) == (file_id is None):
        raise InvalidField(("body", "file"), "send the CSV as `file`, or the `file_id` of an uploaded file")
    if file is not None:
        return file.filename or "table.csv", await file.read(MAX_BYTES + 1)
    assert file_id is not None
    return tables.uploaded(tenant, file_id)


def column_overrides(value: str | None) -> dict[str, str] | None:
    """The `column_schema_overrides` field read as {column: type}; None when left empty."""
    if not value:
        return None
    parsed = loads(value, ("body", "column_schema_overrides"), OVERRIDES_HELP)
    if not isinstance(parsed, dict) or not all(isinstance(kind, str) for kind in parsed.values()):
        raise InvalidField(("body", "column_schema_overrides"), OVERRIDES_HELP)
    return parsed
