"""Powertools logger, tracer and metrics for one function. Never log a key, a secret or an org id as
a metric dimension."""

from __future__ import annotations

from dataclasses import dataclass

from aws_lambda_powertools import Logger, Metrics, Tracer


@dataclass(frozen=True, slots=True)
class Observability:
    logger: Logger
    tracer: Tracer
    metrics: Metrics


def observability(service: str) -> Observability:
    return Observability(
        logger=Logger(service=service),
        tracer=Tracer(service=service),
        metrics=Metrics(namespace="docsvc", service=service),
    )
