"""Powertools logger, tracer and metrics for one function. Never log a key, a secret or an org id as
a metric dimension.

Tracing: every function runs with X-Ray active tracing, so each invocation has its segment (init,
invocation, overhead) without any code here. `TRACE_AWS_CALLS=true` (the template's TraceAwsCalls)
adds the Powertools Tracer, whose X-Ray SDK records a subsegment per AWS call; loading it costs 0.2-0.5 s
of every cold start (it builds an X-Ray client at import), so it is off unless asked for."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers

from docsvc.config import check_configuration

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

Handler = TypeVar("Handler", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Observability:
    logger: Logger
    metrics: Metrics
    tracer: Tracer | None

    def traced(self, handler: Handler) -> Handler:
        """The handler with its invocation traced by the X-Ray SDK when AWS calls are traced."""
        if self.tracer is None:
            return handler
        return cast(Handler, self.tracer.capture_lambda_handler(handler, capture_response=False))


# Their DEBUG lines print whole request bodies (a secret being stored, a document): never below INFO,
# whatever level the function logs at.
_WIRE_LOGGERS = ("botocore", "boto3", "urllib3", "httpx", "httpcore")


def trace_aws_calls() -> bool:
    return os.environ.get("TRACE_AWS_CALLS", "false").lower() == "true"


def observability(service: str) -> Observability:
    """The tools of one function, made once when it starts. The project's own loggers (`docsvc.*`) log
    through the same JSON formatter, so every line carries the function's correlation id. On Lambda,
    the function's settings are checked first: a missing one fails the cold start, naming it."""
    if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        check_configuration()
    for name in _WIRE_LOGGERS:
        wire = logging.getLogger(name)
        wire.setLevel(max(wire.level, logging.INFO))
    logger = Logger(service=service)
    logging.getLogger("docsvc")  # the parent of every project logger; its children propagate to it
    copy_config_to_registered_loggers(source_logger=logger, include={"docsvc"})
    return Observability(
        logger=logger,
        metrics=Metrics(namespace="docsvc", service=service),
        tracer=_tracer(service) if trace_aws_calls() else None,
    )


def _tracer(service: str) -> Tracer:
    from aws_lambda_powertools import Tracer

    return Tracer(service=service)
