"""Time in the two wire formats of the API: ISO 8601 UTC strings and integer Unix seconds."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """`2026-11-22T13:45:00.123Z`."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_bound(value: str, *, end_of_day: bool) -> datetime:
    """A date (`YYYY-MM-DD`, the whole day, inclusive) or an ISO 8601 date-time, as UTC.

    Raises ValueError with a readable message otherwise.
    """
    text = value.strip()
    try:
        if "T" not in text and " " not in text:  # a date: the whole day
            day = date.fromisoformat(text)
            start = datetime.combine(day, time.min, tzinfo=UTC)
            return start + timedelta(days=1) - timedelta(milliseconds=1) if end_of_day else start
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"'{value}' is not a date (YYYY-MM-DD) or an ISO 8601 date-time") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def to_millis(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)
