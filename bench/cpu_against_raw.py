"""The engine's CPU time against raw PyMuPDF, per document and per page, for a shared machine.

    PYTHONPATH=layers/core:layers/documents .venv/bin/python bench/cpu_against_raw.py \
        [--sets long tune heldout ...] [--repeat 3] [--end-to-end] [--json PATH]

Wall time says nothing when other jobs share the cores; CPU time (`time.process_time`) does. Per PDF
of the sets asked (`long`: `bench/long_documents`; any other name: that split of
`bench/real_documents`, its PDFs), in this one process, each the fastest of `--repeat`: raw `get_text`
(open and every page) and the engine in process (`pdf.read_pages`, OCR off), with each page's CPU
time. With `--end-to-end`, documents of 10 pages or more are also read once as the parse service reads
them (`engine.parse_pages`, default options, OCR on), their reading children's CPU counted: the
children that ended (`RUSAGE_CHILDREN`) and those kept idle (`/proc/<pid>/schedstat`).

Printed per set: the median ratio over documents of 10 pages or more (in process, and end to end),
the median per-page ratio on pages with text and no table in the engine's output, the summed CPU, and
the engine's CPU seconds on table pages (p50, p99). Compare two engines by running this with each
one's `PYTHONPATH`, alternately.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.documents import engine  # noqa: E402
from docsvc.documents.engine import pdf  # noqa: E402

from bench.real_corpus import LONG_MANIFEST, MANIFEST, corpus_path, load_manifest  # noqa: E402


def documents(sets: list[str]) -> list[dict[str, Any]]:
    chosen: list[dict[str, Any]] = []
    for name in sets:
        if name == "long":
            chosen += [{**d, "set": name} for d in load_manifest(LONG_MANIFEST)]
        else:
            chosen += [
                {**d, "set": name}
                for d in load_manifest(MANIFEST)
                if d["split"] == name and d.get("kind", "pdf") == "pdf"
            ]
    return chosen


def children_seconds() -> float:
    """CPU of this process's children: those that ended and were waited for, and those alive."""
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    alive = 0
    for task in os.listdir("/proc/self/task"):
        try:
            pids = Path(f"/proc/self/task/{task}/children").read_text().split()
        except OSError:
            continue
        for pid in pids:
            with contextlib.suppress(OSError):  # it ended meanwhile: RUSAGE_CHILDREN counts it once waited
                alive += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    return ended.ru_utime + ended.ru_stime + alive / 1e9


def timed_pages(pages: Any) -> tuple[float, list[float], list[Any]]:
    """The CPU of reading every page of the iterator, each page's, and the pages."""
    start = last = time.process_time()
    seconds, read = [], []
    for page in pages:
        now = time.process_time()
        seconds.append(now - last)
        read.append(page)
        last = now
    return time.process_time() - start, seconds, read


def raw_pages(content: bytes) -> Any:
    with pymupdf.open(stream=content, filetype="pdf") as document:  # type: ignore[no-untyped-call]
        for page in document:
            yield page.get_text()


def measure(document: dict[str, Any], corpus: Path, repeat: int, end_to_end: bool) -> dict[str, Any]:
    content = corpus_path(corpus, document["repo"], document["path"]).read_bytes()
    raw = min((timed_pages(raw_pages(content)) for _ in range(repeat)), key=lambda run: run[0])
    options = engine.ParseOptions(ocr=False)
    ours = min(
        (timed_pages(pdf.read_pages(content, "pdf", options)) for _ in range(repeat)), key=lambda run: run[0]
    )
    whole = None
    if end_to_end and len(raw[1]) >= 10:
        start = time.process_time() + children_seconds()
        list(engine.parse_pages(content, "pdf", engine.ParseOptions()))
        whole = time.process_time() + children_seconds() - start
    return {
        "id": document["id"],
        "set": document["set"],
        "pages": len(raw[1]),
        "raw": raw[0],
        "engine": ours[0],
        "end_to_end": whole,
        "raw_pages": raw[1],
        "engine_pages": ours[1],
        "text": [bool(text.strip()) for text in raw[2]],
        "table": ["\n|---" in page.text or page.text.startswith("|") for page in ours[2]],
    }


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x" if values else "-"


def _quantile(values: list[float], share: float) -> str:
    return f"{values[min(len(values) - 1, int(share * len(values)))]:.3f} s" if values else "-"


def report(results: list[dict[str, Any]]) -> None:
    for name in dict.fromkeys(result["set"] for result in results):
        group = [result for result in results if result["set"] == name]
        long = [result for result in group if result["pages"] >= 10 and result["raw"] > 0]
        plain, tables = [], []
        for result in group:
            pages = zip(
                result["engine_pages"], result["raw_pages"], result["text"], result["table"], strict=False
            )
            for ours, raw, text, table in pages:
                if table:
                    tables.append(ours)
                elif text and raw > 0:
                    plain.append(ours / raw)
        tables.sort()
        documents = [r["engine"] / r["raw"] for r in long]
        ends = [r["end_to_end"] / r["raw"] for r in long if r["end_to_end"] is not None]
        ours, raw = sum(r["engine"] for r in group), sum(r["raw"] for r in group)
        print(
            f"{name:12s} {len(group):3d} documents ({len(long)} of 10+ pages): median {_median(documents)}, "
            f"end to end {_median(ends)}; {len(plain)} text pages: median {_median(plain)}; "
            f"summed {ours:.2f} s / {raw:.2f} s; {len(tables)} table pages: p50 {_quantile(tables, 0.5)}, "
            f"p99 {_quantile(tables, 0.99)}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sets", nargs="+", default=["long", "tune", "heldout"])
    parser.add_argument("--corpus", type=Path, default=ROOT / ".corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--end-to-end", action="store_true", help="also read documents of 10+ pages as the service does"
    )
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args()
    chosen = documents(args.sets)
    if not chosen:
        print("no documents")
        return 2
    warm = corpus_path(args.corpus, chosen[0]["repo"], chosen[0]["path"]).read_bytes()
    list(pdf.read_pages(warm, "pdf", engine.ParseOptions(ocr=False)))
    if args.end_to_end:
        list(engine.parse_pages(warm, "pdf", engine.ParseOptions()))
    results = [measure(document, args.corpus, args.repeat, args.end_to_end) for document in chosen]
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
