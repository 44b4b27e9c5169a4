"""The uploaded CSV for download, with cells a spreadsheet would run as formulas made inert."""

from __future__ import annotations

import codecs
import csv
import io

from docsvc.lookup_tables.model import TableError
from docsvc.lookup_tables.reading import decode, sniff_delimiter

# A cell starting with one of these is prefixed with "'" so that spreadsheets show it as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def download(content: bytes, *, raw: bool = False) -> bytes:
    """`content` itself when `raw`; else the same rows and delimiter with every cell starting with
    = + - @, a tab or a carriage return prefixed with ', written as UTF-8 (with a BOM when the upload had
    one), quoted where needed, lines ending in CRLF. Note that negative numbers are prefixed too."""
    if raw:
        return content
    text, encoding = decode(content)
    delimiter = sniff_delimiter(text)
    output = io.StringIO()
    if encoding == "utf-8-sig":
        output.write(codecs.BOM_UTF8.decode("utf-8"))
    writer = csv.writer(output, delimiter=delimiter, lineterminator="\r\n")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        writer.writerows(
            [f"'{cell}" if cell.startswith(FORMULA_STARTS) else cell for cell in record] for record in reader
        )
    except csv.Error as error:
        raise TableError("invalid_csv", f"line {reader.line_num}: not valid CSV ({error})") from None
    return output.getvalue().encode("utf-8")
