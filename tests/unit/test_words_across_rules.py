"""Glyphs on both sides of a vertical rule (a frame's edge, a table's column rule) are two words, though
the text layer read without the page's drawings writes them with no space between: in the engine's text
and in the real-document bench's raw reference alike."""

from __future__ import annotations

import pymupdf
from docsvc.documents import engine

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


def test_raw_words_whose_glyphs_touch_stay_whole_though_a_rule_is_drawn_across_them() -> None:
    # a form's line or a plot's axis drawn through a word: no reader sees two words there
    with pymupdf.open() as document:
        page = document.new_page(width=300, height=200)
        page.insert_text((50, 100), "Number", fontsize=12)
        x = 50 + pymupdf.Font("helv").text_length("Num", 12)
        page.draw_line((x, 88), (x, 104), width=0.4)
        content = document.tobytes()

    assert rules_apart_pages(content, "pdf", raw_text(content))[0].split() == ["Number"]
