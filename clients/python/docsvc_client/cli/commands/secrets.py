"""`docsvc secrets set|list|get|delete`: values for models and workflows. Values are never printed."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from docsvc_client.cli.commands import Commands, group, leaf
from docsvc_client.cli.context import Context
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column
from docsvc_client.errors import NotFoundError

COLUMNS: list[Column] = [
    ("name", "name"),
    ("created", "created_at"),
    ("updated", "updated_at"),
    ("updated by", "updated_by"),
]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "secrets", "values for models and workflows (never shown again)")
    set_ = leaf(
        actions,
        "set",
        "create or rotate a secret; the value comes from stdin (a prompt at a terminal) or --from-file",
        _set,
        common,
        confirm=True,
    )
    set_.add_argument("name")
    set_.add_argument("--from-file", type=Path, metavar="PATH", help="read the value from this file, as is")
    leaf(actions, "list", "list secrets (names and dates only)", _list, common)
    leaf(actions, "get", "a secret's metadata (never its value)", _get, common).add_argument("name")
    leaf(actions, "delete", "delete a secret", _delete, common, confirm=True).add_argument("name")


def _value(context: Context) -> str:
    source: Path | None = context.args.from_file
    if source is not None:
        value = source.read_text(encoding="utf-8")
    elif sys.stdin.isatty():
        value = getpass.getpass(f"value of {context.args.name}: ")
    else:
        value = sys.stdin.read()
        value = value[:-1] if value.endswith("\n") else value  # the newline `echo` adds
        value = value[:-1] if value.endswith("\r") else value
    if not value:
        raise UsageError("the secret's value is empty: give it on stdin or with --from-file")
    return value


def _set(context: Context) -> int:
    name = context.args.name
    value = _value(context)
    secrets = context.client.secrets
    if context.environment() == "production":
        try:
            secrets.get(name)
        except NotFoundError:
            pass
        else:
            context.confirm_production(f"rotate secret {name}")
    context.show(secrets.set(name, value), COLUMNS)
    return 0


def _list(context: Context) -> int:
    context.show_list(list(context.client.secrets.list()), COLUMNS, "secrets")
    return 0


def _get(context: Context) -> int:
    context.show(context.client.secrets.get(context.args.name))
    return 0


def _delete(context: Context) -> int:
    name = context.args.name
    context.confirm_production(f"delete secret {name}")
    context.client.secrets.delete(name)
    context.emit({"name": name, "deleted": True}, f"deleted secret {name}")
    return 0
