"""Learn the built-in classification's word signal from the labelled documents of the read sets.

    PYTHONPATH=layers/core:layers/documents .venv/bin/python bench/learn_kinds.py --pages DIR [--pages DIR2]
        [--validate] [--write]

The model (`layers/core/docsvc/intelligence/learnt_kinds.json`, read by
`docsvc.intelligence.learnt`) is a naive Bayes over the words of a document's first pages and last page
(each once, lower case, accents off) and a few marks of its shape, per kind of document. It is learnt
from the documents of `bench/real_classification/manifest.json` in the sets already read: `tune`,
`fresh` and `fresh2` to `fresh16` (READ_SETS), never from a set still unseen. Their pages are read from
the pages `bench/real_classification.py --pages DIR` kept (any engine revision: the newest kept), so the
model is rebuilt without reading a document again; a document whose pages were not kept is left out and
counted.

Only words found in documents of at least two sets, and in at least MIN_DOCUMENTS documents, are kept:
a word of one document, or of one set's one repository, tells of that document and not of its kind.
Of those, the VOCABULARY words that tell the kinds apart most (their mutual information with the kind)
are stored, each kind's log-probability rounded to a tenth, so the file stays some tens of KB.

`--validate` chooses how the model combines with the rules: for each read set, a model learnt on all
the others; the set's documents classified by the rules plus the model's probability times a weight,
the sum of log-odds divided by a temperature; the mean accuracy over the sets per (weight, temperature),
with the rules alone (weight 0) and the model alone. `--write` stores the model learnt on every read
set with the weight and temperature given (`--weight`, `--temperature`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docsvc.intelligence.classification import (  # noqa: E402
    build_profiles,
    document_scores,
    likelihood,
    named_kinds,
)
from docsvc.intelligence.learnt import DATA, EMPTY, KindModel, features, kind_points  # noqa: E402

from bench.real_classification import documents  # noqa: E402
from bench.real_corpus import CLASSIFICATION_MANIFEST  # noqa: E402

READ_SETS = ("tune", "fresh", *(f"fresh{number}" for number in range(2, 17)))
MIN_DOCUMENTS = 3
VOCABULARY = 1500
SMOOTHING = 1.0
SCALE = 10  # stored log-probabilities are rounded to a tenth
WEIGHTS = (0.0, 4.0, 8.0, 16.0)
TEMPERATURES = (10.0, 30.0)
# the model is heard only when the rules' best points are under this (a gate under 1: when the rules'
# likelihood is under it, their answer a guess)
GATES = (0.5, 2.0, math.inf)


def kept_pages(directories: Sequence[Path], sha256: str) -> list[str] | None:
    """A document's pages as a run of the classification bench kept them (the newest revision)."""
    found = [path for directory in directories for path in directory.glob(f"{sha256}-r*.json")]
    if not found:
        return None
    newest = max(found, key=lambda path: int(path.name.split("-r")[1].split("-")[0].split(".")[0]))
    pages: list[str] = json.loads(newest.read_text(encoding="utf-8"))
    return pages


def labelled(directories: Sequence[Path]) -> tuple[list[dict], int]:
    """The read sets' documents with their kind (none for a document that says nothing of its kind),
    set and pages; and how many had no pages kept."""
    import hashlib

    docs, manifest = documents(ROOT / ".corpus")
    kind_of = {
        category["name"]: named_kinds(category["name"], category["description"])[0].name
        for category in manifest["categories"]
    }
    found, missing = [], 0
    for document in docs:
        if document.split not in READ_SETS or not document.file.is_file():
            continue
        pages = kept_pages(directories, hashlib.sha256(document.file.read_bytes()).hexdigest())
        if pages is None:
            missing += 1
            continue
        found.append(
            {
                "id": document.id,
                "set": document.split,
                "category": document.category,
                "kind": kind_of.get(document.category),
                "pages": pages,
                "tokens": features(pages),
            }
        )
    return found, missing


def learn(training: Sequence[dict], temperature: float = 1.0, weight: float = 0.0) -> KindModel:
    """A naive Bayes over the documents' tokens (each once per document), uniform priors."""
    kinds = sorted({entry["kind"] for entry in training if entry["kind"]})
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    sets: dict[str, set[str]] = defaultdict(set)
    per_kind = Counter(entry["kind"] for entry in training if entry["kind"])
    for entry in training:
        if not entry["kind"]:
            continue
        for token in entry["tokens"]:
            counts[token][entry["kind"]] += 1
            sets[token].add(entry["set"])
    candidates = [
        token
        for token, by_kind in counts.items()
        if sum(by_kind.values()) >= MIN_DOCUMENTS and len(sets[token]) >= 2
    ]
    total = sum(per_kind.values())
    ranked = sorted(candidates, key=lambda token: (-information(counts[token], per_kind, total), token))
    vocabulary = ranked[:VOCABULARY]
    totals = {kind: sum(counts[token][kind] for token in vocabulary) for kind in kinds}
    words = {}
    for token in vocabulary:
        logs = [
            math.log((counts[token][kind] + SMOOTHING) / (totals[kind] + SMOOTHING * len(vocabulary)))
            for kind in kinds
        ]
        mean = sum(logs) / len(logs)
        words[token] = tuple(round((value - mean) * SCALE) / SCALE for value in logs)
    return KindModel(tuple(kinds), tuple(0.0 for _ in kinds), words, temperature, weight)


