"""The words of a page's text layer, each once: glyphs without a Unicode value do not glue to the
words they stand before."""

from __future__ import annotations

import pymupdf
from docsvc.documents import engine
from docsvc.documents.engine.grids import Word
from docsvc.documents.engine.model import ParseOptions
from docsvc.documents.engine.textlayer import (
    SPACED_AFTER_UNMAPPED,
    UNMAPPED,
    directions_apart,
    goes_on,
    holds_formula,
    lines_gone_on,
    off_line_apart,
    on_one_baseline,
    repeats_last_lines,
    runs_as_blocks,
    set_apart,
    spaces_after_marks,
    unmapped_apart,
    words_apart,
)

from tests.samples import named_glyphs_pdf


def unmapped_bullets(lines: list[str]) -> bytes:
    """A page of lines each after a bullet whose glyph has no Unicode value (a name its font's
    encoding gives no character for), set a space's width before the line's text by the text's
    position, not by a space character: as symbol fonts' bullets often are."""
    shown = " ".join(
        f"1 0 0 1 50 {80 + 20 * number} Tm [(\\001\\002) -400 ({line})] TJ"
        for number, line in enumerate(lines)
    )
    return named_glyphs_pdf(["g1", "g2"], shown)


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


def test_a_glyph_without_unicode_a_spaces_width_before_the_next_word_is_set_apart_from_it() -> None:
    # Its word's last glyph, then (no space character) a Greek letter a space's width on: raw text
    # writes them apart, the glyph's code and a space.
    after = line_of(f"Bogin{UNMAPPED}\u03c9 X{UNMAPPED}", [0, 5, 10, 15, 20, 25, 33, 38, 43, 48])

    assert unmapped_apart([after]) == {f"Bogin{UNMAPPED}\u03c9": f"Bogin{UNMAPPED} \u03c9"}


def test_two_glyphs_without_unicode_a_spaces_width_apart_in_a_word_are_set_apart() -> None:
    # A font that maps only some of its glyphs: one word ends with such a glyph, the next begins
    # with one, and the space between them is lost with them.
    glued = line_of(f"ab{UNMAPPED}{UNMAPPED}cd", [0, 5, 10, 18, 23, 28])

    assert unmapped_apart([glued]) == {f"ab{UNMAPPED}{UNMAPPED}cd": f"ab{UNMAPPED} {UNMAPPED}cd"}


def test_words_that_end_and_begin_with_glyphs_without_unicode_a_space_apart_stay_apart() -> None:
    content = named_glyphs_pdf(
        ["g1", "g2"], "1 0 0 1 50 80 Tm [(Christmas\\001) -400 (\\002carol is sung)] TJ"
    )

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == [f"Christmas{UNMAPPED}", f"{UNMAPPED}carol", "is", "sung"]


def test_a_glyph_without_unicode_a_spaces_width_after_a_formulas_symbol_stays_in_the_formula() -> None:
    # "z \u2208 \u22c2 r": a relation, then a big operator whose glyph has no Unicode value and its
    # bound; a formula's symbols are as far apart as its spacing puts them, with no space written.
    formula = line_of(f"z\u2208{UNMAPPED}r", [0, 5, 13, 18])
    after_glyph = line_of(f"{UNMAPPED}=x", [0, 8, 13])

    assert unmapped_apart([formula]) == {}
    assert unmapped_apart([after_glyph]) == {}


def test_a_glyph_without_unicode_that_touches_the_letters_after_it_stays_in_their_word() -> None:
    touching = line_of(f"{UNMAPPED}rst e{UNMAPPED}cient", [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55])

    assert unmapped_apart([touching]) == {}


def test_a_combining_mark_a_spaces_width_after_a_glyph_without_unicode_stays_in_its_word() -> None:
    # Right to left, a glyph of no value, then a kasra (drawn below a letter further on, its place no
    # measure of a gap) and its letter: one word; a letter there instead is set apart.
    marked = line_of(f"\u0642\u0648\u0627{UNMAPPED}\u0650\u0645", [30, 25, 20, 10, 18, 0])
    letter = line_of(f"\u0642\u0648\u0627{UNMAPPED}\u0628\u0645", [0, 5, 10, 15, 23, 28])

    assert unmapped_apart([marked, letter]) == {
        f"\u0642\u0648\u0627{UNMAPPED}\u0628\u0645": f"\u0642\u0648\u0627{UNMAPPED} \u0628\u0645"
    }


