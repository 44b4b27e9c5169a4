"""PDF and image documents through PyMuPDF: text in reading order, tables in place, OCR for scans.

A page is a PDF page, an image, or a frame of a multi-frame TIFF.
"""

from __future__ import annotations

import io
import itertools
import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from operator import itemgetter
from typing import Any

import pymupdf
from pymupdf import mupdf

from docsvc.documents.engine.errors import DamagedDocument, EmptyDocument, EncryptedDocument
from docsvc.documents.engine.grids import (
    Grid,
    Segment,
    Word,
    aligned_grids,
    assemble,
    each_with_labels_outside,
    joined_frames,
    may_hold_aligned_grid,
    may_hold_ruled_table,
    ruled_grids,
    split_aligned_columns,
    split_stacked_rows,
)
from docsvc.documents.engine.layout import (
    Box,
    interleaved_columns,
    may_hold_aligned_columns,
    may_interleave_columns,
    overlaps,
    union,
)
from docsvc.documents.engine.model import Page, ParseOptions, WordBox
from docsvc.documents.engine.ocr import (
    DEFAULT_LANGUAGES,
    MAX_OCR_PIXELS,
    forget_reading,
    guess_language,
    installed_languages,
    is_stamped_scan,
    ocr_rest_of_page,
    ocr_textpage,
    quarter_of,
    reason,
    recorded_confidence,
    taken_turn,
    turn_read,
)
from docsvc.documents.engine.picture_rules import picture_tables
from docsvc.documents.engine.rendering import page_jpeg
from docsvc.documents.engine.tables import render_table
from docsvc.documents.engine.textlayer import (
    REACH,
    SPACED_AFTER_UNMAPPED,
    UNMAPPED,
    UNREADABLE_LAYER,
    UNREADABLE_READ,
    Char,
    cut_after_unmapped,
    cut_far_after_unmapped,
    directions_apart,
    goes_on,
    holds_formula,
    joined_lines,
    lines_gone_on,
    mixed_directions,
    off_line_apart,
    on_one_baseline,
    read_by_codes,
    repeats_last_lines,
    runs_as_blocks,
    script_language,
    set_apart,
    spaces_after_marks,
    unmapped_apart,
    unreadable,
    whole_words,
    words_apart,
)
from docsvc.documents.readable import IMAGE_TYPES
from docsvc.intelligence.paper import PageSize

PILLOW_TYPES = frozenset({"webp"})
MAX_DRAWINGS = 20_000  # more vector paths than this: the page is art, not a table
# A page whose content stream is longer than this is a map, a plot or a drawing of millions of paths
# (or a stream crafted to inflate): collecting a block for each piece of its paths would take seconds
# and hundreds of MB, so its text is read without them, and its tables only by their columns.
MAX_CONTENT_BYTES = 8 * 1024 * 1024
# TEXT_COLLECT_VECTORS adds a block (kind 3) for each piece of a vector path, at no measurable cost on
# pages of text: a page without pieces that could be ruling lines of a table has none, so its drawings
# need not be extracted.
# TEXT_PRESERVE_LIGATURES: MuPDF's own expansion writes an Arabic lam-alef backwards ("ال" for "لا");
# ligatures and presentation forms are expanded here instead, by their compatibility decomposition.
_TEXT_FLAGS: int = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_DEHYPHENATE
    | pymupdf.TEXT_COLLECT_VECTORS
)
_WITHOUT_PATHS: int = _TEXT_FLAGS & ~pymupdf.TEXT_COLLECT_VECTORS  # lines as get_text makes them
_GLUED = re.compile(f"{UNMAPPED}[^\\s{UNMAPPED}]")  # a glyph without a Unicode value, a character after it
_CUT_AFTER_UNMAPPED = re.compile(f"{UNMAPPED}\\W*\n")  # a line ending in such a glyph (marks may follow)
_LIGATURES = re.compile("[\ufb00-\ufdff\ufe70-\ufefe]+")  # Latin ligatures, presentation forms
_TEXT_BLOCK, _VECTOR_BLOCK = 0, 3
_TEXT_OF_WORD = itemgetter(4)  # of a word as MuPDF's `extractWORDS` gives it
_LINE = 1.5  # a path thinner than this is a ruling line
_MARGIN = 6.0  # points around the blocks read again character by character
_RULE_SLACK = 0.5  # points a rule may stand into the glyph beside it (a frame drawn tight to its text)
# Glyphs a rule parts stand at least this share of their font size apart: a rule drawn across glyphs
# that touch (a form's line through a word, a chart's cells packed glyph to glyph) parts no word.
_RULE_GAP = 0.05
Block = tuple[Box, str, int]  # a block of text: its box, its text, its number on the page
# An /XObject dict of this many entries or more is first read at once (`_known_leaves`).
_MANY_XOBJECTS = 32
# A dict written by MuPDF (tight) whose every value is a reference: `<</Im0 12 0 R/Im1 13 0 R>>`. A
# name holds no delimiter nor whitespace (MuPDF writes those as #xx).
_REFERENCE = re.compile(rb"(\d+) \d+ R")
_ONLY_REFERENCES = re.compile(rb"<<(?:/[^\s/<>\[\]()%{}]*\s*\d+ \d+ R\s*)*>>")

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)
pymupdf.no_recommend_layout()  # it would print to stdout, which is the parse worker's log


def count_pages(content: bytes, kind: str) -> int:
    with _open(content, kind, sized=False) as document:  # a count draws nothing: pictures are not resized
        return int(document.page_count)


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    with _open(content, kind) as document:
        for index in range(first - 1, document.page_count):
            warnings: list[str] = []
            page = document[index]
            image = page_jpeg(page, options.dpi) if index < options.images else None
            if options.words == "only":  # no OCR, no tables: the text layer's words
                boxes = _word_boxes(page, page.get_textpage(flags=_text_flags(page, warnings)))
                yield Page(index + 1, "", tuple(warnings), words=boxes, image=image, size=_size(page))
                continue
            stamped: list[tuple[pymupdf.TextPage, list[Box]]] = []
            text, textpage = _page_text(page, kind in IMAGE_TYPES, options, warnings, stamped)
            turn = taken_turn(page)
            boxes = _word_boxes(page, textpage, turn) if options.words == "also" and textpage else ()
            if boxes and stamped and quarter_of(turn) == 0 and not page.rotation:  # boxes in one frame
                boxes = _stamped_word_boxes(page, *stamped[0], boxes)
            size = _size(page, quarter_of(turn))
            yield Page(index + 1, text, tuple(warnings), words=boxes, image=image, size=size)


def _size(page: pymupdf.Page, turn: int = 0) -> PageSize:
    """The page's width and height in points as shown (its rotation applied), an image's pixels at its
    resolution; upright as OCR read it when it read the page a quarter turn round (a page scanned
    sideways in a portrait document is a portrait page)."""
    rect = page.rect  # a page's box is worked out again each time it is asked for
    width, height = round(rect.width, 1), round(rect.height, 1)
    return (height, width) if turn in (90, 270) else (width, height)


def page_picture(content: bytes, kind: str, number: int, dpi: int) -> tuple[int, bytes | None]:
    """The page count, and page `number` (1-based) drawn as a JPEG: None when there is no such page.
    Nothing of the page is read but its drawing: no text, no OCR."""
    with _open(content, kind) as document:
        count = int(document.page_count)
        if not 1 <= number <= count:
            return count, None
        return count, page_jpeg(document[number - 1], dpi)


def sample_pdf() -> bytes:
    """A page of text in a standard font over a rule: what a reader touches on a typical page."""
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 72), "Total 1,234.56 EUR", fontname="helv")
        page.draw_line((72, 80), (300, 80))
        return bytes(document.tobytes())


