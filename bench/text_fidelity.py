"""Text fidelity: how close each extractor's text is to the text a generated PDF is known to hold.

    .venv/bin/python bench/text_fidelity.py [--pages-per-kind 3] [--json PATH]

Writes a PDF with PyMuPDF whose text is known page by page, in six kinds of page:
- prose: a heading and lines of prose in Helvetica 11 pt;
- mixed fonts: a Helvetica-Bold 16 pt heading, Times 10 pt body lines, Courier 9 pt footnotes;
- justified: paragraphs of Times 10.5 pt set justified by PyMuPDF's text box (stretched word spacing);
- two columns: two columns of Helvetica 9.5 pt, the left one written first (the truth reads the left
  column, then the right one);
- interleaved: two columns as above, but written line across line (left 1, right 1, left 2, ...), as some
  producers write them; the truth still reads the left column, then the right one;
- table: a heading, a paragraph, a ruled table (a header row and 10 rows of 5 cells), a note below it.

Then extracts every page with the docsvc engine (in process, as the parse service calls it), raw
PyMuPDF `get_text`, pypdf, pdfplumber and markitdown (one single-page PDF at a time, since it returns
one text per document). pypdf, pdfplumber and markitdown are optional (`pip install -e '.[bench]'`); a
missing one is reported as not available.

The score of a page is difflib.SequenceMatcher's ratio (autojunk off) between the truth and the
output, both normalised the same way: Markdown table syntax removed (rule rows such as `|---|---|`
dropped, every `|` made a space), Markdown heading marks (`#` at the start of a line) and `**`
removed, then every run of whitespace made one space. The docsvc engine renders a table as a
Markdown table, the others as lines of cells; the normalisation compares the words and their order,
not the markup. Scores are averaged per page kind and over all pages.

Target: the docsvc engine's overall score at least the best other extractor's (compared at three
decimals); the script prints met / not met. The exit code is 0 whether or not the target is met,
1 if an available extractor failed.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import io
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

ENGINE, RAW = "docsvc engine", "PyMuPDF get_text (raw)"
OPTIONAL = {"pypdf": "pypdf", "pdfplumber": "pdfplumber", "markitdown": "markitdown"}  # extractor: module
KINDS = ("prose", "mixed fonts", "justified", "two columns", "interleaved", "table")
PROSE = (
    "the quarterly revenue of each region grew while operating costs fell as the board approved a new "
    "budget for research and development with attention to customer contracts, shipping delays, supplier "
    "invoices, inventory levels and the forecast for next year; risks include currency exchange rates, "
    "interest payments, staff training, facilities maintenance and regulatory filings. Invoice 2024-0117 "
    "totals 1,234.56 EUR (net 30 days) and order PO-88213 ships on 12 March from warehouse B7."
)
WORDS = PROSE.split()
MARGIN, PAGE_WIDTH = 56.0, 595.0  # A4, PyMuPDF's default page

Extractor = Callable[[bytes], list[str]]  # a PDF in, the text of each page out


@dataclass
class TruthPage:
    kind: str
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Score:
    extractor: str
    by_kind: dict[str, float] = field(default_factory=dict)
    overall: float | None = None
    pages: list[float] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


# ---------------------------------------------------------------------------------------- corpus
def wrapped(generator: random.Random, width: float, font: str, size: float, count: int) -> list[str]:
    """`count` lines of words drawn from WORDS, each as wide as fits in `width` points."""
    lines = []
    for _ in range(count):
        words = [generator.choice(WORDS).capitalize()]
        while True:
            candidate = [*words, generator.choice(WORDS)]
            if pymupdf.get_text_length(" ".join(candidate), fontname=font, fontsize=size) > width:
                break
            words = candidate
        lines.append(" ".join(words))
    return lines


def write_lines(
    page: pymupdf.Page, truth: TruthPage, lines: list[str], x: float, y: float, font: str, size: float
) -> float:
    """Writes `lines` from (x, y) down, adds them to the truth, returns the y below the last one."""
    for line in lines:
        page.insert_text((x, y), line, fontname=font, fontsize=size)
        truth.lines.append(line)
        y += size * 1.4
    return y


def prose_page(page: pymupdf.Page, number: int, generator: random.Random) -> TruthPage:
    truth = TruthPage("prose")
    y = write_lines(page, truth, [f"Section {number}: operations review"], MARGIN, 70, "helv", 16)
    body = wrapped(generator, PAGE_WIDTH - 2 * MARGIN, "helv", 11, 40)
    write_lines(page, truth, body, MARGIN, y + 8, "helv", 11)
    return truth


def mixed_fonts_page(page: pymupdf.Page, number: int, generator: random.Random) -> TruthPage:
    truth = TruthPage("mixed fonts")
    y = write_lines(page, truth, [f"Annual report, part {number}"], MARGIN, 70, "hebo", 16)
    y = write_lines(
        page, truth, wrapped(generator, PAGE_WIDTH - 2 * MARGIN, "tiro", 10, 34), MARGIN, y + 8, "tiro", 10
    )
    notes = [f"[{index}] " + line for index, line in enumerate(wrapped(generator, 430, "cour", 9, 5), 1)]
    write_lines(page, truth, notes, MARGIN, y + 14, "cour", 9)
    return truth


def two_column_page(page: pymupdf.Page, number: int, generator: random.Random) -> TruthPage:
    truth = TruthPage("two columns")
    y = write_lines(page, truth, [f"Newsletter {number}"], MARGIN, 70, "helv", 16)
    gutter = 24.0
    width = (PAGE_WIDTH - 2 * MARGIN - gutter) / 2
    left = wrapped(generator, width, "helv", 9.5, 42)
    right = wrapped(generator, width, "helv", 9.5, 42)
    write_lines(page, truth, left, MARGIN, y + 10, "helv", 9.5)
    write_lines(page, truth, right, MARGIN + width + gutter, y + 10, "helv", 9.5)
    return truth


def interleaved_column_page(page: pymupdf.Page, number: int, generator: random.Random) -> TruthPage:
    """Two columns written line across line (left 1, right 1, left 2, ...), as some producers write
    them; the truth still reads the left column, then the right one."""
    truth = TruthPage("interleaved")
    y = write_lines(page, truth, [f"Bulletin {number}"], MARGIN, 70, "helv", 16)
    gutter = 24.0
    width = (PAGE_WIDTH - 2 * MARGIN - gutter) / 2
    left = wrapped(generator, width, "helv", 9.5, 42)
    right = wrapped(generator, width, "helv", 9.5, 42)
    for index, (left_line, right_line) in enumerate(zip(left, right, strict=True)):
        line_y = y + 10 + index * 9.5 * 1.4
        page.insert_text((MARGIN, line_y), left_line, fontname="helv", fontsize=9.5)
        page.insert_text((MARGIN + width + gutter, line_y), right_line, fontname="helv", fontsize=9.5)
    truth.lines += left + right
    return truth


def justified_page(page: pymupdf.Page, number: int, generator: random.Random) -> TruthPage:
    """Paragraphs set justified by PyMuPDF's text box (word spacing stretched), Times 10.5 pt."""
    truth = TruthPage("justified")
    y = write_lines(page, truth, [f"Chapter {number}"], MARGIN, 70, "tiro", 18)
    for _ in range(4):
        paragraph = " ".join(wrapped(generator, 470, "tiro", 10.5, 8))
        box = pymupdf.Rect(MARGIN, y, PAGE_WIDTH - MARGIN, y + 150)
        left = page.insert_textbox(
            box, paragraph, fontname="tiro", fontsize=10.5, align=pymupdf.TEXT_ALIGN_JUSTIFY
        )
        if left < 0:
            raise RuntimeError("a paragraph did not fit its box")
        truth.lines.append(paragraph)
        y = box.y1 - left + 12
    return truth


