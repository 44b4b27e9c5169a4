"""Files: the bytes a tenant uploads, and what the service learns about them.

Small files arrive in one request; larger ones through an upload session: the client PUTs the bytes
to a presigned S3 URL, then completes the session, which checks size and checksum. Either way the
bytes land under the tenant's prefix and a background inspection fills `page_count` and the embedding.
"""

from __future__ import annotations

import hashlib
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import PurePosixPath, PureWindowsPath
from typing import IO, Literal, Protocol

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.document_types import CONVERSIONS, SUPPORTED_TYPES, DocumentType, detect
from docsvc.domain.lists import ListQuery, Page
from docsvc.errors import BadRequest, Conflict, InvalidField, NotFound, PayloadTooLarge, UnsupportedMediaType
from docsvc.ids import new_id
from docsvc.tenancy import ENVIRONMENT_HELP, ENVIRONMENTS, Environment, Tenant

# API Gateway base64-encodes binary bodies, so 4.5 MB is the largest file whose request still fits
# Lambda's 6 MB synchronous payload. Anything larger goes through an upload session.
MAX_DIRECT_UPLOAD_BYTES = 4_500_000
MAX_UPLOAD_SESSION_BYTES = 200 * 1024 * 1024
UPLOAD_URL_SECONDS = 3600
DOWNLOAD_URL_SECONDS = 900
MAX_FILENAME_LENGTH = 255
SORT_FIELDS = ("created_at", "filename")

SortField = Literal["created_at", "filename"]


