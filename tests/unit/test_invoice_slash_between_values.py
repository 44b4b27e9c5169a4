"""A line that runs two labelled values together with a slash between them ("Facture F7 du 26-05-2019 /
Date d'échéance: 27-05-2019"): the label after the slash is read with its value; a slash between two
labels of one value, or inside a value, parts nothing. Every document here is written for the test."""

from __future__ import annotations

from docsvc.intelligence.extraction import extract
from docsvc.intelligence.lines import segments

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


def test_a_label_after_a_slash_that_ends_a_value_starts_a_piece_of_its_own() -> None:
    line = "Facture F7 du 26-05-2019 / Date d'échéance: 27-05-2019"
    assert [piece for _, piece in segments(line)] == [
        "Facture F7 du 26-05-2019",
        "Date d'échéance: 27-05-2019",
    ]


def test_the_pieces_keep_their_offsets_in_the_line() -> None:
    line = "Invoice 42 of 01/02/2024 / Due date: 15/02/2024"
    assert all(line[start : start + len(piece)] == piece for start, piece in segments(line))


def test_a_slash_between_labels_or_inside_a_value_parts_nothing() -> None:
    assert len(segments("Rechnungsdatum / Invoice date: 01.02.2024")) == 1
    assert len(segments("Period: 12 / 2024")) == 1


def test_the_due_date_after_a_slash_is_read() -> None:
    page = "\n".join(
        [
            "Boutique Rivage",
            "Facture F7 du 26-05-2019 / Date d'échéance: 27-05-2019",
            "Total TTC : 240.00 €",
        ]
    )
    output = extract([page], SCHEMA).output
    assert (output["invoice_date"], output["due_date"]) == ("2019-05-26", "2019-05-27")
