"""Text formats. What a page is:

- txt, md, json, xml, yaml: the text as sent, split at form feeds (no form feed: one page);
- csv, tsv: one page, the rows as one table (a CSV is a spreadsheet of one sheet);
- html, htm: the visible text with headings, lists and tables, split where the markup asks for a page
  break (`page-break-before/after: always`, `break-before/after: page`);
- eml: one page: the headers people read, the text body (HTML bodies as HTML above) and the names of
  the attachments;
- mhtml (a web page saved with its resources): its HTML part, as HTML above;
- rtf: the text (striprtf), split at explicit page breaks (`\\page`); table cells separated by `|`;
- svg: one page: the drawing's title as `# `, then the text of each `<text>` element on its own line.
"""

from __future__ import annotations

import csv
import email
import email.policy
import io
import re
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from html.parser import HTMLParser
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeXML
from defusedxml import DefusedXmlException
from striprtf import striprtf

from docsvc.documents.engine.errors import DamagedDocument
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.tables import TableFormat, render_table
from docsvc.documents.readable import PLAIN_TYPES
from docsvc.lookup_tables.reading import sniff_delimiter
from docsvc.text_decoding import decode_text

MAX_TABLE_ROWS = 100_000


def count_pages(content: bytes, kind: str) -> int:
    return sum(1 for _ in read_pages(content, kind, ParseOptions()))


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    warnings: list[str] = []
    if kind in PLAIN_TYPES:
        texts = decode(content).split("\f")
    elif kind in {"csv", "tsv"}:
        texts = [_delimited(decode(content), kind, options.table_format, warnings)]
    elif kind in {"html", "htm"}:
        texts = html_pages(decode(content), options.table_format)
    elif kind == "mhtml":
        texts = _mhtml(content, options.table_format)
    elif kind == "rtf":
        texts = _rtf(content)
    elif kind == "svg":
        texts = [_svg(content)]
    else:
        texts = [_email(content, options.table_format)]
    for number, text in enumerate(texts, start=1):
        if number >= first:
            yield Page(number, text.strip(), tuple(warnings) if number == 1 else ())


def decode(content: bytes) -> str:
    """Text by docsvc.text_decoding (the decoder CSV tables use too), with its line ends as "\n"."""
    text, _ = decode_text(content)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _delimited(text: str, kind: str, table_format: TableFormat, warnings: list[str]) -> str:
    delimiter = "\t" if kind == "tsv" else sniff_delimiter(text)
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(text), delimiter=delimiter):
            if len(rows) == MAX_TABLE_ROWS:
                warnings.append(f"only the first {MAX_TABLE_ROWS} rows were read")
                break
            rows.append(row)
    except csv.Error as error:
        warnings.append(f"the {kind.upper()} is malformed after row {len(rows)}: {error}")
    return render_table(rows, table_format)


# ---------------------------------------------------------------------------------------- HTML
_BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "dd",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tr",
        "ul",
    ]
)
_SKIPPED_TAGS = frozenset({"script", "style", "head", "template", "noscript", "svg", "title"})
_BREAK_BEFORE = re.compile(r"(page-break-before|break-before)\s*:\s*(always|page)", re.IGNORECASE)
_BREAK_AFTER = re.compile(r"(page-break-after|break-after)\s*:\s*(always|page)", re.IGNORECASE)
_VOID_TAGS = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
)


