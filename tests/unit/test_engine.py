"""The document engine on real documents: text per page, tables in place, OCR, Office and text formats,
and what it does with documents that are damaged, hostile or too slow."""

from __future__ import annotations

import glob
import io
import itertools
import multiprocessing
import os
import signal
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from typing import Any

import pymupdf
import pytest
import yaml
from docsvc.documents import engine
from docsvc.documents.engine import errors, isolation, ocr, pdf
from docsvc.documents.engine.model import ParseOptions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import samples

PRICES = [["Item", "Qty", "Price"], ["Widget", "2", "9.99"], ["Gadget", "1", "19.50"]]
OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)


def counted(content: bytes, kind: str) -> int:
    """The page count the engine reports before reading the first page."""
    counts: list[int] = []
    pages = engine.parse_pages(content, kind, ParseOptions(), counts.append)
    next(iter(pages))
    pages.close()  # type: ignore[attr-defined]
    return counts[0]


def texts(content: bytes, kind: str, **options: object) -> list[str]:
    return [page.text for page in engine.parse_pages(content, kind, ParseOptions(**options))]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------- PDF
def test_pdf_pages_come_in_order_one_string_each() -> None:
    pages = texts(samples.text_pdf(pages=3, text="Quarterly", lines=3), "pdf")
    assert len(pages) == 3
    for number, text in enumerate(pages, start=1):
        assert text.startswith(f"Quarterly {number}\n")
        assert f"Line 2 of page {number}:" in text


def test_the_page_count_can_refuse_a_document_before_any_page_is_read() -> None:
    def refuse(page_count: int) -> None:
        raise ValueError(f"{page_count} pages is too many")

    read: list[object] = []
    with pytest.raises(ValueError, match="9 pages"):
        read.extend(engine.parse_pages(samples.text_pdf(pages=9), "pdf", ParseOptions(), refuse))
    assert read == []


def test_page_count_is_the_number_of_pdf_pages() -> None:
    assert counted(samples.text_pdf(pages=7), "pdf") == 7


def test_columns_written_one_after_the_other_are_read_that_way() -> None:
    (text,) = texts(samples.two_column_pdf(), "pdf")
    assert text.index("Left column line 3") < text.index("Right column line 1")
    assert text.startswith("Annual report")


def test_columns_written_line_across_line_are_read_column_after_column() -> None:
    left = [f"Left column sentence {n} on the regional budget" for n in range(1, 9)]
    right = [f"Right column sentence {n} on supplier costs" for n in range(1, 9)]

    (text,) = texts(samples.side_by_side_pdf(list(zip(left, right, strict=True))), "pdf")

    assert text.startswith("Quarterly bulletin")
    lines = [line for line in text.splitlines() if "column sentence" in line]
    assert lines == left + right


def test_columns_written_line_across_line_are_read_from_the_dict_of_their_block_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    left = [f"Left column sentence {n} on the regional budget" for n in range(1, 9)]
    right = [f"Right column sentence {n} on supplier costs" for n in range(1, 9)]
    made_within = []
    original = pymupdf.TextPage.extractDICT

    def recorded(textpage: pymupdf.TextPage, *args: object, **kwargs: object) -> dict[str, object]:
        made_within.append(pymupdf.Rect(textpage.rect))
        return original(textpage, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pymupdf.TextPage, "extractDICT", recorded)
    with pymupdf.open(
        stream=samples.side_by_side_pdf(list(zip(left, right, strict=True))), filetype="pdf"
    ) as document:
        page = document[0]
        text, textpage = pdf._page_text(page, False, ParseOptions(), [])
        assert textpage is not None and textpage.rect == page.rect  # its bounds set back
    lines = [line for line in text.splitlines() if "column sentence" in line]
    assert lines == left + right
    (within,) = made_within
    assert within.y0 > 80  # the lines' block, not the title above it, nor the whole page
    assert within.y1 < 300


LABELLED = [("Invoice number", "INV-2024-0117"), ("Issue date", "12 March 2024")]
LABELLED += [("Due date", "11 April 2024"), ("Customer", "Northwind Traders Ltd")]
LABELLED += [("Order", "PO-88213"), ("Total due", "1,234.56 EUR")]


def test_labels_and_their_values_in_two_straight_columns_are_rows_of_a_table() -> None:
    (text,) = texts(samples.side_by_side_pdf(LABELLED, x=(72, 250)), "pdf")

    lines = text.splitlines()[2:]
    assert lines == [f"| {label} | {value} |" for label, value in LABELLED[:1]] + ["|---|---|"] + [
        f"| {label} | {value} |" for label, value in LABELLED[1:]
    ]


def test_labels_and_their_values_side_by_side_too_few_for_a_table_stay_together_on_their_line() -> None:
    rows = LABELLED[:3]

    (text,) = texts(samples.side_by_side_pdf(rows, x=(72, 250)), "pdf")

    lines = text.splitlines()[1:]
    assert [line for line in lines if line] == [part for row in rows for part in row]


@pytest.mark.parametrize(
    ("table_format", "expected"),
    [
        ("markdown", "| Item | Qty | Price |\n|---|---|---|\n| Widget | 2 | 9.99 |\n| Gadget | 1 | 19.50 |"),
        (
            "html",
            "<table><thead><tr><th>Item</th><th>Qty</th><th>Price</th></tr></thead><tbody>"
            "<tr><td>Widget</td><td>2</td><td>9.99</td></tr><tr><td>Gadget</td><td>1</td><td>19.50</td></tr>"
            "</tbody></table>",
        ),
    ],
)
def test_a_ruled_table_is_rendered_in_place_in_the_requested_format(table_format: str, expected: str) -> None:
    (text,) = texts(samples.table_pdf(PRICES), "pdf", table_format=table_format)
    assert text == f"Price list\n\n{expected}\n\nPrices include VAT."


@pytest.mark.parametrize("table_format", ["json", "yaml"])
def test_json_and_yaml_tables_are_records_keyed_by_the_header(table_format: str) -> None:
    (text,) = texts(samples.table_pdf(PRICES), "pdf", table_format=table_format)
    title, table, note = text.split("\n\n")
    assert (title, note) == ("Price list", "Prices include VAT.")
    assert yaml.safe_load(table) == [
        {"Item": "Widget", "Qty": "2", "Price": "9.99"},
        {"Item": "Gadget", "Qty": "1", "Price": "19.50"},
    ]


def test_a_table_of_aligned_columns_without_rules_is_found_and_its_caption_stays_text() -> None:
    rows = [["Carrier", "Weight", "Cost"], ["DHL", "12 kg", "40.00"], ["UPS", "3 kg", "12.50"]]
    (text,) = texts(samples.aligned_columns_pdf(rows), "pdf")
    assert text == (
        "Shipment summary\n\n| Carrier | Weight | Cost |\n|---|---|---|\n"
        "| DHL | 12 kg | 40.00 |\n| UPS | 3 kg | 12.50 |"
    )


def test_a_cell_whose_hyphenated_word_goes_on_the_next_line_keeps_it_in_one_row() -> None:
    """A dense table without rules (every line a row) whose cell wraps a word at a hyphen: the rows
    that would cut it are one row, so the table cuts no word of the text layer."""
    cells = [
        ["Animal", "Action", "Result"],
        ["Cat", "Says", "Meow"],
        ["Fox", "Says", "Wa-pa-pa-"],
        ["", "", "pa-pow"],
        ["Dog", "Says", "Woof"],
        ["Owl", "Says", "Hoot"],
    ]
    with pymupdf.open() as document:
        page = document.new_page()
        for number, row in enumerate(cells):
            for x, text in zip((72, 200, 330), row, strict=True):
                page.insert_text((x, 100 + 14 * number), text, fontname="helv", fontsize=10)
        content = document.tobytes()

    (text,) = texts(content, "pdf")

    assert text.splitlines()[3] == "| Fox | Says | Wa-pa-pa- pa-pow |"
    assert len(text.splitlines()) == 6


def test_a_page_of_prose_is_read_without_reading_its_words_for_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    original = pdf._words
    monkeypatch.setattr(pdf, "_words", lambda *args: calls.append(1) or original(*args))
    list(pdf.read_pages(samples.text_pdf(pages=5, lines=30), "pdf", ParseOptions()))
    assert calls == []
    list(pdf.read_pages(samples.table_pdf(PRICES), "pdf", ParseOptions()))
    assert calls == [1]


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time a page is searched for tables without rules."""
    calls: list[int] = []
    original = pdf.aligned_grids
    monkeypatch.setattr(pdf, "aligned_grids", lambda words: calls.append(1) or original(words))
    return calls


def _page(lines: list[tuple[float, float, str]]) -> bytes:
    """A page of (x, y, text) in 10-point Helvetica; text at x is right-aligned there when x < 0."""
    with pymupdf.open() as document:
        page = document.new_page()
        for x, y, text in lines:
            if x < 0:
                x = -x - pymupdf.get_text_length(text, fontname="helv", fontsize=10)
            page.insert_text((x, y), text, fontname="helv", fontsize=10)
        return bytes(document.tobytes())


def _read(content: bytes) -> str:
    (page,) = pdf.read_pages(content, "pdf", ParseOptions())
    return page.text


PROSE = [
    "The ledger was kept by hand until",
    "the office moved across the river",
    "and the clerks learned to type on",
    "machines that nobody could repair",
    "without sending away for the parts",
    "which took a month or more to come",
    "back, so most of the accounts were",
    "written twice, once in the old way",
    "and once again on the new machines",
    "until the two were found to agree.",
]


def test_a_page_of_short_lines_in_two_columns_is_not_searched_for_tables_without_rules(
    searched: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short lines pass the look at the blocks' text, but rows of two pieces side by side are no rows
    of a table of three columns: the engine's words are not even built."""
    built: list[int] = []
    original = pdf._words
    monkeypatch.setattr(pdf, "_words", lambda *args: built.append(1) or original(*args))
    lines = [(x, 100 + 14 * row, line) for row, line in enumerate(PROSE) for x in (72, 320)]
    text = _read(_page(lines))
    assert searched == [] and built == []
    assert text.count("The ledger was kept by hand until") == 2 and "|" not in text


