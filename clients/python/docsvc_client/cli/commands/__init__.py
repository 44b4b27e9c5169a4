"""The command groups of `docsvc` that speak to the API through the SDK (and `env`, which is local).

Each module has `register(commands, common)`: it adds its group, and sets `handler` on each leaf to a
function of the `Context` that returns the exit code.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeAlias

from docsvc_client.cli.context import Context
from docsvc_client.cli.output import dump_json, render_fields

__all__ = ["Commands", "Handler", "add_paging", "group", "leaf", "paging", "show_result"]

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
Handler: TypeAlias = Callable[[Context], int]


def leaf(
    commands: Commands,
    name: str,
    help: str,
    handler: Handler,
    common: argparse.ArgumentParser,
    *,
    confirm: bool = False,
) -> argparse.ArgumentParser:
    """A command; with `confirm`, one that asks before it changes production."""
    parser = commands.add_parser(name, help=help, description=help, parents=[common])
    parser.set_defaults(handler=handler)
    if confirm:
        parser.add_argument("--confirm", action="store_true", help="go ahead in production without asking")
    return parser


def group(commands: Commands, name: str, help: str) -> Commands:
    return commands.add_parser(name, help=help, description=help).add_subparsers(
        dest="action", required=True, metavar="ACTION"
    )


def add_paging(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, help="items per page (the API's default if omitted)")
    parser.add_argument("--after", metavar="CURSOR", help="start after this cursor")
    parser.add_argument("--order", choices=["asc", "desc"], help="by creation time")
    parser.add_argument("--all", action="store_true", help="follow the cursors: every page")


def paging(context: Context) -> dict[str, Any]:
    args = context.args
    return {"limit": args.limit, "after": args.after, "order": args.order}


def show_result(context: Context, result: Any) -> None:
    """A document-intelligence result: its record, then its output in full."""
    fields = [
        ("id", "id"),
        ("filename", "file.filename"),
        ("model", "model"),
        ("pages", "usage.page_count"),
        ("credits", "usage.credits"),
        ("created", "created_at"),
    ]
    context.emit(result, render_fields(result, fields) + "\n\n" + dump_json(result.get("output")))
