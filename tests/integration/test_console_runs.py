"""The console's Parses, Extractions and Jobs sections through the real handler, as a member (not an
admin) sees them: what the API lists for the page's environment, its filters and pages, Cancel and
Retry doing what the API does (and refused with the service's message where the API refuses), and
another environment's or organization's ids answering 404."""

from __future__ import annotations

import html
import re
from typing import Any

import httpx
import pytest
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.console_client import ConsolePage
from tests.integration.test_files import pdf_bytes, upload
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, doc, invoice
from tests.integration.test_parses import document


def linked(page: httpx.Response, section: str) -> list[str]:
    """The ids a page links to in `section`, in the order of the page, each once."""
    ids = re.findall(rf'/{section}/([a-z]+_[0-9A-Z]+)[?"]', page.text)
    return list(dict.fromkeys(ids))


def next_page(page: httpx.Response) -> str | None:
    found = re.search(r'rel="next" href="([^"]+)"', page.text)
    return html.unescape(found.group(1)) if found else None


def every_page(console: ConsolePage, path: str, section: str) -> list[list[str]]:
    """The ids of each page of a list, following its "Next page" links."""
    pages: list[list[str]] = []
    url: str | None = path
    while url is not None:
        answer = console.get(url)
        assert answer.status_code == 200, answer.text
        pages.append(linked(answer, section))
        url = next_page(answer)
    return pages


