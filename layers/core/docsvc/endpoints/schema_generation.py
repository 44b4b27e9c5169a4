"""POST /v1/schemas/generate: a JSON Schema of the data in documents (their fields, types, tables)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentInput
from docsvc.domain.intelligence import IntelligenceService
from docsvc.domain.models import Task
from docsvc.domain.parses import DEFAULT_DPI, ParseLimits
from docsvc.endpoints.operation import Operation, ServiceName
from docsvc.endpoints.results import Instructions
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant


class SchemaGenerate(BaseModel):
    documents: list[DocumentInput] = Field(min_length=1, max_length=10)
    model: str | None = None
    instructions: Instructions | None = None
    image_resolution_dpi: int = Field(DEFAULT_DPI, ge=96, le=300)


class GeneratedSchema(BaseModel):
    object: Literal["schema"] = "schema"
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    json_schema: dict[str, Any]
    strict: bool = True
    created_at: str


class SchemaGeneration(Operation):
    """A 201 with the generated schema, for the route and for a job."""

    path = "/v1/schemas/generate"
    body = SchemaGenerate
    task: Task = "generate_schema"
    service: ServiceName = "intelligence"

    def answer(
        self,
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
        return GeneratedSchema(environment=tenant.environment, json_schema=schema, created_at=iso(utc_now()))


SCHEMA_GENERATION = SchemaGeneration()
