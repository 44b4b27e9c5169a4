"""An image opened as a document: its page has no content stream, and reading it must not ask for one."""

import io

from docsvc.documents import engine
from docsvc.documents.engine import pdf
from PIL import Image, ImageDraw


def _png() -> bytes:
    picture = Image.new("RGB", (400, 120), "white")
    ImageDraw.Draw(picture).text((20, 40), "SUMME 12,34", fill="black")
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()


def test_an_image_page_is_read_without_measuring_a_content_stream() -> None:
    options = engine.ParseOptions(table_format="markdown", words="also")
    pages = list(pdf.read_pages(_png(), "png", options))
    assert [page.number for page in pages] == [1]
    assert not any("could not" in warning for warning in pages[0].warnings)
