"""What makes two requests with one Idempotency-Key the same request, and which keys are keys."""

from __future__ import annotations

import httpx
import pytest
from docsvc.api.idempotency import fingerprint, is_creating
from docsvc.domain.idempotency import key_problem


def multipart(content: bytes, boundary: str, name: str = "invoice.pdf") -> tuple[bytes, bytes]:
    """(content type, body) of an upload as httpx sends it, with the boundary given."""
    request = httpx.Request(
        "POST",
        "https://api.test/v1/files",
        files={"file": (name, content, "application/pdf")},
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    return request.headers["content-type"].encode(), request.read()


def of_upload(content: bytes, boundary: str, name: str = "invoice.pdf") -> str:
    content_type, body = multipart(content, boundary, name)
    return fingerprint("POST", "/v1/files", b"", content_type, body)


def test_an_upload_sent_again_under_another_boundary_is_the_same_request() -> None:
    assert of_upload(b"%PDF-1.7 one", "a1b2c3") == of_upload(b"%PDF-1.7 one", "ffee99887766")


def test_an_upload_of_other_bytes_or_under_another_name_is_another_request() -> None:
    first = of_upload(b"%PDF-1.7 one", "a1b2c3")

    assert of_upload(b"%PDF-1.7 one!", "a1b2c3") != first
    assert of_upload(b"%PDF-1.7 one", "a1b2c3", name="other.pdf") != first


@pytest.mark.parametrize(
    ("method", "path", "query", "content_type", "body"),
    [
        ("PUT", "/v1/secrets", b"", b"application/json", b"{}"),
        ("POST", "/v1/tables", b"", b"application/json", b"{}"),
        ("POST", "/v1/secrets", b"a=1", b"application/json", b"{}"),
        ("POST", "/v1/secrets", b"", b"text/plain", b"{}"),
        ("POST", "/v1/secrets", b"", b"application/json", b"{} "),
    ],
)
def test_method_path_query_media_type_and_body_each_tell_requests_apart(
    method: str, path: str, query: bytes, content_type: bytes, body: bytes
) -> None:
    same = fingerprint("POST", "/v1/secrets", b"", b"application/json", b"{}")

    assert fingerprint(method, path, query, content_type, body) != same


def test_the_order_of_query_pairs_matters_but_their_encoding_does_not() -> None:
    first = fingerprint("POST", "/v1/x", b"a=1&b=2", b"", b"")

    assert fingerprint("POST", "/v1/x", b"b=2&a=1", b"", b"") != first
    assert fingerprint("POST", "/v1/x", b"a=%31&b=2", b"", b"") == first


@pytest.mark.parametrize("key", ["a", "k" * 255, "order 42/retry ~1", "5f0c1c1e-8d7b-4d0e-9a51-1f0a3c2b7e44"])
def test_one_to_255_printable_ascii_characters_are_a_key(key: str) -> None:
    assert key_problem(key) is None


@pytest.mark.parametrize("key", ["", "k" * 256, "clé", "tab\there", "new\nline"])
def test_anything_else_is_not_a_key(key: str) -> None:
    assert key_problem(key)


def test_cancels_queries_and_jobs_are_not_creating_posts() -> None:
    assert is_creating("POST", "/v1/files")
    assert is_creating("POST", "/v1/workflows/wf_1/runs")
    assert not is_creating("POST", "/v1/parses/parse_1/cancel")
    assert not is_creating("POST", "/v1/tables/tbl_1/query")
    assert not is_creating("POST", "/v1/jobs")
    assert not is_creating("GET", "/v1/files")
