"""SQS batch of delivery attempts. A message names its delivery and attempt; a copy of a message
already handled finds the delivery moved on and does nothing."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from docsvc.adapters.queues import read_delivery_message
from docsvc.observability import observability
from docsvc.services import delivery_service
from docsvc.workers import sqs_worker

tools = observability("webhook-worker")


def attempt_record(record: SQSRecord) -> None:
    tenant, delivery_id, attempt = read_delivery_message(record.body)
    tools.logger.append_keys(delivery_id=delivery_id, attempt=attempt)
    delivery_service().attempt(tenant, delivery_id, attempt)
    tools.metrics.add_metric(name="WebhookMessages", unit=MetricUnit.Count, value=1)


handler = sqs_worker(tools, attempt_record)
