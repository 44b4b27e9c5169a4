"""The fields a schema asks for and the candidate values that may fill them.

A slot is a field holding one value, with the labels naming it anywhere and, inside an object, those
naming it only within its object's block. A candidate is a value for a slot with its score, its place
in the document and the labels and values it takes; a nested field's role (a name, an address, an
e-mail address, a phone number, a web address) says how its value can be told by place or form.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from docsvc.intelligence.classification import is_salutation
from docsvc.intelligence.coercion import coerce_value
from docsvc.intelligence.identifiers import (
    FORM_ONLY,
    find_identifier,
    identifier_kind,
    is_reference_field,
    national_iban,
    national_vat,
    reference_code,
)
from docsvc.intelligence.labels import DOCUMENT_TITLES, Key, amount_role, key_words, label_key
from docsvc.intelligence.lines import Pos
from docsvc.intelligence.reading import HEAD, Aliases, Reading, composite_aliases, field_aliases
from docsvc.intelligence.schemas import Node
from docsvc.intelligence.splitting import page_marker
from docsvc.intelligence.values import currency_of, parse_date

Path = tuple[str, ...]

PRIOR = {"colon": 1.0, "spaced": 0.99, "cell": 0.97, "below": 0.97, "inline": 0.96, "column": 0.96}
PRIOR |= {"region": 0.95, "next": 0.9, "above": 0.85}
LEGAL_FORM = re.compile(
    r"(?i)(?:gmbh|ag|kg|ohg|ug|e\.?\s?k\.?|ltd\.?|limited|inc\.?|llc|plc|corp\.?|co\.?|s\.?a\.?r?\.?l?\.?|"
    r"sas|sasu|eurl|b\.?v\.?|n\.?v\.?|s\.?p\.?a\.?|s\.?r\.?l\.?|s\.?l\.?|lda\.?|sp\.? z o\.?o\.?|"
    r"(?-i:A[Bb]|A/S|ApS|ASA|AS|Oyj?))"  # Nordic forms, in their capitals: "as" is a word
    r"(?:\s?&\s?co\.?\s?(?:kgaa|kg|ohg))?"  # "GmbH & Co. KG"
)


# A rate printed alone ("19%", "7,5 %"): no amount of money, whatever label it stands by; but a rate
# of nothing ("0%", "0,00 %") is an amount of nothing too.
_PERCENTAGE = re.compile(r"\s*[-+]?(?![0.,\s]*%)\d[\d.,\s]*%\s*")
_TITLE_WORDS = 3  # words, at most, of a title taken for a name: the title's and one or two before it


BARE_LABELS = frozenset(
    label_key(word) for word in ("number", "name", "address", "date", "phone", "email", "reference", "id")
)


def is_titled_number(text: str) -> bool:
    """A document's title with its number: "Invoice 103767", "Rechnung Nr. 4711", "Facture FA-12"."""
    words = key_words(text)
    for size in (1, 2, 3):
        if size < len(words) and tuple(word for word, _ in words[:size]) in DOCUMENT_TITLES:
            return any(char.isdigit() for char in text[words[size - 1][1] :])
    return False


def _is_a_title(text: str) -> bool:
    """A document's title with a word or two before it ("Draft invoice", "Concept factuur"), or with
    whom it is for after it ("Factuur voor Bram")."""
    key = label_key(text)
    if len(key) > 2 and key[:1] in DOCUMENT_TITLES and key[1] in _FOR_WORDS:
        return True
    return 1 < len(key) <= _TITLE_WORDS and (key[-1:] in DOCUMENT_TITLES or key[-2:] in DOCUMENT_TITLES)


_FOR_WORDS = frozenset({"for", "voor", "fur", "pour", "para", "per", "dla"})


@dataclass(frozen=True)
class Owner:
    path: Path
    aliases: Aliases
    children: frozenset[Key]  # labels of its own fields, which may stand inside its block


@dataclass(frozen=True)
class Slot:
    """A field holding one value: where it goes, its schema, and the labels that name it."""

    path: Path
    node: Node
    aliases: Aliases  # labels naming it anywhere in the document
    local: Aliases  # labels naming it only inside its object's block ("Name" under "From")
    owner: Owner | None


