"""Retention and deletion through the real handlers on moto: a job's request and response removed at its
expires_at (DynamoDB and S3), the TTL each kept record carries, and DELETE of jobs, results and runs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import boto3
import httpx
import pytest
from docsvc import services
from docsvc.adapters import payloads
from docsvc.adapters.dynamo.jobs import DynamoJobRepository
from docsvc.config import settings
from docsvc.domain import jobs as job_domain
from docsvc.local.gateway import RouteTable
from docsvc.local.stack import REGION, Deployment, deploy_template
from docsvc.local.transport import LambdaTransport
from docsvc.tenancy import Tenant as DomainTenant
from moto import mock_aws

from tests.conftest import TEMPLATE, Org, auth, drain, make_org
from tests.integration.test_intelligence import INVOICE_SCHEMA, doc, invoice, post
from tests.integration.test_jobs import create_job, get_job, parse_request
from tests.integration.test_parses import events_of, usage_of
from tests.integration.test_workflows import block, create, edge, run_and_wait

DAY = 24 * 3600


@pytest.fixture
def in_s3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stored payload goes to S3, however small, so the tests see its objects."""
    monkeypatch.setattr(payloads, "INLINE_BYTES", 0)


def objects(prefix: str) -> list[str]:
    listed = boto3.client("s3", region_name=REGION).list_objects_v2(
        Bucket=settings().files_bucket, Prefix=prefix
    )
    return sorted(entry["Key"] for entry in listed.get("Contents", []))


def item(table: str, org: Org, sort_key: str, environment: str = "test") -> dict[str, Any] | None:
    found = (
        boto3.resource("dynamodb", region_name=REGION)
        .Table(table)
        .get_item(Key={"pk": f"ORG#{org.id}#ENV#{environment}", "sk": sort_key})
        .get("Item")
    )
    return dict(found) if found else None


# ---------------------------------------------------------------------------- jobs at their expires_at


def test_the_sweeper_removes_a_job_request_and_response_from_dynamodb_and_s3_at_its_expiry(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch, in_s3: None
) -> None:
    job = create_job(api, org.test.key, parse_request()).json()
    drain(deployment, "JobWorkerFunction")
    waiting = create_job(api, org.test.key, parse_request()).json()
    folder = f"jobs/{org.id}/test/{job['id']}/"
    assert objects(folder) == [folder + "request.json", folder + "response.json"]
    stored = item(settings().jobs_table, org, "JOB#" + job["id"])
    assert stored is not None and stored["ttl"] == job["expires_at"] + job_domain.RECORD_KEPT_SECONDS
    sweeper = deployment.function("JobSweeperFunction")
    monkeypatch.setattr(job_domain, "_now", lambda: job["expires_at"] - 1)
    assert sweeper.invoke({}, timeout=60)["cleared"] == 0  # not yet

    monkeypatch.setattr(job_domain, "_now", lambda: waiting["expires_at"] + 1)
    swept = sweeper.invoke({}, timeout=60)

    assert swept == {"expired": 1, "resent": 0, "cleared": 2}
    assert objects(f"jobs/{org.id}/test/") == []
    stored = item(settings().jobs_table, org, "JOB#" + job["id"])
    assert stored is not None and "request" not in stored and "response" not in stored
    assert "expiry_pk" not in stored  # out of the sweeper's index: the next sweep reads nothing of it
    done = get_job(api, org.test.key, job["id"], include_request=True, include_response=True)
    assert (done["status"], done["request"], done["response"]) == ("completed", None, None)
    expired = get_job(api, org.test.key, waiting["id"], include_request=True)
    assert (expired["status"], expired["error"]["code"], expired["request"]) == ("expired", "expired", None)
    retried = api.post(f"/v1/jobs/{waiting['id']}/retry", headers=auth(org.test.key))
    assert retried.status_code == 400 and "request was removed" in retried.json()["detail"]
    assert sweeper.invoke({}, timeout=60) == {"expired": 0, "resent": 0, "cleared": 0}


def test_a_retried_job_keeps_its_data_until_its_new_expiry(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch, in_s3: None
) -> None:
    job = create_job(api, org.test.key, parse_request()).json()
    api.post(f"/v1/jobs/{job['id']}/cancel", headers=auth(org.test.key))
    monkeypatch.setattr(job_domain, "_now", lambda: job["created_at"] + 3 * DAY)
    retried = api.post(f"/v1/jobs/{job['id']}/retry", headers=auth(org.test.key)).json()
    monkeypatch.setattr(job_domain, "_now", lambda: job["expires_at"] + 1)

    swept = deployment.function("JobSweeperFunction").invoke({}, timeout=60)

    assert swept["cleared"] == 0
    assert objects(f"jobs/{org.id}/test/{job['id']}/") == [f"jobs/{org.id}/test/{job['id']}/request.json"]
    stored = item(settings().jobs_table, org, "JOB#" + job["id"])
    assert stored is not None and stored["ttl"] == retried["expires_at"] + job_domain.RECORD_KEPT_SECONDS


