"""The job endpoints that have a service: each validates a job's request as its endpoint validates a
body, runs the same domain service, and answers what its endpoint answers (spec 2.3: `response.body`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from docsvc.domain.jobs import EndpointRunner, JobResponse
from docsvc.domain.parses import IN_BACKGROUND, ParseService, check_model
from docsvc.errors import InvalidField, InvalidRequest, validation_problems
from docsvc.resources.parses import Parse, ParseCreate
from docsvc.tenancy import Tenant


class ParseEndpoint:
    """POST /v1/parses as a job: a 201 with the completed Parse. A job is already in the background, so
    `background` and `stream` must stay false, and the parse gets the background page limit."""

    def __init__(self, parses: Callable[[], ParseService]) -> None:
        self._parses = parses  # built on first run: validating a request needs no document engine

    def validate(self, request: dict[str, Any]) -> None:
        self._body(request)

    def run(self, tenant: Tenant, request: dict[str, Any], stop: Callable[[], bool]) -> JobResponse:
        body = self._body(request)
        record = self._parses().parse(tenant, body.to_request(), limits=IN_BACKGROUND, stop=stop)
        return JobResponse(status_code=201, body=Parse.of(record).model_dump(mode="json"))

    @staticmethod
    def _body(request: dict[str, Any]) -> ParseCreate:
        try:
            body = ParseCreate.model_validate(request)
        except ValidationError as error:
            raise InvalidRequest(validation_problems(error.errors(include_url=False))) from None
        for flag in ("background", "stream"):
            if getattr(body, flag):
                raise InvalidField(
                    ("body", flag), f"a job runs in the background already: leave {flag} false"
                )
        check_model(body.model)
        return body


def job_endpoints(parses: Callable[[], ParseService]) -> dict[str, EndpointRunner]:
    """Every job endpoint this deployment can run, by its path."""
    return {"/v1/parses": ParseEndpoint(parses)}
