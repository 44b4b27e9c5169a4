"""What the engine takes and gives: options in, pages out."""

from __future__ import annotations

from dataclasses import dataclass

from docsvc.documents.engine.tables import TableFormat


@dataclass(frozen=True)
class ParseOptions:
    table_format: TableFormat = "markdown"
    dpi: int = 150
    page_seconds: float = 10.0
    languages: tuple[str, ...] | None = None  # Tesseract codes for OCR; None: English
    images: int = 0  # the first this many pages also come as a JPEG (PDFs and images only)


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    text: str
    warnings: tuple[str, ...] = ()
    ocr_confidence: float | None = None  # mean word confidence (0-100) of an OCR'd page
    image: bytes | None = None  # the page as a JPEG, when asked for and the type has pictures
