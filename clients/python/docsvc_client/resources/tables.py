"""Tables: CSV files, typed by column, that can be queried with filters."""

from __future__ import annotations

import json
import os
from collections.abc import Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import FileInput, Resource, read_file
from docsvc_client.resources.files import DIRECT_UPLOAD_LIMIT, AsyncFiles, Files

__all__ = ["AsyncTables", "Tables"]


def _form(
    name: str | None, file_id: str | None, column_schema_overrides: Mapping[str, str] | None
) -> dict[str, str]:
    form: dict[str, str] = {}
    if name is not None:
        form["name"] = name
    if file_id is not None:
        form["file_id"] = file_id
    if column_schema_overrides is not None:
        form["column_schema_overrides"] = json.dumps(dict(column_schema_overrides))
    return form


def _query_body(
    filters: Sequence[Mapping[str, Any]] | None, limit: int | None, offset: int | None
) -> dict[str, Any]:
    body: dict[str, Any] = {"filters": [dict(item) for item in filters or ()]}
    if limit is not None:
        body["limit"] = limit
    if offset is not None:
        body["offset"] = offset
    return body


def _csv(source: FileInput | None, filename: str | None) -> tuple[str, bytes] | None:
    if source is None:
        return None
    name, content = read_file(source, filename)
    return (name if name != "document" else "table.csv"), content


class Tables(Resource[Any, Any, Any]):
    """Methods answer the table record `{id, name, filename, row_count, columns, …}` (the API's
    `{"table": …}` / `{"tables": […]}` envelopes are taken off)."""

    def __init__(self, http: SyncHTTP, files: Files) -> None:
        super().__init__(http)
        self._sync = http
        self._files = files

    def _send(
        self,
        method: str,
        path: str,
        name: str | None,
        source: FileInput | None,
        file_id: str | None,
        filename: str | None,
        overrides: Mapping[str, str] | None,
        unwrap: str,
    ) -> APIObject:
        csv = _csv(source, filename)
        if csv is not None and len(csv[1]) > DIRECT_UPLOAD_LIMIT:  # too big for a request: upload first
            file_id, csv = self._files.upload(csv[1], csv[0])["id"], None
        files = {"file": (csv[0], csv[1], "text/csv")} if csv is not None else None
        form = _form(name, file_id, overrides)
        return self._sync.object(method, path, files=files, data=form, unwrap=unwrap)

    def create(
        self,
        name: str,
        path_or_bytes: FileInput | None = None,
        *,
        file_id: str | None = None,
        filename: str | None = None,
        column_schema_overrides: Mapping[str, str] | None = None,
    ) -> APIObject:
        """A table from a CSV (a path or bytes; over 4.5 MB it is uploaded as a file first) or an
        uploaded file's id. `column_schema_overrides` forces types: `{"zip": "string"}`."""
        return self._send(
            "POST", "/v1/tables", name, path_or_bytes, file_id, filename, column_schema_overrides, "tables"
        )

    def list(self) -> SyncPage:
        return self._sync.page("/v1/tables", key="tables")

    def get(self, table_id: str) -> APIObject:
        return self._sync.object("GET", f"/v1/tables/{table_id}", unwrap="table")

    def replace(
        self,
        table_id: str,
        path_or_bytes: FileInput | None = None,
        *,
        file_id: str | None = None,
        filename: str | None = None,
        name: str | None = None,
        column_schema_overrides: Mapping[str, str] | None = None,
    ) -> APIObject:
        """Replaces the table's rows with a new CSV (and optionally its name)."""
        path = f"/v1/tables/{table_id}"
        return self._send(
            "PUT", path, name, path_or_bytes, file_id, filename, column_schema_overrides, "table"
        )

    def delete(self, table_id: str) -> None:
        self._sync.none("DELETE", f"/v1/tables/{table_id}")

    @overload
    def download(self, table_id: str, *, raw: bool = False) -> bytes: ...
    @overload
    def download(self, table_id: str, to: str | os.PathLike[str], *, raw: bool = False) -> Path: ...
    def download(
        self, table_id: str, to: str | os.PathLike[str] | None = None, *, raw: bool = False
    ) -> bytes | Path:
        """The CSV; unless `raw`, cells that a spreadsheet would run as formulas start with `'`."""
        response = self._sync.request("GET", f"/v1/tables/{table_id}/download", params={"raw": raw or None})
        return _save(response.content, to, table_id) if to is not None else response.content

    def query(
        self,
        table_id: str,
        filters: Sequence[Mapping[str, Any]] | None = None,
        *,
        limit: int | None = None,
        offset: int | None = None,
    ) -> APIObject:
        """`{data, total, limit, offset}`; filters are `{column, operator, value}`, all must match."""
        body = _query_body(filters, limit, offset)
        return self._sync.object("POST", f"/v1/tables/{table_id}/query", json=body)


