"""The reading children are forked from a process that may be importing in other threads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_WARM_UP = """
import sys
from docsvc.documents.engine import isolation
assert "PIL.Image" not in sys.modules, "the engine imports Pillow only for OCR"
isolation._warm_up()
print(" ".join(sorted(name for name in sys.modules if name.startswith("PIL."))))
"""


def test_the_parent_imports_the_pillow_a_child_uses_before_it_forks_the_first_child() -> None:
    # A child forked while another thread of the parent is importing Pillow inherits that import's
    # lock held, and hangs when it imports Pillow for OCR (its page runs out of its time).
    paths = [str(ROOT / "layers" / "core"), str(ROOT / "layers" / "documents")]
    result = subprocess.run(
        [sys.executable, "-c", _WARM_UP],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
        check=True,
    )

    imported = set(result.stdout.split())
    assert {"PIL.Image", "PIL.ImageChops", "PIL.ImageFilter", "PIL.ImageStat"} <= imported
    assert {"PIL.PngImagePlugin", "PIL.JpegImagePlugin"} <= imported
