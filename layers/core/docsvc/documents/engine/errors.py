"""Why a document cannot be parsed. `code` is for machines, the message for people."""

from __future__ import annotations


class DocumentError(Exception):
    code = "unreadable_document"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnsupportedDocument(DocumentError):
    code = "unsupported_document"


class DamagedDocument(DocumentError):
    code = "damaged_document"


class EncryptedDocument(DocumentError):
    code = "encrypted_document"


class EmptyDocument(DocumentError):
    code = "empty_document"


class DecompressionLimit(DocumentError):
    """An archive or image that expands past what the service unpacks (a bomb, or simply too big)."""

    code = "decompression_limit"


class LanguageNotInstalled(DocumentError):
    """OCR was asked for a language whose Tesseract data this deployment does not carry."""

    code = "language_not_installed"