def _open(content: bytes, kind: str, sized: bool = True) -> pymupdf.Document:
    """The document, its pictures' pages set at a believable resolution when `sized` (pages to be
    read or drawn; see `_at_believable_resolution`): a file MuPDF cannot open or decode is damaged."""
    try:
        if kind in PILLOW_TYPES:
            content, kind = _as_png(content), "png"
        document = pymupdf.open(stream=content, filetype="pdf" if kind == "pdf" else kind)
    except Exception as error:  # MuPDF raises its own error types (FzErrorFormat, ...) for damaged files
        raise DamagedDocument(f"the {kind.upper()} could not be opened: {reason(error)}") from None
    if document.needs_pass and not document.authenticate(""):
        document.close()
        raise EncryptedDocument("the PDF is password-protected; send it without its password")
    if document.page_count == 0:
        document.close()
        raise EmptyDocument(f"the {kind.upper()} has no pages")
    if not sized or kind not in IMAGE_TYPES:
        return document
    try:  # decodes the picture: a truncated PNG or TIFF fails here
        return _at_believable_resolution(document)
    except Exception as error:
        if not document.is_closed:
            document.close()
        raise DamagedDocument(f"the {kind.upper()} could not be decoded: {reason(error)}") from None


# A picture's page is its pixels at the resolution its file is tagged with (MuPDF's image document; 96
# dpi when it has none), and OCR draws the page at the parse's resolution. A camera tags its photos 72
# dpi: a 3000 x 4000 photo "is" 42 x 56 inches, drawn at 150 dpi twice its own pixels (four times the
# pixels, which add no detail, cost more than the page's time, and misled the way up of a receipt). A
# picture whose tag makes its longer side longer than tabloid's (17 inches, the largest sheet offices
# print and scan, above A3's 16.5) is of no paper at that tag: it is drawn at the parse's default
# resolution, its own pixels. A tag at that resolution or above draws no pixel larger than it is (a till
# roll scanned 20 inches long at 300 dpi) and is kept, as is one that sets the picture on paper (a scan
# of A4 at 200 dpi; a small photo without a tag, at 96 dpi: drawn at its own pixels, the small print of
# 1000-pixel receipt photos read worse, 61.5% -> 54.2% of their fields).
LARGEST_PAPER = 17 * 72  # points
PICTURE_DPI = ParseOptions.dpi  # a picture larger than any paper at its tag: its pixels at this resolution


def _at_believable_resolution(document: pymupdf.Document) -> pymupdf.Document:
    """The picture `document`, its pages set at PICTURE_DPI where their resolution tag makes them larger
    than any paper (see LARGEST_PAPER): as a PDF of those pages drawn at that size, which draws the same
    pixels."""
    scales = [_scale(document[index]) for index in range(document.page_count)]
    if all(scale == 1.0 for scale in scales):
        return document
    with document, pymupdf.open("pdf", document.convert_to_pdf()) as pictures:
        resized = pymupdf.open()
        for index, scale in enumerate(scales):
            width, height = pictures[index].rect.width * scale, pictures[index].rect.height * scale
            resized.new_page(width=width, height=height).show_pdf_page(
                pymupdf.Rect(0, 0, width, height), pictures, index
            )
    return resized


def _scale(page: pymupdf.Page) -> float:
    """How much smaller the page is set than its tag makes it: 1 when its tag is kept. The resolution
    is the one the page is at (MuPDF takes a tag under 72 dpi for one at 72 or more), pixels and page
    each by their longer side (a photo turned by its EXIF orientation is its pixels turned), in whole
    dots per inch as MuPDF keeps it (a page's side is a float of 24 bits: 149.99999 is 150)."""
    pictures = page.get_image_info()
    longer = float(max(page.rect.width, page.rect.height))
    if len(pictures) != 1 or longer <= LARGEST_PAPER:
        return 1.0
    resolution = round(72 * max(int(pictures[0]["width"]), int(pictures[0]["height"])) / longer)
    return min(resolution / PICTURE_DPI, 1.0)


def _as_png(content: bytes) -> bytes:
    """An image MuPDF does not decode, through Pillow, which refuses decompression bombs itself."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_OCR_PIXELS
    with Image.open(io.BytesIO(content)) as image:
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()


def _text_flags(page: pymupdf.Page, warnings: list[str]) -> int:
    """The flags the page's text is read with: without the pieces of its vector paths when its
    content stream is longer than MAX_CONTENT_BYTES (its text is all read, its tables only by their
    aligned columns: its rules are not read)."""
    if not page.parent.is_pdf:  # an image opened as a document: no content stream to measure
        return _TEXT_FLAGS
    try:
        size = _drawn_bytes(page)
    except Exception:  # a damaged or bombed stream (MuPDF's own error types): measuring fails no page
        return _TEXT_FLAGS
    if size <= MAX_CONTENT_BYTES:
        return _TEXT_FLAGS
    warnings.append(f"the page draws {size / 2**20:.1f} MB of operators; its rules were not read for tables")
    return _WITHOUT_PATHS


def _drawn_bytes(page: pymupdf.Page) -> int:
    """The bytes of operators the page draws: its content streams and the forms it draws (a page of
    pdfTeX or an imported page draws its whole content as one form, `/Fm0 Do`, from a stream of a few
    bytes). Decompressed, as a page's operators are read."""
    forms = _forms(page)
    return len(page.read_contents()) + sum(len(page.parent.xref_stream(xref) or b"") for xref in forms)


def _forms(page: pymupdf.Page) -> set[int]:
    """The xrefs of the Form XObjects the page's resources name, and those of the forms they name in
    turn: the forms `page.get_xobjects()` lists, found as it finds them (its resources inherited from
    the page tree, a dict marked while it is looked through, a form's resources looked through once),
    without the name, box and matrix it makes for each form, nor its walk of every picture twice.
    What an object is (a form, and whether it has resources of its own) is looked up once a document
    (`_kinds`): a report's pages may each list the same hundreds of pictures."""
    found: set[int] = set()
    resources = mupdf.pdf_dict_get_inheritable(
        mupdf.pdf_page_from_fz_page(page.this).obj(), mupdf.PDF_ENUM_NAME_Resources
    )
    if resources.m_internal:
        _scan_forms(resources, found, [], _kinds(page.parent), _leaf_dicts(page.parent))
    return found


def _kinds(document: pymupdf.Document) -> dict[int, tuple[bool, bool]]:
    """The document's objects looked at by `_scan_forms`, by xref: (a form, has resources)."""
    kinds: dict[int, tuple[bool, bool]] | None = getattr(document, "_xobject_kinds", None)
    if kinds is None:
        kinds = {}
        document._xobject_kinds = kinds  # type: ignore[attr-defined]
    return kinds


def _leaf_dicts(document: pymupdf.Document) -> dict[bytes, frozenset[int]]:
    """The large /XObject dicts of the document read at once (`_known_leaves`), as written, with their
    forms: a report's pages may each write the same dict of hundreds of pictures."""
    dicts: dict[bytes, frozenset[int]] | None = getattr(document, "_xobject_leaf_dicts", None)
    if dicts is None:
        dicts = {}
        document._xobject_leaf_dicts = dicts  # type: ignore[attr-defined]
    return dicts


def _kind(entry: Any) -> tuple[bool, bool]:
    """Whether an entry of an /XObject dict is a form, and whether it has resources of its own."""
    subtype = mupdf.pdf_dict_get(entry, mupdf.PDF_ENUM_NAME_Subtype) if mupdf.pdf_is_dict(entry) else None
    form = subtype is not None and bool(mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Form))
    return form, bool(mupdf.pdf_dict_get(entry, mupdf.PDF_ENUM_NAME_Resources).m_internal)


def _scan_forms(
    resources: Any,
    found: set[int],
    looked: list[int],
    kinds: dict[int, tuple[bool, bool]],
    dicts: dict[bytes, frozenset[int]],
) -> None:
    """`_forms` of one resources dict: its /XObject dict's forms (direct ones are no object of their
    own and not kept), then the resources of each entry that has some, each stream once (`looked`; an
    entry seen again ends the walk, as PyMuPDF's does on a circular reference). `kinds`: `_kind` of
    the entries that are objects of their own, by xref, as far as known; `dicts`: `_leaf_dicts`."""
    if mupdf.pdf_mark_obj(resources):  # a circular reference
        return
    try:
        named = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_XObject)
        if mupdf.pdf_dict_len(named) >= _MANY_XOBJECTS and _known_leaves(named, found, kinds, dicts):
            return
        entries = []
        for index in range(mupdf.pdf_dict_len(named)):
            entry = mupdf.pdf_dict_get_val(named, index)
            xref = mupdf.pdf_to_num(entry)
            kind = kinds.get(xref) if xref else None
            if kind is None:
                kind = _kind(entry)
                if xref:
                    kinds[xref] = kind
            entries.append((entry, xref, kind))
        found.update(xref for _, xref, (form, _) in entries if form and xref)
        for entry, xref, (_, inner) in entries:
            if not inner:
                continue
            xref = xref if mupdf.pdf_is_stream(entry) else 0
            if xref in looked:
                return
            looked.append(xref)
            _scan_forms(mupdf.pdf_dict_get(entry, mupdf.PDF_ENUM_NAME_Resources), found, looked, kinds, dicts)
    finally:
        mupdf.pdf_unmark_obj(resources)


