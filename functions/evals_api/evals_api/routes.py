"""Routes of the extraction evals: an eval and its dataset (documents with their annotations) and
iterations, and the three operations a job can run too (extract, process, split), synchronously."""

from __future__ import annotations

from typing import Annotated, Any

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.evals import EvalService
from docsvc.domain.lists import ListQuery
from docsvc.endpoints.evals import (
    EVAL_EXTRACT,
    EVAL_PROCESS,
    EVAL_SPLIT,
    Eval,
    EvalCreate,
    EvalDocument,
    EvalDocumentCreate,
    EvalDocumentUpdate,
    EvalExtraction,
    EvalExtractRequest,
    EvalProcessRequest,
    EvalSplit,
    EvalSplitRequest,
    EvalUpdate,
    Iteration,
    IterationCreate,
)
from docsvc.endpoints.lists import ListMetadata
from docsvc.services import eval_service
from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel

router = APIRouter(prefix="/v1/evals/extract", tags=["evals"])


def evals() -> EvalService:
    """This function has no documents layer: documents are read by the document reader function."""
    return eval_service("by_reader_function")


Evals = Annotated[EvalService, Depends(evals)]
Paging = Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))]


class EvalList(BaseModel):
    data: list[Eval]
    list_metadata: ListMetadata


class EvalDocumentList(BaseModel):
    data: list[EvalDocument]
    list_metadata: ListMetadata


class IterationList(BaseModel):
    data: list[Iteration]
    list_metadata: ListMetadata


# ---------------------------------------------------------------------------- the operations
@router.post("/extract", status_code=201, response_model=EvalExtraction, summary="Extract one document")
def extract(tenant: CurrentTenant, service: Evals, body: EvalExtractRequest) -> EvalExtraction:
    """One document of an eval extracted with one iteration's settings, and scored per field against
    its annotation. The iteration is not changed."""
    return EVAL_EXTRACT.answer(service, tenant, body)


@router.post("/process", status_code=201, response_model=Iteration, summary="Run an iteration")
def process(tenant: CurrentTenant, service: Evals, body: EvalProcessRequest) -> Iteration:
    """The iteration run over the dataset (or its `split`): each document's result and the metrics,
    stored on the iteration. Synchronously at most 10 documents; more is a job (413 says so)."""
    return EVAL_PROCESS.answer(service, tenant, body)


@router.post("/split", status_code=201, response_model=EvalSplit, summary="Split the dataset")
def split(tenant: CurrentTenant, service: Evals, body: EvalSplitRequest) -> EvalSplit:
    """Each document put in the train or the test part, the same way for the same seed."""
    return EVAL_SPLIT.answer(service, tenant, body)


# ---------------------------------------------------------------------------- evals
@router.post("", status_code=201, response_model=Eval, summary="Create an eval")
def create_eval(tenant: CurrentTenant, service: Evals, body: EvalCreate) -> Eval:
    return Eval.of(service.create_eval(tenant, body.name, body.json_schema, body.inference_settings))


@router.get("", response_model=EvalList, summary="List evals")
def list_evals(tenant: CurrentTenant, service: Evals, paging: Paging) -> EvalList:
    page = service.list_evals(tenant, ListQuery(**paging))
    return EvalList(data=[Eval.of(record) for record in page.items], list_metadata=ListMetadata.of(page))


@router.get("/{eval_id}", response_model=Eval, summary="Get an eval")
def get_eval(tenant: CurrentTenant, service: Evals, eval_id: str) -> Eval:
    return Eval.of(service.get_eval(tenant, eval_id))


@router.patch("/{eval_id}", response_model=Eval, summary="Change an eval")
def update_eval(tenant: CurrentTenant, service: Evals, eval_id: str, body: EvalUpdate) -> Eval:
    record = service.update_eval(
        tenant, eval_id, name=body.name, json_schema=body.json_schema, settings=body.inference_settings
    )
    return Eval.of(record)


