"""Property-based fuzzing of every operation of docs/openapi.json against the local stack (Schemathesis).

Each generated request goes to the stack twice, with its test key and with its live key, and every
answer must be no 5xx, of a status the description documents for the operation, of a documented
content type, and of the documented schema. The stack runs offline (tests.e2e.offline_stack), since a
generator makes up URLs of documents to fetch and of webhook receivers. The examples are drawn from a
fixed seed (Hypothesis' derandomize), so a run is repeatable; DOCSVC_FUZZ_EXAMPLES sets how many a
operation (bench/fuzz.py runs the longer campaign).

Besides those examples, Schemathesis adds its coverage cases to every operation (the boundary values and
the wrong types, methods and headers of each parameter: some 5,000 over the whole description, four
times the generated ones). Each of them is sent once, the test key and the live key taking turns, so
both keys meet every kind of case without each case costing two requests.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import Case
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation.meta import TestPhase

from tests.conftest import ROOT
from tests.e2e.conftest import RunningStack, start_stack, stop_stack

pytestmark = pytest.mark.e2e

EXAMPLES = int(os.environ.get("DOCSVC_FUZZ_EXAMPLES", "12"))
REQUEST_SECONDS = 60
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
schema = schemathesis.openapi.from_path(ROOT / "docs" / "openapi.json")
sent: Counter[int] = Counter()  # answers by status over the whole run, for the benchmark's report
_count_lock = threading.Lock()
_coverage_turns = itertools.count()  # which key sends the next coverage case: even the test key, odd live


@pytest.fixture(scope="module", autouse=True)
def answers_report() -> Iterator[None]:
    """With DOCSVC_FUZZ_REPORT set, the answers by status are written there as JSON at the end."""
    yield
    target = os.environ.get("DOCSVC_FUZZ_REPORT")
    if target:
        Path(target).write_text(json.dumps({str(status): count for status, count in sorted(sent.items())}))


@pytest.fixture(scope="module")
def offline_stack() -> Iterator[RunningStack]:
    with tempfile.TemporaryDirectory(prefix="docsvc-fuzz-") as folder:
        stack = start_stack(Path(folder) / "local.json", [sys.executable, "-m", "tests.e2e.offline_stack"])
        try:
            yield stack
        finally:
            stop_stack(stack)


def keys_for(case: Case, stack: RunningStack) -> tuple[str, ...]:
    """Both keys for an example (generated or from the description); one, in turn, for a coverage case."""
    keys = (stack.test_key, stack.live_key)
    if case.meta is None or case.meta.phase.name != TestPhase.COVERAGE:
        return keys
    return (keys[next(_coverage_turns) % 2],)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_operation_answers_a_5xx_or_anything_it_does_not_document(
    case: Case, offline_stack: RunningStack
) -> None:
    for key in keys_for(case, offline_stack):
        # The generator fills both key headers from the security schemes: the one key in both.
        headers = {"Authorization": f"Bearer {key}", "Api-Key": key}
        response = case.call(base_url=offline_stack.url, headers=headers, timeout=REQUEST_SECONDS)
        with _count_lock:
            sent[response.status_code] += 1
        case.validate_response(response, checks=CHECKS)
