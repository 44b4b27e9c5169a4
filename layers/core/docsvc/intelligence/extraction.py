"""The built-in extraction model: the fields of a JSON Schema found in a parse's pages, without an LLM.

A field is found by its label. A property is named by its name, its title, its description (and any
phrase quoted in it) and the usual synonyms of those ("Total" is also "Amount due" or "Grand total";
a vendor is also a supplier or a seller; "No." and "#" are "number"), compared by label key (see
`text`); "From" names who issued the document and "To" whom it is for (on a purchase order, the buyer
and the supplier). The value is after the label's colon, right of it past wide spacing, on the line
below, in a block of values beside a block of labels, run on after the label, in a table (a row of a
key and its value, a grid of keys beside values), or after the label inside a sentence for a date. A
label that only contains the property's name ("Order date" for `date`), or only the last word of it
("Date" for `order_date`), counts for less, and not at all when its other words change the meaning:
"Subtotal", "Total before tax" and "Line total" are not `total`, "Date" is not `due_date`.

A nested object is read from the block under its label ("From", "Bill to"): labelled fields in it,
else its first line as a name, the lines after as an address, e-mail addresses, phone numbers and web
addresses by their form. Without a label: who issued the document is its letterhead, a date is its
first date, a currency the one its amounts show, an enum value one printed alone ("CASH"), a boolean a
ticked box beside a statement naming it (a statement on its own line after a lone "X" is ticked, one
without it unticked where the document prints ticks so), a name a first and a last name. An array of
objects is the table whose headers best name the item's properties, continued across pages, without
its total rows and rows whose amounts do not read; or the rows under a row of such headers inside a
table, up to its totals, as a till roll prints them. Text cut across columns is joined back (a column
without a header and mostly of text belongs to the one left of it), and a column headed by a count
and a text ("QTY ITEM") is cut in two. Without such a table, the items are the lines of a text and an
amount a receipt prints ("2 x Cappuccino 7.00"). An array of other values is a table column or a
comma-separated value.

Values take the property's type: amounts with currency signs or codes and either decimal mark,
integers, booleans (yes/no, true/false, x, ✓, the ticked one of yes/no boxes), enums (the ticked or
closest allowed value, else None), strings matching their pattern, dates as YYYY-MM-DD with "format":
"date". A numeric date that reads both ways (03/04/2026) is read as the instructions say ("month
first", "MM/DD", "US dates"; "day first", "DD/MM"), else in the order the document's unambiguous
numeric dates show (25/03/2026: day first), else day first; its likelihood is lowered the more so the
weaker the reason.

A value not found is None where the schema allows null; otherwise it is left out when not required,
is the type's empty value when required and that is valid, else None (and the caller's validation
reports it). A likelihood is given per field path ("total", "vendor.name", "line_items"): 0.95 or more
for a label named like the property, less for a synonym, a partial label, a value in another form, an
ambiguous date or a value found without a label, 0 for a field not found.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator

from docsvc.intelligence.schemas import Node, read_schema
from docsvc.intelligence.text import (
    CUSTOMER_KEYS,
    DOCUMENT_TITLES,
    ORDER_TITLES,
    QUALIFIERS,
    SUMMARY_KEYS,
    VENDOR_KEYS,
    Key,
    Layout,
    Pair,
    Pos,
    Table,
    crossed,
    currency_of,
    is_label_text,
    is_summary_row,
    key_words,
    label_colon,
    label_key,
    parse_bool,
    parse_date,
    parse_number,
    parse_time,
    read_layout,
    rejoined,
    synonyms,
    ticked_options,
    variants,
    without_rate,
)

Path = tuple[str, ...]
Aliases = dict[Key, float]  # the label keys that name a field, with how well

_PRIOR = {"colon": 1.0, "spaced": 0.99, "cell": 0.97, "below": 0.97, "inline": 0.96, "column": 0.96}
_PRIOR |= {"region": 0.95, "next": 0.9}
_OWN, _QUOTED, _DESCRIBED, _SYNONYM, _VARIANT, _PARTIAL, _HEAD = 0.99, 0.95, 0.93, 0.85, 0.8, 0.62, 0.6
_OUTSIDE_BLOCK, _NO_BLOCK, _LETTERHEAD, _FIRST_DATE = 0.6, 0.75, 0.5, 0.4
_SHOWN_CURRENCY, _PRINTED_OPTION, _TICKED, _NAME_PARTS, _IN_SENTENCE = 0.7, 0.55, 0.75, 0.8, 0.75
_UNCROSSED = 0.6  # a statement printed without the X its ticked neighbours have: its box is empty
_MONTH_FIRST = re.compile(r"(?i)month[\s-]*first|mm/dd|\bu\.?s\.?\s+(?:date|format|style)|american")
_DAY_FIRST = re.compile(r"(?i)day[\s-]*first|dd/mm|european|british")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s,;]+")
_PHONE = re.compile(r"\+?\(?\d[\d ()./-]{5,}\d")
_SENTENCE = re.compile(r"[a-z]{2,} [a-z]{2,} .*\d")  # words in lower case, then a digit
_QUOTE = re.compile(r'["“]([^"“”]{1,60})["”]')
_LEAD = re.compile(r"\.?[\s:]*(?:[-\u2013\u2014]\s+)?")  # a colon or a dash between a label and its value


@dataclass(frozen=True)
class Extraction:
    output: dict[str, Any]  # validates against the json_schema; a value not found is None
    likelihoods: dict[str, float]  # per field path: "total", "vendor.name", "line_items"; 0..1


def extract(
    pages: Sequence[str], json_schema: Mapping[str, Any], instructions: str | None = None
) -> Extraction:
    """The schema's fields found in `pages` (a parse's text per page), each with its likelihood."""
    root = read_schema(json_schema if isinstance(json_schema, Mapping) else {})
    layout = read_layout([page if isinstance(page, str) else "" for page in pages])
    reading = _Reading(layout, _validator(json_schema), *_date_order(instructions, layout))
    slots = list(_slots(root, reading))
    reading.known = _known_labels(root, slots, reading)
    chosen = _assigned(slots, reading)
    builder = _Builder(reading, chosen)
    output = builder.object(root, (), root=True)[0]
    _repair(output, root, reading, builder.likelihoods)
    likelihoods = {path: round(min(max(score, 0.0), 1.0), 4) for path, score in builder.likelihoods.items()}
    return Extraction(output if isinstance(output, dict) else {}, likelihoods)


def _validator(schema: Any) -> Validator | None:
    try:
        return Draft202012Validator(schema)
    except Exception:  # a schema jsonschema cannot even hold
        return None


def _date_order(instructions: str | None, layout: Layout) -> tuple[bool, float]:
    """Whether numeric dates are day first, and the likelihood left to an ambiguous one read so."""
    if instructions and _MONTH_FIRST.search(instructions):
        return False, 0.97
    if instructions and _DAY_FIRST.search(instructions):
        return True, 0.97
    if layout.day_first is not None:
        return layout.day_first, 0.95
    return True, 0.9


# ---------------------------------------------------------------------------------------- the reading
@dataclass
class _Reading:
    """A document's layout, indexed for looking labels up, and how to read its values."""

    layout: Layout
    validator: Validator | None
    day_first: bool
    ambiguous_date: float
    known: frozenset[Key] = frozenset()  # every label the schema names: a value reading as one is not one
    pair_keys: list[Key] = field(default_factory=list)
    pairs_by_key: dict[Key, list[int]] = field(default_factory=dict)
    pairs_by_word: dict[str, list[int]] = field(default_factory=dict)
    bare_words: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    bare_by_word: dict[str, list[int]] = field(default_factory=dict)
    issuer: frozenset[Key] = VENDOR_KEYS  # who issued the document: the vendor, the buyer of an order
    recipient: frozenset[Key] = CUSTOMER_KEYS
    currency: str | None = None
    shows_crosses: bool = False  # ticked boxes come out as a lone X before their text
    _checks: dict[int, Validator] = field(default_factory=dict)
    _sentences: list[tuple[int, list[tuple[str, int]]]] | None = None

    def __post_init__(self) -> None:
        if _is_order(self.layout):
            self.issuer, self.recipient = CUSTOMER_KEYS, VENDOR_KEYS
        self.currency = currency_of(line.text for line in self.layout.lines)
        self.shows_crosses = any(
            line.cells is None and crossed(line.text) is not None and ticked_options([line.text]) == []
            for line in self.layout.lines
        )
        for index, pair in enumerate(self.layout.pairs):
            key = label_key(without_rate(pair.label))
            self.pair_keys.append(key)
            self.pairs_by_key.setdefault(key, []).append(index)
            for word in dict.fromkeys(key):
                self.pairs_by_word.setdefault(word, []).append(index)
        for index in self.layout.bare:
            words = key_words(self.layout.lines[index].text[:300])
            if len(words) >= 2:
                self.bare_words[index] = words
                self.bare_by_word.setdefault(words[0][0], []).append(index)

    def valid(self, node: Node, value: Any) -> bool:
        if self.validator is None:
            return True
        check = self._checks.get(id(node))
        if check is None:
            check = self._checks[id(node)] = self.validator.evolve(schema=node.schema)
        try:
            return bool(check.is_valid(value))
        except Exception:  # a pattern Python cannot compile, a reference to nowhere
            return True

    def reads_as_label(self, text: str) -> bool:
        stripped = text.strip()
        return stripped.endswith(":") or label_key(stripped) in self.known

    def aliases(self, name: str, node: Node) -> Aliases:
        """A property's labels; "From" names who issued the document, "To" whom it is for."""
        found = _aliases(name, node)
        for parties, word in ((self.issuer, "from"), (self.recipient, "to")):
            if any(key in parties for key, score in found.items() if score >= _SYNONYM * _VARIANT):
                _add(found, (word,), _SYNONYM)
        return found

    def sentences(self) -> list[tuple[int, list[tuple[str, int]]]]:
        """The lines that read as sentences holding a digit, with their key words: where a date may be
        stated after the words naming it."""
        if self._sentences is None:
            self._sentences = [
                (index, key_words(line.text))
                for index, line in enumerate(self.layout.lines)
                if line.cells is None and 20 <= len(line.text) <= 500 and _SENTENCE.search(line.text)
            ]
        return self._sentences

    def issued_by(self, aliases: Aliases) -> bool:
        """Whether the field is who issued the document, who its letterhead names."""
        return any(key in self.issuer for key, score in aliases.items() if score >= _SYNONYM * _VARIANT)


