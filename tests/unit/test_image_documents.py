"""An image opened as a document: its page has no content stream, and reading it must not ask for one;
its page is its pixels at its resolution, or at the parse's when its tag makes it larger
than any paper."""

import io

import pymupdf
import pytest
from docsvc.documents import engine
from docsvc.documents.engine import errors, pdf
from docsvc.intelligence.paper import on_paper
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


def _picture(size: tuple[int, int], dpi: int | None, format: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    picture = Image.new("RGB", size, "white")
    if dpi is None:
        picture.save(buffer, format=format)
    else:
        picture.save(buffer, format=format, dpi=(dpi, dpi))
    return buffer.getvalue()


def _size(content: bytes, kind: str) -> tuple[float, float] | None:
    (page,) = pdf.read_pages(content, kind, engine.ParseOptions(words="only"))
    return page.size


def test_a_photo_tagged_larger_than_any_paper_is_drawn_at_its_own_pixels() -> None:
    # a phone's 3000 x 4000 photo tagged 72 dpi "is" 42 x 56 inches: set at the parse's 150 dpi
    default = engine.ParseOptions().dpi
    for kind, format in (("png", "PNG"), ("jpeg", "JPEG"), ("tiff", "TIFF")):
        assert _size(_picture((3000, 4000), 72, format), kind) == (3000 * 72 / default, 4000 * 72 / default)
    # tagged 30 dpi, MuPDF sets it at 72 (27 inches long): its pixels are the measure, not its tag
    assert _size(_picture((1000, 2000), 30), "png") == (1000 * 72 / default, 2000 * 72 / default)


def test_a_picture_without_a_resolution_is_taken_at_96_dpi_and_set_on_paper_by_it() -> None:
    # a small photo is drawn larger than its pixels, as before (its small print reads better so); a
    # large one, 31 inches long at 96 dpi, at its own pixels
    assert _size(_picture((750, 1000), None), "png") == (562.5, 750.0)
    assert _size(_picture((750, 1000), None), "webp") == (562.5, 750.0)
    default = engine.ParseOptions().dpi
    assert _size(_picture((2250, 3000), None), "png") == (2250 * 72 / default, 3000 * 72 / default)


def test_a_believable_resolution_keeps_the_picture_on_its_paper() -> None:
    a4 = _size(_picture((2480, 3508), 300), "png")
    assert a4 is not None and on_paper(a4)
    assert _size(_picture((800, 1000), 72), "png") == (800.0, 1000.0)  # 11 x 14 inches: a sheet's size


def test_a_roll_longer_than_any_paper_scanned_finer_than_the_parse_keeps_its_resolution() -> None:
    # 20 inches of till roll at 300 dpi: drawn at 150 dpi it is half its pixels already
    assert _size(_picture((900, 6000), 300), "png") == (216.0, 1440.0)


def test_a_picture_set_at_another_resolution_draws_the_same_pixels() -> None:
    picture = Image.new("RGB", (1200, 1600), "white")
    ImageDraw.Draw(picture).rectangle((100, 200, 700, 260), fill="black")
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG", dpi=(72, 72))
    with pdf._open(buffer.getvalue(), "png") as document:
        drawn = document[0].get_pixmap(dpi=engine.ParseOptions().dpi, colorspace=pymupdf.csGRAY)
    assert (drawn.width, drawn.height) == picture.size
    assert drawn.samples == picture.convert("L").tobytes()


def test_a_picture_at_the_parse_resolution_is_kept_though_its_tag_is_not_whole() -> None:
    # PNG keeps dots per metre: 150 dpi is 5906 (150.01), and MuPDF's page side is a 24-bit float
    picture = _picture((2642, 1500), 150)
    with pdf._open(picture, "png") as document:
        assert not document.is_pdf  # the image document itself, not a copy set at another size


def test_a_truncated_picture_is_counted_and_refused_as_damaged_when_read() -> None:
    """Counting pages decodes no picture; reading a truncated one fails as a damaged document, not
    with MuPDF's own error."""
    truncated = _picture((3000, 4000), 72)[:5000]

    assert pdf.count_pages(truncated, "png") == 1
    with pytest.raises(errors.DamagedDocument, match="the PNG could not be"):
        list(pdf.read_pages(truncated, "png", engine.ParseOptions(words="only")))


def test_counting_a_picture_larger_than_any_paper_does_not_resize_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def resized(document: pymupdf.Document) -> pymupdf.Document:
        raise AssertionError("resized to be counted")

    monkeypatch.setattr(pdf, "_at_believable_resolution", resized)

    assert pdf.count_pages(_picture((3000, 4000), 72, "TIFF"), "tiff") == 1
