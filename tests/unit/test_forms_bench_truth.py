"""The form bench's truth gives each field the value its instruction line carries once read."""

from __future__ import annotations

import pymupdf

from bench.forms import CITIES, NAMES, STREETS, YES, forms_of, truth


def _form_with_a_short_field(length: int) -> bytes:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        widget = pymupdf.Widget()  # type: ignore[no-untyped-call]
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.field_name = widget.field_label = "Reference"
        widget.text_maxlen = length
        widget.rect = pymupdf.Rect(100, 100, 300, 120)
        page.add_widget(widget)
        return bytes(document.tobytes())


def test_a_value_cut_to_a_maximum_length_keeps_no_trailing_space() -> None:
    (given,) = truth(_form_with_a_short_field(7), "en")

    assert given.value == "Sample"


def test_a_value_within_the_maximum_length_is_given_whole() -> None:
    (given,) = truth(_form_with_a_short_field(20), "en")

    assert given.value == "Sample 1"


def test_every_language_of_the_forms_has_values_to_give() -> None:
    languages = {str(document["language"]) for document in forms_of("all")}

    for table in (YES, NAMES, CITIES, STREETS):
        assert languages <= set(table)
