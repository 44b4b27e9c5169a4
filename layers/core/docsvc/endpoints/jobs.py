"""The job runner of every operation: a job's request validated as the operation's route validates
its body, the model resolved for the operation's task, and the operation's own `answer`, which the
route calls too (spec 2.3: `response.body` is what the endpoint answers). A job already runs in the
background: it gets the background page limit, and is asked every few pages whether it was cancelled.

The operations are found in this package's modules: adding an operation is adding its module."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

import docsvc.endpoints
from docsvc.domain.jobs import EndpointRunner, JobResponse
from docsvc.domain.models import ModelCatalog
from docsvc.domain.parses import IN_BACKGROUND
from docsvc.endpoints.operation import Operation, ServiceName
from docsvc.errors import InvalidRequest, validation_problems
from docsvc.tenancy import Tenant

Body = TypeVar("Body", bound=BaseModel)


def validated(model: type[Body], request: dict[str, Any]) -> Body:
    """`request` as the endpoint's body, or InvalidRequest naming every field it refuses."""
    try:
        return model.model_validate(request)
    except ValidationError as error:
        raise InvalidRequest(validation_problems(error.errors(include_url=False))) from None


class JobRunner:
    """An operation as the job worker runs it: a 201 with what its route answers."""

    def __init__(self, operation: Operation, service: Callable[[], Any], models: ModelCatalog) -> None:
        self._operation = operation
        self._service = service  # built on first run: validating a request needs no document engine
        self._models = models

    def validate(self, request: dict[str, Any]) -> None:
        self._body(request)

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        body = self._body(request)
        answer = self._operation.answer(self._service(), tenant, body, limits=IN_BACKGROUND, stop=stop)
        return JobResponse(status_code=201, body=answer.model_dump(mode="json"))

    def _body(self, request: dict[str, Any]) -> Any:
        body: Any = validated(self._operation.body, request)
        self._operation.refuse_in_a_job(body)
        self._models.resolve(body.model, self._operation.task)
        return body


def operations() -> list[Operation]:
    """Every operation of this package's modules, one a path."""
    found: dict[str, Operation] = {}
    for module in pkgutil.iter_modules(docsvc.endpoints.__path__, f"{docsvc.endpoints.__name__}."):
        for value in vars(importlib.import_module(module.name)).values():
            if isinstance(value, Operation) and found.setdefault(value.path, value) is not value:
                raise ValueError(f"two operations answer {value.path}")
    return list(found.values())


def job_runners(
    services: Mapping[ServiceName, Callable[[], Any]], models: ModelCatalog
) -> dict[str, EndpointRunner]:
    """Every job endpoint this deployment can run, by its path; `services` builds the domain service
    each operation answers with, when its first job runs."""
    return {
        operation.path: JobRunner(operation, services[operation.service], models)
        for operation in operations()
    }
