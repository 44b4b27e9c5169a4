"""The tools of deep research, defined once for the built-in planner and for remote models.

Each tool has a name, a description, the JSON Schema of its arguments and the function that runs it
against a `Workspace` (the document's pages, lines and tables, and the lookup tables of the caller's
environment). The built-in planner calls them with its own arguments and reads on from what they
found (`ToolOutput.data`); a remote model is offered the same tools by function calling and is told
`ToolOutput.content`. Arguments are checked against the tool's schema first: a call that breaks it, or
that names a page or a table the document does not have, is a `ToolError`, which a remote model is
answered with.

`submit_predictions` is the last tool of a remote research: its arguments are the predictions, an
object of the request's json_schema.

The conversation with a remote model is kept here in provider-neutral terms (`UserText`, `ModelTurn`,
`ToolResults`); each provider adapter writes it in its own protocol.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from docsvc.intelligence.layout import read_layout
from docsvc.intelligence.page_tables import Table

Lookup = Callable[[str, str], list[dict[str, Any]]]  # (column, value) -> the matching rows
# (field name, line) -> how well the line names the field (0 when it does not) and the offset just past
# the words naming it; None when the schema has no such field.
FieldScore = Callable[[str, str], tuple[float, int] | None]

SUBMIT = "submit_predictions"
MAX_SUMMARY = 200
_QUOTED_TEXT = 60
_MAX_LISTED_HITS, _MAX_PAGE_CHARS, _MAX_TABLE_ROWS, _MAX_ROWS_CHARS = 20, 8000, 60, 4000


class ToolError(Exception):
    """A call a tool cannot run (arguments its schema refuses, a page the document does not have)."""


@dataclass(frozen=True)
class Hit:
    score: float  # how well the line matches, 0 to 1
    page: int  # from 0
    line: int  # from 0, among the page's non-blank lines
    end: int  # the offset in the line just past the words that matched


@dataclass(frozen=True)
class ToolOutput:
    content: str  # what a model is told
    summary: str  # one short line, for the research trace
    data: Any = None  # what was found, for the built-in planner: hits, a page index, a table, rows


class Workspace:
    """What the tools read: the document's pages (as parsed text), and the lookup tables."""

    def __init__(
        self, pages: Sequence[str], lookup: Lookup | None = None, field_score: FieldScore | None = None
    ) -> None:
        self.pages = [page if isinstance(page, str) else "" for page in pages]
        self.lines = [[line.strip() for line in page.split("\n") if line.strip()] for page in self.pages]
        self.lookup = lookup
        self.field_score = field_score

    @cached_property
    def tables(self) -> list[Table]:
        return list(read_layout(self.pages).tables)

    def place(self, table: Table) -> tuple[int, int]:
        """The page a table starts on and its number among the tables starting there, both from 1."""
        return table.page + 1, [other for other in self.tables if other.page == table.page].index(table) + 1

    def table(self, page: int, number: int) -> Table:
        """The `number`th table starting on `page` (both from 1)."""
        on_page = [table for table in self.tables if table.page == page - 1]
        if not 1 <= number <= len(on_page):
            places = ", ".join(f"page {p} table {n}" for p, n in map(self.place, self.tables)) or "none"
            raise ToolError(f"no table {number} on page {page}; the document's tables: {places}")
        return on_page[number - 1]


@dataclass(frozen=True)
class ToolOffer:
    """A tool as a model is offered it."""

    name: str
    description: str
    parameters: Mapping[str, Any]  # the JSON Schema of its arguments, an object


@dataclass(frozen=True)
class Tool(ToolOffer):
    run: Callable[[Workspace, Mapping[str, Any]], ToolOutput] = field(repr=False, compare=False)

    @cached_property
    def _validator(self) -> Draft202012Validator:
        return Draft202012Validator(dict(self.parameters))

    def call(self, workspace: Workspace, arguments: Mapping[str, Any]) -> ToolOutput:
        """Runs the tool on checked arguments; a ToolError says what is wrong with them."""
        problem = best_match(self._validator.iter_errors(dict(arguments)))
        if problem is not None:
            where = "/".join(str(part) for part in problem.absolute_path)
            raise ToolError(f"arguments refused{' at ' + where if where else ''}: {problem.message}")
        return self.run(workspace, arguments)


