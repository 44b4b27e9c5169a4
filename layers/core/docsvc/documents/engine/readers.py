"""Which reader reads which document type."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from docsvc.documents.engine import office, pdf, text
from docsvc.documents.engine.errors import UnsupportedDocument
from docsvc.documents.engine.model import Page, ParseOptions

PageReader = Callable[[bytes, str, ParseOptions, int], Iterator[Page]]
PageCounter = Callable[[bytes, str], int]

_READERS: dict[frozenset[str], tuple[PageCounter, PageReader]] = {
    frozenset({"pdf"}) | pdf.IMAGE_TYPES: (pdf.count_pages, pdf.read_pages),
    office.OFFICE_TYPES: (office.count_pages, office.read_pages),
    text.TEXT_TYPES: (text.count_pages, text.read_pages),
}
SUPPORTED_TYPES = tuple(sorted(kind for kinds in _READERS for kind in kinds))


def reader_for(kind: str) -> tuple[PageCounter, PageReader]:
    for kinds, reader in _READERS.items():
        if kind in kinds:
            return reader
    raise UnsupportedDocument(
        f"'{kind}' documents are not read here; supported: {', '.join(SUPPORTED_TYPES)}"
    )
