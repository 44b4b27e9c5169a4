"""Scores of an extraction against its ground truth: per field, and over a dataset.

Every leaf of the truth and the prediction is compared, the schema saying what kind of value it is:

- numbers match within a tolerance (`absolute`, or `relative` to the truth), read from text when a
  side prints them ("$2,400.00");
- dates match when they name the same day, however written ("2026-03-14", "14 March 2026");
- booleans match when they say the same (true, "yes");
- strings match when equal once normalised: case, accents, punctuation and spacing ignored.

`exact` is plain equality of the JSON values; `match` is the tolerant comparison above. An empty value
(null, "", [] or {}) says the field is absent. A field is a true positive when both sides hold matching
values, a true negative when both are empty, a false positive when only the prediction has a value, a
false negative when only the truth has one; a wrong value is both a false positive and a false
negative (the right value was missed and a wrong one given).

Arrays of objects are paired item to item by how many of their leaves match (best pairs first); an
item left without a partner is compared with nothing. Arrays of plain values are compared as bags.
A field inside an array is named with `*` for the index: `line_items.*.amount`.

Calibration reads the extraction's likelihoods (per dotted path; an array is one field, so an item's
leaf takes its array's likelihood): the Brier score and the expected calibration error over
CALIBRATION_BINS equal bins of likelihood.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from docsvc.intelligence.schemas import Node, read_schema
from docsvc.intelligence.values import parse_bool, parse_date, parse_number
from docsvc.intelligence.vocabulary import plain

Outcome = Literal["tp", "tn", "fp", "fn", "wrong"]
CALIBRATION_BINS = 10
# Array items are paired by likeness up to this many (truth item, predicted item) pairs, else by position.
PAIRED_AT_MOST = 2_500
_PUNCTUATION = re.compile(r"[^\w\s]|_")


@dataclass(frozen=True)
class Tolerance:
    """How far two numbers may be apart and still match: within `absolute`, or within `relative`
    times the truth's magnitude, whichever is wider."""

    absolute: float = 0.01
    relative: float = 0.0


@dataclass(frozen=True)
class Comparison:
    """One leaf of one document."""

    field: str  # the leaf's path, `*` for array indexes
    truth: Any
    predicted: Any
    exact: bool
    match: bool
    outcome: Outcome
    likelihood: float | None = None

    @property
    def correct(self) -> bool:
        return self.outcome in ("tp", "tn")


@dataclass(frozen=True)
class Metrics:
    """Counts and rates of a set of comparisons (a field, a document, a dataset)."""

    count: int
    true_positives: int
    true_negatives: int
    false_positives: int
    false_negatives: int
    exact_accuracy: float | None
    accuracy: float | None
    precision: float | None
    recall: float | None
    f1: float | None
    brier_score: float | None
    expected_calibration_error: float | None

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


# ---------------------------------------------------------------------------------------- comparing
def normalised_text(value: str) -> str:
    """`value` lower-cased, without accents, punctuation or repeated spaces: "  Café-Noir, S.A." ->
    "cafe noir s a"."""
    return " ".join(_PUNCTUATION.sub(" ", plain(value)).split())


def is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        parsed = parse_number(value.strip())
        return parsed[0] if parsed else None
    return None


