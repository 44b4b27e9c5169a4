"""Real documents: the docsvc engine against its peers on public documents with ground truth.

    .venv/bin/python bench/real_corpus.py --mirrors DIR          # once: assemble .corpus/ (see there)
    .venv/bin/python bench/real_documents.py [--split tune|heldout|heldout2|...|heldout27|all]
        [--corpus .corpus] [--json PATH] [--no-rotations] [--no-camelot]

Reads the documents of `bench/real_documents/manifest.json` (real PDFs, scans and photos taken from
public repositories, each with the ground truth its repository keeps) from the corpus folder, whose
layout bench/real_corpus.py writes, keeping the `--split` asked for (`tune` by default; about a third
of each category is `heldout`; `heldout2` to `heldout22` and `heldout25` to `heldout27`, later
held-out sets, have no truth file, `truth_kind` "none": their documents are read for their text
layer's words). Every document is read in this one run by the docsvc engine in process
(`engine.parse_pages`, as the parse service calls it), raw PyMuPDF `page.get_text()`, and, when
importable (`pip install -e '.[bench]'`), pdfplumber (`extract_text` and `extract_tables` per page)
and markitdown (one text per PDF); camelot (lattice, then stream where lattice finds nothing) reads
the PDFs whose truth holds tables, when it is importable. pdfplumber, markitdown and camelot read PDFs
only. A missing peer is reported as not available.

What it measures, per document, then summed per category, per language and over all:
- Text-layer fidelity against raw PyMuPDF, on PDFs whose text layer has words. Both texts are
  normalised alike: Markdown table rule rows (lines of dashes and `|`) dropped, a space before a
  non-spacing mark of a left-to-right script dropped (no word begins with one: it is drawn on the
  glyph before it; a vowel sign drawn before its consonant, or a right-to-left word raw writes
  backwards, may), `|` made a space
  on a line that is a table's row (`\\|` kept as a character; elsewhere `|` is a character),
  heading marks and `**` removed, a word broken by a hyphen at a line end joined (the engine asks
  MuPDF to do so), then split on whitespace, punctuation stripped from both ends of a word (Unicode
  NFKC, case kept). A glyph whose font gives it no Unicode value is no character of the text layer:
  raw get_text writes its code, which reads as any character (a bullet as "r\\x01"), so raw is read a
  second time without codes, untimed, and what that reading writes U+FFFD is U+FFFD in raw too (its
  font's spaces kept); on both sides U+FFFD is stripped from a token's ends as punctuation is (a
  big parenthesis of a formula's font stuck to `n+1` on one side, written apart on the other), and
  within a token it parts the token's words, on both sides alike: whether a word ends at a glyph that
  is no character no reader can tell, and raw get_text puts a space after such a glyph where its
  metrics leave a gap (an Arabic letter's dots drawn as glyphs of their own,
  "\u0627\u0644\u06a1\ufffd \u0627\u0645\u0647"), where a reading that keeps the word whole writes
  none. On a line that holds right-to-left letters raw get_text writes no space where the direction
  changes, however far apart the glyphs (two cells of a table's row, "\u0664U+0600"): on a page with
  a word that mixes such letters with others, raw is read again character by character, untimed, and a
  space put between two runs of one direction of such a word that are more than 0.15 of the font size
  apart. Raw get_text reads no drawing: where its spacing does not part two glyphs on both sides of a
  vertical rule drawn across their line (a table's column rule, a frame's edge; a font whose metrics MuPDF
  cannot use, "\u2192k" half a font size apart), it writes one word that no reader sees, so on a page with
  such rules raw is read again character by character, untimed, and a space put where a rule stands between
  two glyphs; where a cell's text runs on across its column's rule and the next cell's text starts on with
  no space (a package's name over the rule, then its figures, "systemd-bootchartV:0,"; "dehtmldiff(1)" with
  "HTML" drawn back over its bracket; "tamanhoinitrd", a header and the next cell in one font), a space is
  put before the first glyph a cell's padding past the rule (0.3 to 1 font size) that does not start where
  the glyph before it ends (5% of the font size past it, back over it in a run of its own, or off it by 1%
  where another line of the page starts too: the column's other cells), the word's glyphs before it
  following each other at their advances, two glyphs or more on each side, the next rule across the line
  two font sizes or more further. Nor does it write one before a glyph it takes into a line from off that
  line's baseline in a font whose spacing it cannot measure (a proof's rule label half a line below its
  formula, in a math font): raw is read again character by character, untimed, and a space put between
  two glyphs more than 0.6 of the font size apart whose baselines are more than half of it apart. A
  heading mark is a `#` run before text on its line (a line that is only `#` is a word). Word recall: the
  share of the multiset of raw words found in the output.
  Words cut: raw words missing from the output that appear there split across two neighbouring
  tokens (two cells, or a word broken in two). Words repeated: over the raw words, how many more
  times the output holds them than raw does. Extra: output words that raw does not hold at all.
  Picture words: on a page the engine says it OCR'd (`ocr_confidence` set) that has a text layer
  too, the output's words beyond that page's raw words, read from its pictures; they are reported
  in their own column ("pict") and left out of repeated and extra, never dropped silently. A page
  whose text layer maps most of its glyphs to no character (the engine warns it OCR'd the page for
  that) has no raw words to keep: it is left out of the engine's fidelity and counted apart.
- Speed: seconds per document for each extractor (the engine in process, its page times taken
  between the pages it yields), and the ratio to raw `get_text` (open and every page). The median
  ratio over documents of 10 pages or more; the median per-page ratio on text-layer pages without a
  table (no table in the truth nor in the engine's output); the engine's seconds on table pages (a
  table in the truth or in the output) at p50 and p99. One untimed engine parse warms up first.
- Table cells, where the truth has tables (docling's table cells, tabula's expected CSV/JSON,
  olmOCR-bench's table tests): an expected cell, normalised (NFKC, `\\|` unescaped, whitespace
  collapsed, casefolded), counts as strict when a returned cell of the document equals it, as
  contained when it is inside a returned cell. The engine's cells are its Markdown tables (or its
  pages' `tables` when the page has such a field). A truth that gives no page (tabula's) puts its
  table on the page whose raw text holds most of its cells. Table pages missed: truth table pages
  on which the extractor returned no table (markitdown gives no pages and is not counted there).
- `heldout8t` to `heldout41t`: PDFs printed from a source their repository keeps beside them (an
  HTML page, a workbook, a CSV file, a Word document, a LaTeX or Markdown file, the literal rows a
  PDF generator's test draws): the truth is that source's table cells (`truth_kind` html-tables,
  xlsx-cells, csv-cells, docx-tables, latex-tables, markdown-tables, python-literal), each kept
  where the PDF's text layer shows it (a number its format writes otherwise, a cell of LaTeX
  markup, is no expected cell); a reader takes every table of the source, with no page, so they are
  scored as tabula's are. An html-tables truth whose `truth_select` names a class takes the tables
  of that class only (a documentation page's content tables, not its tables of navigation links).
  Where the repository keeps no source beside the PDF (a bank's statement, a price list, a data
  sheet), the entry's `truth_cells` hold the cells typed by hand from the page, page by page
  (`truth_kind` typed-cells), and are kept, like a source's, where the text layer shows them.
- OCR word recall on scans and photos whose truth has text: the share of the truth's words
  (normalised as above, casefolded) found in the output. By orientation: a document as it is (a
  scan the repository ships rotated counts at its rotation), and, for one-page documents, copies
  rotated 90, 180 and 270 degrees clockwise in memory (`--no-rotations` skips them); by language at
  the document's own orientation. Raw get_text, which does no OCR, is shown alongside.

The worst documents for word loss, cut and repeat are listed with their ids. Every figure is
computed in the run; `--json PATH` writes them all, with the per-document figures. The exit code is
0 whatever the figures, 1 if an available extractor raised on a document (reported by id), 2 when the
corpus is not assembled here.
"""

from __future__ import annotations

import argparse
import ast
import collections
import csv
import difflib
import gzip
import importlib.util
import io
import itertools
import json
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pymupdf
from defusedxml import ElementTree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.documents import engine  # noqa: E402
from docsvc.documents.engine.textlayer import UNREADABLE_READ  # noqa: E402

from bench.real_corpus import MANIFEST, corpus_arguments, corpus_path, load_manifest  # noqa: E402