def _is_order(layout: Layout) -> bool:
    """Whether the document is an order, issued by its buyer (its title says so)."""
    return any(label_key(line.text) in ORDER_TITLES for line in layout.lines[:15] if line.page == 0)


# ---------------------------------------------------------------------------------------- naming
@dataclass(frozen=True)
class _Owner:
    path: Path
    aliases: Aliases
    children: frozenset[Key]  # labels of its own fields, which may stand inside its block


@dataclass(frozen=True)
class _Slot:
    """A field holding one value: where it goes, its schema, and the labels that name it."""

    path: Path
    node: Node
    aliases: Aliases  # labels naming it anywhere in the document
    local: Aliases  # labels naming it only inside its object's block ("Name" under "From")
    owner: _Owner | None


def _aliases(name: str, node: Node) -> Aliases:
    """A property's labels: its name, title and description (or phrases quoted in it), their synonyms,
    and those with one part said another way ("supplier name" for `vendor_name`)."""
    found: Aliases = {}
    _add(found, label_key(name), _OWN)
    _add(found, label_key(node.text("title")), _OWN)
    description = node.text("description")
    for phrase in _QUOTE.findall(description):
        _add(found, label_key(phrase), _QUOTED)
    if len(label_key(description)) <= 4:
        _add(found, label_key(description), _DESCRIBED)
    for key, score in list(found.items()):
        for other in synonyms(key):
            _add(found, other, score * _SYNONYM / _OWN)
        for other in variants(key):
            _add(found, other, score * _VARIANT / _OWN)
    for key in (label_key(name), label_key(node.text("title"))):
        if len(key) >= 2 and not QUALIFIERS & set(key[:-1]):
            _add(found, key[-1:], _HEAD)  # "Date" for `order_date`, not for `due_date` or `birth_date`
    return found


def _add(aliases: Aliases, key: Key, score: float) -> None:
    if key and score > aliases.get(key, 0.0):
        aliases[key] = score


def _composite(outer: Aliases, inner: Aliases) -> Aliases:
    """Labels naming a nested field with its object's name before its own: "Vendor name"."""
    found: Aliases = {}
    best_outer = sorted(outer.items(), key=lambda item: -item[1])[:16]
    best_inner = sorted(inner.items(), key=lambda item: -item[1])[:16]
    for outer_key, outer_score in best_outer:
        for inner_key, inner_score in best_inner:
            _add(found, outer_key + inner_key, outer_score * inner_score)
    for key, score in inner.items():
        if len(key) >= 2:  # specific enough to stand anywhere
            _add(found, key, score * 0.9)
    return found


