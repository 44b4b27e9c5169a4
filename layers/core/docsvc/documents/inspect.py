"""Inspection of stored bytes: type by content, page count, and the embedding. Uses PyMuPDF, so only
functions with the documents layer import this module.

What a page is here: a PDF page; a frame of a TIFF; an image is one page; a PowerPoint slide; an Excel
sheet; a Word document's page count as its author's application recorded it. Text formats have none.
"""

from __future__ import annotations

import logging
import re
import zipfile
from typing import IO

import pymupdf

from docsvc.document_types import DocumentType, detect
from docsvc.domain.embeddings import embed
from docsvc.domain.files import Inspection

_log = logging.getLogger(__name__)
_IMAGES = {"png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"}
_TEXT = {"txt", "md", "csv", "tsv", "json", "xml", "yaml", "yml", "html", "htm", "eml", "svg", "mhtml"}
_EMBEDDED_PAGES = 20
_EMBEDDED_TEXT_BYTES = 256 * 1024
_TAG = re.compile(rb"<[^>]+>")

pymupdf.TOOLS.mupdf_display_errors(False)


def inspect_document(stream: IO[bytes], filename: str, sha256: str, size_bytes: int) -> Inspection:
    document = detect(stream.read(8192), filename, archive=stream)
    stream.seek(0)
    page_count: int | None = None
    text = ""
    try:
        page_count, text = _read(document, stream)
    except Exception as error:  # a damaged document still gets its checksum and type recorded
        _log.warning(
            "could not read document",
            extra={"type": document.name if document else None, "error": type(error).__name__},
        )
    return Inspection(
        mime_type=document.mime_type if document else None,
        size_bytes=size_bytes,
        sha256=sha256,
        page_count=page_count,
        embedding=embed(f"{filename}\n{text}"),
    )


def _read(document: DocumentType | None, stream: IO[bytes]) -> tuple[int | None, str]:
    if document is None:
        return None, ""
    if document.name == "pdf" or document.name in _IMAGES:
        with pymupdf.open(stream=stream.read(), filetype=document.name) as doc:
            if doc.needs_pass:
                return None, ""
            pages = [doc[number].get_text() for number in range(min(doc.page_count, _EMBEDDED_PAGES))]
            return doc.page_count, "\n".join(pages)
    if document.name in _TEXT:
        return None, stream.read(_EMBEDDED_TEXT_BYTES).decode("utf-8", "replace")
    if document.name in {"docx", "docm", "dotx", "dotm", "xlsx", "xlsm", "xltx", "xltm", "pptx"}:
        with zipfile.ZipFile(stream) as archive:
            return _office_pages(document.name, archive), _office_text(archive)
    return None, ""


def _office_pages(name: str, archive: zipfile.ZipFile) -> int | None:
    names = archive.namelist()
    if name == "pptx":
        return sum(1 for entry in names if re.fullmatch(r"ppt/slides/slide\d+\.xml", entry))
    if name.startswith("xl"):
        return archive.read("xl/workbook.xml").count(b"<sheet ") if "xl/workbook.xml" in names else None
    if "docProps/app.xml" in names:
        found = re.search(rb"<Pages>(\d+)</Pages>", archive.read("docProps/app.xml"))
        return int(found.group(1)) if found else None
    return None


def _office_text(archive: zipfile.ZipFile) -> str:
    parts = [
        entry
        for entry in archive.namelist()
        if re.fullmatch(r"(word/document|ppt/slides/slide\d+|xl/sharedStrings)\.xml", entry)
    ]
    budget = _EMBEDDED_TEXT_BYTES
    chunks: list[str] = []
    for entry in parts:
        with archive.open(entry) as member:
            raw = member.read(budget)
        budget -= len(raw)
        chunks.append(_TAG.sub(b" ", raw).decode("utf-8", "replace"))
        if budget <= 0:
            break
    return " ".join(chunks)
