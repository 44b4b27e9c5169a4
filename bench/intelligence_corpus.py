"""Synthetic business documents with ground truth, for the quality bench of the intelligence models.

    .venv/bin/python bench/intelligence_corpus.py --out DIR [--seed 2026] [--check]

Four kinds (invoice, receipt, purchase_order, form), six layouts of each and ten variants of each
layout: 240 single documents, each a PDF drawn with PyMuPDF, its truth and its kind's JSON Schema
(one schema per kind, whatever the layout). Layouts differ in where labels sit (before the value with
a colon, right-aligned in a label column, above the value, in a ruled key grid, in boxes, in a ruled
field table), in how line items are drawn (ruled cells, horizontal rules only, aligned columns without
rules, receipt lines), in font (Helvetica, Times, Courier), page size and page count (a line-item table
that continues on page 2). Variants draw the money format ($1,234.56, 1.234,56 €, £1234.56, plain
with the currency stated, and on held-out layouts "USD 1,234.56" and "1 234,56 EUR"),
the date format (2026-03-12, 13/03/2026, 03/13/2026, March 12, 2026, 12.03.2026 and, held out,
12 Mar 2026) and the wording of labels. A date printed with slashes always has a day above 12, so it
reads one way only; the truth holds ISO dates. Distractors are on purpose: subtotal and tax beside the
total, a ship-to address, reference numbers, a second phone number, a signature date, footers.

Layouts L0-L3 of each kind are for tuning, L4 and L5 are held out (`Sample.held_out`). Packets are
PDFs of 2 to 6 of those documents one after the other, for classification and splitting; a packet is
held out when its documents come from held-out layouts.

`--out DIR` writes each PDF with a JSON of its truth beside it; `--check` also builds everything twice,
compares the bytes and checks that every truth value is printed on its pages.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import hashlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

KINDS = ("invoice", "receipt", "purchase_order", "form")
VARIANTS = 10  # documents per layout
TUNING_LAYOUTS = 4  # layouts L0..L3 of each kind; the others are held out
PACKETS = 40

CATEGORIES: list[tuple[str, str]] = [
    (
        "invoice",
        "A bill sent by a vendor to a customer asking for payment: invoice number, dates, line items, "
        "subtotal, tax and the total amount due.",
    ),
    (
        "receipt",
        "Proof of a payment already made at a shop, cafe or online store: merchant, items bought, total "
        "paid and whether by cash or card.",
    ),
    (
        "purchase_order",
        "An order sent by a buyer to a supplier for goods or services: PO number, order and delivery "
        "dates, ordered lines and order total.",
    ),
    (
        "form",
        "A filled-in application form: the applicant's personal details such as name, date of birth, "
        "email and phone, a chosen plan and ticked checkboxes.",
    ),
]

# ---------------------------------------------------------------------------------------- schemas
_DATE: dict[str, Any] = {"type": "string", "format": "date"}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _lines(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "array", "description": description, "items": _object(properties)}


SCHEMAS: dict[str, dict[str, Any]] = {
    "invoice": _object(
        {
            "invoice_number": {"type": "string", "description": "The invoice's own number."},
            "invoice_date": {**_DATE, "description": "The date the invoice was issued."},
            "due_date": {
                "type": ["string", "null"],
                "format": "date",
                "description": "The date payment is due; null when the invoice gives none.",
            },
            "vendor_name": {"type": "string", "description": "The company that issued the invoice."},
            "customer_name": {"type": "string", "description": "The company the invoice is billed to."},
            "currency": {"type": "string", "enum": ["USD", "EUR", "GBP"]},
            "subtotal": {"type": "number", "description": "Sum of the line items before tax."},
            "tax": {"type": "number"},
            "total": {"type": "number", "description": "The amount due, tax included."},
            "line_items": _lines(
                {
                    "description": {"type": "string"},
                    "quantity": {"type": "integer"},
                    "unit_price": {"type": "number"},
                    "amount": {"type": "number", "description": "Quantity times unit price."},
                },
                "Every billed line, in the order printed.",
            ),
        }
    ),
    "receipt": _object(
        {
            "merchant": {"type": "string", "description": "The shop or business that was paid."},
            "date": {**_DATE, "description": "The date of the purchase."},
            "payment_method": {"type": "string", "enum": ["cash", "card"]},
            "total": {"type": "number", "description": "The total paid."},
            "items": _lines(
                {
                    "description": {"type": "string"},
                    "quantity": {"type": "integer"},
                    "amount": {"type": "number", "description": "The line's price for its whole quantity."},
                },
                "Every item bought, in the order printed.",
            ),
        }
    ),
    "purchase_order": _object(
        {
            "po_number": {"type": "string", "description": "The purchase order's number."},
            "order_date": {**_DATE, "description": "The date the order was placed."},
            "buyer": {"type": "string", "description": "The company placing the order."},
            "supplier": {"type": "string", "description": "The company the order is sent to."},
            "delivery_date": {**_DATE, "description": "The date the goods are required by."},
            "total": {"type": "number", "description": "The order total, tax and shipping included."},
            "line_items": _lines(
                {
                    "description": {"type": "string"},
                    "quantity": {"type": "integer"},
                    "unit_price": {"type": "number"},
                    "amount": {"type": "number", "description": "Quantity times unit price."},
                },
                "Every ordered line, in the order printed.",
            ),
        }
    ),
    "form": _object(
        {
            "applicant_name": {
                "type": "string",
                "description": "The applicant's full name, given name first.",
            },
            "date_of_birth": {**_DATE, "description": "The applicant's date of birth."},
            "email": {"type": "string", "description": "The applicant's email address."},
            "phone": {"type": "string", "description": "The applicant's own phone number, as written."},
            "plan": {"type": "string", "enum": ["Basic", "Pro", "Enterprise"]},
            "newsletter": {"type": "boolean", "description": "Whether the newsletter box is ticked."},
            "paper_statements": {
                "type": "boolean",
                "description": "Whether statements by post are asked for.",
            },
        }
    ),
}


# ---------------------------------------------------------------------------------------- records
@dataclass(frozen=True)
class Sample:
    name: str
    kind: str
    layout: str
    held_out: bool
    pdf: bytes
    schema: dict[str, Any]
    truth: dict[str, Any]


@dataclass(frozen=True)
class Packet:
    name: str
    pdf: bytes
    truth: list[tuple[str, list[int]]]  # (kind, 1-based pages), in page order
    held_out: bool


# ---------------------------------------------------------------------------------------- vocabulary
COMPANY_FIRST = [
    "Northwind", "Bluewater", "Granite", "Silverline", "Redwood", "Harbor", "Summit", "Evergreen",
    "Ironbridge", "Oakridge", "Lakeside", "Crescent", "Pinnacle", "Foxglove", "Meridian", "Westbrook",
    "Copperfield", "Highland", "Brightstone", "Riverton", "Kestrel", "Ashford", "Larkspur", "Tidewell",
]  # fmt: skip
COMPANY_SECOND = [
    "Traders", "Supplies", "Logistics", "Analytics", "Engineering", "Office Solutions", "Industrial",
    "Foods", "Print Works", "Consulting", "Hardware", "Textiles", "Systems", "Packaging", "Components",
]  # fmt: skip
COMPANY_SUFFIX = ["Ltd", "GmbH", "Inc.", "LLC", "B.V.", "& Co.", "S.A.", "plc"]
MERCHANT_FIRST = [
    "Corner", "Sunrise", "Maple", "Golden Crust", "Harbour", "Little Fig", "Green Leaf", "Old Town",
    "Blue Door", "Morning Star", "Juniper", "Copper Kettle", "Two Rivers", "Parkside", "Willow",
]  # fmt: skip
MERCHANT_SECOND = ["Cafe", "Bakery", "Market", "Pharmacy", "Books", "Deli", "Grocers", "Hardware", "Kitchen"]
STREETS = [
    "High Street", "Station Road", "Market Square", "Mill Lane", "Harbour View", "Kingsway",
    "Bahnhofstrasse", "Rue de la Paix", "Elm Avenue", "Commerce Drive", "Canal Street", "Park Row",
]  # fmt: skip
CITIES = [
    ("London", "EC1A 1BB"), ("Manchester", "M1 2AB"), ("Hamburg", "20095"), ("Lyon", "69002"),
    ("Rotterdam", "3011 AB"), ("Boston, MA", "02110"), ("Austin, TX", "78701"), ("Dublin", "D02 X285"),
    ("Leeds", "LS1 4DY"), ("Denver, CO", "80202"), ("Utrecht", "3511 LX"), ("Munich", "80331"),
]  # fmt: skip
GIVEN = [
    "Maria", "James", "Aisha", "Tomasz", "Elena", "Noah", "Priya", "Lukas", "Chloe", "Daniel",
    "Fatima", "Oliver", "Sofia", "Kenji", "Grace", "Mateo", "Hannah", "Ravi", "Ingrid", "Samuel",
]  # fmt: skip
FAMILY = [
    "Lopez", "Whitfield", "Okafor", "Nowak", "Rossi", "Bennett", "Sharma", "Becker", "Dubois", "Murphy",
    "Haddad", "Clarke", "Moreau", "Tanaka", "Lindqvist", "Alvarez", "Fischer", "Patel", "Hughes", "Kowalski",
]  # fmt: skip
ORGANISATIONS = [
    ("Riverside Fitness Club", "Membership application"),
    ("Northwind Energy", "Customer account application"),
    ("Harbor Credit Union", "Online banking application"),
    ("Summit Broadband", "Service application form"),
    ("Lakeside Community College", "Student portal registration"),
    ("Meridian Cloud Services", "Subscription application"),
]
# (description, lowest and highest unit price in cents)
PRODUCTS = [
    ("Consulting services (hours)", 8000, 18000), ("A4 copy paper, 500 sheets", 450, 900),
    ("Laser toner cartridge, black", 4500, 12000), ("USB-C docking station", 8900, 21000),
    ("Ergonomic office chair", 15000, 42000), ("Cloud backup, monthly plan", 1500, 9000),
    ("On-site support visit", 9500, 25000), ("Network switch, 24 ports", 12000, 38000),
    ("Hex bolts M8 (box of 100)", 900, 2400), ("Safety gloves, size L", 250, 900),
    ("Pallet delivery", 4000, 12000), ("Software licence, annual", 20000, 90000),
    ("Steel mounting brackets", 300, 1500), ("Packaging tape, 50 m roll", 199, 650),
    ("Wireless keyboard and mouse", 2900, 7900), ("27-inch monitor", 17900, 39900),
    ("Printer maintenance kit", 6500, 14000), ("Cable ties, pack of 200", 350, 1200),
    ("Whiteboard markers, 12 pack", 600, 1800), ("Training workshop, half day", 45000, 120000),
    ("Website hosting, quarterly", 6000, 24000), ("Shipping cartons 40x30x30", 90, 320),
    ("LED panel light 60x60", 2500, 6900), ("Hydraulic hose assembly", 3500, 9800),
    ("Stainless steel sheet 2 mm", 4200, 11000), ("Label printer rolls", 800, 2600),
    ("Data migration service", 30000, 85000), ("Desk lamp, adjustable", 1900, 5400),
    ("First aid kit refill", 1200, 3500), ("Forklift rental, per day", 9000, 19000),
    ("Ink cartridge set, colour", 3200, 8800), ("Server rack shelf", 4500, 9900),
    ("Extension lead, 6 sockets", 900, 2400), ("Translation, per page", 2500, 6000),
    ("Cleaning service, monthly", 18000, 45000), ("Thermal paper rolls, box", 1500, 3800),
    ("Ball bearings 6204 2RS", 350, 1100), ("Welding rods, 5 kg", 2800, 6400),
    ("Conference room booking", 12000, 30000), ("Barcode scanner", 7900, 16900),
    ("Laptop stand, aluminium", 2400, 5900), ("Fire extinguisher service", 4500, 9000),
]  # fmt: skip
RETAIL = [
    ("Latte", 320, 480), ("Cappuccino", 300, 460), ("Croissant", 180, 320), ("Sourdough loaf", 380, 620),
    ("Blueberry muffin", 250, 390), ("Orange juice 1 L", 220, 450), ("Sparkling water", 120, 250),
    ("Bananas 1 kg", 99, 199), ("Free-range eggs, 6", 210, 390), ("Cheddar 200 g", 250, 480),
    ("Pasta fusilli 500 g", 89, 219), ("Tomato sauce jar", 149, 329), ("Notebook A5", 299, 699),
    ("AA batteries 4-pack", 399, 799), ("Toothpaste", 189, 399), ("Hand soap", 149, 349),
    ("Paper towels", 249, 499), ("Green tea", 260, 390), ("Bagel, sesame", 150, 290),
    ("Chocolate bar", 99, 249), ("Olive oil 500 ml", 499, 999), ("Apples 1 kg", 179, 349),
    ("Granola 400 g", 299, 549), ("Greek yogurt", 129, 299), ("Dish sponges, 3 pack", 119, 249),
    ("Ballpoint pens, 10 pack", 249, 599), ("Coffee beans 250 g", 599, 1299), ("Chicken wrap", 449, 699),
    ("Caesar salad", 599, 899), ("Iced tea", 220, 380), ("Rice 1 kg", 149, 329), ("Butter 250 g", 199, 349),
    ("Basil plant", 199, 399), ("Sunscreen SPF 30", 699, 1299), ("Light bulb E27", 299, 699),
]  # fmt: skip
MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
CURRENCIES = ("USD", "EUR", "GBP")
CURRENCY_OF_STYLE = {"us": "USD", "eu": "EUR", "uk": "GBP"}
SLASHED = frozenset({"dmy", "mdy"})
TAXES = [
    (0.20, "VAT 20%"),
    (0.19, "VAT 19%"),
    (0.0825, "Sales tax 8.25%"),
    (0.07, "Tax 7%"),
    (0.21, "VAT 21%"),
]

# ---------------------------------------------------------------------------------------- formats


def format_date(day: dt.date, style: str) -> str:
    if style == "iso":
        return day.isoformat()
    if style == "dmy":
        return f"{day.day:02d}/{day.month:02d}/{day.year}"
    if style == "mdy":
        return f"{day.month:02d}/{day.day:02d}/{day.year}"
    if style == "long":
        return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    if style == "dotted":
        return f"{day.day:02d}.{day.month:02d}.{day.year}"
    if style == "short":
        return f"{day.day} {MONTHS[day.month - 1][:3]} {day.year}"
    raise ValueError(style)


DATE_STYLES = ("iso", "dmy", "mdy", "long", "dotted", "short")


def format_money(cents: int, style: str, currency: str, symbol: bool = True) -> str:
    """An amount as the style prints it; without `symbol`, the number alone (table cells)."""
    whole, fraction = divmod(cents, 100)
    if style == "us":
        body = f"{whole:,}.{fraction:02d}"
        return "$" + body if symbol else body
    if style == "eu":
        body = f"{whole:,}".replace(",", ".") + f",{fraction:02d}"
        return body + " €" if symbol else body
    if style == "uk":
        body = f"{whole}.{fraction:02d}"
        return "£" + body if symbol else body
    if style == "plain":
        return f"{whole}.{fraction:02d}"
    if style == "code":
        body = f"{whole:,}.{fraction:02d}"
        return f"{currency} {body}" if symbol else body
    if style == "spaced":
        body = f"{whole:,}".replace(",", " ") + f",{fraction:02d}"
        return f"{body} {currency}" if symbol else body
    raise ValueError(style)


MONEY_STYLES = ("us", "eu", "uk", "plain", "code", "spaced")


def _pick_date(rng: random.Random, start: dt.date, span: int, unambiguous: bool) -> dt.date:
    """A day in [start, start + span]; with `unambiguous`, one whose day of month is above 12."""
    while True:
        day = start + dt.timedelta(days=rng.randint(0, span))
        if not unambiguous or day.day > 12:
            return day


def _company(rng: random.Random, avoid: str = "") -> str:
    while True:
        name = f"{rng.choice(COMPANY_FIRST)} {rng.choice(COMPANY_SECOND)} {rng.choice(COMPANY_SUFFIX)}"
        if avoid.split(" ")[:1] != name.split(" ")[:1]:
            return name


def _address(rng: random.Random) -> list[str]:
    city, code = rng.choice(CITIES)
    return [
        f"{rng.randint(2, 240)} {rng.choice(STREETS)}",
        f"{code} {city}" if code[0].isdigit() else f"{city} {code}",
    ]


def _phone(rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return f"+44 20 7946 {rng.randint(0, 999):04d}"
    if style == 1:
        return f"+1 ({rng.choice([212, 312, 415, 617])}) 555-01{rng.randint(0, 99):02d}"
    if style == 2:
        return f"+49 30 {rng.randint(100, 999)} {rng.randint(1000, 9999)}"
    return f"07700 900{rng.randint(0, 999):03d}"


def _initials(name: str) -> str:
    return "".join(word[0] for word in name.split()[:2] if word[0].isalpha()).upper()


def _lines_of(
    rng: random.Random, count: int, catalogue: list[tuple[str, int, int]], most: int
) -> list[dict[str, Any]]:
    rows = []
    for description, low, high in rng.sample(catalogue, count):
        quantity = rng.randint(1, most)
        unit = rng.randint(low, high)
        rows.append(
            {"description": description, "quantity": quantity, "unit": unit, "amount": quantity * unit}
        )
    return rows


# ---------------------------------------------------------------------------------------- drawing
A4 = (595.0, 842.0)
LETTER = (612.0, 792.0)
A5 = (420.0, 595.0)
THERMAL = 226.0
BLACK = (0.0, 0.0, 0.0)
GRAY = (0.38, 0.38, 0.38)
LIGHT = (0.9, 0.9, 0.9)
WHITE = (1.0, 1.0, 1.0)
FAMILIES = {"helv": ("helv", "hebo"), "tiro": ("tiro", "tibo"), "cour": ("cour", "cobo")}


@functools.cache
def _font(name: str) -> pymupdf.Font:
    return pymupdf.Font(name)


@functools.cache
def _advance(font: str, character: str) -> float:
    return float(_font(font).glyph_advance(ord(character)))


class Canvas:
    """Pages of one PDF in one font family, embedded (so the euro sign prints), text placed by baseline.

    Each page is drawn through one shape, committed when another page is drawn on: its drawings go
    into the content stream first, then its text in the order written.
    """

    def __init__(self, family: str, size: tuple[float, float]) -> None:
        self.document = pymupdf.open()
        self.regular, self.bold = FAMILIES[family]
        self.width, self.height = size
        self.page_count = 0
        self.shape: pymupdf.Shape | None = None

    def new_page(self, height: float | None = None) -> None:
        self._commit()
        page = self.document.new_page(width=self.width, height=height or self.height)
        page.insert_font(fontname="FR", fontbuffer=_font(self.regular).buffer)
        page.insert_font(fontname="FB", fontbuffer=_font(self.bold).buffer)
        self.page_count += 1
        self.shape = page.new_shape()

    def use(self, index: int) -> None:
        self._commit()
        self.shape = self.document[index].new_shape()

    def _commit(self) -> None:
        if self.shape is not None:
            self.shape.commit()
            self.shape = None

    def _drawing(self) -> pymupdf.Shape:
        assert self.shape is not None, "no page to draw on"
        return self.shape

    def measure(self, text: str, size: float, bold: bool = False) -> float:
        name = self.bold if bold else self.regular
        return size * sum(_advance(name, character) for character in text)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 10,
        bold: bool = False,
        align: str = "left",
        color: tuple[float, float, float] = BLACK,
        fit: float | None = None,
    ) -> float:
        """Writes `text` with its baseline at y, x its left, right or centre; a `fit` width shrinks the
        font until it fits. Returns the width written."""
        width = self.measure(text, size, bold)
        if fit is not None and width > fit:
            size = size * fit / width
            width = self.measure(text, size, bold)
        if align == "right":
            x -= width
        elif align == "center":
            x -= width / 2
        self._drawing().insert_text((x, y), text, fontsize=size, fontname="FB" if bold else "FR", color=color)
        return width

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: tuple[float, float, float] | None = None,
        stroke: tuple[float, float, float] | None = BLACK,
        width: float = 0.6,
    ) -> None:
        shape = self._drawing()
        shape.draw_rect(pymupdf.Rect(x0, y0, x1, y1))
        shape.finish(color=stroke, fill=fill, width=width)

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.6) -> None:
        shape = self._drawing()
        shape.draw_line(pymupdf.Point(x0, y0), pymupdf.Point(x1, y1))
        shape.finish(color=BLACK, width=width)

    def checkbox(self, x: float, y: float, checked: bool, size: float = 9) -> None:
        """A drawn square whose bottom-left corner is at (x, y + 1), an X inside when checked."""
        self.rect(x, y - size + 1, x + size, y + 1, width=0.7)
        if checked:
            self.text(x + size / 2, y - 0.5, "X", size - 1, bold=True, align="center")

    def tobytes(self) -> bytes:
        self._commit()
        self.document.set_metadata({})
        self.document.subset_fonts()
        content = bytes(self.document.tobytes(garbage=4, deflate=True, no_new_id=True))
        self.document.close()
        return content


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    width: float
    align: str  # left | right


# ---------------------------------------------------------------------------------------- layouts
@dataclass(frozen=True)
class Layout:
    """How a kind's document is drawn; the variants of a layout draw money and date styles from it."""

    family: str  # helv | tiro | cour
    fields: str  # colon | right | above | grid | boxes | underline | table | thermal lines
    table: str  # ruled | rows | plain | (receipts: lines | stacked | columns)
    money: tuple[str, ...]
    dates: tuple[str, ...]
    header: str = "logo"  # logo | centered | banner | plain
    columns: tuple[str, ...] = ("desc", "qty", "unit", "amount")
    size: tuple[float, float] = A4
    pages: int = 1
    items: tuple[int, int] = (2, 7)
    meta_right: bool = False  # the key fields at the top right, the parties at the left
    extra: str = ""
    note: str = ""


