"""Real documents of varied kinds and languages: the built-in classification and splitting.

    .venv/bin/python bench/real_corpus.py --mirrors DIR          # once: assemble .corpus/ (see there)
    .venv/bin/python bench/real_classification.py [--split tune|fresh|fresh2|...|fresh39|fresh40|all]
        [--corpus .corpus] [--aggregates] [--json PATH] [--pages DIR] [--present]

Reads the documents of `bench/real_classification/manifest.json` (scientific papers, books and
scanned book pages, forms of several governments, reports, financial reports, presentations,
contracts, letters, technical documentation, invoices and orders; en, de, fr, es, it, nl, pl, pt, ja,
ko, fa, la), most of them named by id from the other benchmarks' manifests, which never served to tune
classification. Each
is read as the service reads a document (`bench/real_extraction.py`'s `read`: the docsvc engine in
process, OCR for scans and photos, each page given the time a synchronous request gives it), then
classified and its packets split with that benchmark's own
functions (`classification`, `splitting`): the same scoring, a page right when its split has exactly
its document's pages and category, a packet exact when every page is.

Documents and packets are drawn into `tune` (tuned on) and `fresh` (only ever measured) by the seeded
draw the manifest records; `fresh2` to `fresh40`, later sets of new documents and packets, are only
ever measured too. Reported per split: accuracy per category and per language; the likelihood
of every wrong answer (the service warns under 0.5, so a wrong answer under 0.5 is a flagged one);
documents whose text says nothing of their kind (category null in the manifest), right when answered
under 0.5; splits: pages right, packets exact, boundaries exact. `--aggregates` prints the figures
without naming any document (for a split not to be looked into). `--json PATH` writes every figure.
`--pages DIR` keeps the pages of each document and packet as the engine read them (a JSON file per
sha256 of the file and engine revision, so pages an older engine read are read again) and reads them
from there in later runs: classification and splitting are measured again
without reading the documents again (the engine's reading is another benchmark's subject).
`--present` measures the documents the corpus holds and the packets made only of them, when the
corpus lacks some (without it, a document missing stops the run).
Exit code 0 whatever the figures, 2 when the corpus is not assembled.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.documents.engine.errors import DamagedDocument  # noqa: E402
from docsvc.domain.parses import ENGINE_REVISION, SYNCHRONOUS  # noqa: E402
from docsvc.intelligence.classification import Category, classify  # noqa: E402

from bench import real_extraction  # noqa: E402
from bench.real_corpus import (  # noqa: E402
    CLASSIFICATION_MANIFEST,
    FORMS_MANIFEST,
    LONG_MANIFEST,
    MANIFEST,
    corpus_path,
    load_manifest,
)
from bench.real_extraction import (  # noqa: E402
    Document,
    Tally,
    _pct,
    classification,
    packet_pdf,
    read,
    report_classification,
    report_splitting,
    splitting,
)

SPLITS = (
    "tune",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
    "fresh17",
    "fresh18",
    "fresh19",
    "fresh20",
    "fresh21",
    "fresh22",
    "fresh23",
    "fresh24",
    "fresh25",
    "fresh26",
    "fresh27",
    "fresh28",
    "fresh29",
    "fresh30",
    "fresh31",
    "fresh32",
    "fresh33",
    "fresh34",
    "fresh35",
    "fresh36",
    "fresh37",
    "fresh38",
    "fresh39",
    "fresh40",
)
SOURCES = {"real_documents": MANIFEST, "long_documents": LONG_MANIFEST, "forms": FORMS_MANIFEST}
GUESS = 0.5  # under this likelihood the service warns that the category is a guess


def documents(corpus: Path) -> tuple[list[Document], dict[str, Any]]:
    manifest = json.loads(CLASSIFICATION_MANIFEST.read_text(encoding="utf-8"))
    referenced = {
        name: {str(entry["id"]): entry for entry in load_manifest(path)} for name, path in SOURCES.items()
    }
    found = []
    for entry in manifest["documents"]:
        source = referenced[entry["from"]][entry["ref"]] if "ref" in entry else entry
        found.append(
            Document(
                id=entry["id"],
                category=entry["category"] or "",
                language=str(entry["language"]),
                split=str(entry["split"]),
                kind=str(source.get("kind") or "pdf"),
                file=corpus_path(corpus, str(source["repo"]), str(source["path"])),
            )
        )
    return found, manifest


def read_in_time(content: bytes, kind: str) -> list[str]:
    """The pages as `read` gives them with the time a synchronous request gives each page (the service
    gives no page less, a background parse more): the engine's bare default is half of it, and on a
    busy machine a dense scan's OCR ran past that and was left empty, a scan read without words. A
    document the engine gives up on (its reader crashing or running out of memory on a manuscript's
    OCR; the service answers it with an error) reaches the models as one page read empty, counted
    with the pages read empty, rather than ending the run."""
    try:
        return read(content, kind, page_seconds=SYNCHRONOUS.page_seconds)
    except DamagedDocument:
        return [""]


def keeping(
    kept: Path,
    read: Callable[[bytes, str], list[str]] = read_in_time,
    revision: int = ENGINE_REVISION,
    page_seconds: float = SYNCHRONOUS.page_seconds,
) -> Callable[[bytes, str], list[str]]:
    """`read`, keeping the pages it reads in `kept` (a JSON file per content's sha256, the engine's
    `revision` and the `page_seconds` it gave each page) and reading them from there when read before by
    the same engine: documents and the packets built of them alike. Pages an older engine read are read
    again, never scored as if the engine of the run had read them; pages read with less time are kept
    unless one of them was left empty (its OCR may have run out of time)."""

    def read_kept(content: bytes, kind: str) -> list[str]:
        name = f"{hashlib.sha256(content).hexdigest()}-r{revision}"
        path = kept / f"{name}-s{page_seconds:g}.json"
        for candidate in [path, *sorted(kept.glob(f"{name}.json")), *sorted(kept.glob(f"{name}-s*.json"))]:
            if candidate.is_file():
                found: list[str] = json.loads(candidate.read_text(encoding="utf-8"))
                if candidate == path or not empty_pages(found):
                    return found
        texts = read(content, kind)
        kept.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
        return texts

    return read_kept


def empty_pages(texts: Sequence[str]) -> int:
    """Pages that reached the models with no text: a page with nothing to read, or one whose OCR took
    longer than its budget on a busy machine (the engine leaves it empty with a warning), which joins
    it to its neighbours in a packet and can move a short document's answer; counted so that a figure
    read on a loaded machine, or from pages kept by an older engine, shows it."""
    return sum(not text.strip() for text in texts)


def counting(
    reader: Callable[[bytes, str], list[str]], counts: list[tuple[int, int]]
) -> Callable[[bytes, str], list[str]]:
    """`reader`, noting each reading's empty pages and pages (in the order read) in `counts`."""

    def read_counted(content: bytes, kind: str) -> list[str]:
        texts = reader(content, kind)
        counts.append((empty_pages(texts), len(texts)))
        return texts

    return read_counted


