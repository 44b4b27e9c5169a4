"""`docsvc tables create|list|download|delete`: CSV files, typed by column."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docsvc_client.cli.commands import Commands, group, leaf
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import Column, Progress

COLUMNS: list[Column] = [
    ("id", "id"),
    ("name", "name"),
    ("filename", "filename"),
    ("rows", "row_count"),
    ("columns", lambda table: [column.get("name") for column in table.get("columns") or []]),
    ("updated", "updated_at"),
]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "tables", "CSV tables")
    create = leaf(actions, "create", "create a table from a CSV file", _create, common)
    create.add_argument("name")
    create.add_argument("path", type=Path)
    leaf(actions, "list", "list tables", _list, common)
    download = leaf(actions, "download", "download a table's CSV", _download, common)
    download.add_argument("id")
    download.add_argument(
        "-o", "--output", metavar="PATH", help="a file or folder (default: ID.csv here); - for stdout"
    )
    download.add_argument("--raw", action="store_true", help="cells as stored (no ' before formulas)")
    leaf(actions, "delete", "delete a table", _delete, common, confirm=True).add_argument("id")


def _create(context: Context) -> int:
    args = context.args
    with Progress(f"uploading {args.path.name}"):
        table = context.client.tables.create(args.name, args.path)
    context.show(table, COLUMNS)
    return 0


def _list(context: Context) -> int:
    context.show_list(list(context.client.tables.list()), COLUMNS, "tables")
    return 0


def _download(context: Context) -> int:
    args = context.args
    if args.output == "-":
        sys.stdout.buffer.write(context.client.tables.download(args.id, raw=args.raw))
        sys.stdout.flush()
        return 0
    saved = context.client.tables.download(args.id, args.output or ".", raw=args.raw)
    size = saved.stat().st_size
    context.emit({"id": args.id, "path": str(saved), "size_bytes": size}, f"saved {saved} ({size:,} bytes)")
    return 0


def _delete(context: Context) -> int:
    table_id = context.args.id
    context.confirm_production(f"delete table {table_id}")
    context.client.tables.delete(table_id)
    context.emit({"id": table_id, "deleted": True}, f"deleted {table_id}")
    return 0
