"""The real-document bench's word counts: words OCR read from a picture on a page that has a text
layer are counted apart from the text layer's repeated words."""

from __future__ import annotations

from types import SimpleNamespace

import pymupdf
import pytest

from bench import real_documents
from bench.real_documents import (
    _directions_apart,
    _joined_over,
    _off_line_apart,
    _replaced,
    covered_spaces_dropped_pages,
    directions_apart_pages,
    fidelity,
    picture_words,
    tokens,
    unmapped_marked,
    unmapped_marked_pages,
)
from tests.samples import named_glyphs_pdf


def test_picture_words_on_an_ocr_page_are_not_counted_as_repeats() -> None:
    raw_pages = ["de la solicitud", "el formulario de la"]
    out_pages = ["de la solicitud", "el formulario de la\n\nde la fecha de"]
    picture = picture_words(raw_pages, out_pages, ocr_pages={1})
    scored = fidelity("\n\n".join(raw_pages), "\n\n".join(out_pages), picture)
    assert (scored.found, scored.repeated, scored.extra, scored.picture) == (7, 0, 0, 4)


def test_repeats_on_pages_read_without_ocr_still_count() -> None:
    raw_pages = ["de la solicitud", "el formulario"]
    out_pages = ["de la solicitud de la", "el formulario"]
    picture = picture_words(raw_pages, out_pages, ocr_pages=set())
    scored = fidelity("\n\n".join(raw_pages), "\n\n".join(out_pages), picture)
    assert (scored.repeated, scored.picture) == (2, 0)


def test_a_page_ocr_read_twice_over_its_text_layer_keeps_its_own_words_once() -> None:
    raw_pages = ["Nombre Apellidos"]
    out_pages = ["Nombre Apellidos Nombre"]
    picture = picture_words(raw_pages, out_pages, ocr_pages={0})
    scored = fidelity(raw_pages[0], out_pages[0], picture)
    assert (scored.found, scored.repeated, scored.picture) == (2, 0, 1)


def test_raw_words_glued_where_a_right_to_left_line_changes_direction_between_far_glyphs_are_apart() -> None:
    shown = "1 0 0 1 250 100 Tm (\\001) Tj 1 0 0 1 292 100 Tm (U+0600) Tj 1 0 0 1 340 100 Tm (\\003\\002) Tj"
    content = named_glyphs_pdf(["uni0664", "uni05D0", "uni05D1"], shown, width=500)
    with pymupdf.open(stream=content) as document:
        raw = [document[0].get_text()]

    assert raw[0].split() == ["\u0664U+0600\u05d0\u05d1"]
    assert directions_apart_pages(content, "pdf", raw)[0].split() == ["\u0664", "U+0600", "\u05d0\u05d1"]


def test_raw_words_glued_where_a_right_to_left_word_meets_a_far_sign_are_apart() -> None:
    # "10%" in one cell of a table's row, a Hebrew word in the next: raw writes them as one word.
    shown = "1 0 0 1 250 100 Tm (10%) Tj 1 0 0 1 300 100 Tm (\\002\\001) Tj"
    content = named_glyphs_pdf(["uni05D0", "uni05D1"], shown, width=500)
    with pymupdf.open(stream=content) as document:
        raw = [document[0].get_text()]

    assert raw[0].split() == ["10%\u05d0\u05d1"]
    assert directions_apart_pages(content, "pdf", raw)[0].split() == ["10%", "\u05d0\u05d1"]


