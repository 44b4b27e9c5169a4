"""The event log (`GET /v1/events`) and usage (`GET /v1/usage`) of an environment, through the handlers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from docsvc.adapters import aws
from docsvc.clock import utc_now
from docsvc.config import settings

from tests.conftest import Org, auth
from tests.integration.test_files import pdf_bytes
from tests.integration.test_parses import create, document


def test_events_are_listed_newest_first_per_environment_and_by_type(api: httpx.Client, org: Org) -> None:
    parsed = [create(api, org.test.key, document=document(pdf_bytes(pages=1))).json()["id"] for _ in range(3)]
    job = api.post(
        "/v1/jobs", headers=auth(org.test.key), json={"endpoint": "/v1/edits", "request": {}}
    ).json()

    events = api.get("/v1/events", headers=auth(org.test.key)).json()["data"]
    jobs_only = api.get("/v1/events", headers=auth(org.test.key), params={"type": "job.*"}).json()["data"]
    exact = api.get("/v1/events", headers=auth(org.test.key), params={"type": "parse.completed"}).json()[
        "data"
    ]

    assert [event["type"] for event in events] == ["job.failed"] + ["parse.completed"] * 3
    assert [event["data"]["id"] for event in events[1:]] == list(reversed(parsed))
    assert all(event["environment"] == "test" and event["organization_id"] == org.id for event in events)
    assert [event["data"]["id"] for event in jobs_only] == [job["id"]]
    assert len(exact) == 3
    one = api.get(f"/v1/events/{events[0]['id']}", headers=auth(org.test.key))
    assert one.json() == events[0]
    assert api.get("/v1/events", headers=auth(org.production.key)).json()["data"] == []
    assert api.get(f"/v1/events/{events[0]['id']}", headers=auth(org.production.key)).status_code == 404


def test_events_page_with_cursors(api: httpx.Client, org: Org) -> None:
    for _ in range(3):
        create(api, org.test.key, document=document(pdf_bytes(pages=1)))

    first = api.get("/v1/events", headers=auth(org.test.key), params={"limit": 2}).json()
    second = api.get(
        "/v1/events",
        headers=auth(org.test.key),
        params={"limit": 2, "after": first["list_metadata"]["after"]},
    ).json()

    assert len(first["data"]) == 2 and len(second["data"]) == 1
    assert second["list_metadata"]["after"] is None


def test_usage_is_answered_per_day_for_the_callers_environment(api: httpx.Client, org: Org) -> None:
    create(api, org.test.key, document=document(pdf_bytes(pages=3)))
    create(api, org.production.key, document=document(pdf_bytes(pages=2)))
    today = utc_now().date().isoformat()

    test = api.get("/v1/usage", headers=auth(org.test.key)).json()
    production = api.get("/v1/usage", headers=auth(org.production.key), params={"from_date": today}).json()

    parses = {"operations": 1, "pages": 3, "credits": 3.0, "input_tokens": 0, "output_tokens": 0}
    assert test["data"] == [
        {"day": today, "environment": "test", **parses, "billable": False, "by_operation": {"parse": parses}}
    ]
    parses = {**parses, "pages": 2, "credits": 2.0}
    assert production["data"] == [
        {
            "day": today,
            "environment": "production",
            **parses,
            "billable": True,
            "by_operation": {"parse": parses},
        }
    ]
    before = api.get("/v1/usage", headers=auth(org.test.key), params={"to_date": "2020-01-01"}).json()
    assert before["data"] == []


@pytest.mark.parametrize(
    "params",
    [
        {"from_date": "2026-05-02", "to_date": "2026-05-01"},
        {"from_date": "2020-01-01", "to_date": "2026-01-01"},
        {"from_date": "x"},
    ],
)
def test_bad_usage_ranges_are_422(api: httpx.Client, org: Org, params: dict[str, str]) -> None:
    assert api.get("/v1/usage", headers=auth(org.test.key), params=params).status_code == 422


def test_a_usage_range_of_366_days_is_taken_and_367_is_422(api: httpx.Client, org: Org) -> None:
    leap_year = {"from_date": "2024-01-01", "to_date": "2024-12-31"}
    one_more = {"from_date": "2024-01-01", "to_date": "2025-01-01"}

    assert api.get("/v1/usage", headers=auth(org.test.key), params=leap_year).status_code == 200
    assert api.get("/v1/usage", headers=auth(org.test.key), params=one_more).status_code == 422


def test_type_filters_are_read_by_their_index(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    create(api, org.test.key, document=document(pdf_bytes(pages=1)))
    indexes: list[str | None] = []
    table = aws.table

    class Recording:
        def __init__(self, found: Any) -> None:
            self._found = found

        def query(self, **params: Any) -> Any:
            indexes.append(params.get("IndexName"))
            return self._found.query(**params)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._found, name)

    monkeypatch.setattr(
        aws, "table", lambda name: Recording(table(name)) if name == settings().events_table else table(name)
    )
    for value in ("parse.completed", "parse.*"):
        assert (
            len(api.get("/v1/events", headers=auth(org.test.key), params={"type": value}).json()["data"]) == 1
        )

    assert indexes == ["events_by_type", "events_by_family"]
