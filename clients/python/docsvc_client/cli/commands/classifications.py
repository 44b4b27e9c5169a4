"""`docsvc classifications create PATH --category NAME[:DESC] …`: which category a document is."""

from __future__ import annotations

import argparse

from docsvc_client.cli.commands import Commands, group, leaf, show_result
from docsvc_client.cli.context import Context
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Progress


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "classifications", "documents sorted into categories")
    create = leaf(actions, "create", "classify a document", _create, common)
    create.add_argument("document", metavar="PATH", help="a path, an http(s) URL or a file id")
    create.add_argument(
        "--category", action="append", required=True, metavar="NAME[:DESC]", help="repeat for each category"
    )
    create.add_argument("--first-n-pages", type=int, help="read only the first N pages")
    create.add_argument("--model")
    create.add_argument("--instructions")


def _create(context: Context) -> int:
    args = context.args
    categories = [named(value) for value in args.category]
    with Progress(f"classifying {args.document}"):
        result = context.client.classifications.create(
            args.document,
            categories,
            first_n_pages=args.first_n_pages,
            model=args.model,
            instructions=args.instructions,
        )
    show_result(context, result)
    return 0


def named(value: str) -> dict[str, str]:
    """`NAME[:DESCRIPTION]` as `{name[, description]}`."""
    name, _, description = value.partition(":")
    if not name.strip():
        raise UsageError(f"a category or subdocument is NAME[:DESCRIPTION], not {value!r}")
    return {"name": name.strip(), **({"description": description.strip()} if description.strip() else {})}
