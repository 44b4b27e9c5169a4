"""SQS batch of S3 events -> inspect each new object under files/. Failed records are retried alone."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_plus

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from docsvc.documents.inspect import inspect_document
from docsvc.domain.files import parse_file_key
from docsvc.observability import observability
from docsvc.services import file_service

tools = observability("file-inspector")
processor = BatchProcessor(event_type=EventType.SQS)


def inspect_record(record: SQSRecord) -> None:
    message = json.loads(record.body)
    for s3_record in message.get("Records", []):  # the s3:TestEvent sent on configuration has none
        if not str(s3_record.get("eventName", "")).startswith("ObjectCreated"):
            continue
        key = unquote_plus(s3_record["s3"]["object"]["key"])
        located = parse_file_key(key)
        if located is None:
            tools.logger.warning("ignored object outside files/", extra={"key": key})
            continue
        tenant, file_id = located
        found = file_service().inspect(tenant, file_id, inspect_document)
        tools.metrics.add_metric(
            name="FilesInspected" if found else "FilesGoneBeforeInspection", unit=MetricUnit.Count, value=1
        )
        tools.logger.info(
            "inspected" if found else "file deleted before inspection", extra={"file_id": file_id}
        )


@tools.logger.inject_lambda_context
@tools.tracer.capture_lambda_handler(capture_response=False)
@tools.metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> PartialItemFailureResponse:
    return process_partial_response(
        event=event, record_handler=inspect_record, processor=processor, context=context
    )
