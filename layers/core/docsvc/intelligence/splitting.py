"""Built-in splitting: a packet of pages cut into subdocuments.

A split is a segmentation of the page sequence. Each gap between two pages is scored from what the
pages say about a boundary there, each piece of evidence a log-odds (positive: a document starts;
negative: the page continues the one before), summed:
- page numbering: a marker "Page 1" (of N), "Seite 1 von 2", "Strona 1 z 2", a bare "2 of 4" alone on
  its line, restarting at 1 or following on; the page before marked as the last of its document; a bare
  folio ("12") at the same place on both pages following on or restarting (a page named in a sentence,
  "as shown on page 1", is no marker; markers numbering the whole packet are ignored; a folio beside a
  manuscript's line numbers, or in Roman numerals in front matter, follows on too; a year is none); the
  same marker of as many pages again (a slide built in steps);
- an empty page, a page marked "(continued)" or after "continued on next page"; the body after a title
  page's blank back;
- a sentence carried over (the page before's last line a sentence left open, this page's first the rest
  of one, opening on a small letter), and numbered sections going on ("Art. 8" on a page after "Art. 7");
- document numbers ("Invoice No. 7"), title lines with a number ("RECEIPT 5713"), header dates: a
  new one against the latest of the pages before, or the same one (dates listed down a page, an
  approval chain's, are none);
- the page before closing its document (a total line, then "Thank you"; a note that a computer made
  it); a short last page of its own: a product's back page ("Made in ...", how to dispose of it), a
  letter's copies and enclosures after its closing; a table of contents after an unnumbered title page;
- a title line naming a document kind the page before did not have (its words in any order), but for
  the first title after a cover of a few lines naming none (a product's name over "USER MANUAL" on the
  next page); a kind's name alone in the plural ("SPECIFICATIONS") or an entry led by dots to its page
  is no title;
- running headers and footers (digits aside): kept from the page before, or beginning on this page
  and kept on the next while the page before had none of them (a new document's);
- the same template filled in again: the same title and most lines, other names and dates (whose
  running lines and vocabulary then say nothing);
- a page opening with a table; the script of the page (Latin, Arabic, CJK, ...) changing (but under a
  running line kept from the page before and written in the page's script, or in one the page before
  wrote words in), or its language (its function words) against the latest page that tells one;
- a list of references under its heading: the end of the document before, whatever its vocabulary;
- the page's size or orientation changing (A4 after Letter, a landscape page after a portrait one), when
  the caller gives the pages' sizes: documents printed apart are often set on other paper; it counts
  only where nothing on the page says it goes on from the page before (a report's landscape table
  numbered on, on its topic), a page within a few per cent of the page before on each side is the same
  paper, a page twice or half the width of the page before at one height (a booklet's cover beside its
  spreads) is no change, and a page read by OCR on no standard paper size (a scan cropped apart by a
  phone app or a scanner) tells nothing by its size;
- the vocabulary the two pages share (the pages of one document keep to one topic), and a page whose
  own evidence clearly names another kind than the page before, unless it keeps the page before's
  topic (a paper's page about finances is still the paper's) or the page before is a cover or a stub of
  a few lines that leans to no kind (a page naming again a name the page before gave shares its topic
  whatever its words);
- a learnt signal (`learnt.CutModel`, learnt from labelled documents): how much a page's top words, its
  numbering, its greeting and the shape of its top lines read as a document's first page rather than a
  continued one, weighed as its validation chose (at 0, so unheard, while it does not beat the rules).
The boundaries are then chosen by dynamic programming over the whole sequence, with the subdocument
of the instance each page would belong to (a page's own evidence for a subdocument, capped, counts
toward keeping it with pages of that subdocument), rather than page by page.

Each instance takes the subdocument its pages score best for as a whole, as a document is classified
(its first pages weighing most, and the shape of its pages: a deck of slides, a paper's abstract and
references, lines of blanks to fill in); one without any evidence goes to a catch-all subdocument
("other") if there is one, else joins its neighbour, unless sure boundaries open and close it; the
neighbour is then labelled again over all its pages, so that each split is labelled as its pages sent
alone would be classified. The instances of a subdocument that does not allow multiple instances are
grouped into one split.

A split is as sure as the boundaries opening and closing it and the least sure gap kept inside it
(the logistic of the summed evidence, at most 0.95)."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from docsvc.intelligence.classification import (
    HEADING_LINES,
    HEADING_WORDS,
    NEAREST_KIND,
    SHORT_LINE,
    Profile,
    build_profiles,
    document_scores,
    heads_references,
    is_closing_formula,
    is_salutation,
    is_sentence,
    led_to_page,
    lines_of,
    lists_contents,
    opens_paper,
    read_page,
    score,
    signs_for_a_company,
    with_claims,
)
from docsvc.intelligence.learnt import CutModel, built_in_cuts, first_page_odds, normalised
from docsvc.intelligence.paper import PageSize, on_paper, within
from docsvc.intelligence.partitioning import document_numbers, identity, titled_number
from docsvc.intelligence.vocabulary import (
    ALIASES,
    FUNCTION_WORDS,
    LANGUAGE_WORDS,
    STOP_WORDS,
    Phrase,
    phrase,
    stem,
    tokenize,
)

DECISIVE_POINTS = 1.5
DECISIVE_RATIO = 1.3
UNTOLD_POINTS = 3.0  # a page's own evidence for its kind to count where no topic tells its document
JOINED_LIKELIHOOD = 0.6  # a page without evidence joined to the instance before it
ALONE = 0.85  # boundaries this sure keep an instance without evidence on its own
SUREST = 0.95  # a split is never surer than this
MARKER_LINE_WORDS = 8
MARKER_OTHER_WORDS = 3  # words around a "Page n" without its N for it to be a marker
COUNTED_PAGES = 999  # the most pages a bare count ("2 of 4", "2/4") gives: "3/2025" is a date
DEEP_FOLIO = 10  # a folio from which the page before, were it of the same document, would bear one too
FOLIO_LINES = 3  # lines at the top and at the bottom of a page where its bare number is
TAIL_PAGE_LINES = 12  # the most lines of a last page of notes: a product's back page, a letter's copies
SCRIPT_LETTERS = 40  # letters a page needs for its script to say anything
SCRIPT_SHARE = 0.6  # the share of its letters the script of a page holds
FRAME_LETTERS = 4  # letters a running line needs for its script to say anything
WRITTEN_LETTERS = 15  # letters of a script on a page for the page to write in it (a few words)
LANGUAGE_HITS = 5  # function words of one language a page needs for its language to say anything
LANGUAGE_SHARE = 0.7  # the share of the function words counted on a page its language holds
TEMPLATE_LINES = 5  # lines two pages need for one to be the other filled in again
TEMPLATE_SHARE = 0.5  # the share of their lines two such pages have in common
# The segmentation: log-odds of a boundary when nothing tells one; how much a page's own evidence for a
# subdocument counts toward keeping it with pages of that subdocument, per point, up to a cap.
PRIOR = -0.5
_PRIOR_REASON = "nothing tells a new document"
_LEARNT_REASON = "the page reads as a first page (learnt)"
EMISSION = 0.12
EMISSION_CAP = 12.0
HEADER_LINES = 8
TITLE_NUMBER_LINES = 12  # lines (table rows) at the top of a page where a title line gives a number
TOTAL_LINE_WORDS = 6
LETTER_TOP_LINES = 25  # lines at the top of a page where a letter's salutation is
LETTER_END_LINES = 8  # lines at the end of a page where its closing formula is, before the signature
EDGE_LINES = 3  # lines at the top and at the bottom of a page where running headers and footers are
TOP_AGAIN = 2  # top lines of a document's first page a later page repeats, the page before not, to open one
RUNNING_LINES = 2  # edge lines shared with the page before that make a running header or footer
COHESIVE = 0.08  # the pages of one document share at least this much vocabulary (cosine of word counts)
CLOSE_TOPIC = 0.25  # two pages sharing this much are surely on one topic
UNRELATED = 0.07  # two pages sharing less than this are of two documents
TOPIC_WORDS = 60  # content words a page needs for its vocabulary to say anything
FEW_TOPIC_WORDS = 30  # content words two pages need for sharing none of them to say anything
FEWEST_TOPIC_WORDS = 15  # or one page needs, against a page with enough words for its topic
COVER_LINES = 4  # a cover opening a document (a product's name over its models) has at most this many lines
SHORT_RUN = 2  # pages too short for their topic compared through (a title page, a cover letter), no further
SIZE_SLACK = 0.03  # the share of a side two pages of one paper may differ by (each scan cropped apart)
SIZE_CHANGE = 1.5  # a change of page size or orientation, where nothing says the page goes on
TOP_TOKEN_LINES = 5  # lines at the top of a page whose words the learnt cut model reads
TOP_SHAPE_LINES = 10  # lines at the top of a page whose shortness it reads
SHORT_TOKEN_WORDS = 4  # a line of at most this many words is short (a title, an address's line)
_TOKEN_WORD = re.compile(r"[^\W\d_]{3,20}")
# the words and what stands between them, to find names of a few capitalised words in a row
_NAME_PART = re.compile(r"([^\W\d_]+)|\S")
NAME_LETTERS = 4  # the fewest letters of each word of a name
# Words that, right after a document kind, make a line a label rather than a title ("Invoice date").
LABEL_FOLLOWERS = frozenset(phrase("number no num nr id date period total amount to from"))

# "Page n", "Page n of N", "Page n/N" in English, German, French, Dutch, Spanish, Italian, Portuguese and
# Polish ("Seite 1 von 2", "Page 1 sur 2", "Pagina 1 di 2", "Página 1 de 2", "Strona 1 z 2").
_PAGE_WORD = r"(?:page|pages|seite|blatt|pagina|página|pag|pág|blad|strona)\.?"
_OF_WORD = r"(?:of|von|sur|van|de|di|da|z|/)"
_PAGE_MARKER = re.compile(
    rf"(?<![^\W_]){_PAGE_WORD}\s*(\d{{1,4}})(?:\s*{_OF_WORD}\s*(\d{{1,4}}))?(?![^\W_])", re.IGNORECASE
)
# A marker without the word, alone on its line ("2 of 4", "2 z 4", "2/4").
# A count alone on its line, its numbers parted by a word or a slash ("2 of 4", "2/4"), or by the bars
# of a header's two cells ("2 || 4", "2 | 4").
_PAGE_COUNT = re.compile(rf"(\d{{1,4}})\s*(?:{_OF_WORD}|\|\|?)\s*(\d{{1,4}})", re.IGNORECASE)
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
# The heading of a letter's list of copies or enclosures, after its signature.
_COPIES = re.compile(
    r"(?i)^\W*(?:c\.?\s?c\.?|b\.?c\.?c\.?|copy\s+to|copies\s+to|encl(?:osures?|\.)?|attachments?|anlagen?|"
    r"verteiler|pi[èe]ces?\s+jointes?|p\.\s?j\.|copie\s+[àa]|allegati|anexos?|adjuntos?|za[łl][ąa]czniki?|"
    r"bijlagen?|kopie\s+aan)\.?\s*(?:\([^)]*\))?\s*:|\((?:cc|enclosures?|attachments?)\)\s*:",
)
# What a product's back page says: where it was made, how to dispose of it.
_BACK_PAGE = re.compile(
    r"\b(?i:made\s+in)\s+[A-Z]|\b(?i:hergestellt\s+in|fabriqu[ée]\s+en|fabricado\s+en)\s+[A-Z]|\bWEEE\b"
    r"|\b(?i:waste\s+electrical)\b|\bElektro-?\s*(?:und\s+Elektronik-?)?[Aa]ltger",
)
# A note that a computer made the document and it needs no signature, as orders and invoices end.
_GENERATED = re.compile(
    r"\b(?:computer|system|electronically|automatically)[\s-]+generated\b|\bno\s+signature\s+(?:is\s+)?required\b"
    r"|\bmaschinell\s+erstellt\b|\bg[ée]n[ée]r[ée]e?\s+automatiquement\b|\bgenerad[oa]\s+(?:por\s+computadora|"
    r"autom[áa]ticamente|electr[óo]nicamente)\b",
    re.IGNORECASE,
)
# A line to sign, its blank drawn ("Unterschrift: ______", "Firma ....."), and one to date: a form's end.
_SIGNATURE_BLANK = re.compile(
    r"\b(?:signature|signed|sign here|unterschrift|firma|assinatura|handtekening|podpis|signé)\b"
    r"[^\n]*?[_.]{3,}",
    re.IGNORECASE,
)
_DATE_WORD = re.compile(r"\b(?:date|dated|datum|data|fecha|fait le|dne)\b", re.IGNORECASE)
_TABLE_RULE = re.compile(r":?-+:?")
_FOLIO = re.compile(r"[-\u2013\u2014]?\s*(\d{1,4})\s*[-\u2013\u2014]?")
_ROMAN_NUMERAL = re.compile(r"x{0,3}(?:ix|iv|v?i{0,3})")
_ROMAN = re.compile(r"[-\u2013\u2014]?\s*([ivxIVX]{1,7})\s*[-\u2013\u2014]?")
_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10}
# The last code point of each script's block, in order (Latin with its extensions and punctuation).
_SCRIPTS = (
    (0x036F, "latin"),
    (0x03FF, "greek"),
    (0x052F, "cyrillic"),
    (0x05FF, "hebrew"),
    (0x08FF, "arabic"),
    (0x0DFF, "indic"),
    (0x0EFF, "thai"),
    (0x10FF, "other"),
    (0x11FF, "hangul"),
    (0x1DFF, "other"),
    (0x1EFF, "latin"),
    (0x2FFF, "other"),
    (0x9FFF, "cjk"),
    (0xABFF, "other"),
    (0xD7AF, "hangul"),
    (0xFAFF, "other"),
    (0xFDFF, "arabic"),
    (0xFE6F, "other"),
    (0xFEFF, "arabic"),
)
_DIGITS = re.compile(r"\d+")
_SENTENCE_END = re.compile(r"\.\s+(?=[^\W\d])")  # a full stop, then a word: "No. 5" or "Rev. 1" are none
_ASIDE = re.compile(r"\([^)]*\)")  # words in brackets: "(Rev. 10-2018)", "(continued)"
# A line numbered as an item of a list or a section ("2. The rest of the talk", "3.1 Method", "IV)",
# "b)") or as a contract's article or clause ("Article 1 - Objet du contrat", "§ 3", "Cláusula 2"): a
# heading inside a document, not its title, whatever document it names.
_ENUMERATED = re.compile(
    r"^\s*(?:\d{1,2}(?:\.\d{1,2})*[.)]?|[ivxIVX]{1,4}[.)]|[a-zA-Z][)]"
    r"|(?i:article|art\.|art[íi]culo|articolo|artigo|artikel|artyku[łl]|§|section|clause|cl[áa]usula|clausola)"
    r"\s*\d{1,3}[.:)]?)\s+\S"
)
_AMOUNT = re.compile(r"(?:[A-Z]{3}|[^\w\s]{1,3})?\s*-?\d[\d.,' ]*(?:\s*(?:[A-Z]{3}|[^\w\s]{1,3}))?")
# A line opening a numbered section: a contract's article or clause by its word and number ("Art. 8 -
# Controversie", "§ 3", "Clause 12"), or a bare number and its full stop or bracket before a word ("8.
# Disposizioni finali", "3) Payment"); "12.5 kg" and "2024 report" open none.
_SECTION = re.compile(
    r"^(?:(?P<word>article|art\.|art[íi]culo|articolo|artigo|artikel|artyku[łl]|§|section|clause|cl[áa]usula"
    r"|clausola)\s*(?P<led>\d{1,3})(?!\d)|(?P<bare>\d{1,2})[.)]\s+[^\W\d_])",
    re.IGNORECASE,
)
_OPEN_END = (".", ":", ";", "!", "?", "\u2026")  # a line ending on one of these leaves no sentence open


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
    titles: frozenset[str]  # its title lines naming a document kind, digits and case aside
    opens_with_table: bool
    closes: bool  # ends with its document's total and a closing line
    greets: bool = False  # a letter's salutation among its first lines
    unasked: bool = False  # its title lines name only kinds no subdocument is ("STATEMENT" in a report)
    signs_off: bool = False  # a letter's closing formula among its last lines
    open_end: bool = False  # its last line is a sentence left open (no full stop)
    mid_sentence: bool = False  # its first line is a sentence opening on a small letter: the rest of one
    first_section: tuple[str, int] | None = None  # its first numbered section's word and number
    last_section: tuple[str, int] | None = None  # its last one's (`sections`)
    signed_at_end: bool = False  # its last lines give a date and a signature to fill in
    generated_end: bool = False  # its last lines say a computer made the document (`ends_generated`)
    words: Counter[str] = field(default_factory=Counter)  # its content words, counted
    edges: frozenset[str] = frozenset()  # its first and last lines, digits aside
    top: frozenset[str] = frozenset()  # its first lines, digits aside (`edge_lines`)
    folio: tuple[int, int] | None = None  # its bare page number and the line it stands on (-1: the last)
    folios: tuple[tuple[int, int], ...] = ()  # every bare number that could be its folio, `folio` first
    roman: tuple[tuple[int, int], ...] = ()  # its bare Roman numbers where a folio stands (front matter)
    lines: frozenset[str] = frozenset()  # its lines, case and spacing aside
    script: str | None = None  # the script most of its letters are written in
    written: frozenset[str] = frozenset()  # every script it writes a few words in (`scripts_written`)
    language: str | None = None  # the language its function words are in, when they tell one
    paper_front: bool = False  # its first lines are a paper's front: an abstract and an affiliation
    references: bool = False  # it lists references under their heading: a document's last pages
    back_page: bool = False  # a product's back page: where it was made, how to dispose of it (`is_back_page`)
    letter_tail: bool = False  # a short page listing a letter's copies or enclosures (`lists_copies`)
    contents: bool = False  # it is a table of contents (`classification.lists_contents`)
    names: frozenset[str] = frozenset()  # the documents its titles name, by kind and number (`title_names`)
    proper_names: frozenset[str] = frozenset()  # its names of a few capitalised words (`proper_names`)
    size: PageSize | None = None  # its width and height in points, when the caller gave them
    scanned: bool = False  # it was read by OCR (its size is the scan's, cropped or set to a paper)
    opening: float = 0.0  # the learnt cut model's evidence, weighed, that it opens a document
    heard_within: float = math.inf  # it is heard only where the rules' evidence is nearer even than this


@dataclass
class Instance:
    """Pages (0-based) of one instance, with the evidence for each subdocument."""

    pages: list[int]
    scores: list[float]
    likelihood: float = 1.0  # how sure its boundary and the pages kept in it are
    opening: float = 1.0  # how sure the boundary opening it is


def split(
    pages: Sequence[str],
    subdocuments: Sequence[Subdocument],
    instructions: str | None = None,
    sizes: Sequence[PageSize | None] = (),
    scanned: Sequence[bool] = (),
    cuts: CutModel | None = None,
) -> list[Split]:
    """The pages of a packet as subdocument instances, in page order; each page in exactly one split.
    `sizes`, one per page when given (width and height in points, None where unknown), weigh a change
    of page size or orientation between two pages; without them (an output read before they were
    kept, a type without pages) the pages are split by their text alone. `scanned`, one per page when
    given, says which pages OCR read: their sizes count only on a standard paper size. `cuts`, the
    learnt model of first pages (the built-in one unless given), adds its weighed evidence at each gap."""
    if not subdocuments:
        raise ValueError("splitting needs at least one subdocument")
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments], instructions)
    titles = [*ALIASES, *(phrase(sub.name) for sub in subdocuments)]
    known = list(sizes) if len(sizes) == len(pages) else [None] * len(pages)
    read_by_ocr = list(scanned) if len(scanned) == len(pages) else [False] * len(pages)
    model = built_in_cuts() if cuts is None else cuts
    texts = [text if isinstance(text, str) else "" for text in pages]
    signals = _without_packet_numbering(
        [
            _heard(replace(read_signals(text, profiles, titles), size=size, scanned=ocr), text, model)
            for text, size, ocr in zip(texts, known, read_by_ocr, strict=True)
        ]
    )
    instances = segment(signals)
    for instance in instances:  # labelled as a document is classified: its pages as a whole
        _label(instance, profiles, pages)
    labelled = {id(instance): len(instance.pages) for instance in instances}
    instances = _without_empty(instances)
    for instance in instances:  # one that took in pages without evidence: labelled as those pages alone
        if len(instance.pages) != labelled[id(instance)]:
            _label(instance, profiles, pages)
    ends = [following.likelihood for following in instances[1:]] + [1.0] * bool(instances)
    return assemble(
        [
            (_best(instance.scores), instance.pages, min(instance.likelihood, end))
            for instance, end in zip(instances, ends, strict=True)
        ],
        subdocuments,
    )


def _heard(page: PageSignals, text: str, model: CutModel) -> PageSignals:
    """The page with the learnt cut model's evidence that it opens a document, weighed by the model's
    weight (a model weighed at nothing reads no page; its file is read once a process all the same)."""
    if model.weight <= 0 or not model.words:
        return page
    odds = first_page_odds(model, first_page_tokens(text))
    return replace(page, opening=model.weight * odds, heard_within=model.gate)


def _label(instance: Instance, profiles: Sequence[Profile], pages: Sequence[str]) -> None:
    """The instance's evidence for each subdocument: its pages as a whole, as `classify` weighs a
    document sent alone."""
    found = document_scores(profiles, [pages[index] for index in instance.pages])
    instance.scores = [entry.total for entry in found]


def read_signals(text: str, profiles: Sequence[Profile], titles: Sequence[Phrase]) -> PageSignals:
    page = with_claims(read_page(text), profiles)
    lines = lines_of(text)
    top = [line for line in lines if not line.startswith("|")][:HEADER_LINES]
    edges = lines[:3] + lines[-3:]
    rows = [row for row in map(cells, lines) if row]
    marker = page_marker(lines)
    numbered = title_numbers(rows[:TITLE_NUMBER_LINES])
    opened = sections(lines)
    return PageSignals(
        scores=tuple(score(profile, [page], [1.0]).points for profile in profiles),
        empty=not page.body.tokens,
        continued=any(_CONTINUED.search(line) for line in edges),
        continues=any(_CONTINUES.search(line) for line in edges),
        marker=marker[0] if marker else None,
        of=marker[1] if marker else None,
        numbers=document_numbers(text),
        title_numbers=numbered,
        date=_header_date(top + [cell for row in rows[:HEADER_LINES] for cell in row]),
        titles=title_lines(top[:HEADING_LINES], titles),
        unasked=names_unasked_kinds(top[:HEADING_LINES], titles, profiles),
        names=title_names(top[:HEADING_LINES], titles, numbered),
        opens_with_table=bool(lines) and lines[0].startswith("|"),
        closes=closes_document([" ".join(row) for row in rows]),
        greets=any(map(is_salutation, lines[:LETTER_TOP_LINES])),
        signs_off=any(map(is_closing_formula, lines[-LETTER_END_LINES:]))
        or signs_for_a_company(lines, LETTER_END_LINES),
        signed_at_end=ends_to_sign(lines),
        generated_end=ends_generated(lines),
        open_end=leaves_sentence_open(lines),
        mid_sentence=opens_mid_sentence(lines),
        first_section=opened[0] if opened else None,
        last_section=opened[-1] if opened else None,
        words=content_words(text),
        proper_names=proper_names(text),
        edges=edge_lines(lines),
        top=edge_lines(lines, bottom=False),
        folio=folio(lines),
        folios=folios(lines),
        roman=roman_folios(lines),
        script=script_of(text),
        written=scripts_written(text),
        language=language_of(text),
        paper_front=opens_paper(lines),
        references=heads_references(lines),
        back_page=is_back_page(lines),
        letter_tail=lists_copies(lines),
        contents=lists_contents(lines),
        lines=frozenset(" ".join(line.lower().split()) for line in lines),
    )


def first_page_tokens(text: str) -> frozenset[str]:
    """`page_tokens` of a page's text alone (as `bench/learn_cuts.py` learns them)."""
    lines = lines_of(text)
    top = [line for line in lines if not line.startswith("|")][:HEADER_LINES]
    rows = [row for row in map(cells, lines) if row]
    date = _header_date(top + [cell for row in rows[:HEADER_LINES] for cell in row])
    greets = any(map(is_salutation, lines[:LETTER_TOP_LINES]))
    return page_tokens(lines, page_marker(lines), greets, date is not None)