LINES = ("line", "desc", "qty", "unit", "amount")
SKUS = ("sku", "desc", "qty", "unit", "amount")
QTY_FIRST = ("qty", "desc", "unit", "amount")
LAYOUTS: dict[str, list[Layout]] = {
    "invoice": [
        Layout("helv", "colon", "ruled", ("us", "uk"), ("iso", "long"), meta_right=True,
               note="logo, label: value at the top right, ruled table"),
        Layout("tiro", "right", "plain", ("eu", "plain"), ("dotted", "dmy"), header="centered",
               note="centred letterhead, right-aligned labels, table without rules"),
        Layout("helv", "above", "rows", ("uk", "us", "eu"), ("long", "mdy", "iso"), header="banner",
               size=LETTER, pages=2, items=(30, 38), note="banner, labels above values, rows ruled, 2 pages"),
        Layout("cour", "grid", "ruled", ("plain", "us"), ("dmy", "iso"), header="plain", columns=LINES,
               note="typewriter, ruled key grid, line numbers"),
        Layout("tiro", "boxes", "plain", ("eu", "code"), ("mdy", "short"), columns=QTY_FIRST,
               pages=2, items=(30, 36), note="boxed fields, quantity first, no rules, 2 pages"),
        Layout("cour", "right", "rows", ("spaced", "uk"), ("dotted", "long"), header="banner",
               meta_right=True, columns=SKUS, note="banner, right labels at top right, SKUs"),
    ],
    "receipt": [
        Layout("cour", "thermal", "lines", ("plain", "eu"), ("iso", "dotted"), header="centered",
               extra="upper", note="till roll, 'qty x item' lines"),
        Layout("helv", "thermal", "stacked", ("uk", "us"), ("dmy", "long"), header="centered",
               note="till roll, item then 'qty @ price' below"),
        Layout("tiro", "colon", "ruled", ("us", "eu", "uk"), ("long", "iso"), header="logo", size=A5,
               columns=("qty", "desc", "amount"), note="A5, label: value, ruled table"),
        Layout("cour", "thermal", "columns", ("us", "plain"), ("mdy", "iso"), header="centered",
               extra="upper", note="till roll, QTY/ITEM/AMOUNT columns"),
        Layout("helv", "grid", "rows", ("eu", "code"), ("dotted", "short"), header="banner",
               columns=("desc", "qty", "unit", "amount"), pages=2, items=(30, 34),
               note="online order receipt, key grid, 2 pages"),
        Layout("tiro", "thermal", "suffix", ("spaced", "eu"), ("short", "dmy"), header="centered",
               note="till roll, 'x2' column, right-aligned total labels"),
    ],
    "purchase_order": [
        Layout("helv", "colon", "ruled", ("us", "eu"), ("iso", "mdy"),
               note="logo, label: value, ruled table"),
        Layout("tiro", "right", "plain", ("uk", "plain"), ("long", "dotted"), header="plain",
               meta_right=True, note="right-aligned labels at top right, no rules"),
        Layout("helv", "grid", "rows", ("us", "uk"), ("dmy", "iso"), header="banner", pages=2,
               items=(30, 36), columns=LINES, note="banner, key grid, 2 pages"),
        Layout("cour", "above", "ruled", ("plain", "eu"), ("iso", "dotted"), header="centered",
               note="typewriter, labels above values"),
        Layout("tiro", "boxes", "ruled", ("code", "us"), ("short", "mdy"), pages=2, items=(30, 36),
               columns=SKUS, note="boxed fields, SKUs, 2 pages"),
        Layout("helv", "colon", "plain", ("spaced", "uk"), ("long", "dmy"), header="centered",
               extra="letter", columns=QTY_FIRST, note="letter: delivery date in a sentence"),
    ],
    "form": [
        Layout("helv", "colon", "brackets", (), ("iso", "dotted"), header="logo", extra="brackets",
               note="label: value, [X] yes [ ] no"),
        Layout("tiro", "boxes", "drawn", (), ("long", "dmy"), header="centered", extra="drawn",
               note="boxed fields, drawn checkboxes"),
        Layout("helv", "underline", "words", (), ("mdy", "iso"), header="banner", extra="words",
               note="right-aligned labels on lines, Yes/No words"),
        Layout("cour", "grid", "radio", (), ("dotted", "long"), header="plain", extra="brackets",
               note="typewriter, ruled key grid, (x) options"),
        Layout("helv", "table", "drawn", (), ("short", "dmy"), header="logo", pages=2, extra="phrase",
               note="ruled field table, split name, 2 pages"),
        Layout("tiro", "above", "radio", (), ("mdy", "long"), header="banner", extra="drawn_yesno",
               note="labels above values, drawn yes/no boxes"),
    ],
}  # fmt: skip