class FileRecord(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    filename: str
    mime_type: str | None
    created_at: str
    updated_at: str
    page_count: int | None = None
    size_bytes: int
    sha256: str | None = None
    embedding: list[float] | None = None


class UploadSession(BaseModel):
    file_id: str
    filename: str
    size_bytes: int
    content_type: str | None = None
    sha256: str | None = None
    created_at: str
    expires_at: str


class Inspection(BaseModel):
    """What the background inspection learned from the stored bytes."""

    mime_type: str | None
    size_bytes: int
    sha256: str
    page_count: int | None
    embedding: list[float] | None


class FileQuery(ListQuery):
    filename: str | None = None
    mime_type: str | None = None
    sort_by: SortField = "created_at"
    include_embeddings: bool = False


Inspector = Callable[[IO[bytes], str, str, int], Inspection]
"""Reads stored bytes (stream, filename, sha256, size) and tells what they are."""


class FileRepository(Protocol):
    def put_file(self, tenant: Tenant, record: FileRecord) -> None: ...
    def get_file(self, tenant: Tenant, file_id: str) -> FileRecord | None: ...
    def delete_file(self, tenant: Tenant, file_id: str) -> FileRecord | None: ...
    def list_files(self, tenant: Tenant, query: FileQuery) -> Page[FileRecord]: ...
    def put_upload(self, tenant: Tenant, session: UploadSession) -> None: ...
    def get_upload(self, tenant: Tenant, file_id: str) -> UploadSession | None: ...
    def complete_upload(self, tenant: Tenant, record: FileRecord) -> None: ...
    def reopen_upload(self, tenant: Tenant, session: UploadSession) -> None: ...
    def record_inspection(self, tenant: Tenant, file_id: str, inspection: Inspection) -> bool: ...


class BlobStore(Protocol):
    def put(self, key: str, content: bytes, content_type: str) -> None: ...
    def size(self, key: str) -> int | None: ...
    def stream(self, key: str) -> Iterator[bytes]: ...
    def copy(self, source: str, target: str) -> None: ...
    def delete(self, key: str) -> None: ...
    def upload_url(self, key: str, content_type: str, expires_in: int) -> str: ...
    def download_url(self, key: str, filename: str, expires_in: int) -> str: ...


def parse_file_key(key: str) -> tuple[Tenant, str] | None:
    """The tenant and file id of an object key under `files/`, or None for any other key."""
    parts = key.split("/")
    if len(parts) != 4 or parts[0] != "files" or parts[2] not in ENVIRONMENTS or not (parts[1] and parts[3]):
        return None
    return Tenant(parts[1], parts[2]), parts[3]


def file_key(tenant: Tenant, file_id: str) -> str:
    return f"files/{tenant.storage_prefix}/{file_id}"


def upload_key(tenant: Tenant, file_id: str) -> str:
    return f"uploads/{tenant.storage_prefix}/{file_id}"


def clean_filename(raw: str, location: tuple[str | int, ...] = ("body", "filename")) -> str:
    """The base name of `raw`, without directories or control characters; 422 when nothing is left."""
    name = PureWindowsPath(PurePosixPath(raw).name).name
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    if not name or name in {".", ".."}:
        raise InvalidField(location, "filename must name a file, for example 'invoice.pdf'")
    if len(name) > MAX_FILENAME_LENGTH:
        raise InvalidField(location, f"filename is longer than {MAX_FILENAME_LENGTH} characters")
    return name


def require_supported(
    detected: DocumentType | None, filename: str, supported: tuple[str, ...] = SUPPORTED_TYPES
) -> DocumentType:
    """The detected type if it is one of `supported`; 415 naming them otherwise."""
    if detected is None or detected.name not in supported:
        found = f" ({detected.name})" if detected else ""
        instead = f"; {CONVERSIONS[detected.name]}" if detected and detected.name in CONVERSIONS else ""
        raise UnsupportedMediaType(
            f"'{filename}'{found} is not a supported document type here{instead}. "
            f"Supported: {', '.join(supported)}"
        )
    return detected


class FileService:
    def __init__(self, repository: FileRepository, blobs: BlobStore) -> None:
        self._repository = repository
        self._blobs = blobs

    # ------------------------------------------------------------------ direct upload
    def upload(self, tenant: Tenant, filename: str, content: bytes) -> FileRecord:
        filename = clean_filename(filename)
        if len(content) > MAX_DIRECT_UPLOAD_BYTES:
            raise PayloadTooLarge(
                f"'{filename}' is {len(content)} bytes; direct uploads take at most "
                f"{MAX_DIRECT_UPLOAD_BYTES} bytes. Use an upload session for larger files: "
                "POST /v1/files/upload, PUT the bytes to upload_url, "
                "then POST /v1/files/upload/{file_id}/complete"
            )
        return self.keep(tenant, filename, content)

    def keep(self, tenant: Tenant, filename: str, content: bytes) -> FileRecord:
        """A file the service made itself (a filled form, say): stored whatever its size, which the
        service bounds, not the request."""
        filename = clean_filename(filename)
        if not content:
            raise BadRequest(f"'{filename}' is empty")
        document = require_supported(detect(content, filename), filename)
        now = iso(utc_now())
        record = FileRecord(
            id=new_id("file"),
            environment=tenant.environment,
            filename=filename,
            mime_type=document.mime_type,
            created_at=now,
            updated_at=now,
            size_bytes=len(content),
            sha256=hashlib.sha256(content).hexdigest(),
        )
        self._repository.put_file(tenant, record)
        self._write_or_forget(
            tenant, record, lambda: self._blobs.put(file_key(tenant, record.id), content, document.mime_type)
        )
        return record

    # ------------------------------------------------------------------ upload sessions
    def start_upload(
        self, tenant: Tenant, filename: str, size_bytes: int, content_type: str | None, sha256: str | None
    ) -> tuple[UploadSession, str]:
        filename = clean_filename(filename)
        if size_bytes > MAX_UPLOAD_SESSION_BYTES:
            raise PayloadTooLarge(
                f"'{filename}' is {size_bytes} bytes; files may be at most {MAX_UPLOAD_SESSION_BYTES} bytes"
            )
        now = utc_now()
        session = UploadSession(
            file_id=new_id("file"),
            filename=filename,
            size_bytes=size_bytes,
            content_type=content_type,
            sha256=sha256.lower() if sha256 else None,
            created_at=iso(now),
            expires_at=iso(now + timedelta(seconds=UPLOAD_URL_SECONDS)),
        )
        self._repository.put_upload(tenant, session)
        url = self._blobs.upload_url(
            upload_key(tenant, session.file_id),
            content_type or "application/octet-stream",
            UPLOAD_URL_SECONDS,
        )
        return session, url

    def complete_upload(self, tenant: Tenant, file_id: str) -> FileRecord:
        session = self._repository.get_upload(tenant, file_id)
        if session is None:
            if self._repository.get_file(tenant, file_id) is not None:
                raise Conflict(f"upload session '{file_id}' is already complete")
            raise NotFound(f"no upload session '{file_id}'")
        if session.expires_at < iso(utc_now()):
            raise BadRequest(f"upload session '{file_id}' expired at {session.expires_at}; start a new one")
        source = upload_key(tenant, file_id)
        stored_size = self._blobs.size(source)
        if stored_size is None:
            raise BadRequest("no bytes have been uploaded yet: PUT the file to upload_url first")
        if stored_size != session.size_bytes:
            raise BadRequest(
                f"the upload has {stored_size} bytes but the session declared {session.size_bytes}; "
                "PUT the whole file again"
            )
        with self._spool(source) as (sha256, _, spool):
            document = detect_stream(spool, session.filename)
        if session.sha256 and sha256 != session.sha256:
            raise BadRequest(f"the upload's sha256 is {sha256} but the session declared {session.sha256}")
        document = require_supported(document, session.filename)
        now = iso(utc_now())
        record = FileRecord(
            id=file_id,
            environment=tenant.environment,
            filename=session.filename,
            mime_type=document.mime_type,
            created_at=session.created_at,
            updated_at=now,
            size_bytes=stored_size,
            sha256=sha256,
        )
        self._repository.complete_upload(tenant, record)
        try:
            self._blobs.copy(source, file_key(tenant, file_id))
        except Exception:
            self._repository.delete_file(tenant, file_id)
            self._repository.reopen_upload(tenant, session)
            raise
        self._blobs.delete(source)
        return record

    @contextmanager
    def _spool(self, key: str) -> Iterator[tuple[str, int, IO[bytes]]]:
        """The stored bytes of `key` in a seekable spool, with their sha256 and size."""
        digest = hashlib.sha256()
        size = 0
        with tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024) as spool:
            for chunk in self._blobs.stream(key):
                digest.update(chunk)
                size += len(chunk)
                spool.write(chunk)
            spool.seek(0)
            yield digest.hexdigest(), size, spool

    # ------------------------------------------------------------------ reading
    def get(self, tenant: Tenant, file_id: str) -> FileRecord:
        record = self._repository.get_file(tenant, file_id)
        if record is None:
            raise NotFound(f"no file '{file_id}'")
        return record

    def list(self, tenant: Tenant, query: FileQuery) -> Page[FileRecord]:
        query.check()
        return self._repository.list_files(tenant, query)

    def download_url(self, tenant: Tenant, file_id: str) -> tuple[FileRecord, str]:
        record = self.get(tenant, file_id)
        return record, self._blobs.download_url(
            file_key(tenant, file_id), record.filename, DOWNLOAD_URL_SECONDS
        )

    # ------------------------------------------------------------------ changes
    def delete(self, tenant: Tenant, file_id: str) -> None:
        if self._repository.delete_file(tenant, file_id) is None:
            raise NotFound(f"no file '{file_id}'")
        self._blobs.delete(file_key(tenant, file_id))

    def inspect(self, tenant: Tenant, file_id: str, inspector: Inspector) -> bool:
        """Inspect the stored bytes of a file and record what was found; False when it no longer exists."""
        record = self._repository.get_file(tenant, file_id)
        if record is None:
            return False
        with self._spool(file_key(tenant, file_id)) as (sha256, size, spool):
            inspection = inspector(spool, record.filename, sha256, size)
        return self._repository.record_inspection(tenant, file_id, inspection)

    def _write_or_forget(self, tenant: Tenant, record: FileRecord, write: Callable[[], None]) -> None:
        """Write the bytes after the record; a failed write removes the record, so none is half-made."""
        try:
            write()
        except Exception:
            self._repository.delete_file(tenant, record.id)
            raise


def detect_stream(stream: IO[bytes], filename: str) -> DocumentType | None:
    """`detect` for a seekable stream: reads a sample, and the whole archive only for zip containers."""
    sample = stream.read(8192)
    return detect(sample, filename, archive=stream)
