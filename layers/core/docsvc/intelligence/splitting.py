"""Built-in splitting: a packet of pages cut into subdocuments.

Each page is scored against every subdocument as in classification. Pages are then read in order and
each either continues the current instance or starts a new one, the first signal that applies deciding:
- an empty page, or one marked "(continued)", or after "continued on next page": continues;
- a page marker: "Page 1" (of N), "Seite 1 von 2", "Page 1 / 1", "Strona 1 z 2" (also laid out as
  "Seite von" over its numbers) starts, any later page continues (markers numbering the whole packet
  are ignored);
- after a page marked as the last of its document ("Page 2 of 2"): starts;
- a document number ("Invoice No. 7") differing from the instance's starts; the same number continues,
  unless the page's own evidence clearly points to another subdocument; a title line near the top giving
  a document number ("RECEIPT 5713", also in a table cell) starts unless the instance has that number;
- after a page that closed its document (a total line, then a closing such as "Thank you"): starts;
- a labelled header date differing from the instance's starts;
- a title line naming a document kind or a subdocument ("INVOICE", "Bank statement") starts;
- the same running header or footer as the page before (a journal's name, a form's title and
  revision, digits aside) continues;
- a page opening with a table continues;
- a page whose own evidence clearly points to another subdocument starts, unless it shares its
  vocabulary with the page before (the pages of one document keep to one topic: a paper's page
  about finances is still the paper's);
- a page leaning to another subdocument and sharing little vocabulary with the page before starts;
- a page sharing almost no word with the page before (both with words enough to tell) starts: one
  document ends and another on another topic begins;
- otherwise a page continues.
Each instance takes the subdocument its pages score best for, its first page weighing most; one without
any evidence goes to a catch-all subdocument ("other") if there is one, else joins its neighbour. The
instances of a subdocument that does not allow multiple instances are grouped into one split.

Each signal has a likelihood (a restarting page number is surer than a page that merely reads as
another kind of document); a split is as sure as the boundaries opening and closing it and the least
sure reading that kept a page in it."""

from __future__ import annotations

import math
import re
from collections import Counter
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
    with_claims,
)
from docsvc.intelligence.partitioning import document_numbers, titled_number
from docsvc.intelligence.vocabulary import ALIASES, STOP_WORDS, Phrase, phrase, tokenize

DECISIVE_POINTS = 1.5
DECISIVE_RATIO = 1.3
FIRST_PAGE_WEIGHT = 1.5
JOINED_LIKELIHOOD = 0.6  # a page without evidence joined to the instance before it
MARKER_LINE_WORDS = 8
HEADER_LINES = 8
TITLE_NUMBER_LINES = 12  # lines (table rows) at the top of a page where a title line gives a number
TOTAL_LINE_WORDS = 6
EDGE_LINES = 3  # lines at the top and at the bottom of a page where running headers and footers are
RUNNING_LINES = 2  # edge lines shared with the page before that make a running header or footer
COHESIVE = 0.08  # the pages of one document share at least this much vocabulary (cosine of word counts)
UNRELATED = 0.07  # two pages sharing less than this are of two documents
TOPIC_WORDS = 60  # content words a page needs for its vocabulary to say anything
# Words that, right after a document kind, make a line a label rather than a title ("Invoice date").
LABEL_FOLLOWERS = frozenset(phrase("number no num nr id date period total amount to from"))

# "Page n", "Page n of N", "Page n/N" in English, German, French, Dutch, Spanish, Italian, Portuguese and
# Polish ("Seite 1 von 2", "Page 1 sur 2", "Pagina 1 di 2", "Página 1 de 2", "Strona 1 z 2").
_PAGE_WORD = r"(?:page|pages|seite|blatt|pagina|página|pag|pág|blad|strona)\.?"
_OF_WORD = r"(?:of|von|sur|van|de|di|da|z|/)"
_PAGE_MARKER = re.compile(
    rf"(?<![^\W_]){_PAGE_WORD}\s*(\d{{1,4}})(?:\s*{_OF_WORD}\s*(\d{{1,4}}))?(?![^\W_])", re.IGNORECASE
)
# A marker laid out as a label and its numbers on the lines below ("Seite von" / "1" / "4").
_MARKER_LABEL = re.compile(rf"^{_PAGE_WORD}(?:\s+{_OF_WORD})?$", re.IGNORECASE)
_MARKER_NUMBER = re.compile(r"^\d{1,4}$")
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
_DIGITS = re.compile(r"\d+")
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
    likelihood: float = 1.0  # how sure the boundaries around its pages are (0 to 1)


@dataclass(frozen=True)
class PageSignals:
    """What one page says about where it belongs."""

    scores: tuple[float, ...]  # per subdocument, from the page alone
    empty: bool
    continued: bool  # marked as the continuation of the page before
    continues: bool  # announces that the next page continues it
    marker: int | None  # n of "Page n (of N)"
    of: int | None  # N of "Page n of N"
    numbers: dict[str, str]
    title_numbers: dict[str, str]  # numbers of title lines ("RECEIPT 5713") at the top of the page
    date: str | None
    titled: bool
    opens_with_table: bool
    closes: bool  # ends with its document's total and a closing line
    words: Counter[str] = field(default_factory=Counter)  # its content words, counted
    edges: frozenset[str] = frozenset()  # its first and last lines, digits aside


