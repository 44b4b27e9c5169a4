"""Parses through the real handlers: synchronous, background, streamed, cache, usage, events, bad input."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

import boto3
import httpx
import pytest
from docsvc.adapters.dynamo.parses import DynamoParseRepository
from docsvc.adapters.queues import TenantQueue
from docsvc.api import large_answers
from docsvc.clock import iso, utc_now
from docsvc.config import settings
from docsvc.documents.engine import ocr
from docsvc.domain import parses
from docsvc.local.stack import REGION, Deployment
from docsvc.tenancy import Tenant

from tests import samples
from tests.conftest import Org, auth, drain
from tests.integration.test_files import pdf_bytes


def data_url(content: bytes, mime: str = "application/pdf") -> str:
    return f"data:{mime};base64,{base64.b64encode(content).decode()}"


def document(content: bytes, filename: str = "report.pdf") -> dict[str, str]:
    return {"filename": filename, "url": data_url(content)}


def create(api: httpx.Client, key: str, **body: Any) -> httpx.Response:
    return api.post("/v1/parses", headers=auth(key), json=body)


def events_of(org: Org, environment: str) -> list[dict[str, Any]]:
    table = boto3.resource("dynamodb", region_name=REGION).Table(settings().events_table)
    items = table.query(
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": f"ORG#{org.id}#ENV#{environment}"},
    )["Items"]
    return list(items)


def usage_of(org: Org, environment: str) -> list[dict[str, Any]]:
    table = boto3.resource("dynamodb", region_name=REGION).Table(settings().usage_table)
    return list(
        table.query(
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": f"ORG#{org.id}#ENV#{environment}"},
        )["Items"]
    )


# ---------------------------------------------------------------------------- synchronous


def test_a_document_too_large_for_the_readers_invocation_is_staged_for_it_and_removed_after(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.adapters import document_reader
    from docsvc.adapters.blobs import S3BlobStore

    monkeypatch.setattr(document_reader, "INLINE_BYTES", 100)
    staged: list[str] = []
    put = S3BlobStore.put

    def recording(self: S3BlobStore, key: str, content: bytes, content_type: str) -> None:
        staged.append(key)
        put(self, key, content, content_type)

    monkeypatch.setattr(S3BlobStore, "put", recording)

    response = create(api, org.test.key, document=document(pdf_bytes(pages=2, text="Staged")))

    assert response.status_code == 201, response.text
    assert [page.strip() for page in response.json()["output"]["pages"]] == ["Staged page 1", "Staged page 2"]
    assert len(staged) == 1 and staged[0].startswith(f"reads/{org.id}/test/")
    bucket = settings().files_bucket
    left = boto3.client("s3", region_name=REGION).list_objects_v2(Bucket=bucket, Prefix="reads/")
    assert left.get("KeyCount", 0) == 0


def test_a_synchronous_parse_returns_every_page_in_order(api: httpx.Client, org: Org) -> None:
    response = create(
        api,
        org.test.key,
        document=document(pdf_bytes(pages=3, text="Quarterly")),
        instructions="keep headers",
    )

    assert response.status_code == 201, response.text
    parse = response.json()
    assert parse["object"] == "parse"
    assert parse["id"].startswith("parse_")
    assert parse["status"] == "completed"
    assert parse["error"] is None
    assert [page.strip() for page in parse["output"]["pages"]] == [f"Quarterly page {n}" for n in (1, 2, 3)]
    assert parse["output"]["text"] == "\n\n".join(parse["output"]["pages"])
    assert parse["usage"] == {
        "page_count": 3,
        "credits": 3.0,
        "cached": False,
        "input_tokens": 0,
        "output_tokens": 0,
    }
    assert parse["file"] == {"id": None, "filename": "report.pdf", "mime_type": "application/pdf"}
    assert parse["model"] == "docsvc-parse-1"
    assert parse["table_parsing_format"] == "markdown"
    assert parse["instructions"] == "keep headers"
    assert api.get(f"/v1/parses/{parse['id']}", headers=auth(org.test.key)).json() == parse


def test_a_file_reference_is_parsed_from_storage(api: httpx.Client, org: Org) -> None:
    file_id = api.post(
        "/v1/files", headers=auth(org.test.key), files={"file": ("stored.pdf", pdf_bytes(pages=2))}
    ).json()["id"]

    parse = create(api, org.test.key, document={"id": file_id}).json()

    assert parse["file"] == {"id": file_id, "filename": "stored.pdf", "mime_type": "application/pdf"}
    assert len(parse["output"]["pages"]) == 2


def test_identical_input_is_answered_from_the_cache(api: httpx.Client, org: Org) -> None:
    content = pdf_bytes(pages=2)
    first = create(api, org.test.key, document=document(content)).json()

    second = create(api, org.test.key, document=document(content, "copy.pdf")).json()
    busted = create(api, org.test.key, document=document(content), bust_cache=True).json()
    other_format = create(api, org.test.key, document=document(content), table_parsing_format="html").json()

    assert second["id"] != first["id"]
    assert second["usage"] == {
        "page_count": 2,
        "credits": 0.0,
        "cached": True,
        "input_tokens": 0,
        "output_tokens": 0,
    }
    assert second["output"] == first["output"]
    assert busted["usage"]["cached"] is False
    assert other_format["usage"]["cached"] is False


def test_the_cache_is_per_environment(api: httpx.Client, org: Org) -> None:
    content = pdf_bytes(pages=1)
    create(api, org.test.key, document=document(content))

    live = create(api, org.production.key, document=document(content)).json()

    assert live["usage"]["cached"] is False


def test_usage_is_recorded_per_environment_and_test_is_not_billable(api: httpx.Client, org: Org) -> None:
    create(api, org.test.key, document=document(pdf_bytes(pages=3)))
    create(api, org.production.key, document=document(pdf_bytes(pages=2, text="live")))

    test_usage = usage_of(org, "test")
    live_usage = usage_of(org, "production")

    assert [(row["pages"], row["credits"], row["billable"]) for row in test_usage] == [
        (3, Decimal("3"), False)
    ]
    assert [(row["pages"], row["credits"], row["billable"]) for row in live_usage] == [
        (2, Decimal("2"), True)
    ]


def test_a_completed_parse_records_its_event_in_its_environment(api: httpx.Client, org: Org) -> None:
    parse = create(api, org.test.key, document=document(pdf_bytes())).json()

    events = events_of(org, "test")

    assert [event["type"] for event in events] == ["parse.completed"]
    assert events[0]["data"]["id"] == parse["id"]
    assert events[0]["environment"] == "test"
    assert events[0]["organization_id"] == org.id
    assert events[0]["id"].startswith("evt_")
    assert events_of(org, "production") == []


# ---------------------------------------------------------------------------- streamed


def test_a_streamed_parse_sends_a_page_event_per_page_then_the_parse(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, document=document(pdf_bytes(pages=3)), stream=True)

    assert response.status_code == 201
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [block for block in response.text.split("\n\n") if block]
    kinds = [block.split("\n")[0] for block in events]
    assert kinds == ["event: page"] * 3 + ["event: parse"]
    pages = [json.loads(block.split("data: ", 1)[1]) for block in events[:3]]
    assert [page["number"] for page in pages] == [1, 2, 3]
    final = json.loads(events[-1].split("data: ", 1)[1])
    assert final["status"] == "completed"
    assert final["output"]["pages"] == [page["text"] for page in pages]


def test_a_stream_that_fails_midway_ends_with_an_error_event(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    over_budget = dataclasses.replace(parses.SYNCHRONOUS, seconds=0.0)  # every page is over the budget
    monkeypatch.setattr(parses, "SYNCHRONOUS", over_budget)

    response = create(api, org.test.key, document=document(pdf_bytes(pages=3)), stream=True)

    assert response.status_code == 201
    events = [block for block in response.text.split("\n\n") if block]
    assert [block.split("\n")[0] for block in events] == ["event: page", "event: error"]
    error = json.loads(events[-1].split("data: ", 1)[1])
    assert error["code"] == "too_slow_for_sync"
    assert "background: true" in error["message"]


def test_background_and_stream_together_are_422(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, document=document(pdf_bytes()), stream=True, background=True)

    assert response.status_code == 422
    assert "background and stream" in response.json()["detail"][0]["msg"]


# ---------------------------------------------------------------------------- background


def test_a_background_parse_is_queued_then_completed_by_the_worker(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    created = create(api, org.test.key, document=document(pdf_bytes(pages=2)), background=True)

    assert created.status_code == 201
    assert created.json()["status"] == "queued"
    assert created.json()["output"] == {"pages": [], "text": "", "ocr_confidence": []}
    parse_id = created.json()["id"]
    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()["status"] == "queued"

    assert drain(deployment, "ParseWorkerFunction") == 1

    done = api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()
    assert done["status"] == "completed"
    assert len(done["output"]["pages"]) == 2
    assert [event["type"] for event in events_of(org, "test")] == ["parse.completed"]


def test_duplicate_deliveries_run_a_background_parse_once(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes()), background=True).json()["id"]
    again = TenantQueue(settings().parse_queue_url, "parse_id")
    for _ in range(3):
        again(Tenant(org.id, "test"), parse_id)  # SQS delivers at least once

    assert drain(deployment, "ParseWorkerFunction") == 4

    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()["status"] == "completed"
    assert [event["type"] for event in events_of(org, "test")] == ["parse.completed"]
    assert [row["operations"] for row in usage_of(org, "test")] == [1]


def test_a_fault_of_the_service_fails_the_background_parse_instead_of_leaving_it_running(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.documents.builtin import BuiltinEngine

    def broken(*args: object, **options: object) -> Iterator[object]:
        raise RuntimeError("a bug")
        yield

    monkeypatch.setattr(BuiltinEngine, "pages", broken)
    parse_id = create(api, org.test.key, document=document(pdf_bytes()), background=True).json()["id"]

    assert drain(deployment, "ParseWorkerFunction") == 1

    parse = api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()
    assert parse["status"] == "failed"
    assert parse["error"] == {
        "code": "internal_error",
        "message": "the parse failed inside the service; it was logged",
    }
    assert [event["type"] for event in events_of(org, "test")] == ["parse.failed"]


def started_as_if_by_a_worker(org: Org, parse_id: str, seconds_ago: float) -> None:
    """Move a queued test-environment parse to in_progress, as a worker did `seconds_ago`."""
    tenant, repository = Tenant(org.id, "test"), DynamoParseRepository()
    queued = repository.get(tenant, parse_id)
    assert queued is not None
    started_at = iso(utc_now() - timedelta(seconds=seconds_ago))
    running = queued.model_copy(update={"status": "in_progress", "updated_at": started_at})
    assert repository.move(tenant, running, frozenset({"queued"}))


def test_a_parse_whose_worker_died_fails_when_its_message_comes_back(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes()), background=True).json()["id"]
    started_as_if_by_a_worker(org, parse_id, seconds_ago=parses.WORKER_SECONDS + 60)

    drain(deployment, "ParseWorkerFunction")  # the message of a run that died, delivered again

    parse = api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()
    assert parse["status"] == "failed"
    assert parse["error"]["code"] == "interrupted"


def test_a_parse_in_progress_within_a_workers_time_is_left_to_its_worker(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes()), background=True).json()["id"]
    started_as_if_by_a_worker(org, parse_id, seconds_ago=1)

    drain(deployment, "ParseWorkerFunction")  # a duplicate delivery while the first run still works

    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()["status"] == "in_progress"


def test_a_cancelled_parse_never_completes(api: httpx.Client, deployment: Deployment, org: Org) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes()), background=True).json()["id"]

    cancelled = api.post(f"/v1/parses/{parse_id}/cancel", headers=auth(org.test.key))
    drain(deployment, "ParseWorkerFunction")

    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()["status"] == "cancelled"
    again = api.post(f"/v1/parses/{parse_id}/cancel", headers=auth(org.test.key))
    assert again.status_code == 400
    assert "already cancelled" in again.json()["detail"]


def test_a_parse_cancelled_while_its_worker_runs_is_neither_charged_nor_cached(
    api: httpx.Client, deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.documents.builtin import BuiltinEngine

    content = pdf_bytes(pages=2)
    parse_id = create(api, org.test.key, document=document(content), background=True).json()["id"]
    pages = BuiltinEngine.pages

    def cancelled_midway(self: BuiltinEngine, *args: Any, **options: Any) -> Iterator[Any]:
        for page in pages(self, *args, **options):
            api.post(f"/v1/parses/{parse_id}/cancel", headers=auth(org.test.key))
            yield page

    monkeypatch.setattr(BuiltinEngine, "pages", cancelled_midway)
    drain(deployment, "ParseWorkerFunction")
    monkeypatch.setattr(BuiltinEngine, "pages", pages)

    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()["status"] == "cancelled"
    assert usage_of(org, "test") == []
    assert [event["type"] for event in events_of(org, "test")] == ["parse.cancelled"]
    again = create(api, org.test.key, document=document(content)).json()
    assert again["usage"]["cached"] is False


def test_cancelling_a_completed_parse_is_400(api: httpx.Client, org: Org) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes())).json()["id"]

    response = api.post(f"/v1/parses/{parse_id}/cancel", headers=auth(org.test.key))

    assert response.status_code == 400
    assert "already completed" in response.json()["detail"]


def test_a_damaged_document_fails_the_background_parse_with_a_code(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    damaged = b"%PDF-1.7\n" + b"\x00garbage" * 200
    parse_id = create(api, org.test.key, document=document(damaged), background=True).json()["id"]

    drain(deployment, "ParseWorkerFunction")

    failed = api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()
    assert failed["status"] == "failed"
    assert failed["error"]["code"]
    assert failed["error"]["message"]
    assert [event["type"] for event in events_of(org, "test")] == ["parse.failed"]


# ---------------------------------------------------------------------------- bad input


def test_a_damaged_document_is_a_clear_4xx_synchronously(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, document=document(b"%PDF-1.7\n" + b"\x00garbage" * 200))

    assert 400 <= response.status_code < 500
    assert isinstance(response.json()["detail"], str)
    assert api.get("/v1/parses", headers=auth(org.test.key)).json()["data"] == []


@pytest.mark.parametrize(
    ("body", "status", "phrase"),
    [
        ({"document": {"filename": "a.pdf", "url": "data:application/pdf;base64,%%%"}}, 422, "base64"),
        ({"document": {"filename": "a.pdf", "url": "ftp://example.com/a.pdf"}}, 422, "data: URL or an http"),
        ({"document": {"filename": "a.pdf", "url": "data:application/pdf;base64,"}}, 400, "empty"),
        (
            {"document": {"filename": "a.exe", "url": data_url(b"MZ\x90\x00" + bytes(range(256)) * 8)}},
            415,
            "Supported:",
        ),
        ({"document": {"filename": "a.pdf"}}, 422, "Field required"),
        ({"document": {"id": "not-a-file-id"}}, 422, "pattern"),
        ({"document": {"id": "file_01M7ZZZZZZZZZZZZZZZZZZZZZZ"}}, 404, "no file"),
        ({"model": "gpt-99"}, 422, "available: docsvc-parse-1"),
        ({"image_resolution_dpi": 95}, 422, "greater than or equal to 96"),
        ({"image_resolution_dpi": 301}, 422, "less than or equal to 300"),
        ({"table_parsing_format": "csv"}, 422, "markdown"),
        ({"instructions": "x" * 10_001}, 422, "10000"),
    ],
)
def test_bad_parse_requests_get_a_clear_4xx(
    api: httpx.Client, org: Org, body: dict[str, Any], status: int, phrase: str
) -> None:
    request = {"document": document(pdf_bytes()), **body}

    response = create(api, org.test.key, **request)

    assert response.status_code == status, response.text
    assert phrase in json.dumps(response.json())


def test_an_ocr_language_that_is_not_installed_is_422_naming_it_and_the_installed_ones(
    api: httpx.Client, org: Org
) -> None:
    response = create(api, org.test.key, document=document(samples.scanned_pdf()), languages=["en", "xyz"])

    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert "'xyz'" in detail and "installed: " in detail
    assert "'eng'" not in detail
    assert api.get("/v1/parses", headers=auth(org.test.key)).json()["data"] == []


def test_a_background_parse_in_a_language_the_deployment_lacks_is_refused_before_it_is_queued(
    api: httpx.Client, org: Org
) -> None:
    response = create(
        api, org.test.key, document=document(samples.scanned_pdf()), languages=["chi_sim"], background=True
    )

    assert response.status_code == 422, response.text
    assert "'chi_sim'" in response.json()["detail"] and "installed: eng" in response.json()["detail"]
    assert api.get("/v1/parses", headers=auth(org.test.key)).json()["data"] == []


def test_ocr_languages_are_iso_or_tesseract_codes(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, document=document(pdf_bytes()), languages=["english"])

    assert response.status_code == 422, response.text
    assert "unknown language 'english'" in response.text


@pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed",
)
def test_a_scan_is_read_in_the_languages_asked_for_with_its_confidence_and_cached_apart(
    api: httpx.Client, org: Org
) -> None:
    scan = samples.scan_png(["Die Prüfung der Gebühren ergab größere Beträge."])
    picture = {"filename": "scan.png", "url": data_url(scan, "image/png")}

    german = create(api, org.test.key, document=picture, languages=["de"]).json()
    english = create(api, org.test.key, document=picture).json()
    typed = create(api, org.test.key, document=document(pdf_bytes())).json()

    assert german["languages"] == ["deu"]
    assert "Prüfung" in german["output"]["text"] and "Gebühren" in german["output"]["text"]
    assert 50 < german["output"]["ocr_confidence"][0] <= 100
    assert english["usage"]["cached"] is False and english["languages"] is None
    assert typed["output"]["ocr_confidence"] == [None] * len(typed["output"]["pages"])


def test_a_remote_url_on_a_private_address_is_refused(api: httpx.Client, org: Org) -> None:
    for url in (
        "http://127.0.0.1/doc.pdf",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/a.pdf",
    ):
        response = create(api, org.test.key, document={"filename": "a.pdf", "url": url})

        assert response.status_code == 400, url
        assert "refused" in response.json()["detail"]


# ---------------------------------------------------------------------------- lists, delete, isolation


def test_parses_are_listed_newest_first_with_cursors(api: httpx.Client, org: Org) -> None:
    ids = [
        create(api, org.test.key, document=document(pdf_bytes(text=f"doc {n}"), f"d{n}.pdf")).json()["id"]
        for n in range(5)
    ]

    first = api.get("/v1/parses", headers=auth(org.test.key), params={"limit": 3}).json()
    second = api.get(
        "/v1/parses",
        headers=auth(org.test.key),
        params={"limit": 3, "after": first["list_metadata"]["after"]},
    ).json()

    assert [item["id"] for item in first["data"] + second["data"]] == list(reversed(ids))
    assert second["list_metadata"]["after"] is None
    filtered = api.get("/v1/parses", headers=auth(org.test.key), params={"filename": "d3"}).json()
    assert [item["id"] for item in filtered["data"]] == [ids[3]]


def test_a_list_carries_outputs_only_when_asked(api: httpx.Client, org: Org) -> None:
    create(api, org.test.key, document=document(pdf_bytes(pages=2, text="Listed")))

    (bare,) = api.get("/v1/parses", headers=auth(org.test.key)).json()["data"]
    (full,) = api.get("/v1/parses", headers=auth(org.test.key), params={"include_output": True}).json()[
        "data"
    ]

    assert bare["output"] is None
    assert full["output"]["pages"] == ["Listed page 1", "Listed page 2"]
    assert {key: value for key, value in full.items() if key != "output"} == {
        key: value for key, value in bare.items() if key != "output"
    }


def test_an_answer_too_large_for_lambda_is_handed_out_through_s3(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lambda refuses an answer over 6 MB (a parse of some 500 pages): such an answer is stored under
    the tenant's prefix and the client sent there. The budget is lowered here to a small parse's size."""
    parse = create(api, org.test.key, document=document(pdf_bytes(pages=3, text="Long"))).json()
    monkeypatch.setattr(large_answers, "ANSWER_BUDGET_BYTES", 500)

    response = api.get(f"/v1/parses/{parse['id']}", headers=auth(org.test.key))

    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert response.json()["url"] == location
    bucket = settings().files_bucket
    key = urlsplit(location).path.removeprefix(f"/{bucket}/")
    assert key.startswith(f"answers/{org.id}/test/")
    kept = boto3.client("s3", region_name=REGION).get_object(Bucket=bucket, Key=key)
    assert kept["ContentType"] == "application/json"
    assert json.loads(kept["Body"].read()) == parse