def page_tokens(
    lines: Sequence[str], marker: tuple[int, int | None] | None, greets: bool, dated: bool
) -> frozenset[str]:
    """What tells a document's first page from a continued one, in any layout, as tokens for the learnt
    cut model: the words of its top lines (a letterhead, a title, "Dear", "Abstract"; a running head, a
    section's name), its page marker or folio (1, later, the last of N), a letter's greeting, a date
    given at its top, whether it opens with a table, the share of its top lines that are short (a title
    block, an address) and its words (a cover is short)."""
    text = [line for line in lines if not line.startswith("|")]
    found = {f"t:{word}" for line in text[:TOP_TOKEN_LINES] for word in _TOKEN_WORD.findall(normalised(line))}
    if marker is not None:
        number, of = marker
        found.add("~marker:" + ("first" if number == 1 else "last" if number == of else "later"))
    bare = folio(lines)
    found.add("~folio:" + ("none" if bare is None else "first" if bare[0] == 1 else "later"))
    found.update(name for name, present in (("~greets", greets), ("~dated", dated)) if present)
    if lines and lines[0].startswith("|"):
        found.add("~table")
    head = text[:TOP_SHAPE_LINES]
    short = sum(len(line.split()) <= SHORT_TOKEN_WORDS for line in head) / max(len(head), 1)
    words = sum(len(line.split()) for line in lines)
    found.add(f"~short:{sum(short > bound for bound in (0.3, 0.6, 0.85))}")
    found.add(f"~words:{sum(words > bound for bound in (0, 40, 150, 400))}")
    return frozenset(found)


