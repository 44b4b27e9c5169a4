"""The Python SDK against an in-process httpx MockTransport: retries, errors, pagination, configuration,
uploads, and `docsvc_client.webhooks.verify`."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from docsvc_client import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AsyncClient,
    AuthenticationError,
    BadRequestError,
    Client,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitError,
    ValidationError,
    _http,
    document,
    webhooks,
)
from docsvc_client.resources import files as files_module
from docsvc_client.webhooks import SignatureError

BASE = "https://api.docsvc.test"
KEY = "svc_test_0123456789"
Handler = Callable[[httpx.Request], httpx.Response]


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait the SDK asks for, none of them waited."""
    waited: list[float] = []
    monkeypatch.setattr(_http, "_sleep", waited.append)

    async def no_wait(seconds: float) -> None:
        waited.append(seconds)

    monkeypatch.setattr(_http, "_async_sleep", no_wait)
    return waited


def client_for(handler: Handler, **options: Any) -> Client:
    transport = httpx.MockTransport(handler)
    return Client(api_key=KEY, base_url=BASE, http_client=httpx.Client(transport=transport), **options)


class Recorder:
    """A handler that answers a list of responses in turn and keeps the requests."""

    def __init__(self, *answers: httpx.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer


FILE = {"object": "file", "id": "file_1", "filename": "a.pdf"}


# Configuration


def test_the_key_goes_as_a_bearer_token_to_the_base_url(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.Response(200, json=FILE))
    with client_for(recorder) as client:
        got = client.files.get("file_1")

    (request,) = recorder.requests
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert str(request.url) == f"{BASE}/v1/files/file_1"
    assert got.id == "file_1" and got["filename"] == "a.pdf"


KEPT_AT = "https://bucket.s3.example/answers/org_1/test/abc?X-Amz-Signature=1"
LONG_PARSE = {"object": "parse", "id": "parse_1", "output": {"pages": ["x"], "text": "x"}}


def test_an_answer_kept_in_s3_is_fetched_from_its_link_without_the_key(sleeps: list[float]) -> None:
    recorder = Recorder(
        httpx.Response(303, headers={"Location": KEPT_AT}, json={"detail": "too large", "url": KEPT_AT}),
        httpx.Response(200, json=LONG_PARSE),
    )
    with client_for(recorder) as client:
        got = client.parses.get("parse_1")

    first, second = recorder.requests
    assert str(first.url) == f"{BASE}/v1/parses/parse_1"
    assert (second.method, str(second.url)) == ("GET", KEPT_AT)
    assert "Authorization" not in second.headers
    assert got["output"]["pages"] == ["x"]


def test_a_link_that_sends_elsewhere_again_is_not_followed(sleeps: list[float]) -> None:
    moved = httpx.Response(303, headers={"Location": KEPT_AT}, json={"detail": "too large", "url": KEPT_AT})
    recorder = Recorder(moved, moved)
    with client_for(recorder) as client, pytest.raises(APIError):
        client.parses.get("parse_1")

    assert len(recorder.requests) == 2


def test_a_link_the_storage_refuses_is_reported_as_such_not_as_a_bad_key(sleeps: list[float]) -> None:
    expired = "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>"
    recorder = Recorder(
        httpx.Response(303, headers={"Location": KEPT_AT}, json={"detail": "too large", "url": KEPT_AT}),
        httpx.Response(403, text=expired, headers={"Content-Type": "application/xml"}),
    )
    with client_for(recorder) as client, pytest.raises(APIError) as raised:
        client.parses.get("parse_1")

    assert type(raised.value) is APIError
    assert raised.value.status_code == 403
    assert "link could not be read" in str(raised.value)


def test_the_async_client_follows_a_kept_answer_too() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        if request.url.host == "bucket.s3.example":
            return httpx.Response(200, json=LONG_PARSE)
        return httpx.Response(303, headers={"Location": KEPT_AT})

    async def main() -> Any:
        transport = httpx.MockTransport(handler)
        async with AsyncClient(
            api_key=KEY, base_url=BASE, http_client=httpx.AsyncClient(transport=transport)
        ) as client:
            return await client.parses.get("parse_1")

    assert asyncio.run(main())["id"] == "parse_1"
    assert "Authorization" not in requests[1].headers


def test_the_environment_variables_are_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERVICE_API_KEY", "svc_test_fromenv")
    monkeypatch.setenv("SERVICE_BASE_URL", "http://127.0.0.1:3000/")

    with Client() as client:
        assert client.base_url == "http://127.0.0.1:3000"
        assert client._http.api_key == "svc_test_fromenv"
        assert client.timeout == 60.0 and client.max_retries == 3
    with Client(api_key="svc_live_given", base_url="https://other.test") as client:
        assert client._http.api_key == "svc_live_given" and client.base_url == "https://other.test"


@pytest.mark.parametrize(
    ("missing", "message"), [("SERVICE_API_KEY", "SERVICE_API_KEY"), ("SERVICE_BASE_URL", "SERVICE_BASE_URL")]
)
def test_missing_configuration_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, missing: str, message: str
) -> None:
    monkeypatch.setenv("SERVICE_API_KEY", "svc_test_fromenv")
    monkeypatch.setenv("SERVICE_BASE_URL", "http://127.0.0.1:3000")
    monkeypatch.delenv(missing)

    with pytest.raises(ValueError, match=message):
        Client()
    with pytest.raises(ValueError, match=message):
        AsyncClient()