def test_a_gap_after_a_glyph_without_unicode_or_width_that_a_coded_glyph_fills_is_no_lost_space() -> None:
    # A vowel sign of no Unicode value that MuPDF gives no width, then a gap: read with glyph codes,
    # a conjunct's part drawn from the sign's place fills it.
    sign = [
        ("k", 0.0, 5.0, 10.0),
        (UNMAPPED, 5.0, 5.0, 10.0),
        (UNMAPPED, 12.0, 12.0, 10.0),
        ("m", 15.0, 20.0, 10.0),
    ]
    coded = [
        [("k", 0.0, 5.0, 10.0), ("\x0f", 5.0, 5.0, 10.0), ("\t", 5.1, 15.0, 10.0), ("\x11", 12.0, 12.0, 10.0)]
    ]

    assert unmapped_apart([sign], coded) == {}
    assert unmapped_apart([sign]) == {f"k{UNMAPPED}{UNMAPPED}m": f"k{UNMAPPED} {UNMAPPED} m"}


def test_a_word_after_a_sign_without_unicode_or_width_a_space_apart_stays_apart() -> None:
    # A word ends with a sign of no width, the next is set a space's width on, with no space character.
    content = named_glyphs_pdf(["g1"], "1 0 0 1 50 80 Tm [(Kr\\001) -400 (ma walk)] TJ", advances={1: 0})

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == [f"Kr{UNMAPPED}", "ma", "walk"]


def test_a_glyph_without_unicode_drawn_where_one_of_no_width_stands_leaves_its_word_whole() -> None:
    # "Kr", a sign of no width, a part of a conjunct drawn from the same place (MuPDF keeps one of
    # the two, taking them for one glyph drawn twice), then "ma": one word, as the codes are.
    content = named_glyphs_pdf(
        ["g1", "g2"], "1 0 0 1 50 80 Tm [(Kr\\001\\002ma walk)] TJ", advances={1: 0, 2: 600}
    )

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == [f"Kr{UNMAPPED}ma", "walk"]


def test_a_glyph_of_no_width_after_one_drawn_over_it_stays_in_its_word() -> None:
    # As above, then a second sign of no width set back within the conjunct's part.
    content = named_glyphs_pdf(
        ["g1", "g2", "g3"],
        "1 0 0 1 50 80 Tm [(Kr\\001\\002) 300 (\\003) -300 (ma walk)] TJ",
        advances={1: 0, 2: 600, 3: 0},
    )

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == [f"Kr{UNMAPPED * 2}ma", "walk"]


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


def test_a_word_holding_an_ideographic_space_is_set_apart_as_the_text_is() -> None:
    # MuPDF cuts its words at spaces only: a piece after an ideographic space is looked up as in the text
    word = Word((0.0, 0.0, 90.0, 10.0), "Na\u3000meBeta", 0, 0)
    apart = {"meBeta": "me Beta"}

    cut = words_apart([word], apart)

    assert set_apart(word.text, apart) == "Na\u3000me Beta"
    assert [(part.text, part.box) for part in cut] == [
        ("Na\u3000me", (0.0, 0.0, 50.0, 10.0)),
        ("Beta", (50.0, 0.0, 90.0, 10.0)),
    ]


def named_glyphs(names: list[str], lines: list[str]) -> bytes:
    """A page of `lines` (octal codes) in a font whose codes 1, 2, ... are the glyphs `names`."""
    shown = " ".join(f"1 0 0 1 50 {100 + 20 * number} Tm ({line}) Tj" for number, line in enumerate(lines))
    return named_glyphs_pdf(names, shown)


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


def upright_on_a_turned_page(content: bytes, turn: int) -> bytes:
    """The first page of `content` drawn turned a quarter (`turn` degrees) on a page whose /Rotate
    turns it back: its lines run up or down the page as drawn and from left to right as shown, as a
    landscape page set in portrait with /Rotate is."""
    with pymupdf.open(stream=content) as source, pymupdf.open() as document:
        width, height = source[0].rect.width, source[0].rect.height
        page = document.new_page(width=height, height=width)
        page.show_pdf_page(page.rect, source, 0, rotate=turn)
        page.set_rotation(turn % 360)
        return bytes(document.tobytes())


def test_a_line_cut_where_a_box_is_drawn_over_it_on_a_turned_page_is_one_line_as_the_page_is_shown() -> None:
    content = highlighted_line(
        "religious and social force", "[2]", ". It is seen by historians", "as a golden age."
    )
    for turn in (90, -90):
        turned = upright_on_a_turned_page(content, turn)

        (page,) = engine.parse_pages(turned, "pdf", ParseOptions())

        assert page.text.split("\n")[0] == "religious and social force[2]. It is seen by historians"
        with pymupdf.open(stream=turned) as document:
            assert page.text.split() == document[0].get_text().split()


def test_a_line_cut_where_a_box_is_drawn_over_it_on_a_turned_page_is_one_line_as_it_is_drawn() -> None:
    content = highlighted_line(
        "religious and social force", "[2]", ". It is seen by historians", "as a golden age."
    )
    with pymupdf.open(stream=content) as document:
        document[0].set_rotation(90)
        turned = bytes(document.tobytes())

    (page,) = engine.parse_pages(turned, "pdf", ParseOptions())

    assert page.text == "religious and social force[2]. It is seen by historians\nas a golden age."


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


