"""`docsvc`: entry point of the command-line tool.

`docsvc admin …` operates a deployment through AWS directly; every other group speaks to the API
through the SDK (`docsvc.sdk`), with the key chosen as `docsvc.cli.context` describes.
"""

from __future__ import annotations

import argparse
import sys

from docsvc.cli.admin import add_admin_commands, run_admin
from docsvc.cli.commands import (
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
from docsvc.cli.context import Context
from docsvc.cli.deployment import DeploymentNotFound
from docsvc.cli.errors import UsageError
from docsvc.errors import DomainError
from docsvc.sdk import APIError

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
)


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


def parser() -> argparse.ArgumentParser:
    common = common_options(connection=True)
    root = argparse.ArgumentParser(prog="docsvc", description="docsvc command-line tool", parents=[common])
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in API_GROUPS:
        module.register(commands, common)
    evals.register(commands, common)
    webhooks.register(commands, common)
    events.register(commands, common)
    env.register(commands, common_options(connection=False))
    add_admin_commands(commands)
    return root


def describe(error: APIError) -> str:
    """`docsvc: <status> <detail> (request id …)`."""
    summary = error.message
    if error.status_code is not None:
        summary = f"{error.status_code} {summary.removeprefix(f'{error.status_code}: ')}"
    return f"docsvc: {summary}" + (f" (request id {error.request_id})" if error.request_id else "")


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.command == "admin":
        try:
            return run_admin(arguments)
        except UsageError as error:
            print(f"docsvc: {error}", file=sys.stderr)
            return 2
        except (DeploymentNotFound, DomainError, ValueError) as error:
            print(f"docsvc: {error}", file=sys.stderr)
            return 1
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
