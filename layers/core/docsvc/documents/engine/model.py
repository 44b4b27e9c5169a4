"""What the engine takes and gives: options in, pages out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from docsvc.documents.engine.tables import TableFormat
from docsvc.intelligence.paper import PageSize


@dataclass(frozen=True)
class ParseOptions:
    table_format: TableFormat = "markdown"
    dpi: int = 150
    page_seconds: float = 10.0
    languages: tuple[str, ...] | None = None  # Tesseract codes for OCR; None: English
    words: Literal["no", "also", "only"] = "no"  # each page's words with their boxes; "only": no text
    images: int = 0  # the first this many pages also come as a JPEG (PDFs and images only)
    ocr: bool = True  # False: pages are read from their text layer alone (a page read again after it overran)


# A word and where it is on the page as shown: left, top, right, bottom as fractions of the page's
# width and height (0-1, from its top-left corner), then the word.
WordBox = tuple[float, float, float, float, str]


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    text: str
    warnings: tuple[str, ...] = ()
    ocr_confidence: float | None = None  # mean word confidence (0-100) of an OCR'd page
    words: tuple[WordBox, ...] = ()  # when asked for, on pages of a PDF or an image
    image: bytes | None = None  # the page as a JPEG, when asked for and the type has pictures
    size: PageSize | None = None  # on pages of a PDF or an image; None where a type has no page size
