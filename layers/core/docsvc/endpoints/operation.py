"""What every operation a job can run says of itself, for its route and for the job runner."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from docsvc.domain.models import Task
from docsvc.domain.parses import ParseLimits
from docsvc.tenancy import Tenant

ServiceName = Literal["parses", "intelligence", "edits", "evals"]
"""The domain service an operation answers with: the ParseService, the IntelligenceService, the
EditService or the EvalService."""


class Operation(ABC):
    """One endpoint of the API that a job can run too (spec 2.3: a job's `endpoint` is its path)."""

    path: str  # the route's path, and the `endpoint` of its jobs
    body: type[BaseModel]  # what the route takes, and what a job's request must be
    task: Task  # what the model named in the body must be able to do
    service: ServiceName

    @abstractmethod
    def answer(
        self,
        service: Any,
        tenant: Tenant,
        body: Any,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> BaseModel:
        """What the endpoint answers for `body`. The route calls it with the synchronous limits (None);
        a job with the background ones, and `stop`, asked at safe points whether it was cancelled."""

    def refuse_in_a_job(self, body: Any) -> None:
        """InvalidField for what the route takes but a job cannot do; nothing, unless an operation
        says otherwise."""
        return None
