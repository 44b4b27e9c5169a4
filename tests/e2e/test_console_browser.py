"""The console in a real browser against the local stack as `make dev` starts it: a member signs in,
switches environment, uploads a PDF and reads its parse, sees an extraction's boxes on the page,
rotates the webhook signing secret and reads a failed delivery. Every page passes axe-core's serious
and critical checks and a keyboard walk; ids of another environment or organization put in the URL
answer the not-found page.

Screenshots of each page go to docs/console/ with `make screenshots`.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.browser import launched_browser, screenshot, serious_violations, unreachable_by_keyboard
from tests.e2e.conftest import RunningStack
from tests.e2e.test_local_stack import admin
from tests.integration.test_intelligence import invoice

pytestmark = pytest.mark.e2e

WAIT_SECONDS = 90


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


@pytest.fixture
def page(browser: Any, stack: RunningStack) -> Iterator[Any]:
    """A fresh browser window (no cookies), signed in as the local organization's console admin."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=stack.url)
    window = context.new_page()
    window.goto("/console")
    window.get_by_label("Email").fill(stack.console_user)
    window.get_by_label("Password").fill(stack.console_password)
    window.get_by_role("button", name="Sign in").click()
    window.wait_for_url(re.compile(r"/console/[^/]+/test/files$"))
    yield window
    context.close()


def checked(page: Any, name: str | None = None) -> None:
    """The page as it is: no serious accessibility problem, every control reachable by Tab."""
    assert serious_violations(page) == [], page.url
    assert unreachable_by_keyboard(page) == [], page.url
    if name:
        screenshot(page, name)


def api(stack: RunningStack, key: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key or stack.test_key}"}
    return httpx.Client(base_url=stack.url, headers=headers, timeout=60)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the probe closes


