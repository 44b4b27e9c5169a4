"""OCR of a page without a text layer (a scan, an image), with Tesseract through PyMuPDF.

PyMuPDF carries the OCR engine; Tesseract's language data is found at TESSDATA_PREFIX (the documents
layer's `/opt/tessdata` on AWS), else where PyMuPDF looks for it.
"""

from __future__ import annotations

import os
from functools import cache

import pymupdf

from docsvc.documents.engine.model import ParseOptions

MAX_OCR_PIXELS = 40_000_000  # a page is rendered for OCR at most this large (about 6300 x 6300)


def reason(error: Exception) -> str:
    """A library's error as one short line for a warning or a refusal."""
    text = " ".join(str(error).split())[:200]
    return text or type(error).__name__


@cache
def tessdata() -> str | None:
    """Where Tesseract's language data is: TESSDATA_PREFIX, else where PyMuPDF finds it, else None."""
    configured = os.environ.get("TESSDATA_PREFIX")
    if configured and os.path.isdir(configured):
        return configured
    try:
        found = pymupdf.get_tessdata()
    except Exception:
        return None
    return str(found) if found and os.path.isdir(found) else None


def ocr_textpage(
    page: pymupdf.Page, flags: int, options: ParseOptions, warnings: list[str]
) -> pymupdf.TextPage | None:
    """The page's text as OCR reads it, as a text page made with `flags`; None (with a warning) when
    OCR is not installed or fails."""
    location = tessdata()
    if location is None:
        warnings.append("the page has no text layer and OCR is not installed here; it was left empty")
        return None
    dpi = options.dpi
    area = page.rect.width * page.rect.height / (72 * 72)  # square inches
    if area <= 0:
        return None
    if area * dpi * dpi > MAX_OCR_PIXELS:
        dpi = max(int((MAX_OCR_PIXELS / area) ** 0.5), 1)
        warnings.append(f"the page is very large; OCR ran at {dpi} dpi")
    try:
        ocr: pymupdf.TextPage = page.get_textpage_ocr(
            flags=flags, language="eng", dpi=dpi, full=True, tessdata=location
        )
    except Exception as error:
        warnings.append(f"OCR failed: {reason(error)}")
        return None
    return ocr
