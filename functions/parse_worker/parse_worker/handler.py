"""SQS batch of background parses. Each message is one parse; a failing record is retried alone, and a
redelivered message finds its parse no longer `queued` and does nothing."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from docsvc.adapters.queues import read_message
from docsvc.observability import observability
from docsvc.services import parse_service
from docsvc.workers import sqs_worker

tools = observability("parse-worker")


def run_record(record: SQSRecord) -> None:
    tenant, parse_id = read_message(record.body, "parse_id")
    tools.logger.append_keys(parse_id=parse_id)
    parse_service().run(tenant, parse_id)
    tools.metrics.add_metric(name="BackgroundParses", unit=MetricUnit.Count, value=1)


handler = sqs_worker(tools, run_record)
