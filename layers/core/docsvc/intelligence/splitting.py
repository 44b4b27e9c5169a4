"""Built-in splitting: a packet of pages cut into subdocuments.

Each page is scored against every subdocument as in classification. Pages are then read in order and
each either continues the current instance or starts a new one, the first signal that applies deciding:
- an empty page, or one marked "(continued)", or after "continued on next page": continues;
- a page marker: "Page 1" (of N) starts, any later page continues (markers numbering the whole packet
  are ignored);
- a document number ("Invoice No. 7") differing from the instance's starts; the same number continues,
  unless the page's own evidence clearly points to another subdocument; a title line near the top giving
  a document number ("RECEIPT 5713", also in a table cell) starts unless the instance has that number;
- after a page that closed its document (a total line, then a closing such as "Thank you"): starts;
- a labelled header date differing from the instance's starts;
- a title line naming a document kind or a subdocument ("INVOICE", "Bank statement") starts;
- a page opening with a table continues;
- otherwise a page starts a new instance when its own evidence clearly points to another subdocument.
Each instance takes the subdocument its pages score best for, its first page weighing most; one without
any evidence goes to a catch-all subdocument ("other") if there is one, else joins its neighbour. The
instances of a subdocument that does not allow multiple instances are grouped into one split."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from docsvc.intelligence.classification import (
    HEADING_LINES,
    HEADING_WORDS,
    SHORT_LINE,
    Profile,
    build_profiles,
    read_page,
    score,
)
from docsvc.intelligence.partitioning import document_numbers, titled_number
from docsvc.intelligence.vocabulary import ALIASES, Phrase, phrase

DECISIVE_POINTS = 1.5
DECISIVE_RATIO = 1.3
FIRST_PAGE_WEIGHT = 1.5
MARKER_LINE_WORDS = 8
HEADER_LINES = 8
TITLE_NUMBER_LINES = 12  # lines (table rows) at the top of a page where a title line gives a number
TOTAL_LINE_WORDS = 6
# Words that, right after a document kind, make a line a label rather than a title ("Invoice date").
LABEL_FOLLOWERS = frozenset(phrase("number no num nr id date period total amount to from"))

_PAGE_MARKER = re.compile(r"(?<![^\W_])page\s+(\d{1,4})(?:\s*(?:of|/)\s*(\d{1,4}))?(?![^\W_])", re.IGNORECASE)
_CONTINUED = re.compile(
    r"\(\s*continued\s*\)|\bcontinued\s+from\b|\bcont(?:'|\u2019)d\b|\(\s*cont\.?\s*\)", re.I
)
_CONTINUES = re.compile(
    r"\bcontinued\s+(?:on\s+(?:the\s+)?next\s+page|overleaf)\b|\bplease\s+turn\s+over\b", re.I
)
_DATE = (
    r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}"  # 12/03/2026, 2026-03-12
    r"|\d{1,2}\s+[A-Za-z]{3,9}\.?,?\s+\d{4}"  # 12 March 2026
    r"|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}"  # March 12, 2026
)
_HEADER_DATE = re.compile(rf"\b(?:date|dated|issued)\b[^\S\n]*[:\-]?[^\S\n]*({_DATE})", re.IGNORECASE)
# A line giving a document's total ("TOTAL $5.50", "Grand total", "Amount due"), not a subtotal or a
# total carried to the next page.
_TOTAL_LINE = re.compile(
    r"^(?:(?:grand|order|invoice|receipt)\s+)?total(?![^\W_])(?!.*\b(?:carried|brought|forward|c/f|b/f)\b)"
    r"|^(?:amount|balance|total)\s+(?:due|paid|payable)\b",
    re.IGNORECASE,
)
# A closing line of a document handed to a customer.
_CLOSING = re.compile(
    r"\bthank\s+you\b|\bthanks\s+for\b|\bcome\s+again\b|\bvisit\s+again\b|\bhave\s+a\s+nice\s+day\b",
    re.IGNORECASE,
)
_TABLE_RULE = re.compile(r":?-+:?")
_AMOUNT = re.compile(r"(?:[A-Z]{3}|[^\w\s]{1,3})?\s*-?\d[\d.,' ]*(?:\s*(?:[A-Z]{3}|[^\w\s]{1,3}))?")


@dataclass(frozen=True)
class Subdocument:
    name: str
    description: str = ""
    allow_multiple_instances: bool = False


@dataclass(frozen=True)
class Split:
    name: str
    pages: list[int]


@dataclass(frozen=True)
class PageSignals:
    """What one page says about where it belongs."""

    scores: tuple[float, ...]  # per subdocument, from the page alone
    empty: bool
    continued: bool  # marked as the continuation of the page before
    continues: bool  # announces that the next page continues it
    marker: int | None  # n of "Page n (of N)"
    numbers: dict[str, str]
    title_numbers: dict[str, str]  # numbers of title lines ("RECEIPT 5713") at the top of the page
    date: str | None
    titled: bool
    opens_with_table: bool
    closes: bool  # ends with its document's total and a closing line


@dataclass
class Instance:
    """Pages (0-based) read so far as one instance, with what identifies it."""

    pages: list[int]
    scores: list[float]
    numbers: dict[str, str] = field(default_factory=dict)
    date: str | None = None


def split(
    pages: Sequence[str], subdocuments: Sequence[Subdocument], instructions: str | None = None
) -> list[Split]:
    """The pages of a packet as subdocument instances, in page order; each page in exactly one split."""
    if not subdocuments:
        raise ValueError("splitting needs at least one subdocument")
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments], instructions)
    titles = [*ALIASES, *(phrase(sub.name) for sub in subdocuments)]
    signals = _without_packet_numbering(
        [read_signals(text if isinstance(text, str) else "", profiles, titles) for text in pages]
    )
    instances = _without_empty(cut(signals, [profile.baseline for profile in profiles]))
    return assemble([(_best(instance.scores), instance.pages) for instance in instances], subdocuments)


def read_signals(text: str, profiles: Sequence[Profile], titles: Sequence[Phrase]) -> PageSignals:
    page = read_page(text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    top = [line for line in lines if not line.startswith("|")][:HEADER_LINES]
    edges = lines[:3] + lines[-3:]
    rows = [row for row in map(cells, lines) if row]
    return PageSignals(
        scores=tuple(score(profile, [page], [1.0]).points for profile in profiles),
        empty=not page.body.tokens,
        continued=any(_CONTINUED.search(line) for line in edges),
        continues=any(_CONTINUES.search(line) for line in edges),
        marker=page_marker(lines),
        numbers=document_numbers(text),
        title_numbers=title_numbers(rows[:TITLE_NUMBER_LINES]),
        date=_header_date(top + [cell for row in rows[:HEADER_LINES] for cell in row]),
        titled=is_titled(top[:HEADING_LINES], titles),
        opens_with_table=bool(lines) and lines[0].startswith("|"),
        closes=closes_document([" ".join(row) for row in rows]),
    )


def cells(line: str) -> list[str]:
    """The non-empty cells of a table row ("| a | b |"), none of a rule row; any other line as one cell."""
    if not line.startswith("|"):
        return [line]
    found = [cell.strip() for cell in line.strip("|").split("|")]
    if all(_TABLE_RULE.fullmatch(cell) for cell in found if cell):
        return []
    return [cell for cell in found if cell]


def title_numbers(rows: Sequence[Sequence[str]]) -> dict[str, str]:
    """The numbers given by title lines or cells ("RECEIPT 5713", "Invoice INV-7"), by document kind."""
    numbers: dict[str, str] = {}
    for row in rows:
        for cell in row:
            found = titled_number(cell)
            if found:
                numbers.setdefault(*found)
    return numbers


def closes_document(lines: Sequence[str]) -> bool:
    """Whether the lines end a document: a total line, and after it a closing line ("Thank you")."""
    totals = [at for at, line in enumerate(lines) if is_total_line(line, lines[at + 1 : at + 2])]
    return bool(totals) and any(_CLOSING.search(line) for line in lines[totals[-1] + 1 :])


def is_total_line(line: str, following: Sequence[str]) -> bool:
    """Whether a short line gives a document's total with its amount, on the line or on the line
    `following` it ("TOTAL $5.50", "Amount due" then "12.00"); not a column header "Total"."""
    if not _TOTAL_LINE.match(line) or len(phrase(line)) > TOTAL_LINE_WORDS:
        return False
    return any(character.isdigit() for character in line) or any(map(_AMOUNT.fullmatch, following))


def page_marker(lines: Sequence[str]) -> int | None:
    """n of the first short line reading "Page n" or "Page n of N"."""
    for line in lines:
        match = _PAGE_MARKER.search(line) if len(line) <= SHORT_LINE else None
        if match and len(phrase(line)) <= MARKER_LINE_WORDS:
            return int(match.group(1))
    return None


def is_titled(lines: Sequence[str], titles: Sequence[Phrase]) -> bool:
    """Whether a short line, not a label ("Invoice date: ..."), opens or ends with a document kind or
    subdocument name ("Tax invoice", "RECEIPT #12", "Membership application form")."""
    for line in lines:
        if ":" in line or len(line) > SHORT_LINE:
            continue
        words = phrase(line)
        if len(words) <= HEADING_WORDS and any(_titles(words, title) for title in titles):
            return True
    return False


def _titles(words: Phrase, title: Phrase) -> bool:
    size = len(title)
    if not size:
        return False
    opens = words[:size] == title and (len(words) == size or words[size] not in LABEL_FOLLOWERS)
    return opens or words[-size:] == title


def _header_date(lines: Sequence[str]) -> str | None:
    for line in lines:
        match = _HEADER_DATE.search(line)
        if match:
            return " ".join(match.group(1).lower().split())
    return None


def _without_packet_numbering(signals: list[PageSignals]) -> list[PageSignals]:
    """The signals without page markers when these number the whole packet (1, 2, 3, ...), as a
    scanner stamps them: they say nothing of where documents start."""
    if len(signals) < 3 or any(page.marker != number for number, page in enumerate(signals, start=1)):
        return signals
    return [replace(page, marker=None) for page in signals]


# --------------------------------------------------------------------------------------- boundaries
def cut(signals: Sequence[PageSignals], baselines: Sequence[float]) -> list[Instance]:
    """The pages in instances, a new one wherever a page starts a document. An instance's scores start
    from the subdocuments' baselines (a catch-all's points without evidence)."""
    instances: list[Instance] = []
    for index, page in enumerate(signals):
        previous = signals[index - 1] if index else None
        if instances and not starts_instance(page, instances[-1], previous):
            _extend(instances[-1], index, page)
        else:
            opening = [
                base + points * FIRST_PAGE_WEIGHT for base, points in zip(baselines, page.scores, strict=True)
            ]
            instances.append(Instance([index], opening, {**page.title_numbers, **page.numbers}, page.date))
    return instances


def starts_instance(page: PageSignals, instance: Instance, previous: PageSignals | None) -> bool:
    """Whether `page` starts a new instance rather than continuing `instance`."""
    if page.empty or page.continued or (previous is not None and previous.continues):
        return False
    if page.marker is not None:
        return page.marker == 1
    shared = [head for head in page.numbers if head in instance.numbers]
    if any(page.numbers[head] != instance.numbers[head] for head in shared):
        return True
    if shared:
        return _points_elsewhere(page, instance)
    if any(instance.numbers.get(head) != value for head, value in page.title_numbers.items()):
        return True
    if previous is not None and previous.closes:
        return True
    if page.date and instance.date and page.date != instance.date:
        return True
    if page.titled:
        return True
    return not page.opens_with_table and _points_elsewhere(page, instance)


def _points_elsewhere(page: PageSignals, instance: Instance) -> bool:
    """Whether the page's own evidence clearly names a subdocument other than the instance's."""
    own = decisive(page.scores)
    return own is not None and own != _best(instance.scores)


def decisive(scores: Sequence[float]) -> int | None:
    """The subdocument the scores clearly point to, if any."""
    if not scores:
        return None
    ranked = sorted(range(len(scores)), key=lambda index: (-scores[index], index))
    best = scores[ranked[0]]
    runner_up = scores[ranked[1]] if len(ranked) > 1 else 0.0
    return ranked[0] if best >= DECISIVE_POINTS and best >= DECISIVE_RATIO * runner_up else None


def _extend(instance: Instance, index: int, page: PageSignals) -> None:
    instance.pages.append(index)
    instance.scores = [total + points for total, points in zip(instance.scores, page.scores, strict=True)]
    for head, value in {**page.title_numbers, **page.numbers}.items():
        instance.numbers.setdefault(head, value)
    instance.date = instance.date or page.date


def _without_empty(instances: list[Instance]) -> list[Instance]:
    """The instances, each one without any evidence joined to the one before it (or after, at the start)."""
    kept: list[Instance] = []
    waiting: list[int] = []
    for instance in instances:
        if max(instance.scores) <= 0 and (kept or instance is not instances[-1]):
            if kept:
                kept[-1].pages.extend(instance.pages)
            else:
                waiting.extend(instance.pages)
            continue
        instance.pages[:0] = waiting
        waiting = []
        kept.append(instance)
    return kept


# --------------------------------------------------------------------------------------------- result
def _best(scores: Sequence[float]) -> int:
    return min(range(len(scores)), key=lambda index: (-scores[index], index))


def assemble(labelled: Sequence[tuple[int, list[int]]], subdocuments: Sequence[Subdocument]) -> list[Split]:
    """Splits in page order; the instances of a subdocument allowed only once are grouped."""
    splits: list[Split] = []
    single: dict[int, Split] = {}
    for which, indexes in labelled:
        numbers = [index + 1 for index in indexes]
        subdocument = subdocuments[which]
        if which in single:
            single[which].pages.extend(numbers)
            single[which].pages.sort()
            continue
        splits.append(Split(subdocument.name, numbers))
        if not subdocument.allow_multiple_instances:
            single[which] = splits[-1]
    return splits
