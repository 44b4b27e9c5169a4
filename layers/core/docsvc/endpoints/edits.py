"""POST /v1/edits, /v1/edits/templates/fill and /v1/edits/templates/generate: a PDF form filled from
instructions (or a template filled from values), and the fields of a blank form found as a template
draft. Each answers what its route answers, as a job too."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from docsvc.domain.documents import DocumentInput
from docsvc.domain.edits import (
    EditRecord,
    EditRequest,
    EditService,
    FormField,
    TemplateDraft,
    TemplateFill,
)
from docsvc.domain.models import Task
from docsvc.domain.parses import SYNCHRONOUS, ParseLimits
from docsvc.endpoints.operation import Operation, ServiceName
from docsvc.tenancy import Tenant

TemplateName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class TemplateGenerate(BaseModel):
    document: DocumentInput = Field(description="The blank form (a PDF): MIMEData {filename, url} or {id}.")
    name: TemplateName | None = Field(None, description="The draft's name; the document's name if omitted.")
    model: str | None = Field(
        None, description="Checked like an edit's; the fields are found by the form's layout and widgets."
    )


class TemplateCreate(BaseModel):
    name: TemplateName
    document: DocumentInput = Field(description="The blank form (a PDF), kept as a file of its own.")
    form_fields: list[FormField] | None = Field(
        None, description="The fields; found on the form (as /v1/edits/templates/generate does) if omitted."
    )


class TemplateUpdate(BaseModel):
    name: TemplateName | None = None
    form_fields: list[FormField] | None = None


@dataclass(frozen=True)
class EditOperation(Operation):
    """An operation of the EditService: its route and its job answer `run(service, tenant, body)`."""

    path: str
    body: type[BaseModel]
    run: Callable[[EditService, Tenant, Any, Callable[[], bool] | None, float | None], BaseModel]
    task: Task = "edit"
    service: ServiceName = "edits"

    def answer(
        self,
        service: EditService,
        tenant: Tenant,
        body: Any,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> BaseModel:
        seconds = (limits or SYNCHRONOUS).seconds  # a route's: SYNC_SECONDS; a job's: none
        return self.run(service, tenant, body, stop, seconds)


def _edit(
    service: EditService,
    tenant: Tenant,
    body: EditRequest,
    stop: Callable[[], bool] | None,
    seconds: float | None,
) -> EditRecord:
    return service.answered(tenant, service.edit(tenant, body, stop, seconds=seconds))


def _fill(
    service: EditService,
    tenant: Tenant,
    body: TemplateFill,
    stop: Callable[[], bool] | None,
    seconds: float | None,
) -> EditRecord:
    return service.answered(tenant, service.fill_template(tenant, body, stop, seconds=seconds))


def _generate(
    service: EditService,
    tenant: Tenant,
    body: TemplateGenerate,
    stop: Callable[[], bool] | None,
    seconds: float | None,
) -> TemplateDraft:
    return service.generate_template(tenant, body.document, body.name)


EDIT = EditOperation("/v1/edits", EditRequest, _edit)
TEMPLATE_FILL = EditOperation("/v1/edits/templates/fill", TemplateFill, _fill)
TEMPLATE_GENERATE = EditOperation("/v1/edits/templates/generate", TemplateGenerate, _generate)
