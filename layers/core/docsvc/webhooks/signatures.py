"""Webhook signatures: how the service signs a delivery and how a receiver checks it.

`X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, with one more
`v1=` while a rotated secret still signs beside the new one. This is Stripe's scheme, so Stripe's own
verifier accepts it too. Standard library only: a receiver can copy this module as it is.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Iterable

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
    body: bytes,
    header: str | None,
    secret: str,
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> int:
    """Checks a delivery with the signing secret of the environment it claims; its timestamp if good.

    `body` is the raw request body, before any JSON parsing. The timestamp may differ from now by at
    most `tolerance` seconds either way (replayed or clock-skewed requests fail). The comparison takes
    the same time whatever the signature. Raises SignatureError.
    """
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
