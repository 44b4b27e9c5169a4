"""The console's Files section: the list as the API lists it (filters, pages of 25), uploads with and
without an upload session, deletion, and the document viewer: pages drawn by the service, a parse's text
beside a page, an extraction's source boxes over it; another tenant's ids answer 404 everywhere."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pymupdf
import pytest
from docsvc import services
from docsvc.adapters.blobs import S3BlobStore
from docsvc.documents.engine import isolation
from docsvc.domain.files import MAX_DIRECT_UPLOAD_BYTES, upload_key
from docsvc.local.gateway import GatewayServer
from docsvc.tenancy import Tenant

from tests import samples
from tests.conftest import Org, auth, drain
from tests.e2e.browser import launched_browser, screenshot, serious_violations, unreachable_by_keyboard
from tests.integration.console_client import PASSWORD, member_with_password
from tests.integration.test_extraction_sources import SCHEMA
from tests.integration.test_intelligence import invoice


def tenant_of(org: Org) -> Tenant:
    return Tenant(org.id, "test")


def signed_in_files(signed_in: Any, org: Org, role: str = "admin") -> Any:
    """A member's browser that has opened the Files page (which hands out the forms' token)."""
    page = signed_in(org, role=role)
    assert page.get(f"/console/{org.id}/test/files").status_code == 200
    return page


def upload(api: httpx.Client, key: str, name: str, content: bytes) -> dict[str, Any]:
    answer = api.post("/v1/files", headers=auth(key), files={"file": (name, content)})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def listed(api: httpx.Client, key: str, **params: Any) -> list[str]:
    answer = api.get("/v1/files", headers=auth(key), params={"limit": 100, **params})
    return [file["id"] for file in answer.json()["data"]]


def ids_on(page: httpx.Response) -> list[str]:
    """The file ids of the list's rows, in order."""
    return re.findall(r'/files/(file_[0-9A-Za-z]+)">', page.text)


def jpeg_size(content: bytes) -> tuple[int, int]:
    assert content[:3] == b"\xff\xd8\xff", "not a JPEG"
    picture = pymupdf.Pixmap(content)
    return picture.width, picture.height


# ------------------------------------------------------------------------------------------ the list


def test_the_list_shows_what_the_api_lists_newest_first(signed_in, api: httpx.Client, org: Org) -> None:
    made = [upload(api, org.test.key, f"doc-{n}.pdf", samples.text_pdf(pages=n)) for n in (1, 2, 3)]
    page = signed_in(org).get(f"/console/{org.id}/test/files")

    assert page.status_code == 200
    assert ids_on(page) == listed(api, org.test.key) == [file["id"] for file in reversed(made)]
    assert "doc-3.pdf" in page.text and "application/pdf" in page.text
    assert "<caption>Files, newest first</caption>" in page.text and '<th scope="col">Size</th>' in page.text


def test_filters_by_name_type_and_date_as_the_api_does(signed_in, api: httpx.Client, org: Org) -> None:
    pdf = upload(api, org.test.key, "invoice-1.pdf", samples.text_pdf(pages=1))
    upload(api, org.test.key, "receipt.pdf", samples.text_pdf(pages=1))
    csv = upload(api, org.test.key, "invoice-2.csv", b"a,b\n1,2\n")
    page = signed_in_files(signed_in, org)
    files = f"/console/{org.id}/test/files"

    assert ids_on(page.get(files, params={"name": "invoice"})) == [csv["id"], pdf["id"]]
    assert ids_on(page.get(files, params={"name": "invoice", "mime_type": "application/pdf"})) == [pdf["id"]]
    assert ids_on(page.get(files, params={"to_date": "2001-01-01"})) == []
    assert len(ids_on(page.get(files, params={"from_date": pdf["created_at"][:10]}))) == 3
    refused = page.get(files, params={"from_date": "yesterday"})
    assert refused.status_code == 422 and "Created from: " in refused.text and "YYYY-MM-DD" in refused.text


def test_the_list_is_paged_by_25_with_the_cursor_of_the_api(signed_in, api: httpx.Client, org: Org) -> None:
    files = services.file_service()
    made = [files.upload(tenant_of(org), f"f{n:02}.txt", f"file {n}".encode()).id for n in range(27)]
    page = signed_in_files(signed_in, org)

    first = page.get(f"/console/{org.id}/test/files")
    assert ids_on(first) == list(reversed(made))[:25]
    (after,) = re.findall(r'rel="next" href="[^"]*after=(file_[0-9A-Za-z]+)', first.text)
    assert after == made[2]
    second = page.get(f"/console/{org.id}/test/files", params={"after": after})
    assert ids_on(second) == [made[1], made[0]] == listed(api, org.test.key, after=after)
    assert 'rel="next"' not in second.text