def test_a_mark_drawn_again_at_its_place_between_paths_is_one_line_with_the_words_after_it() -> None:
    # A plot's marker glyph drawn three times at one point, a path drawn before each: read with paths,
    # each is a block of its own; read without, MuPDF keeps the glyph once.
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 40), "A plot's legend.", fontsize=11)
        for index in range(3):
            page.draw_rect(pymupdf.Rect(300 + 10 * index, 200, 305 + 10 * index, 205), fill=(0, 0, 0))
            page.insert_text((50, 100), "\u25cf", fontsize=11)
        page.insert_text((56, 100), "measured", fontsize=11)
        content = bytes(document.tobytes())

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text == "A plot's legend.\n\n\u00b7 measured"
    with pymupdf.open(stream=content) as read:
        assert page.text.split() == read[0].get_text().split()


def test_pieces_of_glyphs_of_no_width_at_one_point_are_the_one_block_the_page_without_paths_has() -> None:
    # A symbol font's glyphs of no width, all drawn at one point with a path after each: their blocks'
    # boxes have no width, and neither has the block of the page read without paths.
    point = (316.5, 341.8, 316.5, 345.4)
    pieces = [(point, "\x0e"), (point, "\x0f"), (point, "#$%"), (point, "&'()")]
    whole = [(point, "\x0e\x0f\n#$%&'()")]

    assert lines_gone_on(pieces, whole) == {0: (4, whole[0][1])}


def test_a_piece_drawn_again_at_its_place_counts_once_against_the_page_without_paths() -> None:
    mark, rest = ((50.0, 50.0, 60.0, 60.0), "\ufffd"), ((60.0, 50.0, 90.0, 60.0), "ab")
    whole = [((50.0, 50.0, 90.0, 60.0), "\ufffdab")]

    assert lines_gone_on([mark, mark, rest], whole) == {0: (3, "\ufffdab")}
    assert lines_gone_on([mark, mark, rest], [((50.0, 50.0, 90.0, 60.0), "\ufffdba")]) == {}  # not in order
    elsewhere = ((52.0, 50.0, 60.0, 60.0), "\ufffd")  # the same glyph at another place: a glyph more
    assert lines_gone_on([mark, elsewhere, rest], whole) == {1: (3, "\ufffdab")}


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


def paragraph_beside_an_infobox(marked_line: int) -> bytes:
    """A paragraph of seven lines beside an infobox of seven label-value rows drawn before it (as web
    pages print), a link's box drawn over the paragraph's line `marked_line` between its last word
    and a footnote mark that follows it with no space: the page's words are read for the table the
    lines and rows make, and MuPDF cuts the paragraph at the box."""
    lines = [
        "Edgar mainly followed the policies of his",
        "predecessors, but there were changes in the",
        "religious sphere. The Benedictine Reform became",
        "a dominant religious and social force",
        "It is seen by historians as a",
        "major achievement of his reign and it",
        "was accompanied by a flowering of art.",
    ]
    rows = ["Predecessor", "Successor", "Born", "Died", "Burial", "House", "Father"]
    with pymupdf.open() as document:
        page = document.new_page(width=500, height=400)
        for number, label in enumerate(rows):
            page.insert_text((340, 100 + 14 * number), label, fontsize=11)
            page.insert_text((420, 100 + 14 * number), f"{940 + number}", fontsize=11)
        for number, line in enumerate(lines):
            y = 100 + 14 * number
            page.insert_text((40, y), line, fontsize=11)
            if number == marked_line:
                x = 40 + pymupdf.get_text_length(line, fontsize=11)
                page.draw_rect(pymupdf.Rect(x, y - 10, x + 12, y + 2), color=None, fill=(0.85, 0.85, 1))
                page.insert_text((x, y), "[2]. Then", fontsize=11)
        return bytes(document.tobytes())


def test_a_word_across_the_cut_of_a_line_stays_one_word_in_a_tables_cell() -> None:
    content = paragraph_beside_an_infobox(marked_line=3)

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert "| a dominant religious and social force[2]. Then | Died | 943 |" in page.text.splitlines()
    with pymupdf.open(stream=content) as document:
        raw = document[0].get_text().split()
    assert sorted(word for word in page.text.split() if word.strip("|-")) == sorted(raw)


def test_a_run_of_pieces_of_one_block_is_made_that_block_its_numbers_the_first_pieces() -> None:
    title = ((10.0, 0.0, 90.0, 10.0), "Title", 0)
    force = ((10.0, 20.0, 60.0, 30.0), "social force", 1)
    mark = ((60.0, 18.0, 70.0, 30.0), "[2].", 2)
    rest = ((70.0, 20.0, 90.0, 42.0), "It is\nseen", 3)
    whole = "social force[2]. It is\nseen"

    blocks, renumbered, left = runs_as_blocks([title, force, mark, rest], {1: (4, whole)})

    assert blocks == [title, ((10.0, 18.0, 90.0, 42.0), whole, 1)]
    assert renumbered == {2: 1, 3: 1}
    assert left == {}


