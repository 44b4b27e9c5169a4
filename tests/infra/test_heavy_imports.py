"""Cold starts cannot silently grow: each function's handler imports only the heavy libraries it is
allowed. A new heavy import must be added here on purpose."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from docsvc.local.functions import functions_of
from docsvc.local.template import Resolver, load_template, parameter_defaults

from tests.conftest import TEMPLATE

HEAVY = ("pymupdf", "fitz", "numpy", "PIL", "pandas", "moto", "yaml", "httpx", "samcli", "cfnlint")
ALLOWED = {"FileInspectorFunction": {"pymupdf"}}


def handlers() -> dict[str, str]:
    template = load_template(TEMPLATE)
    resolve = Resolver(pseudo={}, parameters=parameter_defaults(template), ref=str, attribute=lambda a, b: a)
    return {function.logical_id: function.handler_path for function in functions_of(template, resolve)}


@pytest.mark.parametrize(("logical_id", "handler"), sorted(handlers().items()))
def test_handler_imports_only_its_allowed_heavy_libraries(logical_id: str, handler: str) -> None:
    module = handler.rpartition(".")[0]
    probe = f"import sys, json, {module}; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"

    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )

    assert set(json.loads(result.stdout)) <= ALLOWED.get(logical_id, set())
