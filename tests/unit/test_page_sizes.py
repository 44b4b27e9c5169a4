"""Page sizes from the engine to splitting: each page's width and height in points, kept with a parse's
stored output, and a change of paper between two pages weighed where a document may end."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import replace

import pymupdf
import pytest
from docsvc.adapters import aws
from docsvc.adapters.parse_store import S3ParseStore
from docsvc.documents import engine
from docsvc.documents.engine import ocr
from docsvc.documents.engine.model import ParseOptions
from docsvc.domain.documents import DocumentSource, SourceDocument
from docsvc.domain.parses import ParseService, ReadOptions, output_of
from docsvc.intelligence.splitting import (
    Subdocument,
    gap_evidence,
    read_signals,
    size_changes,
    split,
)
from docsvc.local.stack import Deployment
from docsvc.tenancy import Tenant

from tests import samples
from tests.unit.test_parse_states import TENANT, Engine, Page, Parses, Store, request

A4 = (595.0, 842.0)
LETTER = (612.0, 792.0)
A4_LANDSCAPE = (842.0, 595.0)
CHANGE = "the page size or orientation changes"


def _pdf(*sizes: tuple[float, float]) -> bytes:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        for width, height in sizes:
            page = document.new_page(width=width, height=height)
            page.insert_text((72, 72), f"A page of {width:g} by {height:g} points.")
        return bytes(document.tobytes())


def test_the_engine_gives_each_pdf_page_its_width_and_height_in_points() -> None:
    pages = list(engine.parse_pages(_pdf(A4, LETTER, A4_LANDSCAPE), "pdf", ParseOptions()))
    assert [page.size for page in pages] == [A4, LETTER, A4_LANDSCAPE]


def test_a_rotated_page_gives_its_size_as_shown() -> None:
    with pymupdf.open(stream=_pdf(A4), filetype="pdf") as document:  # type: ignore[no-untyped-call]
        document[0].set_rotation(90)
        content = bytes(document.tobytes())
    assert [page.size for page in engine.parse_pages(content, "pdf", ParseOptions())] == [A4_LANDSCAPE]


def test_a_parse_output_keeps_one_size_per_page_or_none_at_all() -> None:
    assert output_of(["a", "b"], (), [A4, None]).page_sizes == [A4, None]
    assert output_of(["a", "b"], (), [A4]).page_sizes == []  # not one per page: none kept
    assert "page_sizes" not in output_of(["a"], (), [A4]).model_dump()  # not part of the API's answer


def test_the_stored_output_keeps_the_page_sizes_and_an_output_stored_without_them_still_reads(
    deployment: Deployment,
) -> None:
    tenant = Tenant("org_sizes", "test")
    store = S3ParseStore()
    store.save_output(tenant, "prs_new", output_of(["one", "two"], [None, 80.0], [A4, LETTER]))
    again = store.load_output(tenant, "prs_new")
    assert again is not None and again.page_sizes == [A4, LETTER] and again.ocr_confidence == [None, 80.0]

    older = {"pages": ["one", "two"], "ocr_confidence": [None, None]}  # as stored before sizes were kept
    key = f"parses/{tenant.storage_prefix}/prs_old/output.json"
    aws.s3().put_object(Bucket=store._bucket, Key=key, Body=json.dumps(older).encode())
    read = store.load_output(tenant, "prs_old")
    assert read is not None and read.pages == ["one", "two"] and read.page_sizes == []


class LetterEngine(Engine):
    """The tests' engine (a page a line), every page on US Letter paper."""

    def pages(
        self, tenant: Tenant, document: SourceDocument, options: ReadOptions, on_count: Callable[[int], None]
    ) -> Iterator[Page]:
        for page in super().pages(tenant, document, options, on_count):
            yield replace(page, size=LETTER)


def test_a_document_read_for_a_task_gives_its_page_sizes_read_fresh_or_from_an_earlier_parse() -> None:
    documents = DocumentSource(None, None, None)  # type: ignore[arg-type]  # data: URLs only
    service = ParseService(Parses(), Store(), documents, LetterEngine(), lambda tenant, parse_id: None)
    document = request().document
    fresh = service.read(TENANT, document)
    service.parse(TENANT, request())
    cached = service.read(TENANT, document)
    assert not fresh.cached and fresh.page_sizes == [LETTER, LETTER]
    assert cached.cached and cached.page_sizes == [LETTER, LETTER]


# ---------------------------------------------------------------------------------------- splitting
def _signals(text: str, size: tuple[float, float] | None) -> object:
    return replace(read_signals(text, [], []), size=size)


