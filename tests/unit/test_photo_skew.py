"""The skew of a photographed sheet, measured on the print inside its paper (`images.paper_skew`): the
whole rendering's measure (`ocr.skew_of`) takes a dark background for ink and finds every turn level."""

from __future__ import annotations

import pymupdf
from docsvc.documents.engine import images, ocr

DPI = 150


def _sheet(turned: float, background: int | None) -> pymupdf.Pixmap:
    """A receipt's lines of text drawn at DPI, turned `turned` degrees counter-clockwise, on a dark
    table of grey `background` around it (none: the sheet fills the rendering, as a scan does)."""
    from PIL import Image

    document = pymupdf.open()
    page = document.new_page(width=220, height=400)
    for number in range(14):
        page.insert_text((20, 40 + 24 * number), "SUBTOTAL 48.20 TAX 3.86", fontsize=12, fontname="cour")
    scale = DPI / 72
    drawn = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csGRAY, alpha=False)
    sheet = ocr._grey(drawn).rotate(turned, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    if background is None:
        picture = sheet
    else:
        picture = Image.new("L", (sheet.width * 2, int(sheet.height * 1.4)), background)
        mask = Image.new("L", (drawn.width, drawn.height), 255).rotate(turned, expand=True)
        picture.paste(sheet, (sheet.width // 2, sheet.height // 5), mask)
    return pymupdf.Pixmap(pymupdf.csGRAY, picture.width, picture.height, picture.tobytes(), False)


def test_a_photographed_sheets_skew_is_measured_on_its_paper_where_the_whole_rendering_finds_none() -> None:
    for turned in (3.0, -2.0):
        photo, scan = _sheet(turned, background=35), _sheet(turned, background=None)

        assert abs(ocr.skew_of(photo)) < ocr.MIN_SKEW  # the background levels nothing
        assert abs(ocr.skew_of(scan)) >= abs(turned) - 0.3  # the same sheet alone is measured
        assert abs(images.paper_skew(photo) - ocr.skew_of(scan)) <= 0.3


def test_a_rendering_that_is_all_paper_is_left_to_the_whole_renderings_measure() -> None:
    assert images.paper_skew(_sheet(3.0, background=None)) is None
