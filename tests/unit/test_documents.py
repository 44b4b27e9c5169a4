"""The `document` input: data: URLs and their size limit, and the size limit of uploaded files."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from docsvc.domain.documents import (
    MAX_FILE_BYTES,
    MAX_INLINE_BYTES,
    DocumentSource,
    FetchedBytes,
    FileRef,
    decode_data_url,
)
from docsvc.domain.files import FileRecord
from docsvc.errors import InvalidField, NotFound, PayloadTooLarge
from docsvc.tenancy import Tenant

PDF = b"%PDF-1.7\n"
TENANT = Tenant(organization_id="org_1", environment="test")


def data_url(content: bytes) -> str:
    return "data:application/pdf;base64," + base64.b64encode(content).decode()


def test_an_inline_document_of_exactly_the_limit_is_accepted() -> None:
    content = PDF + b"x" * (MAX_INLINE_BYTES - len(PDF))
    assert decode_data_url(data_url(content)) == content


@pytest.mark.parametrize("extra", [1, 2, 3, 1000])
def test_one_byte_over_the_inline_limit_is_413_pointing_to_uploads(extra: int) -> None:
    content = b"x" * (MAX_INLINE_BYTES + extra)
    with pytest.raises(PayloadTooLarge, match="upload"):
        decode_data_url(data_url(content))


def test_a_percent_encoded_data_url_is_limited_by_its_decoded_size() -> None:
    assert decode_data_url("data:text/plain,a%20b") == b"a b"
    with pytest.raises(PayloadTooLarge):
        decode_data_url("data:text/plain," + "a" * (MAX_INLINE_BYTES + 1))


@pytest.mark.parametrize("url", ["data:application/pdf;base64", "data:application/pdf;base64,%%%"])
def test_a_malformed_data_url_names_the_field(url: str) -> None:
    with pytest.raises(InvalidField) as raised:
        decode_data_url(url)
    assert raised.value.location == ("body", "document", "url")


class OneFile:
    """A file repository and blob store holding one file of a given declared size."""

    def __init__(self, size_bytes: int) -> None:
        self.record = FileRecord(
            id="file_1",
            environment=TENANT.environment,
            filename="big.pdf",
            mime_type="application/pdf",
            created_at="2026-11-23T00:00:00Z",
            updated_at="2026-11-23T00:00:00Z",
            size_bytes=size_bytes,
            sha256="0" * 64,
        )

    def get_file(self, tenant: Tenant, file_id: str) -> FileRecord | None:
        return self.record if file_id == self.record.id else None

    def stream(self, key: str) -> Iterator[bytes]:
        yield PDF


def source_with(size_bytes: int) -> DocumentSource:
    files = OneFile(size_bytes)

    def no_fetch(url: str, max_bytes: int) -> FetchedBytes:
        raise AssertionError("nothing is fetched for a file reference")

    return DocumentSource(files, files, no_fetch)  # type: ignore[arg-type]


def test_an_uploaded_file_of_exactly_the_limit_is_read() -> None:
    source = source_with(MAX_FILE_BYTES).load(TENANT, FileRef(id="file_1"), ("pdf",))
    assert (source.file_id, source.content) == ("file_1", PDF)


def test_an_uploaded_file_over_the_limit_is_413_before_its_bytes_are_read() -> None:
    with pytest.raises(PayloadTooLarge, match=str(MAX_FILE_BYTES)):
        source_with(MAX_FILE_BYTES + 1).load(TENANT, FileRef(id="file_1"), ("pdf",))


def test_an_unknown_file_is_404() -> None:
    with pytest.raises(NotFound):
        source_with(10).load(TENANT, FileRef(id="file_2"), ("pdf",))
