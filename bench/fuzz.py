"""Fuzzing campaign: every operation of docs/openapi.json, with many more generated requests than
`make test` sends (Schemathesis, through tests/e2e/test_fuzz.py).

    .venv/bin/python bench/fuzz.py [--examples 100] [--json PATH]

Runs the fuzz test with DOCSVC_FUZZ_EXAMPLES examples an operation (each sent with the test key and
with the live key) against a local stack that reaches loopback only, then prints the answers by
status and whether the target holds. The examples come from a fixed seed, so two runs with the same
--examples send the same requests. Target: at least 10,000 requests across every operation, 0 answers
5xx, and every answer of a documented status, content type and schema (the test's checks). The exit
code is pytest's: 0 when every operation passed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_REQUESTS = 10_000


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--examples", type=int, default=100, help="examples an operation (default 100)")
    parser.add_argument("--json", type=Path, help="write the answers by status here")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="docsvc-fuzz-") as folder:
        report = Path(folder) / "answers.json"
        environment = dict(
            os.environ, DOCSVC_FUZZ_EXAMPLES=str(arguments.examples), DOCSVC_FUZZ_REPORT=str(report)
        )
        started = time.monotonic()
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/e2e/test_fuzz.py"]
        outcome = subprocess.run(command, cwd=ROOT, env=environment, check=False)
        seconds = time.monotonic() - started
        answers: dict[str, int] = json.loads(report.read_text()) if report.exists() else {}
    total = sum(answers.values())
    server_errors = sum(count for status, count in answers.items() if status.startswith("5"))
    print(f"\n{total} requests in {seconds:.0f} s ({arguments.examples} examples an operation, two keys)")
    print("answers by status:", ", ".join(f"{status}: {count}" for status, count in answers.items()))
    met = total >= TARGET_REQUESTS and server_errors == 0 and outcome.returncode == 0
    print(
        f"target (>= {TARGET_REQUESTS} requests, 0 5xx, every answer documented):",
        "met" if met else "NOT met",
    )
    if arguments.json:
        arguments.json.write_text(json.dumps({"requests": total, "seconds": seconds, "answers": answers}))
    return outcome.returncode


if __name__ == "__main__":
    sys.exit(main())