def _slots(node: Node, reading: _Reading, path: Path = (), owner: _Owner | None = None) -> Iterator[_Slot]:
    for name, child in node.properties:
        here = (*path, name)
        own = reading.aliases(name, child)
        named = _composite(owner.aliases, own) if owner else own
        if child.kind == "object" and child.properties:
            children = frozenset(key for sub, subnode in child.properties for key in _aliases(sub, subnode))
            yield from _slots(child, reading, here, _Owner(here, {**own, **named}, children))
        elif child.kind not in {"object", "array", "null"} and not child.never:
            yield _Slot(here, child, named, own if owner else {}, owner)


def _known_labels(root: Node, slots: list[_Slot], reading: _Reading) -> frozenset[Key]:
    """The labels the schema names well (not by a word of its name only)."""
    known = {
        key for slot in slots for key, score in (*slot.aliases.items(), *slot.local.items()) if score > _HEAD
    }
    stack = [root]
    while stack:
        node = stack.pop()
        for name, child in node.properties:
            if child.kind in {"object", "array"}:
                known.update(key for key, score in reading.aliases(name, child).items() if score > _HEAD)
                stack.extend(sub for sub in (child, child.items) if sub is not None)
    return frozenset(known)


# ---------------------------------------------------------------------------------------- labels
def _labelled(aliases: Aliases, reading: _Reading, partial: bool = True) -> dict[int, float]:
    """The pairs whose label names the field, with how well: a longer label named is a better one."""
    scores: dict[int, float] = {}
    for key, score in aliases.items():
        for index in reading.pairs_by_key.get(key, ()):
            scores[index] = max(scores.get(index, 0.0), score + 0.001 * len(key))
        if not partial:
            continue
        for index in reading.pairs_by_word.get(key[0], ()):
            if index not in scores and _contains(reading.pair_keys[index], key):
                scores[index] = max(scores.get(index, 0.0), score * _PARTIAL)
    return scores


def _contains(label: Key, key: Key) -> bool:
    """`label` holds `key` with a few more words, none of which changes its meaning."""
    if not len(key) < len(label) <= len(key) + 3:
        return False
    for start in range(len(label) - len(key) + 1):
        if label[start : start + len(key)] == key:
            extra = label[:start] + label[start + len(key) :]
            return not any(word in QUALIFIERS or word.isdigit() for word in extra)
    return False


def _header_score(cell: str, aliases: Aliases) -> float:
    key = label_key(cell)
    if key in aliases:
        return aliases[key]
    return max((score * _PARTIAL for alias, score in aliases.items() if _contains(key, alias)), default=0.0)


def _inline(aliases: Aliases, reading: _Reading) -> Iterator[tuple[Pair, float]]:
    """Lines where a label runs straight into its value ("Total due 24.00"), with the label's score."""
    for key, score in aliases.items():
        for index in reading.bare_by_word.get(key[0], ()):
            words = reading.bare_words[index]
            if len(words) <= len(key) or tuple(word for word, _ in words[: len(key)]) != key:
                continue
            if label_key(reading.layout.lines[index].text) in reading.known:  # the line is a label itself
                continue
            end = words[len(key) - 1][1]
            if words[len(key)][1] == end:  # the label ends inside a word ("PO" is "purchase order")
                continue
            text = reading.layout.lines[index].text
            lead = _LEAD.match(text, end)
            start = lead.end() if lead else end
            if start < len(text):
                pair = Pair(text[:end], text[start:], "inline", (index, 0), (index, start))
                yield pair, score + 0.001 * len(key)


# ---------------------------------------------------------------------------------------- values
def _coerced(text: str, node: Node, reading: _Reading) -> tuple[Any, float] | None:
    """`text` as a value of the node's type, with how cleanly it read; None when it is not one."""
    text = " ".join(text.split())
    if not text:
        return None
    if node.enum is not None:
        return _enum_value(text, node.enum, reading)
    for kind in node.types or ("string",):
        found = _as_kind(kind, text, node, reading)
        if found is not None:
            return found
    return None


def _as_kind(kind: str, text: str, node: Node, reading: _Reading) -> tuple[Any, float] | None:
    if kind in {"number", "integer"}:
        number = parse_number(text, reading.layout.decimal_comma)
        if number is None or (kind == "integer" and not number[0].is_integer()):
            return None
        return (int(number[0]) if kind == "integer" else number[0]), number[1]
    if kind == "boolean":
        flag = parse_bool(text)
        return None if flag is None else (flag, 1.0)
    if kind == "string":
        return _as_string(text, node, reading)
    return None


def _as_string(text: str, node: Node, reading: _Reading) -> tuple[str, float] | None:
    form = node.text("format")
    if form in {"date", "date-time"}:
        found = parse_date(text, reading.day_first)
        if found is None:
            return None
        quality = reading.ambiguous_date if found.ambiguous else 1.0
        if form == "date":
            return found.value.isoformat(), quality
        time = parse_time(text)
        return f"{found.value.isoformat()}T{time or '00:00:00'}", quality * (1.0 if time else 0.9)
    if form == "time":
        time = parse_time(text)
        return (time, 1.0) if time else None
    if form in {"email", "uri", "url"}:
        match = (_EMAIL if form == "email" else _URL).search(text)
        return (match.group(), 1.0) if match else None
    return _matching_pattern(text, node.text("pattern"))


def _matching_pattern(text: str, pattern: str) -> tuple[str, float] | None:
    """The text, or the one word of it that matches the property's pattern."""
    quality = 1.0 if len(text) <= 200 else 0.8
    if not pattern:
        return text, quality
    try:
        if re.search(pattern, text):
            return text, quality
        words = [word.strip(",;()") for word in text.split()]
        return next(((word, 0.85) for word in words if word and re.search(pattern, word)), None)
    except re.error:
        return text, quality


def _enum_value(text: str, allowed: list[Any], reading: _Reading) -> tuple[Any, float] | None:
    """The allowed value `text` names: the same words, one holding the other, or a close spelling."""
    best: tuple[Any, float] | None = None
    for option in allowed:
        score = _closeness(text, option, reading)
        if score >= 0.6 and (best is None or score > best[1]):
            best = (option, score)
    return best


def _closeness(text: str, option: Any, reading: _Reading) -> float:
    if isinstance(option, bool):
        return 1.0 if parse_bool(text) is option else 0.0
    if isinstance(option, int | float):
        number = parse_number(text, reading.layout.decimal_comma)
        return 1.0 if number and number[0] == option else 0.0
    if not isinstance(option, str):
        return 0.0
    said, named = label_key(text), label_key(option)
    if text.casefold() == option.casefold() or (named and said == named):
        return 1.0
    if named and (_within(named, said) or _within(said, named)):
        return 0.85
    return difflib.SequenceMatcher(None, text.casefold(), option.casefold()).ratio() * 0.85


