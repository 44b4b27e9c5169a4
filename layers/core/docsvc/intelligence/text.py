"""Reading parsed pages: labels, values, and how a page lays them out.

A label's key is its words lowercased, without accents, in the singular, with abbreviations spelled
out ("No.", "Nr", "Nº" and "#" are "number", "Qty" is "quantity", "PO" is "purchase order"), so that
"Invoice No.", "Invoice #" and `invoice_number` share one key. Values are read the ways documents
print them: amounts with currency signs or codes and either decimal mark, dates numeric or written out,
yes/no marks. The layout is the label/value pairs and the tables of a document's pages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

Key = tuple[str, ...]

# ---------------------------------------------------------------------------------------- label keys
_WORD = re.compile(r"#|№|[^\W_]+")
_NUMERO = re.compile(r"\b[nN][°º]")  # same length as its replacement "no", so offsets hold
_CAMEL = re.compile(r"(?<=[a-z\d])(?=[A-Z])")
_ABBREVIATIONS: dict[str, Key] = {
    "#": ("number",),
    "№": ("number",),
    "no": ("number",),
    "nr": ("number",),
    "num": ("number",),
    "nbr": ("number",),
    "qty": ("quantity",),
    "qnty": ("quantity",),
    "amt": ("amount",),
    "tel": ("phone",),
    "telephone": ("phone",),
    "addr": ("address",),
    "ref": ("reference",),
    "po": ("purchase", "order"),
    "inv": ("invoice",),
    "acct": ("account",),
    "desc": ("description",),
    "cust": ("customer",),
    "pcs": ("piece",),
}
_MERGES: dict[tuple[str, str], str] = {("sub", "total"): "subtotal", ("e", "mail"): "email"}
_KEEP_FINAL_S = ("ss", "us", "is", "ous")


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(_KEEP_FINAL_S):
        return word[:-1]
    return word


def _raw_words(text: str) -> Iterator[tuple[str, int]]:
    """Words of `text` lowercased, camelCase split, each with the offset just past it."""
    for match in _WORD.finditer(_NUMERO.sub("no", text)):
        word, start = match.group(), match.start()
        cuts = [cut.start() for cut in _CAMEL.finditer(word)] + [len(word)]
        begin = 0
        for cut in cuts:
            yield _plain(word[begin:cut]), start + cut
            begin = cut


def key_words(text: str) -> list[tuple[str, int]]:
    """The words of `text`'s key, each with the offset in `text` just past the words it came from."""
    raw = list(_raw_words(text))
    words: list[tuple[str, int]] = []
    index = 0
    while index < len(raw):
        word, end = raw[index]
        following = raw[index + 1] if index + 1 < len(raw) else None
        if following and (word, following[0]) in _MERGES:
            words.append((_MERGES[(word, following[0])], following[1]))
            index += 2
            continue
        words.extend((part, end) for part in _ABBREVIATIONS.get(word, (_singular(word),)))
        index += 1
    return words


@lru_cache(maxsize=8192)
def label_key(text: str) -> Key:
    return tuple(word for word, _ in key_words(text[:200]))


def snake_case(label: str) -> str:
    """A property name for a label: "Invoice #" gives `invoice_number`, "Unit price" `unit_price`."""
    words = [_plain(word) for word, _ in _raw_words(label)]
    words = ["number" if word in {"#", "№", "no", "nr"} else word for word in words]
    name = "_".join(word for word in words if word.isalnum())[:64].strip("_")
    return name if not name or name[0].isalpha() else f"field_{name}"


_RATE = re.compile(r"\(?\d+(?:[.,]\d+)?\s*%\)?")


def without_rate(label: str) -> str:
    """A label without the rate printed in it: "VAT 20%" is labelled "VAT"."""
    return " ".join(_RATE.sub(" ", label).split()) or label


