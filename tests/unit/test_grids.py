"""Tables as grids of whole words (docsvc.documents.engine.grids): each word of a page lands exactly once,
in a cell or in the text around the tables, whole; tables without rules are found from the words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

import pytest
from docsvc.documents.engine import grids, pdf
from docsvc.documents.engine.grids import (
    Grid,
    Word,
    aligned_grids,
    assemble,
    joined_frames,
    may_hold_aligned_grid,
    may_hold_ruled_table,
    ruled_grids,
    split_aligned_columns,
    split_stacked_rows,
    with_labels_outside,
)
from docsvc.documents.engine.tables import render_table
from docsvc.documents.engine.textlayer import whole_words


def render(rows: list[list[str]]) -> str:
    return render_table(rows, "markdown")


def words_of(lines: Sequence[tuple[float, Sequence[tuple[float, str]]]], block: int = 0) -> list[Word]:
    """Words at (x, text) on lines at y, 10 points high, 6 points a character; one block."""
    words = []
    for y, placed in lines:
        for x, text in placed:
            words.append(Word((x, y, x + 6 * len(text), y + 10), text, block, len(words)))
    return words


def block(words: Sequence[Word], number: int = 0) -> tuple[tuple[float, float, float, float], str, int]:
    """The text block the words are the words of: their box, their text in order, a line for each y."""
    box = (
        min(w.box[0] for w in words),
        min(w.box[1] for w in words),
        max(w.box[2] for w in words),
        max(w.box[3] for w in words),
    )
    lines: dict[float, list[str]] = {}
    for w in sorted(words, key=lambda w: w.order):
        lines.setdefault(w.box[1], []).append(w.text)
    return box, "\n".join(" ".join(line) for line in lines.values()), number


def every_word(texts: Sequence[str]) -> Counter[str]:
    return Counter(
        word for text in texts for word in text.replace("|", " ").split() if not set(word) <= set("-|")
    )


GRID = Grid((100.0, 100.0, 400.0, 160.0), columns=(200.0, 300.0), rows=(120.0, 140.0))
TABLE_LINES = [
    (102.0, [(110, "Item"), (210, "Qty"), (310, "Price")]),
    (122.0, [(110, "Widget"), (210, "2"), (310, "9.99")]),
    (142.0, [(110, "Gadget"), (210, "1"), (310, "19.50")]),
]


def test_each_word_of_a_table_goes_to_the_cell_of_its_centre_and_the_rest_stays_text() -> None:
    title = words_of([(60.0, [(100, "Price"), (140, "list")])], block=0)
    table = [Word(w.box, w.text, 1, w.order + len(title)) for w in words_of(TABLE_LINES)]
    note = [Word((100.0, 200.0, 160.0, 210.0), "Thanks.", 2, 99)]
    blocks = [
        ((100.0, 60.0, 170.0, 70.0), "Price list", 0),
        block(table, 1),
        ((100, 200, 160, 210), "Thanks.", 2),
    ]

    texts = assemble(blocks, [*title, *table, *note], [GRID], render)

    assert texts == [
        "Price list",
        "| Item | Qty | Price |\n|---|---|---|\n| Widget | 2 | 9.99 |\n| Gadget | 1 | 19.50 |",
        "Thanks.",
    ]


def test_a_word_across_a_column_line_is_never_cut_it_goes_whole_to_one_cell() -> None:
    lines = [*TABLE_LINES]
    lines[1] = (122.0, [(110, "Parastratiosphecomyia"), (310, "9.99")])  # 126 points: crosses x=200
    words = words_of(lines)

    (table,) = assemble([block(words)], words, [GRID], render)

    assert "| Parastratiosphecomyia |  | 9.99 |" in table
    assert every_word([table]) == Counter(word.text for word in words)


def test_a_symbol_fonts_control_characters_no_word_holds_keep_the_table_and_stay_in_the_text() -> None:
    words = words_of(TABLE_LINES)
    box, text, number = block(words)
    symbols = text.replace("Widget 2", "Widget \x0e 2").replace("Gadget", "Gadget \x10\x11")

    texts = assemble([(box, symbols, number)], words, [GRID], render)

    assert texts[0] == "| Item | Qty | Price |\n|---|---|---|\n| Widget | 2 | 9.99 |\n| Gadget | 1 | 19.50 |"
    assert sorted(texts[1].split()) == ["\x0e", "\x10\x11"]


def test_a_blocks_text_a_printable_word_of_which_no_word_holds_is_no_table() -> None:
    words = words_of(TABLE_LINES)
    box, text, number = block(words)

    texts = assemble([(box, text.replace("Widget", "Widget extra"), number)], words, [GRID], render)

    assert texts == [text.replace("Widget", "Widget extra")]


def test_a_frame_around_a_table_is_no_table_and_repeats_no_word() -> None:
    frame = Grid((50.0, 50.0, 500.0, 300.0), columns=(), rows=())
    words = words_of([(60.0, [(60, "Heading")]), *TABLE_LINES, (250.0, [(60, "Footer")])])
    blocks = [block(words)]

    texts = assemble(blocks, words, [frame, GRID], render)

    assert every_word(texts) == Counter(word.text for word in words)
    assert texts[0] == "Heading"
    assert texts[1].startswith("| Item | Qty | Price |")
    assert texts[2] == "Footer"


def test_blocks_without_table_words_keep_their_own_text() -> None:
    words = words_of([(500.0, [(100, "Plain"), (140, "words")])], block=3)

    assert assemble([((100, 500, 200, 510), "Plain  words\nkept as written", 3)], words, [GRID], render) == [
        "Plain  words\nkept as written"
    ]


# ---------------------------------------------------------------------------------------- no rules
def test_aligned_columns_of_short_cells_are_a_table() -> None:
    words = words_of(
        [
            (100.0, [(72, "Carrier"), (200, "Weight"), (320, "Cost")]),
            (115.0, [(72, "DHL"), (200, "12"), (220, "kg"), (320, "40.00")]),
            (130.0, [(72, "UPS"), (200, "3"), (214, "kg"), (320, "12.50")]),
        ]
    )

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines()[2:] == ["| DHL | 12 kg | 40.00 |", "| UPS | 3 kg | 12.50 |"]


# Rows of labels set left beside amounts set right, whose longest label ends left of where the longest
# amount begins on other rows: no straight gap as wide as a word space runs between the two columns
_LABELS_BESIDE_NUMBERS = [
    (115.0, [(72, "Freights"), (176, "1.50"), (294, "3"), (360, "F")]),
    (130.0, [(72, "Tax"), (123, "123456789.50"), (294, "1"), (360, "T")]),
    (145.0, [(72, "Fees"), (170, "99.00"), (294, "2"), (360, "E")]),
    (160.0, [(72, "Duty"), (129, "12345678.00"), (294, "4"), (360, "D")]),
    (175.0, [(72, "Levy"), (135, "1234567.00"), (294, "1"), (360, "L")]),
    (190.0, [(72, "Toll"), (141, "123456.00"), (294, "2"), (360, "O")]),
]


def test_a_column_of_labels_set_left_beside_numbers_set_right_is_parted_where_each_row_leaves_a_gap() -> None:
    # the longest label ends 3 points left of where the longest number begins, on other rows, and a
    # header wider than its column reaches past both: no straight gap as wide as a word space runs
    # down the table, yet each row holds its cells apart
    words = words_of(
        [
            (100.0, [(72, "Parameter"), (164, "Amount"), (282, "Qty"), (360, "Code")]),
            *_LABELS_BESIDE_NUMBERS,
        ]
    )

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines()[:4] == [
        "| Parameter | Amount | Qty | Code |",
        "|---|---|---|---|",
        "| Freights | 1.50 | 3 | F |",
        "| Tax | 123456789.50 | 1 | T |",
    ]


def test_a_narrow_gap_is_no_column_where_a_row_has_only_a_word_space_there() -> None:
    words = words_of(
        [
            (100.0, [(72, "Item"), (164, "Amount"), (282, "Qty"), (360, "Code")]),
            (115.0, [(72, "Freights"), (123, "by"), (138, "sea"), (176, "1.50"), (294, "3"), (360, "F")]),
            (130.0, [(72, "Tax"), (123, "123456789.50"), (294, "1"), (360, "T")]),
            (145.0, [(72, "Fees"), (170, "99.00"), (294, "2"), (360, "E")]),
        ]
    )

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert "| Freights by sea 1.50 | 3 | F |" in table.splitlines()


def test_a_narrow_column_line_with_cells_on_one_side_in_most_rows_parts_no_column() -> None:
    # one label beside the numbers set right, below the header: the narrow gap left of the numbers
    # parts cells in two rows only, and the numbers keep their column to themselves
    words = words_of(
        [
            (100.0, [(72, "Parameter"), (164, "Amount"), (282, "Qty"), (360, "Code")]),
            (115.0, [(72, "Freights"), (176, "1.50"), (294, "3"), (360, "F")]),
            (130.0, [(123, "123456789.50"), (294, "1"), (360, "T")]),
            (145.0, [(170, "99.00"), (294, "2"), (360, "E")]),
            (160.0, [(129, "12345678.00"), (294, "4"), (360, "D")]),
            (175.0, [(135, "1234567.00"), (294, "1"), (360, "L")]),
            (190.0, [(141, "123456.00"), (294, "2"), (360, "O")]),
        ]
    )

    (grid,) = aligned_grids(words)

    assert len(grid.columns) == 2


def test_a_row_whose_label_runs_across_the_narrow_column_line_close_to_its_number_keeps_the_line() -> None:
    # "[Mpc]" crosses the line between the labels and the numbers, 4 points from its number: a row of
    # the table may cross a column line, and its label goes to the column of its middle
    words = words_of(
        [
            (100.0, [(72, "Item"), (164, "Amount"), (282, "Qty"), (360, "Code")]),
            *_LABELS_BESIDE_NUMBERS,
            (205.0, [(72, "Rdrag"), (104, "[Mpc]"), (138, "147.23"), (294, "5"), (360, "R")]),
        ]
    )

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines()[-1] == "| Rdrag [Mpc] | 147.23 | 5 | R |"


PROSE_TEXT = (
    "the board approved a new budget for research and development while revenue of each region grew "
    "and operating costs fell with attention to customer contracts shipping delays supplier invoices "
    "inventory levels and the forecast for next year including risks from currency exchange rates"
)
PROSE = PROSE_TEXT.split()


def prose_line(y: float, x: float, width: float, start: int) -> tuple[float, list[tuple[float, str]]]:
    """Words of PROSE from `start`, set with 3-point spaces until `width` is full."""
    placed, n = [], start
    while True:
        word = PROSE[n % len(PROSE)]
        if placed and placed[-1][0] + 6 * len(placed[-1][1]) + 3 + 6 * len(word) > x + width:
            return y, placed
        placed.append((x if not placed else placed[-1][0] + 6 * len(placed[-1][1]) + 3, word))
        n += 1


def test_two_columns_of_prose_are_not_a_table() -> None:
    lines = []
    for n in range(12):
        y, left = prose_line(100.0 + 14 * n, 72, 220, 5 * n)
        _, right = prose_line(y, 320, 220, 7 * n + 3)
        lines.append((y, left + right))

    assert aligned_grids(words_of(lines)) == []


def test_a_page_of_prose_lines_is_not_a_table() -> None:
    lines = [prose_line(100.0 + 14 * n, 72, 460, 9 * n) for n in range(20)]

    assert aligned_grids(words_of(lines)) == []


LANGUAGES = [("German", "native"), ("French", "near native"), ("Dutch", "near native"), ("Italian", "fair")]


def two_columns(rows: Sequence[tuple[str, str]], right: float = 282.0) -> list[Word]:
    """Rows of a term at x 200 and its words at `right`, 12 points apart, 3-point word spaces."""
    lines = []
    for n, (term, meaning) in enumerate(rows):
        placed, x = [(200.0, term)], right
        for word in meaning.split():
            placed.append((x, word))
            x += 6 * len(word) + 3
        lines.append((100.0 + 12 * n, placed))
    return words_of(lines)


def test_two_straight_columns_of_short_cells_are_a_table_without_rules() -> None:
    words = two_columns(LANGUAGES)

    (grid,) = aligned_grids(words)
    (table,) = assemble([block(words)], words, [grid], render)

    assert table.splitlines() == [
        "| German | native |",
        "|---|---|",
        "| French | near native |",
        "| Dutch | near native |",
        "| Italian | fair |",
    ]


def test_two_columns_of_fewer_lines_than_a_table_of_two_needs_are_no_table() -> None:
    assert aligned_grids(two_columns(LANGUAGES[:3])) == []


def test_two_columns_whose_cells_neither_start_nor_end_at_one_x_are_no_table() -> None:
    lines = [
        (100.0 + 12 * n, [(200.0 + 5 * n, term), (282.0 + 7 * n, level)])
        for n, (term, level) in enumerate(LANGUAGES)
    ]

    assert aligned_grids(words_of(lines)) == []


def test_a_few_lines_of_two_columns_of_prose_are_no_table_of_two_columns() -> None:
    lines = []
    for n in range(4):
        y, left = prose_line(100.0 + 14 * n, 72, 220, 5 * n)
        _, right = prose_line(y, 320, 220, 7 * n + 3)
        lines.append((y, left + right))

    assert aligned_grids(words_of(lines)) == []


def test_a_term_with_a_long_meaning_is_no_row_of_a_table_of_two_columns() -> None:
    rows = [*LANGUAGES[:2], ("Dutch", "spoken fluently at work and at home since"), *LANGUAGES[3:]]

    assert aligned_grids(two_columns(rows)) == []


def test_a_term_that_runs_up_to_the_second_column_stays_a_row_of_a_table_of_two_columns() -> None:
    # "Luxembourgish" ends 4 points short of the meanings' column: a word space, no cell's whitespace
    rows = [*LANGUAGES[:2], ("Luxembourgish", "basic"), *LANGUAGES[2:]]
    words = two_columns(rows)

    (grid,) = aligned_grids(words)
    (table,) = assemble([block(words)], words, [grid], render)

    assert "| Luxembourgish | basic |" in table.splitlines()
    assert len(table.splitlines()) == 6


def described(rows: Sequence[tuple[str, Sequence[str]]]) -> list[Word]:
    """Rows of a term at x 100 and the lines of its meaning at x 220 (the first beside the term, the
    others under it), a line each 12 points, 3-point word spaces."""
    lines: list[tuple[float, list[tuple[float, str]]]] = []
    for term, meaning in rows:
        for index, text in enumerate(meaning):
            placed: list[tuple[float, str]] = [(100.0, term)] if index == 0 and term else []
            x = 220.0
            for word in text.split():
                placed.append((x, word))
                x += 6 * len(word) + 3
            lines.append((100.0 + 12 * len(lines), placed))
    return words_of(lines)


FILES = [
    ("arrow.mf", ["source code of the arrow font"]),
    ("arrow.tfm", ["metrics of the arrow font for the use with TeX"]),
    ("chemarrow.sty", ["macro for the typesetting of arrows in chemical", "reaction schemes"]),
    ("readme.txt", ["English readme"]),
    ("testchem.tex", ["test file"]),
]


def test_a_meaning_wrapped_within_its_column_makes_long_meanings_cells_of_a_table_of_two_columns() -> None:
    words = described(FILES)

    (grid,) = aligned_grids(words)
    (table,) = assemble([block(words)], words, [grid], render)

    assert table.splitlines()[2:4] == [
        "| arrow.tfm | metrics of the arrow font for the use with TeX |",
        "| chemarrow.sty | macro for the typesetting of arrows in chemical reaction schemes |",
    ]
    assert len(table.splitlines()) == 6  # a row a term, the header's rule line under the first


def test_a_line_of_prose_with_a_word_where_the_meanings_start_is_no_row_of_the_table() -> None:
    """Under a table of terms and meanings wrapped within their column, a line of prose from the terms'
    x whose third word starts where the meanings do: too many words for a meaning, so no row."""
    words = described(FILES)
    sentence = "Distributions listed here were packed by the maintainers of the fonts in one archive"
    prose = sentence.split()
    placed: list[tuple[float, str]] = []
    x = 100.0
    for word in prose:
        placed.append((x, word))
        x += 6 * len(word) + 3
    assert placed[2][0] == 220.0
    y = max(word.box[1] for word in words) + 12
    words += [Word(w.box, w.text, 0, len(words) + n) for n, w in enumerate(words_of([(y, placed)]))]

    (grid,) = aligned_grids(words)
    table, *rest = assemble([block(words)], words, [grid], render)

    assert "Distributions" not in table
    assert "Distributions listed here" in " ".join(rest)


def test_a_line_under_the_second_column_after_one_that_ends_short_is_a_row_without_a_first_cell() -> None:
    rows = [
        ("2014/12/01 v0.1", ["Made public"]),
        ("2014/12/07 v0.3", ["Change name of package", "Images are stored in a folder of their own"]),
        ("2014/12/09 v0.4", ["Fix a bug"]),
        ("2014/12/20 v0.5", ["Add the extract option to the package"]),
    ]
    words = described(rows)

    (grid,) = aligned_grids(words)
    (table,) = assemble([block(words)], words, [grid], render)

    assert table.splitlines()[2:4] == [
        "| 2014/12/07 v0.3 | Change name of package |",
        "|  | Images are stored in a folder of their own |",
    ]


@pytest.mark.parametrize("labels", [["1.", "2.", "3.", "4."], ["[1]", "[2]", "[3]", "[4]"], ["\u2022"] * 4])
def test_a_list_whose_text_hangs_at_one_x_beside_its_labels_is_no_table_of_two_columns(
    labels: list[str],
) -> None:
    rows = [(label, meaning) for label, (_, meaning) in zip(labels, FILES, strict=False)]

    assert aligned_grids(described(rows)) == []


def test_labels_set_beside_a_paragraph_whose_lines_run_on_are_no_table_of_two_columns() -> None:
    """Each label stands level with a line of one paragraph (justified: each line ends at one x),
    which the line above wrapped to."""
    labels = ["PFOA", "Carbon", "Capacity", "Regeneration"]
    lines = []
    for n in range(8):
        y, placed = 100.0 + 12 * n, [(220.0 + 27 * k, f"w{n}{k:02d}") for k in range(10)]
        lines.append((y, [(100.0, labels[n // 2]), *placed] if n % 2 == 0 else placed))

    assert aligned_grids(words_of(lines)) == []


def test_a_long_meaning_without_a_line_under_its_column_leaves_the_short_rows_around_it_their_table() -> None:
    rows = [*LANGUAGES, ("Dutch", "spoken fluently at work and at home since"), *LANGUAGES]

    found = aligned_grids(two_columns(rows))

    assert [len(grid.rows) for grid in found] == [3, 3]  # four rows each: three row lines between


def test_a_long_word_close_to_the_next_column_does_not_hide_the_column() -> None:
    words = words_of(
        [
            (78.0, [(61, "Animal"), (227, "Action"), (393, "Result")]),
            (100.0, [(61, "Cat"), (227, "Says"), (393, "Meow")]),
            (123.0, [(61, "Parastratiosphecomyi"), (227, "Says"), (393, "bzzzzzzz")]),  # ends at 181
            (146.0, [(61, "Fox"), (227, "Says"), (393, "Ring")]),
        ]
    )

    (grid,) = aligned_grids(words)

    assert len(grid.columns) == 2 and len(grid.rows) == 3


def test_a_cells_wrapped_lines_stay_in_its_row_when_rows_stand_apart() -> None:
    words = words_of(
        [
            (100.0, [(61, "Animal"), (227, "Action"), (393, "Result")]),
            (123.0, [(61, "Cat"), (227, "Says"), (393, "Meow")]),
            (146.0, [(61, "Fox"), (227, "Says"), (393, "Ring-")]),
            (157.0, [(393, "dingding")]),  # closer than the rows: the cell above, wrapped
            (168.0, [(393, "dingeringeding")]),
            (191.0, [(61, "Dog"), (227, "Says"), (393, "Woof")]),
        ]
    )

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert "| Fox | Says | Ring- dingding dingeringeding |" in table
    assert table.splitlines()[-1] == "| Dog | Says | Woof |"


def test_figures_under_figures_are_a_row_of_their_own_not_a_wrapped_cell() -> None:
    """A regression table's standard errors under its coefficients (and a statement's second entry
    under the first), closer than the rows stand apart with the label column empty: a number is
    never wrapped onto the next line, so the line is a row of its own."""
    lines = [(100.0, [(61, "Term"), (227, "(1)"), (393, "(2)")])]
    for n, label in enumerate(["month2", "month3", "month4"]):
        top = 123.0 + 28 * n
        lines.append((top, [(61, label), (227, f"0.{n}19\u2217\u2217"), (393, f"0.{n}20\u2217")]))
        lines.append((top + 11, [(227, "(0.003)"), (393, "(0.004)")]))
    words = words_of(lines)

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert "| month3 | 0.119\u2217\u2217 | 0.120\u2217 |" in table
    assert table.count("|  | (0.003) | (0.004) |") == 3


def test_in_a_dense_table_every_line_is_a_row() -> None:
    lines = [(100.0 + 12 * n, [(61, f"r{n}" if n % 2 else ""), (227, "x"), (393, str(n))]) for n in range(6)]
    words = [word for word in words_of(lines) if word.text]

    (grid,) = aligned_grids(words)

    assert len(grid.rows) == 5


def test_a_table_just_below_two_columns_of_prose_is_still_found() -> None:
    prose = []
    for n in range(8):
        y, left = prose_line(100.0 + 14 * n, 72, 220, 5 * n)
        _, right = prose_line(y, 320, 220, 7 * n + 3)
        prose.append((y, left + right))
    table = [(224.0 + 14 * n, [(72, f"Part{n}"), (250, f"{n}2"), (420, f"{n}.50")]) for n in range(4)]

    (grid,) = aligned_grids(words_of([*prose, *table]))

    assert grid.box[1] == 224.0 and len(grid.columns) == 2 and len(grid.rows) == 3


def two_columns_with_a_table(table_left: bool) -> tuple[list[Word], list[str]]:
    """A page of two columns of prose (72 to 292, 320 to 540) with a table of four columns and five
    rows in one of them, level with the other column's prose; the table's words' texts."""
    x = 72 if table_left else 320
    rows = [("Model", "RMSE", "MAE", "Score")] + [
        (f"M{n}", f"7{n}.94", f"4{n}.21", f"0.99{n}") for n in range(4)
    ]
    lines = []
    for n in range(20):
        y = 100.0 + 14 * n
        in_table = 6 <= n < 11
        left = [] if in_table and table_left else prose_line(y, 72, 220, 5 * n)[1]
        right = [] if in_table and not table_left else prose_line(y, 320, 220, 7 * n + 3)[1]
        cells = list(zip((x, x + 80, x + 130, x + 180), rows[n - 6], strict=True)) if in_table else []
        lines.append((y, left + right + cells))
    return words_of(lines), [cell for row in rows for cell in row]


