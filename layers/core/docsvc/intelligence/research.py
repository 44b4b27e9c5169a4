"""The built-in research agent: a deterministic planner that improves an extraction with tools.

Step 1 runs the extraction model. Each following step makes up to `max_tool_calls` tool calls aimed
at the weakest fields (a value None or empty first, then the lowest likelihood, in schema order):

- `lookup_table` (column, value): a field whose description mentions a lookup or master data, once the
  field it is looked up by ("by vendor name") has a value; the cell of the first row named like the field.
- `read_table` (page, table): for an array field, the tables whose header names its items' properties;
  for a field found in a table row, the cell right of its label, else the one below it.
- `search_text` (terms): the lines of every page naming the field (its name, title, quoted phrases,
  synonyms, or the words of its name and description); a value after those words on the line.
- `read_page` (page): after a search hit without a value, the label/value pairs of the page and the
  lines after the hit (going on at the top of the next page when the hit ends its page).

A value found is coerced to the field's type (numbers, ISO dates for "format": "date", booleans, enums,
patterns) and replaces the prediction when that is empty or less likely, and only if the output still
validates (a None is allowed anywhere). A `finish` entry ends the trace, numbered as the last step run.

The tools are those of `research_tools`, which a remote model is offered too: each call goes through
the tool's definition (its arguments checked against the tool's schema) and the planner reads on from
what the tool found. A remote model's research is `remote_research`.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import (
    Key,
    is_label_text,
    is_summary_row,
    key_words,
    label_key,
    snake_case,
    synonyms,
    variants,
)
from docsvc.intelligence.layout import read_layout
from docsvc.intelligence.lines import segments
from docsvc.intelligence.page_tables import Table
from docsvc.intelligence.research_tools import (
    LOOKUP_TABLE,
    READ_PAGE,
    READ_TABLE,
    SEARCH_TEXT,
    Hit,
    Lookup,
    ToolError,
    Workspace,
    quoted,
)
from docsvc.intelligence.schemas import Node, read_schema
from docsvc.intelligence.values import (
    day_first_in,
    parse_bool,
    parse_date,
    parse_number,
    writes_decimal_comma,
)


@dataclass(frozen=True)
class TraceStep:
    step: int  # 1-based agentic step
    tool: str  # "extract" | "search_text" | "read_page" | "read_table" | "lookup_table" | "finish"
    input: dict[str, Any]  # the tool's arguments
    output_summary: str  # one short line: what was found
    duration_ms: float


@dataclass(frozen=True)
class Research:
    predictions: dict[str, Any]  # validates against the json_schema; a value not found is None
    likelihoods: dict[str, float]  # per field path, as extraction gives them
    trace: list[TraceStep]
    usage: dict[str, int] = field(default_factory=dict)  # a remote model's tokens and turns


_WEAK = 0.6  # a field less likely than this is researched
_SAME_LINE, _LATER_LINE, _IN_TABLE, _LOOKED_UP = 0.7, 0.62, 0.7, 0.9
_MIN_MATCH = 0.4  # how well a line must name a field to be a hit
_NAMED = 0.85  # a hit this good names the field by a phrase
_MAX_HITS, _LINES_AFTER = 5, 8
_IDENTIFIERS = frozenset({"id", "number", "code", "reference", "identifier"})
_GENERIC = frozenset({"date", "number", "amount", "name", "value", "id", "code", "type", "text", "field"})
_STOPWORDS = frozenset(
    {"a", "an", "the", "of", "on", "in", "to", "for", "and", "or", "is", "are", "was", "be", "by", "with",
     "as", "at", "it", "its", "this", "that", "which", "what", "when", "where", "who", "how", "from", "per",
     "if", "any", "all", "each", "their", "there", "document", "field", "value"}
)  # fmt: skip
_LOOKUP_HINT = re.compile(
    r"(?i)\blook(?:ed|s)?[\s-]?up\b|\blookup\b|master[\s-]?data|reference (?:table|data)"
)
_LOOKED_UP_BY = re.compile(
    r"(?i)\bby\s+(?:the\s+|its\s+|their\s+)?([a-z][a-z' _-]{1,40}?)\s*(?:[.,;)]|$|\b(?:in|from|using)\b)"
)
_MONTH_FIRST = re.compile(r"(?i)month[\s-]*first|mm/dd|\bu\.?s\.?\s+(?:date|format|style)")
_QUOTE = re.compile(r'["“]([^"“”]{1,60})["”]')
_LEAD = re.compile(r"(?i)^(?:[\s:|=.\-\u2013\u2014]|\b(?:is|are|was|of|on|at|will be|shall be|be)\b)+")
_AMOUNT_TOKEN = re.compile(
    r"\(?[-\u2212]?(?:[A-Z]{3}\s?|[$€£¥])?\d[\d.,'\u00a0]*(?:\s?[A-Z]{3}|\s?[$€£])?\)?"
)


# ---------------------------------------------------------------------------------------- fields
@dataclass(frozen=True)
class _Field:
    path: tuple[str, ...]
    node: Node
    phrases: dict[Key, float]  # label keys naming the field, with how well
    words: tuple[str, ...]  # the telling words of its name and title ("termination" of termination_date)
    described: tuple[str, ...]  # the telling words of its description

    @property
    def name(self) -> str:
        return ".".join(self.path)

    @property
    def description(self) -> str:
        return self.node.text("description")


def _fields(node: Node, path: tuple[str, ...] = ()) -> Iterator[_Field]:
    """The schema's fields: leaves and arrays, nested objects walked into."""
    for name, child in node.properties:
        if child.never:
            continue
        if child.kind == "object" and child.properties:
            yield from _fields(child, (*path, name))
        else:
            yield _named((*path, name), child)


