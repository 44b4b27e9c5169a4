"""Which reader reads which document type."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from docsvc.documents.engine import images, office, opendocument, outlook, pdf, spreadsheets, text
from docsvc.documents.engine.errors import UnsupportedDocument
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.readable import (
    HEIF_TYPES,
    IMAGE_TYPES,
    OFFICE_TYPES,
    OPENDOCUMENT_TYPES,
    OUTLOOK_TYPES,
    PDF_TYPES,
    READABLE_TYPES,
    SPREADSHEET_TYPES,
    TEXT_TYPES,
    unreadable_reason,
)

PageReader = Callable[[bytes, str, ParseOptions, int], Iterator[Page]]
PageCounter = Callable[[bytes, str], int]

_READERS: dict[frozenset[str], tuple[PageCounter, PageReader]] = {
    PDF_TYPES | IMAGE_TYPES: (pdf.count_pages, pdf.read_pages),
    HEIF_TYPES: (images.count_pages, images.read_pages),
    OFFICE_TYPES: (office.count_pages, office.read_pages),
    SPREADSHEET_TYPES: (spreadsheets.count_pages, spreadsheets.read_pages),
    OPENDOCUMENT_TYPES: (opendocument.count_pages, opendocument.read_pages),
    OUTLOOK_TYPES: (outlook.count_pages, outlook.read_pages),
    TEXT_TYPES: (text.count_pages, text.read_pages),
}
SUPPORTED_TYPES = READABLE_TYPES


def reader_for(kind: str) -> tuple[PageCounter, PageReader]:
    for kinds, reader in _READERS.items():
        if kind in kinds:
            return reader
    raise UnsupportedDocument(unreadable_reason(kind))
