"""Learn the built-in splitting's cut signal, a document's first page against a continued one, from the
labelled documents of the read sets.

    PYTHONPATH=layers/core:layers/documents .venv/bin/python bench/learn_cuts.py --pages DIR [--pages DIR2]
        [--validate] [--write --weight W --temperature T]

The model (`layers/core/docsvc/intelligence/learnt_cuts.json`, read by `docsvc.intelligence.learnt`) is
a naive Bayes over a page's tokens (`splitting.page_tokens`: the words of its top lines, its page marker
or folio, a greeting, a date at its top, the shape of its top lines, its words): each token's log-odds of
a first page against a continued one. Every document of the read sets (`learn_kinds.READ_SETS`, never a
set still unseen) gives its first page as a first page and its next pages (CONTINUED_PAGES at most, and
its last: a book's hundred pages would outweigh every letter) as continued ones; its pages are read from
the pages `bench/real_classification.py --pages DIR` kept. Only tokens of pages of at least two sets, and
of at least MIN_DOCUMENTS documents, are kept, the VOCABULARY that tell the two apart most.

`--validate` chooses how the model joins the splitting's rules: for each read set, a model learnt on all
the others; the set's packets (their pages as the bench kept them) split with the model's log-odds
(within `learnt.CUT_CAP`) divided by a temperature and times a weight added at each gap; pages right and
packets exact, the mean over the sets, per (weight, temperature), weight 0 being the rules alone.
`--validate --stacked` fits instead a logistic regression of the other sets' packets' gaps on the
rules' summed evidence and the model's log-odds, and tells how many of the held set's gaps it gets right
with and without the model. `--write` stores the model learnt on every read set with the weighing given.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docsvc.intelligence import splitting  # noqa: E402
from docsvc.intelligence.classification import build_profiles  # noqa: E402
from docsvc.intelligence.learnt import CUTS_DATA, CutModel, first_page_odds  # noqa: E402
from docsvc.intelligence.splitting import Subdocument, first_page_tokens, split  # noqa: E402
from docsvc.intelligence.vocabulary import ALIASES, phrase  # noqa: E402

from bench.learn_kinds import READ_SETS, kept_pages, labelled  # noqa: E402
from bench.real_classification import documents, stable_packet_pdf  # noqa: E402
from bench.real_extraction import page_sizes, scanned_pages  # noqa: E402

CONTINUED_PAGES = 6
MIN_DOCUMENTS = 3
VOCABULARY = 800
SMOOTHING = 1.0
SCALE = 10
SIDES = ("both", "against", "for")
# (tokens, side, gate, temperature, weight): the gate hears the model only at gaps whose rules'
# evidence is nearer even than it; weight 0 is the rules alone
CONFIGS = (
    ("all", "both", math.inf, 1.0, 0.0),
    *(("all", "both", math.inf, t, 1.0) for t in (2.0, 4.0, 8.0)),
    *(("all", "both", 0.75, t, 1.0) for t in (2.0, 4.0)),
    *(("all", side, math.inf, t, 1.0) for side in ("against", "for") for t in (2.0, 4.0)),
    *(("marks", "both", math.inf, t, 1.0) for t in (2.0, 4.0)),
    ("marks", "both", 0.75, 2.0, 1.0),
    *(("all", side, math.inf, 1.0, w) for side in ("both", "against") for w in (0.1, 0.2)),
)
VARIANTS = ("all", "marks")  # every token, or the marks of shape and numbering only (no words)


def examples(entry: dict) -> list[tuple[frozenset[str], bool]]:
    """A document's first page (a first page) and its next pages and last (continued ones), as tokens."""
    pages = entry["pages"]
    chosen = [*range(min(len(pages), 1 + CONTINUED_PAGES)), *([len(pages) - 1] if len(pages) > 1 else [])]
    return [(first_page_tokens(pages[index] or ""), index == 0) for index in dict.fromkeys(chosen)]


