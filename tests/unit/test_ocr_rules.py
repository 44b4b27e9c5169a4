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


CHOICES = ["sucha", "tłusta", "wrażliwa", "normalna", "pieczenie", "suchość", "łojotok", "blizna"]


def boxed_choices(ticked: bool = False) -> pymupdf.Pixmap:
    """A 150 dpi grey picture of a form's lines of choices, each word after an empty check box (a
    square of 8 points, a little apart from its word), three times over, the first box ticked
    (filled) when `ticked`."""
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=300)
        font = pymupdf.Font("helv")
        for y, line in (
            (40, "Karta konsultacyjna: typ skóry głowy, wygląd i objawy na skórze"),
            (60, "Zaznacz to, co widać:"),
        ):
            page.insert_text((40, y), line, fontsize=11)
        for index, word in enumerate(CHOICES * 3):
            x, y = 40 + (index % 4) * 135, 90 + (index // 4) * 26
            box = pymupdf.Rect(x, y - 8, x + 8, y)
            filled = ticked and index == 0
            page.draw_rect(box, color=(0, 0, 0), fill=(0, 0, 0) if filled else None, width=0.8)
            writer = pymupdf.TextWriter(page.rect)
            writer.append((x + 11, y), word, font=font, fontsize=11)
            writer.write_text(page)
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, alpha=False)


def letters(bold: bool) -> pymupdf.Pixmap:
    """A 150 dpi grey picture of words full of hollow letters (o, O, D, B, 0, a, e, d, q), in 10 and
    14-point print, bold when `bold`."""
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=200)
        for size, y in ((10, 50), (14, 100)):
            page.insert_text(
                (30, y),
                "BOOD obood 0800 DOB qada Bob deed",
                fontsize=size,
                fontname="hebo" if bold else "helv",
            )
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, alpha=False)


def ink_of(pixmap: pymupdf.Pixmap) -> tuple[bytes, int, int]:
    threshold = 128
    return bytes(1 if value < threshold else 0 for value in pixmap.samples), pixmap.width, pixmap.height


def test_empty_check_boxes_are_found_and_a_ticked_one_is_left() -> None:
    ink, width, height = ink_of(boxed_choices())
    assert len(ocr.check_boxes(ink, width, height, 150)) == 3 * len(CHOICES)

    ink, width, height = ink_of(boxed_choices(ticked=True))
    assert len(ocr.check_boxes(ink, width, height, 150)) == 3 * len(CHOICES) - 1


@pytest.mark.parametrize("bold", [False, True])
def test_hollow_letters_are_not_taken_for_check_boxes(bold: bool) -> None:
    ink, width, height = ink_of(letters(bold))

    assert ocr.check_boxes(ink, width, height, 150) == []


def test_a_page_without_check_boxes_is_left_as_it_is() -> None:
    plain = letters(bold=True)
    assert ocr.without_check_boxes(plain, 150) is plain


@OCR
def test_words_after_check_boxes_are_read_without_the_boxes_glued_to_them() -> None:
    """Tesseract reads an empty box before a word as letters glued to it ("clsucha", "Ołojotok")."""
    picture = boxed_choices().tobytes("png")
    with pymupdf.open(stream=picture, filetype="png") as document:
        reading = ocr.read_page(document[0], ParseOptions(languages=("pol",), page_seconds=120), [])

    assert reading is not None
    read = [word.text for word in reading.words]
    assert sum(read.count(word) for word in CHOICES) >= 3 * len(CHOICES) - 2, read
