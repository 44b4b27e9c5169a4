"""The `document` input of parses and every other document endpoint, and how its bytes are obtained.

A document is MIMEData `{filename, url}` where `url` is a `data:` URL or an `http(s)://` URL the
service fetches through its SSRF guard, or a FileRef `{id}` to an uploaded file of the same
environment. Its type comes from its content first and its filename second.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

from pydantic import BaseModel, Field

from docsvc.document_types import DocumentType, detect
from docsvc.domain.files import BlobStore, FileRepository, clean_filename, file_key, require_supported
from docsvc.errors import DocumentRejected, InvalidField, NotFound, PayloadTooLarge
from docsvc.tenancy import Tenant

# A data: URL travels inside the JSON request, so it shares Lambda's 6 MB payload with base64's 4/3.
MAX_INLINE_BYTES = 4_500_000
MAX_REMOTE_BYTES = 50 * 1024 * 1024
MAX_FILE_BYTES = 50 * 1024 * 1024
_URL_FIELD = ("body", "document", "url")
FILE_ID_PATTERN = r"^file_[0-9A-Za-z]+$"


class MIMEData(BaseModel):
    filename: str = Field(min_length=1, max_length=1024, description="Name of the document, e.g. invoice.pdf")
    url: str = Field(
        min_length=6,
        description="A data: URL (data:application/pdf;base64,…) or an https:// URL the service fetches.",
    )


class FileRef(BaseModel):
    id: str = Field(pattern=FILE_ID_PATTERN, description="An uploaded file of this environment.")

    @classmethod
    def at(cls, location: tuple[str, ...], file_id: str) -> FileRef:
        """A reference from a field FastAPI does not validate as a FileRef (a form field): an id that is
        not a file id is InvalidField (422) at `location`, as a malformed `document` is."""
        if not re.fullmatch(FILE_ID_PATTERN, file_id):
            raise InvalidField(
                location, f"'{file_id[:64]}' is not a file id (file_ followed by letters and digits)"
            )
        return cls(id=file_id)


DocumentInput = MIMEData | FileRef


@dataclass(frozen=True)
class FetchedBytes:
    content: bytes
    content_type: str | None


Fetcher = Callable[[str, int], FetchedBytes]
"""Fetches a remote URL through the SSRF guard, with a byte cap: (url, max_bytes) -> bytes."""


@dataclass(frozen=True)
class SourceDocument:
    filename: str
    content: bytes
    document_type: DocumentType
    sha256: str
    file_id: str | None = None

    @property
    def mime_type(self) -> str:
        return self.document_type.mime_type


class DocumentSource:
    def __init__(self, files: FileRepository, blobs: BlobStore, fetch: Fetcher) -> None:
        self._files = files
        self._blobs = blobs
        self._fetch = fetch

    def load(self, tenant: Tenant, document: DocumentInput, supported: tuple[str, ...]) -> SourceDocument:
        """The bytes and type of `document`; 4xx with a reason when it cannot be had or read."""
        if isinstance(document, FileRef):
            return self._from_file(tenant, document.id, supported)
        filename = clean_filename(document.filename, ("body", "document", "filename"))
        url = document.url.strip()
        if url[:5].lower() == "data:":
            content = decode_data_url(url)
        elif url[:8].lower() == "https://" or url[:7].lower() == "http://":
            content = self._fetch(url, MAX_REMOTE_BYTES).content
        else:
            raise InvalidField(_URL_FIELD, "url must be a data: URL or an http(s):// URL")
        return typed_source(filename, content, supported)

    def _from_file(self, tenant: Tenant, file_id: str, supported: tuple[str, ...]) -> SourceDocument:
        record = self._files.get_file(tenant, file_id)
        if record is None:
            raise NotFound(f"no file '{file_id}'")
        if record.size_bytes > MAX_FILE_BYTES:
            raise PayloadTooLarge(
                f"file '{file_id}' is {record.size_bytes} bytes; "
                f"documents may be at most {MAX_FILE_BYTES} bytes"
            )
        content = b"".join(self._blobs.stream(file_key(tenant, file_id)))
        source = typed_source(record.filename, content, supported)
        return SourceDocument(source.filename, content, source.document_type, source.sha256, file_id)


def decode_data_url(url: str) -> bytes:
    """The bytes of `data:[<mime>][;base64],<data>`; 422 naming the field when it is not one."""
    header, separator, payload = url.partition(",")
    if not separator:
        raise InvalidField(_URL_FIELD, "a data: URL needs a comma before its data: data:<mime>;base64,<data>")
    if len(payload) > MAX_INLINE_BYTES * 4 // 3 + 4:  # too long whatever it decodes to: not decoded at all
        raise _inline_too_large()
    if header.lower().endswith(";base64"):
        try:
            content = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidField(_URL_FIELD, "the data: URL is not valid base64") from None
    else:
        content = unquote_to_bytes(payload)
    if len(content) > MAX_INLINE_BYTES:
        raise _inline_too_large()
    return content


def _inline_too_large() -> PayloadTooLarge:
    return PayloadTooLarge(
        f"inline documents may be at most {MAX_INLINE_BYTES} bytes; upload larger ones "
        '(POST /v1/files/upload) and send {"id": "file_…"} as the document'
    )


def typed_source(filename: str, content: bytes, supported: tuple[str, ...]) -> SourceDocument:
    """`content` as a document of one of the `supported` types; 400 when empty, 415 otherwise."""
    if not content:
        raise DocumentRejected("empty_document", f"'{filename}' is empty")
    document_type = require_supported(detect(content, filename), filename, supported)
    return SourceDocument(filename, content, document_type, hashlib.sha256(content).hexdigest())
