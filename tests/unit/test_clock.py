"""The API's time formats: ISO 8601 UTC strings out, dates and date-times in as list bounds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from docsvc.clock import iso, parse_bound


def test_iso_writes_utc_with_milliseconds_and_a_z_suffix() -> None:
    moment = datetime(2026, 11, 22, 13, 45, 0, 123456, tzinfo=UTC)

    text = iso(moment)

    assert text == "2026-11-22T13:45:00.123Z"


def test_iso_converts_other_time_zones_to_utc() -> None:
    moment = datetime(2026, 11, 22, 15, 45, 0, tzinfo=timezone(timedelta(hours=2)))

    text = iso(moment)

    assert text == "2026-11-22T13:45:00.000Z"


def test_a_date_as_lower_bound_is_the_start_of_that_day_in_utc() -> None:
    bound = parse_bound("2026-11-22", end_of_day=False)

    assert bound == datetime(2026, 11, 22, 0, 0, 0, tzinfo=UTC)


def test_a_date_as_upper_bound_includes_the_whole_day() -> None:
    bound = parse_bound("2026-11-22", end_of_day=True)

    assert bound == datetime(2026, 11, 22, 23, 59, 59, 999000, tzinfo=UTC)
    assert iso(bound) == "2026-11-22T23:59:59.999Z"  # the last created_at the day can hold


def test_a_date_at_the_end_of_a_month_ends_on_that_day() -> None:
    bound = parse_bound("2028-02-29", end_of_day=True)

    assert bound.date() == datetime(2028, 2, 29).date()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-22T10:00:00Z", datetime(2026, 11, 22, 10, 0, tzinfo=UTC)),
        ("2026-11-22T10:00:00.250Z", datetime(2026, 11, 22, 10, 0, 0, 250000, tzinfo=UTC)),
        ("2026-11-22T12:00:00+02:00", datetime(2026, 11, 22, 10, 0, tzinfo=UTC)),
        ("2026-11-22T01:30:00-05:00", datetime(2026, 11, 22, 6, 30, tzinfo=UTC)),
        ("2026-11-22T10:00:00", datetime(2026, 11, 22, 10, 0, tzinfo=UTC)),  # naive: taken as UTC
        ("  2026-11-22T10:00:00Z ", datetime(2026, 11, 22, 10, 0, tzinfo=UTC)),
    ],
)
@pytest.mark.parametrize("end_of_day", [False, True])
def test_a_date_time_is_that_exact_moment_in_utc(text: str, expected: datetime, end_of_day: bool) -> None:
    bound = parse_bound(text, end_of_day=end_of_day)

    assert bound == expected
    assert bound.utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    "text", ["yesterday", "", "2026-13-01", "2026-02-30", "22/11/2026", "2026-11-22T25:00"]
)
def test_anything_else_is_rejected_with_a_message_naming_the_value_and_the_formats(text: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_bound(text, end_of_day=False)

    message = str(raised.value)
    assert f"'{text}'" in message
    assert "YYYY-MM-DD" in message
    assert "ISO 8601" in message


def test_a_compact_date_as_upper_bound_includes_the_whole_day_or_is_rejected() -> None:
    try:
        bound = parse_bound("20261122", end_of_day=True)
    except ValueError:
        return

    assert bound == datetime(2026, 11, 22, 23, 59, 59, 999000, tzinfo=UTC)
