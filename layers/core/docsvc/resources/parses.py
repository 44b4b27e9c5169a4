"""The body of POST /v1/parses and the Parse resource (spec 2.4 and 4.3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from docsvc.domain.parses import (
    FileSummary,
    ParseError,
    ParseOutput,
    ParseRecord,
    ParseRequest,
    ParseStatus,
    ParseUsage,
    TableFormat,
)


class ParseCreate(ParseRequest):
    background: bool = Field(False, description="Answer at once with status queued; poll the parse.")
    stream: bool = Field(False, description="Answer text/event-stream: an event a page, then the parse.")

    @model_validator(mode="after")
    def _background_or_stream(self) -> ParseCreate:
        if self.background and self.stream:
            raise ValueError("background and stream cannot be used together")
        return self

    def to_request(self) -> ParseRequest:
        return ParseRequest.model_validate(self.model_dump(exclude={"background", "stream"}))


class Parse(BaseModel):
    object: Literal["parse"] = "parse"
    id: str
    file: FileSummary
    model: str
    table_parsing_format: TableFormat
    image_resolution_dpi: int
    languages: list[str] | None = Field(None, description="The OCR languages asked for (Tesseract codes).")
    output: ParseOutput | None = Field(
        description="Every page and the whole text; empty until completed. In lists, null unless "
        "include_output=true."
    )
    instructions: str | None
    status: ParseStatus
    error: ParseError | None
    usage: ParseUsage
    warnings: list[str]
    created_at: str

    @classmethod
    def of(cls, record: ParseRecord, *, with_output: bool = True) -> Parse:
        fields = set(cls.model_fields) - {"object"} - (set() if with_output else {"output"})
        return cls.model_validate({"output": None} | record.model_dump(include=fields))
