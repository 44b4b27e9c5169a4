"""Requests a hostile or careless client sends, through the real handlers: each is a clear 4xx, never a
500, and leaves nothing half-written."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from docsvc.ids import LATEST_MILLIS, new_id

from tests.conftest import Org, auth
from tests.integration.test_tables import create

JSON = {"Content-Type": "application/json"}
NOT_JSON_NUMBERS = ["NaN", "Infinity", "-Infinity"]
ROUTES_WITH_A_NUMBER = [
    (
        "/v1/parses",
        '{{"document": {{"filename": "a.txt", "url": "data:text/plain,a"}}, '
        '"image_resolution_dpi": {value}}}',
    ),
    ("/v1/jobs", '{{"endpoint": "/v1/parses", "request": {{"x": {value}}}}}'),
    ("/v1/tables/tbl_01/query", '{{"filters": [], "limit": {value}}}'),
    ("/v1/webhooks/endpoints", '{{"url": "https://example.com/hook", "x": {value}}}'),
]


def post_raw(api: httpx.Client, key: str, path: str, body: str) -> httpx.Response:
    return api.post(path, headers={**auth(key), **JSON}, content=body.encode())


def json_invalid(response: httpx.Response) -> str:
    assert response.status_code == 422, response.text
    (problem,) = response.json()["detail"]
    assert problem["type"] == "json_invalid"
    return str(problem["ctx"]["error"])


@pytest.mark.parametrize("value", NOT_JSON_NUMBERS)
@pytest.mark.parametrize(("path", "template"), ROUTES_WITH_A_NUMBER, ids=[r[0] for r in ROUTES_WITH_A_NUMBER])
def test_nan_and_infinity_are_not_json_numbers_and_are_refused_with_a_422(
    api: httpx.Client, org: Org, path: str, template: str, value: str
) -> None:
    response = post_raw(api, org.test.key, path, template.format(value=value))

    assert "not JSON numbers" in json_invalid(response)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/secrets", '{"name": "a", "value": "\\ud800"}'),
        ("/v1/webhooks/endpoints", '{"url": "https://example.com/hook", "description": "\\udfff x"}'),
        ("/v1/workflows", '{"name": "\\uDBFF"}'),
        ("/v1/jobs", '{"endpoint": "/v1/parses", "request": {"\\ud800": 1}}'),
    ],
)
def test_a_lone_surrogate_escape_is_refused_with_a_422(
    api: httpx.Client, org: Org, path: str, body: str
) -> None:
    response = post_raw(api, org.test.key, path, body)

    assert "lone UTF-16 surrogate" in json_invalid(response)


def test_a_whole_surrogate_pair_is_a_character_and_is_taken(api: httpx.Client, org: Org) -> None:
    response = post_raw(api, org.test.key, "/v1/workflows", '{"name": "launch \\ud83d\\ude80"}')

    assert response.status_code == 201, response.text
    assert response.json()["name"] == "launch \U0001f680"


def test_a_string_that_says_nan_or_infinity_is_text_and_is_taken(api: httpx.Client, org: Org) -> None:
    response = post_raw(api, org.test.key, "/v1/workflows", '{"name": "NaN and -Infinity, as words"}')

    assert response.status_code == 201, response.text
    assert response.json()["name"] == "NaN and -Infinity, as words"


@pytest.mark.parametrize("metadata", ['{"team": NaN}', '{"team": "\\ud800"}'])
def test_job_list_metadata_follows_the_same_json_policy(api: httpx.Client, org: Org, metadata: str) -> None:
    response = api.get("/v1/jobs", headers=auth(org.test.key), params={"metadata": metadata})

    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["query", "metadata"]


def test_table_column_overrides_follow_the_same_json_policy(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, column_schema_overrides='{"name": "\\ud800"}')

    assert response.status_code == 422, response.text
    assert "surrogate" in response.json()["detail"][0]["msg"]


@pytest.mark.parametrize("file_id", ["null", "abc", "123", "file_", "file_a b", "file_x\n"])
@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_a_table_from_a_malformed_file_id_is_a_422_naming_the_field(
    api: httpx.Client, org: Org, file_id: str, method: str
) -> None:
    path = "/v1/tables"
    if method == "PUT":
        path += "/" + create(api, org.test.key).json()["tables"][0]["id"]

    response = api.request(
        method, path, headers=auth(org.test.key), data={"name": "vendors", "file_id": file_id}
    )

    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body", "file_id"]


def test_a_table_from_a_well_formed_unknown_file_id_is_404(api: httpx.Client, org: Org) -> None:
    response = api.post(
        "/v1/tables", headers=auth(org.test.key), data={"name": "vendors", "file_id": new_id("file")}
    )

    assert response.status_code == 404, response.text


def wide_csv(columns: int) -> bytes:
    return (",".join(f"c{n}" for n in range(columns)) + "\n" + ",".join("x" * columns)).encode()


def test_a_csv_too_wide_for_a_tables_description_is_a_413_and_nothing_is_stored(
    api: httpx.Client, org: Org
) -> None:
    response = create(api, org.test.key, wide_csv(10_000))

    assert response.status_code == 413, response.text
    assert "10000 columns" in response.json()["detail"]
    assert api.get("/v1/tables", headers=auth(org.test.key)).json() == {"tables": []}


def test_a_csv_of_4000_columns_is_a_table(api: httpx.Client, org: Org) -> None:
    response = create(api, org.test.key, wide_csv(4_000))

    assert response.status_code == 201, response.text
    assert len(response.json()["tables"][0]["columns"]) == 4_000


def test_long_cells_are_cut_in_the_samples_but_kept_whole_in_the_rows(api: httpx.Client, org: Org) -> None:
    long_text = "é" * 50_000
    content = ("note,n\n" + "\n".join(f"{n}{long_text},{n}" for n in range(3))).encode()

    response = create(api, org.test.key, content)

    assert response.status_code == 201, response.text
    table = response.json()["tables"][0]
    samples = table["columns"][0]["sample_values"]
    assert [len(sample) for sample in samples] == [201, 201, 201] and samples[0].endswith("…")
    rows = api.post(f"/v1/tables/{table['id']}/query", headers=auth(org.test.key), json={"limit": 1})
    assert rows.json()["data"][0]["note"] == "0" + long_text


@pytest.mark.parametrize("filename", ["данные€.csv", 'quote"and\\back.csv', "tab\tand\nnewline.csv"])
def test_a_download_names_any_file_in_an_rfc_6266_header(api: httpx.Client, org: Org, filename: str) -> None:
    created = api.post(
        "/v1/tables",
        headers=auth(org.test.key),
        data={"name": "t"},
        files={"file": (filename, b"a,b\n1,2\n", "text/csv")},
    )
    assert created.status_code == 201, created.text
    stored = created.json()["tables"][0]

    response = api.get(f"/v1/tables/{stored['id']}/download", headers=auth(org.test.key))

    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    disposition.encode("ascii")  # a header value any client reads
    ascii_name = disposition.split('filename="', 1)[1].split('"', 1)[0]
    assert '"' not in ascii_name and "\\" not in ascii_name
    assert disposition.endswith("filename*=UTF-8''" + quote(stored["filename"], safe=""))


@pytest.mark.parametrize(
    "event_id",
    ["evt_7ZZZZZZZZZZZZZZZZZZZZZZZZZ", new_id("evt", now_ms=LATEST_MILLIS), new_id("evt", now_ms=0)],
    ids=["past the year 9999", "the last millisecond", "the epoch"],
)
def test_deliveries_of_an_event_id_at_any_time_are_an_empty_list(
    api: httpx.Client, org: Org, event_id: str
) -> None:
    response = api.get("/v1/webhooks/deliveries", headers=auth(org.test.key), params={"event_id": event_id})

    assert response.status_code == 200, response.text
    assert response.json()["data"] == []


def test_two_different_keys_in_the_two_headers_are_refused(api: httpx.Client, org: Org) -> None:
    headers = {**auth(org.test.key), "Api-Key": org.production.key}

    response = api.get("/v1/auth/status", headers=headers)

    assert response.status_code == 401
    detail = response.json()["detail"]
    assert "Authorization" in detail and "Api-Key" in detail
    assert org.production.key not in detail and org.test.key not in detail


def test_the_same_key_in_both_headers_is_taken(api: httpx.Client, org: Org) -> None:
    headers: dict[str, Any] = {**auth(org.test.key), "Api-Key": org.test.key}

    response = api.get("/v1/auth/status", headers=headers)

    assert response.status_code == 200
    assert response.json()["environment_slug"] == "test"


def test_a_body_that_is_not_json_at_all_keeps_fastapis_answer(api: httpx.Client, org: Org) -> None:
    response = post_raw(api, org.test.key, "/v1/webhooks/endpoints", '{"url": NaN')

    assert response.status_code == 422
    assert json.dumps(response.json())  # JSON, whatever the route's own validation says
