"""Extractions, classifications, splits, partitions and schema generation through the real handlers,
synchronously and as jobs, with the built-in models."""

from __future__ import annotations

from typing import Any

import httpx
import pymupdf
import pytest
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain
from tests.integration.test_parses import data_url, usage_of

INVOICE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "invoice_date": {"type": "string", "format": "date"},
        "total": {"type": "number"},
        "line_items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "description": {"type": "string"},
                    "quantity": {"type": "integer"},
                    "amount": {"type": "number"},
                },
            },
        },
    },
}


def invoice_page(document: pymupdf.Document, number: str, total: str) -> None:
    page = document.new_page()
    page.insert_text((72, 60), "INVOICE", fontsize=18)
    page.insert_text((72, 90), f"Invoice number: {number}", fontsize=10)
    page.insert_text((72, 105), "Invoice date: 2026-03-14", fontsize=10)
    rows = [["Description", "Qty", "Amount"], ["Widget", "2", "$2,400.00"], ["Gadget", "1", "$99.50"]]
    for row_index, row in enumerate(rows):
        for column, value in enumerate(row):
            cell = pymupdf.Rect(
                72 + column * 130, 130 + row_index * 20, 72 + (column + 1) * 130, 150 + row_index * 20
            )
            page.draw_rect(cell)
            page.insert_text((cell.x0 + 3, cell.y0 + 14), value, fontsize=10)
    page.insert_text((300, 220), f"Total due: {total}", fontsize=10)


def receipt_page(document: pymupdf.Document) -> None:
    page = document.new_page()
    lines = [
        "CORNER CAFE",
        "Cash register 2",
        "Cappuccino 3.50",
        "Croissant 2.20",
        "TOTAL 5.70",
        "Paid by card",
    ]
    lines.append("Thank you for your purchase!")
    for index, line in enumerate(lines):
        page.insert_text((72, 60 + 16 * index), line, fontsize=11)


def pdf(*pages: Any) -> bytes:
    document = pymupdf.open()
    for add in pages:
        add(document)
    return bytes(document.tobytes())


def invoice(number: str = "INV-2026-0042", total: str = "$2,499.50") -> bytes:
    return pdf(lambda document: invoice_page(document, number, total))


def doc(content: bytes, filename: str = "invoice.pdf") -> dict[str, str]:
    return {"filename": filename, "url": data_url(content)}


def post(api: httpx.Client, key: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return api.post(path, headers=auth(key), json=body)


# ---------------------------------------------------------------------------- models


def test_the_models_of_the_deployment_are_listed_with_their_tasks(api: httpx.Client, org: Org) -> None:
    models = api.get("/v1/models", headers=auth(org.test.key)).json()

    assert models["object"] == "list"
    by_id = {model["id"]: model for model in models["data"]}
    assert by_id["docsvc-parse-1"]["tasks"] == ["parse"]
    assert {"extract", "classify", "split", "partition"} <= set(by_id["docsvc-extract-1"]["tasks"])
    assert all(model["provider"] == "builtin" for model in models["data"])


def test_an_unknown_model_is_422_naming_the_available_ones(api: httpx.Client, org: Org) -> None:
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "model": "gpt-9"}

    response = post(api, org.test.key, "/v1/extractions", body)

    assert response.status_code == 422
    assert "docsvc-extract-1" in response.json()["detail"][0]["msg"]


# ---------------------------------------------------------------------------- extractions


def test_an_extraction_answers_data_valid_against_the_schema(api: httpx.Client, org: Org) -> None:
    response = post(
        api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
    )

    assert response.status_code == 201, response.text
    extraction = response.json()
    assert extraction["object"] == "extraction" and extraction["id"].startswith("extr_")
    assert extraction["model"] == "docsvc-extract-1"
    assert extraction["file"]["filename"] == "invoice.pdf"
    assert extraction["output"]["invoice_number"] == "INV-2026-0042"
    assert extraction["output"]["invoice_date"] == "2026-03-14"
    assert extraction["output"]["total"] == 2499.5
    assert [item["quantity"] for item in extraction["output"]["line_items"]] == [2, 1]
    assert 0 <= extraction["likelihoods"]["total"] <= 1
    assert extraction["usage"] == {
        "page_count": 1,
        "credits": 1.0,
        "cached": False,
        "input_tokens": 0,
        "output_tokens": 0,
    }
    stored = api.get(f"/v1/extractions/{extraction['id']}", headers=auth(org.test.key)).json()
    assert stored == extraction
    assert [row["credits"] for row in usage_of(org, "test")] == [1]


