"""The values printed far right of their labels on a photographed till roll, which Tesseract's layout
analysis loses, read from the paper beside each line (`images.read_beside_lines`)."""

from __future__ import annotations

import os
import random
import statistics

import pymupdf
import pytest
from docsvc.documents.engine import images, ocr

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)
DPI = 150


def _roll(
    lines: list[tuple[str, str]], background: int | None = None, grain: bool = False, spacing: float = 24
):
    """A till roll's lines (label left, amount right) drawn in grey at DPI, optionally on a dark table
    to the paper's right (`background`) and with the paper's grain; and the reading of its labels only,
    as Tesseract's layout analysis leaves a photo whose amounts it lost."""
    document = pymupdf.open()
    page = document.new_page(width=400, height=60 + spacing * len(lines))
    for number, (label, amount) in enumerate(lines):
        y = 40 + spacing * number
        page.insert_text((30, y), label, fontsize=12, fontname="cour")
        page.insert_text((230, y), amount, fontsize=12, fontname="cour")
    if background is not None:
        page.draw_rect(pymupdf.Rect(320, 0, 400, page.rect.height), fill=(background / 255,) * 3, width=0)
    scale = DPI / 72
    labels = []
    for x0, y0, x1, y1, text, block, line, _ in page.get_text("words"):
        if x0 < 200:
            box = (x0 * scale, y0 * scale, x1 * scale, y1 * scale)
            labels.append(ocr.Word((block, 0, line), box, text, 95.0))
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY, alpha=False)
    grey = ocr._grey(pixmap)
    if grain:
        noise = random.Random(7)
        grey = grey.point(lambda value: value)
        pixels = grey.load()
        for x in range(grey.width):
            for y in range(grey.height):
                if pixels[x, y] > 200:
                    pixels[x, y] = 200 + noise.randint(-4, 4)
    return grey, ocr.Reading(tuple(labels), pymupdf.Identity, DPI, 0.0)


def _a_total_read() -> tuple[pymupdf.Page, ocr.Reading, images.ParseOptions]:
    """A blank page, a reading of one word on it, and a page's ten seconds."""
    page = pymupdf.open().new_page()
    reading = ocr.Reading((ocr.Word((1, 1, 1), (0, 0, 10, 10), "TOTAL:", 95.0),), pymupdf.Identity, DPI, 0.0)
    return page, reading, images.ParseOptions(page_seconds=10)


def _read(grey, reading):
    return images.read_beside_lines(ocr._tesseract(), grey, reading, "eng", ocr.tessdata())


@OCR
def test_an_amount_far_right_of_its_label_is_read_onto_the_label_line() -> None:
    grey, reading = _roll([("SUBTOTAL:", "48.20"), ("TAX:", "3.86"), ("TOTAL:", "52.06")], background=40)
    read = _read(grey, reading)
    added = {word.text: word for word in read.words[len(reading.words) :]}
    lines = {word.text: word.line for word in reading.words}
    assert "52.06" in added and added["52.06"].line == lines["TOTAL:"]
    assert "48.20" in added and added["48.20"].line == lines["SUBTOTAL:"]


@OCR
def test_blank_grainy_paper_beside_the_lines_adds_no_words() -> None:
    grey, reading = _roll([("SUBTOTAL:", ""), ("TOTAL:", "")], background=40, grain=True)
    assert _read(grey, reading) == reading


def test_the_paper_ends_where_the_dark_background_begins() -> None:
    grey, _ = _roll([("TOTAL:", "")], background=40)
    edge = 320 * DPI / 72
    found = images._paper_end(grey, 100, 40, 80, ocr._otsu(grey.histogram()), 20)
    assert abs(found - edge) <= 2
    plain, _ = _roll([("TOTAL:", "")])
    assert images._paper_end(plain, 100, 40, 80, ocr._otsu(plain.histogram()), 20) == plain.width


def test_a_line_that_ends_in_a_number_is_not_read_again_beside_it() -> None:
    grey, reading = _roll([("TOTAL:", "")], background=40)
    label = reading.words[0]
    amount = ocr.Word(
        label.line, (label.box[2] + 20, label.box[1], label.box[2] + 80, label.box[3]), "41.31", 95
    )
    assert images._strips_beside(grey, [label])
    assert images._strips_beside(grey, [label, amount]) == []


@OCR
def test_an_amount_misread_doubtfully_as_letters_is_read_again_and_replaced() -> None:
    grey, reading = _roll([("TOTAL:", "52.06")], background=40)
    scale = DPI / 72
    label = reading.words[0]
    misread = ocr.Word(label.line, (230 * scale, 30 * scale, 272 * scale, 42 * scale), "a", 40.0)
    read = _read(grey, ocr.Reading((label, misread), pymupdf.Identity, DPI, 0.0))
    assert [word.text for word in read.words] == ["TOTAL:", "52.06"]


@OCR
def test_an_amount_misread_doubtfully_with_its_digits_half_lost_is_read_again_and_replaced() -> None:
    grey, reading = _roll([("TOTAL:", "52.06")], background=40)
    scale = DPI / 72
    label = reading.words[0]
    digits = ocr.Word(label.line, (230 * scale, 30 * scale, 248 * scale, 42 * scale), "52", 66.0)
    garbled = ocr.Word(label.line, (250 * scale, 30 * scale, 272 * scale, 42 * scale), ".O@", 0.0)
    read = _read(grey, ocr.Reading((label, digits, garbled), pymupdf.Identity, DPI, 0.0))
    assert [word.text for word in read.words] == ["TOTAL:", "52.06"]


