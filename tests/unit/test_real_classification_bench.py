"""The classification bench counts the pages that reached the models empty (a page OCR left empty when
it took longer than its time, on a busy machine, or one kept by an older engine), so that a figure
read with such pages says so."""

from __future__ import annotations

from bench.real_classification import counting, empty_pages


def test_a_page_of_only_whitespace_counts_as_read_empty() -> None:
    assert empty_pages(["Invoice 12", "", "  \n\t", "Total 4.00"]) == 2


def test_each_reading_notes_its_empty_pages_and_its_pages_in_the_order_read() -> None:
    readings = {b"one": ["a", ""], b"two": ["", "", "b"]}
    counts: list[tuple[int, int]] = []
    read = counting(lambda content, kind: readings[content], counts)

    assert read(b"two", "pdf") == ["", "", "b"]
    assert read(b"one", "pdf") == ["a", ""]
    assert counts == [(2, 3), (1, 2)]
