"""Import time of every function's handler in a fresh process: median of N runs.

    .venv/bin/python bench/cold_start.py [--runs 7]

Targets: API functions <= 0.5 s, document functions <= 1.5 s. Absolute times on a shared 2-core
machine are noisy; compare runs made together.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout, not installed

from docsvc.local.functions import functions_of  # noqa: E402
from docsvc.local.template import Resolver, load_template, parameter_defaults  # noqa: E402

PROBE = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    template = load_template(ROOT / "template.yaml")
    resolve = Resolver(pseudo={}, parameters=parameter_defaults(template), ref=str, attribute=lambda a, b: a)
    print(f"{'function':<24} {'handler module':<26} {'median s':>9} {'min s':>7}  runs={arguments.runs}")
    for function in functions_of(template, resolve):
        module = function.handler_path.rpartition(".")[0]
        times = [
            float(
                subprocess.run(
                    [sys.executable, "-c", PROBE.format(module=module)],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(arguments.runs)
        ]
        print(f"{function.logical_id:<24} {module:<26} {statistics.median(times):>9.3f} {min(times):>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
