"""The Lambda entry points, invoked with the sample events in events/ as Lambda would invoke them."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
from docsvc.local.stack import Deployment

from tests.conftest import ROOT, Org, auth, drain_streams
from tests.integration.test_files import pdf_bytes
from tests.integration.test_parses import create, document
from tests.integration.webhook_receivers import Receivers

EVENTS = ROOT / "events"


def event(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EVENTS / name).read_text())
    return loaded


def invoke(deployment: Deployment, logical_id: str, payload: dict[str, Any]) -> Any:
    """As Lambda invokes a function: on an instance of its own (a thread with its own event loop), with a
    context, within the function's timeout."""
    return deployment.function(logical_id).invoke(payload)


def test_auth_status_event(deployment: Deployment, org: Org) -> None:
    payload = event("auth_status.json")
    payload["headers"]["authorization"] = f"Bearer {org.test.key}"

    response = invoke(deployment, "AuthApiFunction", payload)

    assert response["statusCode"] == 200
    assert json.loads(response["body"])["environment_slug"] == "test"


def test_files_list_event_with_api_key_header(deployment: Deployment, api: httpx.Client, org: Org) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        api.post("/v1/files", headers=auth(org.test.key), files={"file": (name, b"text")})
    payload = event("files_list.json")
    payload["headers"]["api-key"] = org.test.key

    response = invoke(deployment, "FilesApiFunction", payload)

    body = json.loads(response["body"])
    assert response["statusCode"] == 200
    assert [item["filename"] for item in body["data"]] == ["a.txt", "b.txt"]
    assert body["list_metadata"]["after"] == body["data"][1]["id"]


def test_file_uploaded_event_is_inspected_and_the_test_event_ignored(
    deployment: Deployment, api: httpx.Client, org: Org
) -> None:
    file_id = api.post(
        "/v1/files", headers=auth(org.test.key), files={"file": ("r.pdf", pdf_bytes(pages=2))}
    ).json()["id"]
    payload = event("file_uploaded.json")
    body = json.loads(payload["Records"][0]["body"])
    body["Records"][0]["s3"]["object"]["key"] = f"files/{org.id}/test/{file_id}"
    payload["Records"][0]["body"] = json.dumps(body)

    response = invoke(deployment, "FileInspectorFunction", payload)

    assert response == {"batchItemFailures": []}
    assert api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).json()["page_count"] == 2


def test_a_record_whose_bytes_are_missing_fails_alone(
    deployment: Deployment, api: httpx.Client, org: Org
) -> None:
    file_id = api.post(
        "/v1/files", headers=auth(org.test.key), files={"file": ("r.pdf", pdf_bytes())}
    ).json()["id"]
    from docsvc.adapters.blobs import S3BlobStore
    from docsvc.domain.files import file_key
    from docsvc.tenancy import Tenant

    S3BlobStore().delete(file_key(Tenant(org.id, "test"), file_id))  # the record exists, the bytes do not
    payload = event("file_uploaded.json")
    body = json.loads(payload["Records"][0]["body"])
    body["Records"][0]["s3"]["object"]["key"] = f"files/{org.id}/test/{file_id}"
    payload["Records"][0]["body"] = json.dumps(body)

    response = invoke(deployment, "FileInspectorFunction", payload)

    assert response == {"batchItemFailures": [{"itemIdentifier": payload["Records"][0]["messageId"]}]}


def test_objects_outside_files_are_ignored(deployment: Deployment) -> None:
    payload = event("file_uploaded.json")
    body = json.loads(payload["Records"][0]["body"])
    body["Records"][0]["s3"]["object"]["key"] = "uploads/org_x/test/file_y"
    payload["Records"][0]["body"] = json.dumps(body)

    assert invoke(deployment, "FileInspectorFunction", payload) == {"batchItemFailures": []}


