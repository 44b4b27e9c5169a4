"""Tables drawn as pictures: the real documents' table pages read by OCR as image-only pages.

    .venv/bin/python bench/picture_tables.py [--split tune|heldout|all] [--corpus .corpus]
        [--dpi 200] [--page-seconds S] [--json PATH]

Takes the PDFs of `bench/real_documents/manifest.json` whose truth holds table cells (docling's table
cells, tabula's expected CSV/JSON, olmOCR-bench's table tests; see bench/real_documents.py), and draws
each page of theirs that the truth puts a table on at `--dpi` into a one-page PDF holding only that
picture (a scan of the page). The engine's PDF reader reads each such page in this process (OCR;
`--page-seconds` gives it time on a shared machine) and, for comparison, the page as it is (its text
layer).

A page is "ruled" when the engine finds a ruled table in the vector drawings of the original page
(its rules are then lines in the picture), else "without rules". Per group and over all: table cells
expected, found strict (a returned Markdown table cell equals the expected cell, normalised as
bench/real_documents.py does: NFKC, whitespace collapsed, casefolded) and contained (inside a
returned cell), the pages on which no table was returned, and the engine's seconds a page. Where the
engine has `picture_rules`, the time it spends on the pictures' rules is shown in ms a page.

Exit code 0 whatever the figures, 2 when the corpus is not assembled here.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.documents import engine  # noqa: E402
from docsvc.documents.engine import pdf  # noqa: E402
from docsvc.documents.engine.grids import ruled_grids  # noqa: E402
from docsvc.domain.parses import PAGE_SECONDS  # noqa: E402

from bench.real_corpus import corpus_arguments, corpus_path, load_manifest  # noqa: E402
from bench.real_documents import _engine_tables, cell_text, load_truth  # noqa: E402

GROUPS = ("ruled", "without rules")
_rules_seconds: list[float] = []


@dataclass
class PageResult:
    id: str
    page: int
    group: str
    expected: int
    strict: dict[str, int] = field(default_factory=dict)  # "picture", "text layer"
    contained: dict[str, int] = field(default_factory=dict)
    table: dict[str, bool] = field(default_factory=dict)
    seconds: float = 0.0
    rules_ms: float | None = None


def _timed_rules() -> None:
    """Times the engine's search for rules in pictures, where it has one."""
    found = getattr(pdf, "picture_tables", None)
    if found is None:
        return

    def timed(*args: Any) -> Any:
        started = time.perf_counter()
        try:
            return found(*args)
        finally:
            _rules_seconds.append(time.perf_counter() - started)

    pdf.picture_tables = timed  # type: ignore[attr-defined]


def picture_page(document: pymupdf.Document, number: int, dpi: int) -> bytes:
    """Page `number` (from 1) as a one-page PDF holding only its picture at `dpi`."""
    page = document[number - 1]
    picture = page.get_pixmap(dpi=dpi, alpha=False)
    with pymupdf.open() as scan:
        sheet = scan.new_page(width=page.rect.width, height=page.rect.height)
        sheet.insert_image(sheet.rect, pixmap=picture)
        return scan.tobytes()


def text_page(document: pymupdf.Document, number: int) -> bytes:
    with pymupdf.open() as one:
        one.insert_pdf(document, from_page=number - 1, to_page=number - 1)
        return one.tobytes()


def is_ruled(page: pymupdf.Page) -> bool:
    drawings = page.get_cdrawings()
    return bool(ruled_grids(*pdf._rules(drawings, page.rotation_matrix if page.rotation else None)))


def cells_of(content: bytes, options: engine.ParseOptions) -> tuple[list[str], float]:
    """The cells of the tables the engine returns for a one-page PDF, read in this process (the
    parse service's reader, without the child process that isolates it, whose time is not the
    page's), and its seconds; no cells when the reader fails."""
    started = time.perf_counter()
    try:
        pages = list(pdf.read_pages(content, "pdf", options))
    except Exception as error:
        print(f"    the engine failed: {type(error).__name__}: {error}", file=sys.stderr)
        return [], time.perf_counter() - started
    seconds = time.perf_counter() - started
    return [
        cell_text(cell) for page in pages for table in _engine_tables(page) for row in table for cell in row
    ], seconds