def learn(
    training: Sequence[dict],
    temperature: float = 1.0,
    weight: float = 0.0,
    side: str = "both",
    marks: bool = False,
) -> CutModel:
    """Each kept token's log-odds of a first page against a continued one, its presence against its
    absence (a Bernoulli naive Bayes: the absences of every kept token summed into the bias)."""
    counts: dict[str, list[int]] = {}
    documents_: Counter[str] = Counter()
    sets: dict[str, set[str]] = {}
    firsts = continued = 0
    for entry in training:
        seen: set[str] = set()
        for tokens, first in entry["examples"]:
            firsts, continued = firsts + first, continued + (not first)
            for token in tokens:
                if marks and not token.startswith("~"):
                    continue
                counts.setdefault(token, [0, 0])[0 if first else 1] += 1
                sets.setdefault(token, set()).add(entry["set"])
                seen.add(token)
        documents_.update(seen)
    kept = [t for t in counts if documents_[t] >= MIN_DOCUMENTS and len(sets[t]) >= 2]

    def rates(token: str) -> tuple[float, float]:
        first, later = counts[token]
        return (first + SMOOTHING) / (firsts + 2 * SMOOTHING), (later + SMOOTHING) / (
            continued + 2 * SMOOTHING
        )

    def odds(token: str) -> float:  # its presence against its absence: a Bernoulli naive Bayes
        first, later = rates(token)
        return math.log(first / later) - math.log((1 - first) / (1 - later))

    def information(token: str) -> float:
        first, later = counts[token]
        return abs(odds(token)) * (first + later) / (firsts + continued)

    ranked = sorted(kept, key=lambda token: (-information(token), token))[:VOCABULARY]
    words = {token: round(odds(token) * SCALE) / SCALE for token in ranked}
    bias = sum(math.log((1 - rates(token)[0]) / (1 - rates(token)[1])) for token in ranked)
    return CutModel(
        {token: value for token, value in words.items() if value},
        temperature,
        weight,
        side,
        bias=round(bias * SCALE) / SCALE,
    )


def separation(model: CutModel, held: Sequence[dict]) -> float:
    """The share of (first page, continued page) pairs of held documents the model orders right (AUC)."""
    firsts, others = [], []
    for entry in held:
        for tokens, first in entry["examples"]:
            (firsts if first else others).append(first_page_odds(replace(model, temperature=1.0), tokens))
    pairs = [(a > b) + 0.5 * (a == b) for a in firsts for b in others]
    return sum(pairs) / max(len(pairs), 1)


def packets(directories: Sequence[Path], by_set: set[str]) -> list[dict]:
    """The read sets' packets with their kept pages, sizes, what OCR read and the true documents."""
    docs, manifest = documents(ROOT / ".corpus")
    by_id = {document.id: document for document in docs}
    found = []
    for packet in manifest["packets"]:
        if packet["split"] not in by_set:
            continue
        parts = [by_id[name] for name in packet["documents"]]
        content = stable_packet_pdf([part.file for part in parts])
        pages = kept_pages(directories, hashlib.sha256(content).hexdigest())
        if pages is None:
            continue
        truth, start = [], 0
        for part in parts:
            count = len(pymupdf.open(part.file))
            truth.append((part.category, frozenset(range(start, start + count))))
            start += count
        found.append(
            {
                "set": packet["split"],
                "pages": pages,
                "sizes": page_sizes(content),
                "scanned": scanned_pages(content),
                "truth": truth,
            }
        )
    return found


def scored(packet: dict, subdocuments: Sequence[Subdocument], model: CutModel) -> tuple[int, int, bool]:
    """A packet's pages right, its pages, and whether it is exact, as `real_extraction.splitting` scores."""
    cut = split(packet["pages"], subdocuments, sizes=packet["sizes"], scanned=packet["scanned"], cuts=model)
    found = [(piece.name, frozenset(page - 1 for page in piece.pages)) for piece in cut]
    holder = {page: item for item in found for page in item[1]}
    truth = packet["truth"]
    right = [holder.get(page) in truth for _, members in truth for page in sorted(members)]
    return sum(right), len(right), all(right) and len(found) == len(truth)