def parse(api: httpx.Client, key: str, **body: Any) -> dict[str, Any]:
    answer = api.post("/v1/parses", headers=auth(key), json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def background_parse(api: httpx.Client, key: str, filename: str = "report.pdf") -> dict[str, Any]:
    return parse(api, key, document=document(pdf_bytes(1), filename), background=True)


def job(api: httpx.Client, key: str, request: dict[str, Any], endpoint: str = "/v1/parses") -> dict[str, Any]:
    answer = api.post("/v1/jobs", headers=auth(key), json={"endpoint": endpoint, "request": request})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def parse_job(api: httpx.Client, key: str, filename: str = "report.pdf") -> dict[str, Any]:
    return job(api, key, {"document": document(pdf_bytes(1), filename), "bust_cache": True})


def api_status(api: httpx.Client, key: str, path: str) -> str:
    answer = api.get(path, headers=auth(key))
    assert answer.status_code == 200, answer.text
    return str(answer.json()["status"])


# ---------------------------------------------------------------------------- parses


def test_the_parse_list_shows_the_parses_of_its_environment_only(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    mine = background_parse(api, org.test.key)
    production = background_parse(api, org.production.key)
    theirs = background_parse(api, other_org.test.key)
    console = signed_in(org, role="member")

    listed = console.get(f"{console.base()}/parses")
    in_production = console.get(f"{console.base('production')}/parses")

    assert listed.status_code == 200
    assert linked(listed, "parses") == [mine["id"]]
    assert linked(in_production, "parses") == [production["id"]]
    assert theirs["id"] not in listed.text + in_production.text
    assert "queued" in listed.text  # the status, in words


def test_parses_are_filtered_by_status_filename_and_dates(signed_in, api: httpx.Client, org: Org) -> None:
    queued = background_parse(api, org.test.key, "invoice-7.pdf")
    completed = parse(api, org.test.key, document=document(pdf_bytes(1), "receipt.pdf"))
    console = signed_in(org, role="member")
    base = f"{console.base()}/parses"

    assert linked(console.get(base, params={"status": "queued"}), "parses") == [queued["id"]]
    assert linked(console.get(base, params={"status": "completed"}), "parses") == [completed["id"]]
    assert linked(console.get(base, params={"filename": "invoice"}), "parses") == [queued["id"]]
    assert linked(console.get(base, params={"to_date": "2000-01-01"}), "parses") == []
    everything = {"status": "", "filename": "", "from_date": "", "to_date": ""}
    assert set(linked(console.get(base, params=everything), "parses")) == {queued["id"], completed["id"]}


def test_a_filter_the_api_would_refuse_is_a_page_naming_it(signed_in, org: Org) -> None:
    console = signed_in(org, role="member")

    unknown = console.get(f"{console.base()}/parses", params={"status": "done"})
    bad_date = console.get(f"{console.base()}/parses", params={"from_date": "yesterday"})

    assert unknown.status_code == 422 and "status must be one of" in unknown.text
    assert bad_date.status_code == 422 and "from_date" in bad_date.text


def test_the_parse_list_is_read_25_a_page(signed_in, api: httpx.Client, org: Org) -> None:
    made = [background_parse(api, org.test.key)["id"] for _ in range(27)]
    console = signed_in(org, role="member")

    pages = every_page(console, f"{console.base()}/parses", "parses")

    assert [len(ids) for ids in pages] == [25, 2]
    assert pages[0] + pages[1] == list(reversed(made))


def test_a_parse_page_shows_its_usage_its_text_and_a_link_to_its_files_viewer(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "contract.pdf", pdf_bytes(2, text="Clause")).json()
    made = parse(api, org.test.key, document={"id": file["id"]})
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/parses/{made['id']}")

    assert page.status_code == 200
    assert "Clause page 1" in page.text and "Clause page 2" in page.text
    assert f'href="{console.base()}/files/{file["id"]}?parse={made["id"]}"' in page.text
    assert "completed" in page.text and "Page 2 of 2" in page.text
    assert re.search(r"<dt>Ended</dt><dd>[^<]+ \([\d.]+ s after it was created\)", page.text)
    assert "Cancel this parse" not in page.text  # a completed parse cannot be cancelled


def test_a_long_parse_shows_five_pages_at_a_time(signed_in, api: httpx.Client, org: Org) -> None:
    made = parse(api, org.test.key, document=document(pdf_bytes(7, text="Chapter")))
    console = signed_in(org, role="member")
    path = f"{console.base()}/parses/{made['id']}"

    first = console.get(path)
    later = console.get(path, params={"first": 6})

    assert "Chapter page 5" in first.text and "Chapter page 6" not in first.text
    assert 'href="?first=6"' in first.text
    assert "Chapter page 6" in later.text and "Chapter page 7" in later.text
    assert "Chapter page 5" not in later.text


def test_cancel_cancels_a_parse_as_the_api_does_and_a_second_cancel_shows_the_services_refusal(
    signed_in, api: httpx.Client, org: Org
) -> None:
    made = background_parse(api, org.test.key)
    console = signed_in(org, role="member")
    path = f"{console.base()}/parses/{made['id']}"
    assert "Cancel this parse" in console.get(path).text

    cancelled = console.post(f"{path}/cancel")
    again = console.post(f"{path}/cancel")

    assert cancelled.status_code == 303
    assert cancelled.headers["location"].startswith(f"{path}?notice=")
    assert api_status(api, org.test.key, f"/v1/parses/{made['id']}") == "cancelled"
    assert again.status_code == 400
    assert f"parse &#39;{made['id']}&#39; is already cancelled" in again.text


def test_a_cancel_without_the_forms_token_is_refused(signed_in, api: httpx.Client, org: Org) -> None:
    made = background_parse(api, org.test.key)
    console = signed_in(org, role="member")
    console.get(f"{console.base()}/jobs")  # the browser has the forms' token

    refused = console.client.post(f"{console.base()}/parses/{made['id']}/cancel", data={"csrf": "forged"})

    assert refused.status_code == 403
    assert api_status(api, org.test.key, f"/v1/parses/{made['id']}") == "queued"


def test_a_parse_of_another_environment_or_organization_is_not_found(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    production = background_parse(api, org.production.key)
    theirs = background_parse(api, other_org.test.key)
    console = signed_in(org, role="member")

    for parse_id in (production["id"], theirs["id"], "parse_nothing"):
        assert console.get(f"{console.base()}/parses/{parse_id}").status_code == 404
        assert console.post(f"{console.base()}/parses/{parse_id}/cancel").status_code == 404
    assert api_status(api, org.production.key, f"/v1/parses/{production['id']}") == "queued"


# ---------------------------------------------------------------------------- extractions


def extraction(api: httpx.Client, key: str, **body: Any) -> dict[str, Any]:
    answer = api.post("/v1/extractions", headers=auth(key), json={"json_schema": INVOICE_SCHEMA, **body})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def test_the_extraction_list_shows_its_environments_results_of_the_kind_chosen(
    signed_in, api: httpx.Client, org: Org
) -> None:
    mine = extraction(api, org.test.key, document=doc(invoice()))
    production = extraction(api, org.production.key, document=doc(invoice()))
    body = {"document": doc(invoice()), "categories": CATEGORIES}
    classified = api.post("/v1/classifications", headers=auth(org.test.key), json=body).json()
    console = signed_in(org, role="member")

    extractions = console.get(f"{console.base()}/extractions")
    classifications = console.get(f"{console.base()}/extractions", params={"kind": "classification"})

    assert linked(extractions, "extractions") == [mine["id"]]
    assert linked(classifications, "extractions") == [classified["id"]]
    assert linked(console.get(f"{console.base('production')}/extractions"), "extractions") == [
        production["id"]
    ]
    assert console.get(f"{console.base()}/extractions", params={"kind": "poem"}).status_code == 422


def test_the_extraction_list_is_read_25_a_page(signed_in, api: httpx.Client, org: Org) -> None:
    made = [extraction(api, org.test.key, document=doc(invoice()))["id"] for _ in range(26)]
    console = signed_in(org, role="member")

    pages = every_page(console, f"{console.base()}/extractions", "extractions")

    assert [len(ids) for ids in pages] == [25, 1]
    assert pages[0] + pages[1] == list(reversed(made))


def test_an_extraction_page_shows_its_values_with_page_confidence_and_source(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "invoice.pdf", invoice()).json()
    made = extraction(api, org.test.key, document={"id": file["id"]}, include_sources=True)
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/extractions/{made['id']}")

    assert page.status_code == 200
    row = re.search(
        r"<code>invoice_number</code></td>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>",
        page.text,
    )
    assert row is not None, page.text
    value, page_number, confidence, source = row.groups()
    assert value == "INV-2026-0042"
    assert page_number == str(made["sources"]["invoice_number"]["source"]["anchor"]["page"])
    assert confidence == f"{made['likelihoods']['invoice_number'] * 100:.0f}%"
    assert "INV-2026-0042" in source
    assert "<code>line_items.0.quantity</code>" in page.text
    assert f'href="{console.base()}/files/{file["id"]}?extraction={made["id"]}"' in page.text


def test_a_result_of_another_environment_or_organization_is_not_found(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    production = extraction(api, org.production.key, document=doc(invoice()))
    theirs = extraction(api, other_org.test.key, document=doc(invoice()))
    console = signed_in(org, role="member")

    for result_id in (production["id"], theirs["id"], "extr_nothing", "nothing"):
        assert console.get(f"{console.base()}/extractions/{result_id}").status_code == 404, result_id


# ---------------------------------------------------------------------------- jobs


def test_the_job_list_shows_the_jobs_of_its_environment_only(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    mine = parse_job(api, org.test.key)
    production = parse_job(api, org.production.key)
    theirs = parse_job(api, other_org.test.key)
    console = signed_in(org, role="member")

    listed = console.get(f"{console.base()}/jobs")

    assert linked(listed, "jobs") == [mine["id"]]
    assert linked(console.get(f"{console.base('production')}/jobs"), "jobs") == [production["id"]]
    assert theirs["id"] not in listed.text


def test_jobs_are_filtered_by_status_endpoint_and_dates(signed_in, api: httpx.Client, org: Org) -> None:
    queued = parse_job(api, org.test.key, "statement.pdf")
    failed = job(
        api,
        org.test.key,
        {"document": doc(invoice()), "json_schema": {"type": "object", "properties": []}},
        "/v1/extractions",
    )
    assert failed["status"] == "failed"
    console = signed_in(org, role="member")
    base = f"{console.base()}/jobs"

    assert linked(console.get(base, params={"status": "failed"}), "jobs") == [failed["id"]]
    assert linked(console.get(base, params={"endpoint": "/v1/parses"}), "jobs") == [queued["id"]]
    both = {"status": "failed", "endpoint": "/v1/parses"}
    assert linked(console.get(base, params=both), "jobs") == []
    assert linked(console.get(base, params={"to_date": "2000-01-01"}), "jobs") == []
    assert console.get(base, params={"endpoint": "/v1/poems"}).status_code == 422


def test_the_job_list_is_read_25_a_page(signed_in, api: httpx.Client, org: Org) -> None:
    made = [parse_job(api, org.test.key)["id"] for _ in range(26)]
    console = signed_in(org, role="member")

    pages = every_page(console, f"{console.base()}/jobs", "jobs")

    assert [len(ids) for ids in pages] == [25, 1]
    assert pages[0] + pages[1] == list(reversed(made))


def test_a_completed_jobs_page_links_the_parse_it_made(
    signed_in, api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    made = parse_job(api, org.test.key)
    drain(deployment, "JobWorkerFunction")
    answered = api.get(
        f"/v1/jobs/{made['id']}", headers=auth(org.test.key), params={"include_response": True}
    )
    parse_id = answered.json()["response"]["body"]["id"]
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/jobs/{made['id']}")

    assert page.status_code == 200
    assert "completed" in page.text and "/v1/parses" in page.text
    assert f'href="{console.base()}/parses/{parse_id}"' in page.text
    assert console.get(f"{console.base()}/parses/{parse_id}").status_code == 200
    assert "Cancel this job" not in page.text and "Retry this job" not in page.text


def test_a_failed_jobs_page_shows_its_error_and_offers_retry(signed_in, api: httpx.Client, org: Org) -> None:
    request = {"document": doc(invoice()), "json_schema": {"type": "object", "properties": []}}
    failed = job(api, org.test.key, request, "/v1/extractions")
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/jobs/{failed['id']}")

    assert "validation_error" in page.text and "json_schema" in page.text
    assert "Retry this job" in page.text and "Cancel this job" not in page.text


def test_cancel_and_retry_do_what_the_api_does(signed_in, api: httpx.Client, org: Org) -> None:
    made = parse_job(api, org.test.key)
    console = signed_in(org, role="member")
    path = f"{console.base()}/jobs/{made['id']}"
    assert "Cancel this job" in console.get(path).text

    cancelled = console.post(f"{path}/cancel")
    assert cancelled.status_code == 303 and cancelled.headers["location"].startswith(f"{path}?notice=")
    assert api_status(api, org.test.key, f"/v1/jobs/{made['id']}") == "cancelled"
    assert "Retry this job" in console.get(path).text

    retried = console.post(f"{path}/retry")
    assert retried.status_code == 303
    assert api_status(api, org.test.key, f"/v1/jobs/{made['id']}") == "queued"
    assert "queued" in console.get(retried.headers["location"]).text


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("retry", "only failed, cancelled or expired jobs can be retried"),
        ("cancel", "is already cancelled"),
    ],
)
def test_cancel_and_retry_are_refused_with_the_services_message_where_the_api_refuses(
    signed_in, api: httpx.Client, org: Org, action: str, message: str
) -> None:
    made = parse_job(api, org.test.key)
    if action == "cancel":
        assert api.post(f"/v1/jobs/{made['id']}/cancel", headers=auth(org.test.key)).status_code == 200
    api_answer = api.post(f"/v1/jobs/{made['id']}/{action}", headers=auth(org.test.key))
    console = signed_in(org, role="member")
    console.get(f"{console.base()}/jobs/{made['id']}")

    refused = console.post(f"{console.base()}/jobs/{made['id']}/{action}")

    assert api_answer.status_code == refused.status_code == 400
    assert message in api_answer.json()["detail"]
    assert api_answer.json()["detail"] in html.unescape(refused.text)


def test_a_job_of_another_environment_or_organization_is_not_found_and_left_alone(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    production = parse_job(api, org.production.key)
    theirs = parse_job(api, other_org.test.key)
    console = signed_in(org, role="member")

    for job_id in (production["id"], theirs["id"], "job_nothing"):
        assert console.get(f"{console.base()}/jobs/{job_id}").status_code == 404
        for action in ("cancel", "retry"):
            assert console.post(f"{console.base()}/jobs/{job_id}/{action}").status_code == 404
    assert api_status(api, org.production.key, f"/v1/jobs/{production['id']}") == "queued"
    assert api_status(api, other_org.test.key, f"/v1/jobs/{theirs['id']}") == "queued"


def test_a_job_action_without_the_forms_token_is_refused(signed_in, api: httpx.Client, org: Org) -> None:
    made = parse_job(api, org.test.key)
    console = signed_in(org, role="member")
    console.get(f"{console.base()}/jobs")  # the browser has the forms' token

    refused = console.client.post(f"{console.base()}/jobs/{made['id']}/cancel", data={"csrf": "forged"})

    assert refused.status_code == 403
    assert api_status(api, org.test.key, f"/v1/jobs/{made['id']}") == "queued"
