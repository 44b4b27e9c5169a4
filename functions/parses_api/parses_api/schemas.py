"""Request and response bodies of /v1/parses (spec 2.4 and 4.3)."""

from __future__ import annotations

from typing import Literal

from docsvc.domain.documents import FileRef, MIMEData
from docsvc.domain.parses import (
    DEFAULT_MODEL,
    FileSummary,
    ParseError,
    ParseOutput,
    ParseRecord,
    ParseRequest,
    ParseStatus,
    ParseUsage,
    TableFormat,
)
from pydantic import BaseModel, Field, model_validator


class ParseCreate(BaseModel):
    document: MIMEData | FileRef = Field(description="MIMEData {filename, url} or a FileRef {id}.")
    model: str = Field(DEFAULT_MODEL, description="A parse model of GET /v1/models.")
    table_parsing_format: TableFormat = "markdown"
    instructions: str | None = Field(None, max_length=10_000, description="Stored and echoed with the parse.")
    image_resolution_dpi: int = Field(150, ge=96, le=300, description="Resolution of OCR rendering.")
    bust_cache: bool = Field(False, description="Skip the cache of identical inputs and parse again.")
    background: bool = Field(False, description="Answer at once with status queued; poll the parse.")
    stream: bool = Field(False, description="Answer text/event-stream: an event a page, then the parse.")

    @model_validator(mode="after")
    def _background_or_stream(self) -> ParseCreate:
        if self.background and self.stream:
            raise ValueError("background and stream cannot be used together")
        return self

    def to_request(self) -> ParseRequest:
        return ParseRequest(
            document=self.document,
            model=self.model,
            table_parsing_format=self.table_parsing_format,
            instructions=self.instructions,
            image_resolution_dpi=self.image_resolution_dpi,
            bust_cache=self.bust_cache,
        )


class Parse(BaseModel):
    object: Literal["parse"] = "parse"
    id: str
    file: FileSummary
    model: str
    table_parsing_format: TableFormat
    image_resolution_dpi: int
    output: ParseOutput
    instructions: str | None
    status: ParseStatus
    error: ParseError | None
    usage: ParseUsage
    warnings: list[str]
    created_at: str

    @classmethod
    def of(cls, record: ParseRecord) -> Parse:
        return cls.model_validate(record.model_dump(include=set(cls.model_fields) - {"object"}))


class ListMetadata(BaseModel):
    before: str | None
    after: str | None


class ParseList(BaseModel):
    data: list[Parse]
    list_metadata: ListMetadata
