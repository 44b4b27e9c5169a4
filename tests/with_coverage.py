"""pytest, with the line coverage of the shared package, the functions and the client (`make test`):
`python -m tests.with_coverage FLOOR [pytest arguments]`.

SlipCover instruments the code it measures and removes each probe once it has fired, so the suite
takes about as long as without it; coverage.py's line tracer made it some 40% slower (it traces moto,
botocore and Starlette too). Its own command would also follow forked children, and this suite forks
the document engine's readers by the thousand, some killed by their budgets: this runner leaves them
out, as it does the local stack that tests/e2e starts in a process of its own.

The tests run in one pytest-xdist worker per core (`DOCSVC_TEST_WORKERS` sets another count; 1 runs
them in this process), a test file to a worker, so a file's module and session fixtures are set up once.
Each worker measures its own lines with SlipCover's xdist plugin; this runner adds them to its own.

It prints every file not wholly covered (statements, those not run, the share, the missing lines),
then the total. The exit status is pytest's, or 2 when the tests pass but the total is under FLOOR.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import slipcover

SOURCES = ["layers/core/docsvc", "functions", "clients/python/docsvc_client"]  # from the repository's root
# pytest would warn that this runner imported the measured modules before its assertion rewriter.
QUIET = ["-W", "ignore:Module already imported so cannot be rewritten; slipcover"]


def workers() -> int:
    configured = os.environ.get("DOCSVC_TEST_WORKERS", "")
    if configured:
        return max(1, int(configured))
    return max(1, min(os.cpu_count() or 1, 4))


def pytest_arguments(count: int, arguments: list[str]) -> list[str]:
    if count == 1:  # SlipCover's plugin is for xdist workers only
        return [*QUIET, "-p", "no:slipcover", *arguments]
    os.environ["SLIPCOVER_ENABLED"] = "1"  # the plugin measures in each worker what this process would
    os.environ["SLIPCOVER_SOURCE"] = ",".join(SOURCES)
    return [*QUIET, "-n", str(count), "--dist", "loadfile", *arguments]


def add_workers_coverage(coverage: dict[str, Any]) -> None:
    """The lines the workers ran, merged by the plugin's controller into one file beside theirs."""
    directory = os.environ.get("SLIPCOVER_COVERAGE_DIR")
    if not directory:
        return
    merged = Path(directory) / "merged.json"
    if merged.exists():
        slipcover.merge_coverage(coverage, json.loads(merged.read_text()))
    shutil.rmtree(directory, ignore_errors=True)


def main(floor: float, arguments: list[str]) -> int:
    count = workers()
    measure = slipcover.Slipcover(source=SOURCES)
    matcher = slipcover.FileMatcher(sources=SOURCES)
    slipcover.wrap_pytest(measure, matcher)
    slipcover.wrap_spec_from_file_location(measure, matcher)
    with slipcover.ImportManager(measure, matcher):  # before anything imports docsvc
        import pytest

        status = int(pytest.main(pytest_arguments(count, arguments)))
    coverage = measure.get_coverage()
    add_workers_coverage(coverage)
    slipcover.print_coverage(coverage, skip_covered=True, missing_width=60)
    total = coverage["summary"]["percent_covered"]
    print(f"coverage: {total:.1f}% of the lines of {' and '.join(SOURCES)} (floor: {floor:g}%)")
    if status == 0 and total < floor:
        print(f"coverage {total:.1f}% is under the floor of {floor:g}%", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]), sys.argv[2:]))
