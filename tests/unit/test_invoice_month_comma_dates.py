"""A date printed with a comma after the month's name ("Setembro, 23, 2016") reads as that date."""

import datetime

import pytest
from docsvc.intelligence.values import parse_date


@pytest.mark.parametrize(
    ("text", "day"),
    [("Setembro, 23, 2016", datetime.date(2016, 9, 23)), ("March, 4, 2021", datetime.date(2021, 3, 4))],
)
def test_a_month_name_followed_by_a_comma_reads_as_a_date(text: str, day: datetime.date) -> None:
    parsed = parse_date(text)
    assert parsed is not None and parsed.value == day


def test_a_word_that_is_no_month_before_a_comma_and_numbers_is_no_date() -> None:
    assert parse_date("Rua Grande, 12, 2016") is None
