"""POST /v1/beta/deepresearch/extract: an extraction by an agent that searches and reads the document
step by step. Not a job endpoint: only its route answers through it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field, field_validator

from docsvc.domain.documents import DocumentInput
from docsvc.domain.intelligence import DocumentTask, IntelligenceService
from docsvc.domain.parses import DEFAULT_DPI
from docsvc.errors import DomainError
from docsvc.ids import new_id
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant


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
        from docsvc.intelligence.schemas import checked_schema  # loads the schema tools when used

        return checked_schema(schema)


class ResearchStep(BaseModel):
    step: int
    tool: str
    input: dict[str, Any]
    output_summary: str
    duration_ms: float


class DeepResearchData(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
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


class DeepResearch:
    path = "/v1/beta/deepresearch/extract"
    body = DeepResearchCreate

    def answer(
        self,
        service: IntelligenceService,
        tenant: Tenant,
        body: DeepResearchCreate,
        *,
        lookup: Callable[[str, str], list[dict[str, Any]]] | None = None,
    ) -> DeepResearchAnswer:
        """The research, or `success: false` with the reason when the service refuses it (the
        document cannot be read, the model is not offered)."""
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
            environment=tenant.environment,
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


DEEP_RESEARCH = DeepResearch()
