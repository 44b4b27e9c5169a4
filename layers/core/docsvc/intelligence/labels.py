"""Label words: the key a label is compared by, and the synonyms of the usual ones.

A label's key is its words lowercased, without accents, in the singular, with abbreviations spelled
out ("No.", "Nr", "Nº" and "#" are "number", "Qty" is "quantity", "PO" is "purchase order"), so that
"Invoice No.", "Invoice #" and `invoice_number` share one key. Groups of synonyms say the same thing
other ways ("Total" is also "Amount due"), and name the labels of parties, titles and summary rows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache

Key = tuple[str, ...]

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
