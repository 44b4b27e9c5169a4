"""The console's Secrets, Lookup tables and Usage sections through the real ConsoleFunction handler: each
page shows what the API shows for its environment only, each form does what the API's route does (the
API then shows it), a secret's value reaches no page, and the usage chart draws the usage API's figures."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import boto3
import httpx
import pytest
import time_machine
from docsvc import services
from docsvc.api import large_answers
from docsvc.config import settings
from docsvc.domain.usage import Charge
from docsvc.local.stack import REGION
from docsvc.tenancy import Tenant

from tests.conftest import Org, auth
from tests.integration.console_client import ConsolePage
from tests.integration.test_tables import VENDORS
from tests.integration.test_tables import create as create_table

VALUE = "s3cr3t-VALUE-never-shown-7f1c"


def api_secrets(api: httpx.Client, key: str) -> list[dict[str, Any]]:
    answer = api.get("/v1/secrets", headers=auth(key))
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["secrets"]
    return found


def opened(page: ConsolePage) -> ConsolePage:
    """The browser after its first page of the environment, which hands out the forms' token."""
    assert page.get(f"{page.base()}/usage").status_code == 200
    return page


def followed(page: ConsolePage, answer: httpx.Response) -> httpx.Response:
    """The page a form's 303 leads to."""
    assert answer.status_code == 303, answer.text
    return page.get(answer.headers["location"])