@dataclass
class Instance:
    """Pages (0-based) read so far as one instance, with what identifies it."""

    pages: list[int]
    scores: list[float]
    numbers: dict[str, str] = field(default_factory=dict)
    date: str | None = None
    likelihood: float = 1.0  # how sure its boundary and the pages kept in it are


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
    ends = [following.likelihood for following in instances[1:]] + [1.0] * bool(instances)
    return assemble(
        [
            (_best(instance.scores), instance.pages, min(instance.likelihood, end))
            for instance, end in zip(instances, ends, strict=True)
        ],
        subdocuments,
    )


def read_signals(text: str, profiles: Sequence[Profile], titles: Sequence[Phrase]) -> PageSignals:
    page = with_claims(read_page(text), profiles)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    top = [line for line in lines if not line.startswith("|")][:HEADER_LINES]
    edges = lines[:3] + lines[-3:]
    rows = [row for row in map(cells, lines) if row]
    marker = page_marker(lines)
    return PageSignals(
        scores=tuple(score(profile, [page], [1.0]).points for profile in profiles),
        empty=not page.body.tokens,
        continued=any(_CONTINUED.search(line) for line in edges),
        continues=any(_CONTINUES.search(line) for line in edges),
        marker=marker[0] if marker else None,
        of=marker[1] if marker else None,
        numbers=document_numbers(text),
        title_numbers=title_numbers(rows[:TITLE_NUMBER_LINES]),
        date=_header_date(top + [cell for row in rows[:HEADER_LINES] for cell in row]),
        titled=is_titled(top[:HEADING_LINES], titles),
        opens_with_table=bool(lines) and lines[0].startswith("|"),
        closes=closes_document([" ".join(row) for row in rows]),
        words=content_words(text),
        edges=edge_lines(lines),
    )


def content_words(text: str) -> Counter[str]:
    """The words of a page that carry its topic: neither stop words, numbers nor words of two letters."""
    return Counter(
        token.stem
        for token in tokenize(text)
        if len(token.stem) > 2 and token.stem not in STOP_WORDS and not token.stem.isdigit()
    )


def edge_lines(lines: Sequence[str]) -> frozenset[str]:
    """The first and last lines of a page outside tables, of two words or more, with digits and case
    aside: where a running header or footer ("Tobacco Control 2004;13:4", "Form I-140 Page 2 of 8") is."""
    text = [line for line in lines if not line.startswith("|")]
    edges = text[:EDGE_LINES] + text[-EDGE_LINES:]
    shapes = (" ".join(_DIGITS.sub("#", line.lower()).split()) for line in edges)
    return frozenset(shape for shape in shapes if len(phrase(shape)) >= 2)


def cohesion(first: PageSignals, second: PageSignals) -> float | None:
    """How much vocabulary two pages share (the cosine of their word counts), None when either has too
    few words to tell."""
    if sum(first.words.values()) < TOPIC_WORDS or sum(second.words.values()) < TOPIC_WORDS:
        return None
    shared = sum(count * second.words[word] for word, count in first.words.items() if word in second.words)
    norms = math.sqrt(sum(v * v for v in first.words.values()) * sum(v * v for v in second.words.values()))
    return shared / norms


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


def page_marker(lines: Sequence[str]) -> tuple[int, int | None] | None:
    """(n, N) of the first short line reading "Page n", "Page n of N", "Seite n von N", "Page n / N" (N
    None when not given), or of a label "Seite von" with n and N on the two lines below it."""
    for at, line in enumerate(lines):
        if len(line) > SHORT_LINE or len(phrase(line)) > MARKER_LINE_WORDS:
            continue
        match = _PAGE_MARKER.search(line)
        if match:
            number, of = int(match.group(1)), match.group(2)
            return number, int(of) if of else None
        below = lines[at + 1 : at + 3]
        if _MARKER_LABEL.match(line) and below and all(map(_MARKER_NUMBER.match, below)):
            return int(below[0]), int(below[1]) if len(below) > 1 else None
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
    return [replace(page, marker=None, of=None) for page in signals]


# --------------------------------------------------------------------------------------- boundaries
@dataclass(frozen=True)
class Boundary:
    """Whether a page starts a new instance, how sure that reading is (0 to 1), and why."""

    starts: bool
    likelihood: float
    reason: str


def cut(signals: Sequence[PageSignals], baselines: Sequence[float]) -> list[Instance]:
    """The pages in instances, a new one wherever a page starts a document. An instance's scores start
    from the subdocuments' baselines (a catch-all's points without evidence); its likelihood is that of
    the boundary opening it and of the least sure page kept in it."""
    instances: list[Instance] = []
    for index, page in enumerate(signals):
        previous = signals[index - 1] if index else None
        found = boundary(page, instances[-1], previous) if instances else Boundary(True, 1.0, "first page")
        if not found.starts:
            _extend(instances[-1], index, page)
            instances[-1].likelihood = min(instances[-1].likelihood, found.likelihood)
        else:
            opening = [
                base + points * FIRST_PAGE_WEIGHT for base, points in zip(baselines, page.scores, strict=True)
            ]
            numbers = {**page.title_numbers, **page.numbers}
            instances.append(Instance([index], opening, numbers, page.date, found.likelihood))
    return instances