def test_a_table_without_rules_under_prose_is_still_found(searched: list[int]) -> None:
    table = [["Carrier", "Weight", "Cost"], ["DHL", "12 kg", "40.00"], ["UPS", "3 kg", "12.50"]]
    lines = [(72, 80 + 14 * row, line) for row, line in enumerate(PROSE)]
    lines += [
        (72 + 130 * column, 260 + 16 * row, cell)
        for row, cells in enumerate(table)
        for column, cell in enumerate(cells)
    ]
    text = _read(_page(lines))
    assert searched == [1]
    assert (
        "| Carrier | Weight | Cost |\n|---|---|---|\n| DHL | 12 kg | 40.00 |\n| UPS | 3 kg | 12.50 |" in text
    )


def test_a_table_without_rules_beside_a_column_of_prose_is_still_found(searched: list[int]) -> None:
    table = [["Year", "Sales", "Staff"], ["2021", "310", "12"], ["2022", "355", "14"], ["2023", "402", "15"]]
    lines = [(72, 100 + 14 * row, line) for row, line in enumerate(PROSE)]
    lines += [
        (320 + 80 * column, 100 + 16 * row, cell)
        for row, cells in enumerate(table)
        for column, cell in enumerate(cells)
    ]
    text = _read(_page(lines))
    assert searched == [1]
    for cells in table:  # a row of the table (the prose's lines may share its rows)
        assert f"| {' | '.join(cells)} |" in text


def test_a_table_whose_columns_are_right_aligned_numbers_is_still_found(searched: list[int]) -> None:
    table = [["Account", "Debit", "Credit"], ["Rent", "1,200.00", "0.00"], ["Sales", "0.00", "15,420.50"]]
    table += [["Wages", "8,310.75", "0.00"]]
    rights = (-250, -420)  # the numbers end at these x: their starts differ from row to row
    lines = [(72, 80 + 16 * row, cells[0]) for row, cells in enumerate(table)]
    lines += [
        (right, 80 + 16 * row, cells[1 + index])
        for row, cells in enumerate(table)
        for index, right in enumerate(rights)
    ]
    lines += [(72, 160 + 14 * row, line) for row, line in enumerate(PROSE)]
    text = _read(_page(lines))
    assert searched == [1]
    assert "| Account | Debit | Credit |\n|---|---|---|\n| Rent | 1,200.00 | 0.00 |" in text
    assert "| Sales | 0.00 | 15,420.50 |" in text


def test_a_wrapped_label_is_not_cut_by_the_narrow_column_line_of_labels_and_numbers() -> None:
    """Labels set left and numbers set right pass each other from row to row, so only a narrow column
    line parts them; a label's first line, wrapped over its row, runs across that line with a word
    space: it is one phrase, and the table draws no line through it."""
    table = [
        ("Parameter", "Amount", "Qty", "Code"),
        ("Travel expenses", "1.50", "3", "F"),
        ("Tax", "123456789.50", "1", "T"),
        ("Fees and duties", "99.00", "2", "E"),
        ("Levy", "987654321.50", "1", "L"),
        ("Insurance costs", "12.00", "5", "I"),
        ("Depreciation of plant\nand equipment", "12345678.00", "4", "D"),
        ("Duty", "88.00", "5", "U"),
    ]
    lines: list[tuple[float, float, str]] = []
    y = 100.0
    for label, amount, quantity, code in table:
        *wrapped, label = label.split("\n")
        for part in wrapped:
            lines.append((72, y, part))
            y += 11
        lines += [(72, y, label), (-212, y, amount), (260, y, quantity), (320, y, code)]
        y += 16

    text = _read(_page(lines))

    assert "| Depreciation of plant |" in text.splitlines()[7]
    assert text.splitlines()[0].startswith("| Parameter")
    assert text.splitlines()[-1].endswith("| 5 | U |")


@pytest.fixture
def drawings_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time a page's drawings are read."""
    calls: list[int] = []
    original = pymupdf.Page.get_cdrawings
    monkeypatch.setattr(
        pymupdf.Page, "get_cdrawings", lambda page, *a, **kw: calls.append(1) or original(page, *a, **kw)
    )
    return calls


def test_drawings_are_read_only_on_pages_with_vector_paths(drawings_read: list[int]) -> None:
    """Reading a page's drawings costs a fifth of a plain page's time; a page without a path has no
    ruling lines to find."""
    calls = drawings_read
    list(pdf.read_pages(samples.text_pdf(pages=3, lines=30), "pdf", ParseOptions()))
    assert calls == []
    (text,) = [page.text for page in pdf.read_pages(samples.table_pdf(PRICES), "pdf", ParseOptions())]
    assert calls == [1]
    assert "| Widget | 2 | 9.99 |" in text


def test_a_page_with_one_rule_under_its_heading_is_read_without_its_drawings(
    drawings_read: list[int],
) -> None:
    calls = drawings_read
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "Annual report", fontsize=14)
        page.draw_line((72, 80), (520, 80))
        page.insert_text((72, 110), "Revenue grew in every region this year.")
        content = document.tobytes()

    (text,) = [page.text for page in pdf.read_pages(content, "pdf", ParseOptions())]

    assert calls == [] and "Annual report" in text and "every region" in text


def test_a_page_whose_paths_are_only_rules_under_its_headings_is_read_without_its_drawings(
    drawings_read: list[int],
) -> None:
    """Several horizontal rules and no path that stands taller than a rule: no table can be drawn."""
    calls = drawings_read
    with pymupdf.open() as document:
        page = document.new_page()
        for index, heading in enumerate(("Summary", "Revenue", "Outlook")):
            y = 72 + index * 120
            page.insert_text((72, y), heading, fontsize=14)
            page.draw_line((72, y + 8), (520, y + 8))
            page.insert_text((72, y + 40), f"{heading} grew in every region this year.")
        content = document.tobytes()

    (text,) = [page.text for page in pdf.read_pages(content, "pdf", ParseOptions())]

    assert calls == [] and "Outlook" in text and "|" not in text


def test_the_smallest_ruled_table_is_still_found_from_its_drawings() -> None:
    """Two rows of two cells drawn as separate lines, three rules each way: the pieces of its paths
    could hold a table, so the drawings are read and the table is found."""
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 60), "Totals by quarter")
        for row, (left, right) in enumerate((("Quarter", "Total"), ("Q1", "1,200"))):
            page.insert_text((78, 95 + row * 24), left)
            page.insert_text((178, 95 + row * 24), right)
        for y in (80, 104, 128):
            page.draw_line((72, y), (272, y), width=0.5)
        for x in (72, 172, 272):
            page.draw_line((x, 80), (x, 128), width=0.5)
        content = document.tobytes()

    (text,) = [page.text for page in pdf.read_pages(content, "pdf", ParseOptions())]

    assert "| Quarter | Total |" in text and "| Q1 | 1,200 |" in text


def test_a_page_of_vector_art_is_read_without_looking_for_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over MAX_DRAWINGS paths the page is art: its text is read, tables are not looked for."""
    monkeypatch.setattr(pdf, "MAX_DRAWINGS", 500)
    with pymupdf.open() as document:
        page = document.new_page()
        for index in range(600):
            x, y = 72 + (index % 60) * 7, 200 + (index // 60) * 7
            page.draw_rect(pymupdf.Rect(x, y, x + 4, y + 4), color=(0, 0, 0))
        page.insert_text((72, 72), "Site plan, level 2")
        content = document.tobytes()

    (page_read,) = pdf.read_pages(content, "pdf", ParseOptions())

    assert page_read.text == "Site plan, level 2"
    assert page_read.warnings == ("600 vector paths on the page; tables were not looked for",)


def test_a_page_drawing_millions_of_paths_is_read_quickly_without_its_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A content stream over MAX_CONTENT_BYTES (a map, or a small stream that inflates to tens of MB)
    is read without collecting its paths: every word of the page and a warning; a table is still found
    by its aligned columns."""
    monkeypatch.setattr(pdf, "MAX_CONTENT_BYTES", 20_000)
    with pymupdf.open(stream=samples.table_pdf(PRICES), filetype="pdf") as document:
        page = document[0]
        for index in range(2000):
            page.draw_line((72 + index % 400, 700), (73 + index % 400, 710), width=0.2)
        content = document.tobytes(deflate=True)

    (page_read,) = pdf.read_pages(content, "pdf", ParseOptions())

    assert "| Widget | 2 | 9.99 |" in page_read.text
    (warning,) = page_read.warnings
    assert warning.startswith("the page draws 0.") and warning.endswith("its rules were not read for tables")


def test_the_forms_a_page_draws_are_found_as_pymupdf_lists_them_nested_ones_too() -> None:
    """The operator measure's forms (`pdf._forms`) are those `get_xobjects` lists: a page shown in a
    page (a form), a page shown in that one (a form within the form), and no picture."""
    with pymupdf.open() as inner, pymupdf.open() as middle, pymupdf.open() as outer:
        inner.new_page().insert_text((72, 72), "innermost")
        shown = middle.new_page()
        shown.show_pdf_page(shown.rect, inner, 0)
        shown.insert_image(pymupdf.Rect(72, 300, 144, 372), stream=samples.text_png("ORDER 2026"))
        page = outer.new_page()
        page.show_pdf_page(page.rect, middle, 0)
        plain = outer.new_page()
        plain.insert_text((72, 72), "no form")
        for read in outer:
            listed = {xref for xref, *_ in read.get_xobjects() if xref}
            assert pdf._forms(read) == listed
        assert len(pdf._forms(outer[0])) >= 2 and pdf._forms(outer[1]) == set()  # two forms a shown page


