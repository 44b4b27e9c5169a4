"""PDF and image documents through PyMuPDF: text in reading order, tables in place, OCR for scans.

A page is a PDF page, an image, or a frame of a multi-frame TIFF.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pymupdf

from docsvc.documents.engine.errors import DamagedDocument, EmptyDocument, EncryptedDocument
from docsvc.documents.engine.layout import (
    Box,
    has_aligned_columns,
    has_ruling_grid,
    interleaved_columns,
    may_hold_aligned_columns,
    may_interleave_columns,
    place_tables,
)
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.ocr import MAX_OCR_PIXELS, ocr_textpage, reason
from docsvc.documents.engine.tables import render_table
from docsvc.documents.readable import IMAGE_TYPES

PILLOW_TYPES = frozenset({"webp"})
MAX_DRAWINGS = 20_000  # more vector paths than this: the page is art, not a table
# TEXT_COLLECT_VECTORS adds a block (kind 3) for each piece of a vector path, at no measurable cost on
# pages of text: a page without one has no ruling lines, so its drawings need not be extracted.
_TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_DEHYPHENATE
    | pymupdf.TEXT_COLLECT_VECTORS
)
_TEXT_BLOCK, _VECTOR_BLOCK = 0, 3
_LINE = 1.5  # a path thinner than this is a ruling line

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)
pymupdf.no_recommend_layout()  # it would print to stdout, which is the parse worker's log


def count_pages(content: bytes, kind: str) -> int:
    with _open(content, kind) as document:
        return int(document.page_count)


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    with _open(content, kind) as document:
        for index in range(first - 1, document.page_count):
            warnings: list[str] = []
            text = _page_text(document[index], kind in IMAGE_TYPES, options, warnings)
            yield Page(index + 1, text, tuple(warnings))


def _open(content: bytes, kind: str) -> pymupdf.Document:
    try:
        if kind in PILLOW_TYPES:
            content, kind = _as_png(content), "png"
        document = pymupdf.open(stream=content, filetype="pdf" if kind == "pdf" else kind)
    except Exception as error:  # MuPDF raises plain RuntimeErrors and ValueErrors for damaged files
        raise DamagedDocument(f"the {kind.upper()} could not be opened: {reason(error)}") from None
    if document.needs_pass and not document.authenticate(""):
        document.close()
        raise EncryptedDocument("the PDF is password-protected; send it without its password")
    if document.page_count == 0:
        document.close()
        raise EmptyDocument(f"the {kind.upper()} has no pages")
    return document


def _as_png(content: bytes) -> bytes:
    """An image MuPDF does not decode, through Pillow, which refuses decompression bombs itself."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = MAX_OCR_PIXELS
    with Image.open(io.BytesIO(content)) as image:
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()


def _page_text(page: pymupdf.Page, is_image: bool, options: ParseOptions, warnings: list[str]) -> str:
    textpage = page.get_textpage(flags=_TEXT_FLAGS)
    blocks, vectors = _text_blocks(page, textpage)
    if not blocks and (is_image or page.get_images()):
        ocr = ocr_textpage(page, _TEXT_FLAGS, options, warnings)
        if ocr is None:
            return ""
        textpage = ocr
        blocks, _ = _text_blocks(page, textpage)
    tables = _tables(page, textpage, blocks, vectors, options, warnings) if blocks else []
    return "\n\n".join(place_tables(blocks, tables))


def _text_blocks(page: pymupdf.Page, textpage: pymupdf.TextPage) -> tuple[list[tuple[Box, str]], int]:
    """The page's blocks of text, and how many vector paths it has."""
    blocks, vectors = [], 0
    for x0, y0, x1, y1, text, _, kind in page.get_text("blocks", textpage=textpage):
        vectors += kind == _VECTOR_BLOCK
        cleaned = _cleaned(text)
        if kind == _TEXT_BLOCK and cleaned:
            blocks.append(((x0, y0, x1, y1), cleaned))
    if any(may_interleave_columns(box, text) for box, text in blocks):
        return _with_columns_apart(textpage, blocks), vectors
    return blocks, vectors


