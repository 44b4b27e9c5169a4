"""The FastAPI application of an API function, with the error contract of the whole API.

- Domain errors: their status with `{"detail": message}`.
- Validation errors: 422 in FastAPI's HTTPValidationError shape; a JSON body that is not JSON (NaN, a lone
  surrogate) too, before routing (docsvc.api.json_bodies).
- Anything unexpected: logged with the request id, answered `{"detail": "internal error", "request_id"}`.
- An answer too large for Lambda: 303 to a presigned link (docsvc.api.large_answers).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from docsvc import __version__
from docsvc.api.json_bodies import StrictJsonBodies
from docsvc.api.large_answers import LargeAnswers
from docsvc.errors import DomainError, InvalidField, InvalidRequest, Unauthorized, validation_problems

_log = logging.getLogger("docsvc.api")


def request_id(request: Request) -> str | None:
    context = request.scope.get("aws.context")
    if context is not None and getattr(context, "aws_request_id", None):
        return str(context.aws_request_id)
    event = request.scope.get("aws.event") or {}
    value = event.get("requestContext", {}).get("requestId")
    return str(value) if value else None


def _domain_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainError)
    if isinstance(error, InvalidField):
        detail: Any = [{"loc": list(error.location), "msg": error.message, "type": "value_error"}]
        return JSONResponse({"detail": detail}, status_code=422)
    if isinstance(error, InvalidRequest):
        return JSONResponse({"detail": error.problems}, status_code=422)
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(error, Unauthorized) else None
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


def create_app(title: str, routers: Iterable[APIRouter], description: str = "") -> FastAPI:
    app = FastAPI(title=title, version=__version__, description=description, docs_url=None, redoc_url=None)
    for router in routers:
        app.include_router(router)
    app.add_exception_handler(DomainError, _domain_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected_error)
    app.add_middleware(StrictJsonBodies)
    app.add_middleware(LargeAnswers)
    return app