def test_importing_the_sdk_loads_no_server_dependencies() -> None:
    code = (
        "import sys, docsvc_client\n"
        "docsvc_client.Client\n"
        "server = ('boto3', 'botocore', 'pymupdf', 'fitz', 'fastapi', 'docsvc')\n"
        "print(sorted(m for m in server if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )

    assert result.stdout.strip() == "[]"


def test_the_package_and_its_webhook_check_import_without_httpx() -> None:
    """The core layer ships docsvc_client without httpx: the service imports the webhook signatures."""
    code = "import sys, docsvc_client, docsvc_client.webhooks\nprint('httpx' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )

    assert result.stdout.strip() == "False"


# Retries


def test_a_503_is_retried_then_succeeds(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.Response(503, json={"detail": "busy"}), httpx.Response(200, json=FILE))
    with client_for(recorder) as client:
        got = client.files.get("file_1")

    assert got.id == "file_1"
    assert len(recorder.requests) == 2
    assert len(sleeps) == 1 and 0.375 <= sleeps[0] <= 0.5  # the first backoff, with jitter


def test_retry_after_is_honoured(sleeps: list[float]) -> None:
    recorder = Recorder(
        httpx.Response(429, json={"detail": "slow down"}, headers={"Retry-After": "7"}),
        httpx.Response(200, json=FILE),
    )
    with client_for(recorder) as client:
        client.files.get("file_1")

    assert sleeps == [7.0]


def test_backoff_grows_and_the_last_answer_is_raised(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.Response(500, json={"detail": "internal error", "request_id": "req_9"}))
    with client_for(recorder, max_retries=3) as client, pytest.raises(InternalServerError) as raised:
        client.files.get("file_1")

    assert len(recorder.requests) == 4  # the first attempt and 3 retries
    assert len(sleeps) == 3 and sleeps[0] < sleeps[1] < sleeps[2]
    assert raised.value.request_id == "req_9" and raised.value.status_code == 500


@pytest.mark.parametrize(
    ("status", "error"), [(400, BadRequestError), (404, NotFoundError), (422, ValidationError)]
)
def test_other_4xx_are_never_retried(sleeps: list[float], status: int, error: type[APIError]) -> None:
    recorder = Recorder(httpx.Response(status, json={"detail": "no"}))
    with client_for(recorder) as client, pytest.raises(error):
        client.files.get("file_1")

    assert len(recorder.requests) == 1 and sleeps == []


def test_a_connection_error_is_retried_then_raised(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.ConnectError("connection refused"))
    with client_for(recorder, max_retries=2) as client, pytest.raises(APIConnectionError) as raised:
        client.auth.status()

    assert len(recorder.requests) == 3 and len(sleeps) == 2
    assert raised.value.status_code is None


def test_a_connection_error_then_an_answer_succeeds(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.ReadTimeout("slow"), httpx.Response(200, json={"authenticated": True}))
    with client_for(recorder) as client:
        assert client.auth.status().authenticated is True


def test_a_timeout_after_every_retry_is_an_api_timeout_error(sleeps: list[float]) -> None:
    client = client_for(Recorder(httpx.ReadTimeout("slow")), max_retries=1)
    with client, pytest.raises(APITimeoutError):
        client.auth.status()


def test_a_job_create_sends_one_idempotency_key_across_its_retries(sleeps: list[float]) -> None:
    job = {"id": "job_1", "object": "job", "status": "validating"}
    recorder = Recorder(
        httpx.Response(503), httpx.Response(502), httpx.Response(201, json=job), httpx.Response(201, json=job)
    )
    with client_for(recorder) as client:
        client.jobs.create("/v1/parses", {"document": {"id": "file_1"}})
        client.jobs.create("/v1/parses", {"document": {"id": "file_1"}})

    keys = [request.headers["Idempotency-Key"] for request in recorder.requests]
    assert keys[0] == keys[1] == keys[2]
    assert uuid.UUID(keys[0]).version == 4
    assert keys[3] != keys[0]  # a new create, a new key
    assert json.loads(recorder.requests[0].content) == {
        "endpoint": "/v1/parses",
        "request": {"document": {"id": "file_1"}},
    }


def test_a_callers_idempotency_key_is_sent_as_is(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.Response(201, json={"id": "job_1"}))
    with client_for(recorder) as client:
        client.jobs.create(
            "/v1/parses", {"document": {"id": "f"}}, metadata={"team": "a"}, idempotency_key="inv-42"
        )

    assert recorder.requests[0].headers["Idempotency-Key"] == "inv-42"
    assert json.loads(recorder.requests[0].content)["metadata"] == {"team": "a"}


# Every creating POST carries an Idempotency-Key: one per call, the same on each of its retries.

CREATES: dict[str, Callable[[Client], Any]] = {
    "files.upload": lambda client: client.files.upload(b"%PDF-1.7 x", filename="a.pdf"),
    "parses.create": lambda client: client.parses.create({"id": "file_1"}),
    "extractions.create": lambda client: client.extractions.create({"id": "file_1"}, {"type": "object"}),
    "secrets.create": lambda client: client.secrets.create("TOKEN", "value"),
    "tables.create": lambda client: client.tables.create("rates", b"a,b\n1,2\n", filename="rates.csv"),
    "webhooks.endpoints.create": lambda client: client.webhooks.endpoints.create("https://hooks.test/a"),
    "workflows.create": lambda client: client.workflows.create("intake"),
    "jobs.retry": lambda client: client.jobs.retry("job_1"),
}
CREATED = {"object": "thing", "id": "thing_1", "secret": {"name": "TOKEN"}, "endpoint": {"id": "whe_1"}}


@pytest.mark.parametrize("failure", ["dropped connection", "503"])
@pytest.mark.parametrize("call", sorted(CREATES))
def test_a_retried_create_sends_the_same_idempotency_key_and_the_next_call_a_new_one(
    sleeps: list[float], call: str, failure: str
) -> None:
    first_attempt: httpx.Response | Exception = (
        httpx.RemoteProtocolError("Server disconnected without sending a response.")
        if failure == "dropped connection"
        else httpx.Response(503, json={"detail": "busy"})
    )
    recorder = Recorder(first_attempt, httpx.Response(201, json=CREATED))
    with client_for(recorder) as client:
        CREATES[call](client)
        CREATES[call](client)

    keys = [request.headers.get("Idempotency-Key") for request in recorder.requests]
    assert len(keys) == 3 and all(keys), keys
    assert keys[0] == keys[1], "a retry must send its call's key again"
    assert keys[2] != keys[0], "another call must send another key"
    assert uuid.UUID(keys[0]).version == 4


def test_the_async_client_keeps_a_posts_key_across_its_retries(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.ConnectError("refused"), httpx.Response(201, json=CREATED))

    async def twice() -> None:
        transport = httpx.MockTransport(recorder)
        async with AsyncClient(
            api_key=KEY, base_url=BASE, http_client=httpx.AsyncClient(transport=transport)
        ) as client:
            await client.workflows.create("intake")
            await client.workflows.create("intake")

    asyncio.run(twice())

    keys = [request.headers["Idempotency-Key"] for request in recorder.requests]
    assert keys[0] == keys[1] != keys[2]


def test_a_retry_that_meets_its_first_attempt_still_running_waits_and_gets_its_answer(
    sleeps: list[float],
) -> None:
    in_flight = httpx.Response(
        409,
        json={"detail": "a request with this Idempotency-Key still runs", "retry_after": 4},
        headers={"Retry-After": "4"},
    )
    recorder = Recorder(httpx.ReadError("connection reset"), in_flight, httpx.Response(201, json=CREATED))
    with client_for(recorder) as client:
        created = client.workflows.create("intake")

    assert created.id == "thing_1"
    keys = {request.headers["Idempotency-Key"] for request in recorder.requests}
    assert len(recorder.requests) == 3 and len(keys) == 1
    assert sleeps[1] == 4.0


def test_a_conflict_without_retry_after_is_a_refusal_and_is_not_retried(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.Response(409, json={"detail": "secret TOKEN exists"}))
    with client_for(recorder) as client, pytest.raises(ConflictError):
        client.secrets.create("TOKEN", "value")

    assert len(recorder.requests) == 1 and sleeps == []


def test_reads_carry_no_idempotency_key(sleeps: list[float]) -> None:
    recorder = Recorder(httpx.Response(200, json=FILE))
    with client_for(recorder) as client:
        client.files.get("file_1")

    assert "Idempotency-Key" not in recorder.requests[0].headers


# Errors


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (404, NotFoundError),
        (409, ConflictError),
        (413, PayloadTooLargeError),
        (418, APIError),
    ],
)
def test_each_status_has_its_error_with_detail_and_request_id(status: int, error: type[APIError]) -> None:
    answer = httpx.Response(status, json={"detail": "what went wrong"}, headers={"X-Request-Id": "req_123"})
    with client_for(Recorder(answer)) as client, pytest.raises(error) as raised:
        client.files.get("file_1")

    assert type(raised.value) is error and isinstance(raised.value, APIError)
    assert raised.value.status_code == status
    assert raised.value.detail == "what went wrong"
    assert raised.value.request_id == "req_123"
    assert "what went wrong" in str(raised.value) and "req_123" in str(raised.value)