def test_a_run_whose_block_is_also_written_elsewhere_as_a_column_is_left_at_its_new_place() -> None:
    first = ((10.0, 0.0, 50.0, 10.0), "a b", 0)
    merged = [((10.0, 20.0, 30.0, 30.0), "c", 1), ((30.0, 20.0, 50.0, 30.0), "d", 2)]
    left_column = [((10.0, 40.0, 30.0, 50.0), "e", 3), ((30.0, 40.0, 50.0, 50.0), "f", 4)]
    column = ((60.0, 40.0, 90.0, 60.0), "g", 4)  # the other column of block 4

    blocks, renumbered, left = runs_as_blocks(
        [first, *merged, *left_column, column], {1: (3, "cd"), 3: (5, "ef")}
    )

    assert blocks == [first, ((10.0, 20.0, 50.0, 30.0), "cd", 1), *left_column, column]
    assert renumbered == {2: 1}
    assert left == {2: (4, "ef")}


def test_a_block_that_is_the_last_line_of_the_block_before_once_more_in_its_box_is_a_repeat() -> None:
    note = ((72.0, 622.6, 294.6, 646.7), "(Note: A portion was\nmodified by the 11th Amendment.)\nh")
    again = ((138.2, 635.9, 140.9, 642.3), "h")

    assert repeats_last_lines(note, again)
    assert not repeats_last_lines(note, ((300.0, 635.9, 302.7, 642.3), "h"))  # elsewhere on the page
    assert not repeats_last_lines(note, ((138.2, 635.9, 140.9, 642.3), "k"))  # another line
    assert not repeats_last_lines(((72.0, 630.0, 80.0, 640.0), "h"), ((72.0, 630.0, 80.0, 640.0), "h"))


def test_a_block_that_is_the_last_line_of_the_block_before_elsewhere_in_its_box_is_no_repeat() -> None:
    # a formula's block ends with the "1" over one fraction's bar; the "1" over another is a block of its own
    formula = ((95.4, 525.4, 364.2, 542.3), "(5)The variance is calculated as\n1")
    other_one = ((325.3, 534.8, 328.9, 540.8), "1")
    last_line = (360.0, 526.9, 364.2, 534.9)

    assert repeats_last_lines(formula, other_one)  # by the block's box alone, a repeat
    assert not repeats_last_lines(formula, other_one, last_line)
    assert repeats_last_lines(formula, ((360.0, 526.9, 364.2, 534.9), "1"), last_line)


def right_to_left_row(letters: str = "uni0639 uni0644 uni0627 uni0645 uni0629") -> bytes:
    """A row of three cells drawn apart on one line with no space between them: an Arabic-Indic digit,
    a code point's name, an Arabic word of five `letters` (drawn from the right), as a table of an
    Arabic document's. The font's encoding names the Arabic glyphs by their code points."""
    shown = "1 0 0 1 250 100 Tm (\\001) Tj 1 0 0 1 292 100 Tm (U+0600) Tj"
    shown += " 1 0 0 1 377 100 Tm (\\006\\005\\004\\003\\002) Tj"
    return named_glyphs_pdf(["uni0664", *letters.split()], shown, width=500)


def test_cells_of_a_right_to_left_row_written_without_spaces_between_them_are_words_apart() -> None:
    content = right_to_left_row()
    with pymupdf.open(stream=content) as document:
        assert document[0].get_text().split() == ["\u0664U+0600\u0639\u0644\u0627\u0645\u0629"]

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == ["\u0664", "U+0600", "\u0639\u0644\u0627\u0645\u0629"]


def test_a_sign_drawn_far_from_a_right_to_left_word_it_is_glued_to_is_a_word_apart() -> None:
    # "10%" in a table's cell, a Hebrew word in the next one; get_text writes no space between them.
    shown = "1 0 0 1 250 100 Tm (10%) Tj 1 0 0 1 300 100 Tm (\\002\\001) Tj"
    content = named_glyphs_pdf(["uni05D0", "uni05D1"], shown, width=500)
    with pymupdf.open(stream=content) as document:
        assert document[0].get_text().split() == ["10%\u05d0\u05d1"]

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == ["10%", "\u05d0\u05d1"]