def memoised() -> None:
    """The splitting's page reading and labelling remembered across runs (the rules unchanged): only
    the gaps' evidence and the segmentation change from one weighing to the next."""
    read, label = splitting.read_signals, splitting._label
    signals: dict[str, splitting.PageSignals] = {}
    labels: dict[tuple[str, ...], list[float]] = {}

    def read_signals(text, profiles, titles):  # type: ignore[no-untyped-def]
        if text not in signals:
            signals[text] = read(text, profiles, titles)
        return signals[text]

    def _label(instance, profiles, pages):  # type: ignore[no-untyped-def]
        key = tuple(pages[index] or "" for index in instance.pages)
        if key not in labels:
            label(instance, profiles, pages)
            labels[key] = list(instance.scores)
        instance.scores = list(labels[key])

    splitting.read_signals, splitting._label = read_signals, _label


def validate(
    entries: Sequence[dict], held_packets: Sequence[dict], subdocuments: Sequence[Subdocument]
) -> None:
    memoised()
    models = {name: [e for e in entries if e["set"] != name] for name in READ_SETS}
    print(
        f"{'tokens':>6} {'side':>8} {'gate':>5} {'weight':>7} {'temp':>6} "
        f"{'mean pages right':>17} {'mean exact':>11} {'pooled pages':>13} {'exact':>6}"
    )
    for variant in VARIANTS:
        found = [
            separation(model, [e for e in entries if e["set"] == name])
            for name, model in learnt_models(models, variant == "marks").items()
        ]
        print(
            f"{variant}: pages told apart (AUC), mean over the held sets: {sum(found) / len(found):.3f}",
            flush=True,
        )
    for variant, side, gate, temperature, weight in CONFIGS:
        learnt = learnt_models(models, variant == "marks")
        rates, exacts, right, total, exact = [], [], 0, 0, 0
        per_set = []
        for name in READ_SETS:
            mine = [p for p in held_packets if p["set"] == name]
            if not mine:
                continue
            base = learnt[name]
            model = replace(base, temperature=temperature, weight=weight, side=side, gate=gate)
            figures = [scored(packet, subdocuments, model) for packet in mine]
            hits, pages = sum(f[0] for f in figures), sum(f[1] for f in figures)
            whole = sum(f[2] for f in figures)
            rates.append(hits / pages)
            exacts.append(whole / len(mine))
            right, total, exact = right + hits, total + pages, exact + whole
            per_set.append(f"{name} {hits}/{pages} {whole}/{len(mine)}")
        print(
            f"{variant:>6} {side:>8} {gate:>5g} {weight:>7g} {temperature:>6g} "
            f"{100 * sum(rates) / len(rates):>16.1f}% "
            f"{100 * sum(exacts) / len(exacts):>10.1f}% {100 * right / total:>12.1f}% {exact:>6}",
            flush=True,
        )
        print("   ", "; ".join(per_set), flush=True)


def gaps(
    packet: dict, subdocuments: Sequence[Subdocument], model: CutModel
) -> list[tuple[float, float, bool]]:
    """Each gap of a packet: the rules' summed evidence, the model's log-odds for the page after it, and
    whether a document starts there."""
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments])
    titles = [*ALIASES, *(phrase(sub.name) for sub in subdocuments)]
    signals = splitting._without_packet_numbering(
        [
            replace(splitting.read_signals(text or "", profiles, titles), size=size, scanned=ocr)
            for text, size, ocr in zip(packet["pages"], packet["sizes"], packet["scanned"], strict=True)
        ]
    )
    starts = {min(members) for _, members in packet["truth"]}
    found = splitting.gap_evidence(signals)
    return [
        (
            sum(item.weight for item in found[index]),
            first_page_odds(model, first_page_tokens(packet["pages"][index] or "")),
            index in starts,
        )
        for index in range(1, len(signals))
    ]


