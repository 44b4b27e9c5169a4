"""Jobs: the work of a job endpoint, run in the background and polled (spec 2.3, 3.2, 4.2).

validating -> queued -> in_progress -> completed | failed | cancelled, and expired for a job that is
not terminal at `expires_at`. Every move is a conditional write from the states the new one may be
entered from (`ENTERED_FROM`), so however often and in whatever order SQS delivers, no state is
skipped, moved backwards or left twice. A retry takes a failed, cancelled or expired job back to
validating, with the same id and a fresh `expires_at`. Times are integer Unix seconds.

The worker runs the same domain service as the job's endpoint (an `EndpointRunner`), never the HTTP
API, and `response.body` is what that endpoint answers.

A job's request and response are kept until its `expires_at`: the sweeper then removes them (from the
table and from S3), and the record of the job (its status, times, error and metadata) stays
RECORD_KEPT_SECONDS more before DynamoDB's TTL deletes it. A job is deleted on request once it has ended.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args

from pydantic import BaseModel, Field

from docsvc.document_types import MIME_TYPES
from docsvc.domain.events import Event, new_event
from docsvc.domain.lists import ListQuery, Page
from docsvc.errors import BadRequest, Conflict, DomainError, InvalidField, InvalidRequest, NotFound, Stopped
from docsvc.ids import new_id
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

JobStatus = Literal["validating", "queued", "in_progress", "completed", "failed", "cancelled", "expired"]
JobSource = Literal["api", "project", "workflow"]
JobEndpoint = Literal[
    "/v1/extractions",
    "/v1/parses",
    "/v1/splits",
    "/v1/partitions",
    "/v1/classifications",
    "/v1/schemas/generate",
    "/v1/edits",
    "/v1/edits/templates/fill",
    "/v1/edits/templates/generate",
    "/v1/evals/extract/process",
    "/v1/evals/extract/extract",
    "/v1/evals/extract/split",
]
JOB_ENDPOINTS: tuple[str, ...] = get_args(JobEndpoint)
UNFINISHED: frozenset[str] = frozenset({"validating", "queued", "in_progress"})
RETRYABLE: frozenset[str] = frozenset({"failed", "cancelled", "expired"})
TERMINAL: frozenset[str] = frozenset({"completed"}) | RETRYABLE
# The states each state may be entered from: the condition of every write that moves a job.
ENTERED_FROM: dict[str, frozenset[str]] = {
    "validating": RETRYABLE,  # a retry
    "queued": frozenset({"validating"}),
    "in_progress": frozenset({"queued"}),
    "completed": frozenset({"in_progress"}),
    "failed": UNFINISHED,
    "cancelled": UNFINISHED,
    "expired": UNFINISHED,
}
EXPIRES_AFTER_SECONDS = 7 * 24 * 3600
IDEMPOTENCY_SECONDS = 24 * 3600
WORKER_SECONDS = 900  # the job worker's Lambda timeout (template.yaml)
SWEEP_EVERY_SECONDS = 300  # the sweeper's schedule (template.yaml)
SWEEP_LOOKBACK_SECONDS = 30 * 24 * 3600  # a sweeper stopped for weeks still expires what it missed
STRANDED_AFTER_SECONDS = 900  # a job still validating or queued after this long was never sent
MAX_INCLUDED_RESPONSES = 20
RECORD_KEPT_SECONDS = 30 * 24 * 3600  # a job's record (without its data) after its expires_at
_log = logging.getLogger(__name__)


class JobError(BaseModel):
    code: str
    message: str


class JobResponse(BaseModel):
    status_code: int
    body: Any


class RequestFacts(BaseModel):
    """What the list filters read from a job's request, kept with the job so a list never loads it."""

    model: str | None = None
    project_id: str | None = None
    filenames: list[str] = Field(default_factory=list)


