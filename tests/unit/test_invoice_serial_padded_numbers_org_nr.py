"""Labels and a number convention of further invoices: the English "Invoice Serial #" and "Taxable
Total", the Swedish organisation number printed beside "VAT No", the Portuguese labels of a DANFE
("Data da emissão", "Data da saída/entrada", "Venc."), and Brazil's NF-e number printed zero-padded in
groups of three. Every document here is written for the test."""

from __future__ import annotations

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.identifiers import reference_code
from docsvc.intelligence.labels import SYNONYM_GROUPS, label_key

from tests.unit.test_invoice_labels_sl_ro_mx_au import SCHEMA


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Invoice Serial #:", ("invoice", "number")),
        ("Taxable Total", ("subtotal",)),
        ("Total Taxable Value", ("subtotal",)),
        ("Org.nr / VAT No:", ("vat", "id")),
        ("Organisationsnummer:", ("vat", "id")),
        ("DATA DA EMISSÃO", ("invoice", "date")),
        ("DATA DA SAÍDA/ENTRADA", ("delivery", "date")),
        ("Venc.", ("due", "date")),
        ("IDENTIFICAÇÃO DO EMITENTE", ("vendor",)),
    ],
)
def test_further_labels_are_said_as_their_group(label: str, key: tuple[str, ...]) -> None:
    said = label_key(label)
    assert said == key or any(said in group and key in group for group in SYNONYM_GROUPS)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("000.043.445", "43445"),
        ("000,001,452", "1452"),
        ("001.234.567", "1234567"),
        ("012.345", "012.345"),  # one group: a code as printed
        ("1.234.567", "1.234.567"),  # not padded
        ("0001234", "0001234"),  # padded but not grouped: kept as printed
        ("000.043,445", "000.043,445"),  # two separators: no grouping
    ],
)
def test_a_padded_number_printed_in_groups_of_three_is_the_number_it_pads(text: str, code: str) -> None:
    assert reference_code(text) == code


def test_danfe_number_is_read_without_its_padding() -> None:
    page = "\n".join(
        [
            "DANFE",
            "Documento Auxiliar da Nota Fiscal Eletrônica",
            "Nº 000.043.445",
            "DATA DA EMISSÃO 03/06/2025",
        ]
    )
    assert extract([page], SCHEMA).output["invoice_number"] == "43445"


def test_ticket_invoice_reads_its_serial_number_and_taxable_total() -> None:
    page = "\n".join(
        [
            "Conference Publications",
            "Invoice Serial #:",
            "",
            "431186/154",
            "Invoice Date: May 03, 2024",
            "| Item(s) | QTY | Value of Tickets Sold (INR) |",
            "|---|---|---|",
            "| Student Member | 1 | 7750.0 |",
            "| Taxable Total |  | 7750.0 |",
            "| Total Invoice Amount |  | 7750.0 |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["invoice_number"] == "431186/154"
    assert (output["net_total"], output["total"]) == (7750.0, 7750.0)


def test_bilingual_swedish_invoice_takes_the_sellers_org_number_over_the_buyers_vat() -> None:
    page = "\n".join(
        [
            "HANDELSFAKTURA / COMMERCIAL INVOICE",
            "| Säljare / Seller: | Nordic Parts AB | Fakturanummer / Invoice No: | INV-77 |",
            "|---|---|---|---|",
            "| Org.nr / VAT No: | SE556012345601 | Fakturadatum / Invoice Date: | 2026-03-01 |",
            "| Köpare / Buyer: | Handel GmbH |  |  |",
            "| VAT No: | DE123456789 |  |  |",
        ]
    )
    output = extract([page], SCHEMA).output
    assert output["issuer"]["vat_id"] == "SE556012345601"


def test_danfe_reads_its_issue_date_over_its_exit_date_and_the_due_date_of_its_duplicata() -> None:
    page = "\n".join(
        [
            "DANFE",
            "Nº. 000.043.445",
            "| NOME / RAZÃO SOCIAL PADARIA BOA LTDA | CNPJ / CPF 01.755.085/0001-80 "
            "| DATA DA EMISSÃO 03/06/2025 |",
            "|---|---|---|",
            "| ENDEREÇO RUA A, 735 | CEP 60000-000 | DATA DA SAÍDA/ENTRADA 04/06/2025 |",
            "FATURA / DUPLICATA",
            "Num.",
            "001",
            "Venc.",
            "18/06/2025",
            "Valor",
            "R$ 500,00",
        ]
    )
    output = extract([page], SCHEMA).output
    assert (output["invoice_date"], output["due_date"]) == ("2025-06-03", "2025-06-18")


@pytest.mark.parametrize("text", ["03/06/2025", "2025-06-03 Série 001", "18.06.2025"])
def test_a_date_is_no_reference_code(text: str) -> None:
    assert reference_code(text) is None


def _ticket_pages(foot: str) -> list[str]:
    first = ["Conference Publications", "Invoice Serial #:", "", "431186/154", "Invoice Date: May 03, 2024",
             "Total Invoice Amount 7750.0", foot + " 1/2"]  # fmt: skip
    second = ["Ticketing Platform Pvt. Ltd.", "Tax Invoice", "Total Invoice Amount: 182.90", foot + " 2/2"]
    return ["\n".join(first), "\n".join(second)]


def test_a_titles_count_of_the_pages_it_is_printed_on_is_no_number() -> None:
    assert extract(_ticket_pages("Invoice"), SCHEMA).output["invoice_number"] == "431186/154"


def test_a_titles_count_that_is_not_the_pages_is_still_its_number() -> None:
    page = "\n".join(["Acme Sp. z o.o.", "Faktura 3/12", "Data: 2024-12-05", "Razem 100,00"])
    assert extract([page], SCHEMA).output["invoice_number"] == "3/12"
