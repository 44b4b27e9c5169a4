"""`docsvc env add|list|switch|remove`: local profiles, each an API key and optionally a base URL.

Keys are stored in the profile file (mode 0600) and never printed in full.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from docsvc_client.cli.commands import Commands, group, leaf
from docsvc_client.cli.context import Context
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column
from docsvc_client.cli.profiles import Profile, Profiles, mask

COLUMNS: list[Column] = [
    ("", lambda row: "*" if row["default"] else " "),
    ("name", "name"),
    ("key", "key"),
    ("base url", "base_url"),
    ("live", "live"),
]


def register(commands: Commands, json_only: argparse.ArgumentParser) -> None:
    actions = group(commands, "env", "local profiles: named API keys (the key selects the environment)")
    add = leaf(actions, "add", "add or replace a profile", _add, json_only)
    add.add_argument("name")
    add.add_argument("--api-key", required=True, metavar="KEY", help="the key, or - to read it from stdin")
    add.add_argument("--base-url", metavar="URL", help="the deployment this key is used with")
    add.add_argument(
        "--live", action="store_true", help="the profile --live picks (if none is named production)"
    )
    add.add_argument("--default", action="store_true", help="make it the default profile")
    leaf(actions, "list", "list profiles (* marks the default)", _list, json_only)
    leaf(actions, "switch", "make a profile the default", _switch, json_only).add_argument("name")
    leaf(actions, "remove", "remove a profile", _remove, json_only).add_argument("name")


def _rows(profiles: Profiles) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "key": mask(profile.api_key),
            "base_url": profile.base_url,
            "live": profile.live,
            "default": name == profiles.default,
        }
        for name, profile in sorted(profiles.profiles.items())
    ]


def _add(context: Context) -> int:
    args = context.args
    key = sys.stdin.readline().strip() if args.api_key == "-" else args.api_key.strip()
    if not key:
        raise UsageError("--api-key is empty")
    profiles = Profiles.load()
    profiles.add(args.name, Profile(api_key=key, base_url=args.base_url, live=args.live))
    if args.default:
        profiles.switch(args.name)
    profiles.save()
    row = next(row for row in _rows(profiles) if row["name"] == args.name)
    context.emit(row, f"added profile {args.name} ({row['key']}){' (default)' if row['default'] else ''}")
    return 0


def _list(context: Context) -> int:
    context.show_list(_rows(Profiles.load()), COLUMNS, "profiles: docsvc env add NAME --api-key KEY")
    return 0


def _switch(context: Context) -> int:
    profiles = Profiles.load()
    profiles.switch(context.args.name)
    profiles.save()
    context.emit({"default": profiles.default}, f"default profile: {profiles.default}")
    return 0


def _remove(context: Context) -> int:
    profiles = Profiles.load()
    profiles.remove(context.args.name)
    profiles.save()
    context.emit(
        {"removed": context.args.name, "default": profiles.default},
        f"removed profile {context.args.name}; default: {profiles.default or 'none'}",
    )
    return 0
