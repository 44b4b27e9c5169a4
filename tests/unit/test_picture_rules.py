"""Ruled tables in the picture of a page read by OCR: a scanned table keeps its cells."""

from __future__ import annotations

import os
import random

import pymupdf
import pytest
from docsvc.documents import engine
from docsvc.documents.engine import ocr
from docsvc.documents.engine.model import ParseOptions

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)

ROWS = [
    ["Item", "Quantity", "Price"],
    ["Copper wire", "12", "48.00"],
    ["Steel bolts", "250", "17.50"],
    ["Rubber seals", "40", "9.20"],
]
PLAIN_ROWS = [
    ["Item", "Qty", "Unit", "Price", "Total"],
    ["Copper wire", "12", "kg", "4.00", "48.00"],
    ["Steel bolts", "250", "pcs", "0.07", "17.50"],
    ["Rubber seals", "40", "pcs", "0.23", "9.20"],
    ["Brass hinges", "16", "pcs", "1.40", "22.40"],
]
PROSE = [
    "The committee met on Tuesday to review the budget for the",
    "coming year. Members agreed that the travel allowance should",
    "stay as it is and that the printing costs must come down.",
]


def _scan(draw: object, dpi: int = 200, turn: int = 0) -> bytes:
    """An image-only PDF page: what `draw` puts on a page, drawn as a picture at `dpi` (turned
    `turn` degrees)."""
    with pymupdf.open() as source:
        page = source.new_page(width=595, height=842)
        draw(page)  # type: ignore[operator]
        picture = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
        if turn:
            from PIL import Image

            image = Image.frombytes("L", (picture.width, picture.height), picture.samples)
            image = image.rotate(turn, expand=True, fillcolor=255)
            picture = pymupdf.Pixmap(pymupdf.csGRAY, image.width, image.height, image.tobytes(), False)
    with pymupdf.open() as scan:
        sheet = scan.new_page(width=picture.width * 72 / dpi, height=picture.height * 72 / dpi)
        sheet.insert_image(sheet.rect, pixmap=picture)
        return scan.tobytes()


def _on_a_rotated_page(scan: bytes, stored: int) -> bytes:
    """The picture of the image-only PDF page `scan`, stored turned `stored` degrees clockwise on a
    page turned by /Rotate 90: shown upright when `stored` is 90, upside down at 270, a quarter turn
    round at 0 (OCR reads it at the turn it is shown at)."""
    with pymupdf.open(stream=scan, filetype="pdf") as source:
        picture = source.extract_image(source[0].get_images()[0][0])["image"]
        width, height = source[0].rect.width, source[0].rect.height
    with pymupdf.open() as document:
        page = (
            document.new_page(width=height, height=width)
            if stored % 180
            else document.new_page(width=width, height=height)
        )
        page.insert_image(page.rect, stream=picture, rotate=stored)
        page.set_rotation(90)
        return bytes(document.tobytes())


def _ruled_table(page: pymupdf.Page) -> None:
    left, top, widths, height = 80.0, 200.0, (180.0, 110.0, 110.0), 30.0
    xs = [left]
    for width in widths:
        xs.append(xs[-1] + width)
    bottom = top + height * len(ROWS)
    for number, row in enumerate(ROWS):
        y = top + height * number
        for column, text in enumerate(row):
            page.insert_text((xs[column] + 8, y + 20), text, fontsize=12)
    for number in range(len(ROWS) + 1):
        page.draw_line((left, top + height * number), (xs[-1], top + height * number), width=1)
    for x in xs:
        page.draw_line((x, top), (x, bottom), width=1)
    page.insert_text((80, 150), "Delivery note 4711", fontsize=16)


def _table_without_rules(page: pymupdf.Page) -> None:
    """Five columns close together, no rules."""
    page.insert_text((72, 150), "Delivery note 4711", fontsize=16)
    for number, row in enumerate(PLAIN_ROWS):
        for x, text in zip((72, 160, 190, 225, 265), row, strict=True):
            page.insert_text((x, 200 + 20 * number), text, fontsize=11)


def _prose_with_an_underline(page: pymupdf.Page) -> None:
    for number, line in enumerate(PROSE):
        page.insert_text((72, 150 + 18 * number), line, fontsize=12)
    page.draw_line((72, 220), (400, 220), width=1)
    page.insert_text((72, 240), "Signed for the committee", fontsize=12)


