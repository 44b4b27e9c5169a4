"""The job endpoints that have a service: each validates a job's request as its endpoint validates a
body, runs the same domain service, and answers what its endpoint answers (spec 2.3: `response.body`).
A job already runs in the background: it gets the background page limit, and is asked every few pages
whether it was cancelled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from docsvc.domain.intelligence import TASK_OF, IntelligenceService
from docsvc.domain.jobs import EndpointRunner, JobResponse
from docsvc.domain.models import ModelCatalog
from docsvc.domain.parses import IN_BACKGROUND, ParseService
from docsvc.errors import InvalidField, InvalidRequest, validation_problems
from docsvc.resources.intelligence import RESULT_ENDPOINTS, ResultEndpoint, SchemaGenerate, generated_schema
from docsvc.resources.parses import Parse, ParseCreate
from docsvc.tenancy import Tenant

Body = TypeVar("Body", bound=BaseModel)


def validated(model: type[Body], request: dict[str, Any]) -> Body:
    """`request` as the endpoint's body, or InvalidRequest naming every field it refuses."""
    try:
        return model.model_validate(request)
    except ValidationError as error:
        raise InvalidRequest(validation_problems(error.errors(include_url=False))) from None


class ParseEndpoint:
    """POST /v1/parses as a job: a 201 with the completed Parse; `background` and `stream` stay false."""

    def __init__(self, parses: Callable[[], ParseService], models: ModelCatalog) -> None:
        self._parses = parses  # built on first run: validating a request needs no document engine
        self._models = models

    def validate(self, request: dict[str, Any]) -> None:
        self._body(request)

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        body = self._body(request)
        record = self._parses().parse(tenant, body.to_request(), limits=IN_BACKGROUND, stop=stop)
        return JobResponse(status_code=201, body=Parse.of(record).model_dump(mode="json"))

    def _body(self, request: dict[str, Any]) -> ParseCreate:
        body = validated(ParseCreate, request)
        for flag in ("background", "stream"):
            if getattr(body, flag):
                raise InvalidField(
                    ("body", flag), f"a job runs in the background already: leave {flag} false"
                )
        self._models.resolve(body.model, "parse")
        return body


class ResultJobEndpoint:
    """An extraction, classification, split or partition as a job: a 201 with the result."""

    def __init__(
        self, endpoint: ResultEndpoint, models: ModelCatalog, service: Callable[[], IntelligenceService]
    ) -> None:
        self._endpoint, self._models, self._service = endpoint, models, service

    def validate(self, request: dict[str, Any]) -> None:
        self._body(request)

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        body = self._body(request)
        result = self._endpoint.answer(self._service(), tenant, body, limits=IN_BACKGROUND, stop=stop)
        return JobResponse(status_code=201, body=result.model_dump(mode="json"))

    def _body(self, request: dict[str, Any]) -> Any:
        body = validated(self._endpoint.body, request)
        self._models.resolve(body.model, TASK_OF[self._endpoint.kind])
        return body


class SchemaJobEndpoint:
    """POST /v1/schemas/generate as a job: a 201 with the generated schema."""

    def __init__(self, models: ModelCatalog, service: Callable[[], IntelligenceService]) -> None:
        self._models, self._service = models, service

    def validate(self, request: dict[str, Any]) -> None:
        self._body(request)

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        schema = generated_schema(
            self._service(), tenant, self._body(request), limits=IN_BACKGROUND, stop=stop
        )
        return JobResponse(status_code=201, body=schema.model_dump(mode="json"))

    def _body(self, request: dict[str, Any]) -> SchemaGenerate:
        body = validated(SchemaGenerate, request)
        self._models.resolve(body.model, "generate_schema")
        return body


def job_endpoints(
    parses: Callable[[], ParseService], intelligence: Callable[[], IntelligenceService], models: ModelCatalog
) -> dict[str, EndpointRunner]:
    """Every job endpoint this deployment can run, by its path."""
    runners: dict[str, EndpointRunner] = {"/v1/parses": ParseEndpoint(parses, models)}
    for path, endpoint in RESULT_ENDPOINTS.items():
        runners[path] = ResultJobEndpoint(endpoint, models, intelligence)
    runners["/v1/schemas/generate"] = SchemaJobEndpoint(models, intelligence)
    return runners
