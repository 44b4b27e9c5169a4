"""The transport: configuration, headers, retries with backoff, and mapping answers to objects or errors.

Only httpx and the standard library: this runs on a user's machine.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json as jsonlib
import logging
import os
import random
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from docsvc_client import __version__
from docsvc_client.errors import APIConnectionError, APIError, APITimeoutError, error_class
from docsvc_client.pagination import AsyncPage, SyncPage

__all__ = [
    "API_KEY_ENV",
    "BASE_URL_ENV",
    "IDEMPOTENCY_HEADER",
    "APIObject",
    "AsyncHTTP",
    "FileTypes",
    "Params",
    "SyncHTTP",
]

API_KEY_ENV = "SERVICE_API_KEY"
IDEMPOTENCY_HEADER = "Idempotency-Key"
BASE_URL_ENV = "SERVICE_BASE_URL"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 3
INITIAL_BACKOFF = 0.5  # seconds before the first retry, doubled each time
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 120.0  # a longer Retry-After is not waited for in full
RETRY_STATUSES = frozenset({429})  # and every 5xx

logger = logging.getLogger("docsvc_client")

Params = Mapping[str, Any]
FileTypes = Mapping[str, tuple[str, bytes] | tuple[str, bytes, str]]


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


async def _async_sleep(seconds: float) -> None:
    import asyncio  # only the AsyncClient waits this way: the blocking client starts without asyncio

    await asyncio.sleep(seconds)


class APIObject(dict[str, Any]):
    """A JSON object of the API: a dict whose keys are also attributes (`file.id`, `job.status`).

    Nested objects are APIObjects too. A key that is also a dict method (`items`, `keys`, `values`, …)
    is read with `obj["items"]`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, value in self.items():
            dict.__setitem__(self, key, construct(value))

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *(key for key in self if isinstance(key, str))})

    def to_dict(self) -> dict[str, Any]:
        """A plain-dict deep copy."""
        return _plain(self)  # type: ignore[no-any-return]


