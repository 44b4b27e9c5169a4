"""JSON Schemas for extraction: checking one, reading one, and inferring one from documents.

An extraction schema is a JSON Schema (draft 2020-12) whose root is an object with "properties"; its
references point inside it ("#/$defs/address"), since nothing is fetched.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from docsvc.intelligence.labels import (
    DOCUMENT_TITLES,
    SYNONYM_GROUPS,
    is_label_text,
    is_summary_row,
    label_key,
    snake_case,
    without_rate,
)
from docsvc.intelligence.layout import Layout, read_layout
from docsvc.intelligence.lines import Pos
from docsvc.intelligence.page_tables import Table
from docsvc.intelligence.pairs import Pair
from docsvc.intelligence.values import parse_bool, parse_date, parse_number

_JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
_MISSING = object()


class InvalidSchema(ValueError):
    """The schema cannot drive an extraction; the message says why and, where it can, where."""


# ---------------------------------------------------------------------------------------- checking
def check_json_schema(schema: Any) -> None:
    """Raises InvalidSchema unless `schema` is a valid JSON Schema (draft 2020-12) whose root is an
    object schema with "properties", and whose every "$ref" points to a place inside it."""
    if not isinstance(schema, Mapping):
        raise InvalidSchema(f"a JSON Schema for extraction is a JSON object, not {_json_type(schema)}")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        raise InvalidSchema(_explained(error)) from None
    except Exception as error:  # values that are not JSON at all, or nesting too deep to check
        raise InvalidSchema(f"the schema could not be read: {type(error).__name__}") from None
    _check_root(schema)
    _check_references(schema)


def checked_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` when it is a JSON Schema of an object with properties; else a ValueError, which a
    pydantic field validator answers as a 422 on the field."""
    try:
        check_json_schema(schema)
    except InvalidSchema as error:
        raise ValueError(str(error)) from None
    return schema


def _json_type(value: Any) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _pointer(path: Sequence[Any]) -> str:
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in path)


def _explained(error: SchemaError) -> str:
    path = list(error.absolute_path)
    where = f"at {_pointer(path)}" if path else "at the root"
    if path and path[-1] == "type" and error.validator in {"anyOf", "enum"}:
        names = ", ".join(_JSON_TYPES)
        return f"{where}: {error.instance!r} is not a JSON Schema type (the types are {names})"
    return f"{where}: {error.message}"


def _check_root(schema: Mapping[str, Any]) -> None:
    declared = schema.get("type", "object")
    if declared != "object" and not (isinstance(declared, list) and "object" in declared):
        raise InvalidSchema(
            f'at /type: the root of an extraction schema is an object ("type": "object"), not {declared!r}'
        )
    if "properties" not in schema:
        raise InvalidSchema('at the root: an extraction schema needs "properties", the fields to extract')


def _check_references(schema: Mapping[str, Any]) -> None:
    for path, subschema in _subschemas(schema):
        reference = subschema.get("$ref")
        if not isinstance(reference, str):
            continue
        where = _pointer([*path, "$ref"])
        if not reference.startswith("#"):
            raise InvalidSchema(
                f"at {where}: {reference!r} is outside the schema; only references inside it "
                '(such as "#/$defs/address") are followed'
            )
        if _resolve_pointer(schema, reference) is _MISSING:
            raise InvalidSchema(f"at {where}: {reference!r} points to nothing in the schema")


_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_SCHEMA_VALUES = (
    "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema",
)  # fmt: skip


