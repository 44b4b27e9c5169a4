"""Built-in partitioning: pages grouped by the value of a labelled field, such as the invoice number.

A key such as "invoice number", "PO #" or "invoice_number" becomes a label pattern tolerant of case,
spacing, punctuation, plurals, common abbreviations (PO / purchase order, inv, acct, ref) and the way
the number is named ("No.", "#", "Nr", "ID"). A page's value is the first identifier (a run of letters,
digits and - / . holding a digit) after that label, on the same line or the next, or under it in a
table's header. Pages without a value join the partition before them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from docsvc.intelligence.vocabulary import quoted, uncamel

NUMBER_WORDS = frozenset({"number", "numbers", "no", "nos", "num", "nr", "id", "ref", "#"})
ABBREVIATIONS: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {
    ("po",): (("purchase", "order"), ("p", "o")),
    ("purchase", "order"): (("po",), ("p", "o")),
    ("invoice",): (("inv",),),
    ("inv",): (("invoice",),),
    ("account",): (("acct",), ("acc",)),
    ("acct",): (("account",),),
    ("reference",): (("ref",),),
}
# Words that name a document whose number tells one document from the next.
DOCUMENT_HEADS = (
    "invoice, receipt, purchase order, po, order, quote, quotation, estimate, statement, credit note, "
    "credit memo, delivery note, packing slip, document, transaction, contract, agreement, application, "
    "policy, claim, ticket, case, bill, payslip, form"
)

_SAME_HEADS = {"p o": "po", "purchase order": "po", "quotation": "quote"}
_KEY_WORD = re.compile(r"[^\W_]+|#")
_JOIN = r"[\s_.\-]*"
_NUMBER = r"(?P<number>[^\S\n_]*#|[\s_.\-]*(?:numbers?|nos?|num|nr|n[°º]|id|ref)(?![^\W_])\.?)"
_SEPARATOR = r"[^\S\n]*(?:[:#=|\-\u2013][^\S\n]*)*(?:\n[^\S\n]*){0,2}(?:[:#|][^\S\n]*)*"
_VALUE = r"(?P<value>(?=[\w\-/.]*\d)[^\W_](?:[\w\-/.]*[^\W_])?)(?![\w])"
_DATE_LIKE = re.compile(r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}")
_RULE = re.compile(r":?-+:?")


@dataclass(frozen=True)
class Partition:
    key: str
    pages: list[int]


@dataclass(frozen=True)
class Label:
    """How a labelled value is found: inline after its label, or under its label in a table header."""

    inline: re.Pattern[str]
    header: re.Pattern[str]


def partition(pages: Sequence[str], key: str, instructions: str | None = None) -> list[Partition]:
    """Pages grouped by the value of `key` on them, in order of first appearance. Quoted phrases in
    `instructions` are further labels of the same value. When no page has a value, one partition with
    an empty key holds every page."""
    label = label_for([key, *quoted(instructions or "", affirmed_only=True)])
    values = [find_value(page if isinstance(page, str) else "", label) for page in pages]
    first = next((value for value in values if value), "")
    groups: dict[str, Partition] = {}
    current = first
    for number, value in enumerate(values, start=1):
        current = value or current
        group = groups.setdefault(identity(current), Partition(current, []))
        group.pages.append(number)
    return list(groups.values())


def label_for(keys: Sequence[str]) -> Label:
    """The label pattern of `keys` (alternatives naming the same field)."""
    heads: list[tuple[str, ...]] = []
    for key in keys:
        words = tuple(word.lower() for word in _KEY_WORD.findall(uncamel(key)))
        head = _without_number_words(words)
        for variant in (head, *ABBREVIATIONS.get(head, ())):
            if variant and variant not in heads:
                heads.append(variant)
    if not heads:
        raise ValueError("partitioning needs a key naming the field to group by, such as 'invoice number'")
    return compile_label(heads, number_required=False)


def compile_label(heads: Sequence[tuple[str, ...]], number_required: bool) -> Label:
    """Patterns for any of `heads` ("invoice", "purchase order") followed by a number word, which
    may be left out unless `number_required`."""
    alternatives = sorted((_JOIN.join(_word(word) for word in head) for head in heads), key=len, reverse=True)
    head = rf"(?<![^\W_])(?P<head>{'|'.join(alternatives)})(?![^\W_])\.?"
    number = _NUMBER if number_required else _NUMBER + "?"
    return Label(
        inline=re.compile(head + number + _SEPARATOR + _VALUE, re.IGNORECASE),
        header=re.compile(rf"\s*{head}{number}\s*[:#.]?\s*", re.IGNORECASE),
    )


def find_value(text: str, label: Label) -> str | None:
    """The first value labelled by `label` in `text`."""
    for match in label.inline.finditer(text):
        if _plausible(match):
            return match.group("value")
    return _value_under_header(text, label)


def document_numbers(text: str) -> dict[str, str]:
    """The numbers of documents labelled on a page ("Invoice No. 7", "PO #: 12"), by the label's words."""
    values: dict[str, str] = {}
    for match in _DOCUMENT_NUMBER.inline.finditer(text):
        values.setdefault(_head(match), identity(match.group("value")))
    return values


