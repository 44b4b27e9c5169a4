"""Import time of every function's handler in a fresh process: median of N runs.

    .venv/bin/python bench/cold_start.py [--runs 7]

Targets: API functions <= 0.5 s, document functions <= 1.5 s. Absolute times on a shared 2-core
machine are noisy; compare runs made together.

AWS clients are created on a request's first AWS call, not at import, so the second column adds what
every first request pays besides: importing boto3 and creating a DynamoDB client (as the key lookup
does). The environment is the template's default, TRACE_AWS_CALLS=false, unless --trace-aws-calls
(which loads the X-Ray SDK).

The project's own packages are compiled first (their __pycache__ folders are ignored by git), as a
build with the runtime's Python ships them: a checkout run with PYTHONDONTWRITEBYTECODE set would
otherwise compile them at every import. bench/bytecode.py measures what a build without bytecode costs.

"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout, not installed

from docsvc.local.functions import functions_of  # noqa: E402
from docsvc.local.template import Resolver, load_template, parameter_defaults  # noqa: E402

PROBE = """
import time
start = time.perf_counter()
import {module}
imported = time.perf_counter()
import boto3
boto3.session.Session().client("dynamodb", region_name="us-east-1")
print(imported - start, time.perf_counter() - start)
"""


def probe(module: str, trace_aws_calls: bool) -> tuple[float, float]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TRACE_AWS_CALLS": str(trace_aws_calls).lower()},
    )
    imported, with_client = result.stdout.split()
    return float(imported), float(with_client)


def compile_project() -> None:
    packages = [ROOT / "layers" / "core" / "docsvc", *sorted(ROOT.glob("functions/*/*/__init__.py"))]
    for package in packages:
        folder = package if package.is_dir() else package.parent
        compileall.compile_dir(folder, quiet=1, workers=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--trace-aws-calls", action="store_true", help="as with TraceAwsCalls=true")
    arguments = parser.parse_args()
    compile_project()
    template = load_template(ROOT / "template.yaml")
    resolve = Resolver(pseudo={}, parameters=parameter_defaults(template), ref=str, attribute=lambda a, b: a)
    print(
        f"runs={arguments.runs}, TRACE_AWS_CALLS={str(arguments.trace_aws_calls).lower()}, median (min) in s"
    )
    print(f"{'function':<28} {'import':>15} {'+ boto3 client':>15}")
    for function in functions_of(template, resolve):
        module = function.handler_path.rpartition(".")[0]
        runs = [probe(module, arguments.trace_aws_calls) for _ in range(arguments.runs)]
        imports = [run[0] for run in runs]
        with_client = [run[1] for run in runs]
        print(
            f"{function.logical_id:<28}"
            f" {statistics.median(imports):>7.3f} ({min(imports):.3f})"
            f" {statistics.median(with_client):>7.3f} ({min(with_client):.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
