"""Built-in classification: which of the caller's categories a document belongs to, decided from words.

Each category becomes a profile of weighted phrases: its name, the phrases and words of its description,
quoted phrases the instructions tie to it, and the aliases and cue phrases of the common document kinds
(invoice, receipt, ...) its name or description names, in English and the main European languages. A
phrase several categories share counts less for each. A document scores the phrases it contains, the
first pages and the heading lines weighing most, and a page laid out unlike the category's kind (the
sentences of a manual for an invoice, a form of labelled values for a letter) weighing less, as does a
phrase of a kind of labelled values found only inside sentences ("the invoice must give ...": the kind
is spoken of, not shown); the best
score wins, ties going to the category listed first. A catch-all category ("other", or described as
"anything else") starts with a few points, so it wins when no other has evidence."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from docsvc.intelligence.learnt import KindModel, built_in, kind_points
from docsvc.intelligence.values import parse_date, with_accents_joined
from docsvc.intelligence.vocabulary import (
    ALIASES,
    FIELDS,
    FUNCTION_WORDS,
    GENERIC_WORDS,
    KINDS,
    NEGATIONS,
    PROSE,
    STOP_WORDS,
    DocumentKind,
    IndexedText,
    Phrase,
    compound_kind,
    kinds_named,
    phrase,
    quoted,
    stem,
    unquoted,
    word_count,
)

NAME_WEIGHT = 3.0
ALIAS_WEIGHT = 2.5
INSTRUCTION_WEIGHT = 2.5
DESCRIPTION_PHRASE_WEIGHT = 2.0
LISTED_WORD_WEIGHT = 1.0  # a description item of one word: "cash, change, ..."
CUE_PHRASE_WEIGHT = 1.0
CUE_WORD_WEIGHT = 0.6
PROSE_WORD_WEIGHT = 0.5  # a word of a description sentence
GENERIC_FACTOR = 0.3
BORROWED_KIND_FACTOR = 0.7  # a kind named only by the description
HEADING_BONUS = 1.8
NESTED_FACTOR = 0.5
FALLBACK_POINTS = 2.5
MAX_DESCRIPTION_PHRASE = 6
HEADING_LINES = 6
HEADING_WORDS = 6
SHORT_LINE = 120  # characters: longer lines are prose, never headings
LAYOUT_PULL = 0.5  # how much a page laid out unlike a kind (prose for an invoice) takes off its evidence
MENTION_FACTOR = 0.5  # a labelled-values kind's phrase found only inside sentences: spoken of, not shown
PROSE_LINE_WORDS = 9  # a line of this many words or more, not a label or a table row, is a sentence

# The kind whose category a document of a kind no category names is filed under: a receipt is a bill
# paid on the spot.
NEAREST_KIND = {"receipt": "invoice"}

CATCH_ALL_NAMES = frozenset(
    phrase(name)
    for name in ("other", "others", "misc", "miscellaneous", "unknown", "unclassified", "none", "rest")
)
CATCH_ALL_PHRASES = tuple(
    phrase(text)
    for text in ("anything else", "everything else", "catch all", "none of the above", "all other")
)
_FRAGMENT_BREAK = re.compile(r"""[,;:()\[\]{}!?\n"“”/|]|\.(?=\s|$)|(?<!\w)'|'(?!\w)|\s(?:and|or)\s""")
_SENTENCE_BREAK = re.compile(r"[.;\n]+(?:\s|$)")
_DIGIT_RUN = re.compile(r"\d+")


@dataclass(frozen=True)
class Category:
    name: str
    description: str = ""


@dataclass(frozen=True)
class Classification:
    category: str
    reasoning: str
    likelihood: float


@dataclass(frozen=True)
class Term:
    words: Phrase
    weight: float
    heading_only: bool = False  # a word that names the kind only as a heading ("RECIBO" on top)


@dataclass(frozen=True)
class Profile:
    """What identifies one category (or subdocument): its weighted phrases."""

    name: str
    terms: tuple[Term, ...]
    baseline: float = 0.0  # points a catch-all ("other") has without any evidence
    layout: str = ""  # FIELDS or PROSE when the kinds it names have that layout
    kinds: tuple[str, ...] = ()  # the document kinds it names, whose page shapes are evidence for it
    names: frozenset[Phrase] = frozenset()  # the phrases naming it: its name, its kinds' aliases


@dataclass(frozen=True)
class PageText:
    """A page's text indexed for look-ups, and its heading lines apart."""

    body: IndexedText
    heading: IndexedText
    prose: float = 0.0  # the share of its lines that are sentences rather than labels, values or rows
    sentences: tuple[tuple[int, int], ...] = ()  # where its sentence lines are in the text (start, end)
    claimed: tuple[tuple[int, int], ...] = ()  # token spans of the phrases of every profile found on it
    title: bool = False  # a title page before a body: a kind it names before a noun is a topic


@dataclass(frozen=True)
class Hit:
    """A phrase of a profile found on a page."""

    surface: str
    page: int
    points: float
    in_heading: bool


@dataclass(frozen=True)
class Score:
    name: str
    points: float  # from the evidence alone
    hits: tuple[Hit, ...]  # strongest first
    baseline: float = 0.0

    @property
    def total(self) -> float:
        return self.points + self.baseline


def classify(
    pages: Sequence[str], categories: Sequence[Category], instructions: str | None = None
) -> Classification:
    """The category of the document whose pages are `pages`, with the evidence that decided it."""
    if not categories:
        raise ValueError("classification needs at least one category")
    profiles = build_profiles(
        [(category.name, category.description) for category in categories], instructions
    )
    scores = document_scores(profiles, pages)
    ranked = sorted(scores, key=lambda entry: -entry.total)  # stable: ties go to the first listed
    return Classification(
        category=ranked[0].name,
        reasoning=explain(ranked),
        likelihood=likelihood([entry.total for entry in scores], ranked[0].total),
    )


def document_scores(
    profiles: Sequence[Profile], pages: Sequence[str], model: KindModel | None = None
) -> list[Score]:
    """The evidence for each profile in a document's pages as a whole: their words, the first pages
    weighing most, their shape, and the kind the words learnt from labelled documents point to (`model`,
    the built-in one unless given)."""
    pages = [with_accents_joined(page) if isinstance(page, str) else "" for page in pages]
    texts = [with_claims(read_page(page), profiles) for page in pages]
    if len(texts) > 1:  # a title page opens a document with a body after it: one page is no title page
        texts[0] = replace(texts[0], title=is_title_page(lines_of(pages[0])))
    weights = [1.0 / (1.0 + index) for index in range(len(texts))]
    shapes = document_shapes(pages)
    learnt = kind_points(built_in() if model is None else model, pages)
    return [
        with_learnt(with_shape(score(profile, texts, weights), profile, shapes), profile, learnt)
        for profile in profiles
    ]


def with_learnt(found: Score, profile: Profile, learnt: dict[str, float]) -> Score:
    """A profile's score with the learnt points of the kinds it names (the best of them): a category
    naming no kind the model knows (the caller's own) gets none."""
    points = max((learnt.get(kind, 0.0) for kind in profile.kinds), default=0.0)
    return replace(found, points=found.points + points) if points > 0 else found


# ------------------------------------------------------------------------------------------ profiles
def build_profiles(named: Sequence[tuple[str, str]], instructions: str | None = None) -> list[Profile]:
    """A profile per (name, description); a phrase shared by several profiles keeps, in each, the share
    of its total weight that profile gives it."""
    names = [name for name, _ in named]
    hinted = instruction_terms(names, instructions or "")
    weighted = [
        _merge(own_terms(name, description), hinted[index]) for index, (name, description) in enumerate(named)
    ]
    headed = with_nearest_kinds(named, weighted)
    totals: dict[Phrase, float] = {}
    for terms in weighted:
        for words, weight in terms.items():
            totals[words] = totals.get(words, 0.0) + weight
    return [
        Profile(
            name,
            tuple(
                Term(words, weight * weight / totals[words], words in only) for words, weight in terms.items()
            ),
            FALLBACK_POINTS if is_catch_all(name, description) else 0.0,
            layout_of(name, description),
            tuple(kind.name for kind in named_kinds(name, description)),
            naming_phrases(name, description),
        )
        for (name, description), terms, only in zip(named, weighted, headed, strict=True)
    ]


def with_nearest_kinds(
    named: Sequence[tuple[str, str]], weighted: list[dict[Phrase, float]]
) -> list[set[Phrase]]:
    """When no category names a kind at all (in its name or anywhere in its description), the categories
    naming its nearest kind (NEAREST_KIND) take its names, weighed as a kind borrowed from a
    description: with categories of invoices and no receipts, a "payment receipt" is filed as a bill.
    Names of one word ("reçu", "recibo") are words of letters and forms too: they count only as a
    heading (a receipt titled "RECIBO"), and are returned apart, a set per category."""
    headed: list[set[Phrase]] = [set() for _ in weighted]
    everywhere = {
        kind.name for name, description in named for kind in kinds_named(phrase(f"{name} {description}"))
    }
    own = [{kind.name for kind in named_kinds(name, description)} for name, description in named]
    for kind in KINDS:
        nearest = NEAREST_KIND.get(kind.name)
        if nearest is None or kind.name in everywhere:
            continue
        for position, (terms, kinds) in enumerate(zip(weighted, own, strict=True)):
            if nearest in kinds:
                for alias in kind.aliases:
                    if len(alias) == 1 and alias not in terms:
                        headed[position].add(alias)
                    _add(terms, alias, ALIAS_WEIGHT * BORROWED_KIND_FACTOR)
    return headed


def is_catch_all(name: str, description: str) -> bool:
    """Whether a category takes what fits no other: named "other", "misc", ... or described so."""
    described = phrase(description)
    return phrase(name) in CATCH_ALL_NAMES or any(_contains(described, words) for words in CATCH_ALL_PHRASES)


def named_kinds(name: str, description: str) -> list[DocumentKind]:
    """The document kinds a category names: by its name, else the first its description names."""
    return kinds_named(phrase(name)) or kinds_named(phrase(description))[:1]


def naming_phrases(name: str, description: str) -> frozenset[Phrase]:
    """The phrases that name a category's kind of document: its name and its kinds' aliases."""
    aliases = [alias for kind in named_kinds(name, description) for alias in kind.aliases]
    return frozenset(words for words in (phrase(name), *aliases) if words)


def layout_of(name: str, description: str) -> str:
    """The layout of the document kinds a category names (by its name, else by its description), when
    they agree on one."""
    layouts = {kind.layout for kind in named_kinds(name, description)}
    return layouts.pop() if len(layouts) == 1 else ""