def test_a_glyph_of_no_unicode_in_a_right_to_left_word_is_of_its_run() -> None:
    # An Arabic letter's dots drawn as a glyph of no value, a space's width left of the letters before
    # it, and a parenthesis glued to the word: the word stays whole.
    line = [
        ("\u0627", 130.0, 136.0, 11.0),
        ("\u0644", 124.0, 130.0, 11.0),
        ("\ufffd", 110.0, 111.0, 11.0),
        ("\u06a1", 114.0, 124.0, 11.0),
        ("(", 110.0, 114.0, 11.0),
    ]

    assert directions_apart([line]) == {}


def test_cells_of_a_right_to_left_row_in_presentation_forms_are_words_apart_as_the_letters_they_are() -> None:
    content = right_to_left_row("uniFECB uniFEE0 uniFE8E uniFEE3 uniFE94")
    with pymupdf.open(stream=content) as document:
        assert document[0].get_text().split() == ["\u0664U+0600\ufecb\ufee0\ufe8e\ufee3\ufe94"]

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == ["\u0664", "U+0600", "\u0639\u0644\u0627\u0645\u0629"]


def test_a_number_glued_to_a_right_to_left_word_stays_one_word_though_its_digits_are_laid_out_apart() -> None:
    # "\u05e9\u05dc\u05d5\u05dd12": the Hebrew letters from the right, then the number left of them,
    # its own digits from the left: its first digit is a glyph away from the word's last letter.
    hebrew = [
        ("\u05e9", 130.0, 136.0),
        ("\u05dc", 124.0, 130.0),
        ("\u05d5", 120.0, 124.0),
        ("\u05dd", 114.0, 120.0),
    ]
    digits = [("1", 102.0, 108.0), ("2", 108.0, 114.0)]
    line = [(char, x0, x1, 11.0) for char, x0, x1 in [*hebrew, *digits]]

    assert directions_apart([line]) == {}
    far = [*line[:4], *[(char, x0 - 30, x1 - 30, size) for char, x0, x1, size in line[4:]]]
    assert directions_apart([far]) == {"\u05e9\u05dc\u05d5\u05dd12": "\u05e9\u05dc\u05d5\u05dd 12"}


def test_a_cut_line_whose_second_piece_holds_the_lines_below_it_is_one_line_again_above_them() -> None:
    # A marker's glyph, a disc drawn over its place, the number written on the disc: with paths, the
    # number's block holds the lines below too; without, the marked line is a block of its own.
    marker = ((912.8, 409.7, 915.5, 425.4), "\u2022")
    numbered = ((915.9, 408.0, 1104.6, 470.4), "18 Cash Advances\nThese include: withdrawing\ncash at an ATM")
    whole = [((912.8, 408.0, 1024.9, 430.4), "\u202218 Cash Advances")]

    assert lines_gone_on([marker, numbered], whole) == {
        0: (2, "\u202218 Cash Advances\nThese include: withdrawing\ncash at an ATM")
    }
    assert lines_gone_on([marker, numbered], [((912.8, 408.0, 1024.9, 430.4), "\u202218 Cash")]) == {}


def fraction_in_line() -> bytes:
    """A line with a fraction: its numerator on the line, its denominator (smaller) below a bar drawn
    after it, then the line's next term with no space before it and a numerator of its own above."""
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 100), "Then y= a", fontsize=12)
        x = 50 + pymupdf.get_text_length("Then y= ", fontsize=12)
        page.insert_text((x, 108), "b", fontsize=8)
        width = pymupdf.get_text_length("b", fontsize=8)
        page.draw_rect(pymupdf.Rect(x, 97.6, x + width + 1, 98.5), color=None, fill=(0, 0, 0))
        x += width + 0.5
        page.insert_text((x, 100), "k+", fontsize=12)
        page.insert_text((x + pymupdf.get_text_length("k+ ", fontsize=12), 91), "c", fontsize=12)
        return bytes(document.tobytes())


def test_a_formulas_line_cut_by_a_fractions_bar_keeps_the_words_of_the_text_layer() -> None:
    content = fraction_in_line()

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    with pymupdf.open(stream=content) as document:
        raw = document[0].get_text().split()
    assert "bk+" in raw
    assert page.text.split() == raw


def test_a_piece_that_starts_above_a_line_and_comes_down_into_it_goes_on_with_it() -> None:
    denominator = ((97.0, 99.4, 101.5, 110.4), "b")
    term = ((102.0, 78.1, 124.3, 103.6), "k+ c")  # its numerator above, its own line within b's
    above = ((102.0, 60.0, 124.3, 80.0), "a heading")  # ends above b's line

    assert goes_on(denominator, term)
    assert not goes_on(denominator, above)