def table_page(page: pymupdf.Page, number: int, generator: random.Random) -> TruthPage:
    truth = TruthPage("table")
    y = write_lines(page, truth, [f"Price list {number}"], MARGIN, 70, "helv", 16)
    y = write_lines(
        page, truth, wrapped(generator, PAGE_WIDTH - 2 * MARGIN, "helv", 10, 4), MARGIN, y + 6, "helv", 10
    )
    rows = [["Item", "Region", "Quantity", "Unit price", "Total"]]
    for row in range(1, 11):
        quantity, price = generator.randint(1, 500), generator.randint(100, 99_999) / 100
        region = generator.choice(["North", "South", "East", "West", "Central"])
        rows.append(
            [f"SKU-{number:03d}-{row:02d}", region, str(quantity), f"{price:.2f}", f"{quantity * price:.2f}"]
        )
    top, height, width = y + 10, 20.0, 90.0
    for row_index, cells in enumerate(rows):
        for column, value in enumerate(cells):
            cell = pymupdf.Rect(MARGIN + column * width, top + row_index * height, 0, 0)
            cell.x1, cell.y1 = cell.x0 + width, cell.y0 + height
            page.draw_rect(cell, color=(0, 0, 0), width=0.8)
            page.insert_text((cell.x0 + 4, cell.y0 + 14), value, fontname="helv", fontsize=10)
        truth.lines.append(" ".join(cells))
    write_lines(
        page,
        truth,
        ["Prices include VAT. Totals are rounded."],
        MARGIN,
        top + len(rows) * height + 30,
        "helv",
        10,
    )
    return truth


