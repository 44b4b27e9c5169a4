"""A worker for the poller tests: fails records whose body is "fail", raises on a batch holding "crash"."""

from __future__ import annotations

from typing import Any

seen: list[str] = []


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    bodies = [record["body"] for record in event["Records"]]
    seen.extend(bodies)
    if "crash" in bodies:
        raise RuntimeError("the whole batch fails")
    return {
        "batchItemFailures": [
            {"itemIdentifier": record["messageId"]} for record in event["Records"] if record["body"] == "fail"
        ]
    }
