"""A total's line that prints the net, the tax and the gross with no label of their own ("Razem
473,15 37,85 511,00"), the Polish title "Faktura VAT" before the invoice's number, and the tax number
"NIT" of Spanish-speaking America. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


def _polish_invoice(sums: str) -> str:
    return "\n".join(
        [
            "Optyk Przykład Sp. z o.o.",
            "ul. Długa 5, 31-154 Kraków",
            "",
            "Kraków, 15.05.2021",
            "",
            "Faktura VAT 0123/21/ 4567",
            "Forma płatności    Gotówka",
            "",
            "Soczewka okularowa    szt    1    120,00    8    9,60    129,60",
            "Oprawka    szt    1    100,00    8    8,00    108,00",
            sums,
            "Do zapłaty    237,60    PLN",
        ]
    )


def test_a_totals_line_of_three_unlabelled_sums_gives_the_net_the_tax_and_the_gross() -> None:
    output = extract([_polish_invoice("Razem    220,00    17,60    237,60")], SCHEMA).output
    assert (output["net_total"], output["tax_total"], output["total"]) == (220.0, 17.6, 237.6)


def test_marks_a_scan_leaves_after_the_sums_are_no_part_of_them() -> None:
    output = extract([_polish_invoice("Razem    220,00    17,60)    237,60")], SCHEMA).output
    assert (output["net_total"], output["tax_total"], output["total"]) == (220.0, 17.6, 237.6)


def test_three_sums_that_do_not_add_up_are_no_net_tax_and_gross() -> None:
    output = extract([_polish_invoice("Razem    3    10,00    237,60")], SCHEMA).output
    assert (output["net_total"], output["tax_total"]) == (None, None)


def test_the_polish_title_faktura_vat_is_no_part_of_the_number_after_it() -> None:
    output = extract([_polish_invoice("Razem    220,00    17,60    237,60")], SCHEMA).output
    assert output["invoice_number"] == "0123/21/ 4567"


@pytest.mark.parametrize(("label", "key"), [("Faktura VAT", ("invoice",)), ("NIT:", ("vat", "id"))])
def test_polish_and_latin_american_labels_are_said_in_english(label: str, key: tuple[str, ...]) -> None:
    assert label_key(label) == key


def test_a_colombian_issuers_nit_is_its_tax_id() -> None:
    page = "\n".join(
        [
            "SUPERMERCADOS EJEMPLO S.A.",
            "NIT: 900.123.456-7",
            "Calle 10 No. 5-20, Bogotá",
            "",
            "FACTURA ELECTRÓNICA DE VENTA No: FE-1001",
            "Fecha: 2024-09-05",
            "",
            "TOTAL A PAGAR COP    30,850.00",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["issuer"]["vat_id"] == "900.123.456-7"
    assert output["currency"] == "COP"


def test_summary_labels_stacked_in_one_cell_beside_their_stacked_amounts_are_each_paired() -> None:
    page = "\n".join(
        [
            "SUPERMERCADOS EJEMPLO S.A.",
            "FACTURA ELECTRÓNICA DE VENTA No: FE-1001",
            "",
            "| SON: TREINTA MIL PESOS | TOTAL CANTIDAD: | 3.00 | SUBTOTAL IVA 19.00% | 25,210.08 4,789.92 |",
            "|---|---|---|---|---|",
            "| OBSERVACIONES | TOTAL UNIDADES: | 3.00 | TOTAL FACTURA | 30,000.00 |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert (output["net_total"], output["tax_total"], output["total"]) == (25210.08, 4789.92, 30000.0)


def test_summary_rows_in_columns_the_items_leave_empty_keep_their_columns() -> None:
    items = [
        f"| {n} | KOD-{n} | Ürün {n} | 1 | 100,00 TL | %0,00 |  | 0,00 TL | %20,00 | 20,00 TL |  "
        "| 100,00 TL |"
        for n in range(1, 21)
    ]
    sums = [
        "|  |  |  |  |  |  | Mal Hizmet Toplam Tutarı |  |  |  | 2.000,00 TL |  |",  # noqa: RUF001
        "|  |  |  |  |  |  | Hesaplanan KDV(%20) |  |  |  | 400,00 TL |  |",
        "|  |  |  |  |  |  | Vergiler Dahil Toplam Tutar |  |  |  | 2.400,00 TL |  |",
    ]
    page = "\n".join([items[0], "|---|---|---|---|---|---|---|---|---|---|---|---|", *items[1:], *sums])
    output = extract([page], SCHEMA).output
    assert (output["net_total"], output["tax_total"], output["total"]) == (2000.0, 400.0, 2400.0)
