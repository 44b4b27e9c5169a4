"""Scheduled: every unfinished job whose expires_at has passed becomes `expired` (with its event), the
request and response of every job past its expires_at are removed (DynamoDB and S3), and jobs stranded
before the worker got them are sent again."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from docsvc.observability import observability
from docsvc.services import job_service

tools = observability("job-sweeper")


@tools.logger.inject_lambda_context
@tools.traced
@tools.measured
def handler(event: dict[str, Any], context: Any) -> dict[str, int]:
    counts = job_service().sweep()
    tools.metrics.add_metric(name="JobsExpired", unit=MetricUnit.Count, value=counts["expired"])
    tools.metrics.add_metric(name="JobsResent", unit=MetricUnit.Count, value=counts["resent"])
    tools.metrics.add_metric(name="JobDataCleared", unit=MetricUnit.Count, value=counts["cleared"])
    tools.logger.info("jobs swept", extra=counts)
    return counts
