"""From uploaded bytes to text records: the encoding, the delimiter, the header and the data rows."""

from __future__ import annotations

import csv
import io
import re

from docsvc.lookup_tables.model import TableError
from docsvc.text_decoding import decode_text

DELIMITERS = (",", ";", "\t", "|")
SNIFF_CHARS = 8 * 1024  # the start the delimiter is guessed from (csv.Sniffer is quadratic at worst)
_QUOTED = re.compile(r'"[^"]*"')


def decode(content: bytes) -> tuple[str, str]:
    """The file's text and the encoding it was read with (docsvc.text_decoding: a BOM's UTF-8 or UTF-16,
    else UTF-8, else Windows-1252), the decoder parses of CSV files use too."""
    text, encoding = decode_text(content)
    if "\x00" in text:
        raise TableError(
            "invalid_csv",
            "the file contains NUL characters: it is binary, or UTF-16 without a byte-order mark,"
            " not a text CSV",
        )
    return text, encoding


def sniff_delimiter(text: str) -> str:
    """`,` `;` tab or `|`: csv.Sniffer's guess when the header line holds it, else the candidate the
    header line holds most often (outside quotes), else `,`."""
    sample = _sample(text)
    counts = _header_counts(sample)
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        sniffed = ""
    if counts.get(sniffed, 0) > 0:
        return sniffed
    best = max(DELIMITERS, key=lambda candidate: counts[candidate])  # ties: the earlier candidate
    return best if counts[best] > 0 else ","


def read_records(text: str, delimiter: str) -> tuple[list[str], list[list[str]]]:
    """The header cells and the data rows, each padded with blanks to the header's width.

    Empty lines are skipped. A row wider than the header, a field over csv's size limit or a file
    without a header row is a TableError("invalid_csv").
    """
    records = _all_records(text, delimiter)
    start = next((index for index, record in enumerate(records) if record), None)
    if start is None:
        raise TableError("invalid_csv", "the file is empty: a table needs a header row naming its columns")
    header, width = records[start], len(records[start])
    rows = records[start + 1 :]
    widths = set(map(len, rows))
    if widths <= {width}:
        return header, rows
    if max(widths) > width:
        raise _too_wide(text, delimiter, width)
    return header, [row + [""] * (width - len(row)) if len(row) < width else row for row in rows if row]


def column_names(header: list[str]) -> list[str]:
    """The header cells trimmed; an empty name or two names equal but for case is a TableError."""
    names = [cell.strip() for cell in header]
    empty = [str(position) for position, name in enumerate(names, 1) if not name]
    if empty:
        raise TableError(
            "invalid_csv", f"the header row has empty column names at position(s) {', '.join(empty)}"
        )
    positions: dict[str, list[int]] = {}
    for position, name in enumerate(names, 1):
        positions.setdefault(name.casefold(), []).append(position)
    duplicates = [
        f'"{names[found[0] - 1]}" at positions {", ".join(map(str, found))}'
        for found in positions.values()
        if len(found) > 1
    ]
    if duplicates:
        raise TableError("invalid_csv", f"duplicate column names (ignoring case): {'; '.join(duplicates)}")
    return names


def _all_records(text: str, delimiter: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return list(reader)
    except csv.Error as error:
        raise TableError("invalid_csv", _csv_error_message(error, reader.line_num)) from None


def _too_wide(text: str, delimiter: str, width: int) -> TableError:
    """The error naming the line the first row wider than the header starts on."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    start, header_seen = 1, False
    for record in reader:
        if len(record) > width and header_seen:
            return TableError(
                "invalid_csv",
                f"line {start} has {len(record)} cells but the header names only {width} columns",
            )
        header_seen = header_seen or bool(record)
        start = reader.line_num + 1
    return TableError("invalid_csv", f"a row has more cells than the header's {width} columns")


def _csv_error_message(error: csv.Error, line: int) -> str:
    if "field limit" in str(error):
        return (
            f"line {line}: a cell is longer than {csv.field_size_limit()} characters, the most a cell"
            " may hold (an unclosed quote makes the rest of the file one cell)"
        )
    return f"line {line}: not valid CSV ({error})"


def _sample(text: str) -> str:
    if len(text) <= SNIFF_CHARS:
        return text
    sample = text[:SNIFF_CHARS]
    end = max(sample.rfind("\n"), sample.rfind("\r"))
    return sample[:end] if end > 0 else sample


def _header_counts(sample: str) -> dict[str, int]:
    lines = sample.lstrip("\r\n").splitlines()
    unquoted = _QUOTED.sub("", lines[0]) if lines else ""
    return {candidate: unquoted.count(candidate) for candidate in DELIMITERS}