def _known_leaves(
    named: Any, found: set[int], kinds: dict[int, tuple[bool, bool]], dicts: dict[bytes, frozenset[int]]
) -> bool:
    """`_scan_forms` of a large /XObject dict at once, when each of its entries is a reference to an
    object already looked at (`kinds`) that has no resources of its own (a picture): its forms are
    added to `found`, and True is returned. The dict is read from its written form (one call to MuPDF,
    where the entries one by one cost a few microseconds each: a report's pages may each list the same
    hundreds of pictures), a dict written alike once a document (`dicts`); a dict with any other
    entry, or an entry not yet known, is left to the walk (False)."""
    written = bytes(pymupdf.JM_object_to_buffer(named, 1, 0).fz_buffer_extract_copy())
    forms = dicts.get(written)
    if forms is None:
        if not _ONLY_REFERENCES.fullmatch(written):
            return False
        xrefs = [int(xref) for xref in _REFERENCE.findall(written)]
        known = [kinds.get(xref) for xref in xrefs]
        if len(xrefs) != mupdf.pdf_dict_len(named) or any(kind is None or kind[1] for kind in known):
            return False
        forms = dicts[written] = frozenset(
            xref for xref, kind in zip(xrefs, known, strict=True) if kind and kind[0]
        )
    found.update(forms)
    return True


def _page_text(
    page: pymupdf.Page,
    is_image: bool,
    options: ParseOptions,
    warnings: list[str],
    stamped: list[tuple[pymupdf.TextPage, list[Box]]] | None = None,
) -> tuple[str, pymupdf.TextPage | None]:
    """The page's text, and the text page it was read from (for a stamped scan, read from its text
    layer and from OCR both, the page OCR read, stamp included; its text layer's text page and blocks'
    boxes then go to `stamped`, whose words are the stamp's, see `_stamped_word_boxes`)."""
    flags = _text_flags(page, warnings)  # the page's re-reads use them too: no paths collected again
    textpage = page.get_textpage(flags=flags)
    listed = textpage.extractBLOCKS()  # read once: the blocks, and what stands before each (`_after_a_box`)
    blocks, vectors = _text_blocks(page, textpage, listed)
    if blocks and unreadable(text for _, text, _ in blocks):  # its fonts map their glyphs to nothing
        coded = page.get_textpage(flags=flags | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE)
        coded_listed = coded.extractBLOCKS()
        coded_blocks, coded_vectors = _text_blocks(page, coded, coded_listed)
        if _codes_read([text for _, text, _ in coded_blocks]):  # their codes are their characters
            textpage, listed, blocks, vectors = coded, coded_listed, coded_blocks, coded_vectors
    marked = [box for box, text, _ in blocks if SPACED_AFTER_UNMAPPED.search(text)]
    if marked:
        unspaced = _spaces_after_marks(textpage, marked)
        blocks = [(box, joined_lines(text, unspaced), number) for box, text, number in blocks]
    glued = [box for box, text, _ in blocks if _GLUED.search(text) or mixed_directions(text)]
    apart = _unmapped_apart(page, textpage, glued, flags) if glued else {}
    rules = _vertical_rules(listed, page.rect) if vectors else []
    if rules:  # glyphs on both sides of a cell's rule, written as one word by MuPDF, are two
        crossed = _crossed_blocks(rules, listed, textpage.rect)
        if crossed is not None:
            with _within(textpage, crossed):
                apart = apart | _rules_apart(textpage, rules)
    formulas = [box for box, text, _ in blocks if holds_formula(text)]
    if formulas:  # a glyph set off a formula's line, glued by MuPDF to the one before it, is apart
        apart = apart | _off_line_apart(textpage, formulas)
    if apart:
        blocks = [(box, set_apart(text, apart), number) for box, text, number in blocks]
    cut = [box for box, text, _ in blocks if _CUT_AFTER_UNMAPPED.search(text)]
    if cut:
        joins = _cut_after_unmapped(page, textpage, cut, flags)
        blocks = [(box, joined_lines(text, joins), number) for box, text, number in blocks]
    scanned = False
    unmapped = options.ocr and bool(blocks) and unreadable(text for _, text, _ in blocks)
    read_as = _unreadable_layer_options(blocks, options, warnings) if unmapped else None
    ocr: pymupdf.TextPage | None = None
    if read_as is not None:
        ocr = _unreadable_layer_read(page, read_as, warnings)  # None: the layer is kept as it is
    elif not blocks and options.ocr and (is_image or page.get_images()):
        ocr = ocr_textpage(page, _TEXT_FLAGS, options, warnings)
        if ocr is None:
            return "", None
    elif options.ocr and is_stamped_scan(page, [(box, text) for box, text, _ in blocks]):
        stamp = [(box, text) for box, text, _ in blocks]
        read, ocr = ocr_rest_of_page(page, stamp, _TEXT_FLAGS, options, warnings)
        if stamped is not None and ocr is not None:
            stamped.append((textpage, [box for box, _ in stamp]))
        return "\n\n".join(text for _, text in read), ocr
    if ocr is not None:
        textpage = ocr
        listed = textpage.extractBLOCKS()
        blocks, _ = _text_blocks(page, textpage, listed)
        scanned = True  # its rules are in its picture
    if not blocks:
        return "", textpage
    turn = turn_read(page) if scanned else 0.0  # the words of a page OCR read turned stand upright
    picture = picture_tables(page, textpage, turn) if scanned else None
    if picture:  # its vertical rules, read as bars, are no words
        blocks = picture.blocks_without_bars(blocks)
    ruled = picture.grids if picture else _ruled_grids(page, vectors, warnings)
    aligned = may_hold_aligned_columns([text for _, text, _ in blocks])
    # a page without paths has no block begun after one (`_after_a_box`): no pair is compared
    gone_on = {} if scanned or not vectors else _lines_gone_on(page, listed, blocks, apart)
    if not ruled and not aligned:  # a page of prose: its words are not even read
        return "\n\n".join(_written(blocks, gone_on)), textpage
    found = textpage.extractWORDS()
    # MuPDF's words are where the page is not turned: a turned page is looked for tables without rules.
    aligned = aligned and (bool(page.rotation and not turn) or may_hold_aligned_grid(found))
    if not ruled and not aligned:  # no rows of cells side by side: the engine's words are not built
        return "\n\n".join(_written(blocks, gone_on)), textpage
    renumbered: dict[int, int] = {}
    if gone_on:  # each run one block, so that its words are its text's (a word across a cut whole)
        blocks, renumbered, gone_on = runs_as_blocks(blocks, gone_on)
    texts: dict[int, list[str]] = {}
    for _, text, number in blocks:
        texts.setdefault(number, []).append(text)
    own = _own_words(page, found, set(texts), renumbered, turn)
    own = words_apart(own, apart) if apart else own
    if picture:  # its vertical rules, read as bars, are no words
        own = picture.words_without_bars(own)
    words = whole_words(own, {number: "\n".join(t) for number, t in texts.items()})
    ruled = joined_frames(ruled, words)  # a table ruled between its groups of rows is one
    grids = [split_aligned_columns(split_stacked_rows(grid, words), words) for grid in ruled]
    grids = each_with_labels_outside(grids, words)
    if aligned:
        grids += _aligned_grids(words, grids)
    if not grids:  # the words were read for nothing: the page is its blocks
        return "\n\n".join(_written(blocks, gone_on)), textpage
    render = lambda rows: render_table(rows, options.table_format)  # noqa: E731
    return "\n\n".join(assemble(blocks, words, grids, render, gone_on)), textpage