def content_words(text: str) -> Counter[str]:
    """The words of a page that carry its topic: neither stop words (nor the function words of the other
    main European languages, which two texts in one language share whatever their topics), numbers nor
    words of two letters."""
    return Counter(
        token.stem
        for token in tokenize(text)
        if len(token.stem) > 2
        and token.stem not in STOP_WORDS
        and token.stem not in FUNCTION_WORDS
        and not token.stem.isdigit()
    )


def proper_names(text: str) -> frozenset[str]:
    """The names a page gives in a few capitalised words in a row ("Politechniki Poznańskiej", "Freie
    Maker"; not in capitals, stop words aside), each two words in a row of them, case and spacing aside:
    an organisation, a place or a person the pages of one document name again, even where their
    vocabulary differs (a form's fields, then its declarations to sign)."""
    found: set[str] = set()
    run: list[str] = []
    end = 0
    for match in [*_NAME_PART.finditer(text), None]:
        word = match.group(1) if match else None
        name = bool(word and len(word) >= NAME_LETTERS and word.istitle() and stem(word) not in STOP_WORDS)
        apart = match is not None and "\n" in text[end : match.start()]  # a run ends with its line
        end = match.end() if match else end
        if name and not apart:
            run.append(str(word).lower())
            continue
        if not (match and match.group() == ":"):  # "First Name:", "Last Name:" are a form's labels
            found.update(f"{first} {second}" for first, second in itertools.pairwise(run))
        run = [str(word).lower()] if name else []
    return frozenset(found)