def _named(path: tuple[str, ...], node: Node) -> _Field:
    own = [label_key(" ".join(path)), label_key(path[-1]), label_key(node.text("title"))]
    own += [label_key(quoted) for quoted in _QUOTE.findall(node.text("description"))]
    phrases: dict[Key, float] = {key: 1.0 for key in own if key}
    for key in list(phrases):
        for other in (*synonyms(key), *variants(key)):
            phrases.setdefault(other, 0.85)
    words = _telling((*label_key(path[-1]), *label_key(node.text("title"))))
    described = _telling(label_key(node.text("description")))
    return _Field(path, node, phrases, words, tuple(word for word in described if word not in words))


def _telling(words: Sequence[str]) -> tuple[str, ...]:
    kept = (word for word in words if word not in _GENERIC | _STOPWORDS and len(word) > 2)
    return tuple(dict.fromkeys(word for word in kept if not word.isdigit()))


def _within(part: Key, whole: Key) -> bool:
    return any(whole[at : at + len(part)] == part for at in range(len(whole) - len(part) + 1))


def _same_stem(one: str, other: str) -> bool:
    """Words of one stem: "termination" and "terminates", "expiry" and "expires"."""
    if one == other:
        return True
    common = 0
    for first, second in zip(one, other, strict=False):
        if first != second:
            break
        common += 1
    return common >= max(5, min(len(one), len(other)) - 3)


def _match(text: str, target: _Field) -> tuple[float, int]:
    """How well `text` names the field (0 to 1), and the offset just past the words that name it."""
    words = key_words(text[:300])
    keys = [word for word, _ in words]
    best, end = 0.0, 0
    for phrase, score in target.phrases.items():
        for start in range(len(keys) - len(phrase) + 1):
            if tuple(keys[start : start + len(phrase)]) == phrase and score > best:
                best, end = score, words[start + len(phrase) - 1][1]
    if best:
        return best, end
    shares: list[float] = []
    for group in (target.words, target.described):
        places = [next((o for k, o in words if _same_stem(k, word)), -1) for word in group]
        end = max([end, *places])
        shares += [sum(place >= 0 for place in places) / len(places)] if group else []
    if len(shares) == 2:  # the name's words count for more than the description's
        return 0.8 * (0.7 * shares[0] + 0.3 * shares[1]), end
    return 0.8 * shares[0] if shares else 0.0, end


