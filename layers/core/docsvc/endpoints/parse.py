"""POST /v1/parses: its body, the Parse resource (spec 2.4 and 4.3), and the operation its route and
its jobs answer through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from docsvc.domain.models import Task
from docsvc.domain.parses import (
    FileSummary,
    ParseError,
    ParseLimits,
    ParseOutput,
    ParseRecord,
    ParseRequest,
    ParseService,
    ParseStatus,
    ParseUsage,
    TableFormat,
)
from docsvc.endpoints.operation import Operation, ServiceName
from docsvc.errors import InvalidField
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant


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
    environment: Environment = Field(description=ENVIRONMENT_HELP)
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


class ParseOperation(Operation):
    """A parse answered when it is done: a 201 with the completed Parse. The route also answers a
    background parse (`submit`) and a streamed one (`stream`) itself; a job runs in the background
    already, so its `background` and `stream` stay false."""

    path = "/v1/parses"
    body = ParseCreate
    task: Task = "parse"
    service: ServiceName = "parses"

    def answer(
        self,
        service: ParseService,
        tenant: Tenant,
        body: ParseCreate,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Parse:
        return Parse.of(service.parse(tenant, body.to_request(), limits=limits, stop=stop))

    def refuse_in_a_job(self, body: ParseCreate) -> None:
        for flag in ("background", "stream"):
            if getattr(body, flag):
                raise InvalidField(
                    ("body", flag), f"a job runs in the background already: leave {flag} false"
                )


PARSE = ParseOperation()