# ------------------------------------------------------------------------------------------ uploads


def test_an_upload_without_a_script_stores_the_file_and_the_api_lists_it(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = signed_in_files(signed_in, org)
    content = samples.text_pdf(pages=2)

    answer = page.client.post(
        f"/console/{org.id}/test/files", data={"csrf": page.csrf()}, files={"file": ("q3.pdf", content)}
    )

    assert answer.status_code == 303
    (file_id,) = listed(api, org.test.key)
    assert answer.headers["location"].startswith(f"/console/{org.id}/test/files/{file_id}?notice=Uploaded")
    stored = api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).json()
    assert (stored["filename"], stored["size_bytes"], stored["mime_type"]) == (
        "q3.pdf",
        len(content),
        "application/pdf",
    )
    assert listed(api, org.production.key) == []
    shown = page.get(answer.headers["location"])
    assert shown.status_code == 200 and 'role="status">Uploaded q3.pdf.' in shown.text


def test_a_too_large_or_unsupported_upload_is_a_4xx_page_with_the_services_message_and_stores_nothing(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = signed_in_files(signed_in, org)
    upload_to = f"/console/{org.id}/test/files"
    too_large = b"%PDF-1.7\n" + b"0" * MAX_DIRECT_UPLOAD_BYTES

    large = page.client.post(upload_to, data={"csrf": page.csrf()}, files={"file": ("big.pdf", too_large)})
    odd = page.client.post(
        upload_to, data={"csrf": page.csrf()}, files={"file": ("tool.exe", b"MZ\x90\x00" + bytes(range(256)))}
    )

    assert large.status_code == 413 and "direct uploads take at most 4500000 bytes" in large.text
    assert odd.status_code == 415 and "is not a supported document type here" in odd.text
    assert "text/html" in odd.headers["content-type"]
    assert listed(api, org.test.key) == []


def test_an_upload_without_the_forms_token_is_refused(signed_in, api: httpx.Client, org: Org) -> None:
    page = signed_in_files(signed_in, org)
    page.csrf()
    answer = page.client.post(
        f"/console/{org.id}/test/files", data={"csrf": "forged"}, files={"file": ("a.txt", b"hello")}
    )
    assert answer.status_code == 403
    assert listed(api, org.test.key) == []


def test_an_upload_session_is_started_and_completed_through_the_console(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = signed_in_files(signed_in, org)
    content = samples.text_pdf(pages=4)
    started = page.client.post(
        f"/console/{org.id}/test/files/uploads",
        data={"filename": "large.pdf", "size_bytes": str(len(content)), "content_type": "application/pdf"},
        headers={"X-CSRF-Token": page.csrf()},
    )
    assert started.status_code == 201, started.text
    session = started.json()
    assert session["upload_url"].startswith("https://") and session["upload_headers"]
    assert session["complete_url"] == f"/console/{org.id}/test/files/uploads/{session['file_id']}/complete"
    S3BlobStore().put(
        upload_key(tenant_of(org), session["file_id"]), content, "application/pdf"
    )  # the browser's PUT

    completed = page.client.post(session["complete_url"], headers={"X-CSRF-Token": page.csrf()})

    assert completed.status_code == 303
    assert listed(api, org.test.key) == [session["file_id"]]
    again = page.client.post(session["complete_url"], headers={"X-CSRF-Token": page.csrf()})
    assert again.status_code == 409 and "already complete" in again.text


# ------------------------------------------------------------------------------------------ deletion


def test_delete_removes_the_file_and_the_api_no_longer_finds_it(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "old.pdf", samples.text_pdf(pages=1))
    kept = upload(api, org.test.key, "kept.pdf", samples.text_pdf(pages=1))
    page = signed_in_files(signed_in, org)

    answer = page.post(f"/console/{org.id}/test/files/{file['id']}/delete")

    assert answer.status_code == 303 and "Deleted+old.pdf" in answer.headers["location"]
    assert api.get(f"/v1/files/{file['id']}", headers=auth(org.test.key)).status_code == 404
    assert listed(api, org.test.key) == [kept["id"]]
    assert page.post(f"/console/{org.id}/test/files/{file['id']}/delete").status_code == 404


# ------------------------------------------------------------------------------------------ the viewer


def test_a_page_picture_is_a_jpeg_of_the_pages_shape_kept_an_hour_by_its_tag(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "wide.pdf", samples.scanned_pdf())  # one page, 500 x 120 points
    page = signed_in_files(signed_in, org)
    picture = f"/console/{org.id}/test/files/{file['id']}/pages/1.jpg"

    answer = page.get(picture)

    assert answer.status_code == 200 and answer.headers["content-type"] == "image/jpeg"
    width, height = jpeg_size(answer.content)
    assert abs(width / height - 500 / 120) < 0.02
    assert answer.headers["cache-control"] == "private, no-cache"
    tag = answer.headers["etag"]
    again = page.get(picture, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag


def test_page_zero_and_the_page_after_the_last_are_not_found(signed_in, api: httpx.Client, org: Org) -> None:
    file = upload(api, org.test.key, "three.pdf", samples.text_pdf(pages=3))
    page = signed_in_files(signed_in, org)
    pictures = f"/console/{org.id}/test/files/{file['id']}/pages"

    assert page.get(f"{pictures}/3.jpg").status_code == 200
    for number in (0, 4):
        answer = page.get(f"{pictures}/{number}.jpg")
        assert answer.status_code == 404, number
    services.file_service().inspect(tenant_of(org), file["id"], _inspector())  # the page count becomes known
    assert page.get(f"{pictures}/4.jpg").status_code == 404
    assert page.get(f"/console/{org.id}/test/files/{file['id']}", params={"page": 4}).status_code == 404


def _inspector() -> Any:
    from docsvc.domain.files import Inspection

    def inspect(stream: Any, filename: str, sha256: str, size: int) -> Inspection:
        with pymupdf.open(stream=stream.read(), filetype="pdf") as document:
            pages = document.page_count
        return Inspection(
            mime_type="application/pdf", size_bytes=size, sha256=sha256, page_count=pages, embedding=None
        )

    return inspect


def test_the_file_page_shows_its_facts_and_one_page_lazily_with_links_to_the_others(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "long.pdf", samples.text_pdf(pages=300))
    services.file_service().inspect(tenant_of(org), file["id"], _inspector())

    answer = signed_in(org, role="member").get(
        f"/console/{org.id}/test/files/{file['id']}", params={"page": 150}
    )

    assert answer.status_code == 200
    assert answer.text.count("<img ") == 1
    assert f'src="/console/{org.id}/test/files/{file["id"]}/pages/150.jpg" loading="lazy"' in answer.text
    assert "Page 150 of 300" in answer.text and "long.pdf" in answer.text and file["sha256"] in answer.text
    for number in (1, 148, 149, 151, 152, 300):
        assert f"page={number}" in answer.text, number
    assert "page=147" not in answer.text


def test_a_type_without_pages_says_so_and_its_picture_is_a_415_page(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "rows.csv", b"a,b\n1,2\n")
    page = signed_in_files(signed_in, org)

    shown = page.get(f"/console/{org.id}/test/files/{file['id']}")
    picture = page.get(f"/console/{org.id}/test/files/{file['id']}/pages/1.jpg")

    assert (
        shown.status_code == 200
        and "has no pages to show as pictures" in shown.text
        and "<img" not in shown.text
    )
    assert picture.status_code == 415 and "only PDFs and images do" in picture.text


def test_the_parse_text_of_a_page_appears_beside_it_with_its_tables(
    signed_in, api: httpx.Client, org: Org
) -> None:
    content = samples.table_pdf([["Item", "Price"], ["Apples", "3.20"], ["Pears", "4.10"]])
    file = upload(api, org.test.key, "prices.pdf", content)
    parse = api.post("/v1/parses", headers=auth(org.test.key), json={"document": {"id": file["id"]}}).json()
    assert parse["status"] == "completed"

    answer = signed_in(org).get(f"/console/{org.id}/test/files/{file['id']}", params={"parse": parse["id"]})

    assert answer.status_code == 200
    assert "Text of page 1" in answer.text and "Price list" in answer.text
    assert "<caption>Table 1 of page 1</caption>" in answer.text
    assert '<th scope="col">Item</th><th scope="col">Price</th>' in answer.text
    assert "<td>Apples</td><td>3.20</td>" in answer.text
    assert "Page 1 of 1" in answer.text and 'rel="next"' not in answer.text  # the parse counted the pages


def test_extraction_boxes_are_drawn_inside_the_page_with_a_numbered_legend(
    signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "invoice.pdf", invoice("INV-2041", "$2,499.50"))
    extraction = api.post(
        "/v1/extractions",
        headers=auth(org.test.key),
        json={"document": {"id": file["id"]}, "json_schema": SCHEMA, "include_sources": True},
    ).json()
    anchors = {name: extraction["sources"][name]["source"]["anchor"] for name in ("invoice_number", "total")}

    answer = signed_in(org).get(
        f"/console/{org.id}/test/files/{file['id']}", params={"extraction": extraction["id"]}
    )

    assert answer.status_code == 200
    assert 'viewBox="0 0 1000 1000"' in answer.text
    rects = [
        tuple(float(v) for v in found)
        for found in re.findall(
            r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', answer.text
        )
    ]
    assert len(rects) >= 3
    for x, y, width, height in rects:
        assert 0 <= x < x + width <= 1000 and 0 <= y < y + height <= 1000
    number = anchors["invoice_number"]
    assert (round(number["left"] * 1000, 1), round(number["top"] * 1000, 1)) in [
        (x, y) for x, y, _, _ in rects
    ]
    assert re.search(r"<title>\d+\. invoice_number: INV-2041</title>", answer.text)
    assert re.search(r"<strong>invoice_number</strong> → INV-2041\s*→ this page", answer.text)
    assert re.search(r"<strong>purchase_order</strong> → <span class=\"muted\">not found</span>", answer.text)


def test_parse_this_file_starts_a_parse_whose_status_and_text_the_page_shows(
    deployment, signed_in, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "report.pdf", samples.text_pdf(pages=2, text="Quarterly"))
    page = signed_in_files(signed_in, org)

    started = page.post(f"/console/{org.id}/test/files/{file['id']}/parse")

    assert started.status_code == 303
    parse_id = re.search(r"parse=(parse_[0-9A-Za-z]+)", started.headers["location"]).group(1)  # type: ignore[union-attr]
    assert api.get(f"/v1/parses/{parse_id}", headers=auth(org.test.key)).json()["file"]["id"] == file["id"]
    waiting = page.get(started.headers["location"])
    assert "queued" in waiting.text and "check again" in waiting.text
    drain(deployment, "ParseWorkerFunction")
    done = page.get(f"/console/{org.id}/test/files/{file['id']}", params={"parse": parse_id, "page": 2})
    assert "completed" in done.text and "Quarterly 2" in done.text


def test_another_tenants_file_parse_or_extraction_is_not_found_on_every_view(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    mine = upload(api, org.test.key, "mine.pdf", invoice())
    production = upload(api, org.production.key, "prod.pdf", invoice())
    theirs = upload(api, other_org.test.key, "theirs.pdf", invoice())
    other_file = upload(api, org.test.key, "other.pdf", invoice())
    parses = {
        name: api.post("/v1/parses", headers=auth(key), json={"document": {"id": file["id"]}}).json()["id"]
        for name, key, file in (
            ("production", org.production.key, production),
            ("other org", other_org.test.key, theirs),
            ("other file", org.test.key, other_file),
        )
    }
    extractions = {
        name: api.post(
            "/v1/extractions", headers=auth(key), json={"document": {"id": file["id"]}, "json_schema": SCHEMA}
        ).json()["id"]
        for name, key, file in (
            ("production", org.production.key, production),
            ("other org", other_org.test.key, theirs),
            ("other file", org.test.key, other_file),
        )
    }
    page = signed_in_files(signed_in, org)
    base = f"/console/{org.id}/test/files"

    for file in (production, theirs):
        for path in (f"{base}/{file['id']}", f"{base}/{file['id']}/pages/1.jpg"):
            assert page.get(path).status_code == 404, path
        assert page.post(f"{base}/{file['id']}/delete").status_code == 404
        assert page.post(f"{base}/{file['id']}/parse").status_code == 404
    for name, parse_id in parses.items():
        answer = page.get(f"{base}/{mine['id']}", params={"parse": parse_id})
        assert answer.status_code == 404 and "There is no such page" in answer.text, name
    for name, extraction_id in extractions.items():
        answer = page.get(f"{base}/{mine['id']}", params={"extraction": extraction_id})
        assert answer.status_code == 404, name
    assert page.get(f"/console/{other_org.id}/test/files/{theirs['id']}").status_code == 404
    assert api.get(f"/v1/files/{production['id']}", headers=auth(org.production.key)).status_code == 200


# ------------------------------------------------------------------------------------------ in a browser


IN_FLIGHT = 8  # requests the browser's gateway serves at once


@pytest.fixture
def browser_page(deployment, org: Org) -> Iterator[Any]:
    """Chromium signed in through the sign-in page as an admin of `org`, on the console served over
    plain HTTP by the local gateway."""
    email = f"browser.{org.id.lower()}@docsvc.example"
    member_with_password(org.id, "admin", email)
    server = GatewayServer("127.0.0.1", 0, deployment.functions, max_in_flight=IN_FLIGHT)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with contextmanager(launched_browser)() as browser:
            context = browser.new_context(
                base_url=f"http://127.0.0.1:{server.server_address[1]}",
                viewport={"width": 1280, "height": 1000},
            )
            try:
                page = context.new_page()
                page.goto("/console/sign-in")
                page.get_by_label("Email").fill(email)
                page.get_by_label("Password").fill(PASSWORD)
                page.get_by_role("button", name="Sign in").click()
                page.wait_for_url(re.compile(r"/console/org_"))
                yield page
            finally:
                context.close()
                # The reader's children forked while the browser ran hold its driver's pipes open, and
                # Playwright would wait for the driver to end for ever: once the requests the page left
                # are answered, every child is idle, and stopped.
                for _ in range(IN_FLIGHT):
                    assert server.in_flight.acquire(timeout=30), "a request of the page is still served"
                isolation.retire_idle_children()
    finally:
        server.shutdown()
        server.server_close()


def test_in_a_browser_the_script_uploads_with_the_forms_token_and_opens_the_file(
    browser_page: Any, api: httpx.Client, org: Org
) -> None:
    page = browser_page
    sent: list[dict[str, str]] = []
    page.on("request", lambda request: sent.append(request.headers) if request.method == "POST" else None)
    page.goto(f"/console/{org.id}/test/files")
    assert page.locator(".upload-progress").is_hidden()

    page.set_input_files(
        "#f-file", files=[{"name": "invoice.pdf", "mimeType": "application/pdf", "buffer": invoice()}]
    )
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(re.compile(r"/files/file_[0-9A-Za-z]+\?notice="))

    (file_id,) = listed(api, org.test.key)
    assert page.url.split("?")[0].endswith(f"/files/{file_id}")
    assert "Uploaded invoice.pdf." in page.locator("p.notice").inner_text()
    assert sent and sent[0].get("x-csrf-token"), "the upload was not sent by the script"


def test_in_a_browser_the_list_and_the_viewer_have_no_serious_accessibility_problem(
    browser_page: Any, api: httpx.Client, org: Org
) -> None:
    file = upload(api, org.test.key, "invoice.pdf", invoice("INV-2041", "$2,499.50"))
    extraction = api.post(
        "/v1/extractions",
        headers=auth(org.test.key),
        json={"document": {"id": file["id"]}, "json_schema": SCHEMA, "include_sources": True},
    ).json()
    parse = api.post("/v1/parses", headers=auth(org.test.key), json={"document": {"id": file["id"]}}).json()
    page = browser_page

    page.goto(f"/console/{org.id}/test/files")
    assert serious_violations(page) == []
    assert unreachable_by_keyboard(page) == []
    screenshot(page, "files-list")

    page.goto(f"/console/{org.id}/test/files/{file['id']}?parse={parse['id']}&extraction={extraction['id']}")
    picture = page.locator(".page-picture img")
    picture.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => { const i = document.querySelector('.page-picture img'); "
        "return i.complete && i.naturalWidth > 0; }"
    )
    shown = picture.bounding_box()
    boxes = page.locator(".page-boxes").bounding_box()
    assert (
        shown
        and boxes
        and abs(shown["width"] - boxes["width"]) < 1
        and abs(shown["height"] - boxes["height"]) < 1
    )
    assert serious_violations(page) == []
    assert unreachable_by_keyboard(page) == []
    screenshot(page, "files-viewer")
