"""Prefixed, time-ordered identifiers: sorting ids sorts by creation, so an id is a cursor."""

from __future__ import annotations

import os
import threading
import time

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last: tuple[int, int] = (0, 0)
# The last millisecond a date can name (9999-12-31T23:59:59.999Z). Ten Crockford characters reach past
# it, to the year 10889: an id written further on was never made here.
LATEST_MILLIS = 253_402_300_799_999


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        value, rem = divmod(value, 32)
        chars.append(_CROCKFORD[rem])
    return "".join(reversed(chars))


def new_id(prefix: str, *, now_ms: int | None = None) -> str:
    """`<prefix>_` + a 26-character ULID: 48 bits of milliseconds, 80 bits of randomness.

    Within one millisecond of one process the random part increases, so ids stay strictly ordered.
    """
    global _last
    with _lock:
        millis = now_ms if now_ms is not None else time.time_ns() // 1_000_000
        last_ms, last_rand = _last
        if millis == last_ms:
            rand = (last_rand + 1) % (1 << 80)
        else:
            rand = int.from_bytes(os.urandom(10), "big")
        _last = (millis, rand)
    return f"{prefix}_{_encode(millis, 10)}{_encode(rand, 16)}"


def id_floor(prefix: str, millis: int) -> str:
    """The smallest id of `prefix` created at `millis`: a key bound for date ranges."""
    return f"{prefix}_{_encode(millis, 10)}{'0' * 16}"


def id_ceiling(prefix: str, millis: int) -> str:
    """The largest id of `prefix` created at `millis`."""
    return f"{prefix}_{_encode(millis, 10)}{'Z' * 16}"


def created_millis(resource_id: str) -> int | None:
    """The creation time (Unix milliseconds) written in an id; None if it is not one of ours (a time
    after the year 9999 included)."""
    _, _, body = resource_id.partition("_")
    if len(body) != 26 or any(character not in _CROCKFORD for character in body[:10]):
        return None
    millis = 0
    for character in body[:10]:
        millis = millis * 32 + _CROCKFORD.index(character)
    return millis if millis <= LATEST_MILLIS else None
