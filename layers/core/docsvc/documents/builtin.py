"""The built-in parse engine behind the domain's Engine port: PyMuPDF and the standard library.

Engine errors become DocumentRejected: 415 for a type it does not read, 413 for what expands past
the caps, 400 for damaged, encrypted or empty documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from docsvc.documents import engine
from docsvc.domain.documents import SourceDocument
from docsvc.domain.parses import ParsedPage, ReadOptions
from docsvc.errors import DocumentRejected
from docsvc.tenancy import Tenant

DRAW_SECONDS = 10.0  # a page's drawing, as a page's reading is given
_STATUS = {"unsupported_document": 415, "decompression_limit": 413, "language_not_installed": 422}


def _rejected(error: engine.DocumentError) -> DocumentRejected:
    return DocumentRejected(error.code, error.message, _STATUS.get(error.code, 400))


class BuiltinEngine:
    """Reads documents in this process (with the engine's children)."""

    supported = engine.SUPPORTED_TYPES

    def pages(
        self, tenant: Tenant, document: SourceDocument, options: ReadOptions, on_count: Callable[[int], None]
    ) -> Iterator[ParsedPage]:
        """`on_count` refuses documents over `options.max_pages` before a page is read; OCR languages
        that are not installed are refused (422) before anything is read."""
        read = engine.ParseOptions(
            table_format=options.table_format,
            dpi=options.dpi,
            page_seconds=options.page_seconds,
            languages=options.languages,
            words=options.words,
            images=options.images,
        )
        try:
            yield from engine.parse_pages(document.content, document.document_type.name, read, on_count)
        except engine.DocumentError as error:
            raise _rejected(error) from None

    def draw(self, document: SourceDocument, number: int, dpi: int) -> tuple[int, bytes | None]:
        """The page count and page `number` as a JPEG (None past the last page); 415 for a type without
        pages to draw (only PDFs and images have them)."""
        try:
            return engine.draw_page(document.content, document.document_type.name, number, dpi, DRAW_SECONDS)
        except engine.DocumentError as error:
            raise _rejected(error) from None
