"""Values no label names, each less likely than a labelled one.

A date stated inside a sentence after the words naming the field, the date printed with the
document's title and number ("Rechnung Nr. 4711 vom 06.08.2018", "Facture n° 12 du 3 mai 2024"), a
total a receipt prints as OCR reads it and the shop at the head of a receipt (see `receipts`), the
document's first date, the currency its amounts show, an allowed value printed on its own, a ticked
check box beside a statement about the field, a person's name printed as a first and a last name, and
a document's number printed with its title ("Invoice INV-2041", "Facture FA-2017-0010", "Rechnung #
RE-505", "Handelsrechnung Nr. 4711 vom 06.08.2018", or a lone "Nr. 471102" under the title
"Handelsrechnung").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from docsvc.intelligence.candidates import PRIOR, Candidate, Slot, candidate_of, counts_sheets, role_of
from docsvc.intelligence.identifiers import (
    find_identifier,
    identifier_kind,
    is_reference_field,
    national_iban,
    national_vat,
    reference_code,
)
from docsvc.intelligence.labels import (
    DOCUMENT_TITLES,
    VENDOR_KEYS,
    Key,
    amount_role,
    is_label_text,
    key_words,
    label_key,
)
from docsvc.intelligence.lines import Line, label_colon, segments
from docsvc.intelligence.reading import PARTY_WORDS, SYNONYM, Reading
from docsvc.intelligence.receipts import receipt_totals, shop_fields, stamped_date
from docsvc.intelligence.values import (
    ParsedDate,
    crossed,
    parse_bool,
    parse_date,
    parse_number,
    ticked_options,
)

_FIRST_DATE, _SHOWN_CURRENCY, _PRINTED_OPTION = 0.4, 0.7, 0.55
_TICKED, _NAME_PARTS, _IN_SENTENCE = 0.75, 0.8, 0.75
_UNCROSSED = 0.6  # a statement printed without the X its ticked neighbours have: its box is empty
_TITLED_NUMBER, _TITLED_DATE = 0.85, 0.8
# India's GST printed as its two halves, each on its own labelled line ("Total CGST: 25.35", "SGST:
# 25.35"; a union territory's "UTGST" for the state's): the tax is their sum, less likely than a tax
# total a label names.
_GST_PART = re.compile(
    r"(?i)^\s*(?:total\s+)?(?P<part>cgst|sgst|utgst)\b(?:\s+amount)?\s*:?\s*(?P<amount>\d[\d,]*\.\d{2})\s*$"
)
_GST_HALVES = 0.6
_TITLE_LABEL = 0.9  # a title printed as a label before its number, not at the head of its line
_NAMED_IBAN = 0.7  # an IBAN after the word "IBAN" in a sentence
_AFTER_REGISTER_WORDS = 0.6  # a VAT id whose label opens its line, a register's words between them
_REGISTER_RUN = 6  # words at most between that label and the id
_LONE_VAT = 0.5  # the one VAT id a document prints, alone on its line with no label, its check right
_LABEL_WORDS = 4  # words at most of a label ending a sentence before its value
_LONE_IBAN = 0.5  # the one IBAN a document prints, on a line or in a cell of its own, its check right
_IN_A_SENTENCE = 0.8  # of that: the one IBAN printed inside a sentence ("... overmaken op NL11 TRIO ...")
_APART = 0.65  # a lone value printed away from its label, which has nothing after its colon
_TITLED_FOR = 0.6  # a customer's name after the title and "for" ("Invoice for Acme Ltd")
_TITLE_FOR = re.compile(
    r"(?i)(?P<title>[^\W\d_]+(?: [^\W\d_]+)?)\s+(?:for|voor|für|fur|pour|para|per|dla)\s+(?P<name>.+)"
)
_NAME_AFTER_TITLE = 6  # words at most of the name after "Invoice for"
_QUOTED_PAYEE = 0.6  # a seller's name in quotes after "make payment to" / "payable to" in a sentence
_PAYEE = re.compile(r"(?i)\b(?:payable|payment|pay)\s+to\s*:?\s*(?:\"([^\"]{2,80})\"|“([^”]{2,80})”)")
_IBAN_WORD = re.compile(r"\bIBAN\b[\s:]*")
_UNDER_COLUMN, _UNDER_HEADING = 0.6, 8  # a date under a heading of stacked column headings, how far
_TITLE_LINES = 40  # a document's title is among its first lines
_UNDER_TITLE = 0.9  # a number alone under the title, no "No." before it
# Articles a title may open with ("La factura de alquiler Nº 1", "The invoice No. 12"), its "No." then due.
_ARTICLES = frozenset({"the", "la", "le", "el", "il", "die", "der", "das", "het", "de", "o", "a", "an"})
_SERIES = frozenset({"serie", "seria"})  # an invoice's series before its "No.": "Série 1 Nº 000123"
_SUBTITLE_WORDS = 3  # how many words a subtitle between a title and its "No." may have
# A code alone on its line: digits (letters among them) in parts joined by "/" or "-" ("2 / 2024").
_LONE_CODE = re.compile(r"(?=[^\n]*\d)[A-Z0-9]{1,12}(?:\s?[/-]\s?[A-Z0-9]{1,12}){0,3}")
_TYPE_CODE = re.compile(r"\s*\(\d{1,3}\)")  # a document type code after a title: "Handelsrechnung (380)"
# The word a title's date follows: "Rechnung Nr. 4711 vom 06.08.2018", "Facture n° 12 du 03/05/2024",
# "Invoice 12 of 3 May 2024", "Factuur 12 van 03-05-2024", "Factura 12 del 03/05/2024", "Faktura 12 z dnia",
# "Счет на оплату № 12 от 3 мая 2024", "Рахунок № 12 від 03.05.2024".
_DATED = re.compile(
    r"(?i),?\s+(?:vom|von|du|of|dated|van|del|de|z\s+dnia|dd\.?|от|від|"
    r"(?:emitid[ao]|issued|[ée]mise?|ausgestellt)\s+(?:em|on|le|am|a))\s+(?=\d)"
)
# The same word ending a line, its date printed on a line of its own: "Nr. 471102 vom" beside "05.03.2018".
_DATED_APART = re.compile(r"(?i)\s(?:vom|von|du|of|dated|van|del|de|z\s+dnia|dd\.?|от|від)\s*$")


_FIRST_NAMES = frozenset(
    label_key(label) for label in ("first name", "given name", "forename", "first names")
)
_LAST_NAMES = frozenset(label_key(label) for label in ("last name", "surname", "family name"))
_NOT_PEOPLE = frozenset(
    {"vendor", "supplier", "merchant", "company", "business", "product", "item", "bank", "store"}
)


def without_label(slot: Slot, reading: Reading, others: frozenset[int] = frozenset()) -> Iterator[Candidate]:
    """Values no label names, each less likely than a labelled one: a document's first date, the
    currency its amounts show, an allowed value printed alone ("Card"), a ticked statement ("[X] Send
    me the newsletter"), a first name and a last name. `others`: the lines of the other parties' blocks,
    where no identifier of this field's party is read."""
    key = label_key(slot.path[-1])
    if slot.node.text("format") in {"date", "date-time"}:
        yield from _dates_in_sentences(slot, reading)
        yield from _date_under_heading(slot, reading)
    if slot.node.text("format") == "date" and slot.aliases.get(("date",), 0.0) >= SYNONYM:
        yield from _titled_date(slot, reading)
        yield from _first_date(slot, reading)
        yield from stamped_date(slot, reading)
    if "currency" in key and reading.currency:
        candidate = candidate_of(
            slot, reading.currency, _SHOWN_CURRENCY, (-1, 0), frozenset({(-1, 0)}), reading
        )
        yield from [candidate] if candidate else []
    if slot.node.enum is not None:
        yield from _printed_option(slot, reading)
    if slot.node.kind == "boolean":
        yield from _ticked_statements(slot, reading)
    if role_of(slot.path[-1]) == "name" and not set(key) & _NOT_PEOPLE:
        yield from _first_and_last_name(slot, reading)
    if role_of(slot.path[-1]) == "name" and slot.owner is not None and set(slot.owner.aliases) & VENDOR_KEYS:
        yield from _quoted_payee(slot, reading)
    if (
        role_of(slot.path[-1]) == "name"
        and slot.owner is not None
        and reading.addressed_to(slot.owner.aliases)
    ):
        yield from _title_for(slot, reading)
    if key[-1:] == ("number",) and slot.node.kind == "string":
        yield from _titled_number(slot, reading)
    if (
        slot.node.kind == "string"
        and identifier_kind(slot.path[-1]) == "vat"
        and slot.owner is not None
        and set(slot.owner.aliases) & VENDOR_KEYS
    ):
        yield from _vat_id_under_bare_label(slot, reading)
        yield from _lone_vat_id(slot, reading)
        yield from _vat_id_after_register_words(slot, reading, others)
    if slot.node.kind == "string" and identifier_kind(slot.path[-1]) == "iban":
        yield from _iban_after_its_name(slot, reading)
        yield from _lone_iban(slot, reading)
    if slot.node.kind in {"number", "integer"} and amount_role(slot.aliases) == "total":
        yield from receipt_totals(slot, reading)
    if slot.node.kind in {"number", "integer"} and amount_role(slot.aliases) == "tax":
        yield from _gst_in_halves(slot, reading)
    if slot.node.kind == "string":
        yield from shop_fields(slot, reading)
    yield from _value_printed_apart(slot, reading)


def _gst_in_halves(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The tax of an Indian invoice that prints only its halves, each once on a line of its own: the
    central GST ("CGST") and the state's ("SGST") or a union territory's ("UTGST"), added up. A table's
    columns of them are the line items' and are left alone; a half printed twice is no clear total."""
    found: dict[str, list[tuple[int, str]]] = {}
    for index, line in enumerate(reading.layout.lines):
        match = _GST_PART.match(line.text) if line.cells is None else None
        if match:
            found.setdefault(match["part"].lower(), []).append((index, match["amount"]))
    state = [found[part] for part in ("sgst", "utgst") if part in found]
    if len(found.get("cgst", [])) != 1 or len(state) != 1 or len(state[0]) != 1:
        return
    (central, first), (other, second) = found["cgst"][0], state[0][0]
    halves = [parse_number(text.replace(",", "")) for text in (first, second)]
    if None in halves:
        return
    cents = sum(round(half[0] * 100) for half in halves if half)
    value = f"{cents // 100}.{cents % 100:02d}"
    uses = frozenset({(central, 0), (other, 0)})
    candidate = candidate_of(slot, value, _GST_HALVES, (min(central, other), 0), uses, reading)
    yield from [candidate] if candidate else []


def _value_printed_apart(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The value of a label printed with nothing after its colon ("FACTURE N° :", "Date :") that the
    page prints apart, as the one line of a block of its own (a PDF whose text stands in another order
    than it shows): the only such line on the label's page of the field's form, a date for a date, a
    code for a document's number."""
    form = _lone_form(slot)
    if form is None:
        return
    lines, blocks = reading.layout.lines, reading.layout.blocks
    for index, line in enumerate(lines):
        colon = label_colon(line.text) if line.cells is None else None
        if colon is None or line.text[colon + 1 :].strip() or not _ends_its_labels(index, reading):
            continue
        score = slot.aliases.get(label_key(line.text[:colon]), 0.0)
        if score < SYNONYM:
            continue
        lone = [
            at
            for at, other in enumerate(lines)
            if other.page == line.page and other.cells is None and other.block >= 0
            and len(blocks[other.block]) == 1 and form(other.text.strip(), reading)
        ]  # fmt: skip
        if len(lone) == 1:
            at = lone[0]
            uses = frozenset({(index, 0), (at, 0)})
            candidate = candidate_of(slot, lines[at].text.strip(), score * _APART, (at, 0), uses, reading)
            if candidate:
                yield candidate
                return


def _vat_id_under_bare_label(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The issuer's VAT id in a footer printed in columns, read row by row: its label alone on a line
    ("USt-IdNr"), the id alone on a line of the same block further down ("DE123456789"), with the
    other columns' lines between them. Only the block's one such id, and less likely than a value
    after its label."""
    lines = reading.layout.lines
    for index, line in enumerate(lines):
        if line.cells is not None or line.block < 0:
            continue
        score = slot.aliases.get(label_key(line.text.strip().rstrip(":")), 0.0)
        if score < SYNONYM:
            continue
        block = reading.layout.blocks[line.block]
        ids = [
            at
            for at in block
            if at > index
            and (found := find_identifier("vat", lines[at].text)) is not None
            and found[0].replace(" ", "") == lines[at].text.strip().replace(" ", "")
        ]
        if len(ids) == 1:
            at = ids[0]
            uses = frozenset({(index, 0), (at, 0)})
            candidate = candidate_of(slot, lines[at].text.strip(), score * _APART, (at, 0), uses, reading)
            yield from [candidate] if candidate else []
            return


def _vat_id_after_register_words(slot: Slot, reading: Reading, others: frozenset[int]) -> Iterator[Candidate]:
    """A VAT id whose check is right, its label opening the line and words between them that say
    where the company is registered under the same number ("C.F/P.IVA e Registro Imprese di Milano
    02031070994", as Italian companies print it), with its country code or in the national form of
    the document's country. Not in another party's block ("PL VAT PL5213938224" under "Bill to")."""
    for index, line in enumerate(reading.layout.lines):
        if line.cells is not None or index in others:
            continue
        words = line.text.split()
        score = max((_ends_in_alias(" ".join(words[:count]), slot) for count in (1, 2, 3)), default=0.0)
        if score < SYNONYM:
            continue
        rest = " ".join(words[1:])
        found = find_identifier("vat", rest) or national_vat(rest, reading.countries)
        if found is None or found[1] < 1.0 or len(rest[: rest.find(found[0])].split()) > _REGISTER_RUN:
            continue
        at = (index, line.text.find(found[0]))
        uses = frozenset({(index, 0), at})
        candidate = candidate_of(slot, found[0], score * _AFTER_REGISTER_WORDS, at, uses, reading)
        if candidate:
            yield candidate
            return


def _ends_in_alias(text: str, slot: Slot) -> float:
    """How well a word or two name the field by the end of their key ("C.F/P.IVA", whose key ends in
    "vat id")."""
    key = label_key(text)
    return max((slot.aliases.get(key[-count:], 0.0) for count in range(1, len(key) + 1)), default=0.0)


def _lone_form(slot: Slot) -> Callable[[str, Reading], bool] | None:
    """How a value printed apart from its label is told by its form: a date, or a code of one word."""
    if slot.node.text("format") == "date":
        return lambda text, reading: " " not in text and parse_date(text, reading.day_first) is not None
    if slot.node.kind == "string" and is_reference_field(label_key(slot.path[-1])):
        return lambda text, reading: (
            " " not in text
            and reference_code(text) == text
            and parse_date(text, reading.day_first) is None
            and parse_number(text) is None
        )
    return None


def _ends_its_labels(index: int, reading: Reading) -> bool:
    """Whether a label's line has no value under it in its block: the last line, or a label over it."""
    lines = reading.layout.lines
    below = lines[index + 1] if index + 1 < len(lines) else None
    if below is None or below.block != lines[index].block:
        return True
    colon = label_colon(below.text)
    return colon is not None and not below.text[colon + 1 :].strip()


# A bank's name between the word "IBAN" and the IBAN: up to four words of letters, after a colon or not.
_BANK_NAME = re.compile(r"[\s:.\-]*(?:[^\W\d_][^\W\d_&.'\-]*[&.'\-]?\s+){1,4}")


def _iban_after_its_name(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """An IBAN printed after the word "IBAN" inside a sentence, on its line or at the start of the
    next ("... auf folgende Bankverbindung: IBAN" over "DE75123456780000001234, BIC ..."), or inside a
    table cell that holds other details of the payment ("Référence : F123 IBAN : FR76 ... - BIC : ..."):
    the first one (less likely when its check digits are wrong). The bank's name may stand between the
    word and an IBAN whose check digits are right ("IBAN: SANTANDER ES94 0049 ...")."""
    for text, at in _after_the_word_iban(reading.layout.lines):
        found = find_identifier("iban", text)
        if found is None:
            continue
        before = text[: text.find(found[0])]
        if before.strip() and not (found[1] == 1.0 and _BANK_NAME.fullmatch(before)):
            continue
        candidate = candidate_of(slot, found[0], _NAMED_IBAN, (at, 0), frozenset({(at, -5)}), reading)
        if candidate:
            yield candidate
            return


def _lone_iban(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """An IBAN printed with no label, alone on its line or in its table cell ("Bankverbindung", "Bank",
    "DE02120300000000202051"; the label one cell above), or at the start of its line before the bank's
    name ("SI56 0400 0027 6166 895 odprt pri OTP banka d.d., SWIFT/BIC: ..."), whose check digits are
    right, or a national account number alone on its line that is the IBAN of the document's country
    without its code (a Polish NRB "42 1140 2004 0000 3502 7477 8440"): the account the document is
    paid to, when it prints no other IBAN. Its check digits right, it may stand inside a sentence too
    ("Dit bedrag graag overmaken op NL11 TRIO 0781 5094 40"), less likely."""
    found: dict[str, tuple[str, int, bool]] = {}  # by the IBAN: as printed, its line, inside a sentence
    for index, line in enumerate(reading.layout.lines):
        for piece in line.cells if line.cells is not None else (line.text,):
            iban = find_identifier("iban", piece)
            if iban is not None and iban[1] == 1.0:
                value = re.sub(r"\s", "", iban[0])
                found.setdefault(value, (value, index, not _begins(piece.strip(), iban[0])))
            national = national_iban(piece, reading.countries) if iban is None else None
            if national is not None and piece.strip() == national[0]:
                found.setdefault(national[1], (national[0], index, False))
    if len(found) != 1:
        return
    ((value, at, inside),) = found.values()
    score = _LONE_IBAN * (_IN_A_SENTENCE if inside else 1.0)
    candidate = candidate_of(slot, value, score, (at, 0), frozenset({(at, -5)}), reading)
    yield from [candidate] if candidate else []


def _lone_vat_id(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """A VAT id with its country code and its check right, alone on its line or in its table cell
    with no label ("SE850109440601" over "Godkänd för F-skatt" in a footer) or its label ending a
    sentence before it (`_labelled_at_its_end`), when the document prints no other VAT id whose check
    is right: the issuer's, which an invoice must print (less likely than a labelled one)."""
    found: dict[str, int] = {}
    for index, line in enumerate(reading.layout.lines):
        for piece in line.cells if line.cells is not None else (line.text,):
            vat = find_identifier("vat", piece)
            if vat is not None and vat[1] == 1.0:
                alone = piece.strip() == vat[0] or _labelled_at_its_end(piece[: piece.find(vat[0])], slot)
                found.setdefault(re.sub(r"[\s.\-]", "", vat[0]).upper(), index if alone else -1)
    if len(found) != 1:
        return
    ((_, at),) = found.items()
    if at < 0:
        return
    text = reading.layout.lines[at].text.strip()
    candidate = candidate_of(slot, text, _LONE_VAT, (at, 0), frozenset({(at, -5)}), reading)
    yield from [candidate] if candidate else []


def _labelled_at_its_end(before: str, slot: Slot) -> bool:
    """Whether the text before an identifier ends in a label of the field and its colon, however the
    line runs on before it ("... Andreas Theel USt.-Id.-Nr./VAT-No.: DE 223 101 663", a footer's
    sentence of the company's officers)."""
    head = before.rstrip()
    if not head.endswith(":"):
        return False
    words = head[:-1].split()
    for count in range(1, min(len(words), _LABEL_WORDS) + 1):
        if slot.aliases.get(label_key(" ".join(words[-count:])), 0.0) >= SYNONYM:
            owner = label_key(words[-count - 1]) if count < len(words) else ()
            return not set(owner) & PARTY_WORDS  # "Ihre UID:", "Your VAT No:": the customer's
    return False


def _begins(text: str, iban: str) -> bool:
    """Whether `text` is `iban`, or begins with it and goes on after a space or a comma."""
    return text == iban or (text.startswith(iban) and text[len(iban)] in " ,;")


def _after_the_word_iban(lines: Sequence[Line]) -> Iterator[tuple[str, int]]:
    """The text after each word "IBAN" with its line: the rest of its line or table cell, or the next
    line when a text line ends with it."""
    for index, line in enumerate(lines):
        for piece in line.cells if line.cells is not None else (line.text,):
            for match in _IBAN_WORD.finditer(piece):
                text, at = piece[match.end() :], index
                below = lines[index + 1] if index + 1 < len(lines) else None
                if not text.strip() and line.cells is None and below is not None and below.cells is None:
                    text, at = below.text, index + 1
                yield text, at


def _title_for(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """Whom a document is for, named after its title on the title's line: "Factuur voor Bram",
    "Invoice for Acme Ltd", "Rechnung für Muster GmbH"."""
    for index, line in enumerate(reading.layout.lines[:_TITLE_LINES]):
        found = _TITLE_FOR.match(line.text.strip()) if line.cells is None else None
        if found is None or label_key(found["title"]) not in DOCUMENT_TITLES:
            continue
        name = found["name"].strip(" .,:")
        if any(char.isdigit() for char in name) or not 0 < len(name.split()) <= _NAME_AFTER_TITLE:
            continue
        uses = frozenset({(index, -6)})
        candidate = candidate_of(slot, name, _TITLED_FOR, (index, found.start("name")), uses, reading)
        if candidate:
            yield candidate
            return


def _quoted_payee(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The seller's name in quotes after "payable to" or "make payment to" inside a sentence ("Please
    make payment to "Ezecom Co., Ltd""): whom the document is paid to, for a seller no label names (a
    letterhead printed as a picture); its score (_QUOTED_PAYEE) leaves a labelled seller first. The
    first such name."""
    for index, line in enumerate(reading.layout.lines):
        found = _PAYEE.search(line.text)
        if found is None:
            continue
        name = (found.group(1) or found.group(2)).strip()
        candidate = candidate_of(
            slot, name, _QUOTED_PAYEE, (index, found.start()), frozenset({(index, -2)}), reading
        )
        if candidate:
            yield candidate
            return


def _dates_in_sentences(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """A date right after words naming the field inside a sentence: "Delivery is required by
    26/03/2025 at the address above"."""
    phrases = {key: score for key, score in slot.aliases.items() if len(key) >= 2 and score >= SYNONYM}
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
                    uses = frozenset({(index, -2)})
                    yield Candidate(score * _IN_SENTENCE, (index, 0), uses, value, found.printed)


def _date_under_heading(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The first line that is only a date, a few lines under a column heading naming the field (a
    table's headings and cells come out one per line: "Beschreibung", "Fälligkeit", "Teilzahlung",
    then the row's text and "04.04.2018")."""
    lines = reading.layout.lines
    for index, line in enumerate(lines):
        if line.cells is not None or not is_label_text(line.text):
            continue
        score = slot.aliases.get(label_key(line.text), 0.0)
        if score < SYNONYM or len(label_key(line.text)) > 2:
            continue
        for at in range(index + 1, min(index + _UNDER_HEADING, len(lines))):
            below = lines[at]
            if below.page != line.page or below.cells is not None:
                break
            found = parse_date(below.text, reading.day_first)
            if found is None or found.printed != below.text.strip():
                continue
            value = found.value.isoformat()
            if reading.valid(slot.node, value):
                uses = frozenset({(index, -5), (at, 0)})
                yield Candidate(score * _UNDER_COLUMN, (at, 0), uses, value, found.printed)
            break


def _first_date(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The document's first dates, for its date when no label names one (a receipt's); a date another
    field took by its label is not one of them."""
    dates = 0
    for index, line in enumerate(reading.layout.lines[:200]):
        found = parse_date(line.text, reading.day_first)
        if found and reading.valid(slot.node, found.value.isoformat()):
            score = _FIRST_DATE - 0.01 * dates
            value = found.value.isoformat()
            if line.cells is None:
                place = max(line.text.find(found.printed), 0)
            else:
                place = next((n for n, cell in enumerate(line.cells) if found.printed in cell), 0)
            yield Candidate(score, (index, 0), frozenset({(index, place)}), value, found.printed)
            dates += 1  # (the date's own place, in a table its cell: the line's start may be another field's)
            if dates == 3:
                return


def _printed_option(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """An allowed value printed on its own, as a receipt prints "CASH" or "Card" before the amount."""
    options = {label_key(option): option for option in slot.node.enum or () if isinstance(option, str)}
    for index, line in enumerate(reading.layout.lines):
        first = next((cell for cell in line.cells if cell), "") if line.cells else line.text
        option = options.get(label_key(first))
        if option is not None and reading.valid(slot.node, option):
            yield Candidate(_PRINTED_OPTION, (index, 0), frozenset({(index, -1)}), option, first)
            return


def _ticked_statements(slot: Slot, reading: Reading) -> Iterator[Candidate]:
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
            flag = ticked_flag(boxes)
            if flag is not None:
                yield Candidate(_TICKED * share, (index, 0), frozenset({(index, -1)}), flag)
            elif not boxes and len(block) == 1 and reading.shows_crosses:
                yield Candidate(_UNCROSSED * share, (index, 0), frozenset({(index, -1)}), False)


def _crossed_box(text: str, reading: Reading) -> list[tuple[bool, str]]:
    """A statement on its own line after a lone X ("X Send me the newsletter"), in a document that
    prints other lines so: a drawn box, ticked."""
    statement = crossed(text)
    return [(True, statement)] if statement and reading.shows_crosses else []


def ticked_flag(boxes: list[tuple[bool, str]]) -> bool | None:
    """A lone box's state, or which of yes/no boxes is ticked."""
    if len(boxes) == 1:
        return boxes[0][0]
    ticked = [parse_bool(text) for flag, text in boxes if flag]
    return ticked[0] if len(ticked) == 1 else None


def _first_and_last_name(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """A person's name asked for whole and printed as a first name and a last name."""
    pairs = reading.layout.pairs
    first = next((pairs[i] for key in _FIRST_NAMES for i in reading.pairs_by_key.get(key, ())), None)
    last = next((pairs[i] for key in _LAST_NAMES for i in reading.pairs_by_key.get(key, ())), None)
    if first and last:
        uses = frozenset({first.label_at, first.value_at, last.label_at, last.value_at})
        text = f"{first.value.strip()} {last.value.strip()}"
        candidate = candidate_of(slot, text, _NAME_PARTS * PRIOR[first.how], first.label_at, uses, reading)
        yield from [candidate] if candidate else []


def _titled_number(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The number printed with the document's title, when the field is that kind of document's number
    ("Invoice INV-2041" for `invoice_number`): after the title on its line, or after a lone "No." /
    "Nr." on one of the next lines; the first title line that has one."""
    wanted = {key[:-1] for key in slot.aliases if key[-1:] == ("number",) and key[:-1]}
    wanted &= {title[-1:] for title in DOCUMENT_TITLES} | {title for title in DOCUMENT_TITLES}
    if not wanted:
        return
    lines = reading.layout.lines
    for index, line in enumerate(lines[:_TITLE_LINES]):
        if line.cells is not None:
            in_cell = _titled_cell(slot, index, line.cells, wanted, reading)
            if in_cell is not None:
                yield in_cell
                return
            continue
        found = _title_in(line.text, wanted)
        if found is None:
            continue
        rest = _TYPE_CODE.sub("", found, count=1)
        said = key_words(rest)
        numbered = _number_word(said)
        if numbered is not None:  # "Rechnung Nr. 4711", "Faktura - daňový doklad č. 42": after its "Nr."
            rest = rest[numbered:]
        rest = _DATED.split(rest, maxsplit=1)[0]  # not the date after it: "4711 vom 06.08.2018"
        places = [(rest, index)] + [
            (lines[at].text[start:], at)  # or a piece of it set apart: "CEREALES    N° 0008-00021658"
            for at in range(index + 1, index + 4)
            if at < len(lines)
            for start, _ in segments(lines[at].text)
        ]
        for text, at in places:
            said = key_words(text)
            if at != index:
                said = (
                    said[2:] if len(said) > 2 and said[0][0] in _SERIES and said[2][0] == "number" else said
                )
                if not said or said[0][0] != "number":
                    continue  # under the title, a "No." or a series and its "No." ("Seria Z Nr. 4")
            value = text[said[0][1] :] if at != index and said else text
            value = value.lstrip(" #:.°º-")
            if _counts_pages(value, lines[at].page, reading) or counts_sheets(lines[at].text):
                continue  # "Invoice 1/2" at the foot of the first of two pages, "Folio 1 de 1": no number
            if any(char.isdigit() for char in value):
                uses = frozenset({(index, -3), (at, -3)})
                after_no = at != index or numbered is not None  # "Faktura nr 1/3/2024": a number
                candidate = candidate_of(slot, value, _TITLED_NUMBER, (at, 0), uses, reading, after_no)
                if candidate:
                    yield candidate
                    return
        under = _code_under_title(slot, index, rest, reading)
        if under is not None:
            yield under
            return
        # a title without a number ("WARENRECHNUNG" over "Handelsrechnung Nr. 4711"): read on
    yield from _title_as_label(slot, wanted, reading)


def _title_in(text: str, wanted: set[Key]) -> str | None:
    """What follows the document's title on a line that opens with it, or a piece of the line set
    apart by wide spacing does with "No." after the title (an address's last line beside "NOTA FISCAL
    Nº 055984051"; not a register's "FOLIO 62" in a footer)."""
    for start, _ in segments(text):
        piece = text[start:]
        words = key_words(piece)
        lead = int(len(words) > 1 and words[0][0] in _ARTICLES)  # "La factura de alquiler Nº 1"
        title = next(
            (
                lead + size
                for size in (3, 2, 1)
                if lead + size <= len(words) and _titled(words[lead : lead + size], wanted)
            ),
            None,
        )
        rest = piece[words[title - 1][1] :] if title is not None else ""
        if (
            title is not None
            and _stands_apart(rest)
            and ((start == 0 and not lead) or _number_word(key_words(rest)) is not None)
        ):
            return rest
    return None


_PAGE_COUNT = re.compile(r"(\d{1,3})\s?/\s?(\d{1,3})")


def _counts_pages(value: str, page: int, reading: Reading) -> bool:
    """Whether a title's "n/N" counts the pages it is printed on: n the page's place (1-based) and N the
    document's pages ("Invoice 1/2" on the first page of two, "Invoice 2/2" on the second)."""
    count = _PAGE_COUNT.fullmatch(value.strip())
    pages = max((line.page for line in reading.layout.lines), default=0) + 1
    return count is not None and (int(count[1]), int(count[2])) == (page + 1, pages)


def _titled_cell(
    slot: Slot, index: int, cells: tuple[str, ...], wanted: set[Key], reading: Reading
) -> Candidate | None:
    """The number printed with the title in a cell of a table row that heads the page ("| Acme Inc. |
    | Facture #00042 |"): the cell opens with the title and the number follows it in that cell."""
    for column, cell in enumerate(cells):
        words = key_words(cell)
        title = next(
            (size for size in (3, 2, 1) if size <= len(words) and _titled(words[:size], wanted)), None
        )
        if title is None or not _stands_apart(cell[words[title - 1][1] :]):
            continue
        rest = _TYPE_CODE.sub("", cell[words[title - 1][1] :], count=1)
        numbered = _number_word(key_words(rest))
        rest = _DATED.split(rest[numbered or 0 :], maxsplit=1)[0].lstrip(" #:.°º-")
        if any(char.isdigit() for char in rest):
            uses = frozenset({(index, column)})
            return candidate_of(slot, rest, _TITLED_NUMBER, (index, column), uses, reading)
        beside = _number_beside(cells, column, rest)
        if beside is not None:
            uses = frozenset({(index, column), (index, beside)})
            return candidate_of(slot, cells[beside].strip(), _TITLED_NUMBER, (index, column), uses, reading)
    return None


def _number_beside(cells: tuple[str, ...], column: int, rest: str) -> int | None:
    """The cell of the number printed at the right of a title's cell ("| Faktura - daňový doklad | |
    2022001 |"): the title's cell says nothing more than a short subtitle, and the row's one other
    filled cell, after it, is a single code with a digit."""
    if len(rest.split()) > _SUBTITLE_WORDS or any(char.isdigit() for char in rest):
        return None
    filled = [place for place, cell in enumerate(cells) if cell.strip() and place != column]
    if len(filled) != 1 or filled[0] < column:
        return None
    value = cells[filled[0]].strip()
    if len(value.split()) != 1 or not any(char.isdigit() for char in value):
        return None
    return filled[0]


def _number_word(said: list[tuple[str, int]]) -> int | None:
    """The offset just past the "No." that a title's number follows: the first word after the title,
    or after a short subtitle of words that hold no digit ("Faktura - daňový doklad č. 42", a tax
    document); not a "No." further on, in a line that says something else."""
    for word, end in said[: _SUBTITLE_WORDS + 1]:
        if word == "number":
            return end
        if any(char.isdigit() for char in word):
            return None
    return None


def _code_under_title(slot: Slot, index: int, rest: str, reading: Reading) -> Candidate | None:
    """The number printed alone on the line under a title alone on its own ("Fattura" over "2 / 2024"):
    a code of digits (and letters) joined by slashes or hyphens, not a date; read without the spaces
    around its joints."""
    lines = reading.layout.lines
    if rest.strip():
        return None
    under = index + 1 + int(_title_goes_on(index, reading))
    if under >= len(lines) or lines[under].cells is not None:
        return None
    text = lines[under].text.strip()
    if not _LONE_CODE.fullmatch(text) or parse_date(text) is not None:
        return None
    value = re.sub(r"\s*([/-])\s*", r"\1", text)
    uses = frozenset({(index, -3), (under, 0)})
    return candidate_of(slot, value, _TITLED_NUMBER * _UNDER_TITLE, (under, 0), uses, reading)


def _title_goes_on(index: int, reading: Reading) -> bool:
    """Whether the line under a title line ends the title's phrase ("BOLETA DE VENTA" over
    "ELECTRÓNICA", a title set on two lines): a line of words only, which the title read with it says
    nothing more than the title alone (the vocabulary knows the longer phrase as the same kind)."""
    lines = reading.layout.lines
    if index + 1 >= len(lines) or lines[index + 1].cells is not None:
        return False
    title, below = lines[index].text.strip(), lines[index + 1].text.strip()
    if not below or any(char.isdigit() for char in below):
        return False
    said = [word for word, _ in key_words(title)]
    return len(said) <= _SUBTITLE_WORDS and [word for word, _ in key_words(f"{title} {below}")] == said


def _title_as_label(slot: Slot, wanted: set[Key], reading: Reading) -> Iterator[Candidate]:
    """The number after the document's title printed as a label, in a line of other labels and
    values ("Date: 12 Mar 2018 Invoice: #42 Payment link: ..."): the first such pair."""
    for pair in reading.layout.pairs:
        if pair.how == "colon" and label_key(pair.label) in wanted and any(c.isdigit() for c in pair.value):
            uses = frozenset({pair.label_at, pair.value_at})
            value = pair.value.lstrip(" #:.°º-")
            candidate = candidate_of(slot, value, _TITLED_NUMBER * _TITLE_LABEL, pair.value_at, uses, reading)
            if candidate:
                yield candidate
                return


def _titled_date(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The date printed on the line of the document's title and number, after a word that says so:
    "Rechnung Nr. 4711 vom 06.08.2018", "Facture n° 12 du 3 mai 2024" (the date the document is of);
    or in a table's cell that opens with that title ("| Handelsrechnung (380) Nr. 471102 vom
    05.03.2018 | |")."""
    for index, line in enumerate(reading.layout.lines[:_TITLE_LINES]):
        for column, text in enumerate(line.cells if line.cells is not None else (line.text,)):
            words = key_words(text)
            title = next((size for size in (3, 2, 1) if size <= len(words) and _is_title(words[:size])), None)
            if title is None or not _stands_apart(text[words[title - 1][1] :]):
                continue
            parts = _DATED.split(_TYPE_CODE.sub("", text[words[title - 1][1] :], count=1), maxsplit=1)
            if len(parts) < 2:
                apart = (
                    None if line.cells else _date_printed_apart(index, text[words[title - 1][1] :], reading)
                )
                if apart is not None and reading.valid(slot.node, apart[1].value.isoformat()):
                    at, beside = apart
                    uses = frozenset({(index, -4), (at, -4)})
                    yield Candidate(_TITLED_DATE, (at, 0), uses, beside.value.isoformat(), beside.printed)
                    return
                continue
            said = key_words(parts[0])
            named = next((end for word, end in said[:2] if word == "number"), 0)  # "Bau Nr. 210111"
            number = parts[0][named:].strip(" #:.°º-,")
            if not _one_number(number):
                continue  # not right after the document's number ("Rechnung gemäß Bestellung ...")
            found = parse_date(parts[1][:40], reading.day_first)
            if found is None or not parts[1].startswith(found.printed):
                continue
            value = found.value.isoformat()
            if reading.valid(slot.node, value):
                yield Candidate(_TITLED_DATE, (index, column), frozenset({(index, -4)}), value, found.printed)
                return


def _one_number(text: str) -> bool:
    """Whether a text is one document's number: one word with a digit, or a short code of its series
    before it, as Portuguese invoices print theirs ("FT 20230/00000819")."""
    words = text.split()
    if len(words) == 2 and words[0].isalpha() and len(words[0]) <= 4:
        words = words[1:]
    return len(words) == 1 and any(char.isdigit() for char in words[0])


def _date_printed_apart(index: int, rest: str, reading: Reading) -> tuple[int, ParsedDate] | None:
    """The date of the title on line `index` (`rest` the text after the title) when its number ends
    with the word a date follows and the date is printed on a line of its own just before or after it
    ("Handelsrechnung (380)", "05.03.2018", "Nr. 471102 vom": the page gave its pieces in another
    order): the line of the date and the date."""
    lines = reading.layout.lines
    for at in range(index, min(index + 4, len(lines))):
        text = _TYPE_CODE.sub("", rest, count=1) if at == index else lines[at].text
        said = key_words(text)
        if said and said[0][0] == "number":  # "Nr. 471102 vom": the number after its "Nr."
            text = text[said[0][1] :]
        elif at != index:
            continue
        if _DATED_APART.search(text) is None:
            continue
        number = _DATED_APART.sub("", text).strip(" #:.°º-")
        if len(number.split()) != 1 or not any(char.isdigit() for char in number):
            continue
        for near in (at - 1, at + 1):
            if near == index or not 0 <= near < len(lines) or lines[near].cells is not None:
                continue
            if lines[near].page != lines[at].page:
                continue
            printed = lines[near].text.strip()
            found = parse_date(printed, reading.day_first)
            if found is not None and found.printed == printed:
                return near, found
        return None
    return None


def _stands_apart(rest: str) -> bool:
    """Whether a title is a word of its own before `rest`, the rest of its line: "PO-26880" is a
    number that starts with a title's abbreviation, not a title."""
    return not rest or rest[0].isspace() or rest[0] in ":#"


def _is_title(words: list[tuple[str, int]]) -> bool:
    return tuple(word for word, _ in words) in DOCUMENT_TITLES


def _titled(words: list[tuple[str, int]], wanted: set[tuple[str, ...]]) -> bool:
    """Whether these first words of a line are a document title of a kind whose number is wanted (a
    credit note's number is its invoice number: it is an invoice of a negative amount)."""
    key = tuple(word for word, _ in words)
    if ("invoice",) in wanted and key == ("credit", "note"):
        return True
    return bool(key) and key in DOCUMENT_TITLES and key[-1:] in wanted
