"""A stamped scan (a text layer over a page-wide picture): the words of its text layer are its own, and a
text layer of many words across the page tells OCR which way up the picture is."""

from __future__ import annotations

import pymupdf
from docsvc.documents import engine
from docsvc.documents.engine import ocr, pdf
from docsvc.documents.engine.model import ParseOptions

from tests import samples
from tests.unit.test_engine import LETTER, OCR

# Forty words and more, in small print: a bill's data printed over a picture of its form.
SMALL_PRINT = [
    "Account 5106477 reading 6492 to 6573 kWh over 29 days",
    "Energy supplied 81 kWh at 0.39222 per kWh 31.77 tax 6.35",
    "Distribution 81 kWh at 0.54914 per kWh 44.48 tax 8.89",
    "Public lighting 4.17 instalment 176.92 total due 257.34",
    "Issued 16/03/2023 due 17/04/2023 customer Raimundo Paulo",
]


def _blocks(page: pymupdf.Page) -> list[tuple[tuple[float, float, float, float], str]]:
    return [(tuple(b[:4]), b[4].strip()) for b in page.get_text("blocks") if b[4].strip()]  # type: ignore[misc]


def _small_print_over_a_scan(turn: int = 0) -> bytes:
    """A picture of LETTER over the whole page, SMALL_PRINT as its text layer in 4-point lines (turned
    by `turn` degrees, as text up a page's side is)."""
    picture = samples.scan_png(LETTER)
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=120 + 22 * len(LETTER))
        page.insert_image(page.rect, stream=picture)
        for number, line in enumerate(SMALL_PRINT):
            page.insert_text((400 + 6 * number, 150 + 6 * number), line, fontsize=4, rotate=turn)
        return bytes(document.tobytes())


def test_a_stamped_scans_text_layer_of_many_words_across_the_page_says_it_is_upright() -> None:
    with pymupdf.open(stream=_small_print_over_a_scan(), filetype="pdf") as document:
        page = document[0]
        blocks = _blocks(page)
        assert ocr.is_stamped_scan(page, blocks)  # small print covers little of the page
        assert sum(len(text.split()) for _, text in blocks) >= ocr.UPRIGHT_WORDS
        assert ocr._layer_upright(page, blocks)


def test_a_stamp_of_a_few_words_or_one_running_up_the_page_does_not_say_which_way_up_its_scan_is() -> None:
    with pymupdf.open(
        stream=samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14"), filetype="pdf"
    ) as stamped:
        assert not ocr._layer_upright(stamped[0], _blocks(stamped[0]))  # two words: a stamp
    with pymupdf.open(stream=_small_print_over_a_scan(turn=90), filetype="pdf") as document:
        assert not ocr._layer_upright(document[0], _blocks(document[0]))  # its lines run up the page


def test_a_stamped_scans_words_are_its_text_layers_and_those_ocr_read_outside_its_blocks() -> None:
    with pymupdf.open(
        stream=samples.stamped_scan_pdf(LETTER, "RECEIVED 2024-03-14"), filetype="pdf"
    ) as stamped:
        page = stamped[0]
        layer = page.get_textpage()
        stamp = [box for box, _ in _blocks(page)]
        (x0, y0, x1, y1) = stamp[0]
        width, height = page.rect.width, page.rect.height
        misread = (x0 / width, y0 / height, x1 / width, y1 / height, "RECE1VED")  # the stamp read by OCR
        rest = (0.1, 0.5, 0.3, 0.52, "warehouse")

        words = pdf._stamped_word_boxes(page, layer, stamp, (misread, rest))

    texts = [word[4] for word in words]
    assert texts == ["RECEIVED", "2024-03-14", "warehouse"]


@OCR
def test_a_stamped_scan_gives_its_text_layers_words_with_their_own_boxes_once() -> None:
    content = _small_print_over_a_scan()
    with pymupdf.open(stream=content, filetype="pdf") as document:
        own = [
            (round(x0 / 595, 4), round(y0 / document[0].rect.height, 4), word)
            for x0, y0, _, _, word, *_ in document[0].get_text("words")
            if "." in word
        ]

    (page,) = engine.parse_pages(content, "pdf", ParseOptions(words="also"))

    read = [(x0, y0, word) for x0, y0, _, _, word in page.words]
    assert own and all(read.count(word) == 1 for word in own)  # the amounts as printed, not as OCR saw them
    assert {"warehouse", "Leeds"} <= {word for _, _, word in read}  # and the picture's words OCR read


def test_a_stamped_scans_text_layer_says_it_is_upright_from_forty_words_not_thirty_nine() -> None:
    with pymupdf.open(stream=_small_print_over_a_scan(), filetype="pdf") as document:
        page = document[0]
        words = " ".join(SMALL_PRINT).split()
        box = (0.0, 0.0, 10.0, 10.0)
        assert ocr._layer_upright(page, [(box, " ".join(words[: ocr.UPRIGHT_WORDS]))])
        assert not ocr._layer_upright(page, [(box, " ".join(words[: ocr.UPRIGHT_WORDS - 1]))])
