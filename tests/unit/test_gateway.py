"""The local gateway's pure parts: route selection as API Gateway does it, and HTTP API 2.0 events."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2
from docsvc.local.functions import LocalFunction, Route
from docsvc.local.gateway import Match, RouteTable, build_event, dispatch
from mangum import Mangum


def function(logical_id: str, *routes: tuple[str, str], handler: str = "unused.handler") -> LocalFunction:
    return LocalFunction(
        logical_id=logical_id,
        handler_path=handler,
        timeout=3,
        memory=128,
        environment={},
        routes=[Route(method, path) for method, path in routes],
    )


LITERAL = function("Upload", ("POST", "/v1/files/upload"))
PARAMETER = function("GetFile", ("GET", "/v1/files/{file_id}"))
PROXY = function("FilesApi", ("ANY", "/v1/files/{proxy+}"), ("ANY", "/v1/files"))
STATUS = function("Status", ("GET", "/v1/auth/status"))


# ---------------------------------------------------------------------------- route selection


@pytest.mark.parametrize(
    "functions",
    [
        [LITERAL, PARAMETER, PROXY, STATUS],
        [PROXY, PARAMETER, LITERAL, STATUS],
        [STATUS, PROXY, LITERAL, PARAMETER],
    ],
    ids=["specific first", "proxy first", "mixed"],
)
def test_literal_paths_win_over_parameters_and_parameters_over_greedy_proxies(
    functions: list[LocalFunction],
) -> None:
    routes = RouteTable(functions)

    upload = routes.match("POST", "/v1/files/upload")
    get_file = routes.match("GET", "/v1/files/file_01")
    nested = routes.match("GET", "/v1/files/file_01/download")

    assert upload is not None and upload.function.logical_id == "Upload"
    assert upload.path_parameters == {}
    assert get_file is not None and get_file.function.logical_id == "GetFile"
    assert get_file.path_parameters == {"file_id": "file_01"}
    assert nested is not None and nested.function.logical_id == "FilesApi"
    assert nested.path_parameters == {"proxy": "file_01/download"}


def test_a_parameter_route_wins_over_a_proxy_route_whose_template_is_longer() -> None:
    routes = RouteTable(
        [function("KeysApi", ("ANY", "/v1/keys/{proxy+}")), function("GetKey", ("GET", "/v1/keys/{id}"))]
    )

    found = routes.match("GET", "/v1/keys/key_01")

    assert found is not None and found.function.logical_id == "GetKey"
    assert found.path_parameters == {"id": "key_01"}


def test_a_route_for_another_method_gives_way_to_a_less_specific_route_for_this_one() -> None:
    routes = RouteTable([LITERAL, PARAMETER, PROXY])

    get_upload = routes.match("GET", "/v1/files/upload")
    delete_file = routes.match("DELETE", "/v1/files/file_01")

    assert get_upload is not None and get_upload.function.logical_id == "GetFile"
    assert get_upload.path_parameters == {"file_id": "upload"}
    assert delete_file is not None and delete_file.function.logical_id == "FilesApi"
    assert delete_file.route == Route("ANY", "/v1/files/{proxy+}")


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
def test_an_any_route_takes_every_method(method: str) -> None:
    routes = RouteTable([PROXY])

    found = routes.match(method, "/v1/files")

    assert found is not None
    assert found.route == Route("ANY", "/v1/files")


def test_a_method_route_takes_only_its_method() -> None:
    routes = RouteTable([STATUS])

    assert routes.match("GET", "/v1/auth/status") is not None
    assert routes.match("POST", "/v1/auth/status") is None
    assert routes.match("get", "/v1/auth/status") is None  # methods arrive upper case, as on the wire


@pytest.mark.parametrize("path", ["/", "/v1", "/v2/files", "/v1/auth/status/extra", "/v1/auth", "/v1/filesx"])
def test_paths_of_no_route_match_nothing(path: str) -> None:
    routes = RouteTable([LITERAL, PARAMETER, PROXY, STATUS])

    found = routes.match("GET", path)

    assert found is None


def test_routes_are_listed_most_specific_first() -> None:
    routes = RouteTable([PROXY, PARAMETER, LITERAL])

    listed = [route.path for route, _ in routes]

    assert listed.index("/v1/files/upload") < listed.index("/v1/files/{file_id}")
    assert listed.index("/v1/files/{file_id}") < listed.index("/v1/files/{proxy+}")


def test_a_route_for_the_method_wins_over_an_any_route_on_the_same_path() -> None:
    routes = RouteTable(
        [function("Fallback", ("ANY", "/v1/things")), function("List", ("GET", "/v1/things"))]
    )

    get = routes.match("GET", "/v1/things")
    post = routes.match("POST", "/v1/things")

    assert post is not None and post.function.logical_id == "Fallback"
    assert get is not None and get.function.logical_id == "List"


# ---------------------------------------------------------------------------- events


def event_for(
    method: str, target: str, *, headers: dict[str, str] | None = None, body: bytes = b""
) -> dict[str, Any]:
    match = RouteTable([LITERAL, PARAMETER, PROXY, STATUS]).match(method, target.split("?")[0])
    assert match is not None
    return build_event(method, target, headers or {}, body, match, "203.0.113.7", "api.example.com")


def test_an_event_is_an_http_api_2_0_event_for_the_matched_route() -> None:
    before = time.time()

    event = event_for("GET", "/v1/files/file_01", headers={"user-agent": "pytest"})

    assert event["version"] == "2.0"
    assert event["routeKey"] == "GET /v1/files/{file_id}"
    assert event["rawPath"] == "/v1/files/file_01"
    assert event["rawQueryString"] == ""
    assert event["pathParameters"] == {"file_id": "file_01"}
    assert event["headers"] == {"user-agent": "pytest"}
    assert event["isBase64Encoded"] is False
    assert "body" not in event
    assert "queryStringParameters" not in event
    assert "cookies" not in event
    context = event["requestContext"]
    assert context["routeKey"] == "GET /v1/files/{file_id}"
    assert context["stage"] == "$default"
    assert context["domainName"] == "api.example.com"
    assert context["domainPrefix"] == "api"
    assert context["http"] == {
        "method": "GET",
        "path": "/v1/files/file_01",
        "protocol": "HTTP/1.1",
        "sourceIp": "203.0.113.7",
        "userAgent": "pytest",
    }
    assert before * 1000 - 1 <= context["timeEpoch"] <= time.time() * 1000 + 1


def test_every_event_has_its_own_request_id() -> None:
    first = event_for("GET", "/v1/auth/status")

    second = event_for("GET", "/v1/auth/status")

    assert first["requestContext"]["requestId"] != second["requestContext"]["requestId"]


def test_a_literal_route_has_no_path_parameters() -> None:
    event = event_for("GET", "/v1/auth/status")

    assert "pathParameters" not in event


def test_query_parameters_are_decoded_and_repeated_keys_joined_by_commas() -> None:
    event = event_for("GET", "/v1/files?mime_type=application%2Fpdf&tag=a&tag=b&q=two+words&empty=")

    assert event["rawPath"] == "/v1/files"
    assert event["rawQueryString"] == "mime_type=application%2Fpdf&tag=a&tag=b&q=two+words&empty="
    assert event["queryStringParameters"] == {
        "mime_type": "application/pdf",
        "tag": "a,b",
        "q": "two words",
        "empty": "",
    }


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "text/plain", "text/csv", "application/xml"],
)
def test_a_text_body_is_passed_as_text(content_type: str) -> None:
    body = '{"filename": "Rechnung März.pdf"}'.encode()

    event = event_for("POST", "/v1/files/upload", headers={"content-type": content_type}, body=body)

    assert event["isBase64Encoded"] is False
    assert event["body"] == '{"filename": "Rechnung März.pdf"}'


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": "application/pdf"},
        {"content-type": "application/octet-stream"},
        {"content-type": "multipart/form-data; boundary=x"},
        {},
    ],
    ids=["pdf", "octet-stream", "multipart", "no content type"],
)
def test_a_binary_body_is_passed_base64_encoded(headers: dict[str, str]) -> None:
    body = b"%PDF-1.7\n\x00\xff\xfe binary"

    event = event_for("POST", "/v1/files", headers=headers, body=body)

    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == body


def test_cookies_are_split_into_a_list() -> None:
    event = event_for("GET", "/v1/auth/status", headers={"cookie": "session=abc; theme=dark;lang=de"})

    assert event["cookies"] == ["session=abc", "theme=dark", "lang=de"]


def test_an_event_reads_back_through_the_powertools_http_api_event() -> None:
    body = json.dumps({"name": "report.pdf"}).encode()

    parsed = APIGatewayProxyEventV2(
        event_for(
            "PATCH",
            "/v1/files/file_01?x=1&x=2",
            headers={"content-type": "application/json", "cookie": "a=1"},
            body=body,
        )
    )

    assert parsed.request_context.http.method == "PATCH"
    assert parsed.raw_path == "/v1/files/file_01"
    assert parsed.path_parameters == {"proxy": "file_01"}
    assert parsed.query_string_parameters == {"x": "1,2"}
    assert parsed.cookies == ["a=1"]
    assert parsed.json_body == {"name": "report.pdf"}


def test_an_event_drives_an_asgi_app_through_mangum() -> None:
    # Given an ASGI app that reports what it received
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        message = await receive()
        seen.update(
            method=scope["method"], path=scope["path"], query=scope["query_string"], body=message["body"]
        )
        await send(
            {"type": "http.response.start", "status": 201, "headers": [(b"content-type", b"text/plain")]}
        )
        await send({"type": "http.response.body", "body": b"created"})

    event = event_for(
        "POST", "/v1/files?overwrite=true", headers={"content-type": "application/pdf"}, body=b"%PDF-\x00\x01"
    )

    # When Mangum, as in every API function, hands the event to the app
    response = Mangum(app, lifespan="off")(event, None)

    # Then the app sees the request as the client sent it
    assert seen == {
        "method": "POST",
        "path": "/v1/files",
        "query": b"overwrite=true",
        "body": b"%PDF-\x00\x01",
    }
    assert response["statusCode"] == 201
    assert response["body"] == "created"


# ---------------------------------------------------------------------------- dispatch


def echo(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """A handler: answers with what it was asked, one header that API Gateway drops, and a cookie."""
    return {
        "statusCode": 200,
        "headers": {"content-type": "application/octet-stream", "content-length": "999"},
        "cookies": ["seen=1"],
        "isBase64Encoded": True,
        "body": base64.b64encode(f"{event['routeKey']} {context.function_name}".encode()).decode(),
    }


def fail(event: dict[str, Any], context: Any) -> dict[str, Any]:
    raise RuntimeError("boom")


def answer_at_length(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """JSON text of the size asked for, once escaped into the function's answer."""
    size = int(event["queryStringParameters"]["bytes"])
    return {"statusCode": 200, "headers": {"content-type": "application/json"}, "body": '"' + "\n" * size}


