"""/tables: the environment's lookup tables; uploading a CSV (the formats and limits of POST /v1/tables);
a table's columns and a preview of its rows, a page at a time; the CSV to download; deleting a table."""

from __future__ import annotations

from typing import Annotated

from docsvc.api.table_uploads import OVERRIDES_HELP, column_overrides, table_csv
from docsvc.content_disposition import attachment
from docsvc.errors import DomainError
from docsvc.lookup_tables import MAX_BYTES
from docsvc.services import table_service
from fastapi import APIRouter, Depends, Form, Query, Request, UploadFile
from fastapi.responses import Response

from console.context import Console, ConsoleContext
from console.forms import checked_form
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/tables")
PAGE_SIZE = 25
PREVIEW_ROWS = 25
REQUEST_BYTES = 6 * 1000 * 1000  # what one request to the service carries (AWS Lambda's payload)


def _list(
    request: Request,
    console: ConsoleContext,
    *,
    after: str | None = None,
    status_code: int = 200,
    **values: object,
) -> Response:
    tables, cursor = table_service().page(console.tenant, after, PAGE_SIZE)
    limits = {"request_bytes": REQUEST_BYTES, "max_bytes": MAX_BYTES, "overrides_help": OVERRIDES_HELP}
    return render(
        request,
        "tables/list.html",
        console,
        status_code=status_code,
        tables=tables,
        cursor=cursor,
        **limits,
        **values,
    )


@router.get("", include_in_schema=False)
def tables_page(
    request: Request, console: Console, after: Annotated[str, Query(max_length=256)] = ""
) -> Response:
    return _list(request, console, after=after or None, error=None, form={})


@router.post("", include_in_schema=False, dependencies=[Depends(checked_form)])
async def upload_table(
    request: Request,
    console: Console,
    name: Annotated[str, Form()] = "",
    file: UploadFile | None = None,
    file_id: Annotated[str, Form()] = "",
    column_schema_overrides: Annotated[str, Form()] = "",
) -> Response:
    tables = table_service()
    chosen = file if file is not None and file.filename else None  # a form sends an empty part when none
    try:
        filename, content = await table_csv(tables, console.tenant, chosen, file_id.strip() or None)
        record = tables.create(
            console.tenant, name, filename, content, column_overrides(column_schema_overrides)
        )
    except DomainError as error:
        form = {"name": name, "file_id": file_id, "column_schema_overrides": column_schema_overrides}
        return _list(request, console, status_code=error.status_code, error=error.message, form=form)
    notice = f"Table {record.name} is ready: {record.row_count} rows, {len(record.columns)} columns."
    return redirect_with_notice(f"{console.base}/tables/{record.id}", notice)


@router.get("/{table_id}", include_in_schema=False)
def table_page(
    request: Request, console: Console, table_id: str, offset: Annotated[int, Query(ge=0)] = 0
) -> Response:
    tables = table_service()
    record = tables.get(console.tenant, table_id)
    rows, total = tables.query(console.tenant, table_id, [], PREVIEW_ROWS, offset)
    following = offset + PREVIEW_ROWS
    return render(
        request,
        "tables/table.html",
        console,
        table=record,
        rows=rows,
        total=total,
        offset=offset,
        next_offset=str(following) if following < total else None,
    )


@router.get("/{table_id}/download", include_in_schema=False)
def download_table(console: Console, table_id: str) -> Response:
    filename, content = table_service().download(console.tenant, table_id, raw=False)
    headers = {"Content-Disposition": attachment(filename)}
    return Response(content, media_type="text/csv; charset=utf-8", headers=headers)


@router.post("/{table_id}/delete", include_in_schema=False, dependencies=[Depends(checked_form)])
def delete_table(console: Console, table_id: str) -> Response:
    tables = table_service()
    record = tables.get(console.tenant, table_id)
    tables.delete(console.tenant, table_id)
    return redirect_with_notice(f"{console.base}/tables", f"Table {record.name} is deleted.")
