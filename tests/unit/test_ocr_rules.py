"""Rules (underlines, a table's lines) taken out of the picture Tesseract reads."""

from __future__ import annotations

import os

import pymupdf
import pytest
from docsvc.documents.engine import ocr
from docsvc.documents.engine.model import ParseOptions

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)
ITALIAN = [
    "di essere a conoscenza delle misure normative di contenimento del contagio da COVID-19 vigenti alla",
    "data odierna, concernenti le limitazioni alla possibilità di spostamento delle persone fisiche",
    "territorio nazionale;",
]


def underlined_paragraphs() -> bytes:
    """A 150 dpi grey picture of a page of four paragraphs of 8.5-point bold print, each line underlined
    close under its baseline (through the descenders), as a form's declarations are."""
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        y = 60.0
        for _ in range(4):
            for line in ITALIAN:
                page.insert_text((35, y), line, fontsize=8.5, fontname="tibo")
                length = pymupdf.get_text_length(line, "tibo", 8.5)
                page.draw_line((35, y + 0.8), (35 + length, y + 0.8), width=0.6)
                y += 20
            y += 20
        return bytes(page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png"))


@OCR
def test_underlined_paragraphs_are_read() -> None:
    """Tesseract alone reads none of their words: it takes the lines underlined for a drawing."""
    with pymupdf.open(stream=underlined_paragraphs(), filetype="png") as document:
        reading = ocr.read_page(document[0], ParseOptions(page_seconds=120), [])

    assert reading is not None
    expected = 4 * sum(len(line.split()) for line in ITALIAN)
    read = [word.text for word in reading.words]
    assert len(read) >= 0.9 * expected, read
    assert read.count("conoscenza") == 4


def sheet(draw: str) -> pymupdf.Pixmap:
    """A 150 dpi grey picture of a small page with a word and, as `draw` says, a thin rule across, a
    thin rule down, or a filled black bar (a dark area, not a rule)."""
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.insert_text((40, 60), "Total", fontsize=24)
        if draw == "across":
            page.draw_line((40, 100), (260, 100), width=0.8)
        elif draw == "down":
            page.draw_line((200, 20), (200, 180), width=0.8)
        elif draw == "bar":
            page.draw_rect(pymupdf.Rect(40, 120, 260, 150), color=(0, 0, 0), fill=(0, 0, 0))
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, alpha=False)


def dark_pixels(pixmap: pymupdf.Pixmap) -> int:
    return sum(value < 128 for value in pixmap.samples)


@pytest.mark.parametrize("draw", ["across", "down"])
def test_a_thin_rule_is_painted_over_and_the_words_kept(draw: str) -> None:
    word_only, ruled = sheet(""), sheet(draw)
    assert dark_pixels(ruled) > dark_pixels(word_only) + 100

    unruled = ocr.without_rules(ruled, 150)

    assert abs(dark_pixels(unruled) - dark_pixels(word_only)) < 10


def test_a_page_without_rules_and_a_dark_bar_are_left_as_they_are() -> None:
    plain, bar = sheet(""), sheet("bar")

    assert ocr.without_rules(plain, 150) is plain
    assert ocr.without_rules(bar, 150) is bar


def test_a_run_of_ink_with_ink_along_both_sides_is_not_taken_for_a_rule() -> None:
    """A blurred line of bold print runs together into one long run of ink through its middle; its
    letters stand above and below it, where a rule has paper along one side at least."""
    from PIL import Image, ImageDraw

    image = Image.new("L", (600, 100), 255)
    draw = ImageDraw.Draw(image)
    for x in range(50, 550, 3):  # the letters' strokes, 2 pixels wide, 1 apart
        draw.rectangle((x, 40, x + 1, 60), fill=0)
    draw.line((50, 50, 550, 50), fill=0)  # and the run through them
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, image.width, image.height, image.tobytes(), False)

    assert ocr.without_rules(pixmap, 150) is pixmap


def divided(meets: bool) -> pymupdf.Pixmap:
    """A 150 dpi grey picture of a rule across and a short line down (a quarter inch, a cell's
    divider) that meets it, or stands apart from it."""
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.draw_line((40, 100), (260, 100), width=0.8)
        top = 100 if meets else 130
        page.draw_line((150, top), (150, top + 18), width=0.8)
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, alpha=False)


def test_a_cell_divider_that_meets_a_rule_across_is_painted_over_and_a_short_stroke_apart_is_not() -> None:
    assert dark_pixels(ocr.without_rules(divided(meets=True), 150)) < 5
    assert dark_pixels(ocr.without_rules(divided(meets=False), 150)) > 20


def shaded_table() -> pymupdf.Pixmap:
    """A 150 dpi grey picture of a table whose heading row is shaded darker than the ink threshold,
    with rules across and column dividers down through the heading and the body."""
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=250)
        page.draw_rect(pymupdf.Rect(40, 40, 260, 62), color=None, fill=(0.5, 0.5, 0.5))
        for y in (40, 62, 120, 200):
            page.draw_line((40, y), (260, y), width=0.8)
        for x in (40, 120, 190, 260):
            page.draw_line((x, 40), (x, 200), width=0.8)
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, alpha=False)


def test_column_dividers_crossing_a_shaded_heading_row_are_painted_over_below_it() -> None:
    unruled = ocr.without_rules(shaded_table(), 150)
    below_heading = 66 * 150 // 72  # pixel row a little under the shaded band

    body = unruled.samples[below_heading * unruled.stride :]

    assert sum(value < 200 for value in body) < 20
