"""French labels of further invoices, and a street printed with its kind of way first: "Facture doit"
printed as a title (an invoice owed by whom it names), "Doit à" before the customer, "Montant total HT"
as the net total, and "Av. Paulista, 1000" as an address's line, not the issuer's name. Every document
here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import DOCUMENT_TITLES, SYNONYM_GROUPS, label_key

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Doit à :", ("customer",)),
        ("Montant total HT", ("net", "total")),
    ],
)
def test_french_labels_are_said_as_their_group(label: str, key: tuple[str, ...]) -> None:
    said = label_key(label)
    assert said == key or any(said in group and key in group for group in SYNONYM_GROUPS)


def test_facture_doit_is_a_document_title() -> None:
    assert label_key("Facture doit") in DOCUMENT_TITLES


def test_facture_doit_title_is_not_taken_for_the_issuer() -> None:
    page = "\n".join(
        ["Facture doit", "Boutique Rivage", "12 rue Haute", "Client", "Marc Petit", "Total TTC : 240.00 €"]
    )
    assert extract([page], SCHEMA).output["issuer"]["name"] == "Boutique Rivage"


def test_customer_is_read_after_doit_a() -> None:
    page = "\n".join(
        ["Facture N° : 7", "Doit à : Boulangerie Diallo", "Date : 03 février 2019", "Total 1500"]
    )
    assert extract([page], SCHEMA).output["customer"]["name"] == "Boulangerie Diallo"


def test_montant_total_ht_is_the_net_total_not_the_total() -> None:
    page = "\n".join(
        [
            "Facture 55",
            "Date : 12/03/2020",
            "Montant total HT : 200.00 €",
            "Total taxes : 40.00 €",
            "Total TTC : 240.00 €",
        ]
    )
    output = extract([page], SCHEMA).output
    assert (output["net_total"], output["total"]) == (200.0, 240.0)


@pytest.mark.parametrize(
    ("street", "name"),
    [
        ("AV GOV LEONEL BRIZOLA, 354 - BOA VISTA", "PADARIA PAO QUENTE LTDA"),
        ("Rua das Flores, 120", "Padaria Pão Quente"),
        ("Calle Mayor 12", "Taller Ruiz"),
        ("Jr. Candelaria Nro. 180", "Bodega Lucía"),
    ],
)
def test_a_street_printed_way_first_is_not_taken_for_the_issuer(street: str, name: str) -> None:
    page = "\n".join([street, name, "Fatura 12", "Cliente: Ana Souza", "Total: 50,00"])
    assert extract([page], SCHEMA).output["issuer"]["name"] == name
