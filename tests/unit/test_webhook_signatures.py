"""Webhook signatures: what receivers check, including with Stripe's own verifier (the same scheme)."""

from __future__ import annotations

import time

import pytest
import stripe
from docsvc_client.webhooks import SignatureError, signature_header, verify

BODY = b'{"id":"evt_01","type":"parse.completed","environment":"test"}'
SECRET = "whsec_current"
OLD = "whsec_previous"


def test_a_signed_body_verifies_with_its_secret_and_returns_the_timestamp() -> None:
    now = int(time.time())
    header = signature_header([SECRET], now, BODY)

    assert header.startswith(f"t={now},v1=")
    assert verify(BODY, header, SECRET) == now


@pytest.mark.parametrize(
    ("body", "secret"),
    [(BODY + b" ", SECRET), (BODY.replace(b"test", b"production"), SECRET), (BODY, "whsec_other")],
    ids=["body changed", "environment changed", "other secret"],
)
def test_a_changed_body_or_another_secret_fails(body: bytes, secret: str) -> None:
    header = signature_header([SECRET], int(time.time()), BODY)

    with pytest.raises(SignatureError, match="no signature matches"):
        verify(body, header, secret)


@pytest.mark.parametrize("skew", [-301, 301])
def test_a_timestamp_more_than_five_minutes_away_fails_either_way(skew: int) -> None:
    now = time.time()
    header = signature_header([SECRET], int(now) + skew, BODY)

    with pytest.raises(SignatureError, match="300 s"):
        verify(BODY, header, SECRET, now=now)
    assert verify(BODY, signature_header([SECRET], int(now) + skew // 2, BODY), SECRET, now=now)


def test_during_a_rotation_both_secrets_verify() -> None:
    header = signature_header([SECRET, OLD], int(time.time()), BODY)

    assert header.count("v1=") == 2
    assert verify(BODY, header, SECRET) and verify(BODY, header, OLD)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (None, "no X-Service-Signature"),
        ("", "no X-Service-Signature"),
        ("v1=abc", "no timestamp"),
        ("t=abc,v1=abc", "not a number"),
        ("t={now}", "no v1"),  # the time filled in when the test runs: its id stays the same
        ("t={now},v0=abc", "no v1"),
    ],
)
def test_malformed_headers_fail_with_a_reason(header: str | None, message: str) -> None:
    with pytest.raises(SignatureError, match=message):
        verify(BODY, header and header.format(now=int(time.time())), SECRET)


def test_stripes_verifier_accepts_what_the_service_sends() -> None:
    now = int(time.time())
    header = signature_header([SECRET, OLD], now, BODY)

    assert stripe.WebhookSignature.verify_header(BODY.decode(), header, SECRET, tolerance=300)
    assert stripe.WebhookSignature.verify_header(BODY.decode(), header, OLD, tolerance=300)
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.WebhookSignature.verify_header(BODY.decode(), header, "whsec_other", tolerance=300)
