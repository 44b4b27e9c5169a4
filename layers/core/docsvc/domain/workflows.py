"""Workflows (spec 2.8, 4.7): a draft graph per workflow, diagnosed before it is published as a numbered
version, and runs of a version in the background. Everything is the tenant's: a test key never reads,
changes or runs a production workflow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, get_args

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentInput
from docsvc.domain.events import Event
from docsvc.domain.lists import ListQuery, Page
from docsvc.errors import BadRequest, Conflict, InvalidField, NotFound
from docsvc.ids import new_id
from docsvc.tenancy import Environment, Tenant
from docsvc.workflows.catalog import spec_of
from docsvc.workflows.diagnosis import Diagnosis, diagnose
from docsvc.workflows.graph import Block, Edge, Graph

RunStatus = Literal["queued", "running", "completed", "failed"]
RUN_STATUSES: tuple[str, ...] = get_args(RunStatus)
ENDED_RUNS: frozenset[str] = frozenset({"completed", "failed"})
Version = int | Literal["draft"]
START_TYPES = frozenset({"start_document", "start_json"})


class Workflow(BaseModel):
    id: str
    name: str
    description: str | None = None
    environment: Environment
    published_version: int | None = None
    published_at: str | None = None
    promoted_from: str | None = None  # the test workflow this production one was promoted from
    promoted_to: str | None = None  # the production workflow this test one was promoted to
    created_at: str
    updated_at: str


class RunError(BaseModel):
    code: str
    message: str
    block_id: str | None = None


class BlockRun(BaseModel):
    """What one block of a run did: its JSON outputs by handle, the job that did the work."""

    status: Literal["completed", "failed", "skipped"]
    outputs: dict[str, Any] = Field(default_factory=dict)
    job_id: str | None = None
    needs_review: bool = False
    error: RunError | None = None


class WorkflowRun(BaseModel):
    id: str
    workflow_id: str
    version: Version
    status: RunStatus
    environment: Environment
    blocks: dict[str, BlockRun] = Field(default_factory=dict)
    error: RunError | None = None
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None


class RunInputs(BaseModel):
    graph: Graph
    documents: dict[str, DocumentInput] = Field(default_factory=dict)
    json_inputs: dict[str, Any] = Field(default_factory=dict)


class GraphHasErrors(BadRequest):
    def __init__(self, message: str, diagnosis: Diagnosis) -> None:
        super().__init__(message)
        self.extra = {
            "issues": [issue.model_dump() for issue in diagnosis.issues if issue.severity == "error"]
        }


class WorkflowStore(Protocol):
    def put_workflow(self, tenant: Tenant, workflow: Workflow, *, new: bool) -> bool: ...
    def get_workflow(self, tenant: Tenant, workflow_id: str) -> Workflow | None: ...
    def workflows(self, tenant: Tenant, query: ListQuery) -> Page[Workflow]: ...
    def delete_workflow(self, tenant: Tenant, workflow_id: str) -> bool: ...
    def put_graph(self, tenant: Tenant, workflow_id: str, graph: Graph, version: int | None) -> None: ...
    def get_graph(self, tenant: Tenant, workflow_id: str, version: int | None) -> Graph | None: ...

    def put_run(
        self,
        tenant: Tenant,
        run: WorkflowRun,
        inputs: RunInputs | None,
        *,
        expected: RunStatus | None,
        event: Event | None = None,
    ) -> bool:
        """Writes `run` if the stored one has status `expected` (None: if there is none), with `event`
        in the same transaction; False otherwise."""
        ...

    def get_run(self, tenant: Tenant, run_id: str) -> WorkflowRun | None: ...
    def run_inputs(self, tenant: Tenant, run_id: str) -> RunInputs | None: ...
    def runs(self, tenant: Tenant, workflow_id: str, query: ListQuery) -> Page[WorkflowRun]: ...

    def delete_run(self, tenant: Tenant, run_id: str, ended: frozenset[str]) -> bool:
        """Delete the run and its S3 objects if its status is one of `ended`; False otherwise."""
        ...


SecretExists = Callable[[Tenant, str], bool]
Enqueue = Callable[[Tenant, str], None]


class WorkflowService:
    def __init__(self, store: WorkflowStore, secret_exists: SecretExists, enqueue: Enqueue) -> None:
        self._store = store
        self._secret_exists = secret_exists
        self._enqueue = enqueue

    # ------------------------------------------------------------------ workflows
    def create(
        self,
        tenant: Tenant,
        name: str,
        description: str | None = None,
        graph: Graph | None = None,
        *,
        promoted_from: str | None = None,
    ) -> Workflow:
        now = iso(utc_now())
        workflow = Workflow(
            id=new_id("wf"),
            name=name,
            description=description,
            environment=tenant.environment,
            promoted_from=promoted_from,
            created_at=now,
            updated_at=now,
        )
        self._store.put_graph(tenant, workflow.id, graph or Graph(), None)
        self._store.put_workflow(tenant, workflow, new=True)
        return workflow

    def get(self, tenant: Tenant, workflow_id: str) -> Workflow:
        workflow = self._store.get_workflow(tenant, workflow_id)
        if workflow is None:
            raise NotFound(f"no workflow '{workflow_id}'")
        return workflow

    def list(self, tenant: Tenant, query: ListQuery) -> Page[Workflow]:
        query.check()
        return self._store.workflows(tenant, query)

    def update(self, tenant: Tenant, workflow_id: str, changes: dict[str, Any]) -> Workflow:
        current = self.get(tenant, workflow_id)
        fields: dict[str, Any] = {key: changes[key] for key in ("name", "description") if key in changes}
        if "name" in fields and not (fields["name"] or "").strip():
            raise InvalidField(("body", "name"), "a workflow needs a name; it cannot be null or blank")
        workflow = current.model_copy(update={**fields, "updated_at": iso(utc_now())})
        if not self._store.put_workflow(tenant, workflow, new=False):
            raise NotFound(f"no workflow '{workflow_id}'")
        return workflow

    def pair(self, tenant: Tenant, workflow_id: str, promoted_to: str) -> None:
        """Remembers the production workflow a test one was promoted to."""
        workflow = self.get(tenant, workflow_id)
        self._store.put_workflow(tenant, workflow.model_copy(update={"promoted_to": promoted_to}), new=False)

    def delete(self, tenant: Tenant, workflow_id: str) -> None:
        if not self._store.delete_workflow(tenant, workflow_id):
            raise NotFound(f"no workflow '{workflow_id}'")

    # ------------------------------------------------------------------ the draft graph
    def graph(self, tenant: Tenant, workflow_id: str) -> Graph:
        self.get(tenant, workflow_id)
        return self._store.get_graph(tenant, workflow_id, None) or Graph()

    def set_graph(self, tenant: Tenant, workflow_id: str, graph: Graph) -> Graph:
        workflow = self.get(tenant, workflow_id)
        self._store.put_graph(tenant, workflow_id, graph, None)
        self._store.put_workflow(
            tenant, workflow.model_copy(update={"updated_at": iso(utc_now())}), new=False
        )
        return graph

    def diagnose_request(
        self,
        tenant: Tenant,
        workflow_id: str,
        blocks: Sequence[Block] | None,
        edges: Sequence[Edge] | None,
        re_propagate: bool = True,
    ) -> Diagnosis:
        """`POST …/diagnose-graph` (spec 4.7): the blocks and edges given, or the stored draft when the
        body gives neither."""
        given = None
        if blocks is not None or edges is not None:
            given = Graph(blocks=[*(blocks or ())], edges=[*(edges or ())])
        return self.diagnose(tenant, workflow_id, given, re_propagate)

    def diagnose(
        self, tenant: Tenant, workflow_id: str, graph: Graph | None = None, re_propagate: bool = True
    ) -> Diagnosis:
        """The given graph, or the stored draft when none is given."""
        subject = graph if graph is not None else self.graph(tenant, workflow_id)
        if graph is not None:
            self.get(tenant, workflow_id)
        return diagnose(
            subject, re_propagate=re_propagate, secret_exists=lambda name: self._secret_exists(tenant, name)
        )

    def publish(self, tenant: Tenant, workflow_id: str) -> Workflow:
        """The draft becomes the next version; refused (400 with the issues) while it has an error."""
        workflow = self.get(tenant, workflow_id)
        graph = self.graph(tenant, workflow_id)
        diagnosis = self.diagnose(tenant, workflow_id, graph)
        if not diagnosis.is_valid:
            raise GraphHasErrors(_errors_message(diagnosis), diagnosis)
        version = (workflow.published_version or 0) + 1
        self._store.put_graph(tenant, workflow_id, graph, version)
        now = iso(utc_now())
        published = workflow.model_copy(
            update={"published_version": version, "published_at": now, "updated_at": now}
        )
        self._store.put_workflow(tenant, published, new=False)
        return published

    # ------------------------------------------------------------------ runs
    def start_run(
        self,
        tenant: Tenant,
        workflow_id: str,
        documents: dict[str, DocumentInput],
        json_inputs: dict[str, Any] | None = None,
        version: Literal["draft", "published"] | int = "published",
    ) -> WorkflowRun:
        """A run of the published version (or the draft), queued for the workflow worker."""
        workflow = self.get(tenant, workflow_id)
        chosen: Version
        if version == "published":
            if workflow.published_version is None:
                raise BadRequest("this workflow has no published version; publish it, or run the draft")
            chosen = workflow.published_version
        else:
            chosen = version
        graph = self._store.get_graph(tenant, workflow_id, None if chosen == "draft" else int(chosen))
        if graph is None:
            raise NotFound(f"workflow '{workflow_id}' has no version {chosen}")
        diagnosis = self.diagnose(tenant, workflow_id, graph)
        if not diagnosis.is_valid:
            raise GraphHasErrors(_errors_message(diagnosis), diagnosis)
        inputs = RunInputs(graph=graph, documents=documents, json_inputs=json_inputs or {})
        _check_inputs(inputs)
        run = WorkflowRun(
            id=new_id("run"),
            workflow_id=workflow_id,
            version=chosen,
            status="queued",
            environment=tenant.environment,
            created_at=iso(utc_now()),
        )
        self._store.put_run(tenant, run, inputs, expected=None)
        self._enqueue(tenant, run.id)
        return run

    def get_run(self, tenant: Tenant, run_id: str) -> WorkflowRun:
        run = self._store.get_run(tenant, run_id)
        if run is None:
            raise NotFound(f"no workflow run '{run_id}'")
        return run

    def delete_run(self, tenant: Tenant, run_id: str) -> None:
        """An ended run with its inputs; a queued or running one is a 409 until it ends. The jobs of
        its blocks are jobs of the environment, deleted as jobs."""
        run = self.get_run(tenant, run_id)
        if run.status not in ENDED_RUNS or not self._store.delete_run(tenant, run_id, ENDED_RUNS):
            raise Conflict(
                f"workflow run '{run_id}' is {self.get_run(tenant, run_id).status}; wait until it ends"
            )

    def runs(self, tenant: Tenant, workflow_id: str, query: ListQuery) -> Page[WorkflowRun]:
        self.get(tenant, workflow_id)
        query.check()
        return self._store.runs(tenant, workflow_id, query)


def _check_inputs(inputs: RunInputs) -> None:
    """Every start block has its input, and no input names a block that is not a start block."""
    starts = {block.id: spec_of(block.type) for block in inputs.graph.blocks}
    documents = {block_id for block_id, spec in starts.items() if spec and spec.type == "start_document"}
    json_starts = {block_id for block_id, spec in starts.items() if spec and spec.type == "start_json"}
    for block_id in sorted(documents - set(inputs.documents)):
        raise InvalidField(("body", "documents", block_id), f"start block '{block_id}' needs a document")
    for block_id in sorted(set(inputs.documents) - documents):
        raise InvalidField(("body", "documents", block_id), f"'{block_id}' is not a start_document block")
    for block_id in sorted(set(inputs.json_inputs) - json_starts):
        raise InvalidField(("body", "json_inputs", block_id), f"'{block_id}' is not a start_json block")


def _errors_message(diagnosis: Diagnosis) -> str:
    errors = [issue for issue in diagnosis.issues if issue.severity == "error"]
    first = "; ".join(issue.message for issue in errors[:3])
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return f"the graph has {len(errors)} error(s): {first}{more}"
