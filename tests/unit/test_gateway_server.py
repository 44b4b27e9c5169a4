"""The local gateway as a server on loopback: what a client meets on the wire before any function runs
(bursts of new connections, requests past the concurrency limit, methods and bodies http.server would
answer in HTML or drop)."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from docsvc.local.functions import LocalFunction, Route
from docsvc.local.gateway import GatewayServer

released = threading.Event()
entered = threading.Semaphore(0)  # released once by each held request that reached its function


def hello(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return {
        "statusCode": 200,
        "headers": {"content-type": "application/json"},
        "body": event.get("body") or "{}",
    }


def held(event: dict[str, Any], context: Any) -> dict[str, Any]:
    entered.release()
    released.wait(10)
    return hello(event, context)


def serve(max_in_flight: int = 256) -> tuple[GatewayServer, list[LocalFunction]]:
    functions = [
        LocalFunction("Hello", f"{__name__}.hello", 3, 128, {}, routes=[Route("ANY", "/v1/hello")]),
        LocalFunction("Held", f"{__name__}.held", 3, 128, {}, routes=[Route("GET", "/v1/held")]),
    ]
    server = GatewayServer("127.0.0.1", 0, functions, max_in_flight=max_in_flight)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, functions


@pytest.fixture
def gateway() -> Iterator[GatewayServer]:
    server, functions = serve()
    yield server
    server.shutdown()
    server.server_close()
    for function in functions:
        function.shutdown()


def ask(server: GatewayServer, method: str, path: str, body: bytes | None = None, **headers: str) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


# The burst's gateway runs in a process of its own: 200 handler threads in the test's process would run
# under the line-coverage probes of `make test`, whose removal once wedged a run of this test for good.
SERVE_ALONE = """
import sys
from tests.unit.test_gateway_server import serve
server, _ = serve()
print(server.server_address[1], flush=True)
sys.stdin.read()  # serves until the test closes this pipe
"""


def test_a_burst_of_200_new_connections_is_answered_in_full_none_reset() -> None:
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen(
        [sys.executable, "-c", SERVE_ALONE],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        statuses = burst(port, 200)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert statuses == [200] * 200


def burst(port: int, count: int) -> list[int | str]:
    gate = threading.Barrier(
        count, timeout=60
    )  # bounded: a machine too busy to start them fails, never hangs
    statuses: list[int | str] = []

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            gate.wait()
            connection.request("GET", "/v1/hello")
            statuses.append(connection.getresponse().status)
        except (OSError, threading.BrokenBarrierError) as error:
            statuses.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=client) for _ in range(count)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120  # for all of them together
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    assert not [thread for thread in threads if thread.is_alive()], "clients still waiting after 120 s"
    return statuses


def test_a_request_past_the_concurrency_limit_is_a_503_with_retry_after() -> None:
    server, functions = serve(max_in_flight=2)
    released.clear()
    waiting = [threading.Thread(target=ask, args=(server, "GET", "/v1/held")) for _ in range(2)]
    try:
        for thread in waiting:
            thread.start()
        for _ in waiting:  # both held requests are in their function
            assert entered.acquire(timeout=10)

        status, headers, body = ask(server, "GET", "/v1/hello")

        assert status == 503
        assert headers["retry-after"] == "1"
        assert "limit of 2 requests" in json.loads(body)["detail"]
    finally:
        released.set()
        for thread in waiting:
            thread.join()
        server.shutdown()
        server.server_close()
        for function in functions:
            function.shutdown()


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "PROPFIND"])
def test_an_unknown_method_is_a_json_405_naming_the_allowed_ones(gateway: GatewayServer, method: str) -> None:
    status, headers, body = ask(gateway, method, "/v1/hello")

    assert status == 405
    assert headers["content-type"] == "application/json"
    assert "GET" in headers["allow"]
    assert method in json.loads(body)["detail"]


@pytest.mark.parametrize("length", ["abc", "-1", "1e3"])
def test_a_content_length_that_is_not_a_count_of_bytes_is_a_json_400(
    gateway: GatewayServer, length: str
) -> None:
    with socket.create_connection(gateway.server_address, timeout=5) as connection:
        connection.sendall(f"POST /v1/hello HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode())
        answer = connection.makefile("rb").read()

    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")
    assert "not a number of bytes" in json.loads(body)["detail"]


def test_a_chunked_body_reaches_the_function_whole(gateway: GatewayServer) -> None:
    with socket.create_connection(gateway.server_address, timeout=5) as connection:
        connection.sendall(
            b"POST /v1/hello HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            b'5\r\n{"a":\r\n3\r\n 1}\r\n0\r\n\r\n'
        )
        answer = connection.makefile("rb").read()

    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert json.loads(body) == {"a": 1}


def test_a_malformed_request_line_is_answered_in_json(gateway: GatewayServer) -> None:
    with socket.create_connection(gateway.server_address, timeout=5) as connection:
        connection.sendall(b"GET /v1/hello HTTP/9.9\r\n\r\n")
        answer = connection.makefile("rb").read()

    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"application/json" in head
    assert json.loads(body)["detail"]
