"""An HTTP server on loopback for the tests of the URL guard's fetches and POSTs."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class LoopbackServer(ThreadingHTTPServer):
    """Serves `handler` on a free port; `release` ends the handlers that wait, so shutdown is quick."""

    daemon_threads = False  # server_close() joins every handler thread
    block_on_close = True

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.release = threading.Event()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up mid-answer is expected here: no traceback."""
