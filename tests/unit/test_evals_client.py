"""`client.evals.extract` and `docsvc evals` against an in-process httpx MockTransport: the requests
each sends (paths, bodies) and what the command line prints."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from docsvc_client import AsyncClient, Client, NotFoundError, PayloadTooLargeError
from docsvc_client.cli import context as cli_context
from docsvc_client.cli.main import main

BASE = "https://api.docsvc.test"
KEY = "svc_test_" + "a" * 40
EVAL = {
    "object": "eval.extract",
    "id": "eval_1",
    "name": "invoices",
    "document_count": 1,
    "inference_settings": {
        "model": None,
        "instructions": None,
        "n_consensus": 1,
        "image_resolution_dpi": 192,
    },
    "created_at": "2026-01-01T00:00:00Z",
}
METRICS = {"overall": {"accuracy": 0.75, "precision": 0.5, "recall": 1.0}, "fields": {}}


class Recorder:
    """Answers by method and path; keeps every request."""

    def __init__(self, answers: dict[tuple[str, str], httpx.Response]) -> None:
        self.answers = answers
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answers.get(
            (request.method, request.url.path), httpx.Response(404, json={"detail": "no eval 'eval_9'"})
        )

    def bodies(self) -> list[Any]:
        return [json.loads(request.content) if request.content else None for request in self.requests]


def client_for(recorder: Recorder) -> Client:
    transport = httpx.MockTransport(recorder)
    return Client(api_key=KEY, base_url=BASE, max_retries=0, http_client=httpx.Client(transport=transport))


def test_the_sdk_sends_each_route_its_body(tmp_path: Path) -> None:
    page = {"data": [EVAL], "list_metadata": {"before": None, "after": None}}
    recorder = Recorder(
        {
            ("POST", "/v1/evals/extract"): httpx.Response(201, json=EVAL),
            ("GET", "/v1/evals/extract"): httpx.Response(200, json=page),
            ("POST", "/v1/evals/extract/eval_1/documents"): httpx.Response(201, json={"id": "evdoc_1"}),
            ("POST", "/v1/evals/extract/eval_1/iterations"): httpx.Response(201, json={"id": "evit_1"}),
            ("POST", "/v1/evals/extract/process"): httpx.Response(201, json={"metrics": METRICS}),
            ("POST", "/v1/evals/extract/extract"): httpx.Response(201, json={"extraction_id": "extr_1"}),
            ("POST", "/v1/evals/extract/split"): httpx.Response(201, json={"train": [], "test": []}),
            ("PATCH", "/v1/evals/extract/eval_1/documents/evdoc_1"): httpx.Response(200, json={}),
            ("DELETE", "/v1/evals/extract/eval_1"): httpx.Response(204),
        }
    )
    client = client_for(recorder)
    path = tmp_path / "a.pdf"
    path.write_bytes(b"%PDF-1.4")
    evals = client.evals.extract

    assert evals.create("invoices", {"type": "object"}, model="docsvc-extract-1").id == "eval_1"
    assert [item.id for item in evals.list(limit=5)] == ["eval_1"]
    evals.documents.create("eval_1", path, {"total": 1})
    evals.iterations.create("eval_1", n_consensus=3, json_schema={"type": "object"})
    assert evals.process("eval_1", "evit_1", split="test").metrics["overall"]["accuracy"] == 0.75
    evals.extract("eval_1", "evit_1", "evdoc_1")
    evals.split("eval_1", test_fraction=0.25, seed=4)
    evals.documents.update("eval_1", "evdoc_1", annotation={"total": 2})
    evals.delete("eval_1")

    bodies = recorder.bodies()
    assert bodies[0] == {
        "name": "invoices",
        "json_schema": {"type": "object"},
        "inference_settings": {"model": "docsvc-extract-1"},
    }
    assert recorder.requests[1].url.params["limit"] == "5"
    assert bodies[2]["annotation"] == {"total": 1}
    assert bodies[2]["document"]["filename"] == "a.pdf"
    assert bodies[2]["document"]["url"].startswith("data:application/pdf;base64,")
    assert bodies[3] == {"json_schema": {"type": "object"}, "inference_settings": {"n_consensus": 3}}
    assert bodies[4] == {"project_id": "eval_1", "iteration_id": "evit_1", "split": "test"}
    assert bodies[5] == {"project_id": "eval_1", "iteration_id": "evit_1", "document_id": "evdoc_1"}
    assert bodies[6] == {"project_id": "eval_1", "test_fraction": 0.25, "seed": 4}
    assert bodies[7] == {"annotation": {"total": 2}}
    assert recorder.requests[8].method == "DELETE"


def test_the_sdk_raises_the_apis_refusals() -> None:
    recorder = Recorder(
        {
            ("POST", "/v1/evals/extract/process"): httpx.Response(
                413, json={"detail": "run it as a job, POST /v1/jobs"}
            )
        }
    )
    client = client_for(recorder)

    with pytest.raises(PayloadTooLargeError, match="POST /v1/jobs"):
        client.evals.extract.process("eval_1", "evit_1")
    with pytest.raises(NotFoundError):
        client.evals.extract.get("eval_9")


def test_the_async_client_has_the_same_routes() -> None:
    recorder = Recorder({("GET", "/v1/evals/extract/eval_1/iterations/evit_1"): httpx.Response(200, json={})})

    async def scenario() -> None:
        transport = httpx.MockTransport(recorder)
        async with AsyncClient(
            api_key=KEY, base_url=BASE, http_client=httpx.AsyncClient(transport=transport)
        ) as client:
            await client.evals.extract.iterations.get("eval_1", "evit_1", include_documents=False)

    asyncio.run(scenario())

    assert recorder.requests[0].url.params["include_documents"] == "false"


# ---------------------------------------------------------------------------- the command line


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Recorder]:
    recorder = Recorder(
        {
            ("POST", "/v1/evals/extract"): httpx.Response(201, json=EVAL),
            ("POST", "/v1/evals/extract/eval_1/documents"): httpx.Response(
                201, json={"id": "evdoc_1", "filename": "a.pdf", "split": None}
            ),
            ("POST", "/v1/evals/extract/process"): httpx.Response(
                201, json={"id": "evit_1", "status": "completed", "metrics": METRICS}
            ),
            ("POST", "/v1/jobs"): httpx.Response(201, json={"id": "job_1", "status": "queued"}),
        }
    )

    def factory(credentials: cli_context.Credentials) -> Client:
        transport = httpx.MockTransport(recorder)
        return Client(
            api_key=credentials.api_key,
            base_url=credentials.base_url,
            max_retries=0,
            http_client=httpx.Client(transport=transport),
        )

    monkeypatch.setenv("DOCSVC_CONFIG", str(tmp_path / "config.json"))
    monkeypatch.setenv("SERVICE_API_KEY", KEY)
    monkeypatch.setenv("SERVICE_BASE_URL", BASE)
    monkeypatch.setattr(cli_context, "client_factory", factory)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    yield recorder


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_cli_creates_an_eval_adds_a_document_and_processes(
    api: Recorder, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object", "properties": {"total": {"type": "number"}}}')
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.4")

    created = run(
        capsys, "evals", "create", "invoices", "--schema", str(schema), "--model", "docsvc-extract-1"
    )
    added = run(capsys, "evals", "add", "eval_1", str(pdf), "--annotation", '{"total": 5}')
    processed = run(capsys, "evals", "process", "eval_1", "evit_1")

    assert created[0] == 0 and "eval_1" in created[1] and "invoices" in created[1]
    assert added[0] == 0 and "evdoc_1" in added[1]
    assert processed[0] == 0 and "0.75" in processed[1]
    bodies = api.bodies()
    assert bodies[0]["inference_settings"] == {"model": "docsvc-extract-1"}
    assert bodies[1]["annotation"] == {"total": 5}
    assert bodies[2] == {"project_id": "eval_1", "iteration_id": "evit_1"}


def test_the_cli_runs_a_process_as_a_job(api: Recorder, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "evals", "process", "eval_1", "evit_1", "--split", "test", "--job", "--json")

    assert code == 0 and json.loads(out)["id"] == "job_1"
    body = api.bodies()[0]
    assert body["endpoint"] == "/v1/evals/extract/process"
    assert body["request"] == {"project_id": "eval_1", "iteration_id": "evit_1", "split": "test"}


def test_the_cli_refuses_an_annotation_that_is_no_object(
    api: Recorder, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "evals", "add", "eval_1", "a.pdf", "--annotation", "[1]")

    assert code != 0 and "--annotation" in err
    assert api.requests == []
