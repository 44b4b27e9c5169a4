"""PDF forms: their fields found (AcroForm widgets, or the page's layout) and values written in them."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from itertools import pairwise

import pymupdf
import pytest
from docsvc.documents import forms
from docsvc.documents.engine.pdf import _rules as rules_of
from docsvc.documents.forms import FoundField, filled, form_fields, parse_color
from docsvc.errors import DocumentRejected
from docsvc.intelligence.form_filling import field_values


def _widget_form() -> bytes:
    """A page with printed labels and widgets: a text field with a tooltip, one without (its label is
    printed left of it), a check box (its label right of it) and a combo box."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "Full name:", fontsize=11)
        page.insert_text((72, 140), "City:", fontsize=11)
        page.insert_text((94, 180), "I am a US citizen", fontsize=11)
        page.insert_text((72, 220), "Country:", fontsize=11)
        for name, kind, rect, tooltip in (
            ("applicant.name", pymupdf.PDF_WIDGET_TYPE_TEXT, (150, 88, 400, 104), "Applicant's full name"),
            ("t2", pymupdf.PDF_WIDGET_TYPE_TEXT, (150, 128, 400, 144), ""),
            ("citizen", pymupdf.PDF_WIDGET_TYPE_CHECKBOX, (72, 170, 84, 182), ""),
            ("country", pymupdf.PDF_WIDGET_TYPE_COMBOBOX, (150, 208, 300, 224), "Country"),
        ):
            widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
            widget.field_name, widget.field_type, widget.rect = name, kind, pymupdf.Rect(rect)
            widget.field_label = tooltip or None
            if kind == pymupdf.PDF_WIDGET_TYPE_COMBOBOX:
                widget.choice_values = ["France", "Germany", "Spain"]
            page.add_widget(widget)
        return bytes(document.tobytes())


def _layout_form() -> bytes:
    """A printed form: an underscore blank, a drawn rule after its label, an empty box under its label,
    a square check box and a □ glyph, and a ruled table with an empty cell."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 80), "Surname: ______________________", fontsize=11)
        page.insert_text((72, 120), "Telephone", fontsize=11)
        page.draw_line((140, 122), (380, 122))
        page.insert_text((72, 160), "Address", fontsize=11)
        page.draw_rect(pymupdf.Rect(72, 166, 380, 200))
        page.draw_rect(pymupdf.Rect(72, 222, 82, 232))
        page.insert_text((88, 231), "Married", fontsize=11)
        page.insert_font(fontname="cjk", fontbuffer=pymupdf.Font("cjk").buffer)
        page.insert_text((200, 231), "\u25a1 Single", fontsize=11, fontname="cjk")
        for row in range(3):  # header row, then "Monday" and "Tuesday"; the "Hours" cells empty
            y0 = 260 + 20 * row
            for x0, x1 in ((72, 200), (200, 330)):
                page.draw_rect(pymupdf.Rect(x0, y0, x1, y0 + 20))
        page.insert_text((76, 275), "Day", fontsize=10)
        page.insert_text((204, 275), "Hours", fontsize=10)
        page.insert_text((76, 295), "Monday", fontsize=10)
        page.insert_text((76, 315), "Tuesday", fontsize=10)
        return bytes(document.tobytes())


def _by_description(fields: list[FoundField], text: str) -> FoundField:
    found = [field for field in fields if text.lower() in field.description.lower()]
    assert found, f"no field labelled {text!r} among {[field.description for field in fields]}"
    return found[0]


def _page_words(content: bytes) -> list[tuple[float, float, float, float, str]]:
    with pymupdf.open(stream=content, filetype="pdf") as document:
        page = document[0]
        width, height = page.rect.width, page.rect.height
        return [
            (x0 / width, y0 / height, x1 / width, y1 / height, unicodedata.normalize("NFKC", text))
            for x0, y0, x1, y1, text, *_ in page.get_text("words")
        ]


def _inside(field: FoundField, word: tuple[float, float, float, float, str]) -> bool:
    box = field.bbox
    x, y = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    return (
        box.left - 0.01 <= x <= box.left + box.width + 0.01
        and box.top - 0.01 <= y <= box.top + box.height + 0.01
    )


def test_widgets_are_found_with_their_tooltip_or_printed_label() -> None:
    fields = form_fields(_widget_form())
    assert [field.widget for field in fields] == ["applicant.name", "t2", "citizen", "country"]
    name, city, citizen, country = fields
    assert name.description == "Applicant's full name" and name.type == "text"
    assert city.description == "City" and city.type == "text"
    assert "I am a US citizen" in citizen.description and citizen.type == "checkbox"
    assert country.type == "text"
    assert name.bbox.page == 1 and 0.2 < name.bbox.left < 0.3 and name.bbox.width > 0.3
    assert len({field.key for field in fields}) == 4


def test_layout_fields_are_found_on_a_printed_form() -> None:
    fields = form_fields(_layout_form())
    assert all(field.widget is None for field in fields)
    assert _by_description(fields, "Surname").type == "text"
    assert _by_description(fields, "Telephone").type == "text"
    assert _by_description(fields, "Address").type == "text"
    assert _by_description(fields, "Married").type == "checkbox"
    assert _by_description(fields, "Single").type == "checkbox"
    hours = [field for field in fields if "Hours" in field.description]
    assert {field.description for field in hours} == {"Monday, Hours", "Tuesday, Hours"}
    order = [field.description.split()[0].strip(",") for field in fields]
    assert order == ["Surname", "Telephone", "Address", "Married", "Single", "Monday", "Tuesday"]


def test_a_comb_parted_by_printed_dashes_is_one_field_not_check_boxes() -> None:
    """Square cells of a number with dashes printed between its groups ("123-45-6789") are one field
    labelled from the line above, not nine check boxes."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "Your social security number", fontsize=10)
        x = 72.0
        for group in (3, 2, 4):
            for _ in range(group):
                page.draw_rect(pymupdf.Rect(x, 106, x + 14, 126))
                x += 14
            if group != 4:
                page.insert_text((x + 3, 120), "-", fontsize=10)
                x += 12
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.type, field.description) for field in fields] == [("text", "Your social security number")]
    assert fields[0].bbox.width * 612 > 150


def test_a_comb_drawn_as_rules_with_a_tick_per_cell_is_one_field() -> None:
    """Comb cells drawn as a top and a bottom rule each, with a vertical tick 2 points into the cell (no
    line at its right end), at positions whose halves round apart: one field, not a few cells."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((36, 100), "Account number", fontsize=9)
        for cell in range(8):
            x = 36.2 + 14.4 * cell
            page.draw_line((x, 106), (x + 14.4, 106), width=0.5)
            page.draw_line((x - 0.05, 126), (x + 14.2, 126), width=0.5)
            page.draw_line((x + 2, 104), (x + 2, 126), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.type, field.description) for field in fields] == [("text", "Account number")]
    assert fields[0].bbox.width * 595 > 100


def test_a_comb_of_cells_drawn_twice_and_a_point_over_each_other_is_one_field() -> None:
    """Comb cells each drawn twice, a fill and an outline a point apart, the outlines' tops half a
    point off between groups and the cells a point over each other: one field under its caption, not
    chains of every other cell and leftover cells read as check boxes."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((36, 100), "Your social security number", fontsize=8)
        for cell in range(9):
            x = 36 + 13.9 * cell
            top = 102.4 if cell % 3 == 0 else 103.1
            page.draw_rect(pymupdf.Rect(x, top, x + 15.1, 117.3), color=None, fill=(0.9, 0.9, 0.9))
            page.draw_rect(pymupdf.Rect(x + 0.8, top, x + 14.4, 117.2), color=(0.5, 0.5, 0.5), width=0.3)
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.type, field.description) for field in fields] == [("text", "Your social security number")]
    assert fields[0].bbox.width * 595 > 120


def test_a_field_after_a_mark_is_named_by_the_line_above() -> None:
    """A box whose only text before it is a mark or a prefix ("►", "A-") is labelled by the line above
    it, the prefix kept."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((100, 100), "Alien Registration Number", fontsize=10)
        page.insert_text((80, 118), "A-", fontsize=10)
        page.draw_rect(pymupdf.Rect(100, 106, 300, 122))
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Alien Registration Number A-"]


def test_a_line_number_by_its_box_takes_the_line_text_further_left() -> None:
    """Tax-form lines print their text at the left, their number by the box, a wide gap between: the
    box is labelled by both, so lines "a" and "b" are told apart by their words."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y, letter, text in ((100, "a", "Wages and salaries"), (130, "b", "Lottery winnings")):
            page.insert_text((40, y), text, fontsize=9)
            page.insert_text((300, y), letter, fontsize=9)
            page.draw_rect(pymupdf.Rect(315, y - 11, 420, y + 3))
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Wages and salaries a", "Lottery winnings b"]


