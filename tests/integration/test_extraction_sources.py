"""Where each extracted value came from (`include_sources`, GET /v1/extractions/{id}/sources), and
what extractions and classifications say of documents without text to read."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pymupdf
import pytest
from docsvc.documents.engine import ocr

from tests.conftest import Org, auth
from tests.integration.test_intelligence import INVOICE_SCHEMA, doc, invoice, invoice_page, pdf, post

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "invoice_date": {"type": "string", "format": "date"},
        "total": {"type": "number"},
        "purchase_order": {"type": ["string", "null"]},
    },
}


def boxed_words(content: bytes, anchor: dict[str, Any]) -> str:
    """The words of the PDF's page inside the anchor's box (a fraction of the page, widened by a hair)."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        page = document[anchor["page"] - 1]
        width, height = page.rect.width, page.rect.height
        box = pymupdf.Rect(
            (anchor["left"] - 0.002) * width,
            (anchor["top"] - 0.002) * height,
            (anchor["left"] + anchor["width"] + 0.002) * width,
            (anchor["top"] + anchor["height"] + 0.002) * height,
        )
        return " ".join(word[4] for word in page.get_text("words") if pymupdf.Rect(word[:4]) in box)


def blank_pages(count: int) -> bytes:
    document = pymupdf.open()
    for _ in range(count):
        document.new_page()
    return bytes(document.tobytes())


def test_each_found_value_has_a_box_on_its_page_holding_the_words_it_was_read_from(
    api: httpx.Client, org: Org
) -> None:
    content = invoice("INV-2041", "$2,499.50")

    answer = post(
        api,
        org.test.key,
        "/v1/extractions",
        {"document": doc(content), "json_schema": SCHEMA, "include_sources": True},
    ).json()

    sources = answer["sources"]
    assert answer["output"]["invoice_number"] == "INV-2041"
    number = sources["invoice_number"]
    assert number["value"] == "INV-2041" and number["source"]["content"] == "INV-2041"
    assert number["likelihood"] == answer["likelihoods"]["invoice_number"] > 0.9
    for name in ("invoice_number", "invoice_date", "total"):
        anchor = sources[name]["source"]["anchor"]
        assert anchor["kind"] == "pdf_bbox" and anchor["page"] == 1
        assert 0 <= anchor["left"] <= anchor["left"] + anchor["width"] <= 1
        assert boxed_words(content, anchor) == sources[name]["source"]["content"]
    assert "2,499.50" in sources["total"]["source"]["content"]
    assert sources["purchase_order"] == {"value": None, "source": None, "likelihood": 0.0}


def test_the_sources_route_answers_the_extraction_and_its_sources_in_the_output_shape(
    api: httpx.Client, org: Org
) -> None:
    created = post(
        api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}
    )
    extraction = created.json()
    assert extraction["sources"] is None  # not asked for

    answer = api.get(f"/v1/extractions/{extraction['id']}/sources", headers=auth(org.test.key))
    again = api.get(f"/v1/extractions/{extraction['id']}?include_sources=true", headers=auth(org.test.key))

    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["object"] == "extraction.sources" and body["extraction_id"] == extraction["id"]
    assert body["extraction"] == extraction["output"]
    assert set(body["sources"]) == set(extraction["output"])
    items = body["sources"]["line_items"]
    assert [item["description"]["value"] for item in items] == ["Widget", "Gadget"]
    assert items[0]["description"]["source"]["anchor"]["kind"] == "pdf_bbox"
    assert again.json()["sources"] == body["sources"]


def test_sources_of_another_environments_extraction_are_404(api: httpx.Client, org: Org) -> None:
    created = post(api, org.test.key, "/v1/extractions", {"document": doc(invoice()), "json_schema": SCHEMA})

    answer = api.get(f"/v1/extractions/{created.json()['id']}/sources", headers=auth(org.production.key))

    assert answer.status_code == 404


def test_an_extraction_after_a_parse_reads_its_text_from_the_parse_and_still_has_boxes(
    api: httpx.Client, org: Org
) -> None:
    content = invoice("INV-7", "$10.00")
    post(api, org.test.key, "/v1/parses", {"document": doc(content)})

    answer = post(
        api,
        org.test.key,
        "/v1/extractions",
        {"document": doc(content), "json_schema": SCHEMA, "include_sources": True},
    ).json()

    assert answer["usage"]["cached"] is True
    anchor = answer["sources"]["invoice_number"]["source"]["anchor"]
    assert boxed_words(content, anchor) == "INV-7"


