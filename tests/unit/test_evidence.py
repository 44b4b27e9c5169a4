"""Placing an extracted value's evidence among the words of its page."""

from __future__ import annotations

from docsvc.domain.evidence import Evidence, laid_out, locate, ocr_pages_laid_out, printed_forms, sources_tree

# Two lines: "Invoice number: INV-2041  Total: 12.00" and "Shipping 12.00 Order 2"
WORDS = [
    (0.10, 0.10, 0.20, 0.12, "Invoice"),
    (0.21, 0.10, 0.30, 0.12, "number:"),
    (0.31, 0.10, 0.40, 0.12, "INV-2041"),
    (0.60, 0.10, 0.66, 0.12, "Total:"),
    (0.67, 0.10, 0.72, 0.12, "12.00"),
    (0.10, 0.20, 0.20, 0.22, "Shipping"),
    (0.21, 0.20, 0.26, 0.22, "12.00"),
    (0.30, 0.20, 0.36, 0.22, "Order"),
    (0.37, 0.20, 0.38, 0.22, "2"),
]


def test_a_text_is_boxed_by_the_words_that_print_it() -> None:
    found = locate("INV-2041", WORDS)

    assert found is not None
    assert found.content == "INV-2041" and found.box == (0.31, 0.10, 0.40, 0.12)


def test_a_value_read_with_other_spacing_or_marks_is_still_found() -> None:
    found = locate("Invoice number", WORDS)
    joined = locate("INV 2041", WORDS)

    assert found is not None and found.content == "Invoice number:" and found.box == (0.10, 0.10, 0.30, 0.12)
    assert joined is not None and joined.content == "INV-2041"


def test_the_line_the_value_stands_in_picks_between_two_places_printing_it() -> None:
    found = locate("12.00", WORDS, context="Shipping 12.00")
    first = locate("12.00", WORDS)

    assert found is not None and found.box == (0.21, 0.20, 0.26, 0.22)
    assert first is not None and first.box == (0.67, 0.10, 0.72, 0.12)


def test_a_value_looked_for_by_its_form_is_never_a_piece_of_another_word() -> None:
    found = locate("2", WORDS)  # "2" is in "INV-2041" and "12.00": only the word "2" is it

    assert found is not None and found.content == "2" and found.box == (0.37, 0.20, 0.38, 0.22)
    assert locate("204", WORDS) is None


def test_the_place_nearest_a_sibling_value_is_taken() -> None:
    found = locate("12.00", WORDS, near=(0.10, 0.20, 0.20, 0.22))  # beside "Shipping"

    assert found is not None and found.box == (0.21, 0.20, 0.26, 0.22)


def test_a_text_not_printed_on_the_page_has_no_place() -> None:
    assert locate("INV-9999", WORDS) is None
    assert locate("", WORDS) is None


def test_numbers_are_looked_for_as_documents_print_them() -> None:
    forms = printed_forms(2400.0)

    assert {"2,400.00", "2400.00", "2.400,00", "2400,00", "2,400", "2400"} <= set(forms)
    assert printed_forms(True) == []


def test_the_sources_keep_the_output_shape_with_each_leaf_wrapped() -> None:
    output = {"number": "INV-2041", "po": None, "items": [{"name": "Shipping", "amount": 12.0}]}
    likelihoods = {"number": 0.98, "po": 0.0, "items": 0.8}
    evidence = {"number": Evidence(0, "INV-2041", "Invoice number: INV-2041")}

    tree = sources_tree(output, likelihoods, evidence, ["Invoice number: INV-2041 ..."], [WORDS])

    assert tree["number"]["source"]["anchor"] == {
        "kind": "pdf_bbox",
        "page": 1,
        "left": 0.31,
        "top": 0.10,
        "width": 0.09,
        "height": 0.02,
    }
    assert tree["number"]["likelihood"] == 0.98
    assert tree["po"] == {"value": None, "source": None, "likelihood": 0.0}
    item = tree["items"][0]
    assert item["amount"]["source"]["anchor"]["top"] == 0.20  # on the row of "Shipping", not "Total"
    assert item["amount"]["likelihood"] == 0.8


# A table read by OCR: "Tarifa Basica 1 30.00 30.00" and "Taxa 1 5.00 5.00", its accents lost.
ROWS = [
    (0.07, 0.49, 0.12, 0.50, "Tarifa"),
    (0.13, 0.49, 0.18, 0.50, "Basica"),
    (0.50, 0.49, 0.51, 0.50, "1"),
    (0.70, 0.49, 0.75, 0.50, "30.00"),
    (0.87, 0.49, 0.92, 0.50, "30.00"),
    (0.07, 0.54, 0.12, 0.55, "Taxa"),
    (0.50, 0.54, 0.51, 0.55, "1"),
    (0.70, 0.54, 0.74, 0.55, "5.00"),
    (0.87, 0.54, 0.91, 0.55, "5.00"),
]


def test_a_text_with_accents_is_found_where_ocr_printed_it_without_them() -> None:
    found = locate("Tarifa Básica", ROWS)

    assert found is not None and found.content == "Tarifa Basica" and found.box == (0.07, 0.49, 0.18, 0.50)


