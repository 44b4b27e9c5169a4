"""An HTTP gateway that serves the HttpApi routes of template.yaml with each function's own handler.

It builds API Gateway HTTP API (payload 2.0) events, enforces the limits API Gateway and Lambda
enforce (6 MB invocation payload, 30 s integration timeout), and writes the function's answer back.
A route that is not in the template answers 404 here as it would on AWS.

Each request gets its id here, as API Gateway gives one (`requestContext.requestId`); every answer
carries it in `apigw-requestid`, as API Gateway's do, and in `X-Request-Id`: the functions set that one
themselves (docsvc.api.lambda_entry), the gateway on the answers it makes itself (an unknown route, a body
too large, a timeout). One line per request goes to the `docsvc.local.requests` logger: method, path,
status, duration and request id (what `make dev` prints).
"""

from __future__ import annotations

import base64
import json
import logging
import threading
import time
import uuid
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from docsvc.local.functions import LocalFunction, Route

LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024
API_BODY_BYTES = 10 * 1024 * 1024
INTEGRATION_TIMEOUT_SECONDS = 30
MAX_IN_FLIGHT = 256  # requests served at once; one more is a 503 to send again
_TEXT_TYPES = (
    "text/",
    "application/json",
    "application/xml",
    "application/x-www-form-urlencoded",
    "application/javascript",
    "application/yaml",
)

_log = logging.getLogger("docsvc.local.gateway")
requests_log = logging.getLogger("docsvc.local.requests")
REQUEST_ID_HEADER = "x-request-id"


@dataclass(frozen=True)
class Match:
    function: LocalFunction
    route: Route
    path_parameters: dict[str, str]


class RouteTable:
    def __init__(self, functions: list[LocalFunction]) -> None:
        self._routes = [
            (route, route.pattern(), function) for function in functions for route in function.routes
        ]
        # Most specific first: literal paths before parameters, parameters before greedy proxies, and a
        # method's own route before ANY.
        self._routes.sort(
            key=lambda entry: (
                "+}" in entry[0].path,
                entry[0].path.count("{"),
                -len(entry[0].path),
                entry[0].method == "ANY",
            )
        )

    def match(self, method: str, path: str) -> Match | None:
        for route, pattern, function in self._routes:
            found = pattern.match(path)
            if found and route.method in {"ANY", method}:
                return Match(function, route, {k: v for k, v in found.groupdict().items() if v is not None})
        return None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter((route, function) for route, _, function in self._routes)