WRITERS = {
    "prose": prose_page,
    "mixed fonts": mixed_fonts_page,
    "justified": justified_page,
    "two columns": two_column_page,
    "interleaved": interleaved_column_page,
    "table": table_page,
}


def build_corpus(pages_per_kind: int, seed: int = 2718) -> tuple[bytes, list[TruthPage]]:
    generator = random.Random(seed)
    truths = []
    with pymupdf.open() as document:
        for index in range(pages_per_kind):
            for kind in KINDS:
                truths.append(WRITERS[kind](document.new_page(), index + 1, generator))
        content = bytes(document.tobytes(garbage=4, deflate=True, clean=True, no_new_id=True))
    return content, truths


# ---------------------------------------------------------------------------------------- scoring
RULE_ROW = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
HEADING_MARK = re.compile(r"^\s{0,3}#{1,6}\s+")


def normalised(text: str) -> str:
    """Markdown table and heading syntax out, whitespace runs to one space (see the module docstring)."""
    lines = []
    for line in text.splitlines():
        if RULE_ROW.match(line):
            continue
        line = HEADING_MARK.sub("", line).replace("|", " ").replace("**", "")
        lines.append(line)
    return " ".join(" ".join(lines).split())


def similarity(truth: str, output: str) -> float:
    expected, found = normalised(truth), normalised(output)
    if not expected and not found:
        return 1.0
    return difflib.SequenceMatcher(None, expected, found, autojunk=False).ratio()


# ---------------------------------------------------------------------------------------- extractors
def engine_extractor(content: bytes) -> list[str]:
    from docsvc.documents import engine

    return [page.text for page in engine.parse_pages(content, "pdf", engine.ParseOptions())]


def raw_extractor(content: bytes) -> list[str]:
    with pymupdf.open(stream=content, filetype="pdf") as document:
        return [str(page.get_text()) for page in document]


def single_pages(content: bytes) -> list[bytes]:
    parts = []
    with pymupdf.open(stream=content, filetype="pdf") as document:
        for number in range(document.page_count):
            with pymupdf.open() as single:
                single.insert_pdf(document, from_page=number, to_page=number)
                parts.append(bytes(single.tobytes()))
    return parts


