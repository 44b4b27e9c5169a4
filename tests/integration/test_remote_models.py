"""Remote models, on AWS Bedrock (Converse, against botocore's Stubber) and behind an OpenAI-compatible
endpoint (a local HTTP server): the service asks for JSON of the result's shape, checks it, and turns a
failure or a wrong answer into a 502 (a failed job)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from botocore.stub import ANY, Stubber
from docsvc import services
from docsvc.adapters import aws
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, doc, invoice
from tests.samples import form_pdf

MODEL_ID = "anthropic.claude-test-v1:0"
MODEL = f"bedrock/{MODEL_ID}"
# What a remote model answers for the test invoice, valid against INVOICE_SCHEMA.
ANSWER: dict[str, Any] = {
    "invoice_number": "INV-2026-0042",
    "invoice_date": "2026-03-14",
    "total": 2499.5,
    "line_items": [],
}


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
    value = dict(ANSWER)
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


# ---------------------------------------------------------------------------- OpenAI-compatible endpoints


class OpenAICompatibleServer(ThreadingHTTPServer):
    """A local stand-in for an OpenAI-compatible endpoint: answers each request with the next reply."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _ChatHandler)
        self.replies: list[tuple[int, Any]] = []
        self.requests: list[tuple[dict[str, str], dict[str, Any]]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _ChatHandler(BaseHTTPRequestHandler):
    server: OpenAICompatibleServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(({name.lower(): value for name, value in self.headers.items()}, body))
        status, reply = self.server.replies.pop(0) if self.server.replies else (500, {"error": "no reply"})
        content = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)


def function_call(arguments: dict[str, Any]) -> dict[str, Any]:
    call = {"type": "function", "function": {"name": "answer", "arguments": json.dumps(arguments)}}
    return {"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1", **call}]}}]}


@pytest.fixture
def openai(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAICompatibleServer]:
    server = OpenAICompatibleServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    endpoint = {
        "name": "local",
        "base_url": server.base_url,
        "model": "m-1",
        "api_key_secret": "secret://LLM_KEY",
    }
    monkeypatch.setenv("OPENAI_MODELS", json.dumps([endpoint]))
    services.reset()
    yield server
    server.shutdown()
    server.server_close()


def test_an_openai_compatible_model_is_called_with_the_key_of_the_calling_environment(
    api: httpx.Client, org: Org, openai: OpenAICompatibleServer
) -> None:
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "LLM_KEY", "value": "test-llm-key"})
    openai.replies.append((200, function_call({"category": "receipt", "reasoning": "a till slip"})))

    response = api.post(
        "/v1/classifications",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "categories": CATEGORIES, "model": "openai/local"},
    )

    assert response.status_code == 201, response.text
    assert response.json()["output"] == {"category": "receipt", "reasoning": "a till slip"}
    headers, body = openai.requests[0]
    assert headers["authorization"] == "Bearer test-llm-key"
    assert body["model"] == "m-1"
    assert body["tool_choice"]["function"]["name"] == "answer"
    assert "INV-2026-0042" in body["messages"][1]["content"]
    assert "test-llm-key" not in response.text


def test_a_production_call_without_its_production_secret_is_a_configuration_error(
    api: httpx.Client, org: Org, openai: OpenAICompatibleServer
) -> None:
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "LLM_KEY", "value": "test-llm-key"})

    response = api.post(
        "/v1/classifications",
        headers=auth(org.production.key),
        json={"document": doc(invoice()), "categories": CATEGORIES, "model": "openai/local"},
    )

    assert response.status_code == 400
    assert "LLM_KEY" in response.json()["detail"] and "production" in response.json()["detail"]
    assert openai.requests == []  # never called with the test key


