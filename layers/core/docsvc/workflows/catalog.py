"""The block catalog: every block type a workflow graph may use, its handles, its configuration, the
review signals it produces and the job endpoint a run sends it to. Diagnosis, runs and the reference
in docs/workflow-blocks.md all read this one table.

    python -m docsvc.workflows.catalog docs/workflow-blocks.md

writes that reference.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from docsvc.names import REFERENCE_PREFIX, check_distinct

ConditionOperator = Literal["eq", "ne", "gt", "gte", "lt", "lte", "contains", "exists"]
ReviewOperator = Literal["lt", "lte", "gt", "gte", "eq", "ne"]


# ------------------------------------------------------------------------------- configurations
class BlockConfig(BaseModel):
    """A block's configuration: fields a block does not know are kept (the editor stores its own)."""

    model_config = ConfigDict(extra="allow")


class ReviewPredicate(BaseModel):
    signal: str = Field(description="A review signal the block produces, e.g. `likelihood`.")
    operator: ReviewOperator = Field(description="How the signal is compared with `value`.")
    value: float | str = Field(description="What the signal is compared with: a number or a name.")


class ReviewGate(BaseModel):
    enabled: bool = Field(False, description="Hold results for review when the predicate holds.")
    predicate: ReviewPredicate | None = Field(None, description="When a result needs review.")


class StartDocumentConfig(BlockConfig):
    pass


class StartJsonConfig(BlockConfig):
    json_schema: dict[str, Any] | None = Field(None, description="The JSON Schema of the JSON input.")


class ParseConfig(BlockConfig):
    model: str | None = Field(None, description="A model of GET /v1/models; the task's default if omitted.")
    image_resolution_dpi: int | None = Field(None, ge=96, le=300, description="Resolution of OCR rendering.")


class ExtractConfig(BlockConfig):
    json_schema: dict[str, Any] = Field(description="A JSON Schema (object with properties) of the data.")
    model: str | None = Field(None, description="A model of GET /v1/models; the task's default if omitted.")
    instructions: str | None = Field(None, max_length=10_000, description="Guidance for the model.")
    review: ReviewGate | None = Field(None, description="The review gate on the extraction.")

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, schema: dict[str, Any]) -> dict[str, Any]:
        from docsvc.intelligence.schemas import checked_schema  # loads the schema tools when used

        return checked_schema(schema)


class Category(BaseModel):
    name: str = Field(description="The category's name; not blank, distinct.")
    description: str = Field("", max_length=2_000, description="What documents of the category are.")


class ClassifierConfig(BlockConfig):
    categories: list[Category] = Field(min_length=1, max_length=100, description="The categories, in order.")
    model: str | None = Field(None, description="A model of GET /v1/models; the task's default if omitted.")
    instructions: str | None = Field(None, max_length=10_000, description="Guidance for the model.")
    first_n_pages: int | None = Field(None, ge=1, description="Classify from the first pages only.")
    review: ReviewGate | None = Field(None, description="The review gate on the classification.")

    @field_validator("categories")
    @classmethod
    def _distinct(cls, categories: list[Category]) -> list[Category]:
        check_distinct([category.name for category in categories], "category")
        return categories


class Subdocument(BaseModel):
    name: str = Field(description="The subdocument's name; not blank, distinct.")
    description: str = Field("", max_length=2_000, description="What the subdocument is.")
    allow_multiple_instances: bool = Field(False, description="The document may hold it more than once.")


class SplitConfig(BlockConfig):
    subdocuments: list[Subdocument] = Field(
        min_length=1, max_length=100, description="The subdocuments, in order."
    )
    model: str | None = Field(None, description="A model of GET /v1/models; the task's default if omitted.")
    instructions: str | None = Field(None, max_length=10_000, description="Guidance for the model.")
    review: ReviewGate | None = Field(None, description="The review gate on the split.")

    @field_validator("subdocuments")
    @classmethod
    def _distinct(cls, subdocuments: list[Subdocument]) -> list[Subdocument]:
        check_distinct([subdocument.name for subdocument in subdocuments], "subdocument")
        return subdocuments


class ConditionalConfig(BlockConfig):
    field: str = Field(description="A dotted path into the input JSON, e.g. `category` or `totals.due`.")
    operator: ConditionOperator = Field(description="How the value at `field` is compared with `value`.")
    value: Any = Field(None, description="What the value at `field` is compared with (not for `exists`).")


class ApiCallConfig(BlockConfig):
    url: str = Field(description="The http(s) URL the JSON input is sent to.")
    method: Literal["POST", "PUT"] = Field("POST", description="The HTTP method.")
    headers: dict[str, str] = Field(
        default_factory=dict, description="Header name to value; a value may be `secret://NAME`."
    )

    @field_validator("url")
    @classmethod
    def _web_url(cls, url: str) -> str:
        if not url.strip().lower().startswith(("https://", "http://")):
            raise ValueError("the URL starts with https:// or http://")
        return url


class NoteConfig(BlockConfig):
    text: str = Field("", description="The note's text.")


