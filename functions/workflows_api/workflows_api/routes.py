"""Routes of /v1/workflows (spec 2.8, 4.7). Everything is the calling key's environment's; another
environment's ids answer 404."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from docsvc.api.app import error_response
from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.documents import DocumentInput
from docsvc.domain.lists import ListQuery
from docsvc.domain.promotion import Promotion, PromotionService
from docsvc.domain.workflows import Workflow, WorkflowRun, WorkflowService
from docsvc.endpoints.lists import ListMetadata
from docsvc.services import promotion_service, workflow_service
from docsvc.workflows.diagnosis import Diagnosis
from docsvc.workflows.graph import MAX_BLOCKS, MAX_EDGES, Block, Edge, Graph
from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

router = APIRouter(prefix="/v1/workflows", tags=["workflows"])
Workflows = Annotated[WorkflowService, Depends(workflow_service)]
Promotions = Annotated[PromotionService, Depends(promotion_service)]
Paging = Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class WorkflowCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    description: str | None = Field(None, max_length=2_000)
    blocks: list[Block] = Field(default_factory=list, max_length=MAX_BLOCKS)
    edges: list[Edge] = Field(default_factory=list, max_length=MAX_EDGES)


class WorkflowChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name | None = None
    description: str | None = Field(None, max_length=2_000)


class DiagnoseRequest(BaseModel):
    blocks: list[Block] | None = Field(None, max_length=MAX_BLOCKS)
    edges: list[Edge] | None = Field(None, max_length=MAX_EDGES)
    re_propagate: bool = True


class RunCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    documents: dict[str, DocumentInput] = Field(
        default_factory=dict, description="A document for each start_document block, by block id."
    )
    json_inputs: dict[str, Any] = Field(default_factory=dict, description="JSON for each start_json block.")
    version: Literal["draft", "published"] | int = "published"


class WorkflowList(BaseModel):
    data: list[Workflow]
    list_metadata: ListMetadata


class RunList(BaseModel):
    data: list[WorkflowRun]
    list_metadata: ListMetadata


@router.post("", status_code=201, response_model=Workflow, summary="Create a workflow (with a draft graph)")
def create_workflow(tenant: CurrentTenant, workflows: Workflows, body: WorkflowCreate) -> Workflow:
    return workflows.create(tenant, body.name, body.description, Graph(blocks=body.blocks, edges=body.edges))


@router.get("", response_model=WorkflowList, summary="The environment's workflows")
def list_workflows(tenant: CurrentTenant, workflows: Workflows, paging: Paging) -> WorkflowList:
    page = workflows.list(tenant, ListQuery(**paging))
    return WorkflowList(data=page.items, list_metadata=ListMetadata.of(page))


@router.get("/runs/{run_id}", response_model=WorkflowRun, summary="One run")
def get_run(tenant: CurrentTenant, workflows: Workflows, run_id: str) -> WorkflowRun:
    return workflows.get_run(tenant, run_id)


@router.delete("/runs/{run_id}", status_code=204, response_class=Response, summary="Delete an ended run")
def delete_run(tenant: CurrentTenant, workflows: Workflows, run_id: str) -> Response:
    """The run and its inputs; a queued or running run is a 409 until it ends."""
    workflows.delete_run(tenant, run_id)
    return Response(status_code=204)


@router.get("/{workflow_id}", response_model=Workflow, summary="One workflow")
def get_workflow(tenant: CurrentTenant, workflows: Workflows, workflow_id: str) -> Workflow:
    return workflows.get(tenant, workflow_id)


@router.patch("/{workflow_id}", response_model=Workflow, summary="Rename or describe a workflow")
def update_workflow(
    tenant: CurrentTenant, workflows: Workflows, workflow_id: str, body: WorkflowChange
) -> Workflow:
    return workflows.update(tenant, workflow_id, body.model_dump(exclude_unset=True))


@router.delete("/{workflow_id}", status_code=204, response_class=Response, summary="Delete a workflow")
def delete_workflow(tenant: CurrentTenant, workflows: Workflows, workflow_id: str) -> Response:
    workflows.delete(tenant, workflow_id)
    return Response(status_code=204)


@router.get("/{workflow_id}/graph", response_model=Graph, summary="The draft graph")
def get_graph(tenant: CurrentTenant, workflows: Workflows, workflow_id: str) -> Graph:
    return workflows.graph(tenant, workflow_id)


@router.put("/{workflow_id}/graph", response_model=Graph, summary="Replace the draft graph")
def put_graph(tenant: CurrentTenant, workflows: Workflows, workflow_id: str, body: Graph) -> Graph:
    return workflows.set_graph(tenant, workflow_id, body)


@router.post(
    "/{workflow_id}/diagnose-graph", response_model=Diagnosis, summary="Check a graph before publishing"
)
def diagnose_graph(
    tenant: CurrentTenant, workflows: Workflows, workflow_id: str, body: DiagnoseRequest | None = None
) -> Diagnosis:
    request = body or DiagnoseRequest()
    return workflows.diagnose_request(
        tenant, workflow_id, request.blocks, request.edges, request.re_propagate
    )


@router.post("/{workflow_id}/publish", response_model=Workflow, summary="Publish the draft as a new version")
def publish(tenant: CurrentTenant, workflows: Workflows, workflow_id: str) -> Workflow:
    return workflows.publish(tenant, workflow_id)


@router.post("/{workflow_id}/runs", status_code=202, response_model=WorkflowRun, summary="Run a workflow")
def start_run(tenant: CurrentTenant, workflows: Workflows, workflow_id: str, body: RunCreate) -> WorkflowRun:
    return workflows.start_run(tenant, workflow_id, body.documents, body.json_inputs, body.version)


@router.get("/{workflow_id}/runs", response_model=RunList, summary="A workflow's runs")
def list_runs(tenant: CurrentTenant, workflows: Workflows, workflow_id: str, paging: Paging) -> RunList:
    page = workflows.runs(tenant, workflow_id, ListQuery(**paging))
    return RunList(data=page.items, list_metadata=ListMetadata.of(page))


@router.post(
    "/{workflow_id}/promotions",
    status_code=201,
    response_model=Promotion,
    summary="Promote a test workflow's draft to production (production key only)",
    description="`workflow_id` is the test workflow's. Its draft graph becomes the draft of its production "
    "pair (created on the first promotion). The answer names the secrets the graph refers to that "
    "production lacks, and the URLs production could not reach. A test key is refused (403).",
    responses={
        403: error_response("A test key: promotion writes to production, so it needs a production key.")
    },
)
def promote(tenant: CurrentTenant, promotions: Promotions, workflow_id: str) -> Promotion:
    return promotions.promote(tenant, workflow_id)