def test_parses_are_listed_by_status_and_leave_a_status_when_they_move(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    done = create(api, org.test.key, document=document(pdf_bytes(text="sync"))).json()["id"]
    waiting = create(api, org.test.key, document=document(pdf_bytes(text="bg")), background=True).json()["id"]

    def listed(status: str) -> list[str]:
        page = api.get("/v1/parses", headers=auth(org.test.key), params={"status": status}).json()
        return [item["id"] for item in page["data"]]

    assert (listed("queued"), listed("completed")) == ([waiting], [done])
    drain(deployment, "ParseWorkerFunction")
    assert (listed("queued"), listed("completed")) == ([], [waiting, done])
    other_environment = api.get(
        "/v1/parses", headers=auth(org.production.key), params={"status": "completed"}
    )
    assert other_environment.json()["data"] == []


def test_parses_are_listed_by_date_and_walked_back_with_before(api: httpx.Client, org: Org) -> None:
    ids = [
        create(api, org.test.key, document=document(pdf_bytes(text=f"d{n}"))).json()["id"] for n in range(3)
    ]
    key = auth(org.test.key)

    assert api.get("/v1/parses", headers=key, params={"from_date": "2999-01-01"}).json()["data"] == []
    assert api.get("/v1/parses", headers=key, params={"to_date": "2000-01-01"}).json()["data"] == []
    this_year = api.get("/v1/parses", headers=key, params={"from_date": "2026-01-01"}).json()["data"]
    assert [item["id"] for item in this_year] == list(reversed(ids))
    older = api.get("/v1/parses", headers=key, params={"limit": 1, "after": ids[1]}).json()
    assert [item["id"] for item in older["data"]] == [ids[0]]
    back = api.get("/v1/parses", headers=key, params={"limit": 1, "before": ids[0]}).json()
    assert [item["id"] for item in back["data"]] == [ids[1]]


def test_delete_removes_the_parse(api: httpx.Client, org: Org) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes())).json()["id"]

    assert api.delete(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).status_code == 204
    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).status_code == 404
    assert api.delete(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).status_code == 404


