"""`Idempotency-Key` on a creating request: sent again with the same key, it answers what it answered
the first time, and does its work only once.

The rules (those of the IETF draft "The Idempotency-Key HTTP Header Field"):
- A key is 1 to 255 printable ASCII characters; it is the client's, scoped to its organization and
  environment (the same key in test and in production are two keys).
- The first request with a key claims it, with the fingerprint of the request (method, path, query,
  body). Its answer is kept ANSWER_SECONDS and given again, as it was, to a request with the same key and
  the same fingerprint.
- The same key with another request: 422. The same key while the first request still runs: 409, to be
  sent again later. A claim whose request died (its function ran out of time) holds the key only until
  that function's time limit, then the key is free again.
- A 5xx answer is not kept (the claim is let go, so a retry runs again); nor is a 429 (it says nothing of
  the request, only to come back later). Every other answer, a 4xx included, is kept: the same request
  would be refused the same way, and a retry must not run it once it has been refused.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from docsvc.clock import utc_now
from docsvc.errors import Conflict, InvalidField
from docsvc.tenancy import Tenant

HEADER = "Idempotency-Key"
ANSWER_SECONDS = 24 * 3600
MAX_KEY_LENGTH = 255
NOT_KEPT = frozenset({429})  # besides every 5xx
LOCATION = ("header", HEADER)


def key_problem(key: str) -> str | None:
    """Why `key` cannot be an idempotency key, in words for people; None when it can."""
    if not key:
        return f"{HEADER} is empty: send 1 to {MAX_KEY_LENGTH} printable ASCII characters, or no header"
    if len(key) > MAX_KEY_LENGTH:
        return f"{HEADER} is {len(key)} characters long; it may be at most {MAX_KEY_LENGTH}"
    if not all(" " <= character <= "~" for character in key):
        return f"{HEADER} may hold only printable ASCII characters (a UUID is a good key)"
    return None


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """An answer as the client received it: status, the headers that describe it, the body's bytes."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


@dataclass(frozen=True, slots=True)
class Claim:
    """A key taken by a request: `in_flight` until `expires_at` (the request's time limit), or
    `answered` with the answer until `expires_at` (ANSWER_SECONDS after the answer). `token` tells the
    request that holds the claim from one that took the key over after the first had died."""

    key: str
    fingerprint: str
    token: str
    state: Literal["in_flight", "answered"]
    expires_at: int
    answer: StoredAnswer | None = None


class ClaimStore(Protocol):
    def take(self, tenant: Tenant, claim: Claim, now: int) -> Claim | None:
        """Write the claim unless a claim of the key that has not expired by `now` holds it: None when
        written, else the holder."""
        ...

    def answer(self, tenant: Tenant, claim: Claim) -> bool:
        """Keep the answered claim in place of the in-flight claim with its token; False when the
        claim is no longer that request's (it expired, and another took the key)."""
        ...

    def release(self, tenant: Tenant, claim: Claim) -> None:
        """Delete the in-flight claim with its token, if it is still there."""
        ...


class KeyInFlight(Conflict):
    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"a request with this {HEADER} is still being processed; send it again in a moment "
            "to receive its answer"
        )
        self.retry_after = retry_after
        self.extra = {"retry_after": retry_after}


class IdempotencyService:
    def __init__(self, claims: ClaimStore) -> None:
        self._claims = claims

    def begin(self, tenant: Tenant, key: str, fingerprint: str, seconds: int) -> Claim | StoredAnswer:
        """Claim `key` for a request that may run `seconds`: the claim (run the request, then `finish`),
        or the stored answer of an earlier request with this key and fingerprint. InvalidField (422)
        for a bad key or a key of another request; KeyInFlight (409) while the first request runs."""
        problem = key_problem(key)
        if problem:
            raise InvalidField(LOCATION, problem)
        for _ in range(3):  # a holder may expire between the refused write and its read
            now = _now()
            claim = Claim(key, fingerprint, uuid.uuid4().hex, "in_flight", now + max(1, seconds))
            holder = self._claims.take(tenant, claim, now)
            if holder is None:
                return claim
            if holder.expires_at < now:
                continue
            if holder.fingerprint != fingerprint:
                raise InvalidField(
                    LOCATION,
                    f"this {HEADER} was used in the last 24 hours for another request (another method, "
                    "path, query or body); send a new key with a new request",
                )
            if holder.state == "answered" and holder.answer is not None:
                return holder.answer
            if holder.state == "in_flight":
                raise KeyInFlight(retry_after=max(1, min(holder.expires_at - now, 30)))
        raise KeyInFlight(retry_after=1)

    def finish(self, tenant: Tenant, claim: Claim, answer: StoredAnswer) -> None:
        """Keep the answer for ANSWER_SECONDS, or let the key go when the answer is not kept."""
        if answer.status >= 500 or answer.status in NOT_KEPT:
            self._claims.release(tenant, claim)
            return
        answered = replace(claim, state="answered", expires_at=_now() + ANSWER_SECONDS, answer=answer)
        self._claims.answer(tenant, answered)

    def abandon(self, tenant: Tenant, claim: Claim) -> None:
        """The request failed without an answer: the key is free for a retry."""
        self._claims.release(tenant, claim)


def _now() -> int:
    return math.floor(utc_now().timestamp())