def fitted(rows: Sequence[tuple[float, float, bool]], learnt_too: bool) -> tuple[float, float, float]:
    """A logistic regression of a boundary on the rules' evidence (and the model's), by Newton steps:
    (the rules' coefficient, the model's, the intercept)."""
    import numpy

    x = numpy.array([[r[0], r[1] if learnt_too else 0.0, 1.0] for r in rows])
    y = numpy.array([float(r[2]) for r in rows])
    beta = numpy.zeros(3)
    for _ in range(30):
        p = 1 / (1 + numpy.exp(-x @ beta))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + 1e-3 * numpy.eye(3)
        beta += numpy.linalg.solve(hessian, x.T @ (y - p))
    return float(beta[0]), float(beta[1]), float(beta[2])


def stacked(
    entries: Sequence[dict], held_packets: Sequence[dict], subdocuments: Sequence[Subdocument]
) -> None:
    """Leave one set out: a logistic regression of the gaps of the other sets' packets on the rules'
    evidence alone, and with the model's log-odds; the held set's gaps told right (at 0.5) by each."""
    models = learnt_models({n: [e for e in entries if e["set"] != n] for n in READ_SETS}, False)
    table = {
        name: [row for p in held_packets if p["set"] == name for row in gaps(p, subdocuments, models[name])]
        for name in READ_SETS
    }
    alone, joined, ratios = [], [], []
    for name, rows in table.items():
        if not rows:
            continue
        # the other sets' gaps, with the model each of their sets was held out from: as unseen as this one
        training = [row for other, found in table.items() if other != name for row in found]
        for learnt_too, scores in ((False, alone), (True, joined)):
            a, b, c = fitted(training, learnt_too)
            right = sum(((a * s + b * o + c) > 0) == truth for s, o, truth in rows)
            scores.append(right / len(rows))
            if learnt_too:
                ratios.append(b / a)
    print(
        f"gaps told right, mean over the held sets: the rules alone {100 * sum(alone) / len(alone):.1f}%, "
        f"with the model {100 * sum(joined) / len(joined):.1f}%; the model's weight against the rules' "
        f"(fitted) {min(ratios):.2f} to {max(ratios):.2f}",
        flush=True,
    )


_MODELS: dict = {}


def learnt_models(models: dict, marks: bool) -> dict:
    """Per read set, the model learnt on the others (learnt once per variant)."""
    if marks not in _MODELS:
        _MODELS[marks] = {name: learn(training, marks=marks) for name, training in models.items()}
    return _MODELS[marks]


def write(model: CutModel, path: Path = CUTS_DATA) -> None:
    stored = {
        "learnt_from": list(READ_SETS),
        "temperature": model.temperature,
        "weight": model.weight,
        "side": model.side,
        "gate": None if math.isinf(model.gate) else model.gate,
        "scale": SCALE,
        "bias": round(model.bias * SCALE),
        "words": {token: round(value * SCALE) for token, value in sorted(model.words.items())},
    }
    path.write_text(json.dumps(stored, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=Path, action="append", required=True)
    parser.add_argument("--validate", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--stacked", action="store_true", help="with --validate: the gaps' logistic fit")
    parser.add_argument("--weight", type=float, default=0.0)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--side", choices=SIDES, default="both")
    parser.add_argument("--gate", type=float, default=math.inf)
    parser.add_argument("--marks", action="store_true", help="learn the marks of shape and numbering only")
    args = parser.parse_args()
    entries, missing = labelled(args.pages)
    for entry in entries:
        entry["examples"] = examples(entry)
    print(f"{len(entries)} documents of the read sets, {missing} without kept pages (left out)")
    if args.validate:
        _, manifest = documents(ROOT / ".corpus")
        subdocuments = [
            Subdocument(c["name"], c["description"], allow_multiple_instances=True)
            for c in manifest["categories"]
        ]
        held = packets(args.pages, set(READ_SETS))
        print(f"{len(held)} packets of the read sets with kept pages")
        if args.stacked:
            stacked(entries, held, subdocuments)
        else:
            validate(entries, held, subdocuments)
    if args.write:
        model = learn(entries, args.temperature, args.weight, args.side, args.marks)
        model = replace(model, gate=args.gate)
        write(model)
        print(f"written to {CUTS_DATA.relative_to(ROOT)} ({CUTS_DATA.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