def test_another_environments_parse_is_404_like_an_unknown_one(
    api: httpx.Client, org: Org, other_org: Org
) -> None:
    parse_id = create(api, org.test.key, document=document(pdf_bytes())).json()["id"]
    unknown = "parse_01M7ZZZZZZZZZZZZZZZZZZZZZZ"

    for key in (org.production.key, other_org.test.key):
        for method, path in (
            ("GET", "/v1/parses/{}"),
            ("POST", "/v1/parses/{}/cancel"),
            ("DELETE", "/v1/parses/{}"),
        ):
            foreign = api.request(method, path.format(parse_id), headers=auth(key))
            missing = api.request(method, path.format(unknown), headers=auth(key))
            assert foreign.status_code == missing.status_code == 404
            assert foreign.json()["detail"].replace(parse_id, unknown) == missing.json()["detail"]
        assert api.get("/v1/parses", headers=auth(key)).json()["data"] == []


def test_a_file_of_another_environment_cannot_be_parsed(api: httpx.Client, org: Org) -> None:
    file_id = api.post(
        "/v1/files", headers=auth(org.test.key), files={"file": ("stored.pdf", pdf_bytes())}
    ).json()["id"]

    response = create(api, org.production.key, document={"id": file_id})

    assert response.status_code == 404
    assert response.json() == {"detail": f"no file '{file_id}'"}


