"""The bodies of the document-intelligence endpoints and the resources they answer: extractions,
classifications, splits, partitions, and generated schemas."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, field_validator

from docsvc.clock import iso, utc_now
from docsvc.domain import answers
from docsvc.domain.documents import DocumentInput
from docsvc.domain.intelligence import (
    Answerer,
    DocumentTask,
    IntelligenceService,
    ResultKind,
    ResultRecord,
    ResultUsage,
)
from docsvc.domain.parses import DEFAULT_DPI, FileSummary, ParseLimits
from docsvc.errors import DomainError
from docsvc.ids import new_id
from docsvc.names import check_distinct
from docsvc.tenancy import Tenant

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


class ExtractionCreate(DocumentRequest):
    json_schema: dict[str, Any] = Field(description="A JSON Schema (object with properties) of the data.")
    include_sources: bool = Field(
        False,
        description="Answer `sources` too: the output's shape with each leaf value as {value, source, "
        "likelihood}; also at GET /v1/extractions/{id}/sources.",
    )
    n_consensus: int = Field(
        1,
        ge=1,
        le=8,
        description="How many times a remote model extracts (at the same time, 4 at most at once): the "
        "answer is the value most runs gave for each field, and its likelihood the share of runs that "
        "agree. The built-in model is deterministic and runs once, whatever this says.",
    )

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, schema: dict[str, Any]) -> dict[str, Any]:
        from docsvc.intelligence.schemas import checked_schema  # loads the schema tools when used

        return checked_schema(schema)


class CategoryIn(BaseModel):
    name: Name
    description: Annotated[str, StringConstraints(max_length=2_000)] = ""


class ClassificationCreate(DocumentRequest):
    categories: list[CategoryIn] = Field(min_length=1, max_length=100)
    first_n_pages: int | None = Field(None, ge=1, description="Classify from the first pages only.")

    @field_validator("categories")
    @classmethod
    def _distinct(cls, categories: list[CategoryIn]) -> list[CategoryIn]:
        check_distinct([category.name for category in categories], "category")
        return categories


class SubdocumentIn(BaseModel):
    name: Name
    description: Annotated[str, StringConstraints(max_length=2_000)] = ""
    allow_multiple_instances: bool = False


class SplitCreate(DocumentRequest):
    subdocuments: list[SubdocumentIn] = Field(min_length=1, max_length=100)

    @field_validator("subdocuments")
    @classmethod
    def _distinct(cls, subdocuments: list[SubdocumentIn]) -> list[SubdocumentIn]:
        check_distinct([subdocument.name for subdocument in subdocuments], "subdocument")
        return subdocuments


class PartitionCreate(DocumentRequest):
    key: Name = Field(description="The label whose value groups the pages, e.g. 'invoice number'.")

    @field_validator("key")
    @classmethod
    def _words(cls, key: str) -> str:
        if not any(character.isalnum() for character in key):
            raise ValueError("the key names a label, e.g. 'invoice number': it needs a letter or a digit")
        return key


class SchemaGenerate(BaseModel):
    documents: list[DocumentInput] = Field(min_length=1, max_length=10)
    model: str | None = None
    instructions: Instructions | None = None
    image_resolution_dpi: int = Field(DEFAULT_DPI, ge=96, le=300)


# ---------------------------------------------------------------------------- resources
class Result(BaseModel):
    id: str
    object: ResultKind
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


class Extraction(Result):
    object: Literal["extraction"] = "extraction"
    output: dict[str, Any] = Field(description="The data, valid against json_schema; null where not found.")
    likelihoods: dict[str, float] = Field(
        description="Per field path (dotted; an array is one field), how sure the model is (0-1). With a "
        "remote model: the share of the n_consensus runs that gave the answered value."
    )
    sources: dict[str, Any] | None = Field(
        None,
        description="With include_sources: the output's shape, each leaf value as {value, source, "
        "likelihood}; source is {content, anchor} or null, anchor {kind: pdf_bbox, page, left, top, width, "
        "height} (fractions of the page) or {kind: text, page} for documents without geometry.",
    )


class ExtractionSources(BaseModel):
    """Where each value of an extraction came from."""

    object: Literal["extraction.sources"] = "extraction.sources"
    extraction_id: str
    file: FileSummary
    extraction: dict[str, Any] = Field(description="The extraction's output.")
    sources: dict[str, Any] = Field(
        description="The output's shape, each leaf value as {value, source, likelihood}: source is "
        "{content, anchor}, the words the value was read from and where they are printed (anchor "
        "{kind: pdf_bbox, page, left, top, width, height} as fractions of the page, or {kind: text, "
        "page} for documents without geometry); null for a value not found or not printed as such."
    )
    warnings: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, record: ResultRecord) -> ExtractionSources:
        return cls(
            extraction_id=record.id,
            file=record.file,
            extraction=record.output,
            sources=record.sources,
            warnings=record.warnings,
        )


class ClassificationOutput(BaseModel):
    category: str
    reasoning: str


class Classification(Result):
    object: Literal["classification"] = "classification"
    output: ClassificationOutput
    likelihoods: dict[str, float] = Field(
        description="`category`: how sure the model is (0-1); under 0.5 the category is a guess."
    )


class SplitPart(BaseModel):
    name: str
    pages: list[int] = Field(description="1-based page numbers.")
    likelihood: float | None = Field(
        default=None,
        description="How sure the model is of this part's boundaries (0-1); under 0.5 they are a guess. "
        "Null when the model does not say.",
    )


class Split(Result):
    object: Literal["split"] = "split"
    output: list[SplitPart]


class PartitionPart(BaseModel):
    key: str
    pages: list[int] = Field(description="1-based page numbers.")


class Partition(Result):
    object: Literal["partition"] = "partition"
    output: list[PartitionPart]


class GeneratedSchema(BaseModel):
    object: Literal["schema"] = "schema"
    json_schema: dict[str, Any]
    strict: bool = True
    created_at: str


# ---------------------------------------------------------------------------- endpoints
@dataclass(frozen=True)
class ResultEndpoint:
    """One endpoint of a result kind: its body, its resource, and what it asks of the model. The route
    and the job worker both answer through `answer`."""

    kind: ResultKind
    body: type[DocumentRequest]
    resource: type[Result]
    answerer: Callable[[Any], Answerer]
    first_n_pages: Callable[[Any], int | None] = lambda body: None

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


RESULT_ENDPOINTS: dict[str, ResultEndpoint] = {
    "/v1/extractions": ResultEndpoint(
        "extraction",
        ExtractionCreate,
        Extraction,
        lambda body: answers.extraction(body.json_schema, body.instructions, body.n_consensus),
    ),
    "/v1/classifications": ResultEndpoint(
        "classification",
        ClassificationCreate,
        Classification,
        lambda body: answers.classification(
            [(category.name, category.description) for category in body.categories], body.instructions
        ),
        lambda body: body.first_n_pages,
    ),
    "/v1/splits": ResultEndpoint(
        "split",
        SplitCreate,
        Split,
        lambda body: answers.split(
            [(part.name, part.description, part.allow_multiple_instances) for part in body.subdocuments],
            body.instructions,
        ),
    ),
    "/v1/partitions": ResultEndpoint(
        "partition", PartitionCreate, Partition, lambda body: answers.partition(body.key, body.instructions)
    ),
}


def generated_schema(
    service: IntelligenceService,
    tenant: Tenant,
    body: SchemaGenerate,
    *,
    limits: ParseLimits | None = None,
    stop: Callable[[], bool] | None = None,
) -> GeneratedSchema:
    schema = service.generate_schema(
        tenant,
        body.documents,
        model=body.model,
        instructions=body.instructions,
        dpi=body.image_resolution_dpi,
        limits=limits,
        stop=stop,
    )
    return GeneratedSchema(json_schema=schema, created_at=iso(utc_now()))


# ---------------------------------------------------------------------------- deep research (beta)
class InferenceSettings(BaseModel):
    model: str | None = None
    reasoning_effort: str | None = None
    image_resolution_dpi: int = Field(DEFAULT_DPI, ge=96, le=300)


class DeepResearchCreate(BaseModel):
    document: DocumentInput
    json_schema: dict[str, Any]
    inference_settings: InferenceSettings
    num_agentic_steps: int = Field(7, ge=1, le=20)
    max_tool_calls: int = Field(3, ge=1, le=10, description="Tool calls per step.")

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, schema: dict[str, Any]) -> dict[str, Any]:
        from docsvc.intelligence.schemas import checked_schema

        return checked_schema(schema)


class ResearchStep(BaseModel):
    step: int
    tool: str
    input: dict[str, Any]
    output_summary: str
    duration_ms: float


class DeepResearchData(BaseModel):
    id: str
    predictions: dict[str, Any]
    likelihoods: dict[str, float]
    research_trace: list[ResearchStep]
    model: str
    duration_ms: float
    usage: dict[str, Any]


class DeepResearchAnswer(BaseModel):
    success: bool = False
    message: str = ""
    data: DeepResearchData | None = None
    error: str | None = None


def deep_research(
    service: IntelligenceService,
    tenant: Tenant,
    body: DeepResearchCreate,
    *,
    lookup: Callable[[str, str], list[dict[str, Any]]] | None = None,
) -> DeepResearchAnswer:
    """The answer of POST /v1/beta/deepresearch/extract: the research, or `success: false` with the
    reason when the service refuses it (the document cannot be read, the model is not offered)."""
    started = time.monotonic()
    task = DocumentTask(
        document=body.document,
        model=body.inference_settings.model,
        image_resolution_dpi=body.inference_settings.image_resolution_dpi,
    )
    try:
        found, model, page_count = service.research(
            tenant,
            task,
            body.json_schema,
            steps=body.num_agentic_steps,
            tool_calls=body.max_tool_calls,
            lookup=lookup,
        )
    except DomainError as failure:
        return DeepResearchAnswer(success=False, message="the research failed", error=failure.message)
    data = DeepResearchData(
        id=new_id("dre"),
        predictions=found.predictions,
        likelihoods=found.likelihoods,
        research_trace=[ResearchStep(**vars(step)) for step in found.trace],
        model=model.id,
        duration_ms=round((time.monotonic() - started) * 1000, 1),
        usage={
            "page_count": page_count,
            "tool_calls": sum(step.tool != "finish" for step in found.trace),
            **found.usage,  # a remote model's input_tokens, output_tokens and model_turns
        },
    )
    return DeepResearchAnswer(success=True, message="research completed", data=data)
