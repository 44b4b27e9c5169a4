"""The FastAPI application of an API function, with the error contract of the whole API.

- Domain errors: their status with `{"detail": message}`.
- Validation errors: 422 in FastAPI's HTTPValidationError shape; a JSON body that is not JSON (NaN, a lone
  surrogate) too, before routing (docsvc.api.json_bodies).
- Anything unexpected: logged with the request id, answered `{"detail": "internal error", "request_id"}`.
- An answer too large for Lambda: 303 to a presigned link (docsvc.api.large_answers).
- `Idempotency-Key` on every creating POST (docsvc.api.idempotency).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException

from docsvc import __version__
from docsvc.api.idempotency import IdempotentRequests, document_header
from docsvc.api.json_bodies import StrictJsonBodies
from docsvc.api.large_answers import LargeAnswers
from docsvc.errors import (
    DomainError,
    InvalidField,
    InvalidRequest,
    TooManyRequests,
    Unauthorized,
    validation_problems,
)
from docsvc.observability import current_request_id

_log = logging.getLogger("docsvc.api")


def request_id(request: Request) -> str | None:
    """The API Gateway request id: the answer's X-Request-Id and the key of the request's log lines."""
    event = request.scope.get("aws.event") or {}
    value = event.get("requestContext", {}).get("requestId")
    return str(value) if value else current_request_id()


def _domain_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainError)
    if isinstance(error, InvalidField):
        detail: Any = [{"loc": list(error.location), "msg": error.message, "type": "value_error"}]
        return JSONResponse({"detail": detail}, status_code=422)
    if isinstance(error, InvalidRequest):
        return JSONResponse({"detail": error.problems}, status_code=422)
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(error, Unauthorized) else None
    if isinstance(error, TooManyRequests):
        headers = {"Retry-After": str(error.retry_after)}
    body = {"detail": error.message, **error.extra}
    return JSONResponse(body, status_code=error.status_code, headers=headers)


def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    return JSONResponse({"detail": error.detail}, status_code=error.status_code, headers=error.headers)


def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return JSONResponse({"detail": validation_problems(error.errors())}, status_code=422)


def _unexpected_error(request: Request, error: Exception) -> JSONResponse:
    identifier = request_id(request)
    _log.exception("unhandled error", extra={"request_id": identifier, "path": request.url.path})
    return JSONResponse({"detail": "internal error", "request_id": identifier}, status_code=500)


class ErrorAnswer(BaseModel):
    """Every error but a 422: a sentence for people, and for some errors more fields (`code`,
    `request_id`, `retry_after`)."""

    model_config = ConfigDict(extra="allow")
    detail: str


class Problem(BaseModel):
    model_config = ConfigDict(extra="allow")
    loc: list[str | int]
    msg: str
    type: str


class ValidationAnswer(BaseModel):
    """A 422: each problem with where it is (`loc`), what is wrong (`msg`) and its kind (`type`)."""

    detail: list[Problem]


def error_response(description: str, model: type[BaseModel] = ErrorAnswer) -> dict[str, Any]:
    """An error answer of an operation, for a route's own `responses` and for ERROR_RESPONSES."""
    return {"model": model, "description": description}


# What any route may answer besides its success, documented on every operation.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    303: {
        "description": "The answer is larger than an API function may return (6 MB): it is at the presigned "
        "link in `Location` (and in the body's `url`) for 15 minutes; follow it without the key."
    },
    400: error_response(
        "The request cannot be read (a body that is not what the content type says, a bad document)."
    ),
    401: error_response("No API key, an unknown or revoked one, or two different keys in the two headers."),
    404: error_response(
        "No such resource in this environment; an id of another environment answers the same."
    ),
    409: error_response(
        "The request conflicts with the resource's state or with an earlier request of its key."
    ),
    413: error_response("Too large: over a size or page limit, or too long for a synchronous request."),
    415: error_response("A document of a type the service does not read."),
    422: error_response(
        "A field is missing, of the wrong type or out of range, or the body is not JSON.", ValidationAnswer
    ),
    429: error_response(
        "Too many requests: over the organization's or the API key's request limit (`limit` says which); "
        "send again after the time in Retry-After."
    ),
    502: error_response("A remote model or service the operation relies on failed or answered garbage."),
    503: error_response("The service is at a concurrency limit: send again after the time in Retry-After."),
    504: error_response("The operation did not finish within the gateway's time limit (29 s): use a job."),
}


def create_app(title: str, routers: Iterable[APIRouter], description: str = "") -> FastAPI:
    app = FastAPI(title=title, version=__version__, description=description, docs_url=None, redoc_url=None)
    routers = list(routers)
    for router in routers:
        app.include_router(router, responses=ERROR_RESPONSES)
    app.add_exception_handler(DomainError, _domain_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected_error)
    app.add_middleware(StrictJsonBodies)
    posts = [
        route.path
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and "POST" in (route.methods or ())
    ]
    app.add_middleware(IdempotentRequests, posts=posts)
    app.add_middleware(LargeAnswers)
    described = app.openapi
    app.openapi = lambda: document_header(described())  # type: ignore[method-assign]
    return app
