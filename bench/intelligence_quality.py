"""Quality of the built-in document-intelligence models on synthetic documents with ground truth.

    .venv/bin/python bench/intelligence_quality.py [--limit N] [--json PATH] [--seed 2026]

The corpus comes from bench/intelligence_corpus.py: 240 invoices, receipts, purchase orders and
application forms in 24 layouts (L0-L3 of each kind for tuning, L4-L5 held out) and 40 packets of 2 to 6
such documents in one PDF. Every PDF is parsed in process by the engine the parse service runs; the
models get the pages' text, as they do in the service.

- Extraction (`docsvc.intelligence.extraction.extract`, with the kind's JSON Schema): field accuracy
  over every leaf field of every document. Line items are compared row by row, each cell a field; a
  missing row's cells are wrong, an extra row is one wrong field. A value is right when it equals the
  truth after normalisation: strings ignoring case and whitespace, numbers to 2 decimals (a plain
  numeric string counts as its number), dates as the same ISO string, booleans and null as such.
  Also per kind, per layout, the 10 worst field names, and the share of outputs valid against their
  schema (jsonschema Draft 2020-12).
- Classification (`docsvc.intelligence.classification.classify`): each document's first 2 pages among
  the 4 kinds; accuracy over documents.
- Splitting (`docsvc.intelligence.splitting.split`, one subdocument type per kind, several instances
  allowed) on the packets: a page is split right when it lies in exactly one returned split, of the
  right kind, whose pages are exactly those of the document it belongs to; a page is classified right
  when the splits holding it all name its kind. Also the share of packets split exactly.
- Timing: the median seconds per document (per packet for splitting) of each step.

Figures are given for tuning layouts, held-out layouts and overall. Targets: extraction >= 95% field
accuracy; classification and split >= 95% page accuracy. A model whose module cannot be imported is
reported as not available. `--limit N` runs on the first N documents (they cover every layout from
N = 24) and the first N/6 packets (at least 2). `--json PATH` writes every figure. The exit code is 0
whether or not the targets are met, 1 when a model or the parser raised.

To reproduce: .venv/bin/python bench/intelligence_quality.py
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout: the corpus beside it

from bench.intelligence_corpus import CATEGORIES, Packet, Sample, packets, samples  # noqa: E402

TARGET = 0.95
GROUPS = ("overall", "tuning", "held_out")
WORST_FIELDS = 10
MAX_ERRORS_SHOWN = 5
MODULES = {
    "extraction": ("docsvc.intelligence.extraction", ("extract",)),
    "classification": ("docsvc.intelligence.classification", ("Category", "classify")),
    "split": ("docsvc.intelligence.splitting", ("Subdocument", "split")),
}


# ---------------------------------------------------------------------------------------- tallies
@dataclass
class Ratio:
    right: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.right += ok
        self.total += 1

    @property
    def share(self) -> float | None:
        return self.right / self.total if self.total else None

    def as_dict(self) -> dict[str, Any]:
        return {"right": self.right, "total": self.total, "share": self.share}

    def show(self) -> str:
        share = self.share
        return "-" if share is None else f"{100 * share:5.1f}% ({self.right}/{self.total})"


class Grouped:
    """A ratio overall and for tuning and held-out layouts."""

    def __init__(self) -> None:
        self.ratios = {group: Ratio() for group in GROUPS}

    def add(self, held_out: bool, ok: bool) -> None:
        self.ratios["overall"].add(ok)
        self.ratios["held_out" if held_out else "tuning"].add(ok)

    def __getitem__(self, group: str) -> Ratio:
        return self.ratios[group]

    def as_dict(self) -> dict[str, Any]:
        return {group: ratio.as_dict() for group, ratio in self.ratios.items()}

    def row(self, label: str, width: int = 34) -> str:
        return f"  {label:<{width}}" + "".join(f"{self.ratios[group].show():>24}" for group in GROUPS)


def _groups() -> defaultdict[str, Grouped]:
    return defaultdict(Grouped)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# ---------------------------------------------------------------------------------------- scoring
def _normal(text: str) -> str:
    return "".join(text.split()).casefold()


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def leaf_right(schema: dict[str, Any], expected: Any, got: Any) -> bool:
    """Whether one output value equals its truth after normalisation."""
    if expected is None:
        return got is None
    if isinstance(expected, bool):
        return got is expected
    if isinstance(expected, int | float):
        number = _number(got)
        return number is not None and math.isfinite(number) and round(number * 100) == round(expected * 100)
    if schema.get("format") == "date":
        return isinstance(got, str) and got.strip() == expected
    return isinstance(got, str) and _normal(got) == _normal(expected)


def score_fields(schema: dict[str, Any], expected: Any, got: Any, path: str) -> list[tuple[str, bool]]:
    """(field name, right) for every leaf of the truth, plus one wrong field per extra array row."""
    if "properties" in schema:
        output = got if isinstance(got, dict) else {}
        expected = expected if isinstance(expected, dict) else {}
        scored = []
        for key, subschema in schema["properties"].items():
            scored += score_fields(subschema, expected.get(key), output.get(key), f"{path}.{key}")
        return scored
    if schema.get("type") == "array":
        rows = got if isinstance(got, list) else []
        scored = []
        for index, row in enumerate(expected or []):
            scored += score_fields(
                schema["items"], row, rows[index] if index < len(rows) else None, f"{path}[]"
            )
        scored += [(f"{path}[] (extra row)", False)] * max(0, len(rows) - len(expected or []))
        return scored
    return [(path, leaf_right(schema, expected, got))]


def score_split(
    truth: list[tuple[str, list[int]]], found: list[tuple[str, list[int]]]
) -> tuple[list[bool], list[bool], bool]:
    """Per page of the packet: split right, kind right; and whether the packet was split exactly."""
    document_of = {page: (kind, frozenset(pages)) for kind, pages in truth for page in pages}
    holders: defaultdict[int, list[tuple[str, frozenset[int]]]] = defaultdict(list)
    for name, pages in found:
        for page in set(pages):
            holders[page].append((name, frozenset(pages)))
    split_right, kind_right = [], []
    for page in sorted(document_of):
        kind, members = document_of[page]
        holding = holders.get(page, [])
        split_right.append(len(holding) == 1 and holding[0] == (kind, members))
        kind_right.append(bool(holding) and {name for name, _ in holding} == {kind})
    exact = sorted((kind, sorted(pages)) for kind, pages in truth) == sorted(
        (name, sorted(set(pages))) for name, pages in found
    )
    return split_right, kind_right, exact


# ---------------------------------------------------------------------------------------- running
@dataclass
class Task:
    name: str
    available: bool = False
    reason: str = ""
    api: dict[str, Any] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def call(self, label: str, function: Callable[..., Any], *args: Any) -> Any:
        """The function's result, or None when it raised (the error is kept); the time is recorded."""
        started = time.perf_counter()
        try:
            result = function(*args)
        except Exception as error:
            self.errors.append(f"{label}: {type(error).__name__}: {error}")
            return None
        finally:
            self.seconds.append(time.perf_counter() - started)
        return result

    def status(self) -> str:
        return "available" if self.available else f"not available ({self.reason})"


