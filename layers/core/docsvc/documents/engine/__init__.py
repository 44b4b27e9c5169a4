"""The document engine: pages of text from PDFs, images, Office files and text formats.

It runs in the functions that carry the documents layer (PyMuPDF, defusedxml). Every read happens in
an isolated child process with a time budget per page and a memory allowance (see `isolation`).
"""

from __future__ import annotations

from collections.abc import Iterator

from docsvc.documents.engine import isolation
from docsvc.documents.engine.errors import DocumentError
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.readers import SUPPORTED_TYPES, reader_for

__all__ = ["SUPPORTED_TYPES", "DocumentError", "Page", "ParseOptions", "count_pages", "parse_pages"]


def count_pages(content: bytes, kind: str, seconds: float = 10.0) -> int:
    reader_for(kind)  # an unsupported type fails here, before a child is started
    return isolation.count_pages(content, kind, seconds)


def parse_pages(
    content: bytes, kind: str, options: ParseOptions, page_count: int | None = None
) -> Iterator[Page]:
    """The pages in order; with `page_count` known, long documents are read on every core."""
    reader_for(kind)
    return isolation.read_pages(content, kind, options, page_count)