class JobRecord(BaseModel):
    id: str
    organization_id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    endpoint: str
    status: JobStatus
    request: dict[str, Any] | None = None  # loaded only when asked for
    response: JobResponse | None = None  # likewise
    error: JobError | None = None
    metadata: dict[str, str] | None = None
    created_at: int
    started_at: int | None = None
    completed_at: int | None = None
    expires_at: int
    facts: RequestFacts = Field(default_factory=RequestFacts)

    @property
    def workflow_id(self) -> str | None:
        return (self.metadata or {}).get("workflow_id")

    @property
    def workflow_block_id(self) -> str | None:
        metadata = self.metadata or {}
        return metadata.get("workflow_block_id") or metadata.get("block_id")


class JobQuery(ListQuery):
    limit: int = 20
    id: str | None = None
    status: JobStatus | None = None
    endpoint: str | None = None
    source: JobSource | None = None
    project_id: str | None = None
    workflow_id: str | None = None
    workflow_block_id: str | None = None
    model: str | None = None
    filename_regex: str | None = None
    filename_contains: str | None = None
    document_types: list[str] = Field(default_factory=list)
    metadata: dict[str, str] | None = None
    include_request: bool = False
    include_response: bool = False

    def filters(self) -> frozenset[str]:
        """The names of the filters this query sets (beyond cursors, order and dates)."""
        return frozenset(name for name in _FILTERS if getattr(self, name))

    def check(self) -> None:
        super().check()
        unknown = sorted({kind for kind in self.document_types if kind.lower() not in MIME_TYPES})
        if unknown:
            raise InvalidField(
                ("query", "document_type"),
                f"unknown document_type {', '.join(unknown)}; accepted: {', '.join(sorted(MIME_TYPES))}",
            )
        if self.include_response and self.limit > MAX_INCLUDED_RESPONSES:
            raise InvalidField(
                ("query", "include_response"),
                f"include_response needs limit {MAX_INCLUDED_RESPONSES} or less (responses can be large)",
            )


_FILTERS = (
    "id",
    "status",
    "endpoint",
    "source",
    "project_id",
    "workflow_id",
    "workflow_block_id",
    "model",
    "filename_regex",
    "filename_contains",
    "document_types",
    "metadata",
)


@dataclass(frozen=True)
class IdempotencyClaim:
    """An `Idempotency-Key` taken by a job for IDEMPOTENCY_SECONDS, with the hash of its body."""

    key: str
    job_id: str
    body_sha256: str
    expires_at: int


class EndpointRunner(Protocol):
    """A job endpoint's service, as the job worker calls it."""

    def validate(self, request: dict[str, Any]) -> None:
        """Refuse a body the endpoint would refuse: InvalidRequest or InvalidField (a 422)."""
        ...

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        """What the endpoint answers for `request`; DomainError for what it answers with a 4xx. Asks
        `stop` at safe points and raises Stopped when it says so."""
        ...


class JobRepository(Protocol):
    def create(
        self, tenant: Tenant, job: JobRecord, claim: IdempotencyClaim | None
    ) -> IdempotencyClaim | None:
        """Store a new job with its request, and its idempotency claim in the same write. When the key is
        already claimed (and the claim is younger than a day), nothing is written and that claim is
        returned."""
        ...

    def get(
        self, tenant: Tenant, job_id: str, *, with_request: bool = False, with_response: bool = False
    ) -> JobRecord | None: ...

    def status(self, tenant: Tenant, job_id: str) -> str | None: ...

    def move(self, tenant: Tenant, job: JobRecord, event: Event | None = None) -> bool:
        """Store the job's state (status, error, response, times) only if the stored job is in one of
        the states `job.status` may be entered from; False otherwise. The request is never rewritten."""
        ...

    def list(self, tenant: Tenant, query: JobQuery, keep: Callable[[JobRecord], bool]) -> Page[JobRecord]:
        """A page of the jobs `keep` accepts, read by the key or index that fits the query best."""
        ...

    def unfinished(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str, str]]:
        """(tenant, id, status) of every tenant's unfinished jobs whose `expires_at` lies in the range."""
        ...

    def holding_data(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str]]:
        """(tenant, id) of every tenant's jobs that still hold their request and response and whose
        `expires_at` lies in the range."""
        ...

    def forget_data(self, tenant: Tenant, job_id: str, now: int) -> bool:
        """Remove the job's request and response (and what they keep in S3) if it has ended and its
        `expires_at` is at or before `now`; False otherwise."""
        ...

    def delete(self, tenant: Tenant, job_id: str) -> bool:
        """Delete an ended job with its request and response; False if there is no such ended job."""
        ...


