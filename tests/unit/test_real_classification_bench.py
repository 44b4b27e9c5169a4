"""The classification bench counts the pages that reached the models empty (a page OCR left empty when
it took longer than its time, on a busy machine, or one kept by an older engine), so that a figure
read with such pages says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.real_classification import counting, empty_pages, keeping


def test_a_page_of_only_whitespace_counts_as_read_empty() -> None:
    assert empty_pages(["Invoice 12", "", "  \n\t", "Total 4.00"]) == 2


def test_each_reading_notes_its_empty_pages_and_its_pages_in_the_order_read() -> None:
    readings = {b"one": ["a", ""], b"two": ["", "", "b"]}
    counts: list[tuple[int, int]] = []
    read = counting(lambda content, kind: readings[content], counts)

    assert read(b"two", "pdf") == ["", "", "b"]
    assert read(b"one", "pdf") == ["a", ""]
    assert counts == [(2, 3), (1, 2)]


def test_pages_kept_by_an_older_engine_are_read_again_and_pages_kept_by_the_same_engine_are_not(
    tmp_path: Path,
) -> None:
    reads: list[bytes] = []

    def read(content: bytes, kind: str) -> list[str]:
        reads.append(content)
        return [f"page of {content.decode()} read {len(reads)}"]

    older = keeping(tmp_path, read, revision=3)
    assert older(b"scan", "pdf") == ["page of scan read 1"]
    assert older(b"scan", "pdf") == ["page of scan read 1"]

    newer = keeping(tmp_path, read, revision=4)
    assert newer(b"scan", "pdf") == ["page of scan read 2"]
    assert reads == [b"scan", b"scan"]


def test_pages_kept_with_less_time_are_read_again_only_when_one_of_them_was_left_empty(
    tmp_path: Path,
) -> None:
    reads: list[bytes] = []

    def read(content: bytes, kind: str) -> list[str]:
        reads.append(content)
        return [f"page of {content.decode()}", "" if len(reads) == 1 else "its scan read"]

    shorter = keeping(tmp_path, read, revision=4, page_seconds=10.0)
    assert shorter(b"scan", "pdf") == ["page of scan", ""]
    shorter(b"text", "pdf")
    longer = keeping(tmp_path, read, revision=4, page_seconds=20.0)
    assert longer(b"scan", "pdf") == ["page of scan", "its scan read"]
    assert longer(b"text", "pdf") == ["page of text", "its scan read"]
    assert reads == [b"scan", b"text", b"scan"]


def test_a_document_the_engine_gives_up_on_reaches_the_models_as_one_page_read_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from docsvc.documents.engine.errors import DamagedDocument

    from bench import real_classification

    def crashing(content: bytes, kind: str, page_seconds: float) -> list[str]:
        raise DamagedDocument("the PNG could not be read: the reader ran out of memory or crashed")

    monkeypatch.setattr(real_classification, "read", crashing)
    texts = real_classification.read_in_time(b"manuscript", "png")
    assert texts == [""]
    assert empty_pages(texts) == 1