def _within(part: Key, whole: Key) -> bool:
    return bool(part) and any(whole[start : start + len(part)] == part for start in range(len(whole)))


# ---------------------------------------------------------------------------------------- blocks
@dataclass(frozen=True)
class _Region:
    """The lines under an object's label ("From" and the vendor's name and address), best first."""

    items: tuple[tuple[str, Pos], ...]
    score: float

    @property
    def lines(self) -> frozenset[int]:
        return frozenset(position[0] for _, position in self.items)


def _regions(aliases: Aliases, inside: frozenset[Key], reading: _Reading) -> list[_Region]:
    regions = []
    anchors = [
        (reading.layout.pairs[index], score)
        for index, score in _labelled(aliases, reading, partial=False).items()
    ]
    anchors += list(_inline(aliases, reading))
    for pair, score in anchors:
        items = _interleaved(pair, inside, reading) or _block_items(pair, inside, reading)
        if items:
            regions.append(_Region(tuple(items), score * _PRIOR["region"]))
    return sorted(regions, key=lambda region: (-region.score, region.items[0][1]))


def _block_items(pair: Pair, inside: frozenset[Key], reading: _Reading) -> list[tuple[str, Pos]]:
    if reading.reads_as_label(pair.value) and label_key(pair.value) not in inside:
        return []
    items = [(pair.value, pair.value_at)]
    for index in pair.rest:
        text = reading.layout.lines[index].text
        if _ends_block(text, inside, reading):
            break
        items.append((text, (index, 0)))
    return items


def _ends_block(text: str, inside: frozenset[Key], reading: _Reading) -> bool:
    """A line that starts something else: a label of another field."""
    colon = label_colon(text)
    label = text[:colon] if colon is not None else text
    key = label_key(label)
    return key not in inside and key in reading.known


def _interleaved(pair: Pair, inside: frozenset[Key], reading: _Reading) -> list[tuple[str, Pos]]:
    """Blocks printed side by side whose lines came out alternating: "From", "Bill to", then the
    vendor's and the customer's lines one after the other."""
    lines = reading.layout.lines
    line = pair.label_at[0]
    if pair.how != "below" or lines[line].block < 0:
        return []
    block = reading.layout.blocks[lines[line].block]

    def is_label(index: int) -> bool:
        return label_key(lines[index].text.rstrip(":")) in reading.known

    position = block.index(line)
    start, end = position, position + 1
    while start > 0 and is_label(block[start - 1]):
        start -= 1
    while end < len(block) and is_label(block[end]):
        end += 1
    if end - start < 2:
        return []
    items = []
    for index in block[end + position - start :: end - start]:
        if _ends_block(lines[index].text, inside, reading):
            break
        items.append((lines[index].text, (index, 0)))
    return items


def _letterhead(reading: _Reading) -> _Region | None:
    """The lines that open the document before any label, its title left out: who issued it."""
    layout = reading.layout
    items: list[tuple[str, Pos]] = []
    for block in layout.blocks[:3]:
        if layout.lines[block[0]].page != 0:
            break
        for index in block:
            text = layout.lines[index].text
            if label_colon(text) is not None or reading.reads_as_label(text):
                return _Region(tuple(items[:5]), _LETTERHEAD) if items else None
            if label_key(text) not in DOCUMENT_TITLES:
                items.append((text, (index, 0)))
    return _Region(tuple(items[:5]), _LETTERHEAD) if items else None


# ---------------------------------------------------------------------------------------- candidates
@dataclass(frozen=True)
class _Candidate:
    score: float
    order: Pos
    uses: frozenset[Pos]  # the label and value it takes: no two fields take the same
    value: Any


def _assigned(slots: list[_Slot], reading: _Reading) -> dict[Path, _Candidate]:
    """Each field its best candidate, best first over the whole document, no label or value twice."""
    regions = _RegionCache(reading)
    ranked = [
        (candidate, number)
        for number, slot in enumerate(slots)
        for candidate in _candidates(slot, reading, regions)
    ]
    ranked.sort(key=lambda item: (-item[0].score, item[0].order, item[1]))
    chosen: dict[Path, _Candidate] = {}
    used: set[Pos] = set()
    for candidate, number in ranked:
        path = slots[number].path
        if path not in chosen and not candidate.uses & used:
            chosen[path] = candidate
            used |= candidate.uses
    return chosen


@dataclass
class _RegionCache:
    reading: _Reading
    found: dict[Path, list[_Region]] = field(default_factory=dict)

    def of(self, owner: _Owner) -> list[_Region]:
        if owner.path not in self.found:
            regions = _regions(owner.aliases, owner.children, self.reading)
            issued = self.reading.issued_by(owner.aliases)
            letterhead = _letterhead(self.reading) if not regions and issued else None
            self.found[owner.path] = regions or ([letterhead] if letterhead else [])
        return self.found[owner.path]


def _candidates(slot: _Slot, reading: _Reading, regions: _RegionCache) -> Iterator[_Candidate]:
    pairs = reading.layout.pairs
    for index, score in _labelled(slot.aliases, reading).items():
        yield from _from_pair(slot, pairs[index], score, reading)
    for pair, score in _inline(slot.aliases, reading):
        yield from _from_pair(slot, pair, score, reading)
    if slot.owner is not None:
        owned = regions.of(slot.owner)
        lines = frozenset().union(*(region.lines for region in owned))
        elsewhere = _OUTSIDE_BLOCK if owned else _NO_BLOCK
        for index, score in _labelled(slot.local, reading).items():
            factor = 1.0 if pairs[index].label_at[0] in lines else elsewhere
            yield from _from_pair(slot, pairs[index], score * factor, reading)
        for region in owned:
            yield from _unlabelled(slot, region, reading)
    elif slot.node.kind in {"string", "any"}:
        for region in _regions(slot.aliases, frozenset(), reading)[:3]:
            yield from _unlabelled(slot, region, reading, whole=True)
        letterhead = _letterhead(reading) if reading.issued_by(slot.aliases) else None
        if letterhead:
            yield from _unlabelled(slot, letterhead, reading, whole=True)
    yield from _without_label(slot, reading)


# ---------------------------------------------------------------------------------------- without labels
_FIRST_NAMES = frozenset(
    label_key(label) for label in ("first name", "given name", "forename", "first names")
)
_LAST_NAMES = frozenset(label_key(label) for label in ("last name", "surname", "family name"))
_NOT_PEOPLE = frozenset(
    {"vendor", "supplier", "merchant", "company", "business", "product", "item", "bank", "store"}
)


