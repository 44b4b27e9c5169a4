"""The Python client of docsvc: the SDK, the webhook signature check and the `docsvc` command line.

```python
from docsvc_client import Client

with Client() as client:  # SERVICE_API_KEY and SERVICE_BASE_URL, or Client(api_key=…, base_url=…)
    file = client.files.upload("invoice.pdf")
    result = client.extractions.create(document=file, json_schema={"type": "object", "properties": {…}})
    for job in client.jobs.list(status="completed"):  # every page
        print(job.id)
```

The API key chooses the environment (test or production); the base URL only the deployment. Answers
are `APIObject`s (dicts whose keys are also attributes); lists are pages, iterable over every item of
every page. Errors are `APIError` subclasses with `status_code`, `detail` and `request_id`. Requests
are retried (connection errors, 429 and 5xx; `max_retries` times, exponential backoff with jitter,
`Retry-After` honoured), and every POST carries an `Idempotency-Key` that stays the same on its
retries. Needs only httpx.

The names below are loaded when first used: `import docsvc_client` (or `from docsvc_client import
webhooks`, which is the standard library only) does not import httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from docsvc_client._client import AsyncClient, Client
    from docsvc_client._http import API_KEY_ENV, BASE_URL_ENV, APIObject
    from docsvc_client.errors import (
        APIConnectionError,
        APIError,
        APITimeoutError,
        AuthenticationError,
        BadRequestError,
        ConflictError,
        InternalServerError,
        NotFoundError,
        PayloadTooLargeError,
        PermissionDeniedError,
        RateLimitError,
        UnsupportedMediaTypeError,
        ValidationError,
    )
    from docsvc_client.pagination import AsyncPage, SyncPage
    from docsvc_client.resources._base import document

# Each public name and the module that defines it.
_EXPORTS = {
    "AsyncClient": "_client",
    "Client": "_client",
    "API_KEY_ENV": "_http",
    "BASE_URL_ENV": "_http",
    "APIObject": "_http",
    "APIConnectionError": "errors",
    "APIError": "errors",
    "APITimeoutError": "errors",
    "AuthenticationError": "errors",
    "BadRequestError": "errors",
    "ConflictError": "errors",
    "InternalServerError": "errors",
    "NotFoundError": "errors",
    "PayloadTooLargeError": "errors",
    "PermissionDeniedError": "errors",
    "RateLimitError": "errors",
    "UnsupportedMediaTypeError": "errors",
    "ValidationError": "errors",
    "AsyncPage": "pagination",
    "SyncPage": "pagination",
    "document": "resources._base",
}

__all__ = [
    "API_KEY_ENV",
    "BASE_URL_ENV",
    "APIConnectionError",
    "APIError",
    "APIObject",
    "APITimeoutError",
    "AsyncClient",
    "AsyncPage",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ConflictError",
    "InternalServerError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitError",
    "SyncPage",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "__version__",
    "document",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next lookup is a plain one
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