def edge_lines(lines: Sequence[str], bottom: bool = True) -> frozenset[str]:
    """The first and last lines of a page outside tables (the first only, without `bottom`), of two
    words or more, with digits and case aside: where a running header or footer ("Tobacco Control
    2004;13:4", "Form I-140 Page 2 of 8") is."""
    text = [line for line in lines if not line.startswith("|")]
    edges = text[:EDGE_LINES] + (text[-EDGE_LINES:] if bottom else [])
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


def ends_to_sign(lines: Sequence[str]) -> bool:
    """Whether a page's last lines (EDGE_LINES) ask for a date and a signature, blanks drawn after
    them ("Data ______ Firma ______"): a form or a proxy ends there, as a letter ends on its closing
    formula; what follows is another document's."""
    last = [line for line in lines[-EDGE_LINES:] if not line.startswith("|")]
    signed = [line for line in last if _SIGNATURE_BLANK.search(line)]
    return bool(signed) and any(_DATE_WORD.search(line) for line in last)


def lists_copies(lines: Sequence[str]) -> bool:
    """Whether a page of a few lines lists a letter's copies or enclosures ("cc:", "Enclosures:",
    "Anlagen", "Pièces jointes", "Załączniki"): the last page of a letter whose closing formula ended
    the page before, its signature over those lists."""
    return _short_page_says(lines, _COPIES)


def is_back_page(lines: Sequence[str]) -> bool:
    """Whether a page of a few lines says where a product was made ("Made in China") or how to dispose
    of it (the WEEE notice): a manual's or a leaflet's back page, the end of its document, sharing few
    words with its pages."""
    return _short_page_says(lines, _BACK_PAGE)


def _short_page_says(lines: Sequence[str], pattern: re.Pattern[str]) -> bool:
    """Whether a page of TAIL_PAGE_LINES lines at most has a line `pattern` finds."""
    text = [line for line in lines if line.strip()]
    return 0 < len(text) <= TAIL_PAGE_LINES and any(pattern.search(line) for line in text)


def ends_generated(lines: Sequence[str]) -> bool:
    """Whether a page's last lines (EDGE_LINES) say a computer made the document, so it needs no
    signature ("Computer Generated", "This is a system generated invoice", "maschinell erstellt"): an
    order or an invoice ends on that note."""
    return any(_GENERATED.search(line) for line in lines[-EDGE_LINES:])


def leaves_sentence_open(lines: Sequence[str]) -> bool:
    """Whether a page's last line is a sentence (`is_sentence`) that it does not end: no full stop, colon
    or other mark closes it (a clause of a contract wrapped onto the next page)."""
    return bool(lines) and is_sentence(lines[-1]) and not lines[-1].rstrip().endswith(_OPEN_END)


def opens_mid_sentence(lines: Sequence[str]) -> bool:
    """Whether a page's first line is a sentence opening on a small letter: the rest of a sentence begun
    on the page before ("force majeure. Toute annulation ..."). A document opens on a title or a capital."""
    return bool(lines) and lines[0][:1].islower() and is_sentence(lines[0])


def sections(lines: Sequence[str]) -> list[tuple[str, int]]:
    """The numbered sections a page opens, in order (`_SECTION`): the word before each number, lower case
    and without its full stop ("art", "§"; "" for a bare number), and the number."""
    found = []
    for line in lines:
        match = _SECTION.match(line)
        if match is not None:
            word = (match.group("word") or "").lower().rstrip(".")
            found.append((word, int(match.group("led") or match.group("bare"))))
    return found


