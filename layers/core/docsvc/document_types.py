"""Which kind of document a byte string is: by its content (magic bytes) first, its filename second."""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO

# Spec 4.2 `document_type`: every type the service accepts, with the MIME type it reports.
MIME_TYPES: dict[str, str] = {
    "bmp": "image/bmp",
    "csv": "text/csv",
    "doc": "application/msword",
    "docm": "application/vnd.ms-word.document.macroenabled.12",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "dotm": "application/vnd.ms-word.template.macroenabled.12",
    "dotx": "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
    "eml": "message/rfc822",
    "gif": "image/gif",
    "heic": "image/heic",
    "heif": "image/heif",
    "htm": "text/html",
    "html": "text/html",
    "jpeg": "image/jpeg",
    "jpg": "image/jpeg",
    "json": "application/json",
    "md": "text/markdown",
    "mhtml": "multipart/related",
    "msg": "application/vnd.ms-outlook",
    "odp": "application/vnd.oasis.opendocument.presentation",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "odt": "application/vnd.oasis.opendocument.text",
    "ots": "application/vnd.oasis.opendocument.spreadsheet-template",
    "ott": "application/vnd.oasis.opendocument.text-template",
    "pdf": "application/pdf",
    "png": "image/png",
    "ppt": "application/vnd.ms-powerpoint",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "rtf": "application/rtf",
    "svg": "image/svg+xml",
    "tif": "image/tiff",
    "tiff": "image/tiff",
    "tsv": "text/tab-separated-values",
    "txt": "text/plain",
    "webp": "image/webp",
    "xlam": "application/vnd.ms-excel.addin.macroenabled.12",
    "xls": "application/vnd.ms-excel",
    "xlsb": "application/vnd.ms-excel.sheet.binary.macroenabled.12",
    "xlsm": "application/vnd.ms-excel.sheet.macroenabled.12",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "xltm": "application/vnd.ms-excel.template.macroenabled.12",
    "xltx": "application/vnd.openxmlformats-officedocument.spreadsheetml.template",
    "xml": "application/xml",
    "yaml": "application/yaml",
    "yml": "application/yaml",
}
SUPPORTED_TYPES = tuple(sorted(MIME_TYPES))
# Accepted by upload, but no reader within the documents layer's size reads them: what to send instead.
CONVERSIONS = {
    "doc": "convert the .doc (Word 97-2003) to .docx or PDF and send that",
    "ppt": "convert the .ppt (PowerPoint 97-2003) to .pptx or PDF and send that",
}

_OLE_TYPES = {"doc", "xls", "ppt", "msg", "xlsb"}
_OOXML_FOLDERS = {"word/": "docx", "xl/": "xlsx", "ppt/": "pptx"}
_OPENDOCUMENT = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.text-template": "ott",
    "application/vnd.oasis.opendocument.spreadsheet-template": "ots",
}
_TEXT_TYPES = {"csv", "tsv", "txt", "md", "json", "xml", "yaml", "yml", "html", "htm", "eml", "svg", "mhtml"}
_SNIFF_BYTES = 8192


@dataclass(frozen=True, slots=True)
class DocumentType:
    name: str

    @property
    def mime_type(self) -> str:
        return MIME_TYPES[self.name]


def of_mime_type(mime_type: str | None) -> DocumentType | None:
    """The type a stored file of `mime_type` was detected as (the first name of the types that share
    it: jpeg for jpg, tif for tiff); None for a MIME type the service does not accept."""
    return next((DocumentType(name) for name, mime in MIME_TYPES.items() if mime == mime_type), None)


def extension_of(filename: str) -> str:
    return PurePosixPath(filename.lower()).suffix.lstrip(".")


def detect(content: bytes, filename: str = "", *, archive: IO[bytes] | None = None) -> DocumentType | None:
    """The document type of `content`, or None when it is not one the service accepts.

    `content` may be just the first kilobytes of a large file; then pass the whole file as `archive`
    (a seekable stream), which is read only when the content is a zip container (OOXML, OpenDocument).
    """
    extension = extension_of(filename)
    name = _by_magic(content, extension, archive) or _by_text(content, extension)
    return DocumentType(name) if name else None


