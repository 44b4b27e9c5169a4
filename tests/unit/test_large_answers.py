"""Answers too large for Lambda are kept elsewhere and answered 303; every other answer passes untouched."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from docsvc.api import large_answers
from docsvc.api.large_answers import ANSWER_BUDGET_BYTES, LargeAnswers, remember_tenant, size_in_lambda_answer
from docsvc.tenancy import Tenant
from fastapi import FastAPI, Request
from fastapi.responses import Response

TENANT = Tenant("org_1", "test")
Kept = list[tuple[Tenant, bytes, str, str | None]]


def app_answering(kept: Kept) -> Any:
    """An app whose route answers `size` bytes of JSON text (a string of `char`), as the tenant when
    `signed_in`."""
    app = FastAPI()

    @app.get("/answer")
    def answer(
        request: Request, size: int, char: str = "a", signed_in: bool = True, status: int = 200
    ) -> Response:
        if signed_in:
            remember_tenant(request.scope, TENANT)
        headers = {"Idempotent-Replayed": "true", "Content-Disposition": 'attachment; filename="a.json"'}
        content = json.dumps(char * (size - 2))
        return Response(content=content, media_type="application/json", status_code=status, headers=headers)

    def keep(tenant: Tenant, body: bytes, content_type: str, disposition: str | None) -> str:
        kept.append((tenant, body, content_type, disposition))
        return "https://bucket.s3.example/answers/org_1/test/abc?X-Amz-Signature=1"

    return LargeAnswers(app, keep=keep)


def get(app: Any, **params: Any) -> httpx.Response:
    async def call() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://api") as client:
            return await client.get("/answer", params=params)

    return asyncio.run(call())


def test_an_answer_that_fits_passes_untouched() -> None:
    kept: Kept = []
    response = get(app_answering(kept), size=1000)

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.content == json.dumps("a" * 998).encode()
    assert kept == []


def test_an_answer_over_the_budget_is_kept_and_answered_303_to_its_link() -> None:
    kept: Kept = []
    response = get(app_answering(kept), size=ANSWER_BUDGET_BYTES + 1)

    assert response.status_code == 303
    link = "https://bucket.s3.example/answers/org_1/test/abc?X-Amz-Signature=1"
    assert response.headers["location"] == link
    assert response.headers["cache-control"] == "no-store"
    assert response.json()["url"] == link
    assert "6 MB" in response.json()["detail"]
    assert response.headers["idempotent-replayed"] == "true"  # what is not about the body stays
    assert "content-disposition" not in response.headers
    ((tenant, body, content_type, disposition),) = kept
    assert (tenant, content_type) == (TENANT, "application/json")
    assert disposition == 'attachment; filename="a.json"'  # S3 serves the answer with it
    assert body == json.dumps("a" * (ANSWER_BUDGET_BYTES - 1)).encode()


def test_an_error_is_never_kept_elsewhere() -> None:
    """An error keeps its status: a client following a 303 would take it for a success."""
    kept: Kept = []
    response = get(app_answering(kept), size=ANSWER_BUDGET_BYTES + 1, status=422)

    assert response.status_code == 422
    assert kept == []


def test_text_counts_as_the_runtime_writes_it_utf_8_unescaped() -> None:
    """Lambda's Python runtime writes the answer with ensure_ascii=False: a Cyrillic letter takes its
    two UTF-8 bytes, not the six of a \\u escape."""
    cyrillic = json.dumps("я" * 2_000_000, ensure_ascii=False).encode()

    assert size_in_lambda_answer(cyrillic, "application/json") == len(cyrillic) + 4
    assert size_in_lambda_answer(cyrillic, "application/json") <= ANSWER_BUDGET_BYTES


def test_the_budget_counts_the_answer_as_lambda_does_escaped_into_json() -> None:
    """A newline is two bytes of the JSON body (\\n) and three in Lambda's answer, which escapes the
    backslash again: the limit falls at a third of the budget in newlines, not at the budget."""
    kept: Kept = []
    app = app_answering(kept)
    fits = (ANSWER_BUDGET_BYTES - 6) // 3  # 3 bytes a newline, the body's quotes escaped, Lambda's quotes
    body = json.dumps("\n" * fits).encode()
    assert (
        size_in_lambda_answer(body, "application/json") == ANSWER_BUDGET_BYTES - (ANSWER_BUDGET_BYTES - 6) % 3
    )
    assert (
        size_in_lambda_answer(json.dumps("\n" * (fits + 1)).encode(), "application/json")
        > ANSWER_BUDGET_BYTES
    )

    assert get(app, size=fits + 2, char="\n").status_code == 200
    assert get(app, size=fits + 3, char="\n").status_code == 303
    assert len(kept) == 1


def test_binary_answers_count_in_base64() -> None:
    assert size_in_lambda_answer(b"x" * 3_000_000, "application/pdf") == 4_000_000
    assert size_in_lambda_answer(b"\xff" * 3_000_000, "text/plain") == 4_000_000  # not UTF-8: base64


def test_an_answer_without_a_tenant_is_not_kept() -> None:
    """Only authenticated routes answer at length; nothing is written outside a tenant's prefix."""
    kept: Kept = []
    response = get(app_answering(kept), size=ANSWER_BUDGET_BYTES + 1, signed_in=False)

    assert response.status_code == 200
    assert kept == []


def test_an_answer_sent_in_chunks_is_judged_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(large_answers, "ANSWER_BUDGET_BYTES", 100)
    kept: Kept = []
    app = FastAPI()

    @app.get("/answer")
    def answer(request: Request) -> Response:
        from fastapi.responses import StreamingResponse

        remember_tenant(request.scope, TENANT)
        return StreamingResponse(iter([b"[", b"1," * 60, b"1]"]), media_type="application/json")

    def keep(tenant: Tenant, body: bytes, content_type: str, disposition: str | None) -> str:
        kept.append((tenant, body, content_type, disposition))
        return "https://kept"

    response = get(LargeAnswers(app, keep=keep))

    assert response.status_code == 303
    assert kept[0][1] == b"[" + b"1," * 60 + b"1]"