def _subschemas(schema: Mapping[str, Any]) -> Iterator[tuple[tuple[Any, ...], Mapping[str, Any]]]:
    """Every schema object inside `schema` (itself first) with its path, without recursion."""
    stack: list[tuple[tuple[Any, ...], Mapping[str, Any]]] = [((), schema)]
    while stack:
        path, current = stack.pop()
        yield path, current
        children: list[tuple[tuple[Any, ...], Any]] = []
        for keyword in _SCHEMA_MAPS:
            value = current.get(keyword)
            if isinstance(value, Mapping):
                children += [((*path, keyword, name), sub) for name, sub in value.items()]
        for keyword in _SCHEMA_LISTS:
            value = current.get(keyword)
            if isinstance(value, list):
                children += [((*path, keyword, index), sub) for index, sub in enumerate(value)]
        children += [((*path, keyword), current.get(keyword)) for keyword in _SCHEMA_VALUES]
        stack.extend((child_path, sub) for child_path, sub in reversed(children) if isinstance(sub, Mapping))


def _resolve_pointer(root: Mapping[str, Any], reference: str) -> Any:
    """What a local reference ("#", "#/$defs/name") points to in `root`, or _MISSING."""
    fragment = unquote(reference[1:])
    if not fragment:
        return root
    if not fragment.startswith("/"):
        return _MISSING
    target: Any = root
    for raw in fragment[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(target, Mapping) and part in target:
            target = target[part]
        elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
            target = target[int(part)]
        else:
            return _MISSING
    return target


# ---------------------------------------------------------------------------------------- reading
_PREFERENCE = ("object", "array", "integer", "number", "boolean", "string")
_MAX_DEPTH = 12


@dataclass(frozen=True)
class Node:
    """A schema as extraction reads it: references followed, allOf merged, anyOf/oneOf folded.

    `schema` is the subschema values are validated against; `keywords` the keywords to read (for a
    union of one type and null, that type's). `types` are the non-null types allowed, the most
    specific first: () allows anything, ("null",) nothing but null.
    """

    schema: Mapping[str, Any]
    keywords: Mapping[str, Any]
    types: tuple[str, ...]
    nullable: bool
    properties: tuple[tuple[str, Node], ...] = ()
    required: frozenset[str] = field(default_factory=frozenset)
    items: Node | None = None
    never: bool = False  # the schema `false`, or a recursive reference: never given a value

    @property
    def kind(self) -> str:
        return self.types[0] if self.types else "any"

    @property
    def enum(self) -> list[Any] | None:
        if "const" in self.keywords:
            return [self.keywords["const"]]
        values = self.keywords.get("enum")
        return list(values) if isinstance(values, list) else None

    def text(self, keyword: str) -> str:
        value = self.keywords.get(keyword)
        return value if isinstance(value, str) else ""


def read_schema(root: Mapping[str, Any]) -> Node:
    return _Reader(root).node(root, 0, (id(root),))


@dataclass
class _Reader:
    root: Mapping[str, Any]

    def node(self, schema: Any, depth: int, chain: tuple[int, ...]) -> Node:
        """`chain` holds the schemas being read around this one: a reference back to one of them (a
        recursive schema) is not read again, and its value is left out."""
        if schema is False:
            return Node({"not": {}}, {}, (), False, never=True)
        if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
            return Node({}, {}, (), True)
        targets: list[int] = []
        schema = self.followed(schema, targets)
        if any(target in chain for target in targets):
            return Node(schema, schema, (), False, never=True)
        chain = (*chain, *targets)
        branches = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(branches, list) and branches:
            return self.union(schema, branches, depth, chain)
        types, nullable = _types(schema)
        properties: tuple[tuple[str, Node], ...] = ()
        items = None
        if "object" in types and isinstance(schema.get("properties"), Mapping):
            properties = tuple(
                (name, self.node(sub, depth + 1, chain)) for name, sub in schema["properties"].items() if name
            )
        if "array" in types:
            items = self.node(_items_schema(schema), depth + 1, chain)
        required = schema.get("required") if isinstance(schema.get("required"), list) else []
        names = frozenset(name for name in required if isinstance(name, str))
        return Node(schema, schema, types, nullable, properties, names, items)

    def followed(self, schema: Mapping[str, Any], targets: list[int]) -> Mapping[str, Any]:
        """`schema` with its "$ref" chain followed (its own keywords winning) and its allOf merged in;
        `targets` is told which schemas the references pointed to."""
        for _ in range(32):
            reference = schema.get("$ref")
            if not isinstance(reference, str):
                break
            target = _resolve_pointer(self.root, reference) if reference.startswith("#") else _MISSING
            rest = {key: value for key, value in schema.items() if key != "$ref"}
            schema = {**target, **rest} if isinstance(target, Mapping) else rest
            targets.append(id(target))
        parts = schema.get("allOf")
        if isinstance(parts, list) and parts:
            merged = {key: value for key, value in schema.items() if key != "allOf"}
            for part in parts:
                if isinstance(part, Mapping):
                    merged = _merged(merged, self.followed(part, targets))
            return merged
        return schema

    def union(
        self, schema: Mapping[str, Any], branches: list[Any], depth: int, chain: tuple[int, ...]
    ) -> Node:
        options = [self.node(branch, depth + 1, chain) for branch in branches]
        nullable = any(option.nullable for option in options)
        real = [option for option in options if option.types != ("null",) and not option.never]
        outer = {key: value for key, value in schema.items() if key not in {"anyOf", "oneOf"}}
        if not real:
            return Node(schema, outer, ("null",), True)
        if len(real) == 1:
            return replace(real[0], schema=schema, keywords={**real[0].keywords, **outer}, nullable=nullable)
        types = tuple(dict.fromkeys(kind for option in real for kind in option.types))
        types = tuple(sorted(types, key=_PREFERENCE.index)) if all(option.types for option in real) else ()
        shaped = next((option for option in real if option.properties), real[0])
        listed = next((option for option in real if option.items), None)
        return Node(
            schema,
            outer,
            types,
            nullable,
            shaped.properties,
            shaped.required,
            listed.items if listed else None,
        )


def _items_schema(schema: Mapping[str, Any]) -> Any:
    items = schema.get("items", schema.get("prefixItems", True))
    if isinstance(items, list):
        return items[0] if items else True
    return items


def _merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    merged = {**extra, **base}
    for keyword in ("properties", "$defs"):
        if isinstance(base.get(keyword), Mapping) and isinstance(extra.get(keyword), Mapping):
            merged[keyword] = {**extra[keyword], **base[keyword]}
    if isinstance(base.get("required"), list) and isinstance(extra.get("required"), list):
        merged["required"] = list(dict.fromkeys([*extra["required"], *base["required"]]))
    return merged


def _types(schema: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
    """The non-null types a schema allows (most specific first) and whether it allows null."""
    declared = schema.get("type")
    if isinstance(declared, str):
        listed = [declared]
    elif isinstance(declared, list):
        listed = [kind for kind in declared if isinstance(kind, str)]
    else:
        return _inferred_types(schema)
    real = sorted((kind for kind in set(listed) if kind in _PREFERENCE), key=_PREFERENCE.index)
    if not real:
        return ("null",) if "null" in listed else (), True
    return tuple(real), "null" in listed


def _inferred_types(schema: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
    if "properties" in schema:
        return ("object",), False
    if "items" in schema or "prefixItems" in schema:
        return ("array",), False
    values = schema.get("enum") if isinstance(schema.get("enum"), list) else None
    if "const" in schema:
        values = [schema["const"]]
    if values is not None:
        kinds = {_value_type(value) for value in values}
        real = sorted((kind for kind in kinds if kind in _PREFERENCE), key=_PREFERENCE.index)
        return tuple(real) or ("null",), "null" in kinds
    if "format" in schema or "pattern" in schema or "minLength" in schema or "maxLength" in schema:
        return ("string",), False
    return (), True


def _value_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "integer" if isinstance(value, int) else "number"
    if isinstance(value, list | dict):
        return "array" if isinstance(value, list) else "object"
    return "string"


# ---------------------------------------------------------------------------------------- generating
_SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
_ITEM_KEYS = frozenset(
    key
    for group in SYNONYM_GROUPS
    for key in group
    if group[0] in {("quantity",), ("unit", "price"), ("amount",)}
)
_NOT_FIELDS = frozenset({("page",)})
_STRICT_BOOLEANS = frozenset({"yes", "no", "true", "false"})


@dataclass
class _Field:
    label: str
    values: list[str] = field(default_factory=list)


@dataclass
class _Items:
    title: str
    columns: dict[str, _Field] = field(default_factory=dict)


def generate_schema(documents: Sequence[Sequence[str]], instructions: str | None = None) -> dict[str, Any]:
    """A JSON Schema for the label/value fields and the tables of `documents` (each a parse's pages).

    A field is a label with its value (after a colon, right of it, below it, in a two-cell table row);
    its property is the label in snake_case, titled with the label, typed by its values across the
    documents: boolean (yes/no, true/false), integer, number (amounts too), a date ("format": "date")
    or a string. A table of rows is an array of objects whose properties are its columns, named after
    the caption above it, else `line_items`; tables of one name in several documents are one array.
    `instructions` are not used.
    """
    fields: dict[str, _Field] = {}
    arrays: dict[str, _Items] = {}
    for pages in documents:
        layout = read_layout(pages)
        items = [table for table in layout.tables if _is_item_table(table)]
        taken = _table_lines(items, layout)
        for pair in _field_pairs(layout, taken):
            label = without_rate(pair.label)
            name = snake_case(label)
            if name:
                fields.setdefault(name, _Field(label)).values.append(pair.value)
        named: set[str] = set()
        for table in items:
            caption = _caption(table, layout)
            name = _unique(snake_case(caption) or "line_items", named)
            named.add(name)
            _add_table(arrays.setdefault(name, _Items(caption)), table)
    properties: dict[str, Any] = {name: _field_schema(found) for name, found in fields.items()}
    for name, array in arrays.items():
        properties[_unique(name, properties)] = _array_schema(array)
    return {"$schema": _SCHEMA_URI, "type": "object", "properties": properties}


def _is_item_table(table: Table) -> bool:
    """A table of rows of things, not a form laid out as a table (one row, or label and value)."""
    if len(table.rows) >= 2 and len(table.header) >= 2:
        return True
    return bool(table.rows) and any(label_key(cell) in _ITEM_KEYS for cell in table.header)


def _table_lines(tables: list[Table], layout: Layout) -> set[int]:
    """Every line of the tables, whole blocks for tables printed a block per row."""
    lines: set[int] = set()
    for table in tables:
        for index in table.lines:
            block = layout.lines[index].block
            lines.update(layout.blocks[block] if block >= 0 else (index,))
    return lines


def _field_pairs(layout: Layout, taken: set[int]) -> list[Pair]:
    """The pairs that are fields, in document order. Pairs on a line above or beside their value come
    first, so that a value (a name under "Bill to") is not taken for the label of the line below it."""
    fields: list[Pair] = []
    values: set[Pos] = set()
    for pair in sorted(layout.pairs, key=lambda pair: pair.how in {"below", "next"}):
        line = pair.label_at[0]
        if line in taken and not is_summary_row(layout.lines[line].cells or (pair.label,)):
            continue
        if pair.label_at not in values and _is_field(pair, layout):
            fields.append(pair)
            values.add(pair.value_at)
    for index in layout.bare:
        inline = _inline_pair(layout.lines[index].text, index)
        if inline and index not in taken and inline.label_at not in values:
            fields.append(inline)
    return sorted(fields, key=lambda pair: pair.label_at)


def _is_field(pair: Pair, layout: Layout) -> bool:
    key = label_key(pair.label)
    if not key or key in _NOT_FIELDS or len(key) > 6 or len(pair.label) > 50 or not pair.label[0].isalpha():
        return False
    if not pair.value.strip() or len(pair.value) > 120 or label_key(pair.value) == key:
        return False
    if pair.how in {"below", "next", "column"} and _names_a_field(pair.value):
        return False  # a label over another label
    if pair.how in {"below", "next"}:
        known = _names_a_field(pair.label) and key not in DOCUMENT_TITLES
        printed_colon = layout.lines[pair.label_at[0]].text.rstrip().endswith(":")
        return is_label_text(without_rate(pair.label)) and (
            printed_colon or known or _is_plain_value(pair.value)
        )
    return True


def _names_a_field(text: str) -> bool:
    key = label_key(text)
    return any(key in group for group in SYNONYM_GROUPS)


def _is_plain_value(text: str) -> bool:
    """A value that cannot be mistaken for text: an amount, a date, yes or no, a code with digits."""
    text = text.strip()
    found = parse_date(text)
    return (
        parse_number(text) is not None
        or (found is not None and found.span >= 0.6 * len(text))
        or text.lower() in _STRICT_BOOLEANS
        or (len(text.split()) == 1 and text[0].isalnum() and any(char.isdigit() for char in text))
    )


def _inline_pair(text: str, index: int) -> Pair | None:
    """ "Date 3 Feb 2026", "Receipt # R-889": a few words of label, then a value that starts with a
    word holding a digit and is an amount, a date or a code."""
    words = text.split()
    first = next((position for position, word in enumerate(words) if any(char.isdigit() for char in word)), 0)
    label, value = " ".join(words[:first]), " ".join(words[first:])
    if not (0 < first <= 4 and is_label_text(label) and label_key(label) not in _NOT_FIELDS):
        return None
    if not _is_plain_value(value) or value.endswith("%"):
        return None
    return Pair(label, value, "inline", (index, 0), (index, len(text) - len(text.lstrip()) + len(label) + 1))


def _caption(table: Table, layout: Layout) -> str:
    before = table.lines[0] - 1
    if before >= 0:
        line = layout.lines[before]
        titled = line.cells is None and line.page == table.page and is_label_text(line.text)
        if titled and label_key(line.text) not in DOCUMENT_TITLES:
            return line.text.rstrip(":").strip()
    return "Line items"


def _add_table(items: _Items, table: Table) -> None:
    named: set[str] = set()
    for position, header in enumerate(table.header):
        column = _unique(snake_case(header) or f"column_{position + 1}", named)
        named.add(column)
        found = items.columns.setdefault(column, _Field(header or column))
        found.values += [row[position] for row in table.rows if row[position] and not is_summary_row(row)]


def _unique(name: str, taken: Mapping[str, Any] | set[str]) -> str:
    candidate, suffix = name, 2
    while candidate in taken:
        candidate, suffix = f"{name}_{suffix}", suffix + 1
    return candidate


def _field_schema(found: _Field) -> dict[str, Any]:
    label = found.label.rstrip(":").strip()
    return {
        **_value_type_schema(found.values),
        "title": label,
        "description": f'The value labelled "{label}".',
    }


def _array_schema(items: _Items) -> dict[str, Any]:
    columns = {
        name: {
            **_value_type_schema(column.values),
            "title": column.label,
            "description": f'The "{column.label}" column.',
        }
        for name, column in items.columns.items()
    }
    return {
        "type": "array",
        "title": items.title,
        "description": f'The rows of the table "{items.title}".',
        "items": {"type": "object", "properties": columns},
    }


def _value_type_schema(values: Sequence[str]) -> dict[str, Any]:
    texts = [value.strip() for value in values if value.strip()]
    if not texts:
        return {"type": "string"}
    if all(text.lower() in _STRICT_BOOLEANS for text in texts) and all(
        parse_bool(t) is not None for t in texts
    ):
        return {"type": "boolean"}
    dates = [parse_date(text) for text in texts]
    if all(found and found.span >= 0.6 * len(text) for found, text in zip(dates, texts, strict=True)):
        return {"type": "string", "format": "date"}
    numbers = [parse_number(text) for text in texts]
    if all(number and number[1] == 1.0 for number in numbers):
        plain = all(text.lstrip("-+").isdigit() for text in texts)
        return {"type": "integer" if plain else "number"}
    return {"type": "string"}