def test_a_doubtful_word_read_as_an_amount_or_a_zip_code_is_kept_as_the_line_s_end() -> None:
    grey, reading = _roll([("TOTAL:", "")], background=40)
    label = reading.words[0]
    box = (label.box[2] + 20, label.box[1], label.box[2] + 80, label.box[3])
    assert images._strips_beside(grey, [label, ocr.Word(label.line, box, "$55.51", 59.0)]) == []
    assert images._strips_beside(grey, [label, ocr.Word(label.line, box, "11001", 59.0)]) == []
    assert images._strips_beside(grey, [label, ocr.Word(label.line, box, "17", 59.0)])


class _Reads:
    """A Tesseract that reads the given words side by side, their middle at `middle` of the stack."""

    def __init__(self, found: list[tuple[str, float]], middle: float) -> None:
        self.found, self.middle, self.left = found, middle, 10.0

    def words(self, *args: object) -> list[ocr.Word]:
        return [
            ocr.Word(
                (1, 1, 1),
                (self.left + 60 * n, self.middle - 5, self.left + 50 + 60 * n, self.middle + 5),
                text,
                confidence,
            )
            for n, (text, confidence) in enumerate(self.found)
        ]


def test_only_numbers_read_confidently_beside_a_line_are_taken() -> None:
    grey, reading = _roll([("TOTAL:", "")], background=40)
    _, offsets = images._stacked(grey, images._strips_beside(grey, reading.words))
    middle = (offsets[0][0] + offsets[0][1]) / 2
    fake = _Reads([("Cf", 80.0), ("12.50", 75.0), ("Dine", 95.0), ("7.00", 50.0)], middle)
    read = images.read_beside_lines(fake, grey, reading, "eng", "")  # type: ignore[arg-type]
    assert [word.text for word in read.words] == ["TOTAL:", "12.50"]


def test_a_page_without_time_left_is_not_read_beside_its_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> None:
        raise AssertionError("read beside the lines")

    monkeypatch.setattr(images, "read_beside_lines", fail)
    page, reading, options = _a_total_read()
    assert images.with_words_beside_lines(page, reading, options, spent=7.0) is reading


@OCR
def test_a_second_look_tesseract_refuses_keeps_the_page_s_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """The paper beside the lines, or the head read again, refused by Tesseract (a picture larger than it
    takes, say): the page keeps the reading it had, rather than failing whole."""

    def refused(*args: object) -> None:
        raise RuntimeError("Tesseract could not read the page")

    monkeypatch.setattr(images, "read_head_again", refused)
    page, reading, options = _a_total_read()
    assert images.with_words_beside_lines(page, reading, options).words == reading.words


def test_a_word_read_in_the_margin_of_a_strip_joins_no_line_that_has_its_value() -> None:
    grey, reading = _roll([("SUBTOTAL:", "48.20"), ("TOTAL:", "")], background=40, spacing=14)
    scale = DPI / 72
    subtotal, total = reading.words
    value = ocr.Word(subtotal.line, (230 * scale, subtotal.box[1], 272 * scale, subtotal.box[3]), "48.20", 95)
    reading = ocr.Reading((subtotal, value, total), pymupdf.Identity, DPI, 0.0)
    strips = images._strips_beside(grey, reading.words)
    assert [line for line, _ in strips] == [total.line]
    (_, (_, y0, _, _)), height = strips[0], statistics.median(w.box[3] - w.box[1] for w in reading.words)
    _, offsets = images._stacked(grey, strips)
    within_subtotal = subtotal.box[3] - 3  # inside the total's strip, on the subtotal's line
    assert y0 < within_subtotal
    factor = min(max(images.BESIDE_HEIGHT / height, 1.0), images.BESIDE_MAX_SCALE)
    fake = _Reads([("7.00", 95.0)], offsets[0][0] + (within_subtotal - y0) * factor)
    read = images.read_beside_lines(fake, grey, reading, "eng", "")  # type: ignore[arg-type]
    assert read == reading


class _Refuses(_Reads):
    """A Tesseract that refuses a picture with a side longer than `side`, as Tesseract does past 16 bits,
    and reads `amount` on each run of inked rows of a picture it takes (a strip's print)."""

    def __init__(self, amount: str, side: int) -> None:
        super().__init__([(amount, 95.0)], 0.0)
        self.side, self.sizes = side, []

    def words(self, samples: bytes, width: int, height: int, *args: object) -> list[ocr.Word]:
        if max(width, height) > self.side:
            raise RuntimeError("Tesseract could not read the page")
        self.sizes.append((width, height))
        inked = [y for y in range(height) if min(samples[y * width : (y + 1) * width]) < 128]
        words = []
        for n, y in enumerate(inked):
            if n == 0 or y - inked[n - 1] > 1:
                top = y
            if n == len(inked) - 1 or inked[n + 1] - y > 1:
                self.middle = (top + y) / 2
                words += super().words()
        return words


def test_strips_that_stack_taller_than_tesseract_takes_are_read_in_several_pictures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    grey, reading = _roll([("ITEM:", f"{n}.50") for n in range(30)], background=40, spacing=36)
    strips = images._strips_beside(grey, reading.words)
    height = statistics.median(w.box[3] - w.box[1] for w in reading.words)
    factor = min(max(images.BESIDE_HEIGHT / height, 1.0), images.BESIDE_MAX_SCALE)
    side = images._stacked(grey, strips, factor)[0].height // 3
    assert images._stacked(grey, strips[:1], factor)[0].width < side
    monkeypatch.setattr(images, "MAX_PICTURE_SIDE", side)
    fake = _Refuses("9.99", side)
    read = images.read_beside_lines(fake, grey, reading, "eng", "")  # type: ignore[arg-type]
    assert len(fake.sizes) >= 3 and all(max(size) <= side for size in fake.sizes)
    amounts = [word.line for word in read.words if word.text == "9.99"]
    assert sorted(amounts) == sorted(line for line, _ in strips) and len(strips) == 30