# ---------------------------------------------------------------------------- DELETE /v1/jobs/{id}


def test_an_ended_job_is_deleted_with_its_objects_and_its_events_and_usage_stay(
    api: httpx.Client, deployment: Deployment, org: Org, in_s3: None
) -> None:
    job = create_job(api, org.test.key, parse_request()).json()
    drain(deployment, "JobWorkerFunction")
    usage = usage_of(org, "test")

    deleted = api.delete(f"/v1/jobs/{job['id']}", headers=auth(org.test.key))

    assert deleted.status_code == 204 and deleted.content == b""
    assert api.get(f"/v1/jobs/{job['id']}", headers=auth(org.test.key)).status_code == 404
    assert api.delete(f"/v1/jobs/{job['id']}", headers=auth(org.test.key)).status_code == 404
    assert objects(f"jobs/{org.id}/test/{job['id']}/") == []
    assert usage_of(org, "test") == usage
    assert "job.completed" in [event["type"] for event in events_of(org, "test")]


def test_a_job_that_has_not_ended_is_409_until_it_is_cancelled(api: httpx.Client, org: Org) -> None:
    job = create_job(api, org.test.key, parse_request()).json()

    refused = api.delete(f"/v1/jobs/{job['id']}", headers=auth(org.test.key))

    assert refused.status_code == 409
    assert "cancel it first" in refused.json()["detail"]
    assert get_job(api, org.test.key, job["id"])["status"] == "queued"
    api.post(f"/v1/jobs/{job['id']}/cancel", headers=auth(org.test.key))
    assert api.delete(f"/v1/jobs/{job['id']}", headers=auth(org.test.key)).status_code == 204


def test_a_job_of_another_environment_answers_404_and_stays(
    api: httpx.Client, deployment: Deployment, org: Org, other_org: Org
) -> None:
    job = create_job(api, org.test.key, parse_request()).json()
    drain(deployment, "JobWorkerFunction")

    for key in (org.production.key, other_org.test.key):
        answer = api.delete(f"/v1/jobs/{job['id']}", headers=auth(key))
        assert answer.status_code == 404
        assert answer.json()["detail"] == f"no job '{job['id']}'"
    assert get_job(api, org.test.key, job["id"])["status"] == "completed"


# ---------------------------------------------------------------------------- DELETE of results


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/extractions", {"json_schema": INVOICE_SCHEMA}),
        ("/v1/classifications", {"categories": [{"name": "invoice"}, {"name": "receipt"}]}),
        ("/v1/splits", {"subdocuments": [{"name": "invoice"}]}),
        ("/v1/partitions", {"key": "invoice number"}),
    ],
)
def test_a_result_is_deleted_with_its_objects_and_its_usage_stays(
    api: httpx.Client, org: Org, path: str, body: dict[str, Any], in_s3: None
) -> None:
    result = post(api, org.test.key, path, {"document": doc(invoice()), **body})
    assert result.status_code == 201, result.text
    result_id = result.json()["id"]
    assert objects(f"results/{org.id}/test/{result_id}")
    usage = usage_of(org, "test")
    assert api.delete(f"{path}/{result_id}", headers=auth(org.production.key)).status_code == 404

    deleted = api.delete(f"{path}/{result_id}", headers=auth(org.test.key))

    assert deleted.status_code == 204
    assert api.get(f"{path}/{result_id}", headers=auth(org.test.key)).status_code == 404
    assert api.delete(f"{path}/{result_id}", headers=auth(org.test.key)).status_code == 404
    assert objects(f"results/{org.id}/test/{result_id}") == []
    assert usage_of(org, "test") == usage
    assert api.get(path, headers=auth(org.test.key)).json()["data"] == []


# ---------------------------------------------------------------------------- DELETE of workflow runs


def extraction_graph() -> dict[str, Any]:
    return {
        "blocks": [block("start", "start_document"), block("extract", "extract", json_schema=INVOICE_SCHEMA)],
        "edges": [edge("start", "extract")],
    }