def test_job_queued_event_runs_the_job_and_reports_the_bad_record(
    deployment: Deployment, api: httpx.Client, org: Org
) -> None:
    content = base64.b64encode(pdf_bytes(pages=2)).decode()
    request = {"document": {"filename": "r.pdf", "url": f"data:application/pdf;base64,{content}"}}
    created = api.post(
        "/v1/jobs", headers=auth(org.test.key), json={"endpoint": "/v1/parses", "request": request}
    )
    job_id = created.json()["id"]
    payload = event("job_queued.json")
    for record in payload["Records"]:
        record["body"] = record["body"].replace("ORG_ID", org.id).replace("JOB_ID", job_id)

    response = invoke(deployment, "JobWorkerFunction", payload)

    assert response == {"batchItemFailures": [{"itemIdentifier": payload["Records"][1]["messageId"]}]}
    assert api.get(f"/v1/jobs/{job_id}", headers=auth(org.test.key)).json()["status"] == "completed"


def test_job_sweep_event_answers_how_many_jobs_expired(deployment: Deployment, org: Org) -> None:
    counts = invoke(deployment, "JobSweeperFunction", event("job_sweep.json"))
    assert counts == {"expired": 0, "resent": 0, "cleared": 0}


def test_event_written_stream_batch_starts_deliveries_and_reports_the_bad_record(
    deployment: Deployment, api: httpx.Client, org: Org, receivers: Receivers
) -> None:
    receiver = receivers.start()
    api.post("/v1/webhooks/endpoints", headers=auth(org.test.key), json={"url": receiver.url})
    payload = json.loads(json.dumps(event("event_written.json")).replace("ORG_ID", org.id))

    response = invoke(deployment, "WebhookDispatcherFunction", payload)

    bad = payload["Records"][2]["dynamodb"]["SequenceNumber"]
    assert response == {"batchItemFailures": [{"itemIdentifier": bad}]}
    (delivery,) = api.get("/v1/webhooks/deliveries", headers=auth(org.test.key)).json()["data"]
    assert delivery["event_id"] == payload["Records"][0]["dynamodb"]["NewImage"]["id"]["S"]
    assert delivery["status"] == "pending"  # the modified record started nothing more


def test_webhook_attempt_event_posts_and_reports_the_bad_record(
    deployment: Deployment, api: httpx.Client, org: Org, receivers: Receivers
) -> None:
    receiver = receivers.start()
    api.post("/v1/webhooks/endpoints", headers=auth(org.test.key), json={"url": receiver.url})
    create(api, org.test.key, document=document(pdf_bytes(pages=1)))
    drain_streams(deployment, "WebhookDispatcherFunction")
    (delivery,) = api.get("/v1/webhooks/deliveries", headers=auth(org.test.key)).json()["data"]
    payload = event("webhook_attempt.json")
    for record in payload["Records"]:
        record["body"] = record["body"].replace("ORG_ID", org.id).replace("DELIVERY_ID", delivery["id"])

    response = invoke(deployment, "WebhookWorkerFunction", payload)

    assert response == {"batchItemFailures": [{"itemIdentifier": payload["Records"][1]["messageId"]}]}
    assert len(receiver.received) == 1 and receiver.events()[0]["id"] == delivery["event_id"]


def test_document_read_event_is_answered_with_its_pages(deployment: Deployment) -> None:
    answer = invoke(deployment, "DocumentReaderFunction", event("document_read.json"))

    assert answer == {
        "page_count": 2,
        "pages": [
            {
                "number": 1,
                "text": "Quarterly notes",
                "warnings": [],
                "ocr_confidence": None,
                "words": [],
                "size": None,  # a text file's pages have no paper size
                "image_key": None,
            },
            {
                "number": 2,
                "text": "Second page",
                "warnings": [],
                "ocr_confidence": None,
                "words": [],
                "size": None,  # a text file's pages have no paper size
                "image_key": None,
            },
        ],
        "rejection": None,
    }
