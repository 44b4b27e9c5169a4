"""Domain errors. The API layer maps each to its HTTP status with `{"detail": message}`."""

from __future__ import annotations


class DomainError(Exception):
    status_code = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(DomainError):
    status_code = 400


class Unauthorized(DomainError):
    status_code = 401


class NotFound(DomainError):
    status_code = 404


class Conflict(DomainError):
    status_code = 409


class PayloadTooLarge(DomainError):
    status_code = 413


class UnsupportedMediaType(DomainError):
    status_code = 415


class InvalidField(DomainError):
    """A field's value breaks a rule the schema cannot express: answered as a 422 naming the field."""

    status_code = 422

    def __init__(self, location: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.location = location