def is_label_text(text: str) -> bool:
    """Whether a line reads like a label: a few words, no digits, no sentence."""
    stripped = text.strip().rstrip(":").strip()
    return (
        0 < len(stripped) <= 40
        and len(stripped.split()) <= 5
        and stripped[0].isalpha()
        and not any(char.isdigit() for char in stripped)
        and ":" not in stripped
    )


# ---------------------------------------------------------------------------------------- synonyms
_SYNONYM_PHRASES: tuple[tuple[str, ...], ...] = (
    # The first phrase of a group names it: a property named so takes that group only.
    ("total", "total due", "amount due", "grand total", "balance due", "total amount", "total amount due",
     "amount payable", "total payable", "invoice total", "total to pay", "amount to pay", "balance"),
    ("subtotal", "net total", "net amount", "total before tax", "total excl tax", "total excluding tax"),
    ("tax", "vat", "gst", "sales tax", "tax amount", "vat amount", "tax total", "total tax"),
    ("date", "invoice date", "issue date", "date issued", "issued", "issued on", "date of issue", "dated",
     "document date", "receipt date"),
    ("due date", "payment due", "due", "pay by", "payment due date", "due by", "payable by"),
    ("vendor", "supplier", "seller", "from", "merchant", "sold by", "issued by", "store", "shop", "biller",
     "payee", "vendor name", "supplier name"),
    ("customer", "bill to", "billed to", "buyer", "sold to", "client", "purchaser", "invoice to",
     "invoiced to", "payer", "customer name", "client name"),
    ("ship to", "deliver to", "delivery address", "shipping address", "consignee", "shipped to"),
    ("quantity", "unit", "count", "piece", "hour"),
    ("unit price", "price", "unit cost", "rate", "price per unit", "each", "unit amount", "cost"),
    ("description", "item", "product", "article", "service", "detail", "particular", "item description",
     "product name", "designation", "line item"),
    ("amount", "line total", "total", "extended price", "ext price", "line amount", "sum", "value"),
    ("name", "full name"),
    ("email", "email address", "mail"),
    ("phone", "phone number", "mobile", "cell", "contact number"),
    ("address", "street address", "location"),
    ("invoice number", "invoice id", "bill number"),
    ("receipt number", "receipt id", "transaction number", "transaction id"),
    ("order number", "order id", "purchase order number"),
    ("reference", "reference number", "our reference", "your reference"),
    ("payment method", "paid by", "payment type", "tender", "payment"),
    ("currency", "currency code"),
    ("discount", "rebate"),
    ("note", "remark", "comment", "memo"),
    ("term", "payment term"),
)  # fmt: skip
SYNONYM_GROUPS: tuple[tuple[Key, ...], ...] = tuple(
    tuple(label_key(phrase) for phrase in group) for group in _SYNONYM_PHRASES
)


def _group(head: str) -> tuple[Key, ...]:
    return next(group for group in SYNONYM_GROUPS if group[0] == label_key(head))


VENDOR_KEYS = frozenset(_group("vendor"))
_STRONG_SUMMARY_KEYS = frozenset(_group("total") + _group("subtotal"))
SUMMARY_KEYS = _STRONG_SUMMARY_KEYS | frozenset(_group("tax") + _group("discount"))
# Words that turn a label into another thing: "Sub total" or "Total before tax" is not "Total".
QUALIFIERS = frozenset(
    {"subtotal", "sub", "tax", "vat", "gst", "net", "before", "after", "excl", "excluding", "discount",
     "shipping", "delivery", "due", "previous", "paid", "deposit", "ship", "birth", "expiry",
     "expiration", "start", "end", "from", "to", "per", "unit", "line"}
)  # fmt: skip
DOCUMENT_TITLES = frozenset(
    label_key(title)
    for title in (
        "invoice", "tax invoice", "receipt", "sales receipt", "purchase order", "quote", "quotation",
        "estimate", "statement", "bill", "credit note", "order confirmation", "delivery note",
        "packing slip", "proforma invoice", "pro forma invoice", "order",
    )
)  # fmt: skip