def test_a_field_the_document_does_not_hold_is_null_whatever_its_type(api: httpx.Client, org: Org) -> None:
    schema = {
        "type": "object",
        "properties": {"invoice_number": {"type": "string"}, "purchase_order": {"type": "string"}},
        "required": ["invoice_number", "purchase_order"],
    }

    response = post(api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": schema})

    assert response.status_code == 201, response.text
    assert response.json()["output"] == {"invoice_number": "INV-2026-0042", "purchase_order": None}
    assert response.json()["likelihoods"]["purchase_order"] == 0


def test_an_extraction_reads_an_earlier_parse_of_the_same_document(api: httpx.Client, org: Org) -> None:
    content = invoice()
    post(api, org.test.key, "/v1/parses", {"document": doc(content)})

    extraction = post(
        api, org.test.key, "/v1/extractions", {"document": doc(content), "json_schema": INVOICE_SCHEMA}
    )

    assert extraction.json()["usage"]["cached"] is True
    assert extraction.json()["output"]["invoice_number"] == "INV-2026-0042"


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"total": {"type": "no-such-type"}}},
        {"type": "object", "properties": "not an object"},
        {"type": "string"},
        [],
    ],
)
def test_a_schema_that_is_not_valid_json_schema_is_422_naming_json_schema(
    api: httpx.Client, org: Org, schema: Any
) -> None:
    response = post(api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": schema})

    assert response.status_code == 422
    assert "json_schema" in response.json()["detail"][0]["loc"]


def test_an_unsupported_document_is_415(api: httpx.Client, org: Org) -> None:
    body = {"document": doc(b"MZ\x90\x00binary", "tool.exe"), "json_schema": INVOICE_SCHEMA}

    response = post(api, org.test.key, "/v1/extractions", body)

    assert response.status_code == 415


# ------------------------------------------------------------------ classification, splits, partitions


CATEGORIES = [
    {"name": "invoice", "description": "a bill from a supplier with an invoice number and amount due"},
    {"name": "receipt", "description": "a till receipt for a purchase already paid"},
]


def test_a_classification_names_one_of_the_categories_with_its_reasoning(api: httpx.Client, org: Org) -> None:
    body = {"document": doc(invoice()), "categories": CATEGORIES}

    response = post(api, org.test.key, "/v1/classifications", body)

    assert response.status_code == 201, response.text
    assert response.json()["output"]["category"] == "invoice"
    assert response.json()["output"]["reasoning"]
    assert response.json()["id"].startswith("cls_")


@pytest.mark.parametrize(
    "categories",
    [
        [],
        [{"name": "  ", "description": "blank"}],
        [{"name": "invoice"}, {"name": "Invoice"}],
    ],
)
def test_empty_blank_or_duplicate_categories_are_422(
    api: httpx.Client, org: Org, categories: list[dict[str, str]]
) -> None:
    response = post(
        api, org.test.key, "/v1/classifications", {"document": doc(invoice()), "categories": categories}
    )

    assert response.status_code == 422
    assert "categories" in response.json()["detail"][0]["loc"]


def test_a_split_groups_the_pages_of_a_packet(api: httpx.Client, org: Org) -> None:
    packet = pdf(
        lambda document: invoice_page(document, "INV-1", "$10.00"),
        receipt_page,
        lambda document: invoice_page(document, "INV-2", "$20.00"),
    )
    subdocuments = [
        {"name": "invoice", "description": "an invoice", "allow_multiple_instances": True},
        {"name": "receipt", "description": "a till receipt", "allow_multiple_instances": True},
    ]

    response = post(api, org.test.key, "/v1/splits", {"document": doc(packet), "subdocuments": subdocuments})

    assert response.status_code == 201, response.text
    parts = response.json()["output"]
    assert [{"name": part["name"], "pages": part["pages"]} for part in parts] == [
        {"name": "invoice", "pages": [1]},
        {"name": "receipt", "pages": [2]},
        {"name": "invoice", "pages": [3]},
    ]
    assert all(0.5 <= part["likelihood"] <= 1.0 for part in parts)


def test_a_partition_groups_pages_by_the_value_of_the_key(api: httpx.Client, org: Org) -> None:
    packet = pdf(
        lambda document: invoice_page(document, "INV-1", "$10.00"),
        lambda document: invoice_page(document, "INV-2", "$20.00"),
        lambda document: invoice_page(document, "INV-2", "$20.00"),
    )

    response = post(api, org.test.key, "/v1/partitions", {"document": doc(packet), "key": "invoice number"})

    assert response.status_code == 201, response.text
    assert response.json()["output"] == [{"key": "INV-1", "pages": [1]}, {"key": "INV-2", "pages": [2, 3]}]


def test_a_generated_schema_finds_the_fields_of_the_documents(api: httpx.Client, org: Org) -> None:
    response = post(api, org.test.key, "/v1/schemas/generate", {"documents": [doc(invoice())]})

    assert response.status_code == 201, response.text
    schema = response.json()
    assert schema["object"] == "schema"
    assert {"invoice_number", "invoice_date"} <= set(schema["json_schema"]["properties"])


# ---------------------------------------------------------------------------- lists, isolation, jobs


def test_results_are_listed_per_kind_newest_first_and_isolated(api: httpx.Client, org: Org) -> None:
    ids = [
        post(
            api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
        ).json()["id"]
        for _ in range(3)
    ]
    post(api, org.test.key, "/v1/classifications", {"document": doc(invoice()), "categories": CATEGORIES})

    page = api.get("/v1/extractions", headers=auth(org.test.key), params={"limit": 2}).json()
    rest = api.get(
        "/v1/extractions", headers=auth(org.test.key), params={"after": page["list_metadata"]["after"]}
    ).json()

    assert [item["id"] for item in page["data"] + rest["data"]] == list(reversed(ids))
    assert api.get("/v1/extractions", headers=auth(org.production.key)).json()["data"] == []
    assert api.get(f"/v1/extractions/{ids[0]}", headers=auth(org.production.key)).status_code == 404
    assert api.get(f"/v1/classifications/{ids[0]}", headers=auth(org.test.key)).status_code == 404


def test_an_extraction_job_answers_what_the_endpoint_answers(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    request = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
    job = api.post(
        "/v1/jobs", headers=auth(org.test.key), json={"endpoint": "/v1/extractions", "request": request}
    ).json()

    assert job["status"] == "queued"
    drain(deployment, "JobWorkerFunction")

    done = api.get(
        f"/v1/jobs/{job['id']}", headers=auth(org.test.key), params={"include_response": True}
    ).json()
    assert done["status"] == "completed"
    assert done["response"]["status_code"] == 201
    body = done["response"]["body"]
    assert body["object"] == "extraction"
    assert body["output"]["invoice_number"] == "INV-2026-0042"
    assert api.get(f"/v1/extractions/{body['id']}", headers=auth(org.test.key)).json() == body


def test_a_job_with_an_invalid_schema_fails_naming_json_schema(api: httpx.Client, org: Org) -> None:
    request = {"document": doc(invoice()), "json_schema": {"type": "object", "properties": []}}

    job = api.post(
        "/v1/jobs", headers=auth(org.test.key), json={"endpoint": "/v1/extractions", "request": request}
    ).json()

    assert job["status"] == "failed"
    assert job["error"]["code"] == "validation_error"
    assert "json_schema" in job["error"]["message"]


# ---------------------------------------------------------------------------- deep research (beta)


def test_deep_research_answers_predictions_and_the_trace_of_its_steps(api: httpx.Client, org: Org) -> None:
    body = {
        "document": doc(invoice()),
        "json_schema": INVOICE_SCHEMA,
        "inference_settings": {"model": "docsvc-extract-1", "reasoning_effort": "medium"},
        "num_agentic_steps": 3,
        "max_tool_calls": 2,
    }

    response = post(api, org.test.key, "/v1/beta/deepresearch/extract", body)

    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["success"] is True and answer["error"] is None
    data = answer["data"]
    assert data["id"].startswith("dre_")
    assert data["predictions"]["invoice_number"] == "INV-2026-0042"
    assert data["research_trace"][0]["tool"] == "extract"
    assert all(step["step"] <= 3 for step in data["research_trace"])
    assert data["model"] == "docsvc-extract-1"


@pytest.mark.parametrize(
    ("field", "value"), [("max_tool_calls", 11), ("max_tool_calls", 0), ("num_agentic_steps", 21)]
)
def test_deep_research_limits_out_of_range_are_422(
    api: httpx.Client, org: Org, field: str, value: int
) -> None:
    body = {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA, "inference_settings": {}, field: value}

    response = post(api, org.test.key, "/v1/beta/deepresearch/extract", body)

    assert response.status_code == 422
    assert field in response.json()["detail"][0]["loc"]


def test_deep_research_that_cannot_read_the_document_answers_success_false(
    api: httpx.Client, org: Org
) -> None:
    body = {"document": {"id": "file_01MISSING"}, "json_schema": INVOICE_SCHEMA, "inference_settings": {}}

    response = post(api, org.test.key, "/v1/beta/deepresearch/extract", body)

    assert response.status_code == 200
    assert response.json()["success"] is False
    assert "file_01MISSING" in response.json()["error"]


def test_deep_research_looks_values_up_in_a_table_of_the_same_environment(
    api: httpx.Client, org: Org
) -> None:
    csv = b"insurer_name,insurer_id\nNorthwind Insurance plc,INS-0042\nContoso Mutual,INS-0007\n"
    for key in (org.test.key, org.production.key):
        rows = csv if key == org.test.key else csv.replace(b"INS-0042", b"PROD-9")
        api.post("/v1/tables", headers=auth(key), data={"name": "insurers"}, files={"file": ("i.csv", rows)})
    letter = pdf(
        lambda document: document.new_page().insert_text((72, 72), "Insurer name: Northwind Insurance plc")
    )
    schema = {
        "type": "object",
        "properties": {
            "insurer_name": {"type": "string"},
            "insurer_id": {"type": "string", "description": "Looked up in master data by insurer name."},
        },
    }
    body = {"document": doc(letter, "letter.pdf"), "json_schema": schema, "inference_settings": {}}

    data = post(api, org.test.key, "/v1/beta/deepresearch/extract", body).json()["data"]

    assert data["predictions"] == {"insurer_name": "Northwind Insurance plc", "insurer_id": "INS-0042"}
    assert "lookup_table" in [step["tool"] for step in data["research_trace"]]


def test_a_partition_key_without_a_letter_or_digit_is_422(api: httpx.Client, org: Org) -> None:
    response = post(api, org.test.key, "/v1/partitions", {"document": doc(invoice()), "key": "!!!"})

    assert response.status_code == 422
    assert "key" in response.json()["detail"][0]["loc"]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"$ref": "#"}}},
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/node"}},
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
        },
        {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "array", "items": {}}}}},
        {"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"type": "number"}]}}},
        {"type": "object", "properties": {"x" * 5000: {"type": "string"}}},
    ],
)
def test_recursive_or_unsatisfiable_schemas_never_reach_a_500(
    api: httpx.Client, org: Org, schema: dict[str, Any]
) -> None:
    body = {"document": doc(invoice()), "json_schema": schema, "inference_settings": {}}

    for path in ("/v1/extractions", "/v1/beta/deepresearch/extract"):
        response = post(api, org.test.key, path, body)
        assert response.status_code in {200, 201}, (path, response.text)