def construct(value: Any) -> Any:
    """Turns decoded JSON into APIObjects (objects) and lists of them."""
    if isinstance(value, APIObject):
        return value
    if isinstance(value, dict):
        return APIObject(value)
    if isinstance(value, list):
        return [construct(item) for item in value]
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def clean_params(params: Params | None) -> dict[str, Any]:
    """Query parameters as the API reads them: None dropped, booleans lower-case, objects as JSON."""
    cleaned: dict[str, Any] = {}
    for name, value in (params or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            cleaned[name] = "true" if value else "false"
        elif isinstance(value, Mapping):
            cleaned[name] = jsonlib.dumps(dict(value), separators=(",", ":"))
        elif isinstance(value, dt.date | dt.datetime):
            cleaned[name] = value.isoformat()
        elif isinstance(value, Sequence) and not isinstance(value, str | bytes):
            cleaned[name] = [str(item) for item in value]
        else:
            cleaned[name] = value
    return cleaned


def retry_after_seconds(response: httpx.Response) -> float | None:
    """The answer's Retry-After, in seconds (a number or an HTTP date), if it has a usable one."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        seconds = (when - dt.datetime.now(dt.UTC)).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def backoff_seconds(retry: int) -> float:
    """Exponential backoff with jitter for the `retry`-th retry (0 first): 0.5 s, 1 s, 2 s … up to 8 s,
    each shortened by up to a quarter at random so that many clients do not retry in step."""
    delay = min(INITIAL_BACKOFF * 2.0**retry, MAX_BACKOFF)
    return delay * (1.0 - 0.25 * random.random())


def kept_elsewhere(response: httpx.Response) -> bool:
    """The API's answer to a request whose answer is too large for it: 303 to where it is kept."""
    return response.status_code == 303 and "location" in response.headers


def unreadable_link(error: APIError) -> APIError:
    """The storage's refusal of an answer's link (most often: it expired), said as such, not as a
    refusal of the API key."""
    if error.status_code is None:  # no answer at all: the connection error says it well
        return error
    return APIError(
        f"{error.status_code}: the answer was too large to send directly and its link could not be read "
        "(links last 15 minutes); send the request again for a new one",
        status_code=error.status_code,
        detail=error.detail,
        body=error.body,
        headers=error.headers,
    )


def should_retry(response: httpx.Response) -> bool:
    """429 and 5xx; and a 409 with Retry-After, the answer to a POST whose Idempotency-Key belongs to a
    request that still runs (most often this call's own first attempt, whose answer was lost): sent again
    after Retry-After, the call gets that request's answer. Other 409s are refusals, never retried."""
    if response.status_code == 409:
        return "retry-after" in response.headers
    return response.status_code in RETRY_STATUSES or response.status_code >= 500


def error_from_response(response: httpx.Response) -> APIError:
    """The exception for an error answer, with its status, detail and request id."""
    body: Any
    try:
        body = response.json()
    except ValueError:
        body = response.text or None
    detail: Any = body.get("detail", body) if isinstance(body, dict) else body
    request_id = response.headers.get("x-request-id")
    if request_id is None and isinstance(body, dict) and isinstance(body.get("request_id"), str):
        request_id = body["request_id"]
    if isinstance(detail, list):
        summary = "; ".join(_describe_problem(problem) for problem in detail[:5]) or "invalid request"
    elif detail is None or detail == "":
        summary = response.reason_phrase or "error"
    else:
        summary = str(detail)
    return error_class(response.status_code)(
        f"{response.status_code}: {summary}",
        status_code=response.status_code,
        detail=detail,
        request_id=request_id,
        body=body,
        headers=dict(response.headers),
    )


def _describe_problem(problem: Any) -> str:
    if isinstance(problem, dict):
        location = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
        message = str(problem.get("msg", problem))
        return f"{location}: {message}" if location else message
    return str(problem)


def decode(response: httpx.Response) -> APIObject:
    """The JSON object of a successful answer (an empty one for 204)."""
    if response.status_code == 204 or not response.content:
        return APIObject()
    try:
        body = response.json()
    except ValueError as error:
        raise APIError(
            f"{response.status_code}: the answer is not JSON",
            status_code=response.status_code,
            detail=response.text[:500],
            request_id=response.headers.get("x-request-id"),
        ) from error
    if isinstance(body, dict):
        return APIObject(body)
    return APIObject(data=construct(body))


def unwrapped(body: APIObject, key: str | None) -> APIObject:
    """The object under `key` of an envelope answer (`{"secret": {…}}`; `{"tables": [{…}]}` gives the
    first), or the body itself when it has no such key."""
    if key is None or key not in body:
        return body
    value = body[key]
    if isinstance(value, list):
        value = value[0] if value else None
    return value if isinstance(value, APIObject) else body


class _BaseHTTP:
    def __init__(
        self,
        *,
        api_key: str | None,
        base_url: str | None,
        timeout: float,
        max_retries: int,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        if not key:
            raise ValueError(f"no API key: pass api_key=… or set the {API_KEY_ENV} environment variable")
        url = base_url if base_url is not None else os.environ.get(BASE_URL_ENV)
        if not url:
            raise ValueError(
                f"no base URL: pass base_url=… or set the {BASE_URL_ENV} environment variable "
                "(it names the deployment; the API key chooses the environment)"
            )
        if max_retries < 0:
            raise ValueError("max_retries is 0 or more")
        self.api_key = key
        self.base_url = url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries

    def url(self, path: str) -> str:
        if path.startswith(("http://", "https://")):
            return path
        return f"{self.base_url}/{path.lstrip('/')}"

    def headers(self, method: str, extra: Mapping[str, str] | None, *, auth: bool) -> dict[str, str]:
        """The headers of one call, kept for all its retries: a POST to the API carries an
        `Idempotency-Key` (the caller's, else a new uuid4), so that a retried create makes nothing twice."""
        headers = {"User-Agent": f"docsvc-python/{__version__}"}
        if auth:
            headers["Accept"] = "application/json"
            headers["Authorization"] = f"Bearer {self.api_key}"
        headers.update(extra or {})
        given = any(name.lower() == IDEMPOTENCY_HEADER.lower() for name in headers)
        if auth and method.upper() == "POST" and not given:
            headers[IDEMPOTENCY_HEADER] = str(uuid.uuid4())
        return headers

    def _log_retry(self, method: str, url: str, why: str, delay: float, retry: int) -> None:
        logger.info("%s %s: %s; retry %d/%d in %.2f s", method, url, why, retry + 1, self.max_retries, delay)


class SyncHTTP(_BaseHTTP):
    """Blocking requests through an httpx.Client."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._owns_client = http_client is None
        self.client = http_client if http_client is not None else httpx.Client(timeout=timeout)

    def close(self) -> None:
        if self._owns_client:
            self.client.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = None,
        files: FileTypes | None = None,
        data: Mapping[str, str] | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        auth: bool = True,
    ) -> httpx.Response:
        """Sends a request, retrying connection errors, 429 and 5xx; raises APIError on an error answer."""
        url = self.url(path)
        all_headers = self.headers(method, headers, auth=auth)
        query = clean_params(params)
        retry = 0
        while True:
            try:
                response = self.client.request(
                    method,
                    url,
                    params=query or None,
                    json=json,
                    files=files,
                    data=data,
                    content=content,
                    headers=all_headers,
                    timeout=self.timeout,
                )
            except httpx.TransportError as error:
                if retry >= self.max_retries:
                    raise _connection_error(error) from error
                delay = backoff_seconds(retry)
                self._log_retry(method, url, type(error).__name__, delay, retry)
                _sleep(delay)
                retry += 1
                continue
            if response.is_success:
                return response
            if auth and kept_elsewhere(response):  # over Lambda's 6 MB, in S3: fetched once, without the key
                response.close()
                try:
                    return self.request("GET", response.headers["location"], auth=False)
                except APIError as error:
                    raise unreadable_link(error) from error
            if should_retry(response) and retry < self.max_retries:
                wait = retry_after_seconds(response)
                delay = backoff_seconds(retry) if wait is None else wait
                self._log_retry(method, url, f"status {response.status_code}", delay, retry)
                response.close()
                _sleep(delay)
                retry += 1
                continue
            response.read()
            raise error_from_response(response)

    def object(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = None,
        files: FileTypes | None = None,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        unwrap: str | None = None,
    ) -> APIObject:
        response = self.request(
            method, path, params=params, json=json, files=files, data=data, headers=headers
        )
        return unwrapped(decode(response), unwrap)

    def none(self, method: str, path: str, *, params: Params | None = None, json: Any = None) -> None:
        self.request(method, path, params=params, json=json)

    def page(self, path: str, params: Params | None = None, *, key: str | None = None) -> SyncPage:
        query = dict(params or {})

        def fetch(next_params: dict[str, Any]) -> APIObject:
            return self.object("GET", path, params=next_params)

        return SyncPage(fetch(query), params=query, key=key, fetch=fetch)


class AsyncHTTP(_BaseHTTP):
    """Non-blocking requests through an httpx.AsyncClient."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._owns_client = http_client is None
        self.client = http_client if http_client is not None else httpx.AsyncClient(timeout=timeout)

    async def close(self) -> None:
        if self._owns_client:
            await self.client.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = None,
        files: FileTypes | None = None,
        data: Mapping[str, str] | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        auth: bool = True,
    ) -> httpx.Response:
        """Sends a request, retrying connection errors, 429 and 5xx; raises APIError on an error answer."""
        url = self.url(path)
        all_headers = self.headers(method, headers, auth=auth)
        query = clean_params(params)
        retry = 0
        while True:
            try:
                response = await self.client.request(
                    method,
                    url,
                    params=query or None,
                    json=json,
                    files=files,
                    data=data,
                    content=content,
                    headers=all_headers,
                    timeout=self.timeout,
                )
            except httpx.TransportError as error:
                if retry >= self.max_retries:
                    raise _connection_error(error) from error
                delay = backoff_seconds(retry)
                self._log_retry(method, url, type(error).__name__, delay, retry)
                await _async_sleep(delay)
                retry += 1
                continue
            if response.is_success:
                return response
            if auth and kept_elsewhere(response):  # over Lambda's 6 MB, in S3: fetched once, without the key
                await response.aclose()
                try:
                    return await self.request("GET", response.headers["location"], auth=False)
                except APIError as error:
                    raise unreadable_link(error) from error
            if should_retry(response) and retry < self.max_retries:
                wait = retry_after_seconds(response)
                delay = backoff_seconds(retry) if wait is None else wait
                self._log_retry(method, url, f"status {response.status_code}", delay, retry)
                await response.aclose()
                await _async_sleep(delay)
                retry += 1
                continue
            await response.aread()
            raise error_from_response(response)

    async def object(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = None,
        files: FileTypes | None = None,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        unwrap: str | None = None,
    ) -> APIObject:
        response = await self.request(
            method, path, params=params, json=json, files=files, data=data, headers=headers
        )
        return unwrapped(decode(response), unwrap)

    async def none(self, method: str, path: str, *, params: Params | None = None, json: Any = None) -> None:
        await self.request(method, path, params=params, json=json)

    async def page(self, path: str, params: Params | None = None, *, key: str | None = None) -> AsyncPage:
        query = dict(params or {})

        async def fetch(next_params: dict[str, Any]) -> APIObject:
            return await self.object("GET", path, params=next_params)

        return AsyncPage(await fetch(query), params=query, key=key, fetch=fetch)


def _connection_error(error: httpx.TransportError) -> APIConnectionError:
    if isinstance(error, httpx.TimeoutException):
        return APITimeoutError(f"no answer in time: {error}")
    return APIConnectionError(f"could not reach the service: {type(error).__name__}: {error}")