def report_empty(
    kept: Sequence[Document],
    pages_of: dict[str, list[str]],
    packets: Sequence[dict[str, Any]],
    packet_counts: Sequence[tuple[int, int]],
    splits: Sequence[str],
) -> dict[str, dict[str, list[int]]]:
    """Per split, the documents' and the packets' pages read empty, of all their pages."""
    found: dict[str, dict[str, list[int]]] = {s: {"documents": [0, 0], "packets": [0, 0]} for s in splits}
    for document in kept:
        texts = pages_of[document.id]
        tally = found[document.split]["documents"]
        tally[0], tally[1] = tally[0] + empty_pages(texts), tally[1] + len(texts)
    for packet, (empty, total) in zip(packets, packet_counts, strict=True):
        tally = found[packet["split"]]["packets"]
        tally[0], tally[1] = tally[0] + empty, tally[1] + total
    print("\n== Pages read empty (nothing to read, or OCR cut short by its time on a busy machine)")
    for split_name in splits:
        documents_, packets_ = found[split_name]["documents"], found[split_name]["packets"]
        print(
            f"  {split_name}: documents {documents_[0]} of {documents_[1]} pages, "
            f"packets {packets_[0]} of {packets_[1]} pages"
        )
    return found


def stable_packet_pdf(files: Sequence[Path]) -> bytes:
    """`real_extraction.packet_pdf` without the random /ID a PDF is saved with: the same parts give the
    same bytes, so a packet's pages kept by `--pages` are read from there again, as documents' are."""
    with pymupdf.open(stream=packet_pdf(files), filetype="pdf") as packet:
        packet.xref_set_key(-1, "ID", "null")
        return bytes(packet.tobytes(garbage=3, deflate=True, no_new_id=True))


def answers(
    docs: list[Document], pages_of: dict[str, list[str]], categories: list[Category]
) -> dict[str, Any]:
    """Each document's answer with its likelihood: per language, the wrong ones, and the documents
    without a category of their own (right when answered under GUESS)."""
    per_language: dict[tuple[str, str], Tally] = defaultdict(Tally)
    wrong: list[dict[str, Any]] = []
    unreadable: list[dict[str, Any]] = []
    for document in docs:
        found = classify(pages_of[document.id], categories)
        entry = {
            "id": document.id,
            "split": document.split,
            "language": document.language,
            "truth": document.category or None,
            "answer": found.category,
            "likelihood": found.likelihood,
        }
        if not document.category:
            unreadable.append({**entry, "right": found.likelihood < GUESS})
            continue
        ok = found.category == document.category
        per_language[(document.split, document.language)].add(ok, True)
        if not ok:
            wrong.append(entry)
    return {
        "per_language": {f"{s}/{lang}": t.figures() for (s, lang), t in sorted(per_language.items())},
        "wrong": wrong,
        "unreadable": unreadable,
        "_tallies": per_language,
    }