def test_raw_words_a_covered_space_joined_are_looked_up_whole_so_a_far_sign_is_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An Arabic letter, a mark of no value and no width set within it, a space it covers (dropped
    # first: the two words are one in raw's text), a letter, and a sign drawn 240 points away.
    line = [
        ("\ufe8f", (50.0, 0.0, 60.0, 10.0), 11.0, 8.0),
        ("\x01", (55.0, 0.0, 55.0, 10.0), 11.0, 8.0),
        (" ", (56.0, 0.0, 59.0, 10.0), 11.0, 8.0),
        ("\ufead", (56.0, 0.0, 60.0, 10.0), 11.0, 8.0),
        ("\u25c0", (300.0, 0.0, 309.0, 10.0), 11.0, 8.0),
    ]
    monkeypatch.setattr(
        real_documents, "_horizontal_lines", lambda page: iter([("".join(c for c, *_ in line), line)])
    )
    page = SimpleNamespace(get_text=lambda flags=0: "\ufffd")

    assert _directions_apart(page) == {"\ufe8f\x01\ufead\u25c0": "\ufe8f\x01\ufead \u25c0"}


def test_a_raw_space_where_a_glyph_written_before_it_stands_is_dropped() -> None:
    # A sign of no width, a conjunct's part drawn from its place, a second sign of no width set back
    # within that part: get_text measures the gap after the second sign only and writes a space there.
    shown = "1 0 0 1 50 80 Tm [(Kr\\001\\002) 300 (\\003) -300 (ma walk)] TJ"
    content = named_glyphs_pdf(["g1", "g2", "g3"], shown, advances={1: 0, 2: 600, 3: 0})
    with pymupdf.open(stream=content) as document:
        raw = [document[0].get_text()]

    assert raw[0].split() == ["Kr\x01\x02\x03", "ma", "walk"]
    assert covered_spaces_dropped_pages(content, "pdf", raw)[0].split() == ["Kr\x01\x02\x03ma", "walk"]


def raw_text(content: bytes) -> list[str]:
    with pymupdf.open(stream=content) as document:
        return [page.get_text() for page in document]


def test_a_raw_glyph_coded_10_is_no_line_break_in_its_word() -> None:
    # A glyph of no Unicode value whose code is 10: get_text writes it as a line feed.
    content = named_glyphs_pdf(
        [f"g{code}" for code in range(1, 11)], "1 0 0 1 50 80 Tm [(Ta\\012mil walk)] TJ"
    )
    raw = raw_text(content)

    assert raw[0].split() == ["Ta", "mil", "walk"]
    assert unmapped_marked_pages(content, "pdf", raw)[0].split() == ["Ta\ufffdmil", "walk"]


def test_a_raw_glyph_coded_32_that_has_no_unicode_is_no_space() -> None:
    # Two glyphs of no Unicode value in a word, the second's code 32: get_text writes a space.
    names = ["g1", *(f"x{code}" for code in range(2, 32)), "g32"]
    content = named_glyphs_pdf(names, "1 0 0 1 50 80 Tm [(Ta\\001 mil)] TJ")
    raw = raw_text(content)

    assert raw[0].split() == ["Ta\x01", "mil"]
    assert unmapped_marked_pages(content, "pdf", raw)[0].split() == ["Ta\ufffd\ufffdmil"]


def test_a_long_page_of_unmapped_glyphs_is_matched_line_by_line_as_it_would_be_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A plot drawn in glyphs: many short lines, each with glyphs of no value ("\x01" read with codes).
    coded = "\n".join(f"x{n}\x01 y \x01{n}" for n in range(400))
    plain = "\n".join(f"x{n}\ufffdy\ufffd{n}" for n in range(400))
    whole = unmapped_marked(coded, plain)
    monkeypatch.setattr(real_documents, "_LONG_PAGE", 100)

    assert unmapped_marked(coded, plain) == whole
    assert whole.split("\n")[7] == "x7\ufffd y \ufffd7"


def test_a_text_s_own_lines_of_bars_are_characters_and_only_a_table_s_rows_have_cell_edges() -> None:
    raw = "Symbol\n| | |\n|\nend"  # a symbol drawn with bars: no Markdown table
    output = "Symbol\n\n| a | \\| \\| |\n|---|---|\n| \\| | b |\n\nend"  # the engine's table holds them

    assert tokens(raw) == ["Symbol", "|", "|", "|", "|", "end"]
    assert tokens(output) == ["Symbol", "a", "|", "|", "|", "b", "end"]
    assert fidelity("Symbol a b end", output).extra == 3


def test_a_hash_that_begins_a_line_of_a_pdf_text_is_a_word_on_both_sides() -> None:
    # A code comment: raw begins its line with it, the output writes it within a line.
    raw = "report=report,\n# point to owning report"
    output = "report=report, # point to owning report"

    scored = fidelity(raw, output, headings=False)

    assert (scored.raw_words, scored.found, scored.repeated, scored.extra) == (6, 6, 0, 0)


def test_a_raw_space_after_a_glyph_that_has_a_width_stays_though_a_wide_glyph_stands_over_it() -> None:
    # A wide letter, the pen set back within it, then "i jo": the space after "i" is the text's.
    shown = "1 0 0 1 50 80 Tm [(W) 800 (i jo)] TJ 1 0 0 1 50 120 Tm (a\\001) Tj"
    content = named_glyphs_pdf(["g1"], shown)
    raw = raw_text(content)

    assert covered_spaces_dropped_pages(content, "pdf", raw)[0].split() == ["Wi", "jo", "a\x01"]


def test_a_raw_space_that_joined_right_to_left_letters_cover_on_a_sign_of_no_width_left_is_covered() -> None:
    # Right to left: two joined letters, a sign of no width drawn within the second, and a space on
    # the sign's left that neither letter covers alone.
    letters = [("\u062c", (193.4, 0, 200.0, 10), 11.0), ("\u06be", (200.0, 0, 209.9, 10), 11.0)]
    sign = ("\x03", (202.0, 0, 202.0, 10), 11.0)

    assert _joined_over((198.0, 0, 201.1, 10), 11.0, [*letters, sign])
    assert not _joined_over((203.0, 0, 206.1, 10), 11.0, [*letters, sign])  # on its right
    assert not _joined_over((190.0, 0, 193.1, 10), 11.0, [*letters, sign])  # past the letters


def test_a_raw_line_that_holds_a_line_of_the_page_characters_loses_its_covered_spaces_too() -> None:
    # get_text may write glyphs of no value before a line of the page's characters on its line.
    assert _replaced("\x01\x02ab c", {"ab c": "abc"}) == "\x01\x02abc"


def test_a_line_of_dashes_without_a_pipe_is_a_word_as_in_a_table_cell() -> None:
    # "---" fences a YAML block: the text layer writes it as a line, the engine may write it in a cell
    raw = "title: Notes\n---\nbody"
    out = "| title: Notes | --- |\n|---|---|\n| body | |"

    assert tokens(raw).count("---") == tokens(out).count("---") == 1
    assert fidelity(raw, out).repeated == 0


def test_a_space_before_a_combining_mark_parts_no_word_on_either_side() -> None:
    # A Telugu length mark after a consonant, a space MuPDF measured from a glyph of no width before
    # it: one word; a space before a letter parts two.
    assert tokens("\u0c38\u0c3f\u0c26\u0c4d\u0c27 \u0c56\u0c28 \u0c2a\u0c4d\u0c30") == [
        "\u0c38\u0c3f\u0c26\u0c4d\u0c27\u0c56\u0c28",
        "\u0c2a\u0c4d\u0c30",
    ]


def test_a_space_before_a_right_to_left_mark_still_parts_words() -> None:
    # On a line mixing directions raw text writes a Thaana word backwards, its vowel sign first.
    assert tokens("Maldives \u07a6\u0785\u07aa\u0790") == ["Maldives", "\u07a6\u0785\u07aa\u0790"]


def test_a_space_before_a_vowel_sign_drawn_before_its_consonant_still_parts_words() -> None:
    # Raw text writes a Tamil word's glyphs as drawn: its vowel sign E (a spacing mark) first.
    assert tokens("\u0ba8\u0bbe \u0bc6\u0baa\u0bbe") == ["\u0ba8\u0bbe", "\u0bc6\u0baa\u0bbe"]


def test_a_glyph_of_no_unicode_within_a_word_parts_it_alike_on_both_sides() -> None:
    # An Arabic letter's dots drawn as a glyph of their own: raw spaces after it, a whole word does not.
    raw = "\u0627\u0644\u06a1\ufffd \u0627\u0645\u0647"
    whole = "\u0627\u0644\u06a1\ufffd\u0627\u0645\u0647"

    scored = fidelity(raw, whole)

    assert tokens(whole) == ["\u0627\u0644\u06a1", "\u0627\u0645\u0647"]
    assert (scored.raw_words, scored.found, scored.cut) == (2, 2, 0)


def test_raw_words_glued_across_a_label_set_far_off_their_line_are_apart_and_a_superscript_stays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A proof's step as a math font with no space glyph draws it: the formula "\u2200x\u03b1" over the
    # rule, then the rule's label "\u2192" three quarters of an em further and half an em lower, its
    # superscript "\u2212" close by; get_text writes them as one word.
    line = [
        ("\u2200", (329.6, 146.8, 335.2, 156.7), 9.96, 154.23),
        ("x", (335.2, 146.8, 340.7, 156.7), 9.96, 154.23),
        ("\u03b1", (340.7, 146.8, 345.9, 156.7), 9.96, 154.23),
        ("\u2192", (353.3, 152.1, 362.5, 162.1), 9.96, 159.58),
        ("\u2212", (362.5, 150.3, 367.6, 157.7), 7.47, 155.6),
    ]
    monkeypatch.setattr(
        real_documents, "_horizontal_lines", lambda page: iter([("".join(c for c, *_ in line), line)])
    )
    page = SimpleNamespace(get_text=lambda flags=0: "")

    assert _off_line_apart(page) == {"\u2200x\u03b1\u2192\u2212": "\u2200x\u03b1 \u2192\u2212"}


def test_raw_words_off_their_line_but_close_or_far_on_their_own_line_stay_as_raw_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A minus, then a fraction's numerator two thirds of an em higher and half an em on (a formula's
    # spaces before a fraction); a letter, then one 0.8 em on, on the same baseline.
    lines = [
        [
            ("\u2212", (317.9, 176.0, 325.6, 186.0), 10.0, 183.9),
            ("1", (330.9, 169.3, 335.9, 179.3), 10.0, 177.2),
        ],
        [("a", (72.0, 90.0, 77.0, 102.0), 10.0, 100.0), ("b", (85.0, 90.0, 90.0, 102.0), 10.0, 100.0)],
    ]
    monkeypatch.setattr(
        real_documents, "_horizontal_lines", lambda page: iter(("".join(c for c, *_ in g), g) for g in lines)
    )
    page = SimpleNamespace(get_text=lambda flags=0: "")

    assert _off_line_apart(page) == {}


def test_only_pages_the_engine_ocrd_for_a_layer_of_no_characters_are_marked_unreadable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page OCR'd because its text layer maps its glyphs to nothing has no raw words to keep and is
    left out of the engine's fidelity; a page whose layer was kept, with a warning, is compared as any."""
    from docsvc.documents.engine.model import Page
    from docsvc.documents.engine.textlayer import UNREADABLE_LAYER, UNREADABLE_READ

    pages = [
        Page(1, "read by OCR", warnings=(UNREADABLE_READ,), ocr_confidence=91.0),
        Page(
            2, "kept", warnings=(f"{UNREADABLE_LAYER}; OCR in 'tam' is not installed here, so it was kept",)
        ),
    ]
    monkeypatch.setattr(real_documents.engine, "parse_pages", lambda content, kind, options: iter(pages))
    output = real_documents.run_engine(b"%PDF", "pdf")
    assert output.unreadable_pages == {0}
    assert output.ocr_pages == {0}
