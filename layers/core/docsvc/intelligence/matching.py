"""Matching fields to the labelled values of a document: each field its best candidate.

Candidates come from the pairs and run-on lines whose label names a field, from the block under an
object's label (or the letterhead, for who issued the document) read by place and form, and from
values found without a label. The best candidates over the whole document are chosen first, and no
label or value is taken by two fields.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from docsvc.intelligence.candidates import (
    BARE_LABELS,
    LEGAL_FORM,
    PRIOR,
    Candidate,
    Owner,
    Path,
    Slot,
    candidate_of,
    is_placeholder,
    is_titled_number,
    role_of,
)
from docsvc.intelligence.coercion import EMAIL, URL
from docsvc.intelligence.identifiers import find_identifier, identifier_kind, national_vat, unformed_tax_id
from docsvc.intelligence.labels import (
    CUSTOMER_KEYS,
    DOCUMENT_TITLES,
    SHIP_TO_KEYS,
    TOTAL_KEYS,
    Key,
    amount_role,
    is_known_label,
    is_party_label,
    key_words,
    label_key,
    synonyms,
)
from docsvc.intelligence.lines import Line, Pos, label_colon, segments
from docsvc.intelligence.pairs import Pair, label_and_value
from docsvc.intelligence.reading import SYNONYM, Aliases, Reading, inline_pairs, labelled_pairs
from docsvc.intelligence.receipts import is_shop_field, numbers_the_shop
from docsvc.intelligence.unlabelled import ticked_flag, without_label
from docsvc.intelligence.values import in_words, parse_date, parse_number, ticked_options

_OUTSIDE_BLOCK, _NO_BLOCK, _LETTERHEAD, _SENDER = 0.6, 0.75, 0.5, 0.7
_OTHER_PARTY = 0.5  # a field's label inside another party's block
_COMPANY_BLOCK, _REGISTERED = 0.45, 0.55  # a company's block by its legal form; its registration line
_AMOUNT_ALONE = 0.6  # "Amount:" alone, for a total no label names
_WRAPPED_NAME = 30  # characters of a name's line in capitals long enough to have been wrapped
_REFERENCE_ALONE, _NAMED = 0.6, 0.9  # "Reference:" alone, for an invoice's number no label names
_OWN_REFERENCES = (("reference",), ("our", "reference"), ("reference", "number"))  # not "Your reference"
_DELIVERED_TO = 0.6  # the block goods are delivered to, for a customer nothing else names
# A bare "Name:" outside the issuer's block, against its score for the issuer: a document asks the
# name of whom it is for; its issuer's name stands in its letterhead or its footer without a label.
_NAME_ASKED = 0.9
_IN_THE_FOOT = 0.5  # an issuer's label naming a lone value below the total (a salesperson's, a cashier's)
# A contact's label run into a letterhead's line, its column printed beside: "Muster GmbH Tel: 030 123".
_ITEM_COLUMNS = 4  # cells beside the first of a row that make it a table of items, two of them headings
_HEAD_LINES = 8  # lines of a page's head a table opening it as its letterhead may stand after
_CONTACT_LABEL = r"(?:tel(?:efon)?|phone|fax|e-?mail|mobil[e]?|web|internet)\.?\s?:\s"
_CONTACT_RUN_IN = re.compile(rf"(?i)\s{_CONTACT_LABEL}")
_CONTACT_LINE = re.compile(rf"(?i)\s*{_CONTACT_LABEL}")
_BANK_WORD = re.compile(r"\b(?:IBAN|BIC|SWIFT|BLZ)\b")  # a part of a line of bank details
_UNFORMED = 0.4  # a tax id labelled so in no known form, against its label's score
_IN_BLOCK = 0.8  # a party's identifier printed inside its block by its form, no label of its own
_ADDRESS_BLOCK = 0.45  # the one block of a name over a street and a place, for a customer nothing names
_GREETED = 0.55  # the address block over a letter's greeting, for a customer nothing names
# A letter's greeting on a line of its own ("Dear customer,", "Sehr geehrte Frau Muster,", "Madame,
# Monsieur,", "Geachte heer,"), short, ending with its comma (or nothing).
_GREETING = re.compile(
    r"(?i)(?:dear|hello|sehr geehrte[rs]?|liebe[rs]?|geachte|beste|ch[eè]re?s?|madame|monsieur|"
    r"estimad[oa]s?|egregi[oa]|gentile|spettabile|prezad[oa]s?|szanown[aiy]|v[aá][zž]en[yýaá])\b"
    r"[^\n:;.!?]{0,40}[,!]?$"
)
_NUMBER_AFTER = re.compile(
    r"[^\W\d]{2,}\.?\s+\d{1,5}[a-zA-Z]?\b"
)  # a street, its number last: "Rabattstr. 25"
_JOINERS = frozenset("-/_\u2010\u2011")  # the marks that join the parts of a code
_SENDER_LINES = 60
_RUN_LINES = 16
_OWN_LABEL = 0.6  # a party's name this likely (its own label's block) may be the other party's too
_NAME_WORDS = 12  # a line of more words is a sentence, no one's name
_SENTENCE_WORDS = 6  # nor is a line of this many words or more, most of them in small letters
_HEADING = 0.8  # how well a lone line must name an object to head its block
_AGREED, _DISAGREED = 0.95, 0.7  # amounts that add up, and those that cannot be made to
_TIED = 0.005  # scores this close are a tie
_TOTALS_WEIGHED = 30  # the likeliest totals paired up as a net amount and a gross
_MISREAD = 0.8  # an amount read as the two others make it, its print one digit off
_CENTS = re.compile(r"\d[.,]\d{1,2}(?!\d)")  # an amount printed with a decimal mark: digits to compare
_DASHES = "\u2013\u2014-"  # en and em dash, hyphen (last: not a range)
_SENDER_SEPARATOR = re.compile(rf"\s[•●·|▪◦∙]\s|\s[{_DASHES}]\s")
_SENDER_PART = re.compile(rf"[^•●·|▪◦∙\u2013\u2014]+?(?=\s[•●·|▪◦∙{_DASHES}]\s|$)")
# A postcode and its place: "12345 Berlin", "SE-123 45 Stockholm" (grouped three and two, as the Swedish,
# Czech and Greek are, then a word, no telephone number's groups), "SW1A 1AA", the Portuguese "4050-551
# Porto" and the Polish "76-200 Słupsk".
_POSTCODE = re.compile(
    r"\b(?:[A-Z]{1,2}[- ]?)?(?:\d{4,6}\s+\w|(?<!\d )\d{3} \d{2}\s+[^\W\d_])"
    r"|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b"
    r"|(?<![\d-])(?:\d{4}-\d{3}|\d{2}-\d{3})\s+[^\W\d_]"
)
_SALUTATION = re.compile(
    r"(?i)herrn?|frau|firma|mr\.?|mrs\.?|ms\.?|miss|monsieur|madame|mademoiselle|m\.|mme\.?|mlle\.?|"
    r"dhr\.?|mevr\.?|heer|mevrouw|sr\.?|sra\.?|se[nñ]or|se[nñ]ora|sig\.?|sig\.ra|signor|signora|pan|pani"
)
_JAPANESE_FORMS = "(?:株式会社|有限会社|合同会社|合資会社|合名会社)"
_ENDS_LEGAL_FORM = re.compile(  # a company's name ends so: "GmbH", "SARL", "a.G." (a mutual insurer);
    # a Japanese company's form starts or ends its name, no space between ("株式会社サンプル")
    rf"(?i)(?<!\w)(?:{LEGAL_FORM.pattern.removeprefix('(?i)')}|a\.\s?g\.|e\.\s?v\.)$"
    rf"|^{_JAPANESE_FORMS}\S|\S{_JAPANESE_FORMS}$"
)
# " Tel: " inside a line of a block, or a label of up to three words after a comma ("Muster GmbH, VAT ID:
# DE123", "Romashka OOO, INN: 7707083893").
_INNER_LABEL = re.compile(
    r"\s[^\W\d][\w.-]{1,20}:\s|,\s*(?:[^\W\d][\w.-]{0,20}\s){0,2}[^\W\d][\w.-]{1,20}:\s"
)
# A word and digits after a comma ("Muster GmbH, USt-IdNr DE123"): a tax id's label and its number when
# the word is one (`_TAX_ID_KEYS`), with no colon between them.
_COMMA_WORD_DIGITS = re.compile(r",\s*([^\W\d][\w.-]{1,20})\.?\s+[A-Z]{0,2}\d")
_TAX_ID_KEYS = frozenset({("vat", "id"), ("tax", "number"), ("tax", "id")})
_REGISTRATION_KEYS = frozenset({("company", "number"), ("registration", "number")})
_LEGAL_FORM_WORD = re.compile(rf"(?i)(?<!\w)(?:{LEGAL_FORM.pattern.removeprefix('(?i)')})(?!\w)")
_PHONE = re.compile(r"\+?\(?\d[\d ()./-]{5,}\d")
# A block that addresses someone ("z. Hd. Herr Muster", "Attn: ..."): the addressee's, not the sender's.
_ATTENTION = re.compile(
    r"(?i)(?:z\.\s?hd\.?|zu\s?h(?:än|a)nden|attn\.?|attention|c/o|t\.\s?a\.\s?v\.|à l.attention)"
)
# A street printed house number first ("8636 Sentinel Place", "2, rue de la Paix"), or a postcode and
# its place ("98765 Lieferantenstadt", "75000 Paris"): an address's line, no name.
# An ordinal only before a floor or a street ("2nd Floor, ...", "5th Avenue"): "1st Choice Plumbing" and
# "3rd Rock Studios" are names.
_HOUSE_NUMBER_FIRST = re.compile(
    r"\d{1,5}[a-z]?,?\s+[^\W\d]|"
    r"\d{1,3}(?:st|nd|rd|th)\s+(?i:floor|fl\b|level|avenue|ave\b|street|st\b|road|rd\b|boulevard|blvd\b)"
)
# A street printed by its kind of way first and its house number after the name ("Av. Paulista, 1000",
# "Rua das Flores 120", "Calle Mayor 12", "Jr. Candelaria Nro. 180", "Via Roma 5"), as Latin and Slavic
# addresses are: an address's line, no name.
_STREET_WORD_FIRST = re.compile(
    r"(?i)\s*(?:av|avda|avenida|rua|rue|calle|carrera|jr|jir[oó]n|via|viale|piazza|corso|travessa|alameda|"
    r"rodovia|estrada|pra[cç]a|plaza|paseo|ul|ulica)\.?\s+[^\W\d][^\d]{1,60}?,?\s+"
    r"(?:(?:n[º°o]|nro|n[úu]m)\.?\s*)?\d{1,5}[a-zA-Z]?(?!\w)"
)
# A post-office box ("P.O. Box 57935", "Postfach 10 20 30", "BP 1234", "Apartado 45", "Caixa Postal 12"):
# an address's line, no name.
_PO_BOX = re.compile(r"(?i)\s*(?:p\.?\s?o\.?\s?box|postfach|b\.?p\.?|apartado|caixa postal|casilla)\s?\d")
# Words a company's registration or tax numbers are printed after, in a footer beside its name.
_REGISTRATION = re.compile(
    r"(?i)(?<!\w)(?:ust\.?[\s-]?id(?:\.?[\s-]?nr)?|steuer[\s-]?nr|vat|tva|btw|iva|nip|regon|krs|siret|siren|"
    r"r\.?c\.?s|hrb|hra|amtsgericht|registergericht|handelsregister|district court|registered|company no|"
    r"company number|kvk|cif|nif|nipc|y-tunnus|capital|org\.?\s?nr|organisationsnr|organisationsnummer|"
    r"momsreg(?:\.?\s?nr)?|momsregistreringsnummer|cvr|mva|org(?=\.?\s*:))(?!\w)"
)


@dataclass(frozen=True)
class Region:
    """The lines under an object's label ("From" and the vendor's name and address), best first."""

    items: tuple[tuple[str, Pos], ...]
    score: float

    @property
    def lines(self) -> frozenset[int]:
        return frozenset(position[0] for _, position in self.items)


def regions_of(
    aliases: Aliases, inside: frozenset[Key], reading: Reading, headings: bool = False
) -> list[Region]:
    """The blocks a label names: under it, beside it, or (with `headings`, for an object's block) the
    labelled lines under a heading that names it."""
    regions = []
    anchors = [
        (reading.layout.pairs[index], score)
        for index, score in labelled_pairs(aliases, reading, partial=False).items()
    ]
    inline = inline_pairs(aliases, reading)
    anchors += [
        (pair, score)
        for pair, score in inline
        if not LEGAL_FORM.fullmatch(pair.value)
        and not _joined_to_label(pair)
        and not _opens_parts(pair, reading)
    ]
    for pair, score in anchors:
        if numbers_the_shop(reading.layout.lines[pair.label_at[0]].text):
            continue  # "STORE # CA-1661": the shop's number, not a block of the shop's
        stacked = _stacked_blocks(pair.label_at[0], inside, reading) if pair.how in {"below", "next"} else []
        items = stacked or _interleaved(pair, inside, reading) or _block_items(pair, inside, reading)
        if items:
            regions.append(Region(tuple(items), score * PRIOR["region"]))
    for index, score, first in _headings(aliases, inside, reading) if headings else ():
        stacked = [] if first else _stacked_blocks(index, inside, reading)
        items = stacked or ([first] if first else []) + _labelled_run(index + 1, inside, reading)
        at = stacked[0][1][0] if stacked else index + 1
        if items and not any(at in region.lines for region in regions):
            regions.append(Region(tuple(items), score * PRIOR["region"]))
    for items, score in _column_blocks(aliases, inside, reading) if headings else ():
        if not any(items[0][1][0] in region.lines for region in regions):
            regions.append(Region(tuple(items), score * PRIOR["region"]))
    return sorted(regions, key=lambda region: (-region.score, region.items[0][1]))


def _headings(
    aliases: Aliases, inside: frozenset[Key], reading: Reading
) -> Iterator[tuple[int, float, tuple[str, Pos] | None]]:
    """Lines that are only a label naming the object: a heading over its block ("Verkäufer", "Bill to";
    "Verkäufer:" over labelled lines); or a heading run into the first labelled line of its block ("Verkäufer
    Nummer: 549910"), with that line."""
    for index, line in enumerate(reading.layout.lines):
        if line.cells is not None or len(line.text) > 60:
            continue
        colon = label_colon(line.text)
        if colon is None:
            score = aliases.get(label_key(line.text), 0.0)
            if score >= _HEADING:
                yield index, score, None
            continue
        lines = reading.layout.lines
        if index + 1 >= len(lines):
            continue
        below = lines[index + 1]
        unlabelled = below.cells is None and label_colon(below.text) is None
        if unlabelled and (not _name_and_street_under(index, lines) or not line.text[colon + 1 :].strip()):
            continue  # not over labelled lines, nor over a party's name and address
        if not line.text[colon + 1 :].strip():
            # "Verkäufer:" over labelled lines ("Globale Nummer: 4000001123452", then the name) heads
            # them; a sentence that introduces what follows ("Facture à régler par virement :") does not
            score = aliases.get(label_key(line.text[:colon]), 0.0)
            if score >= _HEADING and below.page == line.page:
                yield index, score, None
            continue
        words = key_words(line.text[:colon])
        for size in range(1, min(len(words), 3)):
            score = aliases.get(tuple(word for word, _ in words[:size]), 0.0)
            apart = words[size - 1][1] < words[size][1] - 1  # printed as words of their own
            if score >= _HEADING and apart:
                start = words[size - 1][1]
                yield index, score, (line.text[start:].strip(" /"), (index, start))
                break


def _name_and_street_under(index: int, lines: Sequence[Line]) -> bool:
    """Whether a party's name and address follow line `index`: a short line of words without a digit
    ("John Doe" under "CONSUMIDOR CNPJ: 18.191.228/0001-71"), then one with a street's or postcode's
    digits, on the same page, outside tables."""
    if index + 2 >= len(lines):
        return False
    name, street = lines[index + 1], lines[index + 2]
    return (
        name.cells is None
        and street.cells is None
        and name.page == street.page == lines[index].page
        and 0 < len(name.text.split()) <= 6
        and not any(char.isdigit() for char in name.text)
        and label_colon(name.text) is None
        and any(char.isdigit() for char in street.text)
    )


def _column_blocks(
    aliases: Aliases, inside: frozenset[Key], reading: Reading
) -> Iterator[tuple[list[tuple[str, Pos]], float]]:
    """A table's cell holding only a label naming the object, and the cells under it in its column
    up to the first empty one: a party's block printed as a column ("| Cliente |" over "| Spiderman |",
    "| Avenida Siempre Viva 456 |"), with how well the label names it."""
    lines = reading.layout.lines
    for index, line in enumerate(lines):
        for place, cell in enumerate(line.cells or ()):
            score = aliases.get(label_key(cell.strip().rstrip(":")), 0.0)
            if score < _HEADING:
                continue
            items: list[tuple[str, Pos]] = []
            for below in range(index + 1, min(index + 1 + _RUN_LINES, len(lines))):
                cells = lines[below].cells
                text = cells[place].strip() if cells is not None and place < len(cells) else ""
                if not text or ends_block(text, inside, reading):
                    break
                items.append((text, (below, place)))
            if items:
                yield items, score


def _stacked_blocks(heading: int, inside: frozenset[Key], reading: Reading) -> list[tuple[str, Pos]]:
    """Blocks printed side by side under their headings whose text came out headings first, then one
    block after the other ("Sprzedawca", "Nabywca", then the seller's name, street, postcode and tax id,
    then the buyer's): the block of the same rank as line `heading` among the headings stacked with it.
    A block begins at a line of words without a figure (its name) after one with figures (the end of
    the block before); each of the blocks must have such a line of figures, or none is taken."""
    lines = reading.layout.lines

    def is_heading(index: int) -> bool:
        line = lines[index]
        return (
            line.cells is None
            and line.page == lines[heading].page
            and len(line.text) <= 40
            and label_key(line.text.rstrip(": ")) in reading.known
        )

    if not is_heading(heading):
        return []
    start, end = heading, heading + 1
    while start > 0 and is_heading(start - 1):
        start -= 1
    while end < len(lines) and is_heading(end):
        end += 1
    if end - start < 2:
        return []
    alternating = _alternating_lines(end, end - start, inside, reading)
    if alternating is not None:  # each line a block of its own: side by side, read a row at a time
        return alternating[heading - start]
    groups: list[list[tuple[str, Pos]]] = []
    figures = True  # whether the line before ends a block: so the first line opens one
    for index in range(end, min(end + _RUN_LINES * (end - start), len(lines))):
        line = lines[index]
        if (
            line.cells is not None
            or line.page != lines[heading].page
            or ends_block(line.text, inside, reading)
        ):
            break
        has_figures = any(char.isdigit() for char in line.text)
        if not has_figures and figures:
            if len(groups) == end - start:
                break
            groups.append([])
        if not groups:
            return []
        groups[-1].append((line.text, (index, 0)))
        figures = has_figures
    if len(groups) < end - start or not all(
        any(char.isdigit() for text, _ in group for char in text) for group in groups
    ):
        return []
    return groups[heading - start]


def _alternating_lines(
    first: int, count: int, inside: frozenset[Key], reading: Reading
) -> list[list[tuple[str, Pos]]] | None:
    """The lines from `first` dealt to `count` blocks in turn, when each of the first 2 x `count`
    lines is a text block of its own (blocks side by side whose lines came out a row at a time, each
    row's pieces apart: "Szkółka Roślin", "Gmina Wronowo", "Jan Kowalski", "Ul. Wrońska", ...), up to a
    label of another field, a table or the page's end; None otherwise."""
    lines, blocks = reading.layout.lines, reading.layout.blocks
    taken: list[int] = []
    for index in range(first, min(first + _RUN_LINES * count, len(lines))):
        line = lines[index]
        if line.cells is not None or line.page != lines[first].page or ends_block(line.text, inside, reading):
            break
        taken.append(index)
    if len(taken) < 2 * count or any(
        lines[index].block < 0 or len(blocks[lines[index].block]) != 1 for index in taken[: 2 * count]
    ):
        return None
    return [[(lines[index].text, (index, 0)) for index in taken[rank::count]] for rank in range(count)]


def _block_items(pair: Pair, inside: frozenset[Key], reading: Reading) -> list[tuple[str, Pos]]:
    if reading.reads_as_label(pair.value) and label_key(pair.value) not in inside:
        return _labelled_run(pair.value_at[0], inside, reading) if pair.how in {"below", "next"} else []
    items = [(pair.value, pair.value_at)]
    for index in pair.rest:
        text = reading.layout.lines[index].text
        if ends_block(text, inside, reading):
            break
        items.append((text, (index, 0)))
    return items


def _labelled_run(start: int, inside: frozenset[Key], reading: Reading) -> list[tuple[str, Pos]]:
    """The lines under a heading, from line `start` ("Nummer:", "Name:", "Anschrift:" with their
    values under "Verkäufer", or a table's rows of them): up to the next label of another field, over
    blank lines too."""
    lines = reading.layout.lines
    if start >= len(lines):
        return []
    items: list[tuple[str, Pos]] = []
    rows = lines[start].cells is not None  # a table of keys and values under the heading
    for index in range(start, min(start + _RUN_LINES, len(lines))):
        line = lines[index]
        if line.page != lines[start].page or (line.cells is not None) != rows:
            break
        text = " ".join(cell for cell in line.cells or () if cell) if rows else line.text
        if index > start and ends_block(text, inside, reading):
            break
        items.append((text, (index, 0)))
    return items


def ends_block(text: str, inside: frozenset[Key], reading: Reading) -> bool:
    """A line that starts something else: a label of another field."""
    colon = label_colon(text)
    label = text[:colon] if colon is not None else text
    key = label_key(label)
    return key not in inside and key in reading.known


def _interleaved(pair: Pair, inside: frozenset[Key], reading: Reading) -> list[tuple[str, Pos]]:
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
        if ends_block(lines[index].text, inside, reading):
            break
        items.append((lines[index].text, (index, 0)))
    return items


def sender_line_of(reading: Reading) -> tuple[Region, Region | None] | None:
    """The sender's line a letter prints above the address it is sent to (so that a window envelope
    shows it: "Bei Spiel GmbH • Ecke 12 • 12345 Stadthausen"), and the address under it: who issued
    the document, and whom it is for. A line of three or more parts apart by bullets, bars or dashes,
    one of them a postcode and a place, none of them bank details, among the first lines of the first
    page; under the page's last total (as a page's text may come in any order), one that opens with a
    street is one only with the address under it: without, it is the footer's ("Musterstraße 16
    ·D-60318 Frankfurt · Postfach 16 05 29 · Telefon ...")."""
    lines = reading.layout.lines
    totals = [index for index, line in enumerate(lines[:_SENDER_LINES]) if _names_the_total(line.text)]
    for index, line in enumerate(lines[:_SENDER_LINES]):
        if line.page != 0:
            break
        if line.cells is not None and not _heads_its_column(index, reading):
            continue
        text = line.text if line.cells is None else (line.cells or ("",))[0]
        parts = [(match.group(), match.start()) for match in _SENDER_PART.finditer(text)]
        parts = [(text.strip(" " + _DASHES), start) for text, start in parts if text.strip(" " + _DASHES)]
        by_commas = len(parts) < 3
        if by_commas:
            parts = _comma_parts(text)
        elif _SENDER_SEPARATOR.search(text) is None:
            continue
        if len(parts) < 3 or not any(_POSTCODE.search(text) for text, _ in parts[1:]):
            continue
        if _is_street(parts[0][0]):
            continue  # a footer's address ("2, rue de la Paix - 75000 Paris - Tel: ..."), no one's name first
        if any(_BANK_WORD.search(text) for text, _ in parts):
            continue  # the bank's details ("Fruit Bank • BIC ... • IBAN ..."), no one's address
        parts[0] = _past_sender_label(*parts[0])  # "Abs.: Muster GmbH | Hauptstraße 1 | 10115 Berlin"
        items = [(text, (index, start)) for text, start in parts]
        items[0] = _name_in_full(*items[0], reading)
        sender = Region(tuple(items), _SENDER)
        if line.cells is not None:
            recipient = _address_in_cells(index + 1, reading, beside_labels=False)
        else:
            recipient = _address_in_cells(index + 1, reading) or _address_under(index + 1, reading)
        if len(recipient) < 2 and totals and index > max(totals) and _opens_with_street(text):
            continue  # the footer's line of the company's addresses under the total, no one's name first
        if len(recipient) < 2 and by_commas:
            continue  # an address written with commas is a sender's line only over the address it is sent to
        return sender, (Region(tuple(recipient), _SENDER) if len(recipient) >= 2 else None)
    return None


def _name_in_full(name: str, at: Pos, reading: Reading) -> tuple[str, Pos]:
    """A sender's line's name as the first page prints it in full, a line of its own that starts with
    it and ends in a company's legal form ("Alphabet" of "Alphabet, Lilienthalallee 26, 80786 München"
    is "Alphabet Fuhrparkmanagement GmbH"): that line and its place; the name as it is otherwise."""
    for index, line in enumerate(reading.layout.lines):
        if line.page != 0:
            break
        text = line.text.strip()
        if (
            line.cells is None
            and text.startswith(name + " ")
            and len(text.split()) <= _NAME_WORDS
            and _ENDS_LEGAL_FORM.search(text)
        ):
            return text, (index, 0)
    return name, at


def _comma_parts(text: str) -> list[tuple[str, int]]:
    """A sender's line set apart by commas alone ("K&K Kommunikationssysteme GmbH,Haunstetter Str
    19,86161 Augsburg"), as its parts with their offsets: a name with no figure, a street with its
    number, then a postcode and its place, nothing more; [] for any other line (an address written in a
    sentence has commas too)."""
    parts, start = [], 0
    for piece in text.split(","):
        if piece.strip():
            parts.append((piece.strip(), start + len(piece) - len(piece.lstrip())))
        start += len(piece) + 1
    if len(parts) != 3 or any(char.isdigit() for char in parts[0][0]):
        return []
    if not _opens_with_street(parts[1][0]) or not _POSTCODE.match(parts[2][0]):
        return []
    return parts


def _past_sender_label(text: str, start: int) -> tuple[str, int]:
    """A sender's line's first part without the label it may open with ("Abs.:", "Absender:", "From:")."""
    colon = label_colon(text)
    if colon is None or len(text[:colon].split()) > 2 or not text[colon + 1 :].strip():
        return text, start
    value = text[colon + 1 :]
    return value.strip(), start + colon + 1 + len(value) - len(value.lstrip())


_AMOUNT_AT_END = re.compile(r"[\s\d.,'€$£-]*\d[\s\d.,'€$£-]*$")


# A street printed by its name first and its number after ("Friedrich-Wagner-Straße 16", "Hauptstr. 5",
# "Lindenweg 3a", the Swedish "Skönabergsvägen 8", the Dutch "Kerkstraat 12"; "12 High Street" aside:
# `_is_street` has those).
_STREET_NAME_FIRST = re.compile(
    r"(?i)[^\W\d][\w.-]*(?:stra(?:ss|ß)e|str\.?|weg|gasse|platz|allee|ring|damm|ufer|street|road|avenue|lane|"
    r"v[äa]gen|gatan|v[äa]g|gata|vej|gade|veien|gaten|straat|laan|plein|kade|gracht|katu|tie)"
    r"\s+\d{1,5}[a-z]?(?!\w)"
    # the street's word apart ("Haunstetter Str 19", "Berliner Straße 5", "Baker Street 12")
    r"|[^\W\d][\w.-]*\s+(?:str\.?|stra(?:ss|ß)e|weg|gasse|platz|allee|street|road|avenue|lane)"
    r"\s+\d{1,5}[a-z]?(?!\w)"
)


def _opens_with_street(text: str) -> bool:
    """Whether a line opens with a street, no one's name: "Hauptstraße 16 ·D-60318 Frankfurt"."""
    return _is_street(text) or bool(_STREET_NAME_FIRST.match(text.strip()))


def _names_the_total(text: str) -> bool:
    """Whether a line opens with the document's total's label ("Total Amount (DEM)", "Brutto: 104,00",
    "| Gesamtbetrag | 571,04 |"), a bracketed currency after it aside."""
    head = text.strip().strip("|").split("|")[0]
    colon = label_colon(head)
    head = re.sub(r"\([^)]*\)", " ", head[:colon] if colon is not None else head)
    head = _AMOUNT_AT_END.sub("", head)  # "Total 12,00 €": the label before its amount
    return bool(head.strip()) and label_key(head) in TOTAL_KEYS


def _address_under(start: int, reading: Reading) -> list[tuple[str, Pos]]:
    """The address printed under a sender's line from line `start`, up to its postcode and place.
    A column of labels and values printed beside it may come out between its lines ("Globex Corp.",
    "Start of service:", "23 Apr 2024", "142 Scorpio Drive"): when one comes before the address's
    first line, a label with nothing after its colon and the line under it (its value) are passed
    over, and the address so gathered is kept only when it ends with its postcode and place, as an
    address window's does."""
    lines = reading.layout.lines
    recipient: list[tuple[str, Pos]] = []
    skipped, at = False, start
    while at < min(start + 12, len(lines)) and len(recipient) < 6:
        text = lines[at].text
        colon = label_colon(text)
        if colon is not None and not text[colon + 1 :].strip() and lines[at].cells is None:
            if recipient and not skipped:
                break  # the labels start under the address, not beside it
            skipped, at = True, at + 2  # a label beside, and its value under it
            continue
        if lines[at].cells is not None or colon is not None or reading.reads_as_label(text):
            break
        if not recipient and (any(char.isdigit() for char in text) or _SENDER_SEPARATOR.search(text)):
            break  # the letterhead goes on (a telephone line): no address under it
        recipient.append((text, (at, 0)))
        at += 1
        if _POSTCODE.search(text):
            return recipient
    return [] if skipped else recipient


def _heads_its_column(index: int, reading: Reading) -> bool:
    """Whether line `index` is a table's first row, whose first cell may be a sender's line over the
    address under it in the same column."""
    lines = reading.layout.lines
    return lines[index].cells is not None and (index == 0 or lines[index - 1].cells is None)


def _address_in_cells(start: int, reading: Reading, beside_labels: bool = True) -> list[tuple[str, Pos]]:
    """The address under a sender's line printed as the first column of a table: the first cells of
    its rows, up to the first empty one, when the first row's first cell is a name (no digit). With
    `beside_labels`, the sender's line stood over the table, and the table's other columns must be the
    document's labels and values ("| Prime Tech Solutions | Invoice Number: | INV-1 |"); without, the
    sender's line heads the column itself."""
    lines = reading.layout.lines
    if start >= len(lines) or lines[start].cells is None:
        return []
    first = lines[start].cells or ()
    if len(first) < 2 or not first[0] or any(char.isdigit() for char in first[0]):
        return []
    labelled = any(label_colon(cell) is not None or reading.reads_as_label(cell) for cell in first[1:])
    if beside_labels and not labelled:
        return []
    recipient: list[tuple[str, Pos]] = []
    for at in range(start, min(start + 6, len(lines))):
        cells = lines[at].cells
        if cells is None or not cells[0].strip() or label_colon(cells[0]) is not None:
            break
        recipient.append((cells[0].strip(), (at, 0)))
        if _POSTCODE.search(cells[0]):
            break
    return recipient


def addressee_of(reading: Reading) -> Region | None:
    """The address a letter is sent to when no sender's line is printed over it: a block that starts
    with a salutation on a line of its own ("Herrn", "Frau", "Monsieur") and ends with a postcode and
    a place, among the first lines of the first page."""
    lines = reading.layout.lines
    for index, line in enumerate(lines[:_SENDER_LINES]):
        if line.page != 0:
            break
        if line.cells is not None or not _SALUTATION.fullmatch(line.text.strip()):
            continue
        items = [(line.text, (index, 0))]
        for at in range(index + 1, min(index + 6, len(lines))):
            text = lines[at].text
            if lines[at].cells is not None or label_colon(text) is not None or reading.reads_as_label(text):
                break
            items.append((text, (at, 0)))
            if _POSTCODE.search(text):
                return Region(tuple(items), _SENDER) if len(items) >= 3 else None
    return None


def block_after_letterhead(reading: Reading) -> Region | None:
    """The address a letter is sent to, printed as the block right after its letterhead when no
    salutation or sender's line marks it (past a block of the letterhead's labelled lines): a block of
    two to six lines, none a label, whose first line is a name (no digit: not a street) and whose
    others hold a postcode and a place, when the letterhead holds its own address (so the two are one
    sender's and one addressee's blocks, not one letterhead in two)."""
    letterhead = letterhead_of(reading)
    layout = reading.layout
    if letterhead is None:
        return None
    start = layout.lines[letterhead.items[0][1][0]].block
    addressed = [
        at
        for at in range(start, min(start + 3, len(layout.blocks)))
        if any(_POSTCODE.search(layout.lines[index].text) for index in layout.blocks[at])
    ]
    if not addressed or addressed[0] + 1 >= len(layout.blocks):
        return None  # the letterhead holds no address of its own
    following = layout.blocks[addressed[0] + 1 : addressed[0] + 3]
    # past a block of the letterhead's labelled lines ("Contribuinte: 515593354", "Capital Social: ...")
    block = next((found for found in (_up_to_labels(each, reading) for each in following) if found), [])
    texts = [layout.lines[index].text.strip() for index in block]
    if not block or layout.lines[block[0]].page != 0 or not 2 <= len(texts) <= 6:
        return None
    if any(char.isdigit() for char in texts[0]) or not _POSTCODE.search(" ".join(texts[1:])):
        return None
    return Region(tuple((text, (index, 0)) for text, index in zip(texts, block, strict=True)), _LETTERHEAD)


def _up_to_labels(block: Sequence[int], reading: Reading) -> list[int]:
    """A block's lines before the first that is a label or labels its value: an addressee's block may
    end with its own identifiers ("UID-Nr: ATU12345678"), which are no part of its address."""
    lines = reading.layout.lines
    for at, index in enumerate(block):
        text = lines[index].text.strip()
        if label_colon(text) is not None or reading.reads_as_label(text):
            return list(block[:at])
    return list(block)


def lone_address_block(reading: Reading, sender: Region | None) -> Region | None:
    """The address an invoice is sent to when nothing marks it (no label, salutation or sender's line
    right over it, not the block right after the letterhead): the only block of the first page of
    three to six lines, none a label, whose first line is a name (letters, no digit) other than the
    issuer's and whose other lines hold a street with its number and a postcode with a place."""
    layout = reading.layout
    issuer = [letterhead_of(reading), _table_letterhead(reading), sender]
    names = {region.items[0][0].strip().casefold() for region in issuer if region}  # the issuer's name
    found: list[Region] = []
    for block in layout.blocks:
        if layout.lines[block[0]].page != 0:
            break
        items = _address_block(block, reading)
        if items and items[0][0].casefold() not in names:
            found.append(Region(items, _ADDRESS_BLOCK))
    column = _address_column(reading)
    if column and column[0][0].casefold() not in names:
        found.append(Region(column, _ADDRESS_BLOCK))
    return found[0] if len(found) == 1 else None


def _address_column(reading: Reading) -> tuple[tuple[str, Pos], ...]:
    """An address printed as the first column of the first page's first table, the document's numbers
    and dates in the columns beside it ("| Muster GmbH | Kunden-Nr. | 6010060 |" over "| Beispielstraße
    207 | Datum | ... |" over "| 12345 Berlin | ... |"), when its cells are an address as a block's lines
    would be (a name, a street, a postcode and its place). A later table's is a footer's."""
    lines = reading.layout.lines
    first = next((index for index, line in enumerate(lines) if line.cells is not None), None)
    if first is None or lines[first].page != 0:
        return ()
    items = _address_in_cells(first, reading, beside_labels=False)
    texts = [text for text, _ in items]
    if (
        len(texts) >= 3
        and _mostly_letters(texts[0])
        and not any(reading.reads_as_label(text) for text in texts)
        and any(_is_street(text) or _NUMBER_AFTER.search(text) for text in texts[1:])
        and any(_POSTCODE.search(text) for text in texts[1:])
    ):
        return tuple(items)
    return ()


def _address_block(block: Sequence[int], reading: Reading) -> tuple[tuple[str, Pos], ...]:
    """A block's lines when they are an address: three to six lines, none a label, the first a name
    (letters, no digit), the others holding a street with its number and a postcode with a place."""
    layout = reading.layout
    texts = [layout.lines[index].text.strip() for index in block]
    if not 3 <= len(texts) <= 6 or layout.lines[block[0]].cells is not None:
        return ()
    if any(label_colon(text) is not None or reading.reads_as_label(text) for text in texts):
        return ()
    first, rest = texts[0], texts[1:]
    if any(char.isdigit() for char in first) or not _mostly_letters(first):
        return ()
    streets = [text for text in rest if _is_street(text) or _NUMBER_AFTER.search(text)]
    if not streets or not any(_POSTCODE.search(text) for text in rest):
        return ()
    return tuple((text, (index, 0)) for text, index in zip(texts, block, strict=True))


def greeted_block(reading: Reading) -> Region | None:
    """The address a letter is sent to when nothing labels it, as the letter's greeting shows it ("Dear
    customer,", "Sehr geehrte Damen und Herren,", "Madame, Monsieur,"): the last address block of the
    first page above the greeting (a letter greets whom its address window names), even when the page
    opens with it and no letterhead is printed."""
    layout = reading.layout
    for index, line in enumerate(layout.lines[:_SENDER_LINES]):
        if line.page != 0:
            break
        if line.cells is not None or not _GREETING.match(line.text.strip()):
            continue
        above = [block for block in layout.blocks if block[-1] < index]
        for block in reversed(above):
            items = _address_block(block, reading)
            if items:
                return Region(items, _GREETED)
        return None
    return None


def company_beside(reading: Reading) -> Region | None:
    """Whom an invoice is for when nothing marks it, printed beside its issuer: of the first page's
    line of two companies' names side by side (wide spacing, each ending with its legal form, "Example,
    Inc.    Acme Corp."), the right one, with the right-hand pieces of its block's lines under it."""
    lines = reading.layout.lines
    for index, line in enumerate(lines):
        if line.page != 0:
            break
        columns = segments(line.text.strip()) if line.cells is None else []
        if len(columns) != 2 or not all(_ENDS_LEGAL_FORM.search(text.strip()) for _, text in columns):
            continue
        items: list[tuple[str, Pos]] = [(columns[1][1].strip(), (index, columns[1][0]))]
        for at in range(index + 1, min(index + 6, len(lines))):
            pieces = segments(lines[at].text.strip()) if lines[at].block == line.block >= 0 else []
            if len(pieces) != 2:
                break
            items.append((pieces[1][1].strip(), (at, pieces[1][0])))
        return Region(tuple(items), _ADDRESS_BLOCK)
    return None


def letterhead_of(reading: Reading) -> Region | None:
    """The lines that open the document before any label, its title left out: who issued it (a line
    into which a contact's label runs from the column beside, "Muster GmbH Tel: 030 123", up to it)."""
    layout = reading.layout
    items: list[tuple[str, Pos]] = []
    for block in layout.blocks[:3]:
        if layout.lines[block[0]].page != 0:
            break
        for index in block:
            text = layout.lines[index].text
            contact = _CONTACT_RUN_IN.search(text)
            if contact and len(text[: contact.start()].split()) >= 2 and ":" not in text[: contact.start()]:
                text = text[
                    : contact.start()
                ].strip()  # "Muster GmbH Tel: 030 123": a column of contacts beside
            elif not items and _CONTACT_LINE.match(text):
                continue  # "Tel: 06-1234" and "E-mail: ..." printed over the name: the letterhead goes on
            elif label_colon(text) is not None or reading.reads_as_label(text):
                named = _name_before_its_number(text)
                # the name at a place of its own: the label's is (index, 0)
                items += [(named, (index, -9))] if named else []
                return Region(tuple(items[:5]), _LETTERHEAD) if items else None
            if label_key(text) not in DOCUMENT_TITLES:
                items.append((text, (index, 0)))
    return Region(tuple(items[:5]), _LETTERHEAD) if items else None


def _name_before_its_number(text: str) -> str:
    """The company's name a line opens with, set apart by a dash or a bar from its tax or registration
    number's label ("MargaritaTel - RUC: 20556106985", "Muster GmbH | USt-IdNr.: DE123456789"); "" for
    any other labelled line."""
    colon = label_colon(text)
    parts = _SENDER_SEPARATOR.split(text[:colon]) if colon is not None else []
    if len(parts) != 2 or label_key(parts[1]) not in _TAX_ID_KEYS | _REGISTRATION_KEYS:
        return ""
    name = parts[0].strip()
    return name if _mostly_letters(name) and not is_known_label(name) else ""


def any_letterhead(reading: Reading) -> Region | None:
    """The letterhead the page opens with, or the one printed as a table's first column when the lines
    opening it are only the title and its number ("Invoice INV1" over "| My Company | John Doe |")."""
    found = letterhead_of(reading)
    if found is None or all(is_titled_number(text) for text, _ in found.items):
        return _table_letterhead(reading) or found
    after = [at[0] for text, at in found.items if not is_titled_number(text)]
    table = _table_letterhead(reading)
    if table is not None and table.items[0][1][0] < min(after) and _ENDS_LEGAL_FORM.search(table.items[0][0]):
        # "Rechnung 6844134" over "| Infomaniak Network SA | Fällig am | 30.09.25 |" over the address
        # block: the table's first column, a company's name, is the letterhead, the block the addressee's
        return table
    return found


def _table_letterhead(reading: Reading) -> Region | None:
    cells = _letterhead_cells(reading)
    return Region(tuple(cells), _LETTERHEAD) if cells else None


def _letterhead_cells(reading: Reading) -> list[tuple[str, Pos]]:
    """A letterhead printed as a table's first column, the page opening with that table (after its
    title, and the document's labelled number and dates, only): the first cell when it is a name
    (letters, no label, no digit) and the cells under it up to the first empty one ("| Muster GmbH | |
    Rechnung 12 |" over "| Hauptstr. 1 | | ... |")."""
    lines = reading.layout.lines
    first = next(
        (
            index
            for index, line in enumerate(lines[:_HEAD_LINES])
            if line.cells is not None
            or not (
                label_key(line.text) in DOCUMENT_TITLES
                or is_titled_number(line.text)
                or (label_and_value(line.text) and len(segments(line.text)) == 1)  # "Date: 2014-10-26"
            )
        ),
        None,
    )
    head = lines[first].cells if first is not None and lines[first].page == 0 else None
    if first is None or not head:
        return []
    name = head[0].strip()
    if not name or any(char.isdigit() for char in name) or not _mostly_letters(name):
        return []
    if label_colon(name) is not None or reading.reads_as_label(name) or synonyms(label_key(name)):
        return []  # a column's heading ("Description"), no one's name
    others = [cell for cell in head[1:] if cell.strip()]
    headings = [cell for cell in others if is_known_label(cell) and label_colon(cell) is None]
    if len(headings) >= 2 and (3 * len(headings) >= len(others) or len(others) >= _ITEM_COLUMNS):
        return []  # the line items' headings ("Prestation | Qte | Prix unitaire"), no letterhead
    items: list[tuple[str, Pos]] = []
    for at in range(first, min(first + 5, len(lines))):
        cells = lines[at].cells
        cell = cells[0].strip() if cells else ""
        if not cell or label_colon(cell) is not None or (items and cell == name):
            break  # the end of the column's block, or the name again (a signature's, a footer's)
        if items and (reading.reads_as_label(cell) or synonyms(label_key(cell))):
            break  # the line items' headings
        items.append((cell, (at, 0)))
        if _POSTCODE.search(cell):
            break
    return items


def company_blocks_of(reading: Reading) -> list[Region]:
    """Who issued a document no label names, by the company's legal form: a block on the first page
    whose first line ends with it ("Example, LLC", "Muster GmbH"; not a company under a person's name,
    as an address window prints its addressee) over the company's address (a
    postcode and a place), telephone or e-mail on the lines that follow (none when they address
    someone, "z. Hd.", "Attn"), less likely than the letterhead; and a line of
    the first page that names the company
    with its legal form beside its registration or tax numbers ("Muster GmbH · Amtsgericht Stadt HRB
    1234 · USt-IdNr. DE123456789"), as a footer does. The second is the more telling: a block may be
    the customer's address."""
    lines = reading.layout.lines
    found: list[Region] = []
    for index, line in enumerate(lines):
        if line.page != 0:
            break
        text = line.text.strip()
        if line.cells is not None:
            named = _name_beside_registration(line.cells, reading)
            found += [Region(((named, (index, 0)),), _REGISTERED)] if named else []
            continue
        if not text or reading.reads_as_label(text):
            continue
        colon = label_colon(text)
        if colon is not None:
            legal = _LEGAL_FORM_WORD.search(text)
            registered = _registered_name(index, reading) if legal and legal.end() <= colon else None
            # "Vodafone Portugal, S.A. Sede: Avenida ... NIPC PT502544180": the name before the label
            found += [Region((registered,), _REGISTERED)] if registered else []
            continue
        columns = segments(text)
        if len(columns) > 1 and _ENDS_LEGAL_FORM.search(columns[0][1].strip()):
            text = columns[0][1].strip()  # two companies' blocks side by side: the sender's is the left one
        if _ENDS_LEGAL_FORM.search(text) and len(text) <= 60 and _mostly_letters(text):
            if index > 0 and lines[index - 1].block == line.block and line.block >= 0:
                continue  # under a person's name or another line of its block: an addressee's company
            items, near = [(text, (index, 0))], []
            for at in range(index + 1, min(index + 7, len(lines))):
                if lines[at].cells is not None or lines[at].page != 0:
                    break
                near.append(lines[at].text.strip())
                if lines[at].block == line.block and line.block >= 0:
                    items.append((near[-1], (at, 0)))  # its block's lines may be labelled ("USt-IdNr.: ...")
            if any(_ATTENTION.match(t) for t, _ in items):
                continue  # "z. Hd. Herr Muster", "Attn: ...": the block of whom the document is sent to
            if any(_POSTCODE.search(t) or in_form("phone", t) or in_form("email", t) for t in near):
                found.append(Region(tuple(items), _COMPANY_BLOCK))
            continue
        registered = _registered_name(index, reading)
        if registered:
            found.append(Region((registered,), _REGISTERED))
        elif not found and _name_over_tax_id(index, reading):  # the first block: the sender's
            found.append(Region(((text, (index, 0)),), _REGISTERED))  # as telling as a registration
    return sorted(found, key=lambda region: -region.score)


def _name_over_tax_id(index: int, reading: Reading) -> bool:
    """Whether a line is a company's name printed over its tax id's labelled line, at the head of their
    block ("ZeroSport" over "CIF: B12345678" and the street), with no party's label over it: a short
    name of letters, no label."""
    lines = reading.layout.lines
    line, text = lines[index], lines[index].text.strip()
    if line.block < 0 or index + 1 >= len(lines) or lines[index + 1].block != line.block:
        return False
    if index > 0 and (
        lines[index - 1].block == line.block or is_party_label(lines[index - 1].text.strip(" :"))
    ):
        return False
    if len(text.split()) > 4 or any(char.isdigit() for char in text) or not _mostly_letters(text):
        return False
    below = lines[index + 1].text
    colon = label_colon(below)
    return colon is not None and label_key(below[:colon]) in _TAX_ID_KEYS | _REGISTRATION_KEYS


def _name_beside_registration(cells: Sequence[str], reading: Reading) -> str | None:
    """The company's name a footer printed as a table opens a row with, the label of its registration
    number in the next cell ("| Naprapatlandslaget | Org: | 556999-3271 | E-post: | ... |"): a name of
    words without figures, no label."""
    filled = [cell.strip() for cell in cells if cell.strip()]
    if len(filled) < 3 or not _REGISTRATION.match(filled[1]) or label_colon(filled[0]) is not None:
        return None
    name = filled[0]
    if any(char.isdigit() for char in name) or len(name.split()) > 6 or reading.reads_as_label(name):
        return None
    return name if _mostly_letters(name) else None


def _registered_name(index: int, reading: Reading) -> tuple[str, Pos] | None:
    """The company's name a footer line opens with, up to its legal form, when the line or one of the
    next two names its registration or tax numbers (its contacts' line may come between)."""
    lines = reading.layout.lines
    text = lines[index].text
    first = _SENDER_PART.match(text.strip())
    part = first.group().strip() if first else text.strip()
    legal = _LEGAL_FORM_WORD.search(part)
    if legal is None or legal.start() == 0 or _REGISTRATION.search(part[: legal.start()]):
        return None
    name = _name_before_address(part) if part[legal.end() :].strip() else part
    if not _ENDS_LEGAL_FORM.search(name) or len(name.split()) > 6:
        return None
    after = text[text.find(name) + len(name) :]  # the rest of its line, its address's and numbers' parts
    nearby = " ".join([after] + [line.text for line in lines[index + 1 : index + 3]])
    if not _REGISTRATION.search(nearby):
        return None
    return name, (index, text.find(name))


def assigned(slots: list[Slot], reading: Reading) -> dict[Path, Candidate]:
    """Each field its best candidate, best first over the whole document, no label or value twice."""
    regions = _RegionCache(reading)
    owners = list({slot.owner.path: slot.owner for slot in slots if slot.owner is not None}.values())
    ranked = [
        (candidate, number)
        for number, slot in enumerate(slots)
        for candidate in _candidates(slot, reading, regions, owners)
    ]
    ranked.sort(key=lambda item: (-item[0].score, item[0].order, item[1]))
    chosen: dict[Path, Candidate] = {}
    used: set[Pos] = set()
    named: set[str] = set()  # the names taken: two parties (issuer and customer) are not one, unless
    # each is named under its own label (a sample's "Firma XYZ" as seller and buyer)
    for candidate, number in ranked:
        path = slots[number].path
        name = _party_name(slots[number], candidate)
        twice = _named_already(name, named) and candidate.score < _OWN_LABEL
        if path not in chosen and not candidate.uses & used and not twice:
            chosen[path] = candidate
            used |= candidate.uses
            named |= {name} - {""}
    _total_after_its_tax(slots, ranked, chosen)
    _last_of_tied_totals(slots, ranked, chosen)
    _agreeing_totals(slots, ranked, chosen)
    _total_printed_alone(slots, chosen, reading)
    return chosen


def _named_already(name: str, named: set[str]) -> bool:
    """Whether a party's name is one another party was given, or holds it or is held in it (of two
    words or more: "Titular do Contrato - Acme Lda" holds "Acme Lda")."""
    return bool(name) and any(
        name == other
        or (min(len(name.split()), len(other.split())) >= 2 and (name in other or other in name))
        for other in named
    )


def _party_name(slot: Slot, candidate: Candidate) -> str:
    """The name a candidate gives a party (an object's "name" field), as compared; "" for any other."""
    if slot.owner is None or role_of(slot.path[-1]) != "name" or not isinstance(candidate.value, str):
        return ""
    return " ".join(candidate.value.casefold().split())


def _amount_roles(slots: list[Slot]) -> dict[str, Path]:
    """The first slot of each amount's role among `slots`: "total", "net", "tax"."""
    roles: dict[str, Path] = {}
    for slot in slots:
        role = amount_role(slot.aliases) if slot.node.kind in {"number", "integer"} else None
        if role and role not in roles:
            roles[role] = slot.path
    return roles


def _total_printed_alone(slots: list[Slot], chosen: dict[Path, Candidate], reading: Reading) -> None:
    """A total no label names, found by the net amount and the tax found by theirs: an amount printed
    on a line of its own, outside tables, after them on their page, that is their sum ("Celkem bez DPH
    1 000,00 Kč", "DPH 21 % 210,00 Kč", then "1 210,00 Kč" in large type). The first such line; none
    when no line holds their sum."""
    roles = _amount_roles(slots)
    if set(roles) != {"total", "net", "tax"} or roles["total"] in chosen:
        return
    net, tax = chosen.get(roles["net"]), chosen.get(roles["tax"])
    if net is None or tax is None or not all(isinstance(found.value, int | float) for found in (net, tax)):
        return
    lines = reading.layout.lines
    placed = [index for index, _ in net.uses | tax.uses if 0 <= index < len(lines)]
    if not placed:
        return
    after = max(placed)
    used = {position for found in chosen.values() for position in found.uses}
    for index in range(after + 1, min(after + 1 + _RUN_LINES, len(lines))):
        line = lines[index]
        if line.page != lines[after].page:
            return
        number = parse_number(line.text, reading.layout.decimal_comma) if line.cells is None else None
        if number is None or (index, 0) in used or not _CENTS.search(line.text):
            continue
        if _adds_up(net.value, tax.value, number[0]):
            uses = frozenset({(index, 0)})
            chosen[roles["total"]] = Candidate(_AGREED * 0.9, (index, 0), uses, number[0], line.text, True)
            return


def _total_after_its_tax(
    slots: list[Slot], ranked: list[tuple[Candidate, int]], chosen: dict[Path, Candidate]
) -> None:
    """A tax found and no net amount, while two amounts labelled as totals, one of them the total found,
    are the net amount and the gross, the tax between them ("Summe: 283,66 €", "19% Mehrwertsteuer:
    66,54 €", "Gesamt: 350,20 €"; "Summe Betrag 50,37 €", "+19 % USt. 9,57 €", "Rechnungsbetrag 59,94
    €"): the later, the sum, is the total, and the first the net amount."""
    roles = _amount_roles(slots)
    if "total" not in roles or "tax" not in roles or roles.get("net") in chosen:
        return
    total, tax = chosen.get(roles["total"]), chosen.get(roles["tax"])
    if (
        total is None
        or tax is None
        or not all(isinstance(found.value, int | float) for found in (total, tax))
    ):
        return
    if not tax.value:
        return
    totals = _total_candidates(slots, ranked, chosen, roles["total"])[:_TOTALS_WEIGHED]
    for earlier in totals:
        for later in totals:
            if earlier.order >= later.order or earlier.uses & later.uses:
                continue
            if total.value not in (earlier.value, later.value) or not _adds_up(
                earlier.value, tax.value, later.value
            ):
                continue
            if "net" in roles:
                chosen[roles["net"]] = replace(earlier, score=max(earlier.score, _AGREED), checked=True)
            chosen[roles["total"]] = replace(later, score=max(later.score, _AGREED), checked=True)
            chosen[roles["tax"]] = replace(tax, score=max(tax.score, _AGREED), checked=True)
            return


def _total_candidates(
    slots: list[Slot], ranked: list[tuple[Candidate, int]], chosen: dict[Path, Candidate], path: Path
) -> list[Candidate]:
    """The total's candidates that are amounts, likeliest first, none on a place another field took."""
    taken = {position for other, found in chosen.items() if other != path for position in found.uses}
    return [
        candidate
        for candidate, number in ranked
        if slots[number].path == path
        and isinstance(candidate.value, int | float)
        and not candidate.uses & taken
    ]


def _last_of_tied_totals(
    slots: list[Slot], ranked: list[tuple[Candidate, int]], chosen: dict[Path, Candidate]
) -> None:
    """Of totals labelled alike, with no net amount and no tax found to tell them apart, the larger one
    printed after the one found ("Summe 33.61" closing the items, then "Endbetrag EUR 40.00" under the
    tax rates): a document sums its items before it adds what comes on top of them."""
    roles = _amount_roles(slots)
    if "total" not in roles or any(roles.get(role) in chosen for role in ("net", "tax")):
        return
    total = chosen.get(roles["total"])
    if total is None or not isinstance(total.value, int | float):
        return
    later = [
        candidate
        for candidate in _total_candidates(slots, ranked, chosen, roles["total"])
        if candidate.score >= total.score - _TIED
        and candidate.order > total.order
        and candidate.value > total.value
        and not candidate.uses & total.uses
    ]
    if later:
        chosen[roles["total"]] = max(later, key=lambda candidate: candidate.order)


def _agreeing_totals(
    slots: list[Slot], ranked: list[tuple[Candidate, int]], chosen: dict[Path, Candidate]
) -> None:
    """A total, a net amount and a tax found together must add up (net + tax = total). When they do
    not, the net amount or the tax is taken from another of its candidates that makes them agree;
    amounts that agree are the more likely for it, those that cannot be made to are the less."""
    roles = _amount_roles([slot for slot in slots if slot.path in chosen])
    if len(roles) < 3:
        return
    total, net, tax = (chosen[roles[role]] for role in ("total", "net", "tax"))
    if not all(isinstance(found.value, int | float) for found in (total, net, tax)):
        return
    if _adds_up(net.value, tax.value, total.value):
        for agreed in roles.values():
            chosen[agreed] = replace(chosen[agreed], score=max(chosen[agreed].score, _AGREED), checked=True)
        return
    taken = {
        position
        for path, found in chosen.items()
        if path not in {roles["net"], roles["tax"]}
        for position in found.uses
    }
    for role, other in (("net", tax), ("tax", net)):
        path = roles[role]
        for candidate, number in ranked:
            if slots[number].path != path or candidate.uses & taken or candidate.uses & other.uses:
                continue
            if not isinstance(candidate.value, int | float):
                continue
            net_value, tax_value = (
                (candidate.value, other.value) if role == "net" else (other.value, candidate.value)
            )
            if _adds_up(net_value, tax_value, total.value):
                chosen[path] = replace(candidate, score=max(candidate.score, _AGREED * 0.95), checked=True)
                for agreed in (roles["total"], roles["tax" if role == "net" else "net"]):
                    chosen[agreed] = replace(chosen[agreed], checked=True)
                return
    taken = {position for path, found in chosen.items() if path != roles["total"] for position in found.uses}
    for candidate, number in ranked:
        if slots[number].path != roles["total"] or candidate.uses & taken:
            continue
        if isinstance(candidate.value, int | float) and _adds_up(net.value, tax.value, candidate.value):
            chosen[roles["total"]] = replace(
                candidate, score=max(candidate.score, _AGREED * 0.95), checked=True
            )
            for role in ("net", "tax"):
                chosen[roles[role]] = replace(
                    chosen[roles[role]], score=max(chosen[roles[role]].score, _AGREED), checked=True
                )
            return
    if _misread_one(chosen, roles):
        return
    for role in ("net", "tax"):
        chosen[roles[role]] = replace(chosen[roles[role]], score=chosen[roles[role]].score * _DISAGREED)


def _misread_one(chosen: dict[Path, Candidate], roles: dict[str, Path]) -> bool:
    """Net + tax = total, with one of the three printed with its cents but one digit off what the
    other two make (OCR's "177,49" read "177,9" or "177,40"): that one is read as the other two make
    it, a little less likely than amounts that add up as printed."""
    total, net, tax = (abs(chosen[roles[role]].value) for role in ("total", "net", "tax"))
    expected = {"total": net + tax, "net": total - tax, "tax": total - net}
    misread = [
        role
        for role, value in expected.items()
        if value >= 0
        and _CENTS.search(chosen[roles[role]].text)
        and _one_digit_off(chosen[roles[role]].text, f"{value:.2f}")
    ]
    if len(misread) != 1:
        return False
    for role in expected:
        found = chosen[roles[role]]
        if role == misread[0]:
            value = round(expected[role] if found.value >= 0 else -expected[role], 2)
            chosen[roles[role]] = replace(found, value=value, score=_MISREAD, checked=True)
        else:
            chosen[roles[role]] = replace(found, score=max(found.score, _AGREED), checked=True)
    return True


def _one_digit_off(printed: str, expected: str) -> bool:
    """Whether the digits printed are those expected with one digit dropped, added or changed."""
    read, want = re.sub(r"\D", "", printed), re.sub(r"\D", "", expected)
    if not read or read == want or abs(len(read) - len(want)) > 1:
        return False
    if len(read) == len(want):
        return sum(a != b for a, b in zip(read, want, strict=True)) == 1
    shorter, longer = sorted((read, want), key=len)
    return any(longer[:at] + longer[at + 1 :] == shorter for at in range(len(longer)))


def _adds_up(net: float, tax: float, total: float) -> bool:
    return abs(abs(net) + abs(tax) - abs(total)) <= 0.011


@dataclass
class _RegionCache:
    reading: Reading
    found: dict[Path, list[Region]] = field(default_factory=dict)

    def of(self, owner: Owner) -> list[Region]:
        if owner.path not in self.found:
            regions = regions_of(owner.aliases, owner.children, self.reading, headings=True)
            issued = self.reading.issued_by(owner.aliases)
            if issued or self.reading.addressed_to(owner.aliases):
                sent = sender_line_of(self.reading)
                found = (sent[0] if issued else sent[1]) if sent else None
                if found is None and issued and not regions:
                    found = any_letterhead(self.reading)
                    regions += company_blocks_of(self.reading)
                if found is None and not issued and not regions:
                    found = addressee_of(self.reading)
                    found = found or (block_after_letterhead(self.reading) if sent is None else None)
                    found = found or company_beside(self.reading)
                    found = found or lone_address_block(self.reading, sent[0] if sent else None)
                    found = found or greeted_block(self.reading)
                regions += [found] if found else []
                if issued and found is None and _named_in_the_foot(regions, self.reading):
                    letterhead = letterhead_of(self.reading)
                    regions = [replace(region, score=region.score * _IN_THE_FOOT) for region in regions]
                    regions = ([letterhead] if letterhead else []) + regions
            if not regions and not issued and self.reading.recipient == CUSTOMER_KEYS:
                regions = _delivered_to(owner, self.reading)
            self.found[owner.path] = regions
        return self.found[owner.path]


def _named_in_the_foot(regions: Sequence[Region], reading: Reading) -> bool:
    """Whether an issuer's label names only a lone value printed below the document's total
    ("TOTAL A PAGAR: S/ 380.00" ... "Vendedor: Administrador"): a salesperson, cashier or signatory in
    the foot, whose company is the letterhead's, not a block of the issuer's own (a block of two or
    more lines, or a label above the total, is)."""
    lines = reading.layout.lines
    totals = [
        reading.layout.pairs[index].label_at[0]
        for key in TOTAL_KEYS
        for index in reading.pairs_by_key.get(key, ())
        if lines[reading.layout.pairs[index].label_at[0]].cells is None
    ]
    if not regions or not totals:
        return False
    last = max(totals)
    return all(len(region.lines) == 1 and min(region.lines) > last for region in regions)


def _delivered_to(owner: Owner, reading: Reading) -> list[Region]:
    """For the customer of an invoice no label or heading names, the block it is delivered to ("Ship
    to", "Adresse de livraison"): the customer most often has its goods delivered to itself."""
    if not reading.addressed_to(owner.aliases):
        return []
    shipped = regions_of({key: SYNONYM for key in SHIP_TO_KEYS}, owner.children, reading, headings=True)
    return [replace(region, score=region.score * _DELIVERED_TO) for region in shipped[:1]]


def _candidates(
    slot: Slot, reading: Reading, regions: _RegionCache, owners: Sequence[Owner] = ()
) -> Iterator[Candidate]:
    pairs = reading.layout.pairs
    others = _other_parties_lines(slot, regions, owners)
    labelled = labelled_pairs(slot.aliases, reading)
    for index, score in labelled.items():
        factor = _OTHER_PARTY if pairs[index].label_at[0] in others else 1.0
        yield from _from_pair(slot, pairs[index], score * factor, reading)
    if not labelled and amount_role(slot.aliases) == "total":
        yield from _amount_alone(slot, reading)
    if not labelled and slot.aliases.get(("invoice", "number"), 0.0) >= _NAMED:
        yield from _reference_alone(slot, reading)
    worded = role_of(slot.path[-1]) in {"name", "address"}
    for pair, score in inline_pairs(slot.aliases, reading, cells=not worded):
        factor = _OTHER_PARTY if pair.label_at[0] in others else 1.0
        yield from _from_pair(slot, pair, score * factor, reading)
    if slot.owner is not None:
        owned = regions.of(slot.owner)
        lines = frozenset().union(*(region.lines for region in owned))
        elsewhere = _OUTSIDE_BLOCK if owned else _NO_BLOCK
        issued = reading.issued_by(slot.owner.aliases)
        for index, score in labelled_pairs(slot.local, reading).items():
            at = pairs[index].label_at[0]
            factor = (1.0 if at in lines else elsewhere) * (_OTHER_PARTY if at in others else 1.0)
            if issued and at not in lines and label_key(pairs[index].label) == ("name",):
                factor *= _NAME_ASKED  # "Nome: John Doe" on a card's statement: the holder, not its issuer
            yield from _from_pair(slot, pairs[index], score * factor, reading)
        for region in owned:
            if region.lines & others:  # a block of another party's, taken for this one's too
                for found in from_region(slot, region, reading):
                    yield replace(found, score=found.score * _OTHER_PARTY)
            else:
                yield from from_region(slot, region, reading)
    elif slot.node.kind in {"string", "any"}:
        for region in regions_of(slot.aliases, frozenset(), reading)[:3]:
            yield from from_region(slot, region, reading, whole=True)
        if reading.issued_by(slot.aliases):
            letterhead = any_letterhead(reading)
            for region in ([letterhead] if letterhead else []) + company_blocks_of(reading):
                yield from from_region(slot, region, reading, whole=True)
    yield from without_label(slot, reading, others)


def _amount_alone(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """For a document's total no label names, an amount after a bare "Amount:" ("Summa: 37,80 €",
    "Betrag: 120,00"), outside a table, whose one amount it is: less likely than a total's label, the
    word also heads the amount of each line."""
    for index in reading.pairs_by_key.get(("amount",), ()):
        pair = reading.layout.pairs[index]
        if pair.how == "colon" and reading.layout.lines[pair.label_at[0]].cells is None:
            yield from _from_pair(slot, pair, _AMOUNT_ALONE, reading)


def _reference_alone(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """For an invoice's number no label names, the value of the issuer's "Reference:" ("Our
    reference"), outside a table: less likely than a number's label, a reference may be an order's."""
    for key in _OWN_REFERENCES:
        for index in reading.pairs_by_key.get(key, ()):
            pair = reading.layout.pairs[index]
            if (
                pair.how in {"colon", "below", "spaced"}
                and reading.layout.lines[pair.label_at[0]].cells is None
            ):
                yield from _from_pair(slot, pair, _REFERENCE_ALONE, reading)


def _other_parties_lines(slot: Slot, regions: _RegionCache, owners: Sequence[Owner]) -> frozenset[int]:
    """The lines of the paragraphs holding each other party's best block (the customer's, for the
    issuer's fields) but not this field's own best block: a VAT id labelled in the customer's block
    ("NIP: ...", "UID-Nr: ...") is the customer's, whatever the issuer's field is named. Two parties'
    blocks printed side by side come out as one paragraph, and a block taking in the other's lines is
    both parties' columns read as one: neither is the other party's alone. A block printed twice (drawn
    over itself, or as an original and its copy) is the other party's both times: each of its best
    blocks counts."""
    if slot.owner is None:
        return frozenset()
    layout = regions.reading.layout
    own = regions.of(slot.owner)[0].lines if regions.of(slot.owner) else frozenset()
    own_paragraphs = {layout.lines[line].block for line in own}
    others: set[int] = set()
    for owner in owners:
        found = regions.of(owner) if owner.path != slot.owner.path else []
        for best in [region for region in found if region.score >= found[0].score]:
            if not best.lines & own:
                others |= {layout.lines[line].block for line in best.lines} - own_paragraphs - {-1}
    return frozenset(index for block in others for index in layout.blocks[block])


def _from_pair(slot: Slot, pair: Pair, label_score: float, reading: Reading) -> Iterator[Candidate]:
    if pair.how == "inline" and (_joined_to_label(pair) or _opens_parts(pair, reading)):
        return  # "CUST-IE-001": a code that opens with a label's word, no label and its value
    text, uses = pair.value, {pair.label_at, pair.value_at}
    following = [(pair.value, pair.value_at)] + [(reading.layout.lines[i].text, (i, 0)) for i in pair.rest]
    if role_of(slot.path[-1]) == "address" and pair.how != "cell":
        kept = _until_block_ends(following[:4], reading)
        text, uses = ", ".join(line for line, _ in kept), uses | {position for _, position in kept}
    elif role_of(slot.path[-1]) == "name" and pair.how != "cell":
        kept = _name_lines(_until_block_ends(following[:2], reading), 0)
        if len(kept) == 1 and pair.how == "colon":
            kept += _name_wrapped_apart(pair.value_at[0], reading)
        text, uses = " ".join(line for line, _ in kept), uses | {position for _, position in kept}
    elif slot.node.kind == "boolean" or slot.node.enum is not None:
        boxes = ticked_options([line for line, _ in _until_block_ends(following[:6], reading)])
        if boxes:  # check boxes under or after the label: the ticked one is the value
            flag = ticked_flag(boxes) if slot.node.kind == "boolean" else None
            ticked = [option for is_ticked, option in boxes if is_ticked]
            text = ("yes" if flag else "no") if flag is not None else ticked[0] if len(ticked) == 1 else ""
    # "Rachunek nr 1/3/2024": a value on its number label's line is a number, dated or not (one under or
    # beside a column of labels may be the date of the label next to it)
    numbered = label_key(pair.label)[-1:] == ("number",) and pair.label_at[0] == pair.value_at[0]
    candidate = candidate_of(
        slot, text, label_score * PRIOR[pair.how], pair.label_at, frozenset(uses), reading, numbered
    )
    if candidate is None and slot.node.kind == "string" and identifier_kind(slot.path[-1]) == "vat":
        candidate = _unformed_tax_id(text, label_score * PRIOR[pair.how], pair.label_at, frozenset(uses))
    if candidate:
        yield candidate


def _name_wrapped_apart(index: int, reading: Reading) -> list[tuple[str, Pos]]:
    """The rest of a name after its label's colon that the page wrapped into a block of its own: the
    next line, a block of one line of words that starts with a small letter ("Razón Social: Fideicomiso
    inmobiliario VBC Green" over "residence by blue sky"); a new line of its own starts with a capital,
    a digit or a label."""
    lines = reading.layout.lines
    if index + 1 >= len(lines) or lines[index].cells is not None:
        return []
    below = lines[index + 1]
    text = below.text.strip()
    if (
        below.cells is not None
        or below.page != lines[index].page
        or below.block < 0
        or len(reading.layout.blocks[below.block]) != 1
        or not text[:1].islower()
        or label_colon(text) is not None
        or any(char.isdigit() for char in text)
        or len(text.split()) > 6
    ):
        return []
    return [(text, (index + 1, 0))]


def _unformed_tax_id(text: str, score: float, order: Pos, uses: frozenset[Pos]) -> Candidate | None:
    """A tax id printed with its label in a form no known one has (a country's whose form is not
    known, a sample's of a wrong length): taken at `_UNFORMED` of its label's score, below any value of
    a known form."""
    value = unformed_tax_id(text)
    return Candidate(score * _UNFORMED, order, uses, value, value) if value else None


def _joined_to_label(pair: Pair) -> bool:
    """Whether a label run into its value is joined to it by a hyphen, slash or underscore with no
    space between ("CUST-IE-001", "INV/2024/7"): one code, whose first part only reads as a label."""
    line, start = pair.value_at
    return line == pair.label_at[0] and start == len(pair.label) and pair.value[:1] in _JOINERS


def _opens_parts(pair: Pair, reading: Reading) -> bool:
    """Whether a label run into its value with no colon is the first word of a line of three or more
    parts apart by bullets ("Seller Company · 123 Seller St · 12345 Seller City"): a sender's line
    whose name opens with a label's word, not that label and its value."""
    text = reading.layout.lines[pair.label_at[0]].text
    between = text[len(pair.label) : pair.value_at[1]]
    return ":" not in between and len(_SENDER_SEPARATOR.findall(pair.value)) >= 2


def _until_block_ends(items: list[tuple[str, Pos]], reading: Reading) -> list[tuple[str, Pos]]:
    kept = items[:1]
    for text, position in items[1:]:
        if ends_block(text, frozenset(), reading) or label_colon(text) is not None:
            break
        kept.append((text, position))
    return kept


FORMS: dict[str, re.Pattern[str]] = {"email": EMAIL, "phone": _PHONE, "url": URL}


def _is_initials(text: str) -> bool:
    """A logo's letters ("CE") above the name they stand for."""
    letters = text.replace(" ", "")
    return len(letters) <= 3 and letters.isalpha() and letters.isupper()


def in_form(role: str, text: str) -> str | None:
    """The e-mail address, phone number or web address `text` holds; a phone number has seven digits
    or more and few letters around it ("Tel.")."""
    match = FORMS[role].search(text)
    if match and role == "phone":
        digits = sum(char.isdigit() for char in match.group())
        return match.group() if digits >= 7 and sum(char.isalpha() for char in text) <= 6 else None
    return match.group() if match else None


def from_region(slot: Slot, region: Region, reading: Reading, whole: bool = False) -> Iterator[Candidate]:
    """A field read from its object's block by place or form; with `whole`, the block is the field's."""
    role = "address" if whole and role_of(slot.path[-1]) == "address" else role_of(slot.path[-1])
    if whole and role not in {"address", "email", "phone", "url"}:
        role = "name"
    items = [(_before_label(text), position) for text, position in region.items]
    items = [(text, position) for text, position in items if text]
    plain = [(_before_form(text), position) for text, position in items]
    plain = [
        (text, position)
        for text, position in plain
        if any(char.isalnum() for char in text)  # not a rule of dashes under the block
        and label_key(text) not in BARE_LABELS
        and not _says_a_label(text)
        and not is_placeholder(text)
    ]
    found: list[tuple[str, frozenset[Pos], float]] = []
    shop = is_shop_field(slot)  # a receipt's head block holds its till's line, dated
    if role in FORMS:
        for text, position in items:
            value = in_form(role, text)
            if value:
                found.append((value, frozenset({position}), 0.95))
                break
    elif role == "name" and (
        unplaced := [
            item
            for item in plain
            if not _opens_with_street(item[0])
            and not _POSTCODE.match(item[0].strip())
            and not (shop and _dated(item[0]))
            and not in_words(item[0])
            and not _reads_as_sentence(_name_before_address(item[0]))
        ]  # (nor an amount written out in words: "SON TREINTA Y DOS MIL ... PESOS" over the name, nor a
        # sentence printed above it; a name run into its address is cut from it)
    ):
        worded = [item for item in unplaced if _mostly_letters(item[0])] or unplaced
        named = [item for item in worded if not _is_initials(item[0])] or worded
        lines = _name_lines(plain, plain.index(named[0]))
        name = _name_before_address(" ".join(text for text, _ in lines)).rstrip(" ,;")
        country = len(name.replace(" ", "")) <= 2 and _is_initials(name)  # "CZ" under an address
        if not _dated_sentence(name) and not country:  # "bancária indicada a partir de 2023.01.25." neither
            found.append((name, frozenset(at for _, at in lines), 0.9))
    elif role == "address" and plain[0 if whole else 1 :]:
        rest = plain[0 if whole else 1 :]
        if not whole:
            rest = plain[len(_name_lines(plain, 0)) :]  # none when the block is a name of two lines
        rest = [(text, position) for text, position in rest if not _only_a_date(text, reading)]
        if rest:
            found.append(
                (", ".join(text for text, _ in rest), frozenset(position for _, position in rest), 0.85)
            )
    if not whole and not found:
        found += _identifier_in_block(slot, list(region.items), reading.countries)
    for text, uses, quality in found:
        first = min(uses)
        candidate = candidate_of(slot, text, region.score * quality, first, uses, reading)
        if candidate:
            yield candidate


def _identifier_in_block(
    slot: Slot, items: list[tuple[str, Pos]], countries: tuple[str, ...] = ()
) -> list[tuple[str, frozenset[Pos], float]]:
    """A party's VAT id or IBAN printed inside its block by its form, where no label of its own stands
    at the head of a line ("Muster GmbH Bahnhofstr. 9 ... USt-IdNr: DE123456789" in one table cell):
    the only line of the block that holds one. A VAT id may be in the national form of one of the
    document's `countries` that passes its check (a Russian taxpayer number, its ИНН)."""
    kind = identifier_kind(slot.path[-1]) if slot.node.kind == "string" else None
    if kind not in {"vat", "iban"}:
        return []

    def holds(text: str) -> bool:
        if find_identifier(kind, text):
            return True
        national = national_vat(text, countries) if kind == "vat" else None
        return national is not None and national[1] == 1.0

    holding = [(text, position) for text, position in items if holds(text)]
    if len(holding) != 1:
        return []
    text, (line, _) = holding[0]
    return [(text, frozenset({(line, -6)}), _IN_BLOCK)]  # a place of its own beside the block's name


def _before_label(text: str) -> str:
    """A block's line without the labelled value it runs into: "Muster GmbH Hauptstr. 1 Tel: 0123" is
    "Muster GmbH Hauptstr. 1"; a line that is a labelled value ("Tel: 0123") is nothing, unless the
    value is a company's name ("REG: Muster GmbH & Co. KG"). A name and a value labelled after a comma
    ("Romashka OOO, INN: 7707083893") is the name."""
    inner = _INNER_LABEL.search(text)
    before = text[: inner.start()] if inner and inner.group().startswith(",") else ""
    if len(before.split()) >= 2 and ":" not in before:
        return before.strip(" ,;")
    tax_id = next(
        (found for found in _COMMA_WORD_DIGITS.finditer(text) if label_key(found[1]) in _TAX_ID_KEYS), None
    )
    if tax_id and len(text[: tax_id.start()].split()) >= 2 and ":" not in text[: tax_id.start()]:
        return text[: tax_id.start()].strip(" ,;")  # "Romashka OOO, INN 7707083893, 125009, Moskva"
    colon = label_colon(text)
    if colon is not None and len(text[:colon].split()) <= 4:
        value = text[colon + 1 :].strip()
        return value if _ENDS_LEGAL_FORM.search(value) and len(value.split()) >= 2 else ""
    return text[: inner.start()].strip(" ,;") if inner and len(text[: inner.start()].split()) >= 2 else text


def _says_a_label(text: str) -> bool:
    """Whether a block's line is a label or the document's title, no one's name: a party's label whose
    name is a picture reads on to the next line of text, a column's heading ("Mennyiség", quantity) or
    the title ("Számla (Minta)", a sample invoice)."""
    return is_known_label(text) or label_key(re.sub(r"\([^)]*\)", " ", text)) in DOCUMENT_TITLES


def _before_form(text: str) -> str:
    """A block's line without the e-mail address, phone number or web address it runs into ("Muster
    GmbH Hauptstr. 1 info@muster.de"); a line that is only one of them is nothing."""
    starts = [match.start() for pattern in FORMS.values() if (match := pattern.search(text))]
    if not starts or not any(in_form(form, text) for form in FORMS):
        return text
    before = text[: min(starts)].strip().rstrip("<([").strip()  # "Elliot Raque <raque@...>"
    return before if len(before.split()) >= 2 and any(char.isalpha() for char in before) else ""


def _name_before_address(text: str) -> str:
    """A company's name printed with its address on one line ("Muster GmbH Hauptstr. 1 12345 Stadt"),
    up to its legal form ("Muster GmbH"; "Lieferant GmbH & Co. KG" whole)."""
    for match in _LEGAL_FORM_WORD.finditer(text):
        rest = text[match.end() :].strip()
        following = rest.lstrip(", ").split(maxsplit=1)[0] if rest.lstrip(", ") else ""  # "Co., Ltd."
        if not rest or following in {"&", "+", "und", "and", "et"} or _LEGAL_FORM_WORD.match(following):
            continue
        if any(char.isdigit() for char in rest):
            return text[: match.end()].strip()
    return text


def _name_lines(items: list[tuple[str, Pos]], at: int) -> list[tuple[str, Pos]]:
    """The lines of the name starting at `items[at]`: with the next line when it is only a salutation
    ("Herrn" over "Max Mustermann"), or when the next line ends the company's name with its legal form
    ("MVM Musterhafter" over "Versicherungsverein a.G.") and holds no digit (not a street), or when a
    long name in capitals goes on in it (`_wraps_in_capitals`) and the block ends or its street follows."""
    first = items[at]
    if at + 1 >= len(items) or items[at + 1][1][0] != first[1][0] + 1:
        return [first]
    following = items[at + 1]
    if _SALUTATION.fullmatch(first[0].strip()):
        return [first, following]
    ends_legal = _ENDS_LEGAL_FORM.search(following[0])
    if ends_legal and not _ENDS_LEGAL_FORM.search(first[0]) and not any(c.isdigit() for c in following[0]):
        return [first, following]
    ends = at + 2 >= len(items) or any(char.isdigit() for char in items[at + 2][0])
    if _wraps_in_capitals(first[0], following[0]) and ends:
        return [first, following]  # the block ends there, or its street or postcode follows
    return [first]


def _wraps_in_capitals(first: str, following: str) -> bool:
    """Whether a long name printed in capitals goes on in the next line ("FUNDACJA MUZEUM MOTORYZACJI
    AUTOMOBILKLUBU" over "WIELKOPOLSKI - KUŹNIA DZIEDZICTWA", the street under both): both lines in
    capitals, the first a long one that does not end the name with its legal form, neither with a digit
    (a street's) nor the next with a label."""
    return (
        len(first) >= _WRAPPED_NAME
        and first.isupper()
        and following.isupper()
        and not _ENDS_LEGAL_FORM.search(first)
        and not any(char.isdigit() for char in first + following)
        and ":" not in following
    )


def _dated(text: str) -> bool:
    """Whether a line prints a date ("09/23/2017"): in a shop's block, the till's line, not its name
    (a party's block of an invoice may interleave its labelled dates: those keep their place)."""
    return parse_date(text, False) is not None


def _reads_as_sentence(text: str) -> bool:
    """Whether a line is a sentence's, no name's: more than _NAME_WORDS words, or _SENTENCE_WORDS or
    more of which most of four letters or more begin with a small letter ("De acordo com as
    instruções, o valor será debitado na conta"; a name's are mostly capitalised, "Companhia
    Energética do Ceará", "Kowalski i Syn sp. z o.o.")."""
    words = text.split()
    long = [word for word in words if sum(char.isalpha() for char in word) >= 4]  # not "i", "z", "sp."
    small = sum(1 for word in long if word[:1].islower())
    return len(words) > _NAME_WORDS or (len(words) >= _SENTENCE_WORDS and 2 * small > len(long))


def _dated_sentence(text: str) -> bool:
    """Whether a line is a sentence's that prints a date, no name's: four words or more, no label
    ("bancária indicada a partir de 2023.01.25." over the addressee's name)."""
    return len(text.split()) >= 4 and label_colon(text) is None and _dated(text)


def _only_a_date(text: str, reading: Reading) -> bool:
    """Whether a line prints a date and nothing else ("Setembro, 23, 2016" under a letterhead's name):
    the document's date, no line of an address."""
    found = parse_date(text, reading.day_first)
    return found is not None and found.printed.strip(" .,") == text.strip(" .,")


def _is_street(text: str) -> bool:
    """An address's line printed number first: a street ("8636 Sentinel Place", "2, rue de la Paix"), a
    floor ("2nd Floor, Ramis Center") or a postcode and its place ("75000 Paris"), or a post-office
    box; or a street printed by its kind of way first, its number after ("Av. Paulista, 1000"); not a
    company's name ("1&1 Internet AG")."""
    street = _HOUSE_NUMBER_FIRST.match(text.strip()) or _PO_BOX.match(text) or _STREET_WORD_FIRST.match(text)
    return bool(street) and not _LEGAL_FORM_WORD.search(text)


def _mostly_letters(text: str) -> bool:
    """Whether a line reads as a name rather than a number ("4000001123452 (GLN)")."""
    return sum(char.isalpha() for char in text) > sum(char.isdigit() for char in text)
