"""Label/value pairs of a page's lines and tables.

A value is found after its label's colon, right of it past wide spacing, on the line below, on the
first line of the next block, on the line above (a caption printed under its value), in a block of
values beside a block of labels (or as many one-line blocks), or in a table: a row of a key and its
value (or ending in them), a summary row, keys beside their values, a row of keys over a row of values,
or one cell holding a label and its value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import pairwise

from docsvc.intelligence.labels import (
    SUMMARY_KEYS,
    TOTAL_KEYS,
    is_blank_cell,
    is_known_label,
    is_label_text,
    is_party_label,
    is_summary_row,
    label_key,
    synonyms,
    without_rate,
)
from docsvc.intelligence.lines import KNOWN_KEYS, Line, Pos, is_cell, label_colon, segments
from docsvc.intelligence.page_tables import Table
from docsvc.intelligence.values import RTL, currency_of, parse_date, parse_number
from docsvc.intelligence.vocabulary import STOP_WORDS, stem

_REST = 8  # lines after a value that may continue it (an address under a name)
_ROW_LABEL_WORDS = 10  # words at most of a cell holding labels of columns in a row
_PIECE = 1000  # a later pair of one cell is placed past every cell of its row: (line, cell + n * _PIECE)


@dataclass(frozen=True)
class Pair:
    """A label and the value printed with it. `how` says where the value was: "colon" (after a colon),
    "spaced" (right of the label after wide spacing), "below" (on the next line), "next" (first line of
    the next block), "above" (on the line above: a caption under its value), "column" (a block of labels
    beside a block of values) or "cell" (in a table)."""

    label: str
    value: str
    how: str
    label_at: Pos
    value_at: Pos
    rest: tuple[int, ...] = ()  # the lines after the value in its block


# A separator before another label and its value on the same line: "BIC: KREDBEBB - IBAN: BE41 ...".
_NEXT_LABEL = re.compile(
    r"\s+[-\u2013\u2014|•·;]\s+(?=[^\W\d_][^:]{0,30}:(?!//)\s*\S)"
    # or, without a separator (a scan's OCR line), a number ends the value: "Korting: 2,00% Totaal: 716,88"
    # (the label may carry its rate in brackets: "Netto: £ 3.200,50 Mehrwertsteuer (20%): £ 640,10")
    r"|(?<=\d|%)\s+(?=[^\W\d_][^:\d]{0,30}(?:\(\s*\d+(?:[.,]\d+)?\s?%\s*\)\s*)?:(?!//)\s*\S)"
    # or a full stop does, in a footer of sentences: "F-skatt: Ja. Organisationsnr: 556251-6806. Momsregnr:"
    r"|(?<=\w\.)\s+(?=[^\W\d_][^:\d]{0,30}:(?!//)\s*\S)"
)


# In a run-on line (a page's text in one table cell), a capitalised label of one or two words and its
# colon after a value's last word: "... /42/pay Business Details: Screeb ..., 6pm Customer Details: ...".
_RATE_CELL = re.compile(r"\s*[-+]?\d[\d.,\s]*%\s*")  # a rate alone in its cell: "0%", "21 %"
_RUN_ON_LABEL = re.compile(r"(?<=[a-z0-9)])\s+(?=[A-Z][a-z]+(?: [A-Za-z][a-z]+)?:(?!//)\s*\S)")
_RUN_ON = 150  # a piece this long holds labels and values run together
# A slash set off by spaces between a labelled value and a known label with its own value, no colon
# after it: "IBAN: NL62 INGB 0651 7722 65 / BIC: INGBNL2A / BTW nr. NL8199.90.966.B01".
_SLASHED = re.compile(r"\s+/\s+(?=[^\W\d_])")
_CURRENCY_ALONE = re.compile(r"[A-Z]{3}|[€$£¥₹]")  # a line of a currency only, over its amount
_SLASHED_LABELS = 4  # labels on one line apart by slashes at most, over their values
RUN_ON_LABELS = 3  # labels ending in a colon at least whose column of values may run on past a gap
_HALVES = 3  # labels at least, then as many values, in one block: a row of headings over its amounts
# A tax label's rate after its colon, with the base it is taken of in brackets or not: "VAT: 20%",
# "PDV:25% (Osn:82,83 €)".
_RATE_IN_BRACKETS = re.compile(
    r"\s*\(\s*\d+(?:[.,]\d+)?\s?%\s*\)"
)  # "Mehrwertsteuer (20%)": the label's rate
_RATE_IN_LABEL = re.compile(r"[^\W\d_].*\d(?:[.,]\d+)?\s?%")  # "BTW 21,00 % over", "VAT 20%"
_RATE_AFTER_COLON = re.compile(r"\d+(?:[.,]\d+)?\s*%\s*(?:\([^()]*\))?")
# A known label set off from its value by an equals sign, as a script prints its sums ("Total = £319"):
# the label words alone before it, spaced; the sign inside a sum ("3 x 5 = 15") has digits before it.
_EQUALS_LABEL = re.compile(r"(?P<label>[^\W\d_][^\d=:]*?)\s+=\s+(?P<value>\S.*)")
# In a cell of summary amounts, a label (with its rate in brackets or not) and its amount with cents.
_SUM_RUN = re.compile(
    r"(?P<label>[^\W\d_][^\d:|]*?(?:\(\s*\d+(?:[.,]\d+)?\s*%\s*\)[^\d:|]*?)?)\s*"
    r"(?P<amount>(?:(?:[$€£¥₹₽₺₦]|R\$|S/\.?|Bs\.?|Rs\.?|RM|CHF|EUR|USD|GBP)\s?)?"
    r"-?\d{1,3}(?:[ .,'\u00a0\u202f]?\d{3})*[.,]\d{2}"
    r"(?:\s?(?:€|EUR|\$|£|USD|GBP|CHF|zł|Kč|kr|Ft|lei))?)"
    r"(?=\s+[^\W\d_]|\s*$)"
)


# A right-to-left label (Arabic, Hebrew) read left to right off the page: its value first, then the
# colon that ends the label glued to the label's start ("93.00 :المبلغ الإجمالي", the amount's currency
# word, printed after it, coming before it: "شيكل93.00").
_RTL_PAIR = re.compile(rf"(?P<value>[^:]*?\d[^:]*?)\s+:(?P<label>[^:\d]*[{RTL}][^:]*)")
_RTL_UNIT_FIRST = re.compile(rf"([{RTL}]+)\s?(\d[\d.,]*)")


def _right_to_left_pair(index: int, start: int, piece: str) -> Pair | None:
    """The pair of a piece whose label is written right to left, its value on its left."""
    found = _RTL_PAIR.fullmatch(piece.strip())
    if found is None:
        return None
    value = found["value"].strip()
    unit_first = _RTL_UNIT_FIRST.fullmatch(value)
    if unit_first:
        value = f"{unit_first[2]} {unit_first[1]}"
    offset = start + len(piece) - len(piece.lstrip())
    return Pair(
        found["label"].strip(), value, "colon", (index, offset + found.start("label")), (index, offset)
    )


def _labelled_pieces(pieces: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Pieces that start with a label cut where a separator is followed by another label and its
    value ("BIC: KREDBEBB - IBAN: BE41 7360 0661 9710" is two pieces); in a run-on line, also where a
    capitalised label follows a value."""
    cut: list[tuple[int, str]] = []
    for start, piece in pieces:
        begin = 0
        if label_colon(piece) is not None:
            found = list(_NEXT_LABEL.finditer(piece)) + [
                match for match in _SLASHED.finditer(piece) if _known_before_value(piece[match.end() :])
            ]
            if len(piece) >= _RUN_ON:
                found += list(_RUN_ON_LABEL.finditer(piece))
            found.sort(key=lambda match: match.start())
            for match in found:
                following = piece[match.end() :]
                before = piece[begin : match.start()]
                if label_colon(before) is None:
                    continue  # not after a value: inside a label of two words ("Business Details:")
                if ":" not in following or is_label_text(
                    _RATE_IN_BRACKETS.sub("", following[: following.index(":")])
                ):
                    cut.append((start + begin, piece[begin : match.start()]))
                    begin = match.end()
        cut.append((start + begin, piece[begin:]))
    return cut


