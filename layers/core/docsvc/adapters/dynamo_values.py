"""Between Python values and what DynamoDB stores: numbers are Decimals there."""

from __future__ import annotations

from decimal import Decimal
from typing import Any


def from_dynamo(value: Any) -> Any:
    """DynamoDB's Decimals back to ints and floats."""
    if isinstance(value, dict):
        return {key: from_dynamo(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_dynamo(item) for item in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def to_dynamo(value: Any) -> Any:
    """Floats as Decimals, which is what DynamoDB takes."""
    if isinstance(value, dict):
        return {key: to_dynamo(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_dynamo(item) for item in value]
    if isinstance(value, float):
        return Decimal(str(value))
    return value
