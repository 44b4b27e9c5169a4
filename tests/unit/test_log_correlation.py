"""The keys of the work being served on every line logged while it is served, and only then; metrics
published on Lambda and kept off the console where they are disabled."""

from __future__ import annotations

import contextvars
import io
import json
import logging
import threading
import warnings
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from aws_lambda_powertools.metrics import MetricUnit
from docsvc.observability import (
    Observability,
    correlate_tenant,
    correlated,
    current_request_id,
    observability,
)
from docsvc.tenancy import Tenant

TENANT = Tenant("org_1", "production")


@pytest.fixture
def tools() -> Iterator[tuple[Observability, io.StringIO]]:
    made = observability("correlation-probe")
    written = io.StringIO()
    handler = made.logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    previous = handler.setStream(written)
    level = made.logger.log_level
    made.logger.setLevel(logging.INFO)
    yield made, written
    handler.setStream(previous)
    made.logger.setLevel(level)


def _lines(written: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in written.getvalue().splitlines()]


def test_lines_carry_the_request_id_then_the_tenant_once_known_and_nothing_after(
    tools: tuple[Observability, io.StringIO],
) -> None:
    made, written = tools
    project = logging.getLogger("docsvc.probe")  # the project's modules log through the same handler
    with correlated("req-1"):
        made.logger.info("before the key")
        correlate_tenant(TENANT)
        project.warning("after the key")
        assert current_request_id() == "req-1"
    made.logger.info("after the request")

    before, after, outside = _lines(written)
    assert before["request_id"] == "req-1" and "organization" not in before
    assert (after["request_id"], after["organization"], after["environment"]) == (
        "req-1",
        "org_1",
        "production",
    )
    assert after["name"] == "docsvc.probe"
    assert not {"request_id", "organization", "environment"} & outside.keys()
    assert current_request_id() is None


def test_the_tenant_found_in_another_thread_of_the_request_is_on_all_its_lines(
    tools: tuple[Observability, io.StringIO],
) -> None:
    made, written = tools
    with correlated("req-2"):
        # As FastAPI runs a sync dependency: in a worker thread, with a copy of the request's context.
        context = contextvars.copy_context()
        thread = threading.Thread(target=context.run, args=(correlate_tenant, TENANT))
        thread.start()
        thread.join()
        made.logger.info("in the route")

    assert _lines(written)[0]["organization"] == "org_1"


def test_a_key_given_with_a_line_wins_over_the_works(tools: tuple[Observability, io.StringIO]) -> None:
    made, written = tools
    with correlated("req-3", TENANT):
        made.logger.info("explicit", extra={"request_id": "other"})

    assert _lines(written)[0]["request_id"] == "other"


def test_disabled_metrics_print_nothing_however_many_invocations(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    made = observability("metrics-probe")

    @made.measured
    def handler(event: dict[str, Any], context: Any) -> str:
        if event["count"]:
            made.metrics.add_metric(name="Things", unit=MetricUnit.Count, value=1)
        return "done"

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the empty-metrics warning would fail here
        for index in range(150):  # past Powertools' 100 values of a metric, which it prints at once
            assert handler({"count": index % 2}, None) == "done"

    assert capsys.readouterr().out == ""


def test_enabled_metrics_are_published_as_emf_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    made = observability("metrics-probe-enabled")

    @made.measured
    def handler(event: dict[str, Any], context: Any) -> str:
        made.metrics.add_metric(name="Things", unit=MetricUnit.Count, value=1)
        return "done"

    handler({}, SimpleNamespace(function_name="probe"))  # a Lambda context, for the cold start metric

    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(line.get("Things") == [1.0] for line in printed)
    assert all("_aws" in line for line in printed)