# ---------------------------------------------------------------------------- content and limits


def test_tables_come_back_in_the_requested_format(api: httpx.Client, org: Org) -> None:
    content = samples.table_pdf([["Item", "Price"], ["Desk", "250"]])

    parse = create(api, org.test.key, document=document(content), table_parsing_format="html").json()

    assert parse["table_parsing_format"] == "html"
    assert "<tr><td>Desk</td><td>250</td></tr>" in parse["output"]["text"]


def test_office_documents_are_parsed_page_by_page(api: httpx.Client, org: Org) -> None:
    content = samples.pptx([("Roadmap", "Ship it"), ("Budget", "Small")])
    body = {"filename": "deck.pptx", "url": data_url(content, "application/octet-stream")}

    parse = create(api, org.test.key, document=body).json()

    assert parse["file"]["mime_type"].endswith("presentationml.presentation")
    assert parse["output"]["pages"] == ["# Roadmap\n\nShip it", "# Budget\n\nSmall"]
    assert parse["usage"]["page_count"] == 2


def test_a_synchronous_parse_takes_up_to_its_page_limit(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, document=document(pdf_bytes(pages=parses.SYNC_MAX_PAGES)))

    assert response.status_code == 201
    assert response.json()["usage"]["page_count"] == parses.SYNC_MAX_PAGES


