"""Jobs through the real handlers: create, the worker, cancel, retry, expiry, idempotency, events."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from docsvc.adapters.dynamo.jobs import DynamoJobRepository
from docsvc.adapters.queues import TenantQueue
from docsvc.config import settings
from docsvc.domain import jobs as job_domain
from docsvc.domain import parses
from docsvc.local.stack import Deployment
from docsvc.services import job_service
from docsvc.tenancy import Tenant

from tests.conftest import Org, auth, drain
from tests.integration.test_files import pdf_bytes
from tests.integration.test_parses import document, events_of

WEEK = 7 * 24 * 3600


def create_job(
    api: httpx.Client,
    key: str,
    request: dict[str, Any],
    *,
    endpoint: str = "/v1/parses",
    idempotency_key: str | None = None,
    **extra: Any,
) -> httpx.Response:
    headers = auth(key) | ({"Idempotency-Key": idempotency_key} if idempotency_key else {})
    return api.post("/v1/jobs", headers=headers, json={"endpoint": endpoint, "request": request, **extra})


def get_job(api: httpx.Client, key: str, job_id: str, **params: Any) -> dict[str, Any]:
    response = api.get(f"/v1/jobs/{job_id}", headers=auth(key), params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def parse_request(pages: int = 2, **extra: Any) -> dict[str, Any]:
    return {"document": document(pdf_bytes(pages=pages)), "bust_cache": True, **extra}


def job_events(org: Org, environment: str = "test") -> list[str]:
    return [event["type"] for event in events_of(org, environment) if event["type"].startswith("job.")]


# ---------------------------------------------------------------------------- the whole life


def test_a_parse_job_is_queued_then_answered_as_the_parse_endpoint_answers(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    request = parse_request(pages=3, instructions="keep headers")
    created = create_job(api, org.test.key, request, metadata={"team": "billing"})

    assert created.status_code == 201, created.text
    job = created.json()
    assert job["object"] == "job"
    assert job["status"] == "queued"
    assert job["id"].startswith("job_")
    assert job["organization_id"] == org.id
    assert job["metadata"] == {"team": "billing"}
    assert job["request"] is None and job["response"] is None and job["error"] is None
    assert isinstance(job["created_at"], int) and job["expires_at"] == job["created_at"] + WEEK
    assert job["started_at"] is None and job["completed_at"] is None

    assert drain(deployment, "JobWorkerFunction") == 1

    done = get_job(api, org.test.key, job["id"], include_request=True, include_response=True)
    assert done["status"] == "completed"
    assert job["created_at"] <= done["started_at"] <= done["completed_at"]
    assert done["request"] == request
    assert done["response"]["status_code"] == 201
    body = done["response"]["body"]
    synchronous = api.post("/v1/parses", headers=auth(org.test.key), json=request).json()
    assert set(body) == set(synchronous)
    different = {"id", "created_at"}
    assert {name: body[name] for name in body if name not in different} == {
        name: synchronous[name] for name in synchronous if name not in different
    }
    assert len(body["output"]["pages"]) == 3
    stored = api.get(f"/v1/parses/{body['id']}", headers=auth(org.test.key)).json()
    assert stored["output"] == body["output"]
    assert "job.completed" in job_events(org)


def test_a_large_request_and_response_are_kept_whole(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    request = parse_request(pages=60)  # about 40 KB of request and of response: beyond what an item holds
    job_id = create_job(api, org.test.key, request).json()["id"]
    drain(deployment, "JobWorkerFunction")

    done = get_job(api, org.test.key, job_id, include_request=True, include_response=True)

    assert done["request"] == request
    assert len(done["response"]["body"]["output"]["pages"]) == 60
    assert get_job(api, org.test.key, job_id)["response"] is None


def test_the_status_route_answers_state_and_times_only(api: httpx.Client, org: Org) -> None:
    job_id = create_job(api, org.test.key, parse_request()).json()["id"]

    status = api.get(f"/v1/jobs/{job_id}/status", headers=auth(org.test.key)).json()

    assert set(status) == {
        "id",
        "object",
        "environment",
        "status",
        "created_at",
        "started_at",
        "completed_at",
        "expires_at",
        "error",
    }
    assert status["status"] == "queued"


# ---------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        ({}, "document"),
        ({"document": {"filename": "a.pdf", "url": "data:application/pdf;base64,AAAA"}, "model": 3}, "model"),
        ({"document": {"id": "file_X"}, "table_parsing_format": "pdf"}, "table_parsing_format"),
        ({"document": {"id": "file_X"}, "image_resolution_dpi": 20}, "image_resolution_dpi"),
        ({"document": {"id": "file_X"}, "stream": True}, "stream"),
        ({"document": {"id": "file_X"}, "model": "gpt-9"}, "model"),
    ],
)
def test_a_request_its_endpoint_refuses_fails_the_job_naming_the_field(
    api: httpx.Client, deployment: Deployment, org: Org, request_body: dict[str, Any], field: str
) -> None:
    created = create_job(api, org.test.key, request_body)

    assert created.status_code == 201, created.text
    job = get_job(api, org.test.key, created.json()["id"], include_response=True)
    assert job["status"] == "failed"
    assert job["error"]["code"] == "validation_error"
    assert field in job["error"]["message"]
    assert job["response"]["status_code"] == 422
    assert any(field in problem["loc"] for problem in job["response"]["body"]["detail"])
    assert drain(deployment, "JobWorkerFunction") == 0  # nothing was queued
    assert job_events(org) == ["job.failed"]


@pytest.mark.parametrize(
    "body",
    [
        {"endpoint": "/v1/unknown", "request": {}},
        {"endpoint": "/v1/parses"},
        {"endpoint": "/v1/parses", "request": "a string"},
        {"endpoint": "/v1/parses", "request": {}, "metadata": {f"k{index}": "v" for index in range(17)}},
        {"endpoint": "/v1/parses", "request": {}, "metadata": {"k" * 65: "v"}},
        {"endpoint": "/v1/parses", "request": {}, "metadata": {"k": "v" * 513}},
        {"endpoint": "/v1/parses", "request": {}, "metadata": {"k": 3}},
    ],
)
def test_a_job_body_that_breaks_the_rules_is_422(api: httpx.Client, org: Org, body: dict[str, Any]) -> None:
    response = api.post("/v1/jobs", headers=auth(org.test.key), json=body)

    assert response.status_code == 422
    assert isinstance(response.json()["detail"], list)


def test_metadata_at_its_limits_is_taken(api: httpx.Client, org: Org) -> None:
    metadata = {f"{index:02d}" + "k" * 62: "v" * 512 for index in range(16)}

    response = create_job(api, org.test.key, {}, endpoint="/v1/edits", metadata=metadata)

    assert response.status_code == 201, response.text
    assert response.json()["metadata"] == metadata


def test_all_twelve_endpoints_are_accepted(api: httpx.Client, org: Org) -> None:
    for endpoint in job_domain.JOB_ENDPOINTS:
        response = create_job(api, org.test.key, {}, endpoint=endpoint)
        assert response.status_code == 201, (endpoint, response.text)


def test_a_document_the_service_cannot_read_fails_the_job_with_its_code(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    damaged = {
        "document": {"filename": "broken.pdf", "url": "data:application/pdf;base64,JVBERi0xLjQKJeLjz9M="}
    }
    job_id = create_job(api, org.test.key, damaged).json()["id"]

    drain(deployment, "JobWorkerFunction")

    job = get_job(api, org.test.key, job_id, include_response=True)
    assert job["status"] == "failed"
    assert job["error"]["code"] in {"damaged_document", "empty_document"}
    assert job["response"]["status_code"] == 400
    assert job["response"]["body"] == {"detail": job["error"]["message"]}
    assert job_events(org) == ["job.failed"]


def test_a_fault_of_the_service_fails_the_job_instead_of_leaving_it_running(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.documents.builtin import BuiltinEngine

    def broken(*args: object, **options: object) -> Iterator[object]:
        raise RuntimeError("a bug")
        yield

    monkeypatch.setattr(BuiltinEngine, "pages", broken)
    job_id = create_job(api, org.test.key, parse_request()).json()["id"]

    drain(deployment, "JobWorkerFunction")

    job = get_job(api, org.test.key, job_id)
    assert job["status"] == "failed"
    assert job["error"] == {
        "code": "internal_error",
        "message": "the job failed inside the service; it was logged",
    }


# ---------------------------------------------------------------------------- idempotency


def test_the_same_idempotency_key_and_body_answer_the_same_job_run_once(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    request = parse_request()
    first = create_job(api, org.test.key, request, idempotency_key="order-42")
    second = create_job(api, org.test.key, request, idempotency_key="order-42")

    assert first.status_code == second.status_code == 201
    assert second.json()["id"] == first.json()["id"]
    assert second.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert drain(deployment, "JobWorkerFunction") == 1
    parses = api.get("/v1/parses", headers=auth(org.test.key)).json()["data"]
    assert len(parses) == 1


def test_the_same_idempotency_key_with_another_body_is_409(api: httpx.Client, org: Org) -> None:
    create_job(api, org.test.key, parse_request(pages=1), idempotency_key="order-42")

    again = create_job(api, org.test.key, parse_request(pages=2), idempotency_key="order-42")

    assert again.status_code == 409
    assert "Idempotency-Key" in again.json()["detail"]


def test_idempotency_keys_are_per_environment(api: httpx.Client, org: Org) -> None:
    request = parse_request()
    in_test = create_job(api, org.test.key, request, idempotency_key="order-42").json()
    in_production = create_job(api, org.production.key, request, idempotency_key="order-42").json()

    assert in_test["id"] != in_production["id"]


def test_an_idempotency_key_older_than_a_day_starts_a_new_job(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = parse_request()
    first = create_job(api, org.test.key, request, idempotency_key="order-42").json()
    later = job_domain._now() + 24 * 3600 + 1
    monkeypatch.setattr(job_domain, "_now", lambda: later)

    second = create_job(api, org.test.key, request, idempotency_key="order-42")

    assert second.status_code == 201
    assert second.json()["id"] != first["id"]


def test_concurrent_duplicate_deliveries_run_a_job_once(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    job_id = create_job(api, org.test.key, parse_request()).json()["id"]
    tenant = Tenant(org.id, "test")
    resend = TenantQueue(settings().job_queue_url, "job_id")
    for _ in range(3):
        resend(tenant, job_id)
    service = job_service()
    workers = [threading.Thread(target=service.run, args=(tenant, job_id)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    drain(deployment, "JobWorkerFunction")  # and the four messages, delivered one by one

    assert get_job(api, org.test.key, job_id)["status"] == "completed"
    assert job_events(org).count("job.completed") == 1
    assert len(api.get("/v1/parses", headers=auth(org.test.key)).json()["data"]) == 1


# ---------------------------------------------------------------------------- cancel and retry


def test_a_queued_job_is_cancelled_at_once_and_never_runs(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    job_id = create_job(api, org.test.key, parse_request()).json()["id"]

    cancelled = api.post(f"/v1/jobs/{job_id}/cancel", headers=auth(org.test.key))
    drain(deployment, "JobWorkerFunction")

    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert get_job(api, org.test.key, job_id)["status"] == "cancelled"
    assert api.get("/v1/parses", headers=auth(org.test.key)).json()["data"] == []
    assert job_events(org) == ["job.cancelled"]
    again = api.post(f"/v1/jobs/{job_id}/cancel", headers=auth(org.test.key))
    assert again.status_code == 400
    assert "already cancelled" in again.json()["detail"]


def test_a_running_job_that_is_cancelled_stops_and_never_completes(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.documents.builtin import BuiltinEngine

    monkeypatch.setattr(parses, "CANCEL_CHECK_SECONDS", 0.0)  # asked after every page
    job_id = create_job(api, org.test.key, parse_request(pages=30)).json()["id"]
    pages, read = BuiltinEngine.pages, []

    def cancelled_on_the_first_page(self: BuiltinEngine, *args: Any, **options: Any) -> Iterator[Any]:
        for page in pages(self, *args, **options):
            if not read:
                api.post(f"/v1/jobs/{job_id}/cancel", headers=auth(org.test.key))
            read.append(page.number)
            yield page

    monkeypatch.setattr(BuiltinEngine, "pages", cancelled_on_the_first_page)
    drain(deployment, "JobWorkerFunction")

    job = get_job(api, org.test.key, job_id, include_response=True)
    assert job["status"] == "cancelled"
    assert job["response"] is None
    assert len(read) < 30  # it stopped at a safe point
    assert job_events(org) == ["job.cancelled"]


def test_a_finished_job_cannot_be_cancelled(api: httpx.Client, deployment: Deployment, org: Org) -> None:
    job_id = create_job(api, org.test.key, parse_request()).json()["id"]
    drain(deployment, "JobWorkerFunction")

    response = api.post(f"/v1/jobs/{job_id}/cancel", headers=auth(org.test.key))

    assert response.status_code == 400
    assert "already completed" in response.json()["detail"]


def test_a_cancelled_job_is_retried_with_the_same_id_and_a_fresh_expiry(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = create_job(api, org.test.key, parse_request()).json()
    api.post(f"/v1/jobs/{job['id']}/cancel", headers=auth(org.test.key))
    later = job_domain._now() + 3600
    monkeypatch.setattr(job_domain, "_now", lambda: later)

    retried = api.post(f"/v1/jobs/{job['id']}/retry", headers=auth(org.test.key))
    assert drain(deployment, "JobWorkerFunction") == 2  # the first message, and the retry's

    assert retried.status_code == 200, retried.text
    assert retried.json()["id"] == job["id"]
    assert retried.json()["status"] == "queued"
    assert retried.json()["error"] is None
    assert retried.json()["expires_at"] == later + WEEK
    assert get_job(api, org.test.key, job["id"])["status"] == "completed"
    assert job_events(org) == ["job.cancelled", "job.completed"]


def test_only_failed_cancelled_or_expired_jobs_are_retried(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    queued = create_job(api, org.test.key, parse_request()).json()["id"]

    response = api.post(f"/v1/jobs/{queued}/retry", headers=auth(org.test.key))

    assert response.status_code == 400
    assert "only failed, cancelled or expired" in response.json()["detail"]


# ---------------------------------------------------------------------------- expiry and lost workers


def test_the_sweeper_expires_unfinished_jobs_past_their_expiry(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    waiting = create_job(api, org.test.key, parse_request()).json()["id"]
    finished = create_job(api, org.test.key, {}, endpoint="/v1/edits").json()["id"]  # failed at once
    later = job_domain._now() + WEEK + 1
    monkeypatch.setattr(job_domain, "_now", lambda: later)
    sweeper = deployment.function("JobSweeperFunction")

    first = sweeper.invoke({"source": "aws.events"}, timeout=60)
    second = sweeper.invoke({"source": "aws.events"}, timeout=60)

    assert first == {"expired": 1, "resent": 0, "cleared": 2}
    assert second == {"expired": 0, "resent": 0, "cleared": 0}
    job = get_job(api, org.test.key, waiting)
    assert job["status"] == "expired"
    assert job["error"]["code"] == "expired"
    assert get_job(api, org.test.key, finished)["status"] == "failed"
    assert "job.expired" in job_events(org)
    drain(deployment, "JobWorkerFunction")
    assert get_job(api, org.test.key, waiting)["status"] == "expired"  # its message comes to nothing


def test_the_sweeper_sends_again_a_job_stranded_before_its_message_was_sent(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(TenantQueue, "__call__", lambda *args: None)  # the API stopped before sending
        job = create_job(api, org.test.key, parse_request()).json()
    sweeper = deployment.function("JobSweeperFunction")
    monkeypatch.setattr(job_domain, "_now", lambda: job["created_at"] + 60)
    assert sweeper.invoke({}, timeout=60) == {"expired": 0, "resent": 0, "cleared": 0}  # too early to tell
    monkeypatch.setattr(
        job_domain, "_now", lambda: job["created_at"] + job_domain.STRANDED_AFTER_SECONDS + 60
    )

    swept = sweeper.invoke({}, timeout=60)
    again = sweeper.invoke({}, timeout=60)
    monkeypatch.setattr(
        job_domain, "_now", lambda: job["created_at"] + job_domain.STRANDED_AFTER_SECONDS + 400
    )
    later = sweeper.invoke({}, timeout=60)

    assert swept == again == {"expired": 0, "resent": 1, "cleared": 0}  # the same sweep interval, twice
    assert later == {"expired": 0, "resent": 0, "cleared": 0}  # the next interval has moved past it
    assert drain(deployment, "JobWorkerFunction") == 2
    assert get_job(api, org.test.key, job["id"])["status"] == "completed"


def test_the_sweeper_validates_a_job_stranded_in_validating(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    tenant, request = Tenant(org.id, "test"), parse_request()
    now = job_domain._now()
    stranded = job_domain.JobRecord(
        id="job_01STRANDEDVALIDATING00000",
        organization_id=org.id,
        environment=tenant.environment,
        endpoint="/v1/parses",
        status="validating",
        request=request,
        created_at=now,
        expires_at=now + WEEK,
        facts=job_domain.facts_of(request),
    )
    DynamoJobRepository().create(tenant, stranded, None)  # the API stopped before validating it
    monkeypatch.setattr(job_domain, "_now", lambda: now + job_domain.STRANDED_AFTER_SECONDS + 60)

    swept = deployment.function("JobSweeperFunction").invoke({}, timeout=60)
    assert swept == {"expired": 0, "resent": 1, "cleared": 0}
    assert drain(deployment, "JobWorkerFunction") == 1
    assert get_job(api, org.test.key, stranded.id)["status"] == "completed"


def test_the_local_stack_runs_the_sweeper_on_its_schedule(deployment: Deployment) -> None:
    sweeper = deployment.function("JobSweeperFunction")

    assert [schedule.seconds for schedule in sweeper.schedules] == [300]


def test_a_job_whose_worker_died_fails_when_its_message_comes_back(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.documents.builtin import BuiltinEngine

    job_id = create_job(api, org.test.key, parse_request()).json()["id"]

    def worker_dies(*args: object, **options: object) -> Iterator[object]:
        raise SystemExit("the Lambda runtime stopped")
        yield

    monkeypatch.setattr(BuiltinEngine, "pages", worker_dies)
    tenant = Tenant(org.id, "test")
    with pytest.raises(SystemExit):
        job_service().run(tenant, job_id)
    assert get_job(api, org.test.key, job_id)["status"] == "in_progress"
    later = job_domain._now() + job_domain.WORKER_SECONDS + 1
    monkeypatch.setattr(job_domain, "_now", lambda: later)

    job_service().run(tenant, job_id)  # the message, back after its visibility timeout

    job = get_job(api, org.test.key, job_id)
    assert job["status"] == "failed"
    assert job["error"]["code"] == "interrupted"


# ---------------------------------------------------------------------------- isolation


def test_another_environments_job_is_404_like_an_unknown_one(
    api: httpx.Client, org: Org, other_org: Org
) -> None:
    job_id = create_job(api, org.test.key, parse_request()).json()["id"]
    unknown = api.get("/v1/jobs/job_01UNKNOWN", headers=auth(org.production.key))

    for key in (org.production.key, other_org.test.key):
        for method, path in [
            ("GET", f"/v1/jobs/{job_id}"),
            ("GET", f"/v1/jobs/{job_id}/status"),
            ("POST", f"/v1/jobs/{job_id}/cancel"),
            ("POST", f"/v1/jobs/{job_id}/retry"),
        ]:
            response = api.request(method, path, headers=auth(key))
            assert response.status_code == 404
            assert response.json() == {"detail": unknown.json()["detail"].replace("job_01UNKNOWN", job_id)}
        assert api.get("/v1/jobs", headers=auth(key)).json()["data"] == []
    assert get_job(api, org.test.key, job_id)["status"] == "queued"
