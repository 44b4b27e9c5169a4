"""The built-in research agent: documents where extraction alone misses fields (a value on the page
after its label, in a sentence, only in a table, only in a lookup table), found by its tool calls,
within the step and call limits, with a trace of every call."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pymupdf
import pytest
from docsvc.documents.engine import parse_pages
from docsvc.documents.engine.model import ParseOptions
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.research import Research, TraceStep, research
from jsonschema import Draft202012Validator

TOOLS = {"extract", "search_text", "read_page", "read_table", "lookup_table", "finish"}
MAYBE_TEXT: dict[str, Any] = {"type": ["string", "null"]}
MAYBE_NUMBER: dict[str, Any] = {"type": ["number", "null"]}
MAYBE_DATE: dict[str, Any] = {"type": ["string", "null"], "format": "date"}

POLICY_PAGES = [
    "Northwind Insurance plc\nPolicy schedule\n\n"
    "This agreement terminates on 31 March 2027 unless renewed.\n"
    "The monthly premium payable is EUR 1,250.00 by direct debit.\n\n"
    "Policy number",
    "PX-778120\n\n| Covered risk | Limit (EUR) |\n|---|---|\n| Fire | 500,000.00 |\n| Theft | 50,000.00 |",
]
POLICY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "policy_number": MAYBE_TEXT,
        "termination_date": {**MAYBE_DATE, "description": "Date the contract ends"},
        "monthly_premium": MAYBE_NUMBER,
        "insurer_name": MAYBE_TEXT,
        "insurer_id": {
            **MAYBE_TEXT,
            "description": "Insurer id looked up in the insurer master data by insurer name",
        },
    },
}


def checked(
    found: Research, json_schema: dict[str, Any], num_agentic_steps: int = 7, max_tool_calls: int = 3
) -> None:
    """What every research must hold: valid predictions, a trace within the limits that starts with the
    extraction and ends with a finish, summaries short."""
    assert list(Draft202012Validator(json_schema).iter_errors(found.predictions)) == []
    assert all(0.0 <= likelihood <= 1.0 for likelihood in found.likelihoods.values())
    trace = found.trace
    assert trace[0].tool == "extract" and trace[0].step == 1
    assert trace[-1].tool == "finish" and sum(entry.tool == "finish" for entry in trace) == 1
    assert {entry.tool for entry in trace} <= TOOLS
    steps = [entry.step for entry in trace]
    assert steps == sorted(steps) and 1 <= steps[-1] <= num_agentic_steps
    calls = Counter(entry.step for entry in trace if entry.tool not in {"extract", "finish"})
    assert all(count <= max_tool_calls for count in calls.values())
    assert 1 not in calls  # the first step is the extraction alone
    for entry in trace:
        assert isinstance(entry, TraceStep) and entry.duration_ms >= 0
        assert 0 < len(entry.output_summary) <= 200 and "\n" not in entry.output_summary


def tools_of(found: Research) -> list[str]:
    return [entry.tool for entry in found.trace]


# ---------------------------------------------------------------------------------------- text pages
def test_extraction_alone_misses_what_research_finds() -> None:
    first = extract(POLICY_PAGES, POLICY_SCHEMA)
    assert first.output["policy_number"] is None
    assert first.output["termination_date"] is None
    assert first.output["monthly_premium"] is None

    found = research(POLICY_PAGES, POLICY_SCHEMA)

    checked(found, POLICY_SCHEMA)
    assert found.predictions["policy_number"] == "PX-778120"  # the label ends page 1, its value starts page 2
    assert found.predictions["termination_date"] == "2027-03-31"  # in a sentence, normalised to ISO
    assert found.predictions["monthly_premium"] == 1250.0  # in a sentence, a number
    assert found.predictions["insurer_id"] is None  # no lookup given
    assert 0 < found.likelihoods["policy_number"] < 1


def test_trace_records_each_call_with_its_arguments() -> None:
    found = research(POLICY_PAGES, POLICY_SCHEMA)

    searches = [entry for entry in found.trace if entry.tool == "search_text"]
    assert searches[0].input["field"] == "policy_number"
    assert "policy number" in searches[0].input["terms"]
    assert "Policy number" in searches[0].output_summary
    reads = [entry for entry in found.trace if entry.tool == "read_page"]
    assert [entry.input["page"] for entry in reads[:2]] == [1, 2]
    assert "PX-778120" in reads[1].output_summary
    assert all(entry.step == reads[0].step for entry in reads[:2])  # calls of one step share its number
    assert found.trace[-1].input["reason"] in {"no weak field left", "no tool call can help"}


def test_research_is_deterministic() -> None:
    def shown(found: Research) -> list[tuple[int, str, dict[str, Any], str]]:
        return [(entry.step, entry.tool, entry.input, entry.output_summary) for entry in found.trace]

    first, again = research(POLICY_PAGES, POLICY_SCHEMA), research(POLICY_PAGES, POLICY_SCHEMA)
    assert first.predictions == again.predictions and shown(first) == shown(again)


def test_one_step_is_the_extraction_and_a_finish() -> None:
    found = research(POLICY_PAGES, POLICY_SCHEMA, num_agentic_steps=1)

    checked(found, POLICY_SCHEMA, num_agentic_steps=1)
    assert tools_of(found) == ["extract", "finish"]
    assert [entry.step for entry in found.trace] == [1, 1]
    assert found.trace[-1].input["reason"] == "step limit reached"
    assert found.predictions == extract(POLICY_PAGES, POLICY_SCHEMA).output
    assert "policy_number" in found.trace[-1].input["weak_fields"]


def test_one_call_per_step() -> None:
    found = research(POLICY_PAGES, POLICY_SCHEMA, num_agentic_steps=4, max_tool_calls=1)

    checked(found, POLICY_SCHEMA, num_agentic_steps=4, max_tool_calls=1)
    assert tools_of(found) == ["extract", "search_text", "read_page", "read_page", "finish"]
    assert [entry.step for entry in found.trace] == [1, 2, 3, 4, 4]
    assert found.predictions["policy_number"] == "PX-778120"
    assert found.predictions["termination_date"] is None  # no step left for it


def test_step_budget_is_never_exceeded() -> None:
    for steps in range(1, 6):
        for calls in (1, 2, 10):
            checked(research(POLICY_PAGES, POLICY_SCHEMA, num_agentic_steps=steps, max_tool_calls=calls),
                    POLICY_SCHEMA, steps, calls)  # fmt: skip


def test_a_value_that_would_not_validate_is_not_taken() -> None:
    json_schema: dict[str, Any] = {
        "type": "object",
        "properties": {"policy_number": {"type": ["string", "null"], "maxLength": 6}},
    }
    found = research(POLICY_PAGES, json_schema)

    checked(found, json_schema)
    assert found.predictions == {"policy_number": None}
    assert found.trace[-1].input["reason"] == "no tool call can help"


def test_lookup_fills_a_field_looked_up_by_another() -> None:
    asked: list[tuple[str, str]] = []

    def lookup(column: str, value: str) -> list[dict[str, Any]]:
        asked.append((column, value))
        if value == "Northwind Insurance plc":
            return [{"insurer_name": "Northwind Insurance plc", "insurer_id": "INS-0042", "country": "GB"}]
        return []

    pages = ["Insurer: Northwind Insurance plc\nPolicy holder: Jane Doe", "Terms and conditions apply."]
    json_schema: dict[str, Any] = {
        "type": "object",
        "properties": {"insurer_name": POLICY_SCHEMA["properties"]["insurer_name"],
                       "insurer_id": POLICY_SCHEMA["properties"]["insurer_id"]},
    }  # fmt: skip
    found = research(pages, json_schema, lookup=lookup)

    checked(found, json_schema)
    assert asked == [("insurer_name", "Northwind Insurance plc")]
    assert found.predictions == {"insurer_name": "Northwind Insurance plc", "insurer_id": "INS-0042"}
    looked_up = [entry for entry in found.trace if entry.tool == "lookup_table"]
    assert len(looked_up) == 1 and looked_up[0].step == 2
    assert looked_up[0].input == {
        "field": "insurer_id",
        "column": "insurer_name",
        "value": "Northwind Insurance plc",
    }
    assert "INS-0042" in looked_up[0].output_summary


def test_lookup_waits_for_the_value_it_is_looked_up_by() -> None:
    asked: list[tuple[str, str]] = []

    def lookup(column: str, value: str) -> list[dict[str, Any]]:
        asked.append((column, value))
        return [{"Insurer ID": "INS-7"}]

    pages = [
        "Policy schedule",
        "Issued on behalf of the insurer named below.\n\nInsurer name",
        "Harbour Mutual",
    ]
    found = research(pages, POLICY_SCHEMA, lookup=lookup)

    checked(found, POLICY_SCHEMA)
    assert found.predictions["insurer_name"] == "Harbour Mutual"
    assert asked == [("insurer_name", "Harbour Mutual")]
    assert found.predictions["insurer_id"] == "INS-7"  # the row's "Insurer ID" column
    tools = tools_of(found)
    assert tools.index("read_page") < tools.index("lookup_table")


def test_a_lookup_without_rows_or_failing_changes_nothing() -> None:
    def empty(column: str, value: str) -> list[dict[str, Any]]:
        return []

    def failing(column: str, value: str) -> list[dict[str, Any]]:
        raise RuntimeError("table unavailable")

    pages = ["Insurer: Northwind Insurance plc"]
    for lookup, said in ((empty, "no row"), (failing, "lookup failed")):
        found = research(pages, POLICY_SCHEMA, lookup=lookup)
        checked(found, POLICY_SCHEMA)
        assert found.predictions["insurer_id"] is None
        entries = [entry for entry in found.trace if entry.tool == "lookup_table"]
        assert len(entries) == 1 and said in entries[0].output_summary


def test_tables_give_a_cell_under_its_header_and_an_array_of_rows() -> None:
    pages = [
        "Summary of cover\n\n| Policy | Renews on | Insurer |\n|---|---|---|\n"
        "| HM-88123 | 01/04/2027 | Harbour Mutual |\n\nDrivers named on this policy:\n\n"
        "| Driver | Born | Licence held since |\n|---|---|---|\n"
        "| Ann Lee | 12/05/1980 | 1999 |\n| Tom Lee | 03/09/1982 | 2001 |"
    ]
    driver = {"driver_name": MAYBE_TEXT, "licensed_since": {"type": ["integer", "null"]}}
    json_schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "renewal_date": MAYBE_DATE,
            "named_drivers": {"type": ["array", "null"], "items": {"type": "object", "properties": driver}},
        },
    }
    assert extract(pages, json_schema).output == {"renewal_date": None, "named_drivers": None}

    found = research(pages, json_schema)

    checked(found, json_schema)
    assert found.predictions["renewal_date"] == "2027-04-01"
    assert found.predictions["named_drivers"] == [
        {"driver_name": "Ann Lee", "licensed_since": 1999},
        {"driver_name": "Tom Lee", "licensed_since": 2001},
    ]
    tables = [entry.input for entry in found.trace if entry.tool == "read_table"]
    assert {"field": "renewal_date", "page": 1, "table": 1} in tables
    assert {"field": "named_drivers", "page": 1, "table": 2} in tables


def test_nothing_to_research() -> None:
    pages = ["Policy number: PX-1\nPremium: 12.50"]
    json_schema: dict[str, Any] = {
        "type": "object",
        "properties": {"policy_number": MAYBE_TEXT, "premium": MAYBE_NUMBER},
    }
    found = research(pages, json_schema)

    checked(found, json_schema)
    assert tools_of(found) == ["extract", "finish"]
    assert found.trace[-1].input["reason"] == "no weak field left"
    assert found.predictions == {"policy_number": "PX-1", "premium": 12.5}


def test_summaries_quote_little_of_the_document() -> None:
    sentence = "The monthly premium payable is EUR 1,250.00 by direct debit, " + "as agreed " * 40
    found = research([sentence], POLICY_SCHEMA)

    checked(found, POLICY_SCHEMA)
    assert found.predictions["monthly_premium"] == 1250.0
    assert all(len(entry.output_summary) <= 160 for entry in found.trace)


# ---------------------------------------------------------------------------------------- a real PDF
@pytest.fixture(scope="module")
def claim_pages() -> list[str]:
    """A PDF of two pages: the claim reference's label at the foot of page 1, its value at the top of
    page 2; the excess in a sentence; a ruled table of perils."""
    font = pymupdf.Font("helv")
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        writer = pymupdf.TextWriter(page.rect)
        writer.append((72, 60), "Harbour Mutual Insurance", font=font, fontsize=16)
        writer.append((72, 100), "Claim acknowledgement", font=font, fontsize=12)
        writer.append((72, 140), "We confirm receipt of your claim. The excess payable under this policy is",
                      font=font, fontsize=10)  # fmt: skip
        writer.append(
            (72, 154), "GBP 250.00 and will be deducted from the settlement.", font=font, fontsize=10
        )
        writer.append((72, 760), "Claim reference", font=font, fontsize=10)
        writer.write_text(page)
        page = document.new_page()
        writer = pymupdf.TextWriter(page.rect)
        writer.append((72, 60), "CLM-2026-00417", font=font, fontsize=10)
        for row, cells in enumerate(
            [["Peril", "Sum insured"], ["Storm", "12,000.00"], ["Flood", "8,500.00"]]
        ):
            for column, cell in enumerate(cells):
                x, y = 72 + column * 150, 100 + row * 18
                page.draw_rect(pymupdf.Rect(x, y, x + 150, y + 18), width=0.5)
                writer.append((x + 4, y + 13), cell, font=font, fontsize=10)
        writer.write_text(page)
        content = document.tobytes()
    return [page.text for page in parse_pages(content, "pdf", ParseOptions())]


CLAIM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "claim_reference": {"type": ["string", "null"], "pattern": "^CLM-\\d{4}-\\d+$"},
        "excess": {**MAYBE_NUMBER, "description": "Excess payable by the policyholder"},
        "perils": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["claim_reference", "excess", "perils"],
}


def test_research_on_a_parsed_pdf(claim_pages: list[str]) -> None:
    first = extract(claim_pages, CLAIM_SCHEMA)
    assert first.output["claim_reference"] is None and first.output["excess"] is None

    found = research(claim_pages, CLAIM_SCHEMA)

    checked(found, CLAIM_SCHEMA)
    assert found.predictions == {
        "claim_reference": "CLM-2026-00417",
        "excess": 250.0,
        "perils": ["Storm", "Flood"],
    }
    read = [(entry.input["field"], entry.input["page"]) for entry in found.trace if entry.tool == "read_page"]
    assert ("claim_reference", 2) in read and ("excess", 1) in read
    assert found.trace[-1].input == {"reason": "no weak field left", "weak_fields": []}