def test_pages_that_each_list_the_same_many_pictures_find_the_forms_pymupdf_lists() -> None:
    """A report's pages each list the same hundreds of pictures: the operator measure's forms
    (`pdf._forms`) are still those `get_xobjects` lists, whether a page lists pictures alone (its
    dict read at once, `pdf._known_leaves`) or a page shown as a form among them."""
    with pymupdf.open() as inner, pymupdf.open() as document:
        inner.new_page().insert_text((72, 72), "shown page")
        picture = samples.text_png("LOGO", size=12)
        first = 0
        for number in range(4):
            page = document.new_page()
            for index in range(40):
                box = pymupdf.Rect(10 + index * 12, 10, 20 + index * 12, 20)
                first = (
                    page.insert_image(box, stream=picture)
                    if not first
                    else page.insert_image(box, xref=first)
                )
            if number == 3:
                page.show_pdf_page(pymupdf.Rect(72, 300, 300, 500), inner, 0)
        stamp = document.get_new_xref()  # a form of no resources of its own, listed by the first pages
        document.update_object(stamp, "<</Type/XObject/Subtype/Form/BBox[0 0 10 10]>>")
        document.update_stream(stamp, b"0 0 m 10 10 l S")
        for number in range(3):  # each page's resources are an object of their own
            resources = int(document.xref_get_key(document[number].xref, "Resources")[1].split()[0])
            document.xref_set_key(resources, "XObject/Stamp", f"{stamp} 0 R")
        content = document.tobytes()
    with pymupdf.open(stream=content, filetype="pdf") as document:
        for page in document:
            assert pdf._forms(page) == {xref for xref, *_ in page.get_xobjects() if xref}
        assert pdf._leaf_dicts(document)  # the pages of pictures alone were read at once
        assert pdf._forms(document[2]) == {stamp} and stamp not in pdf._forms(document[3])


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_rotated_pages_words_and_rules_are_turned_as_pymupdf_turns_them(rotation: int) -> None:
    """`pdf._turned_boxes` and `pdf._turned_points` give the very floats `Rect * Matrix` and `Point *
    Matrix` give for a page's rotation (MuPDF's single precision), on a page of a size no float holds
    exactly; any other turn is left to PyMuPDF, and gives the same."""
    with pymupdf.open() as document:
        page = document.new_page(width=595.2756, height=841.8898)
        page.set_rotation(rotation)
        turn = page.rotation_matrix
    boxes = [(0.1 * i, 841.8898 - 0.7 * i, 0.1 * i + 33.3, 841.8898 - 0.7 * i + 9.1) for i in range(200)]
    boxes += [(0.0, -0.0, 1e-7, 0.0), (595.2756, 841.8898, 595.2756, 841.8898), (-3.5, 2.25, -1.0, 1.0)]
    points = [(x0, y1) for x0, _, _, y1 in boxes]
    for matrix in (turn, pymupdf.Matrix(30)):
        expected = [tuple(pymupdf.Rect(box) * matrix) for box in boxes]
        assert [tuple(box) for box in pdf._turned_boxes(boxes, matrix)] == expected
        turned = pdf._turned_points(points, matrix)
        assert turned is None or turned == [tuple(pymupdf.Point(point) * matrix) for point in points]
    assert (
        pdf._turned_points(points, turn) is not None
        and pdf._turned_points(points, pymupdf.Matrix(30)) is None
    )


def test_a_ruled_table_beside_a_hatching_of_many_strokes_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """One path of thousands of pieces is one drawing: it does not make the page art."""
    with pymupdf.open(stream=samples.table_pdf(PRICES), filetype="pdf") as document:
        page = document[0]
        shape = page.new_shape()
        for index in range(3000):
            y = 600 + (index % 100) * 1.5
            shape.draw_line((72 + index // 100 * 10, y), (76 + index // 100 * 10, y))
        shape.finish(color=(0.5, 0.5, 0.5), width=0.3)
        shape.commit()
        content = document.tobytes()
    monkeypatch.setattr(pdf, "MAX_DRAWINGS", 1000)  # fewer than the strokes, more than the paths

    (text,) = texts(content, "pdf")

    assert "| Widget | 2 | 9.99 |" in text


def test_an_encrypted_pdf_is_refused_with_its_reason() -> None:
    with pytest.raises(errors.EncryptedDocument, match="password"):
        texts(samples.encrypted_pdf(), "pdf")


def test_a_pdf_protected_only_against_editing_is_read() -> None:
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), "Read me")
        content = document.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner")
    assert texts(content, "pdf") == ["Read me"]


def test_a_damaged_pdf_is_refused() -> None:
    with pytest.raises(errors.DamagedDocument):
        texts(b"%PDF-1.7\n" + b"\x00garbage" * 100, "pdf")


@OCR
def test_a_scanned_page_is_read_by_ocr() -> None:
    (text,) = texts(samples.scanned_pdf("INVOICE 4711"), "pdf")
    assert "INVOICE 4711" in text


@OCR
@pytest.mark.parametrize("kind", ["png", "jpeg", "tiff", "bmp", "gif", "webp"])
def test_images_are_read_by_ocr(kind: str) -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.open(io.BytesIO(samples.text_png("ORDER 2026"))).convert("RGB").save(buffer, format=kind)
    assert "ORDER 2026" in texts(buffer.getvalue(), kind)[0]


def test_without_ocr_a_scan_is_an_empty_page_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "tessdata", lambda: None)
    (page,) = pdf.read_pages(samples.scanned_pdf(), "pdf", ParseOptions())
    assert page.text == ""
    assert "OCR is not installed" in page.warnings[0]


LETTER = [
    "Dear Ms Thompson, thank you for your order of 12 March.",
    "The goods were shipped today from our warehouse in Leeds",
    "and should reach you within five working days. Please",
    "check the delivery against the enclosed packing list and",
    "tell us at once if anything is missing or damaged.",
]
LETTER_WORDS = {word.strip(".,") for line in LETTER for word in line.split()}


def recall(text: str) -> float:
    found = {word.strip(".,") for word in text.split()}
    return len(LETTER_WORDS & found) / len(LETTER_WORDS)


def test_the_language_data_is_found_where_the_machine_keeps_it_when_the_configured_folder_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The template's TESSDATA_PREFIX (/opt/tessdata) is exported by the local stack on machines that
    keep Tesseract's data elsewhere."""
    installed = [folder for pattern in ocr.DATA_FOLDERS for folder in glob.glob(pattern)]
    if not any(glob.glob(f"{folder}/eng.traineddata") for folder in installed):
        pytest.skip("no Tesseract data in the usual folders here")
    monkeypatch.setenv("TESSDATA_PREFIX", "/nonexistent/tessdata")
    ocr.tessdata.cache_clear()
    try:
        found = ocr.tessdata()
    finally:
        ocr.tessdata.cache_clear()
    assert found is not None and os.path.isfile(os.path.join(found, "eng.traineddata"))


@OCR
@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_page_turned_by_quarter_turns_reads_as_well_as_upright(turn: int) -> None:
    (page,) = engine.parse_pages(samples.scan_png(LETTER, turn=turn), "png", ParseOptions())
    assert recall(page.text) >= 0.9, page.text
    assert page.text.index("Thompson") < page.text.index("damaged")


@OCR
@pytest.mark.parametrize("skew", [-3.0, 2.0, 4.5])
def test_a_skewed_page_is_straightened_before_it_is_read(skew: float) -> None:
    (page,) = engine.parse_pages(samples.scan_png(LETTER, turn=skew), "png", ParseOptions())
    assert recall(page.text) >= 0.9, page.text
    assert "Thompson, thank you for your order" in page.text


@OCR
def test_an_ocrd_page_reports_its_mean_word_confidence_and_a_text_page_none() -> None:
    (scanned,) = engine.parse_pages(samples.scan_png(LETTER), "png", ParseOptions())
    (typed,) = engine.parse_pages(samples.text_pdf(pages=1), "pdf", ParseOptions())
    assert scanned.ocr_confidence is not None and 80 <= scanned.ocr_confidence <= 100
    assert typed.ocr_confidence is None


SENTENCES = {
    "deu": ("Die Prüfung ergab, dass die Gebühren größer waren als geschätzt.", ["Prüfung", "größer"]),
    "fra": ("Le comité a décidé de reporter la réunion prévue après les fêtes.", ["comité", "réunion"]),
    "spa": ("El niño pidió una canción más antes de dormir con su abuela.", ["niño", "canción"]),
    "ita": ("La città è più bella in autunno, quando cadono le foglie.", ["città", "più"]),
    "por": ("A decisão foi tomada após a reunião e o relatório será publicado.", ["decisão", "relatório"]),
    "nld": (
        "De vergadering werd verplaatst naar woensdag omdat de voorzitter ziek was.",
        ["woensdag", "voorzitter"],
    ),
    "pol": ("Księgowa przesłała sprawozdanie finansowe za ubiegły miesiąc.", ["Księgowa", "przesłała"]),
    "eng": (
        "The quarterly statement was posted to every shareholder on Monday.",
        ["quarterly", "shareholder"],
    ),
}


@OCR
@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_each_shipped_language_is_read_with_its_own_letters(language: str) -> None:
    sentence, words = SENTENCES[language]
    picture = samples.scan_png([sentence], fontsize=13)

    (page,) = engine.parse_pages(picture, "png", ParseOptions(languages=(language,)))

    assert all(word in page.text for word in words), page.text


def test_a_language_that_is_not_installed_is_refused_naming_the_installed_ones() -> None:
    with pytest.raises(errors.LanguageNotInstalled) as refused:
        list(engine.parse_pages(samples.text_pdf(pages=1), "pdf", ParseOptions(languages=("eng", "xyz"))))
    assert "'xyz'" in refused.value.message
    assert refused.value.message.endswith(", ".join(ocr.installed_languages()) or "none")
    assert refused.value.code == "language_not_installed"


