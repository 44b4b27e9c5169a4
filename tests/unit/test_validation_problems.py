"""What a 422 shows of a wrong input: short inputs whole, long ones cut at their limits."""

from __future__ import annotations

from docsvc.errors import ECHOED_CHARACTERS, ECHOED_DEPTH, ECHOED_ITEMS, validation_problems


def shown(value: object) -> object:
    (problem,) = validation_problems([{"loc": ("body", "x"), "msg": "wrong", "type": "t", "input": value}])
    return problem["input"]


def test_a_string_is_shown_whole_up_to_its_limit_and_cut_after() -> None:
    assert shown("a" * ECHOED_CHARACTERS) == "a" * ECHOED_CHARACTERS
    assert (
        shown("a" * (ECHOED_CHARACTERS + 1))
        == f"{'a' * ECHOED_CHARACTERS}… ({ECHOED_CHARACTERS + 1} characters)"
    )


def test_objects_and_lists_are_shown_whole_up_to_their_limit_and_described_after() -> None:
    items = {f"k{n}": n for n in range(ECHOED_ITEMS)}
    assert shown(items) == items
    assert shown(items | {"one": "more"}) == f"<object of {ECHOED_ITEMS + 1} items>"
    assert shown(list(range(ECHOED_ITEMS))) == list(range(ECHOED_ITEMS))
    assert shown(list(range(ECHOED_ITEMS + 1))) == f"<list of {ECHOED_ITEMS + 1} items>"


def test_long_strings_are_cut_inside_objects_and_deep_nesting_is_described() -> None:
    nested: object = {"url": "x" * 5000}
    assert shown(nested) == {"url": f"{'x' * ECHOED_CHARACTERS}… (5000 characters)"}
    deep: object = [1]
    for _ in range(ECHOED_DEPTH):
        deep = [deep]
    assert shown(deep) == [[["<list of 1 items>"]]]


def test_bytes_are_described_by_their_length() -> None:
    assert shown(b"\x00" * 10) == "<10 bytes>"