def test_an_ended_workflow_run_is_deleted_with_its_objects_and_a_queued_one_is_409(
    api: httpx.Client, deployment: Deployment, org: Org, in_s3: None
) -> None:
    workflow = create(api, org.test.key, extraction_graph())
    api.post(f"/v1/workflows/{workflow['id']}/publish", headers=auth(org.test.key))
    body = {"documents": {"start": doc(invoice())}}
    run = run_and_wait(api, deployment, org.test.key, workflow["id"], body)
    assert run["status"] == "completed", run
    folder = f"workflows/{org.id}/test/runs/{run['id']}/"
    assert objects(folder)
    queued = api.post(f"/v1/workflows/{workflow['id']}/runs", headers=auth(org.test.key), json=body).json()

    refused = api.delete(f"/v1/workflows/runs/{queued['id']}", headers=auth(org.test.key))
    elsewhere = api.delete(f"/v1/workflows/runs/{run['id']}", headers=auth(org.production.key))
    deleted = api.delete(f"/v1/workflows/runs/{run['id']}", headers=auth(org.test.key))

    assert refused.status_code == 409 and "queued" in refused.json()["detail"]
    assert elsewhere.status_code == 404
    assert deleted.status_code == 204
    assert api.get(f"/v1/workflows/runs/{run['id']}", headers=auth(org.test.key)).status_code == 404
    assert objects(folder) == []
    runs = api.get(f"/v1/workflows/{workflow['id']}/runs", headers=auth(org.test.key)).json()["data"]
    assert [listed["id"] for listed in runs] == [queued["id"]]


# ---------------------------------------------------------------------------- retention parameters


@pytest.fixture
def retaining(monkeypatch: pytest.MonkeyPatch) -> Iterator[Deployment]:
    """The stack deployed with EventRetentionDays 7, ResultRetentionDays 30 and RunRetentionDays 90."""
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
    }.items():
        monkeypatch.setenv(name, value)
    parameters = {"EventRetentionDays": "7", "ResultRetentionDays": "30", "RunRetentionDays": "90"}
    with mock_aws():
        services.reset()
        yield deploy_template(TEMPLATE, parameters)
    for name in ("EVENT_RETENTION_DAYS", "RESULT_RETENTION_DAYS", "RUN_RETENTION_DAYS"):
        os.environ[name] = "0"  # as every other deployment of the tests has them
    services.reset()


def seconds(iso: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp())


def test_events_results_and_runs_carry_the_ttl_of_their_retention_parameter(
    retaining: Deployment, in_s3: None
) -> None:
    org = make_org("acme")
    transport = LambdaTransport(RouteTable(retaining.functions))
    with httpx.Client(transport=transport, base_url="https://api.docsvc.test") as api:
        extraction = post(
            api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
        ).json()
        workflow = create(api, org.test.key, extraction_graph())
        api.post(f"/v1/workflows/{workflow['id']}/publish", headers=auth(org.test.key))
        run = run_and_wait(
            api, retaining, org.test.key, workflow["id"], {"documents": {"start": doc(invoice())}}
        )

    stored = item(settings().results_table, org, "EXTRACTION#" + extraction["id"])
    assert stored is not None and stored["ttl"] == seconds(extraction["created_at"]) + 30 * DAY
    stored_run = item(settings().workflows_table, org, "RUN#" + run["id"])
    assert stored_run is not None and stored_run["ttl"] == seconds(run["created_at"]) + 90 * DAY
    events = events_of(org, "test")
    assert events and all(event["ttl"] == seconds(event["created_at"]) + 7 * DAY for event in events)
    s3 = boto3.client("s3", region_name=REGION)
    for key in objects(f"results/{org.id}/test/{extraction['id']}") + objects(
        f"workflows/{org.id}/test/runs/{run['id']}/"
    ):
        tags = s3.get_object_tagging(Bucket=settings().files_bucket, Key=key)["TagSet"]
        assert tags == [{"Key": "retention", "Value": "result" if key.startswith("results/") else "run"}]


def test_by_default_events_results_and_runs_are_kept(api: httpx.Client, org: Org, in_s3: None) -> None:
    extraction = post(
        api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
    ).json()

    stored = item(settings().results_table, org, "EXTRACTION#" + extraction["id"])
    assert stored is not None and "ttl" not in stored
    assert all("ttl" not in event for event in events_of(org, "test"))
    (key, *_) = objects(f"results/{org.id}/test/{extraction['id']}")
    s3 = boto3.client("s3", region_name=REGION)
    assert s3.get_object_tagging(Bucket=settings().files_bucket, Key=key)["TagSet"] == []


def test_a_retry_read_before_the_sweep_removed_the_request_is_not_written_after_it(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = create_job(api, org.test.key, parse_request()).json()
    api.post(f"/v1/jobs/{job['id']}/cancel", headers=auth(org.test.key))
    service = services.job_service()
    read = service.get(org_tenant(org), job["id"], with_request=True)  # the retry has read the job...
    monkeypatch.setattr(job_domain, "_now", lambda: job["expires_at"] + 1)
    deployment.function("JobSweeperFunction").invoke({}, timeout=60)  # ...then the sweep removed its data
    again = read.model_copy(update={"status": "validating", "expires_at": job["expires_at"] + 2 * DAY})

    assert not DynamoJobRepository().move(org_tenant(org), again)
    assert get_job(api, org.test.key, job["id"])["status"] == "cancelled"


def org_tenant(org: Org) -> DomainTenant:
    return DomainTenant(org.id, "test")
