"""The job state machine on an in-memory repository that keeps the one rule the DynamoDB adapter keeps
(a move is written only from a state the new one may be entered from, `ENTERED_FROM`): every move,
every refusal, in milliseconds. tests/integration run the same service on moto through HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from docsvc.domain import jobs
from docsvc.domain.events import Event
from docsvc.domain.jobs import (
    ENTERED_FROM,
    EXPIRES_AFTER_SECONDS,
    STRANDED_AFTER_SECONDS,
    WORKER_SECONDS,
    IdempotencyClaim,
    JobQuery,
    JobRecord,
    JobResponse,
    JobService,
)
from docsvc.domain.lists import Page
from docsvc.errors import BadRequest, Conflict, DomainError, InvalidField, NotFound, Stopped
from docsvc.tenancy import Tenant

TENANT = Tenant("org_jobs", "test")
ENDPOINT = "/v1/extractions"


class Jobs:
    """The job repository, in memory."""

    def __init__(self) -> None:
        self.stored: dict[tuple[Tenant, str], JobRecord] = {}
        self.claims: dict[tuple[Tenant, str], IdempotencyClaim] = {}
        self.events: list[Event] = []

    def create(
        self, tenant: Tenant, job: JobRecord, claim: IdempotencyClaim | None
    ) -> IdempotencyClaim | None:
        if claim is not None:
            held = self.claims.get((tenant, claim.key))
            if held is not None:
                return held
            self.claims[(tenant, claim.key)] = claim
        self.stored[(tenant, job.id)] = job
        return None

    def get(
        self, tenant: Tenant, job_id: str, *, with_request: bool = False, with_response: bool = False
    ) -> JobRecord | None:
        return self.stored.get((tenant, job_id))

    def status(self, tenant: Tenant, job_id: str) -> str | None:
        job = self.stored.get((tenant, job_id))
        return job.status if job else None

    def move(self, tenant: Tenant, job: JobRecord, event: Event | None = None) -> bool:
        stored = self.stored.get((tenant, job.id))
        if stored is None or stored.status not in ENTERED_FROM[job.status]:
            return False
        self.stored[(tenant, job.id)] = job.model_copy(update={"request": stored.request})
        self.events += [event] if event else []
        return True

    def list(self, tenant: Tenant, query: JobQuery, keep: Callable[[JobRecord], bool]) -> Page[JobRecord]:
        raise NotImplementedError  # lists are tested on DynamoDB

    def unfinished(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str, str]]:
        for (tenant, job_id), job in list(self.stored.items()):
            if job.status in jobs.UNFINISHED and expiring_from <= job.expires_at <= expiring_to:
                yield tenant, job_id, job.status

    def holding_data(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str]]:
        for (tenant, job_id), job in list(self.stored.items()):
            if job.request is not None and expiring_from <= job.expires_at <= expiring_to:
                yield tenant, job_id

    def forget_data(self, tenant: Tenant, job_id: str, now: int) -> bool:
        job = self.stored.get((tenant, job_id))
        if job is None or job.status not in jobs.TERMINAL or job.expires_at > now:
            return False
        self.stored[(tenant, job_id)] = job.model_copy(update={"request": None, "response": None})
        return True

    def delete(self, tenant: Tenant, job_id: str) -> bool:
        job = self.stored.get((tenant, job_id))
        return job is not None and job.status in jobs.TERMINAL and bool(self.stored.pop((tenant, job_id)))


class Runner:
    """An endpoint's service: refuses a body without `document`, answers what `answer` says."""

    def __init__(self) -> None:
        self.answer: Callable[[Callable[[], bool]], JobResponse] = lambda stop: JobResponse(
            status_code=201, body={"ok": True}
        )

    def validate(self, request: dict[str, Any]) -> None:
        if "document" not in request:
            raise InvalidField(("body", "document"), "Field required")

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        return self.answer(stop)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(jobs, "_now", clock)
    return clock


@pytest.fixture
def repository() -> Jobs:
    return Jobs()


@pytest.fixture
def runner() -> Runner:
    return Runner()


@pytest.fixture
def sent() -> list[str]:
    return []


@pytest.fixture
def service(repository: Jobs, runner: Runner, sent: list[str], clock: Clock) -> JobService:
    return JobService(repository, {ENDPOINT: runner}, lambda tenant, job_id: sent.append(job_id))


def create(service: JobService, request: dict[str, Any] | None = None, key: str | None = None) -> JobRecord:
    job, _ = service.create(TENANT, ENDPOINT, request if request is not None else {"document": 1}, None, key)
    return job


def force(repository: Jobs, job: JobRecord, status: str, **fields: Any) -> None:
    """Put a stored job in `status`, as if it had got there."""
    key = (TENANT, job.id)
    repository.stored[key] = repository.stored[key].model_copy(update={"status": status, **fields})


def kinds(repository: Jobs) -> list[str]:
    return [event.type for event in repository.events]


# ---------------------------------------------------------------------------- creating
def test_a_valid_job_is_queued_and_sent_once(service: JobService, sent: list[str]) -> None:
    job = create(service)

    assert job.status == "queued" and sent == [job.id]