def _photo(page: pymupdf.Page) -> None:
    """A photograph: blotches of grey with straight dark edges, and a caption."""
    chance = random.Random(3)
    side = 300
    samples = bytearray(side * side)
    for y in range(side):
        for x in range(side):
            shade = 90 + 60 * ((x // 37 + y // 53) % 3) + chance.randint(-30, 30)
            samples[y * side + x] = max(0, min(255, shade))
    for y in range(0, side, 60):  # dark straight edges, as of windows of a building
        samples[y * side : y * side + side] = bytes(side)
    for y in range(side):
        for x in range(0, side, 75):
            samples[y * side + x] = 0
    photo = pymupdf.Pixmap(pymupdf.csGRAY, side, side, bytes(samples), False)
    page.insert_image(pymupdf.Rect(100, 150, 450, 500), pixmap=photo)
    page.insert_text((100, 530), "The new warehouse at Leeds, seen from the yard.", fontsize=12)
    page.insert_text((100, 550), "It opened in March with room for twelve trucks.", fontsize=12)


def _cells(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not set(line) <= set("|-: "):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


@OCR
def test_a_scanned_ruled_table_comes_out_as_a_table_with_its_cells() -> None:
    (page,) = engine.parse_pages(_scan(_ruled_table), "pdf", ParseOptions(table_format="markdown"))

    assert _cells(page.text) == ROWS, page.text
    assert "Delivery note 4711" in page.text


@OCR
def test_a_scanned_ruled_table_read_straightened_keeps_its_cells() -> None:
    content = _scan(_ruled_table, turn=2)  # skewed 2 degrees: OCR reads the page levelled

    (page,) = engine.parse_pages(content, "pdf", ParseOptions(table_format="markdown"))

    cells = _cells(page.text)
    assert [len(row) for row in cells] == [len(row) for row in ROWS], page.text
    assert cells[0][1:] == ROWS[0][1:] and cells[1:] == ROWS[1:], page.text  # "Item" may read "'tem"


@OCR
def test_a_scanned_table_without_rules_comes_out_as_a_table_with_its_cells() -> None:
    (page,) = engine.parse_pages(_scan(_table_without_rules), "pdf", ParseOptions(table_format="markdown"))

    assert _cells(page.text) == PLAIN_ROWS, page.text
    assert "Delivery note 4711" in page.text


@OCR
def test_a_scanned_page_of_prose_with_an_underline_has_no_table() -> None:
    (page,) = engine.parse_pages(
        _scan(_prose_with_an_underline), "pdf", ParseOptions(table_format="markdown")
    )

    assert "|" not in page.text, page.text
    assert "committee met on Tuesday" in page.text


@OCR
def test_a_scanned_page_with_a_photograph_has_no_table() -> None:
    (page,) = engine.parse_pages(_scan(_photo), "pdf", ParseOptions(table_format="markdown"))

    assert "|" not in page.text, page.text
    assert "warehouse" in page.text


@OCR
@pytest.mark.parametrize(
    ("skew", "stored"),
    [(0, 90), (2, 90), (0, 270), (2, 270), (0, 0)],
    ids=["upright", "upright-skewed", "upside-down", "upside-down-skewed", "a-quarter-turn-round"],
)
def test_a_scanned_ruled_table_on_a_rotated_page_keeps_its_rows_however_ocr_read_it(
    skew: int, stored: int
) -> None:
    content = _on_a_rotated_page(_scan(_ruled_table, turn=skew), stored)
    (page,) = engine.parse_pages(content, "pdf", ParseOptions(table_format="markdown", page_seconds=60))
    cells = _cells(page.text)
    assert [len(row) for row in cells] == [len(row) for row in ROWS], page.text
    assert cells[0][1:] == ROWS[0][1:] and cells[1:] == ROWS[1:], page.text  # "Item" may read "'tem"


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_the_picture_of_a_rotated_page_at_either_fitting_turn_gives_the_same_place_on_the_page_as_shown(
    rotation: int,
) -> None:
    from docsvc.documents.engine import picture_rules

    with pymupdf.open() as document:
        page = document.new_page(width=400, height=600)
        page.draw_rect(pymupdf.Rect(50, 80, 110, 100), color=None, fill=(0, 0, 0))  # in its own frame
        page.set_rotation(rotation)
        shown = pymupdf.Rect(50, 80, 110, 100) * page.rotation_matrix
        for turn in (0.0, float((360 - rotation) % 360)):  # as shown; its own frame
            picture = picture_rules._picture(page, turn)
            grey = picture.tobytes()
            dark = [
                (x, y)
                for y in range(picture.height)
                for x in range(picture.width)
                if grey[y * picture.width + x] < 128
            ]
            xs, ys = [x for x, _ in dark], [y for _, y in dark]
            found = pymupdf.Rect(min(xs), min(ys), max(xs) + 1, max(ys) + 1) * picture_rules._to_shown(
                page, turn
            )
            assert abs(found.x0 - shown.x0) < 2 and abs(found.y0 - shown.y0) < 2, (turn, found, shown)
            assert abs(found.x1 - shown.x1) < 2 and abs(found.y1 - shown.y1) < 2, (turn, found, shown)
