"""DynamoDB stream event sources in the local stack: a table's stream fed to a function against moto."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from docsvc import services
from docsvc.local.emulator import adapt_emulator
from docsvc.local.pollers import StreamPoller
from docsvc.local.stack import REGION, Deployment, deploy_template
from moto import mock_aws

from tests.conftest import drain_streams, stream_pollers

STREAM_TEMPLATE = """
Transform: AWS::Serverless-2016-10-31
Resources:
  EventsTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: Events
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: pk
          AttributeType: S
      KeySchema:
        - AttributeName: pk
          KeyType: HASH
      StreamSpecification:
        StreamViewType: NEW_IMAGE
  Projector:
    Type: AWS::Serverless::Function
    Properties:
      Handler: tests.integration.test_stream_poller.project
      Timeout: 5
      Events:
        NewEvents:
          Type: DynamoDB
          Properties:
            Stream: !GetAtt EventsTable.StreamArn
            StartingPosition: TRIM_HORIZON
            BatchSize: 3
            MaximumRetryAttempts: 2
            BisectBatchOnFunctionError: true
            FunctionResponseTypes: [ReportBatchItemFailures]
            FilterCriteria:
              Filters:
                - Pattern: '{"eventName": ["INSERT"]}'
"""

# What the handler saw: the keys of each batch, one list per invocation.
batches: list[list[str]] = []
records: list[dict[str, Any]] = []
# How the handler answers: raise while crashes_left > 0; report a key of `fail_once` failed the first
# time it is seen.
behaviour: dict[str, Any] = {"crashes_left": 0, "fail_once": set()}


def project(event: dict[str, Any], context: Any) -> dict[str, Any]:
    keys = [record["dynamodb"]["Keys"]["pk"]["S"] for record in event["Records"]]
    batches.append(keys)
    records.extend(event["Records"])
    if behaviour["crashes_left"] > 0:
        behaviour["crashes_left"] -= 1
        raise RuntimeError("the projection failed")
    failed = [
        record
        for record in event["Records"]
        if record["dynamodb"]["Keys"]["pk"]["S"] in behaviour["fail_once"]
    ]
    behaviour["fail_once"] -= {record["dynamodb"]["Keys"]["pk"]["S"] for record in failed}
    return {
        "batchItemFailures": [{"itemIdentifier": record["dynamodb"]["SequenceNumber"]} for record in failed]
    }


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Deployment]:
    """The template above in a fresh moto account, the handler's notes cleared."""
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    batches.clear()
    records.clear()
    behaviour.update(crashes_left=0, fail_once=set())
    template = tmp_path / "template.yaml"
    template.write_text(STREAM_TEMPLATE)
    adapt_emulator()
    with mock_aws():
        services.reset()
        deployment = deploy_template(template)
        yield deployment
        for function in deployment.functions:
            function.shutdown()
    services.reset()


def delivered_keys() -> list[str]:
    return [key for batch in batches for key in batch]


def put(*keys: str) -> None:
    client = boto3.client("dynamodb", region_name=REGION)
    for key in keys:
        client.put_item(TableName="Events", Item={"pk": {"S": key}, "version": {"N": "1"}})


