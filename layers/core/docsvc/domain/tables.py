"""Tables: CSV files as lookup databases, per organization and environment (spec 2.7, 4.6). A table is
replaced whole, never edited by row or cell. The original CSV is kept as uploaded; queries run on a
parsed snapshot (typed rows), never by reading the CSV again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentSource, FileRef
from docsvc.errors import InvalidField, NotFound, PayloadTooLarge
from docsvc.ids import new_id
from docsvc.lookup_tables import (
    MAX_BYTES,
    ParsedTable,
    TableError,
    from_snapshot,
    parse_csv,
    query,
    to_snapshot,
)
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

MAX_QUERY_LIMIT = 500
Rows = list[dict[str, Any]]
SNAPSHOTS_KEPT = 4  # parsed tables kept in memory per process, the most recently queried


class ColumnInfo(BaseModel):
    name: str
    type: str
    nullable: bool
    sample_values: list[Any]


class TableRecord(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    name: str
    filename: str
    row_count: int
    columns: list[ColumnInfo]
    created_at: str
    updated_at: str


# A page of a list: the records, and the cursor of the next page (None on the last).
TablePage = tuple[list[TableRecord], str | None]


class TableRepository(Protocol):
    def put(self, tenant: Tenant, record: TableRecord) -> None: ...
    def fits(self, tenant: Tenant, record: TableRecord) -> bool:
        """Whether the store takes a record this size (the columns' names and samples grow it)."""
        ...

    def get(self, tenant: Tenant, table_id: str) -> TableRecord | None: ...
    def list(self, tenant: Tenant) -> list[TableRecord]: ...
    def page(self, tenant: Tenant, after: str | None, limit: int) -> TablePage:
        """Up to `limit` tables, newest first, after the table `after`; the id the next page follows."""
        ...

    def delete(self, tenant: Tenant, table_id: str) -> bool: ...


class TableStore(Protocol):
    """The bytes: the original CSV and its parsed snapshot."""

    def save(self, tenant: Tenant, table_id: str, original: bytes, snapshot: bytes) -> None: ...
    def original(self, tenant: Tenant, table_id: str) -> bytes: ...
    def snapshot(self, tenant: Tenant, table_id: str) -> bytes: ...
    def delete(self, tenant: Tenant, table_id: str) -> None: ...


class TableService:
    def __init__(self, repository: TableRepository, store: TableStore, documents: DocumentSource) -> None:
        self._repository = repository
        self._store = store
        self._documents = documents
        self._snapshots: OrderedDict[tuple[str, str, str], ParsedTable] = OrderedDict()
        self._lock = threading.Lock()

    def create(
        self, tenant: Tenant, name: str, filename: str, content: bytes, overrides: Mapping[str, str] | None
    ) -> TableRecord:
        now = iso(utc_now())
        return self._store_table(tenant, new_id("tbl"), name, filename, content, overrides, created_at=now)

    def replace(
        self,
        tenant: Tenant,
        table_id: str,
        filename: str,
        content: bytes,
        overrides: Mapping[str, str] | None,
        name: str | None = None,
    ) -> TableRecord:
        current = self.get(tenant, table_id)
        return self._store_table(
            tenant,
            table_id,
            name or current.name,
            filename,
            content,
            overrides,
            created_at=current.created_at,
        )

    def uploaded(self, tenant: Tenant, file_id: str) -> tuple[str, bytes]:
        """The name and bytes of an uploaded file of this environment (for CSVs above a request's size)."""
        reference = FileRef.at(("body", "file_id"), file_id)
        source = self._documents.load(tenant, reference, ("csv", "tsv", "txt"))
        return source.filename, source.content

    def get(self, tenant: Tenant, table_id: str) -> TableRecord:
        record = self._repository.get(tenant, table_id)
        if record is None:
            raise NotFound(f"no table '{table_id}'")
        return record

    def list(self, tenant: Tenant) -> list[TableRecord]:
        return self._repository.list(tenant)

    def page(self, tenant: Tenant, after: str | None, limit: int) -> TablePage:
        """A page of the tables, newest first, read by key (for lists shown a page at a time)."""
        return self._repository.page(tenant, after, limit)

    def delete(self, tenant: Tenant, table_id: str) -> None:
        if not self._repository.delete(tenant, table_id):
            raise NotFound(f"no table '{table_id}'")
        self._store.delete(tenant, table_id)

    def download(self, tenant: Tenant, table_id: str, *, raw: bool) -> tuple[str, bytes]:
        """The CSV as uploaded (`raw`), or with spreadsheet formulas made inert."""
        from docsvc.lookup_tables import download

        record = self.get(tenant, table_id)
        return record.filename, download(self._store.original(tenant, table_id), raw=raw)

    def query(
        self, tenant: Tenant, table_id: str, filters: Sequence[Mapping[str, Any]], limit: int, offset: int
    ) -> tuple[Rows, int]:
        """The rows that match every filter (a page of them), and how many match in all."""
        record = self.get(tenant, table_id)
        try:
            return query(self._parsed(tenant, record), filters, limit=limit, offset=offset)
        except TableError as error:
            raise InvalidField(("body", error.field), str(error)) from None

    def lookup(self, tenant: Tenant, column: str, value: str, limit: int = 5) -> Rows:
        """Rows whose `column` equals `value`, from the first of the environment's tables (newest first)
        that has such a column and such rows; a column's name matches whatever its case, spaces and
        underscores. What deep research looks values up in."""
        wanted = _column_key(column)
        for record in self.list(tenant):
            name = next((info.name for info in record.columns if _column_key(info.name) == wanted), None)
            if name is None:
                continue
            try:
                rows, _ = query(
                    self._parsed(tenant, record),
                    [{"column": name, "operator": "eq", "value": value}],
                    limit=limit,
                )
            except TableError:  # the value cannot be of that column's type
                continue
            if rows:
                return rows
        return []

    # ------------------------------------------------------------------ helpers
    def _store_table(
        self,
        tenant: Tenant,
        table_id: str,
        name: str,
        filename: str,
        content: bytes,
        overrides: Mapping[str, str] | None,
        *,
        created_at: str,
    ) -> TableRecord:
        if not name.strip():
            raise InvalidField(("body", "name"), "a table needs a name")
        parsed = _parse(content, overrides)
        record = TableRecord(
            id=table_id,
            environment=tenant.environment,
            name=name.strip(),
            filename=filename or "table.csv",
            row_count=len(parsed.rows),
            columns=[ColumnInfo(**vars(column)) for column in parsed.columns],
            created_at=created_at,
            updated_at=iso(utc_now()),
        )
        if not self._repository.fits(tenant, record):  # before any write: nothing is left half-stored
            raise PayloadTooLarge(
                f"the table's {len(record.columns)} columns, with their names and sample values, are more "
                "than a table's description can hold: send fewer columns, or shorter column names"
            )
        self._store.save(tenant, table_id, content, to_snapshot(parsed))
        self._repository.put(tenant, record)
        return record

    def _parsed(self, tenant: Tenant, record: TableRecord) -> ParsedTable:
        key = (tenant.key, record.id, record.updated_at)
        with self._lock:
            if key in self._snapshots:
                self._snapshots.move_to_end(key)
                return self._snapshots[key]
        parsed = from_snapshot(self._store.snapshot(tenant, record.id))
        with self._lock:
            self._snapshots[key] = parsed
            while len(self._snapshots) > SNAPSHOTS_KEPT:
                self._snapshots.popitem(last=False)
        return parsed


def _column_key(name: str) -> str:
    return "".join(character for character in name.casefold() if character.isalnum())


def _parse(content: bytes, overrides: Mapping[str, str] | None) -> ParsedTable:
    if len(content) > MAX_BYTES:
        raise PayloadTooLarge(f"a table's CSV may be at most {MAX_BYTES} bytes")
    try:
        return parse_csv(content, overrides)
    except TableError as error:
        if error.code == "too_large":
            raise PayloadTooLarge(str(error)) from None
        raise InvalidField(("body", error.field), str(error)) from None
