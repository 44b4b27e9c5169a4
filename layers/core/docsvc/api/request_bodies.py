"""A request body read whole by a middleware before the app, and handed to the app as if unread."""

from __future__ import annotations

from docsvc.api.large_answers import Message, Receive


async def read_body(receive: Receive) -> bytes | None:
    """The whole body; None when the client went away before sending it (nothing to answer then)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def replayed(body: bytes, receive: Receive) -> Receive:
    """The body, read already, given to the app as it came; then the client's own messages."""
    given = False

    async def again() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again
