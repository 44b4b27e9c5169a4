"""Cutting a cell of summary labels printed one over the other into as many labels as amounts."""

import time

from docsvc.intelligence.pairs import _summary_labels


def test_summary_labels_cut_into_one_per_amount() -> None:
    assert _summary_labels(["SUBTOTAL", "IVA", "19.00%"], 2) == ["SUBTOTAL", "IVA 19.00%"]


def test_summary_labels_give_up_fast_when_no_cut_fits() -> None:
    words = ["Total", "1", "1"] * 30  # thirty labels' words, asked for thirty-one labels
    started = time.perf_counter()
    assert _summary_labels(words, 31) == []
    assert time.perf_counter() - started < 1.0