def _labels(label: str, target: _Field, score: float) -> bool:
    """Whether `label` is the field's label, so that free text by it may be its value: it names the
    field by a phrase, or says nothing but words of the field's name and description, and the kind of
    identifier it is ("Insurer" for `insurer_name`, not for `insurer_id`; not "Policy holder" for
    `policy_number`)."""
    if score >= _NAMED:
        return True
    said = label_key(label)
    if not _IDENTIFIERS.intersection(label_key(target.path[-1])) <= set(said):
        return False
    told = _telling(said)
    known = (*target.words, *target.described)
    return bool(told) and all(any(_same_stem(word, own) for own in known) for word in told)


# ---------------------------------------------------------------------------------------- values
@dataclass(frozen=True)
class _Reading:
    decimal_comma: bool
    day_first: bool


def _typed(text: str, node: Node, reading: _Reading, free_text: bool = True) -> Any:
    """The value `text` holds for a field of `node`'s type, or None. Without `free_text` a string
    field takes only a value of a form it prescribes (an enum, a date, a pattern)."""
    text = _LEAD.sub("", text.replace("|", " ")).strip()
    if not text:
        return None
    if node.enum:
        return _enum_option(text, node.enum)
    kind = node.kind
    if kind in {"number", "integer"}:
        return _number(text, kind == "integer", reading)
    if kind == "boolean":
        return parse_bool(text.split()[0])
    if kind == "array" and node.items is not None and node.items.kind not in {"object", "array"}:
        values = [_typed(part, node.items, reading, free_text) for part in text.split(",")]
        return values if values and None not in values else None
    if kind in {"string", "any"} and (free_text or node.text("format") == "date" or node.text("pattern")):
        return _text(text, node, reading)
    return None


def _enum_option(text: str, options: list[Any]) -> Any:
    key = label_key(text)
    for option in options:
        wanted = label_key(str(option))
        if wanted and _within(wanted, key):
            return option
    return None


def _number(text: str, integer: bool, reading: _Reading) -> float | int | None:
    for token in [text, *_AMOUNT_TOKEN.findall(text)]:
        parsed = parse_number(token.strip(" .,"), reading.decimal_comma)
        if parsed is not None:
            value = parsed[0]
            if integer:
                return int(value) if value.is_integer() else None
            return value
    return None


def _text(text: str, node: Node, reading: _Reading) -> str | None:
    if node.text("format") == "date":
        found = parse_date(text, reading.day_first)
        return found.value.isoformat() if found else None
    pattern = node.text("pattern")
    if pattern:
        try:
            match = re.search(pattern.lstrip("^").rstrip("$"), text)
        except re.error:
            return None
        return match.group() if match else None
    pieces = segments(text)
    value = pieces[0][1].strip().rstrip(".;,") if pieces else ""
    return value if 0 < len(value) <= 120 else None


# ---------------------------------------------------------------------------------------- the agent
@dataclass
class _Notes:
    """What the planner knows about one field: the calls made for it and the places still to read."""

    searched: bool = False
    hits: list[tuple[float, int, int]] = field(default_factory=list)  # (score, page, line)
    pending: list[tuple[int, int, float]] = field(default_factory=list)  # (page, first line, score)
    tables: set[tuple[int, int]] = field(default_factory=set)  # (page, table) read, from 1
    looked_up: set[tuple[str, str]] = field(default_factory=set)


@dataclass(frozen=True)
class _Call:
    tool: str
    input: dict[str, Any]
    target: _Field


