"""SQS batch of S3 events -> inspect each new object under files/. Failed records are retried alone."""

from __future__ import annotations

import json
from urllib.parse import unquote_plus

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from docsvc.documents.inspect import inspect_document
from docsvc.domain.files import parse_file_key
from docsvc.observability import correlate_tenant, observability
from docsvc.services import file_service
from docsvc.workers import sqs_worker

tools = observability("file-inspector")


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
        correlate_tenant(tenant)
        found = file_service().inspect(tenant, file_id, inspect_document)
        tools.metrics.add_metric(
            name="FilesInspected" if found else "FilesGoneBeforeInspection", unit=MetricUnit.Count, value=1
        )
        tools.logger.info(
            "inspected" if found else "file deleted before inspection", extra={"file_id": file_id}
        )


handler = sqs_worker(tools, inspect_record)
