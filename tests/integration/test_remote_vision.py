"""Remote models that take images: parses on them (each page's picture and text to the model, its
markdown back), page pictures for extractions, and extractions run several times for a consensus.
The models are a local OpenAI-compatible HTTP server and botocore's Stubber for Bedrock."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from botocore.stub import ANY, Stubber
from docsvc import services
from docsvc.adapters import aws, openai_compatible, remote_models
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_files import pdf_bytes
from tests.integration.test_intelligence import INVOICE_SCHEMA, doc, invoice
from tests.integration.test_parses import document, events_of

Reply = tuple[int, Any]  # status, body (bytes as sent)


class ModelServer(ThreadingHTTPServer):
    """An OpenAI-compatible endpoint on loopback: `answer` gives the reply to each request; every
    request is kept, and the most requests it held at once is counted."""

    def __init__(self, answer: Callable[[dict[str, Any]], Reply]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answer = answer
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: ModelServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server = self.server
        with server.lock:
            server.requests.append(body)
            server.in_flight += 1
            server.most_at_once = max(server.most_at_once, server.in_flight)
        try:
            time.sleep(server.delay)
            status, reply = server.answer(body)
        finally:
            # counted out before the reply is sent: once the caller has it, it may send its next request
            # before this thread would get back here, and the two would be counted at once
            with server.lock:
                server.in_flight -= 1
        content = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)
        except (BrokenPipeError, ConnectionResetError):  # the caller gave up waiting
            pass


def tool_call(arguments: dict[str, Any], prompt_tokens: int = 100, completion_tokens: int = 20) -> Any:
    call = {"type": "function", "function": {"name": "answer", "arguments": json.dumps(arguments)}}
    return {
        "choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c1", **call}]}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
    }


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][1]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def images_of(body: dict[str, Any]) -> list[bytes]:
    content = body["messages"][1]["content"]
    if isinstance(content, str):
        return []
    urls = [part["image_url"]["url"] for part in content if part["type"] == "image_url"]
    assert all(url.startswith("data:image/jpeg;base64,") for url in urls)
    return [base64.b64decode(url.split(",", 1)[1]) for url in urls]


def page_markdown(body: dict[str, Any]) -> Reply:
    """The page's markdown: its number and the text layer it was sent, in a table."""
    text = user_text(body)
    number = text.split(".", 1)[0].removeprefix("Page ")
    hint = text.split("Its text layer:", 1)[1].strip()
    return 200, tool_call({"markdown": f"# Page {number}\n\n| seen |\n|---|\n| {hint} |"})


@pytest.fixture
def models(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModelServer]:
    """Two endpoints on one server: `openai/vision` takes images, `openai/text` does not."""
    server = ModelServer(page_markdown)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    endpoints = [
        {
            "name": "vision",
            "base_url": server.base_url,
            "model": "v-1",
            "api_key_secret": "secret://LLM_KEY",
            "images": True,
        },
        {"name": "text", "base_url": server.base_url, "model": "t-1", "api_key_secret": "secret://LLM_KEY"},
    ]
    monkeypatch.setenv("OPENAI_MODELS", json.dumps(endpoints))
    monkeypatch.setattr(remote_models, "RETRY_SECONDS", 0.01)
    services.reset()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def key(api: httpx.Client, org: Org, models: ModelServer) -> str:
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "LLM_KEY", "value": "llm-key"})
    return org.test.key


def parse(api: httpx.Client, key: str, **body: Any) -> httpx.Response:
    return api.post("/v1/parses", headers=auth(key), json=body)


# ---------------------------------------------------------------------------- parses


