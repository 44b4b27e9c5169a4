"""Words shared by the built-in classification, splitting and partitioning: tokens normalised for
comparison (case, punctuation, plurals), an index of a text's tokens for phrase look-ups, and a
vocabulary of common business document kinds with the phrases that name them and the cue phrases
typical of their content."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

Phrase = tuple[str, ...]

_WORD = re.compile(r"[^\W_]+")
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_QUOTED = re.compile(r""""([^"]+)"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)""")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """`word` lower-cased with a plural ending removed: "Invoices" -> "invoice", "parties" -> "party"."""
    word = word.lower()
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _stems(listing: str) -> frozenset[str]:
    return frozenset(stem(word) for word in listing.split())


STOP_WORDS = _stems(
    "a an and are as at be been by can do does e eg etc for from g has have i ie in into is it its may "
    "might must of on one or our should so such than that the their them then there these they this "
    "those to typically usually often was we were what when where which while who will with would you "
    "your any all each other usual like document documents page pages file files contain contains "
    "containing include includes including mention mentions mentioning show shows showing list lists "
    "listing kind type sort something anything about also"
)
# Words found on most business documents: evidence, but weak evidence.
GENERIC_WORDS = _stems(
    "date number name amount total price address phone email company customer item description "
    "quantity qty value reference ref no id"
)
NEGATIONS = _stems("not unlike except excluding without never nor")


class Token(NamedTuple):
    stem: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """The words and numbers of `text`, stemmed, with where each stands in `text`."""
    return [Token(stem(match.group()), match.start(), match.end()) for match in _WORD.finditer(text)]


def phrase(text: str) -> Phrase:
    """`text` as a phrase to look for; underscores, hyphens and camel case separate words."""
    return tuple(token.stem for token in tokenize(uncamel(text)))


def uncamel(text: str) -> str:
    """`text` with camel-case words apart: "InvoiceNo" -> "Invoice No"."""
    return _CAMEL_HUMP.sub(" ", text)


def quoted(text: str, affirmed_only: bool = False) -> list[str]:
    """The phrases `text` quotes, in "double", “curly” or 'single' quotes; with `affirmed_only`, not
    those right after a negation ('not an "invoice"')."""
    found: list[str] = []
    for match in _QUOTED.finditer(text):
        before = phrase(text[max(0, match.start() - 40) : match.start()])[-2:]
        if not (affirmed_only and any(word in NEGATIONS for word in before)):
            found.append(next(group for group in match.groups() if group))
    return found


def unquoted(text: str) -> str:
    """`text` without the phrases it quotes."""
    return _QUOTED.sub(" ", text)


@dataclass(frozen=True)
class IndexedText:
    """A text with its tokens indexed, so a phrase is found in time proportional to its occurrences."""

    text: str
    tokens: list[Token]
    stems: tuple[str, ...] = field(repr=False)
    positions: dict[str, list[int]] = field(repr=False)

    @classmethod
    def of(cls, text: str) -> IndexedText:
        tokens = tokenize(text)
        positions: dict[str, list[int]] = {}
        for index, token in enumerate(tokens):
            positions.setdefault(token.stem, []).append(index)
        return cls(text, tokens, tuple(token.stem for token in tokens), positions)

    def occurrences(self, words: Phrase) -> list[int]:
        """The token indexes where `words` starts."""
        if not words:
            return []
        size = len(words)
        return [
            index for index in self.positions.get(words[0], []) if self.stems[index : index + size] == words
        ]

    def surface(self, index: int, size: int) -> str:
        """The original text of the `size` tokens starting at token `index`."""
        return self.text[self.tokens[index].start : self.tokens[index + size - 1].end]


def find_phrases(words: Phrase, candidates: Iterable[Phrase]) -> list[tuple[int, Phrase]]:
    """(position, candidate) for each candidate found in `words`, leaving out any candidate that
    only occurs inside a longer one found at an overlapping position."""
    found: list[tuple[int, Phrase]] = []
    for candidate in candidates:
        size = len(candidate)
        found.extend(
            (start, candidate)
            for start in range(len(words) - size + 1)
            if size and words[start : start + size] == candidate
        )
    return [
        (start, candidate)
        for start, candidate in found
        if not any(
            len(other) > len(candidate)
            and other_start <= start
            and start + len(candidate) <= other_start + len(other)
            for other_start, other in found
        )
    ]


@dataclass(frozen=True)
class DocumentKind:
    """A common kind of business document: phrases naming it, and cue phrases typical of its content."""

    name: str
    aliases: tuple[Phrase, ...]
    cues: tuple[Phrase, ...]


def _kind(name: str, aliases: str, cues: str) -> DocumentKind:
    return DocumentKind(name, _phrases(aliases), _phrases(cues))


