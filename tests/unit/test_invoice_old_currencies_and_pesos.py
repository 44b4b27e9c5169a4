"""The currencies the euro replaced, and the peso a bare "$" stands for on a page of its country."""

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.values import currency_of

SCHEMA = {
    "type": "object",
    "properties": {
        "currency": {"type": ["string", "null"]},
        "total": {"type": ["number", "null"]},
    },
}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Total Before Tax 32.838,00\nTotal Tax 4.925,70\nTotal Amount (DEM)\n37.763,70", "DEM"),
        ("Montant TTC : 1 250,00 FRF", "FRF"),
        ("Totaal 450,00 NLG", "NLG"),
        ("Totale ITL 1.250.000", "ITL"),
    ],
)
def test_a_currency_the_euro_replaced_is_read_by_its_code(text: str, code: str) -> None:
    assert currency_of([text]) == code


def test_a_country_code_shaped_like_an_old_currency_names_none() -> None:
    assert currency_of(["Country: ESP\nTotal 12,00"]) is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("EUROPAN\nDIRECCION: CALLE ALEMANIA 842\nCOMUNA: RENGO\nTOTAL: $5940", "CLP"),
        ("R.U.T.: 76.123.456-7\nTotal $ 12.000", "CLP"),
        ("Montevideo, Uruguay\nRUT: 21 123456 0012\nTotal $ 1.250,00", "UYU"),
        ("C.U.I.T.: 20-12345678-9\nTotal $ 100,00", "ARS"),
        ("RFC: XAXX010101000\nTotal $ 10.00", "MXN"),
        ("Bogotá, Colombia\nTotal $ 30.850", "COP"),
    ],
)
def test_a_bare_dollar_sign_on_a_page_of_a_peso_country_is_its_peso(text: str, code: str) -> None:
    assert currency_of([text]) == code


@pytest.mark.parametrize(
    "text",
    [
        "Albuquerque, New Mexico 87101\nTotal $ 12.00",
        "Implements RFC 3339 timestamps\nTotal $ 12.00",
        "Shipped to Chile\nTotal USD 12.00\nPaid $ 12.00",
        "Offices in Chile and Argentina\nTotal $ 12.00",
    ],
)
def test_a_bare_dollar_sign_stays_american_without_one_peso_country_shown(text: str) -> None:
    assert currency_of([text]) == "USD"


def test_a_chilean_receipt_in_whole_pesos_gives_clp_and_its_total() -> None:
    text = "EUROPAN\nCOMUNA: RENGO\nFOLIO: 7\nHallulla $2.040\nBerlin $2.400\nTOTAL: $4.440"
    output = extract([text], SCHEMA).output
    assert output["currency"] == "CLP"
    assert output["total"] == 4440
