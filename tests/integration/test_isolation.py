"""Isolation: another organization's or environment's file answers exactly like an unknown id."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import Org, auth
from tests.integration.test_files import pdf_bytes

UNKNOWN = "file_01M7ZZZZZZZZZZZZZZZZZZZZZZ"


def requests_for(file_id: str) -> list[tuple[str, str]]:
    return [
        ("GET", f"/v1/files/{file_id}"),
        ("GET", f"/v1/files/{file_id}/download-link"),
        ("DELETE", f"/v1/files/{file_id}"),
        ("POST", f"/v1/files/upload/{file_id}/complete"),
    ]


@pytest.fixture
def owned(api: httpx.Client, org: Org) -> dict[str, str]:
    """A file and an open upload session in the test environment of `org`."""
    file_id = api.post(
        "/v1/files", headers=auth(org.test.key), files={"file": ("a.pdf", pdf_bytes())}
    ).json()["id"]
    session = api.post(
        "/v1/files/upload", headers=auth(org.test.key), json={"filename": "b.pdf", "size_bytes": 100}
    ).json()["file_id"]
    return {"file": file_id, "session": session}


@pytest.mark.parametrize(
    "intruder", ["same org, production key", "other org, test key", "other org, production key"]
)
def test_foreign_ids_answer_404_exactly_like_unknown_ids(
    api: httpx.Client, org: Org, other_org: Org, owned: dict[str, str], intruder: str
) -> None:
    key = {
        "same org, production key": org.production.key,
        "other org, test key": other_org.test.key,
        "other org, production key": other_org.production.key,
    }[intruder]
    for target in (owned["file"], owned["session"]):
        for method, path in requests_for(target):
            foreign = api.request(method, path, headers=auth(key))
            unknown = api.request(method, path.replace(target, UNKNOWN), headers=auth(key))

            assert foreign.status_code == unknown.status_code == 404, (method, path)
            assert foreign.json()["detail"].replace(target, UNKNOWN) == unknown.json()["detail"]

    # ...and the owner still has everything.
    assert api.get(f"/v1/files/{owned['file']}", headers=auth(org.test.key)).status_code == 200


def test_lists_never_show_another_tenants_files(
    api: httpx.Client, org: Org, other_org: Org, owned: dict[str, str]
) -> None:
    for key in (org.production.key, other_org.test.key, other_org.production.key):
        for params in ({}, {"mime_type": "application/pdf"}, {"sort_by": "filename"}, {"filename": "a"}):
            body = api.get("/v1/files", headers=auth(key), params=params).json()
            assert body["data"] == [], (key[:9], params)
    own = api.get("/v1/files", headers=auth(org.test.key)).json()["data"]
    assert [item["id"] for item in own] == [owned["file"]]


def test_a_foreign_cursor_reveals_nothing(
    api: httpx.Client, org: Org, other_org: Org, owned: dict[str, str]
) -> None:
    response = api.get("/v1/files", headers=auth(other_org.test.key), params={"after": owned["file"]})

    assert response.status_code == 200
    assert response.json()["data"] == []


def test_a_test_key_creates_only_test_files(api: httpx.Client, org: Org) -> None:
    file_id = api.post("/v1/files", headers=auth(org.test.key), files={"file": ("t.txt", b"test")}).json()[
        "id"
    ]

    assert api.get(f"/v1/files/{file_id}", headers=auth(org.production.key)).status_code == 404
    assert api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).status_code == 200