def field_slots(node: Node, reading: Reading, path: Path = (), owner: Owner | None = None) -> Iterator[Slot]:
    for name, child in node.properties:
        here = (*path, name)
        own = reading.aliases(name, child)
        named = composite_aliases(owner.aliases, own) if owner else own
        if child.kind == "object" and child.properties:
            children = frozenset(
                key for sub, subnode in child.properties for key in field_aliases(sub, subnode)
            )
            yield from field_slots(child, reading, here, Owner(here, {**own, **named}, children))
        elif child.kind not in {"object", "array", "null"} and not child.never:
            yield Slot(here, child, named, own if owner else {}, owner)


def known_labels(root: Node, slots: list[Slot], reading: Reading) -> frozenset[Key]:
    """The labels the schema names well (not by a word of its name only)."""
    known = {
        key for slot in slots for key, score in (*slot.aliases.items(), *slot.local.items()) if score > HEAD
    }
    stack = [root]
    while stack:
        node = stack.pop()
        for name, child in node.properties:
            if child.kind in {"object", "array"}:
                known.update(key for key, score in reading.aliases(name, child).items() if score > HEAD)
                stack.extend(sub for sub in (child, child.items) if sub is not None)
    return frozenset(known)


@dataclass(frozen=True)
class Candidate:
    score: float
    order: Pos
    uses: frozenset[Pos]  # the label and value it takes: no two fields take the same
    value: Any
    text: str = ""  # what the value was read from, as printed
    checked: bool = False  # confirmed by a check: an identifier's check digits, amounts that add up


def candidate_of(
    slot: Slot,
    text: str,
    score: float,
    order: Pos,
    uses: frozenset[Pos],
    reading: Reading,
    numbered: bool = False,
) -> Candidate | None:
    """`text` as a candidate for `slot`, or None when it cannot be its value. `numbered`: a label says
    the text is a number ("Faktura nr"), so a reference shaped as a date is one ("1/3/2024", invoice 1
    of March 2024, as Polish and Czech invoices number theirs)."""
    kind = identifier_kind(slot.path[-1]) if slot.node.kind == "string" else None
    national = None
    if kind is not None:
        found = find_identifier(kind, text)
        if found is None and kind == "iban":
            national = national_iban(text, reading.countries)
            found = (national[0], 1.0) if national else None
        elif found is None and kind == "vat":
            # or the Indian GSTIN, the GST's registration number (its check right), which a GST invoice
            # prints as its VAT id ("GST Registration No: 27AAQCS4259Q1ZA")
            found = national_vat(text, reading.countries) or find_identifier("gstin", text)
        if found is None:
            return None
        text = found[0]
    elif _is_currency(slot):
        code = currency_of([text])
        if code is None:
            return None
        text = code
    elif (
        slot.node.kind == "string"
        and not slot.node.text("pattern")
        and is_reference_field(label_key(slot.path[-1]))
    ):
        if counts_sheets(text):
            return None  # "Folio 1 de 1", "Page 2 of 3": the sheet's place among the document's, no number
        code = reference_code(text.lstrip(" #:.°º-"), dated=numbered)
        if code is None:
            return None
        text = code
    if _PERCENTAGE.fullmatch(text) and slot.node.kind in {"number", "integer"} and amount_role(slot.aliases):
        return None  # "Umsatzsteuer 19%": the tax's rate, not its amount ("Tax Rate 0%" is no tax)
    coerced = coerce_value(text, slot.node, reading)
    if coerced is None:
        return None
    value, quality = coerced
    if national is not None:
        value = national[1]  # the IBAN its printed account number is, with the document's country code
    if kind is not None and found is not None:
        quality *= found[1]
    if isinstance(value, str) and (reading.reads_as_label(value) or LEGAL_FORM.fullmatch(value.strip())):
        return None  # a label, or the legal form of a company whose name was read as a label
    if isinstance(value, str) and role_of(slot.path[-1]) == "name":
        value = name_before_its_address(value)
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and sum(c.isalpha() for c in value) < 2:
        return None  # a name has letters: "2" after "Customer number", a logo's lone "x", names no one
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and label_key(value) in BARE_LABELS:
        return None  # a label's word, "Nummer" before its colon, is no one's name
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and is_titled_number(value):
        return None  # "Invoice 103767" is the document's title and number, not who issued it
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and _is_a_title(value):
        return None  # "CONCEPT FACTUUR", a draft's title (after an icon read as "I"), names no one
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and _opens_with_code(value):
        return None  # "1234567-8 Viitenumero ...": a customer or business number, and what follows it
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and _opens_with_date(value):
        return None  # "January 1, 2024 - January 31, 2024" is a period, no one's name
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and page_marker([value]) is not None:
        return None  # "Page 1 of 1" at the head of a page numbers it, it names no one
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and is_salutation(value):
        return None  # "Geachte medewerker van het Parcival college,": a letter's greeting names its reader
    if isinstance(value, str) and role_of(slot.path[-1]) == "name" and is_placeholder(value):
        return None  # "{BARCODE}", "[CUSTOMER_NAME]": a template's field its program left unfilled
    if not reading.valid(slot.node, value):
        return None
    checked = kind is not None and found is not None and found[1] > FORM_ONLY and kind != "bic"
    return Candidate(score * quality, order, uses, value, text, checked)