def _cleaned(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip()


def _with_columns_apart(textpage: pymupdf.TextPage, blocks: list[tuple[Box, str]]) -> list[tuple[Box, str]]:
    """The blocks, each block whose lines alternate between columns replaced by its columns."""
    lines_by_block: dict[Box, list[tuple[Box, str]]] = {}
    for block in textpage.extractDICT()["blocks"]:
        if block["type"] != _TEXT_BLOCK:
            continue
        lines = [
            (tuple(line["bbox"]), "".join(span["text"] for span in line["spans"]))
            for line in block.get("lines", ())
        ]
        lines_by_block[_rounded(tuple(block["bbox"]))] = [
            (box, _cleaned(text)) for box, text in lines if _cleaned(text)
        ]
    apart: list[tuple[Box, str]] = []
    for box, text in blocks:
        columns = None
        if may_interleave_columns(box, text):
            columns = interleaved_columns(lines_by_block.get(_rounded(box), []))
        apart.extend(columns or [(box, text)])
    return apart


def _rounded(box: tuple[float, ...]) -> Box:
    x0, y0, x1, y1 = (round(value, 1) for value in box)
    return (x0, y0, x1, y1)


# ---------------------------------------------------------------------------------------- tables
def _tables(
    page: pymupdf.Page,
    textpage: pymupdf.TextPage,
    blocks: list[tuple[Box, str]],
    vectors: int,
    options: ParseOptions,
    warnings: list[str],
) -> list[tuple[Box, str]]:
    """The page's tables rendered in place; detection runs only on pages that can hold one."""
    strategy = _table_strategy(page, textpage, [text for _, text in blocks], vectors, warnings)
    if strategy is None:
        return []
    try:
        found = page.find_tables(**strategy)
    except Exception as error:
        warnings.append(f"table detection failed: {reason(error)}")
        return []
    tables = []
    for table in found.tables:
        rows, box = table.extract(), tuple(table.bbox)
        if strategy:  # found by text alignment: a caption above or a note below is not a row
            rows, box = _without_single_cell_edges(rows, [row.bbox for row in table.rows], box)
        if len(rows) >= 2 and table.col_count >= 2:
            tables.append((box, render_table(rows, options.table_format)))
    return tables


def _without_single_cell_edges(
    rows: list[list[str | None]], row_boxes: list[Box], box: Box
) -> tuple[list[list[str | None]], Box]:
    start, end = 0, len(rows)
    while start < end and sum(1 for cell in rows[start] if cell) <= 1:
        start += 1
    while end > start and sum(1 for cell in rows[end - 1] if cell) <= 1:
        end -= 1
    if start == end:
        return [], box
    return rows[start:end], (box[0], row_boxes[start][1], box[2], row_boxes[end - 1][3])


def _table_strategy(
    page: pymupdf.Page, textpage: pymupdf.TextPage, block_texts: list[str], vectors: int, warnings: list[str]
) -> dict[str, str] | None:
    """Ruled tables are looked for in the page's drawings, read only when the text page found vector
    paths at all. It counts each piece of a path (a hatching of 20,000 strokes is one path of the
    drawings, 20,000 pieces here), so MAX_DRAWINGS is judged on the drawings."""
    drawings = page.get_cdrawings() if vectors else []
    if len(drawings) > MAX_DRAWINGS:
        warnings.append(f"{len(drawings)} vector paths on the page; tables were not looked for")
        return None
    horizontal, vertical = _ruling_lines(drawings)
    if has_ruling_grid(horizontal, vertical):
        return {}
    if may_hold_aligned_columns(block_texts) and has_aligned_columns(
        page.get_text("words", textpage=textpage)
    ):
        return {
            "vertical_strategy": "text",
            "horizontal_strategy": "lines" if horizontal >= 3 else "text",
        }
    return None


def _ruling_lines(drawings: list[dict[str, object]]) -> tuple[int, int]:
    horizontal = vertical = 0
    for drawing in drawings:
        for item in drawing.get("items", ()):  # type: ignore[attr-defined]
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                horizontal += abs(y1 - y0) < _LINE and abs(x1 - x0) > _LINE
                vertical += abs(x1 - x0) < _LINE and abs(y1 - y0) > _LINE
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                width, height = abs(x1 - x0), abs(y1 - y0)
                if height < _LINE <= width:
                    horizontal += 1
                elif width < _LINE <= height:
                    vertical += 1
                elif width >= _LINE and height >= _LINE:
                    horizontal, vertical = horizontal + 2, vertical + 2
    return horizontal, vertical
