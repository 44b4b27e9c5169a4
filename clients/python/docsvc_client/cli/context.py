"""What a command runs with: the resolved credentials, one SDK client, printing, confirmation for
production, and waiting.

Credentials (the key selects the environment; the base URL only the deployment):

1. `--api-key KEY`;
2. the `SERVICE_API_KEY` environment variable;
3. `--env NAME`: the local profile NAME;
4. `--live`: the profile named "production", else the profile marked live;
5. the default profile (`docsvc env switch NAME`).

`--live` or `--env` beside a key from 1 or 2 is refused (exit 2): the key already selects the
environment. The base URL is `--base-url`, else `SERVICE_BASE_URL`, else the chosen profile's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column, Progress, dump_json, render_fields, render_table
from docsvc_client.cli.profiles import Profile, Profiles

if TYPE_CHECKING:  # the SDK, and with it httpx, is imported when a command first calls the API
    from docsvc_client import APIObject, Client, SyncPage

__all__ = ["Context", "Credentials", "client_factory", "read_json_argument", "resolve_credentials"]

POLL_INTERVAL = 0.5  # seconds between two looks at something waited for
PRODUCTION = "production"
LIVE_PREFIXES = ("svc_live_", "sk_svc_")


@dataclass(frozen=True)
class Credentials:
    api_key: str
    base_url: str
    source: str  # where the key came from: "--api-key", "SERVICE_API_KEY" or "profile NAME"
    profile: str | None = None


def resolve_credentials(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Credentials:
    from docsvc_client._http import API_KEY_ENV, BASE_URL_ENV

    environ = os.environ if environ is None else environ
    flag_key: str | None = getattr(args, "api_key", None) or None
    env_key = environ.get(API_KEY_ENV) or None
    profile_name: str | None = getattr(args, "env", None) or None
    live = bool(getattr(args, "live", False))
    if live and profile_name:
        raise UsageError("--live and --env both name an environment: give one")
    selector = "--live" if live else f"--env {profile_name}" if profile_name else None
    if selector and (flag_key or env_key):
        given = "--api-key" if flag_key else API_KEY_ENV
        raise UsageError(
            f"{selector} cannot be combined with {given}: the API key already selects the environment "
            f"(drop {selector}, or {'the --api-key option' if flag_key else f'unset {API_KEY_ENV}'})"
        )
    profile: Profile | None = None
    if flag_key:
        key, source = flag_key, "--api-key"
    elif env_key:
        key, source = env_key, API_KEY_ENV
    else:
        profiles = Profiles.load()
        if profile_name:
            profile = profiles.get(profile_name)
        elif live:
            found = profiles.live()
            if found is None:
                raise UsageError(
                    "--live: no profile named production and none marked live "
                    "(docsvc env add production --api-key svc_live_… --base-url URL)"
                )
            profile_name, profile = found
        elif profiles.default is not None:
            profile_name, profile = profiles.default, profiles.get(profiles.default)
        else:
            raise UsageError(
                f"no API key: pass --api-key, set {API_KEY_ENV}, "
                "or add a profile with `docsvc env add NAME --api-key KEY --base-url URL`"
            )
        key, source = profile.api_key, f"profile {profile_name}"
    base_url = (
        getattr(args, "base_url", None)
        or environ.get(BASE_URL_ENV)
        or (profile.base_url if profile else None)
    )
    if not base_url:
        raise UsageError(
            f"no base URL: pass --base-url, set {BASE_URL_ENV}, or store one in the profile "
            "(docsvc env add NAME --api-key KEY --base-url URL)"
        )
    return Credentials(key, base_url, source, profile_name if profile else None)


def default_client(credentials: Credentials) -> Client:
    from docsvc_client._client import Client

    return Client(api_key=credentials.api_key, base_url=credentials.base_url)


# How commands get their SDK client; tests may replace it (or pass an `http_client` through it).
client_factory: Callable[[Credentials], Client] = default_client


class Context:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self._credentials: Credentials | None = None
        self._client: Client | None = None
        self._environment: str | None = None

    @property
    def json(self) -> bool:
        return bool(getattr(self.args, "json", False))

    @property
    def credentials(self) -> Credentials:
        if self._credentials is None:
            self._credentials = resolve_credentials(self.args)
        return self._credentials

    @property
    def client(self) -> Client:
        if self._client is None:
            self._client = client_factory(self.credentials)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    # Output

    def emit(self, value: Any, text: str) -> None:
        """`value` as JSON with --json, else `text`."""
        print(dump_json(value) if self.json else text)

    def show(self, item: Mapping[str, Any], fields: Sequence[Column] | None = None) -> None:
        self.emit(item, render_fields(item, fields))

    def show_list(self, items: Sequence[Mapping[str, Any]], columns: Sequence[Column], what: str) -> None:
        self.emit(list(items), render_table(items, columns) if items else f"no {what}")

    def items(self, page: SyncPage) -> list[APIObject]:
        """Every item of every page with --all; else the first page, with a hint when more exist."""
        if getattr(self.args, "all", False):
            return list(page)
        if page.has_more and page.next_cursor is not None:
            note(f"more on the next page: --after {page.next_cursor} (or --all)")
        return list(page.data)

    # Production safety

    def environment(self) -> str:
        """The environment the key selects, asked of the service once (the key prefix is the fallback)."""
        if self._environment is None:
            status = self.client.auth.status()
            named = status.get("environment_slug") or (status.get("environment") or {}).get("name")
            hint = PRODUCTION if self.credentials.api_key.startswith(LIVE_PREFIXES) else "test"
            self._environment = str(named or hint)
        return self._environment

    def confirm_production(self, action: str) -> None:
        """In production, `action` needs --confirm, or `production` typed at a terminal."""
        if self.environment() == PRODUCTION:
            confirm_production(action, getattr(self.args, "confirm", False))

    # Waiting

    def wait(
        self, fetch: Callable[[], APIObject], finished: Collection[str], what: str, timeout: float
    ) -> APIObject:
        """Calls `fetch` until its `status` is one of `finished`; a spinner meanwhile (on a terminal)."""
        deadline = time.monotonic() + timeout
        with Progress(f"waiting for {what}") as progress:
            while True:
                current = fetch()
                status = current.get("status")
                if status in finished:
                    return current
                progress.update(f"{what}: {status}")
                if time.monotonic() >= deadline:
                    raise TimeoutError(f"{what} is still {status} after {timeout:g} s")
                time.sleep(POLL_INTERVAL)


def note(message: str) -> None:
    print(message, file=sys.stderr)


def read_json_argument(value: str, what: str) -> Any:
    """A JSON argument given inline, as a file's path, or `-` for stdin."""
    if value == "-":
        text = sys.stdin.read()
    elif not value.lstrip().startswith(("{", "[")) and Path(value).is_file():
        text = Path(value).read_text(encoding="utf-8")
    else:
        text = value
    try:
        return json.loads(text)
    except ValueError as error:
        raise UsageError(f"{what} is neither a JSON file nor JSON: {error}") from None


def key_value(argument: str, what: str) -> tuple[str, str]:
    """`NAME=VALUE`, split at the first `=`."""
    name, separator, value = argument.partition("=")
    if not separator or not name:
        raise UsageError(f"{what} is NAME=VALUE, not {argument!r}")
    return name, value


def confirm_production(action: str, confirmed: bool) -> None:
    """UsageError unless `confirmed` (--confirm) or `production` is typed at a terminal."""
    if confirmed:
        return
    if not sys.stdin.isatty():
        raise UsageError(f"refusing to {action} in production without --confirm; nothing was done")
    sys.stderr.write(f"This will {action} in production. Type production to continue: ")
    sys.stderr.flush()
    if sys.stdin.readline().strip() != PRODUCTION:
        raise UsageError("not confirmed; nothing was done")