def test_a_vision_model_parses_each_page_from_its_image_and_text_with_the_instructions(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    response = parse(
        api,
        key,
        document=document(pdf_bytes(pages=3, text="Quarterly")),
        model="openai/vision",
        instructions="Keep the footnotes.",
    )

    assert response.status_code == 201, response.text
    parsed = response.json()
    assert parsed["model"] == "openai/vision" and parsed["status"] == "completed"
    assert parsed["output"]["pages"] == [
        f"# Page {number}\n\n| seen |\n|---|\n| Quarterly page {number} |" for number in (1, 2, 3)
    ]
    assert parsed["output"]["text"] == "\n\n".join(parsed["output"]["pages"])
    assert len(models.requests) == 3
    for body in models.requests:
        assert body["model"] == "v-1"
        assert body["messages"][0]["content"].endswith("Instructions from the user: Keep the footnotes.")
        (image,) = images_of(body)
        assert image.startswith(b"\xff\xd8")  # a JPEG
    pages = sorted(user_text(body).split(".", 1)[0] for body in models.requests)
    assert pages == ["Page 1", "Page 2", "Page 3"]
    assert parsed["usage"] == {
        "page_count": 3,
        "credits": 3.0,
        "cached": False,
        "input_tokens": 300,
        "output_tokens": 60,
    }
    assert api.get(f"/v1/parses/{parsed['id']}", headers=auth(key)).json() == parsed


def test_a_vision_parse_of_identical_input_is_answered_from_the_cache_without_calling_the_model(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    body = {"document": document(pdf_bytes(pages=2)), "model": "openai/vision", "instructions": "terse"}
    first = parse(api, key, **body).json()

    again = parse(api, key, **body).json()
    other_instructions = parse(api, key, **{**body, "instructions": "verbose"}).json()

    assert again["output"] == first["output"]
    assert again["usage"]["cached"] is True and again["usage"]["input_tokens"] == 0
    assert other_instructions["usage"]["cached"] is False
    assert len(models.requests) == 4  # two pages, twice: the cache key holds the instructions


def test_the_pages_of_a_vision_parse_go_to_the_model_at_most_four_at_a_time(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    models.delay = 0.2

    response = parse(api, key, document=document(pdf_bytes(pages=10)), model="openai/vision")

    assert response.status_code == 201, response.text
    assert len(models.requests) == 10
    assert 2 <= models.most_at_once <= 4
    numbers = [page.split("\n")[0] for page in response.json()["output"]["pages"]]
    assert numbers == [f"# Page {number}" for number in range(1, 11)]


def test_a_page_answered_429_is_asked_again_and_the_parse_succeeds(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    refused: list[int] = []

    def busy_once(body: dict[str, Any]) -> Reply:
        if not refused:
            refused.append(429)
            return 429, {"error": "slow down"}
        return page_markdown(body)

    models.answer = busy_once

    response = parse(api, key, document=document(pdf_bytes(pages=1)), model="openai/vision")

    assert response.status_code == 201, response.text
    assert response.json()["output"]["pages"][0].startswith("# Page 1")
    assert len(models.requests) == 2


def test_a_page_that_keeps_failing_is_a_502_after_the_bounded_retries(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    models.answer = lambda body: (503, {"error": "unavailable"})

    response = parse(api, key, document=document(pdf_bytes(pages=1)), model="openai/vision")

    assert response.status_code == 502
    assert "HTTP 503" in response.json()["detail"]
    assert len(models.requests) == 3


@pytest.mark.parametrize(
    "failure",
    ["timeout", "not json", "no tool call", "markdown not a string"],
)
def test_a_vision_model_that_times_out_or_answers_garbage_is_a_502_and_nothing_is_stored(
    api: httpx.Client, key: str, models: ModelServer, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    replies: dict[str, Reply] = {
        "timeout": page_markdown({"messages": [{}, {"content": "Page 1. Its text layer: x"}]}),
        "not json": (200, b"<html>"),
        "no tool call": (200, {"choices": [{"message": {"role": "assistant", "content": "sure"}}]}),
        "markdown not a string": (200, tool_call({"markdown": 42})),
    }
    if failure == "timeout":
        monkeypatch.setattr(openai_compatible, "TIMEOUT_SECONDS", 0.2)
        models.delay = 0.5
    models.answer = lambda body: replies[failure]

    response = parse(api, key, document=document(pdf_bytes(pages=2)), model="openai/vision")

    assert response.status_code == 502, response.text
    assert "openai/vision" in response.json()["detail"]
    assert "llm-key" not in response.text
    assert api.get("/v1/parses", headers=auth(key)).json()["data"] == []


def test_a_background_parse_on_a_failing_model_ends_failed_with_model_error_and_no_output(
    api: httpx.Client, deployment: Deployment, org: Org, key: str, models: ModelServer
) -> None:
    models.answer = lambda body: (200, {"choices": []})
    queued = parse(
        api, key, document=document(pdf_bytes(pages=3)), model="openai/vision", background=True
    ).json()
    assert queued["status"] == "queued"

    drain(deployment, "ParseWorkerFunction")

    failed = api.get(f"/v1/parses/{queued['id']}", headers=auth(key)).json()
    assert failed["status"] == "failed"
    assert failed["error"]["code"] == "model_error"
    assert failed["output"]["pages"] == []
    assert [event["type"] for event in events_of(org, "test") if event["type"].startswith("parse.")] == [
        "parse.failed"
    ]


def test_a_background_parse_on_a_vision_model_completes_with_its_markdown_and_tokens(
    api: httpx.Client, deployment: Deployment, key: str, models: ModelServer
) -> None:
    queued = parse(
        api, key, document=document(pdf_bytes(pages=2, text="Scan")), model="openai/vision", background=True
    ).json()

    drain(deployment, "ParseWorkerFunction")

    done = api.get(f"/v1/parses/{queued['id']}", headers=auth(key)).json()
    assert done["status"] == "completed", done["error"]
    assert done["output"]["pages"][1] == "# Page 2\n\n| seen |\n|---|\n| Scan page 2 |"
    assert (done["usage"]["input_tokens"], done["usage"]["output_tokens"]) == (200, 40)
    assert all(len(images_of(body)) == 1 for body in models.requests)


def test_a_parse_job_on_a_vision_model_answers_the_pages_it_made(
    api: httpx.Client, deployment: Deployment, key: str, models: ModelServer
) -> None:
    request = {"document": document(pdf_bytes(pages=1)), "model": "openai/vision"}
    job = api.post("/v1/jobs", headers=auth(key), json={"endpoint": "/v1/parses", "request": request}).json()

    drain(deployment, "JobWorkerFunction")

    done = api.get(f"/v1/jobs/{job['id']}", headers=auth(key), params={"include_response": True}).json()
    assert done["status"] == "completed", done["error"]
    assert done["response"]["body"]["output"]["pages"][0].startswith("# Page 1")


def test_a_text_only_model_is_not_offered_for_parses(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    response = parse(api, key, document=document(pdf_bytes(pages=1)), model="openai/text")

    assert response.status_code == 422
    assert "available: docsvc-parse-1, openai/vision" in response.text
    assert models.requests == []
    listed = {model["id"]: model for model in api.get("/v1/models", headers=auth(key)).json()["data"]}
    assert listed["openai/vision"]["images"] is True and "parse" in listed["openai/vision"]["tasks"]
    assert listed["openai/text"]["images"] is False and "parse" not in listed["openai/text"]["tasks"]


# ---------------------------------------------------------------------------- extractions


def test_an_extraction_on_a_vision_model_is_shown_the_page_images_with_all_the_text(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    models.answer = lambda body: (200, tool_call({"invoice_number": "INV-2026-0042"}, 900, 30))

    response = api.post(
        "/v1/extractions",
        headers=auth(key),
        json={"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": "openai/vision"},
    )

    assert response.status_code == 201, response.text
    (body,) = models.requests
    assert len(images_of(body)) == 1
    assert "INV-2026-0042" in user_text(body)
    assert response.json()["usage"]["input_tokens"] == 900


def test_a_text_only_model_gets_the_text_and_no_images(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    models.answer = lambda body: (200, tool_call({"invoice_number": "INV-2026-0042"}))

    response = api.post(
        "/v1/extractions",
        headers=auth(key),
        json={"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": "openai/text"},
    )

    assert response.status_code == 201, response.text
    (body,) = models.requests
    assert isinstance(body["messages"][1]["content"], str)
    assert "INV-2026-0042" in body["messages"][1]["content"]


def test_a_consensus_of_three_runs_answers_the_majority_and_the_share_that_agrees(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    answers = [
        {"invoice_number": "INV-1", "total": 10.0, "line_items": [{"description": "Widget"}]},
        {"invoice_number": "INV-7", "total": 10.0, "line_items": [{"description": "Widget"}]},
        {"invoice_number": "INV-1", "total": 10.0, "line_items": []},
    ]
    lock = threading.Lock()

    def next_answer(body: dict[str, Any]) -> Reply:
        with lock:
            return 200, tool_call(answers.pop(0))

    models.answer = next_answer

    response = api.post(
        "/v1/extractions",
        headers=auth(key),
        json={
            "document": doc(invoice()),
            "json_schema": INVOICE_SCHEMA,
            "model": "openai/text",
            "n_consensus": 3,
        },
    )

    assert response.status_code == 201, response.text
    extraction = response.json()
    assert extraction["output"] == {
        "invoice_number": "INV-1",
        "total": 10.0,
        "line_items": [{"description": "Widget"}],
    }
    assert extraction["likelihoods"] == {"invoice_number": 0.67, "total": 1.0, "line_items": 0.67}
    assert len(models.requests) == 3
    assert extraction["usage"]["input_tokens"] == 300


def test_a_consensus_run_that_breaks_the_schema_is_a_502_with_nothing_stored(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    replies = [{"invoice_number": "INV-1"}, {"invoice_number": 5}]
    lock = threading.Lock()

    def next_answer(body: dict[str, Any]) -> Reply:
        with lock:
            return 200, tool_call(replies.pop(0))

    models.answer = next_answer
    body = {
        "document": doc(invoice()),
        "json_schema": INVOICE_SCHEMA,
        "model": "openai/text",
        "n_consensus": 2,
    }

    response = api.post("/v1/extractions", headers=auth(key), json=body)

    assert response.status_code == 502
    assert api.get("/v1/extractions", headers=auth(key)).json()["data"] == []


@pytest.mark.parametrize("n_consensus", [0, 9])
def test_n_consensus_outside_one_to_eight_is_a_422_naming_it(
    api: httpx.Client, deployment: Deployment, key: str, models: ModelServer, n_consensus: int
) -> None:
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "n_consensus": n_consensus}

    response = api.post("/v1/extractions", headers=auth(key), json=body)
    job = api.post(
        "/v1/jobs", headers=auth(key), json={"endpoint": "/v1/extractions", "request": body}
    ).json()
    drain(deployment, "JobWorkerFunction")
    failed = api.get(f"/v1/jobs/{job['id']}", headers=auth(key)).json()

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "n_consensus"]
    assert failed["status"] == "failed" and failed["error"]["code"] == "validation_error"
    assert "n_consensus" in failed["error"]["message"]
    assert models.requests == []


def test_the_built_in_model_takes_n_consensus_and_runs_once(
    api: httpx.Client, key: str, models: ModelServer
) -> None:
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}

    once = api.post("/v1/extractions", headers=auth(key), json=body).json()
    thrice = api.post("/v1/extractions", headers=auth(key), json={**body, "n_consensus": 3}).json()

    assert thrice["output"] == once["output"]
    assert thrice["likelihoods"] == once["likelihoods"]
    assert models.requests == []


# ---------------------------------------------------------------------------- Bedrock

BEDROCK_ID = "anthropic.claude-vision-test-v1:0"


@pytest.fixture
def bedrock(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stubber]:
    monkeypatch.setenv("BEDROCK_MODELS", f"{BEDROCK_ID}+images, amazon.text-only-v1")
    monkeypatch.setattr(remote_models, "RETRY_SECONDS", 0.01)
    services.reset()
    with Stubber(aws.bedrock_runtime()) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def converse_answer(value: dict[str, Any]) -> dict[str, Any]:
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t1", "name": "answer", "input": value}}],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 1500, "outputTokens": 40, "totalTokens": 1540},
        "metrics": {"latencyMs": 100},
    }


def test_a_bedrock_model_that_takes_images_parses_with_image_blocks_after_throttling(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    sent: list[dict[str, Any]] = []
    aws.bedrock_runtime().meta.events.register(
        "provide-client-params.bedrock-runtime.Converse", lambda params, **_: sent.append(params)
    )
    bedrock.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)
    expected = {
        "modelId": BEDROCK_ID,
        "system": ANY,
        "messages": ANY,
        "toolConfig": ANY,
        "inferenceConfig": {"temperature": 0},
    }
    bedrock.add_response(
        "converse", converse_answer({"markdown": "# Scanned\n\n| a |\n|---|\n| 1 |"}), expected
    )

    response = parse(
        api,
        org.test.key,
        document=document(pdf_bytes(pages=1)),
        model=f"bedrock/{BEDROCK_ID}",
        instructions="Tables as markdown.",
    )

    assert response.status_code == 201, response.text
    assert response.json()["output"]["pages"] == ["# Scanned\n\n| a |\n|---|\n| 1 |"]
    assert response.json()["usage"]["input_tokens"] == 1500
    assert len(sent) == 2  # throttled once, then answered
    text, image = sent[-1]["messages"][0]["content"]
    assert "Invoice number page 1" in text["text"]
    assert image["image"]["format"] == "jpeg" and image["image"]["source"]["bytes"].startswith(b"\xff\xd8")
    assert sent[-1]["system"][0]["text"].endswith("Instructions from the user: Tables as markdown.")


def test_a_bedrock_model_without_images_is_offered_for_extraction_but_not_parses(
    api: httpx.Client, org: Org, bedrock: Stubber
) -> None:
    listed = {
        model["id"]: model for model in api.get("/v1/models", headers=auth(org.test.key)).json()["data"]
    }

    assert listed[f"bedrock/{BEDROCK_ID}"]["images"] is True
    assert "parse" in listed[f"bedrock/{BEDROCK_ID}"]["tasks"]
    assert "parse" not in listed["bedrock/amazon.text-only-v1"]["tasks"]
    refused = parse(
        api, org.test.key, document=document(pdf_bytes(pages=1)), model="bedrock/amazon.text-only-v1"
    )
    assert refused.status_code == 422
