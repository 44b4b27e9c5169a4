"""Pages drawn for models that take images: JPEGs within the providers' limits, only the pages asked."""

from __future__ import annotations

import io

import pymupdf
from docsvc.documents import engine
from docsvc.documents.engine import rendering
from PIL import Image


def test_a_huge_page_is_drawn_smaller_than_the_providers_limits() -> None:
    document = pymupdf.open()
    page = document.new_page(width=5000, height=3000)
    page.insert_text((72, 72), "a very large page", fontsize=200)

    image = rendering.page_jpeg(page, 300)

    with Image.open(io.BytesIO(image)) as drawn:
        assert drawn.format == "JPEG"
        assert max(drawn.size) <= rendering.MAX_SIDE
    assert len(image) <= rendering.MAX_BYTES


def test_a_letter_page_is_drawn_at_the_resolution_asked() -> None:
    document = pymupdf.open()
    page = document.new_page(width=612, height=792)

    with Image.open(io.BytesIO(rendering.page_jpeg(page, 100))) as drawn:
        assert drawn.size == (850, 1100)


def test_the_engine_draws_only_the_first_pages_asked_for() -> None:
    document = pymupdf.open()
    for number in range(3):
        document.new_page().insert_text((72, 72), f"page {number + 1}")
    options = engine.ParseOptions(dpi=96, images=2)

    pages = list(engine.parse_pages(document.tobytes(), "pdf", options))

    assert [page.image is not None for page in pages] == [True, True, False]
    assert pages[0].image is not None and pages[0].image.startswith(b"\xff\xd8")


def test_a_text_document_has_no_pictures() -> None:
    pages = list(engine.parse_pages(b"plain text", "txt", engine.ParseOptions(images=5)))

    assert [page.image for page in pages] == [None]