def report_answers(figures: dict[str, Any], splits: list[str], aggregates: bool) -> None:
    tallies = figures["_tallies"]
    print(f"\n{'language':<24}" + "".join(f"{s:>22}" for s in splits))
    for language in sorted({lang for (_, lang) in tallies}):
        print(f"{language:<24}" + "".join(f"{_pct(tallies.get((s, language), Tally())):>22}" for s in splits))
    print("\n== Wrong answers and their likelihood (the service warns under 0.5)")
    for split_name in splits:
        wrong = [entry for entry in figures["wrong"] if entry["split"] == split_name]
        flagged = sum(entry["likelihood"] < GUESS for entry in wrong)
        print(f"  {split_name}: {len(wrong)} wrong, {flagged} of them under {GUESS}")
        if not aggregates:
            for entry in wrong:
                print(
                    f"    {entry['id']} ({entry['language']}): {entry['truth']} read as {entry['answer']}, "
                    f"likelihood {entry['likelihood']:.3f}"
                )
    print("\n== Documents whose text says nothing of their kind (right when under 0.5)")
    for split_name in splits:
        found = [entry for entry in figures["unreadable"] if entry["split"] == split_name]
        right = sum(entry["right"] for entry in found)
        shown = ", ".join(f"{entry['likelihood']:.3f}" for entry in found)
        print(f"  {split_name}: {right} of {len(found)} under {GUESS} (likelihoods {shown})")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="tune")
    parser.add_argument(
        "--corpus", type=Path, default=ROOT / ".corpus", help="as bench/real_corpus.py wrote it"
    )
    parser.add_argument("--aggregates", action="store_true", help="figures only, no document named")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--pages", type=Path, help="keep the pages read here, and read them from here")
    parser.add_argument(
        "--present",
        action="store_true",
        help="measure the documents the corpus holds and the packets made only of them",
    )
    args = parser.parse_args()

    docs, manifest = documents(args.corpus)
    wanted = [d for d in docs if args.split in ("all", d.split)]
    missing = {d.id for d in wanted if not d.file.is_file()}
    if missing and not args.present:
        print(
            f"{len(missing)} documents are not in {args.corpus}: run bench/real_corpus.py --mirrors DIR first"
        )
        return 2
    if missing:
        print(f"{len(missing)} documents are not in {args.corpus}: left out, with the packets holding them")
    kept = [d for d in wanted if d.id not in missing]
    splits = [s for s in SPLITS if args.split in ("all", s)]
    categories = [Category(c["name"], c["description"]) for c in manifest["categories"]]
    by_id = {d.id: d for d in docs}

    started = time.perf_counter()
    reader: Callable[[bytes, str], list[str]] = read_in_time
    if args.pages:  # the packets' pages too: `splitting` reads them with bench.real_extraction's `read`
        reader = keeping(args.pages)
        real_extraction.packet_pdf = stable_packet_pdf
    pages_of = {d.id: reader(d.file.read_bytes(), d.kind) for d in kept}
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for d in kept:
        counts[(d.category or "(none)", d.split)] += 1
    print(f"{len(kept)} documents read in {time.perf_counter() - started:.1f} s")
    for (category, split_name), count in sorted(counts.items()):
        print(f"  {category:<24} {split_name:<8} {count}")

    results: dict[str, Any] = {"split": args.split, "documents": len(kept)}
    categorised = [d for d in kept if d.category]
    figures = classification(categorised, pages_of, categories)
    shown = {**figures, "wrong": [] if args.aggregates else figures["wrong"]}
    report_classification("Classification (real documents of varied kinds)", shown, splits)
    results["classification"] = {k: v for k, v in figures.items() if not k.startswith("_")}
    details = answers(kept, pages_of, categories)
    report_answers(details, splits, args.aggregates)
    results["answers"] = {k: v for k, v in details.items() if not k.startswith("_")}

    packets = [
        p
        for p in manifest["packets"]
        if args.split in ("all", p["split"]) and not missing.intersection(p["documents"])
    ]
    if missing:
        print(f"{len(packets)} packets measured, the others hold a document left out")
    packet_counts: list[tuple[int, int]] = []
    real_extraction.read = counting(reader, packet_counts)
    figures = splitting(packets, by_id, categories)
    shown = {**figures, "packets": [] if args.aggregates else figures["packets"]}
    report_splitting(shown, splits)
    results["splitting"] = {k: v for k, v in figures.items() if not k.startswith("_")}
    results["empty_pages"] = report_empty(kept, pages_of, packets, packet_counts, splits)

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
