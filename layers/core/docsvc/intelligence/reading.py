"""A document read for extraction, and the labels that name a schema's fields.

A field is named by its name, its title, its description (or a phrase quoted in it), their synonyms
and variants, and the last word of its name; each label counts for how well it names the field. The
reading indexes the layout's pairs by label key and word, knows who issued the document and the
currency it shows, checks values against the schema, and looks up the pairs and run-on lines whose
label names a field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema.protocols import Validator

from docsvc.intelligence.identifiers import countries_of
from docsvc.intelligence.labels import (
    CONTACT_WORDS,
    CUSTOMER_KEYS,
    ORDER_TITLES,
    QUALIFIERS,
    VENDOR_KEYS,
    Key,
    is_label_text,
    key_words,
    label_key,
    synonyms,
    variants,
    without_rate,
)
from docsvc.intelligence.layout import Layout
from docsvc.intelligence.lines import Pos
from docsvc.intelligence.pairs import Pair
from docsvc.intelligence.schemas import Node
from docsvc.intelligence.values import crossed, currency_of, krone_of, rupee_of, ticked_options

Aliases = dict[Key, float]  # the label keys that name a field, with how well
OWN, QUOTED, DESCRIBED, SYNONYM, VARIANT, PARTIAL, HEAD = 0.99, 0.95, 0.93, 0.85, 0.8, 0.62, 0.6
_SENTENCE = re.compile(r"[a-z]{2,} [a-z]{2,} .*\d")  # words in lower case, then a digit
_QUOTE = re.compile(r'["“]([^"“”]{1,60})["”]')
# Words that make a label the customer's: "N° TVA client" and "Your VAT ID" are not the VAT id of
# whoever issued the document (a field of the customer is named with its owner: "Customer VAT ID").
PARTY_WORDS = frozenset(key[0] for key in CUSTOMER_KEYS if len(key) == 1) | frozenset(
    {"your", "ihre", "ihr", "votre", "vos", "uw", "su", "vostro", "vostra", "panstwa"}
)
_GOES_ON = re.compile(r"(?i)\s+(?:of|de|du|des|der|von|van|del|della|di)\s+[^\W\d]")
_ALTERNATIVES = re.compile(r"(?:\s+[^\W\d]+)?\s*/\s*[^\W\d]+(?:\s+[^\W\d]+)?\s*:?")  # "name / company"
# The heading of a slip for the payer to send back with the payment (Xero's "PAYMENT ADVICE"), in the
# languages the labels know.
_REMITTANCE = re.compile(
    r"(?i)\b(?:payment\s+advice|remittance(?:\s+(?:advice|slip))?|zahlungsavis|avis\s+de\s+paiement|"
    r"betalingsadvies|aviso\s+de\s+pago)\b"
)
REMITTANCE_LINES = 3  # lines under such a heading whose "To:" is the payee's
_TO, _PAY_TO = label_key("to"), label_key("pay to")
# A letter's opening, which starts with no label: "To whom it may concern" is not addressed "To" anyone.
_OPENING = re.compile(r"(?i)\s*to\s+whom\s+it\s+may\s+concern\b")
_LEAD = re.compile(r"\.?[\s:]*(?:[-\u2013\u2014]\s+)?")  # a colon or a dash between a label and its value
# A line of words that ends in an amount, read from a scan without wide spacing between the two
# ("Rechnungssumme netto 845,00"): its words before the amount are a label.
_ENDS_IN_AMOUNT = re.compile(
    r"(?P<label>[^\W\d][^:]*?[^\W\d][.]?)\s+"
    r"(?P<amount>[-\u2212(]?\s?(?:[$€£]\s?)?\d{1,3}(?:[.,'\u00a0 ]?\d{3})*[.,]\d{2}\)?"
    r"(?:\s?(?:€|EUR|USD|GBP|CHF))?)"
)


@dataclass
class Reading:
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
    cell_words: dict[Pos, list[tuple[str, int]]] = field(default_factory=dict)  # (line, column): its words
    cell_by_word: dict[str, list[Pos]] = field(default_factory=dict)
    amount_labels: dict[Key, list[int]] = field(default_factory=dict)  # bare lines "label amount", by label
    issuer: frozenset[Key] = VENDOR_KEYS  # who issued the document: the vendor, the buyer of an order
    recipient: frozenset[Key] = CUSTOMER_KEYS
    currency: str | None = None
    countries: tuple[str, ...] = ()  # the countries the document shows it is from (`countries_of`)
    shows_crosses: bool = False  # ticked boxes come out as a lone X before their text
    _checks: dict[int, Validator] = field(default_factory=dict)
    _sentences: list[tuple[int, list[tuple[str, int]]]] | None = None

    def __post_init__(self) -> None:
        if _is_order(self.layout):
            self.issuer, self.recipient = CUSTOMER_KEYS, VENDOR_KEYS
        self.currency = currency_of(line.text for line in self.layout.lines)
        self.countries = countries_of(self.currency, (line.text for line in self.layout.lines))
        if self.currency is None:
            self.currency = krone_of((line.text for line in self.layout.lines), self.countries)
        if self.currency is None:
            self.currency = rupee_of(line.text for line in self.layout.lines)
        self.shows_crosses = any(
            line.cells is None and crossed(line.text) is not None and ticked_options([line.text]) == []
            for line in self.layout.lines
        )
        for index, pair in enumerate(self.layout.pairs):
            key = label_key(without_rate(pair.label))
            if key == _TO and _under_remittance(self.layout, pair.label_at[0]):
                key = _PAY_TO
            self.pair_keys.append(key)
            self.pairs_by_key.setdefault(key, []).append(index)
            for word in dict.fromkeys(key):
                self.pairs_by_word.setdefault(word, []).append(index)
        for index in self.layout.bare:
            words = key_words(self.layout.lines[index].text[:300])
            if len(words) >= 2:
                self.bare_words[index] = words
                self.bare_by_word.setdefault(words[0][0], []).append(index)
            run_on = _ENDS_IN_AMOUNT.fullmatch(self.layout.lines[index].text[:300])
            if run_on:
                key = label_key(without_rate(run_on["label"]))
                self.amount_labels.setdefault(key, []).append(index)
        for index, line in enumerate(self.layout.lines):
            for column, cell in enumerate(line.cells or ()):
                words = key_words(cell[:300])
                if len(words) >= 2:
                    self.cell_words[(index, column)] = words
                    self.cell_by_word.setdefault(words[0][0], []).append((index, column))

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
        """Whether a text is a label: it ends in its colon, or it is a known label, or labels apart by
        slashes, one of them known ("Fakt nr / Kundnr")."""
        stripped = text.strip()
        if stripped.endswith(":") or label_key(stripped) in self.known:
            return True
        parts = stripped.split(" / ")
        return (
            len(parts) > 1
            and all(is_label_text(part) for part in parts)
            and any(label_key(part) in self.known for part in parts)
        )

    def aliases(self, name: str, node: Node) -> Aliases:
        """A property's labels; "From" names who issued the document, "To" whom it is for."""
        found = field_aliases(name, node)
        for parties, word in ((self.issuer, "from"), (self.recipient, "to")):
            if any(key in parties for key, score in found.items() if score >= SYNONYM * VARIANT):
                add_alias(found, (word,), SYNONYM)
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
        return any(key in self.issuer for key, score in aliases.items() if score >= SYNONYM * VARIANT)

    def addressed_to(self, aliases: Aliases) -> bool:
        """Whether the field is whom the document is for, whose address a window envelope shows."""
        return any(key in self.recipient for key, score in aliases.items() if score >= SYNONYM * VARIANT)