def _codes_read(texts: list[str]) -> bool:
    """Whether a page read by its glyphs' codes reads as text (`read_by_codes`), in Latin letters a
    language's common words too (a font of made-up codes spells no language)."""
    if not read_by_codes(texts):
        return False
    return script_language(texts) is not None or guess_language(" ".join(texts).split()) is not None


UNREADABLE_CONFIDENCE = 60.0  # mean word confidence under which OCR of an unreadable layer is no reading


def _unreadable_layer_read(
    page: pymupdf.Page, options: ParseOptions, warnings: list[str]
) -> pymupdf.TextPage | None:
    """OCR's reading of a page whose text layer is unreadable, with a warning; None (the layer kept, a
    warning saying why) when OCR fails or reads it with a mean confidence under UNREADABLE_CONFIDENCE:
    what it read is no text either (a score's notes, a script no installed language reads)."""
    ocr = ocr_textpage(page, _TEXT_FLAGS, options, warnings)
    if ocr is None:
        return None
    confidence = recorded_confidence(page)
    if confidence is None or confidence < UNREADABLE_CONFIDENCE:
        forget_reading(page)
        warnings.append(
            f"{UNREADABLE_LAYER}; OCR read it with a mean confidence of {confidence or 0:.0f} only, "
            "so it was kept"
        )
        return None
    warnings.append(UNREADABLE_READ)
    return ocr


def _unreadable_layer_options(
    blocks: list[Block], options: ParseOptions, warnings: list[str]
) -> ParseOptions | None:
    """The options to OCR a page whose text layer is unreadable with: in the language of the script its
    readable letters are in (an Arabic layer that lost its letters' dots), unless the request names its
    languages; None, with a warning, when that script's language is not installed (the layer is kept)."""
    language = script_language(text for _, text, _ in blocks)
    if language is None or options.languages:
        return options
    if language not in installed_languages():
        warnings.append(f"{UNREADABLE_LAYER}; OCR in '{language}' is not installed here, so it was kept")
        return None
    return replace(options, languages=(language, *DEFAULT_LANGUAGES))


def _own_words(
    page: pymupdf.Page,
    found: list[tuple[Any, ...]],
    numbers: set[int],
    renumbered: dict[int, int],
    turn: float = 0,
) -> list[Word]:
    """The page's words of the blocks `numbers` (not those of a line MuPDF wrote twice, whose block
    was left out), each of a block made one with others (`runs_as_blocks`) numbered as that block;
    `turn` the turn OCR read the page at, in degrees (`_words`)."""
    words = _words(page, found, turn)
    if renumbered:  # a new word each (not `dataclasses.replace`, several times slower a word)
        words = [
            Word(word.box, word.text, renumbered.get(word.block, word.block), word.order) for word in words
        ]
    return [word for word in words if word.block in numbers]


def _lines_gone_on(
    page: pymupdf.Page, listed: list[tuple[Any, ...]], blocks: list[Block], apart: dict[str, str]
) -> dict[int, tuple[int, str]]:
    """The runs of blocks that are pieces of one block cut where a vector path is drawn over a line
    (see `textlayer.lines_gone_on`), with that block's text. Only pages with a block that goes on with
    the last line of the one before, right after a path that is no ruling line, are read again,
    without paths, and only around such blocks. A turned page's lines may run as drawn or as the page
    is shown (by its /Rotate, upright to its reader): its blocks are compared both ways, `goes_on`
    reading lines from left to right, a run found as drawn kept over one found as shown."""
    pieces = [(box, text) for box, text, _ in blocks]
    turn = page.rotation_matrix if page.rotation else None
    shown = pieces
    if turn is not None:
        turned = _turned_boxes([box for box, _ in pieces], turn)
        shown = [(box, text) for box, (_, text) in zip(turned, pieces, strict=True)]
    starts = [
        index
        for index in range(1, len(pieces))
        if blocks[index][2] != blocks[index - 1][2]
        and (goes_on(pieces[index - 1], pieces[index]) or goes_on(shown[index - 1], shown[index]))
    ]
    if starts:
        drawn = _after_a_box(listed)
        starts = [index for index in starts if blocks[index][2] in drawn]
    if not starts:
        return {}
    near = sorted({at for index in starts for at in range(max(0, index - 1 - REACH), index + 1 + REACH)})
    clip = _clip([pieces[at][0] for at in near if at < len(pieces)], flat=True)
    whole = []
    read = page.get_textpage(clip=clip, flags=_WITHOUT_PATHS)
    found = read.extractBLOCKS()
    if any(mixed_directions(text) for *_, text, _, _ in found):  # its lines meet as the pieces' did not
        apart = apart | _directions_apart(_lines(read))
    rules = _vertical_rules(listed, clip)
    if rules:  # nor do its glyphs on both sides of a rule
        apart = apart | _rules_apart(read, rules)
    formulas = [(x0, y0, x1, y1) for x0, y0, x1, y1, text, _, kind in found if holds_formula(text)]
    if formulas:  # nor does a glyph set off a formula's line, the path that parted it read no more
        apart = apart | _off_line_apart(read, formulas)
    for x0, y0, x1, y1, text, _, kind in found:
        cleaned = _cleaned(text) if kind == _TEXT_BLOCK else ""
        if cleaned:
            whole.append(((x0, y0, x1, y1), set_apart(cleaned, apart) if apart else cleaned))
    runs = lines_gone_on(pieces, whole)
    if turn is None:
        return runs
    boxes = _turned_boxes([box for box, _ in whole], turn)
    as_shown = lines_gone_on(shown, [(box, text) for box, (_, text) in zip(boxes, whole, strict=True)])
    for first, (end, text) in as_shown.items():
        if all(end <= start or stop <= first for start, (stop, _) in runs.items()):
            runs[first] = (end, text)
    return dict(sorted(runs.items()))


def _vertical_rules(listed: list[tuple[Any, ...]], clip: pymupdf.Rect) -> list[Box]:
    """The pieces of vector paths in `listed` (the text page's `extractBLOCKS`) that are vertical
    rules (thin, and longer than thick) within `clip`."""
    return [
        (x0, y0, x1, y1)
        for x0, y0, x1, y1, _, _, kind in listed
        if kind == _VECTOR_BLOCK
        and x1 - x0 < _LINE < y1 - y0
        and x0 < clip.x1
        and clip.x0 < x1
        and y0 < clip.y1
        and clip.y0 < y1
    ]


def _crossed_blocks(
    rules: list[Box], listed: list[tuple[Any, ...]], bounds: pymupdf.Rect
) -> pymupdf.Rect | None:
    """The box around the text blocks of `listed` (the text page's `extractBLOCKS`) that one of the
    vertical rules crosses (level with it, its middle between the block's sides), None when it
    crosses none. Only the lines of such blocks can have glyphs on both sides of a rule
    (`_rules_apart`): a line lies within its block, as do its characters' boxes, so the dict made
    within this box (`_within`, a margin around it, within the text page's `bounds`) holds each such
    line whole, and the lines of other blocks it cuts stand level with no rule, or left or right of
    every rule level with them."""
    middles = [((left + right) / 2, top, bottom) for left, top, right, bottom in rules]
    middles = sorted(middle for middle in middles if middle[0] == middle[0])  # a NaN middle crosses nothing
    xs = [x for x, _, _ in middles]  # the rules between a block's sides found by halving, not one by one
    crossed = [
        (x0, y0, x1, y1)
        for x0, y0, x1, y1, _, _, kind in listed
        if kind == _TEXT_BLOCK
        and any(
            y0 < bottom and top < y1 and x0 < x < x1
            for x, top, bottom in middles[bisect_right(xs, x0) : bisect_left(xs, x1)]
        )
    ]
    if not crossed:
        return None
    x0, y0, x1, y1 = union(crossed)
    around: pymupdf.Rect = pymupdf.Rect(x0 - _MARGIN, y0 - _MARGIN, x1 + _MARGIN, y1 + _MARGIN) & bounds
    return around