class _Agent:
    def __init__(
        self,
        pages: Sequence[str],
        json_schema: Mapping[str, Any],
        instructions: str | None,
        lookup: Lookup | None,
    ) -> None:
        self.fields = list(_fields(read_schema(json_schema)))
        self.workspace = Workspace(pages, lookup, field_score(self.fields))
        self.pages, self.lines, self.lookup = self.workspace.pages, self.workspace.lines, lookup
        self.reading = _Reading(
            writes_decimal_comma(self.pages),
            not (instructions and _MONTH_FIRST.search(instructions))
            and day_first_in(self.pages) is not False,
        )
        self.notes = {target.name: _Notes() for target in self.fields}
        try:
            self.validator: Draft202012Validator | None = Draft202012Validator(json_schema)
        except Exception:  # a schema jsonschema cannot hold: nothing to check changes against
            self.validator = None
        self.predictions: dict[str, Any] = {}
        self.likelihoods: dict[str, float] = {}

    @property
    def tables(self) -> list[Table]:
        return self.workspace.tables

    # ------------------------------------------------------------------ state
    def value(self, target: _Field) -> Any:
        value: Any = self.predictions
        for name in target.path:
            value = value.get(name) if isinstance(value, dict) else None
        return value

    def likelihood(self, target: _Field) -> float:
        value = self.value(target)
        if value is None or value == "" or value == []:
            return -1.0
        return self.likelihoods.get(target.name, 0.0)

    def weakest(self) -> list[_Field]:
        weak = [target for target in self.fields if self.likelihood(target) < _WEAK]
        return sorted(weak, key=self.likelihood)

    def errors(self, output: Any) -> int:
        if self.validator is None:
            return 0
        return sum(1 for error in self.validator.iter_errors(output) if error.instance is not None)

    def offer(self, target: _Field, value: Any, confidence: float) -> bool:
        """Takes `value` for the field when it is more likely than the prediction and still validates."""
        if value is None or value == [] or confidence <= self.likelihood(target):
            return False
        changed = copy.deepcopy(self.predictions)
        holder = changed
        for name in target.path[:-1]:
            inner = holder.get(name)
            if not isinstance(inner, dict):
                inner = holder[name] = {}
            holder = inner
        holder[target.path[-1]] = value
        if self.errors(changed) > self.errors(self.predictions):
            return False
        self.predictions = changed
        self.likelihoods[target.name] = round(confidence, 4)
        return True

    # ------------------------------------------------------------------ planning
    def next_call(self) -> _Call | None:
        for target in self.weakest():
            call = self.call_for(target)
            if call:
                return call
        return None

    def call_for(self, target: _Field) -> _Call | None:
        notes = self.notes[target.name]
        lookup = self.lookup_call(target, notes)
        if lookup:
            return lookup
        for table in self.tables_for(target, notes):
            if self.table_place(table) not in notes.tables:
                page, number = self.table_place(table)
                return _Call("read_table", {"field": target.name, "page": page, "table": number}, target)
        if not notes.searched:
            return _Call("search_text", {"field": target.name, "terms": self.terms(target)}, target)
        if notes.pending:
            return _Call("read_page", {"field": target.name, "page": notes.pending[0][0] + 1}, target)
        return None

    def lookup_call(self, target: _Field, notes: _Notes) -> _Call | None:
        if self.lookup is None or not _LOOKUP_HINT.search(target.description):
            return None
        by = self.looked_up_by(target)
        value = self.value(by[1]) if by else None
        if by is None or value is None or isinstance(value, dict | list):
            return None
        column, text = by[0], str(value)
        if (column, text) in notes.looked_up:
            return None
        return _Call("lookup_table", {"field": target.name, "column": column, "value": text}, target)

    def looked_up_by(self, target: _Field) -> tuple[str, _Field] | None:
        """The lookup table column the field is looked up by, and the field holding its value."""
        said = _LOOKED_UP_BY.search(target.description)
        wanted = label_key(said.group(1).replace("'s", "")) if said else ()
        described = label_key(target.description)
        for other in self.fields:
            key = label_key(" ".join(other.path))
            if other is target or other.node.kind in {"array", "object"}:
                continue
            if (wanted and (wanted == key or wanted in other.phrases)) or (
                not wanted and _within(key, described)
            ):
                return snake_case(" ".join(wanted or key)), other
        return None

    def tables_for(self, target: _Field, notes: _Notes) -> list[Table]:
        """The tables worth reading for the field: an array's, or those its search hits fell in."""
        found: list[Table] = []
        hit_pages = {page for _, page, line in notes.hits if self.lines[page][line].startswith("|")}
        for table in self.tables:
            if table.page in hit_pages or (target.node.kind == "array" and _columns(table, target)):
                found.append(table)
        return found

    def table_place(self, table: Table) -> tuple[int, int]:
        """The page a table starts on and its number among the tables starting there, from 1."""
        return self.workspace.place(table)

    @staticmethod
    def terms(target: _Field) -> list[str]:
        """The search terms shown: the field's own phrases, its telling words, then synonyms."""
        ranked = sorted(target.phrases, key=lambda phrase: -target.phrases[phrase])
        own = [" ".join(phrase) for phrase in ranked if target.phrases[phrase] == 1.0]
        others = [" ".join(phrase) for phrase in ranked if target.phrases[phrase] < 1.0]
        return list(dict.fromkeys([*own, *target.words, *target.described, *others]))[:8]

    # ------------------------------------------------------------------ tools
    def run(self, call: _Call) -> str:
        """The call made through its tool's definition, and the planner's reading of what it found."""
        tools: dict[str, Callable[[_Call], str]] = {
            SEARCH_TEXT.name: self.search_text,
            READ_PAGE.name: self.read_page,
            READ_TABLE.name: self.read_table,
            LOOKUP_TABLE.name: self.lookup_table,
        }
        try:
            return tools[call.tool](call)
        except ToolError as error:
            return str(error)

    def search_text(self, call: _Call) -> str:
        target, notes = call.target, self.notes[call.target.name]
        notes.searched = True
        output = SEARCH_TEXT.call(self.workspace, call.input)
        hits: list[Hit] = output.data
        notes.hits = [(hit.score, hit.page, hit.line) for hit in hits[:_MAX_HITS]]
        if not hits:
            return output.summary
        filled = None
        for hit in hits[:_MAX_HITS]:
            score, page, number, end = hit.score, hit.page, hit.line, hit.end
            line = self.lines[page][number]
            colon = line.find(":", end)
            free = _labels(line[:colon], target, score) if line[end:colon].strip() == "" else score >= _NAMED
            value = None if line.startswith("|") else _typed(line[end:], target.node, self.reading, free)
            if value is not None and self.offer(target, value, _SAME_LINE * score):
                filled = value
            elif not line.startswith("|"):
                notes.pending.append((page, number + 1, score))
        return output.summary + (f"; {target.name} = {_shown(filled)}" if filled is not None else "")

    def read_page(self, call: _Call) -> str:
        target, notes = call.target, self.notes[call.target.name]
        output = READ_PAGE.call(self.workspace, call.input)
        page: int = output.data
        places = [place for place in notes.pending if place[0] == page]
        notes.pending = [place for place in notes.pending if place[0] != page]
        value, confidence = self.paired_value(target, page)
        for _, first, score in places:
            later = self.value_after(target, page, first, score >= _NAMED)
            if later is None and page + 1 < len(self.lines) and len(self.lines[page]) - first < _LINES_AFTER:
                notes.pending.append((page + 1, 0, score))
            elif later is not None and _LATER_LINE * score > confidence:
                value, confidence = later, _LATER_LINE * score
        if value is not None and self.offer(target, value, confidence):
            return f"{output.summary}: {target.name} = {_shown(value)}"
        return f"{output.summary}: nothing better for {target.name}"

    def paired_value(self, target: _Field, page: int) -> tuple[Any, float]:
        """The best value of the label/value pairs of the page whose label names the field."""
        best: tuple[Any, float] = (None, 0.0)
        for pair in read_layout([self.pages[page]]).pairs:
            score = _match(pair.label, target)[0]
            value = (
                _typed(pair.value, target.node, self.reading, _labels(pair.label, target, score))
                if score >= _MIN_MATCH
                else None
            )
            if value is not None and _SAME_LINE * score > best[1]:
                best = (value, _SAME_LINE * score)
        return best

    def value_after(self, target: _Field, page: int, first: int, free_text: bool) -> Any:
        """The first of the lines after a label that holds a value for the field, labels skipped."""
        for line in self.lines[page][first : first + _LINES_AFTER]:
            if line.endswith(":") or self.names_other_field(line, target):
                continue
            if line.startswith("|"):
                return None
            value = _typed(line, target.node, self.reading, free_text)
            if value is not None:
                return value
        return None

    def names_other_field(self, line: str, target: _Field) -> bool:
        key = label_key(line)
        return is_label_text(line) and any(
            key in other.phrases for other in self.fields if other is not target
        )

    def read_table(self, call: _Call) -> str:
        target, notes = call.target, self.notes[call.target.name]
        notes.tables.add((call.input["page"], call.input["table"]))
        output = READ_TABLE.call(self.workspace, call.input)
        table: Table = output.data
        shape = output.summary
        if target.node.kind == "array":
            value: Any = self.table_items(table, target)
            found = f"{len(value)} item(s) for {target.name}" if value else None
        else:
            value = self.table_cell(table, target)
            found = f"{target.name} = {_shown(value)}" if value is not None else None
        if found and self.offer(target, value, _IN_TABLE):
            return f"{shape}; {found}"
        return f"{shape}; nothing better for {target.name}"

    def table_items(self, table: Table, target: _Field) -> list[Any]:
        item = target.node.items
        columns = _columns(table, target)
        if item is None or not columns:
            return []
        rows = [row for row in table.rows if any(row) and not is_summary_row(row)]
        if item.kind != "object":
            column = next(iter(columns.values()))
            return [value for row in rows if (value := _typed(row[column], item, self.reading)) is not None]
        return [
            {
                name: _typed(row[columns[name]], node, self.reading) if name in columns else None
                for name, node in item.properties
            }
            for row in rows
        ]

    def table_cell(self, table: Table, target: _Field) -> Any:
        """The value under a header cell naming the field, else right of a cell naming it, else under."""
        grid = [table.header, *table.rows]
        for row_number, row in enumerate(grid):
            for column, cell in enumerate(row):
                if not cell or _match(cell, target)[0] < _MIN_MATCH:
                    continue
                beside = row[column + 1] if column + 1 < len(row) else ""
                below = grid[row_number + 1][column] if row_number + 1 < len(grid) else ""
                free = _labels(cell, target, _match(cell, target)[0])
                for text in (below, beside) if row_number == 0 else (beside, below):
                    value = _typed(text, target.node, self.reading, free) if text else None
                    if value is not None:
                        return value
        return None

    def lookup_table(self, call: _Call) -> str:
        target, column = call.target, call.input["column"]
        self.notes[target.name].looked_up.add((column, call.input["value"]))
        output = LOOKUP_TABLE.call(self.workspace, call.input)  # a failing lookup: a ToolError, reported
        rows: list[dict[str, Any]] = output.data
        if not rows:
            return output.summary
        cell = _row_cell(rows[0], target, column)
        value = _typed(str(cell), target.node, self.reading) if cell is not None else None
        confidence = _LOOKED_UP if len(rows) == 1 else _LOOKED_UP / 2
        if value is not None and self.offer(target, value, confidence):
            return f"{output.summary}; {target.name} = {_shown(value)}"
        return f"{output.summary}; no usable {target.name} in them"