_ADDRESS_AFTER_COMMA = re.compile(r"([^,\d]{2,}),\s+([^,]*\d.*)")
NAME_WORDS = 5  # a name printed before its address, a comma between, has at most this many words


def name_before_its_address(text: str) -> str:
    """A party's name printed with its address after a comma on one line ("Jan Novák, Dlouhá 878,
    Praha"): the name, when the part after the comma holds a street's or a postcode's figures; the
    text as it is otherwise ("Smith, John", "Acme, Inc., 12 Main St")."""
    found = _ADDRESS_AFTER_COMMA.fullmatch(text.strip())
    if found is None or len(found[1].split()) > NAME_WORDS:
        return text
    return found[1].strip()


# A template's field left unfilled ("{BARCODE}", "[CUSTOMER_NAME]", "${name}"), or a blank's printed hint
# in square brackets ("[Espace pour Signature]", "[Your Company Name]").
_PLACEHOLDER = re.compile(
    r"\{\{?\s*[\w.\- ]+\s*\}?\}|\[[A-Z0-9_ ]+\]|\[[^\[\]\d]{1,40}\]|<[A-Z0-9_]+>|\$\{[\w.]+\}"
)


def is_placeholder(text: str) -> bool:
    """Whether a text is a template's field its program left unfilled ("{BARCODE}", "[CUSTOMER_NAME]"), or a
    blank's hint in square brackets ("[Espace pour Signature]")."""
    return bool(_PLACEHOLDER.fullmatch(text.strip()))


def _opens_with_code(text: str) -> bool:
    """Whether a text opens with a number of five digits or more ("1234567-8", "00042"): a customer or
    registration number, which no one's name starts with (a name's own number is short: "3M", "1&1")."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    return sum(char.isdigit() for char in first) >= 5


def _opens_with_date(text: str) -> bool:
    """Whether a text starts with a date ("1 octobre 2023", "01/01/24 - 31/01/24"): a date or a
    period, which no company's or person's name does."""
    found = parse_date(text)
    return found is not None and text.strip().startswith(found.printed)


# A count of sheets written with a word, after one word naming the sheet or none ("Folio 1 de 1", "Page 2
# of 3", "1 sur 2", "Blatt 1 von 2"); a count with a slash ("1/2024", "12/05") may be a number.
_SHEET_COUNT = re.compile(
    r"\s*(?:[^\W\d_]+\.?\s+)?(\d{1,4})\s+(?:of|von|sur|van|de|di|da|z|od)\s+(\d{1,4})\s*", re.IGNORECASE
)


def counts_sheets(text: str) -> bool:
    """Whether a value is a count of sheets (`_SHEET_COUNT`): n of N with n at most N."""
    count = _SHEET_COUNT.fullmatch(text)
    return count is not None and int(count[1]) <= int(count[2])


def _is_currency(slot: Slot) -> bool:
    """A field of a currency, written as its ISO code ("EURO (EUR)" and "€" are "EUR")."""
    node = slot.node
    return (
        node.kind == "string"
        and node.enum is None
        and not node.text("pattern")
        and "currency" in label_key(slot.path[-1])
    )


def role_of(name: str) -> str | None:
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