def own_terms(name: str, description: str) -> dict[Phrase, float]:
    """The weighted phrases a category's name, description and document kinds give it."""
    terms: dict[Phrase, float] = {}
    name_words = phrase(name)
    _add(terms, name_words, NAME_WEIGHT)
    if len(name_words) > 1:
        for word in name_words:
            _add(terms, (word,), PROSE_WORD_WEIGHT)
    _merge(terms, description_terms(description))
    kinds, factor = kinds_named(name_words), 1.0
    if not kinds:
        kinds, factor = kinds_named(phrase(description))[:1], BORROWED_KIND_FACTOR
    for kind in kinds:
        for alias in kind.aliases:
            _add(terms, alias, ALIAS_WEIGHT * factor)
        for cue in kind.cues:
            _add(terms, cue, (CUE_PHRASE_WEIGHT if len(cue) > 1 else CUE_WORD_WEIGHT) * factor)
    return terms


def description_terms(description: str) -> dict[Phrase, float]:
    """Short items of a description as phrases, and its words; what follows a negation ("not an
    invoice") in an item is left out."""
    terms: dict[Phrase, float] = {}
    for fragment in _FRAGMENT_BREAK.split(description):
        words = _trim(_before_negation(phrase(fragment)))
        content = [word for word in words if word not in STOP_WORDS]
        if 1 < len(words) <= MAX_DESCRIPTION_PHRASE:
            _add(terms, words, DESCRIPTION_PHRASE_WEIGHT)
        for word in content:
            _add(terms, (word,), LISTED_WORD_WEIGHT if len(words) == 1 else PROSE_WORD_WEIGHT)
    return terms


def instruction_terms(names: Sequence[str], instructions: str) -> list[dict[Phrase, float]]:
    """Per name, the quoted phrases of the instruction sentences that mention, outside quotes, that
    name and no other: 'Pages saying "work order" are repairs.' backs "repairs" with "work order"."""
    hinted: list[dict[Phrase, float]] = [{} for _ in names]
    name_phrases = [phrase(name) for name in names]
    for sentence in _SENTENCE_BREAK.split(instructions):
        words = phrase(unquoted(sentence))
        mentioned = [index for index, name in enumerate(name_phrases) if name and _contains(words, name)]
        if len(mentioned) != 1:
            continue
        for hint in map(phrase, quoted(sentence, affirmed_only=True)):
            _add(hinted[mentioned[0]], hint, INSTRUCTION_WEIGHT)
    return hinted


def _add(terms: dict[Phrase, float], words: Phrase, weight: float) -> None:
    if not words:
        return
    if len(words) == 1 and words[0] in GENERIC_WORDS:
        weight *= GENERIC_FACTOR
    terms[words] = max(weight, terms.get(words, 0.0))


def _merge(terms: dict[Phrase, float], more: dict[Phrase, float]) -> dict[Phrase, float]:
    for words, weight in more.items():
        terms[words] = max(weight, terms.get(words, 0.0))
    return terms


def _before_negation(words: Phrase) -> Phrase:
    for index, word in enumerate(words):
        if word in NEGATIONS:
            return words[:index]
    return words


def _trim(words: Phrase) -> Phrase:
    start, end = 0, len(words)
    while start < end and words[start] in STOP_WORDS:
        start += 1
    while end > start and words[end - 1] in STOP_WORDS:
        end -= 1
    return words[start:end]


def _contains(words: Phrase, part: Phrase) -> bool:
    size = len(part)
    return any(words[start : start + size] == part for start in range(len(words) - size + 1))


# ------------------------------------------------------------------------------------------- scoring
def read_page(text: str) -> PageText:
    """`text` indexed, with its heading lines apart."""
    text = text if isinstance(text, str) else ""
    return PageText(
        IndexedText.of(text),
        IndexedText.of("\n".join(heading_lines(text))),
        prose_share(text),
        sentence_spans(text),
    )


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def is_title_page(lines: Sequence[str]) -> bool:
    """Whether a page of text is a title page: a few short lines and nothing else."""
    words = sum(len(line.split()) for line in lines)
    return 0 < len(lines) <= TITLE_PAGE_LINES and words <= TITLE_PAGE_WORDS


_SMALL_WORDS = STOP_WORDS | FUNCTION_WORDS  # words no noun after a kind's name is


def names_topic(text: IndexedText, index: int, size: int) -> bool:
    """Whether the phrase of `size` tokens at `index`, a kind named in several words with no word
    joining them, is followed on its line by a content word, as a noun that it qualifies ("Application
    Form Reader", "Purchase Order System"): a title naming the topic of a document, not its kind. A kind
    named in one word may be followed by its object ("Versuchsprotokoll Torsionsmodul", a protocol of a
    torsion test), and one whose words a short word joins by the name it is given ("Rapport de projet
    Alpha")."""
    after = index + size
    if (
        size < 2
        or after >= len(text.tokens)
        or any(len(word) <= JOINING_WORD for word in text.stems[index:after])
    ):
        return False
    between = text.text[text.tokens[after - 1].end : text.tokens[after].start]
    word = text.stems[after]
    return "\n" not in between and word.isalpha() and word not in _SMALL_WORDS


def with_claims(page: PageText, profiles: Sequence[Profile]) -> PageText:
    """`page` knowing where the phrases of all `profiles` are on it, so that a phrase of one category
    found only inside a longer phrase of another ("report" in "incident report") counts for less."""
    claimed = {
        (start, start + len(term.words))
        for profile in profiles
        for term in profile.terms
        for start in page.body.occurrences(term.words)
    }
    return replace(page, claimed=tuple(sorted(claimed)))


def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the lines of `text` that read as sentences are: (start, end) character offsets."""
    spans: list[tuple[int, int]] = []
    start = 0
    for line in text.splitlines(keepends=True):
        if is_sentence(line.strip()):
            spans.append((start, start + len(line)))
        start += len(line)
    return tuple(spans)


def in_sentences(page: PageText, place: int) -> bool:
    """Whether the token at `place` stands in one of the page's sentence lines."""
    offset = page.body.tokens[place].start
    return any(start <= offset < end for start, end in page.sentences)


def in_running_text(page: PageText, place: int) -> bool:
    """Whether the token at `place` stands in a sentence: on a sentence line, or after a word of running
    text (lower-case) on its line ("functional forms", "a new application for", "valido come fattura"),
    where a document speaks of a kind rather than being one, as a title or a label shows it."""
    if in_sentences(page, place):
        return True
    if place == 0:
        return False
    before, token = page.body.tokens[place - 1], page.body.tokens[place]
    same_line = "\n" not in page.body.text[before.end : token.start]
    return same_line and page.body.text[before.start].islower()


def prose_share(text: str) -> float:
    """The share of a page's lines that are sentences: long lines of words, not labels ("Total: 5"),
    table rows or lines of figures."""
    lines = lines_of(text)
    if not lines:
        return 0.0
    return sum(map(is_sentence, lines)) / len(lines)


def is_sentence(line: str) -> bool:
    """Whether a line reads as (part of) a sentence rather than a label, a value or a table row."""
    if line.startswith("|") or ":" in line[:40]:
        return False
    words = line.split()
    wordy = sum(1 for word in words if word.isalpha())
    return len(words) >= PROSE_LINE_WORDS and wordy >= 0.7 * len(words)


def heading_lines(text: str) -> list[str]:
    """The short lines, neither labels nor numbers, among the first lines of a page not in a table."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("|")]
    return [
        line
        for line in lines[:HEADING_LINES]
        if ":" not in line
        and len(line) <= SHORT_LINE
        and not any(character.isdigit() for character in line)
        and word_count(line) <= HEADING_WORDS  # a run of kanji or Thai is a word, not its pairs
    ]


def score(
    profile: Profile, pages: Sequence[PageText], weights: Sequence[float], first_page: int = 1
) -> Score:
    """The evidence for `profile` on `pages`: each phrase counts once, where it weighs most."""
    best: dict[Phrase, Hit] = {}
    for number, (page, weight) in enumerate(zip(pages, weights, strict=False), start=first_page):
        weight *= layout_fit(profile.layout, page.prose)
        for words, hit in page_hits(profile, page, weight, number).items():
            if words not in best or hit.points > best[words].points:
                best[words] = hit
    hits = sorted(best.values(), key=lambda hit: -hit.points)
    return Score(profile.name, sum(hit.points for hit in hits), tuple(hits), profile.baseline)


def layout_fit(layout: str, prose: float) -> float:
    """How much of its evidence a page keeps for a kind of `layout`: for a kind of labelled values, less
    the more the page reads as sentences (an invoice's words in a manual); for a kind of prose, which
    has its tables and equations too, less only when the page has no sentence at all."""
    if layout == FIELDS:
        return 1.0 - LAYOUT_PULL * prose
    if layout == PROSE and prose == 0.0:
        return 1.0 - LAYOUT_PULL
    return 1.0


_ELIDED = re.compile(r"['\u2019][^\W\d_]")  # O'Neill, d'Arc, l'article


def whole_occurrences(text: IndexedText, words: Phrase, names: frozenset[Phrase] = frozenset()) -> list[int]:
    """Where `words` starts in `text`, leaving out a phrase ending on a single letter glued by an
    apostrophe to the word after it: the "P. O" of "James P. O'Neill" is part of a name, no
    abbreviation ("P.O." for a purchase order); and a name of two letters among `names` (a kind's
    name or alias) not written in capitals: such a name is an abbreviation ("PO" for a purchase
    order), and in lower case the same letters are another language's small word (Polish "po",
    after). A cue of two letters counts in any case ("eq. 3" of a paper), and so does a name of two
    characters of a script without case ("报告", a report)."""
    size = len(words)
    capitals = size == 1 and len(words[0]) == 2 and words in names and words[0] != words[0].upper()
    return [
        index
        for index in text.occurrences(words)
        if (len(words[-1]) > 1 or not _ELIDED.match(text.text, text.tokens[index + size - 1].end))
        and (not capitals or text.surface(index, 1).isupper())
    ]


def spoken_of(profile: Profile, term: Term, page: PageText, places: Sequence[int]) -> bool:
    """Whether a phrase is only spoken of on a page, not shown: a labelled-values kind's phrase found
    only in sentences, or a phrase naming the kind found only in running text (a title or a label
    shows it at the head of its line)."""
    if profile.layout == FIELDS and all(in_sentences(page, place) for place in places):
        return True
    return term.words in profile.names and all(in_running_text(page, place) for place in places)


@dataclass(frozen=True)
class TopicSpans:
    """Where a title page names a kind of `profile` as the topic of its title (`names_topic`), in its
    body and in its heading lines: token spans (start, end), the words of the kind's phrase inside
    them ("FORM" of "APPLICATION FORM READER") naming the topic too."""

    body: tuple[tuple[int, int], ...] = ()
    heading: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, profile: Profile, page: PageText) -> TopicSpans:
        if not page.title:
            return cls()

        def spans(text: IndexedText) -> tuple[tuple[int, int], ...]:
            return tuple(
                (index, index + len(words))
                for words in profile.names
                for index in whole_occurrences(text, words, profile.names)
                if names_topic(text, index, len(words))
            )

        return cls(spans(page.body), spans(page.heading))


def within(index: int, size: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the `size` tokens at `index` lie inside one of `spans`."""
    return any(start <= index and index + size <= end for start, end in spans)