def _label_run_in(value: str) -> int | None:
    """Where the colon of a known label that opens a value stands ("Domicilio: ..." after "Razón
    Social:"), with a value after it; None when the value opens otherwise."""
    colon = label_colon(value)
    if colon is None or not value[colon + 1 :].strip():
        return None
    head = value[:colon].strip()
    return colon if is_known_label(head) or (is_label_text(head) and synonyms(label_key(head))) else None


def _known_label_first(piece: str) -> tuple[str, str] | None:
    """A known label and the value after it, its first word holding a figure ("BTW nr.",
    "NL8199.90.966.B01"); None when the piece opens otherwise."""
    words = piece.split()
    count = next((at for at, word in enumerate(words) if any(char.isdigit() for char in word)), 0)
    label = " ".join(words[:count])
    return (label, " ".join(words[count:])) if count and is_known_label(label) else None


def _known_before_value(text: str) -> bool:
    """Whether a text opens with a label and its value: a known label before the value's first word with
    a figure ("BTW nr. NL8199.90.966.B01"), or a label and its colon ("BIC: INGBNL2A"). A piece of its
    own after a slash."""
    colon = label_colon(text)
    if colon is not None:
        return is_label_text(text[:colon]) and bool(text[colon + 1 :].strip())
    return _known_label_first(text) is not None


def _segment_pairs(index: int, text: str) -> tuple[list[Pair], tuple[str, int] | None]:
    """The pairs on one line, and a label at its end still waiting for its value."""
    pieces = [(start, piece) for start, piece in _labelled_pieces(segments(text)) if _holds_a_word(piece)]
    pieces = _currency_joined(pieces)
    pairs: list[Pair] = []
    pending: tuple[str, int] | None = None
    position = 0
    while position < len(pieces):
        start, piece = pieces[position]
        following = pieces[position + 1] if position + 1 < len(pieces) else None
        right_to_left = _right_to_left_pair(index, start, piece)
        if right_to_left is not None:
            pairs.append(right_to_left)
            position += 1
            continue
        equals = _equals_pair(index, start, piece)
        if equals is not None:
            pairs.append(equals)
            position += 1
            continue
        colon = label_colon(piece)
        if colon is not None:
            value = piece[colon + 1 :].strip()
            offset = start + colon + 1 + len(piece[colon + 1 :]) - len(piece[colon + 1 :].lstrip())
            if value and _RATE_AFTER_COLON.fullmatch(value) and following and _amount_alone(following[1]):
                # "PDV:25% (Osn:82,83 €)      20,71": the rate (and its base) says what the label's
                # amount is taken of; the amount after them is the label's value
                label = piece[:colon].strip()
                pairs.append(Pair(label, following[1], "spaced", (index, start), (index, following[0])))
                position += 1
            elif value and (inner := _label_run_in(value)) is not None:
                # "Razón Social: Domicilio: Calle 12": a label with nothing of its own, the next label run
                # into it; that one takes the value
                rest = value[inner + 1 :]
                at = offset + inner + 1 + len(rest) - len(rest.lstrip())
                pairs.append(Pair(value[:inner].strip(), rest.strip(), "colon", (index, offset), (index, at)))
            elif value:
                pairs.append(Pair(piece[:colon].strip(), value, "colon", (index, start), (index, offset)))
            elif following and label_colon(following[1]) is None:
                label = piece[:colon].strip()
                pairs.append(Pair(label, following[1], "colon", (index, start), (index, following[0])))
                position += 1
            elif following is None:
                pending = (piece[:colon].strip(), start)
        elif (
            len(pieces) > 1
            and (following is None or label_colon(following[1]) is not None)
            and (split := _known_label_first(piece))
            and not _RATE_CELL.fullmatch(split[1])
        ):
            # the last piece of a line of several, or one before a label, that opens with a known label,
            # its value after it, no rate ("BTW nr. NL8199.90.966.B01" after "IBAN: ... / BIC: ... /")
            offset = start + piece.index(split[1], len(split[0]))
            pairs.append(Pair(split[0], split[1], "spaced", (index, start), (index, offset)))
        elif (sums := _net_tax_gross(index, start, piece, pieces[position + 1 : position + 4])) is not None:
            pairs.extend(sums)
            position += 3
        elif (
            position + 3 == len(pieces)
            and _RATE_IN_LABEL.search(piece)
            and all(_amount_alone(after) for _, after in pieces[position + 1 :])
        ):
            # "BTW 21,00 % over    319,03    Eur 67,00": the amount the rate is taken of, then the
            # label's own amount
            at, value = pieces[position + 2]
            pairs.append(Pair(piece, value, "spaced", (index, start), (index, at)))
            position += 2
        elif following and label_colon(following[1]) is None:
            pairs.append(Pair(piece, following[1], "spaced", (index, start), (index, following[0])))
            position += 1
        elif len(pieces) == 1:
            pending = (piece, start)
        position += 1
    return pairs, pending


def _equals_pair(index: int, start: int, piece: str) -> Pair | None:
    """A known label and its value with an equals sign between them ("Total = £319"), else None."""
    found = _EQUALS_LABEL.fullmatch(piece.strip())
    if found is None or label_colon(piece) is not None or label_key(found["label"]) not in KNOWN_KEYS:
        return None
    offset = start + len(piece) - len(piece.lstrip())
    return Pair(
        found["label"].strip(),
        found["value"].strip(),
        "colon",
        (index, offset),
        (index, offset + found.start("value")),
    )


# The sums a total's line prints with no label of their own, in the order a VAT invoice's columns give
# them ("Razem   473,15   37,85   511,00"): the net, its tax and the gross, which adds them up.
_NET_TAX_GROSS = ("Net total", "Tax", "Total")
_OCR_TRAIL = ")]|,."  # marks a scan's OCR leaves after an amount ("37,85)", "236,57,")


def _net_tax_gross(index: int, start: int, label: str, following: list[tuple[int, str]]) -> list[Pair] | None:
    """A total's label followed by exactly three amounts, the first two adding up to the third: the
    net, its tax and the gross, each paired with its own label (the line's own label names the gross);
    None otherwise."""
    if len(following) != 3 or tuple(label_key(label)) not in TOTAL_KEYS:
        return None
    texts = [piece.rstrip(_OCR_TRAIL) for _, piece in following]
    numbers = [parse_number(text) for text in texts]
    if any(number is None or _RATE_CELL.fullmatch(text) for number, text in zip(numbers, texts, strict=True)):
        return None
    net, tax, gross = (number[0] for number in numbers if number is not None)
    if not (0 < tax < net and abs(net + tax - gross) < 0.011):
        return None
    names = (*_NET_TAX_GROSS[:2], label)
    return [
        Pair(name, text, "spaced", (index, start) if name == label else (index, at), (index, at))
        for name, text, (at, _) in zip(names, texts, following, strict=True)
    ]


