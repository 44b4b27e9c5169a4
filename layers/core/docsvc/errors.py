"""Domain errors. The API layer maps each to its HTTP status with `{"detail": message}`."""

from __future__ import annotations


class DomainError(Exception):
    status_code = 400
    code = "bad_request"  # for machines: a failed background run carries it in `error.code`

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(DomainError):
    status_code = 400


class Unauthorized(DomainError):
    code = "unauthorized"
    status_code = 401


class NotFound(DomainError):
    code = "not_found"
    status_code = 404


class Conflict(DomainError):
    code = "conflict"
    status_code = 409


class PayloadTooLarge(DomainError):
    code = "too_large"
    status_code = 413


class UnsupportedMediaType(DomainError):
    code = "unsupported_document"
    status_code = 415


class InvalidField(DomainError):
    code = "validation_error"
    """A field's value breaks a rule the schema cannot express: answered as a 422 naming the field."""

    status_code = 422

    def __init__(self, location: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.location = location


class DocumentRejected(DomainError):
    """A document the service cannot read: damaged, encrypted, empty, too long, of an unread type.

    Each carries its own `code`; the message is for people.
    """

    def __init__(self, code: str, message: str, status_code: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status_code = status_code
