"""Fetch customer-supplied document URLs without letting them reach our own network (SSRF).

A URL, and every redirect it leads to, must be http(s) with a host and no user:password. The host is
resolved once and every address it resolves to must be public: loopback, private, link-local, shared
(CGNAT), multicast, broadcast, reserved, unspecified and cloud metadata addresses are refused, and so are
IPv6 forms that embed such an IPv4 (mapped, 6to4, NAT64, Teredo) and numeric host spellings such as
2130706433 or 0x7f.1. The connection then goes to the very address that was checked (no second lookup,
so DNS rebinding cannot swap it), while the Host header, TLS SNI and the certificate check use the name.
Size, time and the number of redirects are capped.

Webhook POSTs (`post_webhook`) go through the same URL check and pinned connection, follow no redirect,
and report every outcome, network failures included, as a `WebhookResponse` instead of raising.
"""

from __future__ import annotations

import email.utils
import http.client
import io
import ipaddress
import math
import re
import socket
import ssl
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, quote, urljoin, urlsplit, urlunsplit

from docsvc.errors import DocumentRejected

if TYPE_CHECKING:
    from http.client import _DataType

    from _typeshed import WriteableBuffer

__all__ = ["Fetched", "WebhookResponse", "check_url", "fetch_document", "post_webhook"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_CHUNK = 64 * 1024
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_REQUEST_HEADERS = {
    "Accept": "*/*",
    "Accept-Encoding": "identity",
    "User-Agent": "docsvc-fetch/1",
    "Connection": "close",
}
_WEBHOOK_HEADERS = {"User-Agent": "docsvc-webhooks/1", "Connection": "close"}
# Headers post_webhook sets itself; a caller's header of the same name (any case) is dropped.
_WEBHOOK_OWN_HEADERS = frozenset({"host", "content-length", "transfer-encoding", "user-agent", "connection"})
_WEBHOOK_BODY_READ = 4 * 1024
_RETRY_AFTER_SECONDS = re.compile(r"[+-]?[0-9]+")
_SHOWN_MAX = 120
_HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")
_HEX_NUMBER = re.compile(r"0x[0-9a-f]*")
# Printable ASCII goes on the request line as written; anything else is percent-encoded as UTF-8.
_REQUEST_LINE_SAFE = "".join(chr(code) for code in range(0x21, 0x7F))

_METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(text) for text in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)
_NAMED_NETWORKS: tuple[tuple[IPNetwork, str], ...] = (
    (ipaddress.ip_network("10.0.0.0/8"), "a private address"),
    (ipaddress.ip_network("172.16.0.0/12"), "a private address"),
    (ipaddress.ip_network("192.168.0.0/16"), "a private address"),
    (ipaddress.ip_network("fc00::/7"), "a private address"),
    (ipaddress.ip_network("100.64.0.0/10"), "a shared (carrier-grade NAT) address"),
    (ipaddress.ip_network("fec0::/10"), "a site-local address"),
    (ipaddress.ip_network("192.0.0.0/24"), "a special-purpose address"),
)
_NAT64_NETWORKS = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))


@dataclass(frozen=True)
class Fetched:
    """A fetched document: its bytes, its media type (`application/pdf`, no parameters) and where it was."""

    content: bytes
    content_type: str | None
    url: str  # the final URL, after redirects


@dataclass(frozen=True)
class WebhookResponse:
    """How one webhook POST went; `error` is None exactly when the answer was 2xx."""

    status_code: int | None  # None when no HTTP answer came (refused, timed out, TLS failure, URL blocked)
    latency_ms: int  # from the start of the attempt to the answer's status line and headers (or the failure)
    # The answer's Retry-After as seconds from now (>= 0); None if absent or unreadable.
    retry_after_seconds: int | None
    error: str | None  # a short reason for people when the answer was not 2xx
    body: bytes = b""  # the answer's body, up to `keep_body` bytes