def page_hits(profile: Profile, page: PageText, weight: float, number: int) -> dict[Phrase, Hit]:
    """The phrases of `profile` on one page; a phrase found only inside longer ones, its own or another
    profile's ("statement" in "bank statement"), counts for less."""
    found = {
        term: places
        for term in profile.terms
        if (places := whole_occurrences(page.body, term.words, profile.names))
        and (not term.heading_only or whole_occurrences(page.heading, term.words, profile.names))
    }
    spans = [(start, start + len(term.words)) for term, places in found.items() for start in places]
    spans.extend(page.claimed)
    hits: dict[Phrase, Hit] = {}
    topics = TopicSpans.of(profile, page)
    for term, places in found.items():
        size = len(term.words)
        nested = all(
            any(start <= place and place + size <= end and end - start > size for start, end in spans)
            for place in places
        )
        points = term.weight * weight * (1.0 + 0.1 * min(len(places) - 1, 5))
        points *= NESTED_FACTOR if nested else 1.0
        heading = whole_occurrences(page.heading, term.words, profile.names)
        if term.words in profile.names and page.title:  # a title page's topic ("Invoice Generator")
            heading = [index for index in heading if not within(index, size, topics.heading)]
            if not heading and all(within(index, size, topics.body) for index in places):
                points *= MENTION_FACTOR
        if spoken_of(profile, term, page, places):
            points *= MENTION_FACTOR
        if heading:
            surface = page.heading.surface(heading[0], size)
            hits[term.words] = Hit(surface, number, points * HEADING_BONUS, True)
        else:
            hits[term.words] = Hit(page.body.surface(places[0], size), number, points, False)
    return hits


def likelihood(points: Sequence[float], best: float) -> float:
    """The best score's share of all scores, drawn towards even odds when the evidence is thin."""
    if best <= 0:  # no word of any category: a guess, and said to be one
        return 0.0
    prior = 1.0 / max(len(points), 2)
    total = sum(points)
    share = best / total if total > 0 else prior
    strength = 1.0 - math.exp(-best / 4.0)
    return round(min(1.0, max(0.0, prior + (share - prior) * strength)), 3)


# ------------------------------------------------------------------------------ the shape of the pages
SHAPE_POINTS = 8.0  # what a document wholly shaped like a kind (a deck of slides) is worth to that kind
SLIDE_WORDS = 90  # a slide holds a title and at most this many words
SLIDE_LINES = 16  # on at most this many lines
SLIDE_TITLE_WORDS = 10
SHORT_PAGE_WORDS = 100  # a slide of text holds at most this many words
BULLET_SLIDE_WORDS = 200  # a slide of bullet points and sub-points holds at most this many words
BULLET_LINES = 3  # and at least this many lines opening with a bullet glyph
BULLET_SHARE = 0.25  # and at least this share of its lines
DECK_PAGES = 3  # pages a deck needs for its shape to tell
DECK_SHARE = 0.6  # the share of its pages that must be slides
FILL_SHARE = 0.15  # a form: at least this share of its lines hold a box or a blank to fill in
FILL_LINES = 5  # and at least this many
FEW_FILL_LINES = 2  # or, on a page of few lines (a log sheet, a slip), this many
FEW_FILL_SHARE = 0.3  # making at least this share of its lines
FIELD_LABEL_WORDS = 7  # a field's label printed alone ("Signature or mark of first witness"): at most these
RUNNING_PAGES = 3  # pages a running head must top to be one
FRONT_PAGES = 2  # pages where a paper's abstract and affiliations are
CODE_SHARE = 0.2  # a developer's guide: at least this share of its lines are source code
CODE_LINES = 10  # and at least this many
CODE_PAGES = 10  # the pages looked at for them
TOP_LINES = 30
CONTENTS_PAGES = 6  # the pages where a table of contents is
LEADER_LINES = 3  # lines of titles led by dots to a page number that make a table of contents
COUNT_LINES = 2  # the first and last lines of a page where a slide's count "n / N" is
TITLE_PAGE_LINES = 8  # a title page: at most this many lines
TITLE_PAGE_WORDS = 40  # and this many words
COMPOUND_TITLE_WORDS = 3  # words at most of a title line naming its kind in a compound
JOINING_WORD = 3  # letters at most of a word joining a kind's words ("de", "of", "di", "van", "der")