def _head(match: re.Match[str]) -> str:
    head = " ".join(_KEY_WORD.findall(match.group("head").lower()))
    return _SAME_HEADS.get(head, head)


def titled_number(line: str) -> tuple[str, str] | None:
    """(head, number) of a line that is only a document kind and its number, the number word left out
    ("RECEIPT 5713", "Invoice INV-7"); the number has three characters or more and is not a date."""
    match = _DOCUMENT_TITLE.inline.fullmatch(line.strip())
    if match is None or "\n" in match.group() or not _plausible(match):
        return None
    return _head(match), identity(match.group("value"))


def identity(value: str) -> str:
    """`value` as compared with others: case and spaces ignored."""
    return "".join(value.split()).upper()


def _plausible(match: re.Match[str]) -> bool:
    """Whether a match is a value: after a number word ("No.", "#"), one on the same line or up to two
    lines below; after the bare label ("Invoice 4711"), one of three characters or more, not a date, on
    the same line or the next."""
    line_breaks = match.string.count("\n", match.end("head"), match.start("value"))
    if match.group("number"):
        return line_breaks <= 2
    value = match.group("value")
    return line_breaks <= 1 and len(value) >= 3 and not _DATE_LIKE.fullmatch(value)


def _value_under_header(text: str, label: Label) -> str | None:
    lines = text.splitlines()
    for index, line in enumerate(lines[:-2]):
        if not line.lstrip().startswith("|"):
            continue
        cells = _cells(line)
        column = next((at for at, cell in enumerate(cells) if label.header.fullmatch(cell)), None)
        if column is None or not all(_RULE.fullmatch(cell) for cell in _cells(lines[index + 1])):
            continue
        row = _cells(lines[index + 2])
        if column < len(row) and any(character.isdigit() for character in row[column]):
            return row[column]
    return None


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _word(word: str) -> str:
    return re.escape(word) + ("" if word == "#" else "(?:e?s)?")


def _without_number_words(words: tuple[str, ...]) -> tuple[str, ...]:
    end = len(words)
    while end > 0 and words[end - 1] in NUMBER_WORDS:
        end -= 1
    return words[:end] if end else words


_DOCUMENT_HEAD_WORDS = [tuple(head.split()) for head in DOCUMENT_HEADS.split(",")]
# Any document kind's number, the number word required: "Invoice No. 7", not "Invoice 7".
_DOCUMENT_NUMBER = compile_label(_DOCUMENT_HEAD_WORDS, number_required=True)
# Any document kind's number, the number word optional: for title lines.
_DOCUMENT_TITLE = compile_label(_DOCUMENT_HEAD_WORDS, number_required=False)
