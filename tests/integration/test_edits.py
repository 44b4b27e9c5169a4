"""Edits and edit templates through the real handlers, synchronously and as jobs, with the built-in
model and the PyMuPDF form engine."""

from __future__ import annotations

import base64
from typing import Any

import boto3
import httpx
import pymupdf
import pytest
from docsvc.config import settings
from docsvc.local.stack import REGION, Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_jobs import create_job
from tests.integration.test_parses import data_url, usage_of
from tests.samples import form_pdf

INSTRUCTIONS = "Full name: Jane Roe\nDate of birth: 1990-04-01\nI am a citizen: yes"


def form(content: bytes | None = None, filename: str = "application.pdf") -> dict[str, str]:
    return {"filename": filename, "url": data_url(content or form_pdf())}


def filled_pdf(edit: dict[str, Any]) -> pymupdf.Document:
    url = edit["output"]["filled_document"]["url"]
    assert url.startswith("data:application/pdf;base64,")
    return pymupdf.open(stream=base64.b64decode(url.split(",", 1)[1]), filetype="pdf")


def values(edit: dict[str, Any]) -> dict[str, str | None]:
    return {field["description"]: field["value"] for field in edit["output"]["form_data"]}


def value_of(edit: dict[str, Any], label: str) -> str | None:
    return next(value for description, value in values(edit).items() if label.lower() in description.lower())


def create_edit(api: httpx.Client, key: str, **body: Any) -> httpx.Response:
    return api.post("/v1/edits", headers=auth(key), json={"instructions": INSTRUCTIONS, **body})


# ---------------------------------------------------------------------------- edits


def test_a_form_with_widgets_is_filled_from_labelled_instructions_and_keeps_its_fields_editable(
    api: httpx.Client, org: Org
) -> None:
    response = create_edit(api, org.test.key, document=form())

    assert response.status_code == 201, response.text
    edit = response.json()
    assert edit["object"] == "edit" and edit["id"].startswith("edit_")
    assert value_of(edit, "full name") == "Jane Roe"
    assert value_of(edit, "date of birth") == "1990-04-01"
    assert value_of(edit, "citizen") == "true"
    assert edit["usage"]["page_count"] == 1 and edit["usage"]["credits"] == 1
    assert edit["filled_document_ref"]["filename"] == "application-filled.pdf"
    widgets = {widget.field_name: widget for widget in filled_pdf(edit)[0].widgets()}
    assert widgets["full_name"].field_value == "Jane Roe"
    assert widgets["date_of_birth"].field_value == "1990-04-01"
    assert widgets["citizen"].field_value in (True, "Yes", "On")
    for field in edit["output"]["form_data"]:
        box = field["bbox"]
        assert box["page"] == 1 and 0 <= box["left"] < box["left"] + box["width"] <= 1


def test_a_form_without_widgets_gets_its_values_drawn_on_its_blanks(api: httpx.Client, org: Org) -> None:
    edit = create_edit(api, org.test.key, document=form(form_pdf(widgets=False))).json()

    assert value_of(edit, "full name") == "Jane Roe"
    page = filled_pdf(edit)[0]
    assert "Jane Roe" in page.get_text()
    assert not list(page.widgets())
    name = next(field for field in edit["output"]["form_data"] if field["value"] == "Jane Roe")
    box = name["bbox"]
    drawn = page.search_for("Jane Roe")[0]
    width, height = page.rect.width, page.rect.height
    assert box["left"] * width - 2 <= drawn.x0 and drawn.x1 <= (box["left"] + box["width"]) * width + 2
    assert abs((drawn.y0 + drawn.y1) / 2 - (box["top"] + box["height"] / 2) * height) < 20


