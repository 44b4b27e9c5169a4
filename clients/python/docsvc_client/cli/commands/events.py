"""`docsvc events list [--type T]`: what happened in the key's environment."""

from __future__ import annotations

import argparse

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import Column

COLUMNS: list[Column] = [("id", "id"), ("type", "type"), ("created", "created_at"), ("data", "data")]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "events", "what happened in this environment")
    listing = leaf(actions, "list", "list events, newest first", _list, common)
    listing.add_argument("--type", help="exact (job.completed) or a family (job.*)")
    add_paging(listing)


def _list(context: Context) -> int:
    page = context.client.events.list(type=context.args.type, **paging(context))
    context.show_list(context.items(page), COLUMNS, "events")
    return 0