_BULLET = re.compile(r"[\u2022\u2023\u25aa\u25a0\u25cf\u25cb\u25e6\u25b6\u25ba\u25b8\u27a2\u27a4\u2756]")
_BOX = re.compile(r"[☐☑☒□❑◻▢]|\[\s?[xX]?\s?\](?!\()")
_EMPTY_LABEL = re.compile(r"^[^\d:|]{2,40}:$")  # a label with nothing after it: a field left to fill in
GREETING_WORDS = 4  # words at most of a greeting known by its place: alone before a paragraph
GREETED_LINES = 2  # the lines of prose after it
GREETED_WORDS = 8  # words at least of each
SALUTATION_WORDS = 8  # words of a greeting at most, or twice as many ending in its comma or colon
LETTER_PAGES = 2  # the pages (and the last one) where a letter's parts are
LETTER_AMOUNTS = 3  # lines of amounts that make pages in a letter's form a bill, not a letter
LETTER_GREETINGS = ("a salutation", "a closing formula")  # the parts of a letter no slide shows
LETTER_WHOLE_PAGES = (
    3  # pages at most of a letter its greeting and closing make a letter whatever it speaks of
)
LETTER_WHOLE = 1.5  # times SHAPE_POINTS: a document of a letter's few pages greeting and signing off
_FIGURE = re.compile(r"\d[.,]\d{2}(?![\d.])")
_BARE_FIGURE = re.compile(r"-?\d[\d.,' \u2019]*[.,]\d{2}")
_AMOUNT = re.compile(  # an amount of money: "1.234,50 EUR", "€ 12.50", "CHF 300.00"
    r"(?:[€$£]|\b(?:eur|euro|chf|usd|gbp|pln|z[łl])\b)\s*-?\d[\d.,' ]*[.,]\d{2}(?![\d.])"
    r"|\d[.,]\d{2}(?![\d.])\s*(?:[€$£]|(?:eur|euro|chf|usd|gbp|pln|z[łl])\b)",
    re.IGNORECASE,
)
_SALUTATION = re.compile(
    r"^(?:dear|to whom(?:so)?(?:ever)? it may concern|muy\s+(?:se[ñn]or(?:a|es)?|sr(?:e?s|a)?)\b|"
    # a friend greeted as "my (very) dear" ("Ma bien chère Alix,", "Mon très cher ami,", "Mia cara",
    # "Mi querida", "Meu caro", "My dearest")
    r"(?:(?:mon|ma|mes|mio|mia|miei|mi|mis|meu|minha|my)\s+(?:(?:bien|tr[èe]s|tanto|muy|very)\s+)?"
    r"(?:ch[eè]re?s?|car[oaie]|querid[oa]s?|dear(?:est)?)\b)|"
    r"sehr geehrte[rn]?|(?:sehr )?verehrte[rn]?|lieb(?:st)?e[rns]?|guten tag|"
    r"madame|monsieur|mesdames|"
    r"messieurs|ch[eè]re?s?|estimad[oa]s?|apreciad[oa]s?|querid[oa]s?|distinguid[oa]s?|gentil[ei]|"
    r"egregi[oa]|esimi[oa]|spett(?:\.|abile)\S*|geachte|beste[rs]?|prezad[oa]s?|exm[oa]s?\.?|caro|cara|szanown[aiy]|"
    r"drog[aiy]|"
    # Nordic, Czech and Slovak, Romanian, Turkish, Russian, Indonesian and Malay ("Kepada Yth", the
    # greeting of peace that opens a letter there)
    r"hej|k[äæ]r[ae]|kj[æa]re|v[áa][žz]en[ýáa]|stimat[ăa]|stimate|sayın|уважаем\w*|"  # noqa: RUF001
    r"(?:dengan|salam) hormat|kepada\s+yth|yth\.|assalamu.?alaikum)\b",
    re.IGNORECASE,
)
_CLOSING = re.compile(
    # "With my best regards", "With kind regards": the regards after "with" and a pronoun, ending the
    # line ("With thanks to the reviewers" opens a paper's acknowledgements)
    r"^(?:with (?:(?:my|our|all (?:my|our)?|many) )?(?:(?:kind|best|warm|warmest|sincere) )?"
    r"(?:regards|thanks|wishes)(?=[\s,.!]*$)|"
    r"(?:yours )?very (?:sincerely|truly)(?: yours)?(?=[\s,.!]*$)|(?:sincerely|truly) yours(?=[\s,.!]*$)|"
    r"(?:yours )?(?:sincerely|faithfully|truly)|yours|(?:kind|best|warm|warmest) regards|regards|"
    r"respectfully|best wishes|mit (?:den )?(?:freundlichen|besten|herzlichen) gr(?:ü|ue|u)(?:ß|ss)en|"
    # a company signing through its officer ("For and on behalf of ...")
    r"for and on behalf of|"
    # authors signing a cover letter together ("On behalf of the authors,", "On behalf of all co-authors")
    r"on behalf of (?:(?:all )?(?:the |my |our )?)?(?:co-?)?authors(?=[\s,.!]*$)|"
    # a board signing an invitation ("Im Namen des Präsidiums der DBG", "Au nom du bureau"), a line of
    # its own; not a judgment's "Im Namen des Volkes"
    r"(?:im namen (?:des|der)(?! volkes)|au nom (?:du|de la|des)) "
    r"[^\W\d][\w.-]*(?: [\w.-]+){0,4}(?=[\s,.!]*$)|"
    # a friend's letter signing off alone on its line ("La bise,", "Je t'embrasse", "Liebe Grüße",
    # "Un abbraccio", "Un abrazo", "Beijos", "Love,")
    r"(?:(?:la|grosses?) )?bises?(?=[\s,.!]*$)|bisous|je t.embrasse|amiti[ée]s(?=[\s,.!]*$)|amicalement|"
    r"(?:liebe|herzliche|ganz liebe) gr(?:ü|ue|u)(?:ß|ss)e|alles liebe|un (?:forte )?abbraccio|"
    r"un (?:fuerte )?abrazo|beijos?(?=[\s,.!]*$)|abra[çc]os?(?=[\s,.!]*$)|(?:with )?love(?=[\s,.!]*$)|"
    r"freundliche gr(?:ü|ue|u)(?:ß|ss)e|viele gr(?:ü|ue|u)(?:ß|ss)e|hochachtungsvoll|(?:bien )?cordialement|"
    r"(?:je vous prie d.agr[ée]er|veuillez agr[ée]er|recevez)\b.*salutations|salutations distingu[ée]es|"
    r"atentamente|(?:un )?(?:cordial(?:es)? )?saludos?(?: cordiales)?|sin otro particular|"
    r"reciba(?:n)? un (?:cordial |atento )?saludo|cordiali saluti|distinti saluti|"
    r"cordialit[àa]|con osservanza|in fede|met (?:vriendelijke|hartelijke) groet(?:en)?|hoogachtend|"
    r"au plaisir(?: de [^\W\d]+(?: [^\W\d]+)?)?|"
    r"atenciosamente|cordialmente|(?:com os )?melhores cumprimentos|z powa[żz]aniem|"
    r"z wyrazami szacunku|pozdrawiam|"
    # Nordic, Czech and Slovak, Romanian, Turkish, Russian, Indonesian and Malay
    r"med vänlig(?:a)? hälsning(?:ar)?|vänliga hälsningar|med venlig(?:e)? hilsen|med vennlig hilsen|"
    r"s pozdravem|s úctou|cu (?:stimă|stima|respect)|saygılarımla|с уважением|"  # noqa: RUF001
    r"hormat (?:kami|saya)|salam hormat|wassalamu.?alaikum)\b",
    re.IGNORECASE,
)
# A company signing through its officer ("For Consim Info Pvt. Ltd.,"): a letter's closing only on a page
# that greets its reader, for an invoice signs so above its "Authorised Signatory" as well.
_COMPANY_CLOSING = re.compile(
    r"^for [\w&.' -]{1,60}\b(?:ltd|limited|inc|llc|llp|plc|pvt|gmbh|corp)\.?,?\s*$", re.IGNORECASE
)
_SIGNATORY_OR_TOTAL = re.compile(
    r"\bauthori[sz]ed\s+signator(?:y|ies)\b|^(?:(?:grand|sub|net|invoice)\s*)?total\b"
    r"|^(?:amount|balance)\s+(?:due|payable)\b",
    re.IGNORECASE,
)
COMPANY_CLOSING_REACH = 2  # lines either side of a company's closing where no signatory or total may be
_SUBJECT = re.compile(
    r"^(?:betreff|betrifft|betr\.|objet|oggetto|asunto|assunto|onderwerp|dotyczy|subject|re)\s*:",
    re.IGNORECASE,
)
_PLACE_DATE = re.compile(  # "Toulouse, 28 octobre 2018", "München, den 29. Mai 2018", "22nd April 2021"
    r"^(?:[^\W\d][\w .'\u2019-]{1,40},\s+)?(?:(?:den|le|el|il|em|dnia|op)\s+)?"
    r"\d{1,2}(?:\.|st|nd|rd|th)?\s*(?:de\s+)?[^\W\d]{3,}\.?,?\s+(?:de\s+)?\d{4}\.?$"  # "13 April, 2021"
    # a place and a date in figures ("Milano, 29/10/2024", "Karlsruhe, den 27.09.2017"): the place makes
    # it a letter's date line, not a date among an invoice's labels
    r"|^[^\W\d][\w .'\u2019-]{1,40},\s+(?:(?:den|le|el|il|em|dnia|op|li|lì)\s+)?"
    r"\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\.?$"
    # the month before the day, as English dates a letter ("February 4, 2025", "Boston, May 1st, 2024")
    r"|^(?:[^\W\d][\w .'\u2019-]{1,40},\s+)?[^\W\d]{3,}\.?\s+\d{1,2}(?:st|nd|rd|th)?,\s+\d{4}\.?$"
)
# a sender's address on one line over the recipient's, as a window envelope shows it ("Vorname Name ·
# Straße 32a · 12345 Ort", "Peter Musterfrau, Hinter dem Tal 2, 54321 Musterheim"): parts set apart by
# dots, commas or bars, a street with its number, then a postcode and a place
_RETURN_ADDRESS = re.compile(
    r"^(?!.*\b(?:[Vv]ol(?:ume)?|[Nn]o|pp|Proceedings|Journal|Letters|Press)\b)"  # no journal's front line
    r"[^\W\d][^·•,|\d]{1,40}\s*[·•,|]\s*(?:[^·•,|]{2,40}\s*[·•,|]\s*)?"  # a name (and a firm)
    r"[^\W\d][^·•,|\d]{1,40}\s\d{1,4}[a-zA-Z]?\s*[·•,|]\s*"  # a street and its number
    # a postcode and its place
    r"(?:[A-Z]{1,2}[- ])?\d{4,5}\s+[^\W\d][^\W\d .'-]*(?:[ -][^\W\d][^\W\d.'-]*){0,2}$"
)
RETURN_ADDRESS_LINES = 4  # the first lines of a letter where its sender's line over the window is
# a date's 29th to 31st, days some months lack; no other number is read as a day ("99 octobre" is none)
_LATE_DAY = re.compile(r"(?<!\d)(?:29|30|31)(?=\.?\s*(?:de\s+)?[^\W\d]{3,}|[./-]\d{1,2}[./-]\d)")
_SLIDE_COUNT = re.compile(r"(\d{1,3})\s*/\s*(\d{1,3})")
_ENDING_COUNT = re.compile(r"(?<![\w/.])(\d{1,3})\s*/\s*(\d{1,3})\s*\|?\s*$")
_BLANK = re.compile(r"_{4,}|\.{8,}|…{3,}|(?:\. ){6,}|:\s*_{2,}")  # "Seite:__" is a short blank
# a title led by dots to its page number, in figures, in Roman numerals or in Chinese ones ("一", "十二"), the
# line closed by a table's bar where the contents are set as a table
_LEADER = re.compile(r"(?:\.\s?){4,}\s*(?:[\dIVXivx]+|[一二三四五六七八九十百]+)\s*\|?$")
_OPEN_LEADER = re.compile(r"(?:\.\s?){4,}$")  # the dots of a leader whose page number is on the next line
# A right-to-left table of contents read in visual order: the page number (or the letter numbering a front
# matter page in abjad order) first, the dots, then the title.
_LEADER_FIRST = re.compile(r"^(?:[\dIVXivx]+|[^\W\d_])\s*(?:\.\s?){4,}\s*[^\W\d_]")
_PAGE_NUMBER = re.compile(r"^[\dIVXivx]+$")
LONG_KINDS = ("book", "technical documentation", "report")
# A line of source code: an assignment, a call alone on its line, a comment, braces alone, a statement
# opening a block, a TeX macro opening its line (words of sentences are none of these; a formula "x = 2"
# in a paper is rare enough); a listing may number its lines ("12 \global\lccode ...").
_CODE = re.compile(
    r"""^(?:\d{1,4}\s+)?(?:[A-Za-z_][\w.$\[\]'"]*\s*(?:=|<-|:=|\+=)\s*\S.*"""
    r"|\\[A-Za-z@]{2,}\b.*"
    r"|[A-Za-z_][\w.$]*\(.*\)\s*[;{]?\s*(?:(?:#|//).*)?"
    r"|(?:#|//)\s?\S.*"
    r"|[{}\[\]();]+"
    r"|(?:import|from|def|class|return|if|for|while|public|private|function|var|let|const)\b.*[:;{(]\s*)$"
)
# A chapter's heading, by its number or the ordinal word that names it ("Chapter 3", "Kapitel II", "GLAVA
# Prva": chapter one in Serbian and Croatian, whose books say "glava" or "poglavlje")
_CHAPTER = re.compile(
    r"^(?:chapter|kapitel|chapitre|cap[ií]tulo|capitolo|rozdzia[łl]|hoofdstuk|glava|poglavlje|kapitola)\s+"
    r"(?:\d{1,3}|[ivxlc]{1,7}|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|"
    r"prv[aiou]|drug[aiou]|tre[ćc][aiou]|[čc]etvrt[aiou]|pet[aiou])\b",
    re.IGNORECASE,
)
_ABSTRACT = re.compile(
    r"^(?:\d\.?\s*)?(?:abstract|zusammenfassung|r[ée]sum[ée]|resumen|riassunto|resumo|streszczenie|"
    r"samenvatting)(?:$|[\s.:\u2014\u2013-])",
    re.IGNORECASE,
)
_REFERENCES = re.compile(
    r"^(?:\d{1,2}\.?\s*)?(?:references|bibliography|literature cited|works cited|literatur|"
    r"literaturverzeichnis|bibliographie|r[ée]f[ée]rences|referencias|bibliograf[ií]a|riferimenti|"
    r"refer[êe]ncias|literatura|bibliografie|literatuur)\s*:?$",
    re.IGNORECASE,
)
# the conference, proceedings or journal a paper appeared in, named on a short line with its year
_VENUE = re.compile(
    r"\b(?:conference|proceedings|symposium|workshop|congress|journal|konferenz|tagung|congr[eè]s|"
    r"conf[ée]rence|conferencia|congreso|convegno|conferenza|congresso|simp[oó]sio|konferencja|sympozjum)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
VENUE_WORDS = 12
PAPER_FRONT = 3  # parts of a paper a conference's name and a line of authors may bring a paper's parts up to
# names in a line of authors: parted by commas, semicolons and "and" in the main European languages
_NAME_BREAK = re.compile(r"\s*[,;]\s*(?:(?:and|&)\s+)?|\s+(?:and|&|und|et|y|e|en|i|og|och)\s+")
_MARKS = re.compile(r"[*†‡§¶]|\^?\d{1,2}(?=\s*(?:[,;]|$|\s+(?:and|&)\s))|[\u00b9\u00b2\u00b3\u2070-\u2079]")
_NAME_WORD = re.compile(r"(?:[^\W\d_]\.){1,2}|[^\W\d_][^\W\d_'\u2019.-]*(?:['\u2019-][^\W\d_]+)*")
BYLINE_NAMES = 12
_DOI = re.compile(r"\bdoi\b\s*:?\s*10\.|\b10\.\d{4,9}/\S+", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\}@")
# An office's words: a line of offices ("Chief Executive and Chief Financial Officer") names no authors.
_OFFICES = frozenset(
    {"chief", "executive", "officer", "director", "chairman", "chairwoman", "chair", "president",
     "secretary", "treasurer", "manager", "head", "partner", "vice", "deputy", "general", "board"}
)  # fmt: skip
# A street named after an institution ("One College Square South", "University Avenue"): an address.
_INSTITUTION_STREET = re.compile(
    r"\b(?:university|college|institute|school)\s+(?:square|road|rd|street|st|avenue|ave|lane|place|drive|"
    r"way|green|hill|park|row|court|close|crescent|terrace|boulevard|blvd)\b",
    re.IGNORECASE,
)
_INSTITUTION = re.compile(
    r"\b(?:university|universit[äé]t?|universidad|universit[àa]|universidade|uniwersytet|universiteit|"
    r"institute|institut|instituto|istituto|department|laboratory|laboratoire|college|school of)\b",
    re.IGNORECASE,
)
_CONTENTS = re.compile(
    r"^(?:(?:table of )?contents|inhalt|inhaltsverzeichnis|table des mati[èe]res|sommaire|"
    r"[íi]ndice(?: general)?|sommario|spis tre[śs]ci|inhoud|inhoudsopgave|sum[áa]rio|obsah|"
    r"indholdsfortegnelse|innehåll(?:sförteckning)?|sisällys(?:luettelo)?|содержание|оглавление|зміст|目录|目錄|目次)\s*:?$",
    re.IGNORECASE,
)


# A student's title page: short lines naming the course's parts, each kind of detail its own pattern
# (a line opening with it): who teaches, which course, the student's number, the term, the student as
# its author ("Studente: ..."). A degree programme is none: a thesis's title page names one too.
_COURSEWORK = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"(prof(essor|esor|essora|esseur)?\.?|dozent(in)?|betreuer(in)?|supervisors?(?=\s*:)|instructor|lecturer|"
        r"teacher|tutor|tutrice|encadrant(e)?s?|"
        r"docente|enseignant)\b|指\s?导\s?[老教]\s?师|[任授]\s?课\s?教\s?师",
        r"((course|curso|cours|kurs|materia|asignatura|modul|module|lehrveranstaltung|studiengang|carrera)"
        r"\s*[:\-])",
        r"(matr\.?\s*nr|matrikel(nummer)?|matricola|student (id|number)|n(u|ú)mero de cuenta)\b|学\s?号",
        r"(student(e|in|a)?|alumn[oa]|estudiante|[ée]tudiant(e)?|studentka)(\s+stagiaire)?\s*:|"
        r"(stagiaire|praktikant(in)?|trainee|intern)\s*:",
        r"((spring|summer|fall|autumn|winter)\s+(term\s+)?\d{4}|(winter|sommer)semester\b|semest(er|re)\s*[:\d]|"
        r"ciclo\s*:|学\s?期\s*[:\uff1a])",
        # when the work was handed in ("Durchführung: 17.11.2017, Abgabe: 24.11.2017")
        r"(.*\b)?(abgabe(datum|termin)?|submission date|date of submission|date de remise|"
        r"fecha de entrega)\s*:",
    )
)
# The assignment, numbered as a course numbers its exercises ("Trabajo Práctico N°1", "Lab 3: Filters",
# "Übungsblatt 2", a physics lab's "Versuch 101"), opening a line that may go on with its title: a paper
# or a book is numbered by no course. Another kind of a course's detail.
_ASSIGNMENT = re.compile(
    r"(trabajo pr[aá]ctico|pr[aá]ctica|laboratorio|lab|assignment|coursework|homework|problem set|"
    r"exercise sheet|travaux pratiques|tp|td|[üu]bung(sblatt)?|praktikum|esercitazione|trabalho pr[aá]tico)"
    r"\s*(n\s*[°º.]?\s*)?\d{1,2}\b|versuch\s*(nr\.?\s*)?\d{1,3}\b|实\s?验\s?(\d{1,2}|[一二三四五六七八九十]{1,3})(?!\w)",
    re.IGNORECASE,
)
# A title naming the assignment it answers at its end ("Network Analysis Assignment", "Algebra Homework"),
# the student's code after a dash at most ("... Assignment - AB12"): a course's assignment unnumbered.
_NAMED_ASSIGNMENT = re.compile(
    r"^.{0,80}?\b(assignment|coursework|homework|problem set|exercise sheet|hausaufgabe|devoir maison|tarea)"
    r"\s*(?:(?:n[°º.]?\s*)?\d{1,2}|[-\u2013:]\s*[\w-]{1,12})?$",
    re.IGNORECASE,
)
# A course's code opening the title of an assignment ("AIML 425 Assignment 3", "CS101 Homework"): the
# course it was set for, another kind of a course's detail.
_COURSE_CODE = re.compile(r"^[A-Z]{2,5}\s?\d{3,4}[A-Z]?\b")
# A title closing on the report a course asks for ("Spring 2022 - W241 Final Report", "Rapport de stage"):
# another kind of a course's detail, and a report's name whoever wrote it; a paper calls itself none.
_COURSE_REPORT = re.compile(
    r"\b(?:(?:final|project|lab|laboratory|term|group|internship|course) report|"
    r"rapport (?:final|de projet|de stage)|abschlussbericht|projektbericht|praktikumsbericht|laborbericht|"
    r"informe final|relat[óo]rio final|relazione finale|eindverslag|sprawozdanie ko[ńn]cowe)\s*$",
    re.IGNORECASE,
)
# A heading opening the answer to one of the assignment's questions, numbered in figures or in words
# ("QUESTION ONE", "Exercise 2", "Aufgabe 3:"): another kind of a course's detail.
_QUESTION = re.compile(
    r"^(question|exercise|task|aufgabe|exercice|ejercicio|esercizio|pregunta|zadanie)\s+"
    r"(\d{1,2}|[ivx]{1,4}|one|two|three|four|five|six|seven|eight|nine|ten)\s*[.:)]?$",
    re.IGNORECASE,
)
# A question of an assignment numbered and titled, as a table of contents lists it ("Question 1: Protein
# family", "Exercise 3 - Graphs", "Aufgabe 2: Sortieren").
_TITLED_QUESTION = re.compile(
    r"^(question|exercise|aufgabe|exercice|ejercicio|esercizio|pregunta|zadanie)\s+\d{1,2}\s*[.:)\u2013-]\s*"
    r"[^\W\d]",
    re.IGNORECASE,
)
QUESTION_LINES = 3  # titled questions listed on one page that make a course's questions answered
# The label of the team that wrote a project's report on its title page ("Members-", "Team members:",
# "Zespół 3: ...", "Grupo 2:"), the names after it on its line or on the next: a paper lists its authors
# with their affiliations, under no label.
_TEAM = re.compile(
    r"(?:(?:team|group|project)\s+members?|members?|membres|mitglieder|integrantes|cz[łl]onkowie|"
    r"(?:team|group|groupe|[ée]quipe|grupo|gruppe|gruppo|zesp[óo][łl]|grupa|groep)\s*(?:n[°º.]?\s*)?\d{1,2})"
    r"\s*[:\u2013-](?:\s+(?P<names>.*))?$",
    re.IGNORECASE,
)
COURSEWORK_WORDS = 8  # a line naming a course's detail is short: a label and a name or two
ASSIGNMENT_WORDS = 12  # a line opening with the assignment's number, its title after it
COURSEWORK_DETAILS = 2  # kinds of detail: a teacher alone is a paper's author's title too


