"""Powertools logger, tracer and metrics for one function. Never log a key, a secret or an org id as
a metric dimension."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers


@dataclass(frozen=True, slots=True)
class Observability:
    logger: Logger
    tracer: Tracer
    metrics: Metrics


# Their DEBUG lines print whole request bodies (a secret being stored, a document): never below INFO,
# whatever level the function logs at.
_WIRE_LOGGERS = ("botocore", "boto3", "urllib3", "httpx", "httpcore")


def observability(service: str) -> Observability:
    """The tools of one function. The project's own loggers (`docsvc.*`) log through the same JSON
    formatter, so every line carries the function's correlation id."""
    for name in _WIRE_LOGGERS:
        wire = logging.getLogger(name)
        wire.setLevel(max(wire.level, logging.INFO))
    logger = Logger(service=service)
    logging.getLogger("docsvc")  # the parent of every project logger; its children propagate to it
    copy_config_to_registered_loggers(source_logger=logger, include={"docsvc"})
    return Observability(
        logger=logger,
        tracer=Tracer(service=service),
        metrics=Metrics(namespace="docsvc", service=service),
    )
