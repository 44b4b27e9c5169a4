"""The address block over a letter's greeting is whom an invoice is for when no label names the customer,
even when the page opens with it and prints no letterhead."""

import pytest
from docsvc.intelligence.extraction import extract

SCHEMA = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
    },
}


def _page(greeting: str) -> str:
    return (
        "Kunden AG Mitte\nKundenstraße 15\nDE 69876 Frankfurt\n\nInvoice R-2024/00001\n\n"
        f"Invoice Date 31.12.2024\n\n{greeting}\n\n"
        "We take the liberty of invoicing you for the following items\n\n"
        "| Pos. | Description | Qty | Amount |\n|---|---|---|---|\n"
        "| 1 | Trennblätter A4 | 20 | 198.00 EUR |\n\n"
        "Gross Total 198.00 EUR"
    )


@pytest.mark.parametrize(
    "greeting", ["Dear customer,", "Sehr geehrte Damen und Herren,", "Madame, Monsieur,"]
)
def test_the_address_block_over_a_letters_greeting_is_the_customers(greeting: str) -> None:
    output = extract([_page(greeting)], SCHEMA).output
    assert (output["customer"] or {}).get("name") == "Kunden AG Mitte"


def test_without_a_greeting_the_page_opening_address_block_names_no_customer() -> None:
    output = extract([_page("")], SCHEMA).output
    assert (output["customer"] or {}).get("name") is None


def test_a_greeting_in_a_sentence_marks_no_addressee() -> None:
    page = _page("").replace(
        "We take the liberty", "Dear customers of ours who paid on time, we thank you and take the liberty"
    )
    assert (extract([page], SCHEMA).output["customer"] or {}).get("name") is None
