"""A label that says in brackets which known label it is ("Référence de la commande (n° facture)"), and a
row of column keys with a cell that holds a label and its own value ("| Téléphone : 06 12 34 56 78 | N°
FACTURE | DATE |"). Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Référence de la commande (n° facture)", ("invoice", "number")),
        ("Order ref (invoice date)", ("invoice", "date")),
    ],
)
def test_an_unknown_label_is_the_known_label_its_brackets_say(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Customer (VAT number)", ("customer", "vat", "id")),  # a known label outside: kept as printed
        ("Grand Total (USD)", ("grand", "total", "usd")),  # a currency in brackets is no label
        ("Delivery note (copy)", ("delivery", "note", "copy")),  # nothing known in brackets
    ],
)
def test_a_label_keeps_its_key_when_its_brackets_name_no_other_label(
    label: str, key: tuple[str, ...]
) -> None:
    assert label_key(label) == key


def test_order_reference_said_to_be_the_invoice_number_gives_the_number() -> None:
    page = "\n".join(
        [
            "Atelier Dupont SAS",
            "Date de la commande et de facturation : 12 mars 2025",
            "Référence de la commande (n° facture) : 558201202503",
            "Montant total (HT) : 100.00€",
            "TVA (20%) : 20.00€",
            "Total 120.00€",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "558201202503"


def test_a_phone_with_its_label_in_a_row_of_keys_leaves_the_keys_over_their_values() -> None:
    page = "\n".join(
        [
            "| Téléphone : 06 12 34 56 78 | N° FACTURE | DATE |",
            "|---|---|---|",
            "|  | 2034 | 4/11/2023 |",
            "",
            "TOTAL 547.31 €",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "2034"
    assert output["invoice_date"] == "2023-11-04"


def test_a_cell_with_a_label_and_its_value_heads_nothing_below_it() -> None:
    page = "\n".join(
        [
            "| Phone: 555 0100 | Invoice No | Date |",
            "|---|---|---|",
            "| 77 Main Street | INV-88 | 2024-05-02 |",
            "",
            "Total 10.00 USD",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "INV-88"
    assert output["invoice_date"] == "2024-05-02"


def test_an_items_description_on_a_second_line_does_not_make_the_table_a_row_of_keys() -> None:
    page = "\n".join(
        [
            "| Produit | Quantité | Prix unitaire HT | Total HT |",
            "|---|---|---|---|",
            "| Abonnement | 1 | 129,00 € | 129,00 € |",
            "| Abonnement mensuel |  |  |  |",
            "| Frais de lancement | 1 | 300,00 € | 300,00 € |",
            "",
            "Total",
            "514,80 €",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["net_total"] is None  # no labelled net: the first item's amount is none
