"""The Engine and FormEngine ports for functions without the documents layer: the document reader
function reads the document, or finds and fills a form's fields (Lambda Invoke), so the API functions
stay small and never import PyMuPDF.

A document up to INLINE_BYTES travels in the request; a larger stored file is read by the reader from
its own key, and any other larger one is staged in the files bucket under the tenant's `reads/` prefix
for the duration of the call. The reader answers every page at
once (Lambda answers once), or why it refused the document. Page pictures come staged in the same
place, one object a page; they are read and removed as soon as the answer arrives, as is a filled
form too large to answer inline. A page of a stored file is drawn (PagePainter) from the file's own key.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from docsvc.adapters.blobs import S3BlobStore
from docsvc.adapters.functions import FunctionBusy, FunctionFailed, invoke
from docsvc.documents.readable import PICTURED_TYPES, READABLE_TYPES
from docsvc.documents.reader_messages import (
    INLINE_BYTES,
    DocumentMessage,
    FormAnswer,
    FormRequest,
    PictureAnswer,
    PictureRequest,
    ReadAnswer,
    ReadRequest,
    staging_key,
)
from docsvc.domain.documents import SourceDocument
from docsvc.domain.edits import FormField
from docsvc.domain.evidence import WordBox
from docsvc.domain.files import FileRecord, file_key
from docsvc.domain.parses import SYNC_SECONDS, ParsedPage, ReadOptions, too_slow_for_sync
from docsvc.errors import DocumentRejected, ServiceBusy
from docsvc.ids import new_id
from docsvc.intelligence.paper import PageSize
from docsvc.tenancy import Tenant

READER_SECONDS = 28  # the document reader's Lambda timeout (template.yaml)


@dataclass(frozen=True)
class _Page:
    number: int
    text: str
    warnings: tuple[str, ...]
    ocr_confidence: float | None = None
    words: tuple[WordBox, ...] = ()
    image: bytes | None = None
    size: PageSize | None = None


class _Reader:
    """The document reader function, called with a message about a tenant's document."""

    def __init__(
        self,
        function: str,
        blobs: S3BlobStore,
        call: Callable[[str, dict[str, Any]], Any] = invoke,
    ) -> None:
        self._function, self._blobs, self._call = function, blobs, call

    def _sent(self, tenant: Tenant, document: SourceDocument, request: DocumentMessage) -> Any:
        """The reader's answer to `request`, the document in the request or staged for the call."""
        staged = None
        if len(document.content) + request.carried_bytes() <= INLINE_BYTES:
            request.content_base64 = base64.b64encode(document.content).decode("ascii")
        elif document.file_id is not None:  # a stored file: the reader reads it where it is
            request.stored_key = file_key(tenant, document.file_id)
        else:
            staged = request.staged_key = staging_key(tenant, new_id("read"))
            self._blobs.put(staged, document.content, document.mime_type)
        try:
            return self._invoke(request)
        finally:
            if staged is not None:
                self._blobs.delete(staged)

    def _invoke(self, request: DocumentMessage) -> Any:
        try:
            return self._call(self._function, request.model_dump(mode="json"))
        except FunctionBusy:
            raise ServiceBusy(
                "documents are being read as fast as this deployment allows; send the request again in a "
                "few seconds, or send it in the background"
            ) from None
        except FunctionFailed as failure:
            if failure.timed_out:
                raise too_slow_for_sync(request.filename, READER_SECONDS) from None
            raise


class DocumentReader(_Reader):
    supported = READABLE_TYPES

    def pages(
        self, tenant: Tenant, document: SourceDocument, options: ReadOptions, on_count: Callable[[int], None]
    ) -> Iterator[ParsedPage]:
        request = ReadRequest.of(tenant, document.filename, document.document_type.name, options)
        answer = self._read(tenant, document, request)
        pictures = self._staged_images(tenant, answer)
        if answer.rejection is not None:
            rejection = answer.rejection
            raise DocumentRejected(rejection.code, rejection.message, rejection.status)
        on_count(answer.page_count)
        for page in answer.pages:
            image = pictures.get(page.number)
            yield _Page(
                page.number,
                page.text,
                tuple(page.warnings),
                page.ocr_confidence,
                tuple(page.words),
                image,
                page.size,
            )
        if len(answer.pages) < answer.page_count:  # the reader stopped at its time budget
            raise too_slow_for_sync(document.filename, SYNC_SECONDS, len(answer.pages), answer.page_count)

    def _staged_images(self, tenant: Tenant, answer: ReadAnswer) -> dict[int, bytes]:
        """The pictures the reader staged for this tenant, by page number, removed from where they were
        staged."""
        mine = staging_key(tenant, "")
        keys = {
            page.number: page.image_key
            for page in answer.pages
            if page.image_key and page.image_key.startswith(mine)
        }
        try:
            return {number: self._blobs.read(key) for number, key in keys.items()}
        finally:
            for key in keys.values():
                self._blobs.delete(key)

    def _read(self, tenant: Tenant, document: SourceDocument, request: ReadRequest) -> ReadAnswer:
        return ReadAnswer.model_validate(self._sent(tenant, document, request))


class ReaderForms(_Reader):
    """The FormEngine over the document reader function."""

    def fields(self, tenant: Tenant, document: SourceDocument) -> tuple[list[FormField], int]:
        answer = self._ask(tenant, document, "form_fields", [], "#000000")
        return answer.fields, answer.page_count

    def fill(
        self, tenant: Tenant, document: SourceDocument, fields: Sequence[FormField], color: str
    ) -> bytes:
        answer = self._ask(tenant, document, "fill_form", list(fields), color)
        if answer.filled_base64 is not None:
            return base64.b64decode(answer.filled_base64)
        key = answer.filled_key or ""
        if not key.startswith(staging_key(tenant, "")):
            raise FunctionFailed(
                self._function, "BadAnswer", "a filled form staged outside this tenant's prefix"
            )
        try:
            return self._blobs.read(key)
        finally:
            self._blobs.delete(key)

    def _ask(
        self,
        tenant: Tenant,
        document: SourceDocument,
        task: Literal["form_fields", "fill_form"],
        fields: list[FormField],
        color: str,
    ) -> FormAnswer:
        request = FormRequest(
            organization_id=tenant.organization_id,
            environment=tenant.environment,
            filename=document.filename,
            document_type=document.document_type.name,
            task=task,
            fields=fields,
            color=color,
        )
        answer = FormAnswer.model_validate(self._sent(tenant, document, request))
        if answer.rejection is not None:
            rejection = answer.rejection
            raise DocumentRejected(rejection.code, rejection.message, rejection.status)
        return answer


class ReaderPictures(_Reader):
    """The PagePainter over the document reader function: it reads the stored file from its own key
    and answers the page's JPEG (at most 3.5 MB, so always inline)."""

    supported = PICTURED_TYPES

    def picture(
        self, tenant: Tenant, file: FileRecord, document_type: str, number: int, dpi: int
    ) -> tuple[int, bytes | None]:
        request = PictureRequest(
            organization_id=tenant.organization_id,
            environment=tenant.environment,
            filename=file.filename,
            document_type=document_type,
            stored_key=file_key(tenant, file.id),
            page=number,
            dpi=dpi,
        )
        answer = PictureAnswer.model_validate(self._invoke(request))
        if answer.rejection is not None:
            rejection = answer.rejection
            raise DocumentRejected(rejection.code, rejection.message, rejection.status)
        image = base64.b64decode(answer.image_base64) if answer.image_base64 is not None else None
        return answer.page_count, image
