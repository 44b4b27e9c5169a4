"""A Venezuelan factura set in TeX (its accents drawn as glyphs of their own, its sums in one cell in
bolívares, its customer's block printed twice, dot leaders between two labelled values), a German
invoice's footer printed in columns and read row by row, and a letterhead with the date under it.
Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import currency_of, with_accents_joined

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA

CUSTOMER_BLOCK = [
    "Datos del cliente",
    "Razón social: Ferretería Los Andes C.A. . . . . . . . . . . . . . . . . R.I.F.: J-40123456-7",
    "Dirección fiscal: Av. Bolívar, Mérida, Venezuela",
]
FACTURA = "\n".join(
    [
        "Jos\u00b4e P\u00b4erez Mu\u02dcnoz",
        "Av. Urdaneta, Qta. Los Pinos, Caracas, Venezuela.",
        "RIF: V-12.345.678-9",
        "Fecha de emisión: 02-07-2022",
        "FACTURA Nº 000123",
        *CUSTOMER_BLOCK,
        "",
        *CUSTOMER_BLOCK,  # drawn twice over itself: the text layer holds it twice
        "",
        "| Cantidad | Descripción | Precio U. (Bs.) | Precio T. (Bs.) |",
        "|---|---|---|---|",
        "| 2 | Tornillos | G 500,00 | G 1.000,00 |",
        "| Subtotal G Bs.1.000,00 Descuento G (10 %) Bs.100,00 IVA G (16 %) Bs.144,00 "
        "TOTAL Bs.1.044,00 |  |  |  |",
    ]
)


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("RIF:", ("vat", "id")),
        ("R.I.F.:", ("vat", "id")),
        ("Razón social", ("name",)),
        ("Raison sociale", ("name",)),
        ("Datos del cliente", ("customer",)),
    ],
)
def test_venezuelan_and_company_name_labels_are_said_in_english(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


def test_an_accent_drawn_before_its_letter_is_one_letter_with_it() -> None:
    drawn = "L\u00b4azaro, Tel\u00b4efono, Ma\u02dcnana, \u00b4\u0131, na\u00a8\u0131ve"
    assert with_accents_joined(drawn) == "Lázaro, Teléfono, Mañana, í, naïve"
    assert with_accents_joined("5\u00b4 = 5 min") == "5\u00b4 = 5 min"  # no letter after it: kept


def test_the_bolivar_sign_names_its_currency_and_the_factura_answers_it() -> None:
    assert currency_of(["TOTAL Bs.1.836,80"]) == "VES"
    assert extract([FACTURA], SCHEMA).output["currency"] == "VES"


def test_a_cell_of_sums_in_bolivares_gives_the_total() -> None:
    assert extract([FACTURA], SCHEMA).output["total"] == 1044.0


def test_the_factura_reads_its_parties_with_their_accents_and_the_issuers_rif() -> None:
    output = extract([FACTURA], SCHEMA).output
    assert output["issuer"] == {"name": "José Pérez Muñoz", "vat_id": "V-12.345.678-9"}
    assert output["customer"]["name"] == "Ferretería Los Andes C.A."


def test_spaced_dot_leaders_end_a_value_before_the_next_label() -> None:
    page = "Factura 12\nCliente\nRazón social: Ferretería Los Andes . . . . . . . . R.I.F.: J-40123456-7"
    assert extract([page], SCHEMA).output["customer"]["name"] == "Ferretería Los Andes"


def test_a_footer_in_columns_read_row_by_row_gives_the_issuers_vat_id_under_its_bare_label() -> None:
    page = "\n".join(
        [
            "Rechnung Nr. 2014-03",
            "Muster Flugzeugbau GmbH",
            "Sitz der Gesellschaft",
            "USt-IdNr",
            "Sparkasse Musterstadt",
            "GF Erika Muster",
            "Musterstadt HRB 12345",
            "DE123456789",  # its check digit does not hold (a sample's): only its label says what it is
            "IBAN DE02120300000000202051",
        ]
    )
    assert extract([page], SCHEMA).output["issuer"]["vat_id"] == "DE123456789"


def test_a_date_under_a_letterhead_is_the_invoices_date_and_no_line_of_its_address() -> None:
    schema = {
        **SCHEMA,
        "properties": {
            **SCHEMA["properties"],
            "issuer": {
                "type": ["object", "null"],
                "properties": {"name": {"type": ["string", "null"]}, "address": {"type": ["string", "null"]}},
            },
        },
    }
    page = "\n".join(
        [
            "Nimbus Ltda.",
            "Setembro, 23, 2016",
            "",
            "| Total | Nome | Quantidade |",
            "|---|---|---|",
            "| $ 50.00 | XYZ | 12 |",
            "",
            "Cobrança para:",
            "Maria Souza <maria@example.com>",
        ]
    )
    output = extract([page], schema).output
    assert output["invoice_date"] == "2016-09-23"
    assert output["issuer"]["address"] != "Setembro, 23, 2016"
    assert output["customer"]["name"] == "Maria Souza"


def test_a_name_after_its_colon_wrapped_into_a_block_of_its_own_goes_on_there() -> None:
    page = (
        "Factura 12\n\nCLIENTE\n\nRazón Social: Fideicomiso inmobiliario Las Palmas\n\nresidencial del norte"
    )
    assert extract([page], SCHEMA).output["customer"]["name"] == (
        "Fideicomiso inmobiliario Las Palmas residencial del norte"
    )