def line_after_a_zero_width_glyph(jump: float) -> bytes:
    """A line of a Type 3 font's letters ending in a glyph its encoding names for no character and
    its widths give no width, then, `jump` points to its right on the same baseline, a word in
    Helvetica: as a script's glyph of no Unicode value is set, the pen moved on over it by position."""
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        font, unmapped, letter = document.get_new_xref(), document.get_new_xref(), document.get_new_xref()
        document.update_object(
            font,
            "<</Type/Font/Subtype/Type3/FontBBox[0 0 1000 1000]/FontMatrix[0.001 0 0 0.001 0 0]"
            f"/CharProcs<</g1 {unmapped} 0 R/a {letter} 0 R>>/Encoding<</Type/Encoding/Differences[1/g1/a]>>"
            "/FirstChar 1/LastChar 2/Widths[0 500]>>",
        )
        for xref, glyph in ((unmapped, b"0 0 d0"), (letter, b"500 0 d0")):
            document.update_object(xref, "<<>>")
            document.update_stream(xref, glyph)
        page.insert_text((20, 50), "x", fontname="helv")
        resources = int(document.xref_get_key(page.xref, "Resources")[1].split()[0])
        document.xref_set_key(resources, "Font/T3", f"{font} 0 R")
        shown = (
            "BT /T3 12 Tf 1 0 0 1 20 100 Tm <020201> Tj ET "
            f"BT /helv 12 Tf 1 0 0 1 {32 + jump} 100 Tm (script) Tj ET"
        )
        document.update_stream(page.get_contents()[0], shown.encode())
        return bytes(document.tobytes())


def test_a_line_cut_after_a_zero_width_glyph_without_unicode_is_one_line_again() -> None:
    content = line_after_a_zero_width_glyph(12)  # an em: MuPDF begins a new line there
    with pymupdf.open(stream=content) as document:
        assert document[0].get_text(flags=0).split() == [f"aa{UNMAPPED}", "script"]

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert page.text.split() == [f"aa{UNMAPPED}script"]


def test_a_line_more_than_an_em_and_a_half_after_a_zero_width_glyph_without_unicode_stays_apart() -> None:
    (page,) = engine.parse_pages(line_after_a_zero_width_glyph(20), "pdf", ParseOptions())

    assert page.text.split() == [f"aa{UNMAPPED}", "script"]


def test_a_line_going_on_further_than_an_em_and_a_half_over_a_coded_glyph_is_one_line_again() -> None:
    # "Kr", a sign of no width, a conjunct's part drawn from its place and wider than an em and a half
    # (MuPDF drops it reading U+FFFD, taking the two for one glyph drawn twice, and begins a new line
    # after the jump), then "ma": one word, as the codes are; a jump no glyph fills stays a space.
    filled = named_glyphs_pdf(
        ["g1", "g2"], "1 0 0 1 50 80 Tm [(Kr\\001\\002ma walk)] TJ", advances={1: 0, 2: 1800}
    )
    empty = named_glyphs_pdf(["g1"], "1 0 0 1 50 80 Tm [(Kr\\001) -1800 (ma walk)] TJ", advances={1: 0})

    (joined,) = engine.parse_pages(filled, "pdf", ParseOptions())
    (apart,) = engine.parse_pages(empty, "pdf", ParseOptions())

    assert joined.text.split() == [f"Kr{UNMAPPED}ma", "walk"]
    assert apart.text.split() == [f"Kr{UNMAPPED}", "ma", "walk"]


def test_a_space_after_a_mark_of_no_value_within_joined_right_to_left_letters_is_dropped() -> None:
    # Right to left: a letter, its dots (no value, no width) drawn within it, then a space MuPDF
    # measured from the dots to the next letter, joined to the first: the letters cover it.
    joined = [
        ("\u0647", 200.0, 209.9, 13.5),
        (UNMAPPED, 204.0, 204.0, 13.5),
        (" ", 200.0, 204.0, 13.5),
        ("\u062a", 193.4, 200.0, 13.5),
    ]
    two_letters = [
        ("\u062a", 193.4, 200.0, 13.5),
        ("\u0647", 200.0, 209.9, 13.5),
        (UNMAPPED, 202.0, 202.0, 13.5),
        (" ", 198.0, 202.0, 13.5),
        ("\u062f", 190.0, 193.4, 13.5),
    ]

    assert spaces_after_marks([joined, two_letters]) == {
        f"\u0647{UNMAPPED} \u062a": f"\u0647{UNMAPPED}\u062a",
        f"\u062a\u0647{UNMAPPED} \u062f": f"\u062a\u0647{UNMAPPED}\u062f",
    }


def test_a_space_covered_by_a_lam_alef_drawn_as_one_glyph_is_dropped() -> None:
    # The ligature's glyph is the lam's, its alef given no width within it: MuPDF measures the gap to
    # the next letter from the alef and writes a space the ligature covers; one drawn past it stays.
    joined = [
        ("\u0644", 306.2, 314.8, 13.5),
        ("\u0625", 308.8, 308.8, 13.5),
        (" ", 306.2, 308.8, 13.5),
        ("\u0646", 302.7, 306.2, 13.5),
    ]
    apart = [*joined[:2], (" ", 302.2, 306.2, 13.5), ("\u0646", 298.7, 302.2, 13.5)]

    assert SPACED_AFTER_UNMAPPED.search("\u0627\u0644\u0625 \u0646")
    assert spaces_after_marks([joined, apart]) == {"\u0644\u0625 \u0646": "\u0644\u0625\u0646"}


