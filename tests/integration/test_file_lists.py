"""GET /v1/files to the letter of the spec: cursors both ways, filters, bounds, empty pages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from docsvc import services
from docsvc.clock import iso
from docsvc.domain.files import FileRecord
from docsvc.ids import new_id
from docsvc.tenancy import Tenant

from tests.conftest import Org, auth

START = datetime(2026, 3, 1, 12, tzinfo=UTC)


def seed(org: Org, count: int, *, day_step: int = 0, names: list[str] | None = None) -> list[FileRecord]:
    """Files created one minute (or `day_step` days) apart, stored the way an upload stores them."""
    repository = services.file_service()._repository
    tenant = Tenant(org.id, "test")
    records = []
    for index in range(count):
        created = START + timedelta(minutes=index, days=index * day_step)
        filename = names[index % len(names)] if names else f"doc-{index:03d}.pdf"
        mime = "application/pdf" if filename.endswith(".pdf") else "text/plain"
        record = FileRecord(
            id=new_id("file", now_ms=int(created.timestamp() * 1000)),
            environment=tenant.environment,
            filename=filename,
            mime_type=mime,
            created_at=iso(created),
            updated_at=iso(created),
            size_bytes=10,
            embedding=[0.0] * 256,
        )
        repository.put_file(tenant, record)
        records.append(record)
    return records


def walk(api: httpx.Client, key: str, **params: object) -> tuple[list[str], int]:
    """Every id, following `after` while it is set; returns the ids and the number of pages."""
    ids: list[str] = []
    pages = 0
    cursor: str | None = None
    while True:
        query = dict(params, **({"after": cursor} if cursor else {}))
        body = api.get("/v1/files", headers=auth(key), params=query).json()
        pages += 1
        ids += [item["id"] for item in body["data"]]
        cursor = body["list_metadata"]["after"]
        if cursor is None:
            return ids, pages


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_pagination_walks_every_file_exactly_once(api: httpx.Client, org: Org, order: str) -> None:
    records = seed(org, 23)
    expected = [record.id for record in records]
    if order == "desc":
        expected.reverse()

    ids, pages = walk(api, org.test.key, limit=5, order=order)

    assert ids == expected
    assert pages == 5


def test_the_default_is_ten_newest_first(api: httpx.Client, org: Org) -> None:
    records = seed(org, 12)

    body = api.get("/v1/files", headers=auth(org.test.key)).json()

    assert [item["id"] for item in body["data"]] == [record.id for record in reversed(records)][:10]
    assert body["list_metadata"] == {"before": None, "after": records[2].id}


def test_before_walks_back_to_the_first_page(api: httpx.Client, org: Org) -> None:
    records = seed(org, 9)
    key = org.test.key
    first = api.get("/v1/files", headers=auth(key), params={"limit": 4, "order": "asc"}).json()
    second = api.get(
        "/v1/files",
        headers=auth(key),
        params={"limit": 4, "order": "asc", "after": first["list_metadata"]["after"]},
    ).json()

    back = api.get(
        "/v1/files",
        headers=auth(key),
        params={"limit": 4, "order": "asc", "before": second["list_metadata"]["before"]},
    ).json()

    assert [item["id"] for item in back["data"]] == [record.id for record in records[:4]]
    assert back["list_metadata"]["before"] is None  # nothing before the first page
    assert back["list_metadata"]["after"] == records[3].id
    assert second["list_metadata"]["before"] == records[4].id


def test_an_empty_page_has_no_cursors(api: httpx.Client, org: Org) -> None:
    body = api.get("/v1/files", headers=auth(org.test.key)).json()

    assert body == {"data": [], "list_metadata": {"before": None, "after": None}}


def test_the_last_page_has_no_after_cursor(api: httpx.Client, org: Org) -> None:
    records = seed(org, 4)

    body = api.get("/v1/files", headers=auth(org.test.key), params={"limit": 4}).json()

    assert len(body["data"]) == 4
    assert body["list_metadata"] == {"before": None, "after": None}
    assert body["data"][0]["id"] == records[-1].id


@pytest.mark.parametrize("limit", [0, 101, -1, "ten"])
def test_limit_outside_1_to_100_is_422(api: httpx.Client, org: Org, limit: object) -> None:
    response = api.get("/v1/files", headers=auth(org.test.key), params={"limit": limit})

    assert response.status_code == 422
    problem = response.json()["detail"][0]
    assert problem["loc"] == ["query", "limit"]
    assert problem["msg"]
    assert problem["type"]


@pytest.mark.parametrize("limit", [1, 100])
def test_limit_bounds_are_accepted(api: httpx.Client, org: Org, limit: int) -> None:
    seed(org, 3)

    response = api.get("/v1/files", headers=auth(org.test.key), params={"limit": limit})

    assert response.status_code == 200
    assert len(response.json()["data"]) == min(limit, 3)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"order": "sideways"}, "order"),
        ({"sort_by": "size"}, "sort_by"),
        ({"from_date": "yesterday"}, "from_date"),
        ({"to_date": "2026-13-45"}, "to_date"),
        ({"from_date": "2026-03-05", "to_date": "2026-03-01"}, "from_date"),
        ({"before": "file_A", "after": "file_B"}, "before"),
        ({"include_embeddings": "perhaps"}, "include_embeddings"),
    ],
)
def test_invalid_list_parameters_are_422_naming_the_field(
    api: httpx.Client, org: Org, params: dict[str, str], field: str
) -> None:
    response = api.get("/v1/files", headers=auth(org.test.key), params=params)

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["query", field]


def test_filename_filters_by_prefix(api: httpx.Client, org: Org) -> None:
    records = seed(org, 12, names=["invoice-a.pdf", "receipt.txt", "invoice-b.pdf"])
    invoices = [record.id for record in records if record.filename.startswith("invoice")]

    ids, _ = walk(api, org.test.key, filename="invoice", limit=3, order="asc")

    assert ids == invoices


def test_mime_type_filters_through_its_index(api: httpx.Client, org: Org) -> None:
    records = seed(org, 10, names=["a.pdf", "b.txt"])

    ids, _ = walk(api, org.test.key, mime_type="text/plain", limit=2, order="asc")

    assert ids == [record.id for record in records if record.mime_type == "text/plain"]


def test_dates_bound_the_list_inclusively(api: httpx.Client, org: Org) -> None:
    records = seed(org, 6, day_step=1)  # one file a day from 2026-03-01

    ids, _ = walk(api, org.test.key, from_date="2026-03-02", to_date="2026-03-04", order="asc")

    assert ids == [record.id for record in records[1:4]]


def test_dates_accept_iso_date_times(api: httpx.Client, org: Org) -> None:
    records = seed(org, 6, day_step=1)

    ids, _ = walk(api, org.test.key, from_date="2026-03-03T00:00:00Z", order="asc")

    assert ids == [record.id for record in records[2:]]


def test_sort_by_filename_orders_and_pages_by_name(api: httpx.Client, org: Org) -> None:
    names = ["delta.pdf", "alpha.pdf", "charlie.pdf", "bravo.pdf", "echo.pdf"]
    seed(org, 5, names=names)

    ascending, _ = walk(api, org.test.key, sort_by="filename", order="asc", limit=2)
    listed = [
        api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).json()["filename"]
        for file_id in ascending
    ]

    assert listed == sorted(names)
    descending, _ = walk(api, org.test.key, sort_by="filename", order="desc", limit=2)
    assert descending == list(reversed(ascending))


def test_sort_by_filename_with_a_prefix(api: httpx.Client, org: Org) -> None:
    seed(org, 6, names=["b-2.pdf", "a-1.pdf", "b-1.pdf"])

    body = api.get(
        "/v1/files",
        headers=auth(org.test.key),
        params={"sort_by": "filename", "order": "asc", "filename": "b-"},
    ).json()

    assert [item["filename"] for item in body["data"]] == ["b-1.pdf", "b-1.pdf", "b-2.pdf", "b-2.pdf"]


def test_embeddings_only_when_asked(api: httpx.Client, org: Org) -> None:
    seed(org, 2)

    plain = api.get("/v1/files", headers=auth(org.test.key)).json()["data"][0]
    rich = api.get("/v1/files", headers=auth(org.test.key), params={"include_embeddings": "true"}).json()[
        "data"
    ][0]

    assert "embeddings" not in plain
    assert len(rich["embeddings"]) == 256


def test_an_unknown_cursor_for_filename_order_is_422(api: httpx.Client, org: Org) -> None:
    seed(org, 2)

    response = api.get(
        "/v1/files", headers=auth(org.test.key), params={"sort_by": "filename", "after": "file_nope"}
    )

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["query", "after"]


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/files", {"after": "file_" + "0" * 2000}),  # longer than a DynamoDB key may be
        ("/v1/files", {"before": "file_<script>"}),
        ("/v1/jobs", {"from_date": "2026-11-01", "after": "job_0"}),  # outside the dates' key range
        ("/v1/parses", {"to_date": "2020-01-01", "before": "parse_ZZZZZZZZZZ"}),
    ],
)
def test_a_cursor_that_cannot_be_one_of_the_lists_is_422_naming_it(
    api: httpx.Client, org: Org, path: str, params: dict[str, str]
) -> None:
    response = api.get(path, headers=auth(org.test.key), params=params)

    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["query", "after" if "after" in params else "before"]