def load(name: str) -> Task:
    module_name, attributes = MODULES[name]
    task = Task(name)
    try:
        module = importlib.import_module(module_name)
        task.api = {attribute: getattr(module, attribute) for attribute in attributes}
    except Exception as error:  # a module being written may fail in any way on import
        task.reason = f"{type(error).__name__}: {error}"
        return task
    task.available = True
    return task


def parse(pdf: bytes) -> list[str]:
    from docsvc.documents.engine import parse_pages
    from docsvc.documents.engine.model import ParseOptions

    return [page.text for page in parse_pages(pdf, "pdf", ParseOptions())]


def _progress(step: str, done: int, total: int) -> None:
    if done == total or done % 20 == 0:
        print(f"\r{step}: {done}/{total}", end="\n" if done == total else "", file=sys.stderr, flush=True)


def run(corpus: list[Sample], bundles: list[Packet]) -> dict[str, Any]:
    tasks = {name: load(name) for name in MODULES}
    parsing = Task("parse", available=True)
    pages_of: dict[str, list[str]] = {}
    documents: list[Sample | Packet] = [*corpus, *bundles]
    for done, item in enumerate(documents, start=1):
        pages_of[item.name] = parsing.call(item.name, parse, item.pdf) or []
        _progress("parse", done, len(corpus) + len(bundles))

    figures: dict[str, Any] = {
        "models": {name: task.status() for name, task in tasks.items()},
        "parse": {"median_seconds": _median(parsing.seconds[: len(corpus)]), "errors": parsing.errors},
    }
    figures["extraction"] = _extraction(tasks["extraction"], corpus, pages_of)
    figures["classification"] = _classification(tasks["classification"], corpus, pages_of)
    figures["split"] = _split(tasks["split"], bundles, pages_of)
    figures["targets"] = _targets(figures)
    figures["errors"] = sum(len(task.errors) for task in [parsing, *tasks.values()])
    return figures


