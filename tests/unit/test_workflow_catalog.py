"""The block catalog: types and aliases, handles given a configuration, configuration models, conditions,
secret references, and the generated reference in docs/workflow-blocks.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from docsvc.workflows.catalog import (
    CATALOG,
    ApiCallConfig,
    ExtractConfig,
    evaluate_condition,
    markdown,
    secret_references,
    spec_of,
)
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parents[2]
TYPES = [
    "start_document",
    "start_json",
    "parse",
    "extract",
    "classifier",
    "split",
    "conditional",
    "api_call",
    "note",
]


def test_the_catalog_holds_every_block_type_once() -> None:
    assert [spec.type for spec in CATALOG] == TYPES


def test_start_is_an_alias_of_start_document() -> None:
    start = spec_of("start")

    assert start is not None
    assert start is spec_of("start_document")
    assert start.aliases == ("start",)


def test_a_type_that_is_not_in_the_catalog_has_no_spec() -> None:
    assert spec_of("magic") is None
    assert spec_of("") is None


@pytest.mark.parametrize(
    ("block_type", "inputs", "outputs"),
    [
        ("start_document", (), ("output-file-0",)),
        ("start_json", (), ("output-json-0",)),
        ("parse", ("input-file-0",), ("output-json-0",)),
        ("extract", ("input-file-0",), ("output-json-0",)),
        ("conditional", ("input-json-0",), ("output-json-0", "output-json-1")),
        ("api_call", ("input-json-0",), ("output-json-0",)),
        ("note", (), ()),
    ],
)
def test_fixed_handles(block_type: str, inputs: tuple[str, ...], outputs: tuple[str, ...]) -> None:
    spec = spec_of(block_type)

    assert spec is not None
    assert (spec.inputs(None), spec.outputs(None)) == (inputs, outputs)
    assert (spec.inputs({}), spec.outputs({})) == (inputs, outputs)


def test_a_classifier_has_a_file_output_per_category_then_the_classification() -> None:
    spec = spec_of("classifier")
    config = {"categories": [{"name": "invoice"}, {"name": "receipt"}, {"name": "other"}]}

    assert spec is not None
    assert spec.inputs(config) == ("input-file-0",)
    assert spec.outputs(config) == ("output-file-0", "output-file-1", "output-file-2", "output-json-0")
    assert spec.outputs({}) == ("output-json-0",)


def test_a_split_has_a_file_output_per_subdocument_then_the_split() -> None:
    spec = spec_of("split")

    assert spec is not None
    assert spec.outputs({"subdocuments": [{"name": "a"}, {"name": "b"}]}) == (
        "output-file-0",
        "output-file-1",
        "output-json-0",
    )


@pytest.mark.parametrize(
    ("block_type", "endpoint", "signals", "required"),
    [
        ("parse", "/v1/parses", (), ()),
        ("extract", "/v1/extractions", ("likelihood",), ("json_schema",)),
        ("classifier", "/v1/classifications", ("category",), ("categories",)),
        ("split", "/v1/splits", ("part_count",), ("subdocuments",)),
        ("conditional", None, (), ("field", "operator")),
        ("api_call", None, (), ("url",)),
        ("start_document", None, (), ()),
        ("note", None, (), ()),
    ],
)
def test_job_endpoints_signals_and_required_configuration(
    block_type: str, endpoint: str | None, signals: tuple[str, ...], required: tuple[str, ...]
) -> None:
    spec = spec_of(block_type)

    assert spec is not None
    assert (spec.job_endpoint, spec.signals, spec.required) == (endpoint, signals, required)


def test_every_summary_is_one_sentence() -> None:
    for spec in CATALOG:
        assert spec.summary.endswith(".")
        assert spec.summary.count(". ") == 0, spec.type


def test_configuration_models_keep_fields_they_do_not_know() -> None:
    for spec in CATALOG:
        assert spec.config_model.model_config.get("extra") == "allow", spec.type


def test_an_extract_schema_must_be_an_object_schema_with_properties() -> None:
    with pytest.raises(ValidationError, match="object"):
        ExtractConfig.model_validate({"json_schema": {"type": "array"}})

    config = ExtractConfig.model_validate({"json_schema": {"type": "object", "properties": {}}, "x": 1})
    assert config.model_extra == {"x": 1}


def test_an_api_call_posts_by_default_and_puts_on_request_only() -> None:
    assert ApiCallConfig.model_validate({"url": "https://example.com"}).method == "POST"
    with pytest.raises(ValidationError):
        ApiCallConfig.model_validate({"url": "https://example.com", "method": "GET"})
    with pytest.raises(ValidationError, match="https://"):
        ApiCallConfig.model_validate({"url": "ftp://example.com"})


DATA = {
    "category": "invoice",
    "output": {"total": 1250.5, "lines": [{"sku": "A"}], "note": None, "paid": True},
    "tags": ["urgent", "eu"],
    "count": 3,
}


@pytest.mark.parametrize(
    ("field", "operator", "value", "holds"),
    [
        ("category", "eq", "invoice", True),
        ("category", "eq", "receipt", False),
        ("category", "ne", "receipt", True),
        ("output.total", "gt", 1000, True),
        ("output.total", "gte", 1250.5, True),
        ("output.total", "lt", 1000, False),
        ("output.total", "lte", 1250.5, True),
        ("count", "eq", 3.0, True),
        ("output.lines.0.sku", "eq", "A", True),
        ("output.lines.1.sku", "exists", None, False),
        ("output.total", "exists", None, True),
        ("output.note", "exists", None, False),
        ("output.missing", "exists", None, False),
        ("output.missing", "eq", None, False),
        ("output.missing", "ne", "x", False),
        ("output.missing", "lt", 10, False),
        ("category", "gt", 1, False),
        ("count", "gt", "2", False),
        ("output.paid", "gt", 0, False),
        ("output.paid", "eq", 1, False),
        ("category", "contains", "voi", True),
        ("category", "contains", 1, False),
        ("tags", "contains", "eu", True),
        ("tags", "contains", "us", False),
        ("count", "contains", 3, False),
    ],
)
def test_conditions(field: str, operator: str, value: Any, holds: bool) -> None:
    assert evaluate_condition({"field": field, "operator": operator, "value": value}, DATA) is holds


def test_a_condition_on_data_that_is_not_an_object_finds_nothing() -> None:
    assert evaluate_condition({"field": "a", "operator": "exists"}, [1, 2]) is False
    assert evaluate_condition({"field": "a", "operator": "eq", "value": None}, None) is False


def test_an_operator_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="matches"):
        evaluate_condition({"field": "category", "operator": "matches", "value": "x"}, DATA)


def test_secret_references_are_found_anywhere_in_a_configuration() -> None:
    config = {
        "url": "https://example.com",
        "headers": {"Authorization": "secret://API_TOKEN", "X-Plain": "value"},
        "nested": [{"deeper": ["secret://OTHER", 3, None]}, "secret://API_TOKEN"],
        "mention": "not secret://INLINE",
    }

    assert secret_references(config) == {"API_TOKEN", "OTHER"}
    assert secret_references(None) == set()
    assert secret_references("secret://ALONE") == {"ALONE"}


def test_the_reference_documents_every_block_and_code() -> None:
    from docsvc.workflows.diagnosis import CODES

    text = markdown()

    for spec in CATALOG:
        assert f"## `{spec.type}`" in text
    for code in CODES:
        assert f"`{code}`" in text
    assert "| `json_schema` | object | yes |" in text


def test_docs_workflow_blocks_is_up_to_date() -> None:
    written = (ROOT / "docs" / "workflow-blocks.md").read_text(encoding="utf-8")

    assert written == markdown(), "run python -m docsvc.workflows.catalog docs/workflow-blocks.md"
