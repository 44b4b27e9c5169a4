"""Pollers: feed SQS messages to worker functions the way a Lambda event source mapping does.

Batch size from the template; a batch the handler answers with `batchItemFailures` has only the other
messages deleted; a batch whose handler raises or times out is left alone, so its messages reappear
after the queue's visibility timeout and go to the dead-letter queue after `maxReceiveCount`.
Scheduled functions are invoked at their rate.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import boto3

from docsvc.local.functions import LocalFunction, QueueTrigger, ScheduleTrigger

_log = logging.getLogger("docsvc.local.pollers")


def sqs_record(message: dict[str, Any], queue_arn: str, region: str) -> dict[str, Any]:
    return {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": message["Body"],
        "attributes": message.get("Attributes", {}),
        "messageAttributes": message.get("MessageAttributes", {}),
        "md5OfBody": message.get("MD5OfBody", ""),
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": region,
    }


class QueuePoller(threading.Thread):
    def __init__(
        self,
        function: LocalFunction,
        trigger: QueueTrigger,
        queue_url: str,
        region: str,
        stop: threading.Event,
    ) -> None:
        super().__init__(name=f"poll-{function.logical_id}", daemon=True)
        self.function = function
        self.trigger = trigger
        self.queue_url = queue_url
        self.region = region
        self.stop = stop
        self._sqs = boto3.client("sqs", region_name=region)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.poll_once(wait_seconds=1)
            except Exception:
                if not self.stop.is_set():
                    _log.exception("polling %s failed", self.queue_url)
                    time.sleep(1)

    def poll_once(self, wait_seconds: int = 0) -> int:
        """One receive and one invocation; the number of messages handed to the function."""
        messages = self._sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=min(self.trigger.batch_size, 10),
            WaitTimeSeconds=wait_seconds,
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
        ).get("Messages", [])
        if not messages:
            return 0
        event = {
            "Records": [
                sqs_record(dict(message), self.trigger.queue_arn, self.region) for message in messages
            ]
        }
        try:
            result = self.function.invoke(event)
        except Exception:
            _log.exception(
                "%s failed a batch of %d; it will be retried", self.function.logical_id, len(messages)
            )
            return len(messages)
        failed: set[str] = set()
        if self.trigger.reports_failures and isinstance(result, dict):
            failed = {item["itemIdentifier"] for item in result.get("batchItemFailures", [])}
        done = [message for message in messages if message["MessageId"] not in failed]
        if done:
            self._sqs.delete_message_batch(
                QueueUrl=self.queue_url,
                Entries=[
                    {"Id": str(index), "ReceiptHandle": message["ReceiptHandle"]}
                    for index, message in enumerate(done)
                ],
            )
        return len(messages)


class SchedulePoller(threading.Thread):
    def __init__(self, function: LocalFunction, trigger: ScheduleTrigger, stop: threading.Event) -> None:
        super().__init__(name=f"schedule-{function.logical_id}", daemon=True)
        self.function = function
        self.trigger = trigger
        self.stop = stop

    def run(self) -> None:
        while not self.stop.wait(self.trigger.seconds):
            event = {
                "source": "aws.events",
                "detail-type": "Scheduled Event",
                "detail": {},
                "resources": [self.trigger.name],
            }
            try:
                self.function.invoke(event)
            except Exception:
                _log.exception("scheduled %s failed", self.function.logical_id)
