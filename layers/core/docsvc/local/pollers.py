"""Pollers: feed SQS messages and DynamoDB stream records to worker functions the way a Lambda event
source mapping does.

SQS: batch size from the template; a batch the handler answers with `batchItemFailures` has only the
other messages deleted; a batch whose handler raises or times out is left alone, so its messages
reappear after the queue's visibility timeout and go to the dead-letter queue after `maxReceiveCount`.
DynamoDB streams: see `StreamPoller`. Scheduled functions are invoked at their rate.
"""

from __future__ import annotations

import base64
import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import boto3

from docsvc.local.functions import LocalFunction, QueueTrigger, ScheduleTrigger, StreamTrigger

_log = logging.getLogger("docsvc.local.pollers")
IDLE_STREAM_WAIT_SECONDS = 1.0  # Lambda reads a shard about once a second when it is quiet
# New shards are looked for this often, and whenever a shard is read to its end, not at every read:
# a DescribeStream per read doubled the emulator calls of every poll, in the process serving requests.
SHARD_DISCOVERY_SECONDS = 10.0


def sqs_record(message: dict[str, Any], queue_arn: str, region: str) -> dict[str, Any]:
    return {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": message["Body"],
        "attributes": message.get("Attributes", {}),
        "messageAttributes": {
            name: _lambda_attribute(value) for name, value in message.get("MessageAttributes", {}).items()
        },
        "md5OfBody": message.get("MD5OfBody", ""),
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": region,
    }


def _lambda_attribute(value: dict[str, Any]) -> dict[str, Any]:
    """A message attribute as Lambda's SQS event spells it (camelCase), not as ReceiveMessage does."""
    binary = value.get("BinaryValue")
    return {
        "stringValue": value.get("StringValue"),
        "binaryValue": base64.b64encode(binary).decode("ascii") if binary is not None else None,
        "stringListValues": value.get("StringListValues", []),
        "binaryListValues": [
            base64.b64encode(item).decode("ascii") for item in value.get("BinaryListValues", [])
        ],
        "dataType": value.get("DataType", "String"),
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


def stream_record(record: dict[str, Any], stream_arn: str, region: str) -> dict[str, Any]:
    """A record of get_records as Lambda delivers it: JSON values only (a timestamp in epoch seconds,
    binary attributes in base64), with the stream's ARN and region."""
    return {**_as_json(record), "eventSourceARN": stream_arn, "awsRegion": record.get("awsRegion", region)}


def _as_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, datetime):
        return int(value.timestamp())
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode("ascii")
    return value


@dataclass
class _Shard:
    shard_id: str
    parent_id: str | None
    iterator: str | None  # where the next get_records reads; None once a closed shard is read to its end
    position: str  # where the first iterator started
    last_sequence: str | None = None  # of the last record read, filtered or not
    pending: list[dict[str, Any]] = field(default_factory=list)  # read and filtered, not yet done
    failures: int = 0  # failed invocations of the first pending record

    @property
    def finished(self) -> bool:
        return self.iterator is None and not self.pending