Enqueue = Callable[[Tenant, str], None]


class JobService:
    def __init__(
        self, repository: JobRepository, runners: Mapping[str, EndpointRunner], enqueue: Enqueue
    ) -> None:
        self._repository = repository
        self._runners = runners
        self._enqueue = enqueue

    # ------------------------------------------------------------------ creating
    def create(
        self,
        tenant: Tenant,
        endpoint: str,
        request: dict[str, Any],
        metadata: dict[str, str] | None,
        idempotency_key: str | None = None,
        *,
        enqueue: bool = True,
    ) -> tuple[JobRecord, bool]:
        """A new job, validated and queued (or failed, when its endpoint refuses the request). With an
        idempotency key seen in the last day: the job it created (True), or 409 for another body."""
        now = _now()
        job = JobRecord(
            id=new_id("job"),
            organization_id=tenant.organization_id,
            environment=tenant.environment,
            endpoint=endpoint,
            status="validating",
            request=request,
            metadata=metadata,
            created_at=now,
            expires_at=now + EXPIRES_AFTER_SECONDS,
            facts=facts_of(request),
        )
        claim = None
        if idempotency_key is not None:
            body = {"endpoint": endpoint, "request": request, "metadata": metadata}
            claim = IdempotencyClaim(idempotency_key, job.id, _sha256(body), now + IDEMPOTENCY_SECONDS)
        holder = self._repository.create(tenant, job, claim)
        if holder is not None:
            assert claim is not None
            if holder.body_sha256 != claim.body_sha256:
                raise Conflict(
                    "this Idempotency-Key was used in the last 24 hours with another body; "
                    "use a new key for a new job"
                )
            return self.get(tenant, holder.job_id), True
        return _as_got(self._validate(tenant, job, enqueue)), False

    def run_now(
        self, tenant: Tenant, endpoint: str, request: dict[str, Any], metadata: dict[str, str]
    ) -> JobRecord:
        """A job made and run in this process (a workflow's block), ended, with its response."""
        job, _ = self.create(tenant, endpoint, request, metadata, enqueue=False)
        if job.status == "queued":
            self.run(tenant, job.id)
        return self.get(tenant, job.id, with_response=True)

    def _validate(self, tenant: Tenant, job: JobRecord, enqueue: bool = True) -> JobRecord:
        """validating -> queued and sent to the worker; or failed, when the endpoint refuses the body."""
        runner = self._runners.get(job.endpoint)
        if runner is None:
            return self._end(tenant, job, "failed", error=_not_available(job.endpoint))
        try:
            runner.validate(job.request or {})
        except (InvalidRequest, InvalidField) as refusal:
            return self._end(tenant, job, "failed", error=_error_of(refusal), response=_answer_of(refusal))
        queued = self._moved(tenant, job, "queued")
        if queued.status == "queued" and enqueue:
            self._enqueue(tenant, job.id)
        return queued

    # ------------------------------------------------------------------ the worker
    def run(self, tenant: Tenant, job_id: str) -> None:
        """Run a queued job. Idempotent: only one delivery of its message can move it to in_progress;
        a message that comes back for a job whose worker died fails it (`interrupted`)."""
        job = self._repository.get(tenant, job_id, with_request=True)
        if job is None:
            return
        now = _now()
        if job.status == "in_progress" and now - (job.started_at or now) > WORKER_SECONDS:
            self._end(tenant, job, "failed", error=JobError(code="interrupted", message=_INTERRUPTED))
            return
        if job.status != "queued":
            return
        if now >= job.expires_at:
            self._end(tenant, job, "expired", error=_EXPIRED)
            return
        started = job.model_copy(update={"status": "in_progress", "started_at": now})
        if not self._repository.move(tenant, started):
            return
        runner = self._runners.get(job.endpoint)
        try:
            if runner is None:
                raise _EndpointNotAvailable(job.endpoint)
            response = runner.run(tenant, job.request or {}, lambda: self._cancelled(tenant, job_id))
        except Stopped:
            return  # cancelled (or expired) while it ran: that state stands
        except _EndpointNotAvailable:
            self._end(tenant, started, "failed", error=_not_available(job.endpoint))
        except DomainError as refusal:
            self._end(tenant, started, "failed", error=_error_of(refusal), response=_answer_of(refusal))
        except Exception:  # a fault of the service: the job fails now rather than stay in progress
            _log.exception("job failed", extra={"job_id": job_id, "endpoint": job.endpoint})
            self._end(tenant, started, "failed", error=JobError(code="internal_error", message=_INTERNAL))
        else:
            self._end(tenant, started, "completed", response=response)

    def _cancelled(self, tenant: Tenant, job_id: str) -> bool:
        return self._repository.status(tenant, job_id) != "in_progress"

    def sweep(self) -> dict[str, int]:
        """The scheduled upkeep: expire the unfinished jobs whose `expires_at` has passed, and send
        again the jobs stranded before the worker got them (the API stopped between storing a job and
        queueing it). Counts of each."""
        now = _now()
        counts = {"expired": self._expire_due(now), "resent": self._resend_stranded(now)}
        return counts | {"cleared": self._clear_due(now)}

    def _expire_due(self, now: int) -> int:
        expired = 0
        for tenant, job_id, _ in self._repository.unfinished(now - SWEEP_LOOKBACK_SECONDS, now):
            job = self._repository.get(tenant, job_id)
            if job is not None and job.status in UNFINISHED and job.expires_at <= now:
                expired += self._end(tenant, job, "expired", error=_EXPIRED).status == "expired"
        return expired

    def _clear_due(self, now: int) -> int:
        """Remove the request and response of every ended job whose `expires_at` has passed."""
        holding = self._repository.holding_data(now - SWEEP_LOOKBACK_SECONDS, now)
        return sum(self._repository.forget_data(tenant, job_id, now) for tenant, job_id in list(holding))

    def _resend_stranded(self, now: int) -> int:
        """Jobs created (or retried) in the sweep interval that ended STRANDED_AFTER_SECONDS ago and
        still validating or queued: validated and queued again. Each is looked at by one sweep only;
        a message sent twice runs the job once."""
        until = now - STRANDED_AFTER_SECONDS + EXPIRES_AFTER_SECONDS
        resent = 0
        for tenant, job_id, status in self._repository.unfinished(until - SWEEP_EVERY_SECONDS + 1, until):
            if status == "queued":
                self._enqueue(tenant, job_id)
                resent += 1
            elif status == "validating":
                job = self._repository.get(tenant, job_id, with_request=True)
                resent += job is not None and self._validate(tenant, job).status == "queued"
        return resent

    # ------------------------------------------------------------------ reading and changing
    def get(
        self, tenant: Tenant, job_id: str, *, with_request: bool = False, with_response: bool = False
    ) -> JobRecord:
        job = self._repository.get(tenant, job_id, with_request=with_request, with_response=with_response)
        if job is None:
            raise NotFound(f"no job '{job_id}'")
        return job

    def list(self, tenant: Tenant, query: JobQuery) -> Page[JobRecord]:
        query.check()
        keep = job_filter(query)
        return self._repository.list(tenant, query, keep)

    def cancel(self, tenant: Tenant, job_id: str) -> JobRecord:
        """validating, queued or in_progress -> cancelled at once; a running worker stops at its next
        safe point and its result is dropped. A finished job: 400."""
        job = self.get(tenant, job_id)
        if job.status in UNFINISHED:
            job = self._end(tenant, job, "cancelled")
            if job.status == "cancelled":
                return job
        raise BadRequest(f"job '{job_id}' is already {job.status}")

    def delete(self, tenant: Tenant, job_id: str) -> None:
        """Delete an ended job with its request and response. A job that has not ended is a 409: cancel
        it first (its worker stops at its next safe point)."""
        job = self.get(tenant, job_id)
        if job.status in UNFINISHED or not self._repository.delete(tenant, job_id):
            status = self._repository.status(tenant, job_id)
            if status is None:
                raise NotFound(f"no job '{job_id}'")
            raise Conflict(f"job '{job_id}' is {status}; cancel it first (POST /v1/jobs/{job_id}/cancel)")

    def retry(self, tenant: Tenant, job_id: str) -> JobRecord:
        """A failed, cancelled or expired job, validated and queued again: same id, fresh expires_at.
        After its `expires_at` its request is gone, and it cannot be retried."""
        job = self.get(tenant, job_id, with_request=True)
        if job.status not in RETRYABLE:
            raise BadRequest(
                f"job '{job_id}' is {job.status}; only failed, cancelled or expired jobs can be retried"
            )
        if job.request is None:
            raise BadRequest(
                f"job '{job_id}' passed its expires_at and its request was removed; create a new job"
            )
        now = _now()
        again = job.model_copy(
            update={
                "status": "validating",
                "error": None,
                "response": None,
                "started_at": None,
                "completed_at": None,
                "expires_at": now + EXPIRES_AFTER_SECONDS,
            }
        )
        if not self._repository.move(tenant, again):
            raise BadRequest(f"job '{job_id}' changed meanwhile (it is {self.get(tenant, job_id).status})")
        return _as_got(self._validate(tenant, again))

    # ------------------------------------------------------------------ moves
    def _moved(self, tenant: Tenant, job: JobRecord, status: JobStatus) -> JobRecord:
        """`job` in `status` if the move is allowed from its stored state, else the job as stored."""
        moved = job.model_copy(update={"status": status})
        if self._repository.move(tenant, moved):
            return moved
        return self.get(tenant, job.id)

    def _end(
        self,
        tenant: Tenant,
        job: JobRecord,
        status: JobStatus,
        *,
        error: JobError | None = None,
        response: JobResponse | None = None,
    ) -> JobRecord:
        """Move `job` to a terminal state, with its event in the same write; the job as stored when the
        move is not allowed (it ended meanwhile)."""
        now = _now()
        ended = job.model_copy(
            update={
                "status": status,
                "error": error,
                "response": response,
                "completed_at": now if status == "completed" else job.completed_at,
            }
        )
        if self._repository.move(tenant, ended, new_event(tenant, f"job.{status}", _event_data(ended))):
            return ended
        return self.get(tenant, job.id)