def _under_remittance(layout: Layout, at: int) -> bool:
    """Whether the line at `at` is among the first lines (REMITTANCE_LINES) under a payment advice's or
    remittance slip's heading on its page: its "To:" names whom the money goes to, the payee, not the
    document's addressee."""
    lines = layout.lines
    for before in range(at, max(-1, at - REMITTANCE_LINES - 1), -1):
        if lines[before].page != lines[at].page:
            return False
        if _REMITTANCE.search(lines[before].text):
            return True
    return False


def _is_order(layout: Layout) -> bool:
    """Whether the document is an order, issued by its buyer (its title says so)."""
    return any(label_key(line.text) in ORDER_TITLES for line in layout.lines[:15] if line.page == 0)


def field_aliases(name: str, node: Node) -> Aliases:
    """A property's labels: its name, title and description (or phrases quoted in it), their synonyms,
    and those with one part said another way ("supplier name" for `vendor_name`)."""
    found: Aliases = {}
    add_alias(found, label_key(name), OWN)
    add_alias(found, label_key(node.text("title")), OWN)
    description = node.text("description")
    for phrase in _QUOTE.findall(description):
        add_alias(found, label_key(phrase), QUOTED)
    if len(label_key(description)) <= 4:
        add_alias(found, label_key(description), DESCRIBED)
    for key, score in list(found.items()):
        for other in synonyms(key):
            add_alias(found, other, score * SYNONYM / OWN)
        for other in variants(key):
            add_alias(found, other, score * VARIANT / OWN)
    for key in (label_key(name), label_key(node.text("title"))):
        if len(key) >= 2 and not QUALIFIERS & set(key[:-1]):
            add_alias(found, key[-1:], HEAD)  # "Date" for `order_date`, not for `due_date` or `birth_date`
    return found


def add_alias(aliases: Aliases, key: Key, score: float) -> None:
    if key and score > aliases.get(key, 0.0):
        aliases[key] = score


def composite_aliases(outer: Aliases, inner: Aliases) -> Aliases:
    """Labels naming a nested field with its object's name before its own: "Vendor name"."""
    found: Aliases = {}
    best_outer = sorted(outer.items(), key=lambda item: -item[1])[:16]
    best_inner = sorted(inner.items(), key=lambda item: -item[1])[:16]
    for outer_key, outer_score in best_outer:
        for inner_key, inner_score in best_inner:
            add_alias(found, outer_key + inner_key, outer_score * inner_score)
    for key, score in inner.items():
        if len(key) >= 2:  # specific enough to stand anywhere
            add_alias(found, key, score * 0.9)
    return found