def test_a_422_keeps_the_list_of_problems() -> None:
    problems = [{"loc": ["body", "json_schema"], "msg": "Field required", "type": "missing"}]
    client = client_for(Recorder(httpx.Response(422, json={"detail": problems})))
    with client, pytest.raises(ValidationError) as raised:
        client.extractions.create({"id": "file_1"}, {})

    assert raised.value.detail == problems and raised.value.errors == problems
    assert "json_schema: Field required" in str(raised.value)
    assert raised.value.request_id is None


@pytest.mark.parametrize(
    ("status", "error"), [(429, RateLimitError), (500, InternalServerError), (503, InternalServerError)]
)
def test_retryable_statuses_raise_their_error_once_retries_run_out(
    sleeps: list[float], status: int, error: type[APIError]
) -> None:
    client = client_for(Recorder(httpx.Response(status, text="plain text")), max_retries=0)
    with client, pytest.raises(error) as raised:
        client.models.list()

    assert raised.value.detail == "plain text" and sleeps == []


# Pagination


def cursor_pages(request: httpx.Request) -> httpx.Response:
    """Three pages of {data, list_metadata}: a, b | c, d | e."""
    pages = {None: (["a", "b"], "b"), "b": (["c", "d"], "d"), "d": (["e"], None)}
    ids, after = pages[request.url.params.get("after")]
    return httpx.Response(
        200, json={"data": [{"id": i} for i in ids], "list_metadata": {"before": ids[0], "after": after}}
    )