def optional_extractor(name: str) -> Extractor:
    if name == "pypdf":
        import pypdf

        def with_pypdf(content: bytes) -> list[str]:
            return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages]

        return with_pypdf
    if name == "pdfplumber":
        import pdfplumber

        def with_pdfplumber(content: bytes) -> list[str]:
            with pdfplumber.open(io.BytesIO(content)) as document:
                return [page.extract_text() or "" for page in document.pages]

        return with_pdfplumber
    from markitdown import MarkItDown, StreamInfo

    converter = MarkItDown()
    pdf = StreamInfo(extension=".pdf", mimetype="application/pdf")

    def with_markitdown(content: bytes) -> list[str]:
        return [
            converter.convert_stream(io.BytesIO(part), stream_info=pdf).markdown
            for part in single_pages(content)
        ]

    return with_markitdown


def score(name: str, extract: Extractor, content: bytes, truths: list[TruthPage]) -> Score:
    result = Score(name)
    try:
        started = time.perf_counter()
        pages = extract(content)
        result.seconds = time.perf_counter() - started
        if len(pages) != len(truths):
            raise RuntimeError(f"{len(pages)} pages extracted, the PDF has {len(truths)}")
    except Exception as error:
        result.error = f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"
        return result
    result.pages = [similarity(truth.text, page) for truth, page in zip(truths, pages, strict=True)]
    for kind in KINDS:
        result.by_kind[kind] = statistics.mean(
            value for value, truth in zip(result.pages, truths, strict=True) if truth.kind == kind
        )
    result.overall = statistics.mean(result.pages)
    return result


# ---------------------------------------------------------------------------------------- report
def report(scores: list[Score], skipped: dict[str, str]) -> None:
    header = (
        f"  {'extractor':<24}" + "".join(f" {kind:>12}" for kind in KINDS) + f" {'overall':>9} {'seconds':>8}"
    )
    print(header)
    for result in scores:
        if result.overall is None:
            print(f"  {result.extractor:<24} error: {result.error}")
            continue
        cells = "".join(f" {result.by_kind[kind]:>12.4f}" for kind in KINDS)
        print(f"  {result.extractor:<24}{cells} {result.overall:>9.4f} {result.seconds:>8.2f}")
    for name, reason in skipped.items():
        print(f"  {name:<24} {reason}")


def target(scores: list[Score]) -> dict[str, Any]:
    ours = next((s.overall for s in scores if s.extractor == ENGINE), None)
    peers = [s.overall for s in scores if s.extractor != ENGINE and s.overall is not None]
    best = max(peers) if peers else None
    met = ours is not None and (best is None or round(ours, 3) >= round(best, 3))
    return {
        "target": "docsvc engine overall >= best other extractor",
        "value": ours,
        "best_peer": best,
        "met": met,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages-per-kind", type=int, default=3, help="pages of each of the 6 kinds")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()
    if arguments.pages_per_kind < 1:
        parser.error("--pages-per-kind must be at least 1")
    content, truths = build_corpus(arguments.pages_per_kind)
    size = len(content) / 1024
    print(f"corpus: {len(truths)} pages ({arguments.pages_per_kind} of each kind), {size:.0f} KiB\n")

    scores = [score(ENGINE, engine_extractor, content, truths), score(RAW, raw_extractor, content, truths)]
    skipped: dict[str, str] = {}
    for name, module in OPTIONAL.items():
        if importlib.util.find_spec(module) is None:
            skipped[name] = "not available (not installed)"
            continue
        scores.append(score(name, optional_extractor(name), content, truths))
    report(scores, skipped)
    check = target(scores)
    best = "none available" if check["best_peer"] is None else f"{check['best_peer']:.4f}"
    ours = "no figure" if check["value"] is None else f"{check['value']:.4f}"
    print(f"\n{'met' if check['met'] else 'not met'}: {check['target']} (ours {ours}, best other {best})")

    if arguments.json is not None:
        figures = {
            "pages_per_kind": arguments.pages_per_kind,
            "scores": [asdict(s) for s in scores],
            "skipped": skipped,
            "target": check,
        }
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 1 if any(s.error is not None for s in scores) else 0


if __name__ == "__main__":
    sys.exit(main())
