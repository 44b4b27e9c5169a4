"""The emulator's transactions, adapted to copy only what they touch: all or nothing, streams included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from docsvc.local.emulator import adapt_emulator
from moto import mock_aws

REGION = "us-east-1"


@pytest.fixture
def dynamodb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}.items():
        monkeypatch.setenv(name, value)
    adapt_emulator()
    with mock_aws():
        client = boto3.client("dynamodb", region_name=REGION)
        for name, range_key in (("Plain", None), ("Ranged", "sk")):
            keys = [("pk", "HASH")] + ([(range_key, "RANGE")] if range_key else [])
            client.create_table(
                TableName=name,
                KeySchema=[{"AttributeName": key, "KeyType": kind} for key, kind in keys],
                AttributeDefinitions=[{"AttributeName": key, "AttributeType": "S"} for key, _ in keys],
                BillingMode="PAY_PER_REQUEST",
                StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
            )
        yield client


def put(table: str, pk: str, value: str, **more: str) -> dict[str, Any]:
    item = {"pk": {"S": pk}, "value": {"S": value}} | {name: {"S": text} for name, text in more.items()}
    return {"Put": {"TableName": table, "Item": item}}


def value_of(client: Any, table: str, key: dict[str, str]) -> str | None:
    item = client.get_item(TableName=table, Key={name: {"S": text} for name, text in key.items()}).get("Item")
    return None if item is None else str(item["value"]["S"])


def stream_events(client: Any, table: str) -> list[str]:
    arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    streams = boto3.client("dynamodbstreams", region_name=REGION)
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")
    records = streams.get_records(ShardIterator=iterator["ShardIterator"])["Records"]
    return [record["eventName"] for record in records]


def test_a_failed_condition_leaves_every_item_and_stream_as_it_was(dynamodb: Any) -> None:
    for pk in ("kept", "deleted"):
        dynamodb.put_item(TableName="Plain", Item={"pk": {"S": pk}, "value": {"S": "before"}})
    dynamodb.put_item(TableName="Ranged", Item={"pk": {"S": "a"}, "sk": {"S": "1"}, "value": {"S": "before"}})
    refused = {
        "ConditionCheck": {
            "TableName": "Plain",
            "Key": {"pk": {"S": "kept"}},
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }
    with pytest.raises(ClientError) as raised:
        dynamodb.transact_write_items(
            TransactItems=[
                put("Plain", "new", "written"),
                put("Ranged", "a", "overwritten", sk="1"),
                {
                    "Update": {
                        "TableName": "Ranged",
                        "Key": {"pk": {"S": "a"}, "sk": {"S": "2"}},
                        "UpdateExpression": "SET #v = :v",
                        "ExpressionAttributeNames": {"#v": "value"},
                        "ExpressionAttributeValues": {":v": {"S": "created"}},
                    }
                },
                {"Delete": {"TableName": "Plain", "Key": {"pk": {"S": "deleted"}}}},
                refused,
            ]
        )

    assert raised.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert value_of(dynamodb, "Plain", {"pk": "new"}) is None
    assert value_of(dynamodb, "Plain", {"pk": "kept"}) == "before"
    assert value_of(dynamodb, "Plain", {"pk": "deleted"}) == "before"
    assert value_of(dynamodb, "Ranged", {"pk": "a", "sk": "1"}) == "before"
    assert value_of(dynamodb, "Ranged", {"pk": "a", "sk": "2"}) is None
    assert stream_events(dynamodb, "Plain") == ["INSERT", "INSERT"]
    assert stream_events(dynamodb, "Ranged") == ["INSERT"]


def test_a_transaction_that_holds_is_written_whole(dynamodb: Any) -> None:
    dynamodb.put_item(TableName="Plain", Item={"pk": {"S": "old"}, "value": {"S": "before"}})

    dynamodb.transact_write_items(
        TransactItems=[
            put("Plain", "old", "after"),
            put("Ranged", "b", "new", sk="1"),
        ]
    )

    assert value_of(dynamodb, "Plain", {"pk": "old"}) == "after"
    assert value_of(dynamodb, "Ranged", {"pk": "b", "sk": "1"}) == "new"
    assert stream_events(dynamodb, "Plain") == ["INSERT", "MODIFY"]


def test_two_writes_of_one_item_are_refused_and_nothing_is_written(dynamodb: Any) -> None:
    with pytest.raises(ClientError) as raised:
        dynamodb.transact_write_items(TransactItems=[put("Plain", "twice", "1"), put("Plain", "twice", "2")])

    assert raised.value.response["Error"]["Code"] == "ValidationException"
    assert value_of(dynamodb, "Plain", {"pk": "twice"}) is None
    assert stream_events(dynamodb, "Plain") == []


def test_a_transaction_copies_only_the_items_it_names(dynamodb: Any) -> None:
    """The whole table is not copied: a table of many items costs a transaction nothing more."""
    from moto.dynamodb.models import Table

    for number in range(50):
        dynamodb.put_item(TableName="Plain", Item={"pk": {"S": f"item-{number}"}, "value": {"S": "x"}})
    copied: list[object] = []
    original = Table.__deepcopy__ if hasattr(Table, "__deepcopy__") else None
    Table.__deepcopy__ = lambda self, memo: copied.append(self) or self  # type: ignore[attr-defined]
    try:
        dynamodb.transact_write_items(TransactItems=[put("Plain", "item-7", "y")])
    finally:
        if original is None:
            del Table.__deepcopy__  # type: ignore[attr-defined]
        else:
            Table.__deepcopy__ = original  # type: ignore[attr-defined]

    assert copied == []
    assert value_of(dynamodb, "Plain", {"pk": "item-7"}) == "y"


def test_item_reads_answer_every_kind_of_value_as_it_was_written(dynamodb: Any) -> None:
    """Query, Scan and GetItem answers are written as plain JSON (not moto's serializer): every type
    of DynamoDB value comes back as it went in, binary ones too, and a page's key goes with it."""
    item = {
        "pk": {"S": "a"},
        "sk": {"S": "1"},
        "text": {"S": "Grüße"},
        "number": {"N": "12.50"},
        "binary": {"B": b"\x00\xffpdf"},
        "strings": {"SS": ["x", "y"]},
        "numbers": {"NS": ["1", "2"]},
        "binaries": {"BS": [b"\x01", b"\x02"]},
        "nested": {"M": {"list": {"L": [{"N": "1"}, {"NULL": True}, {"BOOL": False}, {"B": b"\x7f"}]}}},
    }
    dynamodb.put_item(TableName="Ranged", Item=item)
    dynamodb.put_item(TableName="Ranged", Item={"pk": {"S": "a"}, "sk": {"S": "2"}})

    got = dynamodb.get_item(TableName="Ranged", Key={"pk": {"S": "a"}, "sk": {"S": "1"}})["Item"]
    page = dynamodb.query(
        TableName="Ranged",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": "a"}},
        Limit=1,
    )
    scanned = dynamodb.scan(TableName="Ranged")["Items"]

    def canonical(value: dict[str, Any]) -> dict[str, Any]:
        return {
            name: {kind: sorted(v) if kind in ("SS", "NS", "BS") else v for kind, v in typed.items()}
            for name, typed in value.items()
        }

    assert canonical(got) == canonical(item)
    assert [canonical(found) for found in page["Items"]] == [canonical(item)]
    assert page["LastEvaluatedKey"] == {"pk": {"S": "a"}, "sk": {"S": "1"}}
    assert len(scanned) == 2 and canonical(item) in [canonical(found) for found in scanned]