def _rules_apart(read: pymupdf.TextPage, rules: list[Box]) -> dict[str, str]:
    """The words of the text page read without paths (as whitespace cuts them) that a vertical rule
    crosses, between two of their glyphs, each with a space put there: read without paths, MuPDF
    writes the glyphs on both sides of a frame's edge or a table's column rule as one word when its
    spacing does not part them (an arrow and the framed word after it, "=\u21d2EI"), where the page
    read with paths, and a reader, see two."""
    apart: dict[str, str] = {}
    for block in read.extractRAWDICT()["blocks"]:
        for line in block.get("lines", ()):
            if abs(line["dir"][1]) > 1e-3:
                continue
            middle = (line["bbox"][1] + line["bbox"][3]) / 2
            crossing = [(x0 + x1) / 2 for x0, y0, x1, y1 in rules if y0 < middle < y1]
            if not crossing:
                continue
            chars = [
                (char["c"], char["bbox"][0], char["bbox"][2], span["size"])
                for span in line["spans"]
                for char in span["chars"]
            ]
            text = "".join(char for char, *_ in chars)
            for found in re.finditer(r"\S+", text):
                glyphs = chars[found.start() : found.end()]
                if not _rule_within(glyphs, crossing):  # no rule between its first and last glyph
                    continue
                written = glyphs[0][0] + "".join(
                    (" " if _parted(before, after, crossing) else "") + after[0]
                    for before, after in itertools.pairwise(glyphs)
                )
                if written != found.group():
                    apart[unligated(found.group())] = unligated(written)
    return apart


def _rule_within(glyphs: list[tuple[str, float, float, float]], rules: list[float]) -> bool:
    """Whether one of the rules (their x) stands between the middles of a word's first and last glyph
    (the leftmost and rightmost), which a rule parting two of its glyphs does (`_rule_between`); True
    when a glyph's box is no number (its pairs are then weighed one by one)."""
    middles = [(left + right) / 2 for _, left, right, _ in glyphs]
    if any(middle != middle for middle in middles):
        return True
    low, high = min(middles), max(middles)
    return any(low < x < high for x in rules)


def _parted(
    before: tuple[str, float, float, float], after: tuple[str, float, float, float], rules: list[float]
) -> bool:
    """Do the two glyphs (character, left, right, font size) stand apart (`_RULE_GAP`) with one of the
    rules (their x) between them?"""
    gap = after[1] - before[2]
    return gap > _RULE_GAP * max(before[3], after[3]) and _rule_between(before[:3], after[:3], rules)


def _rule_between(
    before: tuple[str, float, float], after: tuple[str, float, float], rules: list[float]
) -> bool:
    """Does one of the rules (their x) stand between the two glyphs, past the middle of the first and
    before the middle of the second, and within half a point of the gap between them (a frame drawn
    tight to its text)?"""
    (_, a0, a1), (_, b0, b1) = before, after
    return any(max(a1 - _RULE_SLACK, (a0 + a1) / 2) < x < min(b0 + _RULE_SLACK, (b0 + b1) / 2) for x in rules)


def _clip(boxes: list[Box], flat: bool = False) -> pymupdf.Rect:
    """The box around the boxes as `Rect |=` makes it (empty boxes left out), each box once: a block
    near two cut lines is not added twice, nor through a `Rect` each time (about 14 µs a union).
    `flat`: a box of no width or no height is kept (a block of glyphs of no width, drawn at one point),
    and a clip of no width or height is widened by a point on each side (MuPDF reads no glyph in it)."""
    if not flat:
        boxes = [box for box in boxes if box[0] < box[2] and box[1] < box[3]]
        return pymupdf.Rect(union(boxes)) if boxes else pymupdf.Rect()
    boxes = [box for box in boxes if box[0] <= box[2] and box[1] <= box[3] and box[:2] != box[2:]]
    if not boxes:
        return pymupdf.Rect()
    x0, y0, x1, y1 = union(boxes)
    wide, tall = float(x0 == x1), float(y0 == y1)
    return pymupdf.Rect(x0 - wide, y0 - tall, x1 + wide, y1 + tall)


def _after_a_box(listed: list[tuple[Any, ...]]) -> set[int]:
    """The numbers of the text blocks (counted as `_text_blocks` counts them) that MuPDF began right
    after a piece of a vector path that is no ruling line (a box, a highlight), or after a rule that
    underlines the text block before it (drawn within that block's height, as a word processor draws
    an underlined term), or after a rule drawn across the middle of the text block it begins (a
    fraction's bar, with the numerator above it and the denominator below), or over its top (a bar
    over a letter, `_overlines`), or after a rule drawn away from the line of both text blocks (a
    page's rule drawn, in the content stream, between a form's label and its value: `_elsewhere`):
    where it cuts a line. `listed`: the text page's `extractBLOCKS`."""
    drawn: set[int] = set()
    number = 0
    box = False
    rules: list[Box] = []  # the rules since the text block before
    last: tuple[float, float] | None = None  # the top and bottom of the text block before
    for x0, y0, x1, y1, text, _, kind in listed:
        if kind == _VECTOR_BLOCK:
            thin, long = sorted((x1 - x0, y1 - y0))
            box = box or thin > _LINE or long <= 3 * _LINE  # a rule is thin and long
            box = box or _underlines(last, (x0, y0, x1, y1))
            rules.append((x0, y0, x1, y1))
        elif kind == _TEXT_BLOCK:
            block = (x0, y0, x1, y1)
            line = (y1 - y0) / max(len(text.splitlines()), 1)  # one of its lines' height
            if box or any(_cuts(rule, last, block, line) for rule in rules):
                drawn.add(number)
            box = False
            rules = []
            last = (y0, y1)
            number += 1
    return drawn


def _across(rule: Box, block: Box) -> bool:
    """Is the horizontal `rule` drawn across the middle of the text block `block` (a fraction's bar)?"""
    return block[1] < rule[1] and rule[3] < block[3]


def _overlines(rule: Box, block: Box) -> bool:
    """Is the horizontal `rule` a bar over a letter that begins the text block `block`: within the
    block's width, from a little above its top (a quarter of its height: a bar over a capital stands
    above the font's box) to no lower than its middle? A table's or a section's rule runs past the
    words below it."""
    x0, _, x1, y1 = rule
    left, top, right, bottom = block
    height = bottom - top
    return left - _LINE / 3 <= x0 and x1 <= right + _LINE / 3 and top - height / 4 <= y1 < top + height / 2


def _cuts(rule: Box, last: tuple[float, float] | None, block: Box, line: float) -> bool:
    """Does `rule`, drawn between the text block before (top and bottom `last`) and `block` (whose
    lines are `line` high), cut a line there: drawn elsewhere, or, horizontal, across `block`'s middle
    or over its top?"""
    level = rule[2] - rule[0] > rule[3] - rule[1]
    return _elsewhere(rule, last, block, line) or (
        level and (_across(rule, block) or _overlines(rule, block))
    )


def _elsewhere(rule: Box, last: tuple[float, float] | None, block: Box, line: float) -> bool:
    """Is `rule` drawn a line's height (`line`, one of `block`'s lines) or more above or below both the
    text block before, from top to bottom `last`, and the text block `block` after it? Such a rule
    parts nothing on their line: the content stream drew it between their glyphs (a page's rule
    between a label and its value), where a table's rule between two cells stands beside them or
    across their line."""
    if last is None:
        return False
    top, bottom = min(last[0], block[1]), max(last[1], block[3])
    return rule[1] > bottom + line or rule[3] < top - line


def _underlines(block: tuple[float, float] | None, rule: Box) -> bool:
    """Is `rule` a horizontal rule drawn within the height of the text block (top, bottom) before it:
    under one of its lines, not between it and the next block as a table's or a section's rule is?"""
    x0, y0, x1, y1 = rule
    return block is not None and x1 - x0 > y1 - y0 and block[0] < y0 and y1 <= block[1] + _LINE / 3


def _written(blocks: list[Block], gone_on: dict[int, tuple[int, str]]) -> list[str]:
    """The blocks' texts, each run of pieces of one line's block (`gone_on`) as that block's text."""
    texts: list[str] = []
    index = 0
    while index < len(blocks):
        end, text = gone_on.get(index, (index + 1, blocks[index][1]))
        texts.append(text)
        index = end
    return texts