@lru_cache(maxsize=4096)
def synonyms(key: Key) -> tuple[Key, ...]:
    """Other keys for the same thing: the group `key` names, else every group it belongs to."""
    named = [group for group in SYNONYM_GROUPS if group[0] == key]
    groups = named or [group for group in SYNONYM_GROUPS if key in group]
    found: dict[Key, None] = {}
    for group in groups:
        found.update((other, None) for other in group if other != key)
    return tuple(found)


def variants(key: Key) -> Iterator[Key]:
    """`key` with one of its parts said another way: ("vendor", "name") gives ("supplier", "name")."""
    for size in (1, 2):
        for start in range(len(key) - size + 1):
            part = key[start : start + size]
            if part == key:
                continue
            for other in synonyms(part):
                yield key[:start] + other + key[start + size :]


def is_summary_row(cells: Iterable[str]) -> bool:
    """A table row that totals the others ("Subtotal", "Total due", "VAT 20%") rather than adds one."""
    cells = list(cells)
    filled = [cell for cell in cells if cell.strip()]
    for cell in filled:
        key = tuple(word for word in label_key(cell) if not word.isdigit())
        if key in _STRONG_SUMMARY_KEYS or (key in SUMMARY_KEYS and len(filled) < len(cells)):
            return True
    return False


# ---------------------------------------------------------------------------------------- numbers
_CURRENCY = re.compile(
    r"(?i)(?<![a-z])(?:usd|eur|gbp|jpy|chf|cad|aud|nzd|cny|rmb|inr|sek|nok|dkk|pln|czk|huf|brl|mxn|zar|"
    r"sgd|hkd|krw|rub|ils|aed|sar|us\$|ca\$|au\$|a\$|c\$|r\$|rs\.?|kr\.?|fr\.)(?![a-z])|[$€£¥₹₩₽₺₪₫฿₴₦₱¢]"
)
_UNIT_AFTER = re.compile(r"(.*?[\d)])\s*(%|[^\W\d_]{1,6}\.?)")
_GROUP_SPACES = " '\u2019\u00a0\u202f"  # thousands separated by spaces or apostrophes: 1 234,50, 1'234.50
_AMOUNT = re.compile(
    rf"(?P<open>\()?\s*(?P<sign>[-+\u2212\u2013])?\s*(?P<digits>\d(?:[\d.,{_GROUP_SPACES}]*\d)?)\s*(?P<close>\))?"
    r"\s*(?P<trail>-)?"
)
_GROUPED = re.compile(rf"\d{{1,3}}(?:[{_GROUP_SPACES}]\d{{3}})+(?:[.,]\d+)?")


def parse_number(text: str, decimal_comma: bool = False) -> tuple[float, float] | None:
    """The number written in `text` and how cleanly it was written (1.0, or less with a unit after it).

    Accepts currency signs and codes, thousands separators (",", ".", spaces, apostrophes), either
    decimal mark, and negatives as "-12.50", "12.50-" or "(12.50)". A lone separator before exactly
    three digits ("1,200", "1.200") is a thousands separator unless `decimal_comma` says otherwise for
    the comma or the point respectively.
    """
    cleaned = _CURRENCY.sub(" ", text[:100]).strip()
    quality = 1.0
    unit = _UNIT_AFTER.fullmatch(cleaned)
    if unit:
        cleaned, quality = unit.group(1), 1.0 if unit.group(2) == "%" else 0.9
    match = _AMOUNT.fullmatch(cleaned)
    if not match or bool(match["open"]) != bool(match["close"]):
        return None
    magnitude = _magnitude(match["digits"], decimal_comma)
    if magnitude is None:
        return None
    negative = bool(match["open"] or match["trail"] or (match["sign"] and match["sign"] != "+"))
    return (-magnitude if negative else magnitude), quality