class AsyncTables(Resource[Any, Any, Any]):
    """Methods answer the table record (the API's envelopes are taken off)."""

    def __init__(self, http: AsyncHTTP, files: AsyncFiles) -> None:
        super().__init__(http)
        self._async = http
        self._files = files

    async def _send(
        self,
        method: str,
        path: str,
        name: str | None,
        source: FileInput | None,
        file_id: str | None,
        filename: str | None,
        overrides: Mapping[str, str] | None,
        unwrap: str,
    ) -> APIObject:
        csv = _csv(source, filename)
        if csv is not None and len(csv[1]) > DIRECT_UPLOAD_LIMIT:
            file_id, csv = (await self._files.upload(csv[1], csv[0]))["id"], None
        files = {"file": (csv[0], csv[1], "text/csv")} if csv is not None else None
        form = _form(name, file_id, overrides)
        return await self._async.object(method, path, files=files, data=form, unwrap=unwrap)

    async def create(
        self,
        name: str,
        path_or_bytes: FileInput | None = None,
        *,
        file_id: str | None = None,
        filename: str | None = None,
        column_schema_overrides: Mapping[str, str] | None = None,
    ) -> APIObject:
        return await self._send(
            "POST", "/v1/tables", name, path_or_bytes, file_id, filename, column_schema_overrides, "tables"
        )

    def list(self) -> Coroutine[Any, Any, AsyncPage]:
        return self._async.page("/v1/tables", key="tables")

    def get(self, table_id: str) -> Coroutine[Any, Any, APIObject]:
        return self._async.object("GET", f"/v1/tables/{table_id}", unwrap="table")

    async def replace(
        self,
        table_id: str,
        path_or_bytes: FileInput | None = None,
        *,
        file_id: str | None = None,
        filename: str | None = None,
        name: str | None = None,
        column_schema_overrides: Mapping[str, str] | None = None,
    ) -> APIObject:
        path = f"/v1/tables/{table_id}"
        return await self._send(
            "PUT", path, name, path_or_bytes, file_id, filename, column_schema_overrides, "table"
        )

    def delete(self, table_id: str) -> Coroutine[Any, Any, None]:
        return self._async.none("DELETE", f"/v1/tables/{table_id}")

    @overload
    async def download(self, table_id: str, *, raw: bool = False) -> bytes: ...
    @overload
    async def download(self, table_id: str, to: str | os.PathLike[str], *, raw: bool = False) -> Path: ...
    async def download(
        self, table_id: str, to: str | os.PathLike[str] | None = None, *, raw: bool = False
    ) -> bytes | Path:
        response = await self._async.request(
            "GET", f"/v1/tables/{table_id}/download", params={"raw": raw or None}
        )
        return _save(response.content, to, table_id) if to is not None else response.content

    def query(
        self,
        table_id: str,
        filters: Sequence[Mapping[str, Any]] | None = None,
        *,
        limit: int | None = None,
        offset: int | None = None,
    ) -> Coroutine[Any, Any, APIObject]:
        body = _query_body(filters, limit, offset)
        return self._async.object("POST", f"/v1/tables/{table_id}/query", json=body)


def _save(content: bytes, to: str | os.PathLike[str], table_id: str) -> Path:
    target = Path(to)
    if target.is_dir():
        target = target / f"{table_id}.csv"
    target.write_bytes(content)
    return target