def _text_blocks(
    page: pymupdf.Page, textpage: pymupdf.TextPage, listed: list[tuple[Any, ...]]
) -> tuple[list[Block], list[Box]]:
    """The page's blocks of text (box, text, number), and the boxes of the pieces of its vector paths
    (`listed`: the text page's `extractBLOCKS`)."""
    blocks: list[Block] = []
    vectors: list[Box] = []
    number = 0
    after_path = False
    for x0, y0, x1, y1, text, _, kind in listed:
        if kind == _VECTOR_BLOCK:
            vectors.append((x0, y0, x1, y1))
            after_path = True
            continue
        if kind != _TEXT_BLOCK:
            continue
        cleaned = _cleaned(text)
        if cleaned and not (
            after_path and _written_twice(textpage, blocks, number, (x0, y0, x1, y1), cleaned)
        ):
            blocks.append(((x0, y0, x1, y1), cleaned, number))
        number += 1  # as the words count blocks: text blocks only
        after_path = False
    if any(may_interleave_columns(box, text) for box, text, _ in blocks):
        return _with_columns_apart(textpage, blocks), vectors
    return blocks, vectors


def _written_twice(textpage: pymupdf.TextPage, blocks: list[Block], number: int, box: Box, text: str) -> bool:
    """Is the text block `number`, which MuPDF began right after a piece of a vector path, the last
    lines of the text block before it once more, where those lines stand (`textlayer.repeats_last_lines`)?
    Only a block that is those lines' text within that block's box has the lines' boxes read."""
    if not blocks or blocks[-1][2] != number - 1:
        return False
    before = blocks[-1][:2]
    if not repeats_last_lines(before, (box, text)):
        return False
    last_lines = _last_lines_box(textpage, before[0], len(text.splitlines()))
    return repeats_last_lines(before, (box, text), last_lines)


def _last_lines_box(textpage: pymupdf.TextPage, box: Box, count: int) -> Box | None:
    """The box around the last `count` lines of the text block whose box is `box` (None when no
    block of the text page has that box)."""
    for block in _raw_blocks(textpage, pymupdf.Rect(box)):
        lines = block.get("lines", ())
        if block["type"] == _TEXT_BLOCK and len(lines) >= count and _rounded(block["bbox"]) == _rounded(box):
            return union([tuple(line["bbox"]) for line in lines[-count:]])
    return None


def _unmapped_apart(
    page: pymupdf.Page, textpage: pymupdf.TextPage, boxes: list[Box], flags: int
) -> dict[str, str]:
    """The words that a glyph without a Unicode value sticks to, and those glued where a line's
    direction changes (see `textlayer`), read from their characters' places in the blocks (`boxes`)
    whose text has such a glyph before a character or such a change: only the text page's lines
    around those are read character by character (a page's characters cost several times its text),
    from the text page itself (a text page read again on a clip interprets the whole page again);
    the page is read again, on that clip, with glyph codes only where such a glyph has no width."""
    clip = pymupdf.Rect()
    for box in boxes:
        clip |= box
    clip += (-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)  # a glyph's box may stick out of its block's
    unmapped, mixed = _marked_lines(textpage, clip)
    coded = []  # read with glyph codes only where a glyph of no value has no width (`unmapped_apart`)
    if any(char[0] == UNMAPPED and char[2] - char[1] <= 0.01 * char[3] for line in unmapped for char in line):
        coded = _lines(page.get_textpage(clip=clip, flags=flags | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE))
    return unmapped_apart(unmapped, coded) | _directions_apart(mixed)


def _marked_lines(
    textpage: pymupdf.TextPage, within: pymupdf.Rect
) -> tuple[list[list[Char]], list[list[Char]]]:
    """Of `_lines(textpage, within)`, those that hold a glyph of no Unicode value, and those whose text
    mixes directions (`mixed_directions`), in their order: `unmapped_apart` and `directions_apart`
    set apart words of such lines only, each line on its own, and the other lines of the blocks
    around (most of a page whose font maps only some glyphs) are not made characters at all."""
    unmapped: list[list[Char]] = []
    mixed: list[list[Char]] = []
    for block in _raw_blocks(textpage, within):
        for line in block.get("lines", ()):
            if not abs(line["dir"][1]) < 1e-3:  # as `_lines` keeps them
                continue
            spans = line["spans"]
            text = "".join([char["c"] for span in spans for char in span["chars"]])
            has_unmapped, has_mixed = UNMAPPED in text, mixed_directions(text)
            if not (has_unmapped or has_mixed):
                continue
            chars = [
                (char["c"], char["bbox"][0], char["bbox"][2], span["size"])
                for span in spans
                for char in span["chars"]
            ]
            if has_unmapped:
                unmapped.append(chars)
            if has_mixed:
                mixed.append(chars)
    return unmapped, mixed


def _spaces_after_marks(textpage: pymupdf.TextPage, boxes: list[Box]) -> dict[str, str]:
    """The lines of the blocks (`boxes`) with a space after a glyph of no value that no page draws
    (`textlayer.spaces_after_marks`), read character by character only around those blocks."""
    clip = _clip(boxes)
    clip += (-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)  # a glyph's box may stick out of its block's
    return spaces_after_marks(_lines(textpage, clip))


def _cut_after_unmapped(
    page: pymupdf.Page, textpage: pymupdf.TextPage, boxes: list[Box], flags: int
) -> dict[str, str]:
    """The lines MuPDF cut after a glyph of no Unicode value (`textlayer.cut_after_unmapped`), read
    character by character: only pages with a line ending in such a glyph are read so, and of those
    only the lines level with the blocks (`boxes`) that hold one, across the page (the line that goes
    on stands on the same baseline, wherever MuPDF put it). That band is read again with glyph codes
    only where a line goes on further than 1.5 em after such a glyph."""
    bounds = textpage.rect
    band = pymupdf.Rect(
        bounds.x0,
        min(box[1] for box in boxes) - _MARGIN,
        bounds.x1,
        max(box[3] for box in boxes) + _MARGIN,
    )
    blocks = []
    for block in _raw_blocks(textpage, band):
        lines = []
        for line in block.get("lines", ()):
            chars = [
                (char["c"], char["bbox"][0], char["bbox"][2], span["size"])
                for span in line["spans"]
                for char in span["chars"]
            ]
            baseline = line["spans"][0]["chars"][0]["origin"][1] if chars else 0.0
            lines.append((chars, baseline))
        blocks.append(lines)
    coded = []
    if cut_far_after_unmapped(blocks):
        coded = _lines(page.get_textpage(clip=band, flags=flags | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE))
    return cut_after_unmapped(blocks, coded)


def _off_line_apart(textpage: pymupdf.TextPage, boxes: list[Box]) -> dict[str, str]:
    """`textlayer.off_line_apart` over the lines of the blocks (`boxes`) that hold a formula, read
    character by character only around those blocks."""
    clip = _clip(boxes)
    clip += (-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)  # a glyph's box may stick out of its block's
    lines = [
        [
            (char["c"], char["bbox"][0], char["bbox"][2], span["size"], char["origin"][1])
            for span in line["spans"]
            for char in span["chars"]
        ]
        for block in _raw_blocks(textpage, clip)
        for line in block.get("lines", ())
        if abs(line["dir"][1]) < 1e-3  # as `_lines` keeps them
        # a line whose glyphs all stand on about one baseline has none off it: its glyphs are not walked
        and not on_one_baseline(
            [char["origin"][1] for span in line["spans"] for char in span["chars"]],
            [span["size"] for span in line["spans"] if span["chars"]],
        )
    ]
    # keyed as the blocks' text is written (ligatures expanded), as `_rules_apart` keys its words
    return {unligated(word): unligated(cut) for word, cut in off_line_apart(lines).items()}


def _directions_apart(lines: list[list[Char]]) -> dict[str, str]:
    """`textlayer.directions_apart`, its words as the blocks' texts write them: presentation forms as
    the letters they stand for (a line's characters are read as drawn, to keep their places)."""
    return {unligated(word): unligated(cut) for word, cut in directions_apart(lines).items()}


def _lines(textpage: pymupdf.TextPage, within: pymupdf.Rect | None = None) -> list[list[Char]]:
    """The text page's horizontal lines (a gap is along x), character by character: those that reach
    into `within`, of their characters those that do, when it is given."""
    lines: list[list[Char]] = []
    for block in _raw_blocks(textpage, within):
        for line in block.get("lines", ()):
            if abs(line["dir"][1]) < 1e-3:
                lines.append(
                    [
                        (char["c"], char["bbox"][0], char["bbox"][2], span["size"])
                        for span in line["spans"]
                        for char in span["chars"]
                    ]
                )
    return lines