@pytest.mark.parametrize("table_left", [True, False])
def test_a_table_in_one_column_of_a_page_of_two_columns_is_found_without_the_text_beside_it(
    table_left: bool,
) -> None:
    """The page's lines there are the table's rows with a line of prose beside them: searched
    whole, the prose was taken for the table's first column, or crossed its column lines and the
    table was missed; each column of the page is searched apart."""
    words, cells = two_columns_with_a_table(table_left)

    (grid,) = aligned_grids(words)

    assert [word.text for word in words if grid.holds(word)] == cells
    assert len(grid.columns) == 3 and len(grid.rows) == 4


def test_a_caption_of_one_run_right_above_a_table_is_not_its_header() -> None:
    """A caption set close above a table, as wide as the table, has words in each column; it is one
    run of words, no row of cells (a line of two runs above it begins the run of lines searched)."""
    caption: list[tuple[float, str]] = []
    for word in ("COMPARISON", "OF", "THE", "FOUR", "MODELS", "TODAY"):  # 3-point spaces, 72 to 267
        caption.append((caption[-1][0] + 6 * len(caption[-1][1]) + 3 if caption else 72, word))
    rows = [
        (100.0 + 12 * n, [(72, f"M{n}"), (150, f"7{n}.94"), (200, f"4{n}.21"), (250, f"0.99{n}")])
        for n in range(5)
    ]
    words = words_of([(72.0, [(72, "Results"), (250, "2024")]), (86.0, caption), *rows])

    (grid,) = aligned_grids(words)

    assert grid.box[1] == 100.0 and len(grid.rows) == 4


def test_prose_with_too_few_lines_broken_at_a_wide_gap_in_a_run_is_not_searched_line_by_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[int] = []
    search = grids._grid
    monkeypatch.setattr(
        grids, "_grid", lambda lines, edges: searched.append(len(lines)) or search(lines, edges)
    )
    lines = [prose_line(100.0 + 14 * n, 72, 460, 9 * n) for n in range(20)]
    lines[3] = (lines[3][0], [(72, "Signed"), (400, "Date")])  # two lines that break at a wide gap
    lines[12] = (lines[12][0], [(72, "Name"), (400, "Place")])

    assert aligned_grids(words_of(lines)) == []
    assert searched == []


def test_three_lines_broken_at_a_wide_gap_in_a_run_are_still_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[int] = []
    search = grids._grid
    monkeypatch.setattr(
        grids, "_grid", lambda lines, edges: searched.append(len(lines)) or search(lines, edges)
    )
    lines = [prose_line(100.0 + 14 * n, 72, 460, 9 * n) for n in range(20)]
    for n in (3, 9, 15):
        lines[n] = (lines[n][0], [(72, "Signed"), (400, "Date")])

    aligned_grids(words_of(lines))

    assert searched == [17]  # from the first of them to the end of the run


# ---------------------------------------------------------------------------------------- ruled
def stacked(
    values: Sequence[Sequence[str]], top: float = 110.0
) -> list[tuple[float, list[tuple[float, str]]]]:
    return [
        (top + 12 * n, [(110 + 100 * i, value) for i, value in enumerate(row) if value])
        for n, row in enumerate(values)
    ]


RULED = Grid((100.0, 100.0, 400.0, 200.0), columns=(200.0, 300.0), rows=(108.0,))