def test_a_space_drawn_past_a_right_to_left_letter_after_its_mark_stays() -> None:
    # The same letter and dots, then a space standing past the letter's left edge: the words' own;
    # and a space after a letter (no mark before it), or on a mark's right, is not looked at.
    apart = [
        ("\u0647", 200.0, 209.9, 13.5),
        (UNMAPPED, 204.0, 204.0, 13.5),
        (" ", 196.0, 200.0, 13.5),
        ("\u062a", 189.4, 196.0, 13.5),
    ]
    after_a_letter = [
        ("\u0647", 200.0, 209.9, 13.5),
        (" ", 200.0, 204.0, 13.5),
        ("\u062a", 193.4, 200.0, 13.5),
    ]
    on_the_right = [("k", 200.0, 209.9, 13.5), (UNMAPPED, 204.0, 204.0, 13.5), (" ", 204.0, 208.0, 13.5)]

    assert spaces_after_marks([apart, after_a_letter, on_the_right]) == {}


def test_a_glyph_set_far_off_a_formulas_line_is_a_word_apart_from_the_formula() -> None:
    # A proof's step in a math font MuPDF writes no space for: the formula "\u2200y\u03b2" over the
    # rule, then the rule's label "\u2200" three quarters of an em further and 0.73 em lower, its
    # superscript "\u2212" close by.
    line = [
        ("\u2200", 252.33, 257.91, 9.96, 389.42),
        ("y", 257.91, 262.85, 9.96, 389.42),
        ("\u03b2", 262.85, 267.76, 9.96, 389.42),
        ("\u2200", 275.39, 280.97, 9.96, 396.73),
        ("\u2212", 280.96, 286.08, 7.47, 392.75),
    ]

    assert off_line_apart([line]) == {"\u2200y\u03b2\u2200\u2212": "\u2200y\u03b2 \u2200\u2212"}


def test_a_superscript_a_fractions_numerator_close_by_and_a_far_glyph_on_the_line_stay_in_their_words() -> (
    None
):
    superscript = [("x", 72.0, 77.0, 10.0, 100.0), ("2", 77.0, 81.0, 7.0, 96.5)]
    numerator = [("\u2212", 317.9, 325.6, 10.0, 183.9), ("1", 330.9, 335.9, 10.0, 177.2)]  # 0.53 em on
    same_line = [("a", 72.0, 77.0, 10.0, 140.0), ("b", 85.0, 90.0, 10.0, 140.0)]

    assert off_line_apart([superscript, numerator, same_line]) == {}


def test_a_line_whose_glyphs_stand_on_about_one_baseline_is_not_walked_and_has_no_glyph_off_it() -> None:
    label = [("\u2200", 252.33, 257.91, 9.96, 389.42), ("\u2200", 275.39, 280.97, 9.96, 396.73)]
    superscript = [("x", 72.0, 77.0, 10.0, 100.0), ("2", 77.0, 81.0, 7.0, 96.5)]  # 0.35 em up
    far_on_the_line = [("a", 72.0, 77.0, 10.0, 140.0), ("b", 95.0, 100.0, 10.0, 140.0)]
    small_far_up = [("a", 72.0, 77.0, 10.0, 140.0), ("b", 95.0, 100.0, 6.0, 136.5)]  # 0.58 em of the 6

    def one_baseline(line: list[tuple[str, float, float, float, float]]) -> bool:
        return on_one_baseline([char[4] for char in line], [char[3] for char in line])

    assert not one_baseline(label) and off_line_apart([label])
    for line in (superscript, far_on_the_line):
        assert one_baseline(line) and off_line_apart([line]) == {}
    # measured against the smaller size, a line may be walked and still have nothing apart
    assert not one_baseline(small_far_up) and off_line_apart([small_far_up]) == {}
    assert on_one_baseline([], [])


def test_only_a_text_with_a_math_symbol_within_a_word_is_read_for_glyphs_off_its_line() -> None:
    assert holds_formula("the step \u2200y\u03b2\u2200\u2212 follows")
    assert holds_formula("so a\u2264b")
    assert not holds_formula("plain words, and a lone sign \u2192 between them")
    assert not holds_formula("call +49 30 1234, Total=>EI")  # ASCII's signs are prose's too


def test_a_math_sign_before_or_between_numbers_in_prose_is_no_formula() -> None:
    assert not holds_formula("prices fell \u22125% and rose \u00b10.2 on a 1920\u00d71080 screen")
    assert holds_formula("by rule \u2192\u2212 then")  # two symbols: a proof's label
    assert holds_formula("so x\u22121 holds")  # a letter with the sign


