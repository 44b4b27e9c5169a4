"""The scores of an extraction against its ground truth, on small cases counted by hand."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.intelligence.eval_metrics import (
    Tolerance,
    brier_score,
    compare,
    expected_calibration_error,
    field_metrics,
    metrics,
    normalised_text,
    values_match,
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "number": {"type": "string"},
        "date": {"type": "string", "format": "date"},
        "total": {"type": "number"},
        "paid": {"type": "boolean"},
        "note": {"type": ["string", "null"]},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "amount": {"type": "number"}},
            },
        },
    },
}


def outcomes(truth: Any, predicted: Any, likelihoods: dict[str, float] | None = None) -> dict[str, str]:
    return {
        comparison.field: comparison.outcome
        for comparison in compare(truth, predicted, SCHEMA, likelihoods)
        if "*" not in comparison.field
    }


@pytest.mark.parametrize(
    ("truth", "predicted", "kind", "expected"),
    [
        (2400.0, "$2,400.00", "number", True),
        (100.0, 100.004, "number", True),  # within the absolute 0.01
        (100.0, 100.5, "number", False),
        ("2026-03-14", "14 March 2026", "date", True),
        ("2026-03-14", "2026-03-15", "date", False),
        (True, "yes", "boolean", True),
        (False, "yes", "boolean", False),
        ("Café Noir, S.A.", "cafe  noir sa", "string", False),  # "s a" is not "sa"
        ("Café Noir, S.A.", "CAFE NOIR S.A", "string", True),
        ("INV-42", "inv 42", "string", True),
        ("INV-42", "INV-43", "string", False),
    ],
)
def test_values_match_by_kind(truth: Any, predicted: Any, kind: str, expected: bool) -> None:
    assert values_match(truth, predicted, kind) is expected


def test_a_relative_tolerance_scales_with_the_truth() -> None:
    assert values_match(1000.0, 1009.0, "number", Tolerance(absolute=0.0, relative=0.01))
    assert not values_match(1000.0, 1011.0, "number", Tolerance(absolute=0.0, relative=0.01))


def test_strings_are_normalised_for_case_accents_punctuation_and_spaces() -> None:
    assert normalised_text("  Żółć -- Ärger_Straße! ") == "zolc arger strasse"


def test_each_leaf_is_a_true_or_false_positive_or_negative() -> None:
    truth = {"number": "INV-1", "date": "2026-03-14", "total": 10.0, "paid": None, "note": "x"}
    predicted = {"number": "inv 1", "date": None, "total": 12.0, "paid": True, "note": None}

    assert outcomes(truth, predicted) == {
        "number": "tp",  # tolerant match
        "date": "fn",  # truth has a value, prediction none
        "total": "wrong",  # both have values that differ: a false positive and a false negative
        "paid": "fp",  # prediction has a value where truth is empty
        "note": "fn",
        "items": "tn",  # both empty
    }


def test_document_metrics_are_counted_by_hand() -> None:
    truth = {"number": "INV-1", "date": "2026-03-14", "total": 10.0, "paid": None, "note": "x"}
    predicted = {"number": "INV-1", "date": None, "total": 12.0, "paid": True, "note": None}

    scored = metrics(compare(truth, predicted, SCHEMA))

    # leaves: number tp, date fn, total wrong, paid fp, note fn, items tn (6 in all)
    assert (scored.count, scored.true_positives, scored.true_negatives) == (6, 1, 1)
    assert (scored.false_positives, scored.false_negatives) == (2, 3)  # wrong counts on both sides
    assert scored.accuracy == round(2 / 6, 6)
    assert scored.exact_accuracy == round(2 / 6, 6)  # number equal, items both empty
    assert scored.precision == round(1 / 3, 6)  # tp / (tp + fp + wrong)
    assert scored.recall == round(1 / 4, 6)  # tp / (tp + fn + wrong)
    assert scored.f1 == round(2 * (1 / 3) * (1 / 4) / (1 / 3 + 1 / 4), 6)


def test_tolerant_matches_count_as_correct_but_not_as_exact() -> None:
    scored = metrics(compare({"total": 2400.0}, {"total": "$2,400.00"}, SCHEMA))

    # total tp; number, date, paid, note, items: empty on both sides (tn)
    assert scored.accuracy == 1.0
    assert scored.exact_accuracy == round(5 / 6, 6)


def test_array_items_are_paired_by_content_not_position() -> None:
    truth = {"items": [{"name": "Widget", "amount": 2400}, {"name": "Gadget", "amount": 99.5}]}
    predicted = {
        "items": [{"name": "Gadget", "amount": 99.5}, {"name": "Widget", "amount": 2400}, {"name": "Extra"}]
    }

    compared = [comparison for comparison in compare(truth, predicted, SCHEMA) if "*" in comparison.field]

    assert [(comparison.field, comparison.outcome) for comparison in compared] == [
        ("items.*.name", "tp"),
        ("items.*.amount", "tp"),
        ("items.*.name", "tp"),
        ("items.*.amount", "tp"),
        ("items.*.name", "fp"),  # the extra item, compared with nothing
        ("items.*.amount", "tn"),
    ]
    by_field = field_metrics(compared)
    assert by_field["items.*.name"].precision == round(2 / 3, 6)
    assert by_field["items.*.name"].recall == 1.0


def test_a_missing_array_item_is_a_false_negative_per_leaf() -> None:
    truth = {"items": [{"name": "Widget", "amount": 1}, {"name": "Gadget", "amount": 2}]}
    predicted = {"items": [{"name": "Widget", "amount": 1}]}

    compared = [c.outcome for c in compare(truth, predicted, SCHEMA) if c.field.startswith("items.*")]

    assert compared == ["tp", "tp", "fn", "fn"]


def test_likelihoods_are_read_per_path_and_an_array_item_takes_its_arrays() -> None:
    truth = {"number": "A", "items": [{"name": "W"}]}
    predicted = {"number": "A", "items": [{"name": "W"}]}

    compared = compare(truth, predicted, SCHEMA, {"number": 0.9, "items": 0.6})

    by_field = {comparison.field: comparison.likelihood for comparison in compared}
    assert by_field["number"] == 0.9
    assert by_field["items.*.name"] == 0.6
    assert by_field["total"] is None


def test_brier_score_and_calibration_error_by_hand() -> None:
    scored = [(0.9, True), (0.9, False), (0.2, False), (0.25, True)]

    # Brier: (0.01 + 0.81 + 0.04 + 0.5625) / 4
    assert brier_score(scored) == round((0.01 + 0.81 + 0.04 + 0.5625) / 4, 6)
    # bins: [0.9, 0.9] accuracy 0.5 confidence 0.9; [0.2, 0.25] accuracy 0.5 confidence 0.225
    expected = 0.5 * abs(0.5 - 0.9) + 0.5 * abs(0.5 - 0.225)
    assert expected_calibration_error(scored) == round(expected, 6)
    assert brier_score([]) is None and expected_calibration_error([]) is None


def test_a_likelihood_of_one_falls_in_the_last_bin() -> None:
    assert expected_calibration_error([(1.0, True), (0.95, True)]) == round(abs(1 - 0.975), 6)


def test_empty_comparisons_have_no_rates() -> None:
    scored = metrics([])

    assert scored.count == 0 and scored.accuracy is None and scored.precision is None


def test_arrays_too_long_to_pair_item_by_item_are_paired_by_position(monkeypatch: pytest.MonkeyPatch) -> None:
    from docsvc.intelligence import eval_metrics

    truth = {"items": [{"name": "a", "amount": 1}, {"name": "b", "amount": 2}]}
    swapped = {"items": [{"name": "b", "amount": 2}, {"name": "a", "amount": 1}]}
    by_likeness = metrics(compare(truth, swapped, SCHEMA))
    monkeypatch.setattr(eval_metrics, "PAIRED_AT_MOST", 3)  # 2 x 2 items: over it

    by_position = metrics(compare(truth, swapped, SCHEMA))

    assert (by_likeness.true_positives, by_likeness.false_positives) == (4, 0)
    assert (by_position.true_positives, by_position.false_positives) == (0, 4)  # a against b, b against a
