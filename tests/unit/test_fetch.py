"""The document fetcher's SSRF guard: the URLs and addresses it refuses, and real fetches from local servers.

No test reaches the internet: name resolution is faked for every test, and the servers listen on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import pytest
from docsvc.adapters.fetch import Fetched, check_url, fetch_document
from docsvc.errors import DocumentRejected

from tests.unit.fake_dns import FakeResolver, install
from tests.unit.loopback_server import LoopbackServer

DOCUMENT = b"%PDF-1.7\n% a small document\n%%EOF\n"
CAP = 100 * 1024
NAME = "docs.example.test"

# ---------------------------------------------------------------------------- a fake resolver


@pytest.fixture(autouse=True)
def resolver(monkeypatch: pytest.MonkeyPatch) -> FakeResolver:
    """Every test resolves names through the fake: no test looks up a real name."""
    return install(monkeypatch)


def rejection(url: str, **options: Any) -> DocumentRejected:
    with pytest.raises(DocumentRejected) as caught:
        fetch_document(url, max_bytes=CAP, **options)
    return caught.value


# ---------------------------------------------------------------------------- refused addresses


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("10.1.2.3", "a private address"),
        ("172.16.5.4", "a private address"),
        ("172.31.255.254", "a private address"),
        ("192.168.1.1", "a private address"),
        ("127.0.0.1", "a loopback address"),
        ("127.5.6.7", "a loopback address"),
        ("169.254.169.254", "a cloud metadata address"),
        ("100.100.100.200", "a cloud metadata address"),
        ("fd00:ec2::254", "a cloud metadata address"),
        ("169.254.1.1", "a link-local address"),
        ("100.64.0.1", "a shared (carrier-grade NAT) address"),
        ("100.127.255.254", "a shared (carrier-grade NAT) address"),
        ("0.0.0.0", "an unspecified address"),  # noqa: S104 -- an address to refuse, not one to bind
        ("::", "an unspecified address"),
        ("::1", "a loopback address"),
        ("fe80::1", "a link-local address"),
        ("fc00::1", "a private address"),
        ("fd12:3456::1", "a private address"),
        ("fec0::1", "a site-local address"),
        ("::ffff:127.0.0.1", "which embeds 127.0.0.1, a loopback address"),
        ("::ffff:10.0.0.1", "which embeds 10.0.0.1, a private address"),
        ("::ffff:169.254.169.254", "which embeds 169.254.169.254, a cloud metadata address"),
        ("2002:a00:1::1", "which embeds 10.0.0.1, a private address"),  # 6to4
        ("64:ff9b::a9fe:a9fe", "which embeds 169.254.169.254, a cloud metadata address"),  # NAT64
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "which embeds 192.0.2.45, not a public address"),  # Teredo
        ("224.0.0.1", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("255.255.255.255", "the broadcast address"),
        ("240.0.0.1", "a reserved address"),
        ("192.0.0.192", "a special-purpose address"),
        ("192.0.2.10", "not a public address"),
        ("198.18.0.1", "not a public address"),
    ],
)
def test_a_host_resolving_to_a_forbidden_address_is_refused(
    resolver: FakeResolver, address: str, reason: str
) -> None:
    resolver.names["evil.example.test"] = [address]

    error = rejection("http://evil.example.test/doc.pdf")

    assert error.code == "url_refused"
    assert error.status_code == 400
    shown_address = ipaddress.ip_address(address)
    assert (
        error.message == f"refused: 'http://evil.example.test/doc.pdf' resolves to {shown_address}, {reason}"
    )
    assert resolver.calls == ["evil.example.test"]


def test_one_private_address_among_public_ones_refuses_the_host(resolver: FakeResolver) -> None:
    resolver.names["mixed.example.test"] = ["93.184.215.14", "2606:2800:21f:cb07::1", "10.0.0.7"]

    with pytest.raises(DocumentRejected) as caught:
        check_url("https://mixed.example.test/a.pdf")

    assert caught.value.code == "url_refused"
    assert "10.0.0.7, a private address" in caught.value.message


def test_check_url_returns_every_resolved_public_address(resolver: FakeResolver) -> None:
    resolver.names[NAME] = ["93.184.215.14", "2606:2800:21f:cb07::1", "93.184.215.14"]

    addresses = check_url(f"https://{NAME}/a.pdf")

    assert addresses == ["93.184.215.14", "2606:2800:21f:cb07::1"]


@pytest.mark.parametrize("address", ["127.0.0.1", "127.8.9.10", "::1"])
def test_allow_loopback_lets_loopback_addresses_through(resolver: FakeResolver, address: str) -> None:
    resolver.names["local.example.test"] = [address]

    assert check_url("http://local.example.test/", allow_loopback=True) == [address]


@pytest.mark.parametrize(
    "address",
    [
        "10.0.0.1",
        "192.168.0.10",
        "169.254.169.254",
        "fd00:ec2::254",
        "::ffff:10.0.0.1",
        "0.0.0.0",  # noqa: S104 -- an address to refuse, not one to bind
    ],
)
def test_allow_loopback_still_refuses_private_and_metadata_addresses(
    resolver: FakeResolver, address: str
) -> None:
    resolver.names["local.example.test"] = [address]

    with pytest.raises(DocumentRejected) as caught:
        check_url("http://local.example.test/", allow_loopback=True)

    assert caught.value.code == "url_refused"


# ---------------------------------------------------------------------------- refused URL forms


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://2130706433/", "writes the IP address 127.0.0.1 in a non-standard form"),
        ("http://0x7f000001/", "writes the IP address 127.0.0.1 in a non-standard form"),
        ("http://0177.0.0.1/", "writes the IP address 127.0.0.1 in a non-standard form"),
        ("http://127.1/", "writes the IP address 127.0.0.1 in a non-standard form"),
        ("http://0x7f.0.0.1/", "writes the IP address 127.0.0.1 in a non-standard form"),
        ("http://0X7F.1/", "writes the IP address 127.0.0.1 in a non-standard form"),
        ("http://012.0.0.1/", "writes the IP address 10.0.0.1 in a non-standard form"),
        ("http://167772161/", "writes the IP address 10.0.0.1 in a non-standard form"),
        ("http://127.0.0.1./", "not a valid IPv4 address"),
        ("http://1.2.3.4.5/", "not a valid IPv4 address"),
        ("http://99999999999/", "not a valid IPv4 address"),
        ("http://127.0.0.1/", "resolves to 127.0.0.1, a loopback address"),
        ("http://127.0.0.1:8080/x", "resolves to 127.0.0.1, a loopback address"),
        ("http://10.0.0.1/x", "resolves to 10.0.0.1, a private address"),
        ("http://169.254.169.254/latest/meta-data/", "a cloud metadata address"),
        ("http://[::1]/", "resolves to ::1, a loopback address"),
        ("http://[::1]:8000/doc", "resolves to ::1, a loopback address"),
        ("http://[::ffff:7f00:1]/", "which embeds 127.0.0.1, a loopback address"),
        ("http://[::ffff:127.0.0.1]/", "which embeds 127.0.0.1, a loopback address"),
        ("http://[fd00:ec2::254]/", "a cloud metadata address"),
        ("http://[fe80::1%25eth0]/", "scoped host"),
        (
            "http://\uff11\uff12\uff17.0.0.1/",
            "resolves to 127.0.0.1, a loopback address",
        ),  # full-width digits
    ],
)
def test_ip_literals_and_numeric_host_forms_are_judged_without_a_lookup(
    resolver: FakeResolver, url: str, words: str
) -> None:
    error = rejection(url)

    assert error.code == "url_refused"
    assert error.status_code == 400
    assert words in error.message
    assert resolver.calls == []


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://docs.example.test/doc.pdf",
        "gopher://docs.example.test:70/_GET",
        "data:application/pdf;base64,JVBERi0xLjcK",
        "javascript:alert(1)",
        "dict://docs.example.test:11211/stats",
        "docs.example.test/doc.pdf",
        "//docs.example.test/doc.pdf",
    ],
)
def test_only_http_and_https_urls_are_accepted(resolver: FakeResolver, url: str) -> None:
    resolver.names[NAME] = ["93.184.215.14"]

    error = rejection(url)

    assert error.code == "url_refused"
    assert "is not an http or https URL" in error.message


@pytest.mark.parametrize(
    "url",
    [
        f"http://user:s3cr3t-pass@{NAME}/doc.pdf",
        f"https://user@{NAME}/doc.pdf",
        f"http://:s3cr3t-pass@{NAME}/doc.pdf",
        f"http://{NAME}@10.0.0.1/doc.pdf",
    ],
)
def test_urls_with_a_user_name_or_password_are_refused_without_echoing_it(
    resolver: FakeResolver, url: str
) -> None:
    resolver.names[NAME] = ["93.184.215.14"]

    error = rejection(url)

    assert error.code == "url_refused"
    assert "user name or password" in error.message
    assert "s3cr3t" not in error.message
    assert resolver.calls == []


@pytest.mark.parametrize(
    "url", ["http:///doc.pdf", "https://", "http://:80/doc.pdf", "http://?x=1", "http:doc"]
)
def test_a_url_without_a_host_is_refused(url: str) -> None:
    error = rejection(url)

    assert error.code == "url_refused"
    assert "has no host" in error.message


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (f"http://{NAME}:99999/", "is not a valid URL"),
        (f"http://{NAME}:http/", "is not a valid URL"),
        ("http://[::1/", "is not a valid URL"),
        (f"http://{NAME}/a b.pdf", "spaces or control characters"),
        (f"http://{NAME}/a\r\nX-Injected: 1", "spaces or control characters"),
        (f"http://{NAME}\x00.evil/", "spaces or control characters"),
        ("http://exa%6dple.test/", "percent-encoded"),
        ("http://under!score.test/", "not a valid name"),
        ("http://a..b.test/", "not a valid name"),
    ],
)
def test_malformed_urls_are_refused(url: str, words: str) -> None:
    error = rejection(url)

    assert error.code == "url_refused"
    assert words in error.message


def test_a_query_string_is_not_echoed_in_a_message() -> None:
    error = rejection("http://10.0.0.1/doc.pdf?X-Amz-Signature=topsecret")

    assert error.message == "refused: 'http://10.0.0.1/doc.pdf?...' resolves to 10.0.0.1, a private address"


def test_a_name_that_does_not_resolve_is_unreachable(resolver: FakeResolver) -> None:
    error = rejection("https://nowhere.example.test/doc.pdf")

    assert error.code == "url_unreachable"
    assert error.status_code == 400
    assert "could not be resolved" in error.message
    assert resolver.calls == ["nowhere.example.test"]


# ---------------------------------------------------------------------------- local servers


@dataclass(frozen=True)
class Seen:
    path: str
    headers: dict[str, str]


class LocalServer(LoopbackServer):
    """Serves the routes of Handler."""

    def __init__(self) -> None:
        super().__init__(Handler)
        self.seen: list[Seen] = []


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    @property
    def local(self) -> LocalServer:
        return cast(LocalServer, self.server)

    def do_GET(self) -> None:
        self.local.seen.append(Seen(self.path, dict(self.headers.items())))
        parts = urlsplit(self.path)
        route = parts.path.strip("/").split("/")
        with suppress(OSError):  # the client went away first: what several tests want
            self.answer(route, parse_qs(parts.query))

    def answer(self, route: list[str], query: dict[str, list[str]]) -> None:
        match route:
            case ["doc"]:
                self.send(200, DOCUMENT, content_type="Application/PDF; charset=binary")
            case ["untyped"]:
                self.send(200, b"no type", content_type=None)
            case ["echo-host"]:
                self.send(200, self.headers.get("Host", "").encode(), content_type="text/plain")
            case ["missing"]:
                self.send(404, b"not here", content_type="text/plain")
            case ["broken"]:
                self.send(500, b"oops", content_type="text/plain")
            case ["declared-big"]:
                self.declared_big()
            case ["streamed-big"]:
                self.streamed_big()
            case ["truncated"]:
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                self.wfile.write(b"only ten b")
            case ["redirect", count]:
                left = int(count) - 1
                self.redirect("/doc" if left == 0 else f"/redirect/{left}")
            case ["redirect-to"]:
                self.redirect(query["location"][0])
            case ["redirect-nowhere"]:
                self.send(302, b"", content_type=None)
            case ["stall"]:
                self.local.release.wait(5)
                self.send(200, DOCUMENT, content_type="application/pdf")
            case ["drip"]:
                self.drip()
            case ["drip-headers"]:
                self.drip_headers()
            case _:
                self.send(404, b"", content_type=None)

    def send(self, status: int, body: bytes, *, content_type: str | None) -> None:
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def declared_big(self) -> None:
        """Declares far more than the cap, sends a little, then waits: only the header can stop the client."""
        self.send_response(200)
        self.send_header("Content-Length", str(50 * CAP))
        self.end_headers()
        self.wfile.write(b"x" * 10)
        self.wfile.flush()
        self.local.release.wait(5)

    def streamed_big(self) -> None:
        """No Content-Length: the body runs until the connection closes, well past the cap."""
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        for _ in range(640):  # 10 MiB at most
            if self.local.release.is_set():
                return
            self.wfile.write(b"y" * 16 * 1024)

    def drip(self) -> None:
        """A byte now and then: each receive succeeds quickly, the whole never arrives in time."""
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        for _ in range(1000):
            if self.local.release.wait(0.02):
                return
            self.wfile.write(b"z")
            self.wfile.flush()

    def drip_headers(self) -> None:
        """Headers one at a time: each line arrives quickly, the whole takes far longer than allowed."""
        self.send_response(200)
        self.flush_headers()
        for number in range(90):
            if self.local.release.wait(0.02):
                return
            self.wfile.write(f"X-Slow-{number}: {number}\r\n".encode())
            self.wfile.flush()
        self.wfile.write(b"Content-Length: 0\r\n\r\n")


@contextmanager
def serving(server: LocalServer) -> Iterator[LocalServer]:
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
def server() -> Iterator[LocalServer]:
    with serving(LocalServer()) as running:
        yield running


def local_fetch(url: str, **options: Any) -> Fetched:
    options.setdefault("max_bytes", CAP)
    return fetch_document(url, allow_loopback=True, **options)


def local_rejection(url: str, **options: Any) -> DocumentRejected:
    with pytest.raises(DocumentRejected) as caught:
        local_fetch(url, **options)
    return caught.value


# ---------------------------------------------------------------------------- real fetches


def test_a_document_is_fetched_with_its_media_type(server: LocalServer) -> None:
    url = f"http://127.0.0.1:{server.port}/doc"

    fetched = local_fetch(url)

    assert fetched == Fetched(DOCUMENT, "application/pdf", url)
    [seen] = server.seen
    assert seen.headers["Accept-Encoding"] == "identity"
    assert seen.headers["User-Agent"] == "docsvc-fetch/1"
    assert seen.headers["Host"] == f"127.0.0.1:{server.port}"


def test_a_missing_content_type_is_none(server: LocalServer) -> None:
    fetched = local_fetch(f"http://127.0.0.1:{server.port}/untyped")

    assert fetched.content == b"no type"
    assert fetched.content_type is None


def test_a_fragment_is_not_sent_and_the_query_is(server: LocalServer) -> None:
    local_fetch(f"http://127.0.0.1:{server.port}/doc?version=2#page=3")

    assert [seen.path for seen in server.seen] == ["/doc?version=2"]


@pytest.mark.parametrize(("path", "status"), [("missing", 404), ("broken", 500)])
def test_an_error_status_is_a_remote_error(server: LocalServer, path: str, status: int) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/{path}")

    assert error.code == "remote_error"
    assert error.status_code == 400
    assert f"HTTP status {status}" in error.message


def test_a_declared_length_over_the_cap_is_refused_before_reading(server: LocalServer) -> None:
    started = time.monotonic()

    error = local_rejection(f"http://127.0.0.1:{server.port}/declared-big", total_timeout=3)

    assert error.code == "too_large"
    assert error.status_code == 413
    assert f"declares {50 * CAP} bytes" in error.message
    assert time.monotonic() - started < 1


def test_a_body_without_length_is_cut_off_at_the_cap(server: LocalServer) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/streamed-big")

    assert error.code == "too_large"
    assert error.status_code == 413
    assert f"larger than the limit of {CAP} bytes" in error.message


def test_a_body_exactly_at_the_cap_is_accepted(server: LocalServer) -> None:
    fetched = local_fetch(f"http://127.0.0.1:{server.port}/doc", max_bytes=len(DOCUMENT))

    assert fetched.content == DOCUMENT


def test_a_body_one_byte_over_the_cap_is_refused(server: LocalServer) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/doc", max_bytes=len(DOCUMENT) - 1)

    assert error.code == "too_large"


def test_a_body_cut_short_is_a_remote_error(server: LocalServer) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/truncated")

    assert error.code == "remote_error"
    assert "closed before the whole document arrived" in error.message


def test_three_redirects_are_followed(server: LocalServer) -> None:
    fetched = local_fetch(f"http://127.0.0.1:{server.port}/redirect/3")

    assert fetched.content == DOCUMENT
    assert fetched.url == f"http://127.0.0.1:{server.port}/doc"
    assert [seen.path for seen in server.seen] == ["/redirect/3", "/redirect/2", "/redirect/1", "/doc"]


def test_a_fourth_redirect_is_refused(server: LocalServer) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/redirect/4")

    assert error.code == "too_many_redirects"
    assert error.status_code == 400
    assert "more than 3 times" in error.message
    assert len(server.seen) == 4


def test_max_redirects_zero_follows_none(server: LocalServer) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/redirect/1", max_redirects=0)

    assert error.code == "too_many_redirects"


def test_a_redirect_without_location_is_a_remote_error(server: LocalServer) -> None:
    error = local_rejection(f"http://127.0.0.1:{server.port}/redirect-nowhere")

    assert error.code == "remote_error"
    assert "without a Location" in error.message


@pytest.mark.parametrize(
    ("location", "words"),
    [
        ("http://10.0.0.1/", "resolves to 10.0.0.1, a private address"),
        ("http://169.254.169.254/latest/meta-data/iam/", "a cloud metadata address"),
        ("http://[fd00:ec2::254]/", "a cloud metadata address"),
        ("http://2130706433/", "non-standard form"),
        ("http://inside.example.test/", "resolves to 192.168.7.7, a private address"),
        ("file:///etc/passwd", "is not an http or https URL"),
        ("http://admin:pw@127.0.0.1/", "user name or password"),
    ],
)
def test_a_redirect_is_checked_like_the_first_url_even_with_allow_loopback(
    server: LocalServer, resolver: FakeResolver, location: str, words: str
) -> None:
    resolver.names["inside.example.test"] = ["192.168.7.7"]

    url = f"http://127.0.0.1:{server.port}/redirect-to?location={location}"

    error = local_rejection(url)

    assert error.code == "url_refused"
    assert words in error.message
    assert error.message.endswith(
        f"(reached by a redirect from 'http://127.0.0.1:{server.port}/redirect-to?...')"
    )
    assert len(server.seen) == 1


def test_a_server_that_stalls_times_out_quickly(server: LocalServer) -> None:
    started = time.monotonic()

    error = local_rejection(f"http://127.0.0.1:{server.port}/stall", total_timeout=0.5)

    assert error.code == "url_timeout"
    assert error.status_code == 400
    assert "took longer than the limit of 0.5 s" in error.message
    assert time.monotonic() - started < 1.5


def test_a_server_that_drips_bytes_is_stopped_at_the_total_deadline(server: LocalServer) -> None:
    started = time.monotonic()

    error = local_rejection(f"http://127.0.0.1:{server.port}/drip", total_timeout=0.5)

    assert error.code == "url_timeout"
    assert time.monotonic() - started < 1.5


def test_a_server_that_drips_headers_is_stopped_at_the_total_deadline(server: LocalServer) -> None:
    started = time.monotonic()

    error = local_rejection(f"http://127.0.0.1:{server.port}/drip-headers", total_timeout=0.5)

    assert error.code == "url_timeout"
    assert time.monotonic() - started < 1.5


def test_a_closed_port_is_unreachable() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    error = local_rejection(f"http://127.0.0.1:{port}/doc")

    assert error.code == "url_unreachable"
    assert "refused the connection" in error.message


def test_without_allow_loopback_the_local_server_is_refused_and_never_contacted(server: LocalServer) -> None:
    with pytest.raises(DocumentRejected) as caught:
        fetch_document(f"http://127.0.0.1:{server.port}/doc", max_bytes=CAP)

    assert caught.value.code == "url_refused"
    assert "a loopback address" in caught.value.message
    assert server.seen == []


# ---------------------------------------------------------------------------- the pinned connection


def test_the_connection_goes_to_the_checked_address_with_the_name_in_host(
    server: LocalServer, resolver: FakeResolver
) -> None:
    resolver.names[NAME] = ["127.0.0.1"]

    fetched = local_fetch(f"http://{NAME}:{server.port}/echo-host")

    assert fetched.content == f"{NAME}:{server.port}".encode()
    assert server.seen[0].headers["Host"] == f"{NAME}:{server.port}"
    assert resolver.calls == [NAME]


def test_each_hop_resolves_its_name_exactly_once(server: LocalServer, resolver: FakeResolver) -> None:
    resolver.names[NAME] = ["127.0.0.1"]

    fetched = local_fetch(f"http://{NAME}:{server.port}/redirect/2")

    assert fetched.url == f"http://{NAME}:{server.port}/doc"
    assert resolver.calls == [NAME, NAME, NAME]
    assert [seen.headers["Host"] for seen in server.seen] == [f"{NAME}:{server.port}"] * 3


def test_a_name_that_changes_its_answer_after_the_check_is_not_asked_again(
    server: LocalServer, resolver: FakeResolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter([["127.0.0.1"], ["10.0.0.1"]])

    def rebinding(host: str, port: int | str | None, *args: Any, **kwargs: Any) -> list[Any]:
        resolver.names[host] = next(answers)
        return resolver(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)

    fetched = local_fetch(f"http://rebind.example.test:{server.port}/doc")

    assert fetched.content == DOCUMENT
    assert resolver.calls == ["rebind.example.test"]


def test_the_next_checked_address_is_tried_when_one_refuses(
    server: LocalServer, resolver: FakeResolver
) -> None:
    resolver.names[NAME] = ["127.0.0.2", "127.0.0.1"]  # nothing listens on 127.0.0.2

    fetched = local_fetch(f"http://{NAME}:{server.port}/doc")

    assert fetched.content == DOCUMENT


# ---------------------------------------------------------------------------- https


@pytest.fixture(scope="module")
def ca() -> Any:
    trustme = pytest.importorskip("trustme")
    return trustme.CA()


@dataclass
class TlsServer:
    server: LocalServer
    client_context: ssl.SSLContext
    server_names: list[str | None]

    @property
    def port(self) -> int:
        return self.server.port


@pytest.fixture
def tls_server(ca: Any) -> Iterator[TlsServer]:
    server_names: list[str | None] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(NAME).configure_cert(context)
    context.sni_callback = lambda _socket, name, _context: server_names.append(name)
    client_context = ssl.create_default_context()
    ca.configure_trust(client_context)
    server = LocalServer()
    server.socket = context.wrap_socket(server.socket, server_side=True)
    with serving(server) as running:
        yield TlsServer(running, client_context, server_names)


def test_https_verifies_the_certificate_against_the_name(
    tls_server: TlsServer, resolver: FakeResolver
) -> None:
    resolver.names[NAME] = ["127.0.0.1"]
    url = f"https://{NAME}:{tls_server.port}/doc"

    fetched = local_fetch(url, ssl_context=tls_server.client_context)

    assert fetched == Fetched(DOCUMENT, "application/pdf", url)
    assert tls_server.server_names == [NAME]
    assert tls_server.server.seen[0].headers["Host"] == f"{NAME}:{tls_server.port}"


def test_https_under_another_name_fails_verification(tls_server: TlsServer, resolver: FakeResolver) -> None:
    resolver.names["other.example.test"] = ["127.0.0.1"]

    error = local_rejection(
        f"https://other.example.test:{tls_server.port}/doc", ssl_context=tls_server.client_context
    )

    assert error.code == "url_unreachable"
    assert "certificate" in error.message
    assert tls_server.server.seen == []


def test_https_to_the_bare_address_fails_verification(tls_server: TlsServer) -> None:
    error = local_rejection(f"https://127.0.0.1:{tls_server.port}/doc", ssl_context=tls_server.client_context)

    assert error.code == "url_unreachable"
    assert "certificate" in error.message


def test_https_with_the_default_trust_store_refuses_an_unknown_ca(
    tls_server: TlsServer, resolver: FakeResolver
) -> None:
    resolver.names[NAME] = ["127.0.0.1"]

    error = local_rejection(f"https://{NAME}:{tls_server.port}/doc")

    assert error.code == "url_unreachable"
    assert "certificate" in error.message


def test_https_to_a_plain_http_server_is_unreachable(server: LocalServer, resolver: FakeResolver) -> None:
    resolver.names[NAME] = ["127.0.0.1"]

    error = local_rejection(f"https://{NAME}:{server.port}/doc")

    assert error.code == "url_unreachable"
    assert "TLS handshake" in error.message