def job_pages(request: httpx.Request) -> httpx.Response:
    """Three pages of {object: "list", data, first_id, last_id, has_more}."""
    pages = {None: ["j1", "j2"], "j2": ["j3", "j4"], "j4": ["j5"]}
    ids = pages[request.url.params.get("after")]
    body = {"object": "list", "data": [{"id": i} for i in ids], "first_id": ids[0], "last_id": ids[-1]}
    return httpx.Response(200, json={**body, "has_more": ids[-1] != "j5"})


def test_a_cursor_list_is_iterated_over_every_page() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return cursor_pages(request)

    with client_for(handler) as client:
        page = client.parses.list(limit=2, status="completed")
        assert [item.id for item in page.data] == ["a", "b"] and page.has_more
        assert [item.id for item in page] == ["a", "b", "c", "d", "e"]

    assert [r.url.params.get("after") for r in requests] == [None, "b", "d"]
    assert all(r.url.params["limit"] == "2" and r.url.params["status"] == "completed" for r in requests)


def test_the_jobs_list_shape_is_iterated_over_every_page() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return job_pages(request)

    with client_for(handler) as client:
        page = client.jobs.list(limit=2, status="completed", metadata={"team": "a"}, include_response=True)
        pages = list(page.iter_pages())
        items = [job.id for job in page]

    assert items == ["j1", "j2", "j3", "j4", "j5"]
    assert [len(p.data) for p in pages] == [2, 2, 1] and pages[-1].has_more is False
    assert requests[0].url.params["metadata"] == '{"team":"a"}'
    assert requests[0].url.params["include_response"] == "true"