def information(by_kind: Counter[str], per_kind: Counter[str], total: int) -> float:
    """The mutual information between a token's presence and the kind of document."""
    present = sum(by_kind.values())
    found = 0.0
    for kind, documents_ in per_kind.items():
        for with_token, joint in ((True, by_kind[kind]), (False, documents_ - by_kind[kind])):
            if joint <= 0:
                continue
            marginal = present if with_token else total - present
            found += joint / total * math.log(joint * total / (marginal * documents_))
    return found


def rules_totals(entries: Sequence[dict], manifest: dict) -> None:
    """Each document's rules-only points per category (the learnt signal left out), once."""
    profiles = build_profiles([(c["name"], c["description"]) for c in manifest["categories"]])
    for entry in entries:
        scores = document_scores(profiles, entry["pages"], EMPTY)
        entry["rules"] = [
            (score.name, score.total, profile.kinds) for score, profile in zip(scores, profiles, strict=True)
        ]


def answer(entry: dict, model: KindModel, weight: float, gate: float = math.inf) -> tuple[str, float]:
    """The category the rules plus the model's points give, with its likelihood; the model heard only
    when the rules' best points are under `gate`."""
    strongest = max(total for _, total, _ in entry["rules"])
    if gate < 1:  # a gate under 1 is on the rules' likelihood: the model heard only on a guess
        heard = likelihood([total for _, total, _ in entry["rules"]], strongest) < gate
    else:
        heard = strongest < gate
    learnt = kind_points(model, entry["pages"], weight) if weight and heard else {}
    totals = [
        (name, total + max((learnt.get(kind, 0.0) for kind in kinds), default=0.0))
        for name, total, kinds in entry["rules"]
    ]
    best = max(totals, key=lambda pair: pair[1])  # the first listed wins a tie, as `classify`
    return best[0], likelihood([total for _, total in totals], best[1])


def validate(entries: Sequence[dict]) -> None:
    """Leave one read set out: learn on the others, measure on it; the mean over the sets."""
    print(f"{'weight':>7} {'temp':>6} {'gate':>5} {'mean accuracy':>14} {'pooled':>8} {'unreadable':>22}")
    results = {}
    per_set: dict = {}
    models = {}
    for name in READ_SETS:
        held = [entry for entry in entries if entry["set"] == name]
        if held:
            models[name] = [entry for entry in entries if entry["set"] != name]
    for temperature in TEMPERATURES:
        learnt = {name: learn(training, temperature) for name, training in models.items()}
        for weight, gate in [(w, g) for w in WEIGHTS for g in GATES]:
            if weight == 0 and (temperature != TEMPERATURES[0] or gate != math.inf):
                continue
            accuracies, right, counted, unread, unread_right = [], 0, 0, 0, 0
            for name, model in learnt.items():
                held = [entry for entry in entries if entry["set"] == name]
                hits = 0
                kinds = 0
                for entry in held:
                    category, chance = answer(entry, model, weight, gate)
                    if not entry["category"]:
                        unread += 1
                        unread_right += chance < 0.5
                        continue
                    kinds += 1
                    hits += category == entry["category"]
                if kinds:
                    accuracies.append(hits / kinds)
                    per_set.setdefault((weight, temperature, gate), []).append(f"{name} {hits}/{kinds}")
                right, counted = right + hits, counted + kinds
            mean = sum(accuracies) / len(accuracies)
            results[(weight, temperature, gate)] = mean
            print(
                f"{weight:>7g} {temperature:>6g} {gate:>5g} {100 * mean:>13.1f}% "
                f"{100 * right / counted:>7.1f}% "
                f"{unread_right:>12} of {unread}"
            )
    for key, found in per_set.items():
        print(key, ", ".join(found))
    alone = []
    for name, training in models.items():
        model = learn(training, 1.0)
        held = [entry for entry in entries if entry["set"] == name and entry["category"]]
        hits = 0
        for entry in held:
            points = kind_points(model, entry["pages"], 1.0)
            guess = max(points, key=points.__getitem__) if points else None
            hits += guess == entry["kind"]
        alone.append(hits / len(held))
    print(f"the model alone: mean accuracy {100 * sum(alone) / len(alone):.1f}%")


def write(model: KindModel, path: Path = DATA) -> None:
    stored = {
        "learnt_from": list(READ_SETS),
        "temperature": model.temperature,
        "weight": model.weight,
        "scale": SCALE,
        "kinds": list(model.kinds),
        "priors": [round(value * SCALE) for value in model.priors],
        "words": {
            word: [round(value * SCALE) for value in values] for word, values in sorted(model.words.items())
        },
    }
    path.write_text(json.dumps(stored, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=Path, action="append", required=True)
    parser.add_argument("--validate", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--cache", type=Path, help="keep the rules' points here (the rules unchanged)")
    parser.add_argument("--weight", type=float, default=0.0)
    parser.add_argument("--temperature", type=float, default=30.0)
    args = parser.parse_args()
    entries, missing = labelled(args.pages)
    print(f"{len(entries)} documents of the read sets, {missing} without kept pages (left out)")
    if args.validate:
        cached = args.cache and args.cache.is_file() and json.loads(args.cache.read_text(encoding="utf-8"))
        if cached and len(cached) == len(entries):
            for entry, rules in zip(entries, cached, strict=True):
                entry["rules"] = rules
        else:
            rules_totals(entries, json.loads(CLASSIFICATION_MANIFEST.read_text(encoding="utf-8")))
            if args.cache:
                args.cache.write_text(json.dumps([entry["rules"] for entry in entries]), encoding="utf-8")
        validate(entries)
    if args.write:
        write(learn(entries, args.temperature, args.weight))
        print(f"written to {DATA.relative_to(ROOT)} ({DATA.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