def _extraction(task: Task, corpus: list[Sample], pages_of: dict[str, list[str]]) -> dict[str, Any]:
    if not task.available:
        return {"available": False, "reason": task.reason}
    extract = task.api["extract"]
    fields, valid, exact = Grouped(), Grouped(), Grouped()
    per_kind, per_layout, per_field = _groups(), _groups(), _groups()
    outputs: dict[str, Any] = {}
    for done, sample in enumerate(corpus, start=1):
        result = task.call(sample.name, extract, pages_of[sample.name], sample.schema)
        output = getattr(result, "output", None)
        outputs[sample.name] = output
        scored = score_fields(sample.schema, sample.truth, output, sample.kind)
        for name, ok in scored:
            fields.add(sample.held_out, ok)
            per_kind[sample.kind].add(sample.held_out, ok)
            per_layout[f"{sample.kind} {sample.layout}"].add(sample.held_out, ok)
            per_field[name].add(sample.held_out, ok)
        valid.add(sample.held_out, accepted(sample.schema, output))
        exact.add(sample.held_out, all(ok for _, ok in scored))
        _progress("extraction", done, len(corpus))
    worst = sorted(per_field.items(), key=lambda item: (item[1]["overall"].share or 0.0, item[0]))
    return {
        "available": True,
        "field_accuracy": fields.as_dict(),
        "per_kind": {kind: grouped.as_dict() for kind, grouped in sorted(per_kind.items())},
        "per_layout": {name: grouped.as_dict() for name, grouped in sorted(per_layout.items())},
        "per_field": {name: grouped.as_dict() for name, grouped in sorted(per_field.items())},
        "worst_fields": [name for name, _ in worst[:WORST_FIELDS]],
        "schema_valid": valid.as_dict(),
        "documents_all_right": exact.as_dict(),
        "median_seconds": _median(task.seconds),
        "errors": task.errors,
        "outputs": outputs,
    }


