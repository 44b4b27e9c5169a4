"""Extraction schemas: which JSON Schemas an extraction accepts and what it says of the others, and
schemas generated from real documents (PDFs drawn here, read by the parse engine) that extract what
they describe."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf
import pytest
from docsvc.documents.engine import parse_pages
from docsvc.documents.engine.model import ParseOptions
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.schemas import InvalidSchema, check_json_schema, generate_schema
from jsonschema import Draft202012Validator

HELVETICA = pymupdf.Font("helv")


def parsed(lines: Sequence[str], table: Sequence[Sequence[str]] = (), after: Sequence[str] = ()) -> list[str]:
    """A one-page PDF, read by the parse engine: lines, a ruled table, lines below it."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        writer = pymupdf.TextWriter(page.rect)
        for number, line in enumerate(lines):
            writer.append((72, 72 + number * 14), line, font=HELVETICA, fontsize=10)
        top = 100 + len(lines) * 14
        for row_number, row in enumerate(table):
            for column, value in enumerate(row):
                left, upper = 72 + column * 110, top + row_number * 18
                cell = pymupdf.Rect(left, upper, left + 110, upper + 18)
                page.draw_rect(cell, width=0.5)
                writer.append((cell.x0 + 4, cell.y0 + 13), value, font=HELVETICA, fontsize=10)
        for number, line in enumerate(after):
            writer.append((72, top + len(table) * 18 + 30 + number * 14), line, font=HELVETICA, fontsize=10)
        writer.write_text(page)
        content = document.tobytes()
    return [page.text for page in parse_pages(content, "pdf", ParseOptions())]


@pytest.fixture(scope="module")
def invoice() -> list[str]:
    lines = [
        "Northwind Traders",
        "Invoice No.: INV-118",
        "Invoice date: 2026-02-03",
        "Paid: yes",
        "Customer: Globex Corp",
    ]
    table = [
        ["Description", "Qty", "Unit price", "Amount"],
        ["Widget", "2", "$10.00", "$20.00"],
        ["Gadget", "3", "$5.50", "$16.50"],
    ]
    return parsed(lines, table, ["Subtotal: $36.50", "Total due: $36.50"])


# ---------------------------------------------------------------------------------------- checking
def test_a_valid_extraction_schema_passes() -> None:
    check_json_schema(
        {
            "$defs": {"money": {"type": "number", "minimum": 0}},
            "type": "object",
            "properties": {
                "total": {"$ref": "#/$defs/money"},
                "vendor": {"type": "object", "properties": {"name": {"type": ["string", "null"]}}},
                "items": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"qty": {"type": "integer"}}},
                },
            },
            "required": ["total"],
        }
    )


def fields(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


@pytest.mark.parametrize(
    ("json_schema", "message"),
    [
        ([], "a JSON object, not an array"),
        ("total", "a JSON object, not a string"),
        (None, "a JSON object, not null"),
        (
            {"type": "array", "items": {"type": "string"}},
            'at /type: the root of an extraction schema is an object ("type": "object"), not \'array\'',
        ),
        ({"type": "object"}, 'an extraction schema needs "properties"'),
        (fields(total={"type": "numbr"}), "at /properties/total/type: 'numbr' is not a JSON Schema type"),
        (
            fields(name={"type": "string", "minLength": -1}),
            "at /properties/name/minLength: -1 is less than the minimum of 0",
        ),
        (fields(code={"type": "string", "pattern": "(open"}), "at /properties/code/pattern:"),
        (fields(a={"type": "string"}) | {"required": "a"}, "at /required: 'a' is not of type 'array'"),
        ({"type": "object", "properties": [{"total": {}}]}, "at /properties:"),
        (
            fields(total={"$ref": "#/$defs/money"}),
            "at /properties/total/$ref: '#/$defs/money' points to nothing in the schema",
        ),
        (
            fields(total={"$ref": "https://example.com/money.json"}),
            "is outside the schema; only references inside it",
        ),
    ],
)
def test_an_invalid_schema_is_refused_with_what_and_where(json_schema: Any, message: str) -> None:
    with pytest.raises(InvalidSchema) as refused:
        check_json_schema(json_schema)
    assert message in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_a_reference_deep_in_the_schema_is_checked_where_it_is() -> None:
    json_schema = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/line"}, {"type": "null"}]}}
        },
    }
    with pytest.raises(InvalidSchema, match="at /properties/items/items/anyOf/0/\\$ref: '#/\\$defs/line'"):
        check_json_schema(json_schema)


