"""A letterhead that opens with its address (a floor of a building, a post-office box) and prints the
company's name further down: the address's lines are no name. Every document here is written for the
test."""

from __future__ import annotations

from docsvc.intelligence.extraction import extract

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


def _invoice(first_lines: list[str]) -> str:
    return "\n".join(
        [
            *first_lines,
            "T : +254 700 000111",
            "info@example.co.ke",
            "",
            "INVOICE",
            "",
            "Jua Systems Ltd",
            "",
            "CLIENT",
            "AMANI MWANGI",
            "Email: amani@example.com",
            "",
            "Invoice #: INV0042",
            "Invoice Date: 15/01/2026",
            "",
            "TOTAL:",
            "KSh 1,184.92",
        ]
    )


def test_a_letterhead_opening_with_a_floor_and_a_po_box_leaves_the_issuer_to_its_company_name() -> None:
    page = _invoice(["4th Floor, Kilimo House, Ngong Road", "P.O Box 12345 - 00100, Nairobi-Kenya."])
    assert extract([page], SCHEMA).output["issuer"]["name"] == "Jua Systems Ltd"


def test_a_letterhead_opening_with_a_po_box_is_no_name() -> None:
    page = _invoice(["P.O. Box 4455, Nairobi"])
    assert extract([page], SCHEMA).output["issuer"]["name"] == "Jua Systems Ltd"