def _magnitude(digits: str, decimal_comma: bool) -> float | None:
    if any(space in digits for space in _GROUP_SPACES):
        if not _GROUPED.fullmatch(digits):
            return None
        digits = "".join(char for char in digits if char not in _GROUP_SPACES)
    commas, points = digits.count(","), digits.count(".")
    if commas and points:
        decimal = "," if digits.rfind(",") > digits.rfind(".") else "."
    elif commas == 1 and (decimal_comma or not _three_after(digits, ",")):
        decimal = ","
    elif points == 1 and not (decimal_comma and _three_after(digits, ".")):
        decimal = "."
    else:
        decimal = ""
    thousands = "." if decimal == "," else ","
    whole, _, fraction = digits.partition(decimal) if decimal else (digits, "", "")
    if thousands in fraction or (decimal and decimal in fraction):
        return None
    if thousands in whole and not re.fullmatch(rf"\d{{1,3}}(?:\{thousands}\d{{3}})+", whole):
        return None
    return float(whole.replace(thousands, "") + ("." + fraction if fraction else ""))


def _three_after(digits: str, separator: str) -> bool:
    before, _, after = digits.partition(separator)
    return len(after) == 3 and 1 <= len(before) <= 3


_DECIMAL_COMMA_STYLE = re.compile(r"\d\.\d{3},\d{1,2}(?!\d)|(?<![\d.,])\d{1,3},\d{2}(?![\d.,])")
_DECIMAL_POINT_STYLE = re.compile(r"\d,\d{3}\.\d{1,2}(?!\d)|(?<![\d.,])\d+\.\d{2}(?![\d.,])")


def writes_decimal_comma(texts: Iterable[str]) -> bool:
    """Whether the amounts of a document are mostly written "1.234,50" rather than "1,234.50"."""
    comma = point = 0
    for text in texts:
        comma += len(_DECIMAL_COMMA_STYLE.findall(text))
        point += len(_DECIMAL_POINT_STYLE.findall(text))
    return comma > point


# ---------------------------------------------------------------------------------------- dates
_MONTHS = {
    **dict.fromkeys(("january", "jan"), 1), **dict.fromkeys(("february", "feb"), 2),
    **dict.fromkeys(("march", "mar"), 3), **dict.fromkeys(("april", "apr"), 4), "may": 5,
    **dict.fromkeys(("june", "jun"), 6), **dict.fromkeys(("july", "jul"), 7),
    **dict.fromkeys(("august", "aug"), 8), **dict.fromkeys(("september", "sept", "sep"), 9),
    **dict.fromkeys(("october", "oct"), 10), **dict.fromkeys(("november", "nov"), 11),
    **dict.fromkeys(("december", "dec"), 12),
}  # fmt: skip
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)")
_NUMERIC_DATE = re.compile(r"(?<![\d.])(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d.])")
_DAY_MONTH = re.compile(
    r"(?i)(?<![\d.])(\d{1,2})(?:st|nd|rd|th)?[\s.\-/]*(?:of\s+)?([a-z]{3,9})\.?[\s.\-/,]*(\d{4})(?!\d)"
)
_MONTH_DAY = re.compile(r"(?i)(?<![a-z])([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)")
_TIME = re.compile(r"(?<!\d)([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?!\d)")


@dataclass(frozen=True)
class ParsedDate:
    value: date
    ambiguous: bool  # numeric, with day and month both 12 or less: their order came from a hint
    span: int  # how many characters of the text the date took


def parse_date(text: str, day_first: bool = True) -> ParsedDate | None:
    """The first date in `text`: ISO (2026-03-12), written out (12 March 2026, 12-Mar-2026,
    March 12, 2026) or numeric (12/03/2026, 12.03.2026, 12-03-26). A numeric date whose day and month
    could be swapped is read day first unless `day_first` is False."""
    text = text[:200]
    return _iso_date(text) or _written_date(text) or _numeric_date(text, day_first)


def _made(year: int, month: int, day: int, ambiguous: bool, span: int) -> ParsedDate | None:
    try:
        return ParsedDate(date(year, month, day), ambiguous, span)
    except ValueError:
        return None


