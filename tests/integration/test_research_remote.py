"""Deep research on remote models through the real handlers: POST /v1/beta/deepresearch/extract with a
Bedrock model (Converse, against botocore's Stubber) or an OpenAI-compatible one (a local HTTP server),
scripted to call the research tools and submit. A failure of the model answers 200 with
`success: false`, never a 500; lookups read the calling environment's tables only."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from botocore.stub import ANY, Stubber
from docsvc import services
from docsvc.adapters import aws
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth
from tests.integration.test_intelligence import INVOICE_SCHEMA, doc, invoice, pdf
from tests.integration.test_remote_models import OpenAICompatibleServer
from tests.unit.test_research_remote import chat

PATH = "/v1/beta/deepresearch/extract"
BEDROCK_ID = "anthropic.claude-test-v1:0"
INVOICE = {
    "invoice_number": "INV-2026-0042",
    "invoice_date": "2026-03-14",
    "total": 2499.5,
    "line_items": [
        {"description": "Widget", "quantity": 2, "amount": 2400.0},
        {"description": "Gadget", "quantity": 1, "amount": 99.5},
    ],
}


@pytest.fixture
def server(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpenAICompatibleServer]:
    chat_server = OpenAICompatibleServer()
    thread = threading.Thread(target=chat_server.serve_forever, daemon=True)
    thread.start()
    endpoint = {
        "name": "local",
        "base_url": chat_server.base_url,
        "model": "m-1",
        "api_key_secret": "secret://LLM_KEY",
    }
    monkeypatch.setenv("OPENAI_MODELS", json.dumps([endpoint]))
    services.reset()
    yield chat_server
    chat_server.shutdown()
    chat_server.server_close()


@pytest.fixture
def bedrock(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stubber]:
    monkeypatch.setenv("BEDROCK_MODELS", BEDROCK_ID)
    services.reset()
    with Stubber(aws.bedrock_runtime()) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def research(api: httpx.Client, key: str, model: str, **fields: Any) -> httpx.Response:
    body = {
        "document": doc(invoice()),
        "json_schema": INVOICE_SCHEMA,
        "inference_settings": {"model": model},
        **fields,
    }
    return api.post(PATH, headers=auth(key), json=body)


def with_key(api: httpx.Client, key: str, value: str = "llm-key") -> None:
    api.post("/v1/secrets", headers=auth(key), json={"name": "LLM_KEY", "value": value})


def tool_messages(server: OpenAICompatibleServer, number: int) -> list[str]:
    """The tool results of the `number`th request (from 1)."""
    return [
        message["content"]
        for message in server.requests[number - 1][1]["messages"]
        if message["role"] == "tool"
    ]


# ---------------------------------------------------------------------------------------- OpenAI-compatible
def test_an_openai_compatible_model_researches_with_the_tools_and_submits(
    api: httpx.Client, org: Org, server: OpenAICompatibleServer
) -> None:
    with_key(api, org.test.key)
    server.replies += [
        (200, chat(("search_text", {"field": "invoice_number", "terms": ["invoice number"]}))),
        (200, chat(("read_page", {"page": 1}))),
        (200, chat(("submit_predictions", INVOICE))),
    ]

    response = research(api, org.test.key, "openai/local", num_agentic_steps=4, max_tool_calls=2)

    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["success"] is True and answer["error"] is None, answer
    data = answer["data"]
    assert data["id"].startswith("dre_") and data["model"] == "openai/local"
    assert data["predictions"] == INVOICE
    trace = data["research_trace"]
    assert [(entry["step"], entry["tool"]) for entry in trace] == [
        (1, "search_text"),
        (2, "read_page"),
        (3, "submit_predictions"),
        (3, "finish"),
    ]
    assert trace[0]["input"] == {"field": "invoice_number", "terms": ["invoice number"]}
    assert "INV-2026-0042" in trace[0]["output_summary"]
    assert all(entry["duration_ms"] >= 0 for entry in trace)
    assert data["usage"]["page_count"] == 1 and data["usage"]["tool_calls"] == 3
    assert data["usage"]["model_turns"] == 3
    assert "INV-2026-0042" in tool_messages(server, 3)[1]  # the page read went back to the model
    headers, first = server.requests[0]
    assert headers["authorization"] == "Bearer llm-key"
    assert [tool["function"]["name"] for tool in first["tools"]][-1] == "submit_predictions"
    assert "llm-key" not in response.text


def test_the_tool_call_limit_and_the_step_limit_hold_through_the_api(
    api: httpx.Client, org: Org, server: OpenAICompatibleServer
) -> None:
    with_key(api, org.test.key)
    three = chat(
        ("read_page", {"page": 1}), ("search_text", {"terms": ["total"]}), ("read_page", {"page": 1})
    )
    server.replies += [(200, three), (200, chat(("search_text", {"terms": ["date"]})))]

    answer = research(api, org.test.key, "openai/local", num_agentic_steps=2, max_tool_calls=2).json()

    assert answer["success"] is False and answer["data"] is None
    assert "no usable predictions" in answer["error"] and "step limit" in answer["error"]
    assert len(server.requests) == 2
    refused = tool_messages(server, 2)[2]
    assert refused.startswith("[error] not run: at most 2 tool call(s) per step")


# ---------------------------------------------------------------------------------------- lookups
def test_a_lookup_reads_the_table_of_the_calling_environment_only(
    api: httpx.Client, org: Org, other_org: Org, server: OpenAICompatibleServer
) -> None:
    csv = b"insurer_name,insurer_id\nNorthwind Insurance plc,INS-0042\nContoso Mutual,INS-0007\n"
    tables = {org.test.key: csv, org.production.key: csv.replace(b"INS-0042", b"PROD-9")}
    tables[other_org.test.key] = csv.replace(b"INS-0042", b"OTHER-1")
    for key, rows in tables.items():
        api.post("/v1/tables", headers=auth(key), data={"name": "insurers"}, files={"file": ("i.csv", rows)})
    letter = pdf(
        lambda document: document.new_page().insert_text((72, 72), "Insurer name: Northwind Insurance plc")
    )
    schema = {
        "type": "object",
        "properties": {"insurer_name": {"type": "string"}, "insurer_id": {"type": "string"}},
    }
    lookup = ("lookup_table", {"column": "Insurer Name", "value": "Northwind Insurance plc"})
    body = {
        "document": doc(letter, "letter.pdf"),
        "json_schema": schema,
        "inference_settings": {"model": "openai/local"},
    }

    for key, wanted in ((org.test.key, "INS-0042"), (org.production.key, "PROD-9")):
        with_key(api, key)
        asked = len(server.requests)
        submitted = {"insurer_name": "Northwind Insurance plc", "insurer_id": wanted}
        server.replies += [(200, chat(lookup)), (200, chat(("submit_predictions", submitted)))]

        data = api.post(PATH, headers=auth(key), json=body).json()["data"]

        assert data["research_trace"][0]["tool"] == "lookup_table"
        assert data["research_trace"][0]["output_summary"] == "1 row(s)"
        assert data["predictions"] == submitted
        looked_up = tool_messages(server, asked + 2)[0]
        assert wanted in looked_up
        assert not any(other in looked_up for other in {"INS-0042", "PROD-9", "OTHER-1"} - {wanted})


# ---------------------------------------------------------------------------------------- failures
@pytest.mark.parametrize(
    ("reply", "said"),
    [
        ((500, {"error": "boom"}), "did not answer (HTTP 500)"),
        ((200, b"not json"), "not JSON"),
        ((200, {"choices": [{"message": None}]}), "not a chat completion"),
    ],
)
def test_a_failing_openai_compatible_model_answers_success_false(
    api: httpx.Client, org: Org, server: OpenAICompatibleServer, reply: tuple[int, Any], said: str
) -> None:
    with_key(api, org.test.key)
    server.replies += [(200, chat(("read_page", {"page": 1}))), reply]

    response = research(api, org.test.key, "openai/local")

    assert response.status_code == 200
    answer = response.json()
    assert answer["success"] is False and answer["data"] is None
    assert said in answer["error"] and "openai/local" in answer["error"]


def test_a_model_without_its_key_in_the_environment_answers_success_false(
    api: httpx.Client, org: Org, server: OpenAICompatibleServer
) -> None:
    with_key(api, org.test.key)

    answer = research(api, org.production.key, "openai/local").json()

    assert answer["success"] is False
    assert "LLM_KEY" in answer["error"] and "production" in answer["error"]
    assert server.requests == []


# ---------------------------------------------------------------------------------------- Bedrock
def bedrock_turn(stubber: Stubber, *uses: tuple[str, str, Any]) -> None:
    content = [
        {"toolUse": {"toolUseId": call_id, "name": name, "input": value}} for call_id, name, value in uses
    ]
    response = {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
        "metrics": {"latencyMs": 100},
    }
    expected = {
        "modelId": BEDROCK_ID,
        "system": ANY,
        "messages": ANY,
        "toolConfig": ANY,
        "inferenceConfig": {"temperature": 0},
    }
    stubber.add_response("converse", response, expected)


def test_a_bedrock_model_researches_with_the_tools_and_submits(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    bedrock_turn(bedrock, ("t1", "search_text", {"terms": ["total due"]}), ("t2", "read_page", {"page": 1}))
    bedrock_turn(bedrock, ("t3", "submit_predictions", {**INVOICE, "total": "about 2.5k"}))
    bedrock_turn(bedrock, ("t4", "submit_predictions", INVOICE))

    answer = research(api, org.test.key, f"bedrock/{BEDROCK_ID}", max_tool_calls=3).json()

    assert answer["success"] is True, answer
    data = answer["data"]
    assert data["model"] == f"bedrock/{BEDROCK_ID}" and data["predictions"] == INVOICE
    assert [(entry["step"], entry["tool"]) for entry in data["research_trace"]] == [
        (1, "search_text"),
        (1, "read_page"),
        (2, "submit_predictions"),
        (3, "submit_predictions"),
        (3, "finish"),
    ]
    assert data["research_trace"][2]["output_summary"].startswith("refused: total")


@pytest.mark.parametrize("code", ["ModelTimeoutException", "ThrottlingException"])
def test_a_failing_bedrock_model_answers_success_false_naming_the_error(
    api: httpx.Client, org: Org, bedrock: Stubber, code: str
) -> None:
    bedrock_turn(bedrock, ("t1", "read_page", {"page": 1}))
    bedrock.add_client_error("converse", service_error_code=code, http_status_code=400)

    response = research(api, org.test.key, f"bedrock/{BEDROCK_ID}")

    assert response.status_code == 200
    assert response.json()["success"] is False and code in response.json()["error"]