# ---------------------------------------------------------------------------- the list filters
def job_filter(query: JobQuery) -> Callable[[JobRecord], bool]:
    """The filters of spec 4.2 as one predicate. Whatever key or index the repository reads by, every
    item still passes through it, so a page holds exactly the jobs the query asks for."""
    pattern = compile_filename_regex(query.filename_regex) if query.filename_regex else None
    extensions = {extension.lower() for extension in query.document_types}
    metadata = query.metadata or {}

    def keep(job: JobRecord) -> bool:
        filenames = job.facts.filenames
        checks = (
            query.id is None or job.id == query.id,
            query.status is None or job.status == query.status,
            query.endpoint is None or job.endpoint == query.endpoint,
            query.source is None or source_of(job) == query.source,
            query.project_id is None or job.facts.project_id == query.project_id,
            query.workflow_id is None or job.workflow_id == query.workflow_id,
            query.workflow_block_id is None or job.workflow_block_id == query.workflow_block_id,
            query.model is None or job.facts.model == query.model,
            not extensions or any(_extension(name) in extensions for name in filenames),
            query.filename_contains is None or any(query.filename_contains in name for name in filenames),
            pattern is None or any(pattern(name) for name in filenames),
            all((job.metadata or {}).get(key) == value for key, value in metadata.items()),
        )
        return all(checks)

    return keep


