"""Tracing AWS calls is chosen by TRACE_AWS_CALLS: off, no X-Ray SDK is loaded (a cold start 0.2-0.5 s
shorter); on, the Powertools Tracer wraps every handler."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from docsvc.observability import observability

PROBE = """
import json, sys
from docsvc.observability import observability
tools = observability("probe")
print(json.dumps({"tracer": tools.tracer is not None, "xray": "aws_xray_sdk" in sys.modules}))
"""


def _probe(trace_aws_calls: str | None) -> dict[str, bool]:
    env = {"AWS_DEFAULT_REGION": "us-east-1", "POWERTOOLS_TRACE_DISABLED": "true"}
    if trace_aws_calls is not None:
        env["TRACE_AWS_CALLS"] = trace_aws_calls
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=True, env=env
    )
    loaded: dict[str, bool] = json.loads(result.stdout)
    return loaded


def test_by_default_no_xray_sdk_is_loaded() -> None:
    assert _probe(None) == {"tracer": False, "xray": False}
    assert _probe("false") == {"tracer": False, "xray": False}


def test_trace_aws_calls_loads_the_tracer() -> None:
    assert _probe("true") == {"tracer": True, "xray": True}


def test_an_untraced_handler_is_the_handler_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRACE_AWS_CALLS", raising=False)

    def handler(event: dict[str, Any], context: Any) -> str:
        return "answered"

    assert observability("probe").traced(handler) is handler


def test_a_traced_handler_still_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACE_AWS_CALLS", "true")
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")
    tools = observability("probe")

    def handler(event: dict[str, Any], context: Any) -> str:
        return f"answered {event['n']}"

    traced = tools.traced(handler)

    assert traced is not handler
    assert traced({"n": 1}, None) == "answered 1"