def test_another_paper_size_or_orientation_is_a_change_but_a_spread_beside_its_cover_is_not() -> None:
    def changes(size: tuple[float, float], before: tuple[float, float]) -> bool:
        return size_changes(_signals("x", size), _signals("x", before))  # type: ignore[arg-type]

    assert changes(LETTER, A4) and changes(A4_LANDSCAPE, A4)
    assert not changes((596.0, 842.0), A4)  # one paper, a point apart
    assert not changes((1190.0, 842.0), A4) and not changes(A4, (1190.0, 842.0))  # a booklet's spread
    assert not size_changes(_signals("x", None), _signals("x", A4))  # type: ignore[arg-type]


REPORT_PAGE = (
    "Annual report of the garden club\nFindings\nThe members planted forty trees along the river and "
    "counted the birds nesting there in spring. Table 1 shows the counts per species."
)
LETTERS_LAST_PAGE = (
    "We enclose the plans of the garden shed you asked about, with the list of timber and the fittings.\n"
    "Kind regards,\nJan Berg"
)
SUBDOCUMENTS = [
    Subdocument("letter", "A personal or business letter.", True),
    Subdocument("report", "A report: findings, sections, tables.", True),
]


def test_a_change_of_paper_counts_toward_a_cut_where_nothing_says_the_page_goes_on() -> None:
    pages = [REPORT_PAGE, LETTERS_LAST_PAGE]  # a page opening nothing: no title, no salutation, no folio
    signals = [_signals(pages[0], A4), _signals(pages[1], LETTER)]
    reasons = [item.reason for item in gap_evidence(signals)[1]]  # type: ignore[arg-type]
    assert CHANGE in reasons
    assert [part.pages for part in split(pages, SUBDOCUMENTS)] == [[1, 2]]
    assert [part.pages for part in split(pages, SUBDOCUMENTS, sizes=[A4, LETTER])] == [[1], [2]]


def test_a_landscape_page_numbered_on_stays_in_its_document_whatever_its_paper() -> None:
    body = "Survey of the river banks\nThe samples were taken at twelve places along the river banks.\n"
    pages = [body + "Page 1 of 3", body + "Table 2: samples per place\nPage 2 of 3", body + "Page 3 of 3"]
    sizes = [A4, A4_LANDSCAPE, A4]
    signals = [_signals(text, size) for text, size in zip(pages, sizes, strict=True)]
    for gap in gap_evidence(signals)[1:]:  # type: ignore[arg-type]
        assert CHANGE not in [item.reason for item in gap]
    assert [part.pages for part in split(pages, SUBDOCUMENTS, sizes=sizes)] == [[1, 2, 3]]


def test_sizes_not_one_per_page_are_not_weighed() -> None:
    pages = [REPORT_PAGE, LETTERS_LAST_PAGE]
    assert split(pages, SUBDOCUMENTS, sizes=[LETTER]) == split(pages, SUBDOCUMENTS)


def test_pages_scanned_or_cropped_a_few_points_apart_are_one_paper() -> None:
    # two two-page invoices, each page cropped apart by a phone app or a scanner
    sizes = [(595.0, 842.0), (587.0, 833.0), (601.0, 850.0), (593.0, 839.0)]
    signals = [_signals("x", size) for size in sizes]
    assert not any(size_changes(page, before) for before, page in itertools.pairwise(signals))  # type: ignore[arg-type]
    assert size_changes(_signals("x", LETTER), _signals("x", (587.0, 833.0)))  # type: ignore[arg-type]


def test_a_scan_off_standard_paper_tells_nothing_by_its_size_but_a_scan_on_one_does() -> None:
    def changes(size: tuple[float, float], before: tuple[float, float], scanned: bool) -> bool:
        page, previous = (replace(_signals("x", s), scanned=scanned) for s in (size, before))  # type: ignore[type-var]
        return size_changes(page, previous)  # type: ignore[arg-type]

    cropped = [(540.0, 760.0), (575.0, 820.0)]  # 6 and 7% apart: another paper, were it a page's own
    assert changes(cropped[1], cropped[0], scanned=False)
    assert not changes(cropped[1], cropped[0], scanned=True)
    assert not changes(A4, cropped[0], scanned=True)  # one of the two cropped: nothing said
    assert changes(LETTER, A4, scanned=True) and changes(A4_LANDSCAPE, A4, scanned=True)
    pages = [REPORT_PAGE, LETTERS_LAST_PAGE]
    assert [p.pages for p in split(pages, SUBDOCUMENTS, sizes=cropped)] == [[1], [2]]
    assert [p.pages for p in split(pages, SUBDOCUMENTS, sizes=cropped, scanned=[True, True])] == [[1, 2]]


