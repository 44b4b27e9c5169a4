"""Calling another function of the stack and waiting for its answer.

On AWS: Lambda's Invoke (RequestResponse), JSON both ways. The local stack and the tests run every
function in this one process: `deploy_template` names them here (`serve_locally`), and a call runs the
function in its warm instances, with the same JSON round trip.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from docsvc.adapters import aws

LocalCall = Callable[[dict[str, Any]], Any]
_local: dict[str, LocalCall] = {}


class FunctionBusy(Exception):
    """Lambda refused the call: the function is at its concurrency limit (nothing ran)."""


class FunctionFailed(Exception):
    """The invoked function raised, or ran out of time."""

    def __init__(self, function: str, error_type: str, message: str) -> None:
        super().__init__(f"{function}: {error_type}: {message}")
        self.error_type = error_type

    @property
    def timed_out(self) -> bool:
        return "Timedout" in self.error_type or self.error_type == "TimeoutError"


def serve_locally(functions: Mapping[str, LocalCall]) -> None:
    """The functions of this process, by the name other functions call them by."""
    _local.clear()
    _local.update(functions)


def invoke(function: str, event: dict[str, Any]) -> Any:
    payload = json.dumps(event)
    local = _local.get(function)
    if local is None:
        response = _invoke_lambda(function, payload)
        answer = json.loads(response["Payload"].read() or b"null")
        if response.get("FunctionError"):
            error_type, message = answer.get("errorType", ""), answer.get("errorMessage", "")
            raise FunctionFailed(function, str(error_type), str(message))
        return answer
    try:
        answer = local(json.loads(payload))
    except Exception as error:  # as Lambda reports a function's unhandled error
        raise FunctionFailed(function, type(error).__name__, str(error)) from error
    return json.loads(json.dumps(answer))


def _invoke_lambda(function: str, payload: str) -> Any:
    from botocore.exceptions import ClientError

    try:
        return aws.lambda_client().invoke(FunctionName=function, Payload=payload.encode())
    except ClientError as error:
        if error.response["Error"]["Code"] == "TooManyRequestsException":
            raise FunctionBusy(function) from error
        raise
