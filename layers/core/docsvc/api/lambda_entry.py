"""The Lambda entry point of an API function: Mangum around the app, with logging, tracing, metrics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit
from fastapi import FastAPI
from mangum import Mangum

from docsvc.observability import observability

LambdaHandler = Callable[[dict[str, Any], Any], dict[str, Any]]


def api_handler(app: FastAPI, service: str) -> LambdaHandler:
    adapter = Mangum(app, lifespan="off")
    tools = observability(service)

    @tools.logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
    @tools.traced
    @tools.metrics.log_metrics(capture_cold_start_metric=True)
    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        response: dict[str, Any] = adapter(event, context)
        tools.metrics.add_metric(name="Requests", unit=MetricUnit.Count, value=1)
        if int(response.get("statusCode", 200)) >= 500:
            tools.metrics.add_metric(name="ServerErrors", unit=MetricUnit.Count, value=1)
        return response

    wrapped: LambdaHandler = handler
    return wrapped
