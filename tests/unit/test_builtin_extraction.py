"""The built-in extraction model on real documents: PDFs drawn here, read by the parse engine, their
fields found by a JSON Schema. Every output is checked against its schema as the service checks it."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pymupdf
import pytest
from docsvc.documents.engine import parse_pages
from docsvc.documents.engine.model import ParseOptions
from docsvc.intelligence.extraction import Extraction, extract
from jsonschema import Draft202012Validator

# A guard against runaway work (catastrophic backtracking takes minutes), not a speed target: the
# speed of the built-in models is measured by bench/intelligence_corpus.py.
HANG_SECONDS = 10.0

HELVETICA = pymupdf.Font("helv")
NUMBER: dict[str, Any] = {"type": "number"}
TEXT: dict[str, Any] = {"type": "string"}
DATE: dict[str, Any] = {"type": "string", "format": "date"}
MAYBE_TEXT: dict[str, Any] = {"type": ["string", "null"]}
PARTY: dict[str, Any] = {
    "type": "object",
    "properties": {"name": MAYBE_TEXT, "address": MAYBE_TEXT, "email": MAYBE_TEXT, "phone": MAYBE_TEXT},
}
LINE_ITEMS: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "description": TEXT,
            "quantity": {"type": "integer"},
            "unit_price": NUMBER,
            "amount": NUMBER,
        },
    },
}


# ---------------------------------------------------------------------------------------- documents
@dataclass
class Canvas:
    """A PDF page being drawn: text anywhere, tables with or without rules."""

    page: pymupdf.Page
    writer: pymupdf.TextWriter

    def text(self, x: float, y: float, text: str, size: float = 10) -> None:
        self.writer.append((x, y), text, font=HELVETICA, fontsize=size)

    def lines(self, x: float, y: float, *texts: str, step: float = 14) -> None:
        for number, text in enumerate(texts):
            self.text(x, y + number * step, text)

    def table(
        self, x: float, y: float, rows: Sequence[Sequence[str]], widths: Sequence[float], ruled: bool = True
    ) -> float:
        """Draws the rows from (x, y); returns where the table ends."""
        height = 18 if ruled else 16
        for row_number, row in enumerate(rows):
            left, top = x, y + row_number * height
            for value, width in zip(row, widths, strict=True):
                if ruled:
                    self.page.draw_rect(pymupdf.Rect(left, top, left + width, top + height), width=0.5)
                self.text(left + 4, top + 13, value)
                left += width
        return y + len(rows) * height


Drawing = Callable[[Canvas], None]


def parsed(*drawings: Drawing) -> list[str]:
    """A PDF of one page per drawing, read by the parse engine: the pages an extraction is given."""
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        for draw in drawings:
            page = document.new_page()
            canvas = Canvas(page, pymupdf.TextWriter(page.rect))
            draw(canvas)
            canvas.writer.write_text(page)
        content = document.tobytes()
    return [page.text for page in parse_pages(content, "pdf", ParseOptions())]


def schema(required: Sequence[str] = (), **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


def extracted(
    pages: Sequence[str], json_schema: dict[str, Any], instructions: str | None = None
) -> Extraction:
    """An extraction whose output the service would accept: valid against its schema, where a null
    stands for a value not found whatever type the schema gives it."""
    found = extract(pages, json_schema, instructions)
    validator = Draft202012Validator(json_schema)
    errors = [error.message for error in validator.iter_errors(found.output) if error.instance is not None]
    assert errors == []
    assert all(0.0 <= likelihood <= 1.0 for likelihood in found.likelihoods.values())
    return found


def invoice(canvas: Canvas) -> None:
    """Letterhead, labels with colons, labels with their values right of them, a block under "Bill to",
    a ruled table, and totals with their labels left of them."""
    canvas.text(72, 60, "ACME Supplies Ltd", 16)
    canvas.text(72, 76, "12 Harbour Road, Leeds")
    canvas.text(430, 60, "INVOICE", 18)
    canvas.lines(72, 120, "Invoice No.: INV-2026-0042", "Invoice date: 12/03/2026", "Terms        Net 30")
    for row, (label, value) in enumerate([("PO Number", "PO-7781"), ("Due date", "25/04/2026")]):
        canvas.text(350, 120 + row * 14, label)
        canvas.text(450, 120 + row * 14, value)
    canvas.lines(72, 180, "Bill to", "Globex Corp", "1 Main Street, Springfield")
    rows = [
        ["Description", "Qty", "Unit price", "Amount"],
        ["Widget", "2", "$1,200.00", "$2,400.00"],
        ["Gadget", "1", "$99.50", "$99.50"],
        ["Service fee", "1", "$50.00", "$50.00"],
    ]
    bottom = canvas.table(72, 240, rows, [200, 60, 100, 100])
    totals = [("Subtotal", "$2,549.50"), ("VAT 20%", "$509.90"), ("Total due", "$3,059.40")]
    for row, (label, value) in enumerate(totals):
        canvas.text(350, bottom + 30 + row * 14, label)
        canvas.text(450, bottom + 30 + row * 14, value)
    canvas.text(72, bottom + 90, "Paid: No")


def receipt(canvas: Canvas) -> None:
    """A European receipt: amounts as 1.000,00 €, a table of two columns without rules."""
    canvas.text(72, 60, "Café Lumière", 14)
    canvas.lines(72, 76, "Rue de Rivoli 10, Paris")
    canvas.lines(72, 100, "Receipt # R-889", "Date: 14.03.2026")
    rows = [
        ["Item", "Price"],
        ["Croissant", "2,50 €"],
        ["Café crème", "3,80 €"],
        ["Catering platter", "1.000,00 €"],
    ]
    canvas.table(72, 140, rows, [200, 100], ruled=False)
    for row, (label, value) in enumerate([("Subtotal", "1.006,30 €"), ("TOTAL", "1.006,30 €")]):
        canvas.text(72, 220 + row * 14, label)
        canvas.text(276, 220 + row * 14, value)
    canvas.text(72, 260, "Payment method: Card")


def purchase_order(canvas: Canvas) -> None:
    """Aligned columns without rules under a supplier block with an e-mail address and a phone number."""
    canvas.text(72, 60, "Purchase Order", 16)
    canvas.lines(72, 90, "PO No. 4471", "Order date: March 12, 2026", "Shipping: Express", "Urgent: Yes")
    canvas.lines(
        72, 160, "Supplier", "Northwind Traders", "42 Dock Lane, Bristol", "orders@northwind.example"
    )
    canvas.text(72, 216, "+44 117 496 0000")
    rows = [
        ["Item", "Quantity", "Price", "Total"],
        ["Bolts M6", "100", "0.12", "12.00"],
        ["Nuts M6", "100", "0.08", "8.00"],
        ["Washers", "200", "0.02", "4.00"],
        ["", "", "Total", "24.00"],
    ]
    canvas.table(72, 250, rows, [130, 100, 100, 100], ruled=False)


def application_form(canvas: Canvas) -> None:
    """A form printed as a column of labels beside a column of values."""
    canvas.text(72, 60, "Membership application", 14)
    labels = ["Full name", "Date of birth", "Member since", "Newsletter", "Membership type"]
    values = ["Jane Doe", "1 April 1990", "2019", "X", "gold"]
    for row, label in enumerate(labels):
        canvas.text(72, 100 + row * 16, label)
    for row, value in enumerate(values):
        canvas.text(220, 100 + row * 16, value)


@pytest.fixture(scope="module")
def invoice_pages() -> list[str]:
    return parsed(invoice)


@pytest.fixture(scope="module")
def receipt_pages() -> list[str]:
    return parsed(receipt)


@pytest.fixture(scope="module")
def order_pages() -> list[str]:
    return parsed(purchase_order)


INVOICE_SCHEMA = schema(
    invoice_number=TEXT,
    date=DATE,
    due_date=DATE,
    po_number=TEXT,
    terms=TEXT,
    vendor=PARTY,
    customer=PARTY,
    line_items=LINE_ITEMS,
    subtotal=NUMBER,
    tax=NUMBER,
    total=NUMBER,
    paid={"type": "boolean"},
)


# ---------------------------------------------------------------------------------------- where labels are
def test_a_value_is_found_after_a_colon_below_its_label_or_right_of_it(invoice_pages: list[str]) -> None:
    output = extracted(invoice_pages, INVOICE_SCHEMA).output
    assert output["invoice_number"] == "INV-2026-0042"  # "Invoice No.: ..."
    assert output["po_number"] == "PO-7781"  # printed right of "PO Number"
    assert output["due_date"] == "2026-04-25"  # likewise
    assert output["terms"] == "Net 30"  # on the label's line, after wide spacing
    assert output["paid"] is False


def test_a_whole_invoice_is_extracted(invoice_pages: list[str]) -> None:
    found = extracted(invoice_pages, INVOICE_SCHEMA)
    assert found.output == {
        "invoice_number": "INV-2026-0042",
        "date": "2026-03-12",
        "due_date": "2026-04-25",
        "po_number": "PO-7781",
        "terms": "Net 30",
        "vendor": {
            "name": "ACME Supplies Ltd",
            "address": "12 Harbour Road, Leeds",
            "email": None,
            "phone": None,
        },
        "customer": {
            "name": "Globex Corp",
            "address": "1 Main Street, Springfield",
            "email": None,
            "phone": None,
        },
        "line_items": [
            {"description": "Widget", "quantity": 2, "unit_price": 1200.0, "amount": 2400.0},
            {"description": "Gadget", "quantity": 1, "unit_price": 99.5, "amount": 99.5},
            {"description": "Service fee", "quantity": 1, "unit_price": 50.0, "amount": 50.0},
        ],
        "subtotal": 2549.5,
        "tax": 509.9,
        "total": 3059.4,
        "paid": False,
    }
    assert found.likelihoods["vendor.email"] == 0.0
    assert set(found.likelihoods) >= {"total", "vendor.name", "customer.address", "line_items"}


def test_labels_in_a_column_beside_their_values_are_paired() -> None:
    json_schema = schema(
        full_name=TEXT,
        date_of_birth=DATE,
        member_since={"type": "integer"},
        newsletter={"type": "boolean"},
        membership_type={"enum": ["Bronze", "Silver", "Gold"]},
    )
    found = extracted(parsed(application_form), json_schema)
    assert found.output == {
        "full_name": "Jane Doe",
        "date_of_birth": "1990-04-01",
        "member_since": 2019,
        "newsletter": True,
        "membership_type": "Gold",
    }


def test_blocks_printed_side_by_side_are_told_apart() -> None:
    def letter(canvas: Canvas) -> None:
        canvas.text(72, 60, "Invoice 881", 14)
        canvas.lines(72, 100, "From", "Initech GmbH", "Hafenstrasse 1, Hamburg")
        canvas.lines(300, 100, "Bill to", "Umbrella plc", "7 Hill Road, York")

    output = extracted(parsed(letter), schema(vendor=PARTY, customer=PARTY)).output
    assert output["vendor"]["name"] == "Initech GmbH"
    assert output["vendor"]["address"] == "Hafenstrasse 1, Hamburg"
    assert output["customer"]["name"] == "Umbrella plc"
    assert output["customer"]["address"] == "7 Hill Road, York"


def test_a_grid_of_keys_and_values_is_read_pair_by_pair() -> None:
    def sheet(canvas: Canvas) -> None:
        canvas.text(72, 60, "Invoice", 16)
        rows = [
            ["Invoice No.", "INV-7860", "Currency", "EUR"],
            ["Date of issue", "07.01.2026", "PO reference", "PO-3677"],
        ]
        canvas.table(72, 100, rows, [110, 110, 110, 110])

    json_schema = schema(
        invoice_number=TEXT, invoice_date=DATE, currency={"enum": ["USD", "EUR"]}, po_reference=TEXT
    )
    output = extracted(parsed(sheet), json_schema).output
    assert output == {
        "invoice_number": "INV-7860",
        "invoice_date": "2026-01-07",
        "currency": "EUR",
        "po_reference": "PO-3677",
    }


def test_a_table_printed_a_cell_per_line_in_one_block_is_an_array() -> None:
    def sheet(canvas: Canvas) -> None:
        canvas.text(72, 60, "Purchase Order", 16)
        cells = [
            "Qty",
            "Item",
            "Price",
            "Amount",
            "23",
            "Docking station",
            "136,11",
            "3 130,53",
            "7",
            "Label rolls",
        ]
        canvas.lines(72, 100, *cells, "16,62", "116,34", "Total", "3 246,87 EUR", step=12)

    item = {
        "type": "object",
        "properties": {"quantity": {"type": "integer"}, "description": TEXT, "amount": NUMBER},
    }
    output = extracted(
        parsed(sheet), schema(line_items={"type": "array", "items": item}, total=NUMBER)
    ).output
    assert output == {
        "line_items": [
            {"quantity": 23, "description": "Docking station", "amount": 3130.53},
            {"quantity": 7, "description": "Label rolls", "amount": 116.34},
        ],
        "total": 3246.87,
    }


# ---------------------------------------------------------------------------------------- naming
def test_properties_match_labels_by_title_description_and_synonyms(invoice_pages: list[str]) -> None:
    json_schema = schema(
        reference={"type": "string", "title": "Invoice #"},
        amount_payable={"type": "number", "description": 'The "total due" of the invoice.'},
        issued=DATE,
        supplier=PARTY,
        buyer={"type": "string"},
        grand_total=NUMBER,
    )
    output = extracted(invoice_pages, json_schema).output
    assert output["reference"] == "INV-2026-0042"
    assert output["amount_payable"] == 3059.4
    assert output["issued"] == "2026-03-12"  # "Invoice date"
    assert output["supplier"]["name"] == "ACME Supplies Ltd"
    assert output["buyer"] == "Globex Corp"  # "Bill to"


def test_a_label_of_one_word_names_a_field_whose_name_ends_with_it() -> None:
    def order(canvas: Canvas) -> None:
        canvas.text(72, 60, "Purchase Order", 16)
        canvas.lines(72, 100, "Date: 27/10/2025", "Deliver by: 30/11/2025", "Date of birth of the buyer: n/a")

    output = extracted(parsed(order), schema(order_date=DATE, delivery_date=DATE)).output
    assert output == {"order_date": "2025-10-27", "delivery_date": "2025-11-30"}


def test_labels_said_with_of_match_names_said_without_it() -> None:
    def form(canvas: Canvas) -> None:
        canvas.lines(
            72, 100, "Name of applicant: Priya Patel", "DOB: 24.07.1995", "Terms of payment: 30 days"
        )

    json_schema = schema(applicant_name=TEXT, date_of_birth=DATE, payment_terms=TEXT)
    output = extracted(parsed(form), json_schema).output
    assert output == {
        "applicant_name": "Priya Patel",
        "date_of_birth": "1995-07-24",
        "payment_terms": "30 days",
    }


def test_an_order_is_issued_by_its_buyer_and_sent_to_its_supplier() -> None:
    def order(canvas: Canvas) -> None:
        canvas.text(72, 60, "Brightstone Print Works B.V.", 14)
        canvas.lines(72, 76, "66 Mill Lane, Hamburg", "PURCHASE ORDER")
        canvas.lines(72, 120, "To", "Westbrook Logistics plc", "187 Mill Lane, Leeds")

    output = extracted(parsed(order), schema(buyer=TEXT, supplier=TEXT, vendor=PARTY)).output
    assert output["buyer"] == "Brightstone Print Works B.V."
    assert output["supplier"] == "Westbrook Logistics plc"
    assert output["vendor"]["address"] == "187 Mill Lane, Leeds"


def test_a_date_stated_in_a_sentence_is_found_after_the_words_naming_it() -> None:
    def letter(canvas: Canvas) -> None:
        canvas.lines(72, 100, "Dear supplier,", "Delivery is required by 26/03/2025 at the address above.")

    assert extracted(parsed(letter), schema(delivery_date=DATE)).output == {"delivery_date": "2025-03-26"}


def test_the_total_is_never_taken_from_the_subtotal(invoice_pages: list[str]) -> None:
    assert extracted(invoice_pages, schema(total=NUMBER)).output == {"total": 3059.4}
    only_subtotal = [page.replace("Total due", "Deposit") for page in invoice_pages]
    found = extracted(only_subtotal, schema(total={"type": ["number", "null"]}))
    assert found.output == {"total": None}
    assert found.likelihoods["total"] == 0.0


def test_a_label_named_exactly_is_more_likely_than_a_synonym_or_a_partial_label(
    invoice_pages: list[str],
) -> None:
    found = extracted(invoice_pages, schema(invoice_number=TEXT, total=NUMBER, number=TEXT))
    assert found.output["number"] == "PO-7781"  # "PO Number" holds "number"
    assert found.likelihoods["invoice_number"] >= 0.95
    assert 0.7 <= found.likelihoods["total"] < found.likelihoods["invoice_number"]
    assert found.likelihoods["number"] < found.likelihoods["total"]


# ---------------------------------------------------------------------------------------- tables
def test_a_table_without_rules_in_blocks_of_one_row_is_an_array(receipt_pages: list[str]) -> None:
    json_schema = schema(
        merchant=TEXT,
        receipt_number=TEXT,
        date=DATE,
        items={
            "type": "array",
            "items": {"type": "object", "properties": {"description": TEXT, "price": NUMBER}},
        },
        subtotal=NUMBER,
        total=NUMBER,
        payment_method={"enum": ["cash", "card", "other"]},
    )
    found = extracted(receipt_pages, json_schema)
    assert found.output == {
        "merchant": "Café Lumière",
        "receipt_number": "R-889",
        "date": "2026-03-14",
        "items": [
            {"description": "Croissant", "price": 2.5},
            {"description": "Café crème", "price": 3.8},
            {"description": "Catering platter", "price": 1000.0},
        ],
        "subtotal": 1006.3,
        "total": 1006.3,
        "payment_method": "card",
    }
    assert found.likelihoods["merchant"] < 0.6  # the letterhead, not a label


def test_a_table_of_aligned_columns_is_an_array_without_its_total_row(order_pages: list[str]) -> None:
    json_schema = schema(
        po_number={"type": "integer"},
        order_date=DATE,
        shipping={"enum": ["standard", "express", "overnight"]},
        urgent={"type": "boolean"},
        supplier=PARTY,
        line_items=LINE_ITEMS,
        total=NUMBER,
    )
    output = extracted(order_pages, json_schema).output
    assert output["line_items"] == [
        {"description": "Bolts M6", "quantity": 100, "unit_price": 0.12, "amount": 12.0},
        {"description": "Nuts M6", "quantity": 100, "unit_price": 0.08, "amount": 8.0},
        {"description": "Washers", "quantity": 200, "unit_price": 0.02, "amount": 4.0},
    ]
    assert output["total"] == 24.0
    assert output["po_number"] == 4471
    assert output["order_date"] == "2026-03-12"
    assert output["shipping"] == "express"
    assert output["urgent"] is True


def test_a_table_typed_as_lines_of_spaced_columns_is_an_array() -> None:
    def delivery_note(canvas: Canvas) -> None:
        canvas.text(72, 60, "Delivery note", 14)
        canvas.lines(
            72,
            100,
            "Item            Qty     Weight",
            "Pallet A          4      120 kg",
            "Pallet B          2       80 kg",
        )

    item = {"type": "object", "properties": {"item": TEXT, "quantity": {"type": "integer"}, "weight": TEXT}}
    output = extracted(parsed(delivery_note), schema(pallets={"type": "array", "items": item})).output
    assert output == {
        "pallets": [
            {"item": "Pallet A", "quantity": 4, "weight": "120 kg"},
            {"item": "Pallet B", "quantity": 2, "weight": "80 kg"},
        ]
    }


def test_items_printed_as_lines_of_a_receipt_are_an_array() -> None:
    def till_receipt(canvas: Canvas) -> None:
        canvas.text(72, 60, "CORNER CAFE", 14)
        canvas.lines(72, 76, "12 Market Square, Leeds")
        canvas.text(72, 100, "Receipt 0042   14/03/2026 09:41")
        lines = [
            ("2 x Cappuccino", "7.00"),
            ("Croissant", "2.20"),
            ("Orange juice", "3.10"),
            ("TOTAL", "12.30"),
        ]
        for row, (text, amount) in enumerate(lines):
            canvas.text(72, 130 + row * 14, text)
            canvas.text(250, 130 + row * 14, amount)
        canvas.lines(72, 200, "Cash 20.00", "Change 7.70")

    item = {
        "type": "object",
        "properties": {"name": TEXT, "quantity": {"type": ["integer", "null"]}, "price": NUMBER},
    }
    json_schema = schema(merchant=TEXT, date=DATE, items={"type": "array", "items": item}, total=NUMBER)
    found = extracted(parsed(till_receipt), json_schema)
    assert found.output == {
        "merchant": "CORNER CAFE",
        "date": "2026-03-14",  # no label: the first date of the receipt
        "items": [
            {"name": "Cappuccino", "quantity": 2, "price": 7.0},
            {"name": "Croissant", "quantity": None, "price": 2.2},
            {"name": "Orange juice", "quantity": None, "price": 3.1},
        ],
        "total": 12.3,
    }
    assert found.likelihoods["date"] < 0.5 and found.likelihoods["items"] < 0.7


@pytest.mark.parametrize("header_repeated", [True, False])
def test_a_table_continued_on_the_next_page_is_one_array(header_repeated: bool) -> None:
    header = ["Description", "Qty", "Unit price", "Amount"]
    rows = [[f"Part {n}", str(n), f"{n}.00", f"{n * n}.00"] for n in range(1, 9)]
    widths = [200, 60, 100, 100]

    def first(canvas: Canvas) -> None:
        canvas.text(72, 60, "Invoice 77", 14)
        canvas.table(72, 620, [header, *rows[:4]], widths)

    def second(canvas: Canvas) -> None:
        continued = [header, *rows[4:]] if header_repeated else rows[4:]
        canvas.table(72, 72, [*continued, ["Total", "", "", "204.00"]], widths)

    output = extracted(parsed(first, second), schema(line_items=LINE_ITEMS, total=NUMBER)).output
    assert [item["description"] for item in output["line_items"]] == [f"Part {n}" for n in range(1, 9)]
    assert output["line_items"][7] == {
        "description": "Part 8",
        "quantity": 8,
        "unit_price": 8.0,
        "amount": 64.0,
    }
    assert output["total"] == 204.0


def test_a_cell_that_is_not_of_its_column_type_is_none_and_lowers_the_likelihood() -> None:
    def sheet(canvas: Canvas) -> None:
        rows = [["Item", "Qty"], ["Desk", "2"], ["Chair", "two"], ["Lamp", "1"]]
        canvas.table(72, 100, rows, [200, 80])

    item = {"type": "object", "properties": {"item": TEXT, "qty": {"type": ["integer", "null"]}}}
    found = extracted(parsed(sheet), schema(items={"type": "array", "items": item}))
    assert [row["qty"] for row in found.output["items"]] == [2, None, 1]
    assert 0.5 < found.likelihoods["items"] < 0.95


def test_a_cell_the_item_schema_refuses_is_null_and_makes_the_table_less_likely() -> None:
    def sheet(*amounts: str) -> Callable[[Canvas], None]:
        def draw(canvas: Canvas) -> None:
            rows = [
                ["Description", "Amount"],
                ["Desk", "120.00"],
                ["Chair", amounts[0]],
                ["Lamp", amounts[1]],
            ]
            canvas.table(72, 100, rows, [200, 100])

        return draw

    item = {
        "type": "object",
        "properties": {"description": TEXT, "amount": {"type": "number", "minimum": 0}},
        "required": ["description", "amount"],
    }
    json_schema = schema(line_items={"type": "array", "items": item})
    found = extracted(parsed(sheet("n/a", "-5.00")), json_schema)
    clean = extracted(parsed(sheet("80.00", "5.00")), json_schema)
    assert found.output["line_items"] == [
        {"description": "Desk", "amount": 120.0},
        {"description": "Chair", "amount": None},
        {"description": "Lamp", "amount": None},
    ]
    assert found.likelihoods["line_items"] < clean.likelihoods["line_items"]


def test_an_array_of_plain_values_is_a_labelled_list_or_a_column(invoice_pages: list[str]) -> None:
    def sheet(canvas: Canvas) -> None:
        canvas.lines(72, 80, "Project report", "Tags: urgent, billing; Q1")

    tags = extracted(parsed(sheet), schema(tags={"type": "array", "items": TEXT})).output
    assert tags == {"tags": ["urgent", "billing", "Q1"]}
    amounts = extracted(invoice_pages, schema(amounts={"type": "array", "items": NUMBER})).output
    assert amounts == {"amounts": [2400.0, 99.5, 50.0]}


# ---------------------------------------------------------------------------------------- nested objects
def test_a_nested_object_is_read_from_the_block_under_its_label(order_pages: list[str]) -> None:
    found = extracted(order_pages, schema(supplier=PARTY))
    assert found.output["supplier"] == {
        "name": "Northwind Traders",
        "address": "42 Dock Lane, Bristol",
        "email": "orders@northwind.example",
        "phone": "+44 117 496 0000",
    }
    assert all(found.likelihoods[f"supplier.{name}"] > 0.7 for name in ("name", "address", "email", "phone"))


def test_a_vendor_without_a_label_is_the_letterhead(invoice_pages: list[str]) -> None:
    found = extracted(invoice_pages, schema(vendor=PARTY, seller_name=TEXT))
    assert found.output["vendor"]["name"] == "ACME Supplies Ltd"
    assert found.output["vendor"]["address"] == "12 Harbour Road, Leeds"
    assert found.likelihoods["vendor.name"] < 0.6


def test_labelled_fields_of_a_nested_object_are_found_anywhere() -> None:
    def sheet(canvas: Canvas) -> None:
        canvas.lines(
            72, 80, "Statement", "Customer name: Wayne Enterprises", "Customer email: ap@wayne.example"
        )
        canvas.lines(72, 140, "Account number: 5521-88")

    json_schema = schema(
        customer={"type": "object", "properties": {"name": TEXT, "email": TEXT}}, account_number=TEXT
    )
    output = extracted(parsed(sheet), json_schema).output
    assert output == {
        "customer": {"name": "Wayne Enterprises", "email": "ap@wayne.example"},
        "account_number": "5521-88",
    }


# ---------------------------------------------------------------------------------------- values
def single_value(printed: str, property_schema: dict[str, Any], instructions: str | None = None) -> Any:
    def sheet(canvas: Canvas) -> None:
        canvas.lines(72, 80, "Remittance advice", f"Value: {printed}")

    return extracted(parsed(sheet), schema(value=property_schema), instructions).output.get("value")


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("$1,200.00", 1200.0),
        ("1.200,00 €", 1200.0),
        ("EUR 1 234,56", 1234.56),
        ("CHF 1'234.50", 1234.5),
        ("(12.50)", -12.5),
        ("-7.25 USD", -7.25),
        ("£99", 99.0),
        ("1,234,567.89", 1234567.89),
        ("€6,-", 6.0),
        ("1.250,-- EUR", 1250.0),
    ],
)
def test_amounts_in_any_currency_format_are_numbers(printed: str, expected: float) -> None:
    assert single_value(printed, NUMBER) == expected


@pytest.mark.parametrize(
    ("printed", "expected"),
    [("Yes", True), ("no", False), ("X", True), ("✓", True), ("TRUE", True), ("false", False)],
)
def test_booleans_read_words_and_marks(printed: str, expected: bool) -> None:
    assert single_value(printed, {"type": "boolean"}) is expected


def test_a_barcodes_run_of_digits_is_no_amount() -> None:
    assert single_value("3369345023901400061123022925855201103202", {"type": ["number", "null"]}) is None
    assert single_value("1.234.567.890,00", NUMBER) == 1234567890.0


def test_integers_refuse_fractions() -> None:
    assert single_value("12", {"type": "integer"}) == 12
    assert single_value("12.5", {"type": ["integer", "null"]}) is None


@pytest.mark.parametrize(
    "printed",
    [
        "12/03/2026",
        "2026-03-12",
        "12 March 2026",
        "March 12, 2026",
        "12.03.2026",
        "12-Mar-2026",
        "Thu, 12th March 2026",
    ],
)
def test_dates_are_normalised_to_iso(printed: str) -> None:
    assert single_value(printed, DATE) == "2026-03-12"


def test_an_ambiguous_date_is_read_day_first_unless_told_otherwise() -> None:
    assert single_value("03/04/2026", DATE) == "2026-04-03"
    assert single_value("03/04/2026", DATE, "Dates are US format (MM/DD/YYYY).") == "2026-03-04"
    assert single_value("04/03/2026", DATE, "read dates month first") == "2026-04-03"


def test_an_ambiguous_date_is_read_the_way_the_documents_other_dates_are() -> None:
    def sheet(canvas: Canvas) -> None:
        canvas.lines(72, 80, "Date: 03/04/2026", "Due date: 03/25/2026")

    found = extracted(parsed(sheet), schema(date=DATE, due_date=DATE))
    assert found.output == {"date": "2026-03-04", "due_date": "2026-03-25"}
    assert found.likelihoods["date"] < found.likelihoods["due_date"]


def test_ticked_boxes_choose_enums_and_booleans() -> None:
    def form(canvas: Canvas) -> None:
        canvas.lines(72, 80, "Plan:", "[ ] Basic (15/month)", "[X] Enterprise (149/month)")
        canvas.lines(72, 140, "Newsletter:  [ ] yes   [X] no", "Paper statements:  [X] yes   [ ] no")
        canvas.lines(72, 190, "[X] I agree to the terms of service", "[ ] Send me offers by post")

    json_schema = schema(
        plan={"enum": ["Basic", "Pro", "Enterprise"]},
        newsletter={"type": "boolean"},
        paper_statements={"type": "boolean"},
        terms_accepted={"type": "boolean", "title": "terms of service"},
        offers={"type": "boolean"},
    )
    output = extracted(parsed(form), json_schema).output
    assert output == {
        "plan": "Enterprise",
        "newsletter": False,
        "paper_statements": True,
        "terms_accepted": True,
        "offers": False,
    }


def test_values_no_label_names_come_from_the_document_with_a_lower_likelihood() -> None:
    def receipt(canvas: Canvas) -> None:
        canvas.lines(72, 80, "Corner Grocers", "Date September 20, 2025 19:38")
        canvas.lines(72, 120, "Toothpaste", "15.44", "   4 @ 3.86", "Sparkling water", "2.19", "   1 @ 2.19")
        canvas.lines(72, 220, "Total", "£17.63", "Card", "£17.63")
        canvas.lines(72, 300, "First name: Jane", "Last name: Doe")

    item = {
        "type": "object",
        "properties": {"description": TEXT, "quantity": {"type": "integer"}, "amount": NUMBER},
    }
    json_schema = schema(
        customer_name=TEXT,
        currency={"enum": ["USD", "EUR", "GBP"]},
        payment_method={"enum": ["cash", "card"]},
        items={"type": "array", "items": item},
    )
    found = extracted(parsed(receipt), json_schema)
    assert found.output == {
        "customer_name": "Jane Doe",
        "currency": "GBP",
        "payment_method": "card",
        "items": [
            {"description": "Toothpaste", "quantity": 4, "amount": 15.44},
            {"description": "Sparkling water", "quantity": 1, "amount": 2.19},
        ],
    }
    assert all(likelihood < 0.9 for likelihood in found.likelihoods.values())


def test_enums_take_the_closest_allowed_value_or_none() -> None:
    assert single_value("EXPRESS delivery", {"enum": ["standard", "express"]}) == "express"
    assert single_value("Credit Card", {"enum": ["cash", "credit_card"]}) == "credit_card"
    assert single_value("cheque", {"enum": ["cash", "credit_card", None]}) is None


def test_a_pattern_takes_the_word_that_matches_it() -> None:
    assert (
        single_value("INV-2026-0042 (copy)", {"type": "string", "pattern": "^INV-\\d{4}-\\d{4}$"})
        == "INV-2026-0042"
    )


RECEIPT_ITEM: dict[str, Any] = {
    "type": "object",
    "properties": {"description": TEXT, "quantity": {"type": ["integer", "null"]}, "amount": NUMBER},
}


def test_items_under_a_row_of_headers_inside_a_table_end_at_its_totals() -> None:
    def till_roll(canvas: Canvas) -> None:
        rows = [
            ["CORNER STORE", "", ""],
            ["Receipt 1234", "", "Till 2"],
            ["Qty", "Item", "Amount"],
            ["2", "Chicken wrap", "11.60"],
            ["4", "Iced tea", "10.40"],
            ["Subtotal", "", "22.00"],
            ["Total", "", "22.00"],
            ["Cash", "", "30.00"],
            ["Change", "", "8.00"],
        ]
        canvas.table(72, 80, rows, [60, 160, 80])

    json_schema = schema(items={"type": "array", "items": RECEIPT_ITEM}, total=NUMBER)
    output = extracted(parsed(till_roll), json_schema).output
    assert output == {
        "items": [
            {"description": "Chicken wrap", "quantity": 2, "amount": 11.6},
            {"description": "Iced tea", "quantity": 4, "amount": 10.4},
        ],
        "total": 22.0,
    }


def test_text_cut_across_columns_is_joined_and_a_count_before_it_is_the_quantity() -> None:
    def till_roll(canvas: Canvas) -> None:
        rows = [
            ["QTY ITEM", "", "AMOUNT"],
            ["2 CHICKEN", "WRAP", "11.60"],
            ["4 ICED TEA", "", "10.40"],
            ["1 OLIVE OIL", "500 ML", "7.89"],
            ["3 SUNSCREEN SPF", "30", "9.00"],
        ]
        canvas.table(72, 80, rows, [120, 60, 80])

    output = extracted(parsed(till_roll), schema(items={"type": "array", "items": RECEIPT_ITEM})).output
    assert output["items"] == [
        {"description": "CHICKEN WRAP", "quantity": 2, "amount": 11.6},
        {"description": "ICED TEA", "quantity": 4, "amount": 10.4},
        {"description": "OLIVE OIL 500 ML", "quantity": 1, "amount": 7.89},
        {"description": "SUNSCREEN SPF 30", "quantity": 3, "amount": 9.0},
    ]


def test_a_continued_table_with_a_column_text_ran_across_and_a_garbled_summary_is_one_array() -> None:
    header = ["Description", "Qty", "Unit price", "Amount"]
    rows = [[f"Part {n}", str(n), f"{n}.00", f"{n * n}.00"] for n in range(1, 9)]

    def first(canvas: Canvas) -> None:
        canvas.text(72, 60, "Invoice 77", 14)
        canvas.table(72, 620, [header, *rows[:4]], [200, 60, 100, 100])

    def second(canvas: Canvas) -> None:
        continued = [[text, count, "", price, amount] for text, count, price, amount in rows[4:]]
        garbled = ["Payment terms: 30 days", "", "Net t", "otal 5%", "$204.00 $10.20"]
        canvas.table(72, 72, [*continued, garbled], [200, 60, 60, 100, 100])

    output = extracted(parsed(first, second), schema(line_items=LINE_ITEMS)).output
    assert [item["description"] for item in output["line_items"]] == [f"Part {n}" for n in range(1, 9)]
    assert output["line_items"][7] == {
        "description": "Part 8",
        "quantity": 8,
        "unit_price": 8.0,
        "amount": 64.0,
    }


@pytest.mark.parametrize("crosses", [True, False])
def test_statements_ticked_with_a_lone_x_are_true_and_the_others_false(crosses: bool) -> None:
    mark = "X " if crosses else ""

    def form(canvas: Canvas) -> None:
        canvas.lines(72, 80, "Plan:", "Basic (15/month)", f"{mark}Pro (35/month)")
        canvas.text(72, 160, f"{mark}Send me the monthly newsletter by email")
        canvas.text(72, 200, "Send my statements by post")

    json_schema = schema(
        plan={"type": ["string", "null"], "enum": ["Basic", "Pro", None]},
        newsletter={"type": "boolean"},
        paper_statements={"type": "boolean"},
    )
    found = extracted(parsed(form), json_schema)
    assert found.output["newsletter"] is (True if crosses else None)
    assert found.output["paper_statements"] is (False if crosses else None)
    if crosses:
        assert found.likelihoods["paper_statements"] < found.likelihoods["newsletter"] < 0.9


# ---------------------------------------------------------------------------------------- missing fields
def test_fields_not_found_are_none_with_likelihood_zero(invoice_pages: list[str]) -> None:
    json_schema = schema(
        required=["iban", "notes", "discount"],
        iban={"type": ["string", "null"]},
        notes={"anyOf": [{"type": "string"}, {"type": "null"}]},
        discount={"type": "number"},
        shipping_method={"type": "string"},
        signed={"type": "boolean"},
    )
    found = extract(invoice_pages, json_schema)
    assert found.output == {
        "iban": None,
        "notes": None,
        "discount": None,
        "shipping_method": None,
        "signed": None,
    }  # not found is null, whatever the type
    assert {
        found.likelihoods[name] for name in ("iban", "notes", "discount", "shipping_method", "signed")
    } == {0.0}


def test_a_required_field_that_is_not_found_is_null_even_where_null_is_not_a_type(
    invoice_pages: list[str],
) -> None:
    found = extracted(
        invoice_pages, schema(required=["iban", "tags"], iban=TEXT, tags={"type": "array", "items": TEXT})
    )
    assert found.output == {"iban": None, "tags": None}
    assert found.likelihoods == {"iban": 0.0, "tags": 0.0}
    strict = schema(required=["iban"], iban={"type": "string", "minLength": 15})
    assert extract(invoice_pages, strict).output == {"iban": None}


# ---------------------------------------------------------------------------------------- schemas
def test_references_to_defs_are_followed(invoice_pages: list[str]) -> None:
    json_schema = {
        "$defs": {
            "money": {"type": "number", "minimum": 0},
            "party": {
                "type": "object",
                "properties": {"name": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            },
            "line": {
                "type": "object",
                "properties": {"description": TEXT, "amount": {"$ref": "#/$defs/money"}},
            },
        },
        "type": "object",
        "properties": {
            "total": {"$ref": "#/$defs/money", "title": "Total due"},
            "customer": {"$ref": "#/$defs/party"},
            "line_items": {"type": "array", "items": {"$ref": "#/$defs/line"}},
        },
    }
    output = extracted(invoice_pages, json_schema).output
    assert output["total"] == 3059.4
    assert output["customer"] == {"name": "Globex Corp"}
    assert output["line_items"][0] == {"description": "Widget", "amount": 2400.0}


@pytest.mark.parametrize(
    "json_schema",
    [
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {"total": True, "nothing": False}},
        {"properties": {"total": {}, "tags": {"items": {"type": "string"}}}},
        {"type": "object", "properties": {"total": {"type": ["number", "string", "null"]}}},
        {"type": "object", "properties": {"total": {"allOf": [{"type": "number"}, {"minimum": 0}]}}},
        {"type": "object", "properties": {"kind": {"const": "invoice"}, "n": {"type": "null"}}},
        {"type": "object", "properties": {"node": {"$ref": "#"}, "total": NUMBER}},
        {
            "type": "object",
            "properties": {"a": {"oneOf": [{"type": "integer"}, {"type": "string", "format": "date"}]}},
        },
        {
            "type": "object",
            "properties": {"x": {"type": "array", "items": {"type": "array", "items": NUMBER}}},
        },
        {
            "type": "object",
            "patternProperties": {"^x": NUMBER},
            "properties": {"total": {"not": {"type": "string"}}},
        },
        {
            "type": "object",
            "properties": {"total": {"type": "number", "maximum": 100}},
            "additionalProperties": False,
        },
    ],
)
def test_unusual_schemas_still_give_valid_output(
    invoice_pages: list[str], json_schema: dict[str, Any]
) -> None:
    found = extracted(invoice_pages, json_schema)
    assert set(found.likelihoods) <= set(json_schema["properties"])


def test_a_schema_that_cannot_be_checked_does_not_break_extraction(invoice_pages: list[str]) -> None:
    found = extract(
        invoice_pages, schema(total={"type": "number", "pattern": "(unclosed"}, n={"$ref": "#/nowhere"})
    )
    assert found.output["total"] == 3059.4


@pytest.mark.parametrize(
    "pages", [[], [""], ["", "   \n\n  "], ["\x00\x01:::"], ["|" * 1000 + "\n|---|\n" * 50]]
)
def test_empty_or_odd_pages_find_nothing(pages: list[str]) -> None:
    found = extracted(pages, INVOICE_SCHEMA)
    party = {"name": None, "address": None, "email": None, "phone": None}
    assert found.output == {
        **dict.fromkeys(["invoice_number", "date", "due_date", "po_number", "terms"]),
        "vendor": party,
        "customer": party,
        **dict.fromkeys(["line_items", "subtotal", "tax", "total", "paid"]),
    }
    assert set(found.likelihoods.values()) == {0.0}


@pytest.mark.parametrize(
    "pages",
    [["x" * 500_000], ["Total: " + "9" * 5000], ["Invoice No: " + "A-1 " * 50_000], ["a:b\n" * 20_000]],
)
def test_huge_lines_are_read_quickly(pages: list[str]) -> None:
    started = time.process_time()  # CPU: the same on a busy machine
    extracted(pages, INVOICE_SCHEMA)
    assert time.process_time() - started < HANG_SECONDS


def test_a_twenty_page_document_is_read_in_well_under_a_second(invoice_pages: list[str]) -> None:
    filler = "\n".join(f"Clause {n}: the parties agree to terms set out in schedule {n}." for n in range(40))
    pages = [filler] * 19 + invoice_pages
    started = time.perf_counter()
    found = extracted(pages, INVOICE_SCHEMA)
    assert time.perf_counter() - started < HANG_SECONDS
    assert found.output["total"] == 3059.4


def test_extraction_is_deterministic(invoice_pages: list[str]) -> None:
    assert extract(invoice_pages, INVOICE_SCHEMA) == extract(invoice_pages, INVOICE_SCHEMA)