def test_the_default_language_is_never_refused_where_ocr_is_not_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "tessdata", lambda: None)
    assert texts(samples.text_pdf(pages=1), "pdf") == ["Page 1"]


@OCR
def test_a_scan_with_a_stamped_line_of_text_is_found_to_need_ocr_for_the_rest() -> None:
    with pymupdf.open(
        stream=samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14"), filetype="pdf"
    ) as stamped:
        page = stamped[0]
        blocks = [(tuple(b[:4]), b[4].strip()) for b in page.get_text("blocks") if b[4].strip()]
        assert ocr.is_stamped_scan(page, blocks)  # type: ignore[arg-type]
    with pymupdf.open(stream=samples.text_pdf(pages=1, lines=30), filetype="pdf") as typed:
        page = typed[0]
        blocks = [(tuple(b[:4]), b[4].strip()) for b in page.get_text("blocks") if b[4].strip()]
        assert not ocr.is_stamped_scan(page, blocks)  # type: ignore[arg-type]


@OCR
def test_the_stamp_and_the_ocrd_rest_of_the_page_are_merged_top_to_bottom_without_the_stamp_twice() -> None:
    with pymupdf.open(
        stream=samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14"), filetype="pdf"
    ) as stamped:
        page = stamped[0]
        blocks = [(tuple(b[:4]), b[4].strip()) for b in page.get_text("blocks") if b[4].strip()]

        merged, _ = ocr.ocr_rest_of_page(page, blocks, 0, ParseOptions(), [])  # type: ignore[arg-type]

    text = "\n".join(text for _, text in merged)
    assert text.startswith("RECEIVED 2024-03-14\n")
    assert text.count("RECEIVED") == 1
    assert recall(text) >= 0.9


def test_a_stamped_scans_text_layer_keeps_its_order_so_a_word_hyphenated_across_blocks_stays_whole() -> None:
    # a table's heading: "Tax" hyphenated over two narrow blocks, the cell beside it level with "Ta-"
    text_layer = [
        ((541.0, 203.0, 579.0, 227.0), "Amount\nof tax"),
        ((497.0, 203.0, 522.0, 211.0), "Ta-"),
        ((496.0, 211.0, 523.0, 227.0), "xes\nrate"),
    ]
    ocr_read = [((40.0, 700.0, 300.0, 720.0), "Signed"), ((40.0, 60.0, 300.0, 80.0), "INVOICE")]
    with pymupdf.open() as document:
        page = document.new_page()

        merged = ocr.merge_stamped(page, text_layer, ocr_read)

    assert [text for _, text in merged] == ["INVOICE", "Amount\nof tax", "Ta-", "xes\nrate", "Signed"]


def test_a_stamped_scans_ocrd_block_of_a_right_column_follows_that_column_not_the_left_one() -> None:
    text_layer = [
        ((40.0, 100.0, 280.0, 140.0), "L1"),
        ((40.0, 200.0, 280.0, 240.0), "L2"),
        ((40.0, 300.0, 280.0, 340.0), "L3"),
        ((320.0, 100.0, 560.0, 140.0), "R1"),
        ((320.0, 150.0, 560.0, 190.0), "R2"),
    ]
    ocr_read = [((320.0, 250.0, 560.0, 280.0), "R-ocr")]
    with pymupdf.open() as document:
        page = document.new_page()

        merged = ocr.merge_stamped(page, text_layer, ocr_read)

    assert [text for _, text in merged] == ["L1", "L2", "L3", "R1", "R2", "R-ocr"]


def test_a_stamped_scans_header_stamp_stays_on_top_when_its_text_layer_draws_the_footer_first() -> None:
    text_layer = [
        ((40.0, 760.0, 560.0, 780.0), "Footer"),
        ((40.0, 60.0, 560.0, 80.0), "Header"),
        ((40.0, 120.0, 560.0, 400.0), "Body"),
    ]
    ocr_read = [((40.0, 90.0, 300.0, 110.0), "RECEIVED")]
    with pymupdf.open() as document:
        page = document.new_page()

        merged = ocr.merge_stamped(page, text_layer, ocr_read)

    assert [text for _, text in merged] == ["Header", "RECEIVED", "Body", "Footer"]


@OCR
def test_a_turned_stamped_scan_keeps_the_stamp_once_and_reads_the_rest_upright() -> None:
    content = samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14")
    with pymupdf.open(stream=content, filetype="pdf") as stamped:
        page = stamped[0]
        page.set_rotation(180)
        blocks = [(tuple(b[:4]), b[4].strip()) for b in page.get_text("blocks") if b[4].strip()]

        merged, _ = ocr.ocr_rest_of_page(page, blocks, 0, ParseOptions(), [])  # type: ignore[arg-type]

    text = "\n".join(text for _, text in merged)
    assert text.count("RECEIVED") == 1
    assert recall(text) >= 0.9


@OCR
def test_a_stamped_scan_gives_the_words_of_its_whole_page_with_their_boxes() -> None:
    content = samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14")

    (page,) = engine.parse_pages(content, "pdf", ParseOptions(words="also"))

    read = " ".join(word[4] for word in page.words)
    assert "RECEIVED" in read
    assert recall(read) >= 0.9  # the OCR'd rest of the page, not the stamp alone
    assert all(0.0 <= x0 < x1 <= 1.0 and 0.0 <= y0 < y1 <= 1.0 for x0, y0, x1, y1, _ in page.words)


def _blocks(page: pymupdf.Page) -> list[tuple[tuple[float, float, float, float], str]]:
    return [(tuple(b[:4]), b[4].strip()) for b in page.get_text("blocks") if b[4].strip()]  # type: ignore[misc]


def test_a_sparse_page_of_text_alone_is_not_interpreted_again_to_look_for_images() -> None:
    with pymupdf.open(stream=samples.text_pdf(pages=1), filetype="pdf") as document:
        page = document[0]
        assert not ocr._may_draw_images(page)  # its content draws text only
        assert page.get_image_info() == []  # what the full look would have found
        assert not ocr.is_stamped_scan(page, _blocks(page))


def test_a_sparse_page_of_half_transparent_text_is_not_interpreted_again_to_look_for_images() -> None:
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "DRAFT", fontname="helv", fill_opacity=0.5)  # a graphics state
        assert not ocr._may_draw_images(page)  # its graphics state has no soft mask
        assert page.get_image_info() == []


def test_a_sparse_page_coloured_without_patterns_is_not_interpreted_again_to_look_for_images() -> None:
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "RECEIVED 2024-03-14", fontname="helv")
        xref = page.get_contents()[0]
        drawn = b"q /DeviceRGB cs 0.8 0.1 0.1 scn /DeviceGray CS 0.5 SCN 20 197 555 555 re B Q"
        document.update_stream(xref, document.xref_stream(xref) + b"\n" + drawn + b"\n")
        assert ocr._token(ocr._MAY_DRAW_IMAGE, document.xref_stream(xref))  # colour operators stand there
        assert not ocr._may_draw_images(page)  # but the page's resources have no pattern to name
        assert page.get_image_info() == []  # what the full look would have found
        assert not ocr.is_stamped_scan(page, _blocks(page))


@pytest.mark.parametrize(
    ("contents", "operator"),
    [
        (b"/Im0 Do", b"Do"),  # after whitespace
        (b"Do Q", b"Do"),  # at the start
        (b"[1 2]sh", b"sh"),  # after a delimiter
        (b"/ImDo 12 Tf (shop) Tj /Fresh gs", b"gs"),  # within a name or a string: no operator
        (b"(a)Tj /P0 scn", b"scn"),
        (b"/Dosh BT", None),
    ],
)
def test_an_operator_that_may_draw_an_image_is_found_only_where_it_stands_as_a_token(
    contents: bytes, operator: bytes | None
) -> None:
    found = ocr._token(ocr._MAY_DRAW_IMAGE, contents)
    assert (found.group() if found else None) == operator


def _with_image(way: str) -> bytes:
    """A page of one line of text that draws a picture one `way` or another."""
    picture = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 40, 40), False)
    picture.clear_with(200)
    rect = pymupdf.Rect(20, 90, 575, 645)  # square: a stamp keeps the picture's shape
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "RECEIVED 2024-03-14", fontname="helv")
        if way == "image":
            page.insert_image(rect, pixmap=picture)
        elif way == "inline":  # an image written in the content stream itself (BI ... ID ... EI)
            xref = page.get_contents()[0]
            drawn = b"q 555 0 0 555 20 197 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\xff\x00 EI Q"
            document.update_stream(xref, document.xref_stream(xref) + b"\n" + drawn + b"\n")
        elif way == "form":  # the picture inside another page shown as a form
            with pymupdf.open() as other:
                other.new_page(width=rect.width, height=rect.height).insert_image(
                    (0, 0, rect.width, rect.height), pixmap=picture
                )
                page.show_pdf_page(rect, other, 0)
        elif way == "annotation":  # a stamp whose appearance is the picture
            page.add_stamp_annot(rect, stamp=picture)
        elif way == "pattern":  # a shading pattern filling the picture's box, met as the shading
            drawn = b"q /Pattern cs /P0 scn 20 197 555 555 re f Q"
            _draw_with_resource(
                document, page, "Pattern", "P0", f"<</PatternType 2/Shading{_SHADING}>>", drawn
            )
        elif way == "shading":  # a shading filling the picture's box, which MuPDF meets as an image
            drawn = b"q 20 197 555 555 re W n /Sh0 sh Q"  # the box, in the content stream's units
            _draw_with_resource(document, page, "Shading", "Sh0", _SHADING, drawn)
        return bytes(document.tobytes())


_SHADING = (
    "<</ShadingType 2/ColorSpace/DeviceGray/Coords[0 0 595 0]"
    "/Function<</FunctionType 2/Domain[0 1]/C0[0]/C1[1]/N 1>>/Extend[true true]>>"
)


