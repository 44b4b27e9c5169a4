"""The built-in parse engine behind the domain's Engine port: PyMuPDF and the standard library.

Engine errors become DocumentRejected: 415 for a type it does not read, 413 for what expands past
the caps, 400 for damaged, encrypted or empty documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from docsvc.documents import engine
from docsvc.domain.documents import SourceDocument
from docsvc.domain.evidence import Words
from docsvc.domain.parses import ParsedPage, TableFormat
from docsvc.errors import DocumentRejected
from docsvc.tenancy import Tenant

_STATUS = {"unsupported_document": 415, "decompression_limit": 413, "language_not_installed": 422}


def _rejected(error: engine.DocumentError) -> DocumentRejected:
    return DocumentRejected(error.code, error.message, _STATUS.get(error.code, 400))


class BuiltinEngine:
    """Reads documents in this process (with the engine's children)."""

    supported = engine.SUPPORTED_TYPES

    def pages(
        self,
        tenant: Tenant,
        document: SourceDocument,
        table_format: TableFormat,
        dpi: int,
        page_seconds: float,
        on_count: Callable[[int], None],
        max_pages: int,
        languages: Sequence[str] | None = None,
        words: Words = "no",
        images: int = 0,
    ) -> Iterator[ParsedPage]:
        """`on_count` refuses documents over `max_pages` before a page is read; OCR languages that are
        not installed are refused (422) before anything is read. The first `images` pages of a PDF or
        an image come with their picture (JPEG)."""
        options = engine.ParseOptions(
            table_format=table_format,
            dpi=dpi,
            page_seconds=page_seconds,
            languages=tuple(languages) if languages else None,
            words=words,
            images=images,
        )
        try:
            yield from engine.parse_pages(document.content, document.document_type.name, options, on_count)
        except engine.DocumentError as error:
            raise _rejected(error) from None
