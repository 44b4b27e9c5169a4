"""`docsvc`: entry point of the command-line tool.

Every built-in group speaks to the API through the SDK (`docsvc_client`), with the key chosen as
`docsvc_client.cli.context` describes; `env` edits the local profiles and `completion` prints a shell's
completion script.

Other installed distributions may add groups through the entry-point group `docsvc_client.commands`
(the server adds `docsvc admin`, which works on a deployment through AWS). Each entry point is named as
its group and loads `register(commands)`, which adds the group's parser to `commands` and sets the
default `run_group` on it: a function of the parsed arguments that returns the exit code (a
`UsageError` it raises exits 2). The entry points are looked up only when they may be needed: a
command that is not built in, no command at all (the help lists every group), `--version` and
`completion`. A built-in command therefore never reads the installed distributions' metadata.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from docsvc_client import __version__
from docsvc_client.cli.commands import (
    auth,
    classifications,
    edits,
    env,
    evals,
    events,
    extractions,
    files,
    jobs,
    parses,
    secrets,
    splits,
    tables,
    webhooks,
    workflows,
)
from docsvc_client.cli.context import Context
from docsvc_client.cli.errors import UsageError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from docsvc_client.errors import APIError

__all__ = ["COMMAND_GROUP", "main", "parser"]

COMMAND_GROUP = "docsvc_client.commands"

API_GROUPS = (
    auth,
    files,
    parses,
    jobs,
    extractions,
    classifications,
    splits,
    edits,
    workflows,
    secrets,
    tables,
    evals,
    webhooks,
    events,
)
BUILT_IN = frozenset({*(module.__name__.rpartition(".")[2] for module in API_GROUPS), "env", "completion"})


def common_options(*, connection: bool) -> argparse.ArgumentParser:
    """Options every command takes, before or after its name (defaults suppressed, so that one given
    before the command is not reset after it)."""
    common = argparse.ArgumentParser(add_help=False)
    if connection:
        options = common.add_argument_group("API key and deployment")
        options.add_argument(
            "--api-key", default=argparse.SUPPRESS, help="the API key (it selects the environment)"
        )
        options.add_argument(
            "--base-url",
            default=argparse.SUPPRESS,
            help="the deployment (default: SERVICE_BASE_URL, the profile's)",
        )
        options.add_argument(
            "--env", metavar="NAME", default=argparse.SUPPRESS, help="use the local profile NAME"
        )
        options.add_argument(
            "--live", action="store_true", default=argparse.SUPPRESS, help="use the production profile"
        )
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    return common


def command_groups() -> list[EntryPoint]:
    """The groups other installed distributions add, by name."""
    from importlib.metadata import entry_points

    found = {point.name: point for point in entry_points(group=COMMAND_GROUP) if point.name not in BUILT_IN}
    return [found[name] for name in sorted(found)]


class _Version(argparse.Action):
    """`--version`: this distribution's version, then each distribution that adds a group (looked up
    only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **_: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        lines = [f"docsvc-client {__version__}"]
        for point in command_groups():
            if point.dist is not None:
                lines.append(f"{point.dist.name} {point.dist.version} (docsvc {point.name})")
        print("\n".join(lines))
        parser.exit()


def parser(*, external: bool = True) -> argparse.ArgumentParser:
    """The whole command tree; with `external`, the groups of other installed distributions too."""
    from docsvc_client.cli import completion

    common = common_options(connection=True)
    root = argparse.ArgumentParser(prog="docsvc", description="docsvc command-line tool", parents=[common])
    root.add_argument("--version", action=_Version)
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in API_GROUPS:
        module.register(commands, common)
    env.register(commands, common_options(connection=False))
    completion.register(commands)
    if external:
        for point in command_groups():
            register: Callable[[Any], None] = point.load()
            register(commands)
    return root


def command_word(argv: Sequence[str]) -> str | None:
    """The command named in `argv` (its first word that is neither an option nor an option's value)."""
    with_value = {
        option
        for action in common_options(connection=True)._actions
        if action.nargs != 0
        for option in action.option_strings
    }
    words = iter(argv)
    for word in words:
        if word == "--":
            return next(words, None)
        if word in with_value:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def describe(error: APIError) -> str:
    """`docsvc: <status> <detail> (request id …)`."""
    summary = error.message
    if error.status_code is not None:
        summary = f"{error.status_code} {summary.removeprefix(f'{error.status_code}: ')}"
    return f"docsvc: {summary}" + (f" (request id {error.request_id})" if error.request_id else "")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    word = command_word(argv)
    arguments = parser(external=word is None or word not in BUILT_IN - {"completion"}).parse_args(argv)
    run_group: Callable[[argparse.Namespace], int] | None = getattr(arguments, "run_group", None)
    if run_group is not None:
        try:
            return run_group(arguments)
        except UsageError as error:
            print(f"docsvc: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("docsvc: interrupted", file=sys.stderr)
            return 130
    return run(arguments)


def run(arguments: argparse.Namespace) -> int:
    """A built-in command: its handler with a Context, and its failures as exit codes."""
    from docsvc_client.errors import APIError

    context = Context(arguments)
    try:
        result: int = arguments.handler(context)
        return result
    except UsageError as error:
        print(f"docsvc: {error}", file=sys.stderr)
        return 2
    except APIError as error:
        print(describe(error), file=sys.stderr)
        return 1
    except (OSError, TimeoutError, ValueError) as error:
        print(f"docsvc: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("docsvc: interrupted", file=sys.stderr)
        return 130
    finally:
        context.close()


if __name__ == "__main__":
    sys.exit(main())