ENGINE, RAW, PLUMBER, MARKITDOWN, CAMELOT = (
    "docsvc engine",
    "PyMuPDF get_text (raw)",
    "pdfplumber",
    "markitdown",
    "camelot",
)
TEXT_EXTRACTORS = (ENGINE, RAW, PLUMBER, MARKITDOWN)
TABLE_EXTRACTORS = (ENGINE, PLUMBER, MARKITDOWN, CAMELOT)
OPTIONAL = {PLUMBER: "pdfplumber", MARKITDOWN: "markitdown", CAMELOT: "camelot"}
OCR_CATEGORIES = {"scan", "photo"}
ROTATIONS = (90, 180, 270)
# Held-out sets of tables whose truth is the source the PDF was made from (see SOURCE_TABLE_READERS).
TABLE_SPLITS = (
    "heldout8t",
    "heldout9t",
    "heldout10t",
    "heldout11t",
    "heldout12t",
    "heldout13t",
    "heldout14t",
    "heldout15t",
    "heldout16t",
    "heldout17t",
    "heldout18t",
    "heldout19t",
    "heldout20t",
    "heldout21t",
    "heldout22t",
    "heldout23t",
    "heldout24t",
    "heldout25t",
    "heldout26t",
    "heldout27t",
    "heldout28t",
    "heldout29t",
    "heldout30t",
    "heldout31t",
    "heldout32t",
    "heldout33t",
    "heldout34t",
    "heldout35t",
    "heldout36t",
    "heldout37t",
    "heldout38t",
    "heldout39t",
    "heldout40t",
    "heldout41t",
)
LONG_DOCUMENT_PAGES = 10
WORST = 5
UNMAPPED = "\ufffd"  # a glyph whose font gives it no Unicode value, as MuPDF writes it
# Raw get_text writes such a glyph as its code (TEXT_CID_FOR_UNKNOWN_UNICODE), which reads as any
# character; read without that flag, the glyph is UNMAPPED: the two readings say which it is.
_WITHOUT_CODES = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
PUNCTUATION = "\"'`.,;:!?()[]{}<>«»“”\u2018\u2019„*_~"
_RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"  # Hebrew, Arabic, Syriac, Thaana
# A right-to-left character next to any other that is no space (a digit, a letter, a sign: "10%" in a
# table's cell beside a Hebrew one), with no space between.
_MIXED = re.compile(f"[{_RTL}][^\\s{_RTL}]|[^\\s{_RTL}][{_RTL}]")
_BACKWARDS = re.compile(f"[{_RTL}]")
_SPACE_WIDTH = 0.15  # of the font size: runs of glyphs this far apart are apart (kerning is less)
_RULE_WIDTH = 2.0  # points: a drawn path this narrow and at least _RULE_TALL times as tall is a rule
_RULE_TALL = 4
_RULE_SLACK = 0.5  # points a rule's middle may stand into the glyph beside it (a frame drawn tight)
# Glyphs a rule parts stand at least this share of their font size apart: a rule drawn across glyphs
# that touch (a form's line through "Number", a plot's axis through "0.040") parts no word.
_RULE_GAP = 0.05
# A glyph after a column rule a word runs across that starts where the glyph before it ends, give or
# take _ADVANCE_SLACK of the font size, goes on the same word (`_overflow_written`): a word's glyphs
# follow at their advances; the next cell's text, a run of its own, starts _CELL_PADDING (of the font
# size, from and to) right of the rule, well off the overflow's last glyph, or a little off it or drawn
# back over it where the column's other lines start too (within _ALIGNED points, a kerned word's glyph
# past a rule stands where no line starts).
# Glyphs before it more than _OVERFLOW_STEP apart are set one by one (a picture's label): no word.
_ADVANCE_SLACK = 0.01
_ALIGNED = 0.5
_OVERFLOW_STEP = 0.02
_CELL_PADDING = (0.3, 1.0)
_VECTOR_BLOCK = 3  # the kind of a block `extractBLOCKS` lists for a piece of a path
# Two glyphs written one after the other stand apart, whatever get_text writes between them, when the
# second is more than _OFF_LINE_GAP of the font size past the first (more than the spaces a formula
# sets before a fraction or a script: a thick space, 5/18 of an em, and the null delimiter's) and its
# baseline is more than _OFF_LINE_SHIFT of the font size above or below the first's (more than a
# superscript's or a subscript's shift: a label set beside a proof's rule, between the rule's lines).
_OFF_LINE_GAP = 0.6
_OFF_LINE_SHIFT = 0.5
# A glyph of a line: (character, box, font size, baseline).
Glyph = tuple[str, Any, float, float]

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