def _draw_with_resource(
    document: pymupdf.Document, page: pymupdf.Page, category: str, name: str, definition: str, drawn: bytes
) -> None:
    """`drawn` appended to the page's content, with `definition` as its resource `name` of `category`."""
    resource = document.get_new_xref()
    document.update_object(resource, definition)
    kind, resources = document.xref_get_key(page.xref, "Resources")
    owner, key = (
        (int(resources.split()[0]), category) if kind == "xref" else (page.xref, f"Resources/{category}")
    )
    document.xref_set_key(owner, key, f"<</{name} {resource} 0 R>>")
    xref = page.get_contents()[0]
    document.update_stream(xref, document.xref_stream(xref) + b"\n" + drawn + b"\n")


@pytest.mark.parametrize("way", ["image", "inline", "form", "annotation", "shading", "pattern"])
def test_a_sparse_page_that_draws_a_picture_is_still_looked_at_for_a_stamped_scan(way: str) -> None:
    with pymupdf.open(stream=_with_image(way), filetype="pdf") as document:
        page = document[0]
        assert page.get_image_info()  # MuPDF meets the picture
        assert ocr._may_draw_images(page)
        assert ocr._images_cover(
            page, ocr.IMAGE_SHARE * abs(page.rect), page.rect
        )  # the look at images alone
        assert ocr.is_stamped_scan(page, _blocks(page))  # a line of text over a page-wide picture


def test_a_sparse_page_with_a_small_picture_is_told_apart_without_the_image_infos_text_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    picture = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 40, 40), False)
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "RECEIVED 2024-03-14", fontname="helv")
        page.insert_image((450, 40, 550, 140), pixmap=picture)  # a logo, not a scan
        assert ocr._may_draw_images(page)
        assert page.get_image_info()  # what the image info would have met

        def no_text_page(*_: object, **__: object) -> None:
            raise AssertionError("the image info's text page was built")

        monkeypatch.setattr(pymupdf.Page, "get_image_info", no_text_page)
        assert not ocr.is_stamped_scan(page, _blocks(page))


def test_an_images_box_within_the_page_is_the_box_mupdf_intersects_it_to() -> None:
    bounds = pymupdf.Rect(0, 0, 595.2760009765625, 841.8900146484375)
    infinite = (pymupdf.FZ_MIN_INF_RECT,) * 2 + (pymupdf.FZ_MAX_INF_RECT,) * 2
    boxes = [
        (20.5, 90.25, 575.0, 645.0),  # inside
        (-40.0, 700.0, 620.0, 900.0),  # across two edges
        (600.0, 10.0, 700.0, 20.0),  # beside the page: empty
        (30.0, 30.0, 30.0, 60.0),  # of no width
        infinite,  # a shading without bounds: the page
        (250.0, 1.0, 255.99998474121094, 2.0),  # widened past 256: rounded to single precision
    ]
    margin = (-2.0, -2.0, 2.0, 2.0)
    for box in boxes:
        for edges, rect in [
            (box, pymupdf.Rect(box) & bounds),
            (
                ocr._as_floats(tuple(a + b for a, b in zip(box, margin, strict=True))),
                (pymupdf.Rect(box) + margin) & bounds,
            ),
        ]:
            ours = ocr._within_page(edges, tuple(bounds))
            assert ocr._union_area([ours]) == ocr._union_area([rect])
            assert rect.is_empty or ours == tuple(rect)


def test_a_line_of_text_over_a_page_wide_picture_is_told_a_stamped_scan_without_the_image_infos_text_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_text_page(*_: object, **__: object) -> None:
        raise AssertionError("the image info's text page was built")

    with pymupdf.open(stream=_with_image("image"), filetype="pdf") as document:
        page = document[0]
        monkeypatch.setattr(pymupdf.Page, "get_image_info", no_text_page)
        assert ocr.is_stamped_scan(page, _blocks(page))


def test_a_page_no_path_cuts_compares_none_of_its_blocks_for_lines_cut_in_two(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def compared(*_: object) -> bool:
        raise AssertionError("two blocks were compared")

    with pymupdf.open() as document:
        page = document.new_page()
        for top in (72, 200, 328):  # three paragraphs: three blocks, each of which may go on the one before
            page.insert_text((72, top), "the quick brown fox jumps over the lazy dog", fontname="helv")
        monkeypatch.setattr(pdf, "goes_on", compared)
        text, _ = pdf._page_text(page, False, ParseOptions(), [])
    assert text.count("quick brown fox") == 3


def test_glyphs_without_unicode_are_set_apart_from_the_page_read_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown = "1 0 0 1 50 80 Tm [(\\001\\002) -400 (Database performance)] TJ"
    content = samples.named_glyphs_pdf(["g1", "g2"], shown)
    reads = []
    original = pymupdf.Page.get_textpage

    def counted(page: pymupdf.Page, *args: object, **kwargs: object) -> pymupdf.TextPage:
        reads.append(kwargs.get("clip"))
        return original(page, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pymupdf.Page, "get_textpage", counted)
    with pymupdf.open(stream=content, filetype="pdf") as document:
        text, _ = pdf._page_text(document[0], False, ParseOptions(), [])
    assert text.split() == ["\ufffd\ufffd", "Database", "performance"]  # the glyphs apart from the word
    assert reads == [None]  # the page's text page, not one read again on a clip


def test_the_lines_within_a_box_are_read_from_the_text_page_and_its_bounds_kept() -> None:
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "Above", fontname="helv")
        page.insert_text((72, 400), "Below", fontname="helv")
        textpage = page.get_textpage(flags=pdf._TEXT_FLAGS)
        within = pdf._lines(textpage, pymupdf.Rect(0, 300, 600, 500))
        assert ["".join(char for char, *_ in line) for line in within] == ["Below"]
        assert textpage.rect == page.rect  # set back
        assert len(pdf._lines(textpage)) == 2


def test_a_line_cut_after_a_glyph_without_unicode_is_looked_for_level_with_the_blocks_that_end_so() -> None:
    from tests.unit.test_engine_textlayer import line_after_a_zero_width_glyph

    with pymupdf.open(stream=line_after_a_zero_width_glyph(12), filetype="pdf") as document:
        textpage = document[0].get_textpage(flags=pdf._TEXT_FLAGS)
        level = pdf._cut_after_unmapped(
            document[0], textpage, [(20.0, 90.0, 40.0, 104.0)], pdf._TEXT_FLAGS
        )  # the block of "aa" + the glyph
        below = pdf._cut_after_unmapped(
            document[0], textpage, [(20.0, 150.0, 40.0, 164.0)], pdf._TEXT_FLAGS
        )  # a block lower on the page
    assert list(level.values()) == ["aa\ufffdscript"]  # the line that goes on, right of the block
    assert below == {}  # the line is not read there


# ---------------------------------------------------------------------------------------- limits
def slow_second_page(monkeypatch: pytest.MonkeyPatch, action: object) -> None:
    original = pdf._page_text

    def page_text(page: pymupdf.Page, *args: object) -> str:
        if page.number == 1:
            action()  # type: ignore[operator]
        return original(page, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf, "_page_text", page_text)


def test_a_page_over_its_time_budget_is_left_empty_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    slow_second_page(monkeypatch, lambda: time.sleep(30))
    started = time.monotonic()
    pages = list(engine.parse_pages(samples.text_pdf(pages=3), "pdf", ParseOptions(page_seconds=0.5)))
    assert time.monotonic() - started < 5
    assert [page.text for page in pages] == ["Page 1", "", "Page 3"]
    assert "longer than 0.5 s" in pages[1].warnings[0]


