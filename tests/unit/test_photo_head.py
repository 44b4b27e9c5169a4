"""The head of a photographed till roll (the shop's name and address), which Tesseract's layout analysis
reads worse than the same pixels read as one column, read again (`images.read_head_again`)."""

from __future__ import annotations

import os

import pymupdf
import pytest
from docsvc.documents.engine import images, ocr

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)
DPI = 150
HEAD = [
    ("BELLA PASTA", 18),
    ("223 Main Street", 11),
    ("Springfield IL 62701", 11),
    ("Tel 217 555 0100", 11),
    ("Pasta 12.00", 11),
]


def _head(misread: dict[str, tuple[str, float]], lost: str | None = None):
    """The head drawn in grey at DPI, and a first reading of it: every word as printed at confidence 95
    but those `misread` (as the text and confidence given) and the line `lost` (not read at all)."""
    document = pymupdf.open()
    page = document.new_page(width=300, height=200)
    y = 30
    for text, size in HEAD:
        page.insert_text((30, y), text, fontsize=size, fontname="helv")
        y += size * 2
    scale = DPI / 72
    words = []
    for x0, y0, x1, y1, text, block, line, _ in page.get_text("words"):
        printed = page.get_text("text", clip=pymupdf.Rect(0, y0, 300, y1)).strip()
        if printed == lost:
            continue
        read, confidence = misread.get(text, (text, 95.0))
        words.append(
            ocr.Word((block, 0, line), (x0 * scale, y0 * scale, x1 * scale, y1 * scale), read, confidence)
        )
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY, alpha=False)
    return ocr._grey(pixmap), ocr.Reading(tuple(words), pymupdf.Identity, DPI, 0.0)


def _read(grey, reading):
    return images.read_head_again(ocr._tesseract(), grey, reading, "eng", ocr.tessdata())


@OCR
def test_a_head_word_garbled_doubtfully_is_replaced_by_its_confident_reading_as_one_column() -> None:
    grey, reading = _head({"BELLA": ("eo", 40.0)})
    texts = [word.text for word in _read(grey, reading).words]
    assert "BELLA" in texts and "eo" not in texts
    assert texts.index("BELLA") == texts.index("PASTA") - 1  # in its place on its line


@OCR
def test_a_head_word_read_a_letter_apart_the_second_time_is_kept_as_first_read() -> None:
    grey, reading = _head({"BELLA": ("BELIA", 40.0)})
    assert _read(grey, reading) == reading


@OCR
def test_a_head_line_the_first_reading_lost_is_added() -> None:
    grey, reading = _head({}, lost="Springfield IL 62701")
    read = _read(grey, reading)
    added = [word for word in read.words if word not in reading.words]
    assert {"Springfield", "62701"} <= {word.text for word in added}
    assert len({word.line for word in added if word.text in ("Springfield", "62701")}) == 1


@OCR
def test_words_read_confidently_the_first_time_are_kept() -> None:
    grey, reading = _head({})
    assert _read(grey, reading) == reading


def test_a_line_given_words_is_put_in_order_from_left_to_right() -> None:
    line, other = (1, 0, 1), (1, 0, 2)
    words = [
        ocr.Word(line, (50, 0, 60, 10), "b", 90.0),
        ocr.Word(other, (0, 20, 10, 30), "x", 90.0),
        ocr.Word(line, (0, 0, 10, 10), "a", 90.0),
    ]
    assert [word.text for word in images._left_to_right(words, {line})] == ["a", "x", "b"]
    assert [word.text for word in images._left_to_right(words, set())] == ["b", "x", "a"]


@OCR
def test_a_head_word_read_again_as_a_part_of_it_does_not_replace_it() -> None:
    grey, reading = _head({"Street": ("Street", 40.0)})
    street = next(word for word in reading.words if word.text == "Street")
    x0, y0, x1, y1 = street.box
    wider = ocr.Word(street.line, (x0, y0, x1 + (x1 - x0) / 2, y1), "Streetxxx", 40.0)
    first = ocr.Reading(
        tuple(wider if word is street else word for word in reading.words), pymupdf.Identity, DPI, 0.0
    )
    assert "Streetxxx" in [word.text for word in _read(grey, first).words]


def test_a_box_covers_another_spanning_most_of_its_width() -> None:
    assert images._covers((0, 0, 90, 10), (5, 0, 100, 10))
    assert not images._covers((0, 0, 50, 10), (0, 0, 100, 10))
