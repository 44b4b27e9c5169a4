"""A tax id printed with its own label in a form no known one has (a country whose form is not known,
a sample's id of a wrong length) is the party's tax id, below any id of a known form; a German tax
number with its slashes and a date are none. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import unformed_tax_id

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "total": {"type": ["number", "null"]},
        "issuer": {
            "type": ["object", "null"],
            "properties": {"name": {"type": ["string", "null"]}, "vat_id": {"type": ["string", "null"]}},
        },
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
    },
}


def _invoice(*party: str) -> str:
    return "\n".join(["Invoice", "Invoice number: 2041", "", "Seller", *party, "", "Total: 120.00"])


def test_a_labelled_tax_id_in_no_known_form_is_the_issuers_vat_id() -> None:
    page = _invoice("Comercial Lapacho S.A.", "Avda. Mariscal López 1234", "VAT ID: 80012345-6")

    assert extract([page], SCHEMA).output["issuer"]["vat_id"] == "80012345-6"


def test_a_tax_id_of_a_known_form_wins_over_one_in_no_known_form() -> None:
    page = _invoice("Muster GmbH", "Hauptstr. 1", "Tax ID: 12 3456 7890", "VAT ID: DE136695976")

    assert extract([page], SCHEMA).output["issuer"]["vat_id"] == "DE136695976"


def test_a_tax_number_with_slashes_is_no_vat_id() -> None:
    page = _invoice("Muster GmbH", "Hauptstr. 1", "VAT ID: 201/113/40209")

    assert extract([page], SCHEMA).output["issuer"]["vat_id"] is None


def test_a_date_or_a_short_number_is_no_tax_id() -> None:
    assert unformed_tax_id("12.03.2024") is None
    assert unformed_tax_id("12345") is None
    assert unformed_tax_id("#T3011502011134") == "T3011502011134"
