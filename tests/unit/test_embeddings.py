"""The built-in hashing embedder: fixed size, unit length, deterministic, and similar for shared words."""

from __future__ import annotations

import math

import pytest
from docsvc.domain.embeddings import DIMENSIONS, cosine, embed, from_bytes, to_bytes

INVOICE_ACME = (
    "Invoice number 2026-001 from Acme Supplies. Amount due: 1,250.00 EUR. "
    "Payment terms: 30 days. Please pay the invoice total by bank transfer."
)
INVOICE_GLOBEX = (
    "Invoice number 2026-117 from Globex Corporation. Amount due: 980.00 EUR. "
    "Payment terms: 14 days. The invoice total is payable by bank transfer."
)
POEM = (
    "Shall I compare thee to a summer's day? Thou art more lovely and more temperate. "
    "Rough winds do shake the darling buds of May."
)


def norm(vector: list[float]) -> float:
    return math.sqrt(sum(component * component for component in vector))


@pytest.mark.parametrize("text", [INVOICE_ACME, POEM, "one", "Ünïcödé wörds, 日本語のテキスト"])
def test_a_vector_has_256_dimensions_and_unit_length(text: str) -> None:
    vector = embed(text)

    assert DIMENSIONS == 256
    assert len(vector) == 256
    assert norm(vector) == pytest.approx(1.0, abs=1e-9)


def test_the_same_text_always_gives_the_same_vector() -> None:
    first = embed(INVOICE_ACME)

    second = embed(INVOICE_ACME)

    assert first == second


def test_case_and_punctuation_do_not_change_the_vector() -> None:
    plain = embed("invoice number 42 from acme")

    shouted = embed("INVOICE, number 42 -- from ACME!")

    assert plain == shouted


def test_texts_that_share_vocabulary_are_closer_than_unrelated_texts() -> None:
    acme, globex, poem = embed(INVOICE_ACME), embed(INVOICE_GLOBEX), embed(POEM)

    related = cosine(acme, globex)
    unrelated = cosine(acme, poem)

    assert related > 0.5
    assert related > unrelated + 0.3


def test_a_text_is_most_similar_to_itself() -> None:
    vector = embed(INVOICE_ACME)

    assert cosine(vector, vector) == pytest.approx(1.0)
    assert cosine(vector, embed(INVOICE_GLOBEX)) < 1.0


def test_word_order_counts_through_word_pairs() -> None:
    forward = embed("dog bites man")

    backward = embed("man bites dog")

    assert forward != backward
    assert 0.0 < cosine(forward, backward) < 1.0  # same words, different neighbours


@pytest.mark.parametrize("text", ["", "   \n\t", "!!! ... ---"])
def test_text_without_words_gives_a_zero_vector(text: str) -> None:
    vector = embed(text)

    assert vector == [0.0] * 256


def test_vectors_survive_a_round_trip_through_bytes() -> None:
    vector = embed(INVOICE_ACME)

    blob = to_bytes(vector)
    restored = from_bytes(blob)

    assert len(blob) == 256 * 4  # float32
    assert len(restored) == 256
    assert max(abs(a - b) for a, b in zip(vector, restored, strict=True)) <= 1e-6
    assert cosine(restored, vector) == pytest.approx(1.0, abs=1e-5)
