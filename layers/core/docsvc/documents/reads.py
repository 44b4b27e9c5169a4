"""The document reader function's work: a ReadRequest of an API function answered by the engine of
this process (a PictureRequest too), a FormRequest by its form engine (the messages:
docsvc.documents.reader_messages; the caller's side: docsvc.adapters.document_reader)."""

from __future__ import annotations

import base64
import hashlib
import time
from typing import Protocol

from docsvc.document_types import DocumentType
from docsvc.documents.builtin import BuiltinEngine
from docsvc.documents.form_engine import PdfForms
from docsvc.documents.reader_messages import (
    ANSWER_BYTES,
    DocumentMessage,
    FormAnswer,
    FormRequest,
    PictureAnswer,
    PictureRequest,
    ReadAnswer,
    ReadPage,
    ReadRejection,
    ReadRequest,
    staging_key,
)
from docsvc.domain.documents import SourceDocument
from docsvc.domain.files import file_key
from docsvc.domain.parses import SYNC_SECONDS
from docsvc.errors import DocumentRejected
from docsvc.ids import new_id
from docsvc.tenancy import Tenant


class _OverLimit(Exception):
    pass


class Staging(Protocol):
    """The files bucket: where stored and staged documents are read, and page pictures staged."""

    def read(self, key: str) -> bytes: ...
    def put(self, key: str, content: bytes, content_type: str) -> None: ...


class DocumentReads:
    """Reads for at most SYNC_SECONDS: the pages read by then come back, and the caller, whose own
    clock has passed the same limit, refuses the document as too slow for a synchronous read."""

    def __init__(self, engine: BuiltinEngine, blobs: Staging, forms: PdfForms | None = None) -> None:
        self._engine, self._blobs, self._forms = engine, blobs, forms or PdfForms()

    def form(self, request: FormRequest) -> FormAnswer:
        """A form's fields, or the form filled (staged when too large to answer); or why not."""
        tenant = Tenant(request.organization_id, request.environment)
        try:
            document = self._document(tenant, request)
            if request.task == "form_fields":
                fields, pages = self._forms.fields(tenant, document)
                answer = FormAnswer(page_count=pages, fields=fields)
                if len(answer.model_dump_json()) > ANSWER_BYTES:
                    raise DocumentRejected(
                        "form_too_large",
                        f"the fields of '{document.filename}' are more than an answer may hold "
                        f"({ANSWER_BYTES // 1_000_000} MB)",
                        413,
                    )
                return answer
            filled = self._forms.fill(tenant, document, request.fields, request.color)
        except DocumentRejected as rejection:
            return FormAnswer(rejection=_rejection(rejection))
        if len(filled) * 4 // 3 + 1_000 <= ANSWER_BYTES:
            return FormAnswer(filled_base64=base64.b64encode(filled).decode("ascii"))
        key = staging_key(tenant, f"{new_id('read')}-filled.pdf")
        self._blobs.put(key, filled, "application/pdf")
        return FormAnswer(filled_key=key)

    def picture(self, request: PictureRequest) -> PictureAnswer:
        """A page drawn, or the page count alone when there is no such page; or why not."""
        tenant = Tenant(request.organization_id, request.environment)
        try:
            document = self._document(tenant, request)
            page_count, image = self._engine.draw(document, request.page, request.dpi)
        except DocumentRejected as rejection:
            return PictureAnswer(rejection=_rejection(rejection))
        encoded = base64.b64encode(image).decode("ascii") if image is not None else None
        return PictureAnswer(page_count=page_count, image_base64=encoded)

    def answer(self, request: ReadRequest) -> ReadAnswer:
        tenant = Tenant(request.organization_id, request.environment)
        try:
            document = self._document(tenant, request)
        except DocumentRejected as rejection:
            return _rejected(0, rejection)
        counted: list[int] = [0]

        def on_count(page_count: int) -> None:
            counted[0] = page_count
            if page_count > request.max_pages:
                raise _OverLimit()

        pages: list[ReadPage] = []
        read_id = new_id("read")
        started = time.monotonic()
        try:
            for page in self._engine.pages(tenant, document, request.options(), on_count):
                pages.append(
                    ReadPage(
                        number=page.number,
                        text=page.text,
                        warnings=list(page.warnings),
                        ocr_confidence=page.ocr_confidence,
                        words=list(page.words),
                        size=page.size,
                        image_key=self._staged_image(tenant, read_id, page.number, page.image),
                    )
                )
                if time.monotonic() - started > SYNC_SECONDS:
                    break
        except _OverLimit:
            return ReadAnswer(page_count=counted[0])
        except DocumentRejected as rejection:
            return _rejected(counted[0], rejection)
        answer = ReadAnswer(page_count=counted[0], pages=pages)
        if request.words != "no" and len(answer.model_dump_json()) > ANSWER_BYTES:
            for read in answer.pages:  # the words are a help to the text, which must come back whole
                read.words = []
        if len(answer.model_dump_json()) > ANSWER_BYTES:
            return ReadAnswer(
                page_count=counted[0],
                rejection=ReadRejection(
                    code="output_too_large",
                    message=f"the text of '{document.filename}' is larger than a synchronous read may "
                    f"return ({ANSWER_BYTES // 1_000_000} MB); send it in the background",
                    status=413,
                ),
            )
        return answer

    def _staged_image(self, tenant: Tenant, read_id: str, number: int, image: bytes | None) -> str | None:
        """The page's picture, staged for the caller to read and remove."""
        if image is None:
            return None
        key = staging_key(tenant, f"{read_id}-page-{number}.jpg")
        self._blobs.put(key, image, "image/jpeg")
        return key

    def _document(self, tenant: Tenant, request: DocumentMessage) -> SourceDocument:
        if request.stored_key is not None:
            if not request.stored_key.startswith(file_key(tenant, "")):
                raise DocumentRejected("bad_read", "the stored document is not this tenant's", 400)
            content = self._blobs.read(request.stored_key)
        elif request.staged_key is not None:
            if not request.staged_key.startswith(staging_key(tenant, "")):
                raise DocumentRejected("bad_read", "the staged document is not this tenant's", 400)
            content = self._blobs.read(request.staged_key)
        else:
            content = base64.b64decode(request.content_base64 or "")
        sha256 = hashlib.sha256(content).hexdigest()
        return SourceDocument(request.filename, content, DocumentType(request.document_type), sha256)


def _rejected(page_count: int, rejection: DocumentRejected) -> ReadAnswer:
    return ReadAnswer(page_count=page_count, rejection=_rejection(rejection))


def _rejection(rejection: DocumentRejected) -> ReadRejection:
    return ReadRejection(code=rejection.code, message=rejection.message, status=rejection.status_code)
