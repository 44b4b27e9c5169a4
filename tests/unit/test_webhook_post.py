"""Webhook POSTs: what the receiver gets, how each answer and failure is reported, what is never reached.

No test reaches the internet: name resolution is faked for every test, and the servers listen on 127.0.0.1.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler
from typing import Any, cast
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from docsvc.adapters.fetch import WebhookResponse, post_webhook

from tests.unit.fake_dns import FakeResolver, install
from tests.unit.loopback_server import LoopbackServer

BODY = b'{"event":"job.completed","data":{"id":"job_123"}}'
SIGNATURE = "t=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd"
HEADERS = {"Content-Type": "application/json", "Webhook-Signature": SIGNATURE}
NAME = "hooks.example.test"

# ---------------------------------------------------------------------------- a fake resolver


@pytest.fixture(autouse=True)
def resolver(monkeypatch: pytest.MonkeyPatch) -> FakeResolver:
    """Every test resolves names through the fake: no test looks up a real name."""
    return install(monkeypatch)


# ---------------------------------------------------------------------------- a local receiver


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver(LoopbackServer):
    """Answers webhook POSTs by route."""

    def __init__(self) -> None:
        super().__init__(ReceiverHandler)
        self.received: list[Received] = []


class ReceiverHandler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    @property
    def receiver(self) -> Receiver:
        return cast(Receiver, self.server)

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.receiver.received.append(Received("POST", self.path, dict(self.headers.items()), body))
        parts = urlsplit(self.path)
        with suppress(OSError):  # the client went away first: what several tests want
            self.answer(parts.path.strip("/").split("/"), parse_qs(parts.query, keep_blank_values=True))

    def do_GET(self) -> None:
        self.receiver.received.append(Received("GET", self.path, dict(self.headers.items()), b""))
        with suppress(OSError):
            self.send(200, b"")

    def answer(self, route: list[str], query: dict[str, list[str]]) -> None:
        match route:
            case ["status", code]:
                self.send(int(code), b"answer body", retry_after=query.get("retry_after", [None])[0])
            case ["redirect"]:
                self.send_response(302)
                self.send_header("Location", query["location"][0])
                self.send_header("Content-Length", "0")
                self.end_headers()
            case ["slow"]:
                time.sleep(0.2)
                self.send(200, b"")
            case ["stall"]:
                self.receiver.release.wait(10)
            case ["endless"]:
                self.endless()
            case ["drip"]:
                self.drip()
            case _:
                self.send(404, b"")

    def send(self, status: int, body: bytes, *, retry_after: str | None = None) -> None:
        self.send_response(status)
        if retry_after is not None:
            self.send_header("Retry-After", retry_after)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def endless(self) -> None:
        """200 and a body without length that runs (fast) until the client hangs up, 100 MiB at most."""
        self.send_response(200)
        self.end_headers()
        for _ in range(6400):
            if self.receiver.release.is_set():
                return
            self.wfile.write(b"x" * 16 * 1024)

    def drip(self) -> None:
        """200 and then a byte now and then: 4 KiB would take minutes to arrive."""
        self.send_response(200)
        self.end_headers()
        for _ in range(5000):
            if self.receiver.release.wait(0.02):
                return
            self.wfile.write(b"z")
            self.wfile.flush()


@contextmanager
def serving(tls: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    server = Receiver()
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
        assert not thread.is_alive()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with serving() as running:
        yield running


def post(url: str, **options: Any) -> WebhookResponse:
    options.setdefault("allow_loopback", True)
    return post_webhook(url, BODY, dict(HEADERS), **options)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# ---------------------------------------------------------------------------- answers


def test_a_2xx_delivers_the_exact_body_and_headers(receiver: Receiver) -> None:
    started = time.monotonic()

    response = post(receiver.url("/status/200?tenant=acme"))

    elapsed_ms = (time.monotonic() - started) * 1000
    assert response.status_code == 200
    assert response.error is None
    assert response.retry_after_seconds is None
    assert 0 <= response.latency_ms <= elapsed_ms + 1
    [received] = receiver.received
    assert received.method == "POST"
    assert received.path == "/status/200?tenant=acme"
    assert received.body == BODY
    assert received.headers["Webhook-Signature"] == SIGNATURE
    assert received.headers["Content-Type"] == "application/json"
    assert received.headers["Content-Length"] == str(len(BODY))
    assert received.headers["User-Agent"] == "docsvc-webhooks/1"
    assert received.headers["Connection"] == "close"
    assert received.headers["Host"] == f"127.0.0.1:{receiver.port}"


@pytest.mark.parametrize("status", [201, 202, 204])
def test_every_2xx_is_a_success(receiver: Receiver, status: int) -> None:
    response = post(receiver.url(f"/status/{status}"))

    assert response.status_code == status
    assert response.error is None


def test_headers_the_post_sets_itself_replace_the_callers(receiver: Receiver) -> None:
    headers = {"content-length": "999", "USER-AGENT": "spoof/1", "connection": "keep-alive", "X-Id": "7"}

    response = post_webhook(receiver.url("/status/200"), BODY, headers, allow_loopback=True)

    assert response.error is None
    [received] = receiver.received
    assert received.body == BODY
    lowered = {name.lower(): value for name, value in received.headers.items()}
    assert lowered["content-length"] == str(len(BODY))
    assert lowered["user-agent"] == "docsvc-webhooks/1"
    assert lowered["connection"] == "close"
    assert lowered["x-id"] == "7"


def test_a_500_is_a_failure_with_its_status(receiver: Receiver) -> None:
    response = post(receiver.url("/status/500"))

    assert response.status_code == 500
    assert response.error == "answered HTTP 500"


def test_a_410_keeps_its_status_code(receiver: Receiver) -> None:
    response = post(receiver.url("/status/410"))

    assert response.status_code == 410
    assert response.error == "answered HTTP 410"


def test_a_redirect_is_not_followed(receiver: Receiver) -> None:
    with serving() as elsewhere:
        response = post(receiver.url(f"/redirect?location={elsewhere.url('/status/200')}"))

        assert elsewhere.received == []

    assert response.status_code == 302
    assert response.error == "redirects are not followed (answered 302)"
    assert [received.path for received in receiver.received] == [
        f"/redirect?location={elsewhere.url('/status/200')}"
    ]


def test_retry_after_in_seconds(receiver: Receiver) -> None:
    response = post(receiver.url("/status/503?retry_after=120"))

    assert response.status_code == 503
    assert response.error == "answered HTTP 503"
    assert response.retry_after_seconds == 120


def test_retry_after_as_an_http_date(receiver: Receiver) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=120), usegmt=True)

    response = post(receiver.url(f"/status/429?retry_after={quote(when)}"))

    assert response.status_code == 429
    assert response.retry_after_seconds is not None
    assert 110 <= response.retry_after_seconds <= 120


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("0", 0),
        ("-5", 0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0),  # in the past
        ("soon", None),
        ("12.5", None),
        ("", None),
        ("Fri, 99 Foo 2015 07:28:00 GMT", None),
    ],
)
def test_retry_after_edge_values(receiver: Receiver, value: str, expected: int | None) -> None:
    response = post(receiver.url(f"/status/503?retry_after={quote(value)}"))

    assert response.status_code == 503
    assert response.retry_after_seconds == expected


def test_latency_covers_the_wait_for_the_answer(receiver: Receiver) -> None:
    started = time.monotonic()

    response = post(receiver.url("/slow"))

    elapsed_ms = (time.monotonic() - started) * 1000
    assert response.status_code == 200
    assert 200 <= response.latency_ms <= elapsed_ms + 1


# ---------------------------------------------------------------------------- failures without an answer


def test_a_receiver_that_never_answers_times_out(receiver: Receiver) -> None:
    started = time.monotonic()

    response = post(receiver.url("/stall"), timeout=1.0)

    elapsed = time.monotonic() - started
    assert response.status_code is None
    assert response.error == "timed out after 1 s"
    assert response.retry_after_seconds is None
    assert 0.9 <= elapsed < 2.0
    assert 900 <= response.latency_ms <= elapsed * 1000 + 1


def test_a_fractional_timeout_is_shown_as_written(receiver: Receiver) -> None:
    response = post(receiver.url("/stall"), timeout=0.5)

    assert response.status_code is None
    assert response.error == "timed out after 0.5 s"


def test_a_closed_port_is_connection_refused() -> None:
    response = post(f"http://127.0.0.1:{closed_port()}/hook")

    assert response.status_code is None
    assert response.error is not None
    assert "refused" in response.error
    assert response.latency_ms >= 0


def test_an_endless_body_is_not_read_to_its_end(receiver: Receiver) -> None:
    started = time.monotonic()

    response = post(receiver.url("/endless"), timeout=3.0)

    assert response.status_code == 200
    assert response.error is None
    assert time.monotonic() - started < 1.5


def test_a_dripping_body_does_not_hold_the_call_past_the_deadline(receiver: Receiver) -> None:
    started = time.monotonic()

    response = post(receiver.url("/drip"), timeout=1.0)

    assert response.status_code == 200  # the answer came in time; only its body was slow
    assert response.error is None
    assert time.monotonic() - started < 1.8


def test_https_to_a_plain_http_receiver_is_a_tls_failure(receiver: Receiver, resolver: FakeResolver) -> None:
    resolver.names[NAME] = ["127.0.0.1"]

    response = post(f"https://{NAME}:{receiver.port}/status/200")

    assert response.status_code is None
    assert response.error is not None
    assert response.error.startswith("TLS: ")


def test_a_name_that_does_not_resolve_is_a_connection_failure() -> None:
    response = post("https://nowhere.example.test/hook")

    assert response.status_code is None
    assert response.error is not None
    assert response.error.startswith("connection failed: ")
    assert "could not be resolved" in response.error


def test_a_header_with_a_line_break_is_not_sent(receiver: Receiver) -> None:
    headers = {"X-Note": "a\r\nX-Injected: 1"}

    response = post_webhook(receiver.url("/status/200"), BODY, headers, allow_loopback=True)

    assert response.status_code is None
    assert response.error is not None
    assert response.error.startswith("invalid request: ")
    assert receiver.received == []


# ---------------------------------------------------------------------------- URLs that are not allowed


def test_loopback_is_refused_without_allow_loopback(receiver: Receiver) -> None:
    response = post_webhook(receiver.url("/status/200"), BODY, HEADERS)

    assert response.status_code is None
    assert response.error is not None
    assert response.error.startswith("the URL is not allowed")
    assert "a loopback address" in response.error
    assert response.retry_after_seconds is None
    assert response.latency_ms >= 0
    assert receiver.received == []


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://10.0.0.1/hook", "10.0.0.1, a private address"),
        ("http://169.254.169.254/latest/meta-data/", "a cloud metadata address"),
        ("http://[fd00:ec2::254]/", "a cloud metadata address"),
        ("http://2130706433/hook", "non-standard form"),
        ("file:///etc/passwd", "is not an http or https URL"),
        ("http://user:pw@hooks.example.test/hook", "user name or password"),
    ],
)
def test_urls_the_check_refuses_are_not_allowed_even_with_allow_loopback(url: str, words: str) -> None:
    response = post(url)

    assert response.status_code is None
    assert response.error is not None
    assert response.error.startswith("the URL is not allowed: ")
    assert words in response.error


def test_a_name_resolving_to_a_private_address_is_not_allowed(resolver: FakeResolver) -> None:
    resolver.names[NAME] = ["192.168.1.20"]

    response = post(f"https://{NAME}/hook")

    assert response.error is not None
    assert response.error.startswith("the URL is not allowed: ")
    assert "192.168.1.20, a private address" in response.error


def test_the_connection_goes_to_the_checked_address_with_the_name_in_host(
    receiver: Receiver, resolver: FakeResolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter([["127.0.0.1"], ["10.0.0.1"]])

    def rebinding(host: str, port: int | str | None, *args: Any, **kwargs: Any) -> list[Any]:
        resolver.names[host] = next(answers)
        return resolver(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)

    response = post(f"http://{NAME}:{receiver.port}/status/200")

    assert response.status_code == 200
    assert resolver.calls == [NAME]
    assert receiver.received[0].headers["Host"] == f"{NAME}:{receiver.port}"


# ---------------------------------------------------------------------------- https


@pytest.fixture(scope="module")
def ca() -> Any:
    trustme = pytest.importorskip("trustme")
    return trustme.CA()


@pytest.fixture
def client_context(ca: Any) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


@pytest.fixture
def tls_receiver(ca: Any) -> Iterator[Receiver]:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(NAME).configure_cert(context)
    with serving(context) as running:
        yield running


def test_https_with_a_trusted_certificate_is_delivered(
    tls_receiver: Receiver, client_context: ssl.SSLContext, resolver: FakeResolver
) -> None:
    resolver.names[NAME] = ["127.0.0.1"]

    response = post(f"https://{NAME}:{tls_receiver.port}/status/202", ssl_context=client_context)

    assert response.status_code == 202
    assert response.error is None
    assert tls_receiver.received[0].body == BODY


def test_https_under_another_name_fails_certificate_verification(
    tls_receiver: Receiver, client_context: ssl.SSLContext, resolver: FakeResolver
) -> None:
    resolver.names["other.example.test"] = ["127.0.0.1"]

    response = post(f"https://other.example.test:{tls_receiver.port}/status/200", ssl_context=client_context)

    assert response.status_code is None
    assert response.error is not None
    assert response.error.startswith("TLS: the certificate could not be verified")
    assert tls_receiver.received == []