@pytest.mark.parametrize("drawn", ["rule", "box"])
def test_several_captions_over_one_blank_make_a_field_each(drawn: str) -> None:
    """ "City   State   ZIP code" printed over one rule (or in the top of one box) are three blanks side
    by side, each under its caption, not one field labelled by all three."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for x, caption in ((74, "City or town"), (300, "State"), (400, "ZIP code")):
            page.insert_text((x, 110), caption, fontsize=8)
        if drawn == "rule":
            page.draw_line((72, 128), (520, 128))
        else:
            page.draw_rect(pymupdf.Rect(72, 100, 520, 130))
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert [field.description for field in fields] == ["City or town", "State", "ZIP code"]
    state, zip_code = fields[1].bbox, fields[2].bbox
    assert abs(state.left * 595 - 298) < 3 and abs((zip_code.left + zip_code.width) * 595 - 520) < 3
    values = field_values([(f.key, f.description, f.type) for f in fields], "ZIP code: 90210\nState: OR")
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        zip_hit = document[0].search_for("90210")[0]
    assert zip_hit.x0 > 398


def test_an_underscore_blank_over_several_captions_side_by_side_is_a_blank_under_each() -> None:
    """ "Print ______" over "Last Name   First Name   Middle Name": three blanks side by side, each
    named by the caption under it, not one blank named "Print"."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((40, 200), "Print" + "_" * 70, fontsize=10)
        for x, caption in ((100, "Last Name"), (220, "First Name"), (340, "Middle Name")):
            page.insert_text((x, 211), caption, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Last Name, Print", "First Name", "Middle Name"]
    assert abs((fields[1].bbox.left) * 595 - 218) < 3


def test_a_dot_leader_over_the_next_rows_column_headings_keeps_its_label_for_its_box() -> None:
    """Dots leading to a box ("21. Bonus depreciation ........ [   ]") over the next row's column
    headings ("Contributions   Interest"): the box is named by the line the dots lead from."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((40, 120), "21. Bonus depreciation " + "." * 90, fontsize=9)
        end = max(word[2] for word in page.get_text("words"))
        page.draw_rect(pymupdf.Rect(end + 10, 110, end + 80, 124))
        for x, caption in ((160, "Contributions"), (300, "Interest")):
            page.insert_text((x, 131), caption, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    boxed = [field for field in fields if field.bbox.left * 595 > end]
    assert [field.description for field in boxed] == ["21. Bonus depreciation"]


def test_an_underscore_blank_over_a_line_with_blanks_of_its_own_keeps_its_label() -> None:
    """A line under a blank that holds blanks of its own ("City ____   State ____") is the next line
    of the form, not captions of the blank above it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((40, 200), "Address" + "_" * 70, fontsize=10)
        page.insert_text((100, 211), "City" + "_" * 16, fontsize=9)
        page.insert_text((260, 211), "State" + "_" * 10, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert fields[0].description == "Address"


@pytest.mark.parametrize("stacked", [False, True])
def test_a_rule_over_several_captions_side_by_side_is_a_blank_under_each(stacked: bool) -> None:
    """ "AGE   HEIGHT   WEIGHT" printed flush under one rule with nothing left of it or over it: three
    blanks side by side, each named by its caption, not one field named by all three. So too for a
    rule of a stack whose every rule prints its captions under it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        rows = [(130, ["AGE", "HEIGHT", "WEIGHT"])]
        if stacked:
            rows = [(104, ["NAME"]), *rows, (156, ["CLASS"])]
        for y, captions in rows:
            page.draw_line((72, y), (420, y), width=0.5)
            for x, caption in zip((73, 190, 300), captions, strict=False):
                page.insert_text((x, y + 8), caption, fontsize=7)
        fields = form_fields(bytes(document.tobytes()))
    described = [field.description for field in fields]
    assert [name for name in described if name in {"AGE", "HEIGHT", "WEIGHT"}] == ["AGE", "HEIGHT", "WEIGHT"]
    height = next(field for field in fields if field.description == "HEIGHT").bbox
    assert abs(height.left * 595 - 188) < 3 and abs((height.left + height.width) * 595 - 298) < 3


def test_captions_side_by_side_a_rule_takes_from_under_it_name_no_rule_under_them() -> None:
    """Two rows of rules, each with its captions side by side flush under it ("AGE  HEIGHT  WEIGHT",
    then "EYES  SKIN  HAIR"), the first under a short rule of an ornament: the second rule's blanks are
    named by the captions under it, not by the first rule's captions over it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_line((72, 124), (150, 124), width=0.5)
        for y, x0, captions in ((130, 72, ["AGE", "HEIGHT", "WEIGHT"]), (156, 52, ["EYES", "SKIN", "HAIR"])):
            page.draw_line((x0, y), (420, y), width=0.5)
            for x, caption in zip((73, 190, 300), captions, strict=True):
                page.insert_text((x, y + 8), caption, fontsize=7)
        fields = form_fields(bytes(document.tobytes()))
    second_row = [field.description for field in fields if 140 < field.bbox.top * 842 < 150]
    assert second_row == ["EYES", "SKIN", "HAIR"]


def test_a_row_label_names_only_the_boxes_that_say_nothing_of_their_own() -> None:
    """In a grid of boxes under column headings, a row's label goes to its boxes that have no label of
    their own (", Spouse" added), and a box that has its own keeps it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((300, 92), "You", fontsize=9)
        page.insert_text((420, 92), "Spouse", fontsize=9)
        for row, text in enumerate(("Wages", "Interest", "Dividends")):
            y = 100 + 40 * row
            page.insert_text((250, y + 12), text, fontsize=9)
            page.draw_rect(pymupdf.Rect(300, y, 400, y + 16))
            page.draw_rect(pymupdf.Rect(420, y, 520, y + 16))
            if row == 2:
                page.insert_text((408, y + 12), "$", fontsize=9)  # the second box of the row: "$" only
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields][-2:] == ["Dividends", "Dividends, Spouse"]


def test_rules_roofed_by_a_rule_nearer_than_a_line_of_text_have_their_captions_at_the_bands_tops() -> None:
    """A column of rules, each with a caption right under it, under a short rule a few points over the
    first: no one writes on that first rule, so each caption is at the top of its band and names the
    room under it (the band from "Your social security number" down to the next rule), not the rule
    over it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_line((467, 120.4), (548, 120.4), width=1)
        for y in (126.5, 150.8, 174.5):
            page.draw_line((465, y), (587, y), width=1.4)
        for y, text in ((126.5, "Your social security number"), (150.8, "Spouse's social security number")):
            page.insert_text((467, y + 8.5), text, fontsize=7)
        page.insert_text((467, 183), "See the instructions", fontsize=7)
        fields = form_fields(bytes(document.tobytes()))
    by_bottom = {round((field.bbox.top + field.bbox.height) * 842): field.description for field in fields}
    assert by_bottom[151] == "Your social security number"
    assert by_bottom[175] == "Spouse's social security number"


def test_white_space_on_a_page_without_widgets_of_a_form_that_keeps_its_widgets_is_no_blank() -> None:
    """A report with its filled-in form at the end: the report's pages have no widgets, and the white
    space after a heading ("ABSTRACT") or a page number there is the page's, not a blank to fill (it
    took the abstract meant for the form's own "ABSTRACT" widget)."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        report = document.new_page()
        report.insert_text((280, 100), "ABSTRACT", fontsize=11)
        report.insert_text((72, 140), "Nuclear plants in this country are owned by a number of", fontsize=11)
        report.insert_text((72, 154), "separate entities, each with varying ownership shares.", fontsize=11)
        report.insert_text((300, 760), "iii", fontsize=9)
        form = document.new_page()
        form.insert_text((72, 100), "11. ABSTRACT (200 words or less)", fontsize=9)
        widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
        widget.field_name, widget.field_type = "abstract", pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(72, 106, 540, 200)
        form.add_widget(widget)
        content = bytes(document.tobytes())
    assert [field.bbox.page for field in form_fields(content)] == [2]


def test_a_cell_with_its_caption_on_top_and_a_line_of_room_under_it_is_a_field() -> None:
    """A grid of cells ruled with single lines, each with its caption in its top part and room for one
    line of text of the caption's size under it (an intake sheet's "Your first name | Last name |
    Date of birth" rows): each cell is a field, its value written under its caption."""
    captions = [["Your first name", "Last name", "Date of birth"], ["Mailing address", "City", "ZIP code"]]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        columns = (18, 200, 420, 560)
        for row, texts in enumerate(captions):
            top = 100 + 25 * row
            for x, text in zip(columns, texts, strict=False):
                page.insert_text((x + 3, top + 10), text, fontsize=10)
        for y in (100, 125, 150):
            page.draw_line((18, y), (590, y), width=0.5)
        for x in (*columns[:-1], 590):
            page.draw_line((x, 100), (x, 150), width=0.5)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    descriptions = [field.description.removesuffix(" [date]") for field in fields]
    assert descriptions == [text for texts in captions for text in texts]
    values = field_values([(f.key, f.description, f.type) for f in fields], "City: Portland 7")
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hit = document[0].search_for("Portland 7")[0]
    assert hit.x0 >= 200 and hit.x1 <= 420 and hit.y0 >= 133 and hit.y1 <= 151


def test_a_caption_right_above_a_box_beats_the_end_of_a_line_of_another_column() -> None:
    """Two columns: a box of the right one has its caption just above it, at its left edge; the text on
    its left, across a wide gap, is the end of a sentence of the left column, not its label."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "If you need extra space to provide any", fontsize=9)
        page.insert_text((72, 120), "information, use the last page of this form.", fontsize=9)
        page.insert_text((342, 100), "Daytime Telephone Number", fontsize=9)
        page.draw_rect(pymupdf.Rect(342, 104, 560, 122))
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Daytime Telephone Number"]


@pytest.mark.parametrize("under", [True, False])
def test_captions_under_a_stack_of_rules_name_the_rule_above_them(under: bool) -> None:
    """A stack of rules whose captions are printed flush under each ("Last", "First", "Middle", no rule
    under the last caption): each rule takes the caption under it, not the one of the rule above. Where
    the captions stand over the rules instead, each takes the one above it."""
    names = ["Last name", "First name", "Middle name"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, name in enumerate(names):
            y = 110 + 26 * row
            page.draw_line((72, y), (300, y), width=0.5)
            page.insert_text((72, y + 9 if under else y - 16), name, fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == names


def test_captions_under_an_evenly_spaced_stack_of_rules_of_several_lengths_name_the_rule_above() -> None:
    """A return's name block: rules of several lengths, one every 24 points, each with its caption
    flush under it, under the section's top line and closed by a rule across the page under the last
    caption. Evenly spaced, they are lines to write on (not the edges of boxes), and the section's top
    line (no caption under it) is no rule of theirs: each rule takes the caption under it."""
    rows = [("Your Social Security Number", 115), ("Your First Name", 144), ("Your Last Name", 180)]
    rows += [("Current Mailing Address Line 1", 252), ("City or Town", 137)]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_line((36, 101), (375, 101), width=0.5)  # the section's top line
        for row, (name, end) in enumerate(rows):
            y = 132 + 24 * row
            page.draw_line((36, y), (end, y), width=0.5)
            page.insert_text((36, y + 8), name, fontsize=8)
        page.draw_line((30, 250), (560, 250), width=0.5)  # the next section, under the last caption
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields if field.bbox.top < 0.29] == [name for name, _ in rows]


def test_boxes_whose_captions_hug_their_bottoms_take_the_caption_under_them() -> None:
    """Empty boxes one under the other, each with its caption flush under it and the next box a few
    points below that caption (a health insurer's "[    ] / Name", "[    ] / Vorname"): each box takes
    the caption hugging its bottom, not the line over it, which is the caption of the box above."""
    rows = ["Name", "Vorname", "Straße"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 84), "Angaben zur Person", fontsize=9)
        for row, name in enumerate(rows):
            top = 100 + 30 * row
            page.draw_rect(pymupdf.Rect(72, top, 300, top + 14), width=0.5)
            page.insert_text((72, top + 14 + 9.8), name, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == rows


def test_boxes_whose_captions_stand_a_little_under_them_take_them_over_a_sentence_further_above() -> None:
    """Two boxes side by side under a check box's sentence, each with its caption a few points under
    it ("Datum", "Ort"), nearer than the sentence over the boxes: each box takes its caption."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(62, 651, 75, 663), width=0.5)
        page.insert_text((86, 662), "Ich werde nicht zur Feier kommen.", fontsize=9)
        page.draw_rect(pymupdf.Rect(62, 685, 149, 708), width=0.5)
        page.draw_rect(pymupdf.Rect(175, 685, 262, 708), width=0.5)
        page.insert_text((63, 728), "Datum", fontsize=9)
        page.insert_text((176, 728), "Ort", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    texts = [field.description for field in fields if field.type == "text"]
    assert texts == ["Datum [date]", "Ort"]  # a date's caption says its kind


def test_a_caption_an_empty_line_under_a_paragraph_is_no_line_of_it_and_gets_its_blank() -> None:
    """A caption ending in its colon with room after it, an empty line under a paragraph whose lines
    start where it does: the paragraph's own lines are closer together, so the caption starts anew and
    the room after it is its blank."""
    paragraph = [
        "El responsable informa que con la firma del presente documento otorga el consentimiento",
        "explicito para el tratamiento de los datos de las operaciones mencionadas anteriormente.",
    ]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, line in enumerate(paragraph):
            page.insert_text((85, 135 + 12 * row), line, fontsize=9)
        page.insert_text((83, 169), "Nombre y apellidos del menor:", fontsize=9)
        page.insert_text((336, 169), "Firma:", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert "Nombre y apellidos del menor" in [field.description for field in fields]


def test_a_caption_ending_in_its_colon_takes_the_empty_line_after_it_not_the_room_under_it() -> None:
    """Captions with their colons two to a line ("Anrede:", "Titel:") over more of them, nothing drawn:
    each value goes after its colon, where the line is empty, not into the gap under the caption."""
    rows = [("Anrede:", "Titel:"), ("Vorname:", "Name:"), ("PLZ/Ort:", "Telefon:")]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, (left, right) in enumerate(rows):
            page.insert_text((65, 228 + 30 * row), left, fontsize=9)
            page.insert_text((320, 228 + 30 * row), right, fontsize=9)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    captions = {word[4].rstrip(":"): word for word in _page_words(content)}  # as shares of the page
    assert sorted(field.description for field in fields) == sorted(captions)
    for field in fields:
        caption = captions[field.description]
        assert field.bbox.top < caption[3], field.description  # level with its caption
        assert field.bbox.left > caption[2] - 0.002, field.description  # after it


def test_dot_leaders_over_captions_centred_under_them_are_named_by_those_captions() -> None:
    """A signature block of two dot leaders side by side, each over its caption set in the middle
    under it ("(Ort, Datum)", "(Unterschrift)"): each leader is the blank its caption names, and the
    room under the captions is no blank."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((65, 686), "." * 51, fontsize=9)
        page.insert_text((323, 686), "." * 53, fontsize=9)
        page.insert_text((101, 698), "(Ort, Datum)", fontsize=9)
        page.insert_text((365, 698), "(Unterschrift)", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["(Ort, Datum) [date]", "(Unterschrift)"]
    assert all(field.bbox.top * 842 < 690 for field in fields)  # the leaders, not the room under


def test_a_dot_leader_run_into_the_last_word_of_a_line_takes_the_whole_line_as_label() -> None:
    """A return's line whose last word runs into its dot leader ("...included in federal income.....")
    that leads to the amount's box: the box is named by the line, not by the word glued to the dots."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        text = "Oregon income tax refund included in federal income........................"
        page.insert_text((72, 100), text, fontsize=9)
        page.draw_rect(pymupdf.Rect(380, 90, 440, 103), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Oregon income tax refund included in federal income"]


def test_a_box_with_its_label_at_its_left_is_the_room_after_it_unless_an_empty_box_adjoins() -> None:
    """Boxes of a crew form, each with its label at its left and room after it: the label may run past
    the box's middle (the frame shows where the room ends) and hold a taller word ("6th" set larger).
    A box whose label is followed by an adjoining empty box ("OTHER NAMES USED | [     ]") is no
    field: the empty box is, named by it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(45, 100, 230, 120), width=0.5)
        page.insert_text((50, 113), "Base Weekly Fee (Inc Hol):", fontsize=9)
        page.draw_rect(pymupdf.Rect(230, 100, 400, 120), width=0.5)
        page.insert_text((235, 113), "6th", fontsize=11)
        page.insert_text((256, 113), "Day Fee:", fontsize=9)
        page.draw_rect(pymupdf.Rect(45, 200, 220, 220), width=0.5)
        page.insert_text((50, 213), "OTHER NAMES USED", fontsize=9)
        page.draw_rect(pymupdf.Rect(220, 200, 500, 220), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.description, round(field.bbox.left * 595)) for field in fields] == [
        ("Base Weekly Fee (Inc Hol)", 161),
        ("6th Day Fee", 294),
        ("OTHER NAMES USED", 220),
    ]


def test_a_section_box_with_a_heading_and_a_caption_past_its_middle_is_no_field() -> None:
    """A section's frame holding its heading (running past the frame's middle) and a caption under it:
    a label of two lines may not run as far across a box as one of one line, so the room after the
    heading is no blank."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(45, 189, 575, 242), width=0.5)
        page.insert_text(
            (48, 204), "1. Account Information (Use one form per account, and one per owner.)", fontsize=10
        )
        page.insert_text((48, 230), "Account Number", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert fields == []


def test_a_lone_rule_takes_the_caption_flush_under_it_over_a_heading_above() -> None:
    """Rules side by side, each with its caption printed flush under it ("HOME", "WORK") under a
    section heading ("TELEPHONE") across a gap: each rule is named by its caption, not the heading."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "TELEPHONE", fontsize=11)
        for x0, x1, caption in ((72, 200, "HOME"), (220, 360, "WORK")):
            page.draw_line((x0, 130), (x1, 130), width=0.5)
            page.insert_text((x0, 139), caption, fontsize=7)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["HOME", "WORK"]


def test_captions_under_a_stack_of_rules_name_them_with_a_section_rule_under_the_last() -> None:
    """A stack of rules with their captions flush under each ("Name", "Address", "Phone") and nothing
    over its top rule, closed by a rule across the page just under its last caption (the section's
    end): the captions still name the rule above them, the closing rule being no blank of theirs."""
    names = ["Name", "Address", "Phone"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 60), "Filled in by the petitioner", fontsize=11)
        for row, name in enumerate(names):
            y = 126 + 28 * row
            page.draw_line((67, y), (297, y), width=0.5)
            page.insert_text((72, y + 9), name, fontsize=9)
        page.draw_line((67, 212), (546, 212), width=0.5)  # the section's end, 5 points under "Phone"
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields if field.bbox.top < 0.25] == names


@pytest.mark.parametrize("above", ["Request for Order to Examine", ""])
def test_an_underscore_blank_alone_on_its_line_takes_the_caption_flush_under_it(above: str) -> None:
    """Blanks typed as underscores alone on their line, each with its caption flush under it ("Case
    Number", "Judge") and the line above across an empty line (a title, or the caption of the blank
    above): each is named by its caption, not by the line above."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        if above:
            page.insert_text((330, 402), above, fontsize=11)
        for y, caption in ((442, "Case Number"), (479, "Judge")):
            page.insert_text((330, y), "_" * 30, fontsize=11)
            page.insert_text((330, y + 11), caption, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Case Number", "Judge"]


def test_boxes_made_of_rules_with_their_captions_at_the_top_keep_them_over_their_blanks() -> None:
    """Boxes drawn as rules one under the other, a shorter rule just over the top one, each box with
    its caption at its top ("Your social security number"), a line of words left of the top rule: the
    caption names the blank under it, in its own box, not the rule over it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=612, height=792)
        page.draw_line((466.5, 120), (548, 120), width=0.5)
        for y in (126, 150, 174, 198):
            page.draw_line((465, y), (587, y), width=0.5)
        page.insert_text((380, 124), "fiscal year end:", fontsize=7)
        page.insert_text((467, 133), "Your social security number", fontsize=7)
        page.insert_text((467, 157), "Spouse's social security number", fontsize=7)
        page.insert_text((467, 181), "Daytime phone", fontsize=7)
        fields = form_fields(bytes(document.tobytes()))
    for caption, (top, bottom) in (("Your social", (126, 150)), ("Spouse's social", (150, 174))):
        (field,) = [field for field in fields if field.description.startswith(caption)]
        assert top <= field.bbox.top * 792 and (field.bbox.top + field.bbox.height) * 792 <= bottom + 1


def test_an_underscore_blank_under_its_label_keeps_the_label_above() -> None:
    """Labels printed right over underscore blanks, line after line ("Name" / "____" / "Address" /
    "____"): each blank is named by the line above it, as before."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, label in enumerate(["Name", "Address"]):
            y = 100 + 30 * row
            page.insert_text((72, y), label, fontsize=11)
            page.insert_text((72, y + 15), "_" * 30, fontsize=11)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Name", "Address"]


def test_an_arabic_label_with_a_lam_alef_ligature_is_read_lam_then_alef() -> None:
    """A label drawn with the lam-alef glyph of its font ("كلا" as kaf and the lam-alef) before a rule:
    the field's label reads lam then alef, as the word is written, not alef then lam."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 50), "x", fontname="helv")
        font = page.get_fonts()[0]
        document.xref_set_key(
            font[0],
            "Encoding",
            "<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[1/uniFEDB 2/uniFEFC]>>",
        )
        stream = f"BT /{font[4]} 11 Tf 1 0 0 1 50 100 Tm (\\002\\001) Tj ET 0.5 w 90 98 m 300 98 l S"
        document.update_stream(page.get_contents()[0], stream.encode("latin-1"))
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["\u0643\u0644\u0627"]  # kaf, lam, alef


def test_a_rule_after_words_of_a_sentence_is_named_by_the_captions_flush_under_it() -> None:
    """A blank inside a sentence ("who resides at ______") with captions printed flush under it, parted
    by wide gaps ("Address   City   State   Zip"): a blank under each caption, named by it, and a value
    for the city is written under "City"."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=612, height=792)
        page.insert_text((72, 200), "The person who resides at", fontsize=10)
        page.draw_line((200, 202), (560, 202), width=0.5)
        for x, caption in ((202, "Address"), (400, "City"), (470, "State"), (520, "Zip")):
            page.insert_text((x, 209), caption, fontsize=7)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert [field.description.split(",")[0] for field in fields] == ["Address", "City", "State", "Zip"]
    values = field_values([(f.key, f.description, f.type) for f in fields], "City: Lansing")
    city = _by_description(fields, "City")
    assert values == {city.key: "Lansing"}
    assert city.bbox.left >= 395 / 612 and city.bbox.left + city.bbox.width <= 470 / 612


def test_a_rule_inside_a_frame_round_a_section_is_a_blank() -> None:
    """A section framed by one box holds check boxes with a rule after their text ("Presentation of a
    paper   subject: ______"): the rules are blanks of their own, not edges of the frame."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(40, 90, 560, 170), width=0.8)
        page.insert_text((46, 104), "Reason for the trip", fontsize=11)
        for row, (option, caption) in enumerate(
            (("Presentation of a paper", "subject:"), ("Other", "specify:"))
        ):
            y = 125 + 22 * row
            page.draw_rect(pymupdf.Rect(46, y - 9, 56, y + 1))
            page.insert_text((62, y), option, fontsize=10)
            page.insert_text((220, y), caption, fontsize=10)
            page.draw_line((265, y + 1), (550, y + 1), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    texts = [field for field in fields if field.type == "text"]
    assert [field.description for field in texts] == ["subject", "specify"]
    assert all(field.bbox.left > 260 / 595 for field in texts)


def test_a_box_opened_by_a_sign_is_a_field_and_its_value_is_written_after_the_sign() -> None:
    """Boxes of a return's summary with "=" or "$" printed at their start ("Total (add lines 19 to
    21)  [= ____]"): each is a field named by the text left of it, its box after the sign."""
    lines = [("Duty payable (add lines 1 to 6)", "="), ("Refund (Form B301 attached)", "$")]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, (text, sign) in enumerate(lines):
            y = 120 + 24 * row
            page.insert_text((260, y + 12), text, fontsize=10)
            page.draw_rect(pymupdf.Rect(440, y, 560, y + 16), width=0.5)
            page.insert_text((443, y + 12), sign, fontsize=10)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert [field.description for field in fields] == [text for text, _ in lines]
    assert all(field.bbox.left * 595 > 448 for field in fields)
    values = field_values([(f.key, f.description, f.type) for f in fields], "Refund: 1,234.00")
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hit = document[0].search_for("1,234.00")[0]
    assert hit.x0 > 448 and hit.y0 >= 144 and hit.y1 <= 161


def test_a_box_opened_by_a_sign_with_no_words_by_it_is_a_blank_not_named_by_the_sign() -> None:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(440, 120, 560, 136), width=0.5)
        page.insert_text((443, 132), "$", fontsize=10)
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.description, field.type) for field in fields] == [("blank", "text")]


def test_a_captioned_box_with_a_sign_under_its_caption_is_a_field_after_the_sign() -> None:
    """An information return's boxes: a caption in the top part ("1 Unemployment compensation") and a
    "$" at the start of the room under it. Each box is a field named by its caption, its blank after
    the "$", and the value is written there."""
    captions = ["1 Unemployment compensation", "4 Federal income tax withheld"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for column, caption in enumerate(captions):
            x = 300 + 120 * column
            page.draw_rect(pymupdf.Rect(x, 100, x + 120, 136), width=0.5)
            page.insert_text((x + 3, 110), caption, fontsize=8)
            page.insert_text((x + 3, 132), "$", fontsize=8)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert [field.description for field in fields] == captions
    assert all(field.bbox.top * 842 > 110 for field in fields)
    values = field_values(
        [(f.key, f.description, f.type) for f in fields], "Unemployment compensation: 512.40"
    )
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hit = document[0].search_for("512.40")[0]
    assert hit.x0 > 307 and hit.x1 <= 420 and hit.y0 >= 110


def test_a_rule_drawn_from_right_to_left_is_a_blank() -> None:
    """A rule after its label drawn from its right end to its left ("1) Full name ______", the path
    going leftwards) is a blank like any other."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 120), "1) Full name", fontsize=10)
        page.draw_line((400, 122), (140, 122), width=0.5)
        page.insert_text((72, 160), "2) Date hired", fontsize=10)
        page.draw_line((150, 162), (260, 162), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["1) Full name", "2) Date hired [date]"]


def test_a_cell_whose_row_says_only_its_line_letter_is_named_by_the_line() -> None:
    """A return's column of amounts ruled as a table, each row's first cell holding the line's letter
    only ("a", "b") and its words printed left of the table: each amount cell is named by its line's
    words, not by the letter alone."""
    lines = [("a", "State tax add back"), ("b", "Other additions to income")]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, (letter, text) in enumerate(lines):
            y = 120 + 14 * row
            page.insert_text((60, y + 10), text, fontsize=9)
            page.insert_text((362, y + 10), letter, fontsize=9)
            page.insert_text((448, y + 10), "00", fontsize=9)
        for y in (120, 134, 148):
            page.draw_line((358, y), (466, y), width=0.5)
        for x in (358, 370, 446, 466):
            page.draw_line((x, 120), (x, 148), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert len(fields) == 2
    for field, (_, text) in zip(fields, lines, strict=True):
        assert text in field.description, field.description


@pytest.mark.parametrize("aslant", [False, True])
def test_words_printed_up_the_margin_or_aslant_name_no_field(aslant: bool) -> None:
    """A line printed up the page's margin ("Print using blue or black ink only"), or aslant across it
    (a "DO NOT MAIL" watermark), stands left of the rules; each rule is named by the caption flush
    under it, not by a word of that line."""
    names = ["Your first name", "Your last name", "Spouse's first name"]
    left = 180 if aslant else 36
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        if aslant:
            start = pymupdf.Point(60, 200)
            page.insert_text(start, "DO NOT MAIL THIS PAGE", fontsize=20, morph=(start, pymupdf.Matrix(-30)))
        else:
            page.insert_text((24, 260), "Print using blue or black ink only", fontsize=7, rotate=90)
        for row, name in enumerate(names):
            y = 120 + 36 * row
            page.draw_line((left, y), (left + 214, y), width=0.5)
            page.insert_text((left, y + 10), name, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == names


def test_a_widget_value_is_set_as_a_form_value_and_the_form_stays_editable() -> None:
    content = _widget_form()
    fields = form_fields(content)
    values = {"applicant.name": "Jane Roe", "t2": "Lyon", "citizen": "Yes", "country": "germany"}
    out = filled(content, [replace(field, value=values[field.widget or ""]) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        assert document.is_form_pdf
        widgets = {widget.field_name: widget for widget in document[0].widgets()}
        assert widgets["applicant.name"].field_value == "Jane Roe"
        assert widgets["t2"].field_value == "Lyon"
        assert widgets["citizen"].field_value not in ("Off", "", False, None)
        assert widgets["country"].field_value == "Germany"
        catalog = document.pdf_catalog()
        assert document.xref_get_key(catalog, "AcroForm/NeedAppearances") == ("bool", "true")


def _form_rebuilt_on_saving() -> bytes:
    """The widget form with an object that nothing reads before the file is saved, whose entry in
    the cross-reference table points a few bytes into it: MuPDF rebuilds the table while saving."""
    with pymupdf.open(stream=_widget_form(), filetype="pdf") as document:
        spare = document.get_new_xref()
        document.update_object(spare, "<< /Spare true >>")
        data = bytearray(document.tobytes())
    table = re.search(rb"\nxref\n0 \d+\n", data)
    assert table is not None
    entry = table.end() + 20 * spare
    data[entry : entry + 10] = b"%010d" % (int(data[entry : entry + 10]) + 3)
    return bytes(data)


def test_a_widget_value_is_kept_when_the_file_is_rebuilt_while_saving() -> None:
    content = _form_rebuilt_on_saving()
    fields = form_fields(content)
    values = {"applicant.name": "Jane Roe", "t2": "Lyon"}
    out = filled(content, [replace(field, value=values.get(field.widget or "")) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        widgets = {widget.field_name: widget for widget in document[0].widgets()}
        assert widgets["applicant.name"].field_value == "Jane Roe"
        assert widgets["t2"].field_value == "Lyon"


def test_a_widget_shows_a_value_in_another_script() -> None:
    content = _widget_form()
    name = form_fields(content)[0]
    out = filled(content, [replace(name, value="東京都 Иван")])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        assert next(document[0].widgets()).field_value == "東京都 Иван"
        assert "東京都 Иван" in document[0].get_text()  # drawn by its new appearance


def _radio_form() -> bytes:
    """A radio group "status" of three buttons (Single on), written by hand: PyMuPDF makes none."""
    buttons = []
    for number, option in enumerate(("Single", "Married", "Divorced")):
        y = 690 - 30 * number
        state = f"/{option}" if number == 0 else "/Off"
        buttons.append(
            f"{5 + number} 0 obj <</Type/Annot/Subtype/Widget/Parent 4 0 R/P 3 0 R/AS {state}"
            f"/Rect[72 {y} 84 {y + 12}]/AP<</N<</{option} 8 0 R/Off 9 0 R>>>>/MK<<>>>> endobj"
        )
    text = "BT /F1 11 Tf 90 692 Td (Single) Tj 0 -30 Td (Married) Tj 0 -30 Td (Divorced) Tj ET"
    objects = [
        "1 0 obj <</Type/Catalog/Pages 2 0 R/AcroForm<</Fields[4 0 R]>>>> endobj",
        "2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj",
        "3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Annots[5 0 R 6 0 R 7 0 R]"
        "/Contents 10 0 R/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>> endobj",
        "4 0 obj <</FT/Btn/Ff 49152/T(status)/V/Single/Kids[5 0 R 6 0 R 7 0 R]>> endobj",
        *buttons,
        "8 0 obj <</Type/XObject/Subtype/Form/BBox[0 0 12 12]/Length 21>> stream\n"
        "0 g 3 3 6 6 re f\nendstream endobj",
        "9 0 obj <</Type/XObject/Subtype/Form/BBox[0 0 12 12]/Length 0>> stream\n\nendstream endobj",
        f"10 0 obj <</Length {len(text)}>> stream\n{text}\nendstream endobj",
    ]
    raw = "%PDF-1.7\n" + "\n".join(objects) + "\ntrailer <</Root 1 0 R/Size 11>>\n%%EOF\n"
    with pymupdf.open(stream=raw.encode(), filetype="pdf") as document:  # MuPDF rebuilds the xref
        return bytes(document.tobytes())


def test_a_radio_button_turned_on_turns_the_others_of_its_group_off() -> None:
    content = _radio_form()
    fields = form_fields(content)
    assert [(field.type, field.description.split()[0]) for field in fields] == [
        ("checkbox", "Single"),
        ("checkbox", "Married"),
        ("checkbox", "Divorced"),
    ]
    assert fields[0].value == "true" and fields[1].value is None
    out = filled(content, [replace(fields[1], value="yes")])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        states = [document.xref_get_key(widget.xref, "AS")[1] for widget in document[0].widgets()]
    assert states[0] == "/Off" and states[1] != "/Off" and states[2] == "/Off"


def test_values_are_drawn_in_their_boxes_and_a_checkbox_is_ticked() -> None:
    content = _layout_form()
    fields = form_fields(content)
    surname = _by_description(fields, "Surname")
    address = _by_description(fields, "Address")
    married = _by_description(fields, "Married")
    values = {
        surname.key: "Roe",
        address.key: "12 Oak Street, a long way out of town, Springfield",
        married.key: "x",
    }
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields], color="#1f3a93")
    words = _page_words(out)
    assert any(word[4] == "Roe" and _inside(surname, word) for word in words)
    assert any(word[4] == "Springfield" and _inside(address, word) for word in words)
    with pymupdf.open(stream=out, filetype="pdf") as document:
        page = document[0]
        width, height = page.rect.width, page.rect.height
        box = married.bbox
        ticked = pymupdf.Rect(
            box.left * width,
            box.top * height,
            (box.left + box.width) * width,
            (box.top + box.height) * height,
        )
        strokes = [
            drawing for drawing in page.get_drawings()
            if drawing.get("color") and abs(drawing["color"][2] - 0x93 / 255) < 0.01
            and ticked.intersects(drawing["rect"])
        ]  # fmt: skip
        assert strokes, "the box is ticked in the colour asked for"


@pytest.mark.parametrize(
    "value", ["山田太郎", "Иван Петров", "محمد", "Ελένη Παπαδοπούλου", "Zoë Ångström-Łukasz"]
)
def test_values_in_other_scripts_are_drawn_and_read_back(value: str) -> None:
    content = _layout_form()
    fields = form_fields(content)
    telephone = _by_description(fields, "Telephone")
    out = filled(content, [replace(telephone, value=value)])
    words = [word for word in _page_words(out) if _inside(telephone, word)]
    text = " ".join(word[4] for word in sorted(words, key=lambda word: word[0]))
    for part in value.split():
        assert part in text or part[::-1] in text or set(part) <= set(text), (value, text)


def test_a_bad_colour_is_refused_with_a_clear_message() -> None:
    assert parse_color("#fff") == (1.0, 1.0, 1.0)
    assert parse_color("#1f3a93") == pytest.approx((0x1F / 255, 0x3A / 255, 0x93 / 255))
    for color in ("red", "#12345", "1f3a93", "#gggggg"):
        with pytest.raises(ValueError, match="hex colour"):
            filled(_layout_form(), [], color=color)


def test_documents_that_are_no_form_are_rejected() -> None:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        document.new_page()
        encrypted = document.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="o")
    with pytest.raises(DocumentRejected, match="password"):
        form_fields(encrypted)
    with pytest.raises(DocumentRejected, match="not a PDF"):
        form_fields(b"GIF89a not a form")
    with pytest.raises(DocumentRejected):
        form_fields(b"%PDF-1.7\n%%EOF\n")


def _named_address_form(tooltips: tuple[str, ...]) -> bytes:
    """Two people's address blocks, each line printed "Address" (or "Postcode") left of its widget,
    the widgets named by a long path that tells them apart only at its end, with the given tooltips
    (none where empty)."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        lines = ("address-address1", "address-address2", "address-address3", "address-postcode")
        for person in range(2):
            for line, part in enumerate(lines):
                y = 100 + 140 * person + 24 * line
                page.insert_text((72, y + 12), "Postcode" if "postcode" in part else "Address", fontsize=10)
                widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
                widget.field_name = f"lpa-document-primaryAttorneys-{person}-{part}"
                widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
                widget.rect = pymupdf.Rect(140, y, 400, y + 16)
                widget.field_label = tooltips[person * len(lines) + line] or None
                page.add_widget(widget)
        return bytes(document.tobytes())


def _filled_by(content: bytes, instructions: str) -> dict[str, str]:
    fields = form_fields(content)
    values = field_values([(field.key, field.description, field.type) for field in fields], instructions)
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        return {widget.field_name: widget.field_value for widget in document[0].widgets()}


def test_widgets_named_alike_but_for_their_last_words_keep_them_in_their_keys() -> None:
    content = _named_address_form(("",) * 8)
    keys = [field.key for field in form_fields(content)]
    assert len(set(keys)) == 8
    assert all(key.endswith(("address1", "address2", "address3", "postcode")) for key in keys)
    instructions = "\n".join(
        f"lpa document primary Attorneys {person} address {part}: {10 * person + number} Oak Street"
        for person in range(2)
        for number, part in enumerate(("address1", "address2", "address3", "postcode"))
    )
    values = _filled_by(content, instructions)
    assert values["lpa-document-primaryAttorneys-0-address-address2"] == "1 Oak Street"
    assert values["lpa-document-primaryAttorneys-1-address-address1"] == "10 Oak Street"
    assert values["lpa-document-primaryAttorneys-1-address-postcode"] == "13 Oak Street"


def test_long_widget_names_told_apart_at_their_start_and_their_end_keep_both_in_their_keys() -> None:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for number, (member, place) in enumerate(
            (member, place) for member in ("first", "second") for place in ("home", "work")
        ):
            widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
            widget.field_name = (
                f"{member}_member_affected_by_flint_water_crisis_address_affected_type_{place}"
            )
            widget.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
            widget.rect = pymupdf.Rect(72, 100 + 30 * number, 84, 112 + 30 * number)
            page.add_widget(widget)
        content = bytes(document.tobytes())
    keys = [field.key for field in form_fields(content)]
    assert [(key.split("_")[0], key.split("_")[-1]) for key in keys] == [
        ("first", "home"),
        ("first", "work"),
        ("second", "home"),
        ("second", "work"),
    ]
    assert all(len(key) <= 48 for key in keys)


def test_a_tooltip_numbered_in_brackets_is_told_apart_from_the_plain_label() -> None:
    tooltips = ("Address [1]", "Address [3]", "", "", "", "", "", "")
    values = _filled_by(_named_address_form(tooltips), "Address [3]: 5 Elm Road\nAddress [1]: 7 Elm Road")
    assert values["lpa-document-primaryAttorneys-0-address-address1"] == "7 Elm Road"
    assert values["lpa-document-primaryAttorneys-0-address-address2"] == "5 Elm Road"
    assert values["lpa-document-primaryAttorneys-0-address-address3"] in ("", None)


def test_a_rule_opened_by_a_dollar_sign_is_a_blank_after_the_sign() -> None:
    """An amount column: the line's number in a cell, then "$" at the start of a rule between two
    ticks, the cents' rule after it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        question = "20 What is your net income per pay period (take home pay)?"
        page.insert_text((40, 346), question, fontsize=8.5)
        for x in range(300, 460, 12):
            page.insert_text((x, 346), ".", fontsize=8.5)
        page.insert_text((481, 346), "20", fontsize=8.5, fontname="hebo")
        page.insert_text((499, 346), "$", fontsize=8)
        shape = page.new_shape()
        for start, end in (((475, 348), (497, 348)), ((497, 348), (554.5, 348)), ((554.5, 348), (576, 348))):
            shape.draw_line(start, end)
        for x in (475.2, 496.8, 554.4):
            shape.draw_line((x, 336), (x, 348.2))
        shape.finish(width=0.5, color=(0, 0, 0))
        shape.commit()
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert len(fields) == 1
    field = fields[0]
    assert "net income per pay period" in field.description
    assert 503 < field.bbox.left * pymupdf.paper_size("a4")[0] < 506  # after the sign, not over it
    values = field_values([(field.key, field.description, field.type)], "Net income per pay period: 1,250.00")
    assert values == {field.key: "1,250.00"}


def test_rules_drawn_cell_by_cell_under_their_captions_are_one_blank_each() -> None:
    """A health insurer's sheet: each line to write on is a comb's baseline drawn cell by cell (pieces
    of 13 points with a tick at each), its caption flush under it, and a row of check boxes under the
    last one. Each baseline is one blank named by the caption under it, the check boxes' edges
    notwithstanding."""
    captions = ["Titel, Name", "Geburtsname", "Straße"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        shape = page.new_shape()
        for row, (caption, end) in enumerate(zip(captions, (274, 144, 261), strict=True)):
            y = 150 + 27 * row
            for x in range(40, end, 13):  # rules of several lengths: no box's edges
                shape.draw_line((x, y), (x + 13, y))
                shape.draw_line((x, y - 8), (x, y))
            page.insert_text((40, y + 10), caption, fontsize=8)
        shape.draw_rect(pymupdf.Rect(40, 228, 52, 240))
        shape.finish(width=0.8, color=(0.5, 0.5, 0.5))
        shape.commit()
        page.insert_text((56, 238), "ledig", fontsize=8)
        content = bytes(document.tobytes())
    texts = [field for field in form_fields(content) if field.type == "text"]
    assert [field.description for field in texts] == captions
    for field, row in zip(texts, range(3), strict=True):
        assert abs((field.bbox.top + field.bbox.height) * 842 - (150 + 27 * row)) < 1  # over its own rule
        assert field.bbox.width * 595 > 100


def test_a_label_printed_at_the_start_of_its_rule_leaves_the_rest_to_write_on() -> None:
    """A claim form whose rules run under their labels too ("Antragsteller/in (Name, Vorname)" and
    the line to write on, one rule): the blank is the rule's part after the label, named by it, and the
    value is written there. An underlined heading (its rule no longer than its words) is no blank."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((100, 358), "(Name, Vorname)", fontsize=8)
        page.draw_line((98, 362), (416, 362), width=0.5)
        page.insert_text((100, 300), "Reisekostenabrechnung", fontsize=11)
        page.draw_line((98, 302), (232, 302), width=0.5)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert [field.description for field in fields] == ["(Name, Vorname)"]
    assert 155 < fields[0].bbox.left * 595 < 165
    values = field_values([(f.key, f.description, f.type) for f in fields], "Name, Vorname: Anna Schmidt")
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hit = document[0].search_for("Anna Schmidt")[0]
    assert hit.x0 > 155 and hit.y1 <= 363


def test_a_label_at_the_left_of_a_box_leaves_the_rest_to_write_on_but_a_column_heading_does_not() -> None:
    """Ruled rows whose cells print their label at the left ("Private Anschrift" [         ]): the
    blank is the cell's part after the label. A table's heading cell ("TIN" over empty cells of its
    column) is all label, though its word leaves room at its right."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y in (100, 125, 150):
            page.draw_line((100, y), (500, y), width=0.5)
        for x in (100, 500):
            page.draw_line((x, 100), (x, 150), width=0.5)
        page.insert_text((104, 116), "Private Anschrift", fontsize=10)
        page.insert_text((104, 141), "Telefon", fontsize=10)
        for y in (300, 322, 344, 366):
            page.draw_line((100, y), (400, y), width=0.5)
        for x in (100, 250, 400):
            page.draw_line((x, 300), (x, 366), width=0.5)
        page.insert_text((104, 315), "Dependent Name", fontsize=9)
        page.insert_text((254, 315), "TIN", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    rows = [field for field in fields if field.bbox.top * 842 < 200]
    assert [field.description for field in rows] == ["Private Anschrift", "Telefon"]
    assert all(field.bbox.left * 595 > 130 for field in rows)  # after the label, not over it
    table = [field for field in fields if field.bbox.top * 842 > 290]
    assert len(table) == 4 and all(field.bbox.top * 842 > 320 for field in table)  # no field in a heading


def test_a_caption_over_an_empty_band_is_the_blank_under_it() -> None:
    """A borderless box baked flat leaves only its caption and white space: "Last name" over an empty
    band, "Suffix" beside it, are two blanks under their captions, and the value is written in the band."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "Last name", fontsize=9)
        page.insert_text((400, 100), "Suffix", fontsize=9)
        page.insert_text((72, 140), "First name", fontsize=9)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    assert [field.description for field in fields][:2] == ["Last name", "Suffix"]
    last = fields[0].bbox
    assert (
        last.top * 842 > 100 and (last.top + last.height) * 842 < 133 and (last.left + last.width) * 595 < 400
    )
    values = field_values([(f.key, f.description, f.type) for f in fields], "Last name: Roe")
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hit = document[0].search_for("Roe")[0]
    assert hit.y0 > 100 and hit.y1 < 133 and hit.x0 < 200


def test_a_label_followed_by_a_long_empty_stretch_of_its_line_is_the_blank_after_it() -> None:
    """Labels in a tight column ("Calle", then "Provincia" the next line), each followed by white space
    to the next label on its line: the stretch after each is its blank, on its line."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "Calle", fontsize=10)
        page.insert_text((400, 100), "Localidad", fontsize=10)
        page.insert_text((72, 114), "Provincia", fontsize=10)
        page.insert_text((400, 114), "Código Postal", fontsize=10)
        fields = form_fields(bytes(document.tobytes()))
    calle = _by_description(fields, "Calle").bbox
    assert calle.left * 595 > 95 and (calle.left + calle.width) * 595 < 400
    assert calle.top * 842 > 84 and (calle.top + calle.height) * 842 < 107


def test_the_last_line_of_a_paragraph_and_a_rules_caption_make_no_blank_of_white_space() -> None:
    """White space after a paragraph's short last line, or under a caption that already names the rule
    over it, is no blank."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text(
            (72, 100), "Contributions can be made to the following organisations of the state", fontsize=10
        )
        page.insert_text((72, 112), "and its towns.", fontsize=10)
        page.draw_line((72, 200), (300, 200))
        page.insert_text((72, 209), "Middle name", fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Middle name"]


def test_a_tooltip_worded_as_the_fields_name_in_a_phrase_is_its_label() -> None:
    """A widget whose name and tooltip are one phrase the form's author wrote ("Monthly gross income
    from rent in euro") is labelled so, not by the column's shorthand printed by it ("EUR gross");
    a name of one or two words equal to its tooltip says no more than the page does."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "EUR gross", fontsize=9)
        page.insert_text((72, 140), "Given name", fontsize=9)
        for name, rect in (
            ("Monthly gross income from rent in euro", (130, 90, 200, 104)),
            ("FirstName", (130, 130, 300, 144)),
        ):
            widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
            widget.field_name, widget.field_type = name, pymupdf.PDF_WIDGET_TYPE_TEXT
            widget.rect, widget.field_label = pymupdf.Rect(rect), name
            page.add_widget(widget)
        content = bytes(document.tobytes())
    descriptions = [field.description for field in form_fields(content)]
    assert descriptions == ["Monthly gross income from rent in euro", "Given name"]


def test_a_short_rule_after_a_label_on_its_line_is_a_blank_but_a_short_rule_alone_is_not() -> None:
    """Rules too short to be blanks alone (21 points: an age, a rate) after a label on their line
    ("Spouse's Age ____") are blanks named by it; a rule as short with nothing at its left is an
    ornament."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 200), "Spouse's Age", fontsize=9)
        page.draw_line((134, 201), (155, 201), width=0.5)
        page.draw_line((300, 301), (321, 301), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Spouse's Age"]
    age = fields[0].bbox
    assert abs(age.left * 595 - 134) < 2 and abs((age.left + age.width) * 595 - 155) < 2


def test_a_short_rule_after_a_label_on_a_line_that_holds_a_field_is_no_blank() -> None:
    """A line that already has its blank (a tax table's line "5 Tax from the table ____ [ amount ]")
    keeps it alone: a short rule after its label is a piece of the table, not a second field that
    would take the line's value."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 200), "Tax from table", fontsize=9)
        page.draw_line((138, 201), (159, 201), width=0.5)
        page.draw_rect((420, 186, 520, 203), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert not [field for field in fields if field.bbox.left * 595 < 300]


def _caption_strip_grid(frames: bool = False) -> bytes:
    """Two columns of boxes ruled as one grid, each box under a strip of its own holding its caption
    ("NAME" over its box, then "OTHER NAMES" over the next), under a heading row; with `frames`, a
    second frame drawn inside each box (a widget's border baked into the page)."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(40, 60, 300, 90))
        page.draw_rect(pymupdf.Rect(300, 60, 560, 90))
        page.insert_text((44, 80), "APPLICANT INFORMATION", fontsize=10)
        page.insert_text((304, 80), "Court of Appeals", fontsize=10)
        captions = (("NAME", "DATE OF BIRTH"), ("OTHER NAMES", "PLACE OF BIRTH"), ("EMPLOYER", "WORK PHONE"))
        for row, pair in enumerate(captions):
            top = 90 + 44 * row
            for (x0, x1), caption in zip(((40, 300), (300, 560)), pair, strict=True):
                page.draw_rect(pymupdf.Rect(x0, top, x1, top + 12))
                page.insert_text((x0 + 4, top + 10), caption, fontsize=8)
                page.draw_rect(pymupdf.Rect(x0, top + 12, x1, top + 44))
                if frames:
                    page.draw_rect(pymupdf.Rect(x0 + 2, top + 14, x1 - 2, top + 42), color=(0.5, 0.5, 0.5))
        return bytes(document.tobytes())


def test_a_box_under_a_strip_of_its_own_caption_is_named_by_it_not_by_its_columns_top_cell() -> None:
    boxes = [field for field in form_fields(_caption_strip_grid()) if field.bbox.top * 842 > 95]
    assert [field.description for field in boxes] == [
        "NAME",
        "DATE OF BIRTH [date]",
        "OTHER NAMES",
        "PLACE OF BIRTH",
        "EMPLOYER",
        "WORK PHONE",
    ]


def test_a_box_drawn_twice_is_one_field_of_its_row_for_the_row_and_column_labels() -> None:
    """A box drawn as a grid's cell and again as a frame inside it is one field, not two of one label
    on a row: neither takes its row's first label with its column's heading."""
    boxes = [field for field in form_fields(_caption_strip_grid(frames=True)) if field.bbox.top * 842 > 95]
    assert {field.description for field in boxes} == {
        "NAME",
        "DATE OF BIRTH [date]",
        "OTHER NAMES",
        "PLACE OF BIRTH",
        "EMPLOYER",
        "WORK PHONE",
    }


def test_a_cell_whose_row_has_its_label_at_its_left_is_named_by_the_row_not_by_the_cell_over_it() -> None:
    """A table's cell under a heading row ("Check", "Identification", "Checked on") with its row's
    label in the first cell ("Manual leak detector") is named by that row with its column: the heading
    cell right over it, a one-line strip, is no caption of its own box."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        rows = (
            (60, 80, ("Sheet No", "OPERATOR", "HOLDER")),
            (80, 92, ("Check", "Identification", "Checked on")),
            (92, 120, ("Manual leak detector", "", "")),
        )
        for top, bottom, texts in rows:
            for (x0, x1), text in zip(((40, 200), (200, 400), (400, 560)), texts, strict=True):
                page.draw_rect(pymupdf.Rect(x0, top, x1, bottom))
                if text:
                    page.insert_text((x0 + 4, bottom - 3), text, fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    box = next(
        field for field in fields if abs(field.bbox.left * 595 - 200) < 3 and field.bbox.top * 842 > 90
    )
    assert "Manual leak detector" in box.description


def test_a_box_drawn_twice_in_a_row_whose_boxes_say_the_same_words_keeps_its_columns_heading() -> None:
    """Two columns of amount boxes under "Column A" and "Column B", each row's label at its left and
    the cents' "00" printed after the first box (so the second's label ends in it), the first box found
    twice (a ruled box, and the blank inside it): the row's boxes say the same words, the row does not
    tell them apart, and the first keeps its column's heading. (Among boxes with labels of their own, a
    box drawn twice is one field of its row: the caption strip test above.)"""
    words = [(430.0, 86.0, 470.0, 96.0, "Column"), (472.0, 86.0, 478.0, 96.0, "A"),
             (510.0, 86.0, 550.0, 96.0, "Column"), (552.0, 86.0, 558.0, 96.0, "B")]  # fmt: skip
    places: list[forms.Place] = []
    for row, label in enumerate(("Wages received", "Interest received", "Itemized deductions")):
        y = 100.0 + 30 * row
        places += [
            ((418.0, y, 482.0, y + 12), label, "text", None, None),
            ((418.0, y, 480.0, y + 11), label, "text", None, None),
            ((497.0, y, 562.0, y + 12), f"{label} 00", "text", None, None),
        ]
    labels = {place[0]: place[1] for place in forms._in_columns(places, words)}
    assert labels[(418.0, 160.0, 482.0, 172.0)] == "Itemized deductions, Column A"


def test_a_box_with_a_caption_at_each_end_is_the_room_between_them() -> None:
    """Rows of a bilingual form ruled into cells, each cell printing its caption at its left and the
    caption's twin at its right ("Date of Birth: ______ Geburtsdatum"): the room between them is the
    field, named by both."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y in (100, 120, 140):
            page.draw_line((40, y), (540, y), width=0.5)
        page.draw_line((290, 100), (290, 140), width=0.5)
        page.insert_text((44, 114), "Date of Birth:", fontsize=9)
        page.insert_text((230, 111), "Geburtsdatum", fontsize=8)
        page.insert_text((294, 114), "Place of Birth:", fontsize=9)
        page.insert_text((490, 111), "Geburtsort", fontsize=8)
        page.insert_text((44, 134), "Nationality:", fontsize=9)
        page.insert_text((230, 131), "Nationalität", fontsize=8)
        page.insert_text((294, 134), "Passport No:", fontsize=9)
        page.insert_text((470, 131), "Reisepass Nr.", fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.description, round(field.bbox.left * 595)) for field in fields] == [
        ("Date of Birth: Geburtsdatum [date]", 98),
        ("Place of Birth: Geburtsort", 351),
        ("Nationality: Nationalität", 89),
        ("Passport No: Reisepass Nr.", 347),
    ]


def test_a_tall_box_of_captions_spread_in_rows_is_no_pair_of_twin_captions() -> None:
    """A panel whose captions stand in two rows across it, wide apart ("AGE    HEIGHT    WEIGHT" over
    "EYES    SKIN    HAIR"): each caption of the top row names the room under it, and no blank lies
    between two captions of a row, named by a caption of each (that reading is for one row of a form,
    a box hardly taller than its words)."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(260, 46, 576, 106), width=0.5)
        for y, captions in ((70, ("AGE", "HEIGHT", "WEIGHT")), (100, ("EYES", "SKIN", "HAIR"))):
            for x, caption in zip((264, 380, 480), captions, strict=True):
                page.insert_text((x, y), caption, fontsize=7)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["AGE", "HEIGHT", "WEIGHT"]


def test_a_strip_of_captions_over_boxes_is_no_pair_of_twin_captions() -> None:
    """A snug strip printing captions wide apart ("City   State") over the empty boxes they name: the
    strip is no blank between them; the boxes under it are the fields."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(50, 100, 330, 112), width=0.5)
        page.insert_text((54, 109), "City", fontsize=7)
        page.insert_text((270, 109), "State", fontsize=7)
        page.draw_rect(pymupdf.Rect(50, 112, 266, 130), width=0.5)
        page.draw_rect(pymupdf.Rect(266, 112, 330, 130), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [(field.description, round(field.bbox.top * 842)) for field in fields] == [
        ("City", 112),
        ("State", 112),
    ]


def test_boxes_whose_captions_are_centred_under_them_take_the_caption_under_them() -> None:
    """Wide empty boxes in two columns, each with its caption centred flush under it and a hint line
    under the caption ("Ex. 28000-055555"), the next row's boxes a few points further down (a state
    agency's asset form): each box takes the caption centred under it, not the hint over it."""
    rows = [("Property Tag Number", "Service Tag Number"), ("Office Name", "Office Address")]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((36, 84), "Asset assignment", fontsize=12)
        for row, names in enumerate(rows):
            top = 100 + 60 * row
            for (x0, x1), name in zip(((34, 311), (325, 586)), names, strict=True):
                page.draw_rect(pymupdf.Rect(x0, top, x1, top + 26), width=0.5)
                width = pymupdf.get_text_length(name, fontsize=10)
                page.insert_text(((x0 + x1 - width) / 2, top + 26 + 11), name, fontsize=10)
                hint = "Ex. 500123456"
                width = pymupdf.get_text_length(hint, fontsize=10)
                page.insert_text(((x0 + x1 - width) / 2, top + 26 + 24), hint, fontsize=10)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == [name for names in rows for name in names]


def test_a_blank_typed_in_underscore_segments_a_space_apart_is_one_blank() -> None:
    """A merchant form's "Bank: ___ ___ ___ ___ ___ ___": each segment is too narrow to write on, the
    segments a space apart on their line are one blank, named by the label at their left."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y, (left, right) in ((100, ("Bank:", "Agent:")), (118, ("Corp.:", "Chain:"))):
            page.insert_text((72, y), left, fontsize=8)
            page.insert_text((97, y), " ".join(["___"] * 12), fontsize=8)
            page.insert_text((276, y), right, fontsize=8)
            page.insert_text((301, y), " ".join(["___"] * 12), fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Bank", "Agent", "Corp.", "Chain"]
    assert all(field.bbox.width * 595 > 150 for field in fields)  # the whole run of segments


def test_joining_underscore_segments_keeps_every_other_word_where_it_stood() -> None:
    """A page without a segmented blank keeps its words in their order, which decides which blank a
    label takes; a segmented blank's joined run stands where its first segment stood."""
    columns = [
        (300.0, 100.0, 340.0, 110.0, "Date:"),
        (50.0, 200.0, 90.0, 210.0, "Name:"),
        (50.0, 100.0, 90.0, 110.0, "Ref:"),
    ]
    assert forms._segments_joined(columns) == columns

    segmented = [
        (50.0, 100.0, 80.0, 110.0, "Bank:"),
        (90.0, 100.0, 110.0, 110.0, "___"),
        (113.0, 100.0, 133.0, 110.0, "___"),
        (50.0, 50.0, 80.0, 60.0, "Name:"),
    ]
    assert forms._segments_joined(segmented) == [
        segmented[0],
        (90.0, 100.0, 133.0, 110.0, "_______"),
        segmented[3],
    ]


def test_the_words_flush_under_a_line_are_its_captions_line_left_to_right() -> None:
    words = [
        (120.0, 101.0, 150.0, 109.0, "Date"),
        (50.0, 100.0, 110.0, 108.0, "Signature"),
        (50.0, 120.0, 110.0, 128.0, "Below"),
        (50.0, 80.0, 110.0, 88.0, "Above"),
    ]
    assert forms._flush_under(100.0, words, 10.0) == [words[1], words[0]]


def _widget(page: pymupdf.Page, name: str, rect: tuple[float, float, float, float]) -> None:
    widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
    widget.field_name, widget.field_type = name, pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.rect = pymupdf.Rect(rect)
    page.add_widget(widget)


def test_widgets_whose_captions_are_printed_flush_under_them_take_those_captions() -> None:
    """Widgets over rules with each caption under its rule, a heading over the first row: each widget
    is named by the caption under it, not by the line over it (the heading, or the row above's caption)."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((57, 130), "Personal details", fontsize=10)
        captions = (
            ("First name", "Surname"),
            ("Member number", "Place of birth"),
            ("IBAN", "Account holder"),
        )
        for row, pair in enumerate(captions):
            bottom = 155 + 36 * row
            for column, caption in enumerate(pair):
                x0 = 56 + 256 * column
                page.draw_line((x0 + 1, bottom - 2), (x0 + 227, bottom - 2), width=0.9)
                page.insert_text((x0 + 1, bottom + 9.5), caption, fontsize=9)
                _widget(page, f"Text{row}{column}", (x0, bottom - 19, x0 + 228, bottom))
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == [caption for pair in captions for caption in pair]


def test_a_caption_under_a_rule_drawn_inset_from_its_column_still_names_the_rule() -> None:
    """Rules drawn a few points in from the column where their captions start, one under the other:
    each caption under a rule names it, not the rule under it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((57, 130), "Personal details", fontsize=10)
        for row, caption in enumerate(("First name", "Member number", "IBAN")):
            y = 155 + 36 * row
            page.draw_line((60, y), (282, y), width=0.9)
            page.insert_text((57, y + 10), caption, fontsize=10)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["First name", "Member number", "IBAN"]
    assert all(field.bbox.top * 842 < 155 + 36 * row for row, field in enumerate(fields))


def test_a_border_across_the_page_under_a_stack_of_captioned_rules_leaves_them_captioned_under() -> None:
    """Rules whose left ends lie a few points apart, each over its captions set in the middle of its
    parts, and a line across the page right under the last captions closing the section: the captions
    under each rule name its parts."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((34, 80), "NAME AND ADDRESS", fontsize=11)
        rows = (
            (114.8, 34.1, 407.6, ((67, "(First)"), (173, "(Middle Initial)"), (319, "(Last)"))),
            (152.0, 31.7, 406.4, ((84, "(Number and Street)"), (315, "(Apt. No.)"))),
            (182.2, 34.4, 402.1, ((89, "(City)"), (214, "(State)"), (318, "(Zip Code)"))),
        )
        for y, x0, x1, captions in rows:
            page.draw_line((x0, y), (x1, y), width=0.7)
            for x, caption in captions:
                page.insert_text((x, y + 13), caption, fontsize=11)
        page.draw_line((29.4, 199.2), (569.2, 199.2), width=0.7)
        page.insert_text(
            (34, 240), "Signature of the party and the date on which the party signed", fontsize=11
        )
        fields = form_fields(bytes(document.tobytes()))
    named = [field.description for field in fields if field.bbox.top * 842 < 199]
    assert named[:3] == ["(First)", "(Middle Initial)", "(Last)"]
    assert "(City)" in named and "(Zip Code)" in named


def test_a_blank_run_with_one_caption_flush_under_it_takes_that_caption() -> None:
    """ "Your dependents ______  ______" over "How many dependents?" and "Total number of people": the
    first blank's caption joins its row's label, the second blank, with no label before it, is named
    by its caption alone."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((198, 342), "Your dependents", fontsize=9)
        page.insert_text((288, 342), "_" * 19, fontsize=9)
        page.insert_text((400, 341), "_" * 21, fontsize=9)
        page.insert_text((288, 351), "How many dependents?", fontsize=8)
        page.insert_text((400, 352), "Total number of people", fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    labels = [field.description for field in fields]
    assert labels == ["How many dependents?, Your dependents", "Total number of people"]


def test_a_run_before_a_box_that_holds_a_run_of_its_own_is_no_leader_to_it() -> None:
    """Two underscore blanks on a line, the second framed by a box: the first is a blank of its own
    (named by its label), not dots leading to the box, which keeps its own caption."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((198, 342), "Your dependents", fontsize=9)
        page.insert_text((288, 342), "_" * 19, fontsize=9)
        page.insert_text((400, 341), "_" * 21, fontsize=9)
        page.draw_rect(pymupdf.Rect(400, 332, 483, 344), color=(0, 0, 0), width=0.5)
        page.insert_text((288, 351), "How many dependents?", fontsize=8)
        page.insert_text((400, 352), "Total number of people", fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    runs = [field for field in fields if abs(field.bbox.left * 595 - 288) < 2 and field.bbox.top * 842 < 340]
    assert len(runs) == 1 and "Your dependents" in runs[0].description
    assert not any("How many" in field.description for field in fields if field.bbox.left * 595 > 390)


def test_a_row_box_with_one_caption_ending_in_a_colon_is_blank_after_it_however_tall_its_letters() -> None:
    """A one-row box whose caption ("SVP Name:") stands in big letters at its start: the rest of the row
    is the blank, even where the caption's letters are nearly as tall as the box."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(35, 181, 585, 197), color=(0, 0, 0), width=0.8)
        page.insert_text((40, 193), "SVP Name:", fontsize=14)
        page.draw_rect(pymupdf.Rect(35, 201, 585, 217), color=(0, 0, 0), width=0.8)
        page.insert_text((40, 213), "Region", fontsize=14)
        fields = form_fields(bytes(document.tobytes()))
    named = [field for field in fields if field.description == "SVP Name"]
    assert len(named) == 1 and named[0].bbox.left * 595 > 100 and named[0].bbox.width * 595 > 400
    assert not any(field.description == "Region" for field in fields)  # no colon: a caption strip


def test_a_widget_named_with_hex_escapes_and_no_printed_label_is_labelled_in_plain_letters() -> None:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        _widget(page, "Imi#C4#99 i nazwisko", (100, 100, 300, 118))
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Imię i nazwisko"]


def test_widgets_labelled_across_their_tops_keep_their_labels_though_the_next_label_hugs_them() -> None:
    """Widgets stacked with each label printed across the widget's top edge, the next row's label flush
    under the widget: none takes the next row's label from under it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, label in enumerate(("Site", "Date Submitted", "Last Name", "Address")):
            top = 114.5 + 20.5 * row
            page.insert_text((58, top + 1), label, fontsize=9)
            _widget(page, label, (56, top, 234, top + 12.8))  # named as its label: no name to fall back on
        fields = form_fields(bytes(document.tobytes()))
    labels = ["Site", "Date Submitted", "Last Name", "Address"]
    assert len(fields) == 4
    assert all(field.description != below for field, below in zip(fields, labels[1:], strict=False))


def test_rules_stepping_right_a_few_points_at_a_time_do_not_chain_into_one_column() -> None:
    """Rules whose left ends lie 3 points apart one to the next, 12 points from the first to the last,
    are no column of one left edge: a column reaches no further than twice the few points that join
    two rules from its leftmost."""
    rules = [(100.0, 72.0, 300.0), (130.0, 75.0, 300.0), (160.0, 78.0, 300.0), (190.0, 81.0, 300.0)]
    rules.append((220.0, 84.0, 300.0))
    columns = forms._left_aligned(rules)
    assert [[rule[1] for rule in column] for column in columns] == [[72.0, 75.0, 78.0], [81.0, 84.0]]
    assert forms._left_aligned([(100.0, 72.0, 300.0), (130.0, 70.0, 300.0)]) == [
        [(130.0, 70.0, 300.0), (100.0, 72.0, 300.0)]
    ]  # drawn 2 points apart: one column


def test_a_caption_hugging_under_a_box_reads_alike_with_the_pages_text_height_given_once() -> None:
    """The page's median word height, measured once and handed in, finds the caption under a box as
    measuring it for each box does."""
    words = [
        (72.0, 122.0, 100.0, 132.0, "Name", 0, 0, 0),
        (72.0, 152.0, 110.0, 162.0, "Vorname", 0, 1, 0),
    ]
    rect = (72.0, 105.0, 250.0, 121.0)
    assert forms._caption_hugging_under(rect, words) == "Name"
    assert forms._caption_hugging_under(rect, words, (), forms._text_height(words)) == "Name"


def _two_options_on_a_line() -> bytes:
    """A row of two square check boxes, each followed by its option, the second option a blank's label:
    "[ ] Ending of the previous membership of the relative   [ ] Other: ______"."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 80), "Reason for the request:", fontsize=10)
        page.draw_rect(pymupdf.Rect(72, 92, 80, 100))
        page.insert_text((84, 100), "Ending of the previous membership of the relative", fontsize=10)
        x = 84 + pymupdf.get_text_length("Ending of the previous membership of the relative", fontsize=10)
        page.draw_rect(pymupdf.Rect(x + 5, 92, x + 13, 100))
        page.insert_text((x + 17, 100), "Other:", fontsize=10)
        page.draw_line((x + 50, 101), (x + 130, 101))
        return bytes(document.tobytes())


def test_a_label_read_across_another_box_on_its_line_is_cut_at_that_box() -> None:
    fields = form_fields(_two_options_on_a_line())
    descriptions = sorted(field.description for field in fields)
    assert "Ending of the previous membership of the relative [check if it applies]" in descriptions
    assert "Other [check if it applies]" in descriptions
    blank = next(field for field in fields if field.type == "text")
    assert blank.description == "Other"


def _unit_closed_box() -> bytes:
    """A label before a box that prints only its unit at its right end: "Commission [        %]"."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 100), "Commission", fontsize=10)
        page.draw_rect(pymupdf.Rect(140, 88, 220, 104))
        page.insert_text((210, 100), "%", fontsize=10)
        page.insert_text((72, 140), "Rate", fontsize=10)
        page.draw_rect(pymupdf.Rect(140, 128, 220, 144))
        page.insert_text((176, 140), "%", fontsize=10)  # a sign in the middle: a heading, no blank
        return bytes(document.tobytes())


def test_a_box_closed_by_its_unit_is_a_blank_before_the_unit() -> None:
    fields = form_fields(_unit_closed_box())
    width = 595.0  # an A4 page
    commission = _by_description(fields, "Commission").bbox
    assert commission.left * width == pytest.approx(140, abs=2)
    assert (commission.left + commission.width) * width < 210
    in_rate_box = [
        field for field in fields if abs(field.bbox.left * width - 140) <= 2 and field.bbox.top > 0.14
    ]
    assert not in_rate_box  # its sign stands in the middle: no unit closing a blank


def _signature_lines() -> bytes:
    """Two signature lines side by side, each opened by a mark glued to its underscores ("»_____") and
    captioned under it a little further right ("Signature of Debtor 1"), a declaration above them."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=612, height=792)
        for x, who in ((150, "1"), (370, "2")):
            page.insert_text((x, 670), "Under penalty of perjury, I declare that", fontsize=7)
            page.insert_text((x, 679), "the information is true and correct.", fontsize=7)
            page.insert_text((x, 710), "\u00bb" + "_" * 38, fontsize=9)
            page.insert_text((x + 12, 722), f"Signature of Debtor {who}", fontsize=7)
        return bytes(document.tobytes())


def test_a_signature_line_opened_by_a_mark_is_named_by_its_caption_not_the_mark() -> None:
    fields = form_fields(_signature_lines())
    assert sorted(field.description for field in fields) == ["Signature of Debtor 1", "Signature of Debtor 2"]
    values = field_values([(f.key, f.description, f.type) for f in fields], "Signature of Debtor 2: Jane Roe")
    assert values == {_by_description(fields, "Signature of Debtor 2").key: "Jane Roe"}


def _rule_under_a_captioned_rule() -> bytes:
    """A rule inside a sentence with its caption under it ("By video conference at: ______" over
    "Video conference website"), and right under that caption a second rule with its own caption
    under it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page(width=612, height=792)
        page.insert_text((96, 185), "By video conference at:", fontsize=11)
        page.draw_line((235, 186), (540, 186), width=0.5)
        page.insert_text((260, 195), "Video conference website", fontsize=8)
        page.draw_line((133, 209), (540, 209), width=0.5)
        page.insert_text((159, 220), "Video conference log-in information, meeting ID, password", fontsize=8)
        return bytes(document.tobytes())


def test_a_rule_under_the_caption_of_the_rule_above_is_not_named_by_that_caption() -> None:
    fields = form_fields(_rule_under_a_captioned_rule())
    descriptions = sorted(field.description for field in fields)
    assert descriptions == [
        "Video conference log-in information, meeting ID, password",
        "Video conference website, By video conference at",
    ]
    values = field_values([(f.key, f.description, f.type) for f in fields], "Video conference website: x.org")
    (key,) = values
    (field,) = [field for field in fields if field.key == key]
    assert field.bbox.top * 792 < 186 < (field.bbox.top + field.bbox.height) * 792 + 1


def _options_before_a_blank(colon: bool) -> bytes:
    """A line of short options, each after its check box, then a blank for a number: "3.b. [ ] Apt.
    [ ] Ste. [ ] Flr. ______" (with `colon`, the last option reads "Flr.:")."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((60, 100), "3.b.", fontsize=10)
        x = 84.0
        for option in ("Apt.", "Ste.", "Flr.:" if colon else "Flr."):
            page.draw_rect(pymupdf.Rect(x, 92, x + 8, 100))
            page.insert_text((x + 11, 100), option, fontsize=10)
            x += 11 + pymupdf.get_text_length(option, fontsize=10) + 6
        page.draw_line((x, 101), (x + 90, 101))
        return bytes(document.tobytes())


@pytest.mark.parametrize("colon", [False, True])
def test_a_blank_after_a_run_of_one_word_options_keeps_them_all_unless_a_colon_ends_the_last(
    colon: bool,
) -> None:
    fields = form_fields(_options_before_a_blank(colon))
    (blank,) = [field for field in fields if field.type == "text"]
    assert blank.description == ("Flr." if colon else "3.b. Apt. Ste. Flr.")
    boxes = sorted(field.description for field in fields if field.type == "checkbox")
    assert len(boxes) == 3


def _foot_captioned_row(posts: bool) -> bytes:
    """A registration's row of open-topped cells: a rule drawn in pieces, one a cell, each with its
    caption printed on it; with `posts`, vertical rules rise from the pieces' ends well over the
    captions, the cells' tops left open."""
    cells = [(40.0, 120.0, "Plate Number"), (120.0, 230.0, "Title Number"), (230.0, 380.0, "Vehicle Make")]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for x0, x1, caption in cells:
            page.draw_line((x0, 300), (x1, 300), width=0.5)
            page.insert_text((x0 + 6, 298), caption, fontsize=9)
            if posts:
                page.draw_line((x1, 274), (x1, 300), width=0.5)
        return bytes(document.tobytes())


def test_captions_at_the_feet_of_open_topped_cells_name_the_room_over_them() -> None:
    fields = form_fields(_foot_captioned_row(posts=True))
    assert [field.description for field in fields] == ["Plate Number", "Title Number", "Vehicle Make"]
    for field in fields:  # the room is over the caption (A4: 842 points high), not on it
        assert (field.bbox.top + field.bbox.height) * 842 <= 298 - 8
        assert field.bbox.top * 842 >= 272


def test_captions_printed_on_a_rule_with_no_cell_walls_name_no_room_over_them() -> None:
    fields = form_fields(_foot_captioned_row(posts=False))
    assert all(field.bbox.top * 842 > 285 for field in fields)  # at most the rule's own rest after one


def _question_over_two_lines(question_mark: bool) -> bytes:
    """A benefits application's question wrapped over two lines, its answer a "$ ______" blank at the
    right end of the second line, far from the question's end, under a line that names other things."""
    end = "etc.?" if question_mark else "etc."
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        question = "5. What is the total amount you pay for rent, property taxes,"
        page.insert_text((54, 100), question, fontsize=10)
        page.insert_text((54, 113), f"homeowners insurance, {end}", fontsize=10)
        page.insert_text((480, 113), "$ ____________", fontsize=10)
        return bytes(document.tobytes())


def test_a_blank_after_a_mark_far_right_of_a_question_ending_on_its_line_is_named_by_the_question() -> None:
    (field,) = form_fields(_question_over_two_lines(question_mark=True))
    assert field.description.startswith("5. What is the total amount you pay")
    assert "homeowners insurance, etc.?" in field.description


def test_a_blank_after_a_mark_under_words_ending_in_no_question_keeps_the_line_above() -> None:
    (field,) = form_fields(_question_over_two_lines(question_mark=False))
    assert "homeowners" not in field.description


def test_a_rule_drawn_twice_is_one_field() -> None:
    """A form's rule with the edge of its widget baked over it (the same line drawn twice): one field."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((72, 96), "Name of the applicant", fontsize=9)
        for _ in range(2):
            page.draw_line((72, 120), (300, 120), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert [field.description for field in fields] == ["Name of the applicant"]


def test_rules_beside_a_stack_captioned_under_are_captioned_under_too() -> None:
    """Two rows of three rules, each rule's caption flush under it ("First Name", "Last Name", "SSN";
    "Spouse's First Name", ...), a wide section rule under the first column only: the rules of the middle
    and right columns, a stack of two with a rule under them, are named by the captions under them as
    the first column's are, not by the captions of the row above."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        notice = ("Keep this form for your records.", "Do not send it unless asked.", "See Instructions.")
        for x, text in zip((36, 280, 452), notice, strict=True):
            page.insert_text((x, 106), text, fontsize=8)
        rows = (
            (120, ["First Name", "Last Name", "SSN"]),
            (157, ["Spouse's First Name", "Spouse's Last Name", "Spouse's SSN"]),
        )
        for y, captions in rows:
            for x0, x1, caption in zip((36, 280, 452), (230, 433, 575), captions, strict=True):
                page.draw_line((x0, y), (x1, y), width=0.5)
                page.insert_text((x0 + 1, y + 8), caption, fontsize=8)
        page.draw_line((36, 176), (482, 176), width=0.5)
        page.insert_text((36, 186), "Part I Tax Return Information (whole dollars only)", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    by_place = {
        (round(field.bbox.left * 595), round((field.bbox.top + field.bbox.height) * 842)): field.description
        for field in fields
    }
    assert by_place[(280, 120)] == "Last Name"
    assert by_place[(280, 157)] == "Spouse's Last Name"
    assert by_place[(452, 157)] == "Spouse's SSN"


def test_a_date_written_in_groups_between_slashes_is_one_field_and_names_no_rule_after_it() -> None:
    """ "Fecha Nacimiento ___/___/___ Lugar ______": the three short rules parted by slashes are one
    field, the birth date's, and the place's rule after them is named "Lugar" alone."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((213, 300), "Fecha Nacimiento", fontsize=11)
        for x0, x1 in ((306, 332), (339, 359), (366, 390)):
            page.draw_line((x0, 301), (x1, 301), width=0.5)
        for x in (333, 360):
            page.insert_text((x, 300), "/", fontsize=11)
        page.insert_text((391, 300), "Lugar", fontsize=11)
        page.draw_line((421, 301), (538, 301), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    placed = sorted((round(field.bbox.left * 595), field.description) for field in fields)
    assert [description for _, description in placed] == ["Fecha Nacimiento [date]", "Lugar"]
    assert placed[0][0] < 310


def test_a_cell_with_its_label_at_its_left_and_a_line_of_room_under_it_is_filled_beside_the_label() -> None:
    """A table of cells 29 points tall, each with its label at the top left ("NOMBRE:"): the value goes
    right of the label, where a widget of the form sits; a cell with two lines of room under its label
    takes the value under it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y0, y1, label in ((113, 142, "NOMBRE:"), (150, 200, "OBSERVACIONES:")):
            page.draw_rect(pymupdf.Rect(92, y0, 516, y1), width=0.5)
            page.insert_text((95, y0 + 11), label, fontsize=10)
        fields = form_fields(bytes(document.tobytes()))
    name = _by_description(fields, "NOMBRE")
    notes = _by_description(fields, "OBSERVACIONES")
    assert name.bbox.left * 595 > 130 and name.bbox.top * 842 < 120  # beside the label
    assert notes.bbox.top * 842 > 160  # under the label


@pytest.mark.parametrize(("lines", "beside"), [(1.4, True), (1.6, False)])
def test_a_label_with_its_colon_takes_its_value_beside_it_under_one_and_a_half_lines_of_room(
    lines: float, beside: bool
) -> None:
    """A box with "NOMBRE:" at its top left: with room under the label for less than one and a half of
    its lines the value is written beside it, with more under it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((95, 124), "NOMBRE:", fontsize=10)
        (word,) = page.get_text("words")
        height = word[3] - word[1]
        page.draw_rect(pymupdf.Rect(92, word[1] - 1, 516, word[3] + lines * height), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    name = _by_description(fields, "NOMBRE")
    top = name.bbox.top * 842
    assert (top < word[3] - 1) is beside


def test_a_grid_row_of_labels_each_before_its_box_names_each_box_by_the_label_at_its_left() -> None:
    """A ruled grid whose rows run "Name: [ ] Abbreviation: [ ]": each empty cell takes the label ending
    in its colon in the cell at its left, not the row's first label."""
    columns = (66, 135, 375, 445, 526)
    rows = ((139, 153, "Name:", "Abbreviation:"), (153, 167, "Capital:", "Largest city:"))
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y0, y1, first, second in rows:
            for x0, x1 in pairwise(columns):
                page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), width=0.5)
            page.insert_text((70, y1 - 3), first, fontsize=9)
            page.insert_text((380, y1 - 3), second, fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    for label, x0 in (("Name", 135), ("Abbreviation", 445), ("Capital", 135), ("Largest city", 445)):
        field = _by_description(fields, label)
        assert abs(field.bbox.left * 595 - x0) < 3, label


def test_labels_stacked_each_ending_in_its_colon_in_a_frame_are_each_a_blank_after_its_colon() -> None:
    """A framed block under a shaded heading whose lines are labels with their colon and nothing after
    them ("Dénomination de l'entreprise :", "Forme juridique :", "Numéro SIREN :"): each is a blank on
    its line after the colon, though the longer label sits over the shorter one and the heading's
    edge runs right over the first."""
    labels = ("Dénomination de l'entreprise :", "Forme juridique :", "Numéro SIREN :")
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(29, 176, 567, 193), color=None, fill=(0.85, 0.85, 0.85))
        page.insert_text((228, 189), "Entreprise donatrice", fontsize=12)
        page.draw_rect(pymupdf.Rect(28, 194, 567, 274), width=0.5)
        for at, label in enumerate(labels):
            page.insert_text((34, 204 + 13.7 * at), label, fontsize=10)
        page.insert_text((34, 258), "N° " + "." * 20 + "  Rue " + "." * 120, fontsize=10)
        fields = form_fields(bytes(document.tobytes()))
    for at, label in enumerate(labels):
        field = _by_description(fields, label.rstrip(" :"))
        middle = (field.bbox.top + field.bbox.height / 2) * 842
        assert abs(middle - (200.5 + 13.7 * at)) < 6, label
        assert field.bbox.left * 595 > 34 + 5 * len(label) * 0.6  # after the label


@pytest.mark.parametrize(
    ("heading", "joined"),
    [
        ("D Current Year Amount (earned by taxpayer or received from entity)", True),
        ("exceeds the maximum insurance. Contact your employer", False),  # a paragraph's tail
    ],
)
def test_an_empty_cells_label_takes_its_columns_heading_but_no_paragraph_over_the_grid(
    heading: str, joined: bool
) -> None:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for y0, y1 in ((100, 130), (130, 145), (145, 160)):
            for x0, x1 in ((60, 120), (120, 420)):
                page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), width=0.5)
        page.insert_textbox(pymupdf.Rect(122, 101, 418, 129), heading, fontsize=8)
        page.insert_text((64, 141), "Line 1", fontsize=9)
        page.insert_text((64, 156), "Line 2", fontsize=9)
        fields = form_fields(bytes(document.tobytes()))
    first = next(field for field in fields if abs(field.bbox.top * 842 - 130) < 2)
    assert ("Current Year Amount" in first.description or "maximum" in first.description) is joined
    assert first.description.startswith("Line 1")


def test_a_columns_top_cell_heads_it_up_to_sixteen_words_not_seventeen() -> None:
    from docsvc.documents.forms import _HEADING_WORDS, _runs_on

    assert not _runs_on(" ".join(["Amount"] * _HEADING_WORDS))
    assert _runs_on(" ".join(["Amount"] * (_HEADING_WORDS + 1)))


def test_boxes_inside_a_frame_with_rounded_corners_are_fields_under_their_captions() -> None:
    """A row of boxes whose outer frame has rounded corners (drawn with curves, its straight sides
    stopping short of them) and whose walls are rules, under a section's frame: each box is a field, the
    room under its caption, as the corners close the frame a reader sees."""
    captions = ["Date of marriage", "Place of marriage", "Officiant number"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(50, 40, 570, 97), width=0.5, radius=0.1)
        page.insert_text((54, 60), "Examination of impediments to marriage", fontsize=8)
        page.draw_rect(pymupdf.Rect(50, 100, 570, 140), width=0.5, radius=0.1)
        for x in (210, 420):
            page.draw_line((x, 100), (x, 140), width=0.5)
        for x, text in zip((54, 214, 424), captions, strict=True):
            page.insert_text((x, 110), text, fontsize=8)
        content = bytes(document.tobytes())
        width, height = page.rect.width, page.rect.height
    fields = form_fields(content)
    place = _by_description(fields, "Place of marriage").bbox
    top, bottom = place.top * height, (place.top + place.height) * height
    assert place.left * width >= 210 and (place.left + place.width) * width <= 421
    assert top <= 116 and bottom >= 136  # the box's room under its caption, not a band at its foot
    assert [field.description.removesuffix(" [date]") for field in fields[-3:]] == captions


def test_colon_labels_over_a_row_of_boxes_parted_by_a_wall_rising_from_the_boxes_top_get_its_line() -> None:
    """Two colon labels side by side, a wall between them rising from the rule that tops a row of boxes
    (the rule drawn in pieces at the walls of the boxes under it): each label takes the room over the
    rule on its side, the pieces under one label, which runs on over their joint, being one line to
    write on."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.insert_text((55, 70), "Notice of the spouses' choice of surname", fontsize=8)
        page.insert_text((55, 90), "Spouse A's surname after the marriage:", fontsize=8)
        page.insert_text((315, 90), "Spouse B's surname after the marriage:", fontsize=8)
        page.draw_line((310, 80), (310, 110), width=0.5)
        for x0, x1 in ((50, 150), (150, 310), (310, 390), (390, 570)):
            page.draw_line((x0, 110), (x1, 110), width=0.5)
        for x in (50, 150, 390, 570):
            page.draw_line((x, 110), (x, 140), width=0.5)
        page.draw_line((50, 140), (570, 140), width=0.5)
        page.draw_line((50, 60), (570, 60), width=0.5)
        page.draw_line((50, 60), (50, 110), width=0.5)
        page.draw_line((570, 60), (570, 110), width=0.5)
        for x, text in (
            (55, "Surname is lawful"),
            (155, "Not established"),
            (315, "No authority"),
            (395, "Notes"),
        ):
            page.insert_text((x, 120), text, fontsize=8)
        content = bytes(document.tobytes())
    fields = form_fields(content)
    values = field_values(
        [(f.key, f.description, f.type) for f in fields], "Spouse B's surname after the marriage: Virtanen"
    )
    out = filled(content, [replace(field, value=values.get(field.key)) for field in fields])
    with pymupdf.open(stream=out, filetype="pdf") as document:
        hit = document[0].search_for("Virtanen")[0]
    assert hit.x0 >= 310 and hit.y0 >= 90 and hit.y1 <= 111


@pytest.mark.parametrize(("radius", "squared"), [(0.3, True), (0.33, False)])
def test_a_frames_corner_is_squared_up_to_a_radius_of_twelve_points(radius: float, squared: bool) -> None:
    """A box 40 points tall whose corners are rounded with a radius of 12 points closes at its corners,
    its cells fields under their captions; one of 13.2 points is no box's rounded corner."""
    captions = ["Date of marriage", "Place of marriage", "Officiant number"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(50, 40, 570, 97), width=0.5, radius=0.1)
        page.insert_text((54, 60), "Examination of impediments to marriage", fontsize=8)
        page.draw_rect(pymupdf.Rect(50, 100, 570, 140), width=0.5, radius=radius)
        for x in (210, 420):
            page.draw_line((x, 100), (x, 140), width=0.5)
        for x, text in zip((64, 224, 434), captions, strict=True):
            page.insert_text((x, 110), text, fontsize=8)
        content = bytes(document.tobytes())
        height = page.rect.height
    place = _by_description(form_fields(content), "Place of marriage").bbox
    assert (place.top * height >= 110 and (place.top + place.height) * height >= 136) is squared


@pytest.mark.parametrize(("side", "squared"), [(20, True), (19, False)])
def test_a_rounded_corner_is_squared_between_straight_sides_of_ten_points_at_least(
    side: int, squared: bool
) -> None:
    """A box of `side` points whose corners are rounded a quarter of it: sides of 10 points between its
    corners make a box, whose top rule then reaches its left edge; 9.5 points are a glyph's strokes."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        page.draw_rect(pymupdf.Rect(100, 100, 100 + side, 100 + side), width=0.5, radius=0.25)
        horizontal, _ = rules_of(page.get_drawings(), None, corners=True)
    top = [min(x0, x1) for y, x0, x1 in horizontal if abs(y - 100) < 0.5]
    assert (min(top) == pytest.approx(100)) is squared


def test_rows_of_a_ruled_stack_with_one_caption_and_no_colon_are_blank_after_it() -> None:
    """Rows of a stack of ruled rows, each a caption at its start and nothing after it ("Salesman",
    "Existing Supplier"): the rest of each row is its blank; a row whose caption has a box of its own
    after it ("Device | [      ]") leaves the value to that box, and a strip standing apart is none."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for top, caption in ((120, "Salesman"), (131, "Existing Supplier"), (142, "Region")):
            page.draw_rect(pymupdf.Rect(70, top, 525, top + 11), color=(0, 0, 0), width=0.5)
            page.insert_text((72, top + 8.5), caption, fontsize=8)
        page.draw_rect(pymupdf.Rect(70, 153, 160, 164), color=(0, 0, 0), width=0.5)
        page.draw_rect(pymupdf.Rect(160, 153, 525, 164), color=(0, 0, 0), width=0.5)
        page.insert_text((72, 161.5), "Device", fontsize=8)
        page.draw_rect(pymupdf.Rect(70, 200, 525, 211), color=(0, 0, 0), width=0.5)
        page.insert_text((72, 208.5), "Notes", fontsize=8)
        fields = form_fields(bytes(document.tobytes()))
    for caption in ("Salesman", "Existing Supplier"):
        (field,) = [field for field in fields if field.description == caption]
        assert field.bbox.left * 595 > 100 and field.bbox.width * 595 > 350
    (device,) = [field for field in fields if field.description.startswith("Device")]
    assert device.bbox.left * 595 >= 159
    assert not any(field.description == "Notes" for field in fields)  # a strip standing apart


def test_the_white_rows_of_a_form_striped_row_by_row_are_fields_as_the_shaded_ones() -> None:
    """A form shaded every other row, a caption at the left of each row: the white rows between the
    bands, and over the first and under the last, are rows to write in as the shaded ones are; a gap of
    another height between two bands is no row."""
    captions = ["Achternaam", "Voornamen", "Adres", "Postcode", "Telefoon"]
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, caption in enumerate(captions):
            top = 170 + 28 * row
            if row % 2:
                page.draw_rect(pymupdf.Rect(45, top, 542, top + 28), color=None, fill=(0.94, 0.94, 0.94))
            page.insert_text((53, top + 18), caption, fontsize=11)
        page.draw_rect(pymupdf.Rect(45, 400, 542, 428), color=None, fill=(0.94, 0.94, 0.94))
        page.draw_rect(pymupdf.Rect(45, 470, 542, 498), color=None, fill=(0.94, 0.94, 0.94))
        page.insert_text((53, 450), "Opmerking", fontsize=11)
        fields = form_fields(bytes(document.tobytes()))
    for caption in captions:
        (field,) = [field for field in fields if field.description == caption]
        assert field.bbox.width * 595 > 300
    assert not any(429 < field.bbox.top * 842 < 469 for field in fields)  # bands apart by 42 points


def test_white_boxes_with_their_captions_between_them_are_no_stripes() -> None:
    """Boxes filled white, each under its caption, the captions' rows as tall as the boxes: white is
    no shade, so the rows of captions between the boxes are no fields of their own."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for top, caption in ((512.5, "Straße"), (561.1, "PLZ"), (609.7, "Email")):
            page.insert_text((86, top - 2), caption, fontsize=10)
            box = pymupdf.Rect(84.5, top, 293.5, top + 23.3)
            page.draw_rect(box, color=None, fill=(1, 1, 1))
            page.draw_rect(pymupdf.Rect(85, top + 0.5, 293, top + 22.8), color=(1, 0, 0), width=0.5)
        fields = form_fields(bytes(document.tobytes()))
    assert sorted(round(field.bbox.top * 842) for field in fields) == [513, 561, 610]


def test_a_lone_caption_leaves_its_row_open_from_two_thirds_empty_and_stripes_allow_two_points() -> None:
    """The limits at their boundaries: a row's one caption leaving exactly two thirds of a 300-point row
    empty after it opens it, a point more of caption does not; bands 20 points tall apart by 22 points
    are stripes, by 22.5 not."""
    from docsvc.documents.forms import _leaves_row_open, _runs_of_stripes

    def caption(end: float) -> list[tuple[float, float, float, float, str]]:
        return [(0.0, 0.0, end, 10.0, "Salesman")]

    assert _leaves_row_open(caption(100.0), 0.0, 300.0)
    assert not _leaves_row_open(caption(101.0), 0.0, 300.0)
    bands = [(0.0, 0.0, 300.0, 20.0), (0.0, 42.0, 300.0, 62.0)]
    assert _runs_of_stripes(bands) == [bands]
    assert _runs_of_stripes([(0.0, 0.0, 300.0, 20.0), (0.0, 42.5, 300.0, 62.5)]) == []


def test_a_tint_of_099_is_white_and_a_caption_starts_a_row_within_its_first_fifth() -> None:
    """The limits at their boundaries: a band filled 0.99 grey is white, no stripe, 0.98 is a shade; a
    word starting at a fifth of a row's width starts the row, a point further does not."""
    from docsvc.documents.forms import _caption_at_left, _tints

    def band(grey: float) -> dict[str, object]:
        return {"fill": (grey, grey, grey), "color": None, "items": [("re", (0, 0, 300, 20))]}

    assert _tints([band(0.99)], None) == []
    assert _tints([band(0.98)], None) == [(0.0, 0.0, 300.0, 20.0)]
    row = (0.0, 0.0, 300.0, 20.0)
    assert _caption_at_left(row, [(60.0, 5.0, 90.0, 15.0, "Adres")])
    assert not _caption_at_left(row, [(61.0, 5.0, 91.0, 15.0, "Adres")])
