"""The pages of a stored file as pictures: page n of a PDF or an image, drawn by the document engine.

Only the page's drawing is made: its text is not read and no OCR runs. A page's picture changes only
with the file's bytes, so its tag (`etag`) is made of the file's sha256, the page and the resolution,
and a browser may keep it; once the file is inspected, its page count answers a page out of range
without drawing anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from docsvc.document_types import of_mime_type
from docsvc.domain.files import FileRecord, FileService
from docsvc.errors import NotFound, UnsupportedMediaType
from docsvc.tenancy import Tenant

PICTURE_DPI = 110  # a letter page is 935 x 1210 pixels: sharp on a screen, a few hundred KB


@dataclass(frozen=True)
class PagePicture:
    number: int
    page_count: int
    jpeg: bytes


class PagePainter(Protocol):
    """Draws a page of a tenant's stored file (the document reader function, or the engine itself)."""

    @property
    def supported(self) -> frozenset[str]: ...

    def picture(
        self, tenant: Tenant, file: FileRecord, document_type: str, number: int, dpi: int
    ) -> tuple[int, bytes | None]:
        """The page count, and page `number` as a JPEG (None when there is no such page)."""
        ...


class PagePictures:
    def __init__(self, files: FileService, painter: PagePainter) -> None:
        self._files, self._painter = files, painter

    def has_pictures(self, file: FileRecord) -> bool:
        """Whether the file's type has pages to draw (PDFs and images)."""
        document_type = of_mime_type(file.mime_type)
        return document_type is not None and document_type.name in self._painter.supported

    def page(self, tenant: Tenant, file_id: str, number: int) -> FileRecord:
        """The file whose page `number` may be drawn: 404 for no such file or a page out of its range
        (when its page count is known), 415 for a type without pages to draw."""
        file = self._files.get(tenant, file_id)
        if not self.has_pictures(file):
            kind = of_mime_type(file.mime_type)
            raise UnsupportedMediaType(
                f"'{file.filename}' ({kind.name if kind else file.mime_type}) has no pages to show as "
                "pictures; only PDFs and images do"
            )
        if number < 1 or (file.page_count is not None and number > file.page_count):
            raise _no_page(file, number, file.page_count)
        return file

    def etag(self, file: FileRecord, number: int) -> str:
        return f'"{file.sha256 or file.updated_at}-{number}-{PICTURE_DPI}"'

    def draw(self, tenant: Tenant, file: FileRecord, number: int) -> PagePicture:
        """Page `number` of `file` (from `page`) as a JPEG; 404 past its last page."""
        document_type = of_mime_type(file.mime_type)
        assert document_type is not None  # page() let only types with pictures through
        page_count, jpeg = self._painter.picture(tenant, file, document_type.name, number, PICTURE_DPI)
        if jpeg is None:
            raise _no_page(file, number, page_count)
        return PagePicture(number, page_count, jpeg)


def _no_page(file: FileRecord, number: int, page_count: int | None) -> NotFound:
    pages = f"; it has {page_count} page{'s' if page_count != 1 else ''}" if page_count is not None else ""
    return NotFound(f"'{file.filename}' has no page {number}{pages}")
