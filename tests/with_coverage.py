"""pytest, with the line coverage of the shared package, the functions and the client (`make test`):
`python -m tests.with_coverage FLOOR [pytest arguments]`.

SlipCover instruments the code it measures and removes each probe once it has fired, so the suite
takes about as long as without it; coverage.py's line tracer made it some 40% slower (it traces moto,
botocore and Starlette too). Its own command would also follow forked children, and this suite forks
the document engine's readers by the thousand, some killed by their budgets: this runner leaves them
out, as it does the local stack that tests/e2e starts in a process of its own.

It prints every file not wholly covered (statements, those not run, the share, the missing lines),
then the total. The exit status is pytest's, or 2 when the tests pass but the total is under FLOOR.
"""

from __future__ import annotations

import sys

import slipcover

SOURCES = ["layers/core/docsvc", "functions", "clients/python/docsvc_client"]  # from the repository's root
# SlipCover's pytest plugin is for pytest-xdist; pytest would warn that this runner imported it first.
QUIET = ["-p", "no:slipcover", "-W", "ignore:Module already imported so cannot be rewritten; slipcover"]


def main(floor: float, arguments: list[str]) -> int:
    measure = slipcover.Slipcover(source=SOURCES)
    matcher = slipcover.FileMatcher(sources=SOURCES)
    slipcover.wrap_pytest(measure, matcher)
    slipcover.wrap_spec_from_file_location(measure, matcher)
    with slipcover.ImportManager(measure, matcher):  # before anything imports docsvc
        import pytest

        status = int(pytest.main([*QUIET, *arguments]))
    coverage = measure.get_coverage()
    slipcover.print_coverage(coverage, skip_covered=True, missing_width=60)
    total = coverage["summary"]["percent_covered"]
    print(f"coverage: {total:.1f}% of the lines of {' and '.join(SOURCES)} (floor: {floor:g}%)")
    if status == 0 and total < floor:
        print(f"coverage {total:.1f}% is under the floor of {floor:g}%", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]), sys.argv[2:]))
