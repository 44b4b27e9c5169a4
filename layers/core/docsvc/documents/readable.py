"""The document types the engine reads, by reader. Importable without the engine (PyMuPDF): a function
whose documents are read by another function knows what it may send there."""

from __future__ import annotations

from docsvc.document_types import CONVERSIONS

PDF_TYPES = frozenset({"pdf"})
IMAGE_TYPES = frozenset({"png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"})
HEIF_TYPES = frozenset({"heic", "heif"})  # photos decoded by pillow-heif, then OCR'd as any image
WORD_TYPES = frozenset({"docx", "docm", "dotx", "dotm"})
OFFICE_TYPES = WORD_TYPES | {"pptx"}
SPREADSHEET_TYPES = frozenset({"xlsx", "xlsm", "xltx", "xltm", "xlam", "xlsb", "xls", "ods", "ots"})
OOXML_SPREADSHEET_TYPES = frozenset({"xlsx", "xlsm", "xltx", "xltm", "xlam"})
OPENDOCUMENT_TYPES = frozenset({"odt", "ott", "odp"})
OUTLOOK_TYPES = frozenset({"msg"})
PLAIN_TYPES = frozenset({"txt", "md", "json", "xml", "yaml", "yml"})
TEXT_TYPES = PLAIN_TYPES | {"csv", "tsv", "html", "htm", "eml", "mhtml", "rtf", "svg"}
# The types whose pages the engine draws as pictures (the others have text, but no page as printed).
PICTURED_TYPES = PDF_TYPES | IMAGE_TYPES
READABLE_TYPES = tuple(
    sorted(
        PDF_TYPES
        | IMAGE_TYPES
        | HEIF_TYPES
        | OFFICE_TYPES
        | SPREADSHEET_TYPES
        | OPENDOCUMENT_TYPES
        | OUTLOOK_TYPES
        | TEXT_TYPES
    )
)


def unreadable_reason(kind: str) -> str:
    """Why a document of type `kind` cannot be read, and what to send instead."""
    if kind in CONVERSIONS:
        return f"'{kind}' documents cannot be read: {CONVERSIONS[kind]}"
    return f"'{kind}' documents are not read here; supported: {', '.join(READABLE_TYPES)}"