def _without_label(slot: _Slot, reading: _Reading) -> Iterator[_Candidate]:
    """Values no label names, each less likely than a labelled one: a document's first date, the
    currency its amounts show, an allowed value printed alone ("Card"), a ticked statement ("[X] Send
    me the newsletter"), a first name and a last name."""
    key = label_key(slot.path[-1])
    if slot.node.text("format") in {"date", "date-time"}:
        yield from _dates_in_sentences(slot, reading)
    if slot.node.text("format") == "date" and slot.aliases.get(("date",), 0.0) >= _SYNONYM:
        yield from _first_date(slot, reading)
    if "currency" in key and reading.currency:
        candidate = _candidate(
            slot, reading.currency, _SHOWN_CURRENCY, (-1, 0), frozenset({(-1, 0)}), reading
        )
        yield from [candidate] if candidate else []
    if slot.node.enum is not None:
        yield from _printed_option(slot, reading)
    if slot.node.kind == "boolean":
        yield from _ticked_statements(slot, reading)
    if _role(slot.path[-1]) == "name" and not set(key) & _NOT_PEOPLE:
        yield from _first_and_last_name(slot, reading)


def _dates_in_sentences(slot: _Slot, reading: _Reading) -> Iterator[_Candidate]:
    """A date right after words naming the field inside a sentence: "Delivery is required by
    26/03/2025 at the address above"."""
    phrases = {key: score for key, score in slot.aliases.items() if len(key) >= 2 and score >= _SYNONYM}
    for index, words in reading.sentences():
        line = reading.layout.lines[index]
        for start in range(1, len(words)):
            for key, score in phrases.items():
                if tuple(word for word, _ in words[start : start + len(key)]) != key:
                    continue
                head = line.text[words[start + len(key) - 1][1] :].lstrip(" :,-")
                found = parse_date(head[:40], reading.day_first)
                if found is None or parse_date(head[: found.span + 3], reading.day_first) is None:
                    continue  # no date, or not right after the words
                value = found.value.isoformat()
                if reading.valid(slot.node, value):
                    yield _Candidate(score * _IN_SENTENCE, (index, 0), frozenset({(index, -2)}), value)


def _first_date(slot: _Slot, reading: _Reading) -> Iterator[_Candidate]:
    """The document's first dates, for its date when no label names one (a receipt's); a date another
    field took by its label is not one of them."""
    dates = 0
    for index, line in enumerate(reading.layout.lines[:200]):
        found = parse_date(line.text, reading.day_first)
        if found and reading.valid(slot.node, found.value.isoformat()):
            score = _FIRST_DATE - 0.01 * dates
            yield _Candidate(score, (index, 0), frozenset({(index, 0)}), found.value.isoformat())
            dates += 1
            if dates == 3:
                return


def _printed_option(slot: _Slot, reading: _Reading) -> Iterator[_Candidate]:
    """An allowed value printed on its own, as a receipt prints "CASH" or "Card" before the amount."""
    options = {label_key(option): option for option in slot.node.enum or () if isinstance(option, str)}
    for index, line in enumerate(reading.layout.lines):
        first = next((cell for cell in line.cells if cell), "") if line.cells else line.text
        option = options.get(label_key(first))
        if option is not None and reading.valid(slot.node, option):
            yield _Candidate(_PRINTED_OPTION, (index, 0), frozenset({(index, -1)}), option)
            return


def _ticked_statements(slot: _Slot, reading: _Reading) -> Iterator[_Candidate]:
    """A check box beside a statement about the field ("[X] Send me the newsletter"), or yes/no boxes
    under it."""
    words = {word for word in label_key(slot.path[-1]) + label_key(slot.node.text("title")) if len(word) > 3}
    for block in reading.layout.blocks:
        for position, index in enumerate(block):
            text = reading.layout.lines[index].text
            boxes = ticked_options([text]) or _crossed_box(text, reading)
            statement = boxes[0][1] if len(boxes) == 1 else text if not boxes else ""
            share = len(words & set(label_key(statement))) / len(words) if words else 0.0
            if share < 0.5:
                continue
            if len(boxes) != 1:
                boxes = ticked_options(
                    [reading.layout.lines[i].text for i in block[position + 1 : position + 3]]
                )
            flag = _ticked_flag(boxes)
            if flag is not None:
                yield _Candidate(_TICKED * share, (index, 0), frozenset({(index, -1)}), flag)
            elif not boxes and len(block) == 1 and reading.shows_crosses:
                yield _Candidate(_UNCROSSED * share, (index, 0), frozenset({(index, -1)}), False)


def _crossed_box(text: str, reading: _Reading) -> list[tuple[bool, str]]:
    """A statement on its own line after a lone X ("X Send me the newsletter"), in a document that
    prints other lines so: a drawn box, ticked."""
    statement = crossed(text)
    return [(True, statement)] if statement and reading.shows_crosses else []


def _ticked_flag(boxes: list[tuple[bool, str]]) -> bool | None:
    """A lone box's state, or which of yes/no boxes is ticked."""
    if len(boxes) == 1:
        return boxes[0][0]
    ticked = [parse_bool(text) for flag, text in boxes if flag]
    return ticked[0] if len(ticked) == 1 else None


def _first_and_last_name(slot: _Slot, reading: _Reading) -> Iterator[_Candidate]:
    """A person's name asked for whole and printed as a first name and a last name."""
    pairs = reading.layout.pairs
    first = next((pairs[i] for key in _FIRST_NAMES for i in reading.pairs_by_key.get(key, ())), None)
    last = next((pairs[i] for key in _LAST_NAMES for i in reading.pairs_by_key.get(key, ())), None)
    if first and last:
        uses = frozenset({first.label_at, first.value_at, last.label_at, last.value_at})
        text = f"{first.value.strip()} {last.value.strip()}"
        candidate = _candidate(slot, text, _NAME_PARTS * _PRIOR[first.how], first.label_at, uses, reading)
        yield from [candidate] if candidate else []


def _from_pair(slot: _Slot, pair: Pair, label_score: float, reading: _Reading) -> Iterator[_Candidate]:
    text, uses = pair.value, {pair.label_at, pair.value_at}
    following = [(pair.value, pair.value_at)] + [(reading.layout.lines[i].text, (i, 0)) for i in pair.rest]
    if _role(slot.path[-1]) == "address" and pair.how != "cell":
        kept = _until_block_ends(following[:4], reading)
        text, uses = ", ".join(line for line, _ in kept), uses | {position for _, position in kept}
    elif slot.node.kind == "boolean" or slot.node.enum is not None:
        boxes = ticked_options([line for line, _ in _until_block_ends(following[:6], reading)])
        if boxes:  # check boxes under or after the label: the ticked one is the value
            flag = _ticked_flag(boxes) if slot.node.kind == "boolean" else None
            ticked = [option for is_ticked, option in boxes if is_ticked]
            text = ("yes" if flag else "no") if flag is not None else ticked[0] if len(ticked) == 1 else ""
    candidate = _candidate(
        slot, text, label_score * _PRIOR[pair.how], pair.label_at, frozenset(uses), reading
    )
    if candidate:
        yield candidate


