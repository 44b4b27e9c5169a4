"""Routes of /v1/tables. A CSV comes as a multipart `file` (up to the 6 MB of a request) or as the
`file_id` of an uploaded file (up to 20 MiB, through an upload session)."""

from __future__ import annotations

from typing import Annotated, Any

from docsvc.api.auth import CurrentTenant
from docsvc.api.table_uploads import OVERRIDES_HELP, column_overrides, table_csv
from docsvc.content_disposition import attachment
from docsvc.domain.tables import MAX_QUERY_LIMIT, TableRecord, TableService
from docsvc.services import table_service
from fastapi import APIRouter, Depends, Form, Response, UploadFile
from pydantic import BaseModel, Field

router = APIRouter(prefix="/v1/tables", tags=["tables"])
Tables = Annotated[TableService, Depends(table_service)]


class TablesAnswer(BaseModel):
    tables: list[TableRecord]


class TableAnswer(BaseModel):
    table: TableRecord


class Filter(BaseModel):
    column: str
    operator: str = Field(
        description="eq ne gt gte lt lte contains starts_with ends_with in not_in is_null is_not_null"
    )
    value: Any = None


class TableQuery(BaseModel):
    filters: list[Filter] = Field(default_factory=list, max_length=50)
    limit: int = Field(100, ge=1, le=MAX_QUERY_LIMIT)
    offset: int = Field(0, ge=0)


class QueryAnswer(BaseModel):
    data: list[dict[str, Any]]
    total: int = Field(description="Rows that match, over every page.")
    limit: int
    offset: int


@router.post("", status_code=201, response_model=TablesAnswer, summary="Create a table from a CSV")
async def create_table(
    tenant: CurrentTenant,
    tables: Tables,
    name: Annotated[str, Form(min_length=1, max_length=200)],
    file: UploadFile | None = None,
    file_id: Annotated[str | None, Form(description="An uploaded file, for CSVs over 4.5 MB.")] = None,
    column_schema_overrides: Annotated[str | None, Form(description=OVERRIDES_HELP)] = None,
) -> TablesAnswer:
    filename, content = await table_csv(tables, tenant, file, file_id)
    record = tables.create(tenant, name, filename, content, column_overrides(column_schema_overrides))
    return TablesAnswer(tables=[record])


@router.get("", response_model=TablesAnswer, summary="List the tables of this environment")
def list_tables(tenant: CurrentTenant, tables: Tables) -> TablesAnswer:
    return TablesAnswer(tables=tables.list(tenant))


@router.get("/{table_id}", response_model=TableAnswer, summary="A table's record")
def get_table(tenant: CurrentTenant, tables: Tables, table_id: str) -> TableAnswer:
    return TableAnswer(table=tables.get(tenant, table_id))


@router.put("/{table_id}", response_model=TableAnswer, summary="Replace a table's whole CSV")
async def replace_table(
    tenant: CurrentTenant,
    tables: Tables,
    table_id: str,
    file: UploadFile | None = None,
    file_id: Annotated[str | None, Form()] = None,
    name: Annotated[str | None, Form(min_length=1, max_length=200)] = None,
    column_schema_overrides: Annotated[str | None, Form(description=OVERRIDES_HELP)] = None,
) -> TableAnswer:
    tables.get(tenant, table_id)  # 404 before reading the upload
    filename, content = await table_csv(tables, tenant, file, file_id)
    record = tables.replace(
        tenant, table_id, filename, content, column_overrides(column_schema_overrides), name
    )
    return TableAnswer(table=record)


@router.delete("/{table_id}", status_code=204, response_class=Response, summary="Delete a table")
def delete_table(tenant: CurrentTenant, tables: Tables, table_id: str) -> Response:
    tables.delete(tenant, table_id)
    return Response(status_code=204)


@router.get(
    "/{table_id}/download",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}}},
    summary="The CSV; spreadsheet formulas are made inert unless raw=true",
)
def download_table(tenant: CurrentTenant, tables: Tables, table_id: str, raw: bool = False) -> Response:
    filename, content = tables.download(tenant, table_id, raw=raw)
    return Response(
        content, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": attachment(filename)}
    )


@router.post("/{table_id}/query", response_model=QueryAnswer, summary="The rows that match every filter")
def query_table(tenant: CurrentTenant, tables: Tables, table_id: str, body: TableQuery) -> QueryAnswer:
    filters = [item.model_dump() for item in body.filters]
    rows, total = tables.query(tenant, table_id, filters, body.limit, body.offset)
    return QueryAnswer(data=rows, total=total, limit=body.limit, offset=body.offset)