@dataclass(frozen=True)
class Shape:
    """What the layout of a document's pages, not its words, says of one kind."""

    points: float
    surface: str  # what was seen, as the reasoning quotes it


def document_shapes(pages: Sequence[str]) -> dict[str, Shape]:
    """By document kind, the evidence of the pages' layout as a whole: a deck of slides (short pages,
    each a title and a few lines; a slide or two of bullet points sent alone, weakly), a paper (an
    abstract, affiliations, references, a DOI), a book (chapters; a table of contents and a running
    head without a paper's parts, which manuals and reports have too), a form (lines of boxes, blanks
    and labels left without a value; a couple of them on a short sheet), a letter (a salutation, a
    closing formula, a subject line, a date line), whose short pages, greeting its reader, are no deck;
    a developer's guide (a fifth of its lines or more source code, unless it is a deck: talks show code
    too), however much it speaks of another kind; a title page naming its kind on a line of its own (a
    manual laid out as slides is still a manual)."""
    texts = [page if isinstance(page, str) else "" for page in pages]
    lines = [lines_of(text) for text in texts]
    shapes: dict[str, Shape] = {}
    letter = letter_parts(lines)
    amounts = sum(1 for page in lines[:LETTER_PAGES] for line in page if is_amount_line(line))
    if len(letter) >= 2 and amounts < LETTER_AMOUNTS:  # a bill written as a letter is a bill
        shapes["letter"] = Shape(SHAPE_POINTS * len(letter) / 8, " and ".join(letter))
    deck = slide_share(lines)
    short = short_share(lines)
    paper = paper_parts(texts, lines)
    structure = long_document_parts(lines, len(paper) >= 2)
    if "letter" in shapes and set(letter) & set(LETTER_GREETINGS):
        pass  # a letter's pages (and a résumé's after it) are short too; slides greet no reader
    elif written_parts(lines) or chapter_pages(lines) >= 2:
        pass  # short pages of a manual or a report that lists its contents, or of a book's chapters
    elif deck >= DECK_SHARE:
        shapes["presentation"] = Shape(SHAPE_POINTS * deck, "short pages, each a title and a few lines")
    elif short >= DECK_SHARE:  # slides of text: more lines than a slide of bullets, still few words
        shapes["presentation"] = Shape(SHAPE_POINTS / 2 * short, "short pages under a short title")
    elif lone_bullet_slide(lines):
        shapes["presentation"] = Shape(SHAPE_POINTS / 4, "a slide of bullet points")
    if len(paper) >= 2:
        shapes["scientific paper"] = Shape(SHAPE_POINTS * len(paper) / 4, " and ".join(paper))
    if chapter_pages(lines):
        shapes["book"] = Shape(SHAPE_POINTS / 4, "chapters")
    if structure:
        for kind in LONG_KINDS:  # shared: they tell these kinds from papers, decks and forms, not apart
            found = shapes.get(kind, Shape(0.0, ""))
            surface = " and ".join(part for part in (found.surface, *structure) if part)
            shapes[kind] = Shape(found.points + SHAPE_POINTS * len(structure) / 8, surface)
    filled = [line for page in lines[: FRONT_PAGES + 1] for line in page]
    blanks = sum(blanks_to_fill(page) for page in lines[: FRONT_PAGES + 1])
    few = blanks >= FEW_FILL_LINES and blanks >= FEW_FILL_SHARE * len(filled)  # a short sheet to fill in
    if few or (blanks >= FILL_LINES and blanks >= FILL_SHARE * len(filled)):
        share = min(1.0, blanks / len(filled) / (2 * FILL_SHARE))
        shapes["form"] = Shape(SHAPE_POINTS * 3 / 8 * share, "boxes and blanks to fill in")
    if "form" not in shapes and set(LETTER_GREETINGS) <= set(letter) and "letter" in shapes:
        # greeting its reader and signing off, with nothing to fill in, it is a letter whatever kind its
        # heading or subject names ("Formal application to the tribunal", "Re: Claim"): its parts count
        # as much again; all of a document of a letter's few pages, whatever its subject speaks of (a
        # cover letter arguing for a paper speaks as the paper does)
        written = sum(1 for page in lines if page)
        points = LETTER_WHOLE * SHAPE_POINTS if written <= LETTER_WHOLE_PAGES else 2 * shapes["letter"].points
        shapes["letter"] = Shape(points, shapes["letter"].surface)
        front = shapes.get("scientific paper")
        if front is not None and "an abstract" not in paper:
            # a paper's front greets no reader and signs off to none: a letterhead's faculty and an
            # addressee's "Citizenship and Immigration Services" are a letter's, not a paper's front
            shapes["scientific paper"] = Shape(front.points / 2, front.surface)
    compound = compound_title_kind(lines)
    if compound is not None:
        found = shapes.get(compound.name, Shape(0.0, ""))
        surface = " and ".join(part for part in (found.surface, "a title naming it in a compound") if part)
        shapes[compound.name] = Shape(found.points + SHAPE_POINTS / 2, surface)
    for named in title_page_kinds(lines):
        found = shapes.get(named.name, Shape(0.0, ""))
        surface = " and ".join(part for part in (found.surface, "a title page naming it") if part)
        shapes[named.name] = Shape(found.points + SHAPE_POINTS, surface)
    if is_coursework(lines):
        found = shapes.get("report", Shape(0.0, ""))
        surface = " and ".join(part for part in (found.surface, "a student's title page") if part)
        shapes["report"] = Shape(found.points + SHAPE_POINTS / 2, surface)
        published = shapes.get("scientific paper")
        if published is not None:  # a student's references and abstract follow a paper's form; no paper
            shapes["scientific paper"] = Shape(published.points / 2, published.surface)
    if counts_slides(shapes, lines):  # slides of code or wordy slides, counted as slides are
        shapes["presentation"] = Shape(SHAPE_POINTS / 2, "pages counted n / N in a corner")
    code = code_share(lines[:CODE_PAGES])
    if code >= CODE_SHARE and "presentation" not in shapes:  # slides showing code are still slides
        shapes["technical documentation"] = Shape(
            SHAPE_POINTS / 2 * min(1.0, code / (2 * CODE_SHARE)), "lines of source code"
        )
    return shapes