def _columns(table: Table, target: _Field) -> dict[str, int]:
    """The columns of the table holding the array's item properties (or the array's values)."""
    item = target.node.items
    if item is None:
        return {}
    if item.kind != "object":
        named = [column for column, cell in enumerate(table.header) if _match(cell, target)[0] >= _MIN_MATCH]
        return {target.path[-1]: named[0]} if named else {}
    columns: dict[str, int] = {}
    for name, node in item.properties:
        scores = [_match(cell, _named((name,), node))[0] for cell in table.header]
        best = max(range(len(scores)), key=lambda column: scores[column], default=-1)
        if best >= 0 and scores[best] >= _MIN_MATCH and best not in columns.values():
            columns[name] = best
    return columns if len(columns) >= min(2, len(item.properties)) else {}


def _row_cell(row: Mapping[str, Any], target: _Field, column: str) -> Any:
    """The cell of a lookup row named like the field: "vendor_id", or "id" when looked up by vendor."""
    own = label_key(target.path[-1])
    shared = set(label_key(column))
    rest = tuple(word for word in own if word not in shared)
    for wanted in (own, rest):
        for name, cell in row.items():
            if wanted and label_key(str(name)) == wanted and cell not in (None, ""):
                return cell
    return None


def _shown(value: Any) -> str:
    """A value as a summary shows it: text quoted and cut short, numbers and booleans as they are."""
    return quoted(value) if isinstance(value, str) else quoted(str(value))[1:-1]