_BARE_RUN = 4  # labels with nothing after their colons a party's label may stand over


def _currency_joined(pieces: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The pieces of a line with a currency's code or sign set apart before its amount joined to it
    ("Factuurtotaal    Eur    386,03": the label's value is "Eur 386,03")."""
    joined: list[tuple[int, str]] = []
    for start, piece in pieces:
        code = joined[-1][1].strip().upper() if joined else ""
        if _amount_alone(piece) and _CURRENCY_ALONE.fullmatch(code) and currency_of([code]) is not None:
            joined[-1] = (joined[-1][0], joined[-1][1].strip() + " " + piece)
            continue
        joined.append((start, piece))
    return joined


def _amount_alone(piece: str) -> bool:
    """Whether a piece of a line is one amount and nothing else."""
    return parse_number(piece) is not None and not _RATE_CELL.fullmatch(piece)


def _holds_a_word(piece: str) -> bool:
    """Whether a piece of a line holds a letter or a digit: the rules and brackets OCR reads as marks
    between a label and its value ("| [") are no label of it."""
    return any(char.isalnum() for char in piece)


def text_pairs(
    lines: list[Line],
    blocks: list[tuple[int, ...]],
    headers: set[int],
    column_heads: frozenset[int] = frozenset(),
) -> tuple[list[Pair], list[int]]:
    """The pairs of the text lines; a table's header is not the label of the line below it, and the
    headings of a table of two rows or more (`column_heads`: "Description  Qty  Price  Total" over the
    lines of an OCR'd page) head their columns: none is the label of the value under it in the first row
    (that row's amount is no document total)."""
    pairs, label_blocks = _column_pairs(lines, blocks)
    bare: list[int] = []
    for number, block in enumerate(blocks):
        for position, index in enumerate(block):
            text = lines[index].text
            found, pending = _segment_pairs(index, text)
            rest = block[position + 1 : position + 1 + _REST]
            pairs.extend(replace(pair, rest=rest) for pair in found)
            if pending and pending[1] == 0 and label_colon(text) is None:
                bare.append(index)
            slashed = _slashed_labels(lines, blocks, index, pending) if pending and pending[1] == 0 else []
            side = (
                _side_by_side(lines, index, block[position + 1])
                if pending and not found and position + 1 < len(block) and index not in column_heads
                else []
            )  # "Emissão:    Vencimento:    Total:" over their values: the last label is no pending one
            if slashed:
                pairs.extend(slashed)
            elif side:
                pairs.extend(side)
            elif pending and number not in label_blocks and index not in headers:
                pairs.extend(_below(lines, blocks, number, position, pending))
                pairs.extend(_above(lines, blocks, number, position, pending))
                pairs.extend(_past_bare_labels(lines, blocks, number, position, pending))
            elif not pending and position + 1 < len(block) and index not in column_heads:
                pairs.extend(_side_by_side(lines, index, block[position + 1]))
    return pairs, bare


def _below(
    lines: list[Line], blocks: list[tuple[int, ...]], number: int, position: int, label: tuple[str, int]
) -> list[Pair]:
    """The label's value on the line below, or on the first line of the next block."""
    block = blocks[number]
    if position + 1 < len(block):
        how, at, rest = "below", block[position + 1], block[position + 2 : position + 2 + _REST]
    elif number + 1 < len(blocks) and lines[blocks[number + 1][0]].page == lines[block[0]].page:
        following = blocks[number + 1]
        how, at, rest = "next", following[0], following[1 : 1 + _REST]
    else:
        return []
    pieces = segments(lines[at].text)
    if len(pieces) == 1 and _CURRENCY_ALONE.fullmatch(pieces[0][1].strip()):
        # "factuurtotaal" over "EUR" over "95,00": the amount's currency heads it; the amount comes next
        after = _first_after(lines, blocks, at)
        amount = segments(lines[after].text) if after is not None else []
        if after is not None and len(amount) == 1 and parse_number(amount[0][1]) is not None:
            how, at, pieces = "next", after, amount
            rest = blocks[lines[after].block][1 : 1 + _REST] if lines[after].block >= 0 else ()
    if len(pieces) == 1 and is_party_label(label[0]) and _label_beside(pieces[0][1]):
        # "BILL TO" over "FOR" (the heading of the column beside) over the customer's name
        after = _first_after(lines, blocks, at)
        if after is None:
            return []
        how, at, pieces = "next", after, segments(lines[after].text)
        rest = blocks[lines[after].block][1 : 1 + _REST] if lines[after].block >= 0 else ()
    if not pieces or label_colon(pieces[0][1]) is not None:
        return []
    start, value = pieces[0]
    apart = _labels_over_values(label[0], value, how, (block[position], label[1]), (at, start), rest)
    return apart or [Pair(label[0], value, how, (block[position], label[1]), (at, start), rest)]


def _label_beside(text: str) -> bool:
    """Whether a line under a party's label is another label of a column beside it rather than the
    party: a known label, or a word or two of no content ("FOR", "TO")."""
    words = text.split()
    return 0 < len(words) <= 2 and (is_known_label(text) or all(stem(word) in STOP_WORDS for word in words))


def _slashed_labels(
    lines: list[Line], blocks: list[tuple[int, ...]], index: int, label: tuple[str, int]
) -> list[Pair]:
    """Labels that share a line apart by slashes, over as many values on the lines under it, one a line
    ("Fakt nr / Kundnr" over "200045" and "103"): each label with its line's value, in order. One of
    the labels known at least, and values that hold a figure."""
    parts = [part.strip() for part in label[0].split(" / ")]
    if not 2 <= len(parts) <= _SLASHED_LABELS or not all(is_label_text(part) for part in parts):
        return []
    if not any(is_known_label(part) for part in parts):
        return []
    values: list[int] = []
    at: int | None = index
    while len(values) < len(parts):
        at = _first_after(lines, blocks, at) if at is not None else None
        if at is None:
            return []
        pieces = segments(lines[at].text)
        if len(pieces) != 1 or not any(char.isdigit() for char in pieces[0][1]) or label_colon(pieces[0][1]):
            return []
        values.append(at)
    found = []
    for part, value in zip(parts, values, strict=True):
        start, text = segments(lines[value].text)[0]
        found.append(Pair(part, text, "below", (index, lines[index].text.find(part)), (value, start)))
    return found


def _first_after(lines: list[Line], blocks: list[tuple[int, ...]], index: int) -> int | None:
    """The line after `index` in its block, else the first of the next block on its page; None at the
    end of the page."""
    number = lines[index].block
    if number < 0:
        return None
    block = blocks[number]
    if index != block[-1]:
        return block[block.index(index) + 1]
    if number + 1 < len(blocks) and lines[blocks[number + 1][0]].page == lines[index].page:
        return blocks[number + 1][0]
    return None


def _past_bare_labels(
    lines: list[Line], blocks: list[tuple[int, ...]], number: int, position: int, label: tuple[str, int]
) -> list[Pair]:
    """A party's label over a few labels with nothing after their colons, then its block ("Odběratel
    (Client):", "IČO:", "DIČ:", then the customer's name and address, the numbers printed in a column
    of their own): the party's value is the first line after those labels, not the first of them."""
    if label[1] != 0 or not is_party_label(re.sub(r"\([^)]*\)", " ", label[0])):
        return []
    following = (index for block in blocks[number + 1 : number + 2 + _BARE_RUN] for index in block)
    order = [*blocks[number][position:], *following]
    page = lines[order[0]].page
    skipped = 0
    for at in order[1 : 2 + _BARE_RUN]:
        text = lines[at].text.strip()
        if lines[at].page != page:
            return []
        if text.endswith(":") and is_label_text(text) and label_colon(text) == len(text) - 1:
            skipped += 1
            continue
        if not skipped or label_colon(text) is not None or not any(char.isalpha() for char in text):
            return []
        block = blocks[lines[at].block]
        rest = block[block.index(at) + 1 :][:_REST]
        return [Pair(label[0], text, "next", (order[0], 0), (at, 0), tuple(rest))]
    return []


def _above(
    lines: list[Line], blocks: list[tuple[int, ...]], number: int, position: int, label: tuple[str, int]
) -> list[Pair]:
    """The label's value on the line above, where labels are captions printed under their values
    ("PROD 69420" over "Nr. factura"; "$ 10.00" over "Grand Total (USD)" under a label of another
    language): a known label alone on its line, with no figure on the line after it, under a value of
    one piece holding a figure that is not itself the value under a known label. A party's label with
    a name right under it takes that name ("Reference PO 4711" over "Customer" over "Globex
    Corporation"), not the line above."""
    block = blocks[number]
    if position == 0 or label[1] != 0 or not is_known_label(label[0]):
        return []
    if is_party_label(label[0]) and position + 1 < len(block):
        under = lines[block[position + 1]].text
        if any(char.isalpha() for char in under) and not is_known_label(under):
            return []
    if _after(lines, blocks, number, position) is not None:
        return []
    at = block[position - 1]
    pieces = segments(lines[at].text)
    if (
        len(pieces) != 1
        or label_colon(pieces[0][1]) is not None
        or not any(c.isdigit() for c in pieces[0][1])
    ):
        return []
    if position >= 2 and is_known_label(lines[block[position - 2]].text):
        return []  # the value under the label above it
    start, value = pieces[0]
    return [Pair(label[0], value, "above", (block[position], label[1]), (at, start))]


def _after(lines: list[Line], blocks: list[tuple[int, ...]], number: int, position: int) -> str | None:
    """The text of the line after a label, in its block or first of the next block on its page, when it
    holds a figure (a value the label may head; not a label of another script with its own digits)."""
    block = blocks[number]
    if position + 1 < len(block):
        following = lines[block[position + 1]]
    elif number + 1 < len(blocks) and lines[blocks[number + 1][0]].page == lines[block[0]].page:
        following = lines[blocks[number + 1][0]]
    else:
        return None
    return following.text if any(char in "0123456789" for char in following.text) else None


def _side_by_side(lines: list[Line], index: int, below: int) -> list[Pair]:
    """Labels printed side by side with their values under each of them."""
    labels, values = segments(lines[index].text), _currency_joined(segments(lines[below].text))
    if len(values) == len(labels) + 1 and _amount_alone(values[-1][1]):
        values = values[:-1]  # "GRAVADO  IVA" over "10.356,06  2.174,77  $ 12.530,83": the sum, unlabelled
    if len(labels) < 2 or len(labels) != len(values) or not all(is_label_text(text) for _, text in labels):
        return []
    return [
        Pair(label, value, "below", (index, label_start), (below, value_start))
        for (label_start, label), (value_start, value) in zip(labels, values, strict=True)
    ]


def _column_pairs(lines: list[Line], blocks: list[tuple[int, ...]]) -> tuple[list[Pair], set[int]]:
    """A block of labels followed by a block of as many values. Blocks of three or more labels, or of
    labels that all end in a colon, are not read as a label over its value as well."""
    pairs: list[Pair] = []
    label_blocks: set[int] = set()
    value_blocks: set[int] = set()
    for number in range(len(blocks) - 1):
        labels, values = blocks[number], blocks[number + 1]
        if len(values) > len(labels) >= 2 and lines[values[len(labels)]].text.endswith(":"):
            values = values[: len(labels)]  # the values, then the next labels run on in the same block
        run_on = _figures_run_on(lines, blocks, number) if len(values) < len(labels) else None
        values = values if run_on is None else run_on
        if (
            number in value_blocks
            or len(labels) < 2
            or len(labels) != len(values)
            or lines[labels[0]].page != lines[values[0]].page
            or not all(is_label_text(lines[index].text) for index in labels)
            or any(lines[index].text.endswith(":") for index in values)
            or _heads_rows(lines, blocks, number)
            or _item_headings([lines[index].text for index in labels])
        ):
            continue
        value_blocks.add(number + 1)
        if run_on is not None:  # and the blocks the column runs on into
            value_blocks.update(
                later for later in range(number + 2, len(blocks)) if blocks[later][0] in run_on
            )
        if (
            len(labels) >= 3
            or all(lines[index].text.endswith(":") for index in labels)
            or _one_subject([lines[index].text for index in labels])
        ):
            label_blocks.add(number)  # (two lines that both end in a colon are two labels, too)
        for label, value in zip(labels, values, strict=True):
            text = lines[label].text.rstrip(":").strip()
            pairs.append(Pair(text, lines[value].text, "column", (label, 0), (value, 0)))
    halves, halved = _labels_then_values(lines, blocks)
    stacked, heads = _stacked_heads(lines, blocks)
    return pairs + halves + stacked + _one_line_columns(lines, blocks), label_blocks | heads | halved


def _figures_run_on(lines: list[Line], blocks: list[tuple[int, ...]], number: int) -> tuple[int, ...] | None:
    """The values of a block of labels that all end in a colon ("Invoice date :", "Client ID :", "Total
    Amount :"), `RUN_ON_LABELS` of them at least, printed in a column beside them that a wider gap cuts
    into blocks: the lines of the blocks after it, as many as the labels and ending with a block, each
    a figure alone (`_a_figure_alone`); None where they are not so."""
    labels = blocks[number]
    if len(labels) < RUN_ON_LABELS or not all(lines[index].text.endswith(":") for index in labels):
        return None
    taken: list[int] = []
    for block in blocks[number + 1 :]:
        taken.extend(block)
        if len(taken) >= len(labels):
            break
    if len(taken) != len(labels) or lines[taken[-1]].page != lines[labels[0]].page:
        return None
    if not all(_a_figure_alone(lines[index].text) for index in taken):
        return None
    return tuple(taken)


def _a_figure_alone(text: str) -> bool:
    """Whether a line is a value alone: a figure in it, no label's words and no label's colon ("Issued:
    2026-06-21" is a label with its own value)."""
    return any(char.isdigit() for char in text) and not is_label_text(text) and label_colon(text) is None


def _labels_then_values(lines: list[Line], blocks: list[tuple[int, ...]]) -> tuple[list[Pair], set[int]]:
    """A block of n labels, then n values each with a figure, in one block (a row of headings over its
    row of amounts, read a column at a time: "Netto", "Exp avg", "Exkl moms", "Moms kr", "ATT BETALA",
    then "20 940,00", "25,00", ...): each label with the value as far down the second half, but a
    rate's heading ("Moms %")."""
    pairs: list[Pair] = []
    found: set[int] = set()
    for number, block in enumerate(blocks):
        count = len(block) // 2
        if count < _HALVES or len(block) != 2 * count or lines[block[0]].page != lines[block[-1]].page:
            continue
        labels, values = block[:count], block[count:]
        if _item_headings([lines[index].text for index in labels]):
            continue
        if not all(is_label_text(lines[index].text) for index in labels) or not all(
            any(char.isdigit() for char in lines[index].text) and not is_label_text(lines[index].text)
            for index in values
        ):
            continue
        found.add(number)
        for label, value in zip(labels, values, strict=True):
            text = lines[label].text.rstrip(":").strip()
            if "%" not in text:  # "Moms %": a rate's heading, its figure no amount
                pairs.append(Pair(text, lines[value].text, "column", (label, 0), (value, 0)))
    return pairs, found


def _item_headings(texts: list[str]) -> bool:
    """Whether labels head an item table's columns ("Beschreibung", "Menge", "Einzelpreis"; "btw",
    "Aantal Eenheid", "tarief", "bedrag"): one names a quantity, a unit price or a description. Their
    values under them are an item's, not the document's (its VAT rate is no tax amount)."""
    return any(
        key[:1] == ("quantity",) or key == ("description",) or key[:2] == ("unit", "price")
        for key in map(label_key, texts)
    )


def _one_subject(texts: list[str]) -> bool:
    """Whether labels name things of one subject ("Client's Name", "Client's Contact"): each of two words
    or more, the first word the same, the rest not: labels of one block, not a label over its value."""
    keys = [label_key(text) for text in texts]
    return (
        all(len(key) >= 2 for key in keys)
        and len({key[0] for key in keys}) == 1
        and len({key[1:] for key in keys}) == len(keys)
    )


def _stacked_heads(lines: list[Line], blocks: list[tuple[int, ...]]) -> tuple[list[Pair], set[int]]:
    """Labels stacked at the head of a block, each ending in its colon, over as many blocks of values:
    the rest of that block, then the blocks after it ("Sprzedawca:", "Nabywca:", then the seller's
    lines, then, a block apart, the buyer's). Each label is paired with its block's first line."""
    pairs: list[Pair] = []
    heads: set[int] = set()
    for number, block in enumerate(blocks):
        count = 0
        while count < len(block) and lines[block[count]].text.endswith(":"):
            count += 1
        if count < 2 or count == len(block) or number + count > len(blocks):
            continue
        labels = block[:count]
        values = [block[count:], *blocks[number + 1 : number + count]]
        if not all(is_label_text(lines[index].text.rstrip(":")) for index in labels) or any(
            lines[each[0]].page != lines[block[0]].page or label_colon(lines[each[0]].text) is not None
            for each in values
        ):
            continue
        heads.add(number)
        for label, each in zip(labels, values, strict=True):
            text = lines[label].text.rstrip(":").strip()
            rest = tuple(each[1 : 1 + _REST])
            pairs.append(Pair(text, lines[each[0]].text, "column", (label, 0), (each[0], 0), rest))
    return pairs, heads


def _heads_rows(lines: list[Line], blocks: list[tuple[int, ...]], number: int) -> bool:
    """Whether the block heads a table printed a block per row, of two rows or more."""
    rows = blocks[number + 1 : number + 3]
    page = lines[blocks[number][0]].page
    return len(rows) == 2 and all(
        len(row) == len(blocks[number])
        and lines[row[0]].page == page
        and all(is_cell(lines[i].text) for i in row)
        for row in rows
    )


def _one_line_columns(lines: list[Line], blocks: list[tuple[int, ...]]) -> list[Pair]:
    """Labels and values that came out one block per line: n label lines, then their n values, at the
    end of a run of one-line blocks."""
    pairs: list[Pair] = []
    for run in _one_line_runs(lines, blocks):
        for count in range(len(run) // 2, 1, -1):
            labels, values = run[len(run) - 2 * count : len(run) - count], run[len(run) - count :]
            if all(is_label_text(lines[index].text) for index in labels):
                for label, value in zip(labels, values, strict=True):
                    text = lines[label].text.rstrip(":").strip()
                    pairs.append(Pair(text, lines[value].text, "column", (label, 0), (value, 0)))
                break
    return pairs


def _one_line_runs(lines: list[Line], blocks: list[tuple[int, ...]]) -> Iterator[list[int]]:
    run: list[int] = []
    for block in blocks:
        if len(block) == 1 and (not run or lines[run[-1]].page == lines[block[0]].page):
            run.append(block[0])
            continue
        if len(run) >= 4:
            yield run
        run = [block[0]] if len(block) == 1 else []
    if len(run) >= 4:
        yield run


def _label_cut_in_two(first: str, second: str) -> bool:
    """Whether two cells are one label cut in two, its last words and colon in the second: "Facture",
    "n° :" (not a key and its value, which has no colon at its end; nor a name beside a label of its
    own, "Prime Tech Solutions", "Invoice Number:", whose words open capitalised)."""
    first, second = first.strip(), second.strip()
    whole = len(second.rstrip(" :").split()) >= 2 and second[:1].isupper()
    return (
        second.endswith(":")
        and not first.endswith(":")
        and len(second) <= 20
        and not whole
        and is_label_text(first)
    )


def cell_pairs(lines: list[Line], tables: list[Table]) -> list[Pair]:
    """Rows of two filled cells (a key and its value), summary rows, rows ending in a key and its value,
    grids of keys and values side by side, rows of keys over rows of their values, and cells holding a
    label and its value (`_boxed_pairs`)."""
    pairs: list[Pair] = []
    for table in tables:
        rows = [(index, lines[index].cells or ()) for index in table.lines]
        keyed = _keys_down_the_side(rows)
        for index, cells in rows:
            filled = [position for position, cell in enumerate(cells) if not is_blank_cell(cell)]
            if len(filled) == 2 or (len(filled) > 2 and is_summary_row(cells[: filled[-1]])):
                named = [place for place in filled[:-1] if _is_summary_label(cells[place])]
                at = named[-1] if named else filled[0]  # "| Paid by card |  | VAT (0%): | 0.00 |": the VAT
                value_at = _before_its_rate(cells, filled, at)
                pairs.append(Pair(cells[at], cells[value_at], "cell", (index, at), (index, value_at)))
            elif len(filled) == 3 and _label_cut_in_two(cells[filled[0]], cells[filled[1]]):
                label = f"{cells[filled[0]].strip()} {cells[filled[1]].strip()}"  # "| Facture | n° : | 12 |"
                pairs.append(Pair(label, cells[filled[2]], "cell", (index, filled[0]), (index, filled[2])))
            elif keyed and len(filled) > 2 and filled[0] == 0:
                pairs.append(Pair(cells[0], cells[filled[1]], "cell", (index, 0), (index, filled[1])))
            elif len(filled) > 2 and _ends_in_key_and_value(cells, filled):
                at, value_at = filled[-2], filled[-1]  # "| Customer Name | Invoice # | 0000007 |"
                pairs.append(Pair(cells[at], cells[value_at], "cell", (index, at), (index, value_at)))
        pairs += _side_by_side_keys(rows) + _keys_over_values(rows) + _boxed_pairs(rows) + _stacked_sums(rows)
        pairs += _colons_over_values(rows) + _sum_after_table(lines, rows)
        known = {(pair.label_at, pair.value_at) for pair in pairs}
        beside = _colons_beside_values(rows) + _colons_before_values(rows)
        pairs += [pair for pair in beside if (pair.label_at, pair.value_at) not in known]
    return pairs


def _colons_before_values(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A label's colon printed at the head of its value's cell, the label alone in the cell before it
    ("| Señor(es) | : Universo Informatico | Fecha Venc. | : 01-06-2024 |"): the label and the value after
    the colon, in a row of any width."""
    pairs: list[Pair] = []
    for index, cells in rows:
        filled = [position for position, cell in enumerate(cells) if cell.strip()]
        for place, following in pairwise(filled):
            cell, value = cells[place].strip(), cells[following].strip()
            if not value.startswith(":") or label_colon(cell) is not None or not is_label_text(cell):
                continue
            if value[1:].strip() and label_colon(value[1:]) is None:
                pairs.append(Pair(cell, value[1:].strip(), "cell", (index, place), (index, following)))
    return pairs


def _sum_after_table(lines: list[Line], rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A table whose last row ends in a summary label with no amount beside it ("| | | CELKEM S DPH |"),
    its amount printed alone on the line after the table, on the same page (a total in large type set
    below the grid)."""
    if not rows:
        return []
    index, cells = rows[-1]
    filled = [position for position, cell in enumerate(cells) if not is_blank_cell(cell)]
    if not filled or filled[-1] != len(cells) - 1 or not _is_summary_label(cells[filled[-1]]):
        return []
    after = index + 1
    if after >= len(lines) or lines[after].cells is not None or lines[after].page != lines[index].page:
        return []
    if not _amount_alone(lines[after].text.strip()):
        return []
    label = cells[filled[-1]].strip()
    return [Pair(label, lines[after].text.strip(), "below", (index, filled[-1]), (after, 0))]


def _colons_beside_values(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A cell holding only a label and its colon, its value in the next filled cell of its row, in a row
    of more cells than a key and its value ("| Supplier: | Acme Ltd | Buyer: | Beta GmbH |", "| Bank: ...
    | Due date: | 27/05/2025 | ... |"), the table's first row among them."""
    pairs: list[Pair] = []
    for index, cells in rows:
        filled = [position for position, cell in enumerate(cells) if cell.strip()]
        for place, following in pairwise(filled):
            cell, value = cells[place], cells[following].strip()
            colon = label_colon(cell)
            if colon is None or cell[colon + 1 :].strip() or label_colon(value) is not None:
                continue
            if not is_label_text(cell[:colon]):
                continue
            pairs.append(Pair(cell[:colon].strip(), value, "cell", (index, place), (index, following)))
    return pairs


def _colons_over_values(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A cell holding only a label and its colon, its value in the same column of the next row ("|
    Invoice No: |" over "| INV001 |"), when that cell is no label of its own; not in a row of column
    headings, whose cells head many rows."""
    pairs: list[Pair] = []
    for (index, cells), (below, under) in pairwise(rows):
        if _headings_row(cells):
            continue
        for place, cell in enumerate(cells[: len(under)]):
            colon = label_colon(cell)
            value = under[place].strip()
            if colon is None or cell[colon + 1 :].strip() or not value or label_colon(value) is not None:
                continue
            pairs.append(Pair(cell[:colon].strip(), value, "below", (index, place), (below, place)))
    return pairs


def _before_its_rate(cells: tuple[str, ...], filled: list[int], at: int) -> int:
    """The cell of a summary row's value: its last filled one, or, when that is a rate in a column of
    rates ("| Subtotaal | €6 | 0% |"), the last filled one before it that is not, past the label."""
    rest = [place for place in filled if place > at]
    amounts = [place for place in rest if not _RATE_CELL.fullmatch(cells[place])]
    if amounts and _RATE_CELL.fullmatch(cells[filled[-1]]):
        return amounts[-1]
    return filled[-1]


def _stacked_sums(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A cell of summary labels printed one over the other beside a cell of as many amounts ("|
    SUBTOTAL IVA 19.00% | 26,299.57 4,550.42 |", each column's lines run into one cell): each label
    with the amount in its place."""
    pairs: list[Pair] = []
    for index, cells in rows:
        filled = [position for position, cell in enumerate(cells) if not is_blank_cell(cell)]
        for place, following in pairwise(filled):
            amounts = cells[following].split()
            if len(amounts) < 2 or any(not _amount_alone(amount) for amount in amounts):
                continue
            labels = _summary_labels(cells[place].split(), len(amounts))
            for number, (label, amount) in enumerate(zip(labels, amounts, strict=False)):
                at = (index, place + number * _PIECE)
                pairs.append(Pair(label, amount, "cell", at, (index, following + number * _PIECE)))
    return pairs


def _summary_labels(words: list[str], count: int, is_one: Callable[[str], bool] | None = None) -> list[str]:
    """`words` cut into `count` summary labels in a row ("SUBTOTAL IVA 19.00%" into "SUBTOTAL" and "IVA
    19.00%"), or labels `is_one` knows, the first cut that makes each of them one; none when no cut
    does. Each (start, count) is tried once: a cell of many words that each read as a label ("Total 1
    1 1 ...") beside many amounts would otherwise be cut in exponentially many ways."""
    known: dict[tuple[int, int], list[str]] = {}
    is_label = is_one or _is_summary_label

    def cut_from(start: int, left: int) -> list[str]:
        if (start, left) in known:
            return known[(start, left)]
        found: list[str] = []
        if left == 1:
            text = " ".join(words[start:])
            found = [text] if start < len(words) and is_label(text) else []
        else:
            for cut in range(start + 1, len(words) - left + 2):
                first = " ".join(words[start:cut])
                if is_label(first) and (rest := cut_from(cut, left - 1)):
                    found = [first, *rest]
                    break
        known[(start, left)] = found
        return found

    return cut_from(0, count)


def _boxed_pairs(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A cell holding a label and its value: after the label's colon ("| Termin płatności: 15.03.2026 |"),
    summary labels each before its amount (`_summary_run`),
    each of several such pairs run together in one cell read apart, as a line's are ("| Datum vystavení:
    05.09.2025 Datum splatnosti: 05.10.2025 |"),
    or a box of a form holding its label in capitals over its value, which the cell reads as one text
    ("VALOR TOTAL DA NOTA 51,69", "NF-e N°. 44525 SÉRIE 1": the label, then the words with digits after
    it up to the next word without); a label written right to left after its value (`_RTL_PAIR`); a
    known label and its value with an equals sign between them, as a script prints its sums into a
    table's last row ("| Total = 100.0 | ZAR |", `_equals_pair`)."""
    pairs: list[Pair] = []
    for index, cells in rows:
        for place, cell in enumerate(cells):
            right_to_left = _right_to_left_pair(index, place, cell)
            if right_to_left is not None:
                pairs.append(replace(right_to_left, label_at=(index, place), value_at=(index, place)))
                continue
            equals = _equals_pair(index, place, cell)
            if equals is not None:
                pairs.append(replace(equals, label_at=(index, place), value_at=(index, place)))
                continue
            if label_colon(cell) is not None:
                for number, (_, piece) in enumerate(_labelled_pieces([(0, cell)])):
                    colon = label_colon(piece)
                    at = (index, place + number * _PIECE)  # each pair its own place, none taken twice
                    if colon is not None and piece[colon + 1 :].strip():
                        label, value = piece[:colon].strip(), piece[colon + 1 :].strip()
                        pairs.append(Pair(label, value, "cell", at, at))
                continue
            sums = _summary_run(cell)
            if sums:
                for number, (label, value) in enumerate(sums):
                    at = (index, place + number * _PIECE)
                    pairs.append(Pair(label, value, "cell", at, at))
                continue
            words = cell.split()
            cut = next((at for at, word in enumerate(words) if any(char.isdigit() for char in word)), 0)
            if cut == 0 or (words[cut - 1] == "R$" and cut == 1):
                continue
            label_words = words[: cut - 1] if words[cut - 1] == "R$" else words[:cut]
            letters = [char for word in label_words for char in word if char.isalpha()]
            if len(letters) < 3 or sum(char.isupper() for char in letters) < 0.75 * len(letters):
                continue
            end = cut
            while end < len(words) and any(char.isdigit() for char in words[end]):
                end += 1
            if words[end - 1].endswith("%") or (end < len(words) and words[end].startswith("%")):
                continue  # "DPH 21 %": a tax's label with its rate, its amount in another cell
            label, value = " ".join(label_words), " ".join(words[len(label_words) : end])
            pairs.append(Pair(label, value, "cell", (index, place), (index, place)))
    return pairs


def _summary_run(cell: str) -> list[tuple[str, str]]:
    """A cell of summary labels each followed by its amount, no colon between ("Sous-total HT 7 200,00 €
    TVA (20 %) 1 440,00 € Total TTC 8 640,00 €"): the labels and their amounts, when two or more and
    one of them at least labels a summary amount; none otherwise (a cell of prose with prices in it)."""
    found = [(match["label"].strip(), match["amount"].strip()) for match in _SUM_RUN.finditer(cell)]
    found = [(label, amount) for label, amount in found if is_label_text(without_rate(label))]
    if len(found) < 2 or not any(_is_summary_label(label) for label, _ in found):
        return []
    return found


def _ends_in_key_and_value(cells: tuple[str, ...], filled: list[int]) -> bool:
    """A row that ends in a key and its value side by side, after a cell of something else (a party's
    block and a document's details printed in one table): the key of two words or more (a compound
    counting by its parts: "Belegnummer" is "invoice number") or with a colon or "#", the value with
    a digit; or a summary label with its rate or not and its amount ("| Bank: ... | DPH 21 % | 19,970.28
    Kč |": the sums printed beside the bank details)."""
    key, value = cells[filled[-2]].strip(), cells[filled[-1]].strip()
    if filled[-1] == filled[-2] + 1 and _is_summary_label(key) and _amount_alone(value):
        return True
    return (
        filled[-1] == filled[-2] + 1
        and is_label_text(key.rstrip(":"))
        and (len(key.split()) >= 2 or len(label_key(key)) >= 2 or key.endswith((":", "#")))
        and not is_label_text(value)
        and any(char.isdigit() for char in value)
    )


def _is_summary_label(cell: str) -> bool:
    """A cell that labels a summary amount ("Total", "VAT (20%):"), with its rate or not."""
    return tuple(word for word in label_key(without_rate(cell)) if not word.isdigit()) in SUMMARY_KEYS


def _keys_down_the_side(rows: list[tuple[int, tuple[str, ...]]]) -> bool:
    """A table of keys down its first column and their values beside them, with more beside those
    (a neighbouring column run into it): no header row, every first cell a key."""
    if len(rows) < 2 or all(not cell or is_label_text(cell) for cell in rows[0][1]):
        return False
    return all(row and is_label_text(row[0]) for _, row in rows)


def _side_by_side_keys(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """| Invoice No. | INV-1 | Currency | EUR |: keys in every other column, each before its value; from
    the first column, or from the second when the first holds something else (the addressee's lines
    beside the document's details: "| Matti Virtanen | Laskun nro: | 4321 | Eräpäivä: | 01.01.2015 |")."""
    width = len(rows[0][1])
    for first in (0, 1):
        keyed = (
            width - first >= 4
            and (width - first) % 2 == 0
            and all(not cell or is_label_text(cell) for _, row in rows for cell in row[first::2])
            and any(cell for _, row in rows for cell in row[first::2])
        )
        if (
            keyed
            and not all(is_label_text(cell) for _, row in rows for cell in row[first + 1 :: 2] if cell)
            and not _headings_over_values(rows, first)
        ):
            return [
                Pair(row[place], row[place + 1], "cell", (index, place), (index, place + 1))
                for index, row in rows
                for place in range(first, width, 2)
                if row[place] and row[place + 1]
            ]
    return []


def _headings_over_values(rows: list[tuple[int, tuple[str, ...]]], first: int) -> bool:
    """Whether a table of two rows is a row of headings over a row of their values rather than keys
    beside values: every cell of the first row a label, no cell of the second where a key would stand a
    known one ("| VENDEDOR | CARGO | CONDIÇÕES DE PAGAMENTO | DATA DE VENCIMENTO |" over "| Maria Lima |
    Desenvolvedor | Pagamento na Entrega | 30/08/2023 |": the vendor is Maria Lima, not "CARGO")."""
    if len(rows) != 2:
        return False
    head, values = rows[0][1], rows[1][1]
    return all(cell and is_label_text(cell) for cell in head[first:]) and not any(
        is_known_label(cell) or label_colon(cell) is not None for cell in values[first::2] if cell
    )


def _keys_over_values(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A row of keys over a row of their values, not followed by more values (a table's first row);
    or over rows of values that end in a row of their sums, its first cell empty or a total's label
    where theirs are filled ("| VAT | 21.00 | 522.31 |" then "|  |  | 522.31 |"; "| Razem | 1 500,00 |
    270,00 |" under "| Stawka VAT | Wartość netto | Kwota VAT |"): the keys and the sums. A cell of the keys'
    row that holds a label with its own value ("| Phone: 06 12 34 56 78 | Invoice No | Date |") is
    neither a key nor a value and heads nothing."""

    def keys(row: tuple[str, ...]) -> bool:
        return any(row) and all(
            not cell or is_label_text(cell) or label_and_value(cell) or _labels_in_a_row(cell) for cell in row
        )

    def pair(key: tuple[int, tuple[str, ...]], values: tuple[int, tuple[str, ...]]) -> list[Pair]:
        (key_line, key_row), (value_line, value_row) = key, values
        found = []
        for place, (label, value) in enumerate(zip(key_row, value_row, strict=True)):
            if not label or not value or _heads_rates(label) or label_and_value(label):
                continue
            apart = _labels_over_values(label, value, "cell", (key_line, place), (value_line, place))
            found += apart or [Pair(label, value, "cell", (key_line, place), (value_line, place))]
        return found

    pairs: list[Pair] = []
    for number in range(len(rows) - 1):
        key_row, value_row = rows[number][1], rows[number + 1][1]
        after = number + 2
        while after < len(rows) and (
            _continues_first_cell(value_row, rows[after][1]) or _rate_without_amounts(rows[after][1])
        ):
            after += 1  # "| Abonnement |  |  |" under "| Abonnement | 1 | 129,00 € |": its description's line
        if keys(key_row) and not keys(value_row) and (after == len(rows) or keys(rows[after][1])):
            pairs += pair(rows[number], rows[number + 1])
    if len(rows) >= 3 and _headings_row(rows[0][1]):
        places, split = _merged_columns_apart(rows)
        sums = _sums_row(split[1:])
        if sums is not None:
            pairs += [
                replace(found, label_at=(found.label_at[0], places[found.label_at[1]]),
                        value_at=(found.value_at[0], places[found.value_at[1]]))
                for found in pair(split[0], sums)
            ]  # fmt: skip
    return pairs


def _labels_in_a_row(cell: str) -> list[str]:
    """A cell holding two or three known labels in a row and nothing else ("Fecha de factura Fecha de
    vencimiento": the headings of two columns the table's reader took for one), each label apart;
    none for a cell that is one label."""
    words = cell.split()
    if is_known_label(cell) or not 2 <= len(words) <= _ROW_LABEL_WORDS:
        return []
    return next((cut for count in (2, 3) if (cut := _summary_labels(words, count, _known_label))), [])


def _labels_over_values(
    label: str, value: str, how: str, label_at: Pos, value_at: Pos, rest: tuple[int, ...] = ()
) -> list[Pair] | None:
    """Labels in a row over as many values of a word each ("Fecha de factura Fecha de vencimiento" over
    "25/05/2026 25/05/2026"), each label with the value in its place; None when the label is not such a
    row or the counts differ. In a table's cell each pair takes a place of its own in the cell; on a
    line of text, its words' own offsets."""
    labels, values = _labels_in_a_row(label), value.split()
    if not labels or len(labels) != len(values) or parse_number(value) is not None:
        return None  # (one amount grouped by spaces, "33 569,50", is no two values)
    if any(parse_number(one) is None and parse_date(one) is None for one in values):
        return None
    pairs, label_from, value_from = [], 0, 0
    for number, (one, own) in enumerate(zip(labels, values, strict=True)):
        printed = re.compile(r"\s+".join(map(re.escape, one.split()))).search(label, label_from)
        label_from = printed.start() if printed else label_from  # (the words as printed, spaced so)
        value_from = value.index(own, value_from)
        if how == "cell":
            at, value_place = (
                (label_at[0], label_at[1] + number * _PIECE),
                (value_at[0], value_at[1] + number * _PIECE),
            )
        else:
            at, value_place = (label_at[0], label_at[1] + label_from), (value_at[0], value_at[1] + value_from)
        pairs.append(Pair(one, own, how, at, value_place, rest))
        label_from, value_from = printed.end() if printed else label_from, value_from + len(own)
    return pairs


def _known_label(text: str) -> bool:
    return is_label_text(text) and is_known_label(text)


def _rate_without_amounts(row: tuple[str, ...]) -> bool:
    """A row of a summary by rate that holds a rate and dashes only ("| 8.00% | - | - | - |" under the
    row of the rate charged): a rate nothing was charged at, no further values under the keys."""
    return any(cell.strip() for cell in row) and all(
        is_blank_cell(cell) or _RATE_CELL.fullmatch(cell.strip()) for cell in row
    )


def _continues_first_cell(row: tuple[str, ...], below: tuple[str, ...]) -> bool:
    """`below` holds only a first cell, under a row that fills its first cell and more: a further line of
    that row's first cell (an item's description), not a row of keys."""
    filled = [place for place, cell in enumerate(row) if cell.strip()]
    under = [place for place, cell in enumerate(below) if cell.strip()]
    return under == [0] and len(filled) > 1 and filled[0] == 0


def label_and_value(cell: str) -> bool:
    """A cell holding a label, its colon and a value after it ("Phone: 06 12 34 56 78")."""
    colon = label_colon(cell)
    return colon is not None and is_label_text(cell[:colon]) and bool(cell[colon + 1 :].strip())


_PART = 1000  # a part of a cell of columns run together, told apart from the cell's other parts


def _merged_columns_apart(
    rows: list[tuple[int, tuple[str, ...]]],
) -> tuple[list[int], list[tuple[int, tuple[str, ...]]]]:
    """The table with each column that holds two or more columns run together split apart: its heading
    of as many words as each of its amounts holds numbers ("Nettobetrag MwSt-Betrag" over "448,99
    70,00"), a row of text keeping its cell in the first of them; and the place each column had (the
    cell's, plus `_PART` times the part of it, so that the parts of a cell are values apart)."""
    heading, body = rows[0][1], rows[1:]
    widths = [_merged_width(heading[place], [cells[place] for _, cells in body if place < len(cells)])
              for place in range(len(heading))]  # fmt: skip
    places = [place + _PART * part for place, width in enumerate(widths) for part in range(width)]
    if len(places) == len(heading):
        return places, rows

    def apart(cells: tuple[str, ...], of_heading: bool) -> tuple[str, ...]:
        out: list[str] = []
        for place, width in enumerate(widths):
            cell = cells[place] if place < len(cells) else ""
            parts = cell.split()
            if width > 1 and (of_heading or _numbers(parts)) and len(parts) == width:
                out.extend(parts)
            else:
                out.extend([cell] + [""] * (width - 1))
        return tuple(out)

    return places, [(rows[0][0], apart(heading, True))] + [
        (index, apart(cells, False)) for index, cells in body
    ]


def _merged_width(heading: str, cells: list[str]) -> int:
    """How many columns a heading and its cells are: its word count when every cell of numbers under
    it holds that many and there is at least one such cell (a cell of text, a footer run into the
    table, says nothing), none of them one amount written with spaces, else 1."""
    words = heading.split()
    numeric = [cell for cell in cells if _numbers(cell.split())]
    if len(words) < 2 or not numeric or not all(is_label_text(word) for word in words):
        return 1
    if any(parse_number(cell) is not None for cell in numeric):
        return 1  # one amount, its thousands apart by a space ("5 111,06"): one column
    return len(words) if all(len(cell.split()) == len(words) for cell in numeric) else 1


def _numbers(parts: list[str]) -> bool:
    return bool(parts) and all(parse_number(part) is not None for part in parts)


def _sums_row(rows: list[tuple[int, tuple[str, ...]]]) -> tuple[int, tuple[str, ...]] | None:
    """The row of sums the rows of values under a table's headings end in, before any summary rows
    printed after it ("| Maksettava |  | 248,00 |" under the sums of the net, the tax and the gross), or
    rows of one amount each ("| Na zálohách zaplaceno |  |  | 0,00 |": the deposits paid)."""
    end = len(rows)
    while end >= 2:
        if _ends_in_sums([row for _, row in rows[:end]]):
            return rows[end - 1]
        last = rows[end - 1][1]
        amounts = sum(parse_number(cell) is not None for cell in last[1:] if cell)
        if not is_summary_row(last) and amounts > 1:
            return None  # a row of text after the sums (the seller's footer run into the table) is passed
        end -= 1
    return None


def _headings_row(row: tuple[str, ...]) -> bool:
    """A table's row of column headings: no digits but a rate's ("TVA (20%)"), two or more of them
    labels ("%" may be one)."""
    cells = [without_rate(cell) if cell else cell for cell in row]
    return not any(char.isdigit() for cell in cells for char in cell) and sum(map(is_label_text, cells)) >= 2


def _heads_rates(label: str) -> bool:
    """A heading of a column of rates ("ALV-%", "VAT %"), not of amounts: a "%" without a rate printed
    ("TVA (20%)" heads the tax of that rate)."""
    return "%" in label and not any(char.isdigit() for char in label)


def _names_a_total(cell: str) -> bool:
    """A cell that labels a total, in so many words or beginning so ("Total de la facture")."""
    key = label_key(cell)
    return is_label_text(cell) and bool(key) and any(key[:size] in TOTAL_KEYS for size in (len(key), 1))


def _ends_in_sums(rows: list[tuple[str, ...]]) -> bool:
    """Whether rows of values end in a row of their sums: its first cell empty, a total's label
    ("Razem", "Total de la facture") or the sum of the column where theirs are all filled, and two or
    more of its cells amounts that are the sums of the amounts above them (an empty cell above counts
    as nothing: a charge on one rate only). A rate in a column of rates ("| Razem: | 6,46 | 23% | 1,49 |")
    is no sum."""
    *values, last = rows
    if not all(row[0] for row in values):
        return False
    if last[0] and not _names_a_total(last[0]) and parse_number(last[0]) is None:
        return False  # its first cell neither a total's label nor a sum of the column (checked below)
    summed = 0
    for place, cell in enumerate(last):
        found = parse_number(cell) if cell and not _RATE_CELL.fullmatch(cell) else None
        if found is None:
            continue
        above = [parse_number(row[place]) if row[place] else (0.0, 1.0) for row in values]
        if any(number is None for number in above):
            return False
        if abs(sum(number[0] for number in above if number) - found[0]) > 0.011:
            return False
        summed += 1
    return summed >= 2
