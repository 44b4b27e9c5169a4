"""The words of a page's text layer, each once: glyphs without a Unicode value do not glue to the
words they stand before."""

from __future__ import annotations

import pymupdf
from docsvc.documents import engine
from docsvc.documents.engine.grids import Word
from docsvc.documents.engine.model import ParseOptions
from docsvc.documents.engine.textlayer import (
    UNMAPPED,
    goes_on,
    lines_gone_on,
    set_apart,
    unmapped_apart,
    words_apart,
)


def unmapped_bullets(lines: list[str]) -> bytes:
    """A page of lines each after a bullet whose glyph has no Unicode value (a name its font's
    encoding gives no character for), set a space's width before the line's text by the text's
    position, not by a space character: as symbol fonts' bullets often are."""
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 50), "x", fontname="helv")
        font = page.get_fonts()[0]
        document.xref_set_key(
            font[0], "Encoding", "<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[1/g1 2/g2]>>"
        )
        shown = " ".join(
            f"1 0 0 1 50 {80 + 20 * number} Tm [(\\001\\002) -400 ({line})] TJ"
            for number, line in enumerate(lines)
        )
        document.update_stream(page.get_contents()[0], f"BT /{font[4]} 11 Tf {shown} ET".encode("latin-1"))
        return bytes(document.tobytes())


def test_a_bullet_glyph_without_unicode_stands_apart_from_the_word_after_it() -> None:
    content = unmapped_bullets(["Database performance", "Advanced SQL knowledge"])

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == [
        UNMAPPED * 2, "Database", "performance", UNMAPPED * 2, "Advanced", "SQL", "knowledge",
    ]  # fmt: skip


def line_of(text: str, starts: list[float], size: float = 10.0) -> list[tuple[str, float, float, float]]:
    return [(char, x, x + size / 2, size) for char, x in zip(text, starts, strict=True)]


def test_a_glyph_without_unicode_a_spaces_width_before_a_word_is_set_apart_from_it() -> None:
    apart = line_of(f"{UNMAPPED}Total", [0, 8, 13, 18, 23, 28])  # 3 points after the glyph's end

    assert unmapped_apart([apart]) == {f"{UNMAPPED}Total": f"{UNMAPPED} Total"}


def test_a_glyph_without_unicode_that_touches_the_letters_after_it_stays_in_their_word() -> None:
    touching = line_of(f"{UNMAPPED}rst e{UNMAPPED}cient", [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55])

    assert unmapped_apart([touching]) == {}


def test_words_set_apart_alike_in_the_text_and_in_the_words_with_their_boxes_shared() -> None:
    glued = f"{UNMAPPED}{UNMAPPED}Database"
    apart = {glued: f"{UNMAPPED}{UNMAPPED} Database"}
    words = [Word((0.0, 0.0, 100.0, 10.0), glued, 0, 0), Word((110.0, 0.0, 150.0, 10.0), "SQL", 0, 1)]

    cut = words_apart(words, apart)

    assert set_apart(f"{glued} SQL\nmore", apart) == f"{UNMAPPED}{UNMAPPED} Database SQL\nmore"
    assert [(word.text, word.box, word.order) for word in cut] == [
        (f"{UNMAPPED}{UNMAPPED}", (0.0, 0.0, 20.0, 10.0), 0),
        ("Database", (20.0, 0.0, 100.0, 10.0), 1),
        ("SQL", (110.0, 0.0, 150.0, 10.0), 2),
    ]


def named_glyphs(names: list[str], lines: list[str]) -> bytes:
    """A page of `lines` (octal codes) in a font whose codes 1, 2, ... are the glyphs `names`."""
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 50), "x", fontname="helv")
        font = page.get_fonts()[0]
        differences = " ".join(f"{code}/{name}" for code, name in enumerate(names, start=1))
        document.xref_set_key(
            font[0], "Encoding", f"<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[{differences}]>>"
        )
        shown = " ".join(
            f"1 0 0 1 50 {100 + 20 * number} Tm ({line}) Tj" for number, line in enumerate(lines)
        )
        stream = f"BT /{font[4]} 11 Tf {shown} ET"
        document.update_stream(page.get_contents()[0], stream.encode("latin-1"))
        return bytes(document.tobytes())


def test_an_arabic_lam_alef_ligature_is_written_lam_then_alef_and_a_latin_ligature_as_its_letters() -> None:
    """MuPDF's own expansion of ligatures writes a lam-alef as alef then lam, misspelling the word;
    the engine writes each ligature and presentation form as its compatibility decomposition."""
    content = named_glyphs(
        ["uni0627", "uniFEC3", "uniFEFC", "uniFECA", "uniFB01"], ["\\005rst", "\\001\\002\\003\\004"]
    )
    with pymupdf.open(stream=content, filetype="pdf") as document:
        as_drawn = document[0].get_text(flags=pymupdf.TEXT_PRESERVE_LIGATURES).split()

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert as_drawn == ["\ufb01rst", "\ufeca\ufefc\ufec3\u0627"]  # the ligatures as the font names them
    assert page.text.split() == ["first", "\u0639\u0644\u0627\u0637\u0627"]  # ayn, LAM, ALEF, ta, alef


