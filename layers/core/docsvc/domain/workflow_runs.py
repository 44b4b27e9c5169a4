"""Running a workflow: the graph of the run, block by block in topological order (spec 6).

Before any block runs, every `secret://NAME` of the graph is resolved in the run's own environment; a
missing one fails the run at once (`missing_secret`), never falling back to another environment. Each
document block runs as a job of its endpoint, with `metadata.workflow_id`, `workflow_block_id` and
`workflow_run_id`, so the jobs list finds it. A block whose inputs all stayed empty (a branch not
taken) is skipped. The run ends `completed` or `failed` with its event, in one write.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentInput
from docsvc.domain.events import new_event
from docsvc.domain.jobs import JobRecord
from docsvc.domain.workflows import BlockRun, RunError, RunInputs, WorkflowRun, WorkflowStore
from docsvc.errors import DomainError, NotFound
from docsvc.tenancy import Tenant
from docsvc.workflows.catalog import BlockSpec, evaluate_condition, secret_references, spec_of
from docsvc.workflows.graph import Block, Graph

_log = logging.getLogger(__name__)
WORKER_SECONDS = 900  # the workflow worker's Lambda timeout (template.yaml)
NOT_REQUEST_FIELDS = frozenset({"review", "output_schema"})
Values = dict[tuple[str, str], Any]  # (block id, output handle) -> what came out of it


class BlockFailed(DomainError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class DocumentJobs(Protocol):
    def run_now(
        self, tenant: Tenant, endpoint: str, request: dict[str, Any], metadata: dict[str, str]
    ) -> JobRecord:
        """Creates the job and runs it in this process; the ended job, with its response."""
        ...


class ApiAnswer(Protocol):
    @property
    def status_code(self) -> int | None: ...
    @property
    def body(self) -> bytes: ...
    @property
    def error(self) -> str | None: ...


CallApi = Callable[[str, str, bytes, dict[str, str]], ApiAnswer]  # (url, method, body, headers)
PagesOf = Callable[[Tenant, DocumentInput, list[int]], DocumentInput]  # a document of some pages only
ResolveSecret = Callable[[Tenant, str], str]  # the value of secret://NAME; NotFound if none


class WorkflowRunner:
    def __init__(
        self,
        store: WorkflowStore,
        jobs: DocumentJobs,
        resolve_secret: ResolveSecret,
        call_api: CallApi,
        pages_of: PagesOf,
    ) -> None:
        self._store = store
        self._jobs = jobs
        self._resolve_secret = resolve_secret
        self._call_api = call_api
        self._pages_of = pages_of

    def run(self, tenant: Tenant, run_id: str) -> None:
        """Runs a queued run once: only one copy of its message moves it to running."""
        run = self._store.get_run(tenant, run_id)
        inputs = self._store.run_inputs(tenant, run_id)
        if run is not None and interrupted(run):
            stopped = RunError(
                code="interrupted", message="the worker running this run stopped; start it again"
            )
            self._finish(tenant, run, run.blocks, stopped)
            return
        if run is None or inputs is None or run.status != "queued":
            return
        running = run.model_copy(update={"status": "running", "started_at": iso(utc_now())})
        if not self._store.put_run(tenant, running, None, expected="queued"):
            return
        try:
            secrets = self._secrets(tenant, inputs.graph)
            blocks, error = self._blocks(tenant, running, inputs, secrets)
        except BlockFailed as failure:
            blocks, error = {}, RunError(code=failure.code, message=failure.message)
        except Exception:
            _log.exception("workflow run failed", extra={"run_id": run_id})
            blocks, error = (
                {},
                RunError(code="internal_error", message="the run failed on a fault of the service"),
            )
        self._finish(tenant, running, blocks, error)

    def _secrets(self, tenant: Tenant, graph: Graph) -> dict[str, str]:
        names = sorted(set().union(*(secret_references(block.config or {}) for block in graph.blocks)))
        values = {}
        for name in names:
            try:
                values[name] = self._resolve_secret(tenant, name)
            except NotFound:
                raise BlockFailed(
                    "missing_secret",
                    f"the secret '{name}' does not exist in the {tenant.environment} environment; "
                    "set it there (a run never uses another environment's secrets)",
                ) from None
        return values

    def _blocks(
        self, tenant: Tenant, run: WorkflowRun, inputs: RunInputs, secrets: dict[str, str]
    ) -> tuple[dict[str, BlockRun], RunError | None]:
        values: Values = {}
        results: dict[str, BlockRun] = {}
        for block in topological(inputs.graph):
            spec = spec_of(block.type)
            if spec is None or spec.type == "note":
                continue
            received = {
                edge.target_handle: values[(edge.source_block, edge.source_handle)]
                for edge in inputs.graph.edges
                if edge.target_block == block.id and (edge.source_block, edge.source_handle) in values
            }
            if spec.inputs(block.config or {}) and not received:
                results[block.id] = BlockRun(status="skipped")
                continue
            try:
                result, outputs = self._block(tenant, run, inputs, block, spec, received, secrets)
            except DomainError as failure:
                error = RunError(code=failure.code, message=failure.message, block_id=block.id)
                results[block.id] = BlockRun(status="failed", error=error)
                return results, error
            values.update({(block.id, handle): value for handle, value in outputs.items()})
            results[block.id] = result
        return results, None

    def _block(
        self,
        tenant: Tenant,
        run: WorkflowRun,
        inputs: RunInputs,
        block: Block,
        spec: BlockSpec,
        received: dict[str, Any],
        secrets: dict[str, str],
    ) -> tuple[BlockRun, dict[str, Any]]:
        """What the block did, and what leaves each of its output handles."""
        config = block.config or {}
        if spec.type == "start_document":
            return BlockRun(status="completed"), {"output-file-0": inputs.documents[block.id].model_dump()}
        if spec.type == "start_json":
            data = inputs.json_inputs.get(block.id, {})
            return BlockRun(status="completed", outputs={"output-json-0": data}), {"output-json-0": data}
        if spec.type == "conditional":
            data = received.get("input-json-0")
            handle = "output-json-0" if evaluate_condition(config, data) else "output-json-1"
            return BlockRun(status="completed", outputs={handle: data}), {handle: data}
        if spec.type == "api_call":
            answer = self._api_call(config, received.get("input-json-0"), secrets)
            return BlockRun(status="completed", outputs={"output-json-0": answer}), {"output-json-0": answer}
        if spec.job_endpoint is None:
            raise BlockFailed("unsupported_block", f"block type '{block.type}' cannot run")
        document = received["input-file-0"]
        request = {
            "document": document,
            **{key: value for key, value in config.items() if key not in NOT_REQUEST_FIELDS},
        }
        metadata = {"workflow_id": run.workflow_id, "workflow_block_id": block.id, "workflow_run_id": run.id}
        job = self._jobs.run_now(tenant, spec.job_endpoint, request, metadata)
        if job.status != "completed" or job.response is None:
            code, message = (job.error.code, job.error.message) if job.error else ("job_failed", job.status)
            raise BlockFailed(code, f"job {job.id} ({spec.job_endpoint}) ended {job.status}: {message}")
        body = job.response.body
        data = body if spec.type == "parse" else body.get("output")  # the data, not the envelope
        outputs: dict[str, Any] = {"output-json-0": data}
        outputs.update(self._routed(tenant, spec, config, document, body))
        result = BlockRun(
            status="completed",
            outputs={"output-json-0": data},
            job_id=job.id,
            needs_review=needs_review(spec, config, body),
        )
        return result, outputs

    def _routed(
        self, tenant: Tenant, spec: BlockSpec, config: dict[str, Any], document: Any, body: Any
    ) -> dict[str, Any]:
        """The document on the file handle of the chosen category, or each subdocument's pages on its
        own handle."""
        if spec.type == "classifier":
            names = [category.get("name") for category in config.get("categories", [])]
            chosen = (body.get("output") or {}).get("category")
            return {f"output-file-{names.index(chosen)}": document} if chosen in names else {}
        if spec.type == "split":
            names = [subdocument.get("name") for subdocument in config.get("subdocuments", [])]
            pages: dict[str, list[int]] = {}
            for part in body.get("output") or []:
                pages.setdefault(part.get("name"), []).extend(part.get("pages", []))
            return {
                f"output-file-{index}": self._pages_of(
                    tenant, _document(document), sorted(pages[name])
                ).model_dump()
                for index, name in enumerate(names)
                if pages.get(name)
            }
        return {}

    def _api_call(self, config: dict[str, Any], data: Any, secrets: dict[str, str]) -> Any:
        headers = {"Content-Type": "application/json"}
        for name, value in (config.get("headers") or {}).items():
            headers[str(name)] = secrets.get(str(value).removeprefix("secret://"), str(value))
        method = str(config.get("method") or "POST").upper()
        answer = self._call_api(str(config["url"]), method, json.dumps(data).encode(), headers)
        if answer.status_code is None or not 200 <= answer.status_code < 300:
            raise BlockFailed("api_call_failed", f"{config['url']} {answer.error or 'failed'}")
        try:
            return json.loads(answer.body) if answer.body else None
        except ValueError:
            return {"text": answer.body.decode(errors="replace")}

    def _finish(
        self, tenant: Tenant, run: WorkflowRun, blocks: dict[str, BlockRun], error: RunError | None
    ) -> None:
        status = "failed" if error else "completed"
        ended = run.model_copy(
            update={"status": status, "blocks": blocks, "error": error, "finished_at": iso(utc_now())}
        )
        data = {
            "id": run.id,
            "workflow_id": run.workflow_id,
            "version": run.version,
            "status": status,
            "error": error.model_dump() if error else None,
        }
        event = new_event(tenant, f"workflow.run.{status}", data)
        self._store.put_run(tenant, ended, None, expected="running", event=event)


def interrupted(run: WorkflowRun) -> bool:
    """A run still `running` after a worker's whole time: its worker died, and its message came back."""
    if run.status != "running" or run.started_at is None:
        return False
    started = datetime.fromisoformat(run.started_at.replace("Z", "+00:00"))
    return (utc_now() - started).total_seconds() > WORKER_SECONDS