def compound_title_kind(lines: Sequence[Sequence[str]]) -> DocumentKind | None:
    """The kind a document's title names in a compound word, as Germanic languages write them
    ("Tullgranskningsrapport", "Prüfungsbericht"): the first line of its first page with text, of
    `COMPOUND_TITLE_WORDS` words at most ("Handreiking basisfactuur", a guide to the invoice, is a guide)."""
    written = [page for page in lines if page]
    if not written:
        return None
    words = phrase(written[0][0])
    if not words or len(words) > COMPOUND_TITLE_WORDS or kinds_named(words):
        return None  # a title naming its kind in a word of its own names the compound's as its topic
    return next((kind for kind in map(compound_kind, words) if kind is not None), None)


def title_page_kinds(lines: Sequence[Sequence[str]]) -> list[DocumentKind]:
    """The kinds a document's title page names on a line of their own ("Anleitung", "Benutzerhandbuch",
    "Annual Report"): a document that calls itself a manual is one, however its pages are laid out (a
    manual of short pages with a screenshot each reads as a deck). A title page is the first page with
    text, of a few short lines; a kind named inside a longer title ("Invoices in practice") is a topic."""
    written = [page for page in lines if page]
    if not written:
        return []
    first = written[0]
    if not is_title_page(first):
        return []
    named = [ALIASES.get(phrase(line)) for line in first]
    return list(dict.fromkeys(kind for kind in named if kind is not None))


def is_coursework(lines: Sequence[Sequence[str]]) -> bool:
    """Whether the first page with text opens a student's work: short lines giving at least two kinds
    of a course's details (its teacher, the course, the student's number, the term, the assignment's
    number or its name closing the title, a question of it answered, the team that wrote it): a team
    alone is a board's members or a trial's groups too ("Members: ...", "Group 1: Placebo"). A report
    written for a course has a paper's parts (references, an abstract) or a book's (chapters), but it
    is a report; a paper's authors may be professors, but a paper names no course,
    student number, term or assignment."""
    written = [page for page in lines if page]
    if not written:
        return False
    short = [cell for line in written[0] for cell in _cells(line) if len(cell.split()) <= COURSEWORK_WORDS]
    found = {index for line in short for index, cue in enumerate(_COURSEWORK) if cue.match(line)}
    if names_team(written[0]):
        found.add(len(_COURSEWORK) + 3)
    titled = (line for line in written[0] if len(line.split()) <= ASSIGNMENT_WORDS)
    assignments = [line for line in titled if _ASSIGNMENT.match(line) or _NAMED_ASSIGNMENT.match(line)]
    if assignments:
        found.add(len(_COURSEWORK))
    if any(_COURSE_CODE.match(line) for line in assignments):
        found.add(len(_COURSEWORK) + 4)
    if any(_QUESTION.match(line) for line in short) or lists_questions(written[:CONTENTS_PAGES]):
        found.add(len(_COURSEWORK) + 1)
    if any(_COURSE_REPORT.search(line) for line in written[0] if len(line.split()) <= ASSIGNMENT_WORDS):
        found.add(len(_COURSEWORK) + 2)
    return len(found) >= COURSEWORK_DETAILS


def _cells(line: str) -> list[str]:
    """A line's cells: a table row's (a title page laying out a course's details as a grid, a label in
    one cell and its value in the next), else the line itself."""
    if not line.startswith("|"):
        return [line]
    return [cell.strip() for cell in line.strip("|").split("|") if cell.strip()]


def lists_questions(pages: Sequence[Sequence[str]]) -> bool:
    """Whether a page of the document's first lists its contents as the questions of an assignment,
    numbered and titled ("Question 1: Protein family", "Exercise 2 - Sorting"), at least QUESTION_LINES
    of them: a student answers a course's questions one by one; a paper's sections are named for their
    topics, not numbered as questions."""
    return any(sum(1 for line in page if _TITLED_QUESTION.match(line)) >= QUESTION_LINES for page in pages)


def names_team(page: Sequence[str]) -> bool:
    """Whether a title page names the team that wrote the document under a label ("Members-" over a list
    of names, "Zespół 3: Górski Paweł, Sozańska Ada"): a project's report, written by a team of
    students; a form leaves such a label blank, or follows it with a line to fill in."""
    for line, following in zip(page, [*page[1:], ""], strict=False):
        found = _TEAM.match(line) if len(line.split()) <= COURSEWORK_WORDS else None
        if found is None:
            continue
        names = found.group("names") or following
        if any(c.isalpha() for c in names) and not is_blank(names) and not _TEAM.match(names):
            return True
    return False


def code_share(lines: Sequence[Sequence[str]]) -> float:
    """The share of the lines (outside tables) that are source code, 0 with fewer than CODE_LINES of
    them: a guide for developers shows its code."""
    text = [line for page in lines for line in page if not line.startswith("|")]
    code = sum(1 for line in text if _CODE.match(line))
    return code / len(text) if code >= CODE_LINES else 0.0


def letter_parts(lines: Sequence[Sequence[str]]) -> list[str]:
    """The parts of a letter its first pages (and its last) show, in any of the main European languages:
    a salutation ("Sehr geehrte Damen und Herren,", "Madame, Monsieur,"), a closing formula ("Mit
    freundlichen Grüßen", "Cordialement", "Atentamente"), a subject line ("Betreff:", "Objet :"), a
    place and a date on a line of their own ("Toulouse, 28 octobre 2018"), the sender's address on one
    line at the top, over the recipient's ("Vorname Name · Straße 32a · 12345 Ort")."""
    pages = [*lines[:LETTER_PAGES], *lines[LETTER_PAGES:][-1:]]
    short = [line for page in pages for line in page if len(line.split()) <= 12]
    parts = []
    if any(map(is_salutation, short)) or any(greets_before_prose(page) for page in pages):
        parts.append("a salutation")
    if any(map(is_closing_formula, short)) or any(signs_for_a_company(page) for page in pages):
        parts.append("a closing formula")
    if any(map(is_subject_line, short)):
        parts.append("a subject line")
    if lines and any(_RETURN_ADDRESS.match(line) for line in lines[0][:RETURN_ADDRESS_LINES]):
        parts.append("a return address line")
    # a date of a month it knows: "Vol. 12, 2019" and "Chapter 3, 2021" have the shape, not the month
    if any(_PLACE_DATE.match(line) and dates_by_month(line) for line in short):
        parts.append("a date line")
    return parts


def dates_by_month(line: str) -> bool:
    """Whether a date line gives a month by its name or in figures, whatever its day: a letter may be
    dated a day its month does not have ("29. Februar 2011" of a common year) and still be dated."""
    return parse_date(line) is not None or parse_date(_LATE_DAY.sub("1", line, count=1)) is not None


def is_slide(lines: Sequence[str]) -> bool:
    """Whether a page reads as a slide: a short title over a few short lines, not a table or a list of
    labelled values."""
    if not lines or len(lines) > SLIDE_LINES or len(phrase(lines[0])) > SLIDE_TITLE_WORDS:
        return False
    words = sum(len(line.split()) for line in lines)
    labels = sum(1 for line in lines if line.startswith("|") or ":" in line[:40] or is_blank(line))
    return 0 < words <= SLIDE_WORDS and labels <= len(lines) / 3


def is_bullet_slide(lines: Sequence[str]) -> bool:
    """Whether a page reads as a slide of bullet points: a short title over lines of which several open
    with a bullet glyph ("●", "▶", "•"), fewer words than a page of prose; wordier than `is_slide`
    allows, as a slide of sub-points is."""
    if not lines or len(phrase(lines[0])) > SLIDE_TITLE_WORDS:
        return False
    bullets = sum(1 for line in lines if _BULLET.match(line))
    words = sum(len(line.split()) for line in lines)
    return bullets >= BULLET_LINES and bullets >= BULLET_SHARE * len(lines) and words <= BULLET_SLIDE_WORDS


def lone_bullet_slide(lines: Sequence[Sequence[str]]) -> bool:
    """Whether a document too short for a deck's shape (one page or two) is slides of bullet points: a
    short title over lines opening with bullet glyphs, as a single slide sent alone is. Weaker evidence
    than a deck's: a page of a few bullets could be a notice too."""
    written = [page for page in lines if page]
    return 0 < len(written) < DECK_PAGES and all(map(is_bullet_slide, written))


