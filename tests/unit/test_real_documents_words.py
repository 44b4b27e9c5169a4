"""The real-document bench's word counts: words OCR read from a picture on a page that has a text
layer are counted apart from the text layer's repeated words."""

from __future__ import annotations

from bench.real_documents import fidelity, picture_words


def test_picture_words_on_an_ocr_page_are_not_counted_as_repeats() -> None:
    raw_pages = ["de la solicitud", "el formulario de la"]
    out_pages = ["de la solicitud", "el formulario de la\n\nde la fecha de"]
    picture = picture_words(raw_pages, out_pages, ocr_pages={1})
    scored = fidelity("\n\n".join(raw_pages), "\n\n".join(out_pages), picture)
    assert (scored.found, scored.repeated, scored.extra, scored.picture) == (7, 0, 0, 4)


def test_repeats_on_pages_read_without_ocr_still_count() -> None:
    raw_pages = ["de la solicitud", "el formulario"]
    out_pages = ["de la solicitud de la", "el formulario"]
    picture = picture_words(raw_pages, out_pages, ocr_pages=set())
    scored = fidelity("\n\n".join(raw_pages), "\n\n".join(out_pages), picture)
    assert (scored.repeated, scored.picture) == (2, 0)


def test_a_page_ocr_read_twice_over_its_text_layer_keeps_its_own_words_once() -> None:
    raw_pages = ["Nombre Apellidos"]
    out_pages = ["Nombre Apellidos Nombre"]
    picture = picture_words(raw_pages, out_pages, ocr_pages={0})
    scored = fidelity(raw_pages[0], out_pages[0], picture)
    assert (scored.found, scored.repeated, scored.picture) == (2, 0, 1)