def test_the_table_gets_a_stream_of_new_images(stack: Deployment) -> None:
    table = boto3.client("dynamodb", region_name=REGION).describe_table(TableName="Events")["Table"]

    assert table["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    assert stack.provisioned.attributes[("EventsTable", "StreamArn")] == table["LatestStreamArn"]
    assert stack.function("Projector").streams[0].stream_arn == table["LatestStreamArn"]


def test_inserts_reach_the_function_once_each_in_order_in_batches(stack: Deployment) -> None:
    put("a", "b", "c", "d", "e")

    assert drain_streams(stack, "Projector") == 5

    assert batches == [["a", "b", "c"], ["d", "e"]]
    first = records[0]
    assert first["eventName"] == "INSERT"
    assert first["eventSource"] == "aws:dynamodb"
    assert first["eventSourceARN"] == stack.function("Projector").streams[0].stream_arn
    assert first["awsRegion"] == REGION
    assert first["dynamodb"]["NewImage"] == {"pk": {"S": "a"}, "version": {"N": "1"}}
    assert isinstance(first["dynamodb"]["ApproximateCreationDateTime"], int)


def test_later_drains_go_on_where_the_last_stopped(stack: Deployment) -> None:
    put("a", "b")
    assert drain_streams(stack, "Projector") == 2

    put("c")

    assert drain_streams(stack, "Projector") == 1
    assert drain_streams(stack, "Projector") == 0
    assert batches == [["a", "b"], ["c"]]


def test_modifications_and_removals_are_filtered_out(stack: Deployment) -> None:
    client = boto3.client("dynamodb", region_name=REGION)
    put("a")
    client.update_item(
        TableName="Events",
        Key={"pk": {"S": "a"}},
        UpdateExpression="SET version = :two",
        ExpressionAttributeValues={":two": {"N": "2"}},
    )
    client.put_item(TableName="Events", Item={"pk": {"S": "a"}, "version": {"N": "3"}})  # a MODIFY
    client.delete_item(TableName="Events", Key={"pk": {"S": "a"}})
    put("b")

    assert drain_streams(stack, "Projector") == 2

    assert batches == [["a", "b"]]
    assert {record["eventName"] for record in records} == {"INSERT"}


def test_a_batch_whose_handler_raises_is_offered_again_on_the_next_poll(stack: Deployment) -> None:
    (poller,) = stream_pollers(stack, "Projector")
    behaviour["crashes_left"] = 1
    put("a", "b")

    assert poller.poll_once() == 2
    put("c")  # not part of the retried batch
    assert poller.poll_once() == 2
    assert poller.poll_once() == 1
    assert poller.poll_once() == 0

    assert batches == [["a", "b"], ["a", "b"], ["c"]]


def test_a_batch_failing_past_the_retry_attempts_is_dropped(
    stack: Deployment, caplog: pytest.LogCaptureFixture
) -> None:
    (poller,) = stream_pollers(stack, "Projector")
    behaviour["crashes_left"] = 10
    put("a")

    counts = [poller.poll_once() for _ in range(4)]

    assert counts == [1, 1, 1, 0]  # the first try and MaximumRetryAttempts (2) retries
    assert "dropping 1 stream records" in caplog.text
    behaviour["crashes_left"] = 0
    put("b")
    assert poller.poll_once() == 1
    assert batches[-1] == ["b"]


def test_a_partial_failure_offers_the_records_from_the_failed_one_on_again(stack: Deployment) -> None:
    behaviour["fail_once"] = {"b"}
    put("a", "b", "c")

    assert drain_streams(stack, "Projector") == 5

    assert batches == [["a", "b", "c"], ["b", "c"]]


def test_an_unknown_item_identifier_fails_the_whole_batch(stack: Deployment) -> None:
    function = stack.function("Projector")
    function._handler = lambda event, context: {"batchItemFailures": [{"itemIdentifier": "nonsense"}]}
    (poller,) = stream_pollers(stack, "Projector")
    put("a", "b")

    assert [poller.poll_once() for _ in range(4)] == [2, 2, 2, 0]


def test_transactional_inserts_arrive(stack: Deployment) -> None:
    boto3.client("dynamodb", region_name=REGION).transact_write_items(
        TransactItems=[
            {
                "Put": {
                    "TableName": "Events",
                    "Item": {"pk": {"S": key}},
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
            for key in ("t1", "t2")
        ]
    )

    assert drain_streams(stack, "Projector") == 2

    assert batches == [["t1", "t2"]]


def test_a_latest_poller_sees_only_what_is_written_after_it_started(stack: Deployment) -> None:
    function = stack.function("Projector")
    put("before")
    latest = dataclasses.replace(function.streams[0], starting_position="LATEST")
    poller = StreamPoller(function, latest, REGION, threading.Event())
    put("after")

    assert poller.poll_once() == 1
    assert batches == [["after"]]


def test_the_running_poller_feeds_the_function_until_stopped(stack: Deployment) -> None:
    stop = threading.Event()
    function = stack.function("Projector")
    poller = StreamPoller(function, function.streams[0], REGION, stop)
    poller.start()
    try:
        put("a", "b")
        for _ in range(50):
            if delivered_keys() == ["a", "b"]:
                break
            stop.wait(0.1)
    finally:
        stop.set()
        poller.join(timeout=3)

    assert delivered_keys() == ["a", "b"]
    assert not poller.is_alive()


def test_shards_are_looked_for_every_so_often_not_before_every_read(stack: Deployment) -> None:
    from docsvc.local.pollers import SHARD_DISCOVERY_SECONDS

    function = stack.function("Projector")
    poller = StreamPoller(function, function.streams[0], REGION, threading.Event())
    described: list[int] = []
    describe = poller._streams.describe_stream
    poller._streams.describe_stream = lambda **kw: described.append(1) or describe(**kw)

    put("a")
    delivered = [poller.poll_once() for _ in range(3)]
    assert described == []
    poller._discovered_at -= SHARD_DISCOVERY_SECONDS  # as if that long had passed since the last look
    put("b")
    delivered.append(poller.poll_once())

    assert described == [1]
    assert delivered == [1, 0, 0, 1]
