"""One request id end to end: the answer's X-Request-Id finds the API's log lines and those of every
function the work went through after it (queues, the event log's stream), each with its organization
and environment; every answer of every route carries the id, errors in their body too."""

from __future__ import annotations

import io
import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from docsvc import services
from docsvc.local.functions import LocalFunction
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain, drain_streams, stream_pollers, without_request_limits
from tests.integration.test_files import pdf_bytes
from tests.integration.test_parses import document
from tests.integration.webhook_receivers import Receivers

# The functions a job with a webhook goes through, and the loggers of their lines (a function's
# service, and the project's own modules).
FUNCTIONS = {
    "JobsApiFunction": "jobs-api",
    "ParsesApiFunction": "parses-api",
    "ParseWorkerFunction": "parse-worker",
    "WebhooksApiFunction": "webhooks-api",
    "JobWorkerFunction": "job-worker",
    "WebhookDispatcherFunction": "webhook-dispatcher",
    "WebhookWorkerFunction": "webhook-worker",
}
LogLines = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def log_lines(deployment: Deployment) -> Iterator[LogLines]:
    """The JSON lines the functions write from now on, at INFO and above, as CloudWatch would get them."""
    for logical_id in FUNCTIONS:
        deployment.function(logical_id).load()  # their loggers exist once their handlers are imported
    written = io.StringIO()
    levels: dict[logging.Logger, int] = {}
    streams: dict[logging.StreamHandler[Any], Any] = {}
    for name in (*FUNCTIONS.values(), "docsvc"):
        logger = logging.getLogger(name)
        levels[logger] = logger.level
        logger.setLevel(logging.INFO)
        for handler in logger.handlers:
            if isinstance(handler, logging.StreamHandler) and handler not in streams:
                # Not setStream: it flushes the old stream, which an earlier test's captured output
                # may have closed already.
                streams[handler], handler.stream = handler.stream, written
    yield lambda: [json.loads(line) for line in written.getvalue().splitlines() if line.strip()]
    for handler, stream in streams.items():
        handler.stream = stream
    for logger, level in levels.items():
        logger.setLevel(level)


def test_a_job_and_its_webhook_are_found_by_the_request_id_of_the_request_that_made_the_job(
    api: httpx.Client, deployment: Deployment, org: Org, receivers: Receivers, log_lines: LogLines
) -> None:
    receiver = receivers.start()
    endpoint = {"url": receiver.url, "events": ["job.completed"]}
    assert api.post("/v1/webhooks/endpoints", headers=auth(org.test.key), json=endpoint).status_code == 201
    stream_pollers(deployment, "WebhookDispatcherFunction")
    request = {"document": document(pdf_bytes(pages=1))}
    before = len(log_lines())
    answer = api.post(
        "/v1/jobs", headers=auth(org.test.key), json={"endpoint": "/v1/parses", "request": request}
    )
    assert answer.status_code == 201, answer.text
    request_id = answer.headers["X-Request-Id"]
    served = len(log_lines())

    assert drain(deployment, "JobWorkerFunction") == 1
    assert drain_streams(deployment, "WebhookDispatcherFunction") >= 1
    assert drain(deployment, "WebhookWorkerFunction") == 1

    assert [event["type"] for event in receiver.events()] == ["job.completed"]
    lines = log_lines()
    api_lines = lines[before:served]
    assert any(
        (line["service"], line["message"], line.get("status")) == ("jobs-api", "request served", 201)
        for line in api_lines
    )
    worker_lines = lines[served:]
    # Every function's own lines (a project module's line names the service of the function last
    # loaded in this process, so a service is not told by those).
    assert {line["service"] for line in worker_lines} >= {
        "job-worker",
        "webhook-dispatcher",
        "webhook-worker",
    }
    for line in api_lines + worker_lines:
        assert (line.get("request_id"), line.get("organization"), line.get("environment")) == (
            request_id,
            org.id,
            "test",
        ), line


def test_a_background_parse_is_found_by_the_request_id_of_its_request(
    api: httpx.Client, deployment: Deployment, org: Org, log_lines: LogLines
) -> None:
    body = {"document": document(pdf_bytes(pages=1)), "background": True}
    answer = api.post("/v1/parses", headers=auth(org.production.key), json=body)
    assert answer.status_code == 201, answer.text
    served = len(log_lines())

    assert drain(deployment, "ParseWorkerFunction") == 1

    lines = log_lines()
    request_id = answer.headers["X-Request-Id"]
    assert any(
        line["service"] == "parses-api" and line["request_id"] == request_id for line in lines[:served]
    )
    assert "parse-worker" in {line["service"] for line in lines[served:]}
    for line in lines[served:]:
        assert (line["request_id"], line["organization"], line["environment"]) == (
            request_id,
            org.id,
            "production",
        )
    assert api.get(f"/v1/parses/{answer.json()['id']}", headers=auth(org.production.key)).json()[
        "status"
    ] == ("completed")


