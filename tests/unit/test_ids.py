"""Prefixed, time-ordered ids: their shape, their order, and the key bounds of one millisecond."""

from __future__ import annotations

import re

from docsvc.ids import id_ceiling, id_floor, new_id

ULID = re.compile(r"^[0-9A-HJKMNP-TV-Z]{26}$")  # Crockford base32: no I, L, O or U
MILLIS = 1_795_000_000_000  # a moment in 2026


def test_an_id_is_its_prefix_an_underscore_and_26_crockford_characters() -> None:
    identifier = new_id("file")

    prefix, _, body = identifier.partition("_")

    assert prefix == "file"
    assert ULID.match(body), identifier


def test_ids_created_in_one_process_are_strictly_increasing_and_unique() -> None:
    # 10,000 ids take a few milliseconds: many of them share a millisecond.
    generated = [new_id("file") for _ in range(10_000)]

    ordered = sorted(generated)

    assert ordered == generated
    assert len(set(generated)) == len(generated)


def test_ids_created_in_the_same_millisecond_keep_their_creation_order() -> None:
    generated = [new_id("file", now_ms=MILLIS) for _ in range(1_000)]

    ordered = sorted(generated)

    assert ordered == generated
    assert len(set(generated)) == len(generated)
    assert len({identifier[:15] for identifier in generated}) == 1  # one timestamp for all


def test_ids_sort_by_creation_time_across_milliseconds() -> None:
    # Created out of order: the later millisecond first, so the random part cannot decide the order.
    later = [new_id("file", now_ms=MILLIS + 1) for _ in range(50)]
    earlier = [new_id("file", now_ms=MILLIS) for _ in range(50)]
    much_later = new_id("file", now_ms=MILLIS + 86_400_000)

    assert max(earlier) < min(later)
    assert max(later) < much_later


def test_floor_and_ceiling_bound_every_id_created_at_that_millisecond() -> None:
    inside = [new_id("file", now_ms=MILLIS) for _ in range(100)]
    before = new_id("file", now_ms=MILLIS - 1)
    after = new_id("file", now_ms=MILLIS + 1)

    floor, ceiling = id_floor("file", MILLIS), id_ceiling("file", MILLIS)

    assert all(floor <= identifier <= ceiling for identifier in inside)
    assert before < floor
    assert after > ceiling
    assert ULID.match(floor.removeprefix("file_"))
    assert ULID.match(ceiling.removeprefix("file_"))


def test_an_id_tells_when_it_was_made_and_a_foreign_one_does_not() -> None:
    from docsvc.ids import created_millis

    assert created_millis(new_id("evt", now_ms=1_795_456_900_123)) == 1_795_456_900_123
    assert created_millis("evt_short") is None
    assert created_millis("not-an-id") is None
    assert created_millis("evt_" + "u" * 26) is None  # not Crockford base 32


def test_an_id_whose_time_is_past_the_year_9999_tells_no_time() -> None:
    from docsvc.ids import LATEST_MILLIS, created_millis

    assert created_millis(new_id("evt", now_ms=LATEST_MILLIS)) == LATEST_MILLIS
    assert created_millis(new_id("evt", now_ms=LATEST_MILLIS + 1)) is None
    assert created_millis("evt_7ZZZZZZZZZZZZZZZZZZZZZZZZZ") is None