def _classification(task: Task, corpus: list[Sample], pages_of: dict[str, list[str]]) -> dict[str, Any]:
    if not task.available:
        return {"available": False, "reason": task.reason}
    category, classify = task.api["Category"], task.api["classify"]
    categories = [category(name, description) for name, description in CATEGORIES]
    accuracy, per_kind = Grouped(), _groups()
    confusion: defaultdict[str, Counter[str]] = defaultdict(Counter)
    likelihoods: dict[bool, list[float]] = {True: [], False: []}
    for done, sample in enumerate(corpus, start=1):
        result = task.call(sample.name, classify, pages_of[sample.name][:2], categories)
        predicted = getattr(result, "category", None)
        ok = predicted == sample.kind
        accuracy.add(sample.held_out, ok)
        per_kind[sample.kind].add(sample.held_out, ok)
        confusion[sample.kind][str(predicted)] += 1
        likelihood = getattr(result, "likelihood", None)
        if isinstance(likelihood, int | float):
            likelihoods[ok].append(float(likelihood))
        _progress("classification", done, len(corpus))
    return {
        "available": True,
        "document_accuracy": accuracy.as_dict(),
        "per_kind": {kind: grouped.as_dict() for kind, grouped in sorted(per_kind.items())},
        "confusion": {kind: dict(counts) for kind, counts in sorted(confusion.items())},
        "mean_likelihood_right": _mean(likelihoods[True]),
        "mean_likelihood_wrong": _mean(likelihoods[False]),
        "median_seconds": _median(task.seconds),
        "errors": task.errors,
    }


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _split(task: Task, bundles: list[Packet], pages_of: dict[str, list[str]]) -> dict[str, Any]:
    if not task.available:
        return {"available": False, "reason": task.reason}
    subdocument, split = task.api["Subdocument"], task.api["split"]
    kinds = [
        subdocument(name, description, allow_multiple_instances=True) for name, description in CATEGORIES
    ]
    split_pages, kind_pages, exact = Grouped(), Grouped(), Grouped()
    per_document: list[float] = []
    found_of: dict[str, list[tuple[str, list[int]]]] = {}
    for done, packet in enumerate(bundles, start=1):
        result = task.call(packet.name, split, pages_of[packet.name], kinds)
        found = [
            (str(getattr(part, "name", "")), _pages(getattr(part, "pages", []))) for part in result or []
        ]
        found_of[packet.name] = found
        if result is not None:
            per_document.append(task.seconds[-1] / len(packet.truth))
        split_right, kind_right, whole = score_split(packet.truth, found)
        for ok in split_right:
            split_pages.add(packet.held_out, ok)
        for ok in kind_right:
            kind_pages.add(packet.held_out, ok)
        exact.add(packet.held_out, whole)
        _progress("split", done, len(bundles))
    return {
        "available": True,
        "page_accuracy": split_pages.as_dict(),
        "kind_page_accuracy": kind_pages.as_dict(),
        "packets_exact": exact.as_dict(),
        "median_seconds_per_packet": _median(task.seconds),
        "median_seconds_per_document": _median(per_document),
        "errors": task.errors,
        "splits": found_of,
    }


def _pages(pages: Iterable[Any]) -> list[int]:
    return [int(page) for page in pages if isinstance(page, int) and not isinstance(page, bool)]


def _targets(figures: dict[str, Any]) -> list[dict[str, Any]]:
    wanted = [
        ("extraction field accuracy", "extraction", "field_accuracy"),
        ("classification accuracy (documents)", "classification", "document_accuracy"),
        ("classification page accuracy (packets, kind by split)", "split", "kind_page_accuracy"),
        ("split page accuracy (packets)", "split", "page_accuracy"),
    ]
    targets = []
    for label, task, figure in wanted:
        ratios = figures[task].get(figure)
        value = ratios["overall"]["share"] if ratios else None
        targets.append(
            {
                "target": f"{label} >= {TARGET:.0%}",
                "overall": value,
                "held_out": ratios["held_out"]["share"] if ratios else None,
                "met": None if value is None else value >= TARGET,
            }
        )
    return targets


# ---------------------------------------------------------------------------------------- report
def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"


def _ratios(data: dict[str, Any]) -> Grouped:
    grouped = Grouped()
    for group in GROUPS:
        grouped.ratios[group] = Ratio(data[group]["right"], data[group]["total"])
    return grouped


