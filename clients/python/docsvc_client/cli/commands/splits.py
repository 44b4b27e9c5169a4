"""`docsvc splits create PATH --subdocument NAME[:DESC] …`: which pages are which part of a document."""

from __future__ import annotations

import argparse

from docsvc_client.cli.commands import Commands, group, leaf, show_result
from docsvc_client.cli.commands.classifications import named
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import Progress


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "splits", "documents cut into their parts")
    create = leaf(actions, "create", "split a document into subdocuments", _create, common)
    create.add_argument("document", metavar="PATH", help="a path, an http(s) URL or a file id")
    create.add_argument(
        "--subdocument", action="append", required=True, metavar="NAME[:DESC]", help="repeat for each kind"
    )
    create.add_argument("--model")
    create.add_argument("--instructions")


def _create(context: Context) -> int:
    args = context.args
    with Progress(f"splitting {args.document}"):
        result = context.client.splits.create(
            args.document,
            [named(value) for value in args.subdocument],
            model=args.model,
            instructions=args.instructions,
        )
    show_result(context, result)
    return 0
