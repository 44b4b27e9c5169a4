"""The exceptions the SDK raises: one class per kind of answer, all under `APIError`."""

from __future__ import annotations

from typing import Any

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "InternalServerError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitError",
    "UnsupportedMediaTypeError",
    "ValidationError",
]


class APIError(Exception):
    """The service answered with an error status (or did not answer: see `APIConnectionError`).

    `status_code` is the HTTP status (None when there was no answer), `detail` the body's `detail`
    (a string, or the list of problems of a 422), `request_id` the `X-Request-Id` of the answer
    (or the body's `request_id`), `body` the whole decoded body.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        detail: Any = None,
        request_id: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.detail = detail
        self.request_id = request_id
        self.body = body
        self.headers = headers or {}

    def __str__(self) -> str:
        if self.request_id:
            return f"{self.message} (request id {self.request_id})"
        return self.message

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status_code={self.status_code!r}, detail={self.detail!r}, "
            f"request_id={self.request_id!r})"
        )


class APIConnectionError(APIError):
    """No answer: the connection failed or broke, after every retry."""


class APITimeoutError(APIConnectionError):
    """No answer within the client's timeout, after every retry."""


class BadRequestError(APIError):
    """400: a request the service understood but cannot do."""


class AuthenticationError(APIError):
    """401: a missing, unknown or revoked API key."""


class PermissionDeniedError(APIError):
    """403."""


class NotFoundError(APIError):
    """404: an unknown id, or an id of another organization or environment."""


class ConflictError(APIError):
    """409: e.g. an Idempotency-Key reused with another body, an upload completed twice."""


class PayloadTooLargeError(APIError):
    """413: over a size limit; the detail says what to do instead."""


class UnsupportedMediaTypeError(APIError):
    """415: not a supported document type; the detail lists them."""


class ValidationError(APIError):
    """422: `detail` keeps the service's list of `{loc, msg, type, …}` problems."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        if isinstance(self.detail, list):
            return [item for item in self.detail if isinstance(item, dict)]
        return []


class RateLimitError(APIError):
    """429: too many requests (retried automatically before it is raised)."""


class InternalServerError(APIError):
    """5xx: a fault of the service (retried automatically before it is raised)."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: ValidationError,
    429: RateLimitError,
}


def error_class(status_code: int) -> type[APIError]:
    """The exception class for an error status."""
    if status_code >= 500:
        return InternalServerError
    return _BY_STATUS.get(status_code, APIError)