def build_event(
    method: str,
    target: str,
    headers: dict[str, str],
    body: bytes,
    match: Match,
    source_ip: str,
    host: str,
    request_id: str | None = None,
) -> dict[str, Any]:
    parts = urlsplit(target)
    query: dict[str, list[str]] = {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        query.setdefault(name, []).append(value)
    content_type = headers.get("content-type", "")
    is_text = not body or content_type.startswith(_TEXT_TYPES)
    now = time.time()
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": match.route.route_key,
        "rawPath": parts.path,
        "rawQueryString": parts.query,
        "headers": headers,
        "requestContext": {
            "accountId": "000000000000",
            "apiId": "local",
            "domainName": host,
            "domainPrefix": host.split(".")[0],
            "http": {
                "method": method,
                "path": parts.path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": headers.get("user-agent", ""),
            },
            "requestId": request_id or new_request_id(),
            "routeKey": match.route.route_key,
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "isBase64Encoded": not is_text,
    }
    if "cookie" in headers:
        event["cookies"] = [cookie.strip() for cookie in headers["cookie"].split(";")]
    if query:
        event["queryStringParameters"] = {name: ",".join(values) for name, values in query.items()}
    if match.path_parameters:
        event["pathParameters"] = match.path_parameters
    if body:
        event["body"] = body.decode("utf-8", "replace") if is_text else base64.b64encode(body).decode("ascii")
    return event


@dataclass(frozen=True)
class GatewayResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def new_request_id() -> str:
    return str(uuid.uuid4())


def _json(status: int, content: dict[str, Any], request_id: str | None = None) -> GatewayResponse:
    """An answer the gateway makes itself, with its request id (a new one if the request has none yet)."""
    headers = [("content-type", "application/json"), (REQUEST_ID_HEADER, request_id or new_request_id())]
    return GatewayResponse(status, headers, json.dumps(content).encode())


def dispatch(
    routes: RouteTable,
    method: str,
    target: str,
    headers: dict[str, str],
    body: bytes,
    *,
    source_ip: str = "127.0.0.1",
    host: str = "127.0.0.1",
) -> GatewayResponse:
    """What API Gateway does with one request: route it, invoke the function, translate the answer.

    `headers` have lower-case names.
    """
    request_id = new_request_id()
    if len(body) > API_BODY_BYTES:
        detail = f"request body over API Gateway's {API_BODY_BYTES}-byte limit"
        return _json(413, {"detail": detail}, request_id)
    match = routes.match(method, urlsplit(target).path)
    if match is None:
        return _json(404, {"detail": "Not Found"}, request_id)
    event = build_event(method, target, headers, body, match, source_ip, host, request_id)
    if len(json.dumps(event)) > LAMBDA_PAYLOAD_BYTES:
        return _json(
            413,
            {
                "detail": "request too large for a synchronous call (Lambda's 6 MB payload limit); "
                "upload large files with an upload session: POST /v1/files/upload"
            },
            request_id,
        )
    try:
        response = match.function.invoke(
            event, timeout=min(match.function.timeout, INTEGRATION_TIMEOUT_SECONDS)
        )
    except FutureTimeout:
        detail = "the function did not answer within the gateway's time limit"
        return _json(504, {"detail": detail}, request_id)
    except Exception:
        _log.exception("function %s failed", match.function.logical_id, extra={"request_id": request_id})
        return _json(500, {"detail": "internal error", "request_id": request_id}, request_id)
    if _answer_bytes(response) > LAMBDA_PAYLOAD_BYTES:  # Lambda refuses it; API Gateway has nothing to send
        _log.error(
            "function %s answered over Lambda's 6 MB limit",
            match.function.logical_id,
            extra={"request_id": request_id},
        )
        return _json(500, {"detail": "internal error", "request_id": request_id}, request_id)
    translated = _translate(response)
    translated.headers.append(("apigw-requestid", request_id))
    return translated


def _answer_bytes(response: dict[str, Any]) -> int:
    body = str(response.get("body") or "")
    if len(body) * 6 < LAMBDA_PAYLOAD_BYTES // 2:  # at most six bytes a character once escaped: it fits
        return len(body) * 6
    return len(json.dumps(response, ensure_ascii=False).encode())  # as the Python runtime writes it


def _translate(response: dict[str, Any]) -> GatewayResponse:
    body = response.get("body") or ""
    payload = base64.b64decode(body) if response.get("isBase64Encoded") else str(body).encode("utf-8")
    headers = [
        (name, str(value))
        for name, value in (response.get("headers") or {}).items()
        if name.lower() not in {"content-length", "connection", "transfer-encoding"}
    ]
    headers += [
        (name, str(value))
        for name, values in (response.get("multiValueHeaders") or {}).items()
        for value in values
    ]
    headers += [("set-cookie", cookie) for cookie in response.get("cookies") or []]
    return GatewayResponse(int(response.get("statusCode", 200)), headers, payload)


class _GatewayHandler(BaseHTTPRequestHandler):
    server: GatewayServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no delayed-ACK stall

    def log_message(self, format: str, *args: Any) -> None:
        _log.debug(format, *args)

    def parse_request(self) -> bool:
        self.started = time.monotonic()
        return super().parse_request()

    def _serve(self) -> None:
        body = self._body()
        if body is None:
            return
        if not self.server.in_flight.acquire(blocking=False):
            self._write(_busy(self.server.max_in_flight))
            return
        try:
            headers: dict[str, str] = {}
            for name, value in self.headers.items():
                key = name.lower()
                headers[key] = f"{headers[key]},{value}" if key in headers else value
            headers["x-forwarded-proto"] = "http"  # as API Gateway says its scheme (https there)
            host = self.headers.get("Host", "127.0.0.1")
            answer = dispatch(
                self.server.routes,
                self.command,
                self.path,
                headers,
                body,
                source_ip=self.client_address[0],
                host=host,
            )
        finally:
            self.server.in_flight.release()
        self._write(answer)

    def _body(self) -> bytes | None:
        """The request's body, or None when the request was answered already (and its connection is
        closed: what follows on it cannot be told from the body)."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._chunked()
        declared = self.headers.get("Content-Length")
        if declared is None:
            return b""
        if not declared.strip().isdigit():
            self._refuse(400, f"Content-Length is not a number of bytes: {declared[:40]!r}")
            return None
        length = int(declared)
        if length > API_BODY_BYTES:
            self._refuse(413, f"request body over API Gateway's {API_BODY_BYTES}-byte limit")
            return None
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            self.close_connection = True  # the client stopped sending: nobody waits for an answer
            return None
        return body

    def _chunked(self) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            line = self.rfile.readline(1024).split(b";", 1)[0].strip()
            try:
                length = int(line, 16)
            except ValueError:
                self._refuse(400, "a chunk of the request body does not start with its size")
                return None
            size += length
            if size > API_BODY_BYTES:
                self._refuse(413, f"request body over API Gateway's {API_BODY_BYTES}-byte limit")
                return None
            if length == 0:
                while self.rfile.readline(1024).strip():  # trailers, up to the blank line
                    pass
                return b"".join(chunks)
            chunks.append(self.rfile.read(length))
            self.rfile.readline(3)  # the CRLF after the chunk

    def _refuse(self, status: int, detail: str) -> None:
        self.close_connection = True
        self._write(_json(status, {"detail": detail}))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """What http.server answers itself (a method it has no handler for, a malformed request line,
        headers too long) in JSON, as every other answer; an unknown method is a 405."""
        self.close_connection = True
        self.request_version = self.protocol_version  # a line it could not read has none: answer with headers
        if code == 501:  # http.server's "Unsupported method"
            answer = _json(405, {"detail": f"method {self.command!r} is not allowed; use one of {_METHODS}"})
            answer.headers.append(("allow", ", ".join(_METHODS)))
        else:
            answer = _json(code, {"detail": message or explain or "bad request"})
        self._write(answer)

    def _write(self, response: GatewayResponse) -> None:
        request_id = next(
            (value for name, value in response.headers if name.lower() == REQUEST_ID_HEADER), None
        )
        if request_id is None:  # a function that set none: the gateway's id is in apigw-requestid
            request_id = next(
                (value for name, value in response.headers if name.lower() == "apigw-requestid"), "-"
            )
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)
        requests_log.info(
            "%s %s %d %d ms %s",
            getattr(self, "command", None) or "-",
            urlsplit(getattr(self, "path", "") or "").path or "-",
            response.status,
            round((time.monotonic() - getattr(self, "started", time.monotonic())) * 1000),
            request_id,
        )

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve  # noqa: N815


_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def _busy(limit: int) -> GatewayResponse:
    answer = _json(
        503,
        {"detail": f"the gateway is serving its limit of {limit} requests at once; send again in a second"},
    )
    answer.headers.append(("retry-after", "1"))
    return answer


class GatewayServer(ThreadingHTTPServer):
    """A thread a connection. The listen backlog holds a burst of new connections (the default of 5
    resets most of one); past `max_in_flight` requests at once, a request is answered 503 with
    Retry-After, as a throttled API is, never left to wait without end or reset."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 1024

    def __init__(
        self, host: str, port: int, functions: list[LocalFunction], *, max_in_flight: int = MAX_IN_FLIGHT
    ) -> None:
        self.routes = RouteTable(functions)
        self.max_in_flight = max_in_flight
        self.in_flight = threading.BoundedSemaphore(max_in_flight)
        super().__init__((host, port), _GatewayHandler)
