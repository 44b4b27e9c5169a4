"""The real-document bench's check of source boxes: a box holds its text when the text layer's words
whose centre is inside it print that text, ligatures and accents folded; a box over a picture, with
no word of the text layer inside, is not judged."""

from __future__ import annotations

import pymupdf

from bench.real_extraction import _box_holds, right


def _anchor(page: pymupdf.Page, rect: pymupdf.Rect) -> dict[str, float]:
    width, height = page.rect.width, page.rect.height
    return {
        "left": rect.x0 / width,
        "top": rect.y0 / height,
        "width": rect.width / width,
        "height": rect.height / height,
    }


def _page_with(text: str, fontsize: float = 16) -> tuple[pymupdf.Document, pymupdf.Page, pymupdf.Rect]:
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 300), text, fontsize=fontsize)
    x0, y0, x1, y1, *_ = page.get_text("words")[0]
    return document, page, pymupdf.Rect(x0, y0, x1, y1)


def test_a_box_tight_around_the_ink_holds_the_word_whose_font_box_is_taller() -> None:
    document, page, word = _page_with("Silva")
    ink = pymupdf.Rect(
        word.x0, word.y0 + 0.2 * word.height, word.x1, word.y1 - 0.2 * word.height
    )  # as OCR boxes it

    assert _box_holds(page, _anchor(page, ink), "Silva") is True
    assert _box_holds(page, _anchor(page, ink), "Souza") is False
    document.close()


def test_a_word_read_without_its_accents_or_ligatures_is_the_printed_word() -> None:
    document, page, word = _page_with("Joao")
    assert _box_holds(page, _anchor(page, word), "João") is True
    document.close()


def test_a_box_over_no_word_of_the_text_layer_is_not_judged() -> None:
    document, page, _ = _page_with("Silva")
    assert _box_holds(page, _anchor(page, pymupdf.Rect(300, 600, 400, 650)), "Wetalkie") is None
    document.close()


def test_a_vat_id_printed_in_groups_is_right_against_its_digits_and_an_invoice_numbers_hyphens_count() -> (
    None
):
    assert right("issuer.vat_id", "701-00-25-169", "7010025169")
    assert right("iban", "PL61 1090.1014-0000 0712 1981 2874", "PL61109010140000071219812874")
    assert not right("invoice_number", "2019-17", "201917")
