"""Receipts: what a till roll prints in its own way, read as the rest of the model reads a document.

A receipt photographed and read by OCR keeps few of the marks an invoice's labels rely on: its words
stand far apart (a label's words in columns of their own, "Total    Due:    44.35"), OCR slips on a
label's last letter ("Tota]", "TOTL") and on a decimal mark ("77. 83", "85 07"), and its dates are numeric in
the order of the country it was printed in. So:
- the total is read from the line a total label opens (or ends, after a time: "10:51AM TOTAL DUE
  48.53"), its words taken however wide apart, its amount at the end of the line or alone on the line
  under it; a subtotal, a tax or a count of items is not it, and of several the largest is (a total
  with the tip after the total of the food);
- an American document (a US state and ZIP code: "Long Beach, CA 90804") prints its dates month
  first (05/11/18 is 11 May 2018).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from docsvc.intelligence.candidates import Candidate, Slot, candidate_of
from docsvc.intelligence.reading import Reading

TOTAL_LINE = 0.6  # a total read so is less likely than one a label names in the usual way
_STATES = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC "
    "ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY"
)
# A US state and its ZIP code, as an address's last line prints them: "Miami, FL 33176", "CA. 90280".
_US_PLACE = re.compile(rf"(?<![A-Za-z])(?:{'|'.join(_STATES.split())})\.?,?\s+\d{{5}}(?:-\d{{4}})?(?!\d)")
# A total's label, OCR's slips on its last letter read too ("Tota]", "TOTL", "Tota!").
_TOTAL = re.compile(
    r"(?i)(?<![\w-])(?:grand\s+|order\s+)?(?:[tf]otal|tota[l1i\]|!:)]|totl|balance\s+due|amount\s+due)"
    r"(?:\s+due|\s+amount)?(?![\w-])"
)
# Words before or after a total's label that make it another amount.
_NOT_TOTAL = re.compile(
    r"(?i)(?<![a-z])(?:sub|tax|taxes|taxable|net|items?|qty|savings?|saved|discounts?|tips?|gratuity|"
    r"points|count|tender|before)(?![a-z])"
)
# An amount ending a line, OCR's space beside a decimal mark let through ("77.83", "$77. 83", "77 ,83"),
# or read as a space ("85 07"), a few letters of OCR's noise after it ("26.37 "ies").
_AMOUNT_AT_END = re.compile(
    r"(?<![\d.,])\$?\s?(\d{1,3}(?:,\d{3})*|\d{1,6})(?:\s?[.,]\s?|\s)(\d{2})\s*(?:[^\w\s]*[^\d\s]{0,4})\s*$"
)
_LONE_AMOUNT = re.compile(r"^\s*\$?\s?(\d{1,3}(?:,\d{3})*|\d{1,6})\s?[.,]\s?(\d{2})\s*$")


def prints_month_first(texts: Iterable[str]) -> bool:
    """Whether the document reads as American, so that its numeric dates are month first: it prints
    a US state and ZIP code."""
    return any(_US_PLACE.search(text) for text in texts)


def receipt_totals(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The total a receipt prints after a total label, however far apart OCR set its words: the
    largest of the amounts so labelled (see the module)."""
    lines = reading.layout.lines
    found: list[tuple[float, Candidate]] = []
    for index, line in enumerate(lines):
        text = " ".join(line.text.split())
        label = _TOTAL.search(text)
        if label is None or _NOT_TOTAL.search(text[: label.start()][-12:] + " " + _after(text, label.end())):
            continue
        amount, at = _AMOUNT_AT_END.search(text[label.end() :]), index
        if amount is None and not text[label.end() :].strip(" :|.") and index + 1 < len(lines):
            amount, at = _LONE_AMOUNT.match(lines[index + 1].text), index + 1
        if amount is None:
            continue
        value = f"{amount[1].replace(',', '')}.{amount[2]}"
        candidate = candidate_of(slot, value, TOTAL_LINE, (index, 0), frozenset({(index, -7), (at, -8)}), reading)
        if candidate is not None and isinstance(candidate.value, int | float):
            found.append((float(candidate.value), candidate))
    if found:
        yield max(found, key=lambda item: item[0])[1]


def _after(text: str, end: int) -> str:
    """The words between a label and its amount."""
    rest = text[end:]
    amount = _AMOUNT_AT_END.search(rest)
    return rest[: amount.start()] if amount else rest
