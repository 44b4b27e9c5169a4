"""CSV files as lookup tables: parsing and typing them, querying their rows, storing a parsed snapshot,
and downloading the original with spreadsheet formulas made inert. Pure standard library, no I/O."""

from docsvc.tables.csv_table import parse_csv
from docsvc.tables.download import download
from docsvc.tables.model import MAX_BYTES, Column, ColumnType, ParsedTable, TableError
from docsvc.tables.query import query
from docsvc.tables.snapshot import from_snapshot, to_snapshot

__all__ = [
    "MAX_BYTES",
    "Column",
    "ColumnType",
    "ParsedTable",
    "TableError",
    "download",
    "from_snapshot",
    "parse_csv",
    "query",
    "to_snapshot",
]
