"""The Lambda entry point of a worker fed by an event source (SQS, a DynamoDB stream): Powertools batch
processing with partial batch failures, so one failing record is retried alone; logging, tracing and
metrics wired like the API functions.

Each record is handled correlated (docsvc.observability): its lines carry the request id that started
the work and the tenant the record names, and what it sends on carries the same request id. An SQS
message brings its request id as the message attribute `request_id` (docsvc.adapters.queues) and names
its tenant in its body (`organization_id`, `environment`); a stream record of the event log brings both
in its new image (docsvc.adapters.dynamo.events). A record that names no tenant (an S3 notification)
leaves it to its handler (`correlate_tenant`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from docsvc.observability import Observability, correlated
from docsvc.tenancy import ENVIRONMENTS, Tenant

RecordHandler = Callable[[Any], None]
WorkerHandler = Callable[[dict[str, Any], Any], PartialItemFailureResponse]
REQUEST_ID_ATTRIBUTE = "request_id"


def sqs_worker(tools: Observability, record_handler: Callable[[SQSRecord], None]) -> WorkerHandler:
    def handle(record: SQSRecord) -> None:
        with correlated(*_message_correlation(record)):
            _handled(tools, record_handler, record)

    return _batch_worker(tools, EventType.SQS, handle)


def stream_worker(tools: Observability, record_handler: Callable[[DynamoDBRecord], None]) -> WorkerHandler:
    """A failed record is reported by its sequence number: the stream offers it, and those after it,
    again."""

    def handle(record: DynamoDBRecord) -> None:
        with correlated(*_stream_correlation(record)):
            _handled(tools, record_handler, record)

    return _batch_worker(tools, EventType.DynamoDBStreams, handle)


def _batch_worker(
    tools: Observability, event_type: EventType, record_handler: RecordHandler
) -> WorkerHandler:
    processor = BatchProcessor(event_type=event_type)

    @tools.logger.inject_lambda_context
    @tools.traced
    @tools.measured
    def handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
        return process_partial_response(
            event=event, record_handler=record_handler, processor=processor, context=context
        )

    wrapped: WorkerHandler = handler
    return wrapped


def _handled(tools: Observability, record_handler: RecordHandler, record: Any) -> None:
    """One line a record, with its outcome and duration: a search by request id finds every worker
    that took part, even one whose work logged nothing else."""
    started = time.monotonic()
    try:
        record_handler(record)
    except Exception:
        tools.logger.exception("record failed", extra={"duration_ms": _since(started)})
        raise
    tools.logger.info("record handled", extra={"duration_ms": _since(started)})


def _since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _message_correlation(record: SQSRecord) -> tuple[str | None, Tenant | None]:
    attribute = record.raw_event.get("messageAttributes", {}).get(REQUEST_ID_ATTRIBUTE) or {}
    try:
        body = json.loads(record.body)
    except ValueError:
        body = None
    return attribute.get("stringValue"), _tenant_of(body)


def _stream_correlation(record: DynamoDBRecord) -> tuple[str | None, Tenant | None]:
    image = (record.raw_event.get("dynamodb") or {}).get("NewImage") or {}
    values = {name: value.get("S") for name, value in image.items() if isinstance(value, dict)}
    return values.get("request_id"), _tenant_of(values)


def _tenant_of(named: Any) -> Tenant | None:
    """The tenant a record names by `organization_id` and `environment`, if it names one."""
    if not isinstance(named, dict):
        return None
    organization, environment = named.get("organization_id"), named.get("environment")
    if not isinstance(organization, str) or environment not in ENVIRONMENTS:
        return None
    return Tenant(organization, environment)
