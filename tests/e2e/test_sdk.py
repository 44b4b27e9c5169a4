"""The Python SDK against the running local stack (`make dev`), as a user's program meets it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pymupdf
import pytest
from docsvc_client import Client, NotFoundError

from tests.e2e.conftest import RunningStack
from tests.samples import form_pdf

pytestmark = pytest.mark.e2e


def pdf(pages: int, text: str = "Quarterly report") -> bytes:
    document = pymupdf.open()
    for number in range(pages):
        document.new_page().insert_text((72, 72), f"{text}, page {number + 1}")
    return bytes(document.tobytes())


@pytest.fixture
def client(stack: RunningStack) -> Iterator[Client]:
    with Client(api_key=stack.test_key, base_url=stack.url, timeout=30, max_retries=2) as api:
        yield api


def test_auth_status_shows_the_test_environment(client: Client, stack: RunningStack) -> None:
    status = client.auth.status()

    assert status.environment.name == "test"
    assert status.organization_id == stack.organization_id


def test_a_small_pdf_is_uploaded_and_listed(client: Client) -> None:
    content = pdf(pages=2)
    created = client.files.upload(content, filename="sdk-upload.pdf")

    assert created.object == "file" and created.filename == "sdk-upload.pdf"
    assert created.mime_type == "application/pdf"
    listed = [file.id for file in client.files.list(filename="sdk-upload", limit=5)]
    assert created.id in listed
    assert client.files.get(created.id).id == created.id
    assert client.files.download(created.id) == content


def test_a_list_is_read_over_more_than_one_page(client: Client, tmp_path: Path) -> None:
    created = []
    for number in range(3):
        path = tmp_path / f"paged-{number}.pdf"
        path.write_bytes(pdf(pages=1, text=f"Paged document {number}"))
        created.append(client.parses.create(document=path).id)

    page = client.parses.list(limit=2)
    seen = [parse.id for parse in page]

    assert len(page.data) == 2 and page.has_more is True
    assert set(created) <= set(seen)
    assert len(seen) == len(set(seen)) >= 3


def test_a_background_parse_and_a_job_are_waited_for(client: Client) -> None:
    queued = client.parses.create(document=pdf(pages=2), filename="background.pdf", background=True)
    assert queued.status in {"pending", "queued", "in_progress", "completed"}
    parse = client.parses.wait(queued.id, timeout=60, poll_interval=0.2)
    assert parse.status == "completed" and len(parse.output.pages) == 2

    job = client.jobs.create("/v1/parses", {"document": pdf(pages=3)}, metadata={"suite": "sdk"})
    finished = client.jobs.wait(job.id, timeout=60, poll_interval=0.2)

    assert finished.status == "completed"
    assert len(finished.response.body.output.pages) == 3
    assert job.id in [item.id for item in client.jobs.list(status="completed", limit=5)]


def test_an_extraction_takes_a_path(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "invoice.pdf"
    path.write_bytes(pdf(pages=1, text="Invoice number INV-42"))
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}

    result = client.extractions.create(document=path, json_schema=schema)

    assert result.file.filename == "invoice.pdf"
    assert "invoice_number" in result.output
    assert client.extractions.get(result.id).id == result.id


def test_a_form_is_filled_saved_and_kept_as_a_template(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "application.pdf"
    path.write_bytes(form_pdf())

    edit = client.edits.create(document=path, instructions="Full name: Jane Roe\nI am a citizen: yes")
    saved = client.edits.save_filled(edit, tmp_path / "filled.pdf")
    template = client.edits.templates.create("Membership", path)
    filled = client.edits.templates.fill(template.id, data={template.form_fields[0].key: "Ann Lee"})

    with pymupdf.open(saved) as document:
        assert {widget.field_name: widget.field_value for widget in document[0].widgets()}[
            "full_name"
        ] == "Jane Roe"
    assert filled.template_id == template.id
    assert template.id in [item.id for item in client.edits.templates.list(name="member")]
    assert [item.id for item in client.edits.list(template_id=template.id)] == [filled.id]
    client.edits.templates.delete(template.id)
    client.edits.delete(edit.id)


def test_webhook_endpoints_are_created_and_listed(client: Client) -> None:
    endpoint = client.webhooks.endpoints.create(
        "http://127.0.0.1:9/sdk-hook", events=["workflow.run.completed"], description="sdk"
    )
    try:
        assert endpoint.id in [item.id for item in client.webhooks.endpoints.list()]
        assert client.webhooks.endpoints.update(endpoint.id, enabled=False).enabled is False
        assert client.webhooks.signing_secret().signing_secret.startswith("whsec_")
    finally:
        client.webhooks.endpoints.delete(endpoint.id)
    with pytest.raises(NotFoundError):
        client.webhooks.endpoints.get(endpoint.id)


def test_an_unknown_id_raises_not_found_with_a_detail(client: Client) -> None:
    with pytest.raises(NotFoundError) as raised:
        client.files.get("file_00000000000000000000000000")

    assert raised.value.status_code == 404
    assert isinstance(raised.value.detail, str) and raised.value.detail


def test_a_workflow_is_created_and_diagnosed(client: Client) -> None:
    blocks = [
        {"id": "start", "type": "start"},
        {"id": "parse", "type": "parse"},
    ]
    edges = [{"id": "e1", "source_block": "start", "target_block": "parse"}]
    workflow = client.workflows.create("SDK workflow", blocks=blocks, edges=edges)

    stored = client.workflows.diagnose(workflow.id)
    unlinked = client.workflows.diagnose(workflow.id, blocks=blocks, edges=[])

    assert stored.is_valid is True, stored.issues
    assert unlinked.is_valid is False or unlinked.issues
    assert workflow.id in [item.id for item in client.workflows.list()]
    assert len(client.workflows.get_graph(workflow.id).blocks) == 2


class FlakyGateway(httpx.BaseTransport):
    """Answers the first `failures` requests with 503 (Retry-After: 0), then passes them to the stack."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.seen: list[str] = []
        self._real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request.headers.get("Idempotency-Key", ""))
        if self.failures > 0:
            self.failures -= 1
            return httpx.Response(503, json={"detail": "try again"}, headers={"Retry-After": "0"})
        return self._real.handle_request(request)


def test_a_503_is_retried_and_the_retried_job_create_is_not_doubled(stack: RunningStack) -> None:
    gateway = FlakyGateway(failures=2)
    http = httpx.Client(transport=gateway, base_url=stack.url, timeout=30)
    with http, Client(api_key=stack.test_key, base_url=stack.url, max_retries=3, http_client=http) as client:
        request = {"document": {"filename": "r.pdf", "url": "data:application/pdf;base64,"}}
        job = client.jobs.create("/v1/parses", request)
        jobs = [item.id for item in client.jobs.list(limit=100)]

    assert len(gateway.seen) >= 3 and len(set(gateway.seen[:3])) == 1  # one key on every try
    assert jobs.count(job.id) == 1