def test_the_values_of_a_row_printing_the_same_number_twice_are_on_their_own_words() -> None:
    items = [
        {"description": "Tarifa Básica", "quantity": 1.0, "unit_price": 30.0, "amount": 30.0},
        {"description": "Taxa", "quantity": 1.0, "unit_price": 5.0, "amount": 5.0},
    ]

    tree = sources_tree({"items": items}, {"items": 0.8}, {}, ["..."], [ROWS])

    first, second = tree["items"]
    assert first["unit_price"]["source"]["anchor"]["left"] == 0.70
    assert first["amount"]["source"]["anchor"]["left"] == 0.87
    assert second["amount"]["source"]["anchor"]["left"] == 0.87
    assert second["quantity"]["source"]["anchor"]["top"] == 0.54  # on its own row, not the first's


def test_two_items_never_share_the_word_of_a_value_they_both_hold() -> None:
    items = [{"name": "Shipping", "quantity": 1.0}, {"name": "Postage", "quantity": 1.0}]
    words = [(0.1, 0.1, 0.2, 0.12, "Shipping"), (0.5, 0.1, 0.51, 0.12, "1"), (0.5, 0.2, 0.51, 0.22, "1")]

    tree = sources_tree({"items": items}, {"items": 0.8}, {}, ["..."], [words])

    tops = [item["quantity"]["source"]["anchor"]["top"] for item in tree["items"]]
    assert tops == [0.1, 0.2]


def test_a_document_without_geometry_gives_the_page_of_the_text() -> None:
    tree = sources_tree({"number": "INV-7"}, {"number": 0.9}, {}, ["intro", "Invoice INV-7"], None)

    assert tree["number"]["source"] == {"content": "INV-7", "anchor": {"kind": "text", "page": 2}}


def test_a_currency_answered_as_its_code_is_found_where_its_sign_is_printed() -> None:
    words = [(0.1, 0.1, 0.2, 0.12, "571,04"), (0.21, 0.1, 0.23, 0.12, "€")]

    tree = sources_tree({"currency": "EUR"}, {"currency": 0.7}, {}, ["571,04 €"], [words])

    assert tree["currency"]["source"]["content"] == "€"


def test_words_are_laid_out_on_the_lines_they_are_printed_on_with_wide_gaps_kept() -> None:
    # OCR's blocks: the labels in one column, the values in another, both on the same heights
    words = [
        (0.10, 0.50, 0.25, 0.52, "Zahlbetrag"),
        (0.10, 0.40, 0.22, 0.42, "Steuerbetrag"),
        (0.70, 0.40, 0.76, 0.42, "56,87"),
        (0.70, 0.50, 0.77, 0.52, "529,87"),
        (0.10, 0.10, 0.18, 0.12, "Rechnung"),
        (0.19, 0.10, 0.22, 0.12, "Nr."),
        (0.23, 0.101, 0.30, 0.121, "471102"),
    ]

    assert laid_out(words) == "Rechnung Nr. 471102\n\nSteuerbetrag    56,87\n\nZahlbetrag    529,87"


def test_two_printed_lines_drawn_on_tall_overlapping_boxes_stay_two_lines() -> None:
    # OCR's text page draws each word on its line's box; two lines photographed a little turned have
    # boxes as tall as two lines, the second's middle within half a box of the first's
    words = [
        (0.30, 0.100, 0.45, 0.160, "CHEF"),
        (0.46, 0.100, 0.62, 0.160, "WANG"),
        (0.20, 0.125, 0.32, 0.185, "1902"),
        (0.33, 0.125, 0.52, 0.185, "Jericho"),
        (0.53, 0.125, 0.72, 0.185, "Turnpike"),
    ]

    assert laid_out(words) == "CHEF WANG\n1902 Jericho Turnpike"


def test_a_page_read_by_ocr_without_word_boxes_keeps_its_text() -> None:
    words = [(0.1, 0.1, 0.2, 0.12, "Total")]

    pages = ocr_pages_laid_out(["Chapter one\nIt begins.", "Total"], [(), words], [True, True])

    assert pages == ["Chapter one\nIt begins.", "Total"]


def test_only_the_pages_read_by_ocr_are_laid_out_anew() -> None:
    words = [(0.1, 0.1, 0.2, 0.12, "Total"), (0.6, 0.1, 0.7, 0.12, "9.00")]

    pages = ocr_pages_laid_out(["| Total | 9.00 |", "Total\n9.00"], [words, words], [False, True])

    assert pages == ["| Total | 9.00 |", "Total    9.00"]


def test_a_sum_given_with_its_tables_headings_is_placed_on_the_row_of_sums() -> None:
    words = [
        (0.1, 0.1, 0.2, 0.12, "Netto"),
        (0.3, 0.1, 0.4, 0.12, "VAT"),
        (0.1, 0.2, 0.2, 0.22, "1,49"),
        (0.3, 0.2, 0.4, 0.22, "1,49"),
        (0.0, 0.3, 0.05, 0.32, "Razem:"),
        (0.1, 0.3, 0.2, 0.32, "6,46"),
        (0.3, 0.3, 0.4, 0.32, "1,49"),
    ]

    found = locate("1,49", words, context="| Netto | VAT |  | Razem: | 6,46 | 1,49 |")

    assert found is not None and found.box == (0.3, 0.3, 0.4, 0.32)