# ------------------------------------------------------------------------------------- handles
@dataclass(frozen=True)
class Handles:
    """The handles of one side of a block, given its configuration: one `<per_item_handle>` for each
    item of the list in config field `per_item` (in order), then the `fixed` ones."""

    fixed: tuple[str, ...] = ()
    per_item: str | None = None
    per_item_handle: str = "output-file-{i}"

    def __call__(self, config: Mapping[str, Any] | None) -> tuple[str, ...]:
        items = (config or {}).get(self.per_item) if self.per_item else None
        count = len(items) if isinstance(items, list) else 0
        return tuple(self.per_item_handle.format(i=i) for i in range(count)) + self.fixed

    def describe(self) -> str:
        names = [f"`{name}`" for name in self.fixed]
        if self.per_item:
            names.insert(0, f"`{self.per_item_handle}` for each item i of `{self.per_item}`")
        return ", ".join(names) or "none"


NO_HANDLES = Handles()
FILE_IN = Handles(("input-file-0",))
JSON_IN = Handles(("input-json-0",))
JSON_OUT = Handles(("output-json-0",))


ConfigModel = type[BlockConfig]


@dataclass(frozen=True)
class BlockSpec:
    """One block type of the catalog."""

    type: str
    aliases: tuple[str, ...]
    summary: str
    config_model: ConfigModel
    required: tuple[str, ...]
    inputs: Handles
    outputs: Handles
    signals: tuple[str, ...] = ()
    job_endpoint: str | None = None


CATALOG: tuple[BlockSpec, ...] = (
    BlockSpec(
        "start_document",
        ("start",),
        "Where a run begins: the document given for this block when the run is started.",
        StartDocumentConfig,
        (),
        NO_HANDLES,
        Handles(("output-file-0",)),
    ),
    BlockSpec(
        "start_json",
        (),
        "Where a run begins with JSON: the data given for this block when the run is started.",
        StartJsonConfig,
        (),
        NO_HANDLES,
        JSON_OUT,
    ),
    BlockSpec(
        "parse",
        (),
        "Parses the document into text, tables and layout, as POST /v1/parses does.",
        ParseConfig,
        (),
        FILE_IN,
        JSON_OUT,
        job_endpoint="/v1/parses",
    ),
    BlockSpec(
        "extract",
        (),
        "Extracts the data `json_schema` describes from the document.",
        ExtractConfig,
        ("json_schema",),
        FILE_IN,
        JSON_OUT,
        ("likelihood",),
        "/v1/extractions",
    ),
    BlockSpec(
        "classifier",
        (),
        "Classifies the document into one of its categories and routes it to that category's handle; "
        "`output-json-0` holds the classification.",
        ClassifierConfig,
        ("categories",),
        FILE_IN,
        Handles(("output-json-0",), "categories"),
        ("category",),
        "/v1/classifications",
    ),
    BlockSpec(
        "split",
        (),
        "Splits the document into its subdocuments, each sent to its own handle; `output-json-0` holds "
        "the split.",
        SplitConfig,
        ("subdocuments",),
        FILE_IN,
        Handles(("output-json-0",), "subdocuments"),
        ("part_count",),
        "/v1/splits",
    ),
    BlockSpec(
        "conditional",
        (),
        "Sends its JSON input on to `output-json-0` when the condition holds, else to `output-json-1`.",
        ConditionalConfig,
        ("field", "operator"),
        JSON_IN,
        Handles(("output-json-0", "output-json-1")),
    ),
    BlockSpec(
        "api_call",
        (),
        "Sends its JSON input to an HTTP endpoint; `output-json-0` holds the answer.",
        ApiCallConfig,
        ("url",),
        JSON_IN,
        JSON_OUT,
    ),
    BlockSpec(
        "note",
        (),
        "A note on the canvas for the people who read the workflow; runs ignore it.",
        NoteConfig,
        (),
        NO_HANDLES,
        NO_HANDLES,
    ),
)
_BY_NAME = {name: spec for spec in CATALOG for name in (spec.type, *spec.aliases)}


def spec_of(block_type: str) -> BlockSpec | None:
    """The catalog entry of a block type or of one of its aliases; None for a type that is not one."""
    return _BY_NAME.get(block_type)


# ---------------------------------------------------------------------------------- conditions
_MISSING = object()
_ORDERINGS: dict[str, Callable[[float, float], bool]] = {
    "gt": lambda left, right: left > right,
    "gte": lambda left, right: left >= right,
    "lt": lambda left, right: left < right,
    "lte": lambda left, right: left <= right,
}