# ---------------------------------------------------------------------------------------- text
# A Markdown table's rule row holds a `|`: a line that is only dashes ("---", a YAML block's fence) is
# the text's, a word on both sides, whether the text layer writes it as a line or the engine in a cell.
_RULE_ROW = re.compile(r"^(?=[^|]*\|)\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
# A heading's mark: before text on its line (a line of raw text that is only "#" is a word of it).
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(?=\S)", re.MULTILINE)
# Kinds the engine writes no heading marks for (their pages, text layer or OCR, are no Markdown
# headings): a `#` that begins a line of them is the text's (a code comment), on both sides.
_NO_HEADINGS = frozenset({"pdf", "png", "jpg", "jpeg", "webp", "tif", "tiff"})
# A word hyphenated at a line's end: joined on both sides of a comparison, whether the line break
# survives (plain text) or became a space (a table cell holds one line).
_HYPHEN_BREAK = re.compile(r"(\w)-\s+(\w)")
# Spaces within a line before a character: none is kept before a non-spacing mark of a left-to-right
# script (a Telugu length mark after a glyph of no width, from which MuPDF measured a space's gap).
_BEFORE_A_MARK = re.compile(r"[ \t]+(\S)")


def plain(text: str, headings: bool = True) -> str:
    """Markdown table and heading syntax removed, line-end hyphenation joined (within a table's cell,
    never across two cells). A `|` is a cell's edge on a line that is a table's row (it starts and
    ends with one) of a table, i.e. of a run of such lines that holds a rule row (`|---|---|`, as
    Markdown's tables do), a character anywhere else, as in raw text: a text's own lines of bars ("| |
    |", a symbol drawn with them) are no table. With `headings` False, a `#` that begins a line is kept:
    the text of a kind the engine writes no heading for (`_NO_HEADINGS`)."""
    lines = "\n".join(line for line in _rows_marked(text.splitlines()) if not _RULE_ROW.match(line))
    lines = _BEFORE_A_MARK.sub(_space_before_mark_dropped, lines)
    text = _HYPHEN_BREAK.sub(r"\1\2", _HEADING.sub("", lines) if headings else lines)
    return "\n".join(_cells_apart(line) for line in text.splitlines()).replace("**", "")


_ROW = "\x02"  # marks a line that is a table's row, until `_cells_apart` parts its cells


def _rows_marked(lines: list[str]) -> list[str]:
    """The lines, each row of a table (a run of lines that start and end with `|` and hold a rule row)
    marked with `_ROW`."""
    marked: list[str] = []
    for is_row, run in itertools.groupby(lines, _row_like):
        group = list(run)
        table = is_row and any(_RULE_ROW.match(line) for line in group)
        marked += [_ROW + line if table and not _RULE_ROW.match(line) else line for line in group]
    return marked


def _row_like(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= 2 and stripped[0] == "|" and stripped[-1] == "|"


def _space_before_mark_dropped(found: re.Match[str]) -> str:
    """The spaces before a character dropped where it is a non-spacing mark: it is drawn on the glyph
    before it, and no word begins with one. A spacing vowel sign is left (a Tamil or Malayalam vowel
    sign drawn before its consonant begins a word where raw text writes glyphs in the order they are
    drawn), and so is a right-to-left script's mark: on a line that mixes directions raw text writes
    such a word backwards, its last mark first ("Maldives" and a Thaana word after it)."""
    mark = found.group(1)
    joined = unicodedata.category(mark) == "Mn" and not _BACKWARDS.match(mark)
    return mark if joined else found.group()


def _cells_apart(line: str) -> str:
    if not line.startswith(_ROW):
        return line
    return line[1:].replace("\\|", "\x00").replace("|", " ").replace("\x00", "|")


def tokens(text: str, fold: bool = False, headings: bool = True) -> list[str]:
    words = []
    for raw in unicodedata.normalize("NFKC", plain(text, headings)).split():
        for piece in raw.split(UNMAPPED):
            word = piece.strip(PUNCTUATION)
            if word:
                words.append(word.casefold() if fold else word)
    return words


@dataclass
class Fidelity:
    raw_words: int = 0
    found: int = 0
    cut: int = 0
    repeated: int = 0
    extra: int = 0
    picture: int = 0  # words OCR read from pictures on pages that have a text layer (not repeats)

    @property
    def recall(self) -> float | None:
        return self.found / self.raw_words if self.raw_words else None

    def add(self, other: Fidelity) -> None:
        for name in ("raw_words", "found", "cut", "repeated", "extra", "picture"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def picture_words(
    raw_pages: list[str], out_pages: list[str], ocr_pages: Iterable[int], headings: bool = True
) -> collections.Counter[str]:
    """The words OCR read from pictures on pages that also have a text layer: on each page the engine
    says it OCR'd (0-based `ocr_pages`), the output's words beyond that page's own text-layer words.
    They are not text-layer words, so they are counted apart rather than as repeats of the same words
    elsewhere in the document."""
    picture: collections.Counter[str] = collections.Counter()
    for index in ocr_pages:
        if index < len(raw_pages) and index < len(out_pages):
            picture += collections.Counter(tokens(out_pages[index], headings=headings)) - collections.Counter(
                tokens(raw_pages[index], headings=headings)
            )
    return picture


def fidelity(
    raw_text: str, output: str, picture: collections.Counter[str] | None = None, headings: bool = True
) -> Fidelity:
    raw, out_tokens = tokens(raw_text, headings=headings), tokens(output, headings=headings)
    raw_count, out_count = (
        collections.Counter(raw),
        collections.Counter(out_tokens) - (picture or collections.Counter()),
    )
    found = sum(min(count, out_count[word]) for word, count in raw_count.items())
    missing = raw_count - out_count
    joined = collections.Counter(a + b for a, b in itertools.pairwise(out_tokens))
    joined.update(a + "-" + b for a, b in itertools.pairwise(out_tokens))
    cut = sum(min(count, joined[word]) for word, count in missing.items())
    repeated = sum(max(0, out_count[word] - count) for word, count in raw_count.items())
    extra = sum(count for word, count in out_count.items() if word not in raw_count)
    return Fidelity(len(raw), found, cut, repeated, extra, sum((picture or collections.Counter()).values()))


def word_recall(truth: Iterable[str], output: str) -> tuple[int, int]:
    """(truth words found, truth words), casefolded."""
    truth_count = collections.Counter(tokens("\n".join(truth), fold=True))
    out_count = collections.Counter(tokens(output, fold=True))
    return sum(min(n, out_count[w]) for w, n in truth_count.items()), sum(truth_count.values())


def cell_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text.replace("\\|", "|"))
    return " ".join(text.split()).casefold()


def markdown_tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables of a text, each a list of rows of cells."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            if not _RULE_ROW.match(stripped):
                inner = stripped[1:-1].replace("\\|", "\x00")
                current.append([cell.replace("\x00", "|").strip() for cell in inner.split("|")])
            continue
        if len(current) >= 1:
            tables.append(current)
        current = []
    return tables


# ---------------------------------------------------------------------------------------- truth
@dataclass
class Truth:
    texts: list[tuple[int | None, str]] = field(default_factory=list)  # (page or None, text)
    cells: list[tuple[int | None, str]] = field(default_factory=list)  # (page or None, cell text)
    from_source: bool = False  # cells read from the file the PDF was made from, not from the PDF

    def text_for(self, pages: int) -> list[str]:
        return [text for page, text in self.texts if page is None or page <= pages]

    def has_text(self) -> bool:
        return any(text.strip() for _, text in self.texts)


def load_truth(document: dict[str, Any], data: bytes) -> Truth:
    kind, select, truth = document["truth_kind"], document.get("truth_select"), Truth()
    text = data.decode("utf-8", "replace")
    if kind == "docling-json":
        tree = json.loads(text)
        for item in tree.get("texts", []):
            truth.texts.append((_docling_page(item), item.get("text", "")))
        for table in tree.get("tables", []):
            page = _docling_page(table)
            for cell in table.get("data", {}).get("table_cells", []):
                truth.cells.append((page, cell.get("text", "")))
                truth.texts.append((page, cell.get("text", "")))
    elif kind in ("docling-md", "line-text"):
        truth.texts.append((None, text))
    elif kind == "tabula-csv":
        for row in csv.reader(io.StringIO(text)):
            truth.cells.extend((None, cell) for cell in row)
    elif kind == "tabula-json":
        for table in json.loads(text):
            for row in table.get("data", []):
                truth.cells.extend((table.get("page_number"), cell.get("text", "")) for cell in row)
    elif kind == "olmocr-tests-jsonl":
        for line in text.splitlines():
            if not line.strip():
                continue
            test = json.loads(line)
            if test.get("pdf") != select:
                continue
            if test["type"] == "present":
                truth.texts.append((test.get("page"), test["text"]))
            elif test["type"] == "table":
                truth.cells.append((test.get("page"), test["cell"]))
    elif kind == "unstructured-elements-json":
        for element in json.loads(text):
            truth.texts.append((element.get("metadata", {}).get("page_number"), element.get("text", "")))
    elif kind in SOURCE_TABLE_READERS:
        truth.cells.extend((None, cell) for cell in SOURCE_TABLE_READERS[kind](data, select))
        truth.from_source = True
    elif kind == "page-xml":
        root = ElementTree.fromstring(data)
        for element in root.iter():
            if element.tag.endswith("}TextLine"):
                for child in element:
                    if child.tag.endswith("}TextEquiv"):
                        truth.texts.extend((None, u.text or "") for u in child if u.tag.endswith("}Unicode"))
    else:
        raise ValueError(f"unknown truth kind {kind}")
    truth.cells = [(page, cell) for page, cell in truth.cells if cell_text(cell)]
    return truth


def typed_truth(blocks: list[dict[str, Any]]) -> Truth:
    """Table cells typed by hand from the page, for a document whose repository keeps no source beside
    it (a bank's statement, a price list): each block names a page and holds its rows as one reads
    them, a cell a text runs over two lines of written as one. Kept, like a source's cells, only where
    the text layer shows them, so a slip of the typist is no cell the engine is blamed for."""
    cells = [(int(block["page"]), cell) for block in blocks for row in block["rows"] for cell in row]
    return Truth(cells=[(page, cell) for page, cell in cells if cell_text(cell)], from_source=True)


# ------------------------------------------------------------------ truth: tables of a PDF's source
# A PDF printed from a spreadsheet, an HTML page or a LaTeX file: the source's cells are the truth.
# A source cell the PDF does not show as such (a number its format writes otherwise, a macro the
# reader does not expand) is no expected cell: `_score_tables` keeps those the text layer holds.
class _HtmlCells(HTMLParser):
    """The text of every `td` and `th` of an HTML page, in document order; with `table_class`, of the
    tables of that class only (a documentation page's content tables, not the tables of links its
    generator lays out above and below them)."""

    def __init__(self, table_class: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[str] = []
        self._open: list[tuple[bool, list[str]]] = []
        self._class = table_class
        self._tables: list[bool] = []  # whether each open table is read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            classes = (dict(attrs).get("class") or "").split()
            self._tables.append(self._class is None or self._class in classes)
        elif tag in ("td", "th"):
            self._open.append((self._tables[-1] if self._tables else self._class is None, []))
        elif tag == "br" and self._open:
            self._open[-1][1].append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._tables:
            self._tables.pop()
        elif tag in ("td", "th") and self._open:
            taken, parts = self._open.pop()
            if taken:
                self.cells.append("".join(parts))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][1].append(data)


def html_table_cells(data: bytes, select: str | None = None) -> list[str]:
    """The cells of an HTML page's tables (of the tables whose class is `select`, if any)."""
    parser = _HtmlCells(select)
    parser.feed(data.decode("utf-8", "replace"))
    return parser.cells


def xlsx_cells(data: bytes, select: str | None = None) -> list[str]:
    """Every filled cell of a workbook (of the sheet `select` names, if any), as its cached value:
    text as written, whole numbers without a decimal point."""
    import openpyxl  # type: ignore[import-untyped]

    book = openpyxl.load_workbook(io.BytesIO(data), data_only=True, read_only=True)
    cells = []
    for sheet in [book[select]] if select else book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            for value in row:
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                    cells.append(str(value))
    return cells


_TABULAR = re.compile(r"\\begin\{(tabular\*?|tabularx|longtable|tabulary)\}(.*?)\\end\{\1\}", re.DOTALL)
_TEX_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_TEX_RULES = re.compile(
    r"\\(hline|toprule|midrule|bottomrule|endhead|endfirsthead|endfoot|endlastfoot|noalign\{[^}]*\})"
    r"|\\(cline|cmidrule)(\([^)]*\))?\{[^}]*\}|\\(rowcolor|cellcolor)(\[[^]]*\])?\{[^}]*\}"
)
_TEX_SPAN = re.compile(r"\\multi(column|row)\{[^}]*\}\{[^}]*\}")
_TEX_WRAP = re.compile(r"\\[a-zA-Z]+\*?\{([^{}]*)\}")
_TEX_CHARS = {
    r"\&": "&",
    r"\%": "%",
    r"\$": "$",
    r"\#": "#",
    r"\_": "_",
    "~": " ",
    "---": "\u2014",
    "--": "\u2013",
    "``": "\u201c",
    "''": "\u201d",
}


def latex_table_cells(data: bytes, select: str | None = None) -> list[str]:
    """The cells of every tabular-like environment of a LaTeX file whose text is plain once spans,
    rules and one-argument text commands (\\textbf{x}) are taken off; a cell still holding markup
    (mathematics, a macro) is left out rather than guessed."""
    if data[:2] == b"\x1f\x8b":  # a source the package ships gzipped, as Debian's documentation does
        data = gzip.decompress(data)
    text = _TEX_COMMENT.sub("", data.decode("utf-8", "replace"))
    cells = []
    for match in _TABULAR.finditer(text):
        body = _strip_column_spec(match.group(1), match.group(2))
        for row in re.split(r"\\\\(?:\[[^]]*\])?", body):
            for cell in re.split(r"(?<!\\)&", _TEX_RULES.sub(" ", row)):
                plain = _plain_tex(cell)
                if plain is not None:
                    cells.append(plain)
    return cells


def _strip_column_spec(environment: str, body: str) -> str:
    """The environment's body without its arguments (a width for tabular* and tabularx, then the
    column specification, whose braces nest: `{p{3cm}|l}`)."""
    arguments = 2 if environment in ("tabular*", "tabularx", "tabulary") else 1
    body = body.lstrip()
    if body.startswith("["):
        body = body[body.index("]") + 1 :].lstrip()
    for _ in range(arguments):
        if not body.startswith("{"):
            break
        depth = 0
        for position, char in enumerate(body):
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                body = body[position + 1 :].lstrip()
                break
    return body


def _plain_tex(cell: str) -> str | None:
    cell = _TEX_SPAN.sub("", cell)
    previous = None
    while previous != cell:
        previous, cell = cell, _TEX_WRAP.sub(r"\1", cell)
    cell = re.sub(r"(?<!\\)\{([^{}]*)\}", r"\1", cell)
    if re.search(r"[{}$^\\]", re.sub(r"\\[&%$#_]", "", cell)):
        return None
    for markup, char in _TEX_CHARS.items():
        cell = cell.replace(markup, char)
    return " ".join(cell.split()) or None


def markdown_table_cells(data: bytes, select: str | None = None) -> list[str]:
    """The cells of a Markdown file's pipe tables, emphasis and code marks taken off."""
    text = data.decode("utf-8", "replace")
    cells = [cell for table in markdown_tables(text) for row in table for cell in row]
    return [re.sub(r"\*\*|__|`", "", cell) for cell in cells]


def csv_cells(data: bytes, select: str | None = None) -> list[str]:
    """The cells of a CSV file the PDF was printed from (a statement's rows as its generator wrote
    them), its header row included."""
    text = data.decode("utf-8-sig", "replace")
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def python_literal_cells(data: bytes, select: str | None = None) -> list[str]:
    """The cells of the rows a Python module assigns to the name `select` as a literal (the table a
    generator's test draws): every value of every row, written as str() writes it."""
    for node in ast.parse(data.decode("utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == select for target in node.targets
        ):
            return [str(cell) for row in ast.literal_eval(node.value) for cell in row]
    raise ValueError(f"no literal named {select}")


_WORD = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def docx_table_cells(data: bytes, select: str | None = None) -> list[str]:
    """The cells of every table of a Word document (a table in a cell read as cells of its own):
    the text of a cell's runs, its paragraphs parted by a space. A line break or a tab within a
    paragraph is not read as a space: such a cell, its words joined, is seldom what the text layer
    shows, and is then no expected cell."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        root = ElementTree.fromstring(archive.read("word/document.xml"))
    cells = []
    for cell in root.iter(f"{_WORD}tc"):
        paragraphs = [
            "".join(text.text or "" for text in paragraph.iter(f"{_WORD}t"))
            for paragraph in cell.findall(f"{_WORD}p")
        ]
        cells.append(" ".join(paragraphs))
    return cells


SOURCE_TABLE_READERS: dict[str, Callable[[bytes, str | None], list[str]]] = {
    "docx-tables": docx_table_cells,
    "markdown-tables": markdown_table_cells,
    "python-literal": python_literal_cells,
    "html-tables": html_table_cells,
    "xlsx-cells": xlsx_cells,
    "csv-cells": csv_cells,
    "latex-tables": latex_table_cells,
}


def _docling_page(item: dict[str, Any]) -> int | None:
    provenance = item.get("prov") or []
    return int(provenance[0]["page_no"]) if provenance else None


# ---------------------------------------------------------------------------------------- extractors
@dataclass
class Output:
    pages: list[str] | None = None  # the text of each page, or None (one text for the document)
    text: str = ""
    tables: list[list[str]] = field(default_factory=list)  # per page: cells of tables returned
    table_pages: set[int] = field(default_factory=set)
    ocr_pages: set[int] = field(default_factory=set)  # 0-based pages the extractor says it OCR'd
    unreadable_pages: set[int] = field(default_factory=set)  # 0-based: OCR'd for a layer of no characters
    page_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


PAGE_SECONDS: float | None = None  # `--page-seconds`: the engine's time budget per page, if not its default


def run_engine(content: bytes, kind: str) -> Output:
    output = Output(pages=[])
    start = last = time.perf_counter()
    options = engine.ParseOptions()
    if PAGE_SECONDS is not None:
        options = engine.ParseOptions(page_seconds=PAGE_SECONDS)
    for page in engine.parse_pages(content, kind, options):
        now = time.perf_counter()
        output.page_seconds.append(now - last)
        last = now
        assert output.pages is not None
        output.pages.append(page.text)
        if page.ocr_confidence is not None:
            output.ocr_pages.add(len(output.pages) - 1)
        if UNREADABLE_READ in page.warnings:  # OCR'd for it (not a layer kept with a warning)
            output.unreadable_pages.add(len(output.pages) - 1)
        cells = [cell for table in _engine_tables(page) for row in table for cell in row]
        output.tables.append(cells)
        if cells:
            output.table_pages.add(page.number)
    output.seconds = time.perf_counter() - start
    output.text = "\n\n".join(output.pages or [])
    return output


def _engine_tables(page: engine.Page) -> list[list[list[str]]]:
    fielded = getattr(page, "tables", None)
    if fielded:
        rows: list[list[list[str]]] = []
        for table in fielded:
            grid = getattr(table, "rows", table)
            rows.append([[str(cell or "") for cell in row] for row in grid])
        return rows
    return markdown_tables(page.text)


def run_raw(content: bytes, kind: str) -> Output:
    output = Output(pages=[])
    start = time.perf_counter()
    if kind == "webp":  # MuPDF does not decode WebP; the engine goes through Pillow too
        content, kind = rotated(content, kind, 0)
    with pymupdf.open(stream=content, filetype=_mupdf_kind(kind)) as document:
        last = time.perf_counter()
        for page in document:
            output.pages.append(page.get_text())
            now = time.perf_counter()
            output.page_seconds.append(now - last)
            last = now
    output.seconds = time.perf_counter() - start
    output.pages = covered_spaces_dropped_pages(content, kind, output.pages)  # untimed
    output.pages = directions_apart_pages(content, kind, output.pages)
    output.pages = rules_apart_pages(content, kind, output.pages)
    output.pages = off_line_apart_pages(content, kind, output.pages)
    output.pages = unmapped_marked_pages(content, kind, output.pages)
    output.text = "\n\n".join(output.pages)
    return output


def covered_spaces_dropped_pages(content: bytes, kind: str, pages: list[str]) -> list[str]:
    """Raw pages, on those with glyphs of no Unicode value, without the spaces get_text puts where a
    glyph written before them on their line already stands: it measures a gap from the last glyph
    only, and a glyph of no width (a vowel sign after the part of a conjunct drawn across it) leaves
    one that the glyphs before it fill, so no reader sees a space there ("\u0c2a\x0f\t\x11 \u0c35",
    the tab-coded glyph reaching the letter the space stands before)."""
    if kind != "pdf":
        return pages
    with pymupdf.open(stream=content, filetype="pdf") as document:
        dropped = []
        for page, text in zip(document, pages, strict=True):
            if UNMAPPED not in page.get_text(flags=_WITHOUT_CODES):
                dropped.append(text)
                continue
            lines = _covered_spaces_dropped(page)
            dropped.append("\n".join(_replaced(line, lines) for line in text.split("\n")) if lines else text)
    return dropped


def _replaced(line: str, lines: dict[str, str]) -> str:
    """A line of get_text's text with each line of `lines` in it written as `lines` gives it: a line
    of the page's characters may be only part of a line get_text writes (glyphs of no value that
    begin or end it, another line of the block on the same baseline)."""
    for cut, whole in lines.items():
        if cut in line:
            line = line.replace(cut, whole)
    return line


def _covered_spaces_dropped(page: pymupdf.Page) -> dict[str, str]:
    """{line as get_text writes it: the line without its spaces that come right after a glyph of no
    width and that a glyph before them covers (or, on that glyph's left, joined glyphs before it
    cover: `_joined_over`)}, over the page's horizontal lines."""
    dropped: dict[str, str] = {}
    for text, glyphs in _horizontal_lines(page):
        kept = "".join(char for char, *_ in _uncovered(glyphs))
        if kept != text:
            dropped[text] = kept
    return dropped


def _uncovered(glyphs: list[Glyph]) -> list[Glyph]:
    """A line's glyphs (character, box, font size) without its spaces that come right after a glyph of
    no width and that a glyph before them covers (see `_covered_spaces_dropped`)."""
    return [
        (char, box, size, baseline)
        for index, (char, box, size, baseline) in enumerate(glyphs)
        if char != " "
        or not (
            index > 0
            and _no_width(glyphs[index - 1])
            and (_covered(box, size, glyphs[:index]) or _joined_over(box, size, glyphs[:index]))
        )
    ]


def _no_width(glyph: Glyph) -> bool:
    """Whether MuPDF gives the glyph (character, box, font size) no width."""
    _, box, size, _ = glyph
    return bool(box[2] - box[0] <= 0.01 * size)


def _joined_over(box: Any, size: float, before: list[Glyph]) -> bool:
    """Whether glyphs written before, side by side, stand over the whole of `box` (a space's) on the
    left of the last of them, a glyph of no width: a right-to-left line's joined letters, where get_text
    measures a gap from a mark of no value set within a letter (a Nastaliq letter's dots) and writes
    a space where the letters join, drawn with no space glyph."""
    if not before or box[2] > before[-1][1][0] + 0.01 * size:
        return False
    slack, reach = 0.01 * size, box[0]
    for char, other, *_ in sorted(before, key=lambda glyph: glyph[1][0]):
        if char != " " and other[2] > other[0] and other[0] <= reach + slack:
            reach = max(reach, other[2])
    return bool(reach >= box[2] - slack)


def _covered(box: Any, size: float, before: list[Glyph]) -> bool:
    """Whether a glyph written before stands over the whole of `box` (a space's)."""
    slack = 0.01 * size
    return any(
        char != " " and other[0] <= box[0] + slack and other[2] >= box[2] - slack and other[2] > other[0]
        for char, other, *_ in before
    )


def directions_apart_pages(content: bytes, kind: str, pages: list[str]) -> list[str]:
    """Raw pages with a space put in a word where its line, one that holds right-to-left letters,
    changes direction between runs of glyphs a space's width or more apart: get_text writes no space
    there however far apart they are (two cells of a table's row, "\u0664U+0600"), and no reader
    sees one word. Each run is measured whole (a number after a Hebrew word is laid out in its own
    order: glued to the word, it stays one word with it)."""
    if not any(_MIXED.search(text) for text in pages):
        return pages
    with pymupdf.open(stream=content, filetype=_mupdf_kind(kind)) as document:
        apart_pages = []
        for page, text in zip(document, pages, strict=True):
            apart = _directions_apart(page) if _MIXED.search(text) else {}
            apart_pages.append(_words_written(text, apart))
    return apart_pages


def _words_written(text: str, apart: dict[str, str]) -> str:
    """The text, each of its words that `apart` names written as `apart` gives it."""
    return re.sub(r"\S+", lambda found: apart.get(found.group(), found.group()), text) if apart else text


def _directions_apart(page: pymupdf.Page) -> dict[str, str]:
    """{word as get_text writes it: the word with a space between its runs of one direction that are
    apart}, over the page's horizontal lines."""
    apart: dict[str, str] = {}
    for word, glyphs in _horizontal_words(page):
        if _MIXED.search(word):
            cut = _runs_apart([(char, box[0], box[2], size) for char, box, size, _ in glyphs])
            if cut != word:
                apart[word] = cut
    return apart


def _horizontal_words(page: pymupdf.Page) -> Iterator[tuple[str, list[Glyph]]]:
    """Each word as raw text writes it by now on the page's horizontal lines, with its glyphs
    (`Glyph`). On a page with glyphs of no Unicode value, a line's words are those
    left once its covered spaces are dropped (`covered_spaces_dropped_pages`, run first): two words such
    a space parted are one in the text, and are looked up as one."""
    covered = UNMAPPED in page.get_text(flags=_WITHOUT_CODES)
    for text, glyphs in _horizontal_lines(page):
        if covered:
            glyphs = _uncovered(glyphs)
            text = "".join(char for char, *_ in glyphs)
        for found in re.finditer(r"\S+", text):
            yield found.group(), glyphs[found.start() : found.end()]


def _horizontal_lines(page: pymupdf.Page) -> Iterator[tuple[str, list[Glyph]]]:
    """Each of the page's horizontal lines as get_text writes it, with its glyphs (`Glyph`)."""
    for block in page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        for line in block.get("lines", ()):
            if abs(line["dir"][1]) > 1e-3:
                continue
            glyphs = [
                (c["c"], c["bbox"], span["size"], c["origin"][1])
                for span in line["spans"]
                for c in span["chars"]
            ]
            yield "".join(char for char, *_ in glyphs), glyphs


def _runs_apart(chars: list[tuple[str, float, float, float]]) -> str:
    """The characters' text, a space between two runs of one direction (right to left or not) whose
    spans are more than _SPACE_WIDTH of the font size apart."""
    runs: list[tuple[str, float, float, float]] = []  # text, x0, x1, size
    for char, x0, x1, size in chars:
        backwards = _BACKWARDS.match(char) is not None
        if runs and (_BACKWARDS.match(runs[-1][0][-1]) is not None) == backwards:
            text, a0, a1, a_size = runs[-1]
            runs[-1] = (text + char, min(a0, x0), max(a1, x1), max(a_size, size))
        else:
            runs.append((char, x0, x1, size))
    written = runs[0][0]
    for (_, a0, a1, a_size), (text, b0, b1, b_size) in itertools.pairwise(runs):
        gap = max(b0 - a1, a0 - b1)
        written += (" " if gap > _SPACE_WIDTH * max(a_size, b_size) else "") + text
    return written


def rules_apart_pages(content: bytes, kind: str, pages: list[str]) -> list[str]:
    """Raw pages with a space put in a word whose glyphs stand on both sides of a vertical rule drawn
    across their line (a table's column rule, a frame's edge): get_text reads no drawing, and where
    its spacing does not part two glyphs (a font whose metrics it cannot trust, "\u2192k" across a
    table's rule half a font size apart) it writes them as one word, which no reader sees there."""
    if kind != "pdf":
        return pages
    with pymupdf.open(stream=content, filetype="pdf") as document:
        apart_pages = []
        for page, text in zip(document, pages, strict=True):
            rules = _vertical_rules(page)
            if rules:
                text = _words_written(text, _rules_apart(page, rules))
                text = (
                    text
                    if UNMAPPED in page.get_text(flags=_WITHOUT_CODES)
                    else _overflow_written(page, text, rules)
                )
            apart_pages.append(text)
    return apart_pages


def _overflow_written(page: pymupdf.Page, text: str, rules: list[tuple[float, float, float]]) -> str:
    """The raw text with a space put in each word that a column rule crosses (a cell's text run on
    across its column's rule) where the next cell's text begins (`_overflow_cut`): get_text writes it
    on as the same word when no space parts them (a package's name in a typewriter font,
    "systemd-bootchart", run over the rule, then its figures, "V:0", 0.8 points on; "dehtmldiff(1)"
    with "HTML" drawn back over its bracket)."""
    apart: dict[str, str] = {}
    blocks = page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]
    starts = [line["bbox"][0] for block in blocks for line in block.get("lines", ())]
    for block in blocks:
        for line in block.get("lines", ()):
            if abs(line["dir"][1]) > 1e-3:
                continue
            glyphs = [
                (c["c"], c["bbox"], number, span["size"])
                for number, span in enumerate(line["spans"])
                for c in span["chars"]
            ]
            written = "".join(char for char, *_ in glyphs)
            for found in re.finditer(r"\S+", written):
                cut = _overflow_cut(glyphs[found.start() : found.end()], rules, starts)
                if cut is not None:
                    apart[found.group()] = f"{found.group()[:cut]} {found.group()[cut:]}"
    return _words_written(text, apart)


def _overflow_cut(
    glyphs: list[tuple[str, Any, int, float]], rules: list[tuple[float, float, float]], starts: list[float]
) -> int | None:
    """Where a word run on across a column rule ends (`_overflow_written`), or None: the word's glyphs
    run rightwards from its first and follow each other at their advances (a kerned pair a little
    back) up to that glyph, which starts a cell's padding past the rule (`_CELL_PADDING`), two glyphs
    or more on each side, and the rule is a column's: the next rule across the line stands two font
    sizes or more further (not a chart's grid, nor a table of one glyph a cell)."""
    if (
        any(_BACKWARDS.match(char) for char, *_ in glyphs)
        or glyphs[0][1][0] > min(box[0] for _, box, _, _ in glyphs) + 0.5
    ):
        return None  # a right-to-left word's glyphs run leftwards, and so do mirrored ones
    middles = [(box[0] + box[2]) / 2 for _, box, _, _ in glyphs]
    heights = [(box[1] + box[3]) / 2 for _, box, _, _ in glyphs]
    on_line = sorted(x for x, top, bottom in rules if any(top <= middle <= bottom for middle in heights))
    across = [x for x in on_line if min(middles) < x < max(middles)]
    if not across:
        return None
    rule, size = across[0], glyphs[0][3]
    if any(rule < x < rule + 2 * size for x in on_line):
        return None
    crossed = next(at for at, (_, box, _, _) in enumerate(glyphs) if box[2] > rule)
    for at in range(1, len(glyphs)):
        (_, before, span, size), (_, box, next_span, _) = glyphs[at - 1], glyphs[at]
        step = box[0] - before[2]
        apart = step > _RULE_GAP * size or (
            step < -_OVERFLOW_STEP * size and (next_span != span or -step > (box[2] - box[0]) / 2)
        )
        aligned = any(abs(box[0] - start) <= _ALIGNED for start in starts)
        apart = apart or (abs(step) > _ADVANCE_SLACK * size and aligned)
        padded = _CELL_PADDING[0] * size <= box[0] - rule <= _CELL_PADDING[1] * size
        if at > crossed and apart and padded and min(at, len(glyphs) - at) >= 2:
            return at  # (a glyph alone on a side is a mark set off its letter: "B" and its prime)
        if step > _OVERFLOW_STEP * size:
            return None  # glyphs set apart one by one (a picture's label): no word to part
    return None


def _vertical_rules(page: pymupdf.Page) -> list[tuple[float, float, float]]:
    """(x, top, bottom) of each path drawn on the page that is a vertical rule: narrow and tall. A
    table's grid drawn as one path is one box in the page's drawing log: its rules are the pieces of
    paths MuPDF collects with the text (`TEXT_COLLECT_VECTORS`), each line of a path apart."""
    boxes = [box for what, box in page.get_bboxlog() if what.endswith("-path")]
    collected = page.get_textpage(flags=pymupdf.TEXT_COLLECT_VECTORS).extractBLOCKS()
    boxes += [tuple(block[:4]) for block in collected if block[6] == _VECTOR_BLOCK]
    rules = []
    for x0, y0, x1, y1 in boxes:
        if x1 - x0 <= _RULE_WIDTH and y1 - y0 >= _RULE_TALL * max(x1 - x0, 1):
            rules.append(((x0 + x1) / 2, y0, y1))
    return rules


def _rules_apart(page: pymupdf.Page, rules: list[tuple[float, float, float]]) -> dict[str, str]:
    """{word as get_text writes it: the word with a space where a rule stands between two of its
    glyphs that stand apart (`_RULE_GAP`)}, over the page's horizontal lines."""
    apart: dict[str, str] = {}
    for word, glyphs in _horizontal_words(page):
        written = word[0] + "".join(
            (" " if _parted(a, b, rules) else "") + b[0] for a, b in itertools.pairwise(glyphs)
        )
        if written != word:
            apart[word] = written
    return apart


def _parted(before: Glyph, after: Glyph, rules: list[tuple[float, float, float]]) -> bool:
    """Whether two glyphs written one after the other stand apart with a rule between them."""
    gap = after[1][0] - before[1][2]
    return gap > _RULE_GAP * max(before[2], after[2]) and _rule_between(before[:2], after[:2], rules)


def _rule_between(
    before: tuple[str, tuple[float, ...]],
    after: tuple[str, tuple[float, ...]],
    rules: list[tuple[float, float, float]],
) -> bool:
    """Whether a rule stands between two glyphs written one after the other, across both."""
    (_, (a0, a_top, a1, a_bottom)), (_, (b0, b_top, b1, b_bottom)) = before, after
    left, right = a1 - _RULE_SLACK, b0 + _RULE_SLACK
    middle = (max(a_top, b_top) + min(a_bottom, b_bottom)) / 2
    return any(
        left <= x <= right and (a0 + a1) / 2 < x < (b0 + b1) / 2 and top <= middle <= bottom
        for x, top, bottom in rules
    )


def off_line_apart_pages(content: bytes, kind: str, pages: list[str]) -> list[str]:
    """Raw pages with a space put in a word between two of its glyphs that stand apart off each other's
    line (`_off_line`): get_text takes into a line a glyph whose baseline is within its reach (a label
    set beside a proof's inference rule, half a line below the formula over the rule) and, in a font
    whose spacing it cannot measure (a math font with no space glyph), writes no space before it
    however far it stands, up to 0.8 of an em: the formula "\u2200x\u03b1" and the rule's label
    "\u2192\u2212", three quarters of an em further and half an em lower, are written as one word,
    which no reader sees there."""
    if kind != "pdf":
        return pages
    with pymupdf.open(stream=content, filetype="pdf") as document:
        return [
            _words_written(text, _off_line_apart(page)) for page, text in zip(document, pages, strict=True)
        ]


def _off_line_apart(page: pymupdf.Page) -> dict[str, str]:
    """{word as get_text writes it: the word with a space between two of its glyphs that stand apart off
    each other's line}, over the page's horizontal lines."""
    apart: dict[str, str] = {}
    for word, glyphs in _horizontal_words(page):
        written = word[0] + "".join(
            (" " if _off_line(a, b) else "") + b[0] for a, b in itertools.pairwise(glyphs)
        )
        if written != word:
            apart[word] = written
    return apart


def _off_line(before: Glyph, after: Glyph) -> bool:
    """Whether `after`, written right after `before`, stands further past it than a formula's spaces
    (`_OFF_LINE_GAP`), on a baseline of its own (`_OFF_LINE_SHIFT`)."""
    size = max(before[2], after[2])
    gap, shift = after[1][0] - before[1][2], abs(after[3] - before[3])
    return gap > _OFF_LINE_GAP * size and shift > _OFF_LINE_SHIFT * size


def unmapped_marked_pages(content: bytes, kind: str, pages: list[str]) -> list[str]:
    """Raw pages with the glyphs that have no Unicode value written UNMAPPED (their codes are no
    characters of the text layer), the spaces of their fonts kept."""
    with pymupdf.open(stream=content, filetype=_mupdf_kind(kind)) as document:
        marked = []
        for page, coded in zip(document, pages, strict=True):
            plain_page = page.get_text(flags=_WITHOUT_CODES)
            if UNMAPPED in plain_page:
                coded = unmapped_marked(_line_feed_codes_marked(page, coded), plain_page)
            marked.append(coded)
    return marked


def _line_feed_codes_marked(page: pymupdf.Page, coded: str) -> str:
    """The page read with glyph codes, a glyph whose code is 10 written as a code that is no
    whitespace: get_text writes it as a line feed, which would end a line in the middle of a word
    ("\u0baa\n\x02\u0baf"), and `unmapped_marked` keeps line feeds."""
    for block in page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        for line in block.get("lines", ()):
            text = "".join(char["c"] for span in line["spans"] for char in span["chars"])
            if "\n" in text.strip("\n"):
                coded = coded.replace(text, text.replace("\n", "\x01"))
    return coded


_LONG_PAGE = 10_000  # characters


def unmapped_marked(coded: str, plain_text: str) -> str:
    """The text read with glyph codes, each character that the text read without them has as UNMAPPED
    written UNMAPPED, unless it is a space (MuPDF drops the space after such a glyph without codes).
    Where the two readings hold as many characters, all UNMAPPED in the text read without codes, each
    is a glyph of no value, a space too: a glyph whose code is 32 ("\x1f " read as two such glyphs in
    a Tamil word) is no space of the text.

    A long page (a plot drawn in thousands of glyphs) is matched line by line where both readings have
    as many lines: matching it whole takes hours."""
    coded_lines, plain_lines = coded.split("\n"), plain_text.split("\n")
    if len(coded) > _LONG_PAGE and len(coded_lines) == len(plain_lines):
        return "\n".join(
            unmapped_marked(line, plain) for line, plain in zip(coded_lines, plain_lines, strict=True)
        )
    marked: list[str] = []
    matcher = difflib.SequenceMatcher(None, plain_text, coded, autojunk=False)
    for operation, plain_start, plain_end, start, end in matcher.get_opcodes():
        if operation == "equal":
            marked.append(coded[start:end])
        elif operation == "replace" and plain_text[plain_start:plain_end] == UNMAPPED * (end - start):
            marked.append(UNMAPPED * (end - start))
        elif operation in ("replace", "insert"):
            marked.extend(char if char in " \n" else UNMAPPED for char in coded[start:end])
    return "".join(marked)


def run_pdfplumber(content: bytes, kind: str) -> Output:
    import pdfplumber

    output = Output(pages=[])
    start = time.perf_counter()
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            output.pages.append(page.extract_text() or "")
            cells = [str(cell) for table in page.extract_tables() for row in table for cell in row if cell]
            output.tables.append(cells)
            if cells:
                output.table_pages.add(number)
    output.seconds = time.perf_counter() - start
    output.text = "\n\n".join(output.pages)
    return output


_MARKITDOWN: Any = None


def run_markitdown(content: bytes, kind: str) -> Output:
    global _MARKITDOWN
    if _MARKITDOWN is None:
        from markitdown import MarkItDown

        _MARKITDOWN = MarkItDown()
    start = time.perf_counter()
    result = _MARKITDOWN.convert_stream(io.BytesIO(content), file_extension=".pdf")
    seconds = time.perf_counter() - start
    text = result.text_content or ""
    cells = [cell for table in markdown_tables(text) for row in table for cell in row]
    return Output(pages=None, text=text, tables=[cells], seconds=seconds)


def run_camelot(content: bytes, kind: str) -> Output:
    import camelot

    output = Output(pages=None)
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(content)
        handle.flush()
        start = time.perf_counter()
        found = camelot.read_pdf(handle.name, pages="all", flavor="lattice")
        if found.n == 0:
            found = camelot.read_pdf(handle.name, pages="all", flavor="stream")
        output.seconds = time.perf_counter() - start
    cells = []
    for table in found:
        page_cells = [str(cell) for row in table.df.values.tolist() for cell in row if str(cell).strip()]
        cells.extend(page_cells)
        if page_cells:
            output.table_pages.add(int(table.page))
    output.tables = [cells]
    return output


RUNNERS: dict[str, Callable[[bytes, str], Output]] = {
    ENGINE: run_engine,
    RAW: run_raw,
    PLUMBER: run_pdfplumber,
    MARKITDOWN: run_markitdown,
    CAMELOT: run_camelot,
}


def _mupdf_kind(kind: str) -> str:
    return kind


def rotated(content: bytes, kind: str, degrees: int) -> tuple[bytes, str]:
    """A copy of a one-page document turned `degrees` clockwise, made in memory."""
    if kind == "pdf":
        with pymupdf.open(stream=content, filetype="pdf") as document:
            page = document[0]
            page.set_rotation((page.rotation + degrees) % 360)
            return document.tobytes(), "pdf"
    from PIL import Image

    with Image.open(io.BytesIO(content)) as image:
        buffer = io.BytesIO()
        image.convert("RGB").rotate(-degrees, expand=True).save(buffer, format="PNG")
    return buffer.getvalue(), "png"


# ---------------------------------------------------------------------------------------- per document
@dataclass
class DocumentResult:
    id: str
    category: str
    language: str
    split: str
    kind: str
    pages: int
    orientation: int = 0  # degrees clockwise the document's text lies turned, as shipped
    text_layer_words: int = 0
    fidelity: dict[str, Fidelity] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    engine_page_seconds: list[float] = field(default_factory=list)
    raw_page_seconds: list[float] = field(default_factory=list)
    truth_table_pages: list[int] = field(default_factory=list)
    engine_table_pages: list[int] = field(default_factory=list)
    cells_expected: int = 0
    cells_strict: dict[str, int] = field(default_factory=dict)
    cells_contained: dict[str, int] = field(default_factory=dict)
    table_pages_missed: dict[str, int] = field(default_factory=dict)
    ocr: dict[str, dict[int, tuple[int, int]]] = field(
        default_factory=dict
    )  # extractor: rotation: (found, of)
    errors: dict[str, str] = field(default_factory=dict)
    unreadable_pages: int = 0  # pages the engine OCR'd for a text layer of glyphs without characters


def evaluate(document: dict[str, Any], corpus: Path, available: set[str], rotations: bool) -> DocumentResult:
    content = corpus_path(corpus, document["repo"], document["path"]).read_bytes()
    truth = Truth()
    if "truth_path" in document:  # a document without one is read for its text layer's words only
        truth = load_truth(
            document, corpus_path(corpus, document["repo"], document["truth_path"]).read_bytes()
        )
    elif "truth_cells" in document:
        truth = typed_truth(document["truth_cells"])
    truth.cells = [(page, cell) for page, cell in truth.cells if page is None or page <= document["pages"]]
    kind = document["kind"]
    result = DocumentResult(
        document["id"],
        document["category"],
        document["language"],
        document["split"],
        kind,
        int(document["pages"]),
        int(document["orientation"]),
    )
    wanted = [ENGINE, RAW]
    if kind == "pdf":
        wanted += [name for name in (PLUMBER, MARKITDOWN) if name in available]
        if truth.cells and CAMELOT in available:
            wanted.append(CAMELOT)
    outputs: dict[str, Output] = {}
    for name in wanted:
        try:
            outputs[name] = RUNNERS[name](content, kind)
        except Exception as error:  # a peer failing on one document is reported, the run goes on
            result.errors[name] = f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"
    for name, output in outputs.items():
        result.seconds[name] = output.seconds
    raw, eng = outputs.get(RAW), outputs.get(ENGINE)
    if raw is not None:
        result.raw_page_seconds = raw.page_seconds
        result.text_layer_words = len(tokens(raw.text, headings=kind not in _NO_HEADINGS))
    if eng is not None:
        result.engine_page_seconds = eng.page_seconds
        result.engine_table_pages = sorted(eng.table_pages)

    if raw is not None and result.text_layer_words:
        for name in TEXT_EXTRACTORS:
            if name in outputs and name != RAW:
                out = outputs[name]
                headings = kind not in _NO_HEADINGS
                raw_pages, out_pages, ocr_pages = raw.pages or [], out.pages or [], set(out.ocr_pages)
                raw_text, out_text = raw.text, out.text
                if out.unreadable_pages and len(raw_pages) == len(out_pages):
                    # a layer of glyphs without characters holds no raw words to keep: its pages are left out
                    kept = [index for index in range(len(raw_pages)) if index not in out.unreadable_pages]
                    raw_pages, out_pages = [raw_pages[i] for i in kept], [out_pages[i] for i in kept]
                    ocr_pages = {place for place, index in enumerate(kept) if index in out.ocr_pages}
                    raw_text, out_text = "\n\n".join(raw_pages), "\n\n".join(out_pages)
                    result.unreadable_pages = len(out.unreadable_pages)
                picture = picture_words(raw_pages, out_pages, ocr_pages, headings)
                result.fidelity[name] = fidelity(raw_text, out_text, picture, headings)

    if truth.cells:
        _score_tables(result, truth, outputs)

    if document["category"] in OCR_CATEGORIES and truth.has_text():
        truth_text = truth.text_for(result.pages)
        for name in (ENGINE, RAW):
            if name in outputs:
                found, of = word_recall(truth_text, outputs[name].text)
                result.ocr.setdefault(name, {})[result.orientation] = (found, of)
        if rotations and result.pages == 1:
            for degrees in ROTATIONS:
                turned, turned_kind = rotated(content, kind, degrees)
                orientation = (result.orientation + degrees) % 360
                try:
                    output = run_engine(turned, turned_kind)
                except Exception as error:
                    result.errors[f"{ENGINE} rotated {degrees}"] = f"{type(error).__name__}: {error}"
                    continue
                result.ocr[ENGINE][orientation] = word_recall(truth_text, output.text)
    return result


def _score_tables(result: DocumentResult, truth: Truth, outputs: dict[str, Output]) -> None:
    expected = [(page, cell_text(cell)) for page, cell in truth.cells]
    raw = outputs.get(RAW)
    if truth.from_source and raw is not None:
        expected = _shown_cells(expected, cell_text(raw.text))
    if any(page is None for page, _ in expected) and raw is not None and raw.pages:
        page_texts = [cell_text(text) for text in raw.pages]
        held = [sum(1 for _, cell in expected if cell in text) for text in page_texts]
        best = held.index(max(held)) + 1
        expected = [(best if page is None else page, cell) for page, cell in expected]
    result.cells_expected = len(expected)
    result.truth_table_pages = sorted({page for page, _ in expected if page is not None})
    for name in TABLE_EXTRACTORS:
        output = outputs.get(name)
        if output is None:
            continue
        returned = [cell_text(cell) for cells in output.tables for cell in cells]
        returned_set = set(returned)
        result.cells_strict[name] = sum(1 for _, cell in expected if cell in returned_set)
        result.cells_contained[name] = sum(1 for _, cell in expected if any(cell in r for r in returned))
        if name != MARKITDOWN:
            result.table_pages_missed[name] = sum(
                1 for page in result.truth_table_pages if page not in output.table_pages
            )


def _shown_cells(expected: list[tuple[int | None, str]], shown: str) -> list[tuple[int | None, str]]:
    """The source cells the text layer shows, each kept at most as often as it shows: a workbook's
    every filled cell is in the truth, printed or not (another sheet, a range left off the print),
    so a value repeated across the book ("1" in every slot of a timetable) is expected only as
    many times as the text layer holds it as a whole word (once, if only within a longer word)."""
    allowed: dict[str, int] = {}
    kept = []
    for page, cell in expected:
        if cell not in allowed:
            bounded = len(re.findall(rf"(?<!\S){re.escape(cell)}(?!\S)", shown))
            allowed[cell] = max(bounded, 1 if cell in shown else 0)
        if allowed[cell] > 0:
            allowed[cell] -= 1
            kept.append((page, cell))
    return kept


# ---------------------------------------------------------------------------------------- report
def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _fmt(value: float | None, digits: int = 3, suffix: str = "") -> str:
    return "-" if value is None else f"{value:.{digits}f}{suffix}"


def group_fidelity(results: list[DocumentResult], key: Callable[[DocumentResult], str]) -> dict[str, Any]:
    groups: dict[str, dict[str, Fidelity]] = {}
    counts: collections.Counter[str] = collections.Counter()
    for result in results:
        if not result.fidelity:
            continue
        counts[key(result)] += 1
        for name, figures in result.fidelity.items():
            groups.setdefault(key(result), {}).setdefault(name, Fidelity()).add(figures)
    return {group: {"documents": counts[group], **groups[group]} for group in sorted(groups)}


def print_fidelity(title: str, grouped: dict[str, Any], names: list[str]) -> None:
    print(f"\n{title}")
    header = f"{'':22s} {'docs':>4s} {'raw words':>9s}"
    for name in names:
        header += f" | {name[:22]:>22s} recall   cut   rep  pict"
    print(header)
    for group, figures in grouped.items():
        raw_words = next((f.raw_words for n, f in figures.items() if n != "documents"), 0)
        line = f"{group[:22]:22s} {figures['documents']:4d} {raw_words:9d}"
        for name in names:
            f = figures.get(name)
            if f is None:
                line += f" | {'':>22s}      -     -     -     -"
            else:
                line += f" | {'':>22s} {_pct(f.found, f.raw_words)} {f.cut:5d} {f.repeated:5d} {f.picture:5d}"
        print(line)


def summarise(results: list[DocumentResult], available: set[str]) -> dict[str, Any]:
    text_names = [name for name in TEXT_EXTRACTORS if name != RAW and (name in available or name == ENGINE)]
    table_names = [name for name in TABLE_EXTRACTORS if name in available or name == ENGINE]
    summary: dict[str, Any] = {}
    summary["fidelity_by_category"] = group_fidelity(results, lambda r: r.category)
    summary["fidelity_by_language"] = group_fidelity(results, lambda r: r.language)
    summary["fidelity_all"] = group_fidelity(results, lambda r: "all")

    speed: dict[str, Any] = {}
    for name in [ENGINE, RAW, *[n for n in (PLUMBER, MARKITDOWN, CAMELOT) if n in available]]:
        timed = [r for r in results if name in r.seconds and RAW in r.seconds and r.seconds[RAW] > 0]
        ratios = [r.seconds[name] / r.seconds[RAW] for r in timed]
        speed[name] = {
            "documents": len(timed),
            "total_seconds": sum(r.seconds[name] for r in timed),
            "median_seconds_per_document": _median([r.seconds[name] for r in timed]),
            "median_ratio_to_raw": _median(ratios),
        }
    long_docs = [r for r in results if r.pages >= LONG_DOCUMENT_PAGES and r.seconds.get(RAW)]
    speed["engine_median_ratio_10_pages_or_more"] = {
        "documents": len(long_docs),
        "ratio": _median([r.seconds[ENGINE] / r.seconds[RAW] for r in long_docs if ENGINE in r.seconds]),
    }
    plain_ratios, table_seconds = [], []
    for r in results:
        if len(r.engine_page_seconds) != len(r.raw_page_seconds):
            continue
        for number, (eng, raw) in enumerate(zip(r.engine_page_seconds, r.raw_page_seconds, strict=True), 1):
            is_table = number in r.truth_table_pages or number in r.engine_table_pages
            if is_table:
                table_seconds.append(eng)
            elif r.text_layer_words and raw > 0:
                plain_ratios.append(eng / raw)
    speed["engine_median_page_ratio_without_tables"] = {
        "pages": len(plain_ratios),
        "ratio": _median(plain_ratios),
    }
    speed["engine_table_page_seconds"] = {
        "pages": len(table_seconds),
        "p50": _quantile(table_seconds, 0.5),
        "p99": _quantile(table_seconds, 0.99),
    }
    summary["speed"] = speed

    tables: dict[str, Any] = {}
    for group_key in ("category", "all"):
        grouped: dict[str, dict[str, Any]] = {}
        for r in results:
            if not r.cells_expected:
                continue
            group = r.category if group_key == "category" else "all"
            g = grouped.setdefault(group, {"documents": 0, "cells": 0, "table_pages": 0, "by": {}})
            g["documents"] += 1
            g["cells"] += r.cells_expected
            g["table_pages"] += len(r.truth_table_pages)
            for name in table_names:
                if name not in r.cells_strict:
                    continue
                b = g["by"].setdefault(name, {"documents": 0, "cells": 0, "strict": 0, "contained": 0})
                b["documents"] += 1
                b["cells"] += r.cells_expected
                b["strict"] += r.cells_strict[name]
                b["contained"] += r.cells_contained[name]
                if name in r.table_pages_missed:
                    b["table_pages"] = b.get("table_pages", 0) + len(r.truth_table_pages)
                    b["table_pages_missed"] = b.get("table_pages_missed", 0) + r.table_pages_missed[name]
        tables[group_key] = dict(sorted(grouped.items()))
    summary["tables"] = tables

    ocr: dict[str, Any] = {"by_orientation": {}, "by_language": {}}
    for r in results:
        for name, by_rotation in r.ocr.items():
            for rotation, (found, of) in by_rotation.items():
                slot = (
                    ocr["by_orientation"]
                    .setdefault(name, {})
                    .setdefault(str(rotation), {"documents": 0, "found": 0, "words": 0})
                )
                slot["documents"] += 1
                slot["found"] += found
                slot["words"] += of
            own = by_rotation.get(r.orientation)
            if own is not None:
                slot = (
                    ocr["by_language"]
                    .setdefault(name, {})
                    .setdefault(r.language, {"documents": 0, "found": 0, "words": 0})
                )
                slot["documents"] += 1
                slot["found"] += own[0]
                slot["words"] += own[1]
    summary["ocr"] = ocr
    summary["text_extractors"], summary["table_extractors"] = text_names, table_names
    return summary


def print_report(results: list[DocumentResult], summary: dict[str, Any], available: set[str]) -> None:
    text_names = summary["text_extractors"]
    print("\nCorpus")
    for key in ("category", "language", "split"):
        counts = collections.Counter(getattr(r, key) for r in results)
        print(f"  {key:9s} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"  pages     {sum(r.pages for r in results)}")
    print("  peers     " + ", ".join(f"{n} {'yes' if n in available else 'not available'}" for n in OPTIONAL))

    print_fidelity(
        "Text-layer fidelity vs raw get_text, by category (recall, words cut, words repeated)",
        summary["fidelity_by_category"],
        text_names,
    )
    print_fidelity(
        "Text-layer fidelity vs raw get_text, by language", summary["fidelity_by_language"], text_names
    )
    print_fidelity("Text-layer fidelity vs raw get_text, all", summary["fidelity_all"], text_names)
    unreadable = [r for r in results if r.unreadable_pages]
    if unreadable:
        print(
            f"  pages the engine OCR'd for a text layer of glyphs without characters, left out of its "
            f"fidelity: {sum(r.unreadable_pages for r in unreadable)} in "
            + ", ".join(f"{r.id} ({r.unreadable_pages})" for r in unreadable)
        )

    print("\nSpeed (seconds per document; ratio to raw get_text on the same document)")
    print(f"  {'':26s} {'docs':>4s} {'total s':>8s} {'median s/doc':>12s} {'median ratio':>12s}")
    for name in [ENGINE, RAW, PLUMBER, MARKITDOWN, CAMELOT]:
        s = summary["speed"].get(name)
        if s:
            print(
                f"  {name:26s} {s['documents']:4d} {s['total_seconds']:8.2f} "
                f"{_fmt(s['median_seconds_per_document'], 4):>12s} "
                f"{_fmt(s['median_ratio_to_raw'], 1, 'x'):>12s}"
            )
    long_docs = summary["speed"]["engine_median_ratio_10_pages_or_more"]
    plain_pages = summary["speed"]["engine_median_page_ratio_without_tables"]
    table_pages = summary["speed"]["engine_table_page_seconds"]
    print(
        f"  engine median ratio, documents of {LONG_DOCUMENT_PAGES}+ pages ({long_docs['documents']} docs): "
        f"{_fmt(long_docs['ratio'], 1, 'x')}"
    )
    print(
        f"  engine median page ratio, text pages without tables ({plain_pages['pages']} pages): "
        f"{_fmt(plain_pages['ratio'], 1, 'x')}"
    )
    print(
        f"  engine seconds on table pages ({table_pages['pages']} pages): p50 {_fmt(table_pages['p50'])} "
        f"p99 {_fmt(table_pages['p99'])}"
    )

    print(
        "\nTable cells where the truth has tables "
        "(strict / contained recall; truth table pages with no table)"
    )
    names = summary["table_extractors"]
    print(
        f"  {'':18s} {'docs':>4s} {'cells':>6s}"
        + "".join(f" | {n[:13]:>13s} strict contain missed" for n in names)
    )
    for group_key in ("category", "all"):
        for group, g in summary["tables"][group_key].items():
            line = f"  {group[:18]:18s} {g['documents']:4d} {g['cells']:6d}"
            for name in names:
                b = g["by"].get(name)
                if b is None:
                    line += f" | {'':13s}      -       -      -"
                    continue
                missed = f"{b['table_pages_missed']}/{b['table_pages']}" if "table_pages" in b else "-"
                strict, contained = _pct(b["strict"], b["cells"]), _pct(b["contained"], b["cells"])
                line += f" | {'':13s} {strict} {contained:>7s} {missed:>6s}"
            print(line)

    print("\nOCR word recall on scans and photos with truth text (truth words found, casefolded)")
    for title, key in (("orientation", "by_orientation"), ("language", "by_language")):
        for name, slots in summary["ocr"][key].items():
            cells = ", ".join(
                f"{k}: {_pct(v['found'], v['words']).strip()} of {v['words']} words ({v['documents']} docs)"
                for k, v in sorted(slots.items(), key=lambda kv: (len(kv[0]), kv[0]))
            )
            print(f"  by {title:11s} {name:24s} {cells}")

    print(
        "\nPer document (engine vs raw: recall, cut, repeated; seconds engine / raw; "
        "cells strict/contained of)"
    )
    for r in results:
        f = r.fidelity.get(ENGINE)
        fid = (
            f"{_pct(f.found, f.raw_words)} {f.cut:4d} {f.repeated:4d}"
            if f
            else f"{'-':>6s} {'-':>4s} {'-':>4s}"
        )
        peers = " ".join(
            f"{n[:6]} {_pct(r.fidelity[n].found, r.fidelity[n].raw_words)}"
            for n in text_names[1:]
            if n in r.fidelity
        )
        cells = (
            f"cells {r.cells_strict.get(ENGINE, 0)}/{r.cells_contained.get(ENGINE, 0)} of {r.cells_expected}"
            if r.cells_expected
            else ""
        )
        ocr = r.ocr.get(ENGINE)
        ocr_text = (
            "ocr " + " ".join(f"{k}:{_pct(a, b).strip()}" for k, (a, b) in sorted(ocr.items())) if ocr else ""
        )
        print(
            f"  {r.id[:44]:44s} {r.category[:16]:16s} {r.language} {r.pages:3d}p {fid} "
            f"{_fmt(r.seconds.get(ENGINE))}/{_fmt(r.seconds.get(RAW), 4)}s "
            f"{peers} {cells} {ocr_text}".rstrip()
        )

    scored = [r for r in results if ENGINE in r.fidelity]
    print("\nWorst documents (engine)")
    for label, key in (
        (
            "word loss (raw words not in output)",
            lambda r: r.fidelity[ENGINE].raw_words - r.fidelity[ENGINE].found,
        ),
        ("words cut", lambda r: r.fidelity[ENGINE].cut),
        ("words repeated", lambda r: r.fidelity[ENGINE].repeated),
        ("picture words (OCR'd on text-layer pages)", lambda r: r.fidelity[ENGINE].picture),
    ):
        worst = sorted((r for r in scored if key(r) > 0), key=key, reverse=True)[:WORST]
        listed = ", ".join(f"{r.id} {key(r)} of {r.fidelity[ENGINE].raw_words}" for r in worst) or "none"
        print(f"  {label}: {listed}")

    errors = [(r.id, name, error) for r in results for name, error in r.errors.items()]
    if errors:
        print("\nErrors")
        for doc_id, name, error in errors:
            print(f"  {doc_id} {name}: {error}")


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fidelity):
        return {**asdict(value), "recall": value.recall}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, set):
        return sorted(value)
    return value


