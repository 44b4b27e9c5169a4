"""What an API function sends the document reader function, and what it answers (Lambda Invoke,
JSON both ways). Lambda takes at most 6 MB each way: a document larger than INLINE_BYTES is read by
the reader from the files bucket, from its own key when it is a stored file (`files/<org>/<env>/`),
else staged under `reads/<org>/<env>/`; an answer larger than ANSWER_BYTES is refused.
Page pictures, asked for with `images`, are staged there too, one object a page, and removed by the
API function once it has read them.

Three kinds of message: a ReadRequest (the pages of a document), a FormRequest (`task`: the fields of
a PDF form, or the form filled; a filled form too large to answer inline is staged the same way), and a
PictureRequest (`task` draw_page: one page drawn as a JPEG, its text not read)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from docsvc.domain.edits import FormField
from docsvc.domain.evidence import WordBox, Words
from docsvc.domain.parses import ReadOptions, TableFormat
from docsvc.intelligence.paper import PageSize
from docsvc.tenancy import Environment, Tenant

INLINE_BYTES = 4_000_000  # base64 makes 5.3 MB of it, under Lambda's 6 MB request
ANSWER_BYTES = 5_500_000  # Lambda's 6 MB response, less the envelope
STAGING_PREFIX = "reads/"  # expired by the bucket's lifecycle rule if a read never cleans up


def staging_key(tenant: Tenant, read_id: str) -> str:
    return f"{STAGING_PREFIX}{tenant.storage_prefix}/{read_id}"


class DocumentMessage(BaseModel):
    """A tenant's document, in the message or where the reader finds it."""

    organization_id: str
    environment: Environment
    filename: str
    document_type: str
    content_base64: str | None = Field(None, description="The document, when it is small enough")
    staged_key: str | None = Field(None, description="Else where it is staged in the files bucket")
    stored_key: str | None = Field(None, description="Or, for a stored file, its own key in the files bucket")

    def carried_bytes(self) -> int:
        """What the message carries besides its document, counted against INLINE_BYTES."""
        return 0


class ReadRequest(DocumentMessage):
    table_format: TableFormat
    dpi: int
    page_seconds: float
    max_pages: int
    languages: list[str] | None = Field(None, description="OCR languages (Tesseract codes); None: English")
    words: Words = Field("no", description="Each page's words with their boxes: no, also, only")
    images: int = Field(0, description="Draw the first this many pages too (JPEG), staged for the caller")

    @classmethod
    def of(cls, tenant: Tenant, filename: str, document_type: str, options: ReadOptions) -> ReadRequest:
        """The request for a read of a tenant's document with these options (the document itself
        goes in `content_base64`, `staged_key` or `stored_key`)."""
        return cls(
            organization_id=tenant.organization_id,
            environment=tenant.environment,
            filename=filename,
            document_type=document_type,
            table_format=options.table_format,
            dpi=options.dpi,
            page_seconds=options.page_seconds,
            max_pages=options.max_pages,
            languages=list(options.languages) if options.languages else None,
            words=options.words,
            images=options.images,
        )

    def options(self) -> ReadOptions:
        """The options the reader reads with: those the request was made of."""
        return ReadOptions(
            max_pages=self.max_pages,
            table_format=self.table_format,
            dpi=self.dpi,
            page_seconds=self.page_seconds,
            languages=tuple(self.languages) if self.languages else None,
            words=self.words,
            images=self.images,
        )


class ReadPage(BaseModel):
    number: int
    text: str
    warnings: list[str] = Field(default_factory=list)
    ocr_confidence: float | None = None
    words: list[WordBox] = Field(default_factory=list)
    size: PageSize | None = Field(None, description="Its width and height in points, when known")
    image_key: str | None = Field(None, description="Where the page's picture is staged, when drawn")


class ReadRejection(BaseModel):
    code: str
    message: str
    status: int


class ReadAnswer(BaseModel):
    """The page count, and the pages unless the count is over `max_pages`; or why it was refused."""

    page_count: int = 0
    pages: list[ReadPage] = Field(default_factory=list)
    rejection: ReadRejection | None = None


class FormRequest(DocumentMessage):
    task: Literal["form_fields", "fill_form"]
    fields: list[FormField] = Field(default_factory=list, description="fill_form: the fields with values")
    color: str = "#000000"

    def carried_bytes(self) -> int:
        return sum(len(field.model_dump_json()) for field in self.fields)


class FormAnswer(BaseModel):
    """form_fields: the fields and the page count; fill_form: the filled PDF, in the answer or staged
    (`filled_key`) for the caller to read and remove; or why the form was refused."""

    page_count: int = 0
    fields: list[FormField] = Field(default_factory=list)
    filled_base64: str | None = None
    filled_key: str | None = None
    rejection: ReadRejection | None = None


class PictureRequest(DocumentMessage):
    """One page of a stored document drawn as a JPEG, nothing of it read (no text, no OCR)."""

    task: Literal["draw_page"] = "draw_page"
    page: int = Field(ge=1, description="1-based")
    dpi: int = Field(ge=36, le=300)


class PictureAnswer(BaseModel):
    """The page count, and the page's JPEG unless there is no such page; or why it was refused. A JPEG
    is at most 3.5 MB (documents.engine.rendering), so it always fits the answer."""

    page_count: int = 0
    image_base64: str | None = None
    rejection: ReadRejection | None = None
