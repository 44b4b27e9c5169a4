"""What the result operations share (extractions, classifications, splits, partitions): the fields
of every body, the Result resource, and the operation that answers through the IntelligenceService.
Each kind has its module beside this one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from docsvc.domain.documents import DocumentInput
from docsvc.domain.intelligence import (
    TASK_OF,
    Answerer,
    DocumentTask,
    IntelligenceService,
    ResultKind,
    ResultRecord,
    ResultUsage,
)
from docsvc.domain.models import Task
from docsvc.domain.parses import DEFAULT_DPI, FileSummary, ParseLimits
from docsvc.endpoints.operation import Operation, ServiceName
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Instructions = Annotated[str, StringConstraints(max_length=10_000)]


class DocumentRequest(BaseModel):
    """The fields every intelligence request shares."""

    document: DocumentInput = Field(description="MIMEData {filename, url} or a FileRef {id}.")
    model: str | None = Field(None, description="A model of GET /v1/models; the task's default if omitted.")
    instructions: Instructions | None = None
    image_resolution_dpi: int = Field(DEFAULT_DPI, ge=96, le=300, description="Resolution of OCR rendering.")
    bust_cache: bool = Field(False, description="Read the document again instead of an earlier parse of it.")

    def task(self, first_n_pages: int | None = None) -> DocumentTask:
        return DocumentTask(
            document=self.document,
            model=self.model,
            image_resolution_dpi=self.image_resolution_dpi,
            bust_cache=self.bust_cache,
            first_n_pages=first_n_pages,
        )


class Result(BaseModel):
    id: str
    object: ResultKind
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    file: FileSummary
    model: str
    output: Any
    usage: ResultUsage = Field(
        description="page_count, credits (1 a page with text; none for pages without text to read), "
        "cached (pages from a parse)."
    )
    warnings: list[str] = Field(
        default_factory=list, description="What the answer cannot vouch for: pages without text, a guess."
    )
    created_at: str

    @classmethod
    def of(cls, record: ResultRecord, sources: bool = False) -> Any:
        fields = set(cls.model_fields) - (set() if sources else {"sources"})
        return cls.model_validate(record.model_dump(include=fields))


@dataclass(frozen=True)
class ResultOperation(Operation):
    """One result kind's operation: its body, its resource, and what it asks of the model."""

    kind: ResultKind
    path: str
    body: type[DocumentRequest]
    resource: type[Result]
    answerer: Callable[[Any], Answerer]
    first_n_pages: Callable[[Any], int | None] = lambda body: None
    task: Task = field(init=False)
    service: ServiceName = field(default="intelligence", init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "task", TASK_OF[self.kind])

    def answer(
        self,
        service: IntelligenceService,
        tenant: Tenant,
        body: DocumentRequest,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Result:
        task = body.task(self.first_n_pages(body))
        record = service.answer(tenant, self.kind, task, self.answerer(body), limits=limits, stop=stop)
        answered: Result = self.resource.of(record, sources=getattr(body, "include_sources", False))
        return answered