@dataclass(frozen=True)
class _Target:
    """A checked URL: where to connect and what to ask for."""

    url: str
    shown: str
    scheme: str
    host: str  # ASCII host name, or an IP address without brackets
    port: int
    request_target: str
    addresses: tuple[IPAddress, ...]


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left; TimeoutError once none are."""
        left = self._end - time.monotonic()
        if left <= 0:
            raise TimeoutError("the total time allowed has passed")
        return left

    def expired(self) -> bool:
        return time.monotonic() >= self._end


# ---------------------------------------------------------------------------- public API


def check_url(url: str, *, allow_loopback: bool = False) -> list[str]:
    """The addresses `url`'s host resolves to, once each is known to be allowed; DocumentRejected if not."""
    return [str(address) for address in _checked_target(url, allow_loopback=allow_loopback).addresses]


def fetch_document(
    url: str,
    *,
    max_bytes: int,
    allow_loopback: bool = False,
    connect_timeout: float = 5.0,
    total_timeout: float = 30.0,
    max_redirects: int = 3,
    ssl_context: ssl.SSLContext | None = None,
) -> Fetched:
    """GET `url`, following at most `max_redirects` redirects, each checked like the first URL.

    `allow_loopback` lets 127.0.0.0/8 and ::1 through (a local stack, tests); nothing else is relaxed.
    """
    deadline = _Deadline(total_timeout)
    current = url
    redirects = 0
    while True:
        target = (
            _checked_target(current, allow_loopback=allow_loopback)
            if redirects == 0
            else _checked_redirect(current, url, allow_loopback=allow_loopback)
        )
        outcome = _fetch_once(
            target,
            max_bytes=max_bytes,
            connect_timeout=connect_timeout,
            deadline=deadline,
            tls=_tls_context(target, ssl_context),
        )
        if isinstance(outcome, Fetched):
            return outcome
        if redirects >= max_redirects:
            raise DocumentRejected(
                "too_many_redirects", f"{_shown(url)!r} redirected more than {max_redirects} times", 400
            )
        redirects += 1
        current = urljoin(current, outcome)


def post_webhook(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    allow_loopback: bool = False,
    timeout: float = 10.0,
    ssl_context: ssl.SSLContext | None = None,
    method: str = "POST",
    keep_body: int = 0,
) -> WebhookResponse:
    """POST `body` to `url` once, with `headers` plus Content-Length, User-Agent and `Connection: close`.

    The URL is checked like a document URL and the connection pinned to the checked addresses. `timeout`
    bounds connect, send and answer together. Redirects are not followed (a 3xx is a failure), at most
    4 KiB of the answer's body is read (`keep_body` bytes of it kept, for APIs). Never raises for a
    refused URL or a network failure.
    """
    started = time.monotonic()
    deadline = _Deadline(timeout)
    try:
        target = _checked_target(url, allow_loopback=allow_loopback)
    except DocumentRejected as error:
        return WebhookResponse(None, _elapsed_ms(started), None, _webhook_refusal(error))
    request_headers = {
        name: value for name, value in headers.items() if name.lower() not in _WEBHOOK_OWN_HEADERS
    }
    request_headers.update(_WEBHOOK_HEADERS)
    request_headers["Content-Length"] = str(len(body))
    connection = _WebhookConnection(
        target, connect_timeout=timeout, deadline=deadline, tls=_tls_context(target, ssl_context)
    )
    try:
        try:
            connection.request(method, target.request_target, body=body, headers=request_headers)
        except (OSError, http.client.HTTPException):
            raise  # handled below; ssl.SSLCertVerificationError is also a ValueError
        except ValueError as error:  # a header name or value http.client refuses to send (CR/LF, non-Latin-1)
            return WebhookResponse(None, _elapsed_ms(started), None, f"invalid request: {error}")
        response = connection.getresponse()
        latency_ms = _elapsed_ms(started)
        try:
            kept = _read_some(response, deadline, max(keep_body, _WEBHOOK_BODY_READ))[:keep_body]
        finally:
            response.close()
    except (OSError, http.client.HTTPException) as error:  # ssl.SSLError and TimeoutError are OSErrors
        return WebhookResponse(None, _elapsed_ms(started), None, _webhook_failure(error, deadline))
    finally:
        connection.close()
    status = response.status
    retry_after = _retry_after_seconds(response.getheader("Retry-After"))
    return WebhookResponse(status, latency_ms, retry_after, _status_error(status), kept)


