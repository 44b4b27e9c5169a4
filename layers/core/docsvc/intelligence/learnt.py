"""A signal learnt from labelled documents: which words, and which shapes of page, each kind of document
uses, as a small naive Bayes model.

The rules of `classification` read what a document says of its kind (its title, its labels, its letter's
greeting); a document that names no kind the rules know (a bulletin, a course's report under its own
title, a letter in a language with no formula listed) is left to a weak guess. The words around those
names still tell: a report speaks of its findings and figures, a contract of its parties and clauses, a
form of blanks to fill in. This module holds, per kind of document, how often the documents of that kind
used each of a few thousand words (normalised: lower case, accents off) and a few marks of a page's shape
that hold in any language (the share of digits, the words per line, the lines holding amounts, the
number of pages), learnt by `bench/learn_kinds.py` from labelled documents and stored in
`learnt_kinds.json` beside this file; it gives each kind's probability for a document's pages.
The classification adds that probability, weighted, to the rules' points of the categories that name the
kind. The weight is the one `bench/learn_kinds.py --validate` chose by leaving one labelled set out at a
time; learnt from the read sets so far, no weight helped the rules, so the shipped model is weighed at 0
and adds no points until more labelled documents make it worth hearing. Its file (some 60 KB) is still
read, once a process, on the first classification: the weight is stored in it.

A second model, of cuts, tells a document's first page from a continued one (`CutModel`, stored in
`learnt_cuts.json` by `bench/learn_cuts.py`); the splitting adds its weighed log-odds at each gap
between two pages. It is shipped at weight 0 too: no weighing helped the rules when validated set by
set.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).with_name("learnt_kinds.json")
PAGES_READ = 6  # the first pages, and the last, are read: a book's middle says nothing new
KNOWN_WORDS = 30  # a document with fewer words the model knows is weighed less, in proportion
_WORD = re.compile(r"[^\W\d_]{3,20}")
_AMOUNT = re.compile(r"\d[.,]\d{2}(?![\d.])")


@dataclass(frozen=True)
class KindModel:
    """Per kind, the log-odds each known word adds (centred across kinds: only differences count)."""

    kinds: tuple[str, ...]
    priors: tuple[float, ...]
    words: dict[str, tuple[float, ...]]
    temperature: float = 1.0  # the sum of a document's log-odds is divided by it: words are not independent
    weight: float = 0.0  # the points a kind certain by its words adds to the rules' points


EMPTY = KindModel((), (), {})


def normalised(text: str) -> str:
    """Lower case without accents: "Rechnung", "rechnung" and "RÉSUMÉ", "resume" are one word each."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def read_pages(pages: Sequence[str]) -> list[str]:
    """The pages a document's words are taken from: the first few and the last."""
    texts = [page if isinstance(page, str) else "" for page in pages]
    return texts[:PAGES_READ] + texts[PAGES_READ:][-1:]


def features(pages: Sequence[str]) -> frozenset[str]:
    """The words a document uses (each once) and its marks of shape, as tokens ("~digits:2")."""
    texts = read_pages(pages)
    words = {word for text in texts for word in _WORD.findall(normalised(text))}
    return frozenset(words | shape_marks(pages, texts))


def shape_marks(pages: Sequence[str], texts: Sequence[str]) -> set[str]:
    """Marks of a document's shape that hold in any language, each a bucket of one measure."""
    lines = [line.strip() for text in texts for line in text.splitlines() if line.strip()]
    characters = "".join(lines).replace(" ", "")
    digits = sum(char.isdigit() for char in characters) / max(len(characters), 1)
    words_per_line = sum(len(line.split()) for line in lines) / max(len(lines), 1)
    amounts = sum(bool(_AMOUNT.search(line)) for line in lines) / max(len(lines), 1)
    return {
        f"~pages:{_bucket(len(pages), (1, 2, 5, 12, 40))}",
        f"~digits:{_bucket(digits, (0.05, 0.15, 0.3))}",
        f"~linewords:{_bucket(words_per_line, (4, 8, 14))}",
        f"~amounts:{_bucket(amounts, (0.0, 0.05, 0.15))}",
        f"~lines:{_bucket(len(lines) / max(len(texts), 1), (10, 25, 45))}",
    }


def _bucket(value: float, bounds: Iterable[float]) -> int:
    return sum(value > bound for bound in bounds)


