"""HTTP receivers for webhook tests: servers on loopback that record what they get and answer what
the test tells them (a status per request, then a default)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


@dataclass
class Receiver:
    """Answers `answers` in order (a status, or a (status, headers) pair), then `status`."""

    server: ThreadingHTTPServer
    status: int = 200
    answers: list[int | tuple[int, dict[str, str]]] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def answer(self) -> tuple[int, dict[str, str]]:
        with self.lock:
            planned = self.answers.pop(0) if self.answers else self.status
        return planned if isinstance(planned, tuple) else (planned, {})

    def events(self) -> list[dict[str, Any]]:
        with self.lock:
            return [item.event for item in self.received]


def _handler_for(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with receiver.lock:
                receiver.received.append(Received(dict(self.headers.items()), body))
            status, headers = receiver.answer()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


class Receivers:
    """Starts receivers on demand; stops them all at the end."""

    def __init__(self) -> None:
        self._started: list[Receiver] = []

    def start(
        self, status: int = 200, answers: list[int | tuple[int, dict[str, str]]] | None = None
    ) -> Receiver:
        server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
        receiver = Receiver(server, status, list(answers or []))
        server.RequestHandlerClass = _handler_for(receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._started.append(receiver)
        return receiver

    def stop(self) -> None:
        for receiver in self._started:
            receiver.server.shutdown()
            receiver.server.server_close()