def test_a_ruled_row_of_stacked_lines_of_numbers_is_split_into_rows() -> None:
    words = words_of(
        stacked([["Total", "2.6", "3.2"], ["Per head", "0.7", "1.3"], ["Business", "2.5", "3.4"]])
    )

    grid = split_stacked_rows(RULED, words)

    assert len(grid.rows) == 3
    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines() == [
        "| Total | 2.6 | 3.2 |",
        "|---|---|---|",
        "| Per head | 0.7 | 1.3 |",
        "| Business | 2.5 | 3.4 |",
    ]


def test_stacked_lines_each_with_its_label_are_rows_though_one_leaves_a_column_empty() -> None:
    """An ANOVA table: two rows of numbers under one rule, the second without the last column's."""
    words = words_of(stacked([["Between", "12.31", "16.599"], ["Within", "13402.85", ""]]))

    grid = split_stacked_rows(RULED, words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines() == ["| Between | 12.31 | 16.599 |", "|---|---|---|", "| Within | 13402.85 |  |"]


def test_a_label_wrapped_around_its_rows_line_of_numbers_starts_that_row() -> None:
    """Labels of two lines centred on their row: one line above the row's numbers, one below."""
    words = words_of(
        stacked(
            [
                ["General", "7.4", "1.3"],
                ["Self", "", ""],
                ["", "1.9", "0.8"],
                ["employed", "", ""],
                ["Sea", "", ""],
                ["", "0.1", "1.2"],
                ["workers", "", ""],
                ["Other", "0.2", "0.4"],
            ]
        )
    )

    grid = split_stacked_rows(RULED, words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines() == [
        "| General | 7.4 | 1.3 |",
        "|---|---|---|",
        "| Self employed | 1.9 | 0.8 |",
        "| Sea workers | 0.1 | 1.2 |",
        "| Other | 0.2 | 0.4 |",
    ]


def test_a_label_line_after_a_rows_line_is_not_taken_for_a_centred_label() -> None:
    """A line of numbers without a label between two label lines, the first continuing the row
    above's label: it is not a centred label's row."""
    lines = [frozenset({0, 1}), frozenset({0}), frozenset({0}), frozenset({1, 2})]
    assert grids._centred_labels(lines) == set()
    assert (
        grids._centred_labels(
            [frozenset({0, 1}), frozenset({0}), frozenset({0}), frozenset({1, 2}), frozenset({0})]
        )
        == set()
    )


def test_lines_under_one_label_that_fill_other_columns_stay_one_row() -> None:
    """A label spanning the band, beside two lines of numbers: the second fills other columns."""
    words = words_of(stacked([["Total", "2.6", "3.2"], ["", "0.7", "0.9"]]))

    assert split_stacked_rows(RULED, words) == RULED


def test_stacked_lines_of_long_labels_with_an_amount_each_are_rows() -> None:
    """A budget's lines under one rule: labels of several words, one amount on each line."""
    lines = [("Mandate", "Reserve", "fund", "533,811.85"), ("Spaces", "Loan", "repayment", "40,694.29")]
    lines += [("Senior", "Book", "reserve", "5,000.00")]
    words = words_of(
        [(110 + 12 * n, [(110, a), (210, b), (240, c), (310, d)]) for n, (a, b, c, d) in enumerate(lines)]
    )

    grid = split_stacked_rows(RULED, words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines()[2:] == [
        "| Spaces | Loan repayment | 40,694.29 |",
        "| Senior | Book reserve | 5,000.00 |",
    ]


def test_lines_ending_in_amounts_are_rows_though_a_side_label_ends_one() -> None:
    """A budget's section: line items and a section total, their amounts in two columns, and a side
    label's line with no amount at the band's foot."""
    rows = [("Return", "to aid", "", "1,316,870.72"), ("Spaces", "Officer", "266,037.00", "")]
    rows += [
        ("Desktop", "Support", "7,004.00", ""),
        ("Staff", "Training", "4,500.00", ""),
        ("Side", "label", "", ""),
    ]
    lines = [(110 + 12 * n, [(110, a), (210, b), (310, c), (360, d)]) for n, (a, b, c, d) in enumerate(rows)]
    ruled = Grid((100.0, 100.0, 420.0, 200.0), columns=(200.0, 300.0, 350.0), rows=(108.0,))
    words = words_of([(y, [(x, text) for x, text in placed if text]) for y, placed in lines])

    grid = split_stacked_rows(ruled, words)

    assert len(grid.rows) == 5


def test_text_wrapped_in_every_cell_of_a_ruled_row_stays_one_row() -> None:
    words = words_of(
        stacked([["Class", "water or", "terror or"], ["criteria", "food borne", "high fatality"]])
    )

    assert split_stacked_rows(RULED, words) == RULED


def test_lines_beside_a_cell_that_spans_them_stay_one_row() -> None:
    words = words_of(stacked([["6", "0.965", "0.934"], ["", "0.969", "0.927"]]))

    assert split_stacked_rows(RULED, words) == RULED


# ---------------------------------------------------------------------------------------- lattice
def lattice(
    xs: Sequence[float], ys: Sequence[float]
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """Rules of a full grid: a horizontal rule at each y across the xs, a vertical at each x down the ys."""
    return [(y, xs[0], xs[-1]) for y in ys], [(x, ys[0], ys[-1]) for x in xs]


def test_rules_that_cross_make_a_grid_of_their_cells() -> None:
    (grid,) = ruled_grids(*lattice([100, 200, 300, 400], [100, 120, 140, 160]))

    assert grid.box == (100, 100, 400, 160)
    assert grid.columns == (200, 300) and len(grid.rows) == 2


def test_a_table_drawn_without_its_sides_gets_them_from_its_rules_ends() -> None:
    horizontal, vertical = lattice([100, 200, 300, 400], [100, 120, 140, 160])
    inner = [rule for rule in vertical if rule[0] not in (100, 400)]

    (grid,) = ruled_grids(horizontal, inner)

    assert len(grid.columns) == 2 and grid.box[0] <= 100 and grid.box[2] >= 400


def cell_pieces(xs: Sequence[float], ys: Sequence[float]) -> list[tuple[float, float, float]]:
    """Horizontal rules at each y drawn a cell at a time: a piece from each x to the next."""
    return [(y, x0, x1) for y in ys for x0, x1 in pairwise(xs)]


def test_rules_drawn_a_cell_at_a_time_part_the_columns_where_their_pieces_meet() -> None:
    """No vertical rule: the pieces of every rule meet at the same x, where the columns part."""
    (grid,) = ruled_grids(cell_pieces([0, 80, 130, 180], [0, 40, 65, 90]), [])

    assert grid.columns == (80, 130) and len(grid.rows) == 2
    assert grid.cell_joints == (80, 130)


def test_tables_of_other_columns_stacked_under_one_keep_their_own_column_edges() -> None:
    """Two tables one under the other, their rules as wide and drawn a cell at a time, sharing one
    column edge of two: each table's edges run down its own rules only, none across the gap between."""
    horizontal = cell_pieces([0, 80, 130, 180], [0, 20, 40, 60])
    horizontal += cell_pieces([0, 80, 100, 180], [80, 100, 120, 140])

    edges = grids._cell_joints(horizontal, [])

    assert sorted(edges) == [(80, 0, 60), (80, 80, 140), (100, 80, 140), (130, 0, 60)]


def test_three_rules_drawn_a_cell_at_a_time_stay_a_frame_whose_rows_the_words_give() -> None:
    """Above a table, under its header, below it: its body is one band of many lines, no lattice."""
    assert grids._cell_joints(cell_pieces([0, 80, 130, 180], [0, 20, 90]), []) == []


def test_pieces_meeting_where_vertical_rules_are_drawn_leave_the_grid_to_those_rules() -> None:
    """Rules drawn a cell at a time beside vertical rules that stop at a row spanning the columns:
    the drawn rules part the columns, as if the horizontal ones were drawn whole."""
    ys = [0, 20, 40, 60, 80]
    vertical = [(x, y0, y1) for x in (0, 180) for y0, y1 in pairwise(ys)]
    vertical += [(x, y0, y1) for x in (80, 130) for y0, y1 in ((0, 20), (20, 40), (60, 80))]

    (grid,) = ruled_grids(cell_pieces([0, 80, 130, 180], ys), vertical)

    assert grid.cell_joints == ()
    assert grid == ruled_grids([(y, 0.0, 180.0) for y in ys], vertical)[0]


def test_a_line_running_across_an_edge_taken_from_rules_pieces_spans_the_columns() -> None:
    """A note under the figures, its rules still drawn a column at a time: its words stand a word's
    space apart across the edge, so its cells are one; the figures' columns stay apart."""
    rows = [
        (5.0, [(4, "Year"), (90, "2022"), (140, "2023")]),
        (45.0, [(4, "Rate"), (90, "+5.2%"), (140, "+4.9%")]),
        (70.0, [(4, "Source:"), (52, "Insee,"), (94, "own"), (118, "calculations")]),
    ]
    words = words_of(rows)
    (grid,) = ruled_grids(cell_pieces([0, 80, 130, 220], [0, 40, 65, 90]), [])

    grid = split_stacked_rows(grid, words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines() == [
        "| Year | 2022 | 2023 |",
        "|---|---|---|",
        "| Rate | +5.2% | +4.9% |",
        "| Source: Insee, own calculations |  |  |",
    ]


def test_an_amount_set_right_and_a_note_set_left_a_word_space_apart_in_every_row_stay_two_columns() -> None:
    """Rules drawn a cell at a time: the amounts end and the notes begin 2 points either side of the
    edge in every row, the columns' gap; a note under the figures spanning the columns still joins."""
    rows = [
        (5.0, [(4, "Date"), (92, "Amount"), (132, "Note")]),
        (45.0, [(4, "03/02"), (92, "113.50"), (132, "Paid"), (162, "in"), (177, "full")]),
        (70.0, [(4, "04/02"), (98, "12.00"), (132, "Due")]),
        (95.0, [(4, "Totals"), (64, "are"), (84, "in"), (99, "euros"), (131, "here")]),
    ]
    words = words_of(rows)
    (grid,) = ruled_grids(cell_pieces([0, 80, 130, 220], [0, 40, 65, 90, 110]), [])

    (table,) = assemble([block(words)], words, [split_stacked_rows(grid, words)], render)

    assert table.splitlines()[2:] == [
        "| 03/02 | 113.50 | Paid in full |",
        "| 04/02 | 12.00 | Due |",
        "| Totals are in euros here |  |  |",
    ]


def dashed_rules(
    ys: Sequence[float], left: float, right: float, dash: float, gap: float
) -> list[tuple[float, float, float]]:
    """Horizontal rules at each y from left to right drawn as dashes of `dash` points, `gap` apart."""
    rules = []
    for y in ys:
        x = left
        while x < right:
            rules.append((y, x, min(x + dash, right)))
            x += dash + gap
    return rules


@pytest.mark.parametrize(("dash", "gap"), [(4.0, 2.0), (3.0, 0.0)])
def test_prose_over_dashed_lines_is_no_table_of_a_column_at_each_dash(dash: float, gap: float) -> None:
    """Lines to write on, dashed: the dashes' ends meet as a cell's rules do, but a dash is no cell."""
    rules = dashed_rules([100.0 + 20 * n for n in range(6)], 72.0, 520.0, dash, gap)

    assert grids._cell_joints(rules, []) == []
    assert all(grid.columns == () and grid.cell_joints == () for grid in ruled_grids(rules, []))


def test_a_table_of_solid_column_rules_and_dashed_row_rules_keeps_its_columns_and_cells_whole() -> None:
    ys = [100.0 + 20 * n for n in range(6)]
    vertical = [(x, ys[0], ys[-1]) for x in (72.0, 200.0, 330.0, 520.0)]
    words = words_of(
        [
            (105.0, [(76, "Item"), (204, "Hours"), (334, "Amount")]),
            *[
                (
                    105.0 + 20 * n,
                    [(76, "Consulting"), (142, "services"), (193, f"{n}"), (204, "8"), (334, "960.00")],
                )
                for n in range(1, 5)
            ],
        ]
    )
    (grid,) = ruled_grids(dashed_rules(ys, 72.0, 520.0, 4.0, 2.0), vertical)

    assert grid.columns == (200.0, 330.0) and grid.cell_joints == ()
    (table,) = assemble([block(words)], words, [split_stacked_rows(grid, words)], render)
    assert table.splitlines()[2] == "| Consulting services 1 | 8 | 960.00 |"


def test_a_lone_box_or_an_underline_is_no_table() -> None:
    box_h, box_v = lattice([100, 300], [100, 150])

    assert ruled_grids([*box_h, (200.0, 72.0, 300.0)], box_v) == []


# A table of two columns ruled between some rows only (booktabs): above it, under its header, below it.
FRAME_RULES = [(y, 110.0, 290.0) for y in (100.0, 116.0, 178.0)]
METRICS = [
    (104.0, [(120, "Metric"), (200, "Value")]),
    (120.0, [(120, "Loss"), (200, "0.1338")]),
    (134.0, [(120, "Accuracy"), (200, "0.9665")]),
    (148.0, [(120, "F1"), (136, "(macro)"), (200, "0.8283")]),
    (162.0, [(120, "Runtime"), (200, "35.83")]),
]


def test_rules_drawn_between_rows_only_frame_a_table_of_two_columns() -> None:
    """Two columns are too few for a table found from the words alone where a table of three would
    be (`_between_row_rules` asks without them); rules drawn across the lines, two a header apart,
    make them one."""
    words = words_of(METRICS)
    assert aligned_grids(words, two_columns=False) == []

    (frame,) = ruled_grids(FRAME_RULES, [])
    grid = split_aligned_columns(split_stacked_rows(frame, words), words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines() == [
        "| Metric | Value |",
        "|---|---|",
        "| Loss | 0.1338 |",
        "| Accuracy | 0.9665 |",
        "| F1 (macro) | 0.8283 |",
        "| Runtime | 35.83 |",
    ]


def test_rules_between_rows_around_prose_frame_no_table_and_around_a_wider_one_frame_that_table() -> None:
    """Between the rules, prose has no column of whitespace: no table. A table of three columns,
    found from the words alone as without rules, from the header under the top rule to the last
    line above the bottom one, is the framed table, with the columns found so."""
    (frame,) = ruled_grids(FRAME_RULES, [])
    prose = words_of([prose_line(104.0 + 14 * n, 112, 136, 6 * n) for n in range(5)])
    wider = words_of([(y, [*cells, (260, "x")]) for y, cells in METRICS])

    assert split_stacked_rows(frame, prose).box == (0.0, 0.0, 0.0, 0.0)
    (found,) = aligned_grids(wider)
    assert split_stacked_rows(frame, wider) == found


def test_horizontal_rules_alone_may_frame_a_table_when_two_stand_a_header_apart() -> None:
    assert may_hold_ruled_table([(110, y - 0.25, 290, y + 0.25) for y, _, _ in FRAME_RULES], 1.5)
    assert not may_hold_ruled_table([(110, y - 0.25, 290, y + 0.25) for y in (100.0, 178.0)], 1.5)
    assert ruled_grids([(y, 72.0, 520.0) for y in (80.0, 200.0, 320.0)], []) == []  # underlines


def _timetable(top: float, rows: Sequence[tuple[str, str]]) -> list[tuple[float, list[tuple[float, str]]]]:
    """A timetable of two columns from `top`: its header, then a line for each row, 14 points apart."""
    lines = [(top + 4, [(120.0, "Time"), (200.0, "Class")])]
    for n, (time, subject) in enumerate(rows):
        lines.append((top + 20 + 14 * n, [(120.0, time), (200.0, subject)]))
    return lines


_MORNING = [("8:30", "Intro"), ("9:30", "Break"), ("9:45", "Models"), ("10:45", "Lunch")]


def test_rules_of_one_span_frame_each_of_the_tables_drawn_one_under_another() -> None:
    """Two tables of the same width, a day's heading between them, each framed by its own three rules:
    one frame of all six rules would hold the heading and be no table of two columns."""
    rules = [(y, 110.0, 290.0) for y in (100.0, 116.0, 176.0, 220.0, 236.0, 296.0)]
    heading = (200.0, [(120.0, "Tuesday")])
    words = words_of([*_timetable(100.0, _MORNING), heading, *_timetable(220.0, _MORNING)])

    frames = ruled_grids(rules, [])

    assert [(frame.box[1], frame.box[3]) for frame in frames] == [(100.0, 176.0), (220.0, 296.0)]
    grids = [split_stacked_rows(frame, words) for frame in frames]
    tables = assemble([block(words)], words, grids, render)
    assert [text.splitlines()[2] for text in tables if text.startswith("|")] == ["| 8:30 | Intro |"] * 2
    assert "Tuesday" in tables


def test_rules_between_groups_of_rows_above_two_close_rules_stay_one_frame() -> None:
    """A leaderboard ruled between its groups of rows, the rules further apart than a header's
    height until two stand close: the rules above have no header of their own, so the frame is not
    parted there and its upper rows are not lost."""
    rules = [(y, 110.0, 290.0) for y in (100.0, 150.0, 200.0, 300.0, 330.0, 400.0)]

    (frame,) = ruled_grids(rules, [])

    assert (frame.box[1], frame.box[3]) == (100.0, 400.0)


def test_a_table_the_page_ends_before_its_last_rule_runs_on_from_its_header_rules() -> None:
    """Under a table framed by three rules, the rule above a header and the one under it, the last
    of the span, open a table whose last rule the page did not draw: its rows run on while no gap
    parts them, and the page's number below is not one of them."""
    rules = [(y, 110.0, 290.0) for y in (100.0, 116.0, 176.0, 220.0, 236.0)]
    words = words_of([*_timetable(100.0, _MORNING), *_timetable(220.0, _MORNING), (320.0, [(200, "1")])])

    frames = ruled_grids(rules, [])
    grids = [split_stacked_rows(frame, words) for frame in frames]

    assert [(grid.box[1], len(grid.rows)) for grid in grids] == [(104.0, 4), (224.0, 4)]
    assert grids[1].box[3] == 292.0  # the last row's bottom, not the page number's


def test_a_header_s_rules_under_rules_that_frame_no_table_open_none() -> None:
    """Rules far apart (under headings) above two close ones: no table is framed above, so the two
    close rules at the end of the span open no table running on to the page's end."""
    frames = ruled_grids([(y, 110.0, 290.0) for y in (100.0, 200.0, 300.0, 700.0, 716.0)], [])

    assert all(frame.box[3] != float("inf") for frame in frames)


def _booktabs(
    rules: Sequence[float], group: float, total: float
) -> list[tuple[float, list[tuple[float, str]]]]:
    """A table of scores ruled as booktabs draws it (`rules`: above it, under its header, between its
    groups of rows at `group`, above its total row at `total`, below it), then a line of prose."""
    lines = [(rules[0] + 4, [(120.0, "Name"), (200.0, "Score")])]
    y, n = rules[1] + 4, 0
    while y + 10 < total:
        if y < group < y + 12:
            y = group + 4
            continue
        lines.append((y, [(120.0, f"row{n}"), (200.0, str(n))]))
        y, n = y + 16, n + 1
    lines.append((total + 3, [(120.0, "Total"), (200.0, "45")]))
    lines.append((rules[-1] + 14, [(72.0, "The"), (100.0, "text"), (130.0, "after"), (200.0, "table.")]))
    return lines


def test_booktabs_table_with_a_group_rule_and_a_rule_over_its_total_stays_one_frame() -> None:
    """Above it, under its header, between its groups of rows, above its total row and below it: one
    table, not one cut at the rule above its total and opening another there."""
    ys = (100.0, 116.0, 200.0, 300.0, 316.0)

    frames = ruled_grids([(y, 110.0, 290.0) for y in ys], [])

    assert [(frame.box[1], frame.box[3]) for frame in frames] == [(100.0, 316.0)]


def test_booktabs_table_with_group_and_total_rules_reads_all_its_rows_in_one_table() -> None:
    ys = (100.0, 116.0, 200.0, 300.0, 316.0)
    words = words_of(_booktabs(ys, 200.0, 300.0))

    grids = [split_stacked_rows(frame, words) for frame in ruled_grids([(y, 110.0, 290.0) for y in ys], [])]
    tables = [text for text in assemble([block(words)], words, grids, render) if text.startswith("|")]

    assert len(tables) == 1 and "row0" in tables[0] and "Total" in tables[0]


def test_frames_whose_gap_holds_rows_of_a_table_are_joined_into_one() -> None:
    """The rules between groups of rows stand as far apart as two tables with a heading between
    them would: the rows of two cells in the gap say it is one table, read with all its rows; a gap
    holding a heading alone keeps the two tables apart."""
    ys = (100.0, 116.0, 170.0, 230.0, 246.0)
    words = words_of(_booktabs(ys, 170.0, 230.0))
    frames = ruled_grids([(y, 110.0, 290.0) for y in ys], [])
    assert len(frames) == 2  # from the rules alone: two tables, the second open below

    joined = joined_frames(frames, words)
    grids = [split_stacked_rows(frame, words) for frame in joined]
    tables = [text for text in assemble([block(words)], words, grids, render) if text.startswith("|")]

    assert [(frame.box[1], frame.box[3]) for frame in joined] == [(100.0, 246.0)]
    assert len(tables) == 1 and "| row0 | 0 |" in tables[0] and "| Total | 45 |" in tables[0]
    assert "table." not in tables[0]
    two = [(y, 110.0, 290.0) for y in (100.0, 116.0, 176.0, 220.0, 236.0, 296.0)]
    apart = words_of(
        [*_timetable(100.0, _MORNING), (200.0, [(120.0, "Tuesday")]), *_timetable(220.0, _MORNING)]
    )
    assert len(joined_frames(ruled_grids(two, []), apart)) == 2


def test_rows_of_a_frame_of_two_columns_count_once_however_many_lines_their_cells_wrap() -> None:
    """A timetable whose classes wrap over two lines: the lines that continue a row are no rows of
    one cell, and the rows, each of two cells, make the table."""
    rules = [(y, 110.0, 340.0) for y in (100.0, 116.0, 190.0)]
    lines = [
        (104.0, [(120, "Time"), (200, "Class")]),
        (120.0, [(120, "13:15"), (200, "Practical:"), (263, "loading")]),
        (131.0, [(200, "data")]),
        (148.0, [(120, "14:45"), (200, "Break")]),
        (165.0, [(120, "15:00"), (200, "Practical:"), (263, "fitting")]),
        (176.0, [(200, "models")]),
    ]
    words = words_of(lines)

    (frame,) = ruled_grids(rules, [])
    (table,) = assemble([block(words)], words, [split_stacked_rows(frame, words)], render)

    assert table.splitlines()[2:] == [
        "| 13:15 | Practical: loading data |",
        "| 14:45 | Break |",
        "| 15:00 | Practical: fitting models |",
    ]


def header_of_two_lines(vertical: Sequence[tuple[float, float, float]], label_at: float = 102.0) -> list[str]:
    """A ruled table whose header is two lines with no rule between ("Total" over "ICCG"), its first
    column's label at label_at, as a table."""
    horizontal = [(100.0, 100.0, 400.0), (130.0, 100.0, 400.0), (145.0, 100.0, 400.0)]
    (grid,) = ruled_grids(horizontal, vertical)
    words = words_of(
        [
            (label_at, [(110, "Method")]),
            (102.0, [(210, "Total"), (310, "Share")]),
            (117.0, [(210, "ICCG"), (310, "ICCG")]),
            (132.0, [(110, "DICCG10"), (210, "14941"), (310, "13")]),
        ]
    )
    (table,) = assemble([block(words)], words, [split_stacked_rows(grid, words)], render)
    return table.splitlines()


def test_vertical_rules_drawn_a_row_at_a_time_part_a_header_of_two_rows() -> None:
    """LaTeX draws a tabular's vertical rules a row at a time: where every one of them is two pieces
    meeting at one height, with no horizontal rule there, two rows of the source meet."""
    pieces = [
        (x, top, bottom)
        for x in (100.0, 200.0, 300.0, 400.0)
        for top, bottom in ((100, 115), (115, 130), (130, 145))
    ]

    assert header_of_two_lines(pieces) == [
        "| Method | Total | Share |",
        "|---|---|---|",
        "|  | ICCG | ICCG |",
        "| DICCG10 | 14941 | 13 |",
    ]


def test_rules_drawn_a_row_at_a_time_beside_a_label_centred_across_both_lines_part_no_rows() -> None:
    """A label set across both lines (LaTeX's multirow) keeps them one row of cells of two lines, as
    lines under one label spanning them stay one row."""
    pieces = [
        (x, top, bottom)
        for x in (100.0, 200.0, 300.0, 400.0)
        for top, bottom in ((100, 115), (115, 130), (130, 145))
    ]

    assert header_of_two_lines(pieces, label_at=110.0)[0] == "| Method | Total ICCG | Share ICCG |"


def test_a_header_beside_whole_dashed_or_partly_pieced_rules_stays_one_row_of_two_lines() -> None:
    """Rules drawn whole beside the header (a cell's text wrapped), dashed ones, or pieces meeting
    on some rules only, part no rows."""
    xs = (100.0, 200.0, 300.0, 400.0)
    whole = [(x, 100.0, 145.0) for x in xs]
    dashed = [(x, top, top + 2.0) for x in xs for top in range(100, 145, 3)]
    partly = [(100.0, 100.0, 115.0), (100.0, 115.0, 145.0), *[(x, 100.0, 145.0) for x in xs[1:]]]

    for vertical in (whole, dashed, partly):
        assert header_of_two_lines(vertical)[0] == "| Method | Total ICCG | Share ICCG |"


def test_a_header_cell_over_two_columns_keeps_its_words_together() -> None:
    horizontal = [(100.0, 100.0, 400.0), (120.0, 200.0, 400.0), (140.0, 100.0, 400.0), (160.0, 100.0, 400.0)]
    vertical = [(100.0, 100.0, 160.0), (200.0, 100.0, 160.0), (300.0, 120.0, 160.0), (400.0, 100.0, 160.0)]
    (grid,) = ruled_grids(horizontal, vertical)
    words = words_of(
        [
            (102.0, [(110, "#"), (210, "TEDs")]),
            (113.0, [(110, "layers")]),  # the first column's cell spans both header rows
            (122.0, [(210, "simple"), (310, "all")]),
            (142.0, [(110, "6"), (210, "0.96"), (310, "0.95")]),
        ]
    )

    (table,) = assemble([block(words)], words, [grid], render)

    assert table.splitlines()[0] == "| # layers | TEDs |  |"
    assert table.splitlines()[2:] == ["|  | simple | all |", "| 6 | 0.96 | 0.95 |"]


def test_two_tables_of_the_same_width_apart_on_a_page_stay_two_tables() -> None:
    """Full-width rules between them (the lines under a form's sections) do not join them into one."""
    first_h, first_v = lattice([50, 160, 300, 545], [154, 172, 190, 208])
    second_h, second_v = lattice([50, 160, 300, 545], [246, 264, 282])
    section_lines = [(y, 50.0, 545.0) for y in (69, 146, 238, 294, 346)]

    grids = ruled_grids([*first_h, *second_h, *section_lines], [*first_v, *second_v])

    assert sorted(grid.box[1] for grid in grids) == [154, 246]
    assert sorted(grid.box[3] for grid in grids) == [208, 282]


ITEMS = [
    (253.0 + 15 * n, [(93, str(10 + n)), (120, "Ball"), (147, "bearings"), (439, "6.75"), (521, f"{n}7.50")])
    for n in range(8)
]


def test_an_address_in_two_columns_just_above_a_table_is_not_its_rows() -> None:
    address = [
        (190.0, [(10, "Bill"), (37, "to"), (300, "Ship"), (327, "to")]),
        (205.0, [(10, "Kestrel"), (300, "Goods"), (333, "inward")]),
        (220.0, [(10, "75"), (25, "Rue"), (300, "174"), (321, "Commerce")]),
        (235.0, [(93, "Qty"), (120, "Item"), (435, "Price"), (516, "Total")]),
    ]
    words = words_of([*address, *ITEMS])

    (grid,) = aligned_grids(words)

    assert grid.box[1] >= 235.0


def test_a_header_whose_first_word_runs_over_a_column_line_is_the_tables_header() -> None:
    words = words_of([(236.0, [(67, "Quantity"), (120, "Item"), (435, "Price"), (516, "Total")]), *ITEMS])

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines()[0] == "| Quantity | Item | Price | Total |"


# ---------------------------------------------------------------------------------------- the words kept
def test_a_table_that_would_cut_a_word_over_two_cells_is_written_as_its_blocks_text() -> None:
    words = words_of(TABLE_LINES)
    price = next(w for w in words if w.text == "9.99")  # its two halves on either side of a column line
    left = Word((290.0, price.box[1], 302.0, price.box[3]), "9.", 0, price.order)
    right = Word((302.0, price.box[1], 314.0, price.box[3]), "99", 0, price.order + 1)
    halves = [*(w for w in words if w.order < price.order), left, right]
    halves += [Word(w.box, w.text, 0, w.order + 1) for w in words if w.order > price.order]
    text = "Item Qty Price\nWidget 2 9.99\nGadget 1 19.50"
    grid = Grid(GRID.box, columns=(200.0, 300.0), rows=GRID.rows)

    assert assemble([(GRID.box, text, 0)], halves, [grid], render) == [text]


def test_a_table_whose_rows_split_a_cells_hyphenated_word_joins_those_rows() -> None:
    lines = [
        (102.0, [(110, "Animal"), (210, "Action"), (310, "Result")]),
        (122.0, [(110, "Cat"), (210, "Says"), (310, "Meow")]),
        (142.0, [(110, "Fox"), (210, "Says"), (310, "Wa-pa-")]),
        (152.0, [(310, "pa-pow")]),  # the cell's second line, taken for a row of its own
    ]
    words = words_of(lines)
    grid = Grid((100.0, 100.0, 400.0, 165.0), columns=(200.0, 300.0), rows=(120.0, 140.0, 151.0))

    (table,) = assemble([block(words)], words, [grid], render)

    assert table.splitlines()[2:] == ["| Cat | Says | Meow |", "| Fox | Says | Wa-pa- pa-pow |"]


def test_a_table_whose_words_are_of_no_block_on_the_page_is_written_as_the_blocks_text() -> None:
    words = [Word(w.box, w.text, 7, w.order) for w in words_of(TABLE_LINES)]  # block 7: not on the page
    blocks = [(GRID.box, "Item Qty Price Widget 2 9.99 Gadget 1 19.50", 0)]

    assert assemble(blocks, words, [GRID], render) == ["Item Qty Price Widget 2 9.99 Gadget 1 19.50"]


def test_right_to_left_words_broken_where_the_script_changes_are_whole_again_in_their_cells() -> None:
    """PyMuPDF's words break where Hebrew letters meet a digit or a hyphen with no space between; the
    block's text holds them as one word each, and so do the table's cells."""
    lines = [
        (102.0, [(110, "שנה"), (210, "סך"), (310, "לנפש")]),
        (122.0, [(110, "2019"), (210, "5"), (310, "לנפש"), (334, "1")]),  # "לנפש1"
        (142.0, [(110, "2020"), (210, "ש"), (216, '"'), (222, "ח"), (310, "7")]),  # 'ש"ח'
    ]
    words = words_of(lines)
    text = 'שנה סך לנפש\n2019 5 לנפש1\n2020 ש"ח 7'

    whole = whole_words(words, {0: text})
    (table,) = assemble([(GRID.box, text, 0)], whole, [GRID], render)

    assert [w.text for w in whole] == text.split()
    assert table.splitlines()[2:] == ["| 2019 | 5 | לנפש1 |", '| 2020 | ש"ח | 7 |']
    assert every_word([table]) == Counter(text.split())


def test_words_that_do_not_spell_their_blocks_text_are_kept_as_they_are() -> None:
    words = words_of([(100.0, [(100, "left"), (140, "column"), (300, "right")])])

    assert whole_words(words, {0: "right leftcolumn"}) == words


def test_a_hyphen_before_a_space_on_the_same_line_ends_its_word_and_the_table_stays() -> None:
    lines = [
        (102.0, [(110, "Period"), (210, "From"), (310, "To")]),
        (122.0, [(110, "First"), (210, "1990-"), (310, "2000")]),  # one line: "1990- 2000"
        (142.0, [(110, "Second"), (210, "2001-"), (310, "2010")]),
    ]
    words = words_of(lines)

    each_apart = (GRID.box, "\n".join(w.text for w in words), 0)  # far apart: a line each in the block

    (table,) = assemble([each_apart], words, [GRID], render)

    assert table.splitlines()[2:] == ["| First | 1990- | 2000 |", "| Second | 2001- | 2010 |"]


def test_a_first_row_that_ends_the_paragraph_above_a_hyphenated_word_is_text_not_the_tables() -> None:
    paragraph = words_of([(80.0, [(100, "Are"), (130, "they"), (160, "witness-")]), (102.0, [(110, "es?")])])
    rows = [Word(w.box, w.text, 1, w.order + len(paragraph)) for w in words_of(TABLE_LINES[1:])]
    words = [*paragraph, *rows]

    texts = assemble([block(paragraph, 0), block(rows, 1)], words, [GRID], render)

    assert texts == ["Are they witness-\nes?", "| Widget | 2 | 9.99 |\n|---|---|---|\n| Gadget | 1 | 19.50 |"]


def test_a_word_hyphenated_over_two_columns_of_one_row_is_text_after_the_table_which_stays() -> None:
    lines = [
        (102.0, [(110, "Item"), (210, "Qty"), (310, "Price")]),
        (122.0, [(110, "Widget"), (210, "2"), (310, "9.99")]),
        (142.0, [(110, "Gadget"), (150, "hyphen-"), (210, "ated"), (310, "19.50")]),  # a line below
    ]
    words = words_of(lines)
    below = Word((210.0, 150.0, 234.0, 158.0), "ated", 0, words[-2].order)  # in the next column
    words[-2] = below
    text = "Item Qty Price\nWidget 2 9.99\nGadget hyphen-\nated 19.50"

    table, after = assemble([(GRID.box, text, 0)], words, [GRID], render)

    assert table.splitlines()[2:] == ["| Widget | 2 | 9.99 |", "| Gadget |  | 19.50 |"]
    assert after == "hyphen-\nated"  # one word, as the text has it
    assert every_word([table, after]) == every_word([text])


def test_a_row_whose_two_cells_each_end_with_a_hyphen_read_across_keeps_its_table() -> None:
    """A spreadsheet's row of two cells of two lines, each first line ending with a hyphen: the text
    reads across ("Entwick- Wirtschafts-", then "lung informatik"), so it joins the three pieces as one
    word (its halves in two cells) and leaves "informatik" a word of its own. Those words are text
    after the table; its other rows stay a table."""
    lines = [
        (102.0, [(110, "Day"), (310, "Course")]),
        (122.0, [(110, "Monday"), (310, "Statistics")]),
        (142.0, [(110, "Entwick-"), (310, "Wirtschafts-")]),
        (151.0, [(110, "lung"), (310, "informatik")]),
        (172.0, [(110, "Tuesday"), (310, "Algebra")]),
    ]
    words = words_of(lines)
    grid = Grid((100.0, 100.0, 400.0, 185.0), columns=(300.0,), rows=(120.0, 140.0, 165.0))
    text = "Day Course\nMonday Statistics\nEntwick- Wirtschafts-\nlung informatik\nTuesday Algebra"

    table, after = assemble([(grid.box, text, 0)], words, [grid], render)

    assert table.splitlines()[2:] == ["| Monday | Statistics |", "| Tuesday | Algebra |"]
    assert after == "Entwick- Wirtschafts-\nlung informatik"
    assert every_word([table, after]) == every_word([text])


def test_words_a_cell_would_join_that_the_text_does_not_join_are_text_after_the_table() -> None:
    placed = [
        (110, 102, "Item"), (210, 102, "Qty"), (310, 102, "Price"),
        (110, 122, "Widget"), (310, 122, "pre-"), (210, 122, "2"),  # "pre-" goes on with "2"
        (110, 142, "Gadget"), (210, 142, "1"), (310, 142, "19.50"),
        (310, 131, "paid"),  # a line below "pre-", in its cell: the cell would read "pre- paid"
    ]  # fmt: skip
    words = [Word((x, y, x + 6 * len(t), y + 10), t, 0, n) for n, (x, y, t) in enumerate(placed)]
    text = "Item Qty Price\nWidget pre- 2\nGadget 1 19.50\npaid"

    table, *after = assemble([(GRID.box, text, 0)], words, [GRID], render)

    assert table.splitlines()[2:] == ["| Widget |  |  |", "| Gadget | 1 | 19.50 |"]
    assert after == ["pre- 2", "paid"]  # "pre- 2" as the text has it, "paid" a word of its own
    assert every_word([table, *after]) == every_word([text])


def test_rows_that_split_a_word_hyphenated_from_one_block_to_the_next_are_joined() -> None:
    """Some producers write each line as a block of its own: the halves of a word hyphenated at a
    line's end are then in two blocks, and still one word of one cell."""
    lines = [
        (102.0, [(110, "Animal"), (210, "Action"), (310, "Result")]),
        (122.0, [(110, "Cat"), (210, "Says"), (310, "Meow")]),
        (142.0, [(110, "Fox"), (210, "Says"), (310, "Wa-pa-")]),
        (152.0, [(310, "pa-pow")]),  # the cell's second line, taken for a row of its own
    ]
    words = [Word(w.box, w.text, int(w.box[1]), w.order) for w in words_of(lines)]  # a block a line
    blocks = [block([w for w in words if w.block == number], number) for number in (102, 122, 142, 152)]
    grid = Grid((100.0, 100.0, 400.0, 165.0), columns=(200.0, 300.0), rows=(120.0, 140.0, 151.0))

    (table,) = assemble(blocks, words, [grid], render)

    assert table.splitlines()[2:] == ["| Cat | Says | Meow |", "| Fox | Says | Wa-pa- pa-pow |"]


def test_pieces_of_paths_that_draw_a_lattice_may_hold_a_ruled_table() -> None:
    rules = [(72, y - 0.25, 272, y + 0.25) for y in (80, 104, 128)]
    rules += [(x - 0.25, 80, x + 0.25, 128) for x in (72, 172, 272)]
    assert may_hold_ruled_table(rules, 1.5)
    assert may_hold_ruled_table([(72, 80, 172, 104), (172, 80, 272, 104), (72, 104, 172, 128)], 1.5)


def test_pieces_of_paths_that_cannot_draw_a_table_are_told_apart_before_the_drawings_are_read() -> None:
    underlines = [(72, y - 0.25, 520, y + 0.25) for y in (80, 200, 320)]
    assert not may_hold_ruled_table(underlines, 1.5)  # nothing stands taller than a rule
    marks = [(72, 80, 75, 83), (76, 80, 79, 83)]  # two small marks on one line, less than 6 pt high
    assert not may_hold_ruled_table(marks, 1.5)


def test_vertical_rules_alone_may_hold_a_table_ruled_between_its_columns_only() -> None:
    bars = [(x - 0.25, 80, x + 0.25, 300) for x in (72, 172, 272)]
    assert may_hold_ruled_table(bars, 1.5)
    assert may_hold_ruled_table([(171.75, 80 + 14 * n, 172.25, 94 + 14 * n) for n in range(4)], 1.5)
    squares = [(72, 80 + 20 * n, 75, 83 + 20 * n) for n in range(5)]  # a column of square bullets
    assert not may_hold_ruled_table(squares, 1.5)


# An `{r|l}` table: a right-aligned column and a left-aligned one, a rule between them and no other.
BESIDE_RULE = [
    (100.0, [(120, "Open"), (150, "terminal"), (210, "Ctrl"), (240, "+"), (252, "T")]),
    (114.0, [(138, "Run"), (162, "a"), (174, "file"), (210, "python3"), (258, "file.py")]),
    (128.0, [(108, "Show"), (138, "the"), (162, "version"), (210, "python3"), (258, "-V")]),
    (142.0, [(144, "Quit"), (210, "exit()")]),
]


def test_a_table_ruled_between_its_two_columns_only_is_a_table_of_its_lines() -> None:
    words = words_of(BESIDE_RULE)
    rule = [(204.0, 100.0 + 14 * n, 114.0 + 14 * n) for n in range(4)]  # drawn a row at a time

    (grid,) = ruled_grids([], rule)
    grid = split_aligned_columns(split_stacked_rows(grid, words), words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines() == [
        "| Open terminal | Ctrl + T |",
        "|---|---|",
        "| Run a file | python3 file.py |",
        "| Show the version | python3 -V |",
        "| Quit | exit() |",
    ]


def test_a_rule_beside_lines_of_prose_or_running_on_past_them_parts_no_table() -> None:
    words = words_of(BESIDE_RULE)
    (longer,) = ruled_grids([], [(204.0, 100.0, 400.0)])  # a margin's rule, running far below
    assert split_stacked_rows(longer, words).columns == ()
    prose = words_of(
        [
            (100.0 + 14 * n, [(72 + 14 * i, word) for i, word in enumerate(PROSE[9 * n : 9 * n + 9])])
            for n in range(4)
        ]
    )
    (between,) = ruled_grids([], [(200.0, 100.0, 152.0)])  # a rule through the middle of the lines
    assert split_stacked_rows(between, prose).columns == ()


def test_a_table_above_a_longer_one_of_other_columns_in_one_run_of_lines_is_found_too() -> None:
    """Two tables one above the other, close enough to be one run of lines: the run's columns are
    those of the longer, lower table (the few lines of the upper one that cross them are let off),
    and the upper table is looked for on its own: it was lost before."""
    upper = [
        (100.0, [(72, "Qualification"), (200, "Cost"), (330, "Duration")]),
        (114.0, [(72, "Certificates"), (200, "2,100"), (330, "3 years")]),
        (128.0, [(72, "Apprenticeship"), (200, "3,500"), (330, "4 years")]),
    ]
    title = (150.0, [(72, "Quarterly"), (132, "figures"), (176, "by"), (194, "region")])
    lower = [
        (168.0 + 14 * n, [(72, f"Q{n}"), (140, f"{n},250,000"), (260, f"{n}.5%"), (380, f"{n}5.0%")])
        for n in range(20)
    ]
    words = words_of([*upper, title, *lower])

    found = aligned_grids(words)

    assert [(grid.box[1], grid.box[3]) for grid in found] == [(100.0, 138.0), (168.0, 444.0)]


def test_rows_under_a_group_label_in_a_column_of_its_own_are_rows_not_text_wrapped() -> None:
    """A label that spans a group of rows stands in the first column of the group's first row only:
    the rows below it, which fill every other column, are rows of their own."""
    groups = [
        ("Public", ["Berkeley", "Davis", "Irvine"], 100.0),
        ("Private", ["Emory", "Tufts", "Tulane"], 134.0),
    ]
    lines = [
        (
            top + 10 * n,
            [*([(72, label)] if n == 0 else []), (120, name), (220, "22"), (300, "1,316"), (380, "9.3%")],
        )
        for label, names, top in groups
        for n, name in enumerate(names)
    ]
    words = words_of(lines)

    (grid,) = aligned_grids(words)

    (table,) = assemble([block(words)], words, [grid], render)
    assert table.splitlines()[2:] == [
        "|  | Davis | 22 | 1,316 | 9.3% |",
        "|  | Irvine | 22 | 1,316 | 9.3% |",
        "| Private | Emory | 22 | 1,316 | 9.3% |",
        "|  | Tufts | 22 | 1,316 | 9.3% |",
        "|  | Tulane | 22 | 1,316 | 9.3% |",
    ]


def test_blocks_side_by_side_above_a_table_in_one_run_of_lines_are_no_table_of_their_own() -> None:
    """An invoice's address blocks and references, side by side above its items: aligned, but most
    of their rows leave a column empty; they stay text."""
    blocks = [
        (100.0, [(72, "Supplier"), (200, "Buyer"), (330, "Invoice")]),
        (114.0, [(72, "Acme"), (102, "GmbH"), (200, "Muster"), (242, "AG")]),
        (128.0, [(330, "Number:"), (378, "KR1234")]),
        (
            142.0,
            [(72, "Main"), (102, "Street"), (200, "Side"), (230, "Road"), (330, "Date:"), (366, "06.10")],
        ),
        (156.0, [(72, "Tax:"), (102, "5133"), (200, "Customer:"), (260, "3394")]),
        (170.0, [(72, "Berlin"), (200, "Essen"), (330, "Page"), (360, "1")]),
        (184.0, [(330, "Delivery:"), (390, "30.09")]),
    ]
    items = [
        (204.0 + 14 * n, [(72, f"Item{n}"), (140, f"{n},250"), (260, f"{n}.5%"), (380, f"{n}5.00")])
        for n in range(20)
    ]
    words = words_of([*blocks, *items])

    found = aligned_grids(words)

    assert [(grid.box[1], grid.box[3]) for grid in found] == [(204.0, 480.0)]


def test_the_edges_of_a_run_taken_out_line_by_line_are_those_sorted_anew_for_each_try() -> None:
    """The sweep keeps a run's edges sorted once and takes out the lines the tries leave above: at
    every try they are the edges of the broken lines below, in order, as if sorted anew."""
    rows = [[(72, "Item"), (200, "Qty"), (320, "Price")], [(72, "Widget"), (200, "2"), (320, "9.99")]]
    lines = grids.visual_lines(words_of([(100.0 + 14 * n, rows[n % 2]) for n in range(8)]))
    sweep = grids._Sweep(lines)
    for start in (0, 1, 3, 6):
        anew = sorted(edge for line in lines[start:] if line.runs >= 2 for edge in line.edges)
        assert sweep.edges(start, len(lines)) == anew
    assert sweep.edges(2, 5) == sorted(edge for line in lines[2:5] for edge in line.edges)


def test_words_of_a_line_come_by_their_left_edge_and_words_at_one_place_in_the_order_given() -> None:
    """Lines are grouped from the words sorted by their vertical centre and left edge; words at the
    same place keep the order they were given in, as a stable sort keeps it."""
    a = Word((50.0, 100.0, 60.0, 110.0), "a", 0, 0)
    b = Word((10.0, 100.0, 20.0, 110.0), "b", 0, 1)
    c = Word((10.0, 100.0, 30.0, 110.0), "c", 0, 2)  # b's centre and left edge
    d = Word((10.0, 130.0, 20.0, 140.0), "d", 0, 3)  # the line below
    lines = grids.visual_lines([d, c, a, b])

    assert [[word.text for word in line.words] for line in lines] == [["c", "b", "a"], ["d"]]
    assert [(line.top, line.bottom, line.height, line.runs) for line in lines] == [
        (100.0, 110.0, 10.0, 2),  # c ends at 30, a starts 20 points further: more than a line's height
        (130.0, 140.0, 10.0, 1),
    ]


def test_a_word_whose_centre_falls_in_a_line_grows_the_line_for_the_words_after_it() -> None:
    tall = Word((10.0, 96.0, 20.0, 116.0), "tall", 0, 0)  # centre 106, in the line of 100-110
    low = Word((30.0, 112.0, 40.0, 120.0), "low", 0, 1)  # centre 116: within the line once tall is in it
    first = Word((50.0, 100.0, 60.0, 110.0), "first", 0, 2)
    lines = grids.visual_lines([first, tall, low])

    assert [[word.text for word in line.words] for line in lines] == [["first", "tall", "low"]]
    assert (lines[0].top, lines[0].bottom) == (96.0, 120.0)


def mupdf_words(lines: Sequence[tuple[float, Sequence[tuple[float, str]]]]) -> list[tuple[object, ...]]:
    """Words as MuPDF's `extractWORDS` gives them, each line at y one line of its own block: (x0, y0,
    x1, y1, text, block, line, word), 10 points high, 6 points a character."""
    return [
        (x, y, x + 6 * len(text), y + 10, text, block, 0, number)
        for block, (y, placed) in enumerate(lines)
        for number, (x, text) in enumerate(placed)
    ]


def test_rows_of_three_pieces_side_by_side_may_hold_a_table_without_rules() -> None:
    rows = [(100 + 14 * i, [(72, "Item"), (200, "Qty"), (300, "Price")]) for i in range(3)]
    assert may_hold_aligned_grid(mupdf_words(rows))


def test_rows_of_two_short_runs_side_by_side_may_hold_a_table_of_two_columns() -> None:
    rows = [(100 + 12 * i, [(200, term), (282, level)]) for i, (term, level) in enumerate(LANGUAGES)]
    assert may_hold_aligned_grid(mupdf_words(rows))
    assert not may_hold_aligned_grid(mupdf_words(rows[:3]))


def test_rows_of_two_runs_hold_a_table_of_two_columns_with_long_cells_only_beside_a_line_under_one() -> None:
    meaning = [
        (282, "spoken"),
        (324, "fluently"),
        (378, "at"),
        (396, "work"),
        (426, "and"),
        (450, "at"),
        (468, "home"),
    ]
    rows = [(100 + 12 * i, [(200, term), *meaning]) for i, (term, _) in enumerate(LANGUAGES)]
    assert not may_hold_aligned_grid(mupdf_words(rows))
    under = [(124, [(282, "and"), (306, "at"), (324, "school")])]
    assert may_hold_aligned_grid(mupdf_words([*rows[:2], *under, *[(y + 12, line) for y, line in rows[2:]]]))


def test_lines_of_prose_or_two_columns_of_it_hold_no_table_without_rules() -> None:
    prose = [(100 + 14 * i, [(72, "the"), (96, "quick"), (132, "brown"), (168, "fox")]) for i in range(12)]
    assert not may_hold_aligned_grid(mupdf_words(prose))
    columns = [(y, [*words, (320, "jumps"), (356, "over")]) for y, words in prose]
    assert not may_hold_aligned_grid(mupdf_words(columns))


def test_rows_of_three_pieces_whose_gaps_do_not_line_up_hold_no_table_without_rules() -> None:
    """Each row has three pieces, but no whitespace is shared by the three rows: no column parts them."""
    rows = [
        (100, [(72, "Item"), (120, "Qty"), (166, "Price")]),
        (114, [(72, "Descriptions"), (230, "Qty"), (280, "Price")]),
        (128, [(72, "Descriptionsandmoretext"), (330, "Qty"), (380, "Price")]),
    ]
    assert not may_hold_aligned_grid(mupdf_words(rows))
    shifted = [
        (y, [(72, "Item"), (200, "Qty"), (300 + 4 * index, "Price")]) for index, (y, _) in enumerate(rows)
    ]
    assert may_hold_aligned_grid(mupdf_words(shifted))  # gaps that overlap in all three rows do


def test_rows_of_cells_too_far_apart_to_be_one_table_hold_no_table_without_rules() -> None:
    rows = [(100 + 40 * i, [(72, "Item"), (200, "Qty"), (300, "Price")]) for i in range(3)]
    assert not may_hold_aligned_grid(mupdf_words(rows))


def test_a_row_counts_its_cells_whether_written_as_one_line_or_a_line_each() -> None:
    """A PDF that writes a row with spaces keeps it one MuPDF line, cut here at its wide gaps; a PDF
    that places each cell gives MuPDF a line a cell, grouped here into the row they share."""
    rows = [(100 + 14 * i, [(72, "Rent"), (200, "1,200.00"), (300, "0.00")]) for i in range(3)]
    one_line = mupdf_words(rows)
    assert may_hold_aligned_grid(one_line)
    a_line_each = [(*word[:5], 0, line, 0) for line, word in enumerate(one_line)]
    assert may_hold_aligned_grid(a_line_each)


def test_a_table_above_a_ruled_one_is_found_though_a_label_beside_the_ruled_one_fits_its_column() -> None:
    """A chart's axis label left of its gridlines (a ruled grid) stands in the table's first column,
    close enough below to be taken for one more row: the table then overlapped the chart and was lost."""
    rows = [(100.0 + 14 * n, [(190, f"0.{n}5"), (250, f"0.{n}4"), (350, f"{n}.33")]) for n in range(6)]
    label = [(195.0, [(185, "0.0035")])]
    chart = Grid((210.0, 190.0, 490.0, 400.0), columns=(270.0, 330.0), rows=(250.0, 300.0))

    (table,) = pdf._aligned_grids(words_of([*rows, *label]), [chart])

    assert table.box[3] < chart.box[1]


# A table ruled between its rows and after its first column only: three columns of marks apart by
# whitespace in its second drawn column.
MARKS = [
    (110.0 + 18 * n, [(106, name), (163, f"9{n}"), (196, f"8{n}"), (230, f"7{n}")])
    for n, name in enumerate(["Tatsuya", "Miyuki", "Masaki", "Honoka"])
]
MARKS_GRID = Grid(
    (100.0, 105.0, 252.0, 177.0),
    columns=(151.0,),
    rows=(126.0, 144.0, 162.0),
    cells=tuple(
        (x0, y0, x1, y0 + 18) for y0 in (105.0, 126.0, 144.0, 162.0) for x0, x1 in ((100, 151), (151, 252))
    ),
)


def test_a_drawn_column_holding_columns_apart_by_whitespace_is_split_into_them() -> None:
    words = words_of(MARKS)

    grid = split_aligned_columns(MARKS_GRID, words)
    (text,) = assemble([block(words)], words, [grid], render)

    assert len(grid.columns) == 3
    assert "| Miyuki | 91 | 81 | 71 |" in text


def test_text_wrapped_in_a_drawn_column_is_not_split() -> None:
    lines = [(110.0 + 12 * n, [(160, "some"), (190, "words"), (226, "wrap")][n % 2 :]) for n in range(6)]
    words = words_of(lines)

    assert split_aligned_columns(MARKS_GRID, words) == MARKS_GRID


# A price list whose column line is drawn over its header only (the header's cells boxed, or shaded);
# below it each row's cell is drawn across that line, a label on its left, a price on its right.
HEADED_GRID = Grid(
    (100.0, 105.0, 252.0, 177.0),
    columns=(151.0, 200.0),
    rows=(126.0, 144.0, 162.0),
    cells=(
        (100.0, 105.0, 151.0, 126.0),
        (151.0, 105.0, 200.0, 126.0),
        (200.0, 105.0, 252.0, 126.0),
        *((x0, y0, x1, y0 + 18) for y0 in (126.0, 144.0, 162.0) for x0, x1 in ((100, 200), (200, 252))),
    ),
)


def test_a_column_line_drawn_over_the_header_only_parts_rows_whose_words_stand_a_gap_apart_there() -> None:
    rows = [
        (130.0 + 18 * n, [(106, name), (163, f"9{n}"), (206, f"{n}")])
        for n, name in enumerate(["Hands", "Feet", "Toes"])
    ]
    words = words_of([(110.0, [(106, "Item"), (160, "Set"), (206, "Off")]), *rows])

    grid = split_aligned_columns(HEADED_GRID, words)
    (text,) = assemble([block(words)], words, [grid], render)

    assert "| Feet | 91 | 1 |" in text


def test_a_phrase_across_a_column_line_drawn_over_the_header_only_stays_one_cell() -> None:
    rows = [(130.0 + 18 * n, [(106, "Balance"), (154, "carried"), (206, f"{n}")]) for n in range(3)]
    words = words_of([(110.0, [(106, "Item"), (160, "Set"), (206, "Off")]), *rows])

    assert split_aligned_columns(HEADED_GRID, words) == HEADED_GRID


# A box of sums: three header boxes drawn over one row of amounts with no line between them.
SUMS_GRID = Grid(
    (100.0, 105.0, 400.0, 150.0),
    columns=(200.0, 300.0),
    rows=(126.0,),
    cells=((100.0, 105.0, 200.0, 126.0), (200.0, 105.0, 300.0, 126.0), (300.0, 105.0, 400.0, 126.0),
           (100.0, 126.0, 400.0, 150.0)),
)  # fmt: skip


def test_one_row_under_header_boxes_is_parted_at_their_lines_where_its_words_stand_a_gap_apart() -> None:
    words = words_of([(110.0, [(106, "Base:"), (206, "Tax:"), (306, "Total:")]),
                      (132.0, [(106, "$200.00"), (206, "$42.20"), (306, "$242.20")])])  # fmt: skip

    grid = split_aligned_columns(SUMS_GRID, words)
    (text,) = assemble([block(words)], words, [grid], render)

    assert "| $200.00 | $42.20 | $242.20 |" in text


def test_one_row_under_header_boxes_holding_a_phrase_across_their_lines_stays_one_cell() -> None:
    phrase = [(106, "Payable"), (154, "within"), (196, "thirty"), (238, "days")]
    words = words_of([(110.0, [(106, "Base:"), (206, "Tax:"), (306, "Total:")]), (132.0, phrase)])

    assert split_aligned_columns(SUMS_GRID, words) == SUMS_GRID


# A spreadsheet printed with borders around its numbers only: row labels left of the ruled box, column
# headers above it.
BORDERED = Grid((200.0, 100.0, 400.0, 160.0), columns=(300.0,), rows=(120.0, 140.0))
BORDERED_NUMBERS = [
    (105.0, [(220, "10"), (320, "20")]),
    (125.0, [(220, "11"), (320, "21")]),
    (145.0, [(220, "12"), (320, "22")]),
]


def test_row_labels_printed_left_of_a_ruled_grid_are_its_first_column() -> None:
    words = words_of(
        [*BORDERED_NUMBERS, (105.0, [(50, "Rent")]), (125.0, [(50, "Food")]), (145.0, [(50, "Total")])]
    )

    grid = with_labels_outside(BORDERED, words, [BORDERED])
    (text,) = assemble([block(words)], words, [grid], render)

    assert grid.box[0] == 50 and grid.columns == (200.0, 300.0)
    assert "| Food | 11 | 21 |" in text


def test_column_headers_printed_right_above_a_ruled_grid_are_its_first_row() -> None:
    words = words_of([(89.0, [(220, "2024"), (320, "2025")]), *BORDERED_NUMBERS])

    grid = with_labels_outside(BORDERED, words, [BORDERED])
    (text,) = assemble([block(words)], words, [grid], render)

    assert grid.rows == (100.0, 120.0, 140.0)
    assert text.startswith("| 2024 | 2025 |")


def test_an_address_beside_a_ruled_box_whose_lines_cross_its_rows_stays_text() -> None:
    address = [(102.0 + 13 * n, [(50, line)]) for n, line in enumerate(["Jane", "1 Road", "Town", "Land"])]
    words = words_of([*BORDERED_NUMBERS, *address])

    assert with_labels_outside(BORDERED, words, [BORDERED]) == BORDERED


def test_a_title_above_a_ruled_grid_or_labels_in_another_grid_are_not_its_labels() -> None:
    other = Grid((40.0, 100.0, 120.0, 160.0), columns=(80.0,), rows=(120.0, 140.0))
    labels = [(105.0, [(50, "Rent")]), (125.0, [(50, "Food")]), (145.0, [(50, "Total")])]
    words = words_of([(89.0, [(230, "Budget")]), *BORDERED_NUMBERS, *labels])

    assert with_labels_outside(BORDERED, words, [BORDERED, other]) == BORDERED


def test_a_table_below_another_in_one_run_of_lines_takes_the_narrow_columns_its_own_rows_share() -> None:
    """A wide table, a title, then a table whose first two columns stand 8 points apart (under a line
    height, over a word space): the first table's words cross that gap, the second's rows all leave it."""
    wide = [(72, "Qualification"), (200, "UK"), (300, "India"), (400, "Years")]
    above = [(100.0 + 15 * n, wide) for n in range(3)]
    title = [(145.0, [(72, "Financial"), (150, "summary"), (198, "of"), (216, "the"), (240, "year")])]
    rows = [("Q1", "1,250"), ("Q2", "1,380"), ("Q3", "1,520"), ("Q4", "1,680")]
    below = [
        (160.0 + 15 * n, [(72, q), (87, "2024"), (119, amount), (200, "12.5%"), (300, "15.0%"), (400, "x")])
        for n, (q, amount) in enumerate(rows)
    ]
    prose = [
        (235.0, [(72, "Every"), (108, "amount"), (150, "is"), (168, "in"), (186, "euros"), (222, "here")])
    ]
    words = words_of([*above, *title, *below, *prose])

    found = aligned_grids(words)

    table = next(grid for grid in found if grid.holds(next(w for w in words if w.text == "Q1")))
    assert any(111 < x < 119 for x in table.columns)  # between "2024" and the amount


def test_a_drawn_cell_spanning_rows_with_a_line_level_with_each_is_cut_at_the_rows() -> None:
    """A workbook's merged cell of labels beside a column of amounts, each label on its amount's line."""
    labels = [
        (104.0, "Mandate reserve", "533.85"),
        (124.0, "Loan repayment", "40.29"),
        (144.0, "Book fund", "5.00"),
    ]
    words = words_of([(y, [(110, label), (310, amount)]) for y, label, amount in labels])
    cells = ((100.0, 100.0, 300.0, 160.0), (300.0, 100.0, 400.0, 120.0), (300.0, 120.0, 400.0, 140.0))
    grid = Grid(
        (100.0, 100.0, 400.0, 160.0), (300.0,), (120.0, 140.0), (*cells, (300.0, 140.0, 400.0, 160.0))
    )

    (table,) = assemble([block(words)], words, [split_stacked_rows(grid, words)], render)

    assert table.splitlines()[2:] == ["| Loan repayment | 40.29 |", "| Book fund | 5.00 |"]


def test_a_drawn_cell_spanning_rows_whose_lines_stand_apart_from_them_stays_one_cell() -> None:
    """A label wrapped over three lines, centred in its span: its lines are not level with the rows."""
    words = words_of([(108.0, [(110, "Reserves")]), (126.0, [(110, "and")]), (144.0, [(110, "loans")])])
    words += words_of([(102.0, [(310, "1.00")]), (122.0, [(310, "2.00")]), (142.0, [(310, "3.00")])])
    cells = ((100.0, 100.0, 300.0, 160.0), (300.0, 100.0, 400.0, 120.0), (300.0, 120.0, 400.0, 140.0))
    grid = Grid(
        (100.0, 100.0, 400.0, 160.0), (300.0,), (120.0, 140.0), (*cells, (300.0, 140.0, 400.0, 160.0))
    )

    assert split_stacked_rows(grid, words) == grid


def test_a_drawn_cell_of_two_lines_level_with_two_rows_stays_one_cell() -> None:
    """A header's cell over two header rows ("11/12" above "(a)"): two lines may be one label wrapped."""
    words = words_of([(104.0, [(110, "11/12"), (310, "12/13")]), (124.0, [(110, "(a)"), (310, "(b)")])])
    cells = ((100.0, 100.0, 300.0, 140.0), (300.0, 100.0, 400.0, 120.0), (300.0, 120.0, 400.0, 140.0))
    grid = Grid((100.0, 100.0, 400.0, 140.0), (300.0,), (120.0,), cells)

    assert split_stacked_rows(grid, words) == grid


def test_a_line_of_values_above_a_table_is_no_heading_over_its_columns_however_it_spans_them() -> None:
    """The last row of a table set right above another, its long name across a column line of the
    table below: a line with a number is a row of values, not a header line stacked over the table;
    the same line of words only is one (its name a heading over the two columns it spans)."""
    edges = (72.0, 100.0, 160.0, 220.0, 300.0)
    row = [(72.0, "8"), (110.0, "Lake"), (140.0, "College"), (230.0, "5702.42")]
    heading = [(72.0, "Rank"), (110.0, "Lake"), (140.0, "College"), (230.0, "Residual")]

    assert grids._over_columns(grids.visual_lines(words_of([(100.0, row)]))[0], edges) is None
    assert grids._over_columns(grids.visual_lines(words_of([(100.0, heading)]))[0], edges) == 1


def entry(x: float, term: str, page: int) -> list[tuple[float, str]]:
    """An index entry at x: its term and its page, a word space after it."""
    return [(x, f"{term},"), (x + 6 * len(term) + 12, str(page))]


def test_a_running_head_rule_a_title_rule_and_a_footer_rule_frame_no_index_page() -> None:
    """Rules across a whole page (under its running head, under its title, above its footer) stand
    of one span, two a header apart, but run on far beyond the lines between them: an index of two
    columns of entries, each a term and its pages, is prose set in columns, no table."""
    rules = [(y, 72.0, 540.0) for y in (60.0, 96.0, 760.0)]
    terms = ["e" * (3 + n * 7 % 11) for n in range(32)]  # of lengths in no order
    entries = [
        (110.0 + 14 * n, [*entry(72, terms[n], n + 3), *entry(320, terms[n + 2], n + 40)]) for n in range(30)
    ]
    words = words_of([(66.0, [(72, "Index")]), *entries])

    (frame,) = ruled_grids(rules, [])

    assert split_stacked_rows(frame, words).box == (0.0, 0.0, 0.0, 0.0)


def test_a_table_across_the_page_right_under_two_columns_of_prose_keeps_its_labels() -> None:
    """Its rows' labels, left of the page's gutter, are each one run of words, as a line of text
    in the left column is; beside them, right of the gutter, stand several cells, as no line of
    text does: the table ends the two columns of prose and is found whole."""
    prose = []
    for n in range(8):
        y, left = prose_line(100.0 + 14 * n, 72, 220, 5 * n)
        _, right = prose_line(y, 320, 220, 7 * n + 3)
        prose.append((y, left + right))
    labels = [("Net", "income"), ("Total", "revenue"), ("Operating", "costs"), ("Net", "assets")]
    table = [
        (
            216.0 + 14 * n,
            [(72, first), (75 + 6 * len(first), second), (360, f"{n}2"), (430, f"{n}.5"), (500, f"1{n}")],
        )
        for n, (first, second) in enumerate(labels)
    ]

    (grid,) = aligned_grids(words_of([*prose, *table]))

    assert grid.box[0] == 72 and grid.box[1] == 216.0 and len(grid.columns) == 3 and len(grid.rows) == 3


def _macros(
    top: float, names: Sequence[str], shift: float = 0.0
) -> list[tuple[float, list[tuple[float, str]]]]:
    """A table of macros of three columns from `top`: its header, then a line for each, 12 points
    apart; its second and third columns `shift` points right of where they stand by default."""
    xs = (120.0, 200.0 + shift, 280.0 + shift)
    lines = [(top + 4, list(zip(xs, ("Name", "Arguments", "Meaning"), strict=True)))]
    for n, name in enumerate(names):
        lines.append((top + 20 + 12 * n, list(zip(xs, (name, "(x)", f"Does {name}"), strict=True))))
    return lines


def test_two_rules_a_header_apart_with_none_below_open_a_table_that_ends_at_its_last_row() -> None:
    """A table whose rules are only the one above its header and the one under it (no rule below its
    rows), a heading and a second table so drawn close under it: each pair of rules frames its own
    table of three columns, from its header to its last row; the heading between them (set at the
    margin, left of the rules) is neither's.
    """
    rules = [(100.0, 110.0, 400.0), (116.0, 110.0, 400.0), (196.0, 104.0, 430.0), (212.0, 104.0, 430.0)]
    first, second = ["alpha", "beta", "gamma", "delta"], ["one", "two", "three"]
    words = words_of([*_macros(100.0, first), (180.0, [(90.0, "Next")]), *_macros(196.0, second, 20.0)])

    frames = ruled_grids(rules, [])
    grids = [split_aligned_columns(split_stacked_rows(frame, words), words) for frame in frames]

    assert [frame.box[3] for frame in frames] == [float("inf")] * 2
    assert [(grid.box[1], grid.box[3], len(grid.columns), len(grid.rows)) for grid in grids] == [
        (104.0, 166.0, 2, 4),
        (200.0, 250.0, 2, 3),
    ]
    texts = assemble([block(words)], words, grids, render)
    tables = [text for text in texts if text.startswith("|")]
    assert [table.splitlines()[2] for table in tables] == [
        "| alpha | (x) | Does alpha |",
        "| one | (x) | Does one |",
    ]
    assert "Next" in texts and every_word(texts) == every_word([word.text for word in words])


def test_two_rules_a_header_apart_may_frame_a_table_one_rule_or_two_far_apart_do_not() -> None:
    assert may_hold_ruled_table([(110, y - 0.25, 290, y + 0.25) for y in (100.0, 116.0)], 1.5)
    assert not may_hold_ruled_table([(110, 99.75, 290, 100.25)], 1.5)
    assert not may_hold_ruled_table([(110, y - 0.25, 290, y + 0.25) for y in (100.0, 178.0)], 1.5)


def test_two_rules_a_header_apart_over_prose_open_no_table() -> None:
    (frame,) = ruled_grids([(100.0, 110.0, 400.0), (116.0, 110.0, 400.0)], [])
    prose = words_of([prose_line(104.0 + 12 * n, 112, 136, 6 * n) for n in range(6)])

    assert split_stacked_rows(frame, prose).box == (0.0, 0.0, 0.0, 0.0)


def test_a_framed_column_that_holds_two_columns_under_a_spanning_header_is_left_to_the_pages_search() -> None:
    rows = [(110.0, [(100, "Line"), (160, "a1"), (220, "b1"), (300, "c1")])]
    rows += [
        (110.0 + 14 * n, [(100, "Line"), (160, f"a{n}"), (220, f"b{n}"), (300, f"c{n}")]) for n in range(1, 6)
    ]
    header = (96.0, [(100, "Name"), (170, "Pair"), (300, "Other")])
    lines = grids.visual_lines(words_of([header, *rows[1:]]))
    grid = Grid(
        (100.0, 96.0, 312.0, 190.0), columns=(150.0, 280.0), rows=tuple(104.0 + 14 * n for n in range(1, 6))
    )

    assert grids._hidden_columns(grid, lines[1:])
    assert grids._framed([grid], lines, opened=True) == grids._NO_TABLE


def test_a_framed_column_of_one_phrase_a_row_hides_no_column() -> None:
    phrases = ["red wine", "a glass of water", "tea", "black coffee", "milk"]
    rows = []
    for n, phrase in enumerate(phrases):
        placed, x = [(100.0, "Item")], 160.0
        for word in phrase.split():  # a word space of 4 points between words
            placed.append((x, word))
            x += 6 * len(word) + 4
        rows.append((110.0 + 14 * n, [*placed, (300.0, f"c{n}")]))
    header = (96.0, [(100, "Name"), (170, "Drink"), (300, "Other")])
    lines = grids.visual_lines(words_of([header, *rows]))
    grid = Grid(
        (100.0, 96.0, 312.0, 176.0), columns=(150.0, 280.0), rows=tuple(104.0 + 14 * n for n in range(1, 6))
    )

    assert not grids._hidden_columns(grid, lines[1:])
    assert grids._framed([grid], lines, opened=True) == grid


def test_a_block_is_spelled_by_its_words_as_a_multiset_with_or_without_control_characters() -> None:
    words = words_of([(100, [(10, "Total"), (60, "12"), (90, "12")])])

    assert grids._spelled_by(words, ["12 Total", "12"])
    assert not grids._spelled_by(words, ["Total 12"])  # a word the text holds once is no repeat
    assert not grids._spelled_by(words, ["Total 12 12 EUR"])  # a word of the text no word holds
    assert grids._spelled_by(words, ["Total \x02 12 12"])  # but for a run of control characters
    assert grids._unprinted(words, ["Total \x02 12 12"]) == ["\x02"]
    assert grids._unprinted(words, ["Total 12 12"]) == []


def test_a_cells_words_of_one_line_written_out_of_order_come_left_to_right() -> None:
    """The producer wrote a cell's line in pieces: the title, then the date printed far right, then
    "Nr. 471102 vom" between them. The cell reads as printed; a cell of two lines keeps the order given
    (though its lines' boxes overlap), and so does one of right-to-left words."""
    grid = Grid((100.0, 100.0, 500.0, 160.0), columns=(300.0,), rows=(120.0, 140.0))
    placed = [
        (102.0, 110, "Rechnung"),
        (102.0, 250, "05.03.2018"),
        (102.0, 165, "Nr."),
        (102.0, 185, "471102"),
        (102.0, 225, "vom"),
        (102.0, 310, "EUR"),
        (122.0, 110, "Währung:"),
        (122.0, 350, "Euro"),
        (129.0, 310, "later"),  # a line under it, its box over the line above's: two lines, as given
        (142.0, 140, "שנה"),  # read right to left: the right one first
        (142.0, 110, "סך"),
        (142.0, 310, "end"),
    ]
    words = [
        Word((x, y, x + 6 * len(text), y + 10), text, 0, order) for order, (y, x, text) in enumerate(placed)
    ]
    text = " ".join(text for _, _, text in placed)

    (table,) = assemble([(grid.box, text, 0)], words, [grid], render)

    assert table.splitlines()[0] == "| Rechnung Nr. 471102 vom 05.03.2018 | EUR |"
    assert table.splitlines()[2] == "| Währung: | Euro later |"
    assert table.splitlines()[-1] == "| שנה סך | end |"


def test_a_column_line_does_not_part_a_header_wider_than_its_column_of_short_cells() -> None:
    """ "Equivalent code" heads a column of short cells ("\\ho", "\\s", ...): the column line drawn in
    the middle of the range those cells leave falls into the space between "Equivalent" and "code"
    (the header, one line of seven, may cross it); it goes to the range after "code" that no word
    crosses, and the header stays one cell. The words stand as a manual typeset them."""
    header = [(161.0, 182.5, "Unit"), (235.5, 286.3, "Equivalent"), (289.9, 311.5, "code")]
    placed = [(151.5, [*header, (323.4, 385.6, "Visualization")])]
    units = [
        ("hours", "ho", "h"),
        ("seconds", "s", "s"),
        ("milliseconds", "ms", "ms"),
        ("microseconds", "us", "us"),
    ]
    units += [("nanoseconds", "ns", "ns"), ("picoseconds", "ps", "ps")]
    for n, (unit, code, shown) in enumerate(units):
        y = 170.5 + 13.6 * n
        cells = [(161.0, 161.0 + 5.2 * len(unit), unit), (235.5, 235.5 + 5.8 * (len(code) + 1), "\\" + code)]
        placed.append((y, [*cells, (325.2, 325.2 + 5.2 * len(shown), shown)]))
    words = [
        Word((x0, y, x1, y + 10.9), text, 0, order)
        for order, (y, x0, x1, text) in enumerate(
            (y, x0, x1, text) for y, line in placed for x0, x1, text in line
        )
    ]

    (grid,) = aligned_grids(words)
    (table,) = assemble([(grid.box, " ".join(w.text for w in words), 0)], words, [grid], render)

    assert table.splitlines()[0] == "| Unit | Equivalent code | Visualization |"


COURTS = [
    ("Conseil constitutionnel", "cc"),
    ("Cour de cassation (générique)", "cass"),
    ("Cour de cassation en assemblée plénière", "cassass"),
    ("Chambre criminelle", "casscrim"),
    ("Tribunal de grande instance", "tgi"),
]


def terms_and_keys(rows: Sequence[tuple[str, str]], header: tuple[str, str] | None = None) -> list[Word]:
    """Rows of a term of several words at x 100 and its key at x 400, 12 points apart; a header row over
    them whose second cell starts 6 points left of the keys, as a centred heading does."""
    lines = []
    if header is not None:
        lines.append((88.0, [(100.0, word) for word in header[0].split()[:1]] + [(394.0, header[1])]))
    for n, (term, key) in enumerate(rows):
        placed, x = [], 100.0
        for word in term.split():
            placed.append((x, word))
            x += 6 * len(word) + 3
        x = 400.0
        for word in key.split():
            placed.append((x, word))
            x += 6 * len(word) + 3
        lines.append((100.0 + 12 * n, placed))
    return words_of(lines)


def test_long_terms_beside_one_word_keys_under_a_header_apart_from_its_column_are_one_table() -> None:
    words = terms_and_keys(COURTS, ("Juridiction", "mot-clé"))

    (grid,) = aligned_grids(words)
    (table,) = assemble([block(words)], words, [grid], render)

    assert table.splitlines() == [
        "| Juridiction | mot-clé |",
        "|---|---|",
        "| Conseil constitutionnel | cc |",
        "| Cour de cassation (générique) | cass |",
        "| Cour de cassation en assemblée plénière | cassass |",
        "| Chambre criminelle | casscrim |",
        "| Tribunal de grande instance | tgi |",
    ]


def test_long_terms_beside_meanings_of_several_words_are_lines_of_prose_not_a_table() -> None:
    rows = [(term, "taken as a whole") for term, _ in COURTS if len(term.split()) >= 4]
    rows += [("Cour des comptes et de discipline", "read as a line")] * 2

    assert aligned_grids(terms_and_keys(rows)) == []


def test_short_rows_stay_a_table_when_long_terms_close_to_their_keys_leave_the_whole_run_none() -> None:
    short = [("Values", "Supports"), ("Text", "Supports"), ("Labels", "None"), ("Parents", "None")]
    lines = [(100.0 + 12 * n, [(100.0, term), (400.0, key)]) for n, (term, key) in enumerate(short)]
    for n in range(len(short), len(short) + 5):  # terms of five words reaching up to the keys' column
        words = [(190.0, "Use"), (214.0, "of"), (232.0, "assistive"), (292.0, "technology"), (358.0, "here")]
        lines.append((100.0 + 12 * n, [*words, (400.0, "None")]))
    found = aligned_grids(words_of(lines))

    assert [grid.box for grid in found if grid.box[0] == 100.0] == [
        (100.0, 100.0, 448.0, 146.0)
    ]  # the short rows


@pytest.mark.parametrize(
    ("term", "key", "table"),
    [
        ("one two three four five six seven eight", "key", True),  # _LONG_TERM words beside one
        ("one two three four five six seven eight nine", "key", False),  # one word more: prose
        ("one two three four", "two words", False),  # a key of _SHORT_SECOND + 1 words: prose
    ],
)
def test_a_long_terms_row_is_a_tables_up_to_its_limits(term: str, key: str, table: bool) -> None:
    rows = [("Alpha", "aa"), ("Beta", "bb"), (term, key), ("Gamma", "cc"), ("Delta", "dd")]
    found = aligned_grids(terms_and_keys(rows))
    whole = [grid for grid in found if grid.box[1] <= 100.0 and grid.box[3] >= 100.0 + 12 * 4]
    assert bool(whole) == table
