# ruff: noqa: RUF001 (Arabic and Cyrillic letters of the layers read)
"""Pages whose text layer maps most glyphs to no character: read by the glyphs' codes where those are
the text's characters, else OCR'd in the language of the script the readable letters are in, else kept
with a warning when that language is not installed."""

from __future__ import annotations

import pymupdf
import pytest
from docsvc.documents.engine import ocr, parse_pages, pdf
from docsvc.documents.engine.model import ParseOptions
from docsvc.documents.engine.textlayer import (
    UNMAPPED,
    UNREADABLE_LAYER,
    read_by_codes,
    script_language,
    unreadable,
)

LETTER = [
    "Dear Ms Example,",
    "I write in support of the application",
    "of our colleague for the research position.",
    "Yours sincerely,",
    "Professor Jane Doe",
]


def _unmapped_letter() -> bytes:
    """A letter whose font's ToUnicode maps every code but the space's to U+FFFD: its glyphs show the
    letter, its text layer says nothing (the codes are WinAnsi's, the text's own characters)."""
    chars = "\n".join(
        f"{len(block)} beginbfchar "
        + " ".join(f"<{code:02X}> <{0x20 if code == 0x20 else 0xFFFD:04X}>" for code in block)
        + " endbfchar"
        for block in (range(start, min(start + 100, 256)) for start in range(0, 256, 100))
    )
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Unmapped def "
        "/CMapType 2 def 1 begincodespacerange <00> <FF> endcodespacerange\n"
        + chars
        + "\nendcmap CMapName currentdict /CMap defineresource pop end end"
    )
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        page = document.new_page()
        for row, line in enumerate(LETTER):
            page.insert_text((72, 100 + 24 * row), line, fontsize=14)
        for font, *_ in page.get_fonts():
            stream = document.get_new_xref()
            document.update_object(stream, "<<>>")
            document.update_stream(stream, cmap.encode())
            document.xref_set_key(font, "ToUnicode", f"{stream} 0 R")
        return bytes(document.tobytes())


