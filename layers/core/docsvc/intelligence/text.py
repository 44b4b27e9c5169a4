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
    "dob": ("date", "of", "birth"),
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
    """The key of a label; "Date of birth" is said "birth date", "Name of applicant" "applicant name"."""
    key = tuple(word for word, _ in key_words(text[:200]))
    if key.count("of") == 1 and 0 < key.index("of") < len(key) - 1:
        at = key.index("of")
        return key[at + 1 :] + key[:at]
    return key


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
     "amount payable", "total payable", "invoice total", "total to pay", "amount to pay", "balance",
     "total paid", "amount paid", "order total"),
    ("subtotal", "net total", "net amount", "total before tax", "total excl tax", "total excluding tax"),
    ("tax", "vat", "gst", "sales tax", "tax amount", "vat amount", "tax total", "total tax"),
    ("date", "invoice date", "issue date", "date issued", "issued", "issued on", "date of issue", "dated",
     "document date", "receipt date"),
    ("due date", "payment due", "due", "pay by", "payment due date", "due by", "payable by"),
    ("delivery date", "required by", "deliver by", "delivery by", "needed by", "expected delivery",
     "requested delivery", "date required"),
    ("order date", "date ordered", "ordered on", "purchase order date", "date of order"),
    ("vendor", "supplier", "seller", "merchant", "sold by", "issued by", "store", "shop", "biller",
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
    ("phone", "phone number", "mobile", "mobile number", "cell", "contact number"),
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
CUSTOMER_KEYS = frozenset(_group("customer"))
ORDER_TITLES = frozenset(label_key(title) for title in ("purchase order", "order", "order form"))
_STRONG_SUMMARY_KEYS = frozenset(_group("total") + _group("subtotal"))
SUMMARY_KEYS = _STRONG_SUMMARY_KEYS | frozenset(_group("tax") + _group("discount"))
# Words that turn a label into another thing: "Sub total" or "Total before tax" is not "Total".
QUALIFIERS = frozenset(
    {"subtotal", "sub", "tax", "vat", "gst", "net", "before", "after", "excl", "excluding", "discount",
     "shipping", "delivery", "due", "previous", "deposit", "ship", "birth", "expiry",
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
    thousands = "." if decimal == "," or (not decimal and points) else ","
    whole, _, fraction = digits.partition(decimal) if decimal else (digits, "", "")
    if not fraction.isdigit() and fraction:
        return None
    if thousands in whole and not re.fullmatch(rf"\d{{1,3}}(?:\{thousands}\d{{3}})+", whole):
        return None
    whole = whole.replace(thousands, "")
    return float(f"{whole}.{fraction or 0}") if whole.isdigit() else None


def _three_after(digits: str, separator: str) -> bool:
    before, _, after = digits.partition(separator)
    return len(after) == 3 and 1 <= len(before) <= 3


_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB"}
_CURRENCY_CODE = re.compile(
    r"(?<![A-Za-z])(USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|SGD|HKD)(?![A-Za-z])"
)


def currency_of(texts: Iterable[str]) -> str | None:
    """The ISO code of the currency a document's amounts are in: its codes, else its signs ("$" is
    USD), the most frequent; None when it shows none."""
    codes: dict[str, int] = {}
    signs: dict[str, int] = {}
    for text in texts:
        for code in _CURRENCY_CODE.findall(text):
            codes[code] = codes.get(code, 0) + 1
        for sign, code in _CURRENCY_SIGNS.items():
            if sign in text:
                signs[code] = signs.get(code, 0) + text.count(sign)
    found = codes or signs
    return max(found, key=lambda code: (found[code], code)) if found else None


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


_TICKED = r"\[\s*[xX\u2713\u2714]\s*\]|\(\s*[xX\u2713\u2714\u2022]\s*\)|[\u2612\u2611\u25a0\u2713\u2714]"
_UNTICKED = r"\[\s*\]|\(\s*\)|[\u2610\u25a1]"
_MARK = re.compile(rf"(?P<ticked>{_TICKED})|(?P<unticked>{_UNTICKED})")
_X_PREFIX = re.compile(r"[xX\u2713\u2714]\s+(?=\S)")


def ticked_options(lines: list[str]) -> list[tuple[bool, str]]:
    """The check boxes of some lines, each ticked or not with the text after it: "[X] yes  [ ] no",
    "( ) Basic", "(x) Pro", or option lines of which one starts with an X."""
    text = "\n".join(lines)
    marks = list(_MARK.finditer(text))
    if marks:
        ends = [mark.start() for mark in marks[1:]] + [len(text)]
        return [
            (mark["ticked"] is not None, " ".join(text[mark.end() : end].split()))
            for mark, end in zip(marks, ends, strict=True)
        ]
    crossed = [bool(_X_PREFIX.match(line)) for line in lines]
    if len(lines) >= 2 and sum(crossed) == 1:
        return [
            (ticked, _X_PREFIX.sub("", line, count=1).strip())
            for ticked, line in zip(crossed, lines, strict=True)
        ]
    return []


def crossed(text: str) -> str | None:
    """The text after the lone X or tick a line starts with ("X Send me the newsletter"): a drawn box
    whose tick came out as a letter; None when the line starts otherwise."""
    match = _X_PREFIX.match(text)
    return text[match.end() :] if match else None


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
_MAX_COLUMNS = 12  # of a table printed a cell per line


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
    tables printed without rules: a line per cell, or lines of cells apart by wide spacing)."""
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
    unruled = _flat_tables(lines, blocks) + _spaced_tables(lines, blocks)
    headers = {index for table in unruled for index in _header_lines(table)}
    pairs, bare = _text_pairs(lines, blocks, headers)
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
    cells are joined back (without a space inside a word cut in two). A column empty in all rows but
    a few of four or more (a gap between columns, filled only where text ran across it) is left out.
    """
    width = len(rows[0])
    start = next(
        (n for n, row in enumerate(rows) if sum(map(bool, row)) >= max(2, (width + 1) // 2)), len(rows)
    )
    spilled = [_rejoined(row) for row in rows[:start]]
    body = rows[start:]
    least = 1 if len(body) < 4 else len(body) / 4
    used = [column for column in range(width) if sum(1 for row in body if row[column]) >= least]
    return [text for text in spilled if text], [tuple(row[column] for column in used) for row in body]


def rejoined(row: Iterable[str]) -> str:
    """Cells of text cut at column edges joined back: without a space inside a word cut in two."""
    return _rejoined(tuple(row))


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


def _text_pairs(
    lines: list[Line], blocks: list[tuple[int, ...]], headers: set[int]
) -> tuple[list[Pair], list[int]]:
    """The pairs of the text lines; a table's header is not the label of the line below it."""
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
            if pending and number not in label_blocks and index not in headers:
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
            or any(lines[index].text.endswith(":") for index in values)
            or _heads_rows(lines, blocks, number)
        ):
            continue
        value_blocks.add(number + 1)
        if len(labels) >= 3:
            label_blocks.add(number)
        for label, value in zip(labels, values, strict=True):
            text = lines[label].text.rstrip(":").strip()
            pairs.append(Pair(text, lines[value].text, "column", (label, 0), (value, 0)))
    return pairs + _one_line_columns(lines, blocks), label_blocks


def _heads_rows(lines: list[Line], blocks: list[tuple[int, ...]], number: int) -> bool:
    """Whether the block heads a table printed a block per row, of two rows or more."""
    rows = blocks[number + 1 : number + 3]
    page = lines[blocks[number][0]].page
    return len(rows) == 2 and all(
        len(row) == len(blocks[number])
        and lines[row[0]].page == page
        and all(_is_cell(lines[i].text) for i in row)
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


def _cell_pairs(lines: list[Line], tables: list[Table]) -> list[Pair]:
    """Rows of two filled cells (a key and its value), summary rows, grids of keys and values side by
    side, and rows of keys over rows of their values."""
    pairs: list[Pair] = []
    for table in tables:
        rows = [(index, lines[index].cells or ()) for index in table.lines]
        for index, cells in rows:
            filled = [position for position, cell in enumerate(cells) if cell]
            if len(filled) == 2 or (len(filled) > 2 and is_summary_row(cells[: filled[-1]])):
                at = next(place for place in filled if place == filled[0] or is_summary_row([cells[place]]))
                value_at = filled[-1]
                pairs.append(Pair(cells[at], cells[value_at], "cell", (index, at), (index, value_at)))
        pairs += _side_by_side_keys(rows) + _keys_over_values(rows)
    return pairs


def _side_by_side_keys(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """| Invoice No. | INV-1 | Currency | EUR |: keys in every other column, each before its value."""
    width = len(rows[0][1])
    keyed = (
        width >= 4
        and width % 2 == 0
        and all(not cell or is_label_text(cell) for _, row in rows for cell in row[::2])
    )
    if not keyed or all(is_label_text(cell) for _, row in rows for cell in row[1::2] if cell):
        return []
    return [
        Pair(row[place], row[place + 1], "cell", (index, place), (index, place + 1))
        for index, row in rows
        for place in range(0, width, 2)
        if row[place] and row[place + 1]
    ]


def _keys_over_values(rows: list[tuple[int, tuple[str, ...]]]) -> list[Pair]:
    """A row of keys over a row of their values, not followed by more values (a table's first row)."""

    def keys(row: tuple[str, ...]) -> bool:
        return any(row) and all(not cell or is_label_text(cell) for cell in row)

    pairs: list[Pair] = []
    for number in range(len(rows) - 1):
        (key_line, key_row), (value_line, value_row) = rows[number], rows[number + 1]
        if keys(key_row) and not keys(value_row) and (number + 2 == len(rows) or keys(rows[number + 2][1])):
            pairs += [
                Pair(label, value, "cell", (key_line, place), (value_line, place))
                for place, (label, value) in enumerate(zip(key_row, value_row, strict=True))
                if label and value
            ]
    return pairs


def _header_lines(table: Table) -> range:
    """The lines of an unruled table's header: from its first line to its first row's."""
    return range(table.lines[0], table.lines[1] if len(table.lines) > 1 else table.lines[0] + 1)


def _flat_tables(lines: list[Line], blocks: list[tuple[int, ...]]) -> list[Table]:
    """Tables printed without rules whose cells came out one per line, row after row (in one block, or
    a block per row): a run of header lines, then two rows or more of as many lines, each column numbers
    throughout or text throughout, numbers in one column at least."""
    order = [index for block in blocks for index in block]
    tables: list[Table] = []
    position = 0
    while position < len(order):
        run = 0
        while (
            position + run < len(order)
            and run < _MAX_COLUMNS
            and is_label_text(lines[order[position + run]].text)
        ):
            run += 1
        table = _flat_table(lines, order, position, run) if run >= 2 else None
        if table:
            tables.append(table)
            position = order.index(table.lines[-1]) + len(table.header)
        else:
            position += max(run, 1)
    return tables


def _flat_table(lines: list[Line], order: list[int], position: int, run: int) -> Table | None:
    """The best table whose header lies in the run of label lines at `position`, if any: the one whose
    rows start blocks (when the rows came out a block each), then the one with the most cells."""
    best: Table | None = None
    best_score = (0, 0)
    for start in range(position, position + run - 1):
        for width in range(position + run - start, 1, -1):
            table = _flat_rows(lines, order, start, width)
            if table is None:
                continue
            starts = sum(
                1 for index in table.lines[1:] if index == 0 or lines[index - 1].block != lines[index].block
            )
            score = (starts, len(table.rows) * len(table.header))
            if score > best_score:
                best, best_score = table, score
    return best


def _flat_rows(lines: list[Line], order: list[int], start: int, width: int) -> Table | None:
    page = lines[order[start]].page
    rows: list[tuple[str, ...]] = []
    firsts: list[int] = []
    profile: tuple[bool, ...] | None = None
    at = start + width
    while at + width <= len(order) and all(lines[index].page == page for index in order[at : at + width]):
        cells = tuple(lines[index].text for index in order[at : at + width])
        numbers = tuple(parse_number(cell) is not None for cell in cells)
        if not any(numbers) or not all(map(_is_cell, cells)) or (profile is not None and numbers != profile):
            break
        profile = numbers
        rows.append(cells)
        firsts.append(order[at])
        at += width
    if len(rows) < 2 or profile is None or all(profile) or not any(profile):
        return None
    header = tuple(lines[index].text.rstrip(":").strip() for index in order[start : start + width])
    return Table(header, tuple(rows), (order[start], *firsts), page)


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
        if previous and len(table.header) > len(previous.header):
            table = _narrowed(table, len(previous.header))
        if previous and _continues(previous, table, lines):
            repeated = tuple(map(label_key, table.header)) == tuple(map(label_key, previous.header))
            rows = table.rows if repeated else (table.header, *table.rows)
            more = table.lines[1:] if repeated else table.lines
            joined[-1] = Table(previous.header, previous.rows + rows, previous.lines + more, previous.page)
        else:
            joined.append(table)
    return joined


def _narrowed(table: Table, width: int) -> Table:
    """The table with text columns cut in two at a word put back together, down to `width` columns if
    it can be: a table found by alignment may split a column of text where its words line up, and
    keep a column empty but in a row or two where text below the table ran across it (a column empty
    in three rows of four or more is left out)."""
    rows = [table.header, *table.rows]
    while len(rows[0]) > width:
        column = next((n for n in range(len(rows[0]) - 1) if _split_text(rows, n)), None)
        if column is not None:
            rows = [(*row[:column], _rejoined(row[column : column + 2]), *row[column + 2 :]) for row in rows]
            continue
        column = next((n for n in range(len(rows[0])) if _mostly_empty(rows, n)), None)
        if column is None:
            return table
        rows = [(*row[:column], *row[column + 1 :]) for row in rows]
    return Table(rows[0], tuple(rows[1:]), table.lines, table.page)


def _mostly_empty(rows: list[tuple[str, ...]], column: int) -> bool:
    return len(rows) >= 4 and 4 * sum(1 for row in rows if row[column]) <= len(rows)


def _split_text(rows: list[tuple[str, ...]], column: int) -> bool:
    """Whether a column and the next both hold text, hardly ever a number, the first in every row that
    has either."""
    pair = [(row[column], row[column + 1]) for row in rows if row[column] or row[column + 1]]
    texts = [cell for cells in pair for cell in cells if cell]
    numbers = sum(1 for cell in texts if parse_number(cell) is not None)
    return bool(pair) and all(left for left, _ in pair) and numbers <= len(texts) // 10


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
