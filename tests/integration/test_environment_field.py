"""Every resource answer says which environment it lives in (spec 9, rule 3): one of every resource is
made in an environment, then every GET route of every API function is asked for it (one and the list),
and every object answered carries `"environment"`: that environment, in both."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain_streams, without_request_limits
from tests.integration.test_edits import INSTRUCTIONS, form
from tests.integration.test_evals import TRUTH, add_document, new_eval, new_iteration
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, doc, invoice
from tests.integration.test_workflows import block, edge

# GET routes whose answer is no resource of an environment (or, for auth status, names the environment
# as the object the spec gives), each with why.
NOT_RESOURCES = {
    "/v1/auth/status": "the caller's context: `environment` is {id, name} there, as the spec states",
    "/v1/models": "the deployment's models, the same in every environment",
    "/v1/source": "where to get the service's source",
    "/v1/files/{file_id}/download-link": "a link to a file's bytes",
    "/v1/tables/{table_id}/download": "a table's CSV",
    "/v1/workflows/{workflow_id}/graph": "a workflow's draft graph, part of the workflow",
}
# Where an answer that is no resource itself holds its resources (a list, or one object).
HOLDERS = ("data", "tables", "table", "secrets", "secret", "endpoints", "endpoint")


def created(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201, 202), response.text
    return dict(response.json())


def made_in(api: httpx.Client, deployment: Deployment, key: str) -> dict[str, str]:
    """One of every resource, made with `key`; the value of each path parameter of the GET routes."""

    def post(path: str, **sent: Any) -> dict[str, Any]:
        return created(api.post(path, headers=auth(key), **sent))

    ids: dict[str, str] = {}
    endpoint = post("/v1/webhooks/endpoints", json={"url": "https://93.184.216.34/hooks"})["endpoint"]
    ids["endpoint_id"] = endpoint["id"]
    ids["file_id"] = post("/v1/files", files={"file": ("invoice.pdf", invoice(), "application/pdf")})["id"]
    ids["parse_id"] = post("/v1/parses", json={"document": doc(invoice())})["id"]
    job = {"endpoint": "/v1/parses", "request": {"document": doc(invoice())}}
    ids["job_id"] = post("/v1/jobs", json=job)["id"]
    ids["extraction_id"] = post(
        "/v1/extractions", json={"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
    )["id"]
    ids["classification_id"] = post(
        "/v1/classifications", json={"document": doc(invoice()), "categories": CATEGORIES}
    )["id"]
    subdocuments = [{"name": "invoice", "description": "an invoice"}]
    ids["split_id"] = post("/v1/splits", json={"document": doc(invoice()), "subdocuments": subdocuments})[
        "id"
    ]
    ids["partition_id"] = post("/v1/partitions", json={"document": doc(invoice()), "key": "invoice number"})[
        "id"
    ]
    ids["edit_id"] = post("/v1/edits", json={"document": form(), "instructions": INSTRUCTIONS})["id"]
    ids["template_id"] = post("/v1/edits/templates", json={"name": "Membership", "document": form()})["id"]
    ids["eval_id"] = new_eval(api, key)["id"]
    ids["document_id"] = add_document(api, key, ids["eval_id"], TRUTH)["id"]
    ids["iteration_id"] = new_iteration(api, key, ids["eval_id"])["id"]
    ids["name"] = post("/v1/secrets", json={"name": "LEDGER_TOKEN", "value": "s3cr3t"})["secret"]["name"]
    table = post("/v1/tables", data={"name": "insurers"}, files={"file": ("i.csv", b"insurer\nAcme\n")})
    ids["table_id"] = table["tables"][0]["id"]
    graph = {
        "blocks": [block("start", "start_document"), block("extract", "extract", json_schema=INVOICE_SCHEMA)],
        "edges": [edge("start", "extract")],
    }
    ids["workflow_id"] = post("/v1/workflows", json={"name": "Invoices", **graph})["id"]
    run = {"documents": {"start": doc(invoice())}, "version": "draft"}
    ids["run_id"] = post(f"/v1/workflows/{ids['workflow_id']}/runs", json=run)["id"]
    drain_streams(deployment, "WebhookDispatcherFunction")  # the events become deliveries
    ids["event_id"] = api.get("/v1/events", headers=auth(key)).json()["data"][0]["id"]
    deliveries = api.get("/v1/webhooks/deliveries", headers=auth(key)).json()["data"]
    ids["delivery_id"] = deliveries[0]["id"]
    return ids


def get_routes(deployment: Deployment) -> Iterator[str]:
    """The path of every GET route of every API function, from its app's OpenAPI description."""
    for function in deployment.functions:
        if not function.routes:
            continue
        function.load()
        app = sys.modules[function.handler_path.rpartition(".")[0]].app
        for path, operations in app.openapi()["paths"].items():
            if "get" in operations:
                yield path


def filled(path: str, ids: dict[str, str]) -> str:
    """The path with the id of the resource each parameter names (`result_id` by the route's kind)."""
    kind = {"extractions": "extraction", "classifications": "classification", "splits": "split"}
    kind["partitions"] = "partition"

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "result_id":
            name = kind[path.split("/")[2]] + "_id"
        return ids[name]

    return re.sub(r"\{([^}]+)\}", value, path)


def resources(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The answer, when it is a resource (it has an id of its own); else the resources it holds."""
    if {"id", "extraction_id", "signing_secret"} & set(answer):
        return [answer]
    held = [answer[name] for name in HOLDERS if name in answer]
    found: list[dict[str, Any]] = []
    for value in held:
        found += value if isinstance(value, list) else [value]
    return found


@pytest.mark.parametrize("environment", ["test", "production"])
def test_every_resource_of_every_get_route_says_its_environment(
    api: httpx.Client, deployment: Deployment, org: Org, environment: str
) -> None:
    without_request_limits(org)
    key = org.production.key if environment == "production" else org.test.key
    ids = made_in(api, deployment, key)
    walked = 0

    for path in get_routes(deployment):
        if path in NOT_RESOURCES:
            continue
        answer = api.get(filled(path, ids), headers=auth(key))
        assert answer.status_code == 200, (path, answer.text)
        found = resources(answer.json())
        assert found, path
        for resource in found:
            assert resource.get("environment") == environment, (path, resource)
        walked += 1

    assert walked >= 30  # every resource, one and listed (the routes' count as this is written)
    assert set(NOT_RESOURCES) <= set(get_routes(deployment)), "an exempted route that does not exist"
