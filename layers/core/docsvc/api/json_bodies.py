"""One JSON policy for every request: what Python's `json` reads but JSON (RFC 8259) does not allow is
refused with a 422, before any route sees it.

Python's decoder takes `NaN`, `Infinity` and `-Infinity` as numbers and a lone UTF-16 surrogate escape
(`"\\ud800"`) as a character. Neither can be written back: the first is not JSON, the second is not
UTF-8, so a value that holds one fails later, in an answer or a store, as a 500. The policy is applied to
JSON bodies by the `StrictJsonBodies` middleware on every API app, and by `loads` wherever a route reads
JSON from a query or form field.
"""

from __future__ import annotations

import json
import re
from typing import Any

from docsvc.api.large_answers import App, Message, Receive, Send
from docsvc.api.request_bodies import read_body, replayed
from docsvc.errors import InvalidField

NOT_A_NUMBER = "NaN, Infinity and -Infinity are not JSON numbers: send a number, or null"
LONE_SURROGATE = (
    "a string holds a lone UTF-16 surrogate escape (such as \\ud800), which is not a character: "
    "send the text as UTF-8, or escape both halves of a surrogate pair"
)
# Cheap to look for, so a body is parsed here only when it may hold either (about one in many).
_SUSPECT = re.compile(rb"NaN|Infinity|\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class NotJson(ValueError):
    """Text Python's decoder reads that is not JSON; the message says why, for people."""


def _refuse_constant(name: str) -> Any:
    raise NotJson(NOT_A_NUMBER)


def _refuse_lone_surrogates(value: Any) -> None:
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise NotJson(LONE_SURROGATE)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def strict_loads(text: str | bytes) -> Any:
    """`json.loads`, refusing what is not JSON: raises NotJson for the policy's cases, ValueError
    (json.JSONDecodeError, UnicodeDecodeError) for text that is not JSON at all."""
    value = json.loads(text, parse_constant=_refuse_constant)
    _refuse_lone_surrogates(value)
    return value


def loads(text: str, location: tuple[str, ...], help: str) -> Any:
    """A JSON value from a query or form field: InvalidField (422) at `location` if it is not JSON,
    with `help` on what to send."""
    name = location[-1]
    try:
        return strict_loads(text)
    except NotJson as error:
        raise InvalidField(location, f"{name}: {error}; {help}") from None
    except ValueError:
        raise InvalidField(location, f"{name} is not JSON; {help}") from None


def _is_json(scope: Message) -> bool:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-type":
            media: bytes = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return False


class StrictJsonBodies:
    """ASGI middleware: a JSON request body that breaks the policy is answered 422 in the shape of any
    other invalid JSON (`type: json_invalid`); every other request passes through with its body."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        if body is None:  # the client went away: nothing to answer
            return
        problem = _problem(body)
        if problem is not None:
            await _refuse(send, problem)
            return
        await self.app(scope, replayed(body, receive), send)


def _problem(body: bytes) -> str | None:
    if not _SUSPECT.search(body):
        return None
    try:
        strict_loads(body)
    except NotJson as error:
        return str(error)
    except ValueError:  # not JSON at all: the route's own validation says so
        return None
    return None


async def _refuse(send: Send, problem: str) -> None:
    detail = [
        {"type": "json_invalid", "loc": ["body"], "msg": "JSON decode error", "ctx": {"error": problem}}
    ]
    content = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 422,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})
