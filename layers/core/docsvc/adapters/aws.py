"""boto3 clients and resources, built lazily on first use and shared per process.

The endpoint comes from boto3's own `AWS_ENDPOINT_URL`, which the local stack sets to its emulator.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.service_resource import DynamoDBServiceResource
    from mypy_boto3_s3.client import S3Client
    from mypy_boto3_sqs.client import SQSClient

_CONFIG = Config(retries={"mode": "standard", "max_attempts": 4}, connect_timeout=3, read_timeout=20)


@cache
def dynamodb() -> DynamoDBServiceResource:
    return boto3.resource("dynamodb", config=_CONFIG)


@cache
def s3() -> S3Client:
    return boto3.client("s3", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))


@cache
def sqs() -> SQSClient:
    return boto3.client("sqs", config=_CONFIG)


def table(name: str) -> Any:
    return dynamodb().Table(name)


def reset() -> None:
    """Forget every client (tests swap endpoints between cases)."""
    for factory in (dynamodb, s3, sqs):
        factory.cache_clear()