def source_of(job: JobRecord) -> JobSource:
    """`workflow` when the job belongs to a workflow run, `project` when its request names a project."""
    if job.workflow_id:
        return "workflow"
    return "project" if job.facts.project_id else "api"


REGEX_MAX_LENGTH = 200
REGEX_SECONDS = 0.05


def compile_filename_regex(expression: str) -> Callable[[str], bool]:
    """`filename_regex`, anchored at both ends. A pattern that does not compile, or that takes too
    long on a filename (catastrophic backtracking), is a 422 naming the parameter."""
    import regex  # a matcher with a time limit: the pattern comes from the caller

    location = ("query", "filename_regex")
    if len(expression) > REGEX_MAX_LENGTH:
        raise InvalidField(location, f"filename_regex is longer than {REGEX_MAX_LENGTH} characters")
    try:
        compiled = regex.compile(expression)
    except regex.error as error:
        raise InvalidField(location, f"filename_regex does not compile: {error}") from None

    def matches(filename: str) -> bool:
        try:
            return compiled.fullmatch(filename, timeout=REGEX_SECONDS) is not None
        except TimeoutError:
            raise InvalidField(location, "filename_regex takes too long to match a filename") from None

    return matches


def facts_of(request: dict[str, Any]) -> RequestFacts:
    """The model, project and filenames of a request: `document.filename`, `documents[].filename`."""
    documents: list[Any] = [request.get("document")]
    many = request.get("documents")
    documents += list(many.values()) if isinstance(many, dict) else many if isinstance(many, list) else []
    filenames = [
        str(document["filename"])
        for document in documents
        if isinstance(document, dict) and isinstance(document.get("filename"), str)
    ]
    model, project_id = request.get("model"), request.get("project_id")
    return RequestFacts(
        model=model if isinstance(model, str) else None,
        project_id=project_id if isinstance(project_id, str) else None,
        filenames=filenames,
    )