def _until_block_ends(items: list[tuple[str, Pos]], reading: _Reading) -> list[tuple[str, Pos]]:
    kept = items[:1]
    for text, position in items[1:]:
        if _ends_block(text, frozenset(), reading) or label_colon(text) is not None:
            break
        kept.append((text, position))
    return kept


def _candidate(
    slot: _Slot, text: str, score: float, order: Pos, uses: frozenset[Pos], reading: _Reading
) -> _Candidate | None:
    coerced = _coerced(text, slot.node, reading)
    if coerced is None:
        return None
    value, quality = coerced
    if isinstance(value, str) and reading.reads_as_label(value):
        return None
    if not reading.valid(slot.node, value):
        return None
    return _Candidate(score * quality, order, uses, value)


def _role(name: str) -> str | None:
    """What a nested field is, when its value can be told by its place or form in a block."""
    key = label_key(name)
    words = set(key)
    if "email" in words:
        return "email"
    if words & {"phone", "fax", "mobile"}:
        return "phone"
    if words & {"website", "url", "web", "homepage"}:
        return "url"
    if "address" in words or key in {("street",), ("location",)}:
        return "address"
    if key[-1:] == ("name",) or key in {("company",), ("organization",), ("organisation",), ("business",)}:
        return "name"
    return None


_FORMS: dict[str, re.Pattern[str]] = {"email": _EMAIL, "phone": _PHONE, "url": _URL}


def _is_initials(text: str) -> bool:
    """A logo's letters ("CE") above the name they stand for."""
    letters = text.replace(" ", "")
    return len(letters) <= 3 and letters.isalpha() and letters.isupper()


def _in_form(role: str, text: str) -> str | None:
    """The e-mail address, phone number or web address `text` holds; a phone number has seven digits
    or more and few letters around it ("Tel.")."""
    match = _FORMS[role].search(text)
    if match and role == "phone":
        digits = sum(char.isdigit() for char in match.group())
        return match.group() if digits >= 7 and sum(char.isalpha() for char in text) <= 6 else None
    return match.group() if match else None


def _unlabelled(slot: _Slot, region: _Region, reading: _Reading, whole: bool = False) -> Iterator[_Candidate]:
    """A field read from its object's block by place or form; with `whole`, the block is the field's."""
    role = "address" if whole and _role(slot.path[-1]) == "address" else _role(slot.path[-1])
    if whole and role not in {"address", "email", "phone", "url"}:
        role = "name"
    items = [(text, position) for text, position in region.items if label_colon(text) is None]
    plain = [(text, position) for text, position in items if not any(_in_form(form, text) for form in _FORMS)]
    found: list[tuple[str, frozenset[Pos], float]] = []
    if role in _FORMS:
        for text, position in items:
            value = _in_form(role, text)
            if value:
                found.append((value, frozenset({position}), 0.95))
                break
    elif role == "name" and plain:
        named = [item for item in plain if not _is_initials(item[0])] or plain
        found.append((named[0][0], frozenset({named[0][1]}), 0.9))
    elif role == "address" and plain[0 if whole else 1 :]:
        rest = plain[0 if whole else 1 :]
        found.append((", ".join(text for text, _ in rest), frozenset(position for _, position in rest), 0.85))
    for text, uses, quality in found:
        first = min(uses)
        candidate = _candidate(slot, text, region.score * quality, first, uses, reading)
        if candidate:
            yield candidate


# ---------------------------------------------------------------------------------------- building
@dataclass
class _Builder:
    reading: _Reading
    chosen: dict[Path, _Candidate]
    likelihoods: dict[str, float] = field(default_factory=dict)

    def object(self, node: Node, path: Path, root: bool = False) -> tuple[Any, bool]:
        """The object's value and whether anything in it was found."""
        output: dict[str, Any] = {}
        found = False
        for name, child in node.properties:
            present, value, child_found = self.property(child, (*path, name), name in node.required)
            if present:
                output[name] = value
            found |= child_found
        if not root and not found and node.nullable:
            return None, False
        return output, found

    def property(self, node: Node, path: Path, required: bool) -> tuple[bool, Any, bool]:
        """Whether the property is in the output, its value, and whether it was found."""
        if node.kind == "object" and node.properties:
            value, found = self.object(node, path)
            return True, value, found
        if node.kind == "array":
            items, score = _array(node, path[-1], self.reading)
            self.likelihoods[".".join(path)] = score if items is not None else 0.0
            if items is not None:
                return True, items, True
            return (*_missing(node), False)
        candidate = self.chosen.get(path)
        self.likelihoods[".".join(path)] = candidate.score if candidate else 0.0
        if candidate:
            return True, candidate.value, True
        return (*_missing(node), False)


def _missing(node: Node) -> tuple[bool, Any]:
    """What stands for a value not found: null, whatever type the schema gives the field (the service
    reads a null as "not found" and validates everything else); a property the schema forbids is left
    out."""
    return (False, None) if node.never else (True, None)


def _array(node: Node, name: str, reading: _Reading) -> tuple[list[Any] | None, float]:
    item = node.items or Node({}, {}, (), True)
    if item.kind == "object" and item.properties:
        return _table_items(item, reading)
    if item.kind in {"object", "array", "null"} or item.never:
        return None, 0.0
    return _listed(item, _aliases(name, node), reading)


def _columns(header: tuple[str, ...], fields: list[tuple[str, Aliases]]) -> dict[str, tuple[int, float]]:
    """Which column holds which field: best matches first, one column per field."""
    scored: list[tuple[float, str, int]] = []
    for name, aliases in fields:
        for column, cell in enumerate(header):
            score = _header_score(cell, aliases)
            if score > 0:
                scored.append((score, name, column))
    scored.sort(key=lambda item: (-item[0], item[2]))
    mapping: dict[str, tuple[int, float]] = {}
    taken: set[int] = set()
    for score, name, column in scored:
        if name not in mapping and column not in taken:
            mapping[name] = (column, score)
            taken.add(column)
    return mapping


