"""What a page's reading passes read, and how the reading children spend their time on it."""

from __future__ import annotations

import gc

import pymupdf
import pytest
from docsvc.documents import engine
from docsvc.documents.engine import isolation, pdf
from docsvc.documents.engine.model import ParseOptions
from docsvc.documents.engine.textlayer import UNMAPPED

from tests import samples
from tests.samples import named_glyphs_pdf


def written(lines: list[list[tuple[str, float, float, float]]]) -> list[str]:
    return ["".join(char for char, *_ in line) for line in lines]


def test_only_lines_with_a_glyph_without_unicode_or_of_two_directions_are_read_char_by_char() -> None:
    shown = " ".join(
        f"1 0 0 1 50 {100 + 20 * number} Tm ({line}) Tj"
        for number, line in enumerate(["\\001Total", "Plain words", "\\003\\0041"])
    )
    content = named_glyphs_pdf(["g1", "g2", "uni05D0", "uni05D1"], shown)
    with pymupdf.open(stream=content, filetype="pdf") as document:
        page = document[0]
        textpage = page.get_textpage(flags=pdf._TEXT_FLAGS)
        every = pdf._lines(textpage, page.rect)
        unmapped, mixed = pdf._marked_lines(textpage, page.rect)

    assert len(every) == 3
    assert written(unmapped) == [f"{UNMAPPED}Total"]
    assert unmapped == [line for line in every if UNMAPPED in "".join(char for char, *_ in line)]
    assert len(mixed) == 1 and "\u05d1" in written(mixed)[0] and "1" in written(mixed)[0]
    assert mixed == [line for line in every if "1" in "".join(char for char, *_ in line)]


@pytest.fixture
def collector_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages that say how the collector of the process that read them is set (the children are
    forked after this patch)."""
    original = pdf._page_text

    def page_text(page: pymupdf.Page, *args: object) -> tuple[str, object]:
        text, textpage = original(page, *args)  # type: ignore[arg-type]
        return f"{text} frozen {gc.get_freeze_count()} young {gc.get_threshold()[0]}", textpage

    monkeypatch.setattr(pdf, "_page_text", page_text)


def test_a_reading_child_leaves_what_it_inherited_out_of_collections_and_collects_young_objects_less(
    collector_pages: None,
) -> None:
    isolation.retire_idle_children()
    (page,) = engine.parse_pages(samples.text_pdf(pages=1), "pdf", ParseOptions())

    frozen, young = page.text.split(" frozen ")[1].split(" young ")
    assert int(frozen) > 1000  # the parent's modules and readers
    assert int(young) == isolation.GC_YOUNG_THRESHOLD > 700
    assert gc.get_threshold()[0] != isolation.GC_YOUNG_THRESHOLD  # the parent's own is left as it is