def labelled_pairs(aliases: Aliases, reading: Reading, partial: bool = True) -> dict[int, float]:
    """The pairs whose label names the field, with how well: a longer label named is a better one."""
    scores: dict[int, float] = {}
    for key, score in aliases.items():
        for index in reading.pairs_by_key.get(key, ()):
            scores[index] = max(scores.get(index, 0.0), score + 0.001 * len(key))
        if not partial:
            continue
        for index in reading.pairs_by_word.get(key[0], ()):
            if index not in scores and holds_key(reading.pair_keys[index], key):
                scores[index] = max(scores.get(index, 0.0), score * PARTIAL)
    return scores


_ACCOUNT_WORDS = frozenset({"account", "bank"})  # a number of a bank account: "Číslo účtu", "Account No"
# a company's number in a trade register: "Register No.", "HRB-Nr.", "Registration No."
_REGISTER_WORDS = frozenset({"register", "registration", "registry", "hrb", "commercial", "trade"})


def holds_key(label: Key, key: Key) -> bool:
    """`label` holds `key` with a few more words, none of which changes its meaning."""
    if not len(key) < len(label) <= len(key) + 3:
        return False
    for start in range(len(label) - len(key) + 1):
        if label[start : start + len(key)] == key:
            extra = label[:start] + label[start + len(key) :]
            if key[-1:] == ("number",) and (CONTACT_WORDS | _ACCOUNT_WORDS | _REGISTER_WORDS) & set(extra):
                return False  # "Phone No", "Account No", "Register No.": a phone's, an account's, a company's
            return not any(word in QUALIFIERS or word in PARTY_WORDS or word.isdigit() for word in extra)
    return False


def header_score(cell: str, aliases: Aliases) -> float:
    key = label_key(cell)
    if key in aliases:
        return aliases[key]
    return max((score * PARTIAL for alias, score in aliases.items() if holds_key(key, alias)), default=0.0)


def inline_pairs(aliases: Aliases, reading: Reading, cells: bool = False) -> Iterator[tuple[Pair, float]]:
    """Lines where a label runs straight into its value ("Total due 24.00"), with the label's score; with
    `cells`, table cells that hold both too ("| USt-IdNr. DE812871812 |" in a footer's table): for a
    value of a form of its own, not a name, which a cell's words may be whole ("| Seller Company |")."""
    lines = reading.layout.lines
    for key, score in aliases.items():
        for index in reading.bare_by_word.get(key[0], ()):
            found = _run_into(key, lines[index].text, reading.bare_words[index], reading)
            if found is not None:
                end, start = found
                text = lines[index].text
                pair = Pair(text[:end], text[start:], "inline", (index, 0), (index, start))
                yield pair, score + 0.001 * len(key)
        for index, column in reading.cell_by_word.get(key[0], ()) if cells else ():
            cell = (lines[index].cells or ())[column]
            found = _run_into(key, cell, reading.cell_words[(index, column)], reading)
            if found is not None:
                end, start = found
                pair = Pair(cell[:end], cell[start:], "inline", (index, column), (index, column))
                yield pair, score + 0.001 * len(key)
    yield from _amount_runs(aliases, reading)


def _run_into(key: Key, text: str, words: list[tuple[str, int]], reading: Reading) -> tuple[int, int] | None:
    """Where the label `key` that opens `text` (its `words`) ends, and where the value it runs into
    starts."""
    if len(words) <= len(key) or tuple(word for word, _ in words[: len(key)]) != key:
        return None
    if label_key(text) in reading.known:  # the text is a label itself
        return None
    end = words[len(key) - 1][1]
    if words[len(key)][1] == end:  # the label ends inside a word ("PO" is "purchase order")
        return None
    if _OPENING.match(text):
        return None
    if _GOES_ON.match(text, end) or _ALTERNATIVES.fullmatch(text, end):
        return None  # the label goes on: "Date of delivery 2020-11-10", "Customer name / company"
    lead = _LEAD.match(text, end)
    start = lead.end() if lead else end
    return (end, start) if start < len(text) else None


def _amount_runs(aliases: Aliases, reading: Reading) -> Iterator[tuple[Pair, float]]:
    """Lines of a label and an amount run together ("Rechnungssumme netto 845,00"), named by the
    label as a pair's label is (the whole label, or it holding the field's label with a few words)."""
    for label, indexes in reading.amount_labels.items():
        score = aliases[label] + 0.001 * len(label) if label in aliases else 0.0
        if not score:
            partial = (each * PARTIAL for key, each in aliases.items() if holds_key(label, key))
            score = max(partial, default=0.0)
        for index in indexes if score else ():
            run_on = _ENDS_IN_AMOUNT.fullmatch(reading.layout.lines[index].text[:300])
            if run_on:
                at = (index, run_on.start("amount"))
                yield Pair(run_on["label"], run_on["amount"], "inline", (index, 0), at), score