# ---------------------------------------------------------------------------------------- the tools
_FIELD = {"type": "string", "description": "The schema field this call is for, as a dotted path."}
_PAGE = {"type": "integer", "minimum": 1, "description": "A page number, from 1."}


def _search_text(workspace: Workspace, arguments: Mapping[str, Any]) -> ToolOutput:
    terms = [term.strip() for term in arguments.get("terms", []) if term.strip()]
    name = str(arguments.get("field") or "")
    by_field = workspace.field_score if name and workspace.field_score else None
    if by_field is not None and by_field(name, "") is None:  # not a field of the schema
        by_field = None
    if by_field is None and not terms:
        raise ToolError("give terms to search for, or a field of the schema")
    hits: list[Hit] = []
    for page, lines in enumerate(workspace.lines):
        for number, line in enumerate(lines):
            found = by_field(name, line) if by_field is not None else _term_score(line, terms)
            if found is not None and found[0] > 0:
                hits.append(Hit(found[0], page, number, found[1]))
    hits.sort(key=lambda hit: (-hit.score, hit.page, hit.line))
    if not hits:
        said = name if by_field is not None else ", ".join(quoted(term, 30) for term in terms[:4])
        text = f"no line names {said}" if by_field is not None else f"no line contains {said}"
        return ToolOutput(text, text, hits)
    best = hits[0]
    pages = ", ".join(str(page + 1) for page in sorted({hit.page for hit in hits}))
    summary = f"{len(hits)} line(s) on page {pages}; best p.{best.page + 1}: "
    summary += quoted(workspace.lines[best.page][best.line])
    listed = [
        f"page {hit.page + 1}, line {hit.line + 1}: {workspace.lines[hit.page][hit.line][:300]}"
        for hit in hits[:_MAX_LISTED_HITS]
    ]
    more = f"\n({len(hits) - _MAX_LISTED_HITS} more lines)" if len(hits) > _MAX_LISTED_HITS else ""
    return ToolOutput(f"{len(hits)} line(s) found, best first:\n" + "\n".join(listed) + more, summary, hits)


def _term_score(line: str, terms: Sequence[str]) -> tuple[float, int]:
    """The share of the terms the line holds (case ignored), and the offset past the last one found."""
    lowered = " ".join(line.lower().split())
    found, end = 0, 0
    for term in terms:
        at = lowered.find(" ".join(term.lower().split()))
        if at >= 0:
            found, end = found + 1, max(end, at + len(term))
    return (found / len(terms), end) if found else (0.0, 0)


def _read_page(workspace: Workspace, arguments: Mapping[str, Any]) -> ToolOutput:
    page, count = arguments["page"], len(workspace.pages)
    if page > count:
        raise ToolError(f"no page {page}; the document has {count} page(s)")
    text = workspace.pages[page - 1]
    shown = text if len(text) <= _MAX_PAGE_CHARS else text[:_MAX_PAGE_CHARS] + "\n… (the page goes on)"
    summary = f"page {page}, {len(workspace.lines[page - 1])} lines"
    return ToolOutput(f"page {page} of {count}:\n{shown}", summary, page - 1)