# ---------------------------------------------------------------------------------------- generating
def test_a_generated_schema_names_types_and_titles_the_fields_of_a_document(invoice: list[str]) -> None:
    generated = generate_schema([invoice])
    check_json_schema(generated)
    properties = generated["properties"]
    assert {name: (spec["type"], spec.get("format"), spec["title"]) for name, spec in properties.items()} == {
        "invoice_number": ("string", None, "Invoice No."),
        "invoice_date": ("string", "date", "Invoice date"),
        "paid": ("boolean", None, "Paid"),
        "customer": ("string", None, "Customer"),
        "subtotal": ("number", None, "Subtotal"),
        "total_due": ("number", None, "Total due"),
        "line_items": ("array", None, "Line items"),
    }
    columns = properties["line_items"]["items"]["properties"]
    assert {name: (spec["type"], spec["title"]) for name, spec in columns.items()} == {
        "description": ("string", "Description"),
        "qty": ("integer", "Qty"),
        "unit_price": ("number", "Unit price"),
        "amount": ("number", "Amount"),
    }


def test_extracting_with_a_generated_schema_finds_the_values_it_was_made_from(invoice: list[str]) -> None:
    generated = generate_schema([invoice])
    found = extract(invoice, generated)
    assert Draft202012Validator(generated).is_valid(found.output)
    assert found.output == {
        "invoice_number": "INV-118",
        "invoice_date": "2026-02-03",
        "paid": True,
        "customer": "Globex Corp",
        "subtotal": 36.5,
        "total_due": 36.5,
        "line_items": [
            {"description": "Widget", "qty": 2, "unit_price": 10.0, "amount": 20.0},
            {"description": "Gadget", "qty": 3, "unit_price": 5.5, "amount": 16.5},
        ],
    }
    assert min(found.likelihoods.values()) >= 0.9


def test_fields_of_several_documents_are_united_and_their_types_widened() -> None:
    first = parsed(["Order No: 1001", "Amount: 12", "Delivered: yes", "Date: 2026-01-05"])
    second = parsed(["Order No: A-17", "Amount: 12.50", "Delivered: no", "Notes: leave at the door"])
    properties = generate_schema([first, second])["properties"]
    assert {name: (spec["type"], spec.get("format")) for name, spec in properties.items()} == {
        "order_number": ("string", None),
        "amount": ("number", None),
        "delivered": ("boolean", None),
        "date": ("string", "date"),
        "notes": ("string", None),
    }


def test_a_table_is_named_after_its_caption() -> None:
    pages = parsed(
        ["Shipment summary"],
        [["Carrier", "Weight", "Cost"], ["DHL", "12 kg", "40.00"], ["UPS", "3 kg", "12.50"]],
    )
    generated = generate_schema([pages])
    shipments = generated["properties"]["shipment_summary"]
    assert shipments["title"] == "Shipment summary"
    assert list(shipments["items"]["properties"]) == ["carrier", "weight", "cost"]
    assert extract(pages, generated).output["shipment_summary"] == [
        {"carrier": "DHL", "weight": "12 kg", "cost": 40.0},
        {"carrier": "UPS", "weight": "3 kg", "cost": 12.5},
    ]


def test_documents_without_fields_give_a_schema_without_properties() -> None:
    generated = generate_schema([[""], ["The quick brown fox jumps over the lazy dog."]])
    check_json_schema(generated)
    assert generated["properties"] == {}
