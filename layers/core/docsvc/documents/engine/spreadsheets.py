"""Spreadsheets through python-calamine: xlsx, xlsm, xltx, xltm, xlam, xlsb, xls, ods and ots.

A page is a sheet, as one table under a `## <sheet name>` line. Cells come typed from calamine: dates
as ISO dates (2024-01-15, or 2024-01-15T13:30:00 when the cell has a time), times as 13:30:00,
booleans as TRUE/FALSE, formulas as their cached values, numbers in Excel's general format (at most 15
significant digits, no `.0` on whole numbers). Empty leading and trailing rows and columns are dropped.

calamine does not expose number formats (it uses them only to tell dates from numbers). For the Office
Open XML workbooks the format of each cell is read here from the package (`xl/styles.xml`, and each
cell's style in its sheet part), and numbers are shown as the cell shows them for the formats that
print digits: percentages, fixed decimals, thousands separators, scientific notation, literal text
and currency symbols, the negative section of a format. Fractions, conditional sections (`[>100]`)
and scaling are shown in the general format. xlsb, xls and OpenDocument sheets show every number in
the general format.

Zip-based workbooks are opened only within the caps of `office` (number of parts, what each part
and the whole package expand to).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from io import BytesIO

import python_calamine

from docsvc.documents.engine import office
from docsvc.documents.engine.errors import DamagedDocument, EncryptedDocument
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.tables import render_table
from docsvc.documents.readable import OOXML_SPREADSHEET_TYPES

MAX_SHEET_ROWS = office.MAX_SHEET_ROWS
MAX_SHEET_COLUMNS = office.MAX_SHEET_COLUMNS
Cell = int | float | str | bool | datetime.date | datetime.datetime | datetime.time | datetime.timedelta
_ZIPPED = OOXML_SPREADSHEET_TYPES | {"xlsb", "ods", "ots"}


def count_pages(content: bytes, kind: str) -> int:
    book = _open(content, kind)
    try:
        return len(book.sheet_names)
    finally:
        book.close()


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    book = _open(content, kind)
    formats = _WorkbookFormats(content) if kind in OOXML_SPREADSHEET_TYPES else None
    try:
        for number, name in enumerate(book.sheet_names, start=1):
            if number < first:
                continue
            warnings: list[str] = []
            rows = _sheet_rows(book, name, formats, warnings)
            table = render_table(rows, options.table_format)
            yield Page(number, f"## {name}\n\n{table}".strip(), tuple(warnings))
    finally:
        book.close()


def _open(content: bytes, kind: str) -> python_calamine.CalamineWorkbook:
    if kind in _ZIPPED:
        office.check_archive(content)
    try:
        return python_calamine.CalamineWorkbook.from_filelike(BytesIO(content))
    except python_calamine.PasswordError:
        raise EncryptedDocument("the workbook is password-protected; send it without its password") from None
    except BaseException as error:
        if not _failed_reading(error):
            raise
        raise DamagedDocument(f"the {kind.upper()} workbook could not be read: {_reason(error)}") from None


def _failed_reading(error: BaseException) -> bool:
    """calamine's errors, and its panics on damaged files (pyo3's PanicException is a BaseException)."""
    return isinstance(error, Exception) or type(error).__name__ == "PanicException"


def _reason(error: BaseException) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__


def _sheet_rows(
    book: python_calamine.CalamineWorkbook,
    name: str,
    formats: _WorkbookFormats | None,
    warnings: list[str],
) -> list[list[str]]:
    try:
        sheet = book.get_sheet_by_name(name)
        values = sheet.to_python(skip_empty_area=True, nrows=MAX_SHEET_ROWS + 1)
    except BaseException as error:
        if not _failed_reading(error):
            raise
        warnings.append(f"the sheet could not be read: {_reason(error)}")
        return []
    if len(values) > MAX_SHEET_ROWS:
        warnings.append(f"only the first {MAX_SHEET_ROWS} rows of the sheet were read")
        del values[MAX_SHEET_ROWS:]
    top, left = sheet.start or (0, 0)
    styled = formats.rows(name, top, left) if formats else iter(())
    pending = next(styled, None)
    if any(len(row) > MAX_SHEET_COLUMNS for row in values):
        warnings.append(f"only the first {MAX_SHEET_COLUMNS} columns of the sheet were read")
    rows: list[list[str]] = []
    for row_index, row in enumerate(values):
        while pending is not None and pending[0] < row_index:  # a sheet part's rows are in order
            pending = next(styled, None)
        row_styles = pending[1] if pending is not None and pending[0] == row_index else {}
        rows.append(
            [cell_text(cell, row_styles.get(column)) for column, cell in enumerate(row[:MAX_SHEET_COLUMNS])]
        )
    return _trimmed(rows)


def _trimmed(rows: list[list[str]]) -> list[list[str]]:
    """Without empty rows at the end and empty columns at either side."""
    while rows and not any(rows[-1]):
        rows.pop()
    width = max((max((i + 1 for i, cell in enumerate(row) if cell), default=0) for row in rows), default=0)
    lead = min((next(i for i, cell in enumerate(row) if cell) for row in rows if any(row)), default=0)
    return [row[lead:width] for row in rows]


# ---------------------------------------------------------------------------------------- values
def cell_text(value: Cell, number_format: str | None = None) -> str:
    """A cell as the sheet shows it: ISO dates and times, TRUE/FALSE, numbers in their format."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return value.date().isoformat()
        return value.isoformat(timespec="seconds" if not value.microsecond else "milliseconds")
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        seconds = round(value.total_seconds())
        sign, seconds = ("-" if seconds < 0 else ""), abs(seconds)
        return f"{sign}{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    if isinstance(value, int | float):
        shown = format_number(float(value), number_format) if number_format else None
        return shown if shown is not None else general_number(value)
    return str(value)


