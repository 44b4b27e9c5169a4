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