class _HtmlText(HTMLParser):
    """Visible text of an HTML document: blocks on their own lines, markdown-style headings and list
    items, tables rendered in the requested format, pages split at CSS page breaks."""

    def __init__(self, table_format: TableFormat) -> None:
        super().__init__(convert_charrefs=True)
        self.table_format = table_format
        self.pages: list[list[str]] = [[]]
        self.skipping = 0
        self.breaks_after: list[bool] = []
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        style = next((value or "" for name, value in attrs if name == "style"), "")
        if tag not in _VOID_TAGS:
            self.breaks_after.append(bool(_BREAK_AFTER.search(style)))
        if _BREAK_BEFORE.search(style) and any(self.pages[-1]):
            self.pages.append([])
        if tag in _SKIPPED_TAGS:
            self.skipping += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in {"td", "th"} and self.tables:
            self.cell = []
        elif tag == "br":
            self._write("\n")
        elif tag in _BLOCK_TAGS:
            self._write("\n")
            if tag[0] == "h" and tag[1:].isdigit():
                self._write("#" * int(tag[1:]) + " ")
            elif tag == "li":
                self._write("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping = max(self.skipping - 1, 0)
        elif tag in {"td", "th"} and self.cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None
        elif tag == "table" and self.tables:
            rows = self.tables.pop()
            self._write("\n" + render_table(rows, self.table_format) + "\n")
        elif tag in _BLOCK_TAGS:
            self._write("\n")
        if tag not in _VOID_TAGS and self.breaks_after and self.breaks_after.pop():
            self.pages.append([])

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        text = re.sub(r"\s+", " ", data)
        if self.cell is not None:
            self.cell.append(text)
        elif self.tables:
            return  # text between table cells
        else:
            self._write(text)

    def _write(self, text: str) -> None:
        if self.cell is not None:
            self.cell.append(" " if text == "\n" else text)
        else:
            self.pages[-1].append(text)

    def page_texts(self) -> list[str]:
        texts = []
        for parts in self.pages:
            lines = (line.strip() for line in "".join(parts).split("\n"))
            texts.append(re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip())
        return [text for text in texts if text] or [""]


def html_pages(text: str, table_format: TableFormat) -> list[str]:
    parser = _HtmlText(table_format)
    parser.feed(text)
    parser.close()
    return parser.page_texts()


# ---------------------------------------------------------------------------------------- e-mail
_HEADERS = ("From", "To", "Cc", "Date", "Subject")


def _email(content: bytes, table_format: TableFormat) -> str:
    message = email.message_from_bytes(content, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    lines = [f"{name}: {message[name]}" for name in _HEADERS if message[name]]
    body = message.get_body(preferencelist=("plain", "html"))
    if isinstance(body, EmailMessage):
        text = _part_text(body)
        if body.get_content_subtype() == "html":
            text = "\n\n".join(html_pages(text, table_format))
        lines += ["", text.strip()]
    attachments = [
        f"- {part.get_filename() or 'unnamed'} ({part.get_content_type()})"
        for part in message.iter_attachments()
        if isinstance(part, EmailMessage)
    ]
    if attachments:
        lines += ["", "Attachments:", *attachments]
    return "\n".join(lines)


def _part_text(part: EmailMessage) -> str:
    try:
        content = part.get_content()
    except (LookupError, ValueError):  # an unknown charset or a broken transfer encoding
        payload = part.get_payload(decode=True)
        return decode(payload) if isinstance(payload, bytes) else ""
    return content if isinstance(content, str) else decode(content)


# ---------------------------------------------------------------------------------------- MHTML
def _mhtml(content: bytes, table_format: TableFormat) -> list[str]:
    """The first HTML part of a saved web page (else its first text part)."""
    message = email.message_from_bytes(content, policy=email.policy.default)
    parts = [part for part in message.walk() if isinstance(part, EmailMessage) and not part.is_multipart()]
    for part in parts:
        if part.get_content_type() == "text/html":
            return html_pages(_part_text(part), table_format)
    for part in parts:
        if part.get_content_maintype() == "text":
            return _part_text(part).split("\f")
    raise DamagedDocument("the MHTML file holds no HTML or text part")


# ---------------------------------------------------------------------------------------- RTF
_rtf_to_text: Callable[..., str] = striprtf.rtf_to_text  # striprtf has no annotations
_RTF_PAGE = re.compile(r"(?<!\\)\\page(?![A-Za-z])-?\d*\s?")


def _rtf(content: bytes) -> list[str]:
    """RTF through striprtf; an explicit page break becomes a form feed (\\'0c) before the text is read."""
    source = _RTF_PAGE.sub(lambda _: "\\'0c", decode(content))
    text = _rtf_to_text(source, errors="replace")
    return [page.strip() for page in text.split("\f")] or [""]


# ---------------------------------------------------------------------------------------- SVG
def _svg(content: bytes) -> str:
    """The title of the drawing and the text of its `<text>` elements, in document order."""
    try:
        root: Element = SafeXML.fromstring(content)
    except DefusedXmlException:
        raise DamagedDocument("the SVG declares entities; they are not expanded") from None
    except SafeXML.ParseError as error:
        raise DamagedDocument(f"the SVG is not well-formed XML: {error}") from None
    lines: list[str] = []
    title = next((child for child in root if _local_name(child.tag) == "title"), None)
    if title is not None and " ".join("".join(title.itertext()).split()):
        lines.append("# " + " ".join("".join(title.itertext()).split()))
    for element in root.iter():
        if _local_name(element.tag) == "text":
            text = " ".join("".join(element.itertext()).split())
            if text:
                lines.append(text)
    return "\n".join(lines)


def _local_name(tag: object) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""
