"""The local stack: template.yaml served on a laptop against an AWS emulator, without Docker."""

from pathlib import Path

STATE_FILE = Path(".docsvc") / "local.json"
"""Where a running local stack tells `docsvc admin` how to reach it (relative to the checkout)."""
