"""`docsvc`: entry point of the command-line tool."""

from __future__ import annotations

import argparse
import sys

from docsvc.cli.admin import add_admin_commands, run_admin
from docsvc.cli.deployment import DeploymentNotFound
from docsvc.errors import DomainError


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="docsvc", description="docsvc command-line tool")
    commands = root.add_subparsers(dest="command", required=True)
    add_admin_commands(commands)
    return root


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    try:
        return run_admin(arguments)
    except (DeploymentNotFound, DomainError, ValueError) as error:
        print(f"docsvc: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
