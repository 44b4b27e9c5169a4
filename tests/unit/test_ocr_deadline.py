"""Tesseract stopped at the page's time: a page keeps the words read by then, and a second reading that
overruns never costs the page its first."""

from __future__ import annotations

import ctypes
import os
import time
from collections.abc import Callable

import pymupdf
import pytest
from docsvc.documents.engine import ocr
from docsvc.documents.engine.model import ParseOptions

from tests import samples

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)
LINES = [
    f"Line {number} of the quarterly report lists the invoices paid in March and April"
    for number in range(40)
]


def dense_page(dpi: int = 300) -> pymupdf.Pixmap:
    """A grey picture of a page of forty lines of print, long for Tesseract to read (seconds)."""
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        for index, line in enumerate(LINES):
            page.insert_text((40, 40 + 19 * index), line, fontsize=11)
        return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)


def recognise(pixmap: pymupdf.Pixmap, deadline: float | None) -> tuple[list[ocr.Word], bool]:
    tesseract, location = ocr._tesseract(), ocr.tessdata()
    assert tesseract is not None and location is not None
    return tesseract.recognise(
        pixmap.samples, pixmap.width, pixmap.height, pixmap.stride, 300, "eng", location, deadline=deadline
    )


@OCR
def test_tesseract_is_stopped_at_its_deadline_with_the_words_it_read_by_then() -> None:
    pixmap = dense_page()
    started, cpu = time.monotonic(), time.process_time()

    words, complete = recognise(pixmap, deadline=started + 0.3)

    assert not complete
    # A whole reading takes several seconds of CPU (CPU, not the clock: the same on a busy machine).
    assert time.process_time() - cpu < 2.0
    assert len(words) < 10 * len(LINES)


@OCR
def test_a_deadline_already_passed_stops_tesseract_at_once_without_an_error() -> None:
    page = dense_page(150)  # drawn before the clock starts: only the reading is timed
    started = time.monotonic()

    words, complete = recognise(page, deadline=started - 1)

    assert not complete and time.monotonic() - started < 2.0
    assert isinstance(words, list)


def _late_from(call: int, seconds: float, monkeypatch: pytest.MonkeyPatch) -> list[ocr.Reading]:
    """Spies on the page's readings: from the `call`-th on (1-based), each is given a deadline `seconds`
    from its start, as if the page's time ran out then."""
    readings: list[ocr.Reading] = []
    recognised = ocr._recognised

    def late(*arguments: object, **named: object) -> ocr.Reading:
        if len(readings) + 1 >= call:
            named["deadline"] = time.monotonic() + seconds
        readings.append(recognised(*arguments, **named))  # type: ignore[arg-type]
        return readings[-1]

    monkeypatch.setattr(ocr, "_recognised", late)
    return readings


@OCR
def test_a_finer_reading_stopped_at_the_page_s_time_leaves_the_page_its_first_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """6-point print is read again twice as fine, and that reading kept; stopped before it ends (a busy
    machine, a long page), it is dropped, and the page keeps its first reading, whole."""
    monkeypatch.setattr(ocr, "second_reading_cost", lambda *arguments: 0.0)  # started, whatever it costs
    readings = _late_from(2, 0.0, monkeypatch)
    with pymupdf.open(stream=samples.scan_png(LINES[:12], fontsize=6), filetype="png") as document:
        reading = ocr.read_page(document[0], ParseOptions(page_seconds=120), [])

    assert [r.dpi for r in readings] == [150, 300] and not readings[1].complete
    assert reading is readings[0] and reading.complete
    assert {"quarterly", "invoices"} <= {word.text for word in reading.words}


@OCR
def test_a_first_reading_stopped_at_the_page_s_time_keeps_its_words_and_is_not_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = _late_from(1, 0.3, monkeypatch)
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        for index, line in enumerate(LINES):
            page.insert_text((40, 40 + 19 * index), line, fontsize=11)
        warnings: list[str] = []
        reading = ocr.read_page(page, ParseOptions(dpi=300, page_seconds=120), warnings)

    assert reading is not None and not reading.complete
    assert len(readings) == 1
    assert warnings == [
        f"OCR was stopped near the page's time limit (120 s) after {len(reading.words)} words: "
        "the rest of the page is missing from its text"
    ]


def test_a_stopped_reading_s_words_are_written_apart_and_a_crash_costs_only_the_words_after_it() -> None:
    """Tesseract 5.3 can crash spelling a word of a reading its monitor stopped (a null string): the
    words are written one by one in a fork, and a crash there leaves the reader running, with the words
    written before it."""

    def crashing_at_the_third(emit: Callable[[str], None]) -> None:
        emit("5\tfirst\n")
        emit("5\tsecond\n")
        ctypes.string_at(0)  # a segmentation fault in the fork

    assert ocr._apart(lambda emit: emit("5\tword\n")) == "5\tword\n"
    assert ocr._apart(crashing_at_the_third) == "5\tfirst\n5\tsecond\n"

    def failing_at_the_second(emit: Callable[[str], None]) -> None:
        emit("5\tfirst\n")
        emit(str(1 / 0))

    assert ocr._apart(failing_at_the_second) == "5\tfirst\n"


def test_a_fork_writing_past_its_time_is_killed_with_the_lines_it_wrote_kept() -> None:
    def hanging_after_one(emit: Callable[[str], None]) -> None:
        emit("5\tfirst\n")
        time.sleep(60)

    started = time.monotonic()
    assert ocr._apart(hanging_after_one, seconds=0.5) == "5\tfirst\n"
    assert time.monotonic() - started < 5


@OCR
def test_a_stopped_reading_s_words_written_one_by_one_are_tesseract_s_own_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tesseract = ocr._tesseract()
    assert tesseract is not None
    written: dict[str, str] = {}
    rows = tesseract._tsv_rows

    def both(api: int, emit: Callable[[str], None]) -> None:
        written["tesseract"] = tesseract._tsv(api)
        rows(api, emit)

    monkeypatch.setattr(ocr, "_apart", lambda write: "".join(_collected(write)))
    monkeypatch.setattr(tesseract, "_tsv_rows", both)

    for seconds in (2.0, 4.0, 8.0):  # a busy machine may have read no word yet when the first runs out
        words, complete = recognise(dense_page(), deadline=time.monotonic() + seconds)
        if words:
            break

    assert not complete and words
    assert words == list(ocr._tsv_words(written["tesseract"]))


def _collected(write: Callable[[Callable[[str], None]], None]) -> list[str]:
    lines: list[str] = []
    write(lines.append)
    return lines
