"""POST /v1/extractions: the data of a document as an object valid against a JSON Schema, with a
likelihood per field and, when asked, where each value was read."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from docsvc.domain import answers
from docsvc.domain.intelligence import ResultRecord
from docsvc.domain.parses import FileSummary
from docsvc.endpoints.results import DocumentRequest, Result, ResultOperation
from docsvc.tenancy import ENVIRONMENT_HELP, Environment


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
    environment: Environment = Field(description=ENVIRONMENT_HELP)
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
            environment=record.environment,
            file=record.file,
            extraction=record.output,
            sources=record.sources,
            warnings=record.warnings,
        )


EXTRACTION = ResultOperation(
    "extraction",
    "/v1/extractions",
    ExtractionCreate,
    Extraction,
    lambda body: answers.extraction(body.json_schema, body.instructions, body.n_consensus),
)
