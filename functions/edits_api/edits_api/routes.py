"""Routes of the edits: fill a form (from a document or a template), read, list and delete the edits;
keep blank forms as templates, find a form's fields as a template draft, fill a template."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.edits import (
    EditQuery,
    EditRecord,
    EditRequest,
    EditService,
    EditTemplate,
    TemplateDraft,
    TemplateFill,
    TemplateQuery,
)
from docsvc.endpoints.edits import (
    EDIT,
    TEMPLATE_FILL,
    TEMPLATE_GENERATE,
    TemplateCreate,
    TemplateGenerate,
    TemplateUpdate,
)
from docsvc.endpoints.lists import ListMetadata
from docsvc.services import edit_service
from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel

router = APIRouter(prefix="/v1/edits", tags=["edits"])


def edits() -> EditService:
    """This function has no documents layer: forms are read and filled by the document reader."""
    return edit_service("by_reader_function")


Edits = Annotated[EditService, Depends(edits)]
Paging = Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))]


class EditList(BaseModel):
    object: Literal["list"] = "list"
    data: list[EditRecord]
    list_metadata: ListMetadata


class TemplateList(BaseModel):
    object: Literal["list"] = "list"
    data: list[EditTemplate]
    list_metadata: ListMetadata


# ---------------------------------------------------------------------------- templates
@router.post(
    "/templates/generate", status_code=201, response_model=TemplateDraft, summary="Find a form's fields"
)
def generate_template(tenant: CurrentTenant, service: Edits, body: TemplateGenerate) -> Any:
    """The fields of a blank form (widgets, blanks, boxes, checkboxes, with their labels) as a draft of
    its template; nothing is stored."""
    return TEMPLATE_GENERATE.answer(service, tenant, body)


@router.post("/templates/fill", status_code=201, response_model=EditRecord, summary="Fill a template")
def fill_template(tenant: CurrentTenant, service: Edits, body: TemplateFill) -> Any:
    """An edit of a template's blank form: values from `data` (by field key) and from `instructions`."""
    return TEMPLATE_FILL.answer(service, tenant, body)


@router.post(
    "/templates", status_code=201, response_model=EditTemplate, summary="Keep a blank form as a template"
)
def create_template(tenant: CurrentTenant, service: Edits, body: TemplateCreate) -> EditTemplate:
    return service.create_template(tenant, body.name, body.document, body.form_fields)


@router.get("/templates", response_model=TemplateList, summary="The environment's edit templates")
def list_templates(
    tenant: CurrentTenant,
    service: Edits,
    paging: Paging,
    name: Annotated[str | None, Query(description="Part of the name.", max_length=200)] = None,
) -> TemplateList:
    page = service.list_templates(tenant, TemplateQuery(**paging, name=name or None))
    return TemplateList(data=page.items, list_metadata=ListMetadata.of(page))


@router.get("/templates/{template_id}", response_model=EditTemplate, summary="A template with its fields")
def get_template(tenant: CurrentTenant, service: Edits, template_id: str) -> EditTemplate:
    return service.get_template(tenant, template_id)


@router.patch(
    "/templates/{template_id}", response_model=EditTemplate, summary="Rename a template or change its fields"
)
def update_template(
    tenant: CurrentTenant, service: Edits, template_id: str, body: TemplateUpdate
) -> EditTemplate:
    return service.update_template(tenant, template_id, body.name, body.form_fields)


@router.delete(
    "/templates/{template_id}", status_code=204, response_class=Response, summary="Delete a template"
)
def delete_template(tenant: CurrentTenant, service: Edits, template_id: str) -> Response:
    service.delete_template(tenant, template_id)
    return Response(status_code=204)


# ---------------------------------------------------------------------------- edits
@router.post("", status_code=201, response_model=EditRecord, summary="Fill a form from instructions")
def create_edit(tenant: CurrentTenant, service: Edits, body: EditRequest) -> Any:
    """Exactly one of `document` (a PDF form) and `template_id`. The answer has each field with its
    value and box, and the filled PDF (fields still editable where the form had them)."""
    return EDIT.answer(service, tenant, body)


@router.get("", response_model=EditList, summary="List edits")
def list_edits(
    tenant: CurrentTenant,
    service: Edits,
    paging: Paging,
    filename: Annotated[
        str | None, Query(description="Filled document's name prefix.", max_length=255)
    ] = None,
    template_id: Annotated[str | None, Query(description="Edits of this template.", max_length=64)] = None,
) -> EditList:
    """Newest first; the filled documents are not included (get an edit for its document)."""
    page = service.list_edits(
        tenant, EditQuery(**paging, filename=filename or None, template_id=template_id or None)
    )
    return EditList(data=page.items, list_metadata=ListMetadata.of(page))


@router.get("/{edit_id}", response_model=EditRecord, summary="Get an edit with its filled document")
def get_edit(tenant: CurrentTenant, service: Edits, edit_id: str) -> EditRecord:
    return service.answered(tenant, service.get(tenant, edit_id))


@router.post(
    "/{edit_id}/cancel", response_model=EditRecord, summary="Cancel an edit (one in progress is a job)"
)
def cancel_edit(tenant: CurrentTenant, service: Edits, edit_id: str) -> EditRecord:
    return service.cancel(tenant, edit_id)


@router.delete(
    "/{edit_id}", status_code=204, response_class=Response, summary="Delete an edit and its filled document"
)
def delete_edit(tenant: CurrentTenant, service: Edits, edit_id: str) -> Response:
    service.delete(tenant, edit_id)
    return Response(status_code=204)