def reload_until(page: Any, text: str | re.Pattern[str], seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while True:
        found = page.get_by_text(text).count() if isinstance(text, re.Pattern) else text in page.content()
        if found or time.monotonic() > deadline:
            break
        time.sleep(1)
        page.reload()
    assert found, f"{text!r} never appeared on {page.url}"


def test_a_member_signs_in_and_switches_between_the_environments(page: Any, stack: RunningStack) -> None:
    switch = page.get_by_role("navigation", name="Environment")
    assert switch.get_by_role("link", name="Test").get_attribute("aria-current") == "page"
    checked(page, "files")

    switch.get_by_role("link", name="Production").click()
    page.wait_for_url(re.compile(r"/production/files$"))
    assert page.get_by_role("note").inner_text().startswith("Production")
    checked(page, "files-production")

    page.get_by_role("navigation", name="Environment").get_by_role("link", name="Test").click()
    page.wait_for_url(re.compile(r"/test/files$"))
    assert page.get_by_role("note").count() == 0


def test_every_section_passes_the_accessibility_checks(page: Any, stack: RunningStack) -> None:
    sections = page.get_by_role("navigation", name="Sections").get_by_role("link")
    names = [sections.nth(index).inner_text() for index in range(sections.count())]
    assert "API keys" in names and "Members" in names  # the local console user is an admin
    for name in names:
        page.get_by_role("navigation", name="Sections").get_by_role("link", name=name, exact=True).click()
        page.wait_for_load_state()
        assert page.get_by_role("heading", level=1).count() == 1, page.url
        checked(page, re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"))


def test_ids_of_another_environment_or_organization_in_the_url_are_not_found(
    page: Any, stack: RunningStack
) -> None:
    with api(stack, stack.live_key) as live:
        production_file = live.post("/v1/files", files={"file": ("live.txt", b"production only")}).json()[
            "id"
        ]
    other = admin(stack, "orgs", "create", "Other Corp")
    assert isinstance(other, dict)
    other_key = admin(stack, "keys", "create", "--org", str(other["id"]), "--env", "test")
    assert isinstance(other_key, dict)
    with api(stack, str(other_key["key"])) as theirs:
        their_file = theirs.post("/v1/files", files={"file": ("theirs.txt", b"not yours")}).json()["id"]

    organization = stack.organization_id
    tries = [
        f"/console/{organization}/test/files/{production_file}",
        f"/console/{organization}/test/files/{their_file}",
        f"/console/{organization}/test/files/{their_file}/pages/1.jpg",
        f"/console/{other['id']}/test/files",
        f"/console/{other['id']}/test/files/{their_file}",
        f"/console/{organization}/staging/files",
    ]
    for path in tries:
        answer = page.goto(path)
        assert answer is not None and answer.status == 404, path
        assert "their_file" not in page.content() and "not yours" not in page.content()
    page.goto(tries[0])
    assert page.get_by_role("heading", level=1).inner_text() == "Not found"
    checked(page)


def test_a_pdf_uploaded_in_the_console_is_parsed_and_its_extraction_boxed_on_the_page(
    page: Any, stack: RunningStack, tmp_path: Path
) -> None:
    pdf = tmp_path / "invoice.pdf"
    pdf.write_bytes(invoice("INV-7731", "$1,234.00"))
    page.get_by_label(re.compile(r"^File \(")).set_input_files(str(pdf))
    page.get_by_role("button", name="Upload", exact=True).click()
    page.wait_for_url(re.compile(r"/test/files/file_[A-Za-z0-9]+"))
    file_id = page.url.rsplit("/", 1)[1].split("?")[0]
    picture = page.get_by_role("img", name=re.compile(r"^Page 1 of invoice\.pdf"))
    assert picture.evaluate("i => i.decode().then(() => i.naturalWidth)") > 0  # drawn by the service

    page.get_by_role("button", name="Parse this file").click()
    reload_until(page, "Invoice")
    text = page.get_by_role("region", name=re.compile("Text of page 1"))
    assert "Invoice" in text.inner_text()
    checked(page, "file-parse")

    schema = {
        "type": "object",
        "properties": {"invoice_number": {"type": "string"}, "total": {"type": "string"}},
    }
    with api(stack) as client:
        body = {"document": {"id": file_id}, "json_schema": schema, "include_sources": True}
        extraction = client.post("/v1/extractions", json=body)
    assert extraction.status_code in (200, 201), extraction.text
    page.goto(f"/console/{stack.organization_id}/test/files/{file_id}?extraction={extraction.json()['id']}")
    boxes = page.locator("svg.page-boxes rect")
    assert boxes.count() >= 1
    image = page.get_by_role("img", name=re.compile(r"^Page 1 of invoice\.pdf"))
    drawn, outlined = image.bounding_box(), boxes.first.bounding_box()
    assert drawn is not None and outlined is not None
    assert (
        drawn["x"] <= outlined["x"] and outlined["x"] + outlined["width"] <= drawn["x"] + drawn["width"] + 1
    )
    assert (
        drawn["y"] <= outlined["y"] and outlined["y"] + outlined["height"] <= drawn["y"] + drawn["height"] + 1
    )
    checked(page, "file-extraction")


def large_pdf(size: int) -> bytes:
    """A one-page PDF of at least `size` bytes: incompressible bytes attached to it."""
    import os as system

    import pymupdf

    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "A large attachment follows.")
    document.embfile_add("noise.bin", system.urandom(size))
    return bytes(document.tobytes())


def test_a_file_over_the_direct_limit_goes_up_through_an_upload_session_with_progress(
    page: Any, stack: RunningStack, tmp_path: Path
) -> None:
    pdf = tmp_path / "large.pdf"
    pdf.write_bytes(large_pdf(6_000_000))
    progress: list[int] = []
    page.expose_function("noteProgress", lambda value: progress.append(int(value)))
    page.evaluate(
        """() => new MutationObserver(() => window.noteProgress(document.querySelector('progress').value))
             .observe(document.querySelector('progress'), {attributes: true, childList: true})"""
    )
    page.get_by_label(re.compile(r"^File \(")).set_input_files(str(pdf))
    page.get_by_role("button", name="Upload", exact=True).click()
    page.wait_for_url(re.compile(r"/test/files/file_[A-Za-z0-9]+"), timeout=WAIT_SECONDS * 1000)

    assert page.get_by_text(f"{pdf.stat().st_size} bytes").count() == 1
    assert progress and max(progress) == 100
    with api(stack) as client:
        listed = client.get("/v1/files").json()["data"]
    sizes = [entry["size_bytes"] for entry in listed if entry["filename"] == "large.pdf"]
    assert sizes == [pdf.stat().st_size]


def test_the_signing_secret_is_rotated_and_a_failed_delivery_is_read(page: Any, stack: RunningStack) -> None:
    page.get_by_role("navigation", name="Sections").get_by_role("link", name="Webhooks").click()
    receiver = f"http://127.0.0.1:{closed_port()}/hooks"
    page.get_by_label("Receiver URL").fill(receiver)
    page.get_by_role("checkbox", name=re.compile(r"^job\.\*")).check()
    page.get_by_role("button", name="Add endpoint").click()
    page.wait_for_load_state()

    page.get_by_role("navigation", name="Sections").get_by_role("link", name="Webhooks").click()
    page.once("dialog", lambda dialog: dialog.accept())  # the confirmation asked before rotating
    page.get_by_role("button", name="Rotate the signing secret").click()
    page.wait_for_load_state()
    secret = page.locator("#new-secret").inner_text().strip()
    assert len(secret) >= 24
    checked(page, "webhooks-rotated")
    page.reload()
    assert secret not in page.content()  # shown once

    with api(stack) as client:
        upload = client.post("/v1/files", files={"file": ("hook.pdf", invoice())})
        request = {"document": {"id": upload.json()["id"]}}
        job = client.post("/v1/jobs", json={"endpoint": "/v1/parses", "request": request})
    assert job.status_code in (200, 201, 202), job.text  # its job.completed event goes to the receiver

    page.get_by_role("navigation", name="Sections").get_by_role("link", name="Webhooks").click()
    page.get_by_role("link", name=receiver).click()
    reload_until(page, "connection refused")
    checked(page, "webhook-endpoint")
    page.get_by_role("link", name=re.compile(r"^del_")).first.click()
    assert "connection refused" in page.content()
    checked(page, "webhook-delivery")