def test_a_synchronous_parse_of_too_many_pages_points_to_background(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, document=document(pdf_bytes(pages=parses.SYNC_MAX_PAGES + 1)))

    assert response.status_code == 413
    assert "background: true" in response.json()["detail"]
    queued = create(api, org.test.key, document=document(pdf_bytes(pages=201)), background=True)
    assert queued.status_code == 201


@pytest.mark.parametrize(("pages", "status"), [(3, "completed"), (4, "failed")])
def test_a_background_parse_takes_up_to_its_page_limit(
    api: httpx.Client,
    deployment: Deployment,
    org: Org,
    monkeypatch: pytest.MonkeyPatch,
    pages: int,
    status: str,
) -> None:
    """The limit is lowered to 3 pages here: building 2,000-page PDFs is not the point."""
    monkeypatch.setattr(parses, "IN_BACKGROUND", dataclasses.replace(parses.IN_BACKGROUND, max_pages=3))
    body = document(pdf_bytes(pages=pages))
    parse_id = create(api, org.test.key, document=body, background=True).json()["id"]

    drain(deployment, "ParseWorkerFunction")

    parse = api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()
    assert parse["status"] == status
    if status == "failed":
        assert parse["error"]["code"] == "too_many_pages"
        assert "has 4 pages; parses take at most 3" in parse["error"]["message"]


def test_a_running_parse_asks_whether_it_is_still_wanted_at_most_twice_a_second() -> None:
    clock = [100.0]
    asked: list[float] = []
    cancelled = parses.Occasionally(lambda: asked.append(clock[0]) or True, clock=lambda: clock[0])

    answers = []
    for _ in range(12):  # a page every 0.125 s
        clock[0] += 0.125
        answers.append(cancelled())

    assert asked == [100.5, 101.0, 101.5]
    assert answers == [False, False, False, True] * 3


def test_a_422_does_not_send_a_large_input_back(api: httpx.Client, org: Org) -> None:
    """A body with a misspelt field is the input of its "missing" error: a document in it is cut."""
    url = data_url(pdf_bytes(pages=1) + b" " * 2_000_000)

    response = create(api, org.test.key, documnt={"filename": "a.pdf", "url": url})

    assert response.status_code == 422
    assert len(response.content) < 2_000
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "document"]
    assert problem["input"]["documnt"]["url"] == f"{url[:200]}… ({len(url)} characters)"