def _day(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    parsed = parse_date(value)
    return parsed.value.isoformat() if parsed else None


def _boolean(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    return parse_bool(value) if isinstance(value, str) else None


def values_match(truth: Any, predicted: Any, kind: str, tolerance: Tolerance = Tolerance()) -> bool:
    """Whether two non-empty leaf values say the same, for a value of `kind` (a JSON Schema type, or
    "date" for strings of format date or date-time)."""
    if truth == predicted:
        return True
    if kind in ("number", "integer") or (kind == "any" and _number(truth) is not None):
        wanted, got = _number(truth), _number(predicted)
        if wanted is not None and got is not None:
            return abs(wanted - got) <= max(tolerance.absolute, tolerance.relative * abs(wanted))
    if kind == "boolean":
        return _boolean(truth) is not None and _boolean(truth) == _boolean(predicted)
    if kind == "date":
        wanted_day = _day(truth)
        if wanted_day is not None:
            return wanted_day == _day(predicted)
    if (
        isinstance(truth, str)
        and isinstance(predicted, str | int | float)
        and not isinstance(predicted, bool)
    ):
        return normalised_text(truth) == normalised_text(str(predicted))
    return False


def _outcome(truth: Any, predicted: Any, match: bool) -> Outcome:
    if is_empty(truth):
        return "tn" if is_empty(predicted) else "fp"
    if is_empty(predicted):
        return "fn"
    return "tp" if match else "wrong"


def _kind(node: Node | None) -> str:
    if node is None:
        return "any"
    if node.kind == "string" and node.text("format") in ("date", "date-time"):
        return "date"
    return node.kind


def compare(
    truth: Any,
    predicted: Any,
    json_schema: Mapping[str, Any],
    likelihoods: Mapping[str, float] | None = None,
    tolerance: Tolerance = Tolerance(),
) -> list[Comparison]:
    """Every leaf of `truth` and `predicted` compared, in the schema's order then the values'."""
    found: list[Comparison] = []
    _Comparer(found, likelihoods or {}, tolerance).walk(truth, predicted, read_schema(json_schema), [], [])
    return found


@dataclass
class _Comparer:
    found: list[Comparison]
    likelihoods: Mapping[str, float]
    tolerance: Tolerance

    def walk(self, truth: Any, predicted: Any, node: Node | None, field: list[str], path: list[str]) -> None:
        """`field` names the leaf (indexes as `*`); `path` is the dotted path of its likelihood (an
        array's own path: the extraction scores an array as one field)."""
        if isinstance(truth, Mapping) or isinstance(predicted, Mapping) or (node and node.kind == "object"):
            self.object(truth, predicted, node, field, path)
        elif isinstance(truth, list) or isinstance(predicted, list) or (node and node.kind == "array"):
            self.array(truth, predicted, node.items if node else None, field, path)
        else:
            self.leaf(truth, predicted, node, field, path)

    def object(
        self, truth: Any, predicted: Any, node: Node | None, field: list[str], path: list[str]
    ) -> None:
        truth_fields = truth if isinstance(truth, Mapping) else {}
        predicted_fields = predicted if isinstance(predicted, Mapping) else {}
        known = dict(node.properties) if node else {}
        names = list(dict.fromkeys([*known, *truth_fields, *predicted_fields]))
        if not names:
            self.leaf(truth, predicted, node, field, path)
            return
        for name in names:
            self.walk(
                truth_fields.get(name),
                predicted_fields.get(name),
                known.get(name),
                [*field, name],
                [*path, name] if len(path) == len(field) else path,
            )

    def array(
        self, truth: Any, predicted: Any, items: Node | None, field: list[str], path: list[str]
    ) -> None:
        wanted = list(truth) if isinstance(truth, list) else []
        given = list(predicted) if isinstance(predicted, list) else []
        if not wanted and not given:
            self.leaf(truth, predicted, items, field, path)
            return
        for truth_item, predicted_item in self.paired(wanted, given, items):
            self.walk(truth_item, predicted_item, items, [*field, "*"], path)

    def paired(self, wanted: list[Any], given: list[Any], items: Node | None) -> list[tuple[Any, Any]]:
        """Each truth item with the prediction item most like it (most matching leaves, then the
        nearest position), best pairs first; the rest with nothing. Arrays too long to compare every
        item with every other (PAIRED_AT_MOST pairs) are paired by position."""
        if len(wanted) * len(given) > PAIRED_AT_MOST:
            return list(itertools.zip_longest(wanted, given))
        scores = []
        for index, truth_item in enumerate(wanted):
            for other, predicted_item in enumerate(given):
                trial = _Comparer([], {}, self.tolerance)
                trial.walk(truth_item, predicted_item, items, [], [])
                matched = sum(comparison.outcome == "tp" for comparison in trial.found)
                if matched:
                    scores.append((-matched, abs(index - other), index, other))
        pairs: dict[int, int] = {}
        taken: set[int] = set()
        for _, _, index, other in sorted(scores):
            if index not in pairs and other not in taken:
                pairs[index] = other
                taken.add(other)
        matched_pairs = [
            (wanted[index], given[pairs[index]] if index in pairs else None) for index in range(len(wanted))
        ]
        return matched_pairs + [(None, item) for other, item in enumerate(given) if other not in taken]

    def leaf(self, truth: Any, predicted: Any, node: Node | None, field: list[str], path: list[str]) -> None:
        kind = _kind(node)
        empty = is_empty(truth) or is_empty(predicted)
        match = (is_empty(truth) and is_empty(predicted)) or (
            not empty and values_match(truth, predicted, kind, self.tolerance)
        )
        exact = truth == predicted or (is_empty(truth) and is_empty(predicted))
        self.found.append(
            Comparison(
                field=".".join(field) or "$",
                truth=truth,
                predicted=predicted,
                exact=exact,
                match=match,
                outcome=_outcome(truth, predicted, match),
                likelihood=self.likelihoods.get(".".join(path)) if path else None,
            )
        )


# ---------------------------------------------------------------------------------------- scoring
def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 6) if whole else None


def metrics(comparisons: Iterable[Comparison]) -> Metrics:
    """Accuracy, precision, recall and calibration of these comparisons (None where undefined)."""
    listed = list(comparisons)
    counts: dict[str, int] = defaultdict(int)
    for comparison in listed:
        counts[comparison.outcome] += 1
    tp, tn, fp, fn, wrong = (counts[name] for name in ("tp", "tn", "fp", "fn", "wrong"))
    precision = _ratio(tp, tp + fp + wrong)
    recall = _ratio(tp, tp + fn + wrong)
    f1 = None
    if precision is not None and recall is not None:
        f1 = round(2 * precision * recall / (precision + recall), 6) if precision + recall else 0.0
    scored = [
        (comparison.likelihood, comparison.correct)
        for comparison in listed
        if comparison.likelihood is not None
    ]
    return Metrics(
        count=len(listed),
        true_positives=tp,
        true_negatives=tn,
        false_positives=fp + wrong,
        false_negatives=fn + wrong,
        exact_accuracy=_ratio(sum(comparison.exact for comparison in listed), len(listed)),
        accuracy=_ratio(tp + tn, len(listed)),
        precision=precision,
        recall=recall,
        f1=f1,
        brier_score=brier_score(scored),
        expected_calibration_error=expected_calibration_error(scored),
    )


def brier_score(scored: list[tuple[float, bool]]) -> float | None:
    """The mean squared distance between each likelihood and its outcome (1 correct, 0 not)."""
    if not scored:
        return None
    return round(sum((likelihood - correct) ** 2 for likelihood, correct in scored) / len(scored), 6)


def expected_calibration_error(
    scored: list[tuple[float, bool]], bins: int = CALIBRATION_BINS
) -> float | None:
    """The sum over equal bins of likelihood of (share of the values in the bin) * |accuracy in the
    bin - mean likelihood in the bin|. A likelihood of 1 falls in the last bin."""
    if not scored:
        return None
    grouped: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for likelihood, correct in scored:
        grouped[min(int(likelihood * bins), bins - 1)].append((likelihood, correct))
    error = 0.0
    for members in grouped.values():
        confidence = sum(likelihood for likelihood, _ in members) / len(members)
        accuracy = sum(correct for _, correct in members) / len(members)
        error += len(members) / len(scored) * abs(accuracy - confidence)
    return round(error, 6)


def field_metrics(comparisons: Iterable[Comparison]) -> dict[str, Metrics]:
    """The metrics of each field, in the order the fields were first compared."""
    by_field: dict[str, list[Comparison]] = defaultdict(list)
    for comparison in comparisons:
        by_field[comparison.field].append(comparison)
    return {name: metrics(members) for name, members in by_field.items()}