# ---------------------------------------------------------------------------- checking a URL


def _checked_target(url: str, *, allow_loopback: bool) -> _Target:
    shown = _shown(url)
    parts, port = _split_url(url, shown)
    host, literal = _parse_host(parts, shown)
    addresses = (literal,) if literal is not None else _resolve(host, port, shown)
    for address in addresses:
        reason = _refusal_reason(address, allow_loopback=allow_loopback)
        if reason is not None:
            raise _refused(f"refused: {shown!r} resolves to {address}, {reason}")
    return _Target(url, shown, parts.scheme, host, port, _request_target(parts), addresses)


def _checked_redirect(url: str, first_url: str, *, allow_loopback: bool) -> _Target:
    """Like _checked_target; a refusal also names the URL the redirects started from."""
    try:
        return _checked_target(url, allow_loopback=allow_loopback)
    except DocumentRejected as error:
        message = f"{error.message} (reached by a redirect from {_shown(first_url)!r})"
        raise DocumentRejected(error.code, message, error.status_code) from None


def _split_url(url: str, shown: str) -> tuple[SplitResult, int]:
    """The URL's parts and port, once its form is allowed: http(s), a host, no user:password, a valid port."""
    if any(char.isspace() or not char.isprintable() for char in url):
        raise _refused(f"refused: {shown!r} contains spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port  # ValueError for a port that is not a number from 0 to 65535
    except ValueError:
        raise _refused(f"refused: {shown!r} is not a valid URL") from None
    if parts.scheme not in _DEFAULT_PORTS:
        raise _refused(f"refused: {shown!r} is not an http or https URL")
    if "@" in parts.netloc:
        raise _refused(f"refused: {shown!r} holds a user name or password; they are not accepted in URLs")
    if not parts.hostname:
        raise _refused(f"refused: {shown!r} has no host")
    return parts, _DEFAULT_PORTS[parts.scheme] if port is None else port


def _parse_host(parts: SplitResult, shown: str) -> tuple[str, IPAddress | None]:
    """The host as sent (ASCII), and its address when the URL names one instead of a host name."""
    hostname = parts.hostname or ""
    if "%" in hostname:
        raise _refused(f"refused: {shown!r} has a percent-encoded or scoped host")
    if "[" in parts.netloc or ":" in hostname:
        return hostname, _ipv6_literal(hostname, shown)
    try:
        host = hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise _refused(f"refused: {shown!r} has a host that is not a valid name") from None
    if _is_numeric_host(host):
        return host, _canonical_ipv4(host, shown)
    if not _HOST_NAME.fullmatch(host):
        raise _refused(f"refused: {shown!r} has a host that is not a valid name")
    return host, None


def _ipv6_literal(hostname: str, shown: str) -> ipaddress.IPv6Address:
    try:
        return ipaddress.IPv6Address(hostname)
    except ValueError:
        raise _refused(f"refused: {shown!r} has a host that is not a valid IPv6 address") from None


def _is_numeric_host(host: str) -> bool:
    """Whether a host ends in a number, as URL parsers read it: then it is an IPv4 address, not a name."""
    last_label = host.removesuffix(".").rpartition(".")[2]
    return last_label.isdigit() or _HEX_NUMBER.fullmatch(last_label) is not None


def _canonical_ipv4(host: str, shown: str) -> ipaddress.IPv4Address:
    """The address of a dotted quad; any other numeric spelling (decimal, hex, octal, short) is refused."""
    try:
        return ipaddress.IPv4Address(host)
    except ValueError:
        pass
    try:
        meant = socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        raise _refused(f"refused: {shown!r} has a numeric host that is not a valid IPv4 address") from None
    raise _refused(f"refused: {shown!r} writes the IP address {meant} in a non-standard form")


def _resolve(host: str, port: int, shown: str) -> tuple[IPAddress, ...]:
    """Every IPv4 and IPv6 address of `host`, in the resolver's order, each once."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise _unreachable(f"{shown!r}: the host {host} could not be resolved") from None
    addresses: list[IPAddress] = []
    for family, _, _, _, sockaddr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        address = ipaddress.ip_address(str(sockaddr[0]).partition("%")[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise _unreachable(f"{shown!r}: the host {host} has no IP address")
    return tuple(addresses)


def _refusal_reason(address: IPAddress, *, allow_loopback: bool) -> str | None:
    """Why a connection to `address` is refused, in words for a message; None when it is allowed."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        # The connection goes to the IPv4 address itself: judge that one alone.
        return _embedded_reason(address.ipv4_mapped, allow_loopback=allow_loopback)
    for embedded in _embedded_ipv4s(address):
        reason = _embedded_reason(embedded, allow_loopback=allow_loopback)
        if reason is not None:
            return reason
    return _direct_reason(address, allow_loopback=allow_loopback)


def _embedded_reason(embedded: ipaddress.IPv4Address, *, allow_loopback: bool) -> str | None:
    reason = _direct_reason(embedded, allow_loopback=allow_loopback)
    return None if reason is None else f"which embeds {embedded}, {reason}"


def _embedded_ipv4s(address: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses that a 6to4, Teredo or NAT64 IPv6 address carries (none for others)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    if any(address in network for network in _NAT64_NETWORKS):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def _direct_reason(address: IPAddress, *, allow_loopback: bool) -> str | None:
    if address in _METADATA_ADDRESSES:
        return "a cloud metadata address"
    if address.is_loopback:
        return None if allow_loopback else "a loopback address"
    if address.is_unspecified:
        return "an unspecified address"
    if address == ipaddress.IPv4Address("255.255.255.255"):
        return "the broadcast address"
    if address.is_multicast:
        return "a multicast address"
    if address.is_link_local:
        return "a link-local address"
    for network, reason in _NAMED_NETWORKS:
        if address in network:
            return reason
    if address.is_reserved:
        return "a reserved address"
    if not address.is_global:
        return "not a public address"
    return None


# ---------------------------------------------------------------------------- fetching one URL


def _fetch_once(
    target: _Target,
    *,
    max_bytes: int,
    connect_timeout: float,
    deadline: _Deadline,
    tls: ssl.SSLContext | None,
) -> Fetched | str:
    """The document at `target`, or the Location it redirects to."""
    connection = _PinnedConnection(target, connect_timeout=connect_timeout, deadline=deadline, tls=tls)
    try:
        connection.request("GET", target.request_target, headers=_REQUEST_HEADERS)
        response = connection.getresponse()
        try:
            return _read_outcome(target, response, max_bytes=max_bytes, deadline=deadline)
        finally:
            response.close()
    except (OSError, http.client.HTTPException) as error:
        raise _rejection_for(error, target, connect_timeout=connect_timeout, deadline=deadline) from None
    finally:
        connection.close()


def _read_outcome(
    target: _Target, response: http.client.HTTPResponse, *, max_bytes: int, deadline: _Deadline
) -> Fetched | str:
    if response.status in _REDIRECT_STATUSES:
        location = response.getheader("Location")
        if not location:
            raise _remote_error(f"{target.shown!r} answered {response.status} without a Location to go to")
        return location
    if not 200 <= response.status < 300:
        raise _remote_error(f"{target.shown!r} answered with HTTP status {response.status}")
    if response.length is not None and response.length > max_bytes:
        raise _too_large(f"{target.shown!r} declares {response.length} bytes, over the limit of {max_bytes}")
    content = _read_capped(target, response, max_bytes=max_bytes, deadline=deadline)
    return Fetched(content, _media_type(response.getheader("Content-Type")), target.url)


def _read_capped(
    target: _Target, response: http.client.HTTPResponse, *, max_bytes: int, deadline: _Deadline
) -> bytes:
    """The body in chunks, stopped as soon as it passes `max_bytes` or the deadline."""
    chunks: list[bytes] = []
    total = 0
    while True:
        deadline.remaining()
        chunk = response.read1(_CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > max_bytes:
            raise _too_large(f"{target.shown!r} is larger than the limit of {max_bytes} bytes")
        chunks.append(chunk)
    if response.length:  # read1 signals a body cut short by an empty read, not by IncompleteRead
        raise _remote_error(f"{target.shown!r}: the connection closed before the whole document arrived")
    return b"".join(chunks)


def _media_type(content_type: str | None) -> str | None:
    """`text/html` from `Text/HTML; charset=utf-8`; None when there is none."""
    media_type = (content_type or "").partition(";")[0].strip().lower()
    return media_type or None


def _tls_context(target: _Target, given: ssl.SSLContext | None) -> ssl.SSLContext | None:
    if target.scheme != "https":
        return None
    return given if given is not None else ssl.create_default_context()


class _PinnedConnection(http.client.HTTPConnection):
    """HTTP(S) to one of the addresses that were checked; Host, SNI and the certificate check use the name."""

    def __init__(
        self, target: _Target, *, connect_timeout: float, deadline: _Deadline, tls: ssl.SSLContext | None
    ) -> None:
        super().__init__(target.host, target.port, timeout=connect_timeout)
        self.default_port = _DEFAULT_PORTS[target.scheme]  # the Host header names the port only if not this
        self.response_class = _deadline_response_class(deadline)
        self._addresses = target.addresses
        self._connect_timeout = connect_timeout
        self._deadline = deadline
        self._tls = tls

    def connect(self) -> None:
        sock = _connect_first(self._addresses, self.port, self._connect_timeout, self._deadline)
        try:
            sock.settimeout(self._deadline.remaining())
            if self._tls is not None:
                sock = self._tls.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise
        self.sock = sock


def _connect_first(
    addresses: tuple[IPAddress, ...], port: int, connect_timeout: float, deadline: _Deadline
) -> socket.socket:
    """A TCP connection to the first of `addresses` that accepts one."""
    failure: OSError = ConnectionError("no address to connect to")
    for address in addresses:
        try:
            return _connect(address, port, min(connect_timeout, deadline.remaining()))
        except OSError as error:
            failure = error
    raise failure


def _connect(address: IPAddress, port: int, timeout: float) -> socket.socket:
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect((str(address), port))
    except BaseException:
        sock.close()
        raise
    return sock


class _DeadlineReader(io.RawIOBase):
    """A socket's bytes, where each receive may wait only for the time left before the deadline.

    A per-receive timeout alone lets a server that sends a byte now and then hold the fetch for ever.
    """

    def __init__(self, sock: socket.socket, deadline: _Deadline) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)  # a reference that keeps the socket open for the body
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int | None:
        self._sock.settimeout(self._deadline.remaining())
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


def _deadline_response_class(deadline: _Deadline) -> type[http.client.HTTPResponse]:
    """A response class that reads the status line, headers and body within `deadline`."""

    class _DeadlineResponse(http.client.HTTPResponse):
        def __init__(
            self, sock: socket.socket, debuglevel: int = 0, method: str | None = None, url: str | None = None
        ) -> None:
            super().__init__(sock, debuglevel, method, url)
            self.fp.close()
            self.fp = io.BufferedReader(_DeadlineReader(sock, deadline))

    return _DeadlineResponse


class _WebhookConnection(_PinnedConnection):
    """A pinned connection whose every send also ends by the deadline (a request body goes out too)."""

    def send(self, data: _DataType | str) -> None:
        if self.sock is not None:
            self.sock.settimeout(self._deadline.remaining())
        super().send(data)


def _read_some(response: http.client.HTTPResponse, deadline: _Deadline, most: int) -> bytes:
    """At most `most` bytes of the body, within the deadline; the answer is known already."""
    chunks: list[bytes] = []
    left = most
    try:
        while left > 0 and not deadline.expired():
            chunk = response.read1(left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except (OSError, http.client.HTTPException, ValueError):
        pass  # a body cut short, slow or broken does not change the answer
    return b"".join(chunks)


def _status_error(status: int) -> str | None:
    if 200 <= status < 300:
        return None
    if 300 <= status < 400:
        return f"redirects are not followed (answered {status})"
    return f"answered HTTP {status}"


def _retry_after_seconds(value: str | None, *, now: datetime | None = None) -> int | None:
    """Retry-After (delta-seconds or an HTTP-date) in whole seconds from now, >= 0; None if unreadable."""
    text = (value or "").strip()
    if not text:
        return None
    if _RETRY_AFTER_SECONDS.fullmatch(text):
        try:
            return max(0, int(text))
        except ValueError:  # more digits than int() accepts from a string
            return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (ValueError, TypeError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # "-0000": UTC, with no claim about the local zone
        when = when.replace(tzinfo=UTC)
    seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return max(0, math.ceil(seconds))


def _elapsed_ms(started: float) -> int:
    return max(0, round((time.monotonic() - started) * 1000))


def _seconds_text(seconds: float) -> str:
    """`10` for 10.0, `2.5` for 2.5."""
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def _webhook_refusal(error: DocumentRejected) -> str:
    if error.code == "url_refused":
        return f"the URL is not allowed: {error.message.removeprefix('refused: ')}"
    return f"connection failed: {error.message}"  # the host name did not resolve


def _webhook_failure(error: OSError | http.client.HTTPException, deadline: _Deadline) -> str:
    """A short reason for a POST that got no HTTP answer."""
    if isinstance(error, TimeoutError) or deadline.expired():
        return f"timed out after {_seconds_text(deadline.seconds)} s"
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS: the certificate could not be verified ({error.verify_message})"
    if isinstance(error, ssl.SSLError):
        return f"TLS: {(error.reason or type(error).__name__).replace('_', ' ').lower()}"
    if isinstance(error, http.client.RemoteDisconnected):
        return "connection closed without an answer"
    if isinstance(error, http.client.HTTPException):
        return f"not a valid HTTP answer ({type(error).__name__})"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, ConnectionResetError):
        return "connection failed: reset by the peer"
    return f"connection failed: {error.strerror or type(error).__name__}"


# ---------------------------------------------------------------------------- messages


def _shown(url: str) -> str:
    """The URL as messages show it: no user:password, no query (it may hold a token), not too long."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _shortened(url)
    netloc = parts.netloc.rpartition("@")[2]
    return _shortened(urlunsplit((parts.scheme, netloc, parts.path, "..." if parts.query else "", "")))


def _shortened(text: str) -> str:
    return text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 3] + "..."


def _rejection_for(
    error: OSError | http.client.HTTPException,
    target: _Target,
    *,
    connect_timeout: float,
    deadline: _Deadline,
) -> DocumentRejected:
    shown, host = target.shown, target.host
    if isinstance(error, TimeoutError):
        if deadline.expired():
            message = f"{shown!r} took longer than the limit of {deadline.seconds:g} s"
        else:
            message = f"{shown!r}: {host} did not accept a connection within {connect_timeout:g} s"
        return DocumentRejected("url_timeout", message, 400)
    if isinstance(error, ssl.SSLCertVerificationError):
        message = f"{shown!r}: the TLS certificate of {host} could not be verified ({error.verify_message})"
        return _unreachable(message)
    if isinstance(error, ssl.SSLError):
        return _unreachable(f"{shown!r}: the TLS handshake with {host} failed")
    if isinstance(error, http.client.HTTPException):
        return _remote_error(f"{shown!r} did not answer with valid HTTP ({type(error).__name__})")
    if isinstance(error, ConnectionRefusedError):
        return _unreachable(f"{shown!r}: {host} refused the connection")
    reason = error.strerror or type(error).__name__
    return _unreachable(f"{shown!r}: the connection to {host} failed ({reason})")


def _refused(message: str) -> DocumentRejected:
    return DocumentRejected("url_refused", message, 400)


def _unreachable(message: str) -> DocumentRejected:
    return DocumentRejected("url_unreachable", message, 400)


def _remote_error(message: str) -> DocumentRejected:
    return DocumentRejected("remote_error", message, 400)


def _too_large(message: str) -> DocumentRejected:
    return DocumentRejected("too_large", message, 413)


def _request_target(parts: SplitResult) -> str:
    """The path and query for the request line, never the fragment."""
    target = parts.path or "/"
    if parts.query:
        target = f"{target}?{parts.query}"
    return quote(target, safe=_REQUEST_LINE_SAFE)