def test_a_page_whose_ocr_overran_keeps_its_text_layer_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stamped scan's OCR on a busy machine overran the page's time: the page is read again from its
    text layer alone, and keeps its words, rather than coming back empty."""
    original = pdf._page_text

    def page_text(page: pymupdf.Page, is_image: bool, options: ParseOptions, *args: object) -> object:
        if page.number == 1 and options.ocr:
            time.sleep(30)  # the OCR a second page needs, overrunning
        return original(page, is_image, options, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf, "_page_text", page_text)
    pages = list(engine.parse_pages(samples.text_pdf(pages=3), "pdf", ParseOptions(page_seconds=0.5)))

    assert [page.text for page in pages] == ["Page 1", "Page 2", "Page 3"]
    assert pages[1].warnings == (
        "page read from its text layer alone, without OCR: it took longer than 0.5 s",
    )
    assert pages[0].warnings == pages[2].warnings == ()


def test_a_page_slow_without_ocr_too_is_left_empty_after_a_short_second_try(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow_second_page(monkeypatch, lambda: time.sleep(30))
    monkeypatch.setattr(isolation, "TEXT_LAYER_SECONDS", 0.3)
    started = time.monotonic()
    pages = list(engine.parse_pages(samples.text_pdf(pages=3), "pdf", ParseOptions(page_seconds=1.0)))

    assert [page.text for page in pages] == ["Page 1", "", "Page 3"]
    assert time.monotonic() - started < 1.0 + 0.3 + 3  # the page's time, the short try, the rest


def test_a_page_whose_words_alone_were_asked_for_is_not_read_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[ParseOptions] = []
    original = isolation._messages

    def counted(content: bytes, kind: str, options: ParseOptions, *args: object) -> object:
        reads.append(options)
        return original(content, kind, options, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(isolation, "_messages", counted)
    monkeypatch.setattr(pdf, "_word_boxes", lambda *args: time.sleep(30))
    pages = list(
        engine.parse_pages(samples.text_pdf(pages=1), "pdf", ParseOptions(words="only", page_seconds=0.5))
    )

    assert [page.text for page in pages] == [""] and len(
        reads
    ) == 1  # one child counted and read; no second try


def test_a_page_read_without_ocr_gives_its_text_layer_alone() -> None:
    scanned = samples.scanned_pdf("INVOICE 4711")
    stamped = samples.stamped_scan_pdf(["Delivery note 2041", "Paid in full"], "RECEIVED")

    assert texts(scanned, "pdf", ocr=False) == [""]
    assert texts(stamped, "pdf", ocr=False) == ["RECEIVED"]


def test_a_page_that_exhausts_memory_is_left_empty_and_the_rest_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow_second_page(monkeypatch, lambda: bytearray(8 * 1024**3))
    pages = list(engine.parse_pages(samples.text_pdf(pages=3), "pdf", ParseOptions()))
    assert [page.text for page in pages] == ["Page 1", "", "Page 3"]
    assert "more than" in pages[1].warnings[0]


def test_a_reader_that_dies_loses_only_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    slow_second_page(monkeypatch, lambda: os._exit(9))
    pages = list(engine.parse_pages(samples.text_pdf(pages=3), "pdf", ParseOptions()))
    assert [page.text for page in pages] == ["Page 1", "", "Page 3"]
    assert "crashed" in pages[1].warnings[0]


def test_a_document_that_fails_page_after_page_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "_page_text", lambda *args: time.sleep(30))
    with pytest.raises(errors.DamagedDocument, match="past page"):
        list(engine.parse_pages(samples.text_pdf(pages=10), "pdf", ParseOptions(page_seconds=0.2)))


def test_an_unsupported_type_names_the_supported_ones() -> None:
    with pytest.raises(errors.UnsupportedDocument, match=r"supported: .*docx.*pdf"):
        texts(b"x", "exe")


# ---------------------------------------------------------------------------------------- Office
def test_docx_pages_follow_page_breaks_with_headings_and_tables() -> None:
    content = samples.docx(
        ["# Offer", "Dear customer,", [["Item", "Price"], ["Desk", "250"]]], ["Terms apply."]
    )
    assert counted(content, "docx") == 2
    assert texts(content, "docx") == [
        "# Offer\n\nDear customer,\n\n| Item | Price |\n|---|---|\n| Desk | 250 |",
        "Terms apply.",
    ]


def test_xlsx_sheets_are_pages_of_one_table_each() -> None:
    content = samples.xlsx({"Prices": [["Item", "Price", "In stock"], ["Desk", 250.5, True]], "Notes": []})
    assert counted(content, "xlsx") == 2
    assert texts(content, "xlsx", table_format="json") == [
        '## Prices\n\n[\n  {\n    "Item": "Desk",\n    "Price": "250.5",\n    "In stock": "TRUE"\n  }\n]',
        "## Notes",
    ]


def test_pptx_slides_are_pages_with_titles_and_tables() -> None:
    content = samples.pptx(
        [("Roadmap", "Ship the API"), ("Numbers", "Growth")], [["Q", "Revenue"], ["Q1", "10"]]
    )
    assert counted(content, "pptx") == 2
    assert texts(content, "pptx") == [
        "# Roadmap\n\nShip the API",
        "# Numbers\n\nGrowth\n\n| Q | Revenue |\n|---|---|\n| Q1 | 10 |",
    ]


def office_with(part: str, data: bytes, base: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(base))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item, data if item.filename == part else source.read(item))
    return buffer.getvalue()


def test_office_xml_with_entities_is_refused_not_expanded() -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>"
    )
    content = office_with("word/document.xml", laughs, samples.docx(["x"]))
    with pytest.raises(errors.DamagedDocument, match="DTD"):
        list(engine.parse_pages(content, "docx", ParseOptions()))


def test_an_office_part_that_expands_past_the_cap_is_refused() -> None:
    bomb = b"<a>" + b" " * (110 * 1024 * 1024) + b"</a>"
    content = office_with("word/document.xml", bomb, samples.docx(["x"]))
    assert len(content) < 1024 * 1024
    with pytest.raises(errors.DecompressionLimit):
        list(engine.parse_pages(content, "docx", ParseOptions()))


# ---------------------------------------------------------------------------------------- text
def test_text_pages_are_split_at_form_feeds_and_any_encoding_is_read() -> None:
    assert texts("première\fdeuxième\r\n".encode("cp1252"), "txt") == ["première", "deuxième"]
    assert texts("\ufeffnoël".encode("utf-8"), "md") == ["noël"]
    assert texts("ok".encode("utf-16"), "txt") == ["ok"]


def test_csv_is_one_table_with_its_delimiter_sniffed() -> None:
    assert texts(b"name;amount\nalpha;1\nbeta;2\n", "csv") == [
        "| name | amount |\n|---|---|\n| alpha | 1 |\n| beta | 2 |"
    ]
    assert texts(b"a\tb\n1\t2\n", "tsv", table_format="html")[0].startswith("<table><thead><tr><th>a</th>")


def test_html_reads_the_visible_text_with_tables_and_page_breaks() -> None:
    content = (
        b"<html><head><title>t</title><style>p{}</style><script>alert(1)</script></head><body>"
        b"<h2>Invoice</h2><p>Due <b>soon</b></p><ul><li>one</li><li>two</li></ul>"
        b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
        b'<p style="page-break-before: always">Second page</p></body></html>'
    )
    assert texts(content, "html") == [
        "## Invoice\n\nDue soon\n\n- one\n\n- two\n\n| A | B |\n|---|---|\n| 1 | 2 |",
        "Second page",
    ]


def test_an_email_reads_its_headers_body_and_attachment_names() -> None:
    (text,) = texts(samples.eml(subject="Invoice 4711", body="Please pay."), "eml")
    assert "Subject: Invoice 4711" in text
    assert "From: Billing <billing@example.com>" in text
    assert "Please pay." in text
    assert "- invoice.pdf (application/pdf)" in text


def test_a_library_failing_to_allocate_is_reported_as_the_memory_the_document_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def reader(content: bytes, kind: str, options: ParseOptions, first: int) -> object:
        try:
            raise MemoryError
        except MemoryError as error:  # as MuPDF's bindings do when an allocation fails
            raise SystemError(
                "<built-in function extractBLOCKS> returned a result with an exception set"
            ) from error

    class Connection:
        sent: list[tuple[object, ...]] = []

        def send(self, message: tuple[object, ...]) -> None:
            self.sent.append(message)

    monkeypatch.setattr(isolation, "reader_for", lambda kind: (None, reader))
    connection = Connection()

    fit = isolation._read(
        connection,  # type: ignore[arg-type]
        b"%PDF-",
        "pdf",
        ParseOptions(),
        (1, 1, 64 * 2**20),
        lambda held: True,
    )

    assert not fit
    assert connection.sent == [("crashed", "it needs more than 64 MB")]


# ---------------------------------------------------------------------------------------- ranges
@pytest.fixture
def two_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "READERS", 2)


def test_a_long_document_is_split_into_one_range_per_reader(two_readers: None) -> None:
    assert isolation._ranges(70) == [(1, 35), (36, 70)]
    assert isolation._ranges(20) == [(1, 20)]  # too short to be worth a second child


def test_pages_read_in_ranges_come_back_complete_and_in_order(two_readers: None) -> None:
    content = samples.text_pdf(pages=70)
    pages = list(engine.parse_pages(content, "pdf", ParseOptions()))
    assert [page.text for page in pages] == [f"Page {number}" for number in range(1, 71)]
    assert [page.number for page in pages] == list(range(1, 71))


def test_a_slow_page_in_a_later_range_is_left_empty_and_its_range_goes_on(
    two_readers: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = pdf._page_text

    def page_text(page: pymupdf.Page, *args: object) -> str:
        if page.number == 49:
            time.sleep(30)
        return original(page, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf, "_page_text", page_text)
    options = ParseOptions(page_seconds=0.5)
    pages = list(engine.parse_pages(samples.text_pdf(pages=70), "pdf", options))
    assert [page.text for page in pages][48:51] == ["Page 49", "", "Page 51"]
    assert len(pages) == 70


def test_stopping_early_leaves_no_child_behind(two_readers: None) -> None:
    pages = engine.parse_pages(samples.text_pdf(pages=70), "pdf", ParseOptions())
    assert next(iter(pages)).text == "Page 1"
    pages.close()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []


def test_many_documents_read_at_once_in_threads_all_come_back_whole() -> None:
    """Starting a child reaps every finished child of the process; without one lock around the children's
    lives, a start in one thread races another thread's join and its child cannot be closed (a 500 under
    200 concurrent synchronous parses)."""
    content = samples.text_pdf(pages=1)
    failures: list[str] = []

    def read_many() -> None:
        for _ in range(40):
            try:
                assert texts(content, "pdf") == ["Page 1"]
            except Exception as error:  # collected: an exception in a thread would not fail the test
                failures.append(repr(error))

    threads = [threading.Thread(target=read_many) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# ---------------------------------------------------------------------------------------- kept children
@pytest.fixture
def pid_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages that say which process read them (the children are forked after this patch)."""
    original = pdf._page_text

    def page_text(page: pymupdf.Page, *args: object) -> tuple[str, object]:
        text, textpage = original(page, *args)  # type: ignore[arg-type]
        return f"{text} by {os.getpid()}", textpage

    monkeypatch.setattr(pdf, "_page_text", page_text)


def reader_pid(content: bytes, **options: object) -> str:
    (text,) = {text.split(" by ")[1] for text in texts(content, "pdf", **options) if " by " in text}
    return text


def test_the_next_document_is_read_by_the_child_that_read_the_last_one(pid_pages: None) -> None:
    first = reader_pid(samples.text_pdf(pages=2))
    second = reader_pid(samples.text_pdf(pages=1, text="Other"))

    assert first == second != str(os.getpid())
    assert texts(samples.text_pdf(pages=1, text="Other"), "pdf")[0].startswith("Other 1 by ")


