"""`docsvc parses create|get|list`: the text of documents, page by page."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import Column, Progress, render_fields

if TYPE_CHECKING:
    from docsvc_client import APIObject

COLUMNS: list[Column] = [
    ("id", "id"),
    ("status", "status"),
    ("filename", "file.filename"),
    ("pages", "usage.page_count"),
    ("model", "model"),
    ("created", "created_at"),
]
FIELDS: list[Column] = [*COLUMNS, ("credits", "usage.credits"), ("error", "error.message")]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "parses", "document text, page by page")
    create = leaf(
        actions, "create", "parse a document (a path, an http(s) URL or a file id)", _create, common
    )
    create.add_argument("document", metavar="PATH_OR_URL")
    create.add_argument(
        "--format", choices=["markdown", "yaml", "html", "json"], help="how tables are written"
    )
    create.add_argument("--model")
    create.add_argument("--instructions")
    create.add_argument("--background", action="store_true", help="answer at once, queued")
    create.add_argument("--wait", action="store_true", help="wait until the parse has finished")
    create.add_argument("--timeout", type=float, default=600, help="seconds --wait waits (default 600)")
    create.add_argument("--text", action="store_true", help="print the document's text too")
    get = leaf(actions, "get", "a parse", _get, common)
    get.add_argument("id")
    get.add_argument("--text", action="store_true", help="print the document's text too")
    listing = leaf(actions, "list", "list parses, newest first", _list, common)
    listing.add_argument("--status", choices=["queued", "in_progress", "completed", "failed", "cancelled"])
    listing.add_argument("--filename", help="filename contains this")
    add_paging(listing)


def _create(context: Context) -> int:
    args = context.args
    with Progress(f"sending {args.document}"):
        parse = context.client.parses.create(
            args.document,
            table_parsing_format=args.format,
            model=args.model,
            instructions=args.instructions,
            background=True if args.background else None,
        )
    from docsvc_client.resources.parses import FINISHED

    if args.wait and parse.get("status") not in FINISHED:
        parse = context.wait(
            lambda: context.client.parses.get(parse.id), FINISHED, f"parse {parse.id}", args.timeout
        )
    _show(context, parse)
    return 1 if args.wait and parse.get("status") != "completed" else 0


def _get(context: Context) -> int:
    _show(context, context.client.parses.get(context.args.id))
    return 0


def _list(context: Context) -> int:
    args = context.args
    page = context.client.parses.list(status=args.status, filename=args.filename, **paging(context))
    context.show_list(context.items(page), COLUMNS, "parses")
    return 0


def _show(context: Context, parse: APIObject) -> None:
    text = render_fields(parse, FIELDS)
    output: Any = parse.get("output")
    if getattr(context.args, "text", False) and isinstance(output, dict) and output.get("text"):
        text += "\n\n" + str(output["text"])
    context.emit(parse, text)
