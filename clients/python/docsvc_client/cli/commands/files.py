"""`docsvc files upload|list|get|download|delete`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import Column, Progress

COLUMNS: list[Column] = [
    ("id", "id"),
    ("filename", "filename"),
    ("type", "mime_type"),
    ("pages", "page_count"),
    ("bytes", "size_bytes"),
    ("created", "created_at"),
]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "files", "uploaded documents")
    upload = leaf(actions, "upload", "upload a file (over 4.5 MB through an upload session)", _upload, common)
    upload.add_argument("path", type=Path)
    upload.add_argument("--filename", help="the name to store (default: the file's own)")
    listing = leaf(actions, "list", "list files, newest first", _list, common)
    listing.add_argument("--filename", help="filename contains this")
    listing.add_argument("--mime-type")
    add_paging(listing)
    leaf(actions, "get", "a file's record", _get, common).add_argument("id")
    download = leaf(actions, "download", "download a file", _download, common)
    download.add_argument("id")
    download.add_argument(
        "-o", "--output", metavar="PATH", help="a file or folder (default: the current folder); - for stdout"
    )
    leaf(actions, "delete", "delete a file", _delete, common, confirm=True).add_argument("id")


def _upload(context: Context) -> int:
    path: Path = context.args.path
    size = path.stat().st_size
    with Progress(f"uploading {path.name} ({size:,} bytes)"):
        uploaded = context.client.files.upload(path, filename=context.args.filename)
    context.show(uploaded, COLUMNS)
    return 0


def _list(context: Context) -> int:
    args = context.args
    page = context.client.files.list(filename=args.filename, mime_type=args.mime_type, **paging(context))
    context.show_list(context.items(page), COLUMNS, "files")
    return 0


def _get(context: Context) -> int:
    context.show(context.client.files.get(context.args.id))
    return 0


def _download(context: Context) -> int:
    args = context.args
    with Progress(f"downloading {args.id}"):
        if args.output == "-":
            sys.stdout.buffer.write(context.client.files.download(args.id))
            sys.stdout.flush()
            return 0
        saved = context.client.files.download(args.id, args.output or ".")
    size = saved.stat().st_size
    context.emit({"id": args.id, "path": str(saved), "size_bytes": size}, f"saved {saved} ({size:,} bytes)")
    return 0


def _delete(context: Context) -> int:
    file_id = context.args.id
    context.confirm_production(f"delete file {file_id}")
    context.client.files.delete(file_id)
    context.emit({"id": file_id, "deleted": True}, f"deleted {file_id}")
    return 0