def _iso_date(text: str) -> ParsedDate | None:
    match = _ISO_DATE.search(text)
    if not match:
        return None
    return _made(int(match[1]), int(match[3]), int(match[4]), False, len(match[0]))


def _written_date(text: str) -> ParsedDate | None:
    for pattern, day_group, month_group in ((_DAY_MONTH, 1, 2), (_MONTH_DAY, 2, 1)):
        for match in pattern.finditer(text):
            month = _MONTHS.get(match[month_group].lower())
            if month:
                return _made(int(match[3]), month, int(match[day_group]), False, len(match[0]))
    return None


def _numeric_date(text: str, day_first: bool) -> ParsedDate | None:
    match = _NUMERIC_DATE.search(text)
    if not match:
        return None
    first, second, year = int(match[1]), int(match[3]), int(match[4])
    if len(match[4]) == 2:
        year += 2000 if year < 70 else 1900
    ambiguous = first <= 12 and second <= 12 and first != second
    if first > 12 or (second <= 12 and day_first):
        return _made(year, second, first, ambiguous, len(match[0]))
    return _made(year, first, second, ambiguous, len(match[0]))


def day_first_in(texts: Iterable[str]) -> bool | None:
    """What the unambiguous numeric dates of a document say about the order of day and month: True
    for day first (25/03/2026), False for month first (03/25/2026), None when they do not tell."""
    day_first = month_first = 0
    for text in texts:
        for match in _NUMERIC_DATE.finditer(text):
            first, second = int(match[1]), int(match[3])
            day_first += first > 12 >= second
            month_first += second > 12 >= first
    return None if day_first == month_first else day_first > month_first


def parse_time(text: str) -> str | None:
    match = _TIME.search(text)
    return f"{int(match[1]):02d}:{match[2]}:{match[3] or '00'}" if match else None


# ---------------------------------------------------------------------------------------- booleans
_TRUE = frozenset(
    {"yes", "y", "true", "t", "x", "1", "on", "checked", "ticked", "✓", "✔", "☑", "☒", "[x]", "(x)", "[✓]",
     "oui", "ja", "si"}
)  # fmt: skip
_FALSE = frozenset(
    {"no", "n", "false", "f", "0", "off", "unchecked", "☐", "□", "[]", "[ ]", "()", "( )", "✗", "✘", "none",
     "non", "nein"}
)  # fmt: skip


def parse_bool(text: str) -> bool | None:
    word = " ".join(text.lower().split()).strip(" .!")
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return None


# ---------------------------------------------------------------------------------------- layout
Pos = tuple[int, int]  # where a label or value starts: (line, character) or, in a table row, (line, cell)
_GAP = re.compile(r"[ \u00a0]{2,}|\t|\s*(?:\.{3,}|…+)\s*")  # wide spacing or dot leaders
_RULE_CELL = re.compile(r":?-+:?")
_MAX_LINE = 2000
_REST = 8  # lines after a value that may continue it (an address under a name)


@dataclass(frozen=True)
class Line:
    text: str
    page: int  # 0-based
    block: int  # the text block holding the line; -1 for a table row
    cells: tuple[str, ...] | None = None  # the cells of a table row


@dataclass(frozen=True)
class Pair:
    """A label and the value printed with it. `how` says where the value was: "colon" (after a colon),
    "spaced" (right of the label after wide spacing), "below" (on the next line), "next" (first line of
    the next block), "column" (a block of labels beside a block of values) or "cell" (in a table)."""

    label: str
    value: str
    how: str
    label_at: Pos
    value_at: Pos
    rest: tuple[int, ...] = ()  # the lines after the value in its block


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]  # the header's line, then each row's
    page: int


@dataclass(frozen=True)
class Layout:
    lines: tuple[Line, ...]
    blocks: tuple[tuple[int, ...], ...]  # the text blocks, as their lines
    pairs: tuple[Pair, ...]
    bare: tuple[int, ...]  # lines of one piece of text without a colon: maybe a label run into its value
    tables: tuple[Table, ...]  # in document order, a table continued on the next page as one
    day_first: bool | None  # what the document's own unambiguous dates say
    decimal_comma: bool


