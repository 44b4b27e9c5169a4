"""The document engine: pages of text from PDFs, images, Office files and text formats.

It runs in the functions that carry the documents layer (PyMuPDF, defusedxml). Every read happens in
an isolated child process with a time budget per page and a memory allowance (see `isolation`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from docsvc.documents.engine import isolation, ocr
from docsvc.documents.engine.errors import DocumentError, UnsupportedDocument
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.readers import SUPPORTED_TYPES, reader_for
from docsvc.documents.readable import PICTURED_TYPES

__all__ = ["SUPPORTED_TYPES", "DocumentError", "Page", "ParseOptions", "draw_page", "parse_pages"]


def parse_pages(
    content: bytes, kind: str, options: ParseOptions, on_count: Callable[[int], None] | None = None
) -> Iterator[Page]:
    """The pages in order. `on_count` is told the page count before any page is read and may refuse
    the document by raising. OCR languages that are not installed are refused first."""
    reader_for(kind)  # an unsupported type fails here, before a child is started
    ocr.check_languages(options.languages)
    return isolation.read_pages(content, kind, options, on_count)


def draw_page(content: bytes, kind: str, number: int, dpi: int, seconds: float) -> tuple[int, bytes | None]:
    """The page count, and page `number` (1-based) as a JPEG at `dpi` (None when there is no such
    page), drawn in a child within `seconds`; its text is not read. Only PDFs and images have pages
    to draw."""
    if kind not in PICTURED_TYPES:
        raise UnsupportedDocument(f"'{kind}' documents have no pages to draw; only PDFs and images do")
    return isolation.draw_page(content, kind, number, dpi, seconds)