def test_an_edit_is_read_listed_filtered_and_deleted_with_its_filled_document(
    api: httpx.Client, org: Org
) -> None:
    first = create_edit(api, org.test.key, document=form()).json()
    second = create_edit(api, org.test.key, document=form(filename="lease.pdf")).json()

    got = api.get(f"/v1/edits/{first['id']}", headers=auth(org.test.key)).json()
    assert got == first
    listed = api.get("/v1/edits", headers=auth(org.test.key)).json()
    assert [item["id"] for item in listed["data"]] == [second["id"], first["id"]]
    assert listed["data"][0]["output"]["filled_document"] is None  # a list carries no documents
    named = api.get("/v1/edits", headers=auth(org.test.key), params={"filename": "LEASE"}).json()
    assert [item["id"] for item in named["data"]] == [second["id"]]
    page = api.get("/v1/edits", headers=auth(org.test.key), params={"limit": 1}).json()
    rest = api.get(
        "/v1/edits", headers=auth(org.test.key), params={"after": page["list_metadata"]["after"]}
    ).json()
    assert [item["id"] for item in page["data"] + rest["data"]] == [second["id"], first["id"]]

    assert api.delete(f"/v1/edits/{first['id']}", headers=auth(org.test.key)).status_code == 204
    assert api.get(f"/v1/edits/{first['id']}", headers=auth(org.test.key)).status_code == 404
    filled_file = first["filled_document_ref"]["id"]
    assert api.get(f"/v1/files/{filled_file}", headers=auth(org.test.key)).status_code == 404
    assert api.delete(f"/v1/edits/{first['id']}", headers=auth(org.test.key)).status_code == 404


def test_a_completed_edit_cannot_be_cancelled_and_says_where_cancelling_happens(
    api: httpx.Client, org: Org
) -> None:
    edit = create_edit(api, org.test.key, document=form()).json()

    response = api.post(f"/v1/edits/{edit['id']}/cancel", headers=auth(org.test.key))

    assert response.status_code == 409
    assert "job" in response.json()["detail"]
    assert api.post("/v1/edits/edit_unknown/cancel", headers=auth(org.test.key)).status_code == 404


def test_an_edit_records_its_pages_in_the_usage_of_its_environment(api: httpx.Client, org: Org) -> None:
    create_edit(api, org.production.key, document=form())

    assert sum(int(day["pages"]) for day in usage_of(org, "production")) == 1
    assert usage_of(org, "test") == []


def test_another_environments_edit_and_template_answer_404(api: httpx.Client, org: Org) -> None:
    edit = create_edit(api, org.test.key, document=form()).json()
    template = api.post(
        "/v1/edits/templates", headers=auth(org.test.key), json={"name": "Membership", "document": form()}
    ).json()

    production = auth(org.production.key)
    assert api.get(f"/v1/edits/{edit['id']}", headers=production).status_code == 404
    assert api.delete(f"/v1/edits/{edit['id']}", headers=production).status_code == 404
    assert api.get(f"/v1/edits/templates/{template['id']}", headers=production).status_code == 404
    refused = create_edit(api, org.production.key, template_id=template["id"])
    assert refused.status_code == 404
    assert api.get("/v1/edits", headers=production).json()["data"] == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"instructions": "Name: Jane"}, "document"),
        ({"instructions": "Name: Jane", "document": "FORM", "template_id": "etpl_X"}, "template_id"),
        ({"document": "FORM"}, "instructions"),
        ({"document": "FORM", "instructions": "x" * 20_001}, "instructions"),
        ({"document": "FORM", "instructions": "Name: Jane", "config": {"color": "red"}}, "color"),
        ({"document": "FORM", "instructions": "Name: Jane", "model": "no-such-model"}, "model"),
    ],
)
def test_a_bad_edit_request_is_a_422_naming_the_field_and_stores_nothing(
    api: httpx.Client, org: Org, body: dict[str, Any], field: str
) -> None:
    if body.get("document") == "FORM":
        body = {**body, "document": form()}

    response = api.post("/v1/edits", headers=auth(org.test.key), json=body)

    assert response.status_code == 422, response.text
    assert field in response.text
    assert api.get("/v1/edits", headers=auth(org.test.key)).json()["data"] == []
    assert api.get("/v1/files", headers=auth(org.test.key)).json()["data"] == []


