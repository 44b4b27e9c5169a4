"""OpenDocument text and presentations (odt, ott, odp): a zip package whose `content.xml` holds the
document. What a page is:

- odt, ott: a page as the writing application last laid it out (its soft page breaks), and every
  explicit page break (a paragraph or heading whose style breaks the page before or after it);
  headings become `#` lines (by outline level), list items `- `, tables are rendered in place;
- odp: a slide (`draw:page`): its title as `# `, then the text of its frames and shapes and its tables
  in slide order; speaker notes are left out.

Spreadsheets (ods, ots) are read by `spreadsheets`. The package is read within the caps of `office`
and its XML with defusedxml (no DTDs, no entities). Footnotes, comments and tracked deletions are left
out of the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree.ElementTree import Element

from docsvc.documents.engine.errors import DamagedDocument
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.office import MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, Package
from docsvc.documents.engine.tables import render_table

_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
_PRESENTATION = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"
_BREAK = None  # a page break among the blocks
_SKIPPED = {
    f"{_TEXT}note",
    f"{_OFFICE}annotation",
    f"{_OFFICE}annotation-end",
    f"{_TEXT}tracked-changes",
    f"{_TEXT}sequence-decls",
    f"{_TEXT}variable-decls",
    f"{_TEXT}user-field-decls",
    f"{_TEXT}table-of-content-source",
    f"{_TEXT}alphabetical-index-source",
    f"{_TEXT}illustration-index-source",
    f"{_TEXT}bibliography-source",
    f"{_OFFICE}forms",
    f"{_PRESENTATION}notes",
    f"{_OFFICE}event-listeners",
}
Block = str | list[list[str]] | None


def count_pages(content: bytes, kind: str) -> int:
    with Package(content) as package:
        return len(_pages(package, kind, ParseOptions()))


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    with Package(content) as package:
        for number, text in enumerate(_pages(package, kind, options), start=1):
            if number >= first:
                yield Page(number, text)


def _pages(package: Package, kind: str, options: ParseOptions) -> list[str]:
    content = package.xml("content.xml")
    body = content.find(f"{_OFFICE}body")
    if body is None:
        raise DamagedDocument("the OpenDocument file has no body")
    try:
        if kind == "odp":
            presentation = body.find(f"{_OFFICE}presentation")
            slides = presentation.findall(f"{_DRAW}page") if presentation is not None else []
            return [_slide_text(slide, options) for slide in slides] or [""]
        document = body.find(f"{_OFFICE}text")
        if document is None:
            raise DamagedDocument("the OpenDocument file holds no text document")
        breaks = _breaking_styles(content)
        if "styles.xml" in package.names:
            breaks = _breaking_styles(package.xml("styles.xml")) | breaks
        return _text_pages(_blocks(document, breaks), options)
    except RecursionError:
        raise DamagedDocument("the OpenDocument file nests its elements too deeply") from None


def _breaking_styles(root: Element) -> dict[str, str]:
    """Paragraph styles that break the page: style name -> "before" or "after"."""
    found: dict[str, str] = {}
    for style in root.iter(f"{_STYLE}style"):
        properties = style.find(f"{_STYLE}paragraph-properties")
        if properties is None:
            continue
        for side in ("before", "after"):
            if properties.get(f"{_FO}break-{side}") == "page":
                found[style.get(f"{_STYLE}name", "")] = side
    return found


def _text_pages(blocks: Iterator[Block], options: ParseOptions) -> list[str]:
    pages: list[list[str]] = [[]]
    for block in blocks:
        if block is _BREAK:
            if pages[-1]:
                pages.append([])
        elif isinstance(block, list):
            table = render_table(block, options.table_format)
            if table:
                pages[-1].append(table)
        elif block:
            pages[-1].append(block)
    texts = ["\n\n".join(page) for page in pages]
    return texts if texts[-1] or len(texts) == 1 else texts[:-1]


def _blocks(container: Element, breaks: dict[str, str], prefix: str = "") -> Iterator[Block]:
    """Paragraph texts, tables (rows of cells) and page breaks in document order."""
    for element in container:
        tag = element.tag
        if tag in _SKIPPED:
            continue
        if tag in {f"{_TEXT}p", f"{_TEXT}h"}:
            side = breaks.get(element.get(f"{_TEXT}style-name", ""))
            if side == "before":
                yield _BREAK
            text = inline_text(element).strip()
            if text:
                yield _heading(element) + prefix + text if tag == f"{_TEXT}h" else prefix + text
            if side == "after":
                yield _BREAK
        elif tag == f"{_TEXT}soft-page-break":
            yield _BREAK
        elif tag == f"{_TEXT}list":
            for item in element:
                if item.tag in {f"{_TEXT}list-item", f"{_TEXT}list-header"}:
                    yield from _blocks(item, breaks, "- ")
        elif tag == f"{_TABLE}table":
            yield _table_rows(element)
        else:  # sections, indexes' bodies, frames, text boxes: their blocks in place
            yield from _blocks(element, breaks, prefix)


def _heading(element: Element) -> str:
    level = element.get(f"{_TEXT}outline-level", "1")
    return "#" * min(int(level), 6) + " " if level.isdigit() and int(level) > 0 else "# "


def inline_text(element: Element) -> str:
    """The text of a paragraph with its spans, links, spaces, tabs and line breaks."""
    parts = [element.text or ""]
    for child in element:
        tag = child.tag
        if tag == f"{_TEXT}s":
            count = child.get(f"{_TEXT}c", "1")
            parts.append(" " * min(int(count) if count.isdigit() else 1, 100))
        elif tag == f"{_TEXT}tab":
            parts.append("\t")
        elif tag == f"{_TEXT}line-break":
            parts.append("\n")
        elif tag not in _SKIPPED and not tag.startswith(_DRAW):
            parts.append(inline_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _table_rows(table: Element) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in _rows_of(table):
        cells: list[str] = []
        for cell in row:
            if cell.tag not in {f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"}:
                continue
            text = " ".join(
                inline_text(p).strip() for p in cell.iter() if p.tag in {f"{_TEXT}p", f"{_TEXT}h"}
            )
            repeated = cell.get(f"{_TABLE}number-columns-repeated", "1")
            cells.extend([text.strip()] * min(int(repeated) if repeated.isdigit() else 1, MAX_SHEET_COLUMNS))
            if len(cells) >= MAX_SHEET_COLUMNS:
                break
        while cells and not cells[-1]:
            cells.pop()
        repeated = row.get(f"{_TABLE}number-rows-repeated", "1")
        times = int(repeated) if repeated.isdigit() and any(cells) else 1
        rows.extend([cells] * min(times, MAX_SHEET_ROWS - len(rows)))
        if len(rows) >= MAX_SHEET_ROWS:
            break
    return rows


def _rows_of(container: Element) -> Iterator[Element]:
    for child in container:
        if child.tag == f"{_TABLE}table-row":
            yield child
        elif child.tag in {f"{_TABLE}table-header-rows", f"{_TABLE}table-rows", f"{_TABLE}table-row-group"}:
            yield from _rows_of(child)


def _slide_text(slide: Element, options: ParseOptions) -> str:
    return "\n\n".join(_shape_texts(slide, options))


def _shape_texts(group: Element, options: ParseOptions) -> Iterator[str]:
    for shape in group:
        if shape.tag in _SKIPPED:
            continue
        if shape.tag == f"{_DRAW}g":
            yield from _shape_texts(shape, options)
            continue
        tables = [child for child in shape.iter(f"{_TABLE}table")]
        for table in tables:
            rendered = render_table(_table_rows(table), options.table_format)
            if rendered:
                yield rendered
        if tables:
            continue
        lines = [block for block in _blocks(shape, {}) if isinstance(block, str) and block]
        text = "\n".join(lines).strip()
        if text:
            title = shape.get(f"{_PRESENTATION}class") == "title"
            yield f"# {text}" if title else text