def general_number(value: float) -> str:
    """Excel's general format, near enough: 15 significant digits, whole numbers without `.0`."""
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e15):
        return str(int(value))
    text = f"{value:.15g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}E{exponent[0]}{exponent[1:].lstrip('0').rjust(2, '0')}"
    return text


_DATE_TOKENS = re.compile(r"[dmyhsDMYHS]|AM/PM|A/P")
_LITERAL = re.compile(r'"([^"]*)"|\\(.)|_.|\*.|\[\$([^\]-]*)(?:-[^\]]*)?\]|\[[^\]]*\]')
_NUMBER = re.compile(r"[0#?][0#?,.]*(?:[eE][+-][0#?]+)?|\.[0#?]+(?:[eE][+-][0#?]+)?")


def format_number(value: float, code: str) -> str | None:
    """`value` in the Excel number format `code`, or None for a format not shown here (dates, text,
    fractions, conditions): the caller then shows the general format."""
    sections = _sections(code)
    if not sections or any(
        "/" in section or "[>" in section or "[<" in section or "[=" in section for section in sections
    ):
        return None
    section, sign = sections[0], "-" if value < 0 else ""
    if value < 0 and len(sections) > 1:
        section, sign, value = sections[1], "", -value
    elif value == 0 and len(sections) > 2:
        section = sections[2]
    value = abs(value)
    parts: list[str] = []
    number_seen = False
    position = 0
    for literal in _LITERAL.finditer(section):
        pending = section[position : literal.start()]
        rendered = _plain(pending, value, number_seen)
        if rendered is None:
            return None
        number_seen = number_seen or _NUMBER.search(pending) is not None
        parts.append(rendered)
        quoted, escaped, currency = literal.group(1), literal.group(2), literal.group(3)
        if quoted is not None:
            parts.append(quoted)
        elif escaped is not None:
            parts.append(escaped)
        elif literal.group(0).startswith("_"):
            parts.append(" ")
        elif currency is not None:
            parts.append(currency)
        position = literal.end()
    rendered = _plain(section[position:], value, number_seen)
    if rendered is None:
        return None
    number_seen = number_seen or _NUMBER.search(section[position:]) is not None
    parts.append(rendered)
    text = "".join(parts).strip()
    if not number_seen:
        return None if "@" in section or section.strip().lower() == "general" else text
    return sign + text


def _sections(code: str) -> list[str]:
    """The `;`-separated sections of a format, outside quotes and escapes."""
    sections, current, quoted, escaped = [], [], False, False
    for char in code:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\" and not quoted:
            current.append(char)
            escaped = True
        elif char == '"':
            quoted = not quoted
            current.append(char)
        elif char == ";" and not quoted:
            sections.append("".join(current))
            current = []
        else:
            current.append(char)
    sections.append("".join(current))
    return [section for section in sections if section.strip()] if sections[0].strip() else []


def _plain(text: str, value: float, number_seen: bool) -> str | None:
    """The unquoted part of a section: its digit placeholders replaced by `value`; None when the part
    holds date or text tokens this does not show."""
    if text.strip().lower() == "general":
        return general_number(value)
    if _DATE_TOKENS.search(text.replace("E+", "").replace("E-", "").replace("e+", "").replace("e-", "")):
        return None
    if "@" in text:
        return None
    match = _NUMBER.search(text)
    if match is None:
        return text
    if number_seen:
        return None  # a second number in one section (a fraction or a phone-number mask): not shown here
    scaled = value * 100 ** text.count("%")
    return text[: match.start()] + _digits(scaled, match.group(0)) + text[match.end() :]