def main() -> int:
    numbers = (*range(2, 23), *range(25, 28))
    splits = ("tune", "heldout", *(f"heldout{number}" for number in numbers))
    parser = corpus_arguments(__doc__, (*splits, *TABLE_SPLITS))
    parser.add_argument("--manifest", type=Path, default=MANIFEST, help=argparse.SUPPRESS)
    parser.add_argument("--no-rotations", action="store_true", help="skip the rotated copies of scans")
    parser.add_argument("--no-camelot", action="store_true", help="do not run camelot even if importable")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--present", action="store_true", help="measure the documents the corpus holds")
    parser.add_argument(
        "--page-seconds",
        type=float,
        help="the engine's time budget per page (default: the service's); raise it on a busy machine, "
        "where pages would otherwise be cut short by a budget the quiet machine never reaches",
    )
    args = parser.parse_args()
    global PAGE_SECONDS
    PAGE_SECONDS = args.page_seconds

    documents = [d for d in load_manifest(args.manifest) if args.split in ("all", d["split"])]
    missing = [d["id"] for d in documents if not corpus_path(args.corpus, d["repo"], d["path"]).is_file()]
    if missing and args.present:
        print(f"{len(missing)} documents are not in {args.corpus}: left out")
        documents = [d for d in documents if d["id"] not in missing]
    elif missing:
        print(
            f"{len(missing)} documents are not in {args.corpus}: run bench/real_corpus.py --mirrors DIR first"
        )
        return 2  # skipped, as bench/run.py counts it: the corpus is not on this machine
    available = {name for name, module in OPTIONAL.items() if importlib.util.find_spec(module) is not None}
    if args.no_camelot:
        available.discard(CAMELOT)
    print(f"{len(documents)} documents ({args.split}); peers: {', '.join(sorted(available)) or 'none'}")

    warm = documents[0]
    list(
        engine.parse_pages(
            corpus_path(args.corpus, warm["repo"], warm["path"]).read_bytes(),
            warm["kind"],
            engine.ParseOptions(),
        )
    )
    started = time.perf_counter()
    results = []
    for number, document in enumerate(documents, start=1):
        results.append(evaluate(document, args.corpus, available, not args.no_rotations))
        print(f"  [{number}/{len(documents)}] {document['id']}", file=sys.stderr)
    elapsed = time.perf_counter() - started

    summary = summarise(results, available)
    print_report(results, summary, available)
    print(f"\n{len(results)} documents in {elapsed:.0f} s")
    if args.json:
        payload = {
            "split": args.split,
            "peers_available": sorted(available),
            "seconds": elapsed,
            "summary": _jsonable(summary),
            "documents": [_jsonable(asdict(r)) for r in results],
        }
        args.json.write_text(json.dumps(payload, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"figures written to {args.json}")
    return 1 if any(r.errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
