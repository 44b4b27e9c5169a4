"""Totals said "with VAT", a tax said "VAT Paid", and a tax identifier that is no tax amount."""

from docsvc.intelligence.extraction import extract

SCHEMA = {
    "type": "object",
    "properties": {
        "total": {"type": ["number", "null"]},
        "tax_total": {"type": ["number", "null"]},
    },
}


def test_a_total_paid_with_vat_is_the_total_and_vat_paid_the_tax() -> None:
    text = (
        "INVOICE\nDescription\nQuantity\nSubtotal\nGarden chair\n2\n120 EUR\nTotal without VAT\n120 EUR\n"
        "VAT Rate\n20%\nVAT Paid\n24 EUR\nTotal paid with VAT\n144 EUR"
    )
    output = extract([text], SCHEMA).output
    assert output["total"] == 144.0
    assert output["tax_total"] == 24.0


def test_a_total_with_tax_is_the_total_and_tax_paid_the_tax() -> None:
    text = "INVOICE\nConsulting\n500.00 USD\nTax paid\n50.00 USD\nTotal with tax\n550.00 USD"
    output = extract([text], SCHEMA).output
    assert output["total"] == 550.0
    assert output["tax_total"] == 50.0


def test_a_tax_identifier_is_no_tax_amount() -> None:
    text = "INVOICE\nBill To:\nJane Roe\nTax Identifier:\n918273645501\nConsulting\n500.00 USD"
    assert extract([text], SCHEMA).output["tax_total"] is None