def test_documents_an_edit_cannot_fill_are_refused_with_a_reason(api: httpx.Client, org: Org) -> None:
    locked = pymupdf.open(stream=form_pdf(), filetype="pdf")
    encrypted = locked.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="secret")

    refused_encrypted = create_edit(api, org.test.key, document=form(encrypted))
    refused_text = create_edit(
        api, org.test.key, document={"filename": "notes.txt", "url": data_url(b"just text", "text/plain")}
    )

    empty = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    empty += b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    refused_empty = create_edit(api, org.test.key, document=form(empty))

    assert 400 <= refused_encrypted.status_code < 500 and "password" in refused_encrypted.text.lower()
    assert refused_empty.status_code == 400 and "no pages" in refused_empty.text
    assert refused_text.status_code == 415 and "pdf" in refused_text.text.lower()
    assert api.get("/v1/files", headers=auth(org.test.key)).json()["data"] == []


# ---------------------------------------------------------------------------- templates


def test_a_blank_form_becomes_a_template_that_is_filled_from_data_or_instructions(
    api: httpx.Client, org: Org
) -> None:
    key = auth(org.test.key)
    draft = api.post("/v1/edits/templates/generate", headers=key, json={"document": form()})
    assert draft.status_code == 201, draft.text
    fields = draft.json()["form_fields"]
    assert draft.json()["name"] == "application" and len(fields) == 3
    assert api.get("/v1/edits/templates", headers=key).json()["data"] == []  # a draft is not stored

    created = api.post(
        "/v1/edits/templates",
        headers=key,
        json={"name": "Membership", "document": form(), "form_fields": fields},
    )
    assert created.status_code == 201, created.text
    template = created.json()
    assert template["field_count"] == 3 and template["id"].startswith("etpl_")

    name_key = next(field["key"] for field in fields if "name" in field["description"].lower())
    by_data = api.post(
        "/v1/edits/templates/fill",
        headers=key,
        json={"template_id": template["id"], "data": {name_key: "Ann Lee"}},
    )
    assert by_data.status_code == 201, by_data.text
    assert by_data.json()["template_id"] == template["id"]
    assert value_of(by_data.json(), "full name") == "Ann Lee"

    by_instructions = create_edit(api, org.test.key, template_id=template["id"]).json()
    assert value_of(by_instructions, "full name") == "Jane Roe"
    assert value_of(by_instructions, "citizen") == "true"
    listed = api.get("/v1/edits", headers=key, params={"template_id": template["id"]}).json()
    assert {item["id"] for item in listed["data"]} == {by_data.json()["id"], by_instructions["id"]}


