"""Pages of a stored file drawn by the document reader function: what the console asks, what the reader
answers, and what the console makes of it. The reader runs in this process here; only the Lambda Invoke
between the two is left out."""

from __future__ import annotations

from typing import Any

import pymupdf
import pytest
from docsvc.adapters.document_reader import ReaderPictures
from docsvc.documents.engine import isolation
from docsvc.documents.reader_messages import PictureRequest
from docsvc.domain.files import FileRecord
from docsvc.domain.pictures import PICTURE_DPI, PagePictures
from docsvc.errors import DocumentRejected, NotFound, UnsupportedMediaType
from docsvc.tenancy import Tenant

from tests import samples
from tests.unit.test_document_reader import Blobs
from tests.unit.test_document_reader import Reader as DocumentReaderFunction

TENANT = Tenant("org_reader", "test")


class Reader(DocumentReaderFunction):
    """The document reader function as Lambda calls it, for its pictures of pages."""

    def __call__(self, function: str, event: dict[str, Any]) -> Any:
        self.requests.append(event)
        assert event["task"] == "draw_page"
        return self.reads.picture(PictureRequest.model_validate(event)).model_dump(mode="json")


class Files:
    def __init__(self, records: dict[str, FileRecord]) -> None:
        self.records = records

    def get(self, tenant: Tenant, file_id: str) -> FileRecord:
        if tenant != TENANT or file_id not in self.records:
            raise NotFound(f"no file '{file_id}'")
        return self.records[file_id]


def record(file_id: str, mime_type: str, page_count: int | None = None) -> FileRecord:
    return FileRecord(
        id=file_id,
        environment="test",
        filename=f"{file_id}.bin",
        mime_type=mime_type,
        created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z",
        size_bytes=1,
        sha256="ab" * 32,
        page_count=page_count,
    )


@pytest.fixture
def blobs() -> Blobs:
    return Blobs()


@pytest.fixture
def reader(blobs: Blobs) -> Reader:
    return Reader(blobs)


def pictures(blobs: Blobs, reader: Reader, *records: FileRecord) -> PagePictures:
    painter = ReaderPictures("DocumentReaderFunction", blobs, reader)  # type: ignore[arg-type]
    return PagePictures(Files({r.id: r for r in records}), painter)  # type: ignore[arg-type]


def test_a_page_is_drawn_from_the_files_own_key_as_a_jpeg_of_the_pages_shape(
    blobs: Blobs, reader: Reader
) -> None:
    blobs.objects["files/org_reader/test/file_1"] = samples.scanned_pdf()  # a 500 x 120 point page
    service = pictures(blobs, reader, record("file_1", "application/pdf"))

    file = service.page(TENANT, "file_1", 1)
    picture = service.draw(TENANT, file, 1)

    image = pymupdf.Pixmap(picture.jpeg)
    width, height = image.width, image.height
    assert picture.jpeg[:3] == b"\xff\xd8\xff" and picture.page_count == 1
    assert abs(width / height - 500 / 120) < 0.02
    assert abs(width - 500 * PICTURE_DPI / 72) <= 1
    (sent,) = reader.requests
    assert sent["stored_key"] == "files/org_reader/test/file_1" and sent["content_base64"] is None
    assert blobs.reads == ["files/org_reader/test/file_1"]


def test_drawing_a_page_reads_none_of_its_text_and_runs_no_ocr(
    blobs: Blobs, reader: Reader, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the page's text was read")

    isolation.retire_idle_children()  # the next child is forked with the patch below
    monkeypatch.setattr(pymupdf.Page, "get_textpage", refused)
    monkeypatch.setattr(pymupdf.Page, "get_textpage_ocr", refused)
    blobs.objects["files/org_reader/test/file_1"] = samples.scanned_pdf()
    service = pictures(blobs, reader, record("file_1", "application/pdf"))
    try:
        picture = service.draw(TENANT, service.page(TENANT, "file_1", 1), 1)
    finally:
        isolation.retire_idle_children()
    assert picture.jpeg[:3] == b"\xff\xd8\xff"


def test_a_page_past_the_last_is_not_found_with_the_page_count(blobs: Blobs, reader: Reader) -> None:
    blobs.objects["files/org_reader/test/file_1"] = samples.text_pdf(pages=2)
    service = pictures(blobs, reader, record("file_1", "application/pdf"))

    with pytest.raises(NotFound, match="has no page 3; it has 2 pages"):
        service.draw(TENANT, service.page(TENANT, "file_1", 3), 3)


def test_a_page_out_of_a_known_page_count_is_not_found_without_drawing(blobs: Blobs, reader: Reader) -> None:
    service = pictures(blobs, reader, record("file_1", "application/pdf", page_count=2))

    for number in (0, 3):
        with pytest.raises(NotFound):
            service.page(TENANT, "file_1", number)
    assert reader.requests == []


def test_a_type_without_pages_to_draw_is_a_415_without_calling_the_reader(
    blobs: Blobs, reader: Reader
) -> None:
    service = pictures(blobs, reader, record("file_1", "text/csv"))

    assert not service.has_pictures(record("file_1", "text/csv"))
    assert service.has_pictures(record("file_2", "image/png"))
    with pytest.raises(UnsupportedMediaType, match="only PDFs and images"):
        service.page(TENANT, "file_1", 1)
    assert reader.requests == []


def test_a_stored_key_of_another_tenant_is_refused_unread(blobs: Blobs, reader: Reader) -> None:
    blobs.objects["files/org_other/test/file_1"] = samples.text_pdf(pages=1)
    request = PictureRequest(
        organization_id="org_reader",
        environment="test",
        filename="a.pdf",
        document_type="pdf",
        stored_key="files/org_other/test/file_1",
        page=1,
        dpi=110,
    )

    answer = reader.reads.picture(request)

    assert answer.rejection is not None and answer.rejection.status == 400
    assert blobs.reads == []


def test_a_damaged_file_is_refused_with_the_engines_reason(blobs: Blobs, reader: Reader) -> None:
    blobs.objects["files/org_reader/test/file_1"] = b"%PDF-1.7\nnot a pdf at all"
    service = pictures(blobs, reader, record("file_1", "application/pdf"))

    with pytest.raises(DocumentRejected) as refused:
        service.draw(TENANT, service.page(TENANT, "file_1", 1), 1)
    assert refused.value.status_code == 400


def test_the_etag_changes_with_the_files_bytes_and_the_page(blobs: Blobs, reader: Reader) -> None:
    service = pictures(blobs, reader)
    first = record("file_1", "application/pdf")
    other = first.model_copy(update={"sha256": "cd" * 32})
    assert service.etag(first, 1) != service.etag(first, 2)
    assert service.etag(first, 1) != service.etag(other, 1)
    assert service.etag(first, 1) == service.etag(first.model_copy(), 1)
