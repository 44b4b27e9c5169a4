"""Workflows through the handlers: CRUD and the draft graph, diagnosis, publishing, runs in the worker,
secret references resolved in the run's own environment, and promotion from test to production."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from docsvc import services
from docsvc.adapters.secrets_store import DynamoSecretRepository
from docsvc.domain.promotion import promote
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_intelligence import doc, invoice, invoice_page, pdf, receipt_page
from tests.integration.webhook_receivers import Receivers

SCHEMA = {
    "type": "object",
    "properties": {"invoice_number": {"type": "string"}, "total": {"type": "number"}},
}


def block(block_id: str, kind: str, **config: Any) -> dict[str, Any]:
    return {
        "id": block_id,
        "type": kind,
        "label": block_id,
        "config": config or None,
        "position": {"x": 0, "y": 0},
    }


def edge(
    source: str, target: str, source_handle: str = "output-file-0", target_handle: str = "input-file-0"
) -> dict[str, Any]:
    return {
        "id": f"{source}->{target}",
        "source": source,
        "target": target,
        "source_handle": source_handle,
        "target_handle": target_handle,
    }


def invoice_graph(url: str) -> dict[str, Any]:
    """start -> extract -> conditional (total > 100) -> api_call with a secret header."""
    return {
        "blocks": [
            block("start", "start_document"),
            block("extract", "extract", json_schema=SCHEMA),
            block("big", "conditional", field="total", operator="gt", value=100),
            block("notify", "api_call", url=url, headers={"Authorization": "secret://API_TOKEN"}),
            block("readme", "note", text="Invoices over 100 are sent to the ledger."),
        ],
        "edges": [
            edge("start", "extract"),
            edge("extract", "big", "output-json-0", "input-json-0"),
            edge("big", "notify", "output-json-0", "input-json-0"),
        ],
    }


def create(
    api: httpx.Client, key: str, graph: dict[str, Any] | None = None, name: str = "Invoices"
) -> dict[str, Any]:
    response = api.post("/v1/workflows", headers=auth(key), json={"name": name, **(graph or {})})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def add_secret(api: httpx.Client, key: str, name: str, value: str) -> None:
    assert api.post("/v1/secrets", headers=auth(key), json={"name": name, "value": value}).status_code == 201


def run_and_wait(
    api: httpx.Client, deployment: Deployment, key: str, workflow_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    started = api.post(f"/v1/workflows/{workflow_id}/runs", headers=auth(key), json=body)
    assert started.status_code == 202, started.text
    assert started.json()["status"] == "queued"
    drain(deployment, "WorkflowWorkerFunction")
    run: dict[str, Any] = api.get(f"/v1/workflows/runs/{started.json()['id']}", headers=auth(key)).json()
    return run


# ---------------------------------------------------------------------------- workflows and graphs


def test_workflows_are_kept_per_environment(api: httpx.Client, org: Org) -> None:
    created = create(api, org.test.key, invoice_graph("https://93.184.216.34/ledger"))

    assert created["id"].startswith("wf_") and created["environment"] == "test"
    assert created["published_version"] is None
    listed = api.get("/v1/workflows", headers=auth(org.test.key)).json()["data"]
    assert [workflow["id"] for workflow in listed] == [created["id"]]
    graph = api.get(f"/v1/workflows/{created['id']}/graph", headers=auth(org.test.key)).json()
    assert [item["id"] for item in graph["blocks"]] == ["start", "extract", "big", "notify", "readme"]
    assert graph["edges"][0]["source_block"] == "start" and graph["edges"][0]["target_block"] == "extract"
    renamed = api.patch(
        f"/v1/workflows/{created['id']}", headers=auth(org.test.key), json={"name": "Ledger"}
    ).json()
    assert renamed["name"] == "Ledger"
    production = auth(org.production.key)
    for method, path in [
        ("GET", f"/v1/workflows/{created['id']}"),
        ("GET", f"/v1/workflows/{created['id']}/graph"),
        ("POST", f"/v1/workflows/{created['id']}/diagnose-graph"),
        ("POST", f"/v1/workflows/{created['id']}/publish"),
        ("DELETE", f"/v1/workflows/{created['id']}"),
    ]:
        assert api.request(method, path, headers=production).status_code == 404, path
    assert api.get("/v1/workflows", headers=production).json()["data"] == []
    assert api.delete(f"/v1/workflows/{created['id']}", headers=auth(org.test.key)).status_code == 204
    assert api.get(f"/v1/workflows/{created['id']}", headers=auth(org.test.key)).status_code == 404


def test_the_draft_graph_is_replaced_and_bad_graphs_are_422(api: httpx.Client, org: Org) -> None:
    workflow = create(api, org.test.key)
    path = f"/v1/workflows/{workflow['id']}/graph"

    replaced = api.put(path, headers=auth(org.test.key), json={"blocks": [block("s", "start")], "edges": []})
    assert replaced.status_code == 200 and replaced.json()["blocks"][0]["type"] == "start"
    unknown_field = api.put(
        path, headers=auth(org.test.key), json={"blocks": [{"id": "s", "type": "start", "colour": 1}]}
    )
    assert unknown_field.status_code == 422
    too_many = api.put(
        path, headers=auth(org.test.key), json={"blocks": [block(f"b{n}", "note") for n in range(201)]}
    )
    assert too_many.status_code == 422


def test_diagnosis_of_the_stored_draft_and_of_a_given_graph(api: httpx.Client, org: Org) -> None:
    workflow = create(api, org.test.key)
    path = f"/v1/workflows/{workflow['id']}/diagnose-graph"

    stored = api.post(path, headers=auth(org.test.key)).json()
    given = api.post(
        path, headers=auth(org.test.key), json=invoice_graph("https://93.184.216.34/ledger")
    ).json()

    assert stored["is_valid"] is False
    assert {"severity": "error", "code": "NO_START_BLOCK", "block_id": None}.items() <= stored["issues"][
        0
    ].items()
    assert stored["stats"] == {
        "total_blocks": 0,
        "total_edges": 0,
        "block_types": {},
        "start_document_blocks": 0,
    }
    assert given["is_valid"] is True, given["issues"]
    assert [issue["code"] for issue in given["issues"]] == ["MISSING_SECRET"]  # API_TOKEN is not set here
    assert given["stats"]["block_types"]["start_document"] == 1 and given["stats"]["total_edges"] == 3


def test_publishing_is_refused_with_the_issues_while_the_draft_has_an_error(
    api: httpx.Client, org: Org
) -> None:
    workflow = create(
        api,
        org.test.key,
        {
            "blocks": [block("start", "start"), block("extract", "extract")],
            "edges": [edge("start", "extract")],
        },
    )
    publish = f"/v1/workflows/{workflow['id']}/publish"

    refused = api.post(publish, headers=auth(org.test.key))
    assert refused.status_code == 400
    assert [issue["code"] for issue in refused.json()["issues"]] == ["MISSING_REQUIRED_CONFIG"]
    assert "json_schema" in refused.json()["detail"]
    fixed = {
        "blocks": [block("start", "start"), block("extract", "extract", json_schema=SCHEMA)],
        "edges": [edge("start", "extract")],
    }
    api.put(f"/v1/workflows/{workflow['id']}/graph", headers=auth(org.test.key), json=fixed)
    assert api.post(publish, headers=auth(org.test.key)).json()["published_version"] == 1
    assert api.post(publish, headers=auth(org.test.key)).json()["published_version"] == 2


# ---------------------------------------------------------------------------- runs


def test_a_run_executes_the_published_graph_with_jobs_secrets_and_an_event(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    ledger = receivers.start()
    add_secret(api, org.test.key, "API_TOKEN", "Bearer test-token")
    workflow = create(api, org.test.key, invoice_graph(ledger.url))
    api.post(f"/v1/workflows/{workflow['id']}/publish", headers=auth(org.test.key))

    run = run_and_wait(
        api, deployment, org.test.key, workflow["id"], {"documents": {"start": doc(invoice())}}
    )

    assert run["status"] == "completed", run
    assert run["version"] == 1 and run["error"] is None
    assert {block_id: result["status"] for block_id, result in run["blocks"].items()} == {
        "start": "completed",
        "extract": "completed",
        "big": "completed",
        "notify": "completed",
    }
    extraction = run["blocks"]["extract"]["outputs"]["output-json-0"]
    assert extraction["total"] == 2499.5
    (call,) = ledger.received
    assert call.headers["Authorization"] == "Bearer test-token"
    assert call.event["invoice_number"] == "INV-2026-0042"
    jobs = api.get("/v1/jobs", headers=auth(org.test.key), params={"workflow_id": workflow["id"]}).json()[
        "data"
    ]
    assert [job["id"] for job in jobs] == [run["blocks"]["extract"]["job_id"]]
    runs = api.get(f"/v1/workflows/{workflow['id']}/runs", headers=auth(org.test.key)).json()["data"]
    assert [item["id"] for item in runs] == [run["id"]]
    events = api.get(
        "/v1/events", headers=auth(org.test.key), params={"type": "workflow.run.completed"}
    ).json()
    assert [event["data"]["id"] for event in events["data"]] == [run["id"]]
    assert "test-token" not in str(run)
    assert api.get(f"/v1/workflows/runs/{run['id']}", headers=auth(org.production.key)).status_code == 404


def test_a_production_run_never_uses_the_test_secret(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    ledger = receivers.start()
    add_secret(api, org.test.key, "API_TOKEN", "Bearer test-token")
    workflow = create(api, org.production.key, invoice_graph(ledger.url))
    body = {"documents": {"start": doc(invoice())}, "version": "draft"}

    failed = run_and_wait(api, deployment, org.production.key, workflow["id"], body)

    assert failed["status"] == "failed"
    assert failed["error"]["code"] == "missing_secret" and "API_TOKEN" in failed["error"]["message"]
    assert failed["blocks"] == {} and ledger.received == []
    assert api.get("/v1/jobs", headers=auth(org.production.key)).json()["data"] == []
    add_secret(api, org.production.key, "API_TOKEN", "Bearer live-token")
    completed = run_and_wait(api, deployment, org.production.key, workflow["id"], body)
    assert completed["status"] == "completed"
    assert [call.headers["Authorization"] for call in ledger.received] == ["Bearer live-token"]
    events = api.get("/v1/events", headers=auth(org.production.key), params={"type": "workflow.run.*"}).json()
    assert [event["type"] for event in events["data"]] == ["workflow.run.completed", "workflow.run.failed"]


def test_a_classifier_routes_the_document_and_the_branch_not_taken_is_skipped(
    api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    graph = {
        "blocks": [
            block("start", "start"),
            block("kind", "classifier", categories=[{"name": "invoice"}, {"name": "receipt"}]),
            block("invoice", "extract", json_schema=SCHEMA),
            block(
                "receipt",
                "extract",
                json_schema={"type": "object", "properties": {"total": {"type": "number"}}},
            ),
        ],
        "edges": [
            edge("start", "kind"),
            edge("kind", "invoice", "output-file-0"),
            edge("kind", "receipt", "output-file-1"),
        ],
    }
    workflow = create(api, org.test.key, graph)

    run = run_and_wait(
        api,
        deployment,
        org.test.key,
        workflow["id"],
        {"documents": {"start": doc(pdf(receipt_page), "r.pdf")}, "version": "draft"},
    )

    assert run["status"] == "completed", run
    assert run["blocks"]["kind"]["outputs"]["output-json-0"]["category"] == "receipt"
    assert run["blocks"]["invoice"]["status"] == "skipped"
    assert run["blocks"]["receipt"]["status"] == "completed"


def test_a_failing_block_fails_the_run_with_its_error(
    api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    graph = {
        "blocks": [block("start", "start"), block("extract", "extract", json_schema=SCHEMA)],
        "edges": [edge("start", "extract")],
    }
    workflow = create(api, org.test.key, graph)
    broken = {"filename": "broken.pdf", "url": "data:application/pdf;base64,JVBERi0xLjcKYnJva2Vu"}

    run = run_and_wait(
        api, deployment, org.test.key, workflow["id"], {"documents": {"start": broken}, "version": "draft"}
    )

    assert run["status"] == "failed" and run["error"]["block_id"] == "extract"
    assert run["blocks"]["extract"]["status"] == "failed" and run["blocks"]["extract"]["error"]["message"]
    events = api.get("/v1/events", headers=auth(org.test.key), params={"type": "workflow.run.failed"}).json()
    assert [event["data"]["id"] for event in events["data"]] == [run["id"]]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"documents": {}}, 400, "no published version"),
        ({"documents": {}, "version": "draft"}, 422, "needs a document"),
        (
            {
                "documents": {
                    "start": {"filename": "a.pdf", "url": "data:,x"},
                    "nope": {"filename": "b.pdf", "url": "data:,x"},
                },
                "version": "draft",
            },
            422,
            "not a start_document",
        ),
        ({"documents": {}, "version": 3}, 404, "no version 3"),
    ],
)
def test_runs_are_refused_with_a_reason(
    api: httpx.Client, org: Org, body: dict[str, Any], status: int, words: str
) -> None:
    workflow = create(
        api,
        org.test.key,
        {"blocks": [block("start", "start"), block("parse", "parse")], "edges": [edge("start", "parse")]},
    )

    response = api.post(f"/v1/workflows/{workflow['id']}/runs", headers=auth(org.test.key), json=body)

    assert response.status_code == status and words in response.text


# ---------------------------------------------------------------------------- promotion


def test_promotion_copies_the_graph_and_reports_missing_secrets_and_local_urls(
    api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    add_secret(api, org.test.key, "API_TOKEN", "Bearer test-token")
    graph = invoice_graph("https://abc123.ngrok-free.app/ledger")
    graph["blocks"].append(block("local", "api_call", url="http://127.0.0.1:8080/x"))
    graph["edges"].append(edge("big", "local", "output-json-1", "input-json-0"))
    source = create(api, org.test.key, graph)
    secrets = DynamoSecretRepository()

    def exists(tenant: Any, name: str) -> bool:
        return secrets.get(tenant, name) is not None

    first = promote(services.workflow_service(), exists, org.id, source["id"])

    assert first.missing_secrets == ["API_TOKEN"] and first.created is True
    assert len(first.warnings) == 2
    assert any("tunnel" in warning for warning in first.warnings)
    assert any("loopback" in warning for warning in first.warnings)
    target = api.get(f"/v1/workflows/{first.target_workflow_id}", headers=auth(org.production.key)).json()
    assert target["environment"] == "production" and target["promoted_from"] == source["id"]
    copied = api.get(
        f"/v1/workflows/{first.target_workflow_id}/graph", headers=auth(org.production.key)
    ).json()
    assert copied == api.get(f"/v1/workflows/{source['id']}/graph", headers=auth(org.test.key)).json()
    assert api.get("/v1/secrets", headers=auth(org.production.key)).json()["secrets"] == []
    add_secret(api, org.production.key, "API_TOKEN", "Bearer live")
    second = promote(services.workflow_service(), exists, org.id, source["id"])
    assert second.target_workflow_id == first.target_workflow_id and second.created is False
    assert second.missing_secrets == [] and second.promotion_id != first.promotion_id


def test_a_split_hands_each_subdocument_its_own_pages(
    api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    subdocuments = [{"name": "invoice"}, {"name": "receipt"}]
    graph = {
        "blocks": [
            block("start", "start"),
            block("split", "split", subdocuments=subdocuments),
            block("invoice", "parse"),
            block("receipt", "parse"),
        ],
        "edges": [
            edge("start", "split"),
            edge("split", "invoice", "output-file-0"),
            edge("split", "receipt", "output-file-1"),
        ],
    }
    workflow = create(api, org.test.key, graph)
    packet = pdf(lambda document: invoice_page(document, "INV-7", "$120.00"), receipt_page)

    run = run_and_wait(
        api,
        deployment,
        org.test.key,
        workflow["id"],
        {"documents": {"start": doc(packet)}, "version": "draft"},
    )

    assert run["status"] == "completed", run
    parts = run["blocks"]["split"]["outputs"]["output-json-0"]
    assert [(part["name"], part["pages"]) for part in parts] == [("invoice", [1]), ("receipt", [2])]
    invoice_text = run["blocks"]["invoice"]["outputs"]["output-json-0"]["output"]["pages"]
    receipt_text = run["blocks"]["receipt"]["outputs"]["output-json-0"]["output"]["pages"]
    assert len(invoice_text) == 1 and "INV-7" in invoice_text[0]
    assert len(receipt_text) == 1 and "CORNER CAFE" in receipt_text[0]


def test_a_run_whose_worker_died_is_failed_when_its_message_comes_back(
    api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    from datetime import UTC, datetime, timedelta

    import time_machine
    from docsvc.tenancy import Tenant

    graph = {"blocks": [block("start", "start"), block("parse", "parse")], "edges": [edge("start", "parse")]}
    workflow = create(api, org.test.key, graph)
    started = api.post(
        f"/v1/workflows/{workflow['id']}/runs",
        headers=auth(org.test.key),
        json={"documents": {"start": doc(invoice())}, "version": "draft"},
    ).json()
    store = services.workflow_runner()._store  # the worker's own view: it died after moving the run on
    run = store.get_run(Tenant(org.id, "test"), started["id"])
    assert run is not None
    store.put_run(
        Tenant(org.id, "test"),
        run.model_copy(update={"status": "running", "started_at": run.created_at}),
        None,
        expected="queued",
    )

    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=16), tick=True):
        services.workflow_runner().run(Tenant(org.id, "test"), started["id"])

    ended = api.get(f"/v1/workflows/runs/{started['id']}", headers=auth(org.test.key)).json()
    assert ended["status"] == "failed" and ended["error"]["code"] == "interrupted"


@pytest.mark.parametrize("name", [None, "", "   "])
def test_a_workflow_keeps_its_name_when_a_patch_would_blank_it(
    api: httpx.Client, org: Org, name: Any
) -> None:
    workflow = create(api, org.test.key)
    path = f"/v1/workflows/{workflow['id']}"

    response = api.patch(path, headers=auth(org.test.key), json={"name": name})

    assert response.status_code == 422
    assert api.get(path, headers=auth(org.test.key)).json()["name"] == "Invoices"
    assert api.post(f"{path}/diagnose-graph", headers=auth(org.test.key)).status_code == 200


def test_a_graph_of_exactly_the_largest_size_is_taken(api: httpx.Client, org: Org) -> None:
    blocks = [block(f"n{index}", "note", text="x") for index in range(200)]
    workflow = create(api, org.test.key, {"blocks": blocks})

    graph = api.get(f"/v1/workflows/{workflow['id']}/graph", headers=auth(org.test.key)).json()
    assert len(graph["blocks"]) == 200


@pytest.mark.parametrize("version", [0, -1, 99])
def test_a_run_of_a_version_that_does_not_exist_is_404(api: httpx.Client, org: Org, version: int) -> None:
    workflow = create(api, org.test.key, {"blocks": [block("start", "start")]})

    response = api.post(
        f"/v1/workflows/{workflow['id']}/runs",
        headers=auth(org.test.key),
        json={"documents": {}, "version": version},
    )

    assert response.status_code == 404 and f"no version {version}" in response.json()["detail"]
