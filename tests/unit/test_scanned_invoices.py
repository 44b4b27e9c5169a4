"""Invoices read by OCR from a scan, as the built-in extractor gets them: each page as the lines its
words are printed on, labels and values without the wide spacing of a text layer between them, and
digits OCR may misread. Every document here is written for the test."""

from __future__ import annotations

from typing import Any

from docsvc.domain import answers
from docsvc.domain.documents import MIMEData
from docsvc.domain.intelligence import DocumentTask, IntelligenceService, ResultRecord
from docsvc.domain.models import ModelCatalog
from docsvc.domain.parses import FileSummary, ReadDocument
from docsvc.intelligence.extraction import extract
from docsvc.tenancy import Tenant

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


def test_an_amount_ocr_printed_one_digit_off_is_read_as_the_two_others_make_it() -> None:
    page = "Rechnungssumme ohne USt.    177,9\nSteuerbetrag    20,16\nBruttosumme    197,65"

    result = extract([page], AMOUNTS)

    assert result.output == {"total": 197.65, "net_total": 177.49, "tax_total": 20.16}
    assert 0.7 <= result.likelihoods["net_total"] < 0.9
    assert result.likelihoods["total"] >= 0.9 and result.likelihoods["tax_total"] >= 0.9


def test_amounts_that_do_not_add_up_and_are_not_one_digit_off_are_not_corrected() -> None:
    page = "Rechnungssumme ohne USt.    -1,67\nSteuerbetrag    112\nBruttosumme    -8,79"

    result = extract([page], AMOUNTS)

    assert result.output["tax_total"] == 112.0
    assert result.likelihoods["net_total"] < 0.9 and result.likelihoods["tax_total"] < 0.9


def test_a_total_that_net_and_tax_do_not_make_gives_way_to_one_they_make() -> None:
    page = "\n".join(
        [
            "Amount — Product Price    Total",
            "1.00 Design (hours) 160.00 €    160.00 €",
            "400.00 Ballons: various colors 0.79 €    316.00 €",
            "800.00 Hot air (litres) 0.025 €    20.00 €",
            "Net total: 496.00 €",
            "VAT total: 75.04 €",
            "Due payable: 571.04 €",
        ]
    )

    result = extract([page], AMOUNTS)

    assert result.output == {"total": 571.04, "net_total": 496.0, "tax_total": 75.04}


def test_a_value_read_on_a_page_ocr_was_unsure_of_is_less_likely_unless_a_check_confirms_it() -> None:
    schema = {
        "type": "object",
        "properties": {
            **AMOUNTS["properties"],
            "invoice_number": {"type": "string"},
            "iban": {"type": "string"},
        },
    }
    page = "\n".join(
        [
            "Invoice number: 4711",
            "IBAN: DE02 1203 0000 0000 2020 51",
            "Net total: 100.00",
            "VAT: 19.00",
            "Total: 119.00",
        ]
    )

    sure = extract([page], schema, ocr_confidence=[93.0]).likelihoods
    unsure = extract([page], schema, ocr_confidence=[75.0]).likelihoods
    text_layer = extract([page], schema).likelihoods

    assert sure == text_layer
    assert unsure["invoice_number"] < 0.9 <= text_layer["invoice_number"]
    assert {path: unsure[path] for path in ("iban", "total", "net_total", "tax_total")} == {
        path: text_layer[path] for path in ("iban", "total", "net_total", "tax_total")
    }


def test_a_second_label_after_a_number_on_the_same_line_starts_a_pair_of_its_own() -> None:
    page = "\n".join(
        [
            "Totaal ex BTW: 533,06",
            "Kortingspercentage: 2,00% Totaal te betalen: 716,88",
        ]
    )

    assert extract([page], AMOUNTS).output["total"] == 716.88


class _ReadOnce:
    """The one method of the ParseService an extraction calls: the document as read, here a page OCR
    read with `confidence` (None: a page with a text layer)."""

    def __init__(self, page: str, confidence: float | None) -> None:
        self.document = ReadDocument(
            file=FileSummary(id=None, filename="scan.pdf", mime_type="application/pdf"),
            pages=[page],
            cached=False,
            ocr_confidence=[confidence],
        )

    def read(self, tenant: Tenant, document: Any, **_: Any) -> ReadDocument:
        return self.document


class _Results:
    def __init__(self) -> None:
        self.stored: list[ResultRecord] = []

    def put(self, tenant: Tenant, record: ResultRecord, charge: Any) -> None:
        self.stored.append(record)


def test_an_extraction_weighs_its_values_by_the_confidence_ocr_read_its_pages_with() -> None:
    page = "Invoice number: 4711\nTotal: 119.00"
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}
    task = DocumentTask(document=MIMEData(filename="scan.pdf", url="data:application/pdf;base64,JVBERg=="))

    def likelihood(confidence: float | None) -> float:
        results = _Results()
        service = IntelligenceService(
            _ReadOnce(page, confidence),  # type: ignore[arg-type]
            results,  # type: ignore[arg-type]
            ModelCatalog(),
            ledger=None,  # type: ignore[arg-type]
        )
        record = service.answer(
            Tenant("org_scans", "test"), "extraction", task, answers.extraction(schema, None)
        )
        assert record.output == {"invoice_number": "4711"} and results.stored == [record]
        return (record.likelihoods or {})["invoice_number"]

    assert likelihood(70.0) < 0.9 <= likelihood(None) == likelihood(95.0)


def test_a_column_heading_over_rows_of_amounts_is_no_label_of_the_first_rows_amount() -> None:
    page = "\n".join(
        [
            "Descricao    Quantidade    Preco Unitario    Total",
            "Tarifa Basica    1    R$ 30.00    R$ 30.00",
            "Consumo (kWh)    250    R$ 0.75    R$ 187.50",
            "Taxa de Iluminacao Publica    1    R$ 5.00    R$ 5.00",
            "",
            "Total Geral:    R$ 222.50",
        ]
    )

    result = extract([page], {"type": "object", "properties": {"total": {"type": "number"}}})

    assert result.output == {"total": 222.5}


def test_headings_over_one_row_of_values_still_name_them() -> None:
    page = "Invoice No.    Date    Total\nA-17    01/07/2024    99.00"

    result = extract([page], {"type": "object", "properties": {"total": {"type": "number"}}})

    assert result.output == {"total": 99.0}