def _raw_blocks(textpage: pymupdf.TextPage, within: pymupdf.Rect | None) -> list[dict[str, Any]]:
    """The text page's blocks as `extractRAWDICT` gives them, within the box `within` when it is
    given (`_within`)."""
    if within is None:
        return list(textpage.extractRAWDICT()["blocks"])
    with _within(textpage, within):
        return list(textpage.extractRAWDICT()["blocks"])


@contextmanager
def _within(textpage: pymupdf.TextPage, box: pymupdf.Rect) -> Iterator[None]:
    """The text page's dicts made within `box` alone while in the block. PyMuPDF makes a text page's
    dicts of the blocks, lines and characters that reach into the text page's bounds: those bounds
    are set to `box` (in place, and set back after), so that the dict of a page's few lines that
    matter is made without the whole page's, nor a text page read again on a clip (which interprets
    the whole page again)."""
    bounds = textpage.this.m_internal.mediabox
    kept = (bounds.x0, bounds.y0, bounds.x1, bounds.y1)
    bounds.x0, bounds.y0, bounds.x1, bounds.y1 = box.x0, box.y0, box.x1, box.y1
    try:
        yield
    finally:
        bounds.x0, bounds.y0, bounds.x1, bounds.y1 = kept


def _words(page: pymupdf.Page, found: list[tuple[Any, ...]], turn: float = 0) -> list[Word]:
    """The page's words as the page is shown, from MuPDF's (`found`: `extractWORDS`, (x0, y0, x1, y1,
    text, block, line, word), hundreds a page): text positions are those of the unrotated page,
    tables are found on the page as turned by its /Rotate. The words of a text page OCR read turned
    (`turn` degrees, a quarter turn or a skew levelled) stand on the page so turned, upright already
    (`ocr.textpage_of`): they are not turned again."""
    ligature = _LIGATURES.search  # few words have one: the call to `unligated` is made for those only
    plain = not ligature("".join(map(_TEXT_OF_WORD, found)))  # nor, mostly, pages: no word looked at
    if not page.rotation or turn:
        return [
            Word((x0, y0, x1, y1), text if plain or not ligature(text) else unligated(text), block, order)
            for order, (x0, y0, x1, y1, text, block, _, _) in enumerate(found)
            if text.strip()
        ]
    rotation = page.rotation_matrix
    kept = [(order, word) for order, word in enumerate(found) if word[4].strip()]
    boxes = _turned_boxes([word[:4] for _, word in kept], rotation)
    return [
        Word(box, text if plain or not ligature(text) else unligated(text), block, order)
        for box, (order, (_, _, _, _, text, block, _, _)) in zip(boxes, kept, strict=True)
    ]


# Beyond this MuPDF clamps a coordinate to its infinite box (`_turned_points`): left to MuPDF.
_FINITE = 1e9


def _turned_boxes(boxes: list[Box], turn: pymupdf.Matrix) -> list[Box]:
    """Each box `* turn` (`pymupdf.Rect * Matrix`), the same floats: a page's rotation turns and moves
    a box, and MuPDF's `fz_transform_rect` swaps its sides where the turn mirrors them and moves its
    two corners (`_turned_points`)."""
    a, b, c, d = array("f", (turn.a, turn.b, turn.c, turn.d))  # as MuPDF holds them, in single precision
    if b == 0 and c == 0:
        swap_x, swap_y = a < 0, d < 0
    elif a == 0 and d == 0:
        swap_x, swap_y = b < 0, c < 0
    else:  # MuPDF bounds the four corners: a turn that is no quarter turn is left to it
        return [_as_box(pymupdf.Rect(box) * turn) for box in boxes]
    corners: list[tuple[float, float]] = []
    for x0, y0, x1, y1 in boxes:
        if swap_x:
            x0, x1 = x1, x0
        if swap_y:
            y0, y1 = y1, y0
        corners += ((x0, y0), (x1, y1))
    turned = _turned_points(corners, turn)
    if turned is None:
        return [_as_box(pymupdf.Rect(box) * turn) for box in boxes]
    return [(*turned[at], *turned[at + 1]) for at in range(0, len(turned), 2)]


def _turned_points(
    points: list[tuple[float, float]], turn: pymupdf.Matrix
) -> list[tuple[float, float]] | None:
    """Each point `* turn` as MuPDF's `fz_transform_point` makes it, without a call to MuPDF a point
    (several microseconds each, for every word and rule of a rotated page): in single precision, `x *
    a + y * c + e` and `x * b + y * d + f`. Computed here in double precision and rounded to single
    once, which gives the same floats when a, b, c and d are each 0, 1 or -1 (a page's rotation): the
    products are exact, their sum is the one that is not zero, and the double sum of two singles
    rounds to the single sum. None for any other turn, or a coordinate MuPDF would clamp."""
    a, b, c, d, e, f = array("f", (turn.a, turn.b, turn.c, turn.d, turn.e, turn.f))
    if not {a, b, c, d} <= {0.0, 1.0, -1.0}:
        return None
    singles = array("f", [value for point in points for value in point])
    if not all(abs(value) < _FINITE for value in singles):  # NaN fails it too
        return None
    values = array(
        "f",
        itertools.chain.from_iterable(
            (x * a + y * c + e, x * b + y * d + f) for x, y in zip(singles[::2], singles[1::2], strict=True)
        ),
    )
    return list(zip(values[::2], values[1::2], strict=True))


def _as_box(rect: pymupdf.Rect) -> Box:
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def _word_boxes(page: pymupdf.Page, textpage: pymupdf.TextPage, turn: float = 0) -> tuple[WordBox, ...]:
    """The page's words with their boxes as fractions of the page as shown; of the page upright as OCR
    read it when it read the page a quarter turn round (`_size`; `turn` in degrees): its words are
    placed on the page so turned, and fractions of the page as shown would set the words of its lower
    part past its edge, all at one height (a phone's photo of a till roll stored sideways, its EXIF
    turning it)."""
    rect = page.rect
    width, height = rect.width or 1.0, rect.height or 1.0
    if quarter_of(turn) in (90, 270):
        width, height = height, width

    def share(value: float, whole: float) -> float:
        return round(min(max(value / whole, 0.0), 1.0), 4)

    return tuple(
        (share(x0, width), share(y0, height), share(x1, width), share(y1, height), word.text)
        for word in _words(page, textpage.extractWORDS(), turn)
        for x0, y0, x1, y1 in [word.box]
    )


def _stamped_word_boxes(
    page: pymupdf.Page, layer: pymupdf.TextPage, stamp: list[Box], read: tuple[WordBox, ...]
) -> tuple[WordBox, ...]:
    """The words of a stamped scan read upright: its text layer's, and those OCR `read` outside the
    text layer's blocks (`stamp`), as the page's text keeps them (`merge_stamped`): OCR's reading of
    the text layer's words does not stand for them (a bill printed in small print over a picture of
    its form has its figures misread so)."""
    rect = page.rect
    width, height = rect.width or 1.0, rect.height or 1.0
    boxes = [(x0 / width, y0 / height, x1 / width, y1 / height) for x0, y0, x1, y1 in stamp]

    def in_stamp(word: WordBox) -> bool:  # touching a block: OCR's boxes of a levelled page stray a little
        return any(
            word[0] < x1 and x0 < word[2] and word[1] < y1 and y0 < word[3] for x0, y0, x1, y1 in boxes
        )

    return _word_boxes(page, layer) + tuple(word for word in read if not in_stamp(word))


def _cleaned(text: str) -> str:
    return unligated("\n".join([line.rstrip() for line in text.strip("\n").splitlines()]).strip())


def unligated(text: str) -> str:
    """The text with its ligatures and presentation forms written as the letters they stand for."""
    if not _LIGATURES.search(text):
        return text
    return _LIGATURES.sub(lambda found: unicodedata.normalize("NFKC", found.group()), text)


