"""The Lambda entry point of a worker fed by an event source (SQS, a DynamoDB stream): Powertools batch
processing with partial batch failures, so one failing record is retried alone; logging, tracing and
metrics wired like the API functions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from docsvc.observability import Observability

RecordHandler = Callable[[Any], None]
WorkerHandler = Callable[[dict[str, Any], Any], PartialItemFailureResponse]


def sqs_worker(tools: Observability, record_handler: Callable[[SQSRecord], None]) -> WorkerHandler:
    return _batch_worker(tools, EventType.SQS, record_handler)


def stream_worker(tools: Observability, record_handler: Callable[[DynamoDBRecord], None]) -> WorkerHandler:
    """A failed record is reported by its sequence number: the stream offers it, and those after it,
    again."""
    return _batch_worker(tools, EventType.DynamoDBStreams, record_handler)


def _batch_worker(
    tools: Observability, event_type: EventType, record_handler: RecordHandler
) -> WorkerHandler:
    processor = BatchProcessor(event_type=event_type)

    @tools.logger.inject_lambda_context
    @tools.traced
    @tools.metrics.log_metrics(capture_cold_start_metric=True)
    def handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
        return process_partial_response(
            event=event, record_handler=record_handler, processor=processor, context=context
        )

    wrapped: WorkerHandler = handler
    return wrapped