def test_a_body_the_endpoint_refuses_fails_the_job_with_its_problems_and_sends_nothing(
    service: JobService, repository: Jobs, sent: list[str]
) -> None:
    job = create(service, {})

    stored = service.get(TENANT, job.id, with_response=True)
    assert stored.status == "failed" and stored.error is not None and stored.error.code == "validation_error"
    assert stored.response is not None and stored.response.status_code == 422
    assert sent == [] and kinds(repository) == ["job.failed"]


def test_an_endpoint_without_a_service_fails_the_job(repository: Jobs, sent: list[str], clock: Clock) -> None:
    service = JobService(repository, {}, lambda tenant, job_id: sent.append(job_id))

    job = create(service)

    assert job.status == "failed" and sent == []


def test_the_same_idempotency_key_and_body_give_the_same_job_and_another_body_a_409(
    service: JobService,
) -> None:
    first, _ = service.create(TENANT, ENDPOINT, {"document": 1}, None, "key-1")
    again, replayed = service.create(TENANT, ENDPOINT, {"document": 1}, None, "key-1")

    assert (again.id, replayed) == (first.id, True)
    with pytest.raises(Conflict):
        service.create(TENANT, ENDPOINT, {"document": 2}, None, "key-1")


# ---------------------------------------------------------------------------- the worker
def test_a_queued_job_runs_to_completed_with_its_response_and_event(
    service: JobService, repository: Jobs
) -> None:
    job = create(service)

    service.run(TENANT, job.id)

    done = service.get(TENANT, job.id)
    assert done.status == "completed" and done.response == JobResponse(status_code=201, body={"ok": True})
    assert done.started_at is not None and done.completed_at is not None
    assert kinds(repository) == ["job.completed"]


def test_a_message_delivered_twice_runs_the_job_once(service: JobService, runner: Runner) -> None:
    runs: list[int] = []

    def counted(stop: Callable[[], bool]) -> JobResponse:
        runs.append(1)
        return JobResponse(status_code=201, body={})

    runner.answer = counted
    job = create(service)

    service.run(TENANT, job.id)
    service.run(TENANT, job.id)

    assert runs == [1]


def test_a_refusal_of_the_endpoint_fails_the_job_with_its_code(service: JobService, runner: Runner) -> None:
    def refuse(stop: Callable[[], bool]) -> JobResponse:
        raise DomainError("the document could not be read")

    runner.answer = refuse
    job = create(service)

    service.run(TENANT, job.id)

    failed = service.get(TENANT, job.id)
    assert (
        failed.status == "failed"
        and failed.error is not None
        and failed.error.message == "the document could not be read"
    )


def test_a_fault_of_the_service_fails_the_job_as_internal_never_leaves_it_running(
    service: JobService, runner: Runner
) -> None:
    def crash(stop: Callable[[], bool]) -> JobResponse:
        raise RuntimeError("a bug")

    runner.answer = crash
    job = create(service)

    service.run(TENANT, job.id)

    failed = service.get(TENANT, job.id)
    assert failed.status == "failed" and failed.error is not None and failed.error.code == "internal_error"
    assert "a bug" not in failed.error.message


def test_a_job_cancelled_while_it_runs_stays_cancelled_and_its_result_is_dropped(
    service: JobService, runner: Runner
) -> None:
    job = create(service)

    def cancelled_midway(stop: Callable[[], bool]) -> JobResponse:
        service.cancel(TENANT, job.id)
        if stop():
            raise Stopped()
        return JobResponse(status_code=201, body={"late": True})

    runner.answer = cancelled_midway

    service.run(TENANT, job.id)

    assert service.get(TENANT, job.id).status == "cancelled"
    assert service.get(TENANT, job.id).response is None


def test_a_queued_job_past_its_expiry_is_expired_not_run(service: JobService, clock: Clock) -> None:
    job = create(service)
    clock.now += EXPIRES_AFTER_SECONDS

    service.run(TENANT, job.id)

    assert service.get(TENANT, job.id).status == "expired"


def test_a_message_back_for_a_job_whose_worker_died_fails_it_as_interrupted(
    service: JobService, repository: Jobs, clock: Clock
) -> None:
    job = create(service)
    force(repository, job, "in_progress", started_at=clock.now)
    clock.now += WORKER_SECONDS + 1

    service.run(TENANT, job.id)

    failed = service.get(TENANT, job.id)
    assert failed.status == "failed" and failed.error is not None and failed.error.code == "interrupted"


# ---------------------------------------------------------------------------- cancel and retry
@pytest.mark.parametrize("status", ["validating", "queued", "in_progress"])
def test_an_unfinished_job_is_cancelled_at_once(service: JobService, repository: Jobs, status: str) -> None:
    job = create(service)
    force(repository, job, status)

    assert service.cancel(TENANT, job.id).status == "cancelled"


@pytest.mark.parametrize("status", ["completed", "failed", "cancelled", "expired"])
def test_a_finished_job_cannot_be_cancelled(service: JobService, repository: Jobs, status: str) -> None:
    job = create(service)
    force(repository, job, status)

    with pytest.raises(BadRequest, match=f"already {status}"):
        service.cancel(TENANT, job.id)


