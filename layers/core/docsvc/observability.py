"""Powertools logger, tracer and metrics for one function. Never log a key, a secret or an org id as
a metric dimension.

Correlation: every line logged while a function serves one request or one message carries
`request_id` (the API Gateway request id of the request that started the work, also the answer's
`X-Request-Id`), and, once the tenant is known, `organization` and `environment`. They live in a context
variable set for the length of one request or one record (`correlated`), so nothing outlives it into
the next invocation of a warm function, and the threads and tasks that serve one request share them.
Messages sent while serving carry the request id on (`current_request_id`), so a search by that id
finds the lines of every function the work went through.

Tracing: every function runs with X-Ray active tracing, so each invocation has its segment (init,
invocation, overhead) without any code here. `TRACE_AWS_CALLS=true` (the template's TraceAwsCalls)
adds the Powertools Tracer, whose X-Ray SDK records a subsegment per AWS call; loading it costs 0.2-0.5 s
of every cold start (it builds an X-Ray client at import), so it is off unless asked for."""

from __future__ import annotations

import functools
import logging
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

from docsvc.config import check_configuration
from docsvc.tenancy import Tenant

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

    def measured(self, handler: Handler) -> Handler:
        """The handler with its metrics (and a cold start's) published when it returns. Where metrics
        are disabled (the local stack, the tests) nothing is published and nothing piles up: Powertools
        would still print the cold start metric, and a hundredth value of one metric, as EMF lines."""
        published = self.metrics.log_metrics(handler, capture_cold_start_metric=True)

        @functools.wraps(handler)
        def run(*args: Any, **kwargs: Any) -> Any:
            if not is_metrics_disabled():
                return published(*args, **kwargs)
            try:
                return handler(*args, **kwargs)
            finally:
                self.metrics.clear_metrics()

        return cast(Handler, run)


# The keys of the work being served; a fresh dict for each request or record, shared (not copied) by
# the tasks and threads that serve it, so the tenant found by one of them is seen by all.
_correlation: ContextVar[dict[str, str] | None] = ContextVar("docsvc_correlation", default=None)


@contextmanager
def correlated(request_id: str | None, tenant: Tenant | None = None) -> Iterator[None]:
    """Every line logged inside carries the request id (when there is one) and, once known, the tenant."""
    keys = {"request_id": request_id} if request_id else {}
    token = _correlation.set(keys)
    if tenant is not None:
        correlate_tenant(tenant)
    try:
        yield
    finally:
        _correlation.reset(token)


def correlate_tenant(tenant: Tenant) -> None:
    """The tenant of the work being served, on its lines from now on (called once a key is resolved)."""
    keys = _correlation.get()
    if keys is not None:
        keys.update(organization=tenant.organization_id, environment=tenant.environment)


def current_request_id() -> str | None:
    """The request id of the work being served, for the messages it sends on."""
    keys = _correlation.get()
    return keys.get("request_id") if keys else None


class _CorrelationKeys(logging.Filter):
    """Adds the work's keys to each record a function's handler writes (a key given in `extra` wins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in (_correlation.get() or {}).items():
            if not hasattr(record, name):
                setattr(record, name, value)
        return True


_CORRELATION_FILTER = _CorrelationKeys()


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
    logger.registered_handler.addFilter(_CORRELATION_FILTER)
    logging.getLogger("docsvc")  # the parent of every project logger; its children propagate to it
    copy_config_to_registered_loggers(source_logger=logger, include={"docsvc"})
    return Observability(
        logger=logger,
        metrics=Metrics(namespace="docsvc", service=service),
        tracer=_tracer(service) if trace_aws_calls() else None,
    )


# A request or a batch with nothing to count is normal (an API error, an S3 test event); Powertools
# warns about each such invocation on stderr, where it reads like a fault.
warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)


def _tracer(service: str) -> Tracer:
    from aws_lambda_powertools import Tracer

    return Tracer(service=service)
