"""The consensus of several runs of an extraction, and calls run a few at a time in order."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from docsvc.domain.consensus import consensus
from docsvc.domain.models import in_order


def test_two_runs_of_three_that_agree_give_the_value_with_a_likelihood_of_two_thirds() -> None:
    output, likelihoods = consensus(
        [{"number": "A", "total": 10}, {"number": "B", "total": 10}, {"number": "A", "total": 10}]
    )

    assert output == {"number": "A", "total": 10}
    assert likelihoods == {"number": 0.67, "total": 1.0}


def test_nested_objects_are_voted_leaf_by_leaf_and_arrays_whole() -> None:
    runs = [
        {"vendor": {"name": "Acme", "city": "Oslo"}, "items": [1, 2]},
        {"vendor": {"name": "Acme", "city": "Bergen"}, "items": [1, 2]},
        {"vendor": {"name": "ACME", "city": "Oslo"}, "items": [2, 1]},
        {"vendor": {"name": "Acme", "city": "Oslo"}, "items": [1, 2]},
    ]

    output, likelihoods = consensus(runs)

    assert output == {"vendor": {"name": "Acme", "city": "Oslo"}, "items": [1, 2]}
    assert likelihoods == {"vendor.name": 0.75, "vendor.city": 0.75, "items": 0.75}


def test_a_null_all_runs_agree_on_is_certain_and_a_leaf_most_runs_leave_out_is_left_out() -> None:
    output, likelihoods = consensus([{"date": None, "note": "x"}, {"date": None}, {"date": None}])

    assert output == {"date": None}
    assert likelihoods == {"date": 1.0}


def test_a_tie_goes_to_a_value_over_none_then_to_the_earliest_run() -> None:
    output, likelihoods = consensus([{"a": 1}, {"a": 2, "b": "x"}])

    assert output == {"a": 1, "b": "x"}
    assert likelihoods == {"a": 0.5, "b": 0.5}


def test_an_object_where_most_runs_have_null_stays_null() -> None:
    output, likelihoods = consensus([{"vendor": None}, {"vendor": None}, {"vendor": {"name": "Acme"}}])

    assert output == {"vendor": None}
    assert likelihoods == {"vendor": 0.67}


def test_a_single_run_is_its_own_majority() -> None:
    assert consensus([{"a": {"b": 1}, "c": []}]) == ({"a": {"b": 1}, "c": []}, {"a.b": 1.0, "c": 1.0})


def test_in_order_answers_in_the_items_order_with_at_most_the_bound_running() -> None:
    lock = threading.Lock()
    running = [0, 0]  # now, most

    def slow(number: int) -> int:
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        time.sleep(0.02 * (5 - number % 5))
        with lock:
            running[0] -= 1
        return number * 10

    assert list(in_order(slow, range(12), 3)) == [number * 10 for number in range(12)]
    assert running[1] == 3


def test_in_order_takes_items_only_as_places_free_up() -> None:
    taken: list[int] = []

    def items() -> Iterator[int]:
        for number in range(100):
            taken.append(number)
            yield number

    answers = in_order(lambda number: number, items(), 4)
    assert next(answers) == 0
    assert len(taken) <= 5


def test_in_order_raises_the_first_failure_and_starts_nothing_after_it() -> None:
    started: list[int] = []

    def failing(number: int) -> int:
        started.append(number)
        if number == 2:
            raise ValueError("page 2")
        time.sleep(0.01)
        return number

    with pytest.raises(ValueError, match="page 2"):
        list(in_order(failing, range(50), 2))
    assert len(started) < 10