def test_a_child_that_overran_is_not_given_another_document(
    pid_pages: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = pdf._page_text

    def page_text(page: pymupdf.Page, *args: object) -> tuple[str, object]:
        if page.number == 1 and page.parent.page_count == 3:
            time.sleep(30)
        return original(page, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pdf, "_page_text", page_text)
    isolation.retire_idle_children()
    pages = texts(samples.text_pdf(pages=3), "pdf", page_seconds=0.5)

    assert pages[1] == "" and pages[2].startswith("Page 3 by ")
    overran, rescued = pages[0].split(" by ")[1], pages[2].split(" by ")[1]
    assert overran != rescued
    assert reader_pid(samples.text_pdf(pages=1)) == rescued


def test_a_child_that_read_a_document_it_could_not_open_reads_the_next(pid_pages: None) -> None:
    before = reader_pid(samples.text_pdf(pages=1))
    with pytest.raises(errors.DamagedDocument):
        texts(b"%PDF-1.4 not really", "pdf")

    assert reader_pid(samples.text_pdf(pages=1)) == before


def test_a_child_stopped_mid_document_is_killed_not_kept(pid_pages: None) -> None:
    reader_pid(samples.text_pdf(pages=1))
    pages = engine.parse_pages(samples.text_pdf(pages=5), "pdf", ParseOptions())
    reading = next(iter(pages)).text.split(" by ")[1]
    pages.close()  # type: ignore[attr-defined]

    assert reader_pid(samples.text_pdf(pages=1)) != reading
    assert all(child.process.pid != int(reading) for child in isolation._idle)


def test_a_child_that_died_while_idle_is_replaced(pid_pages: None) -> None:
    before = reader_pid(samples.text_pdf(pages=1))
    os.kill(int(before), 9)
    time.sleep(0.1)

    assert texts(samples.text_pdf(pages=1), "pdf")[0].startswith("Page 1 by ")
    assert reader_pid(samples.text_pdf(pages=1)) != before


def test_a_child_that_grew_too_much_says_so_and_is_not_handed_the_next_document(
    pid_pages: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child that keeps more memory than it may after a document ends: it says so with the document's
    end, so the parent does not keep it idle and hand it the next document to die under (which read as
    that document crashing its reader)."""
    size, looks = isolation._virtual_size, itertools.count()
    # the child's size as it is at its start (its limit, its baseline); each later look a GB larger
    monkeypatch.setattr(isolation, "_virtual_size", lambda: size() + (2**30 if next(looks) >= 2 else 0))
    isolation.retire_idle_children()

    grown = reader_pid(samples.text_pdf(pages=1))

    assert all(child.process.pid != int(grown) for child in isolation._idle)
    monkeypatch.undo()
    isolation.retire_idle_children()
    assert texts(samples.text_pdf(pages=1), "pdf")[0].startswith("Page 1")


def test_an_idle_child_that_ends_as_it_is_handed_a_document_does_not_fail_that_document(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A child that took its next task and ended before reading any of it (killed while idle, or
    ending as the task came): the document is read by a new child, not reported as crashing its reader."""
    read, served = isolation._read, []

    def read_once(*args: Any) -> bool:
        if served:  # the child's second task: it ends as it receives it
            os._exit(0)
        served.append(True)
        return read(*args)

    monkeypatch.setattr(isolation, "_read", read_once)
    isolation.retire_idle_children()  # children forked with the patch
    texts(samples.text_pdf(pages=1), "pdf")

    assert texts(samples.text_pdf(pages=1, text="Next"), "pdf")[0].startswith("Next 1")


def test_a_child_is_retired_after_its_share_of_documents(
    pid_pages: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(isolation, "MAX_TASKS_A_CHILD", 3)
    readers = [reader_pid(samples.text_pdf(pages=1)) for _ in range(6)]

    assert readers[0] == readers[1] == readers[2] != readers[3] == readers[4] == readers[5]


def test_an_idle_child_ends_on_sigterm_even_when_the_parent_only_flags_it(pid_pages: None) -> None:
    previous = signal.signal(signal.SIGTERM, lambda *_: None)  # as the local stack's handler does
    try:
        reader = int(reader_pid(samples.text_pdf(pages=1)))
    finally:
        signal.signal(signal.SIGTERM, previous)
    (child,) = [child for child in isolation._idle if child.process.pid == reader]
    os.kill(reader, signal.SIGTERM)
    child.process.join(timeout=5)

    assert child.process.exitcode == -signal.SIGTERM


def test_no_more_children_are_kept_idle_than_the_machine_has_readers(two_readers: None) -> None:
    isolation.retire_idle_children()
    threads = [threading.Thread(target=texts, args=(samples.text_pdf(pages=1), "pdf")) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert 1 <= len(isolation._idle) <= 2
    alive = {child.pid for child in multiprocessing.active_children()}
    assert {child.process.pid for child in isolation._idle} <= alive


# ---------------------------------------------------------------------------------------- words kept
VOCABULARY = [
    "Widget",
    "2",
    "9.99",
    "Parastratiosphecomyia",
    "total",
    "Ring-ding",
    "北京",
    "שלום",
    "0.5%",
    "A",
]


def page_words(text: str) -> Counter[str]:
    """The words of a page's text, table syntax (pipes, rule rows) aside."""
    return Counter(
        word
        for line in text.splitlines()
        if not line.startswith("|---")
        for word in line.replace("|", " ").split()
    )


@st.composite
def table_pages(draw: st.DrawFn) -> bytes:
    """A page with a paragraph, a table of random words in random column widths (ruled or not), and a
    note. A column is at least as wide as its longest word, so no two cells' words touch."""
    rows = draw(st.integers(2, 6))
    widths = draw(st.lists(st.integers(30, 140), min_size=2, max_size=5))
    ruled = draw(st.booleans())
    cells = draw(
        st.lists(
            st.lists(st.sampled_from(VOCABULARY), min_size=len(widths), max_size=len(widths)),
            min_size=rows,
            max_size=rows,
        )
    )
    widths = [
        max(width, *(int(pymupdf.get_text_length(row[n], "china-s", 10)) + 8 for row in cells))
        for n, width in enumerate(widths)
    ]
    with pymupdf.open() as document:
        page = document.new_page(width=max(612, 100 + sum(widths)))
        page.insert_text((72, 60), "The figures below are final and audited.", fontsize=11)
        y = 90.0
        for row in cells:
            x = 72.0
            for width, value in zip(widths, row, strict=True):
                if ruled:
                    page.draw_rect(pymupdf.Rect(x, y, x + width, y + 18), color=(0, 0, 0), width=0.6)
                page.insert_text((x + 3, y + 13), value, fontsize=10, fontname="china-s")
                x += width
            y += 18
        page.insert_text((72, y + 30), "Prices include VAT.", fontsize=10)
        return bytes(document.tobytes())


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(table_pages())
def test_a_page_with_a_table_keeps_every_word_of_its_text_layer_once_and_whole(content: bytes) -> None:
    with pymupdf.open(stream=content, filetype="pdf") as document:
        layer = Counter(word[4] for word in document[0].get_text("words"))
        characters = Counter(str(document[0].get_text()).replace(" ", "").replace("\n", ""))

    (page,) = pdf.read_pages(content, "pdf", ParseOptions())

    assert page_words(page.text) == layer  # the words of the text layer, each once, none cut
    assert Counter("".join(page_words(page.text).elements())) == characters  # and nothing else


def test_a_word_across_a_ruled_column_line_stays_whole_in_one_cell() -> None:
    rows = [
        ["Animal", "Action", "Result"],
        ["Cat", "Says", "Meow"],
        ["Parastratiosphecomyiastratiosph", "Says", "bzz"],
    ]
    (text,) = texts(samples.table_pdf(rows), "pdf")  # the long name runs over its 120-point column

    assert "| Parastratiosphecomyiastratiosph | Says | bzz |" in text
    assert page_words(text)["Parastratiosphecomyiastratiosph"] == 1


def test_a_ruled_table_on_a_turned_page_is_read_row_by_row_as_it_is_shown() -> None:
    (text,) = texts(samples.turned_table_pdf(PRICES), "pdf")

    assert text == (
        "Price list\n\n| Item | Qty | Price |\n|---|---|---|\n| Widget | 2 | 9.99 |\n| Gadget | 1 | 19.50 |"
        "\n\nPrices include VAT."
    )


@OCR
def test_a_parse_of_a_stamped_scan_reads_the_stamp_and_the_rest_of_the_page() -> None:
    (text,) = texts(samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14"), "pdf")

    assert text.startswith("RECEIVED 2024-03-14\n")
    assert text.count("RECEIVED") == 1
    assert recall(text) >= 0.9


_RESULT_COLUMNS = (72, 172, 247, 322, 397)  # the left edges of a results table's five columns, to 472


def _headed_results_page(page: pymupdf.Page) -> Callable[[str, float, float, float], None]:
    """A caption over the page's table, and a heading centred over each pair of its result columns
    ("GREEDY", "RANDOM"); what writes a text centred between two edges, for the rest."""

    def centred(text: str, x0: float, x1: float, y: float) -> None:
        page.insert_text(((x0 + x1 - pymupdf.get_text_length(text, fontsize=11)) / 2, y), text)

    centred("Table 1: Results of the two starts", 72, 472, 56)
    centred("GREEDY", 172, 322, 76)
    centred("RANDOM", 322, 472, 76)
    return centred


def test_header_lines_stacked_over_groups_of_columns_without_vertical_rules_are_rows_of_the_table() -> None:
    """A heading centred over the columns it spans ("GREEDY" over "Sol." and "Time") stands on a
    line of its own above the header row, with no rule between the columns: it is a row of the
    table, and the caption above it, one run of words, is not."""
    lefts = _RESULT_COLUMNS
    with pymupdf.open() as document:
        page = document.new_page()
        centred = _headed_results_page(page)
        rows = (
            ("Problem", "Sol.", "Time", "Sol.", "Time"),
            ("A1", "1.00", "0.11", "0.98", "0.16"),
            ("A2", "0.99", "0.16", "1.00", "0.29"),
            ("A3", "1.00", "0.19", "0.97", "0.28"),
        )
        for row, cells in enumerate(rows):
            for x0, x1, cell in zip(lefts, (*lefts[1:], 472), cells, strict=True):
                centred(cell, x0, x1, 94 + row * 20)
        for y in (100, 120, 140, 160):
            page.draw_line((72, y), (472, y), width=0.5)
        for x in (*lefts, 472):
            page.draw_line((x, 100), (x, 160), width=0.5)
        content = document.tobytes()

    (text,) = [page.text for page in pdf.read_pages(content, "pdf", ParseOptions())]

    assert text.startswith(
        "Table 1: Results of the two starts\n\n|  |  | GREEDY |  | RANDOM |\n|---|---|---|---|---|\n"
        "| Problem | Sol. | Time | Sol. | Time |\n| A1 | 1.00 | 0.11 | 0.98 | 0.16 |"
    )


def test_header_lines_stacked_over_groups_of_columns_of_a_table_without_rules_are_its_first_rows() -> None:
    """A table without any rule whose header is two lines of column names under a line of headings,
    each over the two columns it spans: the headings' line crosses a column line, fits no column,
    and is the table's first row all the same; the caption above it, one run of words, is not."""
    lefts = _RESULT_COLUMNS
    with pymupdf.open() as document:
        page = document.new_page()
        centred = _headed_results_page(page)
        header = (
            ("Test", "Av. Sol.", "Av. Comp.", "Av. Sol.", "Av. Comp."),
            ("Problem", "Sol.", "Time", "Sol.", "Time"),
        )
        body = [(f"A{row}", "1.00", f"0.{row}1", "0.98", f"0.{row}6") for row in range(1, 9)]
        for row, cells in enumerate((*header, *body)):
            for x0, x1, cell in zip(lefts, (*lefts[1:], 472), cells, strict=True):
                centred(cell, x0, x1, 94 + row * 16)
        content = document.tobytes()

    (text,) = [page.text for page in pdf.read_pages(content, "pdf", ParseOptions())]

    assert text.startswith(
        "Table 1: Results of the two starts\n\n|  |  | GREEDY |  | RANDOM |\n|---|---|---|---|---|\n"
        "| Test | Av. Sol. | Av. Comp. | Av. Sol. | Av. Comp. |\n| Problem | Sol. | Time | Sol. | Time |\n"
        "| A1 | 1.00 | 0.11 | 0.98 | 0.16 |"
    )


def test_a_table_of_two_columns_between_rules_drawn_across_it_is_a_table() -> None:
    """A metric and its value a line, rules above the table, under its header and below it (LaTeX's
    booktabs), no other path on the page: a table, though two columns found from the words alone
    are none."""
    rows = [("Metric", "Value"), ("Loss", "0.1338"), ("Accuracy", "0.9665"), ("Runtime (s)", "35.83")]
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 60), "Results of the test set", fontname="helv", fontsize=10)
        for row, (metric, value) in enumerate(rows):
            y = 96 + row * 14 + (4 if row else 0)
            page.insert_text((120, y), metric, fontname="helv", fontsize=10)
            page.insert_text((220, y), value, fontname="helv", fontsize=10)
        for y in (84, 101, 156):
            page.draw_line((110, y), (280, y), width=0.6)
        content = document.tobytes()

    assert _read(content) == (
        "Results of the test set\n\n| Metric | Value |\n|---|---|\n| Loss | 0.1338 |\n"
        "| Accuracy | 0.9665 |\n| Runtime (s) | 35.83 |"
    )


def test_a_spreadsheet_bordered_around_its_numbers_keeps_its_labels_and_headers_in_the_table() -> None:
    """Row labels left of the ruled box and column headers right above it, as a spreadsheet prints
    them when only its numbers have borders, are the table's first column and first row."""
    with pymupdf.open() as document:
        page = document.new_page()
        for x, header in ((190, "2024"), (290, "2025")):
            page.insert_text((x, 76), header)
        for row, (label, *numbers) in enumerate(
            (("Rent", "10", "20"), ("Food", "11", "21"), ("Total", "21", "41"))
        ):
            page.insert_text((72, 95 + row * 24), label)
            for x, number in zip((190, 290), numbers, strict=True):
                page.insert_text((x, 95 + row * 24), number)
        for y in (80, 104, 128, 152):
            page.draw_line((172, y), (372, y), width=0.5)
        for x in (172, 272, 372):
            page.draw_line((x, 80), (x, 152), width=0.5)
        content = document.tobytes()

    (text,) = [page.text for page in pdf.read_pages(content, "pdf", ParseOptions())]

    assert "|  | 2024 | 2025 |" in text and "| Food | 11 | 21 |" in text


def test_a_page_whose_contents_point_to_a_missing_object_reads_empty_and_the_next_page_is_read() -> None:
    """Measuring a page's operators fails no page: MuPDF's own error for a missing stream (not a
    RuntimeError) leaves the page empty, as reading it would."""
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), "Lost")
        document.new_page().insert_text((72, 72), "Next page")
        missing = document.get_new_xref()  # an object number that holds nothing
        document.xref_set_key(document[0].xref, "Contents", f"{missing} 0 R")
        content = document.tobytes()

    first, second = pdf.read_pages(content, "pdf", ParseOptions())

    assert first.text == ""
    assert second.text == "Next page"


def test_a_page_drawing_a_large_form_is_read_without_its_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose own stream is a few bytes but which draws its content as a form (pdfTeX, an
    imported page) is measured by the form's operators too."""
    monkeypatch.setattr(pdf, "MAX_CONTENT_BYTES", 20_000)
    with pymupdf.open(stream=samples.table_pdf(PRICES), filetype="pdf") as source:
        page = source[0]
        for index in range(2000):
            page.draw_line((72 + index % 400, 700), (73 + index % 400, 710), width=0.2)
        with pymupdf.open() as document:
            document.new_page(width=page.rect.width, height=page.rect.height).show_pdf_page(
                page.rect, source, 0
            )
            content = document.tobytes(deflate=True)

    (page_read,) = pdf.read_pages(content, "pdf", ParseOptions())

    assert "Widget" in page_read.text
    (warning,) = page_read.warnings
    assert warning.endswith("its rules were not read for tables")


def test_a_page_over_the_operator_limit_is_read_again_without_its_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The words-only read of a page measured too large, and the character re-reads of its lines
    (a line cut after a glyph without Unicode), collect no paths either: they use the flags chosen."""
    from tests.unit.test_engine_textlayer import line_after_a_zero_width_glyph

    monkeypatch.setattr(pdf, "MAX_CONTENT_BYTES", 0)
    read_with: list[int] = []
    get_textpage = pymupdf.Page.get_textpage

    def recorded(page: pymupdf.Page, *args: object, flags: int = 0, **kwargs: object) -> pymupdf.TextPage:
        read_with.append(flags)
        return get_textpage(page, *args, flags=flags, **kwargs)

    monkeypatch.setattr(pymupdf.Page, "get_textpage", recorded)
    content = line_after_a_zero_width_glyph(30)  # goes on far after the glyph: read again

    (words_read,) = pdf.read_pages(content, "pdf", ParseOptions(words="only"))
    with pymupdf.open(stream=content, filetype="pdf") as document:
        textpage = document[0].get_textpage(flags=pdf._WITHOUT_PATHS)
        pdf._cut_after_unmapped(document[0], textpage, [(20.0, 90.0, 40.0, 104.0)], pdf._WITHOUT_PATHS)

    assert len(read_with) == 3  # the words-only read, the page, its line read again
    assert not any(flags & pymupdf.TEXT_COLLECT_VECTORS for flags in read_with)
    (warning,) = words_read.warnings
    assert warning.endswith("its rules were not read for tables")


def test_glyphs_set_off_a_formula_are_keyed_as_the_blocks_text_is_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A formula word with a ligature is named in the blocks' text with the ligature expanded: the
    words `off_line_apart` sets apart are keyed so, as those a rule parts are."""
    monkeypatch.setattr(pdf, "off_line_apart", lambda lines: {"\ufb01x\u2200\u2212": "\ufb01x \u2200\u2212"})
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "any text")
        apart = pdf._off_line_apart(page.get_textpage(flags=pdf._TEXT_FLAGS), [(72.0, 60.0, 200.0, 80.0)])

    assert apart == {"fix\u2200\u2212": "fix \u2200\u2212"}


