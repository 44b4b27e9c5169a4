"""`docsvc extractions create PATH --schema FILE`: data out of a document, valid against a JSON schema."""

from __future__ import annotations

import argparse

from docsvc_client.cli.commands import Commands, group, leaf, show_result
from docsvc_client.cli.context import Context, read_json_argument
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Progress


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "extractions", "structured data out of documents")
    create = leaf(actions, "create", "extract data from a document", _create, common)
    create.add_argument("document", metavar="PATH", help="a path, an http(s) URL or a file id")
    create.add_argument("--schema", required=True, metavar="FILE", help="a JSON schema (a file, JSON, or -)")
    create.add_argument("--model")
    create.add_argument("--instructions")


def _create(context: Context) -> int:
    args = context.args
    schema = read_json_argument(args.schema, "--schema")
    if not isinstance(schema, dict):
        raise UsageError("--schema is a JSON object (a JSON schema)")
    with Progress(f"extracting from {args.document}"):
        result = context.client.extractions.create(
            args.document, schema, model=args.model, instructions=args.instructions
        )
    show_result(context, result)
    return 0
