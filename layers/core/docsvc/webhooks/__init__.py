"""Checking a webhook delivery where it arrives: `verify(payload, header, secret)`.

A thin front of `docsvc.webhooks.signatures` (the scheme, standard library only) for SDK users:

```python
from docsvc import webhooks

try:
    webhooks.verify(request.body, request.headers.get("X-Service-Signature"), secret)
except webhooks.SignatureError:
    return 400
```
"""

from __future__ import annotations

import json
from typing import Any

from docsvc.webhooks.signatures import (
    ENVIRONMENT_HEADER,
    SIGNATURE_HEADER,
    TOLERANCE_SECONDS,
    SignatureError,
)
from docsvc.webhooks.signatures import verify as _verify_signature

__all__ = [
    "ENVIRONMENT_HEADER",
    "SIGNATURE_HEADER",
    "TOLERANCE_SECONDS",
    "SignatureError",
    "construct_event",
    "verify",
]


def verify(
    payload: bytes | str,
    header: str | None,
    secret: str,
    tolerance: int = TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> int:
    """Checks a delivery's `X-Service-Signature` against the raw body; its timestamp if it is good.

    `payload` is the raw request body, before any JSON parsing (a str is taken as its UTF-8 bytes).
    The timestamp may be at most `tolerance` seconds away from now (`now`, for tests) either way.
    Raises SignatureError otherwise: a missing or malformed header, a stale or future timestamp, or
    no signature that matches this secret and body.
    """
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    return _verify_signature(body, header, secret, tolerance=tolerance, now=now)


def construct_event(
    payload: bytes | str,
    header: str | None,
    secret: str,
    tolerance: int = TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> dict[str, Any]:
    """`verify`, then the event `{id, type, environment, organization_id, created_at, data}`."""
    verify(payload, header, secret, tolerance, now=now)
    try:
        event = json.loads(payload)
    except ValueError as error:
        raise SignatureError("the signed body is not JSON") from error
    if not isinstance(event, dict):
        raise SignatureError("the signed body is not a JSON object")
    return event