def _extension(filename: str) -> str:
    return filename.rsplit(".", 1)[-1].lower() if "." in filename else ""


# ---------------------------------------------------------------------------- helpers
_INTERRUPTED = "the job stopped before it finished (its worker ran out of time); retry it"
_INTERNAL = "the job failed inside the service; it was logged"
_EXPIRED = JobError(code="expired", message="the job did not finish before its expires_at")


class _EndpointNotAvailable(Exception):
    pass


def _as_got(job: JobRecord) -> JobRecord:
    """The job as a plain GET answers it: without its request (and its response) until asked for."""
    return job.model_copy(update={"request": None, "response": None})


def _not_available(endpoint: str) -> JobError:
    return JobError(
        code="endpoint_not_available",
        message=f"{endpoint} has no service in this deployment yet, so its jobs cannot run",
    )


def _error_of(refusal: DomainError) -> JobError:
    return JobError(code=refusal.code, message=refusal.message)


def _answer_of(refusal: DomainError) -> JobResponse:
    """What the endpoint answers with this refusal: its status and body."""
    if isinstance(refusal, InvalidRequest):
        return JobResponse(status_code=422, body={"detail": refusal.problems})
    if isinstance(refusal, InvalidField):
        problem = {"loc": list(refusal.location), "msg": refusal.message, "type": "value_error"}
        return JobResponse(status_code=422, body={"detail": [problem]})
    return JobResponse(status_code=refusal.status_code, body={"detail": refusal.message})


def _event_data(job: JobRecord) -> dict[str, Any]:
    return {
        "id": job.id,
        "object": "job",
        "status": job.status,
        "endpoint": job.endpoint,
        "error": job.error.model_dump() if job.error else None,
        "metadata": job.metadata,
    }


def _sha256(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _now() -> int:
    return int(time.time())
