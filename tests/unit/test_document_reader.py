"""Documents read by the document reader function: what an API function sends, what the reader answers,
and what the API function makes of the answer. The reader runs in this process here; only the Lambda
Invoke between the two is left out (tests/integration run it through the local stack's functions)."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from docsvc.adapters import aws, document_reader, functions
from docsvc.adapters.document_reader import DocumentReader, ReaderForms
from docsvc.adapters.functions import FunctionBusy, FunctionFailed
from docsvc.document_types import DocumentType
from docsvc.documents import reads
from docsvc.documents.builtin import BuiltinEngine
from docsvc.documents.reader_messages import FormRequest, ReadRequest
from docsvc.documents.reads import DocumentReads
from docsvc.domain.documents import SourceDocument
from docsvc.domain.parses import SYNCHRONOUS, PageLimit, ReadOptions
from docsvc.errors import DocumentRejected, ServiceBusy
from docsvc.tenancy import Tenant

from tests import samples

TENANT = Tenant("org_reader", "test")
OTHER = Tenant("org_other", "test")


class Blobs:
    """The files bucket, in memory."""

    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}
        self.reads: list[str] = []

    def put(self, key: str, content: bytes, content_type: str) -> None:
        self.objects[key] = content

    def read(self, key: str) -> bytes:
        self.reads.append(key)
        return self.objects[key]

    def delete(self, key: str) -> None:
        self.objects.pop(key, None)


class Reader:
    """The document reader function, called as Lambda would call it (JSON in, JSON out)."""

    def __init__(self, blobs: Blobs) -> None:
        self.reads = DocumentReads(BuiltinEngine(), blobs)  # type: ignore[arg-type]
        self.requests: list[dict[str, Any]] = []

    def __call__(self, function: str, event: dict[str, Any]) -> Any:
        assert function == "DocumentReaderFunction"
        self.requests.append(event)
        return self.reads.answer(ReadRequest.model_validate(event)).model_dump(mode="json")


def source(content: bytes, filename: str = "report.pdf", kind: str = "pdf") -> SourceDocument:
    return SourceDocument(filename, content, DocumentType(kind), hashlib.sha256(content).hexdigest())


def request(**fields: Any) -> ReadRequest:
    """A request of the tenant for a PDF, with `fields` set."""
    base: dict[str, Any] = {
        "organization_id": "org_reader",
        "environment": "test",
        "filename": "report.pdf",
        "document_type": "pdf",
        "table_format": "markdown",
        "dpi": 150,
        "page_seconds": 10.0,
        "max_pages": 200,
    }
    return ReadRequest(**(base | fields))


def read(
    engine: DocumentReader,
    document: SourceDocument,
    max_pages: int = 200,
    on_count: Callable[[int], None] | None = None,
) -> list[Any]:
    limit = on_count or PageLimit(document.filename, SYNCHRONOUS)
    return list(engine.pages(TENANT, document, ReadOptions(max_pages), limit))


@pytest.fixture
def blobs() -> Blobs:
    return Blobs()


@pytest.fixture
def reader(blobs: Blobs) -> Reader:
    return Reader(blobs)


@pytest.fixture
def engine(blobs: Blobs, reader: Reader) -> DocumentReader:
    return DocumentReader("DocumentReaderFunction", blobs, reader)  # type: ignore[arg-type]


def test_a_small_document_travels_in_the_request_and_its_pages_come_back_as_the_engine_reads_them(
    engine: DocumentReader, reader: Reader, blobs: Blobs
) -> None:
    document = source(samples.text_pdf(pages=3, text="Quarterly"))

    pages = read(engine, document)

    expected = list(BuiltinEngine().pages(TENANT, document, ReadOptions(200), lambda count: None))
    assert [(page.number, page.text, page.warnings, page.size) for page in pages] == [
        (page.number, page.text, page.warnings, page.size) for page in expected
    ]
    assert all(page.size for page in pages)  # each page's width and height travel back too
    (sent,) = reader.requests
    assert sent["content_base64"] and sent["staged_key"] is None
    assert (sent["organization_id"], sent["environment"]) == ("org_reader", "test")
    assert blobs.objects == {}


def test_a_document_over_the_inline_size_is_staged_under_the_tenant_and_removed_after_the_read(
    engine: DocumentReader, reader: Reader, blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document_reader, "INLINE_BYTES", 100)
    document = source(samples.text_pdf(pages=2, text="Staged"))

    pages = read(engine, document)

    assert [page.text.split("\n")[0] for page in pages] == ["Staged 1", "Staged 2"]
    (sent,) = reader.requests
    assert sent["content_base64"] is None
    assert sent["staged_key"].startswith("reads/org_reader/test/")
    assert blobs.reads == [sent["staged_key"]]
    assert blobs.objects == {}, "the staged document outlived its read"


def test_a_staged_document_is_removed_when_the_reader_fails(
    blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document_reader, "INLINE_BYTES", 100)

    def failing(function: str, event: dict[str, Any]) -> Any:
        assert event["staged_key"] in blobs.objects
        raise FunctionFailed(function, "RuntimeError", "a bug")

    engine = DocumentReader("DocumentReaderFunction", blobs, failing)  # type: ignore[arg-type]

    with pytest.raises(FunctionFailed, match="a bug"):
        read(engine, source(samples.text_pdf(pages=2)))
    assert blobs.objects == {}


def test_a_reader_out_of_time_is_a_413_to_send_the_document_in_the_background(blobs: Blobs) -> None:
    def timed_out(function: str, event: dict[str, Any]) -> Any:
        raise FunctionFailed(function, "Sandbox.Timedout", "Task timed out after 28.00 seconds")

    engine = DocumentReader("DocumentReaderFunction", blobs, timed_out)  # type: ignore[arg-type]

    with pytest.raises(DocumentRejected) as rejected:
        read(engine, source(samples.text_pdf(pages=2)))
    assert (rejected.value.code, rejected.value.status_code) == ("too_slow_for_sync", 413)
    assert "background" in rejected.value.message


def test_over_the_page_limit_no_page_is_read_and_the_limit_refuses_it(
    engine: DocumentReader, reader: Reader
) -> None:
    document = source(samples.text_pdf(pages=5))

    answer = reader.reads.answer(
        request(content_base64=base64.b64encode(document.content).decode(), max_pages=2)
    )
    assert (answer.page_count, answer.pages, answer.rejection) == (5, [], None)

    counts: list[int] = []

    def refuse(count: int) -> None:
        counts.append(count)
        raise DocumentRejected("too_many_pages", f"{count} pages", 413)

    with pytest.raises(DocumentRejected, match="5 pages"):
        read(engine, document, max_pages=2, on_count=refuse)
    assert counts == [5]


def test_a_document_the_engine_refuses_is_refused_with_the_engines_code_and_status(
    engine: DocumentReader,
) -> None:
    for content, code, status in [
        (b"%PDF-1.7 this is not a PDF", "damaged_document", 400),
        (samples.encrypted_pdf(), "encrypted_document", 400),
    ]:
        with pytest.raises(DocumentRejected) as rejected:
            read(engine, source(content))
        assert (rejected.value.code, rejected.value.status_code) == (code, status)


def test_a_staged_key_of_another_tenant_is_refused_unread(reader: Reader, blobs: Blobs) -> None:
    blobs.objects["reads/org_other/test/read_1"] = samples.text_pdf(pages=1)

    answer = reader.reads.answer(request(staged_key="reads/org_other/test/read_1"))

    assert answer.rejection is not None and answer.rejection.status == 400
    assert blobs.reads == []


def test_an_answer_too_large_for_lambda_is_a_413(
    engine: DocumentReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reads, "ANSWER_BYTES", 200)

    with pytest.raises(DocumentRejected) as rejected:
        read(engine, source(samples.text_pdf(pages=3, lines=5)))
    assert (rejected.value.code, rejected.value.status_code) == ("output_too_large", 413)


def test_a_read_stopped_at_the_time_budget_is_a_413_never_a_parse_with_pages_missing(
    engine: DocumentReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reads, "SYNC_SECONDS", 0.0)  # the reader stops after its first page

    pages = engine.pages(TENANT, source(samples.text_pdf(pages=3)), ReadOptions(200), lambda n: None)

    assert next(pages).number == 1
    with pytest.raises(DocumentRejected) as rejected:
        list(pages)
    assert (rejected.value.code, rejected.value.status_code) == ("too_slow_for_sync", 413)
    assert "1 of 3 pages" in rejected.value.message


def test_a_reader_at_its_concurrency_limit_is_a_503_to_send_again(
    blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from botocore.stub import Stubber

    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    functions.serve_locally({})
    aws.reset()
    with Stubber(aws.lambda_client()) as stubbed:
        stubbed.add_client_error(
            "invoke", service_error_code="TooManyRequestsException", http_status_code=429
        )
        with pytest.raises(FunctionBusy):
            functions.invoke("DocumentReaderFunction", {"probe": True})
        stubbed.assert_no_pending_responses()
    aws.reset()

    def busy(function: str, event: dict[str, Any]) -> Any:
        raise FunctionBusy(function)

    engine = DocumentReader("DocumentReaderFunction", blobs, busy)  # type: ignore[arg-type]

    with pytest.raises(ServiceBusy) as refused:
        read(engine, source(samples.text_pdf(pages=1)))
    assert refused.value.status_code == 503
    assert "again" in refused.value.message


def test_the_inline_size_is_a_boundary_a_document_of_that_size_travels_inline(
    engine: DocumentReader, reader: Reader, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = source(samples.text_pdf(pages=1))
    for limit, staged in ((len(document.content), False), (len(document.content) - 1, True)):
        monkeypatch.setattr(document_reader, "INLINE_BYTES", limit)
        read(engine, document)
        assert (reader.requests[-1]["staged_key"] is not None) is staged, limit


def test_the_answer_size_is_a_boundary_an_answer_of_that_size_comes_back(
    reader: Reader, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = base64.b64encode(samples.text_pdf(pages=2)).decode()
    size = len(reader.reads.answer(request(content_base64=content)).model_dump_json())

    monkeypatch.setattr(reads, "ANSWER_BYTES", size)
    assert reader.reads.answer(request(content_base64=content)).rejection is None
    monkeypatch.setattr(reads, "ANSWER_BYTES", size - 1)
    refused = reader.reads.answer(request(content_base64=content)).rejection
    assert refused is not None and (refused.code, refused.status) == ("output_too_large", 413)


def test_a_stored_file_over_the_inline_size_is_read_by_the_reader_from_its_own_key_not_copied(
    engine: DocumentReader, reader: Reader, blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document_reader, "INLINE_BYTES", 100)
    content = samples.text_pdf(pages=2, text="Stored")
    blobs.objects["files/org_reader/test/file_1"] = content
    document = SourceDocument(
        "report.pdf", content, DocumentType("pdf"), hashlib.sha256(content).hexdigest(), "file_1"
    )

    pages = read(engine, document)

    assert [page.text.split("\n")[0] for page in pages] == ["Stored 1", "Stored 2"]
    (sent,) = reader.requests
    assert (sent["content_base64"], sent["staged_key"]) == (None, None)
    assert sent["stored_key"] == "files/org_reader/test/file_1"
    assert list(blobs.objects) == ["files/org_reader/test/file_1"], "nothing staged, the file left in place"


def test_a_stored_key_of_another_tenant_is_refused_unread(reader: Reader, blobs: Blobs) -> None:
    blobs.objects["files/org_other/test/file_1"] = samples.text_pdf(pages=1)

    answer = reader.reads.answer(request(stored_key="files/org_other/test/file_1"))

    assert answer.rejection is not None and answer.rejection.status == 400
    assert blobs.reads == []


def test_words_that_would_make_an_answer_too_large_are_left_out_and_the_text_comes_back_whole(
    reader: Reader, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = base64.b64encode(samples.text_pdf(pages=2)).decode()
    text_only = reader.reads.answer(request(content_base64=content))
    with_words = reader.reads.answer(request(content_base64=content, words="also"))
    assert all(page.words for page in with_words.pages)

    monkeypatch.setattr(reads, "ANSWER_BYTES", len(text_only.model_dump_json()))
    answer = reader.reads.answer(request(content_base64=content, words="also"))

    assert answer.rejection is None
    assert [page.text for page in answer.pages] == [page.text for page in text_only.pages]
    assert all(page.words == [] for page in answer.pages)


# ---------------------------------------------------------------------------- forms


class FormReader(Reader):
    """The reader as it answers a FormRequest (the handler sends a message with a `task` there)."""

    def __call__(self, function: str, event: dict[str, Any]) -> Any:
        self.requests.append(event)
        return self.reads.form(FormRequest.model_validate(event)).model_dump(mode="json")


def labelled_form() -> bytes:
    """A one-page form with a labelled text widget."""
    import pymupdf

    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 100), "Surname:", fontsize=11)
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "surname"
    widget.rect = pymupdf.Rect(130, 88, 400, 104)
    page.add_widget(widget)
    return bytes(document.tobytes())


def form_reader(blobs: Blobs) -> tuple[FormReader, ReaderForms, SourceDocument]:
    """The reader answering form requests, the FormEngine over it, and a one-field form."""
    reader = FormReader(blobs)
    forms = ReaderForms("DocumentReaderFunction", blobs, reader)  # type: ignore[arg-type]
    return reader, forms, source(labelled_form(), "form.pdf")


def test_a_forms_fields_and_the_filled_form_come_back_from_the_reader(blobs: Blobs) -> None:
    import pymupdf

    reader = FormReader(blobs)
    forms = ReaderForms("DocumentReaderFunction", blobs, reader)  # type: ignore[arg-type]
    document = source(labelled_form(), "form.pdf")

    fields, pages = forms.fields(TENANT, document)
    filled = forms.fill(TENANT, document, [fields[0].model_copy(update={"value": "Roe"})], "#000000")

    assert pages == 1 and [field.description for field in fields] == ["Surname"]
    assert [request["task"] for request in reader.requests] == ["form_fields", "fill_form"]
    with pymupdf.open(stream=filled, filetype="pdf") as opened:
        assert next(opened[0].widgets()).field_value == "Roe"
    assert blobs.objects == {}


def test_a_filled_form_too_large_to_answer_is_staged_read_and_removed(
    blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, forms, document = form_reader(blobs)
    fields, _ = forms.fields(TENANT, document)
    monkeypatch.setattr(reads, "ANSWER_BYTES", 100)

    filled = forms.fill(TENANT, document, [fields[0].model_copy(update={"value": "Roe"})], "#000000")

    assert filled.startswith(b"%PDF")
    assert blobs.reads and blobs.reads[-1].startswith(f"reads/{TENANT.storage_prefix}/")
    assert blobs.objects == {}  # read, then removed


def test_a_form_the_reader_refuses_is_refused_with_its_reason_and_status(blobs: Blobs) -> None:
    forms = ReaderForms("DocumentReaderFunction", blobs, FormReader(blobs))  # type: ignore[arg-type]

    with pytest.raises(DocumentRejected) as refused:
        forms.fields(TENANT, source(b"%PDF-1.7 not really a pdf", "broken.pdf"))

    assert 400 <= refused.value.status_code < 500


def test_a_filled_form_staged_under_another_tenant_is_not_taken(blobs: Blobs) -> None:
    blobs.put(f"reads/{OTHER.storage_prefix}/x-filled.pdf", b"%PDF-1.7 theirs", "application/pdf")

    def answer(function: str, event: dict[str, Any]) -> Any:
        return {"filled_key": f"reads/{OTHER.storage_prefix}/x-filled.pdf"}

    forms = ReaderForms("DocumentReaderFunction", blobs, answer)  # type: ignore[arg-type]

    with pytest.raises(FunctionFailed):
        forms.fill(TENANT, source(labelled_form(), "form.pdf"), [], "#000000")
    assert f"reads/{OTHER.storage_prefix}/x-filled.pdf" in blobs.objects


def test_a_form_over_the_page_or_field_limit_is_refused_with_a_413_naming_the_limit(
    blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.documents import form_engine

    forms = ReaderForms("DocumentReaderFunction", blobs, FormReader(blobs))  # type: ignore[arg-type]
    document = source(labelled_form(), "form.pdf")

    monkeypatch.setattr(form_engine, "MAX_FIELDS", 0)
    with pytest.raises(DocumentRejected, match="fields") as too_many:
        forms.fields(TENANT, document)
    monkeypatch.setattr(form_engine, "MAX_FORM_PAGES", 0)
    with pytest.raises(DocumentRejected, match="pages") as too_long:
        forms.fields(TENANT, document)

    assert too_many.value.status_code == too_long.value.status_code == 413


def test_fields_too_many_to_answer_are_refused_not_cut(blobs: Blobs, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reads, "ANSWER_BYTES", 50)
    forms = ReaderForms("DocumentReaderFunction", blobs, FormReader(blobs))  # type: ignore[arg-type]

    with pytest.raises(DocumentRejected, match="more than an answer may hold") as refused:
        forms.fields(TENANT, source(labelled_form(), "form.pdf"))

    assert refused.value.status_code == 413


def test_a_fill_whose_fields_would_overfill_the_message_sends_the_form_staged(
    blobs: Blobs, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, forms, document = form_reader(blobs)
    fields, _ = forms.fields(TENANT, document)
    monkeypatch.setattr(document_reader, "INLINE_BYTES", len(document.content) + 1_000)

    forms.fill(TENANT, document, [fields[0].model_copy(update={"value": "R" * 2_000})], "#000000")

    sent = reader.requests[-1]
    assert sent["content_base64"] is None and sent["staged_key"].startswith(f"reads/{TENANT.storage_prefix}/")
    assert blobs.objects == {}  # removed after the call