def layout_name(index: int) -> str:
    return f"L{index}"


# ---------------------------------------------------------------------------------------- business page
@dataclass
class Business:
    """What a business document shows, independent of where it goes."""

    title: str
    issuer: str
    issuer_lines: list[str]
    meta: list[tuple[str, str]]
    parties: list[tuple[str, list[str]]]
    columns: list[Column]
    rows: list[list[str]]
    totals: list[tuple[str, str]]
    notes: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    reference: str = ""  # the number shown in the header of a continuation page
    intro: list[str] = field(default_factory=list)  # prose above the table


COLUMN_WIDTHS = {"line": 26.0, "sku": 66.0, "qty": 56.0, "unit": 82.0, "amount": 86.0}


def _columns(keys: tuple[str, ...], titles: dict[str, str], width: float) -> list[Column]:
    fixed = sum(COLUMN_WIDTHS[key] for key in keys if key != "desc")
    return [
        Column(
            key,
            titles[key],
            width - fixed if key == "desc" else COLUMN_WIDTHS[key],
            "left" if key in ("desc", "sku", "line") else "right",
        )
        for key in keys
    ]


def _header(cv: Canvas, doc: Business, style: str, x0: float, x1: float) -> float:
    """The letterhead of the first page; returns the y below it."""
    lines = doc.issuer_lines
    title_width = min(cv.measure(doc.title.upper(), 17, bold=True), (x1 - x0) * 0.45)
    if style == "logo":
        cv.rect(x0, 34, x0 + 38, 72, fill=(0.12, 0.25, 0.45), stroke=None)
        cv.text(x0 + 19, 58, _initials(doc.issuer), 14, bold=True, align="center", color=WHITE)
        cv.text(x0 + 48, 50, doc.issuer, 14, bold=True, fit=x1 - x0 - 48 - title_width - 20)
        for index, line in enumerate(lines):
            cv.text(x0 + 48, 62 + 10 * index, line, 8, color=GRAY)
        cv.text(x1, 56, doc.title.upper(), 17, bold=True, align="right", fit=title_width)
        return 62 + 10 * len(lines) + 22
    if style == "centered":
        middle = (x0 + x1) / 2
        cv.text(middle, 48, doc.issuer, 16, bold=True, align="center", fit=x1 - x0)
        cv.text(middle, 61, " · ".join(lines), 8, align="center", color=GRAY, fit=x1 - x0)
        cv.line(x0, 70, x1, 70, width=1.0)
        cv.text(middle, 90, doc.title, 13, bold=True, align="center")
        return 112
    if style == "banner":
        cv.rect(0, 0, cv.width, 76, fill=(0.15, 0.2, 0.3), stroke=None)
        cv.text(x0, 34, doc.issuer, 15, bold=True, color=WHITE, fit=x1 - x0 - title_width - 20)
        for index, line in enumerate(lines):
            cv.text(x0, 48 + 10 * index, line, 8, color=WHITE)
        cv.text(x1, 42, doc.title.upper(), 17, bold=True, align="right", color=WHITE, fit=title_width)
        return 100
    cv.text(x0, 48, doc.issuer.upper(), 13, bold=True, fit=x1 - x0)
    cv.text(x0, 61, ", ".join(lines), 8.5, fit=x1 - x0)
    cv.line(x0, 69, x1, 69, width=1.4)
    cv.text(x0, 92, doc.title, 14, bold=True)
    return 112