def _table_items(item: Node, reading: _Reading) -> tuple[list[Any] | None, float]:
    """The rows of the table that best names the item's properties, as objects."""
    fields = [
        (name, _aliases(name, child))
        for name, child in item.properties
        if child.kind not in {"object", "array"}
    ]
    best: tuple[float, Table, bool, dict[str, tuple[int, float]]] | None = None
    for table, whole in _item_tables(reading.layout.tables):
        mapping = _columns(table.header, fields)
        if not fields or len(mapping) < min(2, len(fields)):
            continue
        quality = sum(score for _, score in mapping.values()) / len(mapping)
        quality *= 0.7 + 0.3 * len(mapping) / len(fields)
        if best is None or quality > best[0] + 1e-9:
            best = (quality, table, whole, mapping)
    if best is None:
        return _item_lines(item, fields, reading)
    quality, table, whole, mapping = best
    same = tuple(map(label_key, table.header))
    rows = [
        row
        for other in map(_tidied, reading.layout.tables)
        if tuple(map(label_key, other.header)) == same
        for row in other.rows
    ]
    return _rows_as_items(rows if whole else table.rows, item, mapping, quality, reading)


_COUNTED_TEXT = re.compile(r"(?P<count>\d+)\s*[x\u00d7]?\s+(?P<text>\D.*)")


def _item_tables(tables: Sequence[Table]) -> Iterator[tuple[Table, bool]]:
    """Each table (True), and each table under a row of headers inside one (False), as a till roll
    prints QTY/ITEM/AMOUNT under its heading lines: its rows up to the first total or next headers."""
    for table in tables:
        yield _tidied(table), True
        for at, row in enumerate(table.rows):
            if not _is_header_row(row):
                continue
            rest = table.rows[at + 1 :]
            end = next((n for n, other in enumerate(rest) if _ends_items(other)), None)
            rows = rest[: len(rest) if end is None else end]
            if rows:
                inner = Table(row, rows, table.lines[at + 1 : at + 2 + len(rows)], table.page)
                yield _tidied(inner), False


def _ends_items(row: Sequence[str]) -> bool:
    """A total, also when its word was cut across cells ("SUBTOT | AL"), or the next row of headers."""
    text = "".join(cell for cell in row if not _is_amount(cell))
    return is_summary_row(row) or is_summary_row([text]) or _is_header_row(row)


def _is_header_row(row: Sequence[str]) -> bool:
    filled = [cell for cell in row if cell]
    return len(filled) >= 2 and all(is_label_text(cell) for cell in filled)


def _tidied(table: Table) -> Table:
    """The table with text cut across columns put back together: a column without a header and
    mostly of text joins the column left of it, and a column headed by a count and a text ("QTY
    ITEM") whose cells all start with a count is split in two."""
    rows = _counts_apart(_headless_joined([table.header, *table.rows]))
    if rows[0] == table.header and tuple(rows[1:]) == table.rows:
        return table
    return Table(rows[0], tuple(rows[1:]), table.lines, table.page)