def _with_columns_apart(textpage: pymupdf.TextPage, blocks: list[Block]) -> list[Block]:
    """The blocks, each block whose lines alternate between columns replaced by its columns. Only the
    lines of those that may (`may_interleave_columns`) are gathered from MuPDF's dict of the page,
    made of the lines within their box alone (`_within`: a page's dict costs as much as its text)."""
    boxes = [box for box, text, _ in blocks if may_interleave_columns(box, text)]
    maybe = {_rounded(box) for box in boxes}
    lines_by_block: dict[Box, list[tuple[Box, str]]] = {}
    x0, y0, x1, y1 = union(boxes)
    around = pymupdf.Rect(x0 - _MARGIN, y0 - _MARGIN, x1 + _MARGIN, y1 + _MARGIN)  # their glyphs whole
    with _within(textpage, around):
        dict_blocks = textpage.extractDICT()["blocks"]
    for block in dict_blocks:
        if block["type"] != _TEXT_BLOCK:
            continue
        key = _rounded(tuple(block["bbox"]))
        if key not in maybe:
            continue
        cleaned = (
            (tuple(line["bbox"]), _cleaned("".join(span["text"] for span in line["spans"])))
            for line in block.get("lines", ())
        )
        lines_by_block[key] = [(box, text) for box, text in cleaned if text]
    apart: list[Block] = []
    for box, text, number in blocks:
        columns = None
        if may_interleave_columns(box, text):
            columns = interleaved_columns(lines_by_block.get(_rounded(box), []))
        apart.extend((part, part_text, number) for part, part_text in columns or [(box, text)])
    return apart


def _rounded(box: tuple[float, ...]) -> Box:
    x0, y0, x1, y1 = (round(value, 1) for value in box)
    return (x0, y0, x1, y1)


# ---------------------------------------------------------------------------------------- tables
def _ruled_grids(page: pymupdf.Page, vectors: list[Box], warnings: list[str]) -> list[Grid]:
    """The page's ruled tables, from its drawings, read only when the pieces of vector paths the text
    page found (`vectors`, their boxes) could hold a table's rules: two pieces or more, spread enough.
    MAX_DRAWINGS is judged on the drawings: the text page counts each piece of a path (a hatching of
    20,000 strokes is one path of the drawings, 20,000 pieces there)."""
    if len(vectors) < 2:  # one piece of a path draws at most one box: one cell is no table
        return []
    if not may_hold_ruled_table(vectors, _LINE):
        return []
    drawings = page.get_cdrawings()
    if len(drawings) > MAX_DRAWINGS:
        warnings.append(f"{len(drawings)} vector paths on the page; tables were not looked for")
        return []
    unturned = page.rect * page.derotation_matrix if page.rotation else page.rect
    return ruled_grids(*_rules(drawings, page.rotation_matrix if page.rotation else None, tuple(unturned)))


def _aligned_grids(words: list[Word], ruled: list[Grid]) -> list[Grid]:
    """Tables of aligned columns, outside the ruled ones. One that overlaps a ruled table is dropped:
    when one did, the search is made again without the words beside the ruled tables (`_beside`)."""
    outside = [word for word in words if not any(grid.holds(word) for grid in ruled)] if ruled else words
    found = aligned_grids(outside)
    kept = [grid for grid in found if not any(overlaps(grid.box, other.box) for other in ruled)]
    if len(kept) == len(found):
        return kept
    away = [word for word in outside if not _beside(word, ruled)]
    return [grid for grid in aligned_grids(away) if not any(overlaps(grid.box, other.box) for other in ruled)]


def _beside(word: Word, ruled: list[Grid]) -> bool:
    """Whether a word stands level with a ruled table, left or right of it (a chart's axis labels
    beside its gridlines): the table of aligned columns above or below the ruled one, its words
    taken for one more row of it, overlapped the ruled one and was lost."""
    y = word.centre[1]
    return any(grid.box[1] <= y <= grid.box[3] for grid in ruled)


def _rules(
    drawings: list[dict[str, object]],
    turn: pymupdf.Matrix | None,
    page: Box | None = None,
    corners: bool = False,
) -> tuple[list[Segment], list[Segment]]:
    """The horizontal and vertical rules the drawings hold (lines, thin rectangles, the edges of boxes),
    as the page is shown (`turn`: its rotation). A box as large as the page (`page`, unturned) is its
    background or a frame around all of it: its edges are the page's, no table's (a slide's white page
    with its title bar and the boxes of its foot would make the whole slide a table's cell). With
    `corners`, a box's rounded corner (a small curve from a horizontal tangent to a vertical one) is
    drawn square: its two sides then meet, as the frame a reader sees closes there."""
    horizontal: list[Segment] = []
    vertical: list[Segment] = []
    ends: list[tuple[float, float]] = []  # each line's two ends, turned together (`_turned_points`)

    def add(x0: float, y0: float, x1: float, y1: float) -> None:
        ends.extend(((x0, y0), (x1, y1)))

    for drawing in drawings:
        items = list(drawing.get("items", ()))  # type: ignore[call-overload]
        for at, item in enumerate(items):
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                add(x0, y0, x1, y1)
            elif (
                item[0] == "c"
                and corners
                and _between_sides(items, at)
                and (corner := _rounded_corner(item[1:5])) is not None
            ):
                (x0, y0), (x, y), (x1, y1) = corner
                add(x0, y0, x, y)
                add(x, y, x1, y1)
            elif item[0] in {"re", "qu"}:
                x0, y0, x1, y1 = item[1] if item[0] == "re" else pymupdf.Quad(item[1]).rect
                if abs(y1 - y0) < _LINE:  # a rule drawn as a thin rectangle
                    add(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2)
                elif abs(x1 - x0) < _LINE:
                    add((x0 + x1) / 2, y0, (x0 + x1) / 2, y1)
                elif page is not None and _covers(page, (x0, y0, x1, y1)):
                    continue
                else:  # a box: its four edges
                    add(x0, y0, x1, y0)
                    add(x0, y1, x1, y1)
                    add(x0, y0, x0, y1)
                    add(x1, y0, x1, y1)
    if turn is not None:
        turned = _turned_points(ends, turn)
        ends = turned if turned is not None else [_as_point(pymupdf.Point(end) * turn) for end in ends]
    for at in range(0, len(ends), 2):
        (x0, y0), (x1, y1) = ends[at], ends[at + 1]
        if abs(y1 - y0) < _LINE <= abs(x1 - x0):
            horizontal.append(((y0 + y1) / 2, x0, x1))
        elif abs(x1 - x0) < _LINE <= abs(y1 - y0):
            vertical.append(((x0 + x1) / 2, y0, y1))
    return horizontal, vertical


_CORNER = 12.0  # points: the largest radius of a box's rounded corner


_CORNER_SIDE = 10.0  # points: the shortest side of a box with rounded corners


def _between_sides(items: list[Any], at: int) -> bool:
    """Whether the curve `items[at]` of a path joins two straight lines of `_CORNER_SIDE` or more (a
    box's sides; the last item of a closed path meets its first), not the short strokes of a glyph's
    outline drawn as a path."""
    sides = [items[near % len(items)] for near in (at - 1, at + 1) if items[near % len(items)][0] == "l"]
    return len(sides) == 2 and all(
        pymupdf.Point(side[1]).distance_to(pymupdf.Point(side[2])) >= _CORNER_SIDE for side in sides
    )


def _rounded_corner(points: Sequence[object]) -> tuple[tuple[float, float], ...] | None:
    """A curve that rounds a box's corner (its ends at most `_CORNER` apart each way, leaving one end
    along a horizontal and reaching the other along a vertical, or the reverse): its start, the square
    corner, its end; None for any other curve."""
    start, first, second, end = (pymupdf.Point(point) for point in points)
    if not (0 < abs(end.x - start.x) <= _CORNER and 0 < abs(end.y - start.y) <= _CORNER):
        return None
    if abs(first.y - start.y) < _LINE and abs(second.x - end.x) < _LINE:
        corner = (end.x, start.y)  # leaves along the horizontal, turns down or up
    elif abs(first.x - start.x) < _LINE and abs(second.y - end.y) < _LINE:
        corner = (start.x, end.y)
    else:
        return None
    return (start.x, start.y), corner, (end.x, end.y)


def _covers(page: Box, box: Box) -> bool:
    return (
        box[0] <= page[0] + _LINE
        and box[1] <= page[1] + _LINE
        and box[2] >= page[2] - _LINE
        and box[3] >= page[3] - _LINE
    )


def _as_point(point: pymupdf.Point) -> tuple[float, float]:
    return (point.x, point.y)