class StreamPoller(threading.Thread):
    """Feeds a DynamoDB stream to a function, shard by shard and in order, like Lambda's event source
    mapping.

    The shards that exist when the poller is created are read from the trigger's starting position
    (TRIM_HORIZON or LATEST); shards that appear later from TRIM_HORIZON, each once its parent is
    read. Records the filter does not pass count as done. Each poll invokes the function at most once
    per shard with up to `batch_size` records, as `{"Records": [...]}`:
    - success: the batch is done and the shard moves on;
    - the handler raises or times out: the same batch is offered again on the next poll, and dropped
      (with an error logged) once it failed `maximum_retry_attempts` retries; without that limit it is
      retried for ever;
    - with ReportBatchItemFailures, an answer naming records in `batchItemFailures` (by
      `dynamodb.SequenceNumber`) makes the records from the first failed one onward the next batch,
      the earlier ones are done; an identifier not in the batch fails the whole batch, as on AWS.
    """

    def __init__(
        self, function: LocalFunction, trigger: StreamTrigger, region: str, stop: threading.Event
    ) -> None:
        super().__init__(name=f"stream-{function.logical_id}", daemon=True)
        self.function = function
        self.trigger = trigger
        self.region = region
        self.stop = stop
        self._streams: Any = boto3.client("dynamodbstreams", region_name=region)
        self._shards: dict[str, _Shard] = {}
        self._retrying = False
        self._discovered_at = 0.0
        self._ended: set[str] = set()  # shards read to their end when new shards were last looked for
        self._discover(trigger.starting_position)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                delivered = self.poll_once()
            except Exception:
                if not self.stop.is_set():
                    _log.exception("polling %s failed", self.trigger.stream_arn)
                    self.stop.wait(1)
                continue
            if self._retrying:
                self.stop.wait(1)  # a failing batch: do not hammer the function
            elif delivered == 0:
                self.stop.wait(IDLE_STREAM_WAIT_SECONDS)

    def poll_once(self) -> int:
        """Read each shard and invoke the function once per shard that has records; the number of
        records handed to the function."""
        ended = {shard_id for shard_id, shard in self._shards.items() if shard.iterator is None}
        if ended - self._ended or time.monotonic() - self._discovered_at >= SHARD_DISCOVERY_SECONDS:
            self._discover("TRIM_HORIZON")  # a shard that ends has children
            self._ended = ended
        delivered = 0
        for shard in list(self._shards.values()):
            parent = self._shards.get(shard.parent_id or "")
            if shard.finished or (parent is not None and not parent.finished):
                continue
            self._read(shard)
            if shard.pending:
                delivered += self._deliver(shard)
        self._retrying = any(shard.failures for shard in self._shards.values())
        return delivered

    # ------------------------------------------------------------------ shards
    def _discover(self, position: str) -> None:
        """Start an iterator at `position` for every shard not known yet."""
        self._discovered_at = time.monotonic()
        request: dict[str, Any] = {"StreamArn": self.trigger.stream_arn}
        while True:
            description = self._streams.describe_stream(**request)["StreamDescription"]
            for shard in description.get("Shards", []):
                shard_id = shard["ShardId"]
                if shard_id in self._shards:
                    continue
                shard_state = _Shard(shard_id, shard.get("ParentShardId"), None, position)
                shard_state.iterator = self._iterator(shard_state)
                self._shards[shard_id] = shard_state
            last = description.get("LastEvaluatedShardId")
            if not last:
                return
            request["ExclusiveStartShardId"] = last

    def _iterator(self, shard: _Shard) -> str | None:
        """A new iterator: after the last record read, or at the shard's starting position."""
        request = {"StreamArn": self.trigger.stream_arn, "ShardId": shard.shard_id}
        if shard.last_sequence is None:
            request["ShardIteratorType"] = shard.position
        else:
            request |= {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": shard.last_sequence}
        iterator: str | None = self._streams.get_shard_iterator(**request).get("ShardIterator")
        return iterator

    def _read(self, shard: _Shard, max_reads: int = 20) -> None:
        """Fill the shard's batch with records the filter passes, reading until it is full or the
        shard has nothing more for now. A batch being retried is left as it is."""
        for _ in range(max_reads):
            wanted = self.trigger.batch_size - len(shard.pending)
            if shard.iterator is None or wanted <= 0 or shard.failures:
                return
            try:
                answer = self._streams.get_records(ShardIterator=shard.iterator, Limit=min(wanted, 1000))
            except self._streams.exceptions.ExpiredIteratorException:
                shard.iterator = self._iterator(shard)  # AWS's expire after 15 minutes
                continue
            shard.iterator = answer.get("NextShardIterator")
            records = answer.get("Records", [])
            if records:
                shard.last_sequence = records[-1]["dynamodb"]["SequenceNumber"]
            names = self.trigger.event_names
            shard.pending.extend(
                record for record in records if names is None or record.get("eventName") in names
            )
            if not records:
                return

    # ------------------------------------------------------------------ invocation
    def _deliver(self, shard: _Shard) -> int:
        batch = shard.pending
        event = {"Records": [stream_record(record, self.trigger.stream_arn, self.region) for record in batch]}
        try:
            result = self.function.invoke(event)
        except Exception:
            _log.exception("%s failed a batch of %d stream records", self.function.logical_id, len(batch))
            self._failed(shard, progress=0)
            return len(batch)
        first_failed = self._first_failed(batch, result)
        if first_failed is None:
            shard.pending, shard.failures = [], 0
        else:
            self._failed(shard, progress=first_failed)
        return len(batch)

    def _first_failed(self, batch: list[dict[str, Any]], result: Any) -> int | None:
        """The position in the batch from which the records are to be retried; None when all are done."""
        if not self.trigger.reports_failures or not isinstance(result, dict):
            return None
        failures = result.get("batchItemFailures") or []
        if not failures:
            return None
        positions = {record["dynamodb"]["SequenceNumber"]: index for index, record in enumerate(batch)}
        found = [positions.get(str(item.get("itemIdentifier") or "")) for item in failures]
        if any(index is None for index in found):
            return 0  # an identifier Lambda cannot match fails the whole batch
        return min(index for index in found if index is not None)

    def _failed(self, shard: _Shard, progress: int) -> None:
        """The records before `progress` are done; the rest are offered again, unless they have
        failed more retries than allowed."""
        shard.pending = shard.pending[progress:]
        shard.failures = 1 if progress else shard.failures + 1
        limit = self.trigger.maximum_retry_attempts
        if limit is not None and shard.failures > limit:
            first = shard.pending[0]["dynamodb"]["SequenceNumber"]
            _log.error(
                "%s: dropping %d stream records from sequence number %s after %d retries",
                self.function.logical_id,
                len(shard.pending),
                first,
                limit,
            )
            shard.pending, shard.failures = [], 0
        else:
            _log.warning(
                "%s: %d stream records will be offered again (failure %d, retries allowed: %s)",
                self.function.logical_id,
                len(shard.pending),
                shard.failures,
                "unlimited" if limit is None else limit,
            )