@pytest.mark.parametrize("status", ["failed", "cancelled", "expired"])
def test_a_retried_job_keeps_its_id_and_is_queued_again_with_a_fresh_expiry(
    service: JobService, repository: Jobs, sent: list[str], clock: Clock, status: str
) -> None:
    job = create(service)
    force(repository, job, status)
    clock.now += 3600

    again = service.retry(TENANT, job.id)

    assert (again.id, again.status) == (job.id, "queued")
    assert again.expires_at == clock.now + EXPIRES_AFTER_SECONDS and again.error is None
    assert sent == [job.id, job.id]


@pytest.mark.parametrize("status", ["validating", "queued", "in_progress", "completed"])
def test_only_an_ended_job_that_did_not_complete_can_be_retried(
    service: JobService, repository: Jobs, status: str
) -> None:
    job = create(service)
    force(repository, job, status)

    with pytest.raises(BadRequest):
        service.retry(TENANT, job.id)


def test_no_move_goes_backwards_or_skips_a_state(repository: Jobs, service: JobService) -> None:
    job = create(service)
    service.run(TENANT, job.id)
    completed = service.get(TENANT, job.id)

    for status in ("validating", "queued", "in_progress", "failed", "cancelled", "expired"):
        assert repository.move(TENANT, completed.model_copy(update={"status": status})) is False
    assert service.get(TENANT, job.id).status == "completed"


def test_another_tenants_job_is_not_found(service: JobService) -> None:
    job = create(service)

    with pytest.raises(NotFound):
        service.get(Tenant("org_jobs", "production"), job.id)


# ---------------------------------------------------------------------------- the sweeper
def test_the_sweep_expires_unfinished_jobs_past_their_expiry_and_leaves_the_rest(
    service: JobService, repository: Jobs, clock: Clock
) -> None:
    old = create(service)
    clock.now += EXPIRES_AFTER_SECONDS - 10
    young = create(service)
    clock.now += 20

    counts = service.sweep()

    assert counts["expired"] == 1
    assert (service.get(TENANT, old.id).status, service.get(TENANT, young.id).status) == ("expired", "queued")


def test_the_sweep_sends_again_a_job_stranded_before_its_message_was_sent(
    service: JobService, repository: Jobs, sent: list[str], clock: Clock
) -> None:
    job = create(service)
    sent.clear()  # as if the API had stopped before sending it
    clock.now += STRANDED_AFTER_SECONDS + 1

    counts = service.sweep()

    assert counts["resent"] == 1 and sent == [job.id]


# ---------------------------------------------------------------------------- retention and deletion
def test_the_sweep_removes_the_request_and_response_of_ended_jobs_past_their_expiry(
    service: JobService, repository: Jobs, clock: Clock
) -> None:
    done = create(service)
    service.run(TENANT, done.id)
    waiting = create(service)
    clock.now += EXPIRES_AFTER_SECONDS - 10
    young = create(service)
    service.run(TENANT, young.id)
    clock.now += 20

    counts = service.sweep()

    assert counts == {"expired": 1, "resent": 0, "cleared": 2}
    assert repository.stored[(TENANT, done.id)].request is None
    assert repository.stored[(TENANT, done.id)].response is None
    assert repository.stored[(TENANT, waiting.id)].status == "expired"
    assert repository.stored[(TENANT, waiting.id)].request is None
    assert repository.stored[(TENANT, young.id)].request == {"document": 1}
    assert service.sweep()["cleared"] == 0


def test_a_job_whose_request_was_removed_at_its_expiry_is_not_retried(
    service: JobService, repository: Jobs, clock: Clock
) -> None:
    job = create(service)
    clock.now += EXPIRES_AFTER_SECONDS + 1
    service.sweep()

    with pytest.raises(BadRequest, match="request was removed"):
        service.retry(TENANT, job.id)
    assert service.get(TENANT, job.id).status == "expired"


@pytest.mark.parametrize("status", ["completed", "failed", "cancelled", "expired"])
def test_an_ended_job_is_deleted(service: JobService, repository: Jobs, status: str) -> None:
    job = create(service)
    force(repository, job, status)

    service.delete(TENANT, job.id)

    with pytest.raises(NotFound):
        service.get(TENANT, job.id)


@pytest.mark.parametrize("status", ["validating", "queued", "in_progress"])
def test_a_job_that_has_not_ended_is_not_deleted(service: JobService, repository: Jobs, status: str) -> None:
    job = create(service)
    force(repository, job, status)

    with pytest.raises(Conflict, match="cancel it first"):
        service.delete(TENANT, job.id)
    assert service.get(TENANT, job.id).status == status


def test_deleting_a_job_of_another_environment_is_not_found(service: JobService, repository: Jobs) -> None:
    job = create(service)
    force(repository, job, "completed")

    with pytest.raises(NotFound):
        service.delete(Tenant("org_jobs", "production"), job.id)
    assert service.get(TENANT, job.id).status == "completed"
