"""What the console's document viewer makes of a parse's page text and of an extraction's sources."""

from __future__ import annotations

from typing import Any

from console.pages.files import Block, SourcedField, extraction_fields, page_boxes, page_text
from docsvc.domain.intelligence import ResultRecord, ResultUsage
from docsvc.domain.parses import FileSummary, ParseOutput, ParseRecord

SUMMARY = FileSummary(id="file_1", filename="a.pdf", mime_type="application/pdf")


def parse(pages: list[str], table_format: str = "markdown") -> ParseRecord:
    return ParseRecord(
        id="parse_1",
        environment="test",
        file=SUMMARY,
        model="docsvc-parse-1",
        table_parsing_format=table_format,  # type: ignore[arg-type]
        image_resolution_dpi=150,
        instructions=None,
        status="completed",
        created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z",
        output=ParseOutput(pages=pages),
    )


def extraction(output: Any, sources: Any) -> ResultRecord:
    return ResultRecord(
        id="extr_1",
        object="extraction",
        environment="test",
        file=SUMMARY,
        model="docsvc-extract-1",
        output=output,
        sources=sources,
        usage=ResultUsage(page_count=2, credits=2, cached=False),
        created_at="2026-01-01T00:00:00Z",
    )


def box(page: int, left: float, top: float) -> dict[str, Any]:
    anchor = {"kind": "pdf_bbox", "page": page, "left": left, "top": top, "width": 0.1, "height": 0.02}
    return {"content": "x", "anchor": anchor}


def test_a_pages_markdown_tables_become_tables_between_its_paragraphs() -> None:
    text = "Prices\n\nValid in March\n| Item | Price |\n|---|---|\n| A \\| B | 3.20 |\nPrices include VAT."

    blocks = page_text(parse(["first page", text]), 2)

    assert blocks == [
        Block("text", "Prices"),
        Block("text", "Valid in March"),
        Block("table", header=("Item", "Price"), rows=(("A | B", "3.20"),)),
        Block("text", "Prices include VAT."),
    ]
    assert page_text(parse(["first page"]), 2) is None


def test_text_of_another_table_format_is_shown_as_it_is() -> None:
    text = "| not | a table here |"
    assert page_text(parse([text], table_format="html"), 1) == [Block("text", text)]


def test_every_leaf_of_an_extraction_is_numbered_with_its_page_and_box() -> None:
    sources = {
        "number": {"value": "INV-1", "source": box(1, 0.25, 0.5), "likelihood": 1.0},
        "lines": [
            {"amount": {"value": 12.5, "source": box(2, 0.5, 0.125), "likelihood": 0.9}},
            {
                "amount": {
                    "value": 3,
                    "source": {"content": "3", "anchor": {"kind": "text", "page": 2}},
                    "likelihood": 0.9,
                }
            },
        ],
        "po": {"value": None, "source": None, "likelihood": 0.0},
    }

    fields = extraction_fields(extraction({}, sources))

    assert fields == [
        SourcedField(1, "number", "INV-1", 1, (250.0, 500.0, 100.0, 20.0)),
        SourcedField(2, "lines[0].amount", "12.5", 2, (500.0, 125.0, 100.0, 20.0)),
        SourcedField(3, "lines[1].amount", "3", 2, None),
        SourcedField(4, "po", "", None, None),
    ]
    assert [field.number for field in page_boxes(fields, 2)] == [2]


def test_an_extraction_stored_without_sources_lists_its_values_without_pages() -> None:
    fields = extraction_fields(extraction({"number": "INV-1", "lines": [{"amount": 2}]}, None))

    assert fields == [
        SourcedField(1, "number", "INV-1", None, None),
        SourcedField(2, "lines[0].amount", "2", None, None),
    ]
