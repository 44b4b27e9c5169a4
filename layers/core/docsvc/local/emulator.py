"""The AWS emulator (moto) made to keep a promise of DynamoDB that the service relies on."""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()


def make_dynamodb_atomic() -> None:
    """DynamoDB runs each request whole: the check of a conditional write and the write cannot
    interleave with another request. moto takes no lock, so two threads could both pass one
    condition (two workers both starting the same job); after this call every DynamoDB request of
    this process runs alone, as on AWS. Calling it again changes nothing."""
    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.call_action
    if getattr(original, "atomic", False):
        return

    def call_action(self: Any) -> Any:
        with _lock:
            return original(self)

    call_action.atomic = True  # type: ignore[attr-defined]
    setattr(DynamoHandler, "call_action", call_action)  # noqa: B010