def test_no_log_line_holds_the_api_key_and_an_unauthenticated_request_names_no_tenant(
    api: httpx.Client, org: Org, log_lines: LogLines
) -> None:
    assert api.get("/v1/jobs", headers=auth(org.test.key)).status_code == 200
    refused = api.get("/v1/jobs", headers=auth("svc_test_" + "Q" * 40))
    assert refused.status_code == 401

    lines = log_lines()
    assert org.test.key not in json.dumps(lines) and "Q" * 40 not in json.dumps(lines)
    refused_lines = [line for line in lines if line.get("request_id") == refused.headers["X-Request-Id"]]
    assert refused_lines  # the line of the request, with its id...
    for line in refused_lines:  # ...and without the tenant of the request served before it
        assert "organization" not in line and "environment" not in line


def test_the_ids_of_two_requests_differ_and_a_clients_own_id_is_not_taken(
    api: httpx.Client, org: Org
) -> None:
    first = api.get("/v1/jobs", headers=auth(org.test.key) | {"X-Request-Id": "mine"})
    second = api.get("/v1/jobs", headers=auth(org.test.key))

    assert first.headers["X-Request-Id"] != "mine"
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]
    assert first.headers["X-Request-Id"] == first.headers["apigw-requestid"]


# ---------------------------------------------------------------------------- every answer


CONSOLE = "ConsoleFunction"


def test_every_answer_of_the_console_carries_the_request_id(api: httpx.Client, org: Org) -> None:
    answers = [
        api.get("/console"),  # to sign in
        api.get(f"/console/{org.id}/test/files"),
        api.get("/console/sign-in"),
        api.post("/console/sign-in", data={"email": "nobody@example.com", "password": "wrong password 1"}),
        api.get("/console/static/console.css"),
        api.get("/console/static/nothing-here.js"),
    ]
    for answer in answers:
        assert answer.headers.get("X-Request-Id"), (answer.request.url, answer.status_code)
        assert answer.status_code < 500, (answer.request.url, answer.status_code)


def _concrete(path: str) -> str:
    """A route's path with its parameters filled: an id that exists nowhere."""
    return re.sub(r"\{[^}]+\}", "nothing_here", path)


def _routes(function: LocalFunction) -> Iterator[tuple[str, str]]:
    """Every route of the function's app, as (method, path template), from its OpenAPI description."""
    module_name = function.handler_path.rpartition(".")[0]
    function.load()
    for path, operations in sys.modules[module_name].app.openapi()["paths"].items():
        for method in operations:
            yield method.upper(), path


def _requests(deployment: Deployment, key: str) -> Iterator[tuple[str, str, str, dict[str, str], bytes]]:
    """For every route of every API function (by its logical id): the request without a key (401),
    with a key and ids that do not exist (404, or 422 for a body it needs), and with a body that is not
    JSON (422). The console's pages are not operations of the API: the next test walks them."""
    for function in deployment.functions:
        if not function.routes or function.logical_id == CONSOLE:
            continue
        for method, template in _routes(function):
            path = _concrete(template)
            yield function.logical_id, method, path, {}, b""
            yield function.logical_id, method, path, auth(key), b""
            if method in {"POST", "PUT", "PATCH"}:
                not_json = auth(key) | {"Content-Type": "application/json"}
                yield function.logical_id, method, path, not_json, b"{not json"


def test_every_answer_of_every_route_carries_the_request_id(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    without_request_limits(org)
    statuses: dict[str, set[int]] = {}
    for function, method, path, headers, body in _requests(deployment, org.test.key):
        answer = api.request(method, path, headers=headers, content=body)
        where = f"{method} {path} {answer.status_code}"
        request_id = answer.headers.get("X-Request-Id")
        assert request_id, where
        assert answer.status_code < 500, where
        statuses.setdefault(function, set()).add(answer.status_code)
        if answer.status_code >= 400 and "request_id" in answer.json():
            assert answer.json()["request_id"] == request_id, where

    for function in deployment.functions:
        if not function.routes or function.logical_id == CONSOLE:
            continue
        reached = statuses[function.logical_id]
        assert 401 in reached, (function.logical_id, reached)
        if any(method in {"POST", "PUT", "PATCH"} for method, _ in _routes(function)):
            assert 422 in reached, (function.logical_id, reached)
        if any("{" in path for _, path in _routes(function)):
            assert 404 in reached, (function.logical_id, reached)

    unknown = api.get("/v1/nothing-here", headers=auth(org.test.key))  # no route in the template
    assert unknown.status_code == 404 and unknown.headers["X-Request-Id"]
    unrouted = api.get("/v1/webhooks/nothing/here", headers=auth(org.test.key))  # none in the function
    assert unrouted.status_code == 404 and unrouted.headers["X-Request-Id"]
    too_large = api.post("/v1/files", headers=auth(org.test.key), files={"file": ("a.bin", b"x" * 7_000_000)})
    assert too_large.status_code == 413 and too_large.headers["X-Request-Id"]


def test_a_failing_dependency_is_a_500_whose_body_names_the_answers_request_id(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch, log_lines: LogLines
) -> None:

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(services.job_service(), "list", broken)

    answer = api.get("/v1/jobs", headers=auth(org.test.key))

    assert answer.status_code == 500
    request_id = answer.headers["X-Request-Id"]
    assert answer.json() == {"detail": "internal error", "request_id": request_id}
    failure = [line for line in log_lines() if line["message"] == "unhandled error"]
    assert [line["request_id"] for line in failure] == [request_id]
    assert failure[0]["organization"] == org.id and failure[0]["environment"] == "test"