def test_a_slide_on_a_filled_page_with_a_title_bar_and_boxes_in_its_foot_is_no_table() -> None:
    """A slide drawn on a white rectangle as large as the page, under a coloured title bar, with three
    coloured boxes side by side in its foot: the page's edges and the bars are no table's rules, so the
    slide reads as text, not as one cell holding it all."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=363, height=272)
        page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
        page.draw_rect(pymupdf.Rect(0, 0, 363, 28), color=None, fill=(0, 0.55, 0.46))
        for x0, x1 in ((0, 121), (121, 242), (242, 363)):
            page.draw_rect(pymupdf.Rect(x0, 264, x1, 272), color=None, fill=(0, 0.4, 0.35))
        page.insert_text((10, 18), "Requirements", fontname="helv", fontsize=11)
        for number, line in enumerate(("The system should be:", "comprehensive,", "automatic,", "modular.")):
            page.insert_text((20, 60 + 16 * number), line, fontname="helv", fontsize=9)
        for x, text in ((10, "D. Author (Lab)"), (150, "PROJECT"), (280, "4 / 21")):
            page.insert_text((x, 270), text, fontname="helv", fontsize=5)
        content = bytes(document.tobytes())

    text = _read(content)

    assert "|" not in text
    assert "The system should be:" in text and "4 / 21" in text
