"""Webhook signatures: how the service signs a delivery and how a receiver checks it.

`X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, with one more
`v1=` while a rotated secret still signs beside the new one. This is Stripe's scheme, so Stripe's own
verifier accepts it too. Standard library only: the service signs with this module, and a receiver can
copy it as it is.

```python
from docsvc_client import webhooks

try:
    event = webhooks.construct_event(request.body, request.headers.get("X-Service-Signature"), secret)
except webhooks.SignatureError:
    return 400
```
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterable
from typing import Any

__all__ = [
    "ENVIRONMENT_HEADER",
    "SIGNATURE_HEADER",
    "TOLERANCE_SECONDS",
    "SignatureError",
    "construct_event",
    "signature",
    "signature_header",
    "verify",
]

SIGNATURE_HEADER = "X-Service-Signature"
ENVIRONMENT_HEADER = "X-Service-Environment"
TOLERANCE_SECONDS = 300


class SignatureError(ValueError):
    """The signature header is missing, malformed, too old or too new, or no signature matches."""


def signature(secret: str, timestamp: int, body: bytes) -> str:
    signed = f"{timestamp}.".encode() + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(secrets: Iterable[str], timestamp: int, body: bytes) -> str:
    """`t=…,v1=…[,v1=…]`: one signature per secret that signs (the newest first)."""
    signatures = [f"v1={signature(secret, timestamp, body)}" for secret in secrets]
    if not signatures:
        raise ValueError("a delivery is signed with at least one secret")
    return ",".join([f"t={timestamp}", *signatures])


def verify(
    payload: bytes | str,
    header: str | None,
    secret: str,
    tolerance: int = TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> int:
    """Checks a delivery with the signing secret of the environment it claims; its timestamp if good.

    `payload` is the raw request body, before any JSON parsing (a str is taken as its UTF-8 bytes).
    The timestamp may differ from now (`now`, for tests) by at most `tolerance` seconds either way
    (replayed or clock-skewed requests fail). The comparison takes the same time whatever the
    signature. Raises SignatureError: a missing or malformed header, a stale or future timestamp, or
    no signature that matches this secret and body.
    """
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    if not header:
        raise SignatureError(f"no {SIGNATURE_HEADER} header")
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t":
            try:
                timestamp = int(value)
            except ValueError:
                raise SignatureError("the signature's timestamp is not a number") from None
        elif name == "v1":
            candidates.append(value)
    if timestamp is None:
        raise SignatureError("the signature header has no timestamp (t=)")
    if not candidates:
        raise SignatureError("the signature header has no v1 signature")
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise SignatureError(f"the signature's timestamp is more than {tolerance} s away from now")
    expected = signature(secret, timestamp, body)
    matched = False
    for candidate in candidates:  # every candidate is compared: no early exit to time
        matched |= hmac.compare_digest(expected, candidate)
    if not matched:
        raise SignatureError("no signature matches this secret and body")
    return timestamp


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
