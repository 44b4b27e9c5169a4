"""Invoices read by OCR from a scan, as the built-in extractor gets them: each page as the lines its
words are printed on, labels and values without the wide spacing of a text layer between them, and
digits OCR may misread. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

from docsvc.intelligence.extraction import extract

AMOUNTS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "total": {"type": "number"},
        "net_total": {"type": "number"},
        "tax_total": {"type": "number"},
    },
}


def test_a_label_run_into_its_amount_without_wide_spacing_names_it() -> None:
    page = "\n".join(
        [
            "Pos. Artikelbeschreibung Menge Preis Betrag",
            "1 Superdrachen 2 20,00 40,00",
            "Rechnungssumme netto 845,00",
            "zuzüglich 19% MwSt. 160,55",
            "Rechnungssumme brutto 1.005,55",
        ]
    )

    result = extract([page], AMOUNTS)

    assert result.output == {"total": 1005.55, "net_total": 845.0, "tax_total": 160.55}
    assert min(result.likelihoods.values()) >= 0.9