@pytest.mark.parametrize(
    ("call", "path", "key"),
    [
        (lambda c: c.secrets.list(), "/v1/secrets", "secrets"),
        (lambda c: c.tables.list(), "/v1/tables", "tables"),
        (lambda c: c.webhooks.endpoints.list(), "/v1/webhooks/endpoints", "endpoints"),
    ],
)
def test_plural_lists_are_one_page(call: Callable[[Client], Any], path: str, key: str) -> None:
    recorder = Recorder(httpx.Response(200, json={key: [{"name": "A"}, {"name": "B"}]}))
    with client_for(recorder) as client:
        page = call(client)
        assert [item.name for item in page] == ["A", "B"]
        assert page.has_more is False and len(page.data) == 2

    assert [r.url.path for r in recorder.requests] == [path]


def test_models_list_without_cursors_is_one_page() -> None:
    body = {"object": "list", "data": [{"id": "docsvc-parse-1", "provider": "builtin", "tasks": ["parse"]}]}
    with client_for(Recorder(httpx.Response(200, json=body))) as client:
        assert [model.id for model in client.models.list()] == ["docsvc-parse-1"]


# Envelopes, uploads, documents


def test_envelopes_are_taken_off(sleeps: list[float]) -> None:
    answers = {
        "/v1/secrets/API_TOKEN": {"secret": {"name": "API_TOKEN"}},
        "/v1/webhooks/endpoints/we_1": {"endpoint": {"id": "we_1"}},
        "/v1/tables/tbl_1": {"table": {"id": "tbl_1"}},
        "/v1/tables": {"tables": [{"id": "tbl_2"}]},
    }
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json=answers[request.url.path])

    with client_for(handler) as client:
        assert client.secrets.get("API_TOKEN").name == "API_TOKEN"
        assert client.webhooks.endpoints.get("we_1").id == "we_1"
        assert client.tables.get("tbl_1").id == "tbl_1"
        assert client.tables.create(
            "people", b"name,age\nAda,36\n", column_schema_overrides={"age": "string"}
        ).id == ("tbl_2")

    form = requests[-1].content
    assert b'name="name"' in form and b"people" in form and b"Ada,36" in form and b'{"age": "string"}' in form


def test_a_small_file_is_uploaded_directly(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(b"%PDF-1.7 small")
    recorder = Recorder(httpx.Response(201, json=FILE))
    with client_for(recorder) as client:
        client.files.upload(path)

    (request,) = recorder.requests
    assert request.method == "POST" and request.url.path == "/v1/files"
    assert b'filename="report.pdf"' in request.content and b"%PDF-1.7 small" in request.content


def test_a_large_file_goes_through_an_upload_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_module, "DIRECT_UPLOAD_LIMIT", 10)
    content = b"%PDF-1.7 " + b"x" * 100
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        if request.url.path == "/v1/files/upload":
            session = {
                "file_id": "file_9",
                "upload_url": "https://bucket.s3.test/key?sig=1",
                "upload_method": "PUT",
                "upload_headers": {"Content-Type": "application/pdf"},
                "expires_at": "2030-01-01T00:00:00Z",
            }
            return httpx.Response(201, json=session)
        if request.url.host == "bucket.s3.test":
            return httpx.Response(200)
        return httpx.Response(200, json={**FILE, "id": "file_9"})

    with client_for(handler) as client:
        created = client.files.upload(content, filename="big.pdf")

    start, put, complete = requests
    assert json.loads(start.content) == {
        "filename": "big.pdf",
        "size_bytes": len(content),
        "content_type": "application/pdf",
        "sha256": hashlib.sha256(content).hexdigest(),
    }
    assert put.method == "PUT" and put.content == content and "Authorization" not in put.headers
    assert put.headers["Content-Type"] == "application/pdf"
    assert complete.url.path == "/v1/files/upload/file_9/complete"
    assert created.id == "file_9"