def slide_share(lines: Sequence[Sequence[str]]) -> float:
    """The share of a document's pages with text that read as slides, or that show again the slide
    before them as it builds up (its title and its lines, with more revealed), 0 for fewer than
    DECK_PAGES."""
    written = [page for page in lines if page]
    if len(written) < DECK_PAGES:
        return 0.0
    builds = [False, *(is_build(before, page) for before, page in pairwise(written))]
    pairs = zip(written, builds, strict=True)
    return sum(is_slide(page) or is_bullet_slide(page) or build for page, build in pairs) / len(written)


def is_build(before: Sequence[str], page: Sequence[str]) -> bool:
    """Whether `page` shows the page `before` it again under the same short title, with the same lines
    or more: a slide building up, step by step (no page of a book or a paper repeats the one before)."""
    if before[0] != page[0] or len(phrase(page[0])) > SLIDE_TITLE_WORDS or len(page) < len(before):
        return False
    shown = set(page)
    return sum(line in shown for line in before) >= 0.8 * len(before)


def counts_slides(shapes: dict[str, Shape], lines: Sequence[Sequence[str]]) -> bool:
    """Whether pages of no other shape (neither a letter, a form nor slides already) are counted as
    slides are, on most of them."""
    if shapes.keys() & {"presentation", "letter", "form"} or written_parts(lines):
        return False
    return counted_slides(lines) >= DECK_SHARE


def counted_slides(lines: Sequence[Sequence[str]]) -> float:
    """The share of a document's pages with text that bear a bare count "n / N" on one of their first or
    last lines, one N for all and n rising: slide software counts its slides so ("12 / 41"), a slide
    built up step by step repeating its count on each of its pages ("3 / 27" three times); a printed
    document numbers its pages by a folio or "Page n of N". 0 for fewer than DECK_PAGES slides."""
    written = [page for page in lines if page]
    if len(written) < DECK_PAGES:
        return 0.0
    counts = [_slide_count(page) for page in written]
    totals = Counter(count[1] for count in counts if count)
    if not totals:
        return 0.0
    total = totals.most_common(1)[0][0]
    numbers = [count[0] for count in counts if count and count[1] == total]
    if numbers != sorted(numbers) or len(set(numbers)) < DECK_PAGES:
        return 0.0
    return len(numbers) / len(written)


def _slide_count(page: Sequence[str]) -> tuple[int, int] | None:
    """A bare count "n / N" on one of a page's first or last lines: alone on its line, or ending a line
    laid out in cells, as a slide's footline ends ("| Author | Title | Date 2 / 27 |")."""
    for line in (*page[:COUNT_LINES], *page[-COUNT_LINES:]):
        match = _SLIDE_COUNT.fullmatch(line)
        if match is None and line.startswith("|"):
            match = _ENDING_COUNT.search(line)
        if match and 0 < int(match.group(1)) <= int(match.group(2)):
            return int(match.group(1)), int(match.group(2))
    return None


def short_share(lines: Sequence[Sequence[str]]) -> float:
    """The share of a document's pages with text that hold few words under a short first line (a slide
    of text), 0 for fewer than DECK_PAGES; no page of a manual, a paper or a book is that short."""
    written = [page for page in lines if page]
    if len(written) < DECK_PAGES:
        return 0.0
    short = [
        page
        for page in written
        if len(phrase(page[0])) <= SLIDE_TITLE_WORDS
        and sum(len(line.split()) for line in page) <= SHORT_PAGE_WORDS
    ]
    return len(short) / len(written)


def paper_parts(texts: Sequence[str], lines: Sequence[Sequence[str]]) -> list[str]:
    """The parts of a scientific paper the pages show."""
    front = [line for page in lines[:FRONT_PAGES] for line in page[:TOP_LINES]]
    parts = []
    if any(_ABSTRACT.match(line) for page in lines[:FRONT_PAGES] for line in page):
        parts.append("an abstract")
    if any(_EMAIL.search(line) or is_affiliation(line) for line in front):
        parts.append("affiliations")
    if any(_REFERENCES.match(line) for page in lines for line in page):
        parts.append("a list of references")
    if any(_DOI.search(text) for text in texts):
        parts.append("a DOI")
    # a conference's or journal's name and a line of authors stand in for the parts a paper may lack (a
    # conference paper without an abstract or affiliations), up to PAPER_FRONT parts: they add nothing
    # to a front those parts already tell (a student's report laid out as a paper names its authors too)
    stand_ins = []
    if any(names_venue(line) for line in front):
        stand_ins.append("a conference or journal")
    if any(map(is_byline, front)):
        stand_ins.append("a line of authors")
    return parts + stand_ins[: max(0, PAPER_FRONT - len(parts))]


def is_affiliation(line: str) -> bool:
    """Whether a line names an institution as an author's affiliation does ("Department of Physics",
    "Universität Wien"), not a street named after one ("One College Square South,")."""
    return bool(_INSTITUTION.search(line)) and not _INSTITUTION_STREET.search(line)


def names_venue(line: str) -> bool:
    """Whether a short line names the conference, proceedings or journal a paper appeared in, with its
    year ("INFITT 2016 Tamil Conference", "Proceedings of ACL 2019"), as a paper's front or running head
    does."""
    return len(line.split()) <= VENUE_WORDS and bool(_VENUE.search(line)) and bool(_YEAR.search(line))


def is_byline(line: str) -> bool:
    """Whether a line lists the authors of a paper: two names or more of a few capitalised words or
    initials each, parted by commas and "and" ("T. Arulalan, T. Shrinivasan, and A. Muthiah", "Ada
    Lovelace and Charles Babbage"), their footnote marks aside; no word of a sentence, no label, no
    figure (an address line has a street's number, a postcode)."""
    if ":" in line or any(character.isdigit() for character in _MARKS.sub("", line)):
        return False
    names = [name.strip() for name in _NAME_BREAK.split(_MARKS.sub("", line)) if name.strip()]
    return 2 <= len(names) <= BYLINE_NAMES and all(map(_is_name, names))


def _is_name(text: str) -> bool:
    """Whether `text` is a person's name: two to four words, each capitalised (or an initial), none of
    them a small word of a sentence."""
    words = text.split()
    if not 2 <= len(words) <= 4 or len(words[-1].rstrip(".")) < 2:
        return False
    return all(
        word[0].isupper()
        and _NAME_WORD.fullmatch(word)
        and (word.endswith(".") or stem(word) not in _SMALL_WORDS)  # an initial ("A.") is no small word
        and word.lower() not in _OFFICES  # "Chief Executive and Chief Financial Officer": offices
        for word in words
    )


def heads_references(page: Sequence[str]) -> bool:
    """Whether a page has a list of references under its heading ("References", "Literatur",
    "Referencias"...) with no abstract heading above it: the end of a paper, a thesis or a report, not
    its first page (a one-page paper's has both). A line ending in a colon ("References:") is a
    business document's label (an order's references to a contract or a quote), no list's heading."""
    for line in page:
        if _ABSTRACT.match(line):
            return False
        if _REFERENCES.match(line) and not line.rstrip().endswith(":"):
            return True
    return False


def opens_paper(lines: Sequence[str]) -> bool:
    """Whether a page's first lines are a paper's front: an abstract heading and an affiliation (an
    e-mail address, a university or an institute) among them, as only a paper's first page shows."""
    top = lines[:TOP_LINES]
    abstract = any(_ABSTRACT.match(line) for line in top)
    return abstract and any(_EMAIL.search(line) or is_affiliation(line) for line in top)


def long_document_parts(lines: Sequence[Sequence[str]], paper: bool) -> list[str]:
    """The parts of a long document of chapters (a book, a manual, a report) the pages show; a running
    head counts only when the pages are not a `paper`'s (journals have running heads too)."""
    parts = []
    if any(map(lists_contents, lines[:CONTENTS_PAGES])):
        parts.append("a table of contents")
    if not paper and running_head(lines):
        parts.append("a running head")
    return parts


def lists_contents(page: Sequence[str]) -> bool:
    """Whether a page is a table of contents: under that heading, or as lines of titles led by dots to
    their page numbers, however the heading is worded."""
    return any(_CONTENTS.match(line) for line in page[:HEADING_LINES]) or leads_to_pages(page)


def led_to_page(line: str) -> bool:
    """Whether a line is led by dots to a page number, on it or on the next line: an entry of a table of
    contents ("Présentation du projet . . . . 3"), no title of the page it stands on."""
    return bool(_LEADER.search(line) or _OPEN_LEADER.search(line))


def leads_to_pages(page: Sequence[str]) -> bool:
    """Whether a page holds lines of titles led by dots to their page numbers ("1.2. Datensicherung
    ........ 2"), the number on the line itself or, as a reader may set it apart, alone on the next one:
    the table of contents of a printed document."""
    led = [
        bool(
            _LEADER.search(line)
            or _LEADER_FIRST.match(line)
            or (_OPEN_LEADER.search(line) and _PAGE_NUMBER.match(following))
        )
        and any(c.isalpha() for c in line)
        for line, following in zip(page, [*page[1:], ""], strict=False)
    ]
    return sum(led) >= LEADER_LINES


def chapter_pages(lines: Sequence[Sequence[str]]) -> int:
    """How many pages open under a chapter's heading ("Chapter 3", "Kapitel II"): a deck of slides names
    no chapters, a book opens several."""
    return sum(1 for page in lines if any(_CHAPTER.match(line) for line in page[:HEADING_LINES]))


def greets_before_prose(page: Sequence[str]) -> bool:
    """Whether a page greets its reader in words of any language, as a letter does: a short line of a
    few words ending in a comma ("Bester Feind,", "Hallo Peter,"), straight before a paragraph of
    prose (`GREETED_LINES` lines of `GREETED_WORDS` words or more)."""
    for at, line in enumerate(page):
        words = line.split()
        if not (1 <= len(words) <= GREETING_WORDS and line.endswith(",") and line[0].isupper()):
            continue
        if any(c.isdigit() for c in line) or line.startswith("|"):
            continue
        prose = page[at + 1 : at + 1 + GREETED_LINES]
        if len(prose) == GREETED_LINES and all(len(text.split()) >= GREETED_WORDS for text in prose):
            return True
    return False


def written_parts(lines: Sequence[Sequence[str]]) -> bool:
    """Whether the pages show a part of a printed document that no deck of slides shows: a table of
    contents giving page numbers (a talk's "Contents" slide gives none), as dotted lines or, under
    its heading, as a table's rows ("| 1 | Einleitung | 3 |")."""
    return any(leads_to_pages(page) or _contents_table(page) for page in lines[:CONTENTS_PAGES])


