"""Usage of every billable operation through the real handlers: one call adds exactly one entry, under
its operation, with its pages, credits and the tokens of the remote model (AWS Bedrock, against
botocore's Stubber), to the caller's environment only; `GET /v1/usage?operation=` answers one
operation's share, and an unknown operation is a 422 naming the known ones."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from botocore.stub import Stubber
from docsvc import services
from docsvc.adapters import aws
from docsvc.domain.usage import OPERATIONS
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth
from tests.integration.test_edits import INSTRUCTIONS, form
from tests.integration.test_evals import EVALS, TRUTH, add_document, new_eval, new_iteration
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, doc, invoice
from tests.integration.test_remote_models import ANSWER, MODEL, MODEL_ID, answers
from tests.integration.test_research_remote import bedrock_turn
from tests.integration.test_workflows import block, create, edge, run_and_wait

Send = Callable[[httpx.Client, str, Stubber], httpx.Response]
REMOTE = (10, 5)  # the tokens Bedrock counts for each call (the stubbed answers)


@pytest.fixture
def bedrock(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stubber]:
    monkeypatch.setenv("BEDROCK_MODELS", f"{MODEL_ID}+images")
    services.reset()
    with Stubber(aws.bedrock_runtime()) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def post(api: httpx.Client, key: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return api.post(path, headers=auth(key), json=body)


def a_parse(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    answers(stubber, {"markdown": "# Invoice INV-2026-0042"})
    return post(api, key, "/v1/parses", {"document": doc(invoice()), "model": MODEL})


def an_extraction(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    answers(stubber, ANSWER)
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": MODEL}
    return post(api, key, "/v1/extractions", body)


def a_classification(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    answers(stubber, {"category": "invoice", "reasoning": "an invoice number and a total"})
    body = {"document": doc(invoice()), "categories": CATEGORIES, "model": MODEL}
    return post(api, key, "/v1/classifications", body)


def a_split(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    answers(stubber, {"parts": [{"name": "invoice", "pages": [1]}]})
    subdocuments = [{"name": "invoice", "description": "an invoice"}]
    body = {"document": doc(invoice()), "subdocuments": subdocuments, "model": MODEL}
    return post(api, key, "/v1/splits", body)


def a_partition(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    answers(stubber, {"parts": [{"key": "INV-2026-0042", "pages": [1]}]})
    body = {"document": doc(invoice()), "key": "invoice number", "model": MODEL}
    return post(api, key, "/v1/partitions", body)


def a_schema(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    return post(api, key, "/v1/schemas/generate", {"documents": [doc(invoice()), doc(invoice("INV-7"))]})


def a_research(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    bedrock_turn(stubber, ("t1", "read_page", {"page": 1}))
    bedrock_turn(stubber, ("t2", "submit_predictions", TRUTH))
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "inference_settings": {"model": MODEL}}
    answer = post(api, key, "/v1/beta/deepresearch/extract", body)
    assert answer.json()["success"] is True, answer.text
    return answer


def an_edit(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    answers(stubber, {"full_name": "Jane Roe", "date_of_birth": "1990-04-01", "citizen": True})
    return post(api, key, "/v1/edits", {"document": form(), "instructions": INSTRUCTIONS, "model": MODEL})


def an_eval_extraction(api: httpx.Client, key: str, stubber: Stubber) -> httpx.Response:
    eval_id = new_eval(api, key)["id"]
    document_id = add_document(api, key, eval_id, TRUTH)["id"]
    iteration_id = new_iteration(api, key, eval_id, inference_settings={"model": MODEL})["id"]
    answers(stubber, ANSWER)
    body = {"project_id": eval_id, "iteration_id": iteration_id, "document_id": document_id}
    return post(api, key, f"{EVALS}/extract", body)


@dataclass(frozen=True)
class Billable:
    operation: str
    send: Send
    pages: int = 1
    tokens: tuple[int, int] = REMOTE

    @property
    def counted(self) -> dict[str, Any]:
        return {
            "operations": 1,
            "pages": self.pages,
            "credits": float(self.pages),
            "input_tokens": self.tokens[0],
            "output_tokens": self.tokens[1],
        }


BILLABLE = [
    Billable("parse", a_parse),
    Billable("extraction", an_extraction),
    Billable("classification", a_classification),
    Billable("split", a_split),
    Billable("partition", a_partition),
    Billable("schema_generation", a_schema, pages=2, tokens=(0, 0)),  # built-in models only
    Billable("deep_research", a_research, tokens=(20, 10)),  # two turns of the model
    Billable("edit", an_edit),
    Billable("eval", an_eval_extraction),
]


def usage(api: httpx.Client, key: str, **params: str) -> list[dict[str, Any]]:
    response = api.get("/v1/usage", headers=auth(key), params=params)
    assert response.status_code == 200, response.text
    return list(response.json()["data"])


def test_every_billable_operation_is_named_here() -> None:
    assert [case.operation for case in BILLABLE] == list(OPERATIONS)


@pytest.mark.parametrize("environment", ["test", "production"])
@pytest.mark.parametrize("case", BILLABLE, ids=[case.operation for case in BILLABLE])
def test_one_call_adds_one_entry_of_its_operation_with_its_tokens_in_its_environment_only(
    api: httpx.Client, org: Org, bedrock: Stubber, case: Billable, environment: str
) -> None:
    key, other = (org.test.key, org.production.key)
    if environment == "production":
        key, other = other, key

    answer = case.send(api, key, bedrock)

    assert answer.status_code in (200, 201), answer.text
    (day,) = usage(api, key)
    assert day["environment"] == environment and day["billable"] is (environment == "production")
    assert day["by_operation"] == {case.operation: case.counted}
    assert {name: day[name] for name in case.counted} == case.counted
    (only,) = usage(api, key, operation=case.operation)
    assert only == day
    assert usage(api, other) == []


def test_the_operation_filter_answers_that_operations_share_of_each_day(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    a_parse(api, org.test.key, bedrock)
    an_extraction(api, org.test.key, bedrock)
    an_extraction(api, org.test.key, bedrock)

    (day,) = usage(api, org.test.key)
    (extractions,) = usage(api, org.test.key, operation="extraction")

    assert (day["operations"], day["input_tokens"], day["credits"]) == (3, 30, 3.0)
    assert set(day["by_operation"]) == {"parse", "extraction"}
    assert (extractions["operations"], extractions["input_tokens"], extractions["credits"]) == (2, 20, 2.0)
    assert extractions["by_operation"] == {"extraction": day["by_operation"]["extraction"]}
    assert usage(api, org.test.key, operation="edit") == []


def test_a_workflow_run_is_charged_through_its_steps_each_as_its_endpoints_operation(
    api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    graph = {
        "blocks": [block("start", "start_document"), block("extract", "extract", json_schema=INVOICE_SCHEMA)],
        "edges": [edge("start", "extract")],
    }
    workflow = create(api, org.production.key, graph)

    run = run_and_wait(
        api,
        deployment,
        org.production.key,
        workflow["id"],
        {"documents": {"start": doc(invoice())}, "version": "draft"},
    )

    assert run["status"] == "completed", run
    (day,) = usage(api, org.production.key)
    assert day["by_operation"] == {"extraction": Billable("extraction", an_extraction, tokens=(0, 0)).counted}
    assert day["billable"] is True and usage(api, org.test.key) == []


def test_an_unknown_operation_is_a_422_naming_the_known_ones(api: httpx.Client, org: Org) -> None:
    response = api.get("/v1/usage", headers=auth(org.test.key), params={"operation": "parsing"})

    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["query", "operation"]
    assert "parsing" in problem["msg"] and all(name in problem["msg"] for name in OPERATIONS)


def test_a_research_that_fails_is_not_charged(api: httpx.Client, org: Org, bedrock: Stubber) -> None:
    bedrock.add_client_error("converse", service_error_code="ModelTimeoutException", http_status_code=400)
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "inference_settings": {"model": MODEL}}

    answer = post(api, org.test.key, "/v1/beta/deepresearch/extract", body).json()

    assert answer["success"] is False
    assert usage(api, org.test.key) == []