@pytest.fixture
def handlers() -> Iterator[RouteTable]:
    echoing = function("Echo", ("GET", "/v1/echo"), handler=f"{__name__}.echo")
    failing = function("Fail", ("GET", "/v1/fail"), handler=f"{__name__}.fail")
    long = function("Long", ("GET", "/v1/long"), handler=f"{__name__}.answer_at_length")
    yield RouteTable([echoing, failing, long])
    for each in (echoing, failing, long):
        each.shutdown()


def test_dispatch_invokes_the_route_and_translates_its_answer(handlers: RouteTable) -> None:
    answer = dispatch(handlers, "GET", "/v1/echo", {}, b"")

    assert answer.status == 200
    assert answer.body == b"GET /v1/echo Echo"
    assert ("content-type", "application/octet-stream") in answer.headers
    assert ("set-cookie", "seen=1") in answer.headers
    assert all(name.lower() != "content-length" for name, _ in answer.headers)


def test_dispatch_answers_404_for_a_path_of_no_route(handlers: RouteTable) -> None:
    answer = dispatch(handlers, "GET", "/v1/missing", {}, b"")

    assert answer.status == 404
    assert json.loads(answer.body) == {"detail": "Not Found"}


def test_dispatch_answers_500_with_a_request_id_when_the_function_fails(handlers: RouteTable) -> None:
    answer = dispatch(handlers, "GET", "/v1/fail", {}, b"")

    assert answer.status == 500
    body = json.loads(answer.body)
    assert body["detail"] == "internal error"
    assert body["request_id"]


def test_dispatch_refuses_a_body_too_large_for_a_synchronous_lambda_call(handlers: RouteTable) -> None:
    answer = dispatch(
        handlers, "GET", "/v1/echo", {"content-type": "application/pdf"}, b"x" * 5 * 1024 * 1024
    )

    assert answer.status == 413
    assert "upload session" in json.loads(answer.body)["detail"]


def test_an_answer_over_lambdas_6_mb_is_a_500_as_on_aws(handlers: RouteTable) -> None:
    """Lambda counts the answer as JSON: each newline of the body is two bytes there ("\\n")."""
    under = dispatch(handlers, "GET", "/v1/long?bytes=3000000", {}, b"")
    over = dispatch(handlers, "GET", "/v1/long?bytes=3200000", {}, b"")

    assert under.status == 200
    assert len(under.body) == 3_000_001
    assert over.status == 500
    assert json.loads(over.body)["detail"] == "internal error"


def test_match_carries_the_function_route_and_parameters() -> None:
    found = RouteTable([PARAMETER]).match("GET", "/v1/files/file_01")

    assert found == Match(PARAMETER, Route("GET", "/v1/files/{file_id}"), {"file_id": "file_01"})