def report(figures: dict[str, Any], corpus: list[Sample], bundles: list[Packet]) -> None:
    held = sum(sample.held_out for sample in corpus)
    print(
        f"\nCorpus: {len(corpus)} documents ({len(corpus) - held} tuning, {held} held out), "
        f"{len(bundles)} packets ({sum(p.held_out for p in bundles)} held out), seed {figures['seed']}"
    )
    for name, status in figures["models"].items():
        print(f"  {name:<15} {status}")
    header = f"  {'':<34}" + "".join(f"{group.replace('_', ' '):>24}" for group in GROUPS)

    extraction = figures["extraction"]
    print("\nExtraction")
    if extraction["available"]:
        print(header)
        print(_ratios(extraction["field_accuracy"]).row("field accuracy"))
        for kind, data in extraction["per_kind"].items():
            print(_ratios(data).row(f"  {kind}"))
        print(_ratios(extraction["schema_valid"]).row("outputs valid against the schema"))
        print(_ratios(extraction["documents_all_right"]).row("documents with every field right"))
        print("  per layout (field accuracy):")
        for name, data in extraction["per_layout"].items():
            portion = "held out" if data["held_out"]["total"] else "tuning"
            print(f"    {name:<20} {portion:<9} {_ratios(data)['overall'].show()}")
        print(f"  the {WORST_FIELDS} worst fields:")
        for name in extraction["worst_fields"]:
            print(f"    {name:<40} {_ratios(extraction['per_field'][name])['overall'].show()}")
    else:
        print(f"  not available: {extraction['reason']}")

    classification = figures["classification"]
    print("\nClassification (each document's first 2 pages, among the 4 kinds)")
    if classification["available"]:
        print(header)
        print(_ratios(classification["document_accuracy"]).row("document accuracy"))
        for kind, data in classification["per_kind"].items():
            print(_ratios(data).row(f"  {kind}"))
        for kind, counts in classification["confusion"].items():
            print(
                f"    {kind:<15} -> " + ", ".join(f"{name} {count}" for name, count in sorted(counts.items()))
            )
    else:
        print(f"  not available: {classification['reason']}")

    split = figures["split"]
    print("\nSplitting (packets)")
    if split["available"]:
        print(header)
        print(_ratios(split["page_accuracy"]).row("page accuracy (split)"))
        print(_ratios(split["kind_page_accuracy"]).row("page accuracy (kind by split)"))
        print(_ratios(split["packets_exact"]).row("packets split exactly"))
    else:
        print(f"  not available: {split['reason']}")

    print("\nMedian seconds per document")
    print(f"  parse            {_seconds(figures['parse']['median_seconds'])}")
    print(f"  extraction       {_seconds(extraction.get('median_seconds'))}")
    print(f"  classification   {_seconds(classification.get('median_seconds'))}")
    print(
        f"  split            {_seconds(split.get('median_seconds_per_document'))} "
        f"({_seconds(split.get('median_seconds_per_packet'))} per packet)"
    )

    print("\nTargets")
    for target in figures["targets"]:
        verdict = {True: "met", False: "NOT met", None: "not measured"}[target["met"]]
        print(
            f"  {target['target']:<66} overall {_percent(target['overall']):>6}, "
            f"held out {_percent(target['held_out']):>6}: {verdict}"
        )

    errors = [
        *figures["parse"]["errors"],
        *extraction.get("errors", []),
        *classification.get("errors", []),
        *split.get("errors", []),
    ]
    if errors:
        print(f"\n{len(errors)} calls raised; the first {min(len(errors), MAX_ERRORS_SHOWN)}:")
        for error in errors[:MAX_ERRORS_SHOWN]:
            print(f"  {error[:300]}")


def accepted(schema: dict[str, Any], output: Any) -> bool:
    """Valid as the service checks it: a null stands for a value not found, whatever the field's type."""
    errors = jsonschema.Draft202012Validator(schema).iter_errors(output)
    return all(error.instance is None for error in errors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, help="only the first N documents and N/6 packets")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        corpus, bundles = samples(args.seed), packets(args.seed)
        if args.limit is not None:
            corpus, bundles = corpus[: args.limit], bundles[: max(2, args.limit // 6)]
        figures = {
            "seed": args.seed,
            "documents": len(corpus),
            "packets": len(bundles),
            **run(corpus, bundles),
        }
        report(figures, corpus, bundles)
        if args.json is not None:
            args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False, default=str) + "\n")
            print(f"\nfigures written to {args.json}")
    except Exception:
        traceback.print_exc()
        return 1
    return 1 if figures["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
