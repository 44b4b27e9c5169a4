"""CSV files as lookup tables: parsing and typing them, querying their rows, storing a parsed snapshot,
and downloading the original with spreadsheet formulas made inert. Pure standard library, no I/O."""

from docsvc.lookup_tables.csv_table import parse_csv
from docsvc.lookup_tables.download import download
from docsvc.lookup_tables.model import MAX_BYTES, Column, ColumnType, ParsedTable, TableError
from docsvc.lookup_tables.query import query
from docsvc.lookup_tables.snapshot import from_snapshot, to_snapshot

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