def field_score(fields: Sequence[_Field]) -> Callable[[str, str], tuple[float, int] | None]:
    """How well a line names a field of the schema (by its dotted path), as search_text scores it: 0
    below the least a hit needs; None for a name that is not the schema's."""
    by_name = {target.name: target for target in fields}

    def score(name: str, line: str) -> tuple[float, int] | None:
        target = by_name.get(name)
        if target is None:
            return None
        matched, end = _match(line, target)
        return (matched, end) if matched >= _MIN_MATCH else (0.0, 0)

    return score


def schema_fields(json_schema: Mapping[str, Any]) -> list[_Field]:
    """The schema's fields as research reads them: leaves and arrays, nested objects walked into."""
    return list(_fields(read_schema(json_schema)))


# ---------------------------------------------------------------------------------------- the loop
def research(
    pages: Sequence[str],
    json_schema: Mapping[str, Any],
    *,
    num_agentic_steps: int = 7,
    max_tool_calls: int = 3,
    instructions: str | None = None,
    lookup: Lookup | None = None,
) -> Research:
    """The schema's fields found in `pages` by extraction, then by tool calls aimed at the weak fields."""
    agent = _Agent(pages, json_schema, instructions, lookup)
    trace: list[TraceStep] = []
    started = time.perf_counter()
    first = extract(agent.pages, json_schema, instructions)
    agent.predictions, agent.likelihoods = copy.deepcopy(first.output), dict(first.likelihoods)
    found = sum(1 for target in agent.fields if agent.likelihood(target) >= 0)
    summary = f"{found} of {len(agent.fields)} fields found, {len(agent.weakest())} weak"
    trace.append(
        TraceStep(
            1, "extract", {"fields": [target.name for target in agent.fields][:20]}, summary, _since(started)
        )
    )
    step, reason = 1, "no weak field left"
    while agent.weakest():
        if step >= max(num_agentic_steps, 1):
            reason = "step limit reached"
            break
        calls = _step(agent, step + 1, max(max_tool_calls, 1))
        if not calls:
            reason = "no tool call can help"
            break
        trace.extend(calls)
        step += 1
    found = sum(1 for target in agent.fields if agent.likelihood(target) >= 0)
    weak = [target.name for target in agent.weakest()][:10]
    summary = f"{reason}; {found} of {len(agent.fields)} fields found"
    trace.append(TraceStep(step, "finish", {"reason": reason, "weak_fields": weak}, summary, 0.0))
    return Research(agent.predictions, agent.likelihoods, trace)


def _step(agent: _Agent, step: int, max_tool_calls: int) -> list[TraceStep]:
    """Up to `max_tool_calls` calls, each planned once the one before has been made."""
    calls: list[TraceStep] = []
    while len(calls) < max_tool_calls:
        call = agent.next_call()
        if call is None:
            break
        started = time.perf_counter()
        summary = agent.run(call)
        calls.append(TraceStep(step, call.tool, call.input, summary, _since(started)))
    return calls


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