class Cells(HTMLParser):
    """The text of each cell of each table of a page: tables[i][row][column]."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(html: str) -> list[list[list[str]]]:
    parser = Cells()
    parser.feed(html)
    return parser.tables


# ---------------------------------------------------------------------------- secrets


def test_the_secrets_page_lists_this_environments_secrets_only(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    for key, name in ((org.test.key, "TEST_ONLY"), (org.production.key, "PRODUCTION_ONLY")):
        api.post("/v1/secrets", headers=auth(key), json={"name": name, "value": VALUE})
    api.post("/v1/secrets", headers=auth(other_org.test.key), json={"name": "OTHER_ORG", "value": VALUE})
    page = opened(signed_in(org, role="member"))

    listed = page.get(f"{page.base()}/secrets")

    assert listed.status_code == 200
    assert (
        "TEST_ONLY" in listed.text and "PRODUCTION_ONLY" not in listed.text and "OTHER_ORG" not in listed.text
    )
    assert "<caption>Secrets of the test environment</caption>" in listed.text
    assert "PRODUCTION_ONLY" in page.get(f"{page.base('production')}/secrets").text
    for path in (f"{page.base()}/secrets/PRODUCTION_ONLY", f"{page.base()}/secrets/OTHER_ORG"):
        assert page.get(path).status_code == 404, path
        assert page.post(f"{path}/rotate", {"value": "new"}).status_code == 404, path
        assert page.post(f"{path}/delete").status_code == 404, path
    assert [s["name"] for s in api_secrets(api, org.production.key)] == ["PRODUCTION_ONLY"]


def test_a_secret_set_rotated_and_deleted_in_the_console_is_what_the_api_shows(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = opened(signed_in(org, role="member"))
    tenant = Tenant(org.id, "test")

    created = page.post(f"{page.base()}/secrets", {"name": "PARTNER_TOKEN", "value": VALUE})
    shown = followed(page, created)
    (meta,) = api_secrets(api, org.test.key)
    assert "Secret PARTNER_TOKEN is set." in shown.text and meta["name"] == "PARTNER_TOKEN"
    assert meta["created_by"] == page.email
    assert services.secret_resolver().resolve(tenant, "secret://PARTNER_TOKEN") == VALUE

    rotated = page.post(f"{page.base()}/secrets/PARTNER_TOKEN/rotate", {"value": VALUE + "-2"})
    assert "has a new value" in followed(page, rotated).text
    (after,) = api_secrets(api, org.test.key)
    assert after["created_at"] == meta["created_at"] and after["updated_at"] >= meta["updated_at"]
    assert services.secret_resolver().resolve(tenant, "secret://PARTNER_TOKEN") == VALUE + "-2"

    deleted = page.post(f"{page.base()}/secrets/PARTNER_TOKEN/delete")
    assert "is deleted" in followed(page, deleted).text
    assert api_secrets(api, org.test.key) == []
    assert page.get(f"{page.base()}/secrets/PARTNER_TOKEN").status_code == 404


def test_a_secrets_value_appears_on_no_page(signed_in, api: httpx.Client, org: Org) -> None:
    page = opened(signed_in(org, role="admin"))
    answers = [page.post(f"{page.base()}/secrets", {"name": "API_KEY", "value": VALUE})]
    answers.append(page.get(answers[0].headers["location"]))
    answers.append(page.post(f"{page.base()}/secrets", {"name": "API_KEY", "value": VALUE}))  # 409
    answers.append(page.post(f"{page.base()}/secrets", {"name": "9bad", "value": VALUE}))  # 422
    answers.append(page.post(f"{page.base()}/secrets/API_KEY/rotate", {"value": VALUE + "x"}))
    answers.append(page.post(f"{page.base()}/secrets/API_KEY/rotate", {"value": "v" * 65_537}))  # too long
    answers.append(page.get(answers[-2].headers["location"]))
    for path in ("/secrets", "/secrets/API_KEY", "/tables", "/webhooks", "/usage"):
        answers.append(page.get(page.base() + path))
        answers.append(page.get(page.base("production") + path))

    assert [answer.status_code for answer in answers[:6]] == [303, 200, 409, 422, 303, 422]
    for answer in answers:
        assert VALUE not in answer.text and VALUE not in answer.headers.get("location", ""), answer.url
        assert "v" * 1000 not in answer.text
    assert 'type="password"' in answers[1].text and 'autocomplete="off"' in answers[1].text


def test_the_services_rules_are_shown_on_the_form(signed_in, api: httpx.Client, org: Org) -> None:
    page = opened(signed_in(org))
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "TAKEN", "value": VALUE})

    taken = page.post(f"{page.base()}/secrets", {"name": "TAKEN", "value": "other"})
    bad_name = page.post(f"{page.base()}/secrets", {"name": "has-dash", "value": "x"})
    no_value = page.post(f"{page.base()}/secrets", {"name": "EMPTY", "value": ""})

    assert taken.status_code == 409 and "exists already in this environment" in taken.text
    assert bad_name.status_code == 422 and "starts with a letter or an underscore" in bad_name.text
    assert 'value="has-dash"' in bad_name.text  # the name is kept, the value never
    assert no_value.status_code == 422 and "a secret needs a value" in no_value.text
    assert [s["name"] for s in api_secrets(api, org.test.key)] == ["TAKEN"]


def test_the_secrets_list_is_paged_by_name(signed_in, org: Org) -> None:
    tenant = Tenant(org.id, "test")
    for number in range(27):
        services.secret_service().create(tenant, f"S{number:02d}", "v", by="test")
    page = opened(signed_in(org))

    first = page.get(f"{page.base()}/secrets")
    following = re.search(r'href="([^"]*after=S24)"', first.text)
    assert following and "S24" in first.text and "S25" not in first.text
    second = page.get(following.group(1).replace("&amp;", "&"))
    assert "S25" in second.text and "S26" in second.text and "S24" not in second.text


# ---------------------------------------------------------------------------- tables


def upload(page: ConsolePage, content: bytes, name: str = "vendors", **form: str) -> httpx.Response:
    return page.client.post(
        f"{page.base()}/tables",
        data={"csrf": page.csrf(), "name": name, **form},
        files={"file": ("vendors.csv", content, "text/csv")},
    )


def test_a_table_uploaded_in_the_console_is_listed_by_the_api_and_previewed_by_pages(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = opened(signed_in(org, role="member"))
    rows = b"code,amount\n" + b"".join(b"C%02d,%d\n" % (n, n * 10) for n in range(30))

    answer = upload(page, rows, name="codes", column_schema_overrides='{"amount": "number"}')
    shown = followed(page, answer)

    (record,) = api.get("/v1/tables", headers=auth(org.test.key)).json()["tables"]
    assert answer.headers["location"].startswith(f"{page.base()}/tables/{record['id']}?")
    assert "Table codes is ready: 30 rows, 2 columns." in shown.text
    columns, preview = tables_of(shown.text)
    assert columns[1][:3] == ["code", "string", "none"] and columns[2][:2] == ["amount", "number"]
    assert preview[0] == ["code", "amount"] and len(preview) == 26
    assert preview[1] == ["C00", "0.0"] and preview[25] == ["C24", "240.0"]
    assert "<caption>Rows 1 to 25 of 30</caption>" in shown.text
    second = page.get(f"{page.base()}/tables/{record['id']}?offset=25")
    assert tables_of(second.text)[1][1:] == [[f"C{n}", f"{n * 10}.0"] for n in range(25, 30)]
    assert "<caption>Rows 26 to 30 of 30</caption>" in second.text and 'rel="next"' not in second.text
    listed = page.get(f"{page.base()}/tables")
    assert f'href="{page.base()}/tables/{record["id"]}">codes</a>' in listed.text


def test_the_tables_list_is_paged_newest_first(signed_in, org: Org) -> None:
    tenant = Tenant(org.id, "test")
    made = [
        services.table_service().create(tenant, f"T{number:02d}", "t.csv", b"a,b\n1,2\n", None)
        for number in range(27)
    ]
    page = opened(signed_in(org))

    first = page.get(f"{page.base()}/tables")
    following = re.search(r'href="([^"]*after=[^"]+)" *>Next page', first.text) or re.search(
        r'rel="next" href="([^"]+)"', first.text
    )
    assert following and ">T26<" in first.text and ">T02<" in first.text and ">T01<" not in first.text
    second = page.get(following.group(1).replace("&amp;", "&"))
    assert f"after={made[2].id}" in following.group(1)
    assert ">T01<" in second.text and ">T00<" in second.text and ">T02<" not in second.text
    assert 'rel="next"' not in second.text


def test_another_environments_table_is_not_found(signed_in, api: httpx.Client, org: Org) -> None:
    production = create_table(api, org.production.key, name="live vendors").json()["tables"][0]
    page = opened(signed_in(org))

    assert "live vendors" not in page.get(f"{page.base()}/tables").text
    for path in ("", "/download"):
        assert page.get(f"{page.base()}/tables/{production['id']}{path}").status_code == 404
    assert page.post(f"{page.base()}/tables/{production['id']}/delete").status_code == 404
    assert api.get(f"/v1/tables/{production['id']}", headers=auth(org.production.key)).status_code == 200
    assert "live vendors" in page.get(f"{page.base('production')}/tables").text


def test_a_table_is_downloaded_with_formulas_made_inert_and_deleted(
    signed_in, api: httpx.Client, org: Org
) -> None:
    table = create_table(api, org.test.key).json()["tables"][0]
    page = opened(signed_in(org))

    download = page.get(f"{page.base()}/tables/{table['id']}/download")
    expected = api.get(f"/v1/tables/{table['id']}/download", headers=auth(org.test.key))
    deleted = page.post(f"{page.base()}/tables/{table['id']}/delete")

    assert download.status_code == 200 and download.content == expected.content
    assert b"'=HYPERLINK" in download.content and "attachment" in download.headers["content-disposition"]
    assert "Table vendors is deleted." in followed(page, deleted).text
    assert api.get(f"/v1/tables/{table['id']}", headers=auth(org.test.key)).status_code == 404


def test_a_download_too_large_for_lambda_is_handed_out_through_s3(
    signed_in, api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lambda refuses an answer over 6 MB (a lookup table may be 20 MiB): the console stores it under
    the tenant's prefix and sends the browser there. The budget is lowered here to a small table's size."""
    table = create_table(api, org.test.key).json()["tables"][0]
    page = opened(signed_in(org))
    expected = api.get(f"/v1/tables/{table['id']}/download", headers=auth(org.test.key)).content
    monkeypatch.setattr(large_answers, "ANSWER_BUDGET_BYTES", 100)

    answer = page.get(f"{page.base()}/tables/{table['id']}/download")

    assert answer.status_code == 303, answer.text
    bucket = settings().files_bucket
    key = urlsplit(answer.headers["location"]).path.removeprefix(f"/{bucket}/")
    assert key.startswith(f"answers/{org.id}/test/")
    kept = boto3.client("s3", region_name=REGION).get_object(Bucket=bucket, Key=key)
    assert kept["Body"].read() == expected
    assert (
        "attachment"
        in parse_qs(urlsplit(answer.headers["location"]).query)["response-content-disposition"][0]
    )


