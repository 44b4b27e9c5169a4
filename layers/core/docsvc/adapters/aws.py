"""boto3 clients and resources, built lazily on first use and shared per process.

boto3 itself is imported on first use too: a function that answers from memory (or refuses a request
without a key) never pays for it. The endpoint comes from boto3's own `AWS_ENDPOINT_URL`, which the
local stack sets to its emulator.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.config import Config
    from mypy_boto3_dynamodb.service_resource import DynamoDBServiceResource
    from mypy_boto3_s3.client import S3Client
    from mypy_boto3_sqs.client import SQSClient


def _config(**extra: Any) -> Config:
    from botocore.config import Config

    defaults: dict[str, Any] = {
        "retries": {"mode": "standard", "max_attempts": 4},
        "connect_timeout": 3,
        "read_timeout": 20,
    }
    return Config(**(defaults | extra))


@cache
def dynamodb() -> DynamoDBServiceResource:
    import boto3

    return boto3.resource("dynamodb", config=_config())


@cache
def s3() -> S3Client:
    import boto3

    return boto3.client("s3", config=_config(signature_version="s3v4", s3={"addressing_style": "path"}))


@cache
def sqs() -> SQSClient:
    import boto3

    return boto3.client("sqs", config=_config())


@cache
def secretsmanager() -> Any:
    import boto3

    return boto3.client("secretsmanager", config=_config())


@cache
def cognito_idp() -> Any:
    import boto3

    return boto3.client("cognito-idp", config=_config())


BEDROCK_SECONDS = 60


@cache
def bedrock_runtime() -> Any:
    """Remote models answer slowly: a longer read timeout, and one retry at most."""
    import boto3

    return boto3.client(
        "bedrock-runtime",
        config=_config(read_timeout=BEDROCK_SECONDS, retries={"mode": "standard", "max_attempts": 2}),
    )


INVOKE_SECONDS = 30  # longer than any function a request waits for may run (the document reader: 28 s)


@cache
def lambda_client() -> Any:
    """Synchronous invocations: a read timeout past the invoked function's own, and no retry (a retry
    would run the function twice)."""
    import boto3

    return boto3.client(
        "lambda", config=_config(read_timeout=INVOKE_SECONDS, retries={"mode": "standard", "max_attempts": 1})
    )


def table(name: str) -> Any:
    return _table(name)


@cache
def _table(name: str) -> Any:
    """Kept: boto3 builds a Table's resource class anew at each `Table()` call."""
    return dynamodb().Table(name)


def reset() -> None:
    """Forget every client (tests swap endpoints between cases)."""
    for factory in (dynamodb, _table, s3, sqs, secretsmanager, cognito_idp, bedrock_runtime, lambda_client):
        factory.cache_clear()


_REFUSED = frozenset({"ConditionalCheckFailedException", "TransactionCanceledException"})


def condition_refused(error: Exception) -> bool:
    """Whether `error` is DynamoDB refusing a write (or a transaction) whose condition did not hold."""
    from botocore.exceptions import ClientError

    return isinstance(error, ClientError) and error.response["Error"]["Code"] in _REFUSED


def written(write: Callable[[], object]) -> bool:
    """Run a conditional write: True when it was written, False (and nothing written) when DynamoDB
    refused its condition."""
    try:
        write()
    except Exception as error:
        if condition_refused(error):
            return False
        raise
    return True


class DynamoTable:
    """Base of the repositories: one DynamoDB table, looked up on use (clients are built lazily)."""

    def __init__(self, table_name: str) -> None:
        self._table_name = table_name

    @property
    def _table(self) -> Any:
        return table(self._table_name)
