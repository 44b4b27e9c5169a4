"""Logs are JSON with a correlation id, and never hold an API key."""

from __future__ import annotations

import json
import logging

import httpx
import pytest

from tests.conftest import Org, auth


def test_no_api_key_in_any_log_line(api: httpx.Client, org: Org, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("auth-api", "files-api", "docsvc.api"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    api.get("/v1/auth/status", headers=auth(org.test.key))
    api.get("/v1/files", headers=auth("svc_live_" + "Q" * 40))
    api.post("/v1/files", headers={"Api-Key": org.production.key}, files={"file": ("a.txt", b"x")})

    captured = capsys.readouterr()
    logged = captured.out + captured.err

    assert org.test.key not in logged
    assert org.production.key not in logged
    assert "Q" * 40 not in logged


def test_an_unexpected_failure_is_a_500_with_a_request_id_and_a_json_log(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from docsvc import services

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(services.file_service(), "list", broken)

    response = api.get("/v1/files", headers=auth(org.test.key))

    assert response.status_code == 500
    body = response.json()
    assert body["detail"] == "internal error"
    assert body["request_id"]
    assert "disk on fire" not in response.text
    assert any(record.getMessage() == "unhandled error" for record in caplog.records)
    assert json.dumps(body)  # the body is plain JSON
