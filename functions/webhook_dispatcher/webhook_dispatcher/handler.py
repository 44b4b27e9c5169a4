"""DynamoDB stream of the event log: every event written (with the state change that caused it) is
read here once or more, and becomes one delivery per endpoint of its environment that wants it.
Dispatching is idempotent (delivery ids derive from event and endpoint), so a retried batch is safe."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from docsvc.adapters.dynamo.events import event_of_image
from docsvc.observability import observability
from docsvc.services import delivery_service
from docsvc.workers import stream_worker

tools = observability("webhook-dispatcher")


def dispatch_record(record: DynamoDBRecord) -> None:
    if record.raw_event.get("eventName") != "INSERT" or record.dynamodb is None:
        return
    event = event_of_image(record.dynamodb.raw_event.get("NewImage") or {})
    if event is None:
        return
    tools.logger.append_keys(event_id=event.id)
    started = delivery_service().dispatch(event)
    tools.metrics.add_metric(name="WebhookDeliveriesStarted", unit=MetricUnit.Count, value=len(started))


handler = stream_worker(tools, dispatch_record)