def _contents_table(page: Sequence[str]) -> bool:
    """Whether a page under a contents heading lists its titles as a table's rows ending in their page
    numbers, `LEADER_LINES` of them at least."""
    if not any(_CONTENTS.match(line) for line in page[:HEADING_LINES]):
        return False
    paged = 0
    for line in page:
        cells = [cell.strip() for cell in line.strip("|").split("|")] if line.startswith("|") else []
        filled = [cell for cell in cells if cell]
        if len(filled) >= 2 and _PAGE_NUMBER.match(filled[-1]) and any(c.isalpha() for c in filled[-2]):
            paged += 1
    return paged >= LEADER_LINES


def is_amount_line(line: str) -> bool:
    """Whether a line gives an amount of money: with its currency, or as a figure alone on its line or
    in a table row (a column of prices)."""
    if _AMOUNT.search(line) or _BARE_FIGURE.fullmatch(line):
        return True
    return line.startswith("|") and bool(_FIGURE.search(line))


def is_salutation(line: str) -> bool:
    """Whether a line greets the reader of a letter: "Dear Ms Smith,", "Sehr geehrte Damen und Herren,",
    "السيد المحترم،" (in Arabic, by the letters' skeletons: `arabic_skeleton`)."""
    words = len(line.split())
    if words > SALUTATION_WORDS and not (
        words <= 2 * SALUTATION_WORDS and line.rstrip().endswith((",", ":"))
    ):
        return False  # a longer greeting ends in its comma: "Dear Officers of the ... Services,"
    return bool(_SALUTATION.match(line)) or (":" not in line and _opens_arabic(line, _ARABIC_SALUTATIONS))


def is_closing_formula(line: str) -> bool:
    """Whether a line signs a letter off: "Yours sincerely", "Mit freundlichen Grüßen", "Cordialement",
    "وتفضلوا بقبول فائق الاحترام"."""
    if len(line.split()) > 12:
        return False
    return bool(_CLOSING.match(line)) or _opens_arabic(line, _ARABIC_CLOSINGS)


def is_subject_line(line: str) -> bool:
    """Whether a line gives a letter's subject under its label: "Betreff:", "Objet :", "الموضوع:" (its
    label and colon read in either order, as a right-to-left line may be)."""
    if _SUBJECT.match(line):
        return True
    skeleton = arabic_skeleton(line)
    return any(
        skeleton.startswith(label + ":") or skeleton.endswith(":" + label) for label in _ARABIC_SUBJECTS
    )


# Arabic letters by their skeletons: the letters that differ only by their dots are one, so a text layer
# that maps glyphs to their dotless forms (or drops the dots as stray characters) reads as the words it
# shows ("الموص�وع" is "الموضوع", subject).
_ARABIC_SKELETON = str.maketrans(
    {
        **dict.fromkeys("بتثنيىئںٮیپ", "ٮ"),
        **dict.fromkeys("جخحچ", "ح"),
        **dict.fromkeys("ذد", "د"),
        **dict.fromkeys("زرژ", "ر"),
        **dict.fromkeys("شس", "س"),
        **dict.fromkeys("ضص", "ص"),
        **dict.fromkeys("ظط", "ط"),
        **dict.fromkeys("غع", "ع"),
        **dict.fromkeys("فقڡٯ\u08bb\u08bcڤ", "ڡ"),
        **dict.fromkeys("ةه", "ه"),  # noqa: RUF001
        **dict.fromkeys("أإآٱا", "ا"),  # noqa: RUF001
        **dict.fromkeys("ؤو", "و"),
        "ک": "ك",
    }
)
# what a skeleton leaves out: the harakat and marks above and below, the tatweel, joiners and direction
# marks, the replacement character a lost dot is read as, spaces (a broken layer splits words)
_ARABIC_MARKS = re.compile(r"[\u064b-\u065f\u0670\u0640\ufffd\u200c-\u200f\s]+")
_ARABIC_EDGES = "،,.:;!؛()[]/-–—\"'«» "  # noqa: RUF001


def arabic_skeleton(text: str) -> str:
    """`text` with each Arabic letter as its skeleton (dots aside), marks and spaces left out."""
    return _ARABIC_MARKS.sub("", text.translate(_ARABIC_SKELETON))


def _skeletons(*phrases: str) -> tuple[str, ...]:
    return tuple(arabic_skeleton(text) for text in phrases)


_ARABIC_SALUTATIONS = _skeletons(
    "السيد", "السيدة", "السادة", "حضرة", "عزيزي", "عزيزتي", "تحية طيبة", "الأخ الكريم", "الأخت الكريمة"
)
_ARABIC_CLOSINGS = _skeletons(
    "وتفضلوا بقبول",
    "وتقبلوا",
    "مع خالص التحية",
    "مع فائق الاحترام",
    "مع أطيب التحيات",
    "الاحترام والتقدير",
    "مع الشكر",
    "وشكرا",
    "وتفضلوا",
)
_ARABIC_SUBJECTS = _skeletons("الموضوع")


def _opens_arabic(line: str, phrases: Sequence[str]) -> bool:
    """Whether a line written in Arabic letters opens (its punctuation aside) with one of `phrases`, by
    their skeletons."""
    if not any("\u0600" <= character <= "\u06ff" for character in line):
        return False
    skeleton = arabic_skeleton(line).strip(_ARABIC_EDGES)
    return any(skeleton.startswith(words) for words in phrases)


def signs_for_a_company(page: Sequence[str], end: int | None = None) -> bool:
    """Whether a page that greets its reader signs off for a company ("For Consim Info Pvt. Ltd.,"), among
    its last `end` lines when given: not beside "Authorised Signatory" or a total line, as an invoice
    signs."""
    if not any(map(is_salutation, page)):
        return False
    start = 0 if end is None else max(0, len(page) - end)
    for at in range(start, len(page)):
        if not _COMPANY_CLOSING.match(page[at]) or len(page[at].split()) > 12:
            continue
        near = page[max(0, at - COMPANY_CLOSING_REACH) : at + COMPANY_CLOSING_REACH + 1]
        if not any(_SIGNATORY_OR_TOTAL.search(line.strip("| \t")) for line in near):
            return True
    return False


def blanks_to_fill(page: Sequence[str]) -> int:
    """How many of a page's lines are blanks to fill in: a title led by dots to its page number alone
    on the next line ("Part a . . . . .", "2") is a table of contents' entry, not a blank."""
    return sum(
        1
        for line, following in zip(page, [*page[1:], ""], strict=False)
        if is_blank(line) and not (_OPEN_LEADER.search(line) and _PAGE_NUMBER.match(following))
    )


def is_blank(line: str) -> bool:
    """Whether a line holds a box, or a label and a blank to fill in, or is a label with nothing after it
    ("Prénom :", or a form's field named alone: "Full name", "Postcode"); a dotted leader (a table of
    contents' line, its page number after the dots or, read right to left, before them; or a line of
    dots alone) is not one."""
    if _BOX.search(line) or _EMPTY_LABEL.match(line) or names_a_field(line):
        return True
    if _LEADER.search(line) or _LEADER_FIRST.match(line):
        return False
    return bool(_BLANK.search(line)) and any(c.isalpha() for c in line)


def _by_first_word(phrases: Sequence[Phrase]) -> dict[str, tuple[Phrase, ...]]:
    found: dict[str, tuple[Phrase, ...]] = {}
    for words in phrases:
        found[words[0]] = (*found.get(words[0], ()), words)
    return found


_FORM_FIELDS = _by_first_word(next(kind for kind in KINDS if kind.name == "form").cues)  # its labels


def names_a_field(line: str) -> bool:
    """Whether a line is only the label of a form's field, with nothing written after it ("Full name",
    "Signature or mark of first witness", "Postcode"): the field's box is drawn, its label printed in it
    or over it, and the text layer shows the label alone."""
    text = line.strip()
    if len(text) > SHORT_LINE // 2 or text.endswith((".", ",", ";")) or any(char.isdigit() for char in text):
        return False
    if ":" in text.rstrip(":"):
        return False  # a label and its value ("Email: office@example.org"): filled in, no blank
    words = phrase(text)
    if not words or len(words) > FIELD_LABEL_WORDS:
        return False
    return any(words[: len(cue)] == cue for cue in _FORM_FIELDS.get(words[0], ()))


def running_head(lines: Sequence[Sequence[str]]) -> bool:
    """Whether one line of words (digits aside) tops or ends many of the pages, as a book's title or a
    chapter's does."""
    counts: dict[str, int] = {}
    for page in lines:
        edges = {_DIGIT_RUN.sub("#", line.lower()) for line in (*page[:1], *page[-1:])}
        for edge in edges:
            if len(phrase(edge)) >= 2:
                counts[edge] = counts.get(edge, 0) + 1
    written = sum(1 for page in lines if page)
    return any(count >= max(RUNNING_PAGES, 0.3 * written) for count in counts.values())


def with_shape(found: Score, profile: Profile, shapes: dict[str, Shape]) -> Score:
    """`found` with the evidence of the document's shape for the kinds `profile` names."""
    extra = [
        Hit(shapes[kind].surface, 1, shapes[kind].points, False) for kind in profile.kinds if kind in shapes
    ]
    if not extra:
        return found
    hits = tuple(sorted((*found.hits, *extra), key=lambda hit: -hit.points))
    return replace(found, points=found.points + sum(hit.points for hit in extra), hits=hits)


# ----------------------------------------------------------------------------------------- reasoning
def explain(ranked: Sequence[Score]) -> str:
    """One or two sentences naming the evidence behind the best score, and how the runner-up compared."""
    best, runner_up = ranked[0], (ranked[1] if len(ranked) > 1 else None)
    if best.total <= 0:
        return f"No words of any category were found in the text; chose '{best.name}', the first listed."
    if not best.hits:
        reason = f"Chose '{best.name}': no other category had enough evidence"
        if runner_up is not None and runner_up.hits:
            return f"{reason} (the closest, '{runner_up.name}', matched only {_cite(runner_up.hits, 2)})."
        return f"{reason}."
    reason = f"Chose '{best.name}': the text mentions {_cite(best.hits)}."
    if runner_up is None:
        return reason
    if not runner_up.hits:
        return f"{reason} No other category's words were found."
    return f"{reason} The runner-up '{runner_up.name}' had weaker evidence ({_cite(runner_up.hits, 2)})."


def _cite(hits: Sequence[Hit], most: int = 4) -> str:
    """The strongest hits quoted, leaving out any within one already quoted ("Statement" after
    "Bank statement")."""
    cited: list[str] = []
    cited_words: list[Phrase] = []
    for hit in hits:
        words = phrase(hit.surface)
        if any(_contains(other, words) for other in cited_words):
            continue
        cited_words.append(words)
        where = f" (heading, page {hit.page})" if hit.in_heading else ""
        cited.append(f"'{' '.join(hit.surface.split())}'{where}")
        if len(cited) == most:
            break
    if len(cited) == 1:
        return cited[0]
    return ", ".join(cited[:-1]) + " and " + cited[-1]