def _by_magic(content: bytes, extension: str, archive: IO[bytes] | None) -> str | None:
    head = content[:64]
    start = content[:1024].find(b"%PDF-")
    if start == 0 or (start > 0 and (_binary_preamble(content[:start]) or _pdf_after_banner(content, start))):
        return "pdf"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpg" if extension != "jpeg" else "jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "tiff" if extension != "tif" else "tif"
    if head.startswith(b"BM") and _bitmap_header(head):
        return "bmp"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp" and head[8:12] in {b"heic", b"heix", b"mif1", b"msf1", b"heif"}:
        return "heif" if extension == "heif" else "heic"
    if head.startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return extension if extension in _OLE_TYPES else None
    if head.startswith(b"PK\x03\x04"):
        return _zip_type(archive or io.BytesIO(content), extension)
    return None


def _binary_preamble(prefix: bytes) -> bool:
    """Bytes before a PDF header that are not text (readers accept junk there), or only white space."""
    return not prefix.strip() or any(byte < 9 or 13 < byte < 32 for byte in prefix)


_PDF_HEADER_LINE = re.compile(rb"%PDF-\d\.\d[ \t]*[\r\n]")
_PDF_OBJECT = re.compile(rb"[\r\n]\s*\d{1,10}\s+\d{1,5}\s+obj\b")


def _pdf_after_banner(content: bytes, start: int) -> bool:
    """A PDF behind a few lines of text (a mail gateway's or a scanner's banner), as PDF readers accept
    within the first kilobyte: the header alone on its own line, and an object after it. Text that only
    mentions the header has neither."""
    return (
        content[start - 1 : start] in {b"\n", b"\r"}
        and _PDF_HEADER_LINE.match(content, start) is not None
        and _PDF_OBJECT.search(content, start, start + _SNIFF_BYTES) is not None
    )


def _bitmap_header(head: bytes) -> bool:
    """A BMP file header: reserved zeros, and a DIB header of a known size."""
    return (
        len(head) >= 18
        and head[6:10] == b"\x00\x00\x00\x00"
        and int.from_bytes(head[14:18], "little")
        in {
            12,
            16,
            40,
            52,
            56,
            64,
            108,
            124,
        }
    )


def _zip_type(source: IO[bytes], extension: str) -> str | None:
    try:
        source.seek(0)
        with zipfile.ZipFile(source) as archive:
            names = archive.namelist()
            if "mimetype" in names:
                return _OPENDOCUMENT.get(archive.read("mimetype")[:100].decode("ascii", "replace").strip())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, zlib.error):
        return None  # a damaged archive, or one compressed by a method zipfile does not know
    if "xl/workbook.bin" in names:
        return "xlsb"
    for folder, name in _OOXML_FOLDERS.items():
        if any(entry.startswith(folder) for entry in names):
            # A macro-enabled or template variant of the same family keeps its own extension.
            family = {
                "docx": {"docm", "dotm", "dotx"},
                "xlsx": {"xlsm", "xltm", "xltx", "xlam"},
                "pptx": set(),
            }
            return extension if extension in family[name] else name
    return None


def _by_text(content: bytes, extension: str) -> str | None:
    sample = content[:_SNIFF_BYTES]
    if not sample or b"\x00" in sample:
        return None
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(sample) - 4:  # not merely a character cut at the sample's end
            try:
                text = sample.decode("latin-1")
            except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
                return None
            if sum(ch.isprintable() or ch in "\r\n\t" for ch in text) < 0.95 * len(text):
                return None
        else:
            text = sample[: error.start].decode("utf-8")
    lead = text.lstrip("\ufeff \r\n\t").lower()
    if extension in _TEXT_TYPES and extension not in {"json", "txt"}:
        return extension
    if lead.startswith("<svg") or (lead.startswith("<?xml") and "<svg" in lead[:512]):
        return "svg"
    if lead.startswith(("<!doctype html", "<html")):
        return "html"
    if lead.startswith("<?xml"):
        return "xml"
    if lead.startswith(("{", "[")) and _is_json(content):
        return "json"
    if lead.startswith(("mime-version:", "received:", "from:", "return-path:", "delivered-to:")):
        return "eml"
    return extension if extension in _TEXT_TYPES else "txt"


def _is_json(content: bytes) -> bool:
    try:
        json.loads(content)
    except (ValueError, UnicodeDecodeError):
        return False
    except RecursionError:  # nested deeper than the parser goes: still JSON as far as its text shows
        return True
    return True
