"""Word and PowerPoint (Office Open XML), and the package caps every zip-based document is read within.
What a page is:

- docx, and its macro-enabled and template variants docm, dotx, dotm (the same parts inside): a page as
  Word last laid it out (its rendered page breaks), and every explicit page break; headings become `#`
  lines, list items `- `, tables are rendered in place;
- pptx: a slide: its title as `# `, then the text of its shapes and its tables in slide order.

Workbooks are read by `spreadsheets` (python-calamine), after `check_archive` and with the sheet parts
listed here. The archive is read with caps on the number of parts and on what each part expands to (zip
bombs), and its XML with defusedxml, which refuses entity declarations (billion laughs, external
entities).
"""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator
from io import BytesIO
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeXML
from defusedxml import DefusedXmlException

from docsvc.documents.engine.errors import DamagedDocument, DecompressionLimit
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.tables import render_table

MAX_PARTS = 10_000
MAX_PART_BYTES = 100 * 1024 * 1024
MAX_TOTAL_BYTES = 300 * 1024 * 1024
MAX_SHEET_ROWS = 100_000
MAX_SHEET_COLUMNS = 500

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def count_pages(content: bytes, kind: str) -> int:
    with Package(content) as package:
        if kind == "pptx":
            return len(_slide_parts(package))
        return len(_docx_pages(package, ParseOptions()))


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    with Package(content) as package:
        if kind == "pptx":
            for number, part in enumerate(_slide_parts(package), start=1):
                if number >= first:
                    yield Page(number, _slide_text(package.xml(part), options))
        else:
            for number, text in enumerate(_docx_pages(package, options), start=1):
                if number >= first:
                    yield Page(number, text)


def check_archive(content: bytes) -> None:
    """Refuses a zip package over the caps by what its directory declares: too many parts, a part or the
    whole expanding past MAX_PART_BYTES or MAX_TOTAL_BYTES (for readers that unpack it themselves)."""
    with Package(content) as package:
        for member in package.archive.infolist():
            if member.file_size > MAX_PART_BYTES:
                raise DecompressionLimit(
                    f"part '{member.filename}' expands to more than {MAX_PART_BYTES} bytes"
                )


class Package:
    """A zip package (OOXML, OpenDocument) whose parts are read within the caps."""

    def __init__(self, content: bytes) -> None:
        try:
            self.archive = zipfile.ZipFile(BytesIO(content))
        except (zipfile.BadZipFile, ValueError, OSError) as error:
            raise DamagedDocument(f"the document is not a readable Office file: {error}") from None
        members = self.archive.infolist()
        if len(members) > MAX_PARTS:
            raise DecompressionLimit(f"the document has {len(members)} parts; at most {MAX_PARTS} are read")
        if sum(member.file_size for member in members) > MAX_TOTAL_BYTES:
            raise DecompressionLimit(f"the document expands to more than {MAX_TOTAL_BYTES} bytes")
        self.names = {member.filename for member in members}

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *_: object) -> None:
        self.archive.close()

    def read(self, name: str) -> bytes:
        try:
            with self.archive.open(name) as member:
                data = member.read(MAX_PART_BYTES + 1)
        except KeyError:
            raise DamagedDocument(f"the document has no part '{name}'") from None
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, zlib.error) as error:
            raise DamagedDocument(f"part '{name}' of the document is damaged: {error}") from None
        if len(data) > MAX_PART_BYTES:
            raise DecompressionLimit(f"part '{name}' expands to more than {MAX_PART_BYTES} bytes")
        return data

    def xml(self, name: str) -> Element:
        try:
            root: Element = SafeXML.fromstring(self.read(name), forbid_dtd=True)
        except DefusedXmlException:
            raise DamagedDocument(
                f"part '{name}' declares a DTD or entities; Office files never do"
            ) from None
        except SafeXML.ParseError as error:
            raise DamagedDocument(f"part '{name}' is not well-formed XML: {error}") from None
        return root

    def related(self, part: str) -> dict[str, str]:
        """The targets of `part`'s relationships by id, as part names."""
        folder, name = posixpath.split(part)
        rels = posixpath.join(folder, "_rels", f"{name}.rels")
        if rels not in self.names:
            return {}
        return {
            rel.get("Id", ""): _part_name(folder, rel.get("Target", ""))
            for rel in self.xml(rels).iter(f"{_REL}Relationship")
            if rel.get("TargetMode") != "External"
        }


def _part_name(folder: str, target: str) -> str:
    """A relationship target as a part name: absolute targets start at the package root."""
    if target.startswith("/"):
        return posixpath.normpath(target).lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target))


def _listed_parts(package: Package, index: str, tag: str) -> list[tuple[Element, str]]:
    """The parts an index part lists in order (sheets of a workbook, slides of a presentation)."""
    targets = package.related(index)
    listed = []
    for entry in package.xml(index).iter(tag):
        part = targets.get(entry.get(f"{_R}id", ""))
        if part in package.names:
            listed.append((entry, part))
    return listed


def _text_of(element: Element, text_tag: str) -> str:
    return "".join(node.text or "" for node in element.iter(text_tag))


