"""Form fields where the page has no text layer or draws its lines in a picture, and blanks after
colon captions in a ruled band."""

from __future__ import annotations

import os
from dataclasses import replace

import pymupdf
import pytest
from docsvc.documents import forms
from docsvc.documents.engine import ocr
from docsvc.documents.forms import FoundField, filled, form_fields
from docsvc.intelligence.form_filling import field_values

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)


def _printed_form(
    document: pymupdf.Document, text: bool = True, lines: bool = True, page: pymupdf.Page | None = None
) -> pymupdf.Page:
    """A blank form: three labels, each before a rule, and a check box with its caption (on a new page
    of the document, or on `page`)."""
    page = page or document.new_page()
    if text:
        page.insert_text((72, 100), "Full name:", fontsize=12)
        page.insert_text((72, 140), "Date of birth:", fontsize=12)
        page.insert_text((72, 180), "City:", fontsize=12)
        page.insert_text((90, 215), "I agree to the terms", fontsize=12)
    if lines:
        page.draw_line((150, 102), (500, 102), width=0.8)
        page.draw_line((170, 142), (330, 142), width=0.8)
        page.draw_line((110, 182), (330, 182), width=0.8)
        page.draw_rect((72, 205, 84, 217), width=0.8)
    return page


def _filled_at(content: bytes, fields: list[FoundField], instructions: str, value: str) -> pymupdf.Rect:
    values = field_values([(field.key, field.description, field.type) for field in fields], instructions)
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hits = document[0].search_for(value)
    assert hits, f"{value!r} was not written"
    return hits[0]


def _scanned(dpi: int, text: bool = True) -> bytes:
    """The blank form drawn as a picture filling a page of its own (with its labels, or its lines only)."""
    with pymupdf.open() as drawn:  # type: ignore[no-untyped-call]
        picture = _printed_form(drawn, text=text).get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_image(page.rect, pixmap=picture)
        if not text:  # the labels written as text over the picture
            _printed_form(document, lines=False, page=page)
        return bytes(document.tobytes())


def _labels(fields: list[FoundField]) -> list[str]:
    return [field.description.removesuffix(" [date]") for field in fields if field.type == "text"]


@OCR
def test_a_scanned_form_is_read_by_ocr_and_its_blanks_found_in_its_picture() -> None:
    """A blank form scanned to a picture, without a text layer: OCR reads its labels, the rules and the
    check box are found in the picture, and a value lands on its rule."""
    content = _scanned(200)
    fields = form_fields(content)
    assert _labels(fields) == ["Full name", "Date of birth", "City"]
    assert [field.type for field in fields].count("checkbox") == 1
    hit = _filled_at(content, fields, "City: Portland", "Portland")
    assert hit.x0 >= 110 and hit.x1 <= 330 and hit.y0 >= 165 and hit.y1 <= 186


@OCR
def test_a_form_whose_text_is_drawn_as_outlines_is_read_by_ocr() -> None:
    """A form whose words are vector outlines, not text (no picture on the page either): OCR reads the
    labels of its drawn rules."""
    with pymupdf.open() as drawn:  # type: ignore[no-untyped-call]
        svg = _printed_form(drawn).get_svg_image(text_as_path=True)
    with pymupdf.open(stream=svg.encode(), filetype="svg") as outlined:
        content = bytes(outlined.convert_to_pdf())
    with pymupdf.open(stream=content, filetype="pdf") as document:
        assert not document[0].get_text("words")
    fields = form_fields(content)
    assert _labels(fields)[:3] == ["Full name", "Date of birth", "City"]
    hit = _filled_at(content, fields, "Full name: Ada Lovelace", "Ada Lovelace")
    assert hit.x0 >= 150 and hit.x1 <= 500 and hit.y0 >= 85 and hit.y1 <= 106


def test_pages_past_the_reading_time_are_not_ocr_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """OCR of pages without text stops once the form's reading has taken its time (a scanned form of
    many pages answers within the request's time): the pages after it are read as they are."""

    def read(*_: object) -> None:
        raise AssertionError("a page was OCR'd past the reading time")

    monkeypatch.setattr(forms, "ocr_textpage", read)
    monkeypatch.setattr(forms, "_OCR_SECONDS", 0.0)
    assert _labels(form_fields(_scanned(150))) == []


def test_a_form_printed_over_a_background_picture_finds_its_rules_in_the_picture() -> None:
    """A form whose labels are text but whose lines and box are a background image (no vector path on
    the page): the rules and the box are looked for in the picture."""
    content = _scanned(150, text=False)
    with pymupdf.open(stream=content, filetype="pdf") as document:
        assert not document[0].get_cdrawings()
    fields = form_fields(content)
    assert _labels(fields) == ["Full name", "Date of birth", "City"]
    assert [field.description for field in fields if field.type == "checkbox"] == [
        "I agree to the terms [check if it applies]"
    ]
    hit = _filled_at(content, fields, "Date of birth: 1815-12-10", "1815-12-10")
    assert hit.x0 >= 170 and hit.x1 <= 330


def test_a_small_picture_on_a_page_is_not_searched_for_rules() -> None:
    """A logo on a printed page is no scan: its edges are no rules and make no blanks."""
    with pymupdf.open() as drawn:  # type: ignore[no-untyped-call]
        logo = _printed_form(drawn, text=False).get_pixmap(dpi=40, colorspace=pymupdf.csGRAY)
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_image(pymupdf.Rect(400, 30, 560, 230), pixmap=logo)
        page.insert_text((72, 300), "Full name:", fontsize=12)
        content = bytes(document.tobytes())
    assert not forms._pictured(pymupdf.open(stream=content, filetype="pdf")[0])
    assert all(field.bbox.top > 0.3 for field in form_fields(content))


