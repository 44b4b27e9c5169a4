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

    def stored(self, key: str, value: Any) -> dict[str, Any] | None:
        """What the item keeps of `value`; `key` is where it goes in S3 when it is large."""
        if value is None:
            return None
        content = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if len(content.encode()) <= INLINE_BYTES:
            return {"json": content}
        aws.s3().put_object(
            Bucket=self._bucket, Key=key, Body=content.encode(), ContentType="application/json"
        )
        return {"s3_key": key}

    def load(self, stored: dict[str, Any] | None) -> Any:
        if not stored:
            return None
        if "json" in stored:
            return json.loads(stored["json"])
        body = aws.s3().get_object(Bucket=self._bucket, Key=stored["s3_key"])["Body"].read()
        return json.loads(body)
