"""Glyphs on both sides of a vertical rule (a frame's edge, a table's column rule) are two words, though
the text layer read without the page's drawings writes them with no space between: in the engine's text
and in the real-document bench's raw reference alike."""

from __future__ import annotations

from typing import Any

import pymupdf
import pytest
from docsvc.documents import engine
from docsvc.documents.engine import pdf

from bench.real_documents import rules_apart_pages


def framed_after_an_arrow(rule: bool) -> bytes:
    """A line "Total", underlined, then "=>" and a word a point after it (too close for MuPDF to write
    a space), with a vertical rule drawn between the two when `rule`: as a frame drawn around a word
    right after an arrow. The underline makes MuPDF, asked for paths, cut the line after "Total"."""
    font = pymupdf.Font("helv")
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        x = 50.0
        page.insert_text((x, 100), "Total", fontsize=12)
        x += font.text_length("Total", 12) + 1
        page.draw_line((50, 102), (x - 1, 102), width=0.4)
        page.insert_text((x, 100), "=>", fontsize=12)
        x += font.text_length("=>", 12)
        if rule:
            page.draw_line((x + 0.5, 88), (x + 0.5, 104), width=0.4)
        page.insert_text((x + 1, 100), "EI", fontsize=12)
        return document.tobytes()


def engine_text(content: bytes) -> str:
    return "\n\n".join(page.text for page in engine.parse_pages(content, "pdf", engine.ParseOptions()))


def raw_text(content: bytes) -> list[str]:
    with pymupdf.open(stream=content) as document:
        return [page.get_text() for page in document]


def test_a_line_made_one_again_after_a_cut_keeps_glyphs_a_rule_stands_between_apart() -> None:
    content = framed_after_an_arrow(rule=True)
    assert raw_text(content)[0].split() == ["Total=>EI"]  # the text layer without drawings: one word

    assert engine_text(content).split() == ["Total=>", "EI"]


def test_a_line_made_one_again_without_a_rule_in_it_keeps_its_words_as_the_text_layer_has_them() -> None:
    assert engine_text(framed_after_an_arrow(rule=False)).split() == ["Total=>EI"]


def test_raw_words_glued_across_a_vertical_rule_are_apart() -> None:
    content = framed_after_an_arrow(rule=True)
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == ["Total=>", "EI"]


def test_raw_words_without_a_rule_between_their_glyphs_stay_whole() -> None:
    content = framed_after_an_arrow(rule=False)
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == ["Total=>EI"]


def _a_rule_across_a_word() -> bytes:
    """A page whose word "Number" has a rule drawn across it, between two glyphs that touch: a form's
    line or a plot's axis drawn through a word, where no reader sees two words."""
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.insert_text((50, 100), "Number", fontsize=12)
        x = 50 + pymupdf.Font("helv").text_length("Num", 12)
        page.draw_line((x, 88), (x, 104), width=0.4)
        return document.tobytes()


def test_raw_words_whose_glyphs_touch_stay_whole_though_a_rule_is_drawn_across_them() -> None:
    content = _a_rule_across_a_word()
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == ["Number"]


def ruled_table(rule_between: bool, one_path: bool = False) -> bytes:
    """A ruled table of two rows and two columns, its first column's words ending half a point before the
    column rule and its second's starting half a point after it (too close for MuPDF to write a space), the
    column rule left out when not `rule_between` (the cells' gap then as the text layer has it); the
    grid drawn as one path when `one_path`."""
    font = pymupdf.Font("helv")
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        left, top, height = 40.0, 60.0, 20.0
        split = left + 4 + max(font.text_length(label, 12) for label in ("Code", "Name"))
        for row, (label, value) in enumerate((("Code", "Alpha"), ("Name", "Beta"))):
            y = top + row * height
            page.insert_text((split - 0.5 - font.text_length(label, 12), y + 15), label, fontsize=12)
            page.insert_text((split + 0.5, y + 15), value, fontsize=12)
        shape = page.new_shape()
        for row in range(3):
            shape.draw_line((left, top + row * height), (220, top + row * height))
            if not one_path:
                shape.finish(width=0.5)
        for x in (left, split, 220) if rule_between else (left, 220):
            shape.draw_line((x, top), (x, top + 2 * height))
            if not one_path:
                shape.finish(width=0.5)
        if one_path:
            shape.finish(width=0.5)
        shape.commit()
        return document.tobytes()