def posteriors(model: KindModel, tokens: frozenset[str]) -> tuple[dict[str, float], int]:
    """Each kind's probability for a document's tokens, and how many of its words the model knows."""
    known = [model.words[token] for token in tokens if token in model.words]
    if not model.kinds or not known:
        return {}, 0
    sums = [
        (prior + sum(weights[index] for weights in known)) / model.temperature
        for index, prior in enumerate(model.priors)
    ]
    top = max(sums)
    exps = [math.exp(value - top) for value in sums]
    total = sum(exps)
    return {kind: value / total for kind, value in zip(model.kinds, exps, strict=True)}, len(known)


def kind_points(model: KindModel, pages: Sequence[str], weight: float | None = None) -> dict[str, float]:
    """Points per kind for a document's pages: its probability times `weight` (the model's own unless
    given), less for a document of few known words (a scan read empty, a page of figures: the model's
    guess is no evidence)."""
    weight = model.weight if weight is None else weight
    if weight <= 0 or not model.words:  # a model weighed at nothing reads no page
        return {}
    found, known = posteriors(model, features(pages))
    confidence = min(1.0, known / KNOWN_WORDS)
    return {kind: weight * probability * confidence for kind, probability in found.items()}


def load(path: Path = DATA) -> KindModel:
    """The model stored at `path` (as `bench/learn_kinds.py` writes it). A missing file is an error, not
    an empty model: an install that left the package's data out would classify without it unnoticed."""
    stored = json.loads(_model_text(path))
    scale = json.loads(path.read_text(encoding="utf-8"))
    scale = float(stored["scale"])
    return KindModel(
        kinds=tuple(stored["kinds"]),
        priors=tuple(value / scale for value in stored["priors"]),
        words={word: tuple(value / scale for value in values) for word, values in stored["words"].items()},
        temperature=float(stored["temperature"]),
        weight=float(stored["weight"]),
    )


def _model_text(path: Path) -> str:
    """The text of a learnt model's file, which the package ships (`pyproject.toml`'s package data)."""
    if not path.is_file():
        raise FileNotFoundError(f"the learnt model {path.name} is missing from the installed package")
    return path.read_text(encoding="utf-8")


@cache
def built_in() -> KindModel:
    """The model shipped beside this module, read once."""
    return load()


# ------------------------------------------------------------------------------------------ first pages
CUTS_DATA = Path(__file__).with_name("learnt_cuts.json")
CUT_CAP = 3.0  # the most log-odds the cut model gives a page either way, before its weight


@dataclass(frozen=True)
class CutModel:
    """The log-odds each token of a page (`splitting.page_tokens`: the words of its top lines, its page
    number, its greeting, the shape of its top lines) adds to its being a document's first page rather
    than a continued one; learnt by `bench/learn_cuts.py` from labelled documents. `weight` scales the
    summed log-odds into the evidence of the gap before the page (0: not heard)."""

    words: dict[str, float]
    temperature: float = 1.0  # the summed log-odds is divided by it: tokens are not independent
    weight: float = 0.0
    side: str = "both"  # "against": heard only when it says the page continues; "for": only a start
    gate: float = math.inf  # heard only at a gap whose rules' evidence is nearer even than this
    bias: float = 0.0  # the log-odds of a page with none of the tokens (each token's absence counted)


NO_CUTS = CutModel({})


def first_page_odds(model: CutModel, tokens: Iterable[str]) -> float:
    """A page's log-odds of opening a document, by its tokens (the model's bias counting the absent
    ones), within CUT_CAP either way (no prior: the splitting's own prior says how often documents
    start)."""
    summed = model.bias + sum(model.words.get(token, 0.0) for token in tokens)
    found = max(-CUT_CAP, min(CUT_CAP, summed / model.temperature))
    if model.side == "against":
        return min(found, 0.0)
    if model.side == "for":
        return max(found, 0.0)
    return found


def load_cuts(path: Path = CUTS_DATA) -> CutModel:
    """The cut model stored at `path` (as `bench/learn_cuts.py` writes it); a missing file is an error
    (see `load`)."""
    stored = json.loads(_model_text(path))
    scale = float(stored["scale"])
    return CutModel(
        words={token: value / scale for token, value in stored["words"].items()},
        temperature=float(stored["temperature"]),
        weight=float(stored["weight"]),
        side=str(stored.get("side", "both")),
        gate=math.inf if stored.get("gate") is None else float(stored["gate"]),
        bias=float(stored.get("bias", 0)) / scale,
    )


@cache
def built_in_cuts() -> CutModel:
    """The cut model shipped beside this module, read once."""
    return load_cuts()