def _read_table(workspace: Workspace, arguments: Mapping[str, Any]) -> ToolOutput:
    page, number = arguments["page"], arguments["table"]
    table = workspace.table(page, number)
    summary = f"table {number} on page {page}: {len(table.rows)} row(s) x {len(table.header)} columns"
    summary += f" ({quoted(', '.join(table.header), 40)})"
    rows = [table.header, tuple("---" for _ in table.header), *table.rows[:_MAX_TABLE_ROWS]]
    text = "\n".join("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows)
    more = f"\n({len(table.rows) - _MAX_TABLE_ROWS} more rows)" if len(table.rows) > _MAX_TABLE_ROWS else ""
    return ToolOutput(f"{summary}\n{text}{more}", summary, table)


def _lookup_table(workspace: Workspace, arguments: Mapping[str, Any]) -> ToolOutput:
    if workspace.lookup is None:
        raise ToolError("no lookup tables are available")
    column, value = arguments["column"], arguments["value"]
    try:
        rows = workspace.lookup(column, value)
    except Exception as error:  # the lookup's own failure: reported, the research goes on
        raise ToolError(f"lookup failed ({type(error).__name__})") from None
    if not rows:
        text = f"no row with {column} = {quoted(value)}"
        return ToolOutput(text, text, rows)
    content = json.dumps(rows, default=str, ensure_ascii=False)
    if len(content) > _MAX_ROWS_CHARS:
        content = content[:_MAX_ROWS_CHARS] + "… (cut)"
    return ToolOutput(f"{len(rows)} row(s): {content}", f"{len(rows)} row(s)", rows)


SEARCH_TEXT = Tool(
    "search_text",
    "Find the lines of the document that name a field of the schema (by its name, title, description "
    "and their synonyms) or that contain any of the terms; lines are listed best first with their page "
    "and line numbers. Table rows are lines starting with '|'.",
    {
        "type": "object",
        "properties": {
            "field": _FIELD,
            "terms": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 200},
                "maxItems": 20,
                "description": "Words or phrases to find (case ignored); used when no field is named.",
            },
        },
        "additionalProperties": False,
    },
    _search_text,
)
READ_PAGE = Tool(
    "read_page",
    "Read the whole text of one page of the document.",
    {
        "type": "object",
        "properties": {"field": _FIELD, "page": _PAGE},
        "required": ["page"],
        "additionalProperties": False,
    },
    _read_page,
)
READ_TABLE = Tool(
    "read_table",
    "Read a table of the document: its header and rows, as a markdown table.",
    {
        "type": "object",
        "properties": {
            "field": _FIELD,
            "page": {**_PAGE, "description": "The page the table starts on, from 1."},
            "table": {"type": "integer", "minimum": 1, "description": "Which table of that page, from 1."},
        },
        "required": ["page", "table"],
        "additionalProperties": False,
    },
    _read_table,
)
LOOKUP_TABLE = Tool(
    "lookup_table",
    "Look a value up in the lookup tables (master data) uploaded to this environment: the rows whose "
    "column equals the value (a column's name matches whatever its case, spaces and underscores).",
    {
        "type": "object",
        "properties": {
            "field": _FIELD,
            "column": {"type": "string", "minLength": 1, "maxLength": 200},
            "value": {"type": "string", "maxLength": 1000},
        },
        "required": ["column", "value"],
        "additionalProperties": False,
    },
    _lookup_table,
)
TOOLS: dict[str, Tool] = {tool.name: tool for tool in (SEARCH_TEXT, READ_PAGE, READ_TABLE, LOOKUP_TABLE)}


def offered_tools(lookup: bool) -> list[Tool]:
    """The tools a research may call: lookup_table only where there is something to look up in."""
    return [tool for tool in TOOLS.values() if lookup or tool is not LOOKUP_TABLE]


def submit_tool(json_schema: Mapping[str, Any]) -> ToolOffer:
    """The tool that ends a remote research: its arguments are the predictions themselves."""
    return ToolOffer(
        SUBMIT,
        "Submit the data found, and end the research: an object of the schema's shape, with null for a "
        "value the document does not hold.",
        dict(json_schema),
    )


def quoted(text: str, limit: int = _QUOTED_TEXT) -> str:
    """Text on one line, in quotes, cut short."""
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


def one_line(text: str, limit: int = MAX_SUMMARY) -> str:
    """A summary: one line of at most `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------- conversation
@dataclass(frozen=True)
class ToolCall:
    """A tool call of a model."""

    id: str
    name: str
    arguments: dict[str, Any] | None  # None when what the model wrote is not a JSON object
    raw: str  # the arguments as the model wrote them (JSON text)


@dataclass(frozen=True)
class ToolResult:
    call_id: str
    name: str
    content: str
    error: bool = False


@dataclass(frozen=True)
class UserText:
    text: str


@dataclass(frozen=True)
class ModelTurn:
    """What the model answered in one turn: text, tool calls, or both; and the tokens it took."""

    text: str = ""
    calls: tuple[ToolCall, ...] = ()
    usage: Mapping[str, int] = field(default_factory=dict)  # input_tokens, output_tokens


@dataclass(frozen=True)
class ToolResults:
    """The answers to the tool calls of the turn before, in their order."""

    results: tuple[ToolResult, ...]


ChatMessage = UserText | ModelTurn | ToolResults