def _phrases(listing: str) -> tuple[Phrase, ...]:
    return tuple(phrase(item) for item in listing.split(",") if item.strip())


KINDS: tuple[DocumentKind, ...] = (
    _kind(
        "invoice",
        "invoice, tax invoice, commercial invoice, sales invoice, vendor bill, utility bill",
        "invoice number, invoice no, invoice date, bill to, billed to, sold to, amount due, total due, "
        "balance due, due date, payment due, payment terms, remit to, please pay, payable, net 30, vat, "
        "subtotal, tax",
    ),
    _kind(
        "receipt",
        "receipt, sales receipt, payment receipt, cash receipt, till receipt",
        "thank you for your purchase, thank you for shopping, thanks for shopping, cash, change, cashier, "
        "card, visa, mastercard, amex, paid, amount paid, payment received, tendered, transaction, "
        "terminal, register, till, store, auth code, approval code, return policy, receipt number, subtotal, "
        "tax, vat, come again, please come again, proof of purchase",
    ),
    _kind(
        "purchase order",
        "purchase order, po, p o",
        "po number, po no, purchase order number, order date, ship to, vendor, supplier, deliver by, "
        "delivery date, requested by, authorized by, authorised by, approved by, buyer, requisition, "
        "shipping method, order total",
    ),
    _kind(
        "quote",
        "quote, quotation, estimate, price quote, proposal",
        "quote number, quotation number, estimate number, valid until, valid for, validity, expiry date, "
        "expires, prepared for, prepared by, acceptance, accept this quote, estimated",
    ),
    _kind(
        "bank statement",
        "bank statement, account statement, statement of account, statement",
        "statement period, opening balance, closing balance, balance brought forward, balance carried "
        "forward, previous balance, new balance, deposit, withdrawal, debit, sort code, iban, bic, swift, "
        "account number, account holder, available balance, interest, direct debit, standing order, "
        "transfer, atm, balance",
    ),
    _kind(
        "payslip",
        "payslip, pay slip, pay stub, paystub, salary slip, wage slip, earnings statement, pay statement",
        "gross pay, net pay, earnings, deductions, pay period, pay date, employee, employee id, employee "
        "number, employer, year to date, ytd, national insurance, income tax, paye, tax code, hourly rate, "
        "hours worked, overtime, basic salary, pension, salary",
    ),
    _kind(
        "contract",
        "contract, agreement, service agreement, lease, non disclosure agreement, nda",
        "party, hereby, whereas, hereinafter, shall, termination, governing law, jurisdiction, "
        "obligations, liability, indemnify, confidentiality, effective date, in witness whereof, breach, "
        "entire agreement, clause, signed by",
    ),
    _kind(
        "form",
        "form, application, application form, registration form, enrollment form, questionnaire",
        "please complete, please print, applicant, full name, first name, last name, surname, date of "
        "birth, signature, phone, email, address, checkbox, tick, for office use only, i declare, "
        "declaration, i certify",
    ),
    _kind(
        "letter",
        "letter, cover letter, correspondence",
        "dear, sincerely, yours sincerely, yours faithfully, kind regards, best regards, regards, "
        "to whom it may concern, i am writing, we are writing, please find enclosed, enclosure",
    ),
    _kind(
        "delivery note",
        "delivery note, packing slip, packing list, delivery receipt, dispatch note, shipping note, "
        "bill of lading, goods received note",
        "shipped, ship to, deliver to, delivery address, tracking number, carrier, received by, received "
        "in good condition, quantity shipped, qty shipped, quantity ordered, backordered, back order, "
        "consignee, shipment, dispatch date, delivery date, package",
    ),
    _kind(
        "credit note",
        "credit note, credit memo, credit memorandum",
        "credit amount, amount credited, credited, refund, original invoice, returned, credit total, "
        "adjustment, reason for credit",
    ),
    _kind(
        "tax form",
        "tax form, tax return, w 2, w 9, 1099, 1040, p60, p45, self assessment",
        "tax year, taxpayer, taxpayer identification number, tin, ssn, social security number, irs, "
        "internal revenue service, hmrc, federal income tax withheld, wages tips, employer identification "
        "number, ein, filing status, adjusted gross income, taxable income, department of the treasury",
    ),
)
ALIASES: dict[Phrase, DocumentKind] = {alias: kind for kind in KINDS for alias in kind.aliases}


def kinds_named(words: Phrase) -> list[DocumentKind]:
    """The document kinds `words` names, in the order they are named (longest alias wins)."""
    found = sorted(find_phrases(words, ALIASES))
    kinds: list[DocumentKind] = []
    for _, alias in found:
        if ALIASES[alias] not in kinds:
            kinds.append(ALIASES[alias])
    return kinds


def content_words(words: Sequence[str]) -> list[str]:
    """`words` without stop words."""
    return [word for word in words if word not in STOP_WORDS]