def evaluate(
    document: dict[str, Any], corpus: Path, dpi: int, options: engine.ParseOptions
) -> list[PageResult]:
    content = corpus_path(corpus, document["repo"], document["path"]).read_bytes()
    truth = load_truth(document, corpus_path(corpus, document["repo"], document["truth_path"]).read_bytes())
    results = []
    with pymupdf.open(stream=content, filetype="pdf") as pages:
        count = min(len(pages), int(document["pages"]))
        expected = [(page, cell_text(cell)) for page, cell in truth.cells if page is None or page <= count]
        if any(page is None for page, _ in expected):  # as bench/real_documents.py places them
            texts = [cell_text(pages[index].get_text()) for index in range(count)]
            held = [sum(1 for _, cell in expected if cell in text) for text in texts]
            best = held.index(max(held)) + 1
            expected = [(best if page is None else page, cell) for page, cell in expected]
        for number in sorted({page for page, _ in expected if page is not None}):
            wanted = [cell for page, cell in expected if page == number]
            group = GROUPS[0] if is_ruled(pages[number - 1]) else GROUPS[1]
            result = PageResult(document["id"], number, group, len(wanted))
            before = len(_rules_seconds)
            for name, one in (
                ("picture", picture_page(pages, number, dpi)),
                ("text layer", text_page(pages, number)),
            ):
                returned, seconds = cells_of(one, options)
                found = set(returned)
                result.strict[name] = sum(1 for cell in wanted if cell in found)
                result.contained[name] = sum(1 for cell in wanted if any(cell in r for r in returned))
                result.table[name] = bool(returned)
                if name == "picture":
                    result.seconds = seconds
                    timed = _rules_seconds[before:]
                    result.rules_ms = 1000 * sum(timed) if timed else None
            results.append(result)
    return results


def summarise(results: list[PageResult]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for group in (*GROUPS, "all"):
        own = [r for r in results if group in ("all", r.group)]
        expected = sum(r.expected for r in own)
        figures: dict[str, Any] = {"pages": len(own), "cells": expected}
        for name in ("picture", "text layer"):
            figures[name] = {
                "strict": sum(r.strict[name] for r in own),
                "contained": sum(r.contained[name] for r in own),
                "pages_without_table": sum(not r.table[name] for r in own),
            }
        timed = sorted(r.rules_ms for r in own if r.rules_ms is not None)
        figures["picture_seconds_median"] = sorted(r.seconds for r in own)[len(own) // 2] if own else None
        figures["rules_ms_median"] = timed[len(timed) // 2] if timed else None
        figures["rules_ms_max"] = timed[-1] if timed else None
        summary[group] = figures
    return summary


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def main() -> int:
    parser = corpus_arguments(__doc__)
    parser.add_argument("--dpi", type=int, default=200, help="the pictures' resolution")
    parser.add_argument("--page-seconds", type=float, default=PAGE_SECONDS, help="OCR's time a page")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args()
    documents = [
        d
        for d in load_manifest()
        if args.split in ("all", d["split"]) and d["kind"] == "pdf" and "truth_path" in d
    ]
    missing = [d["id"] for d in documents if not corpus_path(args.corpus, d["repo"], d["path"]).is_file()]
    if missing:
        print(
            f"{len(missing)} documents are not in {args.corpus}: run bench/real_corpus.py --mirrors DIR first"
        )
        return 2
    _timed_rules()
    options = engine.ParseOptions(table_format="markdown", page_seconds=args.page_seconds)
    results: list[PageResult] = []
    started = time.perf_counter()
    for number, document in enumerate(documents, start=1):
        truth = load_truth(
            document, corpus_path(args.corpus, document["repo"], document["truth_path"]).read_bytes()
        )
        if not truth.cells:
            continue
        results += evaluate(document, args.corpus, args.dpi, options)
        print(f"  [{number}/{len(documents)}] {document['id']}", file=sys.stderr)
    summary = summarise(results)
    print(
        f"Table pages drawn as pictures at {args.dpi} dpi ({args.split}), read by OCR; the text layer beside"
    )
    print(
        f"{'group':<15}{'pages':>6}{'cells':>7}  {'picture strict':>15}{'contained':>11}{'no table':>9}"
        f"  {'text strict':>12}{'no table':>9}  {'s/page':>7}{'rules ms':>9}"
    )
    for group, figures in summary.items():
        picture, text = figures["picture"], figures["text layer"]
        rules = figures["rules_ms_median"]
        print(
            f"{group:<15}{figures['pages']:>6}{figures['cells']:>7}  "
            f"{_pct(picture['strict'], figures['cells']):>15}"
            f"{_pct(picture['contained'], figures['cells']):>11}"
            f"{picture['pages_without_table']:>9}  {_pct(text['strict'], figures['cells']):>12}"
            f"{text['pages_without_table']:>9}  {figures['picture_seconds_median'] or 0:>7.2f}"
            f"{'-' if rules is None else f'{rules:.0f}':>9}"
        )
    print("\nper page (picture strict / text strict of cells, table returned from the picture):")
    for r in results:
        print(
            f"  {r.id} p{r.page} [{r.group}] {r.strict['picture']}/{r.strict['text layer']} of {r.expected}"
            f"  table {'yes' if r.table['picture'] else 'no'}"
            f"  {r.seconds:.1f} s{'' if r.rules_ms is None else f', rules {r.rules_ms:.0f} ms'}"
        )
    print(f"\n{len(results)} pages in {time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps({"summary": summary, "pages": [asdict(r) for r in results]}, indent=1)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
