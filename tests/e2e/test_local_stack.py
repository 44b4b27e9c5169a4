"""The local stack as a user meets it: `make dev`, curl-like HTTP, the admin CLI, Ctrl-C."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pymupdf
import pytest
from docsvc_client.webhooks import verify

from tests.conftest import ROOT
from tests.e2e.conftest import RunningStack, start_stack, stop_stack
from tests.integration.webhook_receivers import Receivers

pytestmark = pytest.mark.e2e
DOCSVC = str(Path(sys.executable).parent / "docsvc")


def client(stack: RunningStack, key: str) -> httpx.Client:
    return httpx.Client(base_url=stack.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)


def pdf(pages: int) -> bytes:
    document = pymupdf.open()
    for number in range(pages):
        document.new_page().insert_text((72, 72), f"Quarterly report, page {number + 1}")
    return bytes(document.tobytes())


def admin(stack: RunningStack, *arguments: str) -> dict[str, object] | list[dict[str, object]]:
    environment = dict(os.environ, DOCSVC_STATE_FILE=str(stack.state_file))
    environment.pop("AWS_ENDPOINT_URL", None)
    result = subprocess.run(
        [DOCSVC, "admin", *arguments, "--json"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    parsed: dict[str, object] | list[dict[str, object]] = json.loads(result.stdout)
    return parsed


def test_the_printed_keys_select_their_environments(stack: RunningStack) -> None:
    for key, environment in ((stack.test_key, "test"), (stack.live_key, "production")):
        with client(stack, key) as api:
            body = api.get("/v1/auth/status").json()
        assert body["environment"]["name"] == environment
        assert body["organization_id"] == stack.organization_id


def test_the_banner_shows_a_working_curl(stack: RunningStack) -> None:
    text = "".join(stack.output)

    assert f"curl -s {stack.url}/v1/auth/status" in text
    assert "Ctrl-C" in text


def test_an_upload_is_inspected_in_the_background(stack: RunningStack) -> None:
    content = pdf(pages=5)
    with client(stack, stack.test_key) as api:
        created = api.post("/v1/files", files={"file": ("report.pdf", content)}).json()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            current = api.get(f"/v1/files/{created['id']}").json()
            if current["page_count"] is not None:
                break
            time.sleep(0.2)

    assert current["page_count"] == 5  # S3 event -> SQS -> poller -> inspector function
    assert current["sha256"] == hashlib.sha256(content).hexdigest()


def test_a_job_is_run_by_the_worker_and_polled_to_completion(stack: RunningStack) -> None:
    content = base64.b64encode(pdf(pages=4)).decode()
    request = {"document": {"filename": "report.pdf", "url": f"data:application/pdf;base64,{content}"}}
    with client(stack, stack.test_key) as api:
        created = api.post("/v1/jobs", json={"endpoint": "/v1/parses", "request": request})
        assert created.status_code == 201, created.text
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            current = api.get(f"/v1/jobs/{created.json()['id']}", params={"include_response": True}).json()
            if current["status"] not in {"validating", "queued", "in_progress"}:
                break
            time.sleep(0.2)

    assert current["status"] == "completed"  # API -> SQS -> poller -> job worker -> parse service
    assert len(current["response"]["body"]["output"]["pages"]) == 4


def test_a_finished_job_reaches_a_webhook_receiver_signed(stack: RunningStack, receivers: Receivers) -> None:
    receiver = receivers.start()
    with client(stack, stack.live_key) as api:
        endpoint = api.post("/v1/webhooks/endpoints", json={"url": receiver.url, "events": ["job.*"]})
        assert endpoint.status_code == 201, endpoint.text
        secret = api.get("/v1/webhooks/signing-secret").json()["signing_secret"]
        request = {"document": {"filename": "a.pdf", "url": "data:application/pdf;base64,"}}
        job = api.post("/v1/jobs", json={"endpoint": "/v1/parses", "request": request}).json()
        deadline = time.monotonic() + 30
        while not receiver.received and time.monotonic() < deadline:
            time.sleep(0.2)  # event log -> stream poller -> dispatcher -> queue poller -> worker -> POST

    (got,) = receiver.received
    assert got.event["type"] == "job.failed" and got.event["data"]["id"] == job["id"]
    assert got.headers["X-Service-Environment"] == "production"
    assert verify(got.body, got.headers["X-Service-Signature"], secret)


def test_an_upload_session_goes_through_a_presigned_url(stack: RunningStack) -> None:
    content = pdf(pages=1) + b"%" + b"x" * 5_000_000
    with client(stack, stack.test_key) as api:
        session = api.post(
            "/v1/files/upload",
            json={"filename": "big.pdf", "size_bytes": len(content), "content_type": "application/pdf"},
        ).json()
        put = httpx.put(session["upload_url"], content=content, headers=session["upload_headers"], timeout=30)
        assert put.status_code == 200
        done = api.post(f"/v1/files/upload/{session['file_id']}/complete")
        assert done.status_code == 200, done.text
        link = api.get(f"/v1/files/{session['file_id']}/download-link").json()

    assert httpx.get(link["download_url"], timeout=30).content == content


def test_the_other_environment_sees_404(stack: RunningStack) -> None:
    with client(stack, stack.test_key) as test_api, client(stack, stack.live_key) as live_api:
        file_id = test_api.post("/v1/files", files={"file": ("t.txt", b"test only")}).json()["id"]
        foreign = live_api.get(f"/v1/files/{file_id}")
        unknown = live_api.get("/v1/files/file_01M7ZZZZZZZZZZZZZZZZZZZZZZ")

    assert foreign.status_code == unknown.status_code == 404


def test_gateway_limits_and_unknown_routes(stack: RunningStack) -> None:
    with client(stack, stack.test_key) as api:
        too_big = api.post("/v1/files", files={"file": ("big.txt", b"a" * (6 * 1024 * 1024))})
        missing = api.get("/v1/not-a-route")
        no_key = httpx.get(f"{stack.url}/v1/files")

    assert too_big.status_code == 413
    assert missing.status_code == 404
    assert no_key.status_code == 401
    assert no_key.json()["detail"].startswith("missing API key")


def test_admin_cli_manages_keys_on_the_running_stack(stack: RunningStack) -> None:
    organization = admin(stack, "orgs", "create", "Initech")
    assert isinstance(organization, dict)
    created = admin(
        stack, "keys", "create", "--org", str(organization["id"]), "--env", "production", "--name", "ci"
    )
    assert isinstance(created, dict)
    key = str(created["key"])
    assert key.startswith("svc_live_")

    with client(stack, key) as api:
        assert api.get("/v1/auth/status").json()["environment_slug"] == "production"
        listed = admin(stack, "keys", "list", "--org", str(organization["id"]))
        assert isinstance(listed, list)
        assert [item["id"] for item in listed] == [created["id"]]
        assert key not in json.dumps(listed)

        admin(stack, "keys", "revoke", str(created["id"]))
        assert api.get("/v1/auth/status").status_code == 401


def test_admin_cli_promotes_a_test_workflow_to_production(stack: RunningStack) -> None:
    graph = {
        "name": "Invoices",
        "blocks": [
            {"id": "start", "type": "start"},
            {"id": "post", "type": "api_call", "config": {"url": "http://localhost:9/x"}},
        ],
        "edges": [],
    }
    with client(stack, stack.test_key) as api:
        source = api.post("/v1/workflows", json=graph).json()

    refused = subprocess.run(
        [DOCSVC, "admin", "workflows", "promote", source["id"], "--org", stack.organization_id],
        cwd=ROOT,
        env=dict(os.environ, DOCSVC_STATE_FILE=str(stack.state_file)),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert refused.returncode == 2 and "--confirm" in refused.stderr
    promotion = admin(
        stack, "workflows", "promote", source["id"], "--org", stack.organization_id, "--confirm"
    )

    assert isinstance(promotion, dict) and promotion["created"] is True
    assert promotion["missing_secrets"] == [] and "localhost" in str(promotion["warnings"])
    with client(stack, stack.live_key) as api:
        target = api.get(f"/v1/workflows/{promotion['target_workflow_id']}").json()
    assert target["promoted_from"] == source["id"] and target["environment"] == "production"


def test_admin_cli_legacy_keys_are_production(stack: RunningStack) -> None:
    created = admin(
        stack, "keys", "create", "--org", stack.organization_id, "--env", "production", "--legacy"
    )

    assert isinstance(created, dict)
    assert str(created["key"]).startswith("sk_svc_")
    with client(stack, str(created["key"])) as api:
        assert api.get("/v1/auth/status").json()["environment"]["name"] == "production"


def test_ctrl_c_stops_everything_and_removes_the_state_file(tmp_path: Path) -> None:
    running = start_stack(tmp_path / "local.json")
    assert running.state_file.exists()

    printed = stop_stack(running)

    assert "docsvc local stack stopped" in printed
    assert "Traceback" not in printed
    assert not running.state_file.exists()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{running.url}/v1/auth/status", timeout=2)


def test_the_console_shows_one_line_a_request_and_no_metrics_or_warnings(tmp_path: Path) -> None:
    running = start_stack(tmp_path / "local.json")
    try:
        with client(running, running.test_key) as api:
            created = api.post("/v1/files", files={"file": ("report.pdf", pdf(pages=2))})
            deadline = time.monotonic() + 20  # the inspector runs too: a worker's cold start, its metrics
            while api.get(f"/v1/files/{created.json()['id']}").json()["page_count"] is None:
                assert time.monotonic() < deadline
                time.sleep(0.2)
            unknown = api.get("/v1/nothing-here")
    finally:
        printed = "".join(running.output) + stop_stack(running)

    request_id = created.headers["X-Request-Id"]
    assert re.search(rf"^POST /v1/files 201 \d+ ms {re.escape(request_id)}$", printed, re.MULTILINE), printed
    assert "GET /v1/nothing-here 404 " in printed and unknown.headers["X-Request-Id"] in printed
    assert '"_aws"' not in printed and "CloudWatchMetrics" not in printed  # no EMF metric lines
    assert "UserWarning" not in printed and "No application metrics" not in printed
    assert "Traceback" not in printed
