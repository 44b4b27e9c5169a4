"""The built-in extraction model: the fields of a JSON Schema found in a parse's pages, without an LLM.

A field is found by its label. A property is named by its name, its title, its description (and any
phrase quoted in it) and the usual synonyms of those ("Total" is also "Amount due" or "Grand total";
a vendor is also a supplier or a seller; "No." and "#" are "number"), compared by label key (see
`labels`); "From" names who issued the document and "To" whom it is for (on a purchase order, the buyer
and the supplier). The value is after the label's colon, right of it past wide spacing, on the line
below, in a block of values beside a block of labels, run on after the label, in a table (a row of a
key and its value, a grid of keys beside values), or after the label inside a sentence for a date. A
label that only contains the property's name ("Order date" for `date`), or only the last word of it
("Date" for `order_date`), counts for less, and not at all when its other words change the meaning:
"Subtotal", "Total before tax" and "Line total" are not `total`, "Date" is not `due_date`.

A nested object is read from the block under its label ("From", "Bill to"): labelled fields in it,
else its first line as a name, the lines after as an address, e-mail addresses, phone numbers and web
addresses by their form. Without a label: who issued the document is its letterhead, a date is its
first date, a total the amount printed alone after the net amount and tax it sums, a currency the one
its amounts show, an enum value one printed alone ("CASH"), a boolean a ticked box beside a statement
naming it (a statement on its own line after a lone "X" is ticked, one without it unticked where the
document prints ticks so), a name a first and a last name. An array of
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
numeric dates show (25/03/2026: day first), else month first on an American document (a US state
and ZIP code), else day first; its likelihood is lowered the more so the
weaker the reason.

A value not found is None where the schema allows null; otherwise it is left out when not required,
is the type's empty value when required and that is valid, else None (and the caller's validation
reports it). A likelihood is given per field path ("total", "vendor.name", "line_items"): 0.95 or more
for a label named like the property, less for a synonym, a partial label, a value in another form, an
ambiguous date or a value found without a label, 0 for a field not found.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator

from docsvc.intelligence.candidates import Candidate, Path, field_slots, known_labels
from docsvc.intelligence.coercion import missing_value
from docsvc.intelligence.items import array_value
from docsvc.intelligence.layout import Layout, read_layout
from docsvc.intelligence.matching import assigned
from docsvc.intelligence.reading import Reading
from docsvc.intelligence.receipts import prints_month_first
from docsvc.intelligence.repair import repair
from docsvc.intelligence.schemas import Node, read_schema

_MONTH_FIRST = re.compile(r"(?i)month[\s-]*first|mm/dd|\bu\.?s\.?\s+(?:date|format|style)|american")
_DAY_FIRST = re.compile(r"(?i)day[\s-]*first|dd/mm|european|british")


# What a value was read from: its page (0-based), the text as printed, and the line(s) it stands in.
Evidence = tuple[int, str, str]


@dataclass(frozen=True)
class Extraction:
    output: dict[str, Any]  # validates against the json_schema; a value not found is None
    likelihoods: dict[str, float]  # per field path: "total", "vendor.name", "line_items"; 0..1
    evidence: dict[str, Evidence] = field(default_factory=dict)  # per leaf path found by its label


def extract(
    pages: Sequence[str],
    json_schema: Mapping[str, Any],
    instructions: str | None = None,
    ocr_confidence: Sequence[float | None] = (),
) -> Extraction:
    """The schema's fields found in `pages` (a parse's text per page), each with its likelihood.
    `ocr_confidence` gives, per page, the mean word confidence (0-100) of a page read by OCR (None for
    a page with a text layer): a value read there is the less likely the less sure OCR was, unless
    a check confirms it (see `ocr_doubt`)."""
    root = read_schema(json_schema if isinstance(json_schema, Mapping) else {})
    layout = read_layout([page if isinstance(page, str) else "" for page in pages])
    reading = Reading(layout, _validator(json_schema), *_date_order(instructions, layout))
    slots = list(field_slots(root, reading))
    reading.known = known_labels(root, slots, reading)
    chosen = assigned(slots, reading)
    builder = _Builder(reading, chosen, tuple(ocr_confidence))
    output = builder.object(root, (), root=True)[0]
    repair(output, root, reading, builder.likelihoods)
    likelihoods = {path: round(min(max(score, 0.0), 1.0), 4) for path, score in builder.likelihoods.items()}
    return Extraction(output if isinstance(output, dict) else {}, likelihoods, builder.evidence)


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
    if prints_month_first(line.text for line in layout.lines):
        return False, 0.9
    return True, 0.9


# A value read by OCR keeps its likelihood on a page OCR read at SURE_OCR mean word confidence or
# better; below, it loses OCR_DOUBT of it per point, down to OCR_FLOOR of it. A value a check confirms
# (an identifier's check digits, amounts that add up) keeps it whatever the page.
SURE_OCR, OCR_DOUBT, OCR_FLOOR = 90.0, 0.02, 0.5


def ocr_doubt(confidence: float | None) -> float:
    """What a value read on a page of this OCR mean word confidence keeps of its likelihood."""
    if confidence is None:
        return 1.0
    return min(1.0, max(OCR_FLOOR, 1.0 - OCR_DOUBT * (SURE_OCR - confidence)))


@dataclass
class _Builder:
    reading: Reading
    chosen: dict[Path, Candidate]
    ocr_confidence: tuple[float | None, ...] = ()
    likelihoods: dict[str, float] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)

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
            items, score = array_value(node, path[-1], self.reading)
            self.likelihoods[".".join(path)] = score if items is not None else 0.0
            if items is not None:
                return True, items, True
            return (*missing_value(node), False)
        candidate = self.chosen.get(path)
        self.likelihoods[".".join(path)] = candidate.score * self._kept(candidate) if candidate else 0.0
        if candidate:
            self._note_evidence(".".join(path), candidate)
            return True, candidate.value, True
        return (*missing_value(node), False)

    def _kept(self, candidate: Candidate) -> float:
        """What the candidate keeps of its likelihood for the OCR of the page it was read on (every
        OCR'd page's, the least sure, for a value read from no line in particular)."""
        if candidate.checked or not any(c is not None for c in self.ocr_confidence):
            return 1.0
        layout = self.reading.layout.lines
        pages = {layout[index].page for index, _ in candidate.uses if 0 <= index < len(layout)}
        if not pages:
            pages = set(range(len(self.ocr_confidence)))
        confidences = [self.ocr_confidence[page] for page in pages if page < len(self.ocr_confidence)]
        return min((ocr_doubt(confidence) for confidence in confidences), default=1.0)

    def _note_evidence(self, path: str, candidate: Candidate) -> None:
        """Where the candidate was read: the page and lines of the label and value it takes."""
        lines = sorted({index for index, _ in candidate.uses if index >= 0})
        if not lines or not candidate.text:
            return
        layout = self.reading.layout.lines
        page = layout[lines[-1]].page
        context = " ".join(layout[index].text for index in lines if layout[index].page == page)
        self.evidence[path] = (page, candidate.text, context)
