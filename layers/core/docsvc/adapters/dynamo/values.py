"""Between Python values and what DynamoDB stores: numbers are Decimals there."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from docsvc.tenancy import Tenant


def from_dynamo(value: Any) -> Any:
    """DynamoDB's Decimals back to ints and floats."""
    if isinstance(value, dict):
        return {key: from_dynamo(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_dynamo(item) for item in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def record_fields(item: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    """The attributes of `item` that are fields of `model`, Decimals back to numbers; and, for a model
    with an `environment`, the environment of the item's partition key (items written before records
    carried their environment have none, and the key is what decides)."""
    fields = {key: value for key, value in from_dynamo(item).items() if key in model.model_fields}
    if "environment" in model.model_fields:
        fields["environment"] = Tenant.of_key(item["pk"]).environment
    return fields


def to_dynamo(value: Any) -> Any:
    """Floats as Decimals, which is what DynamoDB takes."""
    if isinstance(value, dict):
        return {key: to_dynamo(item) for key, item in value.items()}
    if isinstance(value, list):
        return [to_dynamo(item) for item in value]
    if isinstance(value, float):
        return Decimal(str(value))
    return value


ITEM_LIMIT_BYTES = 400 * 1024


def item_bytes(item: dict[str, Any]) -> int:
    """The size DynamoDB counts for an item against its 400 KB limit: attribute names and values, with
    3 bytes for each list or map and 1 for each of its elements (a bound, as DynamoDB documents it)."""
    return sum(len(name.encode()) + _value_bytes(value) for name, value in item.items())


def _value_bytes(value: Any) -> int:
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, int | float | Decimal):
        return len(str(value)) // 2 + 2  # 2 digits a byte, plus one; a bound
    if isinstance(value, bytes | bytearray):
        return len(value)
    if isinstance(value, dict):
        return 3 + sum(1 + len(key.encode()) + _value_bytes(item) for key, item in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return 3 + sum(1 + _value_bytes(item) for item in value)
    return len(str(value).encode())


def retention(created_at: str, days: int) -> dict[str, int]:
    """`{"ttl": <Unix seconds>}`, `days` after an ISO 8601 `created_at`: the attribute the table's TTL
    deletes the item by. Nothing when `days` is 0 (kept until deleted)."""
    if days <= 0:
        return {}
    created = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    return {"ttl": int(created.timestamp()) + days * 24 * 3600}