def test_document_accepts_paths_bytes_urls_and_file_ids(tmp_path: Path) -> None:
    path = tmp_path / "invoice.pdf"
    path.write_bytes(b"%PDF-1.4 hello")

    from_path = document(path)
    assert from_path["filename"] == "invoice.pdf"
    assert from_path["url"] == "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.4 hello").decode()
    assert document(str(path)) == from_path
    assert document(b"%PDF-1.4 hello", "x.pdf")["url"] == from_path["url"]
    assert document("https://example.com/a/b.pdf") == {
        "filename": "b.pdf",
        "url": "https://example.com/a/b.pdf",
    }
    assert document("file_01ABC") == {"id": "file_01ABC"}
    assert document({"object": "file", "id": "file_2", "filename": "x"}) == {"id": "file_2"}


def test_extractions_take_a_path(tmp_path: Path) -> None:
    path = tmp_path / "invoice.pdf"
    path.write_bytes(b"%PDF-1.4 hello")
    recorder = Recorder(httpx.Response(201, json={"id": "ext_1", "output": {"total": 1}}))
    with client_for(recorder) as client:
        result = client.extractions.create(
            document=str(path), json_schema={"type": "object"}, bust_cache=True
        )

    body = json.loads(recorder.requests[0].content)
    assert body["document"]["filename"] == "invoice.pdf" and body["document"]["url"].startswith("data:")
    assert body["json_schema"] == {"type": "object"} and body["bust_cache"] is True and "model" not in body
    assert result.output.total == 1


# Waiting


def test_jobs_wait_polls_until_finished_and_answers_the_job_with_its_response(sleeps: list[float]) -> None:
    statuses = iter(["queued", "in_progress", "completed"])
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        if request.url.path.endswith("/status"):
            return httpx.Response(200, json={"id": "job_1", "status": next(statuses)})
        return httpx.Response(
            200, json={"id": "job_1", "status": "completed", "response": {"status_code": 201}}
        )

    with client_for(handler) as client:
        job = client.jobs.wait("job_1", poll_interval=0.25)

    assert job.status == "completed" and job.response.status_code == 201
    assert requests[-1].url.params["include_response"] == "true"
    assert sleeps == [0.25, 0.25]


def test_jobs_wait_raises_timeout_error() -> None:
    client = client_for(Recorder(httpx.Response(200, json={"id": "job_1", "status": "queued"})))
    with client, pytest.raises(TimeoutError, match="job_1"):
        client.jobs.wait("job_1", timeout=0)


# The asynchronous client


def test_the_async_client_retries_and_paginates(sleeps: list[float]) -> None:
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            return httpx.Response(503)
        return cursor_pages(request)

    async def main() -> list[str]:
        transport = httpx.MockTransport(handler)
        async with AsyncClient(
            api_key=KEY, base_url=BASE, http_client=httpx.AsyncClient(transport=transport)
        ) as client:
            page = await client.files.list(limit=2)
            assert page.has_more
            return [item.id async for item in page]

    assert asyncio.run(main()) == ["a", "b", "c", "d", "e"]
    assert len(calls) == 4 and len(sleeps) == 1


def test_the_async_client_maps_errors() -> None:
    async def main() -> None:
        transport = httpx.MockTransport(
            lambda request: httpx.Response(404, json={"detail": "file not found"})
        )
        async with AsyncClient(
            api_key=KEY, base_url=BASE, http_client=httpx.AsyncClient(transport=transport)
        ) as client:
            await client.files.get("file_x")

    with pytest.raises(NotFoundError, match="file not found"):
        asyncio.run(main())


# Webhook signatures

SECRET = "whsec_test"
TIMESTAMP = 1700000000
BODY = b'{"id":"evt_1"}'


def known_header(secret: str = SECRET, timestamp: int = TIMESTAMP, body: bytes = BODY) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def test_verify_accepts_a_known_answer_vector() -> None:
    header = known_header()

    assert webhooks.verify(BODY, header, SECRET, now=TIMESTAMP) == TIMESTAMP
    assert webhooks.verify(BODY.decode(), header, SECRET, now=TIMESTAMP + 300) == TIMESTAMP
    assert webhooks.construct_event(BODY, header, SECRET, now=TIMESTAMP) == {"id": "evt_1"}
    assert webhooks.SignatureError is SignatureError