def starts_instance(page: PageSignals, instance: Instance, previous: PageSignals | None) -> bool:
    """Whether `page` starts a new instance rather than continuing `instance`."""
    return boundary(page, instance, previous).starts


def boundary(page: PageSignals, instance: Instance, previous: PageSignals | None) -> Boundary:
    """Whether `page` starts a new instance rather than continuing `instance`, the first signal that
    applies deciding, with how sure that signal is."""
    if page.empty:
        return Boundary(False, 0.8, "empty page")
    if page.continued or (previous is not None and previous.continues):
        return Boundary(False, 0.95, "marked as continued")
    if page.marker is not None:
        if page.marker == 1:
            return Boundary(True, 0.95, "page numbering restarts")
        follows = previous is not None and previous.marker == page.marker - 1
        return Boundary(False, 0.95 if follows else 0.8, "page numbering continues")
    if previous is not None and previous.marker is not None and previous.marker == previous.of:
        return Boundary(True, 0.9, "the page before was the last of its document")
    shared = [head for head in page.numbers if head in instance.numbers]
    if any(page.numbers[head] != instance.numbers[head] for head in shared):
        return Boundary(True, 0.9, "a new document number")
    if shared:
        if _points_elsewhere(page, instance):
            return Boundary(True, 0.6, "the same document number, but another kind of document")
        return Boundary(False, 0.9, "the same document number")
    if any(instance.numbers.get(head) != value for head, value in page.title_numbers.items()):
        return Boundary(True, 0.85, "a title with a new document number")
    if previous is not None and previous.closes:
        return Boundary(True, 0.8, "the page before closed its document")
    if page.date and instance.date and page.date != instance.date:
        return Boundary(True, 0.7, "a new document date")
    if page.titled:
        return Boundary(True, 0.75, "a new title")
    if previous is not None and len(page.edges & previous.edges) >= RUNNING_LINES:
        return Boundary(False, 0.85, "the same running header or footer")
    if page.opens_with_table:
        return Boundary(False, 0.7, "a table carried over")
    topic = cohesion(previous, page) if previous is not None else None
    if _points_elsewhere(page, instance):
        if topic is not None and topic >= COHESIVE:
            return Boundary(False, 0.6, "another kind of page, but on the topic of the page before")
        return Boundary(True, 0.65, "the page reads as another kind of document")
    if topic is not None and topic < COHESIVE and _leans_elsewhere(page, instance):
        return Boundary(True, 0.6, "another kind of document on another topic")
    if topic is not None and topic < UNRELATED:
        return Boundary(True, 0.55, "the page shares no topic with the page before")
    return Boundary(False, 0.6, "nothing tells a new document")


def _points_elsewhere(page: PageSignals, instance: Instance) -> bool:
    """Whether the page's own evidence clearly names a subdocument other than the instance's."""
    own = decisive(page.scores)
    return own is not None and own != _best(instance.scores)


def _leans_elsewhere(page: PageSignals, instance: Instance) -> bool:
    """Whether the page's own evidence, even if not clearly, names a subdocument other than the
    instance's."""
    own = _best(page.scores)
    return page.scores[own] >= DECISIVE_POINTS and own != _best(instance.scores)


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
                kept[-1].likelihood = min(kept[-1].likelihood, instance.likelihood, JOINED_LIKELIHOOD)
            else:
                waiting.extend(instance.pages)
            continue
        if waiting:
            instance.pages[:0] = waiting
            instance.likelihood = min(instance.likelihood, JOINED_LIKELIHOOD)
        waiting = []
        kept.append(instance)
    return kept


# --------------------------------------------------------------------------------------------- result
def _best(scores: Sequence[float]) -> int:
    return min(range(len(scores)), key=lambda index: (-scores[index], index))


def assemble(
    labelled: Sequence[tuple[int, list[int], float]], subdocuments: Sequence[Subdocument]
) -> list[Split]:
    """Splits in page order; the instances of a subdocument allowed only once are grouped, as sure as
    the least sure of them."""
    splits: list[Split] = []
    single: dict[int, int] = {}
    for which, indexes, likelihood in labelled:
        numbers = [index + 1 for index in indexes]
        subdocument = subdocuments[which]
        if which in single:
            grouped = splits[single[which]]
            splits[single[which]] = Split(
                grouped.name, sorted(grouped.pages + numbers), min(grouped.likelihood, round(likelihood, 3))
            )
            continue
        splits.append(Split(subdocument.name, numbers, round(likelihood, 3)))
        if not subdocument.allow_multiple_instances:
            single[which] = len(splits) - 1
    return splits