def test_an_old_output_read_again_for_its_words_gives_the_sizes_of_the_pages_just_read() -> None:
    documents = DocumentSource(None, None, None)  # type: ignore[arg-type]  # data: URLs only
    store = Store()
    service = ParseService(Parses(), store, documents, LetterEngine(), lambda tenant, parse_id: None)
    service.parse(TENANT, request())
    for key, output in store.outputs.items():  # as stored before page sizes were kept
        store.outputs[key] = output.model_copy(update={"page_sizes": []})
    cached = service.read(TENANT, request().document, words=True)
    assert cached.cached and cached.words is not None and cached.page_sizes == [LETTER, LETTER]


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
def test_a_page_scanned_sideways_gives_the_upright_size_ocr_read_it_at() -> None:
    lines = [
        f"Line {n} of the delivery note for the garden shed, its timber and its fittings." for n in range(30)
    ]
    options = ParseOptions(page_seconds=60.0)  # the sizes, not the page's time, are tested: a busy machine
    (upright,) = engine.parse_pages(samples.scan_png(lines), "png", options)
    (sideways,) = engine.parse_pages(samples.scan_png(lines, turn=90), "png", options)
    assert upright.size is not None and sideways.size is not None
    assert upright.size[0] < upright.size[1] and sideways.size[0] < sideways.size[1]  # portrait, as read
    # the turned picture keeps no resolution: its sides are compared by their ratio
    assert sideways.size[1] / sideways.size[0] == pytest.approx(upright.size[1] / upright.size[0], rel=0.01)


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
def test_the_words_of_a_page_read_sideways_lie_on_the_upright_page_ocr_read() -> None:
    lines = [f"Line {n} of the delivery note for the garden shed and its fittings." for n in range(30)]
    (sideways,) = engine.parse_pages(
        samples.scan_png(lines, turn=90), "png", ParseOptions(words="also", page_seconds=60)
    )
    assert sideways.words
    # each line's words at a height of their own, none pushed past the page's lower edge
    heights = {round(word[1], 3) for word in sideways.words if word[4] == "Line"}
    assert len(heights) >= 25 and max(word[3] for word in sideways.words) < 0.99


def _scan_on_a_turned_page(lines: list[str]) -> bytes:
    """A PDF page turned by /Rotate 90 whose whole page is an upright scan of `lines`: shown, it reads
    sideways, and OCR reads it a quarter turn round."""
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=120 + 22 * len(lines))
        page.insert_image(page.rect, stream=samples.scan_png(lines))
        page.set_rotation(90)
        return bytes(document.tobytes())


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
def test_the_words_of_a_rotated_pdf_page_read_turned_lie_on_the_upright_page_ocr_read() -> None:
    lines = [f"Line {n} of the delivery note for the garden shed and its fittings." for n in range(30)]
    (page,) = engine.parse_pages(
        _scan_on_a_turned_page(lines), "pdf", ParseOptions(words="also", page_seconds=60)
    )
    assert page.words and page.size is not None and page.size[0] < page.size[1]  # upright, as read
    # the OCR text page is upright already: its words are not turned by the page's /Rotate again
    heights = {round(word[1], 3) for word in page.words if word[4] == "Line"}
    assert len(heights) >= 25 and max(word[2] for word in page.words) < 0.99


def _upright_scan_on_a_rotated_page(lines: list[str], rotation: int) -> bytes:
    """A PDF page with /Rotate `rotation` whose picture is drawn turned back the other way: shown, the
    scan of `lines` reads upright, and OCR reads it unturned."""
    with pymupdf.open() as document:
        across, down = 595, 120 + 22 * len(lines)
        page = document.new_page(
            width=down if rotation in (90, 270) else across, height=across if rotation in (90, 270) else down
        )
        page.insert_image(page.rect, stream=samples.scan_png(lines), rotate=rotation)
        page.set_rotation(rotation)
        return bytes(document.tobytes())


@pytest.mark.skipif(ocr.tessdata() is None, reason="Tesseract's language data is not installed")
@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_the_words_of_an_upright_scan_on_a_rotated_page_keep_their_widths_on_the_page_as_shown(
    rotation: int,
) -> None:
    lines = [f"Line {n} of the delivery note for the garden shed and its fittings." for n in range(30)]
    (page,) = engine.parse_pages(
        _upright_scan_on_a_rotated_page(lines, rotation), "pdf", ParseOptions(words="also", page_seconds=60)
    )
    assert not page.warnings  # read as shown, unturned
    assert page.size is not None and page.size[0] < page.size[1]
    width, height = page.size
    found = [word for word in page.words if word[4] == "Line"]
    assert len({round(word[1], 3) for word in found}) >= 25  # each line at a height of its own
    for x0, y0, x1, y1, _ in found:  # as wide as a word of 12 points: not a sliver of the page
        assert (x1 - x0) * width > 12 and (x1 - x0) * width > 0.8 * (y1 - y0) * height
    assert max(word[2] for word in page.words) < 0.99 and max(word[3] for word in page.words) < 0.99
    assert "Line 2 of the delivery note for the garden shed and its fittings." in page.text