def evaluate_condition(config: Mapping[str, Any], data: Any) -> bool:
    """Whether a conditional's condition holds for `data`. `field` is a dotted path (list items by
    index). `exists` holds when the path leads to a value that is not null; every other operator is
    false for a missing value; `gt`/`gte`/`lt`/`lte` compare numbers only; `contains` finds a substring
    in a string or an item in an array."""
    operator = config.get("operator")
    actual = _lookup(data, str(config.get("field", "")))
    expected: Any = config.get("value")
    if operator == "exists":
        return actual is not _MISSING and actual is not None
    if actual is _MISSING:
        return False
    if operator in ("eq", "ne"):
        return _equal(actual, expected) is (operator == "eq")
    if operator in ("gt", "gte", "lt", "lte"):
        if not (_is_number(actual) and _is_number(expected)):
            return False
        return _ORDERINGS[operator](actual, expected)
    if operator == "contains":
        if isinstance(actual, str):
            return isinstance(expected, str) and expected in actual
        return isinstance(actual, list) and any(_equal(item, expected) for item in actual)
    raise ValueError(f"'{operator}' is not a condition operator")


def _lookup(data: Any, path: str) -> Any:
    current = data
    for segment in path.split("."):
        if isinstance(current, Mapping) and segment in current:
            current = current[segment]
        elif isinstance(current, list) and segment.isdigit() and int(segment) < len(current):
            current = current[int(segment)]
        else:
            return _MISSING
    return current


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _equal(left: Any, right: Any) -> bool:
    return isinstance(left, bool) == isinstance(right, bool) and bool(left == right)


# ------------------------------------------------------------------------------------- secrets
def secret_references(config: Any) -> set[str]:
    """The NAME of every `secret://NAME` string anywhere in a configuration."""
    return {
        value.removeprefix(REFERENCE_PREFIX)
        for value in _strings(config)
        if value.startswith(REFERENCE_PREFIX)
    }


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


# ------------------------------------------------------------------------------- the reference
def markdown() -> str:
    """The catalog as a Markdown reference: each block type, then the shared configuration types and
    the issue codes of a diagnosis."""
    from docsvc.workflows.diagnosis import CODES  # diagnosis reads this catalog

    lines = [
        "# Workflow blocks",
        "",
        "Generated from `docsvc.workflows.catalog`; do not edit. To update it, run",
        "`python -m docsvc.workflows.catalog docs/workflow-blocks.md`.",
        "",
        "Handles are named `<direction>-<type>-<index>`; an edge joins an output handle to an input handle",
        "of the same type (`file` or `json`). Configuration fields a block does not know are kept.",
    ]
    shared: dict[str, dict[str, Any]] = {}
    for spec in CATALOG:
        schema = spec.config_model.model_json_schema()
        shared.update(schema.get("$defs", {}))
        lines += ["", f"## `{spec.type}`", "", spec.summary, ""]
        lines += [
            f"- Aliases: {_codes(spec.aliases)}",
            f"- Inputs: {spec.inputs.describe()}",
            f"- Outputs: {spec.outputs.describe()}",
            f"- Review signals: {_codes(spec.signals)}",
            f"- Job endpoint: {_codes((spec.job_endpoint,) if spec.job_endpoint else ())}",
            "",
        ]
        lines += _fields_table(schema, set(spec.required))
    for name, schema in shared.items():
        lines += ["", f"### `{name}`", "", *_fields_table(schema, set())]
    lines += ["", "## Diagnosis issue codes", "", "| Code | Severity | Suggestion |", "|---|---|---|"]
    lines += [f"| `{code}` | {severity} | {_cell(advice)} |" for code, (severity, advice) in CODES.items()]
    return "\n".join(lines) + "\n"


def _codes(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{name}`" for name in names) or "none"


def _fields_table(schema: Mapping[str, Any], required: set[str]) -> list[str]:
    properties: Mapping[str, Any] = schema.get("properties", {})
    if not properties:
        return ["No configuration."]
    required = required | set(schema.get("required", ()))
    rows = ["| Field | Type | Required | Description |", "|---|---|---|---|"]
    for name, field in properties.items():
        description = " ".join(filter(None, [field.get("description", ""), _bounds(field)]))
        rows.append(
            f"| `{name}` | {_cell(_type_name(field))} | {'yes' if name in required else 'no'} "
            f"| {_cell(description)} |"
        )
    return rows


def _type_name(field: Mapping[str, Any]) -> str:
    if "$ref" in field:
        return str(field["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in field:
        return " or ".join(_type_name(option) for option in field["anyOf"] if option.get("type") != "null")
    if "enum" in field:
        return "one of " + ", ".join(f"`{value}`" for value in field["enum"])
    kind = field.get("type")
    if kind == "array":
        return f"array of {_type_name(field.get('items', {}))}"
    if kind == "object" and isinstance(field.get("additionalProperties"), Mapping):
        return f"map of string to {_type_name(field['additionalProperties'])}"
    return str(kind) if kind else "any"


def _bounds(field: Mapping[str, Any]) -> str:
    options = [field, *field.get("anyOf", ())]
    low = next((option[key] for option in options for key in ("minimum", "minItems") if key in option), None)
    high = next((option[key] for option in options for key in ("maximum", "maxItems") if key in option), None)
    if low is None:
        return f"(at most {high})" if high is not None else ""
    return f"({low}..{high})" if high is not None else f"(at least {low})"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(markdown(), encoding="utf-8")
