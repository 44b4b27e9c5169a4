"""The document types the engine reads, by reader. Importable without the engine (PyMuPDF): a function
whose documents are read by another function knows what it may send there."""

from __future__ import annotations

PDF_TYPES = frozenset({"pdf"})
IMAGE_TYPES = frozenset({"png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"})
OFFICE_TYPES = frozenset({"docx", "xlsx", "pptx"})
PLAIN_TYPES = frozenset({"txt", "md", "json", "xml", "yaml", "yml"})
TEXT_TYPES = PLAIN_TYPES | {"csv", "tsv", "html", "htm", "eml"}
READABLE_TYPES = tuple(sorted(PDF_TYPES | IMAGE_TYPES | OFFICE_TYPES | TEXT_TYPES))