def test_a_template_is_listed_without_fields_renamed_refilled_and_deleted_with_its_form(
    api: httpx.Client, org: Org
) -> None:
    key = auth(org.test.key)
    template = api.post(
        "/v1/edits/templates", headers=key, json={"name": "Membership", "document": form()}
    ).json()
    assert template["field_count"] == 3  # found on the form when none are given

    listed = api.get("/v1/edits/templates", headers=key, params={"name": "member"}).json()
    assert [item["id"] for item in listed["data"]] == [template["id"]]
    assert listed["data"][0]["form_fields"] is None
    assert api.get("/v1/edits/templates", headers=key, params={"name": "lease"}).json()["data"] == []

    one_field = [template["form_fields"][0]]
    changed = api.patch(
        f"/v1/edits/templates/{template['id']}",
        headers=key,
        json={"name": "Members", "form_fields": one_field},
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["name"] == "Members" and changed.json()["field_count"] == 1
    assert api.get(f"/v1/edits/templates/{template['id']}", headers=key).json() == changed.json()

    assert api.delete(f"/v1/edits/templates/{template['id']}", headers=key).status_code == 204
    assert api.get(f"/v1/edits/templates/{template['id']}", headers=key).status_code == 404
    assert api.get(f"/v1/files/{template['file']['id']}", headers=key).status_code == 404


def test_template_fields_that_do_not_fit_the_form_are_refused_naming_them(
    api: httpx.Client, org: Org
) -> None:
    key = auth(org.test.key)
    box = {"left": 0.1, "top": 0.1, "width": 0.3, "height": 0.03, "page": 1}
    twice = [{"key": "name", "bbox": box}, {"key": "name", "bbox": box}]
    off_the_form = [{"key": "name", "bbox": box | {"page": 3}}]

    for fields, where in ((twice, "key"), (off_the_form, "page")):
        response = api.post(
            "/v1/edits/templates", headers=key, json={"name": "T", "document": form(), "form_fields": fields}
        )
        assert response.status_code == 422 and where in response.text, response.text
    template = api.post(
        "/v1/edits/templates", headers=key, json={"name": "T", "document": form(), "form_fields": [twice[0]]}
    ).json()
    unknown = api.post(
        "/v1/edits/templates/fill",
        headers=key,
        json={"template_id": template["id"], "data": {"surname": "Roe"}},
    )
    assert unknown.status_code == 422 and "surname" in unknown.text
    empty = api.post("/v1/edits/templates/fill", headers=key, json={"template_id": template["id"]})
    assert empty.status_code == 422 and "instructions" in empty.text
    assert [item["id"] for item in api.get("/v1/edits/templates", headers=key).json()["data"]] == [
        template["id"]
    ]
    assert api.get("/v1/edits", headers=key).json()["data"] == []


# ---------------------------------------------------------------------------- as jobs


def test_each_edit_endpoint_completes_as_a_job_with_what_its_route_answers(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    key = auth(org.test.key)
    template = api.post(
        "/v1/edits/templates", headers=key, json={"name": "Membership", "document": form()}
    ).json()
    requests = {
        "/v1/edits": {"document": form(), "instructions": INSTRUCTIONS},
        "/v1/edits/templates/fill": {"template_id": template["id"], "instructions": INSTRUCTIONS},
        "/v1/edits/templates/generate": {"document": form()},
    }
    jobs = {
        endpoint: create_job(api, org.test.key, request, endpoint=endpoint).json()
        for endpoint, request in requests.items()
    }
    assert {job["status"] for job in jobs.values()} == {"queued"}
    drain(deployment, "JobWorkerFunction")

    for endpoint, job in jobs.items():
        done = api.get(f"/v1/jobs/{job['id']}", headers=key, params={"include_response": True}).json()
        assert done["status"] == "completed", done
        body = done["response"]["body"]
        if endpoint == "/v1/edits/templates/generate":
            assert body == api.post(endpoint, headers=key, json=requests[endpoint]).json()
        else:
            assert body == api.get(f"/v1/edits/{body['id']}", headers=key).json()
            assert value_of(body, "full name") == "Jane Roe"


def many_fields_form(count: int = 160) -> bytes:
    """A form with `count` labelled text widgets over a few pages: its form data outgrows an item."""
    document = pymupdf.open()
    page = document.new_page()
    for number in range(count):
        if number and number % 40 == 0:
            page = document.new_page()
        y = 60 + (number % 40) * 18
        page.insert_text((72, y), f"Question {number} of the survey:", fontsize=9)
        widget = pymupdf.Widget()
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.field_name = f"question_{number}"
        widget.field_label = f"Question {number} of the survey, answered in full"
        widget.rect = pymupdf.Rect(260, y - 11, 540, y + 3)
        page.add_widget(widget)
    return bytes(document.tobytes())


def stored_payloads(org: Org) -> list[str]:
    """The S3 objects kept for the test environment's results (payloads too large for their items)."""
    prefix = f"results/{org.id}/test/"
    listed = boto3.client("s3", region_name=REGION).list_objects_v2(
        Bucket=settings().files_bucket, Prefix=prefix
    )
    return sorted(item["Key"].removeprefix(prefix) for item in listed.get("Contents", []))


def test_the_payloads_of_a_deleted_edit_and_of_a_templates_old_fields_are_deleted_too(
    api: httpx.Client, org: Org
) -> None:
    key = auth(org.test.key)
    survey = form(many_fields_form(), "survey.pdf")
    edit = create_edit(api, org.test.key, document=survey).json()
    template = api.post(
        "/v1/edits/templates", headers=key, json={"name": "Survey", "document": survey}
    ).json()
    first = [name for name in stored_payloads(org) if name.startswith(template["id"])]
    assert f"{edit['id']}.json" in stored_payloads(org) and len(first) == 1

    assert api.delete(f"/v1/edits/{edit['id']}", headers=key).status_code == 204
    fewer = template["form_fields"][:-1]
    assert (
        api.patch(
            f"/v1/edits/templates/{template['id']}", headers=key, json={"form_fields": fewer}
        ).status_code
        == 200
    )
    second = [name for name in stored_payloads(org) if name.startswith(template["id"])]
    assert f"{edit['id']}.json" not in stored_payloads(org)
    assert len(second) == 1 and second != first
    assert api.delete(f"/v1/edits/templates/{template['id']}", headers=key).status_code == 204
    assert stored_payloads(org) == []


def test_a_value_longer_than_a_field_holds_is_a_422_as_a_route_and_a_failed_job_that_stores_nothing(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    key = auth(org.test.key)
    template = api.post("/v1/edits/templates", headers=key, json={"name": "T", "document": form()}).json()
    name = template["form_fields"][0]["key"]
    too_long = {"document": form(), "instructions": "Full name: " + "Jane " * 3000}

    by_data = api.post(
        "/v1/edits/templates/fill",
        headers=key,
        json={"template_id": template["id"], "data": {name: "x" * 10_001}},
    )
    by_instructions = api.post("/v1/edits", headers=key, json=too_long)
    job = create_job(api, org.test.key, too_long, endpoint="/v1/edits").json()
    drain(deployment, "JobWorkerFunction")

    assert by_data.status_code == 422 and name in by_data.text
    assert by_instructions.status_code == 422 and "full_name" in by_instructions.text
    assert api.get(f"/v1/jobs/{job['id']}", headers=key).json()["status"] == "failed"
    listed = api.get("/v1/edits", headers=key)
    assert listed.status_code == 200 and listed.json()["data"] == []


def test_a_form_whose_widgets_carry_very_long_labels_and_values_is_answered_with_them_cut(
    api: httpx.Client, org: Org
) -> None:
    document = pymupdf.open()
    page = document.new_page()
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "remarks"
    widget.field_label = "Remarks " * 400
    widget.field_value = "y" * 12_000
    widget.rect = pymupdf.Rect(72, 72, 500, 90)
    page.add_widget(widget)

    response = api.post(
        "/v1/edits/templates/generate",
        headers=auth(org.test.key),
        json={"document": form(document.tobytes())},
    )

    assert response.status_code == 201, response.text
    (field,) = response.json()["form_fields"]
    assert len(field["description"]) <= 2_000 and len(field["value"]) == 10_000


def test_a_template_update_that_loses_a_race_leaves_the_winners_fields_readable(
    api: httpx.Client, org: Org
) -> None:
    from docsvc.adapters.dynamo.edits import DynamoEditRepository
    from docsvc.tenancy import Tenant

    box = {"left": 0.1, "top": 0.1, "width": 0.1, "height": 0.01, "page": 1}
    fields = [{"key": f"k{number}", "description": "d" * 60, "bbox": box} for number in range(200)]
    created = api.post(
        "/v1/edits/templates",
        headers=auth(org.test.key),
        json={"name": "Survey", "document": form(), "form_fields": fields},
    ).json()
    repository, tenant = DynamoEditRepository(), Tenant(org.id, "test")
    current = repository.get_template(tenant, created["id"])
    assert current is not None
    same_moment = "2099-01-01T00:00:00.000Z"  # two writers whose clocks read the same millisecond

    won = repository.replace_template(
        tenant, current.model_copy(update={"updated_at": same_moment}), current.updated_at
    )
    lost = repository.replace_template(
        tenant, current.model_copy(update={"updated_at": same_moment, "name": "B"}), current.updated_at
    )

    assert (won, lost) == (True, False)
    answer = api.get(f"/v1/edits/templates/{created['id']}", headers=auth(org.test.key))
    assert answer.status_code == 200 and answer.json()["field_count"] == 200
    assert len(answer.json()["form_fields"]) == 200
