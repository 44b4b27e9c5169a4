"""The operations of docsvc.endpoints as the job worker runs them: every one found in the package, each
job answered by the operation's own `answer` with the background limits and the job's `stop`, and a
request refused as its route refuses the body."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from docsvc.domain.jobs import JOB_ENDPOINTS
from docsvc.domain.models import ModelCatalog
from docsvc.domain.parses import IN_BACKGROUND
from docsvc.endpoints.jobs import job_runners, operations
from docsvc.endpoints.operation import ServiceName
from docsvc.errors import InvalidField, InvalidRequest
from docsvc.tenancy import Tenant

TENANT = Tenant("org_operations", "test")
DOCUMENT = {"filename": "note.txt", "url": "data:text/plain;base64,aGVsbG8="}


class Schemas:
    """The one method of the IntelligenceService a schema generation calls."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def generate_schema(self, tenant: Tenant, documents: list[Any], **options: Any) -> dict[str, Any]:
        self.calls.append({"tenant": tenant, "documents": documents, **options})
        return {"type": "object", "properties": {"total": {"type": "number"}}}


def unused() -> Any:
    raise AssertionError("validating a job builds no service")


SERVICES: dict[ServiceName, Callable[[], Any]] = {
    "parses": unused,
    "intelligence": unused,
    "edits": unused,
    "evals": unused,
}


def test_the_jobs_run_every_operation_of_the_package_and_only_job_endpoints() -> None:
    runners = job_runners(SERVICES, ModelCatalog())

    assert sorted(runners) == [
        "/v1/classifications",
        "/v1/edits",
        "/v1/edits/templates/fill",
        "/v1/edits/templates/generate",
        "/v1/evals/extract/extract",
        "/v1/evals/extract/process",
        "/v1/evals/extract/split",
        "/v1/extractions",
        "/v1/parses",
        "/v1/partitions",
        "/v1/schemas/generate",
        "/v1/splits",
    ]
    assert set(runners) <= set(JOB_ENDPOINTS)
    assert len({operation.path for operation in operations()}) == len(operations())


def test_a_job_answers_through_the_operation_with_the_background_limits_and_its_stop() -> None:
    service = Schemas()
    runner = job_runners(SERVICES | {"intelligence": lambda: service}, ModelCatalog())

    def stop() -> bool:
        return False

    response = runner["/v1/schemas/generate"].run(TENANT, {"documents": [DOCUMENT]}, stop)

    assert response.status_code == 201
    assert response.body["object"] == "schema"
    assert response.body["json_schema"] == {"type": "object", "properties": {"total": {"type": "number"}}}
    (call,) = service.calls
    assert call["tenant"] == TENANT
    assert call["limits"] is IN_BACKGROUND
    assert call["stop"] is stop


def test_a_job_refuses_what_its_route_refuses_and_what_only_a_route_can_do() -> None:
    runners = job_runners(SERVICES, ModelCatalog())

    with pytest.raises(InvalidRequest):
        runners["/v1/extractions"].validate({"document": DOCUMENT, "json_schema": {"type": "string"}})
    with pytest.raises(InvalidRequest):
        runners["/v1/classifications"].validate({"document": DOCUMENT, "categories": []})
    with pytest.raises(InvalidField):
        runners["/v1/parses"].validate({"document": DOCUMENT, "background": True})
    with pytest.raises(InvalidField, match="unknown model"):
        runners["/v1/splits"].validate(
            {"document": DOCUMENT, "subdocuments": [{"name": "invoice"}], "model": "no-such-model"}
        )
    runners["/v1/partitions"].validate({"document": DOCUMENT, "key": "invoice number"})
    with pytest.raises(InvalidRequest):
        runners["/v1/evals/extract/process"].validate({"project_id": "proj_1", "iteration_id": "evit_1"})
    runners["/v1/evals/extract/split"].validate({"project_id": "eval_1"})
