"""GET /v1/jobs to the letter of spec 4.2: cursors at both ends, every filter, the include flags."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import httpx
import pytest
from docsvc import ids
from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain import jobs as job_domain

from tests.conftest import Org, auth
from tests.integration.test_jobs import create_job

DAY = 24 * 3600


def job(
    api: httpx.Client,
    org: Org,
    *,
    filename: str = "report.pdf",
    endpoint: str = "/v1/edits",  # no instructions: the job fails validation at once, nothing is queued
    metadata: dict[str, str] | None = None,
    **request: Any,
) -> str:
    body = {"document": {"filename": filename, "url": "https://example.com/doc"}, **request}
    extra = {"metadata": metadata} if metadata else {}
    response = create_job(api, org.test.key, body, endpoint=endpoint, **extra)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def listed(api: httpx.Client, org: Org, **params: Any) -> dict[str, Any]:
    response = api.get("/v1/jobs", headers=auth(org.test.key), params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def ids_of(page: dict[str, Any]) -> list[str]:
    return [item["id"] for item in page["data"]]


def created_on(monkeypatch: pytest.MonkeyPatch, day: str) -> None:
    """Jobs created from now on are created at noon UTC of `day`."""
    moment = int(datetime.fromisoformat(f"{day}T12:00:00+00:00").timestamp())
    monkeypatch.setattr(job_domain, "_now", lambda: moment)
    monkeypatch.setattr(job_domain, "new_id", partial(ids.new_id, now_ms=moment * 1000))


# ---------------------------------------------------------------------------- pages


def test_pages_walk_forward_with_after_and_back_with_before_right_at_both_ends(
    api: httpx.Client, org: Org
) -> None:
    created = [job(api, org) for _ in range(25)]
    newest_first = list(reversed(created))

    first = listed(api, org, limit=10)
    second = listed(api, org, limit=10, after=first["last_id"])
    third = listed(api, org, limit=10, after=second["last_id"])

    assert first["object"] == "list"
    assert ids_of(first) == newest_first[:10] and first["has_more"] is True
    assert (first["first_id"], first["last_id"]) == (newest_first[0], newest_first[9])
    assert ids_of(second) == newest_first[10:20] and second["has_more"] is True
    assert ids_of(third) == newest_first[20:] and third["has_more"] is False
    back = listed(api, org, limit=10, before=third["first_id"])
    assert ids_of(back) == ids_of(second) and back["has_more"] is True
    front = listed(api, org, limit=10, before=second["first_id"])
    assert ids_of(front) == ids_of(first) and front["has_more"] is False
    beyond = listed(api, org, limit=10, before=first["first_id"])
    assert beyond == {"object": "list", "data": [], "first_id": None, "last_id": None, "has_more": False}
    oldest_first = listed(api, org, limit=5, order="asc")
    assert ids_of(oldest_first) == created[:5]


def test_the_limit_is_1_to_100_and_20_by_default(api: httpx.Client, org: Org) -> None:
    for _ in range(21):
        job(api, org)

    assert len(listed(api, org)["data"]) == 20
    for limit in (0, 101, "many"):
        response = api.get("/v1/jobs", headers=auth(org.test.key), params={"limit": limit})
        assert response.status_code == 422


def test_a_filter_applied_after_the_read_still_fills_the_page(api: httpx.Client, org: Org) -> None:
    wanted = [job(api, org, model="m-wanted" if index % 3 == 0 else "m-other") for index in range(30)]
    expected = list(reversed([job_id for index, job_id in enumerate(wanted) if index % 3 == 0]))

    first = listed(api, org, model="m-wanted", limit=4)
    second = listed(api, org, model="m-wanted", limit=4, after=first["last_id"])
    third = listed(api, org, model="m-wanted", limit=4, after=second["last_id"])

    assert ids_of(first) + ids_of(second) + ids_of(third) == expected
    assert [first["has_more"], second["has_more"], third["has_more"]] == [True, True, False]


class CountingTable:
    """The jobs table, keeping what each Query asked for and how many items DynamoDB read for it."""

    def __init__(self, table: Any, reads: list[tuple[str | None, int]]) -> None:
        self._table, self._reads = table, reads

    def query(self, **params: Any) -> Any:
        response = self._table.query(**params)
        self._reads.append((params.get("IndexName"), int(response["ScannedCount"])))
        return response

    def scan(self, **params: Any) -> Any:
        raise AssertionError("a list never scans")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str | None, int]]:
    seen: list[tuple[str | None, int]] = []
    table = aws.table

    def counted(name: str) -> Any:
        found = table(name)
        return CountingTable(found, seen) if name == settings().jobs_table else found

    monkeypatch.setattr(aws, "table", counted)
    return seen


def test_a_page_reads_the_page_and_one_more_by_key_or_index(
    api: httpx.Client, org: Org, reads: list[tuple[str | None, int]]
) -> None:
    for _ in range(15):
        job(api, org)  # failed
        job(api, org, endpoint="/v1/parses", metadata={"workflow_id": "wf_1"})  # queued
    expectations = [
        ({}, None),
        ({"status": "queued"}, "jobs_by_status"),
        ({"endpoint": "/v1/edits"}, "jobs_by_endpoint"),
        ({"workflow_id": "wf_1"}, "jobs_by_workflow"),
    ]
    for params, index in expectations:
        reads.clear()
        page = listed(api, org, limit=5, **params)
        assert len(page["data"]) == 5 and page["has_more"] is True
        assert reads == [(index, 6)], params


# ---------------------------------------------------------------------------- filters


def test_status_endpoint_and_id_select_exactly_their_jobs(api: httpx.Client, org: Org) -> None:
    failed = job(api, org)
    queued = job(api, org, endpoint="/v1/parses")
    cancelled = job(api, org, endpoint="/v1/parses")
    api.post(f"/v1/jobs/{cancelled}/cancel", headers=auth(org.test.key))

    assert ids_of(listed(api, org, status="failed")) == [failed]
    assert ids_of(listed(api, org, status="queued")) == [queued]
    assert ids_of(listed(api, org, endpoint="/v1/parses")) == [cancelled, queued]
    assert ids_of(listed(api, org, endpoint="/v1/parses", status="cancelled")) == [cancelled]
    assert ids_of(listed(api, org, id=queued)) == [queued]
    assert ids_of(listed(api, org, id=queued, status="failed")) == []
    for bad in ({"status": "done"}, {"endpoint": "/v1/nothing"}, {"source": "cli"}):
        assert api.get("/v1/jobs", headers=auth(org.test.key), params=bad).status_code == 422


def test_source_project_workflow_and_block_come_from_the_request_and_the_metadata(
    api: httpx.Client, org: Org
) -> None:
    direct = job(api, org)
    in_project = job(api, org, project_id="proj_1")
    in_workflow = job(api, org, metadata={"workflow_id": "wf_1", "workflow_block_id": "block-a"})
    in_block = job(api, org, metadata={"workflow_id": "wf_1", "block_id": "block-b"})
    other_workflow = job(api, org, metadata={"workflow_id": "wf_2"})

    assert ids_of(listed(api, org, source="api")) == [direct]
    assert ids_of(listed(api, org, source="project")) == [in_project]
    assert ids_of(listed(api, org, source="workflow")) == [other_workflow, in_block, in_workflow]
    assert ids_of(listed(api, org, project_id="proj_1")) == [in_project]
    assert ids_of(listed(api, org, workflow_id="wf_1")) == [in_block, in_workflow]
    assert ids_of(listed(api, org, workflow_block_id="block-a")) == [in_workflow]
    assert ids_of(listed(api, org, workflow_block_id="block-b")) == [in_block]
    assert ids_of(listed(api, org, workflow_id="wf_2", source="workflow")) == [other_workflow]


def test_filenames_match_by_anchored_regex_substring_and_type(api: httpx.Client, org: Org) -> None:
    report = job(api, org, filename="report-2026.pdf")
    invoice = job(api, org, filename="invoice.docx")
    many = job(api, org, endpoint="/v1/splits", documents=[{"filename": "a.png"}, {"filename": "scan.PDF"}])

    assert ids_of(listed(api, org, filename_regex=r"report-\d+\.pdf")) == [report]
    assert ids_of(listed(api, org, filename_regex="port.*")) == []  # anchored at the start
    assert ids_of(listed(api, org, filename_regex="report")) == []  # and at the end
    assert ids_of(listed(api, org, filename_regex=r"scan\..*")) == [many]
    assert ids_of(listed(api, org, filename_contains="voice")) == [invoice]
    assert ids_of(listed(api, org, filename_contains="can")) == [many]
    assert ids_of(listed(api, org, document_type="pdf")) == [many, report]
    assert ids_of(listed(api, org, document_type=["docx", "png"])) == [many, invoice]


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"filename_regex": "(unclosed"}, "does not compile"),
        ({"filename_regex": "x" * 201}, "longer than"),
        ({"document_type": "exe"}, "unknown document_type"),
        ({"metadata": "{not json"}, "not JSON"),
        ({"metadata": '["a"]'}, "JSON object"),
        ({"metadata": '{"a": 1}'}, "JSON object"),
        ({"include_response": "true", "limit": 21}, "limit 20 or less"),
        ({"from_date": "2026-13-01"}, "not a date"),
        ({"from_date": "2026-05-02", "to_date": "2026-05-01"}, "after to_date"),
        ({"before": "job_A", "after": "job_B"}, "either"),
    ],
)
def test_invalid_list_parameters_are_422_naming_the_problem(
    api: httpx.Client, org: Org, params: dict[str, Any], words: str
) -> None:
    response = api.get("/v1/jobs", headers=auth(org.test.key), params=params)

    assert response.status_code == 422
    assert words in response.json()["detail"][0]["msg"]


def test_a_regex_that_backtracks_without_end_is_refused_not_run(api: httpx.Client, org: Org) -> None:
    job(api, org, filename="a" * 60 + ".pdf")

    response = api.get("/v1/jobs", headers=auth(org.test.key), params={"filename_regex": r"(a|aa)+\.pdx"})

    assert response.status_code == 422
    assert "too long" in response.json()["detail"][0]["msg"]


def test_dates_are_whole_days_inclusive(api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch) -> None:
    created_on(monkeypatch, "2026-05-01")
    first = job(api, org)
    created_on(monkeypatch, "2026-05-02")
    second = job(api, org)
    created_on(monkeypatch, "2026-05-03")
    third = job(api, org)

    assert ids_of(listed(api, org, from_date="2026-05-02")) == [third, second]
    assert ids_of(listed(api, org, to_date="2026-05-02")) == [second, first]
    assert ids_of(listed(api, org, from_date="2026-05-02", to_date="2026-05-02")) == [second]
    assert ids_of(listed(api, org, from_date="2026-05-02", status="failed", order="asc")) == [second, third]
    created = listed(api, org, id=second)["data"][0]["created_at"]
    assert datetime.fromtimestamp(created, UTC).date().isoformat() == "2026-05-02"


def test_metadata_matches_every_pair_exactly(api: httpx.Client, org: Org) -> None:
    billing = job(api, org, metadata={"team": "billing", "region": "eu"})
    job(api, org, metadata={"team": "billing-eu"})
    job(api, org)

    assert ids_of(listed(api, org, metadata='{"team": "billing"}')) == [billing]
    assert ids_of(listed(api, org, metadata='{"team": "billing", "region": "eu"}')) == [billing]
    assert ids_of(listed(api, org, metadata='{"team": "billing", "region": "us"}')) == []


def test_items_carry_request_and_response_only_when_asked(api: httpx.Client, org: Org) -> None:
    job_id = job(api, org, model="m-1")

    plain = listed(api, org)["data"][0]
    full = listed(api, org, include_request=True, include_response=True)["data"][0]

    assert plain["id"] == full["id"] == job_id
    assert plain["request"] is None and plain["response"] is None
    assert full["request"]["model"] == "m-1"
    assert full["response"]["status_code"] == 422  # what the endpoint answers such a request
    assert full["error"]["code"] == "validation_error"


def test_responses_are_included_up_to_a_limit_of_20(api: httpx.Client, org: Org) -> None:
    job(api, org)

    assert len(listed(api, org, include_response=True, limit=20)["data"]) == 1
    longest = "report\\.pdf" + "x{00}" + "x?" * 92
    assert len(longest) == 200
    assert len(listed(api, org, filename_regex=longest)["data"]) == 1


def test_access_token_and_operation_name_are_accepted(api: httpx.Client, org: Org) -> None:
    job_id = job(api, org)

    page = listed(api, org, access_token="anything", operation_name="get_ready_gcp_settings")

    assert ids_of(page) == [job_id]
