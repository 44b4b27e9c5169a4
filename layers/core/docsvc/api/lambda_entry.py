"""The Lambda entry point of an API function: Mangum around the app, with logging, tracing, metrics.

Every answer carries `X-Request-Id`: the API Gateway request id of the request (`requestContext.requestId`,
which the gateway also logs), the same id an error body names and every log line of the request
carries. A client's own `X-Request-Id` is not echoed: the gateway's id is the one the logs are found by.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit
from fastapi import FastAPI
from mangum import Mangum

from docsvc.observability import correlated, observability

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]
REQUEST_ID_HEADER = "x-request-id"


def gateway_request_id(event: dict[str, Any]) -> str:
    """The gateway's id of the request; a new one for an event that has none (a hand-made invocation)."""
    value = (event.get("requestContext") or {}).get("requestId")
    return str(value) if value else str(uuid.uuid4())


def api_handler(app: FastAPI, service: str) -> LambdaHandler:
    adapter = Mangum(app, lifespan="off")
    tools = observability(service)

    @tools.logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
    @tools.traced
    @tools.measured
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        request_id = gateway_request_id(event)
        started = time.monotonic()
        with correlated(request_id):
            response: dict[str, Any] = adapter(event, context)
            status = int(response.get("statusCode", 200))
            response["headers"] = {
                **{
                    name: value
                    for name, value in (response.get("headers") or {}).items()
                    if name.lower() != REQUEST_ID_HEADER
                },
                REQUEST_ID_HEADER: request_id,
            }
            tools.logger.info(
                "request served",
                extra={
                    "method": (event.get("requestContext") or {}).get("http", {}).get("method"),
                    "path": event.get("rawPath"),
                    "status": status,
                    "duration_ms": round((time.monotonic() - started) * 1000),
                },
            )
        tools.metrics.add_metric(name="Requests", unit=MetricUnit.Count, value=1)
        if status >= 500:
            tools.metrics.add_metric(name="ServerErrors", unit=MetricUnit.Count, value=1)
        return response

    wrapped: LambdaHandler = handler
    return wrapped
