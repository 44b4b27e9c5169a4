"""The CLI's own failures: `UsageError` exits 2 (like argparse's usage errors)."""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(Exception):
    """A command that cannot run as given: exit code 2."""