# A caption's words 13.74 points high (Helvetica at 10 points), its room after it as `_open_blanks`
# makes it: from half a height after the caption to a height before the next caption or the frame.
_SIZE = 13.74


def _caption(*texts: str, x: float = 22.0) -> list[tuple[float, float, float, float, str]]:
    words = []
    for text in texts:
        width = pymupdf.get_text_length(text, fontsize=10)
        words.append((x, 82.25, x + width, 82.25 + _SIZE, text))
        x += width + 2.8
    return words


def _room(caption: list[tuple[float, float, float, float, str]], width: float) -> tuple[float, ...]:
    x1, y0, y1 = caption[-1][2], caption[0][1], caption[0][3]
    return (x1 + 0.5 * _SIZE, y0 - 0.2 * _SIZE, x1 + 0.5 * _SIZE + width, y1 + 0.2 * _SIZE)


def _band(
    caption: list[tuple[float, float, float, float, str]],
    width: float,
    under: list[tuple[float, float, float]],
    over: list[tuple[float, float, float]] = (),  # type: ignore[assignment]
) -> tuple[float, ...] | None:
    right = _room(caption, width)
    middle = (right[1] + right[3]) / 2
    level = (right[0], middle - 0.3 * _SIZE, right[2], middle + 0.3 * _SIZE)
    return forms._in_band(caption, right, level, caption, [*over, *under], [], _SIZE)


def test_the_room_after_a_colon_caption_over_a_rule_all_along_is_a_blank() -> None:
    """A caption ending in its colon in a ruled band ("Height:" in a row of a health exam form) with
    room after it and a rule under all of the room, drawn in pieces (a table's cells under the band):
    its blank is that room, under the rule over the line where that cuts the room's top."""
    caption = _caption("Height:")
    x0 = caption[-1][2] + 0.5 * _SIZE
    pieces = [(97.0, 20.0, x0 + 20), (97.0, x0 + 20, x0 + 40), (97.0, x0 + 40, x0 + 120)]
    box = _band(caption, 70.0, pieces, over=[(81.0, 20.0, 300.0)])
    assert box is not None and box[1] == 82.0 and box[0] == x0 and box[2] == x0 + 70.0
    assert _band(caption, 70.0, pieces[:1]) is None  # the rule stops under the room's first third
    assert _band(_caption("Height"), 70.0, pieces) is None  # no colon: a heading, not a caption
    assert _band(caption, 70.0, pieces, over=[(89.5, 20.0, 300.0)]) is None  # a rule across its line


@pytest.mark.parametrize(("width", "found"), [(29.0, False), (31.0, True)])
def test_a_colon_captions_blank_in_a_band_needs_room_for_a_short_value(width: float, found: bool) -> None:
    """The room after a caption in a band makes a blank from 30 points (a cell's "Exam Date:")."""
    caption = _caption("Exam", "Date:")
    assert (_band(caption, width, [(97.0, 20.0, 575.0)]) is not None) is found


def test_a_colon_caption_with_a_note_in_brackets_after_it_makes_a_blank() -> None:
    """ "Provider Name: (please print)" is a caption ending in its colon and a note on how to write."""
    caption = _caption("Provider", "Name:", "(please", "print)")
    assert _band(caption, 200.0, [(97.0, 20.0, 575.0)]) is not None
    assert _band(_caption("Name:", "(please", "print)", "here"), 200.0, [(97.0, 20.0, 575.0)]) is None


@pytest.mark.parametrize("ruled", [False, True])
def test_a_line_of_five_words_right_under_a_caption_makes_it_running_text_unless_a_rule_parts_them(
    ruled: bool,
) -> None:
    """The line under "Pulse:" is a table's heading ("Required for PreK and K") in the next band: a
    rule between them parts the caption from it; without the rule the two are a block of text."""
    caption = _caption("Pulse:", x=300.0)
    under = _caption("Required", "for", "PreK", "and", "K", x=295.0)
    under = [(x0, y0 + 15.0, x1, y1 + 15.0, text) for x0, y0, x1, y1, text in under]
    rules = [(97.0, 20.0, 575.0)] if ruled else []
    rect = (caption[0][0], caption[0][1], caption[-1][2], caption[0][3])
    assert forms._ends_paragraph(rect, caption + under, _SIZE, rules) is not ruled


@pytest.mark.parametrize(("share", "searched"), [(0.45, False), (0.55, True)])
def test_a_page_is_searched_for_rules_in_its_pictures_from_half_its_area(
    share: float, searched: bool
) -> None:
    with pymupdf.open() as drawn:  # type: ignore[no-untyped-call]
        picture = _printed_form(drawn, text=False).get_pixmap(dpi=40, colorspace=pymupdf.csGRAY)
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        height = page.rect.height * share
        page.insert_image(pymupdf.Rect(0, 0, page.rect.width, height), pixmap=picture, keep_proportion=False)
        assert forms._pictured(page) is searched


@pytest.mark.parametrize(("side", "searched"), [(3_790.0, True), (3_800.0, False)])
def test_a_page_whose_picture_would_be_larger_than_an_ocrs_is_not_drawn_for_its_rules(
    side: float, searched: bool
) -> None:
    """At 120 dpi a page 3,790 points square is 39.9 million pixels and one of 3,800 is 40.1 million:
    MAX_OCR_PIXELS (40 million) bounds the picture drawn to look for rules, as it bounds OCR's."""
    with pymupdf.open() as drawn:  # type: ignore[no-untyped-call]
        picture = _printed_form(drawn, text=False).get_pixmap(dpi=40, colorspace=pymupdf.csGRAY)
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=side, height=side)
        page.insert_image(page.rect, pixmap=picture, keep_proportion=False)
        assert forms._pictured(page) is searched