def read_layout(pages: Iterable[str]) -> Layout:
    """The lines, label/value pairs and tables of a document's pages (markdown pipe tables, and
    tables printed without rules: blocks of one row each, or lines of cells apart by wide spacing)."""
    lines: list[Line] = []
    blocks: list[tuple[int, ...]] = []
    tables: list[Table] = []
    for page, text in enumerate(pages):
        for chunk, is_table in _chunks(text):
            spilled, rows = _table_parts(_table_rows(chunk)) if is_table else (chunk, [])
            if spilled:
                start = len(lines)
                lines.extend(Line(line[:_MAX_LINE], page, len(blocks)) for line in spilled)
                blocks.append(tuple(range(start, len(lines))))
            if rows:
                start = len(lines)
                lines.extend(Line(" | ".join(row), page, -1, row) for row in rows)
                tables.append(Table(rows[0], tuple(rows[1:]), tuple(range(start, len(lines))), page))
    pairs, bare = _text_pairs(lines, blocks)
    unruled = [*_block_tables(lines, blocks), *_spaced_tables(lines, blocks)]
    texts = [line.text for line in lines]
    return Layout(
        lines=tuple(lines),
        blocks=tuple(blocks),
        pairs=tuple(pairs + _cell_pairs(lines, tables)),
        bare=tuple(bare),
        tables=tuple(_joined(sorted(tables + unruled, key=lambda table: table.lines[0]), lines)),
        day_first=day_first_in(texts),
        decimal_comma=writes_decimal_comma(texts),
    )


def _chunks(text: str) -> Iterator[tuple[list[str], bool]]:
    """Runs of non-blank lines, split where pipe-table rows start or stop."""
    run: list[str] = []
    in_table = False
    for raw in text.split("\n"):
        line = raw.strip()
        is_row = len(line) > 1 and line.startswith("|") and line.endswith("|")
        if run and (not line or is_row != in_table):
            yield run, in_table
            run = []
        if line:
            run.append(line)
            in_table = is_row
    if run:
        yield run, in_table


def _table_rows(chunk: list[str]) -> list[tuple[str, ...]]:
    rows = [
        tuple(cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line[1:-1]))
        for line in chunk
    ]
    rows = [row for row in rows if not all(_RULE_CELL.fullmatch(cell) for cell in row)] or [("",)]
    width = max(len(row) for row in rows)
    return [row + ("",) * (width - len(row)) for row in rows]


