"""The retry schedule of webhook deliveries, their ids, and which events an endpoint wants."""

from __future__ import annotations

import pytest
from docsvc.domain.deliveries import JITTER, MAX_RETRY_AFTER, RETRY_DELAYS, delivery_id, wait_after
from docsvc.domain.webhooks import WebhookEndpoint
from docsvc.ids import new_id

DAY = 86_400


def test_production_retries_ten_times_over_at_least_three_days_whatever_the_jitter() -> None:
    delays = RETRY_DELAYS["production"]
    shortest = sum(wait_after("production", n, None, lambda: 0.0) for n in range(1, len(delays) + 1))

    assert len(delays) + 1 == 10
    assert shortest >= 3 * DAY


def test_test_environments_retry_four_times_within_three_hours_whatever_the_jitter() -> None:
    delays = RETRY_DELAYS["test"]
    longest = sum(wait_after("test", n, None, lambda: 1.0) for n in range(1, len(delays) + 1))

    assert len(delays) + 1 == 4
    assert longest <= 3 * 3600


def test_waits_grow_and_jitter_stays_within_its_band() -> None:
    for environment, delays in RETRY_DELAYS.items():
        assert list(delays) == sorted(delays), environment
    waits = {wait_after("production", 1, None, lambda x=x: x) for x in (0.0, 0.25, 0.5, 0.75, 1.0)}

    assert min(waits) == round(60 * (1 - JITTER)) and max(waits) == round(60 * (1 + JITTER))
    assert len(waits) == 5


@pytest.mark.parametrize(
    ("retry_after", "expected"),
    [(None, 60), (5, 60), (3600, 3600), (10 * DAY, MAX_RETRY_AFTER)],
    ids=["absent", "shorter than the schedule", "longer", "capped at a day"],
)
def test_retry_after_is_honoured_when_it_asks_for_longer(retry_after: int | None, expected: int) -> None:
    assert wait_after("production", 1, retry_after, lambda: 0.5) == expected


def test_a_delivery_id_is_the_same_for_one_event_and_endpoint_and_sorts_like_its_event() -> None:
    first, later = new_id("evt", now_ms=1_000), new_id("evt", now_ms=2_000)

    assert delivery_id(first, "whe_a") == delivery_id(first, "whe_a")
    assert delivery_id(first, "whe_a") != delivery_id(first, "whe_b")
    assert delivery_id(first, "whe_b") < delivery_id(later, "whe_a")
    assert delivery_id(first, "whe_a").startswith("del_") and len(delivery_id(first, "whe_a")) == 30


def endpoint(events: list[str] | None, enabled: bool = True) -> WebhookEndpoint:
    return WebhookEndpoint(
        id="whe_1",
        url="https://example.com/hook",
        events=events,
        enabled=enabled,
        description=None,
        environment="test",
        created_at="2026-01-01T00:00:00.000Z",
        updated_at="2026-01-01T00:00:00.000Z",
    )


def test_an_endpoint_wants_its_types_and_families_only_while_enabled() -> None:
    assert endpoint(None).wants("job.failed")
    assert endpoint(["job.*"]).wants("job.failed") and not endpoint(["job.*"]).wants("parse.failed")
    assert endpoint(["workflow.run.*"]).wants("workflow.run.completed")
    assert endpoint(["parse.completed"]).wants("parse.completed")
    assert not endpoint(["parse.completed"]).wants("parse.failed")
    assert not endpoint(None, enabled=False).wants("job.failed")
