"""A line of the sender's address parts under the document's total is its footer, no sender's line over an
address window: the issuer stays the letterhead's."""

from docsvc.intelligence.extraction import extract
from docsvc.intelligence.matching import _names_the_total

SCHEMA = {
    "type": "object",
    "properties": {
        "total": {"type": ["number", "null"]},
        "issuer": {
            "type": ["object", "null"],
            "properties": {"name": {"type": ["string", "null"]}, "address": {"type": ["string", "null"]}},
        },
    },
}

PAGE = "\n".join(
    [
        "Die Vordefinierte Firma Tel: +49 (030) 41092-0",
        "Waldstrasse 86-90 Fax: +49 (030) 41092-111",
        "13403 Berlin email: info@vordefiniert.de",
        "",
        "Rechnung",
        "Belegnummer: 90005178",
        "",
        "Position Material Menge Betrag",
        "10 M-01 5 ST 8.150,00",
        "",
        "Total Before Tax",
        "8.150,00",
        "",
        "Total Amount (DEM)",
        "9.698,50",
        "",
        "Hauptstrasse 16 ·D-60318 Frankfurt/M · Postfach 16 05 29 D-60070 Frankfurt/M · Telefon (0 69) 99-0",
    ]
)


def test_an_address_line_under_the_total_is_no_sender_line_and_the_letterhead_names_the_issuer() -> None:
    output = extract([PAGE], SCHEMA).output
    assert output["issuer"]["name"] == "Die Vordefinierte Firma"
    assert "Postfach" not in (output["issuer"]["address"] or "")


def test_a_sender_line_over_the_address_window_still_names_the_issuer() -> None:
    page = (
        "Bei Spiel GmbH • Ecke 12 • 12345 Stadthausen\nTheodor Est\nBahnhofstr. 1\n54321 Dorf\n\n"
        "Rechnung Nr. RE-1\nGesamtbetrag: 119,00 €"
    )
    assert extract([page], SCHEMA).output["issuer"]["name"] == "Bei Spiel GmbH"


def test_a_total_is_named_by_its_label_a_bracketed_currency_or_the_amount_after_it_aside() -> None:
    assert _names_the_total("Total Amount (DEM)")
    assert _names_the_total("Brutto: 104,00 €")
    assert _names_the_total("| Gesamtbetrag | 571,04 |")
    assert _names_the_total("Total 12,00 €")
    assert not _names_the_total("Total Before Tax")
    assert not _names_the_total("Bei Spiel GmbH • Ecke 12 • 12345 Stadthausen")


def test_a_footer_line_under_the_total_that_opens_with_the_companys_name_still_names_the_issuer() -> None:
    page = "\n".join(
        [
            "This document shows the electronic invoice held in its XML; it checks nothing of it.",
            "",
            "Rechnungsnummer: 6063636771001",
            "Gesamtbetrag Brutto: 655,38 €",
            "",
            "Lieferant GmbH & Co. KG - 98765 Lieferantenstadt - T +49 (0)7891 11-0 - F +49 (0)7891 11-1000",
        ]
    )
    assert extract([page], SCHEMA).output["issuer"]["name"] == "Lieferant GmbH & Co. KG"