def _headless_joined(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The rows with each column without a header and mostly of text joined to the column left of it."""
    for column in range(len(rows[0]) - 1, 0, -1):
        if not rows[0][column] and _mostly_text(row[column] for row in rows):
            rows = [
                (*row[: column - 1], rejoined(row[column - 1 : column + 1]), *row[column + 1 :])
                for row in rows
            ]
    return rows


def _counts_apart(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The rows with a column headed by a count and a text ("QTY ITEM") cut in two, when each of its
    cells starts with a count."""
    for column, head in enumerate(rows[0]):
        words = head.split(maxsplit=1)
        cells = [row[column] for row in rows[1:] if row[column]]
        counted = bool(cells) and all(_COUNTED_TEXT.fullmatch(cell) for cell in cells)
        if len(words) == 2 and label_key(words[0]) == ("quantity",) and counted:
            return [_split_count(row, column, index == 0) for index, row in enumerate(rows)]
    return rows


def _mostly_text(cells: Iterable[str]) -> bool:
    """Whether fewer of the filled cells are numbers than are text."""
    filled = [cell for cell in cells if cell]
    return 2 * sum(map(_is_amount, filled)) < len(filled) or not filled


def _is_amount(text: str) -> bool:
    """Whether `text` is a number alone, without a unit after it ("250 g" is not)."""
    number = parse_number(text) if text else None
    return number is not None and number[1] == 1.0


def _split_count(row: tuple[str, ...], column: int, header: bool) -> tuple[str, ...]:
    """The row with the cell at `column` cut into its count and its text."""
    cell = row[column]
    if header:
        parts = cell.split(maxsplit=1)
    else:
        match = _COUNTED_TEXT.fullmatch(cell)
        parts = [match["count"], match["text"]] if match else ["", cell]
    return (*row[:column], *parts, *row[column + 1 :])


def _rows_as_items(
    rows: Sequence[tuple[str, ...]],
    item: Node,
    mapping: dict[str, tuple[int, float]],
    quality: float,
    reading: _Reading,
) -> tuple[list[Any], float]:
    items: list[Any] = []
    read = unread = 0
    for row in rows:
        cells = {name: row[column] for name, (column, _) in mapping.items() if column < len(row)}
        if is_summary_row(row) or not any(cells.values()) or (len(row) >= 3 and sum(map(bool, row)) <= 1):
            continue
        if _numbers_unread(cells, item, reading):
            continue
        value: dict[str, Any] = {}
        for name, child in item.properties:
            coerced = _coerced(cells.get(name, ""), child, reading)
            if coerced is not None and reading.valid(child, coerced[0]):
                value[name], read = coerced[0], read + 1
                continue
            unread += bool(cells.get(name))
            present, empty = _missing(child)
            if present:
                value[name] = empty
        items.append(value)
    return items, quality * (read / (read + unread) if read + unread else 1.0)


def _numbers_unread(cells: Mapping[str, str], item: Node, reading: _Reading) -> bool:
    """Whether the row fills two numeric fields or more but none of them reads as a number: text cut
    from around the table (a summary the parse ran across its columns), not an item."""
    kinds = dict(item.properties)
    numeric = [text for name, text in cells.items() if kinds[name].kind in {"number", "integer"} and text]
    return len(numeric) >= 2 and all(
        parse_number(text, reading.layout.decimal_comma) is None for text in numeric
    )


_ITEM_LINE = re.compile(r"(?P<text>\D.*?)\s+(?P<amount>\(?-?\S*\d[.,]\d{2}\)?\S*)")
_COUNTED = re.compile(r"(?P<count>\d+)\s*[x\u00d7]\s+(?P<text>.+)")
_CENTS = re.compile(r"\d[.,]\d{2}(?!\d)")
_DETAIL = re.compile(r"(?P<count>\d+)\s*[@x\u00d7]\s*\S*\d[.,]\d{2}\S*")
_PAYMENTS = frozenset(
    (word,)
    for word in ("cash", "card", "change", "tendered", "visa", "mastercard", "amex", "tip", "payment", "paid")
)
_LINE_ITEMS = 0.6  # items read from lines without a table count for less


def _item_lines(
    item: Node, fields: list[tuple[str, Aliases]], reading: _Reading
) -> tuple[list[Any] | None, float]:
    """Items printed as a text and an amount, on one line ("Cappuccino 3.50") or the amount on the line
    below, as receipts print them: the longest run of such items in a block, totals left out."""
    kinds = dict(item.properties)
    text = _field_for(fields, kinds, {"string"}, ("description",))
    amount = _field_for(fields, kinds, {"number"}, ("amount",), ("unit", "price"))
    count = _field_for(fields, kinds, {"integer", "number"}, ("quantity",))
    if text is None or amount is None:
        return None, 0.0
    runs = [_item_run(block, reading) for block in reading.layout.blocks]
    best = max(runs, key=len, default=[])
    if len(best) < 2:
        return None, 0.0
    rows = [(text_cell, amount_cell, count_cell) for count_cell, text_cell, amount_cell in best]
    mapping = {text: (0, 1.0), amount: (1, 1.0)} | ({count: (2, 1.0)} if count and count != amount else {})
    return _rows_as_items(rows, item, mapping, _LINE_ITEMS, reading)


def _item_run(block: tuple[int, ...], reading: _Reading) -> list[tuple[str, str, str]]:
    """The longest run of (count, text, amount) items in a block."""
    texts = [reading.layout.lines[index].text for index in block]
    best: list[tuple[str, str, str]] = []
    run: list[tuple[str, str, str]] = []
    position = 0
    while position < len(texts):
        found, used = _item_at(texts, position, reading)
        if found:
            run.append(found)
        else:
            best, run = max(best, run, key=len), []
        position += used
    return max(best, run, key=len)


def _item_at(texts: list[str], position: int, reading: _Reading) -> tuple[tuple[str, str, str] | None, int]:
    """The item starting at `texts[position]`, and how many lines it takes."""
    line = texts[position]
    following = texts[position + 1] if position + 1 < len(texts) else ""
    match = _ITEM_LINE.fullmatch(line) if len(line) <= 200 else None
    if match:
        described, amount, used = match["text"], match["amount"], 1
    elif _CENTS.search(following) and parse_number(following, reading.layout.decimal_comma):
        described, amount, used = line, following, 2
    else:
        return None, 1
    counted = _COUNTED.fullmatch(described)
    count, described = (counted["count"], counted["text"]) if counted else ("", described)
    key = tuple(word for word in label_key(without_rate(described)) if not word.isdigit())
    if key in SUMMARY_KEYS or key[:1] in _PAYMENTS or label_colon(described) is not None or not key:
        return None, 1
    detail = _DETAIL.fullmatch(texts[position + used].strip()) if position + used < len(texts) else None
    if detail:  # "4 @ 3.86" under the item: its count and unit price
        count, used = count or detail["count"], used + 1
    return (count, described, amount), used


def _field_for(
    fields: list[tuple[str, Aliases]], kinds: Mapping[str, Node], types: set[str], *keys: Key
) -> str | None:
    """The item property of one of `types` named like one of `keys`, else the first of those types."""
    typed = [(name, aliases) for name, aliases in fields if kinds[name].kind in types]
    named = next((name for name, aliases in typed if any(key in aliases for key in keys)), None)
    return named or (typed[0][0] if typed else None)


def _listed(item: Node, aliases: Aliases, reading: _Reading) -> tuple[list[Any] | None, float]:
    """An array of plain values: a table column named like the array, else a labelled list "a, b, c"."""
    for table in reading.layout.tables:
        mapping = _columns(table.header, [("values", aliases)])
        if mapping:
            column, score = mapping["values"]
            cells = [row[column] for row in table.rows if not is_summary_row(row) and row[column]]
            return _values(cells, item, reading, score)
    labelled = sorted(_labelled(aliases, reading).items(), key=lambda entry: (-entry[1], entry[0]))
    for index, score in labelled[:1]:
        pair = reading.layout.pairs[index]
        parts = [part for part in re.split(r"[,;]", pair.value) if part.strip()]
        return _values(parts, item, reading, score * _PRIOR[pair.how])
    return None, 0.0


def _values(texts: list[str], item: Node, reading: _Reading, score: float) -> tuple[list[Any], float]:
    values = []
    for text in texts:
        coerced = _coerced(text, item, reading)
        if coerced is not None and reading.valid(item, coerced[0]):
            values.append(coerced[0])
    return values, score * (len(values) / len(texts) if texts else 1.0)


# ---------------------------------------------------------------------------------------- repair
def _repair(output: Any, root: Node, reading: _Reading, likelihoods: dict[str, float]) -> None:
    """Values the whole schema still refuses (a constraint across fields, an item it cannot hold) are
    dropped as if not found, one at a time, so that the output validates wherever that can make it."""
    if reading.validator is None:
        return
    for _ in range(50):
        try:  # a null is "not found": whatever the schema says of it, it stands
            errors = [error for error in reading.validator.iter_errors(output) if error.instance is not None]
        except Exception:  # a schema jsonschema cannot apply
            return
        if not any(_drop(output, root, list(error.absolute_path), likelihoods) for error in errors):
            return


def _drop(output: Any, root: Node, path: list[Any], likelihoods: dict[str, float]) -> bool:
    """Drops the innermost value on `path` that can go: a field (to null, not found), else an item."""
    for end in range(len(path), 0, -1):
        name, container = path[end - 1], _at(output, path[: end - 1])
        if isinstance(name, int) and isinstance(container, list) and name < len(container):
            del container[name]
        elif isinstance(name, str) and isinstance(container, dict) and container.get(name) is not None:
            container[name] = None
        else:
            continue
        _lower(likelihoods, path[:end])
        return True
    return False


def _lower(likelihoods: dict[str, float], path: Sequence[Any]) -> None:
    """A dropped field is not found; a dropped cell makes its array less likely."""
    index = next((position for position, part in enumerate(path) if isinstance(part, int)), None)
    if index is None:
        likelihoods[".".join(path)] = 0.0
    else:
        array = ".".join(path[:index])
        likelihoods[array] = likelihoods.get(array, 0.0) * 0.8


def _at(value: Any, path: Sequence[Any]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _node_at(node: Node | None, path: Sequence[Any]) -> Node | None:
    for part in path:
        if node is None:
            return None
        node = node.items if isinstance(part, int) else dict(node.properties).get(part)
    return node