def _digits(value: float, placeholder: str) -> str:
    mantissa, _, exponent = placeholder.upper().partition("E")
    whole, _, fraction = mantissa.partition(".")
    while whole.endswith(","):  # each trailing comma scales by a thousand
        whole, value = whole[:-1], value / 1000
    decimals = len(fraction.replace(",", ""))
    minimum = fraction.count("0")
    if exponent:
        text = f"{value:.{decimals}E}"
        digits, _, power = text.partition("E")
        return f"{digits}E{power[0]}{power[1:].lstrip('0').rjust(len(exponent) - 1, '0')}"
    grouped = "," in whole
    # Excel rounds halves away from zero, on the value's 15 significant digits.
    rounded = Decimal(f"{value:.15g}").quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    text = f"{rounded:,.{decimals}f}" if grouped else f"{rounded:.{decimals}f}"
    if decimals > minimum and "." in text:
        text = text.rstrip("0")
        kept = len(text.partition(".")[2])
        text += "0" * max(minimum - kept, 0)
        text = text.rstrip(".")
    if whole.replace(",", "") and not whole.replace(",", "").count("0") and text.startswith("0"):
        text = text[1:]  # "#.00" shows 0.5 as ".50"
    return text


# ---------------------------------------------------------------------------------------- formats
_BUILTIN_FORMATS = {
    1: "0",
    2: "0.00",
    3: "#,##0",
    4: "#,##0.00",
    9: "0%",
    10: "0.00%",
    11: "0.00E+00",
    37: "#,##0 ;(#,##0)",
    38: "#,##0 ;(#,##0)",
    39: "#,##0.00;(#,##0.00)",
    40: "#,##0.00;(#,##0.00)",
    48: "##0.0E+0",
}
_CELL = re.compile(rb"<(?:\w+:)?c\b([^>]*)>")
_REFERENCE = re.compile(rb'\br\s*=\s*"([A-Za-z]{1,3})([0-9]{1,7})"')
_STYLE = re.compile(rb'\bs\s*=\s*"([0-9]{1,6})"')


class _WorkbookFormats:
    """The number formats of an Office Open XML workbook's cells, read from its package."""

    def __init__(self, content: bytes) -> None:
        self.content = content
        self.parts: dict[str, str] = {}
        self.styles: dict[int, str] = {}
        try:
            with office.Package(content) as package:
                self.parts = dict(office.sheet_parts(package))
                self.styles = self._styles(package)
        except (DamagedDocument, KeyError, ValueError):  # calamine read the cells: formats are a bonus
            self.styles = {}

    @staticmethod
    def _styles(package: office.Package) -> dict[int, str]:
        """The number format of each cell style (index of cellXfs) whose format prints digits."""
        part = "xl/styles.xml"
        if part not in package.names:
            return {}
        root = package.xml(part)
        codes = dict(_BUILTIN_FORMATS)
        for entry in root.iter(f"{office.SPREADSHEET_NS}numFmt"):
            identifier = entry.get("numFmtId", "")
            if identifier.isdigit():
                codes[int(identifier)] = entry.get("formatCode", "")
        styles: dict[int, str] = {}
        cell_styles = root.find(f"{office.SPREADSHEET_NS}cellXfs")
        for index, style in enumerate(cell_styles if cell_styles is not None else ()):
            identifier = style.get("numFmtId", "0")
            code = codes.get(int(identifier)) if identifier.isdigit() else None
            if code and not _DATE_TOKENS.search(re.sub(r'"[^"]*"|\[[^\]]*\]|\\.|[eE][+-]', "", code)):
                styles[index] = code
        return styles

    def rows(self, sheet: str, top: int, left: int) -> Iterator[tuple[int, dict[int, str]]]:
        """The format codes of each row's formatted cells by column, in the order of the sheet part (rows
        ascending), numbered from the sheet's first used cell (top, left)."""
        part = self.parts.get(sheet)
        if not self.styles or part is None:
            return
        try:
            with office.Package(self.content) as package:
                data = package.read(part)
        except DamagedDocument:
            return
        current, cells = -1, dict[int, str]()
        for cell in _CELL.finditer(data):
            attributes = cell.group(1)
            style = _STYLE.search(attributes)
            code = self.styles.get(int(style.group(1))) if style else None
            reference = _REFERENCE.search(attributes) if code else None
            if code is None or reference is None:
                continue
            row = int(reference.group(2)) - 1 - top
            column = office.column_index(reference.group(1).decode("ascii")) - left
            if row != current:
                if cells:
                    yield current, cells
                current, cells = row, dict[int, str]()
            if 0 <= column < MAX_SHEET_COLUMNS:
                cells[column] = code
        if cells:
            yield current, cells