def test_a_layer_of_glyphs_without_characters_whose_codes_are_its_text_is_read_by_its_codes() -> None:
    content = _unmapped_letter()
    with pymupdf.open(stream=content, filetype="pdf") as document:
        assert UNMAPPED in document[0].get_text(flags=0)  # the layer itself says nothing
    [page] = parse_pages(content, "pdf", ParseOptions())
    assert page.text.split("\n\n") == LETTER
    assert page.ocr_confidence is None and page.warnings == ()


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
def test_a_layer_of_glyphs_without_characters_whose_codes_say_nothing_is_read_by_ocr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pdf, "read_by_codes", lambda texts: False)  # codes that spell no text
    [page] = parse_pages(_unmapped_letter(), "pdf", ParseOptions())
    assert page.ocr_confidence is not None
    assert any(UNREADABLE_LAYER in warning for warning in page.warnings)
    for line in ("Dear Ms Example,", "Yours sincerely,", "Professor Jane Doe"):
        assert line in page.text


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
def test_an_ocr_reading_of_low_confidence_is_no_reading_and_the_layer_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A score's notes or a script no installed language reads: OCR's words are guesses, and the
    layer (its readable words, its glyphs of no character) is kept, with a warning saying so."""
    monkeypatch.setattr(pdf, "read_by_codes", lambda texts: False)
    monkeypatch.setattr(pdf, "recorded_confidence", lambda page: 41.5)
    [page] = parse_pages(_unmapped_letter(), "pdf", ParseOptions())
    assert page.ocr_confidence is None and page.text.count(UNMAPPED) > 50
    assert page.warnings == (
        f"{UNREADABLE_LAYER}; OCR read it with a mean confidence of 42 only, so it was kept",
    )


def test_without_ocr_an_unreadable_layer_is_kept_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "read_by_codes", lambda texts: False)
    [page] = parse_pages(_unmapped_letter(), "pdf", ParseOptions(ocr=False))
    assert page.ocr_confidence is None
    assert page.text.count(UNMAPPED) > 50


def test_an_unreadable_layer_in_a_script_whose_language_is_not_installed_is_kept_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pdf, "installed_languages", lambda: ("eng",))
    blocks = [((0.0, 0.0, 100.0, 10.0), "\ufffdالٮ\ufffdمود \ufffdح\ufffdالمالى \ufffdوالٮ\ufffdوڡ", 0)]
    warnings: list[str] = []
    assert pdf._unreadable_layer_options(blocks, ParseOptions(), warnings) is None
    assert warnings == [f"{UNREADABLE_LAYER}; OCR in 'ara' is not installed here, so it was kept"]
    monkeypatch.setattr(pdf, "installed_languages", lambda: ("ara", "eng"))
    options = pdf._unreadable_layer_options(blocks, ParseOptions(), [])
    assert options is not None and options.languages == ("ara", "eng")  # English reads its digits
    given = pdf._unreadable_layer_options(blocks, ParseOptions(languages=("fra",)), [])
    assert given is not None and given.languages == ("fra",)  # the request's languages rule


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["\ufffd\ufffd\ufffd \ufffd\ufffd\ufffd\ufffd " * 4], True),  # a font of no Unicode values at all
        (["\ufffdالٮ\ufffdمود \ufffdح\ufffdالمالى " * 3], True),  # Arabic letters whose dots are lost
        (
            ["\ufffd Introduction to the manual \ufffd Chapters \ufffd Index"],
            False,
        ),  # bullets of a symbol font
        (["Total 5,350,000 3,000,000 1,500,000 \ufffd\ufffdx"], False),  # numbers are readable
        (["Dear Ms Example, \ufffdI write in support"], False),
    ],
)
def test_a_layer_is_unreadable_when_half_of_its_words_hold_glyphs_without_characters(
    texts: list[str], expected: bool
) -> None:
    assert unreadable(texts) is expected


def test_codes_read_as_text_only_as_letters_of_one_script_without_control_characters() -> None:
    assert read_by_codes(["Dear Ms Example,\nI write in support of the application"])
    assert not read_by_codes(["r\x01Database r\x01Tables"])  # a symbol font's bullets by their codes
    assert not read_by_codes(["Ěﺍﻟٮĕﻤﻮﺩĕﺡ ﺍﺳﻢﺍﻟﺴğﺮﻛﻪĚ ﻭﺍﻟٮĚﻮڡĚﻌﺎٮ"])  # Latin codes in Arabic words
    assert not read_by_codes(["\ufffd\ufffd\ufffd"])


def test_the_script_of_a_layers_readable_letters_names_the_language_to_read_it_in() -> None:
    assert script_language(["\ufffdالٮ\ufffdمود \ufffdح\ufffdالمالى"]) == "ara"
    assert script_language(["Рождество \ufffdр о\ufffd\ufffdр"]) == "rus"
    assert script_language(["XX \ufffd\ufffd\ufffd XXX"]) is None  # Latin: the default languages
    assert script_language(["\ufffd\ufffd\ufffd"]) is None


def test_latin_codes_are_read_only_where_they_spell_a_language() -> None:
    assert pdf._codes_read(["I write this letter in support of the application of our colleague"])
    assert not pdf._codes_read(["J xsjuf uijt mfuufs jo tvqqpsu pg uif bqqmjdbujpo pg pvs dpmmfbhvf"])


def test_the_limits_of_an_unreadable_layer_at_their_boundaries() -> None:
    broken, whole = "\ufffd\ufffdab", "word"
    assert unreadable([" ".join([broken] * 6)])  # six words of glyphs without characters
    assert not unreadable([" ".join([broken] * 5)])  # five are too few
    assert unreadable([" ".join([broken] * 6 + [whole] * 6)])  # half of the words
    assert not unreadable([" ".join([broken] * 6 + [whole] * 7)])  # under half


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
@pytest.mark.parametrize(("confidence", "kept"), [(60.0, True), (59.9, False)])
def test_an_ocr_reading_of_an_unreadable_layer_is_kept_from_a_mean_confidence_of_60(
    monkeypatch: pytest.MonkeyPatch, confidence: float, kept: bool
) -> None:
    monkeypatch.setattr(pdf, "read_by_codes", lambda texts: False)
    monkeypatch.setattr(pdf, "recorded_confidence", lambda page: confidence)
    [page] = parse_pages(_unmapped_letter(), "pdf", ParseOptions())
    assert ("Dear Ms Example," in page.text) is kept
    assert (UNMAPPED in page.text) is not kept