@pytest.mark.parametrize(
    ("body", "header", "secret", "now"),
    [
        (BODY, known_header(), "whsec_other", TIMESTAMP),
        (b'{"id":"evt_2"}', known_header(), SECRET, TIMESTAMP),
        (BODY, known_header(), SECRET, TIMESTAMP + 301),
        (BODY, known_header(), SECRET, TIMESTAMP - 301),
        (BODY, None, SECRET, TIMESTAMP),
        (BODY, "", SECRET, TIMESTAMP),
        (BODY, "garbage", SECRET, TIMESTAMP),
        (BODY, f"t=soon,v1={'0' * 64}", SECRET, TIMESTAMP),
        (BODY, known_header().split(",")[1], SECRET, TIMESTAMP),
        (BODY, known_header().split(",")[0], SECRET, TIMESTAMP),
    ],
    ids=[
        "wrong secret",
        "tampered body",
        "stale timestamp",
        "future timestamp",
        "no header",
        "empty header",
        "malformed header",
        "timestamp not a number",
        "no timestamp",
        "no signature",
    ],
)
def test_verify_refuses(body: bytes, header: str | None, secret: str, now: int) -> None:
    with pytest.raises(webhooks.SignatureError):
        webhooks.verify(body, header, secret, now=now)


def test_verify_tolerance_can_be_narrowed() -> None:
    with pytest.raises(SignatureError):
        webhooks.verify(BODY, known_header(), SECRET, tolerance=10, now=TIMESTAMP + 11)


@pytest.fixture(autouse=True)
def _no_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("SERVICE_API_KEY", raising=False)
    monkeypatch.delenv("SERVICE_BASE_URL", raising=False)
    yield


@pytest.mark.parametrize(
    ("call", "path"),
    [
        (lambda client: client.jobs.delete("job_1"), "/v1/jobs/job_1"),
        (lambda client: client.extractions.delete("extr_1"), "/v1/extractions/extr_1"),
        (lambda client: client.classifications.delete("cls_1"), "/v1/classifications/cls_1"),
        (lambda client: client.splits.delete("split_1"), "/v1/splits/split_1"),
        (lambda client: client.partitions.delete("part_1"), "/v1/partitions/part_1"),
        (lambda client: client.workflows.delete_run("run_1"), "/v1/workflows/runs/run_1"),
    ],
)
def test_jobs_results_and_runs_are_deleted(call: Callable[[Client], Any], path: str) -> None:
    recorder = Recorder(httpx.Response(204))

    assert call(client_for(recorder)) is None

    (request,) = recorder.requests
    assert (request.method, request.url.path) == ("DELETE", path)


def test_a_job_that_has_not_ended_is_a_conflict_when_deleted() -> None:
    from docsvc_client import ConflictError

    recorder = Recorder(httpx.Response(409, json={"detail": "job 'job_1' is queued; cancel it first"}))

    with pytest.raises(ConflictError, match="cancel it first"):
        client_for(recorder).jobs.delete("job_1")
    assert len(recorder.requests) == 1


def test_usage_is_asked_for_one_operation() -> None:
    recorder = Recorder(httpx.Response(200, json={"object": "usage", "data": []}))

    client_for(recorder).usage.get(operation="edit")

    (request,) = recorder.requests
    assert request.url.path == "/v1/usage" and request.url.params["operation"] == "edit"


def test_a_workflow_is_promoted_with_one_idempotency_key_and_a_test_key_is_refused() -> None:
    from docsvc_client import PermissionDeniedError

    promoted = {"target_workflow_id": "wf_2", "created": True, "missing_secrets": []}
    recorder = Recorder(httpx.Response(201, json=promoted))

    answer = client_for(recorder).workflows.promote("wf_1")

    (request,) = recorder.requests
    assert (request.method, request.url.path) == ("POST", "/v1/workflows/wf_1/promotions")
    assert request.headers["Idempotency-Key"] and answer.target_workflow_id == "wf_2"
    refused = Recorder(httpx.Response(403, json={"detail": "promotion is done with a production key"}))
    with pytest.raises(PermissionDeniedError, match="production key"):
        client_for(refused).workflows.promote("wf_1")