def overlined_letter(bar: float) -> bytes:
    """A line "Then the mean f(X) of the sample holds" with a bar over its "X" (a thin filled rule as
    wide as the letter, `bar` points below the top of the letter's box), drawn after "f(" and before
    the rest: as TeX sets an overline, which makes MuPDF, asked for paths, cut the line at the bar."""
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 100), "Then the mean f(", fontsize=12)
        x = 50 + pymupdf.get_text_length("Then the mean f(", fontsize=12)
        top = page.get_text("blocks")[0][1]
        width = pymupdf.get_text_length("X", fontsize=12)
        page.draw_rect(
            pymupdf.Rect(x, top + bar - 0.2, x + width, top + bar + 0.2), color=None, fill=(0, 0, 0)
        )
        page.insert_text((x, 100), "X) of the sample holds", fontsize=12)
        return bytes(document.tobytes())


def test_a_line_cut_by_a_bar_over_a_letter_keeps_the_words_of_the_text_layer() -> None:
    for bar in (-0.5, 0.0, 0.3, 2.0):  # at the top of the letter's box, a little above it, or within
        content = overlined_letter(bar)

        (page,) = engine.parse_pages(content, "pdf", ParseOptions())

        with pymupdf.open(stream=content) as document:
            raw = document[0].get_text().split()
        assert "f(X)" in raw
        assert page.text.split() == raw, bar


def label_and_value_parted_by_a_rule_elsewhere(rule: tuple[float, float, float, float]) -> bytes:
    """A line "Name:Ada Lovelace", its label and its value touching, with a rule (x0, y0, x1, y1)
    drawn in the content stream between them, as a report generator draws a page's rule between a
    field's label and its value: MuPDF, asked for paths, cuts the line there."""
    with pymupdf.open() as document:
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 100), "Name:", fontsize=12)
        page.draw_line(pymupdf.Point(rule[0], rule[1]), pymupdf.Point(rule[2], rule[3]), width=0.5)
        value_at = 50 + pymupdf.get_text_length("Name:", fontsize=12)
        page.insert_text((value_at, 100), "Ada Lovelace", fontsize=12)
        return bytes(document.tobytes())


def test_a_line_cut_by_a_rule_drawn_elsewhere_on_the_page_keeps_the_words_of_the_text_layer() -> None:
    for rule in ((20, 250, 380, 250), (20, 20, 380, 20), (300, 150, 300, 280)):  # below, above, aside
        content = label_and_value_parted_by_a_rule_elsewhere(rule)

        (page,) = engine.parse_pages(content, "pdf", ParseOptions())

        with pymupdf.open(stream=content) as document:
            raw = document[0].get_text().split()
        assert "Name:Ada" in raw
        assert page.text.split() == raw, rule


def test_a_line_cut_by_a_rule_drawn_a_few_lines_below_a_paragraph_keeps_the_words_of_the_text_layer() -> None:
    with pymupdf.open() as document:  # the value goes on for two lines more; the rule two lines below it
        page = document.new_page(width=400, height=300)
        page.insert_text((50, 100), "Name:", fontsize=12)
        page.draw_line(pymupdf.Point(20, 170), pymupdf.Point(380, 170), width=0.5)
        value_at = 50 + pymupdf.get_text_length("Name:", fontsize=12)
        page.insert_text((value_at, 100), "Ada Lovelace\nAnalytical Engine\nLondon", fontsize=12)
        content = bytes(document.tobytes())

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    with pymupdf.open(stream=content) as document:
        raw = document[0].get_text().split()
    assert "Name:Ada" in raw
    assert page.text.split() == raw  # a line's height away is away, however many lines the block has


def test_cells_parted_by_a_rule_drawn_across_their_line_stay_apart() -> None:
    content = label_and_value_parted_by_a_rule_elsewhere((86, 80, 86, 110))  # between the two, across

    (page,) = engine.parse_pages(content, "pdf", ParseOptions())

    assert "Name:Ada" not in page.text.split()


def test_the_clip_around_cut_pieces_covers_blocks_of_glyphs_of_no_width() -> None:
    from docsvc.documents.engine.pdf import _clip

    points = [(316.5, 341.8, 316.5, 345.4), (316.5, 341.8, 316.5, 345.4)]

    assert _clip([(299.0, 479.0, 310.0, 492.0), *points], flat=True) == pymupdf.Rect(
        299.0, 341.8, 316.5, 492.0
    )
    assert _clip(points, flat=True) == pymupdf.Rect(315.5, 341.8, 317.5, 345.4)  # widened: MuPDF reads none
    assert _clip([(299.0, 479.0, 310.0, 492.0), *points]) == pymupdf.Rect(299.0, 479.0, 310.0, 492.0)