def _fields(
    cv: Canvas, pairs: list[tuple[str, str]], style: str, x: float, y: float, width: float, per_row: int = 4
) -> float:
    """Labelled values from y (the top) in `style`; returns the y below them."""
    size = 9.5 if cv.regular != "cour" else 9
    if style == "colon":
        column = max(cv.measure(label + ":", size) for label, _ in pairs) + 10
        for label, value in pairs:
            cv.text(x, y + 10, label + ":", size)
            cv.text(x + column, y + 10, value, size, fit=width - column)
            y += 14.5
        return y + 6
    if style == "right":
        column = max(cv.measure(label, size - 0.5, bold=True) for label, _ in pairs)
        for label, value in pairs:
            cv.text(x + column, y + 10, label, size - 0.5, bold=True, align="right")
            cv.text(x + column + 9, y + 10, value, size, fit=width - column - 9)
            y += 14.5
        return y + 6
    if style in ("above", "boxes"):
        per_row = min(per_row, len(pairs))
        cell = width / per_row
        for index, (label, value) in enumerate(pairs):
            row, col = divmod(index, per_row)
            left, top = x + col * cell, y + row * 34
            if style == "boxes":
                cv.rect(left, top, left + cell - 6, top + 30)
                left += 4
            cv.text(left, top + 10, label.upper() if style == "above" else label, 7, bold=True, color=GRAY)
            cv.text(left, top + 24, value, 10, fit=cell - 12)
        return y + 34 * ((len(pairs) + per_row - 1) // per_row) + 8
    if style == "grid":
        half = width / 2
        label_width = half * 0.44
        rows = (len(pairs) + 1) // 2
        for index, (label, value) in enumerate(pairs):
            col, row = divmod(index, rows)
            left, top = x + col * half, y + row * 18
            cv.rect(left, top, left + label_width, top + 18, fill=LIGHT)
            cv.rect(left + label_width, top, left + half, top + 18)
            cv.text(left + 4, top + 12.5, label, 8.5, bold=True, fit=label_width - 8)
            cv.text(left + label_width + 4, top + 12.5, value, 9, fit=half - label_width - 8)
        return y + 18 * rows + 12
    raise ValueError(style)


def _parties(
    cv: Canvas, parties: list[tuple[str, list[str]]], style: str, x: float, y: float, width: float
) -> float:
    if not parties:
        return y
    column = width / len(parties)
    bottom = y
    for index, (heading, lines) in enumerate(parties):
        left = x + index * column
        top = y
        if style == "boxes":
            cv.rect(left, top, left + column - 10, top + 16 + 12 * len(lines))
            left += 5
        heading_text = heading + ":" if style == "colon" else heading
        if style == "above":
            cv.text(left, top + 10, heading.upper(), 7, bold=True, color=GRAY)
        else:
            cv.text(left, top + 10, heading_text, 9, bold=True)
        for number, line in enumerate(lines):
            cv.text(left, top + 23 + 12 * number, line, 9.5 if number == 0 else 9, fit=column - 16)
        bottom = max(bottom, top + 23 + 12 * len(lines))
    return bottom + 8


def _row_height(style: str) -> float:
    return 15.0 if style == "plain" else 17.0


def _table_row(
    cv: Canvas, columns: list[Column], cells: list[str], style: str, x: float, y: float, header: bool
) -> float:
    height = _row_height(style)
    size = 8.5 if cv.regular == "cour" else 9
    left = x
    for column, cell in zip(columns, cells, strict=True):
        if style == "ruled":
            cv.rect(left, y, left + column.width, y + height, fill=LIGHT if header else None)
        anchor = left + 4 if column.align == "left" else left + column.width - 4
        cv.text(anchor, y + height - 5, cell, size, bold=header, align=column.align, fit=column.width - 8)
        left += column.width
    if style == "rows":
        cv.line(x, y + height, left, y + height, width=1.0 if header else 0.4)
    elif style == "plain" and header:
        y += 3
    return y + height


def _totals(cv: Canvas, totals: list[tuple[str, str]], style: str, right: float, y: float) -> float:
    y += 10
    label_right = right - 104
    for index, (label, value) in enumerate(totals):
        last = index == len(totals) - 1
        if last and style != "plain":
            cv.line(label_right - 80, y + 2, right, y + 2, width=0.8)
            y += 4
        size = 10.5 if last else 9.5
        cv.text(label_right, y + 11, label, size, bold=last, align="right")
        cv.text(right - 4, y + 11, value, size, bold=last, align="right")
        y += 16
    return y + 6


def render_business(doc: Business, layout: Layout) -> bytes:
    cv = Canvas(layout.family, layout.size)
    margin = 36.0 if layout.size == A5 else 50.0
    x0, x1 = margin, layout.size[0] - margin
    width = x1 - x0
    limit = layout.size[1] - 78
    cv.new_page()
    y = _header(cv, doc, layout.header, x0, x1)
    style = layout.fields
    if layout.meta_right:
        half = width * 0.5
        bottom = _parties(cv, doc.parties, style, x0, y, half - 10)
        y = max(bottom, _fields(cv, doc.meta, style, x0 + half, y, half))
    else:
        y = _fields(cv, doc.meta, style, x0, y, width)
        y = _parties(cv, doc.parties, style, x0, y + 4, width)
    for line in doc.intro:
        cv.text(x0, y + 10, line, 9.5, fit=width)
        y += 14
    y += 8
    columns = _columns(
        tuple(column.key for column in doc.columns), {c.key: c.title for c in doc.columns}, width
    )
    height = _row_height(layout.table)
    titles = [column.title for column in columns]
    y = _table_row(cv, columns, titles, layout.table, x0, y, header=True)
    needed = 30 + 20 * len(doc.totals) + 13 * len(doc.notes)
    # the last rows go over with the totals rather than leave the totals alone on the next page
    page_break = len(doc.rows) - 3 if y + height * len(doc.rows) + needed > limit else None
    for index, row in enumerate(doc.rows):
        if y + height > limit or index == page_break:
            cv.text(x1, y + 14, "Continued on next page", 8, color=GRAY, align="right")
            _continuation(cv, doc, x0, x1)
            y = _table_row(cv, columns, titles, layout.table, x0, 74.0, header=True)
            page_break = None
        y = _table_row(cv, columns, row, layout.table, x0, y, header=False)
    if y + needed > limit:
        _continuation(cv, doc, x0, x1)
        y = 70.0
    y = _totals(cv, doc.totals, layout.table, x1, y)
    for line in doc.notes:
        cv.text(x0, y + 10, line, 8.5, fit=width)
        y += 13
    _footers(cv, doc.footer, x0, x1, numbered=cv.page_count > 1 or layout.header == "banner")
    if cv.page_count != layout.pages:
        raise AssertionError(f"{doc.title} {doc.reference} drew {cv.page_count} pages, not {layout.pages}")
    return cv.tobytes()


def _continuation(cv: Canvas, doc: Business, x0: float, x1: float) -> None:
    cv.new_page()
    cv.text(x0, 50, doc.issuer, 10, bold=True)
    cv.text(x1, 50, f"{doc.title} {doc.reference} (continued)", 9, align="right")
    cv.line(x0, 58, x1, 58)


def _footers(cv: Canvas, footer: list[str], x0: float, x1: float, numbered: bool) -> None:
    total = cv.page_count
    for index in range(total):
        cv.use(index)
        bottom = cv.height
        cv.line(x0, bottom - 60, x1, bottom - 60, width=0.3)
        for number, line in enumerate(footer):
            cv.text(
                (x0 + x1) / 2, bottom - 48 + 10 * number, line, 7, align="center", color=GRAY, fit=x1 - x0
            )
        if numbered:
            cv.text(x1, bottom - 20, f"Page {index + 1} of {total}", 7.5, align="right")


# ---------------------------------------------------------------------------------------- invoices
def _money_and_currency(rng: random.Random, layout: Layout) -> tuple[str, str]:
    style = rng.choice(layout.money)
    return style, CURRENCY_OF_STYLE.get(style) or rng.choice(CURRENCIES)


def _tax_cents(subtotal: int, rate: float) -> int:
    return int(subtotal * rate + 0.5)


def make_invoice(rng: random.Random, layout: Layout) -> tuple[dict[str, Any], bytes]:
    money_style, currency = _money_and_currency(rng, layout)
    date_style = rng.choice(layout.dates)
    unambiguous = date_style in SLASHED
    vendor = _company(rng)
    customer = _company(rng, avoid=vendor)
    items = _lines_of(rng, rng.randint(*layout.items), PRODUCTS, 12)
    subtotal = sum(item["amount"] for item in items)
    rate, tax_label = rng.choice(TAXES)
    tax = _tax_cents(subtotal, rate)
    total = subtotal + tax
    issued = _pick_date(rng, dt.date(2025, 1, 1), 540, unambiguous)
    due = _pick_date(rng, issued + dt.timedelta(days=10), 40, unambiguous) if rng.random() < 0.7 else None
    number = rng.choice(
        [
            f"INV-{issued.year}-{rng.randint(1, 9999):04d}",
            f"{issued.year}/{rng.randint(100, 999)}",
            f"A-{rng.randint(10000, 99999)}",
            f"{rng.randint(100000, 999999)}",
        ]
    )

    def money(cents: int, symbol: bool = True) -> str:
        return format_money(cents, money_style, currency, symbol)

    labels = {
        "number": rng.choice(["Invoice No.", "Invoice #", "Invoice number"]),
        "date": rng.choice(["Invoice date", "Date", "Date of issue"]),
        "due": rng.choice(["Due date", "Payment due", "Due"]),
        "customer": rng.choice(["Bill to", "Customer", "Billed to"]),
        "total": rng.choice(["Total", "Amount due", "Grand total"]),
        "subtotal": rng.choice(["Subtotal", "Net total"]),
    }
    titles = {
        "desc": rng.choice(["Description", "Item"]),
        "qty": rng.choice(["Qty", "Quantity"]),
        "unit": rng.choice(["Unit price", "Rate", "Price"]),
        "amount": rng.choice(["Amount", "Line total", "Total"]),
        "line": "#",
        "sku": "Item code",
    }
    meta = [(labels["number"], number), (labels["date"], format_date(issued, date_style))]
    if due is not None:
        meta.append((labels["due"], format_date(due, date_style)))
    reference = f"PO-{rng.randint(1000, 9999)}"
    meta.append((rng.choice(["Your ref.", "PO reference", "Order ref."]), reference))
    if money_style == "plain":
        meta.append(("Currency", currency))
    customer_address = _address(rng)
    parties = [(labels["customer"], [customer, *customer_address])]
    if rng.random() < 0.4 and not layout.meta_right:
        parties.append(("Ship to", [customer, "Goods inward", _address(rng)[0]]))
    rows = []
    for number_in_list, item in enumerate(items, start=1):
        cells = {
            "line": str(number_in_list),
            "sku": f"{rng.choice('ABCDEFGHKMNP')}{rng.randint(1000, 9999)}-{rng.randint(10, 99)}",
            "desc": item["description"],
            "qty": str(item["quantity"]),
            "unit": money(item["unit"], symbol=False),
            "amount": money(item["amount"], symbol=False),
        }
        rows.append([cells[key] for key in layout.columns])
    totals = [(labels["subtotal"], money(subtotal)), (tax_label, money(tax)), (labels["total"], money(total))]
    notes = []
    if due is None:
        notes.append("Payment terms: due on receipt.")
    else:
        notes.append(f"Payment terms: {(due - issued).days} days net.")
    notes.append(f"Please quote {number} with your payment.")
    if money_style == "plain":
        notes.append(f"All amounts in {currency}.")
    account = f"{rng.randint(1000, 9999)} {rng.randint(1000, 9999)} {rng.randint(10, 99)}"
    iban = f"IBAN GB{rng.randint(10, 99)} NWBK {account}"
    document = Business(
        title="Invoice",
        issuer=vendor,
        issuer_lines=[*_address(rng), f"Tel. {_phone(rng)}"],
        meta=meta,
        parties=parties,
        columns=[Column(key, titles[key], 0, "left") for key in layout.columns],
        rows=rows,
        totals=totals,
        notes=notes,
        footer=[
            f"{vendor} · Registered no. {rng.randint(1000000, 9999999)} · {iban}",
            "Thank you for your business.",
        ],
        reference=number,
    )
    truth = {
        "invoice_number": number,
        "invoice_date": issued.isoformat(),
        "due_date": due.isoformat() if due else None,
        "vendor_name": vendor,
        "customer_name": customer,
        "currency": currency,
        "subtotal": subtotal / 100,
        "tax": tax / 100,
        "total": total / 100,
        "line_items": [
            {
                "description": item["description"],
                "quantity": item["quantity"],
                "unit_price": item["unit"] / 100,
                "amount": item["amount"] / 100,
            }
            for item in items
        ],
    }
    return truth, render_business(document, layout)


# ---------------------------------------------------------------------------------------- purchase orders
def make_purchase_order(rng: random.Random, layout: Layout) -> tuple[dict[str, Any], bytes]:
    money_style, currency = _money_and_currency(rng, layout)
    date_style = rng.choice(layout.dates)
    unambiguous = date_style in SLASHED
    buyer = _company(rng)
    supplier = _company(rng, avoid=buyer)
    items = _lines_of(rng, rng.randint(*layout.items), PRODUCTS, 25)
    subtotal = sum(item["amount"] for item in items)
    rate, tax_label = rng.choice(TAXES)
    tax = _tax_cents(subtotal, rate)
    shipping = rng.choice([0, 0, rng.randint(15, 90) * 100])
    total = subtotal + tax + shipping
    ordered = _pick_date(rng, dt.date(2025, 1, 1), 540, unambiguous)
    delivery = _pick_date(rng, ordered + dt.timedelta(days=7), 45, unambiguous)
    number = rng.choice(
        [
            f"PO-{rng.randint(10000, 99999)}",
            f"{ordered.year}-PO-{rng.randint(100, 999)}",
            f"P{rng.randint(100000, 999999)}",
        ]
    )

    def money(cents: int, symbol: bool = True) -> str:
        return format_money(cents, money_style, currency, symbol)

    labels = {
        "number": rng.choice(["PO Number", "PO #", "Order No.", "Purchase order no."]),
        "date": rng.choice(["Order date", "Date", "Date ordered"]),
        "delivery": rng.choice(["Delivery date", "Deliver by", "Required by"]),
        "supplier": rng.choice(["Supplier", "Vendor", "To"]),
        "total": rng.choice(["Total", "Order total", "Total amount"]),
    }
    titles = {
        "desc": rng.choice(["Description", "Item", "Article"]),
        "qty": rng.choice(["Qty", "Quantity", "Qty ordered"]),
        "unit": rng.choice(["Unit price", "Unit cost", "Price"]),
        "amount": rng.choice(["Amount", "Line total", "Ext. price"]),
        "line": "Line",
        "sku": "Part no.",
    }
    letter = layout.extra == "letter"
    meta = [(labels["number"], number), (labels["date"], format_date(ordered, date_style))]
    if not letter:
        meta.append((labels["delivery"], format_date(delivery, date_style)))
    meta.append(("Requested by", f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}"))
    if money_style == "plain":
        meta.append(("Currency", currency))
    parties = [(labels["supplier"], [supplier, *_address(rng)])]
    if not layout.meta_right:
        parties.append((rng.choice(["Ship to", "Deliver to"]), [buyer, "Receiving dock 2", _address(rng)[0]]))
    intro = []
    if letter:
        intro = [
            f"Dear {supplier},",
            "Please supply the goods listed below under our standard terms and conditions.",
            f"Delivery is required by {format_date(delivery, date_style)} at the address above.",
        ]
    rows = []
    for index, item in enumerate(items, start=1):
        cells = {
            "line": str(index),
            "sku": f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
            "desc": item["description"],
            "qty": str(item["quantity"]),
            "unit": money(item["unit"], symbol=False),
            "amount": money(item["amount"], symbol=False),
        }
        rows.append([cells[key] for key in layout.columns])
    totals = [("Subtotal", money(subtotal)), (tax_label, money(tax))]
    if shipping:
        totals.append(("Shipping", money(shipping)))
    totals.append((labels["total"], money(total)))
    notes = [
        f"Payment terms: net {rng.choice([30, 45, 60])} days.",
        f"Quote {number} on all invoices and delivery notes.",
        f"Authorised by {rng.choice(GIVEN)} {rng.choice(FAMILY)} for the purchasing department.",
    ]
    if money_style == "plain":
        notes.append(f"All prices in {currency}.")
    document = Business(
        title="Purchase Order",
        issuer=buyer,
        issuer_lines=[*_address(rng), f"Tel. {_phone(rng)}"],
        meta=meta,
        parties=parties,
        columns=[Column(key, titles[key], 0, "left") for key in layout.columns],
        rows=rows,
        totals=totals,
        notes=notes,
        footer=[f"{buyer} · Purchasing department · VAT no. {rng.randint(100000000, 999999999)}"],
        reference=number,
        intro=intro,
    )
    truth = {
        "po_number": number,
        "order_date": ordered.isoformat(),
        "buyer": buyer,
        "supplier": supplier,
        "delivery_date": delivery.isoformat(),
        "total": total / 100,
        "line_items": [
            {
                "description": item["description"],
                "quantity": item["quantity"],
                "unit_price": item["unit"] / 100,
                "amount": item["amount"] / 100,
            }
            for item in items
        ],
    }
    return truth, render_business(document, layout)


# ---------------------------------------------------------------------------------------- receipts
def make_receipt(rng: random.Random, layout: Layout) -> tuple[dict[str, Any], bytes]:
    money_style, currency = _money_and_currency(rng, layout)
    date_style = rng.choice(layout.dates)
    merchant = f"{rng.choice(MERCHANT_FIRST)} {rng.choice(MERCHANT_SECOND)}"
    thermal = layout.fields == "thermal"
    count = rng.randint(*layout.items) if not thermal else rng.randint(2, 8)
    items = _lines_of(rng, count, RETAIL, 4)
    subtotal = sum(item["amount"] for item in items)
    rate, tax_label = rng.choice(TAXES)
    included = rng.random() < 0.5
    tax = int(subtotal * rate / (1 + rate) + 0.5) if included else _tax_cents(subtotal, rate)
    total = subtotal if included else subtotal + tax
    day = _pick_date(rng, dt.date(2025, 1, 1), 540, date_style in SLASHED)
    clock = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    method = rng.choice(["cash", "card"])
    number = f"{rng.randint(1, 9999):04d}"
    card = f"{rng.choice(['VISA', 'Mastercard', 'AMEX'])} **** {rng.randint(1000, 9999)}"
    tendered = ((total // 500) + 1) * 500 if method == "cash" else 0

    def money(cents: int, symbol: bool = True) -> str:
        return format_money(cents, money_style, currency, symbol)

    tax_line = (f"incl. {tax_label}" if included else tax_label, money(tax))
    truth = {
        "merchant": merchant,
        "date": day.isoformat(),
        "payment_method": method,
        "total": total / 100,
        "items": [
            {"description": item["description"], "quantity": item["quantity"], "amount": item["amount"] / 100}
            for item in items
        ],
    }
    address = _address(rng)
    if not thermal:
        titles = {"desc": "Item", "qty": rng.choice(["Qty", "Quantity"]), "unit": "Price", "amount": "Amount"}
        rows = []
        for item in items:
            cells = {
                "desc": item["description"],
                "qty": str(item["quantity"]),
                "unit": money(item["unit"], symbol=False),
                "amount": money(item["amount"], symbol=False),
            }
            rows.append([cells[key] for key in layout.columns])
        paid = "Card" if method == "card" else "Cash"
        meta = [
            (rng.choice(["Receipt no.", "Receipt #", "Order no."]), f"R-{day.year}-{number}"),
            (rng.choice(["Date", "Date of purchase"]), f"{format_date(day, date_style)} {clock}"),
            ("Payment method", f"{paid} ({card})" if method == "card" else paid),
        ]
        if layout.fields == "grid":
            meta.append(("Customer", f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}"))
        totals = [
            ("Subtotal", money(subtotal)),
            tax_line,
            (rng.choice(["Total", "Total paid"]), money(total)),
        ]
        notes = ["Keep this receipt as proof of purchase. Returns within 30 days."]
        if method == "cash":
            notes.insert(0, f"Cash tendered {money(tendered)}, change {money(tendered - total)}.")
        document = Business(
            title="Receipt",
            issuer=merchant,
            issuer_lines=address,
            meta=meta,
            parties=[],
            columns=[Column(key, titles[key], 0, "left") for key in layout.columns],
            rows=rows,
            totals=totals,
            notes=notes,
            footer=[f"{merchant} · {', '.join(address)}", "Thank you for shopping with us!"],
            reference=f"R-{day.year}-{number}",
        )
        return truth, render_business(document, layout)
    return truth, _render_thermal(
        rng,
        layout,
        merchant=merchant,
        address=address,
        when=(format_date(day, date_style), clock),
        number=number,
        items=items,
        money=money,
        summary=[("Subtotal", money(subtotal)), tax_line],
        total=money(total),
        payment=(
            [("CARD", money(total)), (card, "")]
            if method == "card"
            else [("CASH", money(tendered)), ("CHANGE", money(tendered - total))]
        ),
    )


def _render_thermal(
    rng: random.Random,
    layout: Layout,
    *,
    merchant: str,
    address: list[str],
    when: tuple[str, str],
    number: str,
    items: list[dict[str, Any]],
    money: Callable[..., str],
    summary: list[tuple[str, str]],
    total: str,
    payment: list[tuple[str, str]],
) -> bytes:
    """A till roll: one column of lines on a narrow page as tall as its content."""
    upper = layout.extra == "upper"
    case: Callable[[str], str] = str.upper if upper else str
    size = 8.5 if layout.family == "cour" else 9
    step = size + 4
    lines: list[tuple[str, list[tuple[str, float, str]], bool]] = []  # kind, [(text, x, align)], bold
    left, right, middle = 12.0, THERMAL - 12, THERMAL / 2

    def add(*cells: tuple[str, float, str], bold: bool = False) -> None:
        lines.append(("text", list(cells), bold))

    def rule() -> None:
        lines.append(("rule", [], False))

    lines.append(("title", [(case(merchant), middle, "center")], True))
    for line in address:
        add((line, middle, "center"))
    add((f"Tel. {_phone(rng)}", middle, "center"))
    rule()
    add((f"{'DATE' if upper else 'Date'} {when[0]}", left, "left"), (when[1], right, "right"))
    add(
        (f"{'RECEIPT' if upper else 'Receipt'} {number}", left, "left"),
        (f"Till {rng.randint(1, 6)}", right, "right"),
    )
    rule()
    if layout.table == "columns":
        add(("QTY", left, "left"), ("ITEM", left + 30, "left"), ("AMOUNT", right, "right"), bold=True)
    for item in items:
        description, quantity = case(item["description"]), item["quantity"]
        amount = money(item["amount"], symbol=False)
        if layout.table == "lines":
            add((f"{quantity} x {description}", left, "left"), (amount, right, "right"))
        elif layout.table == "stacked":
            add((description, left, "left"), (amount, right, "right"))
            add((f"   {quantity} @ {money(item['unit'], symbol=False)}", left, "left"))
        elif layout.table == "columns":
            add(
                (str(quantity), left + 12, "right"),
                (description, left + 30, "left"),
                (amount, right, "right"),
            )
        else:
            add((description, left, "left"), (f"x{quantity}", right - 62, "right"), (amount, right, "right"))
    rule()
    label_x = right - 72 if layout.table == "suffix" else left
    label_align = "right" if layout.table == "suffix" else "left"
    for label, value in summary:
        add((case(label), label_x, label_align), (value, right, "right"))
    lines.append(("total", [(case("Total"), label_x, label_align), (total, right, "right")], True))
    for label, value in payment:
        add(
            (label if upper else label.capitalize() if label.isupper() else label, left, "left"),
            (value, right, "right"),
        )
    rule()
    add((case("Thank you, please come again"), middle, "center"))
    add(
        (
            f"VAT no. GB {rng.randint(100, 999)} {rng.randint(1000, 9999)} {rng.randint(10, 99)}",
            middle,
            "center",
        )
    )

    height = 24 + sum(step + 6 if kind in ("title", "total") else step for kind, _, _ in lines) + 20
    cv = Canvas(layout.family, (THERMAL, height))
    cv.new_page()
    y = 24.0
    for kind, cells, bold in lines:
        if kind == "rule":
            if layout.family == "cour":
                cv.text(middle, y + size, "-" * 34, size, align="center", fit=right - left)
            else:
                cv.line(left, y + step / 2, right, y + step / 2, width=0.5)
            y += step
            continue
        text_size = size + 3 if kind == "title" else size + 1.5 if kind == "total" else size
        extra = 6 if kind in ("title", "total") else 0
        for text, x, align in cells:
            if text:
                cv.text(
                    x, y + text_size + extra / 2, text, text_size, bold=bold, align=align, fit=right - left
                )
        y += step + extra
    return cv.tobytes()


# ---------------------------------------------------------------------------------------- forms
def make_form(rng: random.Random, layout: Layout) -> tuple[dict[str, Any], bytes]:
    date_style = rng.choice(layout.dates)
    unambiguous = date_style in SLASHED
    given, family = rng.choice(GIVEN), rng.choice(FAMILY)
    organisation, title = rng.choice(ORGANISATIONS)
    born = _pick_date(rng, dt.date(1950, 1, 1), 365 * 54, unambiguous)
    signed = _pick_date(rng, dt.date(2025, 1, 1), 540, unambiguous)
    domain = rng.choice(["example.com", "example.org", "example.net", "mail.example"])
    email = rng.choice(
        [f"{given}.{family}@{domain}", f"{given[0]}{family}@{domain}", f"{family}{born.year % 100}@{domain}"]
    )
    email = email.lower()
    phone = _phone(rng)
    plan = rng.choice(["Basic", "Pro", "Enterprise"])
    newsletter, paper = rng.random() < 0.5, rng.random() < 0.5
    truth = {
        "applicant_name": f"{given} {family}",
        "date_of_birth": born.isoformat(),
        "email": email,
        "phone": phone,
        "plan": plan,
        "newsletter": newsletter,
        "paper_statements": paper,
    }
    contact = (f"{rng.choice(GIVEN)} {family if rng.random() < 0.5 else rng.choice(FAMILY)}", _phone(rng))
    labels = {
        "name": rng.choice(["Full name", "Applicant name", "Name of applicant"]),
        "dob": rng.choice(["Date of birth", "Birth date", "DOB"]),
        "email": rng.choice(["Email", "E-mail address", "Email address"]),
        "phone": rng.choice(["Phone", "Telephone", "Mobile number"]),
    }
    if layout.fields == "table":
        personal = [("First name", given), ("Last name", family)]
    else:
        personal = [(labels["name"], f"{given} {family}")]
    personal += [
        (labels["dob"], format_date(born, date_style)),
        (labels["email"], email),
        (labels["phone"], phone),
        *zip(("Address", "City"), _address(rng), strict=True),
    ]
    emergency = [("Contact name", contact[0]), ("Contact phone", contact[1])]
    prices = {
        "Basic": rng.choice([9, 12, 15]),
        "Pro": rng.choice([29, 35, 49]),
        "Enterprise": rng.choice([99, 149]),
    }
    sections = _FormSections(
        organisation=organisation,
        title=title,
        personal=personal,
        emergency=emergency,
        plan=plan,
        prices=prices,
        checks=[
            ("Newsletter", "Send me the monthly newsletter by email", newsletter),
            ("Paper statements", "Send my statements by post", paper),
        ],
        signed=format_date(signed, date_style),
        reference=f"APP-{rng.randint(10000, 99999)}",
        received=format_date(_pick_date(rng, signed, 20, unambiguous), date_style),
    )
    return truth, _render_form(sections, layout)


@dataclass
class _FormSections:
    organisation: str
    title: str
    personal: list[tuple[str, str]]
    emergency: list[tuple[str, str]]
    plan: str
    prices: dict[str, int]
    checks: list[tuple[str, str, bool]]  # short label, phrase, ticked
    signed: str
    reference: str
    received: str


def _form_fields(
    cv: Canvas, pairs: list[tuple[str, str]], style: str, x: float, y: float, width: float
) -> float:
    size = 9 if cv.regular == "cour" else 10
    if style in ("colon", "grid", "above", "boxes"):
        return _fields(cv, pairs, style, x, y, width, per_row=2)
    if style == "underline":
        column = max(cv.measure(label, size, bold=True) for label, _ in pairs)
        for label, value in pairs:
            cv.text(x + column, y + 14, label, size - 0.5, bold=True, align="right")
            cv.line(x + column + 8, y + 17, x + width, y + 17, width=0.4)
            cv.text(x + column + 12, y + 13, value, size, fit=width - column - 16)
            y += 24
        return y + 6
    if style == "table":
        label_width = width * 0.32
        cv.rect(x, y, x + label_width, y + 18, fill=LIGHT)
        cv.rect(x + label_width, y, x + width, y + 18, fill=LIGHT)
        cv.text(x + 4, y + 12.5, "Field", 9, bold=True)
        cv.text(x + label_width + 4, y + 12.5, "Entry", 9, bold=True)
        y += 18
        for label, value in pairs:
            cv.rect(x, y, x + label_width, y + 18)
            cv.rect(x + label_width, y, x + width, y + 18)
            cv.text(x + 4, y + 12.5, label, 9)
            cv.text(x + label_width + 4, y + 12.5, value, 9.5, fit=width - label_width - 8)
            y += 18
        return y + 10
    raise ValueError(style)


def _render_form(form: _FormSections, layout: Layout) -> bytes:
    cv = Canvas(layout.family, layout.size)
    x0, x1 = 50.0, layout.size[0] - 50
    width = x1 - x0
    size = 9 if layout.family == "cour" else 10
    cv.new_page()
    header = Business(form.title, form.organisation, ["Customer services", "PO Box 4410"], [], [], [], [], [])
    y = _header(cv, header, layout.header, x0, x1)
    cv.text(x0, y + 4, "Please complete every section and sign the declaration.", size - 1, color=GRAY)
    y += 16

    def section(heading: str) -> None:
        nonlocal y
        cv.text(x0, y + 14, heading, size + 1.5, bold=True)
        cv.line(x0, y + 18, x1, y + 18, width=0.5)
        y += 26

    section("1. Applicant details")
    y = _form_fields(cv, form.personal, layout.fields, x0, y, width)
    section("2. Emergency contact")
    y = _form_fields(cv, form.emergency, layout.fields, x0, y, width)
    if layout.pages == 2:
        cv.new_page()
        cv.text(x0, 50, f"{form.organisation} · {form.title} (continued)", 9, bold=True)
        cv.line(x0, 58, x1, 58)
        y = 72.0
    section("3. Plan")
    _plan(cv, form, layout, x0, y, size)
    y += 26
    section("4. Preferences")
    for short, phrase, ticked in form.checks:
        _check(cv, layout.extra, short, phrase, ticked, x0, y + 12, size)
        y += 20
    y += 10
    section("5. Declaration")
    cv.text(x0, y + 10, "I confirm that the information given on this form is correct.", size - 1)
    y += 30
    cv.text(x0, y + 10, "Signature:", size)
    cv.line(x0 + 60, y + 12, x0 + 240, y + 12, width=0.4)
    cv.text(x0 + 270, y + 10, f"Date: {form.signed}", size)
    y += 34
    cv.rect(x0, y, x1, y + 44, fill=(0.96, 0.96, 0.96))
    cv.text(x0 + 8, y + 14, "FOR OFFICE USE ONLY", 7.5, bold=True, color=GRAY)
    cv.text(x0 + 8, y + 32, f"Ref. {form.reference}", 8.5, color=GRAY)
    cv.text(x0 + 200, y + 32, f"Received {form.received}", 8.5, color=GRAY)
    footer = [f"{form.organisation} · {form.title} · Form {form.reference[-3:]}/{len(form.title)}"]
    _footers(cv, footer, x0, x1, numbered=layout.pages > 1)
    if cv.page_count != layout.pages:
        raise AssertionError(f"form drew {cv.page_count} pages, not {layout.pages}")
    return cv.tobytes()


def _plan(cv: Canvas, form: _FormSections, layout: Layout, x: float, y: float, size: float) -> None:
    style = layout.table
    options = ["Basic", "Pro", "Enterprise"]
    if style == "words":
        cv.text(x, y + 10, "Selected plan:", size, bold=True)
        cv.text(x + 100, y + 10, form.plan, size)
        cv.text(x + 200, y + 10, f"({form.prices[form.plan]} per month)", size - 1, color=GRAY)
        return
    cv.text(x, y + 10, "Plan:", size, bold=True)
    left = x + 60
    for option in options:
        chosen = option == form.plan
        label = f"{option} ({form.prices[option]}/month)"
        if style == "drawn":
            cv.checkbox(left, y + 10, chosen)
            left += 14 + cv.text(left + 14, y + 10, label, size)
        else:
            mark = ("[X]" if chosen else "[ ]") if style == "brackets" else ("(x)" if chosen else "( )")
            left += cv.text(left, y + 10, f"{mark} {label}", size)
        left += 24


def _check(
    cv: Canvas, style: str, short: str, phrase: str, ticked: bool, x: float, y: float, size: float
) -> None:
    if style == "brackets":
        yes, no = ("[X]", "[ ]") if ticked else ("[ ]", "[X]")
        cv.text(x, y, f"{short}:", size)
        cv.text(x + 130, y, f"{yes} yes   {no} no", size)
    elif style == "drawn":
        cv.checkbox(x, y, ticked)
        cv.text(x + 15, y, phrase, size)
    elif style == "words":
        cv.text(x, y, f"{short}:", size, bold=True)
        cv.text(x + 130, y, "Yes" if ticked else "No", size)
    elif style == "phrase":
        cv.text(x, y, f"{'[X]' if ticked else '[ ]'} {phrase}", size)
    elif style == "drawn_yesno":
        cv.text(x, y, phrase, size)
        cv.checkbox(x + 250, y, ticked)
        cv.text(x + 263, y, "Yes", size)
        cv.checkbox(x + 300, y, not ticked)
        cv.text(x + 313, y, "No", size)
    else:
        raise ValueError(style)


# ---------------------------------------------------------------------------------------- corpus
MAKERS: dict[str, Callable[[random.Random, Layout], tuple[dict[str, Any], bytes]]] = {
    "invoice": make_invoice,
    "receipt": make_receipt,
    "purchase_order": make_purchase_order,
    "form": make_form,
}


@functools.cache
def _samples(seed: int) -> tuple[Sample, ...]:
    made = []
    for variant in range(VARIANTS):  # interleaved, so that the first N samples cover every layout
        for kind in KINDS:
            for index, layout in enumerate(LAYOUTS[kind]):
                rng = random.Random(f"{seed}/{kind}/{index}/{variant}")
                truth, pdf = MAKERS[kind](rng, layout)
                made.append(
                    Sample(
                        name=f"{kind}-{layout_name(index)}-{variant:02d}",
                        kind=kind,
                        layout=layout_name(index),
                        held_out=index >= TUNING_LAYOUTS,
                        pdf=pdf,
                        schema=SCHEMAS[kind],
                        truth=truth,
                    )
                )
    return tuple(made)


def samples(seed: int = 2026) -> list[Sample]:
    return list(_samples(seed))


def page_count(pdf: bytes) -> int:
    with pymupdf.open(stream=pdf, filetype="pdf") as document:
        return int(document.page_count)


def packets(seed: int = 2026) -> list[Packet]:
    """PACKETS PDFs of 2 to 6 documents each; every third is made of held-out layouts only."""
    pool = samples(seed)
    rng = random.Random(f"{seed}/packets")
    made = []
    for index in range(PACKETS):
        held_out = index % 3 == 2
        count = rng.randint(2, 6)
        chosen: list[Sample] = []
        while len(chosen) < count:
            kind = rng.choice(KINDS)
            candidates = [s for s in pool if s.kind == kind and s.held_out == held_out and s not in chosen]
            chosen.append(rng.choice(candidates))
        truth: list[tuple[str, list[int]]] = []
        with pymupdf.open() as packet:
            for sample in chosen:
                first = packet.page_count + 1
                with pymupdf.open(stream=sample.pdf, filetype="pdf") as source:
                    packet.insert_pdf(source)
                truth.append((sample.kind, list(range(first, packet.page_count + 1))))
            packet.set_metadata({})
            content = bytes(packet.tobytes(garbage=4, deflate=True, no_new_id=True))
        made.append(Packet(name=f"packet-{index:02d}", pdf=content, truth=truth, held_out=held_out))
    return made


# ---------------------------------------------------------------------------------------- checks
def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, f"{path}[]")
    else:
        yield path, value


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).casefold()


def _printed(value: Any, text: str) -> bool:
    """Whether a truth value shows in the page text in one of the ways the generator prints it."""
    if isinstance(value, bool) or value is None:
        return True  # ticks and absent dates: seen on the rendered pages
    if isinstance(value, int | float):
        cents = round(value * 100)
        forms = {str(value)} if isinstance(value, int) else set()
        for style in MONEY_STYLES:
            for currency in CURRENCIES:
                forms.add(format_money(cents, style, currency, symbol=False))
        return any(re.search(rf"(?<![\d.,]){re.escape(form)}(?![\d]|[.,]\d)", text) for form in forms)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        day = dt.date.fromisoformat(value)
        return any(format_date(day, style) in text for style in DATE_STYLES)
    if value in CURRENCIES:
        return value in text or {"USD": "$", "EUR": "€", "GBP": "£"}[value] in text
    return all(word.casefold() in _squeeze(text) for word in value.split())


def check(seed: int) -> list[str]:
    """Problems found: bytes that differ between two builds, truth values not printed."""
    problems = []
    first = [(s.name, hashlib.sha256(s.pdf).hexdigest()) for s in samples(seed)]
    _samples.cache_clear()
    second = [(s.name, hashlib.sha256(s.pdf).hexdigest()) for s in samples(seed)]
    problems += [f"{a[0]}: not deterministic" for a, b in zip(first, second, strict=True) if a != b]
    if [hashlib.sha256(p.pdf).digest() for p in packets(seed)] != [
        hashlib.sha256(p.pdf).digest() for p in packets(seed)
    ]:
        problems.append("packets: not deterministic")
    for sample in samples(seed):
        with pymupdf.open(stream=sample.pdf, filetype="pdf") as document:
            text = "\n".join(page.get_text() for page in document)
        for path, value in _leaves(sample.truth):
            if not _printed(value, text):
                problems.append(f"{sample.name}: {path} = {value!r} is not printed")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, help="write the PDFs and their truth here")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--check", action="store_true", help="check determinism and printed truth")
    args = parser.parse_args(argv)
    corpus, bundles = samples(args.seed), packets(args.seed)
    pages = sum(page_count(s.pdf) for s in corpus)
    print(f"{len(corpus)} documents ({pages} pages), {len(bundles)} packets")
    for kind in KINDS:
        for index, layout in enumerate(LAYOUTS[kind]):
            split = "held out" if index >= TUNING_LAYOUTS else "tuning"
            print(f"  {kind:15} {layout_name(index)}  {split:8}  {layout.note}")
    if args.out is not None:
        (args.out / "samples").mkdir(parents=True, exist_ok=True)
        (args.out / "packets").mkdir(parents=True, exist_ok=True)
        (args.out / "schemas.json").write_text(json.dumps(SCHEMAS, indent=2) + "\n")
        for sample in corpus:
            (args.out / "samples" / f"{sample.name}.pdf").write_bytes(sample.pdf)
            record = {
                "kind": sample.kind,
                "layout": sample.layout,
                "held_out": sample.held_out,
                "truth": sample.truth,
            }
            (args.out / "samples" / f"{sample.name}.json").write_text(
                json.dumps(record, indent=2, ensure_ascii=False)
            )
        for bundle in bundles:
            (args.out / "packets" / f"{bundle.name}.pdf").write_bytes(bundle.pdf)
            record = {
                "held_out": bundle.held_out,
                "truth": [{"kind": k, "pages": p} for k, p in bundle.truth],
            }
            (args.out / "packets" / f"{bundle.name}.json").write_text(json.dumps(record, indent=2))
        print(f"written to {args.out}")
    if args.check:
        problems = check(args.seed)
        for problem in problems:
            print("PROBLEM", problem)
        print("check:", "ok" if not problems else f"{len(problems)} problems")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