def highlighted_line(
    before: str, marked: str, after: str, next_line: str, dot: bool = False, underline: bool = False
) -> bytes:
    """A paragraph whose first line has `marked` over a filled box (a link's box, a highlight) drawn
    between its text and the rest of the line's, with no space between them but the text's own; or,
    with `dot`, a speck of a path (1.5 by 0.4 points) drawn there instead; or, with `underline`, a
    thin filled rule (0.6 points) under `marked`, as word processors draw an underlined term."""
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 100), before, fontsize=11)
        x = 50 + pymupdf.get_text_length(before, fontsize=11)
        width = pymupdf.get_text_length(marked, fontsize=11)
        mark = pymupdf.Rect(x - 1.5, 99.6, x, 100) if dot else pymupdf.Rect(x, 90, x + width, 102)
        if underline:  # drawn after the word it underlines, before the rest of the line
            page.insert_text((x, 100), marked, fontsize=11)
            mark, marked, x = pymupdf.Rect(x, 101, x + width, 101.6), "", x + width
        page.draw_rect(mark, color=None, fill=(0.85, 0.85, 1))
        page.insert_text((x, 100), marked + after, fontsize=11)
        page.insert_text((50, 114), next_line, fontsize=11)
        return bytes(document.tobytes())


def test_a_line_cut_where_a_box_is_drawn_over_it_is_written_as_one_line_as_the_text_layer_has_it() -> None:
    content = highlighted_line(
        "religious and social force", "[2]", ". It is seen by historians", "as a golden age."
    )

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text == "religious and social force[2]. It is seen by historians\nas a golden age."
    with pymupdf.open(stream=content) as document:
        assert page.text.split() == document[0].get_text().split()


def test_a_word_without_a_space_across_the_cut_of_a_line_stays_one_word() -> None:
    content = highlighted_line(
        "Thank you for your cooperation with Customs.", "We", " appreciate it.", "Thanks."
    )

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert "Customs.We" in page.text.split()


def test_blocks_that_start_on_the_line_before_them_are_one_block_only_as_the_page_read_without_paths_is() -> (
    None
):
    before = ((35.0, 151.0, 143.0, 165.0), "Edgar (or Eadgar;")
    mark = ((143.0, 149.0, 157.0, 165.0), "[1]")
    rest = ((158.0, 151.0, 294.0, 177.0), "c. 944) was King\nof the English")
    apart = ((35.0, 200.0, 294.0, 214.0), "Another paragraph")
    whole = [
        ((35.0, 149.0, 294.0, 177.0), "Edgar (or Eadgar;[1] c. 944) was King\nof the English"),
        (apart[0], apart[1]),
    ]

    assert lines_gone_on([before, mark, rest, apart], whole) == {0: (3, whole[0][1])}
    other = [((35.0, 149.0, 294.0, 177.0), "Edgar (or Eadgar; c. 944) was King\nof the English")]
    assert lines_gone_on([before, mark, rest, apart], other) == {}  # not the same characters: apart
    assert not goes_on(before, apart)


def test_a_line_cut_where_a_speck_of_a_path_is_drawn_is_written_as_one_line() -> None:
    content = highlighted_line("Declaration Form to Customs.", "We", " appreciate it.", "Thanks.", dot=True)

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text == "Declaration Form to Customs.We appreciate it.\nThanks."


def test_a_line_cut_where_a_word_is_underlined_is_written_as_one_line_its_word_whole() -> None:
    content = highlighted_line(
        "act in accordance with the ", "Authority", "'s written decision", "resolving it.", underline=True
    )

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert "Authority's" in page.text.split()
    with pymupdf.open(stream=content) as document:
        assert page.text.split() == document[0].get_text().split()


def test_a_right_to_left_line_cut_by_boxes_is_one_block_though_its_pieces_come_in_drawing_order() -> None:
    # An Arabic line with a word on a shaded box: MuPDF gives the left piece, then the box's word, then
    # the right piece (the line's start), and a mark (damma) drawn on the piece beside its letter.
    left = ((124.8, 615.1, 221.2, 636.1), "\u0645\u0646 \u064a\u0643\u0641\u064a")
    boxed = ((228.4, 615.1, 408.1, 636.1), "\u064f\u0644\u062a\u0638\u0647\u0631")
    right = ((415.3, 617.8, 465.5, 634.5), "\u0639\u0628\u062f")
    whole = [
        (
            (124.8, 615.1, 465.5, 636.1),
            "\u0645\u0646 \u064a\u0643\u0641\u064a\u064f\u0639\u0628\u062f \u0644\u062a\u0638\u0647\u0631",
        )
    ]

    assert lines_gone_on([left, boxed, right], whole) == {0: (3, whole[0][1])}
    latin = [((0, 0, 50, 10), "ab"), ((52, 0, 80, 10), "cd")]
    assert lines_gone_on(latin, [((0, 0, 80, 10), "cd ab")]) == {}  # left to right: in order only
