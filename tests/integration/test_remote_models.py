"""Remote models on AWS Bedrock (Converse), against botocore's Stubber: the service asks for JSON of
the result's shape, checks it, and turns a failure or a wrong answer into a 502 (a failed job)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from botocore.stub import ANY, Stubber
from docsvc import services
from docsvc.adapters import aws
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, doc, invoice

MODEL_ID = "anthropic.claude-test-v1:0"
MODEL = f"bedrock/{MODEL_ID}"


@pytest.fixture
def bedrock(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stubber]:
    monkeypatch.setenv("BEDROCK_MODELS", f"{MODEL_ID}, other.model-v2")
    services.reset()
    with Stubber(aws.bedrock_runtime()) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def answers(stubber: Stubber, value: dict[str, Any]) -> None:
    response = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t1", "name": "answer", "input": value}}],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 100},
    }
    expected = {
        "modelId": MODEL_ID,
        "system": ANY,
        "messages": ANY,
        "toolConfig": ANY,
        "inferenceConfig": {"temperature": 0},
    }
    stubber.add_response("converse", response, expected)


def test_configured_bedrock_models_are_listed_beside_the_built_in_ones(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    models = api.get("/v1/models", headers=auth(org.test.key)).json()["data"]

    remote = [model for model in models if model["provider"] == "bedrock"]
    assert [model["id"] for model in remote] == [MODEL, "bedrock/other.model-v2"]
    assert "extract" in remote[0]["tasks"]


def test_an_extraction_on_bedrock_answers_what_the_model_returned(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    value = {
        "invoice_number": "INV-2026-0042",
        "invoice_date": "2026-03-14",
        "total": 2499.5,
        "line_items": [],
    }
    answers(bedrock, value)

    response = api.post(
        "/v1/extractions",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": MODEL},
    )

    assert response.status_code == 201, response.text
    assert response.json()["model"] == MODEL
    assert response.json()["output"] == value


def test_an_answer_that_breaks_the_schema_is_a_502_not_a_half_filled_success(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    answers(bedrock, {"invoice_number": 42, "total": "a lot"})

    response = api.post(
        "/v1/extractions",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": MODEL},
    )

    assert response.status_code == 502
    assert "does not match" in response.json()["detail"]
    assert api.get("/v1/extractions", headers=auth(org.test.key)).json()["data"] == []


@pytest.mark.parametrize("code", ["ModelTimeoutException", "ThrottlingException", "AccessDeniedException"])
def test_a_model_that_fails_is_a_502_naming_the_error(
    api: httpx.Client, org: Org, bedrock: Stubber, code: str
) -> None:
    bedrock.add_client_error("converse", service_error_code=code, http_status_code=400)

    response = api.post(
        "/v1/classifications",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "categories": CATEGORIES, "model": MODEL},
    )

    assert response.status_code == 502
    assert code in response.json()["detail"]


def test_a_category_that_was_not_asked_for_is_a_502(api: httpx.Client, org: Org, bedrock: Stubber) -> None:
    answers(bedrock, {"category": "contract", "reasoning": "it looks like one"})

    response = api.post(
        "/v1/classifications",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "categories": CATEGORIES, "model": MODEL},
    )

    assert response.status_code == 502


def test_a_remote_split_that_misses_a_page_is_a_502(api: httpx.Client, org: Org, bedrock: Stubber) -> None:
    answers(bedrock, {"parts": [{"name": "invoice", "pages": [2]}]})
    subdocuments = [{"name": "invoice", "description": "an invoice", "allow_multiple_instances": True}]

    response = api.post(
        "/v1/splits",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "subdocuments": subdocuments, "model": MODEL},
    )

    assert response.status_code == 502
    assert "every page" in response.json()["detail"]


def test_a_job_on_a_failing_model_fails_with_model_error(
    api: httpx.Client, deployment: Deployment, org: Org, bedrock: Stubber
) -> None:
    bedrock.add_client_error("converse", service_error_code="ModelTimeoutException", http_status_code=408)
    request = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": MODEL}
    job = api.post(
        "/v1/jobs", headers=auth(org.test.key), json={"endpoint": "/v1/extractions", "request": request}
    ).json()

    drain(deployment, "JobWorkerFunction")

    done = api.get(
        f"/v1/jobs/{job['id']}", headers=auth(org.test.key), params={"include_response": True}
    ).json()
    assert done["status"] == "failed"
    assert done["error"]["code"] == "model_error"
    assert done["response"]["status_code"] == 502
