"""OLE compound files made in tests: an Outlook message (.msg) and an Excel 97-2003 workbook (.xls).

`compound_file` writes a version 3 compound file (512-byte sectors) from the spec: streams under 4096
bytes live in the mini stream, the others in sectors of their own; each storage's children are chained
as right siblings in the spec's name order, which is a valid (if unbalanced) tree for readers.
"""

from __future__ import annotations

import datetime
import struct

SECTOR, MINI_SECTOR, MINI_CUTOFF = 512, 64, 4096
FREE, END, FAT_SECTOR, NO_STREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
STORAGE, STREAM, ROOT = 1, 2, 5


def _padded(data: bytes, size: int) -> bytes:
    return data + b"\x00" * (-len(data) % size)


def _order(name: str) -> tuple[int, str]:
    return len(name), name.upper()


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A compound file holding `streams`, named by paths such as "folder/stream"."""
    # The directory: the root, then every storage and stream, each with its children's ids.
    entries: list[dict[str, object]] = [{"name": "Root Entry", "type": ROOT, "children": []}]
    ids: dict[str, int] = {"": 0}
    for path, data in streams.items():
        parent = ""
        for depth, part in enumerate(path.split("/")):
            here = f"{parent}/{part}" if parent else part
            if here not in ids:
                last = depth == len(path.split("/")) - 1
                ids[here] = len(entries)
                entries.append({"name": part, "type": STREAM if last else STORAGE, "children": []})
                entries[ids[parent]]["children"].append(ids[here])  # type: ignore[attr-defined]
                if last:
                    entries[ids[here]]["data"] = data
            parent = here
    # The mini stream and its FAT.
    mini, mini_fat = b"", []
    for entry in entries:
        small = entry.get("data")
        if isinstance(small, bytes) and len(small) < MINI_CUTOFF:
            data = small
            start, count = len(mini) // MINI_SECTOR, max(1, -(-len(data) // MINI_SECTOR))
            entry["start"] = start if data else END
            mini += _padded(data, MINI_SECTOR) if data else b""
            mini_fat += [start + i + 1 for i in range(count - 1)] + [END] if data else []
    # Blobs in sectors: large streams, the mini stream, the mini FAT, the directory.
    blobs: list[tuple[str, bytes]] = []
    for index, entry in enumerate(entries):
        large = entry.get("data")
        if isinstance(large, bytes) and len(large) >= MINI_CUTOFF:
            blobs.append((f"stream{index}", large))
    blobs.append(("mini", mini))
    blobs.append(("minifat", b"".join(struct.pack("<I", value) for value in mini_fat)))
    starts: dict[str, int] = {}
    fat: list[int] = []
    body = b""
    for name, data in blobs:
        if not data:
            starts[name] = END
            continue
        sectors = -(-len(data) // SECTOR)
        starts[name] = len(fat)
        fat += [len(fat) + i + 1 for i in range(sectors - 1)] + [END]
        body += _padded(data, SECTOR)
    entries[0]["start"], entries[0]["size"] = starts["mini"], len(mini)
    for index, entry in enumerate(entries):
        if f"stream{index}" in starts:
            entry["start"] = starts[f"stream{index}"]
    directory = b"".join(_directory_entry(entries, index) for index in range(len(entries)))
    directory = _padded(directory, SECTOR)
    directory_start = len(fat)
    fat += [len(fat) + i + 1 for i in range(len(directory) // SECTOR - 1)] + [END]
    body += directory
    fat_sectors = 1
    while (len(fat) + fat_sectors) > fat_sectors * (SECTOR // 4):
        fat_sectors += 1
    fat_start = len(fat)
    fat += [FAT_SECTOR] * fat_sectors
    fat += [FREE] * (fat_sectors * (SECTOR // 4) - len(fat))
    body += b"".join(struct.pack("<I", value) for value in fat)
    difat = [fat_start + i for i in range(fat_sectors)] + [FREE] * (109 - fat_sectors)
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        b"\x00" * 16,
        0x3E,
        3,
        0xFFFE,
        9,
        6,
        b"\x00" * 6,
        0,
        fat_sectors,
        directory_start,
        0,
        MINI_CUTOFF,
        starts["minifat"],
        -(-len(mini_fat) * 4 // SECTOR),
        END,
        0,
    ) + b"".join(struct.pack("<I", value) for value in difat)
    return header + body


def _directory_entry(entries: list[dict[str, object]], index: int) -> bytes:
    entry = entries[index]
    name = str(entry["name"]).encode("utf-16-le") + b"\x00\x00"
    children: list[int] = sorted(entry["children"], key=lambda i: _order(str(entries[i]["name"])))  # type: ignore[call-overload]
    right = NO_STREAM
    for parent in entries:
        siblings: list[int] = sorted(parent["children"], key=lambda i: _order(str(entries[i]["name"])))  # type: ignore[call-overload]
        if index in siblings and siblings.index(index) + 1 < len(siblings):
            right = siblings[siblings.index(index) + 1]
    data = entry.get("data")
    size = len(data) if isinstance(data, bytes) else int(entry.get("size", 0))  # type: ignore[call-overload]
    start = int(entry.get("start", END if entry["type"] != STORAGE else 0))  # type: ignore[call-overload]
    return struct.pack(
        "<64sHBBIII16sIQQIQ",
        name,
        len(name),
        int(entry["type"]),  # type: ignore[call-overload]
        1,  # black
        NO_STREAM,
        right,
        children[0] if children else NO_STREAM,
        b"\x00" * 16,
        0,
        0,
        0,
        start,
        size,
    )


# ---------------------------------------------------------------------------------------- Outlook
def _filetime(moment: datetime.datetime) -> int:
    return int((moment - datetime.datetime(1601, 1, 1, tzinfo=datetime.UTC)).total_seconds() * 10_000_000)


def _string(property_id: int, value: str) -> tuple[str, bytes]:
    return f"__substg1.0_{property_id:04X}001F", value.encode("utf-16-le")


def msg(
    *,
    subject: str,
    sender: tuple[str, str],
    to: str,
    sent: datetime.datetime,
    body: str | None = None,
    html: str | None = None,
    attachments: list[tuple[str, str]] = (),  # type: ignore[assignment]
) -> bytes:
    """An Outlook message: its headers, a text or an HTML body, and attachments (name, MIME type)."""
    properties = b"\x00" * 32 + struct.pack("<HHIQ", 0x0040, 0x0039, 6, _filetime(sent))
    properties += struct.pack("<HHIQ", 0x0003, 0x3FFD, 6, 1252)
    streams = dict(
        [
            ("__properties_version1.0", properties),
            _string(0x0037, subject),
            _string(0x0C1A, sender[0]),
            _string(0x5D01, sender[1]),
            _string(0x0E04, to),
            ("__nameid_version1.0/__substg1.0_00020102", b""),
        ]
    )
    if body is not None:
        streams.update([_string(0x1000, body)])
    if html is not None:
        streams["__substg1.0_10130102"] = html.encode("cp1252")
    for index, (name, mime) in enumerate(attachments):
        storage = f"__attach_version1.0_#{index:08X}"
        streams[f"{storage}/__properties_version1.0"] = b"\x00" * 8
        streams.update(
            {f"{storage}/{key}": value for key, value in [_string(0x3707, name), _string(0x370E, mime)]}
        )
        streams[f"{storage}/__substg1.0_37010102"] = b"%PDF-1.7 attachment bytes"
    return compound_file(streams)


# ---------------------------------------------------------------------------------------- Excel 97-2003
def _record(kind: int, data: bytes) -> bytes:
    return struct.pack("<HH", kind, len(data)) + data


def _label(row: int, column: int, text: str) -> bytes:
    encoded = text.encode("utf-16-le")
    return _record(0x0204, struct.pack("<HHHHB", row, column, 0, len(text), 1) + encoded)


def xls(rows: list[list[object]], sheet: str = "Sheet1") -> bytes:
    """A BIFF8 workbook of one sheet: strings, numbers, booleans, and dates (cell style 1: format 14)."""
    bof_globals = _record(0x0809, struct.pack("<HHHHII", 0x0600, 0x0005, 0x0DBB, 0x07CC, 0, 6))
    codepage = _record(0x0042, struct.pack("<H", 1200))
    styles = b"".join(_record(0x00E0, struct.pack("<HH", 0, fmt) + b"\x00" * 16) for fmt in (0, 14))
    name = sheet.encode("utf-16-le")

    def boundsheet(position: int) -> bytes:
        return _record(0x0085, struct.pack("<IBBBB", position, 0, 0, len(sheet), 1) + name)

    globals_length = len(bof_globals + codepage + styles + boundsheet(0)) + 4  # + EOF
    cells = b""
    for row_index, row in enumerate(rows):
        for column, value in enumerate(row):
            if isinstance(value, bool):
                cells += _record(0x0205, struct.pack("<HHHBB", row_index, column, 0, int(value), 0))
            elif isinstance(value, datetime.date):
                serial = (value - datetime.date(1899, 12, 30)).days
                cells += _record(0x0203, struct.pack("<HHHd", row_index, column, 1, float(serial)))
            elif isinstance(value, int | float):
                cells += _record(0x0203, struct.pack("<HHHd", row_index, column, 0, float(value)))
            elif value is not None:
                cells += _label(row_index, column, str(value))
    width = max((len(row) for row in rows), default=0)
    worksheet = (
        _record(0x0809, struct.pack("<HHHHII", 0x0600, 0x0010, 0x0DBB, 0x07CC, 0, 6))
        + _record(0x0200, struct.pack("<IIHHH", 0, len(rows), 0, width, 0))
        + cells
        + _record(0x000A, b"")
    )
    workbook = bof_globals + codepage + styles + boundsheet(globals_length) + _record(0x000A, b"") + worksheet
    return compound_file({"Workbook": workbook})