def test_a_bad_upload_shows_the_services_message_and_stores_nothing(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = opened(signed_in(org))

    bad_overrides = upload(page, VENDORS, column_schema_overrides='{"since": 3}')
    no_file = page.client.post(
        f"{page.base()}/tables", data={"csrf": page.csrf(), "name": "x", "file_id": ""}
    )
    no_such_file = page.client.post(
        f"{page.base()}/tables", data={"csrf": page.csrf(), "name": "x", "file_id": "file_nope"}
    )
    not_csv = upload(page, b"\x00\x01\x02binary")

    assert bad_overrides.status_code == 422 and "A JSON object {column: type}" in bad_overrides.text
    assert 'value="vendors"' in bad_overrides.text  # the form keeps what was typed
    assert no_file.status_code == 422 and "send the CSV as" in no_file.text
    assert no_such_file.status_code == 404
    assert 400 <= not_csv.status_code < 500
    assert api.get("/v1/tables", headers=auth(org.test.key)).json()["tables"] == []


# ---------------------------------------------------------------------------- usage


def charge(tenant: Tenant, when: datetime, pages: int, operation: str, credits: float = 0.0) -> None:
    with time_machine.travel(when, tick=False):
        services.usage_service().add(tenant, Charge(pages=pages, credits=credits, operation=operation))  # type: ignore[arg-type]


def test_the_usage_chart_draws_the_usage_apis_figures(signed_in, api: httpx.Client, org: Org) -> None:
    today = datetime.now(UTC).replace(hour=12)
    test, production = Tenant(org.id, "test"), Tenant(org.id, "production")
    charge(test, today - timedelta(days=3), 4, "parse", 1.0)
    charge(test, today - timedelta(days=3), 2, "extraction", 2.5)
    charge(test, today - timedelta(days=1), 10, "parse", 3.0)
    charge(production, today - timedelta(days=2), 99, "parse")
    page = opened(signed_in(org, role="member"))

    shown = page.get(f"{page.base()}/usage")
    figures = api.get("/v1/usage", headers=auth(org.test.key)).json()

    assert shown.status_code == 200
    bars = re.findall(r'data-day="([^"]+)" data-operation="([^"]+)" data-value="([^"]+)"', shown.text)
    expected = [
        (day["day"], operation, str(float(share["pages"])))
        for day in sorted(figures["data"], key=lambda d: d["day"])
        for operation, share in sorted(day["by_operation"].items())
    ]
    assert sorted(bars) == sorted(expected) and len(bars) == 3
    assert "99" not in [value for _, _, value in bars]
    assert f'value="{figures["from_date"]}"' in shown.text and f'value="{figures["to_date"]}"' in shown.text
    heights = {
        (day, operation): float(height)
        for day, operation, height in re.findall(
            r'data-day="([^"]+)" data-operation="([^"]+)"[^>]*height="([^"]+)"', shown.text, re.S
        )
    }
    day_three = (today - timedelta(days=3)).date().isoformat()
    day_one = (today - timedelta(days=1)).date().isoformat()
    assert abs(heights[(day_three, "parse")] * 10 - heights[(day_one, "parse")] * 4) < 0.1
    assert (
        '<title id="usage-chart-title">Pages per day' in shown.text
        and '<desc id="usage-chart-desc">' in shown.text
    )
    (table,) = [t for t in tables_of(shown.text) if t and t[0][0] == "Day"]
    assert table[0] == ["Day", "parse", "extraction", "Total"]
    assert table[1:] == [[day_three, "4", "2", "6"], [day_one, "10", "0", "10"]]

    credits = page.get(f"{page.base()}/usage?measure=credits&operation=extraction")
    only = re.findall(r'data-day="([^"]+)" data-operation="([^"]+)" data-value="([^"]+)"', credits.text)
    assert only == [(day_three, "extraction", "2.5")]


def test_a_usage_range_beyond_the_apis_limits_is_explained(signed_in, org: Org) -> None:
    page = opened(signed_in(org))

    too_long = page.get(f"{page.base()}/usage?from_date=2024-01-01&to_date=2025-06-01")
    backwards = page.get(f"{page.base()}/usage?from_date=2025-06-01&to_date=2025-05-01")
    not_a_day = page.get(f"{page.base()}/usage?from_date=yesterday")
    unknown = page.get(f"{page.base()}/usage?operation=mining")

    assert too_long.status_code == 422 and "at most 366 days" in too_long.text
    assert backwards.status_code == 422 and "from_date is after to_date" in backwards.text
    assert not_a_day.status_code == 422 and "YYYY-MM-DD" in not_a_day.text
    assert unknown.status_code == 422 and "unknown operation 'mining'" in html.unescape(unknown.text)
    year = page.get(f"{page.base()}/usage?from_date=2025-01-01&to_date=2025-12-31")
    assert year.status_code == 200 and "No usage in these days." in year.text


# ---------------------------------------------------------------------------- forms


def test_forms_without_the_csrf_token_are_refused(signed_in, api: httpx.Client, org: Org) -> None:
    api.post("/v1/secrets", headers=auth(org.test.key), json={"name": "KEPT", "value": VALUE})
    table = create_table(api, org.test.key).json()["tables"][0]
    page = opened(signed_in(org))
    page.csrf()  # the browser has its cookie; the forms below leave the field out or forge it

    for path, data in (
        ("/secrets", {"name": "NEW", "value": "v"}),
        ("/secrets/KEPT/rotate", {"value": "v"}),
        ("/secrets/KEPT/delete", {}),
        (f"/tables/{table['id']}/delete", {}),
    ):
        for sent in (data, {**data, "csrf": "forged"}):
            answer = page.client.post(page.base() + path, data=sent)
            assert answer.status_code == 403, path
            assert "the form has expired" in answer.text
    assert [s["name"] for s in api_secrets(api, org.test.key)] == ["KEPT"]
    assert len(api.get("/v1/tables", headers=auth(org.test.key)).json()["tables"]) == 1
