"""Fair dispatch of background jobs: one organization's backlog never queues ahead of another's work.

Each tenant (an environment of an organization) has at most IN_FLIGHT_PER_TENANT jobs on the job queue
or running at once: its slots. A job is sent to the queue when it takes a free slot; otherwise it is held
in the tenant's backlog, oldest first, and the job keeps its `queued` status. When the worker is done
with a job's message (whatever became of the job), the job gives its slot back and the oldest held job
of its tenant takes it and is sent. So the queue never holds more than IN_FLIGHT_PER_TENANT messages of
a tenant, and the first job of a quiet tenant is at most that many messages of each busy tenant behind.

A slot is a job id in a set, so taking or giving back twice changes nothing. A slot whose message was
lost (a worker that died past the queue's retries) is freed by the scheduled sweep, which looks at the
jobs in the slots of every tenant with a backlog and frees those that are no longer queued or running.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from docsvc.tenancy import Tenant

IN_FLIGHT_PER_TENANT = 10  # keep (busy tenants x this) under the job worker's concurrency (50)
ACTIVE = frozenset({"queued", "in_progress"})


class JobSlots(Protocol):
    def take(self, tenant: Tenant, job_id: str, slots: int) -> bool:
        """Put the job in the tenant's slots if fewer than `slots` are taken (or it holds one already)."""
        ...

    def give_back(self, tenant: Tenant, job_id: str) -> None: ...
    def in_flight(self, tenant: Tenant) -> frozenset[str]: ...

    def hold(self, tenant: Tenant, job_id: str) -> None:
        """Put the job in the tenant's backlog (again: nothing changes)."""
        ...

    def oldest_held(self, tenant: Tenant, count: int) -> list[str]: ...

    def release_held(self, tenant: Tenant, job_id: str) -> bool:
        """Take the job out of the backlog: True for the one caller that did."""
        ...

    def backlogged(self) -> Iterator[Tenant]:
        """The tenants that had held jobs since the last `forget_backlog` of each."""
        ...

    def forget_backlog(self, tenant: Tenant) -> None: ...


Send = Callable[[Tenant, str], None]
Status = Callable[[Tenant, str], "str | None"]


class FairDispatch:
    """The job service's `enqueue`: sends a job when its tenant has a free slot, else holds it."""

    def __init__(
        self, slots: JobSlots, send: Send, status: Status, per_tenant: int = IN_FLIGHT_PER_TENANT
    ) -> None:
        self._slots = slots
        self._send = send
        self._status = status
        self._per_tenant = per_tenant

    def __call__(self, tenant: Tenant, job_id: str) -> None:
        if self._slots.take(tenant, job_id, self._per_tenant):
            self._send(tenant, job_id)
            return
        self._slots.hold(tenant, job_id)
        self._admit_held(tenant)  # a slot given back between the take and the hold

    def finished(self, tenant: Tenant, job_id: str) -> None:
        """The worker is done with the job's message: its slot goes to the tenant's oldest held job."""
        self._slots.give_back(tenant, job_id)
        self._admit_held(tenant)

    def sweep(self) -> dict[str, int]:
        """Free the slots of jobs that ended without their message coming back, and fill them.
        Counts of slots freed and of held jobs sent."""
        freed = sent = 0
        for tenant in self._slots.backlogged():
            for job_id in self._slots.in_flight(tenant):
                if self._status(tenant, job_id) not in ACTIVE:
                    self._slots.give_back(tenant, job_id)
                    freed += 1
            sent += self._admit_held(tenant)
            if not self._slots.oldest_held(tenant, 1):
                self._slots.forget_backlog(tenant)
        return {"slots_freed": freed, "held_sent": sent}

    def _admit_held(self, tenant: Tenant) -> int:
        sent = 0
        for job_id in self._slots.oldest_held(tenant, self._per_tenant):
            if not self._slots.take(tenant, job_id, self._per_tenant):
                break
            if self._slots.release_held(tenant, job_id):  # else another caller sends it
                self._send(tenant, job_id)
                sent += 1
        return sent