def test_a_table_cells_words_on_both_sides_of_its_column_rule_are_apart() -> None:
    content = ruled_table(rule_between=True)
    assert "CodeAlpha" in raw_text(content)[0].split()  # the text layer: one word across the rule

    words = engine_text(content).replace("|", " ").split()
    assert "CodeAlpha" not in words and "NameBeta" not in words
    assert {"Code", "Alpha", "Name", "Beta"} <= set(words)


def test_words_without_a_rule_between_their_glyphs_stay_as_the_text_layer_has_them() -> None:
    words = engine_text(ruled_table(rule_between=False)).replace("|", " ").split()
    assert "CodeAlpha" in words and "NameBeta" in words


def test_raw_words_glued_across_a_rule_of_a_grid_drawn_as_one_path_are_apart() -> None:
    # a grid's rules drawn as one path: the page's drawing log holds one wide box, no narrow rule
    content = ruled_table(rule_between=True, one_path=True)
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == [
        "Code",
        "Alpha",
        "Name",
        "Beta",
    ]


def test_a_word_whose_glyphs_touch_stays_whole_though_a_rule_is_drawn_across_it() -> None:
    assert engine_text(_a_rule_across_a_word()).split() == ["Number"]


def _characters_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines of every dict of characters the engine makes from now on, as their text."""
    read: list[str] = []
    original = pymupdf.TextPage.extractRAWDICT

    def recorded(textpage: pymupdf.TextPage, *args: object, **kwargs: object) -> dict[str, Any]:
        made = original(textpage, *args, **kwargs)
        for block in made["blocks"]:
            for line in block.get("lines", ()):
                read.append("".join(char["c"] for span in line["spans"] for char in span["chars"]))
        return made

    monkeypatch.setattr(pymupdf.TextPage, "extractRAWDICT", recorded)
    return read


def _page_text(content: bytes) -> str:
    with pymupdf.open(stream=content, filetype="pdf") as document:
        return pdf._page_text(document[0], False, engine.ParseOptions(), [])[0]


def test_a_rule_beside_the_text_crossing_no_block_reads_no_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.insert_text((50, 100), "Total=>EI", fontsize=12)
        page.draw_line((30, 60), (30, 140), width=0.4)  # a margin's rule, left of the line
        content = document.tobytes()
    read = _characters_read(monkeypatch)

    assert _page_text(content).split() == ["Total=>EI"]
    assert read == []


def test_words_across_a_rule_are_set_apart_from_the_characters_of_the_blocks_it_crosses_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pymupdf.open(stream=ruled_table(rule_between=True)) as document:
        document[0].insert_text((40, 180), "A paragraph far below the table", fontsize=12)
        content = document.tobytes()
    read = _characters_read(monkeypatch)

    words = _page_text(content).replace("|", " ").split()
    assert {"Code", "Alpha", "Name", "Beta"} <= set(words) and "CodeAlpha" not in words
    assert read and not any("paragraph" in line for line in read)


def test_a_block_is_crossed_by_a_rule_wherever_that_rule_stands_among_the_page_rules() -> None:
    listed = [(100.0, 90.0, 200.0, 110.0, "Total=>EI", 0, 0), (10.0, 90.0, 60.0, 110.0, "Left", 1, 0)]
    rules = [(400.0, 0.0, 401.0, 300.0), (150.0, 85.0, 151.0, 115.0), (float("nan"), 0.0, 0.0, 300.0)]

    crossed = pdf._crossed_blocks(rules, listed, pymupdf.Rect(0, 0, 500, 300))

    assert crossed is not None and crossed.x0 < 100 < 200 < crossed.x1
    assert pdf._crossed_blocks(rules[:1], listed, pymupdf.Rect(0, 0, 500, 300)) is None


def test_a_word_is_weighed_glyph_by_glyph_only_when_a_rule_stands_within_it() -> None:
    glyphs = [("a", 10.0, 16.0, 12.0), ("b", 16.5, 22.0, 12.0), ("c", 22.5, 28.0, 12.0)]

    assert pdf._rule_within(glyphs, [16.2])
    assert not pdf._rule_within(glyphs, [5.0, 30.0])
    assert pdf._rule_within([("a", float("nan"), 16.0, 12.0), *glyphs[1:]], [40.0])


def _cell_run_on_over_its_rule(rule: bool) -> bytes:
    """A table's row whose first cell, "systemd-bootchart" in a typewriter font, runs on over its
    column's rule (drawn when `rule`) and the next cell's "V:0, I:1" starts 0.8 points after its end, too
    close for MuPDF to write a space: as the Debian Reference prints a package's name and its figures."""
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.insert_text((50, 100), "systemd-bootchart", fontsize=10, fontname="cour")
        end = 50 + pymupdf.Font("cour").text_length("systemd-bootchart", 10)
        page.draw_line((40, 88), (40, 104), width=0.4)
        if rule:
            page.draw_line((end - 3, 88), (end - 3, 104), width=0.4)
        page.insert_text((end + 0.8, 100), "V:0, I:1", fontsize=10, fontname="helv")
        return document.tobytes()


