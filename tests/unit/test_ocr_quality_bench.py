"""The OCR bench: a page the engine refuses is a reading of no words, not the end of the run."""

from __future__ import annotations

import pytest
from docsvc.documents.engine import errors

from bench import ocr_quality


def test_a_page_the_engine_refuses_reads_as_no_words_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object) -> tuple[str, list[float]]:
        raise errors.DamagedDocument("the PNG could not be read: Tesseract could not read the page")

    monkeypatch.setattr(ocr_quality, "read", refused)
    page = {
        "id": "poster#1",
        "language": "nl",
        "split": "x",
        "scan_dpi": 150,
        "picture": b"",
        "truth": "een twee",
    }

    row = ocr_quality._reading((page, "0", False, False, 150))

    assert (row["found"], row["of"]) == (0, 2)
    assert "Tesseract could not read the page" in row["failed"]


def test_a_text_layers_spacing_accents_are_put_on_their_letters() -> None:
    """TeX's older fonts write an accent beside its letter: the truth is the word as printed."""
    layer = "indispon´ıvel requisic¸˜oes R´esum´e fran¸caise si`ecle ge˛sla"  # noqa: RUF001

    assert ocr_quality.accents_composed(layer) == "indisponível requisições Résumé française siècle gęsla"


def test_a_spacing_accent_with_no_letter_it_goes_on_is_left() -> None:
    """A grave accent as an opening quote, an accent after a digit or alone: the text is unchanged."""
    text = "`quoted' 2´ ´ x¸y"  # noqa: RUF001

    assert ocr_quality.accents_composed(text) == text


def test_the_page_is_counted_with_its_accents_composed_and_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr_quality, "read", lambda *_: ("Résumé da conexão", []))
    page = {
        "id": "tese#1",
        "language": "pt",
        "split": "x",
        "scan_dpi": 150,
        "picture": b"",
        "truth": ocr_quality.accents_composed("R´esum´e da conex˜ao"),  # noqa: RUF001
        "layer": "R´esum´e da conex˜ao",  # noqa: RUF001
    }

    row = ocr_quality._reading((page, "0", False, False, 150))

    assert (row["found"], row["of"]) == (3, 3)
    assert row["as_written"][0] == 1


def test_signs_of_no_letter_or_digit_are_no_words_of_the_truth() -> None:
    """A bullet, a dash or a formula's sign is not counted; a word with a sign in it is, and lines stay."""
    layer = "• Figura 7 – Microcomputador . . . 35\n§ 4 x = 2 + y\nH(X) ≤ log2 M"  # noqa: RUF001

    assert ocr_quality.signs_dropped(layer) == "Figura 7 Microcomputador 35\n4 x 2 y\nH(X) log2 M"


def test_a_noisy_copy_is_seeded_by_its_text_layer_not_by_the_corrected_truth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The noise of a page's noisy copy stays what it was before the truth was corrected, so that noisy
    figures of before and after compare."""
    seeds: list[int] = []
    monkeypatch.setattr(ocr_quality, "noisy", lambda picture, seed: seeds.append(seed) or picture)
    monkeypatch.setattr(ocr_quality, "read", lambda *_: ("", []))
    layer = "• R´esum´e – conex˜ao"  # noqa: RUF001
    page = {"id": "p#1", "language": "pt", "split": "x", "scan_dpi": 150, "picture": b""}

    truth = ocr_quality.truth_of(layer)

    ocr_quality._reading(({**page, "truth": truth, "layer": layer}, "0", True, False, 150))

    assert seeds == [len(layer)]
