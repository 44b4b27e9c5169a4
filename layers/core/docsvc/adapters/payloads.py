"""JSON values that may outgrow a DynamoDB item (400 KB): kept in the item when small, else in S3.

The item holds `{"json": "<the JSON>"}` or `{"s3_key": "<key>"}`; either way the value is read only
when a caller asks for it.
"""

from __future__ import annotations

import json
from typing import Any

from docsvc.adapters import aws

INLINE_BYTES = 16 * 1024


class PayloadStore:
    def __init__(self, bucket: str) -> None:
        self._bucket = bucket

    def stored(self, key: str, value: Any, retention: str | None = None) -> dict[str, Any] | None:
        """What the item keeps of `value`; `key` is where it goes in S3 when it is large. An object
        stored for an item that DynamoDB's TTL will delete carries the tag `retention=<retention>`,
        which the bucket's lifecycle rule of that name expires after the same number of days."""
        if value is None:
            return None
        content = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if len(content.encode()) <= INLINE_BYTES:
            return {"json": content}
        tagging: dict[str, Any] = {"Tagging": f"retention={retention}"} if retention else {}
        aws.s3().put_object(
            Bucket=self._bucket, Key=key, Body=content.encode(), ContentType="application/json", **tagging
        )
        return {"s3_key": key}

    def load(self, stored: dict[str, Any] | None) -> Any:
        if not stored:
            return None
        if "json" in stored:
            return json.loads(stored["json"])
        body = aws.s3().get_object(Bucket=self._bucket, Key=stored["s3_key"])["Body"].read()
        return json.loads(body)

    def forget(self, stored: dict[str, Any] | None) -> None:
        """Delete what `stored` kept in S3, if anything: a record's payload goes with the record."""
        if stored and "s3_key" in stored:
            aws.s3().delete_object(Bucket=self._bucket, Key=stored["s3_key"])

    def forget_keys(self, keys: list[str]) -> None:
        """Delete the payloads stored at `keys` (those that exist), a thousand a request."""
        for start in range(0, len(keys), 1000):
            objects: list[Any] = [{"Key": key} for key in keys[start : start + 1000]]
            aws.s3().delete_objects(Bucket=self._bucket, Delete={"Objects": objects, "Quiet": True})
