"""`docsvc auth status`: which organization and environment the key selects."""

from __future__ import annotations

import argparse

from docsvc_client.cli.commands import Commands, group, leaf
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import render_fields


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "auth", "the API key in use")
    leaf(actions, "status", "the organization and environment the API key selects", _status, common)


def _status(context: Context) -> int:
    status = context.client.auth.status()
    credentials = context.credentials
    text = render_fields(
        status,
        [
            ("organization", "organization_id"),
            ("environment", lambda s: s.get("environment_slug") or (s.get("environment") or {}).get("name")),
            ("environment id", "environment_id"),
            (
                "key",
                lambda s: f"{(s.get('key') or {}).get('prefix', '?')}… ({(s.get('key') or {}).get('name')})",
            ),
            ("key from", lambda _: credentials.source),
            ("base url", lambda _: credentials.base_url),
        ],
    )
    context.emit(status, text)
    return 0
