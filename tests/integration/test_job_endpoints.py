"""Every job endpoint of the specification (4.2) runs as a job and answers, in `response.body`, what its
synchronous route answers for the same request."""

from __future__ import annotations

import re
from typing import Any

import httpx
from docsvc.domain.jobs import JOB_ENDPOINTS
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_intelligence import INVOICE_SCHEMA, doc, invoice, invoice_page, pdf, receipt_page
from tests.integration.test_jobs import create_job
from tests.samples import form_pdf

_ID = re.compile(r"^[a-z]+_[0-9A-Z]{26}$")
_VOLATILE = {
    "id",
    "created_at",
    "updated_at",
    "started_at",
    "completed_at",
    "processed_at",
    "filled_document_ref",
    "url",
    "cached",
    "environment",  # the jobs run in test, the routes in production
}


def comparable(value: Any) -> Any:
    """An answer without what differs between two runs of the same request: ids, times, links."""
    if isinstance(value, dict):
        return {key: comparable(item) for key, item in value.items() if key not in _VOLATILE}
    if isinstance(value, list):
        return [comparable(item) for item in value]
    if isinstance(value, str) and _ID.match(value):
        return "<id>"
    return value


def job_requests(api: httpx.Client, key: dict[str, str]) -> dict[str, dict[str, Any]]:
    """A request for each job endpoint, with the template, eval, eval document and iteration the edit
    and eval requests name made in the environment of `key`."""
    form = {"filename": "application.pdf", "url": doc(form_pdf())["url"]}
    template = api.post(
        "/v1/edits/templates", headers=key, json={"name": "Membership", "document": form}
    ).json()
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}
    evaluation = api.post(
        "/v1/evals/extract", headers=key, json={"name": "Invoices", "json_schema": schema}
    ).json()
    evaluated = api.post(
        f"/v1/evals/extract/{evaluation['id']}/documents",
        headers=key,
        json={"document": doc(invoice()), "annotation": {"invoice_number": "INV-2026-0042"}},
    ).json()
    iteration = api.post(f"/v1/evals/extract/{evaluation['id']}/iterations", headers=key, json={}).json()
    packet = pdf(lambda document: invoice_page(document, "INV-1", "$10.00"), receipt_page)
    instructions = "Full name: Jane Roe\nI am a citizen: yes"
    project = {"project_id": evaluation["id"], "iteration_id": iteration["id"]}
    return {
        "/v1/parses": {"document": doc(invoice())},
        "/v1/extractions": {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA},
        "/v1/classifications": {
            "document": doc(invoice()),
            "categories": [{"name": "invoice"}, {"name": "receipt"}],
        },
        "/v1/splits": {
            "document": doc(packet),
            "subdocuments": [{"name": "invoice"}, {"name": "receipt"}],
        },
        "/v1/partitions": {"document": doc(packet), "key": "invoice number"},
        "/v1/schemas/generate": {"documents": [doc(invoice())]},
        "/v1/edits": {"document": form, "instructions": instructions},
        "/v1/edits/templates/fill": {"template_id": template["id"], "instructions": instructions},
        "/v1/edits/templates/generate": {"document": form},
        "/v1/evals/extract/extract": project | {"document_id": evaluated["id"]},
        "/v1/evals/extract/process": project,
        "/v1/evals/extract/split": {"project_id": evaluation["id"], "test_fraction": 0.5, "seed": 7},
    }


def test_all_twelve_job_endpoints_complete_as_jobs_with_what_their_routes_answer(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    """The jobs run in the test environment, the routes in production: each starts with nothing cached."""
    test, production = auth(org.test.key), auth(org.production.key)
    requests = job_requests(api, test)
    assert sorted(requests) == sorted(JOB_ENDPOINTS)

    jobs = {
        path: create_job(api, org.test.key, body, endpoint=path).json() for path, body in requests.items()
    }
    assert {path: job["status"] for path, job in jobs.items()} == dict.fromkeys(requests, "queued")
    drain(deployment, "JobWorkerFunction", rounds=20)
    routes = job_requests(api, production)

    for path, job in jobs.items():
        done = api.get(f"/v1/jobs/{job['id']}", headers=test, params={"include_response": True}).json()
        assert done["status"] == "completed", (path, done)
        assert done["response"]["status_code"] == 201, path
        answered = api.post(path, headers=production, json=routes[path])
        assert answered.status_code == 201, (path, answered.text)
        if path == "/v1/evals/extract/split":  # the parts depend on the documents' ids: see below
            body, route = done["response"]["body"], answered.json()
            assert len(body["train"]) + len(body["test"]) == len(route["train"]) + len(route["test"]) == 1
            continue
        assert comparable(done["response"]["body"]) == comparable(answered.json()), path


def test_a_split_job_divides_the_dataset_as_its_route_does_for_the_same_seed(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    """Which part a document falls in depends on its id, so the two runs use the same eval."""
    key = auth(org.test.key)
    request = job_requests(api, key)["/v1/evals/extract/split"]

    job = create_job(api, org.test.key, request, endpoint="/v1/evals/extract/split").json()
    drain(deployment, "JobWorkerFunction")
    done = api.get(f"/v1/jobs/{job['id']}", headers=key, params={"include_response": True}).json()
    answered = api.post("/v1/evals/extract/split", headers=key, json=request)

    assert done["response"]["body"] == answered.json()
