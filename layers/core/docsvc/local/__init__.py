"""The local stack: template.yaml served on a laptop against an AWS emulator, without Docker."""

import os
from pathlib import Path

STATE_FILE = Path(".docsvc") / "local.json"


def state_path(root: Path) -> Path:
    """Where a running local stack tells `docsvc admin` how to reach it: `.docsvc/local.json` in the
    checkout, or the file named by DOCSVC_STATE_FILE (tests use that to run stacks side by side)."""
    override = os.environ.get("DOCSVC_STATE_FILE")
    return Path(override) if override else root / STATE_FILE
