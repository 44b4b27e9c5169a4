"""Peruvian sales slips whose amounts carry the sol's "S/", whose number is printed under a title set on
two lines and whose seller's label in the foot names a salesperson; customers labelled "Señor(es)" and
"Facture pour". Every document here is written for the test."""

from __future__ import annotations

import copy

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import currency_of, parse_number

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("OP. GRAVADAS:", ("net", "total")),
        ("Operaciones gravadas", ("net", "total")),
        ("I.G.V.", ("tax",)),
        ("Señor(es) :", ("customer",)),
        ("Sres.:", ("customer",)),
        ("Facture pour :", ("customer",)),
    ],
)
def test_peruvian_and_french_labels_are_said_in_english(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


@pytest.mark.parametrize(
    ("text", "amount"), [("S/ 380.00", 380.0), ("S/. 1,250.50", 1250.5), ("S/75.90", 75.9)]
)
def test_the_sols_sign_before_an_amount_names_the_sol(text: str, amount: float) -> None:
    assert currency_of([f"TOTAL A PAGAR: {text}"]) == "PEN"
    assert parse_number(text) == (amount, 1.0)


def test_soles_written_out_name_the_sol() -> None:
    assert currency_of(["SON: CIENTO VEINTE CON 00/100 SOLES"]) == "PEN"


_SLIP = [
    "ANDES COMERCIAL S.A.C.",
    "RUC: 20123456789",
    "AV. EL SOL NRO. 120 CUSCO - CUSCO",
    "BOLETA DE VENTA",
    "ELECTRÓNICA",
    "B002-00001234",
    "FECHA DE EMISIÓN: 2024-05-10",
    "CLIENTE: QUISPE MAMANI, ROSA",
    "OP. GRAVADAS: S/ 100.00",
    "IGV: S/ 18.00",
    "TOTAL A PAGAR: S/ 118.00",
    "CONDICIÓN DE PAGO: Contado",
    "Vendedor: Cajero",
]


def test_a_sales_slip_reads_its_number_under_a_two_line_title_and_its_amounts_in_soles() -> None:
    output = extract(["\n\n".join(_SLIP)], SCHEMA).output
    assert output["invoice_number"] == "B002-00001234"
    assert output["currency"] == "PEN"
    assert (output["total"], output["net_total"], output["tax_total"]) == (118.0, 100.0, 18.0)


def test_a_seller_label_below_the_total_names_a_salesperson_not_the_issuer() -> None:
    output = extract(["\n\n".join(_SLIP)], SCHEMA).output
    assert output["issuer"]["name"] == "ANDES COMERCIAL S.A.C."


def test_a_seller_label_above_the_total_still_names_the_issuer() -> None:
    page = "\n\n".join(["FACTURA", "F001-00000077", "Vendedor: Ferretería Lima S.A.C.", "TOTAL: S/ 50.00"])
    assert extract([page], SCHEMA).output["issuer"]["name"] == "Ferretería Lima S.A.C."


def test_a_customer_labelled_senores_or_facture_pour_is_read() -> None:
    slip = "\n".join(
        ["Boleta de venta", "Fecha de emisión : 18/06/2018", "Señor(es) : Ana Torres Vega", "Total 44.53"]
    )
    assert extract([slip], SCHEMA).output["customer"]["name"] == "Ana Torres Vega"
    facture = "\n\n".join(["Pharmacie Centrale", "Facture pour :", "Marie Curie", "Total : 20.0 €"])
    assert extract([facture], SCHEMA).output["customer"]["name"] == "Marie Curie"


def test_a_party_label_whose_name_is_a_picture_takes_no_heading_or_title_for_a_name() -> None:
    page = "\n\n".join(
        [
            "Vevő",
            "Számla (Minta)",
            "Sorszám",
            "6/2008",
            "Szállító",
            "Számla kelte",
            "Mennyiség",
            "Megnevezés",
            "Fizetendő végösszeg: 96 360 Ft",
        ]
    )
    output = extract([page], SCHEMA).output
    assert (output.get("issuer") or {}).get("name") is None
    assert (output.get("customer") or {}).get("name") is None


def test_a_letterhead_name_set_apart_from_its_tax_number_by_a_dash_is_the_issuer() -> None:
    page = "\n".join(
        [
            "Boleta de venta",
            "1.",
            "FloresLima - RUC: 20556106985",
            "Fecha de emisión : 18/06/2018",
            "Señor(es) : Ana Torres Vega",
            "Total 44.53",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["issuer"]["name"] == "FloresLima"
    assert output["issuer"]["vat_id"] == "20556106985"


def test_a_rule_of_dashes_under_a_party_is_no_address() -> None:
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["customer"]["properties"]["address"] = {"type": ["string", "null"]}
    page = "\n".join(
        [
            "FloresLima - RUC: 20556106985",
            "Fecha de emisión : 18/06/2018",
            "Señor(es) : Ana Torres Vega",
            "D.N.I : 72423009",
            "-" * 60,
        ]
    )
    customer = extract([page], schema).output["customer"]
    assert customer["name"] == "Ana Torres Vega"
    assert customer.get("address") is None