def test_a_cells_text_run_on_over_its_column_rule_is_apart_from_the_next_cells_in_raw_words() -> None:
    content = _cell_run_on_over_its_rule(rule=True)
    assert raw_text(content)[0].split() == ["systemd-bootchartV:0,", "I:1"]
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == [
        "systemd-bootchart",
        "V:0,",
        "I:1",
    ]


def test_text_run_on_with_no_rule_across_it_stays_as_raw_writes_it() -> None:
    content = _cell_run_on_over_its_rule(rule=False)
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == ["systemd-bootchartV:0,", "I:1"]


def _cell_run_on_in_one_font(step: float, next_row: bool = True) -> bytes:
    """A header row whose cell "tamanho" runs on over its column's rule and the next cell's "initrd"
    starts `step` points off its last glyph (drawn back over it when negative), both in one serif font,
    the next cell's text 0.6 of the font size right of the rule where the column's next row starts too:
    as DBLaTeX prints a table."""
    font = pymupdf.Font("tiro")
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.insert_text((50, 100), "tamanho", fontsize=10, fontname="tiro")
        end = 50 + font.text_length("tamanho", 10)
        page.draw_line((40, 88), (40, 104), width=0.4)
        page.draw_line((end + step - 6, 88), (end + step - 6, 104), width=0.4)
        page.insert_text((end + step, 100), "initrd", fontsize=10, fontname="tiro")
        if next_row:
            page.insert_text((end + step, 130), "initramfs-tools", fontsize=10, fontname="tiro")
        return document.tobytes()


@pytest.mark.parametrize("step", [0.2, -0.5])
def test_the_next_cells_text_a_little_off_or_back_over_a_run_on_cell_in_one_font_is_apart(
    step: float,
) -> None:
    content = _cell_run_on_in_one_font(step)
    assert raw_text(content)[0].split() == ["tamanhoinitrd", "initramfs-tools"]
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == [
        "tamanho",
        "initrd",
        "initramfs-tools",
    ]


@pytest.mark.parametrize("step", [0.0, 0.05])  # within 1% of the font size of their advances
def test_glyphs_following_at_their_advances_over_a_rule_stay_one_word(step: float) -> None:
    content = _cell_run_on_in_one_font(step)
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == [
        "tamanhoinitrd",
        "initramfs-tools",
    ]


def test_a_word_a_little_off_its_advance_past_a_rule_where_no_line_starts_stays_whole() -> None:
    content = _cell_run_on_in_one_font(0.2, next_row=False)
    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == ["tamanhoinitrd"]