@pytest.mark.parametrize(
    "reply",
    [
        (500, {"error": "boom"}),
        (200, b"not json"),
        (200, {"choices": []}),
        (200, function_call({"category": 3})),
    ],
)
def test_an_endpoint_that_fails_or_answers_garbage_is_a_502(
    api: httpx.Client, org: Org, openai: OpenAICompatibleServer, reply: tuple[int, Any]
) -> None:
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "LLM_KEY", "value": "k"})
    openai.replies.append(reply)

    response = api.post(
        "/v1/classifications",
        headers=auth(org.test.key),
        json={"document": doc(invoice()), "categories": CATEGORIES, "model": "openai/local"},
    )

    assert response.status_code == 502
    assert api.get("/v1/classifications", headers=auth(org.test.key)).json()["data"] == []


def test_a_request_after_a_failed_one_and_a_garbage_collection_is_answered(
    api: httpx.Client, org: Org, openai: OpenAICompatibleServer
) -> None:
    """Each local function instance keeps its event loop for its whole life: a garbage collection
    between requests once left the next request of an instance waiting for ever (a 504)."""
    import gc

    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "LLM_KEY", "value": "k"})
    for _ in range(3):
        openai.replies.append((200, b"not json"))
        failed = api.post(
            "/v1/classifications",
            headers=auth(org.test.key),
            json={"document": doc(invoice()), "categories": CATEGORIES, "model": "openai/local"},
        )
        assert failed.status_code == 502
        gc.collect()
        assert api.get("/v1/classifications", headers=auth(org.test.key)).status_code == 200


def test_a_remote_model_is_asked_for_quotes_and_they_become_boxes_on_their_pages(
    api: httpx.Client, org: Org, openai: OpenAICompatibleServer
) -> None:
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "LLM_KEY", "value": "test-llm-key"})
    data = dict(ANSWER)
    evidence = [
        {"path": "invoice_number", "quote": "INV-2026-0042", "page": 1},
        {"path": "invoice_date", "quote": "2026-03-14", "page": 1},
        {"path": "total", "quote": "Total due: $9,999.99", "page": 1},  # not printed: no box, not a guess
    ]
    openai.replies.append((200, function_call({"data": data, "evidence": evidence})))

    response = api.post(
        "/v1/extractions",
        headers=auth(org.test.key),
        json={
            "document": doc(invoice()),
            "json_schema": INVOICE_SCHEMA,
            "model": "openai/local",
            "include_sources": True,
        },
    )

    assert response.status_code == 201, response.text
    body = response.json()
    assert body["output"] == data
    sources = body["sources"]
    assert sources["invoice_number"]["source"]["content"] == "INV-2026-0042"
    assert sources["invoice_number"]["source"]["anchor"]["kind"] == "pdf_bbox"
    assert sources["invoice_date"]["source"]["content"] == "2026-03-14"
    assert sources["total"]["source"] is None
    asked = openai.requests[0][1]["tools"][0]["function"]["parameters"]
    assert asked["properties"]["data"] == INVOICE_SCHEMA and "evidence" in asked["required"]


def test_a_remote_model_that_answers_the_data_alone_is_still_taken(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    data = dict(ANSWER)
    answers(bedrock, data)

    response = api.post(
        "/v1/extractions",
        headers=auth(org.test.key),
        json={
            "document": doc(invoice()),
            "json_schema": INVOICE_SCHEMA,
            "model": MODEL,
            "include_sources": True,
        },
    )

    assert response.status_code == 201, response.text
    assert response.json()["output"] == data
    assert response.json()["sources"]["total"]["source"]["content"] == "$2,499.50"  # found as printed


def test_an_edit_on_bedrock_fills_the_fields_the_model_gave_values_for(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    answers(bedrock, {"full_name": "Jane Roe", "date_of_birth": None, "citizen": True})

    response = api.post(
        "/v1/edits",
        headers=auth(org.test.key),
        json={
            "document": doc(form_pdf(), "application.pdf"),
            "instructions": "Jane Roe, a citizen",
            "model": MODEL,
        },
    )

    assert response.status_code == 201, response.text
    edit = response.json()
    assert edit["model"] == MODEL
    assert {field["key"]: field["value"] for field in edit["output"]["form_data"]} == {
        "full_name": "Jane Roe",
        "date_of_birth": None,
        "citizen": "true",
    }
    assert (edit["usage"]["input_tokens"], edit["usage"]["output_tokens"]) == (10, 5)