# ---------------------------------------------------------------------------------------- Word
def _docx_pages(package: Package, options: ParseOptions) -> list[str]:
    body = package.xml("word/document.xml").find(f"{_W}body")
    if body is None:
        raise DamagedDocument("the Word document has no body")
    pages: list[list[str]] = [[]]
    for block in _docx_blocks(body):
        if block is None:
            if pages[-1]:
                pages.append([])
        elif isinstance(block, list):
            pages[-1].append(render_table(block, options.table_format))
        elif block:
            pages[-1].append(block)
    texts = ["\n\n".join(page) for page in pages]
    return texts if texts[-1] or len(texts) == 1 else texts[:-1]


def _docx_blocks(container: Element) -> Iterator[str | list[list[str]] | None]:
    """Paragraph texts, tables (rows of cells) and page breaks (None) in document order."""
    for element in container:
        if element.tag == f"{_W}p":
            yield from _docx_paragraph(element)
        elif element.tag == f"{_W}tbl":
            yield [
                [
                    " ".join(_paragraph_text(p) for p in cell.iter(f"{_W}p")).strip()
                    for cell in row.findall(f"{_W}tc")
                ]
                for row in element.findall(f"{_W}tr")
            ]
        elif element.tag == f"{_W}sdt":
            content = element.find(f"{_W}sdtContent")
            if content is not None:
                yield from _docx_blocks(content)


def _docx_paragraph(paragraph: Element) -> Iterator[str | None]:
    properties = paragraph.find(f"{_W}pPr")
    if properties is not None and properties.find(f"{_W}pageBreakBefore") is not None:
        yield None
    prefix = _paragraph_prefix(properties)
    parts: list[str] = []
    for node in paragraph.iter():
        if node.tag == f"{_W}t":
            parts.append(node.text or "")
        elif node.tag == f"{_W}tab":
            parts.append("\t")
        elif node.tag in {f"{_W}br", f"{_W}cr"} and node.get(f"{_W}type") != "page":
            parts.append("\n")
        elif node.tag == f"{_W}lastRenderedPageBreak" or (
            node.tag == f"{_W}br" and node.get(f"{_W}type") == "page"
        ):
            text = "".join(parts).strip()
            if text:
                yield prefix + text
            parts, prefix = [], ""
            yield None
    text = "".join(parts).strip()
    if text:
        yield prefix + text


def _paragraph_text(paragraph: Element) -> str:
    return _text_of(paragraph, f"{_W}t")


def _paragraph_prefix(properties: Element | None) -> str:
    if properties is None:
        return ""
    style = properties.find(f"{_W}pStyle")
    name = (style.get(f"{_W}val") or "") if style is not None else ""
    heading = re.fullmatch(r"(?i)heading\s*([1-6])", name)
    if heading:
        return "#" * int(heading.group(1)) + " "
    if name.lower() == "title":
        return "# "
    if properties.find(f"{_W}numPr") is not None or name.lower().startswith("list"):
        return "- "
    return ""


# ---------------------------------------------------------------------------------------- Excel
SPREADSHEET_NS = _S


def sheet_parts(package: Package) -> list[tuple[str, str]]:
    """The workbook's sheets in order: (name, part)."""
    return [
        (sheet.get("name", "Sheet"), part)
        for sheet, part in _listed_parts(package, "xl/workbook.xml", f"{_S}sheet")
    ]


def column_index(reference: str) -> int:
    """The 0-based column of a cell reference ("B7" is 1)."""
    letters = re.match(r"[A-Z]+", reference.upper())
    index = 0
    for letter in letters.group(0) if letters else "A":
        index = index * 26 + ord(letter) - 64
    return index - 1


# ---------------------------------------------------------------------------------------- PowerPoint
def _slide_parts(package: Package) -> list[str]:
    return [part for _, part in _listed_parts(package, "ppt/presentation.xml", f"{_P}sldId")]


def _slide_text(slide: Element, options: ParseOptions) -> str:
    tree = slide.find(f"{_P}cSld/{_P}spTree")
    return "\n\n".join(_shape_texts(tree, options)) if tree is not None else ""


def _shape_texts(group: Element, options: ParseOptions) -> Iterator[str]:
    for shape in group:
        if shape.tag == f"{_P}grpSp":
            yield from _shape_texts(shape, options)
        elif shape.tag == f"{_P}graphicFrame":
            for table in shape.iter(f"{_A}tbl"):
                rows = [
                    [_drawing_text(cell) for cell in row.findall(f"{_A}tc")] for row in table.iter(f"{_A}tr")
                ]
                yield render_table(rows, options.table_format)
        elif shape.tag == f"{_P}sp":
            text = _drawing_text(shape)
            if text:
                yield f"# {text}" if _is_title(shape) else text


def _drawing_text(element: Element) -> str:
    paragraphs = ("".join(run.text or "" for run in p.iter(f"{_A}t")) for p in element.iter(f"{_A}p"))
    return "\n".join(text for text in paragraphs if text.strip()).strip()


def _is_title(shape: Element) -> bool:
    placeholder = shape.find(f"{_P}nvSpPr/{_P}nvPr/{_P}ph")
    return placeholder is not None and placeholder.get("type") in {"title", "ctrTitle"}
