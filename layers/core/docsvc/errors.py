"""Domain errors. The API layer maps each to its HTTP status with `{"detail": message}`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class DomainError(Exception):
    status_code = 400
    code = "bad_request"  # for machines: a failed background run carries it in `error.code`

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.extra: dict[str, Any] = {}  # more fields of the answer's body, beside `detail`


class BadRequest(DomainError):
    status_code = 400


class Unauthorized(DomainError):
    code = "unauthorized"
    status_code = 401


class Forbidden(DomainError):
    """The key is valid but may not do this (a test key asking for a production-only act)."""

    code = "forbidden"
    status_code = 403


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


class TooManyRequests(DomainError):
    """A request over a rate limit: the same request is accepted after `retry_after` seconds."""

    code = "rate_limited"
    status_code = 429

    def __init__(self, message: str, retry_after: int, **extra: object) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.extra = {**extra, "retry_after": retry_after}


class ServiceBusy(DomainError):
    """A part of the deployment is at its concurrency limit: the same request may succeed shortly."""

    code = "busy"
    status_code = 503


class InvalidField(DomainError):
    code = "validation_error"
    """A field's value breaks a rule the schema cannot express: answered as a 422 naming the field."""

    status_code = 422

    def __init__(self, location: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.location = location


class InvalidRequest(DomainError):
    """A request body that its endpoint's schema refuses: a 422 whose `problems` are in FastAPI's
    HTTPValidationError shape (`{loc, msg, type, input?, ctx?}`); the message names every field."""

    code = "validation_error"
    status_code = 422

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        names = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}" for problem in problems
        )
        super().__init__(names or "the request is not valid")
        self.problems = problems


_PROBLEM_FIELDS = frozenset({"loc", "msg", "type", "input", "ctx"})


ECHOED_CHARACTERS = 200  # of a wrong input, in its 422; a document sent as the wrong type is not sent back
ECHOED_ITEMS = 20
ECHOED_DEPTH = 3


def validation_problems(errors: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Pydantic's errors as the `detail` of a 422, kept JSON: `ctx` values become strings (they may
    hold exception objects); an input is echoed only when short, else described by its size."""
    problems = []
    for error in errors:
        problem = {key: value for key, value in error.items() if key in _PROBLEM_FIELDS}
        if "ctx" in problem:
            problem["ctx"] = {key: str(value) for key, value in problem["ctx"].items()}
        if "input" in problem:
            problem["input"] = _echoed(problem["input"])
        problems.append(problem)
    return problems


def _echoed(value: Any, depth: int = 0) -> Any:
    """The input as a 422 shows it: short strings and small objects as they are, long ones cut."""
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    if isinstance(value, str) and len(value) > ECHOED_CHARACTERS:
        return f"{value[:ECHOED_CHARACTERS]}… ({len(value)} characters)"
    if isinstance(value, list | dict):
        kind = "list" if isinstance(value, list) else "object"
        if len(value) > ECHOED_ITEMS or depth >= ECHOED_DEPTH:
            return f"<{kind} of {len(value)} items>"
        if isinstance(value, list):
            return [_echoed(item, depth + 1) for item in value]
        return {key: _echoed(item, depth + 1) for key, item in value.items()}
    return value


class Stopped(Exception):
    """Work given up at a safe point because whoever owns it asked (a job cancelled while it ran)."""


class DocumentRejected(DomainError):
    """A document the service cannot read: damaged, encrypted, empty, too long, of an unread type.

    Each carries its own `code`; the message is for people.
    """

    def __init__(self, code: str, message: str, status_code: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status_code = status_code