def _sections_follow(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page's first numbered section is the next of the page before's last, by the same word
    ("Art. 7" there, "Art. 8" here; "6." there, "7." here): a contract's articles or a list carried over."""
    before, first = previous.last_section, page.first_section
    return before is not None and first is not None and first == (before[0], before[1] + 1)


def is_total_line(line: str, following: Sequence[str]) -> bool:
    """Whether a short line gives a document's total with its amount, on the line or on the line
    `following` it ("TOTAL $5.50", "Amount due" then "12.00"); not a column header "Total"."""
    if not _TOTAL_LINE.match(line) or len(phrase(line)) > TOTAL_LINE_WORDS:
        return False
    return any(character.isdigit() for character in line) or any(map(_AMOUNT.fullmatch, following))


def page_marker(lines: Sequence[str]) -> tuple[int, int | None] | None:
    """(n, N) of a short line reading "Page n of N", "Seite n von N", "Page n / N", or of a label
    "Seite von" with n and N on the two lines below it; else (n, None) of the first short line that is
    "Page n" with at most a few words around it. A page named in a sentence ("as shown on page 1") is
    no marker, and a marker giving N is preferred to one that does not, wherever it stands. Bare counts
    ("2/4") of more than one value on a page are fractions (a figure's scale "1/2", "1/4", "1/8"), and
    none of them a marker."""
    bare: tuple[int, None] | None = None
    counts = {_bare_count(line) for line in lines} - {None}
    for at, line in enumerate(lines):
        if len(line) > SHORT_LINE or len(phrase(line)) > MARKER_LINE_WORDS:
            continue
        match = _PAGE_MARKER.search(line)
        if match and match.group(2):
            return int(match.group(1)), int(match.group(2))
        counted = _bare_count(line)
        if counted and len(counts) == 1:
            return counted
        if match and bare is None and _stands_alone(line, match):
            bare = (int(match.group(1)), None)
        below = lines[at + 1 : at + 3]
        if _MARKER_LABEL.match(line) and below and all(map(_MARKER_NUMBER.match, below)):
            return int(below[0]), int(below[1]) if len(below) > 1 else None
    return bare


def _bare_count(line: str) -> tuple[int, int] | None:
    """(n, N) of a short line that is a count alone ("2 of 4", "2/4"), else None."""
    counted = _PAGE_COUNT.fullmatch(line) if len(line) <= SHORT_LINE else None
    if counted and 0 < int(counted.group(1)) <= int(counted.group(2)) <= COUNTED_PAGES:
        return int(counted.group(1)), int(counted.group(2))
    return None


def _stands_alone(line: str, match: re.Match[str]) -> bool:
    """Whether "Page n" is a marker on its line rather than words of a sentence: few words around it,
    and not inside brackets."""
    before, after = line[: match.start()], line[match.end() :]
    if before.count("(") > before.count(")"):
        return False
    return len(phrase(before)) + len(phrase(after)) <= MARKER_OTHER_WORDS


def folio(lines: Sequence[str]) -> tuple[int, int] | None:
    """A page's bare number ("12", "- 12 -"), alone on one of the first or last lines outside tables,
    with where it stands (0 for the first line, -1 for the last): folios of one document stand in one
    place, a quantity or a list's number anywhere. A line in a page's top half is counted from the top,
    one in its bottom half from the bottom, so a short page's last line stands where a long page's does.
    A number with another bare number on the line next to it is a chart's scale or a column's, no folio
    (but the folios of a spread, one number after the other)."""
    found = [(int(number), place) for number, place, crowded in _edge_numbers(lines, _FOLIO) if not crowded]
    return found[0] if found else None


def folios(lines: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Every bare number `folio` could take for a page's, the first first: a section's number alone on
    the line over its heading ("2" over "Wykonanie ćwiczenia") at the top of a page whose folio is at
    its foot is one too, and only the page before tells which is the folio. Numbers beside other bare
    numbers come last: a manuscript's line numbers ("465") stand beside its folio, and only a folio
    following the page before's at its place tells it from a chart's scale."""
    found = _edge_numbers(lines, _FOLIO)
    return tuple(
        (int(number), place) for crowded in (False, True) for number, place, near in found if near == crowded
    )


def roman_folios(lines: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """The Roman numbers ("iv", "XII") standing alone where a folio stands, with their value and place:
    a thesis's or a book's front matter (its abstract, its contents) is numbered so before its body."""
    found = []
    for numeral, place, _ in _edge_numbers(lines, _ROMAN):
        value = roman_value(numeral)
        if value:
            found.append((value, place))
    return tuple(found)


def roman_value(numeral: str) -> int | None:
    """The value of a Roman numeral of one case, i to xxxix ("xiv" is 14: front matter is a few dozen
    pages at most), None for another word."""
    if not _ROMAN_NUMERAL.fullmatch(numeral.lower()) or not (numeral.isupper() or numeral.islower()):
        return None
    values = [_ROMAN_DIGITS[character] for character in numeral.lower()]
    total = sum(
        -value if value < after else value for value, after in zip(values, [*values[1:], 0], strict=True)
    )
    return total or None


def _edge_numbers(lines: Sequence[str], pattern: re.Pattern[str]) -> list[tuple[str, int, bool]]:
    """The numbers alone on a page's first and last FOLIO_LINES lines outside tables, as `pattern`'s
    first group reads them, each with its place and whether a bare number other than the one before or
    after it stands on a line next to it."""
    text = [line for line in lines if not line.startswith("|")]
    places = [*range(min(FOLIO_LINES, len(text))), *range(-min(FOLIO_LINES, len(text)), 0)]
    found: list[tuple[str, int, bool]] = []
    for place in dict.fromkeys(place % len(text) for place in places):
        match = pattern.fullmatch(text[place])
        if match:
            number = match.group(1)
            crowded = number.isdigit() and _among_numbers(text, place, int(number))
            found.append((number, place if 2 * place < len(text) else place - len(text), crowded))
    return found


def _among_numbers(lines: Sequence[str], at: int, number: int) -> bool:
    """Whether a line next to line `at` (whose bare number is `number`) is a bare number too, other
    than the one before or after it (a spread's two folios, "208" over "209", are folios still)."""
    for near in (at - 1, at + 1):
        other = _FOLIO.fullmatch(lines[near]) if 0 <= near < len(lines) else None
        if other and abs(int(other.group(1)) - number) != 1:
            return True
    return False


def script_of(text: str, least: int = SCRIPT_LETTERS) -> str | None:
    """The script most letters of a page are written in ("latin", "arabic", "cjk", ...), None when it
    has fewer than `least` letters or no script holds most of them."""
    counts: Counter[str] = Counter()
    for character in text:
        if character.isalpha():
            counts[_script(ord(character))] += 1
    total = sum(counts.values())
    if total < least:
        return None
    name, count = counts.most_common(1)[0]
    return name if count >= SCRIPT_SHARE * total else None


def scripts_written(text: str) -> frozenset[str]:
    """The scripts a page writes a few words in (WRITTEN_LETTERS letters or more), whichever holds most
    of its letters: a bilingual page's two."""
    counts = Counter(_script(ord(character)) for character in text if character.isalpha())
    return frozenset(name for name, count in counts.items() if count >= WRITTEN_LETTERS)


def language_of(text: str) -> str | None:
    """The language of a page's function words (LANGUAGE_WORDS), when enough of them are counted and
    most are of one language; None for a page of few words, or of two languages."""
    counts = Counter(
        language
        for token in tokenize(text)
        for language, words in LANGUAGE_WORDS.items()
        if token.stem in words
    )
    if not counts:
        return None
    language, hits = counts.most_common(1)[0]
    return language if hits >= LANGUAGE_HITS and hits >= LANGUAGE_SHARE * counts.total() else None


def _script(code: int) -> str:
    for last, name in _SCRIPTS:
        if code <= last:
            return name
    return "other"


def title_lines(lines: Sequence[str], titles: Sequence[Phrase]) -> frozenset[str]:
    """The short lines, not labels ("Invoice date: ..."), that open or end with a document kind or
    subdocument name ("Tax invoice", "RECEIPT #12", "Membership application form"), with digits and
    case aside."""
    return frozenset(" ".join(_DIGITS.sub("#", line.lower()).split()) for line in _title_texts(lines, titles))


def names_unasked_kinds(lines: Sequence[str], titles: Sequence[Phrase], profiles: Sequence[Profile]) -> bool:
    """Whether a page's title lines all name a kind of document none of the subdocuments is, nor name a
    subdocument ("STATEMENT" heading a report's appendix, when no subdocument is a statement): a word
    that titles a kind asked for is surer to open one than a word a document's section may be headed by."""
    asked = {name for profile in profiles for name in profile.names}
    asked_kinds = {kind for profile in profiles for kind in profile.kinds}
    asked_kinds |= {kind for kind, nearest in NEAREST_KIND.items() if nearest in asked_kinds}
    found = _title_texts(lines, titles)
    for line in found:
        words = phrase(line)
        named = [title for title in titles if _titles(words, title)]
        if any(
            title in asked or (title in ALIASES and ALIASES[title].name in asked_kinds) for title in named
        ):
            return False
        if any(title not in ALIASES for title in named):
            return False
    return bool(found)


def title_names(lines: Sequence[str], titles: Sequence[Phrase], numbered: dict[str, str]) -> frozenset[str]:
    """The documents a page's title lines name, digits kept: each line without its asides in brackets
    and its page marker ("Form W-9" of "Form W-9 (Rev. 10-2018)", "Form 990-EZ" of "Form 990-EZ (2013)
    Page 2"), and each kind with the number a title gives it ("RECEIPT 5713"). A document's later pages
    repeat its name under another layout (a revision date, a page number after it); another document
    of its kind has another number."""
    found = {identity(head + value) for head, value in numbered.items()}
    for line in _title_texts(lines, titles):
        name = identity(_PAGE_MARKER.sub("", _ASIDE.sub("", line)))
        if name:
            found.add(name)
    return frozenset(found)


def _title_texts(lines: Sequence[str], titles: Sequence[Phrase]) -> list[str]:
    found = []
    for at, line in enumerate(lines):
        if ":" in line or len(line) > SHORT_LINE or _ENUMERATED.match(line) or led_to_page(line):
            continue  # (a line led by dots to its page number is an entry of a table of contents)
        words = phrase(line)
        if len(words) > HEADING_WORDS or ends_sentence_on_kind(line, titles) or _kinds_heading(line):
            continue
        if (
            any(_titles(words, title) for title in titles)
            and not listed_among_names(lines, at, titles)
            and not carries_sentence_on(lines, at)
        ):
            found.append(line)
    return found


def _kinds_heading(line: str) -> bool:
    """Whether a line is one English word in the plural of a kind alone ("SPECIFICATIONS", "Forms"):
    a section's heading over several of them (a manual's specifications, a list of forms), no title
    of one document. "Thesis", "Devis" and "Analysis" are singular."""
    word = line.strip().strip(".:;,!?*#")
    singular = word[:-1]
    return (
        word.isascii()
        and word.isalpha()
        and word.lower().endswith("s")
        and not word.lower().endswith(("ss", "is", "us"))
        and phrase(singular) == phrase(word)
    )


def carries_sentence_on(lines: Sequence[str], at: int) -> bool:
    """Whether the line at `at` is the end of the sentence on the line before it, wrapped: it opens in
    lower case under a line of running text that stops short of any punctuation ("... in accordance
    with" over "this Contract."). A title opens its own line; a sentence's tail naming a kind
    ("this Agreement.", "the invoice.") is no title."""
    if at == 0 or not lines[at][:1].islower():
        return False
    before = lines[at - 1].rstrip()
    return is_sentence(before) and not before.endswith((".", ":", ";", "!", "?"))


def listed_among_names(lines: Sequence[str], at: int, titles: Sequence[Phrase]) -> bool:
    """Whether the line at `at` is one capitalised word between two other lines of one capitalised word
    that name no kind: an item of a list of names ("Oliver", "Manuel", "Ada"), not a title, though the
    word spells a kind in some language ("Manuel" is French for a manual)."""

    def a_name(line: str) -> bool:
        words = line.split()
        return len(words) == 1 and words[0].isalpha() and words[0][0].isupper() and words[0][1:].islower()

    if not 0 < at < len(lines) - 1 or not a_name(lines[at]):
        return False
    neighbours = (lines[at - 1], lines[at + 1])
    return all(
        a_name(line) and not any(_titles(phrase(line), title) for title in titles) for line in neighbours
    )


def ends_sentence_on_kind(line: str, titles: Sequence[Phrase]) -> bool:
    """Whether a line opens with a sentence's end on a document kind, more words after its full stop
    ("Specifications. Wiley, 2009.", a reference's line carried over to the next page): a title
    names its kind at its head, never closes a sentence on it."""
    head = _SENTENCE_END.split(line, maxsplit=1)
    return len(head) > 1 and phrase(head[0]) in titles


def _titles(words: Phrase, title: Phrase) -> bool:
    size = len(title)
    if not size:
        return False
    opens = words[:size] == title and (len(words) == size or words[size] not in LABEL_FOLLOWERS)
    return opens or words[-size:] == title


def _header_date(lines: Sequence[str]) -> str | None:
    """The date the top lines of a page give a document ("Date: 12/03/2026"), None when they give
    several: dates listed one under the other are a schedule's or an approval chain's ("Reviewed ...
    Date: ...", "Approved ... Date: ..."), a page of the document they are in."""
    found = {
        " ".join(match.group(1).lower().split()) for line in lines if (match := _HEADER_DATE.search(line))
    }
    return found.pop() if len(found) == 1 else None


def _without_packet_numbering(signals: list[PageSignals]) -> list[PageSignals]:
    """The signals without page markers when these number the whole packet (1, 2, 3, ...), as a
    scanner stamps them: they say nothing of where documents start."""
    if len(signals) < 3 or any(page.marker != number for number, page in enumerate(signals, start=1)):
        return signals
    return [replace(page, marker=None, of=None) for page in signals]


# --------------------------------------------------------------------------------------- boundaries
@dataclass(frozen=True)
class Evidence:
    """What one feature says about the gap before a page: its log-odds for a boundary there (positive
    for a new document, negative for the same one) and its name."""

    reason: str
    weight: float


def gap_evidence(signals: Sequence[PageSignals]) -> list[list[Evidence]]:
    """For each page after the first, the evidence that a document starts there rather than continuing
    from the page before: page numbering, numbers, dates and titles, running headers and footers, the
    script, the language against the latest page of the document before telling one (a page of
    references or of figures tells none), the vocabulary the two pages share. The first page's list is
    empty (a document starts there whatever)."""
    found: list[list[Evidence]] = [[]]
    numbers: dict[str, str] = dict(signals[0].numbers) if signals else {}
    titled_numbers: dict[str, str] = dict(signals[0].title_numbers) if signals else {}
    date = signals[0].date if signals else None
    language = signals[0].language if signals else None
    opened = 0  # the latest page the evidence has open a document
    for index in range(1, len(signals)):
        page, previous = signals[index], signals[index - 1]
        following = signals[index + 1] if index + 1 < len(signals) else None
        cover = index == 1 or sum(item.weight for item in found[-1]) > 0  # the page before opens one
        told = _told(signals, index)
        found.append(page_evidence(page, previous, following, numbers, titled_numbers, date, cover, told))
        if _after_blank_back(signals, found, index):
            found[-1].append(Evidence("the page after a title page's blank back", -3.0))
        if page.script == previous.script and page.language and language and page.language != language:
            found[-1].append(Evidence("another language", 2.0))
        if _heads_again(page, previous, signals[opened]) and opened < index - 1:
            found[-1].append(Evidence("the top lines of its document's first page again", 2.0))
        if page.opening and abs(sum(item.weight for item in found[-1])) < page.heard_within:
            found[-1].append(Evidence(_LEARNT_REASON, page.opening))
        numbers.update(page.numbers)
        titled_numbers.update(page.title_numbers)
        date = page.date or date
        opened = index if sum(item.weight for item in found[-1]) > 0 else opened
        opens = sum(item.weight for item in found[-1]) > 0  # the language of the document it opens
        language = page.language if opens else page.language or language
    return found


def _heads_again(page: PageSignals, previous: PageSignals, first: PageSignals) -> bool:
    """Whether a page opens with `TOP_AGAIN` of the top lines of its document's first page ("TravelTrax
    Tours", "Basis: Accrual" over "Balance Sheet", then over "Profit and Loss"), lines the page before
    does not show: the next report of one company's set, or the next letter on one letterhead. A page
    repeating all of them is that first page again (a deck's closing slide repeats its title slide)."""
    again = page.top & first.top
    return len(again) >= TOP_AGAIN and not again & previous.top and page.top != first.top


def _told(signals: Sequence[PageSignals], index: int) -> PageSignals:
    """The first page from `index` on, SHORT_RUN pages on at most, with enough words to tell its topic,
    short pages compared through; not past a page that opens a document of its own (a new title, a
    letter's salutation, a paper's front, its numbering at 1): the page short of words is then the end
    of the document before it (a letter's last page, its signature), not the cover of the one after;
    nor past a page in another script, which opens its own.
    A short page keeping a running header or footer of the page before (a manual's appendix of a few
    lines under its running title) is that document's page: it is weighed alone."""
    if signals[index].edges & signals[index - 1].edges:
        return signals[index]  # it keeps the page before's running line: that document's page
    for later in range(index, min(len(signals), index + 1 + SHORT_RUN)):
        page = signals[later]
        if later > index and (
            _opens_alone(page, signals[later - 1]) or _script_changes(page, signals[later - 1])
        ):
            break
        if _says_its_topic(page):
            return page
    return signals[index]


def _script_changes(page: PageSignals, previous: PageSignals) -> bool:
    """Whether two pages are written in two scripts (Latin, then Arabic): the page in the other script
    opens a document of its own, so a short page before it (a balance sheet's last lines) is not told
    by it."""
    return bool(page.script and previous.script and page.script != previous.script)


def _bilingual_frame(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page in another script than the page before keeps that page's running line and the page
    before already wrote words in its script, if only that running line: the frames of a bilingual deck
    or manual, one page mostly in the one script and the next mostly in the other, under one header (a
    Chinese thesis's English abstract under its Chinese running title). A page of another document
    keeps no running line of the page before, or opens in a script the page before never wrote."""
    kept = page.edges & previous.edges
    return bool(kept) and (
        page.script in previous.written or any(script_of(line, FRAME_LETTERS) == page.script for line in kept)
    )


def _names_the_same(page: PageSignals, previous: PageSignals) -> bool:
    """Whether every document a page's titles name, by kind and number, is one the page before named:
    the running title of a numbered document (a form's "Form 8822 (Rev. 2-2018)" on its second page)."""
    return bool(page.names) and page.names <= previous.names and any(map(_DIGITS.search, page.names))


def _opens_alone(page: PageSignals, previous: PageSignals) -> bool:
    return bool(page.titles - previous.titles) or page.greets or page.paper_front or page.marker == 1


def _after_blank_back(
    signals: Sequence[PageSignals], found: Sequence[Sequence[Evidence]], index: int
) -> bool:
    """Whether the page at `index` follows empty pages after a title page opening a document (few words,
    the first page or one whose gap has a document start there): a printed document's title page has a
    blank back, and its body follows it. The empty page says nothing of the page after it, which is
    otherwise weighed against nothing (its topic and kind against an empty page's)."""
    before = index - 1
    while before >= 0 and signals[before].empty:
        before -= 1
    if before < 0 or before == index - 1 or _says_its_topic(signals[before]):
        return False
    return before == 0 or sum(item.weight for item in found[before]) > 0


def page_evidence(
    page: PageSignals,
    previous: PageSignals,
    following: PageSignals | None,
    numbers: dict[str, str],
    titled_numbers: dict[str, str],
    date: str | None,
    cover: bool = False,
    told: PageSignals | None = None,
) -> list[Evidence]:
    """The evidence of the gap between `previous` and `page`; `numbers`, `titled_numbers` and `date`
    are the latest document numbers, title numbers and header date of the pages before; `cover`, whether
    the evidence before `previous` has it open a document; `told`, the first page from `page` on with
    enough words for its topic, SHORT_RUN pages on at most. A page too short to tell one (a title page,
    a scanned form with little text read) is compared through: the topic of the pages around it is
    weighed at the gap before it, as a document's title page opens it."""
    found = [Evidence(_PRIOR_REASON, PRIOR)]
    if page.empty:
        found.append(Evidence("an empty page", -3.0))
    if page.continued or previous.continues:
        found.append(Evidence("marked as continued", -4.0))
    if previous.open_end and page.mid_sentence:
        found.append(Evidence("a sentence carried over from the page before", -2.5))
    if _sections_follow(page, previous):
        found.append(Evidence("its numbered sections follow the page before's", -2.0))
    found.extend(_numbering(page, previous, cover))
    shared = [head for head in page.numbers if head in numbers]
    if any(page.numbers[head] != numbers[head] for head in shared):
        found.append(Evidence("a new document number", 4.0))
    elif shared:
        same = -1.0 if _kind_changes(page, previous) else -3.0
        found.append(Evidence("the same document number", same))
    known = {**titled_numbers, **numbers}
    titled = [head for head, value in page.title_numbers.items() if known.get(head) != value]
    if any(head in known for head in titled):
        found.append(Evidence("a title with another document number", 4.0))
    elif titled:
        found.append(Evidence("a title with a document number", 2.5))
    if previous.closes:
        found.append(Evidence("the page before closed its document", 3.0))
    told = page if told is None else told
    topic = 0.0 if _nothing_shared(page, previous) else cohesion(previous, told)
    inside = _folios_follow(page, previous) and topic is not None and topic >= COHESIVE
    # "Invoice (continued)" is no new title, nor "Form W-9 (Rev. 10-2018)" under "Form W-9"
    renamed = (
        bool(_title_words(page.titles) - _title_words(previous.titles | previous.top))
        and not page.continued
        and not _names_the_same(page, previous)
    )
    if inside and (page.greets or renamed):
        # numbered on from the page before and on its topic, the page is that document's, whatever title
        # or salutation it shows: a manual's example of the document it explains, a letter quoted in a
        # report
        found.append(Evidence("a title or salutation on a page numbered on, on the same topic", 0.0))
    if page.greets and not inside:
        found.append(Evidence("a letter's salutation", 3.0))
        if previous.greets:  # a letter greets its reader once: two letters of one sender in a row
            found.append(Evidence("the page before greeted a reader too", 1.5))
    if previous.signs_off and page.letter_tail:
        found.append(Evidence("the copies and enclosures of the letter signed off before", -2.5))
    elif previous.signs_off:
        found.append(Evidence("the page before signed a letter off", 2.5))
    elif previous.signed_at_end:
        found.append(Evidence("the page before ended on a date and a signature to fill in", 2.5))
    elif previous.generated_end and not page.generated_end:
        # a note every page of a document repeats at its foot ends none of them
        found.append(Evidence("the page before ended on a note that a computer made it", 2.5))
    if page.paper_front and not previous.paper_front:
        found.append(Evidence("a paper's front: an abstract and an affiliation", 3.0))
    if page.contents and not _numbered(previous) and not _opens_alone(page, previous):
        # an unnumbered page before it is its document's title page, as a report or a thesis opens
        found.append(Evidence("a table of contents after an unnumbered page", -1.5))
    if page.back_page and not _opens_alone(page, previous):
        found.append(Evidence("a product's back page closes the document before", -2.5))
    if page.references and not _opens_alone(page, previous):
        # a paper's references share few words with its body (names, titles, journals), and may name
        # other kinds of documents ("User's Manual"): their heading says whose end they are
        found.append(Evidence("a list of references closes the document before", -3.0))
    if page.date and date and page.date != date:
        found.append(Evidence("a new document date", 2.5))
    after_cover = cover and _bare_cover(previous)
    if renamed and not inside and after_cover:
        # a cover of a few lines naming no kind ("SWITCHING MODE POWER SUPPLY" over its models) opens the
        # document the title on the page after it names ("USER MANUAL"): the cover's own
        found.append(Evidence("the first title after its document's cover", 0.0))
    elif renamed and not inside and page.unasked and topic is not None and topic >= CLOSE_TOPIC:
        # a title naming only a kind no subdocument is, on the topic of the page before: a section of
        # that document headed by a word that names a kind too ("STATEMENT" over a report's appendix)
        found.append(Evidence("a title of a kind not asked for, on the topic of the page before", 1.0))
    elif renamed and not inside:
        found.append(Evidence("a new title", 4.0))
    elif page.titles and not renamed:
        found.append(Evidence("the title of the page before", 0.5))
    template = refills(page, previous)  # its running lines and vocabulary are then the template's
    if template:
        found.append(Evidence("the same template filled in again", 3.0))
    else:
        found.extend(_running_lines(page, previous, following))
    if page.opens_with_table:
        found.append(Evidence("a table carried over", -0.7))
    if _script_changes(page, previous):
        if _bilingual_frame(page, previous):
            found.append(Evidence("another script under the running line of a page written in it too", 0.0))
        else:
            found.append(Evidence("another script", 3.0))
    # a short page told by the page after it may name the page before's name itself (a form's payment
    # details under its terms, the town's name on both): its low cohesion then says nothing either
    if not template and not any(_names_again(each, previous, topic) for each in (told, page)):
        found.extend(_topic(topic))
    weighed = topic is not None or max(page.scores, default=0.0) >= UNTOLD_POINTS
    bare = _bare_cover(previous)  # a cover or a stub ("Abstract" over "Your abstract.") leans to no kind
    if (
        _reads_otherwise(page, previous)
        and (topic is None or topic < COHESIVE)
        and weighed
        and not bare
        and not page.contents
    ):
        # kept to the topic of the page before, a page reading as another kind is still its document's;
        # with no topic to tell, only a page clearly of its own kind (a caption or a table of a
        # report may lean to another kind alone) is weighed
        found.append(Evidence("the page reads as another kind of document", 1.5))
    if size_changes(page, previous) and not _goes_on(found):
        found.append(Evidence("the page size or orientation changes", SIZE_CHANGE))
    return found


def _title_words(titles: frozenset[str]) -> set[tuple[str, ...]]:
    """Titles (or top lines) as the words they hold, in any order: a heading in a right-to-left script,
    or across two columns, is read in one order on one page and in another on the next, and a title
    only where its kind's name comes first."""
    return {tuple(sorted(title.split())) for title in titles}


def _bare_cover(page: PageSignals) -> bool:
    """Whether a page is a cover or a stub naming no kind: at most COVER_LINES lines, fewer than
    FEWEST_TOPIC_WORDS content words, no title of a document kind, no salutation. Its own evidence tells
    no kind: a page after it that reads as one reads as nothing else than it."""
    short = 0 < len(page.lines) <= COVER_LINES and sum(page.words.values()) < FEWEST_TOPIC_WORDS
    return short and not page.titles and not page.greets


def size_changes(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page is set on other paper than the page before: another size (A4 after Letter) or
    orientation (landscape after portrait), both sizes known. Sides are compared by their share
    (SIZE_SLACK of the longer): pages scanned or cropped apart differ by a few points on one paper. A
    page twice or half the width of the page before at one height is a booklet's cover beside its
    spreads (or a spread beside its cover): one document. A page read by OCR on no standard paper is a
    scan cropped to what it shows: its size says nothing of its paper."""
    if page.size is None or previous.size is None:
        return False
    if any(signals.scanned and not on_paper(signals.size) for signals in (page, previous)):
        return False
    (width, height), (width_before, height_before) = page.size, previous.size
    if not within(height, height_before, SIZE_SLACK):
        return True
    return not any(within(width, times * width_before, SIZE_SLACK) for times in (1.0, 2.0, 0.5))


def _goes_on(found: Sequence[Evidence]) -> bool:
    """Whether anything at a gap but the prior says the page goes on from the page before (its
    numbering, its running lines, its topic, a table carried over): the page's size alone never
    outweighs that."""
    return any(item.weight < 0 and item.reason not in (_PRIOR_REASON, _LEARNT_REASON) for item in found)


def _numbering(page: PageSignals, previous: PageSignals, cover: bool = False) -> list[Evidence]:
    """Page markers ("Page 2 of 3") and folios (a page's bare number at its top or bottom). Numbering
    that starts at 1 after an unnumbered page opening a document is the numbering of that document's
    body after its title page or cover (slides numbered after the title slide): no evidence of a new
    one (a report's table of contents, its title repeated, is its "Page 1 of 4" after its cover)."""
    found: list[Evidence] = []
    if page.marker is not None:
        if page.marker == 1 and cover and previous.marker is None and previous.folio is None:
            found.append(Evidence("page numbering starts after a title page", 0.0))
        elif page.marker == 1:
            found.append(Evidence("page numbering restarts", 4.0))
        elif previous.marker == page.marker - 1:
            found.append(Evidence("page numbering continues", -4.0))
        elif previous.marker == page.marker and page.of is not None and previous.of == page.of:
            # "4 / 17" twice: a slide built in steps shows its frame's number on each step
            found.append(Evidence("the page before's number again, of as many pages", -2.5))
        else:
            found.append(Evidence("a page numbered after the first", -1.0))
    if previous.marker is not None and previous.marker == previous.of:
        found.append(Evidence("the page before was the last of its document", 3.0))
    elif (
        page.marker is None and previous.marker is not None and previous.of and previous.marker < previous.of
    ):
        # "3 / 4" promises a fourth page: an unnumbered one after it (a deck's closing slide repeating
        # its title slide, an appendix) is that page, whatever title or kind it reads as alone
        found.append(Evidence("the page before promised more pages", -4.0))
    if _numbered_deep_after_unnumbered(page, previous):
        found.append(Evidence("a page numbered deep into a document after an unnumbered one", 1.5))
    if page.marker is not None and previous.marker is not None:
        pass  # both pages are numbered by their markers: a bare number on them is a list's or a slide's
    elif _folios_follow(page, previous):
        found.append(Evidence("the folios follow", -2.5))
    elif page.folio is not None and previous.folio is not None and page.folio[1] == previous.folio[1]:
        if page.folio[0] == 1:
            found.append(Evidence("the folios restart", 2.5))
        elif page.folio[0] != previous.folio[0]:  # a slide built in steps repeats its frame's number
            found.append(Evidence("the folios break", 1.0))
    elif _folio_restarts_elsewhere(page, previous):
        found.append(Evidence("the folios restart elsewhere on the page", 2.5))
    return found


def _numbered(page: PageSignals) -> bool:
    """Whether a page bears a page number: a marker, or a folio up to COUNTED_PAGES (a year is none)."""
    return page.marker is not None or (page.folio is not None and page.folio[0] <= COUNTED_PAGES)


def _folio_restarts_elsewhere(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page numbered 1 follows a page numbered further on its very first or last line, the
    two numbers at different places (the page before's at its foot, this one's at its head): documents
    set out apart number their pages apart, each from 1, each at its own place. A number a few lines
    into the page before is as likely a quantity of a column as its folio, and a year at its foot
    ("2017" under a report's title page) is no folio."""
    if page.folio is None or previous.folio is None or page.folio[1] == previous.folio[1]:
        return False
    return page.folio[0] == 1 and 1 < previous.folio[0] <= COUNTED_PAGES and previous.folio[1] in (0, -1)


def _folios_follow(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page's bare number follows the page before's, at the same place on both: of the
    numbers each page could take for its folio (a section's number may stand where a folio does), any
    two."""
    return any(
        number == number_before + 1 and place == place_before
        for numbers, numbers_before in ((page.folios, previous.folios), (page.roman, previous.roman))
        for number, place in numbers
        for number_before, place_before in numbers_before
    )


def _numbered_deep_after_unnumbered(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page numbered far into a document (273, not 3: a title page and a preface go
    unnumbered) follows a page with text and no number: that page, of the same document, would bear
    one. A year (2023) is no folio; an empty page bears no number whatever its document. A Roman folio
    (front matter's "iv") is a number too, on either page."""
    deep = page.folio is not None and DEEP_FOLIO <= page.folio[0] <= COUNTED_PAGES
    unnumbered = previous.folio is None and previous.marker is None and not previous.roman
    return deep and not previous.empty and unnumbered and not page.roman


def _running_lines(page: PageSignals, previous: PageSignals, following: PageSignals | None) -> list[Evidence]:
    """Running headers and footers: kept from the page before (the same document), or beginning on
    this page and kept on the next while the page before had none of them (a new document's)."""
    kept = len(page.edges & previous.edges)
    if kept >= RUNNING_LINES:
        return [Evidence("the same running header or footer", -1.5)]
    if kept:
        return [Evidence("a running line kept", -0.8)]
    if following is not None and len((page.edges & following.edges) - previous.edges) >= RUNNING_LINES:
        return [Evidence("a running header or footer begins", 1.5)]
    return []


def _topic(topic: float | None) -> list[Evidence]:
    """The vocabulary two pages share (`cohesion`): the pages of one document keep to one topic."""
    if topic is None:
        return []
    if topic >= CLOSE_TOPIC:
        return [Evidence("the topic of the page before", -1.5)]
    if topic >= COHESIVE:
        return [Evidence("near the topic of the page before", -0.7)]
    if topic < UNRELATED:
        return [Evidence("no topic shared with the page before", 1.5)]
    return []


def _names_again(page: PageSignals, previous: PageSignals, topic: float | None) -> bool:
    """Whether a page sharing little vocabulary with the page before names again a name it gave (an
    organisation, a place): the pages of a form's fields and of its declarations to sign share few
    words but the name of whoever the form is for; its low cohesion then says nothing."""
    return topic is not None and topic < UNRELATED and bool(page.proper_names & previous.proper_names)


def _nothing_shared(page: PageSignals, previous: PageSignals) -> bool:
    """Whether two pages too short for `cohesion` to tell their topic, yet of a few dozen words each (or
    one of a couple dozen against one long enough to tell its topic), share not one: two pages of one
    document that long have some in common."""
    counts = sorted((sum(page.words.values()), sum(previous.words.values())))
    long_enough = counts[0] >= FEW_TOPIC_WORDS or (
        counts[0] >= FEWEST_TOPIC_WORDS and counts[1] >= TOPIC_WORDS
    )
    return long_enough and not page.words.keys() & previous.words.keys()


def _says_its_topic(page: PageSignals) -> bool:
    return sum(page.words.values()) >= TOPIC_WORDS


def refills(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page is the page before filled in again: the same title, most of its lines the
    other's (a form's labels, a shop's header), but not all (other names, dates, amounts). Pages of
    one document share their running lines only; a page repeated word for word is not a new document."""
    fewer = min(len(page.lines), len(previous.lines))
    if not page.titles or page.titles != previous.titles:
        return False
    if fewer < TEMPLATE_LINES or page.lines <= previous.lines or previous.lines <= page.lines:
        return False  # a page repeated, or built on in steps (a slide's next step adds a line)
    return len(page.lines & previous.lines) >= TEMPLATE_SHARE * fewer


def _reads_otherwise(page: PageSignals, previous: PageSignals) -> bool:
    """Whether a page's own evidence clearly names a subdocument the page before does not lean to."""
    own = decisive(page.scores)
    return own is not None and (max(previous.scores, default=0.0) <= 0 or own != _best(previous.scores))


def _kind_changes(page: PageSignals, previous: PageSignals) -> bool:
    own, before = decisive(page.scores), decisive(previous.scores)
    return own is not None and before is not None and own != before


def segment(signals: Sequence[PageSignals]) -> list[Instance]:
    """The pages cut into instances by the best segmentation of the whole sequence: the sum of the
    evidence of the gaps chosen as boundaries, plus, for each instance, how well one subdocument
    accounts for all its pages (a page's own evidence, capped); found by dynamic programming over the
    pages with the subdocument of the instance each ends (Viterbi), rather than page by page."""
    if not signals:
        return []
    evidence = gap_evidence(signals)
    gaps = [sum(item.weight for item in items) for items in evidence]
    kinds = len(signals[0].scores)
    emission = [[EMISSION * min(points, EMISSION_CAP) for points in page.scores] for page in signals]
    best = list(emission[0])
    starts: list[list[bool]] = [[True] * kinds]
    came: list[list[int]] = [[-1] * kinds]
    for index in range(1, len(signals)):
        leader = _best(best)
        row, start_row, came_row = [], [], []
        for kind in range(kinds):
            opened = best[leader] + gaps[index]
            if opened > best[kind]:
                row.append(opened + emission[index][kind])
                start_row.append(True)
                came_row.append(leader)
            else:
                row.append(best[kind] + emission[index][kind])
                start_row.append(False)
                came_row.append(kind)
        best = row
        starts.append(start_row)
        came.append(came_row)
    boundaries = [False] * len(signals)
    kind = _best(best)
    for index in range(len(signals) - 1, -1, -1):
        boundaries[index] = starts[index][kind] or index == 0
        kind = came[index][kind]
    instances: list[Instance] = []
    for index, page in enumerate(signals):
        if boundaries[index]:
            sure = 1.0 if index == 0 else _sure(gaps[index])
            instances.append(Instance([index], list(page.scores), likelihood=sure, opening=sure))
        else:
            instances[-1].pages.append(index)
            instances[-1].likelihood = min(instances[-1].likelihood, _sure(-gaps[index]))
    return instances


def _sure(log_odds: float) -> float:
    """How sure a decision with these log-odds is, at most SUREST."""
    return min(SUREST, 1.0 / (1.0 + math.exp(-log_odds)))


def decisive(scores: Sequence[float]) -> int | None:
    """The subdocument the scores clearly point to, if any."""
    if not scores:
        return None
    ranked = sorted(range(len(scores)), key=lambda index: (-scores[index], index))
    best = scores[ranked[0]]
    runner_up = scores[ranked[1]] if len(ranked) > 1 else 0.0
    return ranked[0] if best >= DECISIVE_POINTS and best >= DECISIVE_RATIO * runner_up else None


def _without_empty(instances: list[Instance]) -> list[Instance]:
    """The instances, each one without any evidence joined to the one before it (or after, at the start),
    unless sure boundaries open and close it (a page in another script between two documents). A run of
    instances without evidence counts as one: sure boundaries around the run keep it on its own, as one
    instance, whatever weak cuts lie inside it (a slide deck after a letter, cut at a numbered slide).
    One opened surer than it is closed goes with the instance after it: the weaker cut is the wrong one."""
    closings = [following.opening for following in instances[1:]] + [1.0] * bool(instances)
    runs: list[tuple[Instance, float]] = []
    index = 0
    while index < len(instances):
        end = index + 1
        if max(instances[index].scores) <= 0:
            while end < len(instances) and max(instances[end].scores) <= 0:
                end += 1
        run = instances[index:end]
        if len(run) > 1 and min(run[0].opening, closings[end - 1]) >= ALONE:
            for later in run[1:]:
                run[0].pages.extend(later.pages)
                run[0].likelihood = min(run[0].likelihood, later.likelihood)
            runs.append((run[0], closings[end - 1]))
        else:
            runs.extend((instance, closings[at]) for at, instance in enumerate(run, start=index))
        index = end
    kept: list[Instance] = []
    waiting: list[int] = []
    for position, (instance, closing) in enumerate(runs):
        alone = min(instance.opening, closing) >= ALONE
        last = position == len(runs) - 1
        if max(instance.scores) <= 0 and not alone and (kept or not last):
            if kept and (last or instance.opening <= closing):
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