@router.delete("/{eval_id}", status_code=204, response_class=Response, summary="Delete an eval")
def delete_eval(tenant: CurrentTenant, service: Evals, eval_id: str) -> Response:
    """With its documents and iterations."""
    service.delete_eval(tenant, eval_id)
    return Response(status_code=204)


# ---------------------------------------------------------------------------- documents
@router.post("/{eval_id}/documents", status_code=201, response_model=EvalDocument, summary="Add a document")
def create_document(
    tenant: CurrentTenant, service: Evals, eval_id: str, body: EvalDocumentCreate
) -> EvalDocument:
    """A document and its annotation (422 naming the field of the annotation that breaks the schema)."""
    return EvalDocument.of(service.add_document(tenant, eval_id, body.document, body.annotation))


@router.get("/{eval_id}/documents", response_model=EvalDocumentList, summary="List an eval's documents")
def list_documents(tenant: CurrentTenant, service: Evals, eval_id: str, paging: Paging) -> EvalDocumentList:
    page = service.list_documents(tenant, eval_id, ListQuery(**paging))
    return EvalDocumentList(
        data=[EvalDocument.of(record) for record in page.items], list_metadata=ListMetadata.of(page)
    )


@router.get("/{eval_id}/documents/{document_id}", response_model=EvalDocument, summary="Get a document")
def get_document(tenant: CurrentTenant, service: Evals, eval_id: str, document_id: str) -> EvalDocument:
    return EvalDocument.of(service.get_document(tenant, eval_id, document_id))


@router.patch(
    "/{eval_id}/documents/{document_id}",
    response_model=EvalDocument,
    summary="Change a document's annotation",
)
def update_document(
    tenant: CurrentTenant, service: Evals, eval_id: str, document_id: str, body: EvalDocumentUpdate
) -> EvalDocument:
    record = service.update_document(
        tenant, eval_id, document_id, annotation=body.annotation, split=body.split
    )
    return EvalDocument.of(record)


@router.delete(
    "/{eval_id}/documents/{document_id}",
    status_code=204,
    response_class=Response,
    summary="Remove a document",
)
def delete_document(tenant: CurrentTenant, service: Evals, eval_id: str, document_id: str) -> Response:
    service.delete_document(tenant, eval_id, document_id)
    return Response(status_code=204)


# ---------------------------------------------------------------------------- iterations
@router.post(
    "/{eval_id}/iterations", status_code=201, response_model=Iteration, summary="Create an iteration"
)
def create_iteration(tenant: CurrentTenant, service: Evals, eval_id: str, body: IterationCreate) -> Iteration:
    """Settings to run the dataset with: the eval's defaults where the body says nothing."""
    settings = body.inference_settings.model_dump(exclude_none=True)  # null: the eval's default
    record = service.create_iteration(tenant, eval_id, json_schema=body.json_schema, settings=settings)
    return Iteration.of(record)


@router.get("/{eval_id}/iterations", response_model=IterationList, summary="List an eval's iterations")
def list_iterations(tenant: CurrentTenant, service: Evals, eval_id: str, paging: Paging) -> IterationList:
    page = service.list_iterations(tenant, eval_id, ListQuery(**paging))
    return IterationList(
        data=[Iteration.of(record) for record in page.items], list_metadata=ListMetadata.of(page)
    )


@router.get("/{eval_id}/iterations/{iteration_id}", response_model=Iteration, summary="Get an iteration")
def get_iteration(
    tenant: CurrentTenant,
    service: Evals,
    eval_id: str,
    iteration_id: str,
    include_documents: Annotated[
        bool, Query(description="Each document's extraction and scores too.")
    ] = True,
) -> Iteration:
    record = service.get_iteration(tenant, eval_id, iteration_id, with_documents=include_documents)
    return Iteration.of(record)


@router.delete(
    "/{eval_id}/iterations/{iteration_id}",
    status_code=204,
    response_class=Response,
    summary="Delete an iteration",
)
def delete_iteration(tenant: CurrentTenant, service: Evals, eval_id: str, iteration_id: str) -> Response:
    service.delete_iteration(tenant, eval_id, iteration_id)
    return Response(status_code=204)