def test_an_extraction_of_a_document_without_text_says_so_and_charges_nothing(
    api: httpx.Client, org: Org
) -> None:
    answer = post(
        api, org.test.key, "/v1/extractions", {"document": doc(blank_pages(2)), "json_schema": SCHEMA}
    )

    assert answer.status_code == 201
    body = answer.json()
    assert body["usage"]["credits"] == 0 and body["usage"]["page_count"] == 2
    assert "no text could be read" in body["warnings"][0]
    assert all(value is None for value in body["output"].values())


def test_pages_without_text_are_not_charged_and_are_named(api: httpx.Client, org: Org) -> None:
    def blank(document: pymupdf.Document) -> None:
        document.new_page()

    content = pdf(blank, lambda document: invoice_page(document, "INV-1", "$1.00"))

    body = post(
        api, org.test.key, "/v1/extractions", {"document": doc(content), "json_schema": SCHEMA}
    ).json()

    assert body["usage"]["credits"] == 1 and body["usage"]["page_count"] == 2
    assert body["warnings"] == ["no text could be read on page(s) 1; they were not charged"]


def test_a_classification_of_a_document_without_text_is_a_warned_guess_under_one_half(
    api: httpx.Client, org: Org
) -> None:
    body = post(
        api,
        org.test.key,
        "/v1/classifications",
        {"document": doc(blank_pages(1)), "categories": [{"name": "invoice"}, {"name": "receipt"}]},
    ).json()

    assert body["likelihoods"]["category"] < 0.5
    assert any("no text could be read" in warning for warning in body["warnings"])
    assert any("is a guess" in warning for warning in body["warnings"])


def scanned(content: bytes) -> bytes:
    """An image-only copy of a PDF, each page drawn at 200 dpi."""
    with pymupdf.open(stream=content, filetype="pdf") as source, pymupdf.open() as copy:
        for page in source:
            image = page.get_pixmap(dpi=200).tobytes("png")
            copy.new_page(width=page.rect.width, height=page.rect.height).insert_image(
                page.rect, stream=image
            )
        return bytes(copy.tobytes(garbage=3, deflate=True))


@pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed",
)
def test_a_scanned_invoice_is_read_with_each_value_beside_its_label_and_boxed_where_ocr_read_it(
    api: httpx.Client, org: Org
) -> None:
    rows = [
        ("Rechnungsnummer:", "R-2024-117"),
        ("Rechnungsdatum:", "15.01.2024"),
        ("Kundennummer:", "K-4471"),
        ("Nettobetrag:", "1.000,00 EUR"),
        ("Umsatzsteuer:", "190,00 EUR"),
        ("Gesamtbetrag:", "1.190,00 EUR"),
    ]

    def invoice_form(document: pymupdf.Document) -> None:
        page = document.new_page()
        page.insert_text((72, 120), "Ostsee Werft AG - Molenweg 3 - 24103 Kiel", fontsize=9)
        for row, (label, value) in enumerate(rows):
            page.insert_text((300, 200 + 16 * row), label, fontsize=10)
            page.insert_text((430, 200 + 16 * row), value, fontsize=10)
        for row, line in enumerate(["Brandt & Söhne KG", "Am Markt 9", "23552 Lübeck"]):
            page.insert_text((72, 200 + 16 * row), line, fontsize=10)

    schema = {
        "type": "object",
        "properties": {"invoice_number": {"type": "string"}, "total": {"type": "number"}},
    }
    body = post(
        api,
        org.test.key,
        "/v1/extractions",
        {"document": doc(scanned(pdf(invoice_form))), "json_schema": schema, "include_sources": True},
    ).json()

    assert body["output"] == {"invoice_number": "R-2024-117", "total": 1190.0}
    anchor = body["sources"]["total"]["source"]["anchor"]
    assert anchor["kind"] == "pdf_bbox" and anchor["left"] > 0.6  # on the value, right of its label