def _table_parts(rows: list[tuple[str, ...]]) -> tuple[list[str], list[tuple[str, ...]]]:
    """Text lines a table detected by alignment took in above its header, and the table itself.

    The lines above are rows with less than half their cells filled; cut at column edges, their
    cells are joined back (without a space inside a word cut in two).
    """
    width = len(rows[0])
    start = next(
        (n for n, row in enumerate(rows) if sum(map(bool, row)) >= max(2, (width + 1) // 2)), len(rows)
    )
    spilled = [_rejoined(row) for row in rows[:start]]
    body = rows[start:]
    used = [column for column in range(width) if any(row[column] for row in body)]
    return [text for text in spilled if text], [tuple(row[column] for column in used) for row in body]


def _rejoined(row: tuple[str, ...]) -> str:
    text = ""
    for cell in (cell for cell in row if cell):
        split_word = text and (
            (text[-1].isdigit() and cell[0].isdigit())
            or (text[-1].isalpha() and cell[0].islower())
            or len(text.split()[-1]) == 1
        )
        text += cell if split_word or not text else " " + cell
    return text


def segments(text: str) -> list[tuple[int, str]]:
    """The pieces of a line apart by wide spacing or dot leaders, each with its offset."""
    found: list[tuple[int, str]] = []
    start = 0
    for gap in _GAP.finditer(text):
        if gap.start() > start:
            found.append((start, text[start : gap.start()]))
        start = gap.end()
    if start < len(text):
        found.append((start, text[start:]))
    return found


def label_colon(segment: str) -> int | None:
    """Where the colon after a label is in `segment`, if it has one (not a time's, not a URL's)."""
    for match in re.finditer(":", segment):
        at = match.start()
        if segment[at - 1 : at].isdigit() and segment[at + 1 : at + 2].isdigit():
            continue
        label = segment[:at].strip()
        if segment.startswith("//", at + 1) or not 0 < len(label) <= 60:
            return None
        return at if any(char.isalpha() for char in label) else None
    return None


def _segment_pairs(index: int, text: str) -> tuple[list[Pair], tuple[str, int] | None]:
    """The pairs on one line, and a label at its end still waiting for its value."""
    pieces = segments(text)
    pairs: list[Pair] = []
    pending: tuple[str, int] | None = None
    position = 0
    while position < len(pieces):
        start, piece = pieces[position]
        following = pieces[position + 1] if position + 1 < len(pieces) else None
        colon = label_colon(piece)
        if colon is not None:
            value = piece[colon + 1 :].strip()
            offset = start + colon + 1 + len(piece[colon + 1 :]) - len(piece[colon + 1 :].lstrip())
            if value:
                pairs.append(Pair(piece[:colon].strip(), value, "colon", (index, start), (index, offset)))
            elif following and label_colon(following[1]) is None:
                label = piece[:colon].strip()
                pairs.append(Pair(label, following[1], "colon", (index, start), (index, following[0])))
                position += 1
            elif following is None:
                pending = (piece[:colon].strip(), start)
        elif following and label_colon(following[1]) is None:
            pairs.append(Pair(piece, following[1], "spaced", (index, start), (index, following[0])))
            position += 1
        elif len(pieces) == 1:
            pending = (piece, start)
        position += 1
    return pairs, pending


def _text_pairs(lines: list[Line], blocks: list[tuple[int, ...]]) -> tuple[list[Pair], list[int]]:
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
            if pending and number not in label_blocks:
                pairs.extend(_below(lines, blocks, number, position, pending))
            elif not pending and position + 1 < len(block):
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
    if not pieces or label_colon(pieces[0][1]) is not None:
        return []
    start, value = pieces[0]
    return [Pair(label[0], value, how, (block[position], label[1]), (at, start), rest)]


def _side_by_side(lines: list[Line], index: int, below: int) -> list[Pair]:
    """Labels printed side by side with their values under each of them."""
    labels, values = segments(lines[index].text), segments(lines[below].text)
    if len(labels) < 2 or len(labels) != len(values) or not all(is_label_text(text) for _, text in labels):
        return []
    return [
        Pair(label, value, "below", (index, label_start), (below, value_start))
        for (label_start, label), (value_start, value) in zip(labels, values, strict=True)
    ]


def _column_pairs(lines: list[Line], blocks: list[tuple[int, ...]]) -> tuple[list[Pair], set[int]]:
    """A block of labels followed by a block of as many values. Blocks of three or more labels are not
    read as a label over its value as well."""
    pairs: list[Pair] = []
    label_blocks: set[int] = set()
    value_blocks: set[int] = set()
    for number in range(len(blocks) - 1):
        labels, values = blocks[number], blocks[number + 1]
        if (
            number in value_blocks
            or len(labels) < 2
            or len(labels) != len(values)
            or lines[labels[0]].page != lines[values[0]].page
            or not all(is_label_text(lines[index].text) for index in labels)
        ):
            continue
        value_blocks.add(number + 1)
        if len(labels) >= 3:
            label_blocks.add(number)
        for label, value in zip(labels, values, strict=True):
            text = lines[label].text.rstrip(":").strip()
            pairs.append(Pair(text, lines[value].text, "column", (label, 0), (value, 0)))
    return pairs + _one_line_columns(lines, blocks), label_blocks


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


def _cell_pairs(lines: list[Line], tables: list[Table]) -> list[Pair]:
    """Rows of two filled cells (a key and its value), summary rows, and one-row tables read column by
    column."""
    pairs: list[Pair] = []
    for table in tables:
        for index in table.lines:
            cells = lines[index].cells or ()
            filled = [position for position, cell in enumerate(cells) if cell]
            if len(filled) == 2 or (len(filled) > 2 and is_summary_row(cells[: filled[-1]])):
                at = next(place for place in filled if place == filled[0] or is_summary_row([cells[place]]))
                value_at = filled[-1]
                pairs.append(Pair(cells[at], cells[value_at], "cell", (index, at), (index, value_at)))
        if len(table.rows) == 1:
            header_line, row_line = table.lines[0], table.lines[1]
            for place, (label, value) in enumerate(zip(table.header, table.rows[0], strict=True)):
                if label and value:
                    pairs.append(Pair(label, value, "cell", (header_line, place), (row_line, place)))
    return pairs


def _block_tables(lines: list[Line], blocks: list[tuple[int, ...]]) -> list[Table]:
    """Tables printed without rules whose every row came out as a block of one line per cell."""
    tables: list[Table] = []
    number = 0
    while number < len(blocks):
        head = blocks[number]
        run = [head]
        if len(head) >= 2 and all(is_label_text(lines[index].text) for index in head):
            while (
                number + len(run) < len(blocks)
                and len(blocks[number + len(run)]) == len(head)
                and lines[blocks[number + len(run)][0]].page == lines[head[0]].page
                and all(_is_cell(lines[index].text) for index in blocks[number + len(run)])
            ):
                run.append(blocks[number + len(run)])
        if len(run) >= 2:
            header = tuple(lines[index].text.rstrip(":").strip() for index in head)
            rows = tuple(tuple(lines[index].text for index in block) for block in run[1:])
            tables.append(Table(header, rows, tuple(block[0] for block in run), lines[head[0]].page))
        number += len(run)
    return tables


def _is_cell(text: str) -> bool:
    return len(segments(text)) == 1 and label_colon(text) is None


def _spaced_tables(lines: list[Line], blocks: list[tuple[int, ...]]) -> list[Table]:
    """Tables printed as lines of cells apart by wide spacing, under a line of headers."""
    tables: list[Table] = []
    for block in blocks:
        cells = [tuple(text for _, text in segments(lines[index].text)) for index in block]
        start = 0
        while start < len(block):
            end = start + 1
            if len(cells[start]) >= 2 and all(is_label_text(cell) for cell in cells[start]):
                while end < len(block) and len(cells[end]) == len(cells[start]):
                    end += 1
            if end - start >= 2:
                page = lines[block[start]].page
                tables.append(Table(cells[start], tuple(cells[start + 1 : end]), block[start:end], page))
            start = end
    return tables


def _joined(tables: list[Table], lines: list[Line]) -> list[Table]:
    """A table that goes on at the top of the next page, as one table: the continuation repeats the
    header, or its first row is data where the header was."""
    joined: list[Table] = []
    for table in tables:
        previous = joined[-1] if joined else None
        if previous and _continues(previous, table, lines):
            repeated = tuple(map(label_key, table.header)) == tuple(map(label_key, previous.header))
            rows = table.rows if repeated else (table.header, *table.rows)
            more = table.lines[1:] if repeated else table.lines
            joined[-1] = Table(previous.header, previous.rows + rows, previous.lines + more, previous.page)
        else:
            joined.append(table)
    return joined


def _continues(previous: Table, table: Table, lines: list[Line]) -> bool:
    def has_digits(cells: tuple[str, ...]) -> bool:
        return any(char.isdigit() for cell in cells for char in cell)

    return (
        table.page == lines[previous.lines[-1]].page + 1
        and len(table.header) == len(previous.header)
        and (
            tuple(map(label_key, table.header)) == tuple(map(label_key, previous.header))
            or (has_digits(table.header) and not has_digits(previous.header))
        )
    )
