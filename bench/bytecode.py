"""What shipping bytecode saves a cold start: a handler imported from a copy of what it loads, as
Lambda's read-only /opt and /var/task hold it, once with no .pyc files and once with them.

    .venv/bin/python bench/bytecode.py [--function AuthApiFunction] [--runs 7]

The handler is imported once in this process to learn which files it loads from outside the standard
library (the project's packages and their dependencies); those packages are copied, without bytecode,
into a scratch folder. Each run is a fresh interpreter (`-S`, so only the copy and the standard library
are on its path) with PYTHONDONTWRITEBYTECODE=1, as on Lambda, where nothing can be written beside the
sources. Then `compileall --invalidation-mode unchecked-hash` (what layers/runtime.mk does with the
runtime's Python) and the same runs again. The standard library has its bytecode in both, as it has on
Lambda. Absolute times are noisy here: compare the two medians of one run.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import py_compile
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout, not installed

from docsvc.local.functions import functions_of  # noqa: E402
from docsvc.local.template import Resolver, load_template, parameter_defaults  # noqa: E402

PROBE = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
STANDARD_LIBRARY = Path(sysconfig.get_paths()["stdlib"]).resolve()


def handler_module(logical_id: str) -> str:
    template = load_template(ROOT / "template.yaml")
    resolve = Resolver(pseudo={}, parameters=parameter_defaults(template), ref=str, attribute=lambda a, b: a)
    for function in functions_of(template, resolve):
        if function.logical_id == logical_id:
            return function.handler_path.rpartition(".")[0]
    raise SystemExit(f"no function {logical_id} in template.yaml")


LOADED = """
import json, sys
import {module}
print(json.dumps({{name: getattr(loaded, "__file__", None) for name, loaded in sys.modules.items()}}))
"""


def loaded_roots(module: str) -> dict[str, Path]:
    """Top-level package or module -> where it lies, for what importing `module` in a fresh interpreter
    loads from outside the standard library."""
    result = subprocess.run(
        [sys.executable, "-c", LOADED.format(module=module)], capture_output=True, text=True, check=True
    )
    files: dict[str, str | None] = json.loads(result.stdout)
    roots: dict[str, Path] = {}
    for name, location in files.items():
        top = name.partition(".")[0]
        if location is None or top in roots or top.startswith("_"):
            continue  # built in, frozen, already placed, or the interpreter's own hooks
        path = Path(location).resolve()
        if path.is_relative_to(STANDARD_LIBRARY) and "site-packages" not in path.parts:
            continue
        top_file = files.get(top)
        if top_file is None:  # a namespace package: the folder of its part that holds this module
            depth = name.count(".")
            roots[top] = path.parents[depth] if path.name == "__init__.py" else path.parents[depth - 1]
        else:
            top_path = Path(top_file).resolve()
            roots[top] = top_path.parent if top_path.name == "__init__.py" else top_path
    return roots


def copy_without_bytecode(roots: dict[str, Path], target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name, path in roots.items():
        if path.is_dir():
            shutil.copytree(path, target / path.name, ignore=ignore, dirs_exist_ok=True)
        else:
            shutil.copy2(path, target / path.name)
        # distributions' metadata, which some packages read at import (importlib.metadata)
        for metadata in path.parent.glob(f"{name.replace('-', '_')}-*.dist-info"):
            shutil.copytree(metadata, target / metadata.name, dirs_exist_ok=True)


def timed_imports(module: str, folder: Path, runs: int) -> list[float]:
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(folder),
        "PYTHONDONTWRITEBYTECODE": "1",
        "AWS_DEFAULT_REGION": "us-east-1",
        "TRACE_AWS_CALLS": "false",
    }
    return [
        float(
            subprocess.run(
                [sys.executable, "-S", "-c", PROBE.format(module=module)],
                capture_output=True,
                text=True,
                check=True,
                env=environment,
            ).stdout
        )
        for _ in range(runs)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--function", default="AuthApiFunction", help="a function of template.yaml")
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    module = handler_module(arguments.function)
    roots = loaded_roots(module)
    with tempfile.TemporaryDirectory(prefix="docsvc-bytecode-") as scratch:
        folder = Path(scratch)
        copy_without_bytecode(roots, folder)
        without = timed_imports(module, folder, arguments.runs)
        unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
        compileall.compile_dir(folder, quiet=1, workers=0, invalidation_mode=unchecked)
        with_bytecode = timed_imports(module, folder, arguments.runs)
        written = list(folder.rglob("*.pyc"))
        assert not any(path.parent.name != "__pycache__" for path in written)
    print(f"{arguments.function} ({module}): {len(roots)} top-level packages copied, runs={arguments.runs}")
    print(f"{'':<22} {'median s':>9} {'min s':>7}")
    for label, times in (("without bytecode", without), ("with bytecode", with_bytecode)):
        print(f"{label:<22} {statistics.median(times):>9.3f} {min(times):>7.3f}")
    print(f"ratio {statistics.median(without) / statistics.median(with_bytecode):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