def needs_review(spec: BlockSpec, config: dict[str, Any], body: Any) -> bool:
    """Whether the block's review gate holds for this result (`review: {enabled, predicate}`)."""
    review = config.get("review") or {}
    predicate = review.get("predicate")
    if not review.get("enabled") or not isinstance(predicate, dict):
        return False
    signals = signals_of(spec, body)
    condition = {"field": predicate.get("signal"), **{k: v for k, v in predicate.items() if k != "signal"}}
    return evaluate_condition(condition, signals)


def signals_of(spec: BlockSpec, body: Any) -> dict[str, Any]:
    """The review signals of a block's result: an extraction's lowest likelihood, a classification's
    category, a split's number of parts."""
    if spec.type == "extract":
        likelihoods = list((body.get("likelihoods") or {}).values())
        return {"likelihood": min(likelihoods) if likelihoods else 0.0}
    if spec.type == "classifier":
        return {"category": (body.get("output") or {}).get("category")}
    if spec.type == "split":
        return {"part_count": len(body.get("output") or [])}
    return {}


def topological(graph: Graph) -> list[Block]:
    """The blocks, each after every block that feeds it (a diagnosed graph has no cycle)."""
    by_id = {block.id: block for block in graph.blocks}
    waiting = {block.id: 0 for block in graph.blocks}
    for edge in graph.edges:
        if edge.source_block in by_id and edge.target_block in by_id:
            waiting[edge.target_block] += 1
    ready = [block.id for block in graph.blocks if waiting[block.id] == 0]
    order: list[Block] = []
    while ready:
        current = ready.pop(0)
        order.append(by_id[current])
        for edge in graph.edges:
            if edge.source_block == current and edge.target_block in waiting:
                waiting[edge.target_block] -= 1
                if waiting[edge.target_block] == 0:
                    ready.append(edge.target_block)
    return order


def _document(value: Any) -> DocumentInput:
    from pydantic import TypeAdapter

    adapter: TypeAdapter[DocumentInput] = TypeAdapter(DocumentInput)
    return adapter.validate_python(value)
