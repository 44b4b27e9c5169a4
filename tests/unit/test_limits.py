"""Limits at their boundaries: the OCR languages a parse may ask for, the runs of an extraction's
consensus, and the size DynamoDB counts for an item (which decides whether a table's description can
be stored)."""

from __future__ import annotations

import pytest
from docsvc.adapters.dynamo.values import ITEM_LIMIT_BYTES, item_bytes
from docsvc.domain.parses import MAX_OCR_LANGUAGES, ParseRequest
from docsvc.endpoints.extraction import ExtractionCreate
from pydantic import ValidationError

DOCUMENT = {"filename": "a.txt", "url": "data:text/plain,a"}


def test_a_parse_takes_up_to_four_languages_and_refuses_a_fifth() -> None:
    four = ["en", "de", "fr", "es"]
    assert len(four) == MAX_OCR_LANGUAGES

    assert ParseRequest(document=DOCUMENT, languages=four).languages == ["eng", "deu", "fra", "spa"]
    with pytest.raises(ValidationError):
        ParseRequest(document=DOCUMENT, languages=[*four, "it"])


def test_languages_are_tesseract_codes_each_once_and_an_empty_list_is_english() -> None:
    assert ParseRequest(document=DOCUMENT, languages=["de", "deu", " DE "]).languages == ["deu"]
    assert ParseRequest(document=DOCUMENT, languages=[]).languages is None
    assert ParseRequest(document=DOCUMENT, languages=["ru", "ar"]).languages == ["rus", "ara"]


def test_an_item_is_counted_as_dynamodb_counts_it() -> None:
    assert item_bytes({"pk": "ab"}) == 4  # the name's bytes and the value's
    assert item_bytes({"n": "é"}) == 3  # UTF-8
    assert item_bytes({"m": {"k": "v"}}) == 1 + 3 + 1 + 1 + 1  # name, map, element, key, value
    assert item_bytes({"l": ["a", "b"]}) == 1 + 3 + 2 * (1 + 1)


def test_an_item_of_exactly_400_kb_is_at_the_limit() -> None:
    at_limit = {"x": "a" * (ITEM_LIMIT_BYTES - 1)}

    assert item_bytes(at_limit) == ITEM_LIMIT_BYTES
    assert item_bytes({"x": "a" * ITEM_LIMIT_BYTES}) == ITEM_LIMIT_BYTES + 1


def test_n_consensus_takes_one_to_eight_runs_and_refuses_either_side() -> None:
    schema = {"type": "object", "properties": {"total": {"type": "number"}}}
    for runs in (1, 8):
        assert ExtractionCreate(document=DOCUMENT, json_schema=schema, n_consensus=runs).n_consensus == runs
    for runs in (0, 9):
        with pytest.raises(ValidationError, match="n_consensus"):
            ExtractionCreate(document=DOCUMENT, json_schema=schema, n_consensus=runs)
