"""Bytes of a text file as text: the one decoder of uploaded text (CSV tables, parses of text formats).

A byte-order mark decides first (UTF-8, UTF-16 little- or big-endian), then strict UTF-8, else
Windows-1252 as browsers read it: the five bytes Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90,
0x9D) read as the C1 control characters Latin-1 gives them, so every byte string decodes and no
character is replaced.
"""

from __future__ import annotations

import codecs

UTF8, UTF8_BOM, UTF16, WINDOWS_1252 = "utf-8", "utf-8-sig", "utf-16", "windows-1252"
_BOMS = (
    (codecs.BOM_UTF8, "utf-8", UTF8_BOM),
    (codecs.BOM_UTF16_LE, "utf-16-le", UTF16),
    (codecs.BOM_UTF16_BE, "utf-16-be", UTF16),
)


def _windows_1252_table() -> str:
    table = []
    for byte in range(256):
        try:
            table.append(bytes([byte]).decode("cp1252"))
        except UnicodeDecodeError:
            table.append(chr(byte))
    return "".join(table)


_WINDOWS_1252 = _windows_1252_table()


def decode_text(content: bytes) -> tuple[str, str]:
    """The text (without its byte-order mark) and the name of the encoding it was read with: "utf-8",
    "utf-8-sig" (a UTF-8 BOM), "utf-16" (a UTF-16 BOM) or "windows-1252"."""
    for bom, codec, name in _BOMS:
        if content.startswith(bom):
            return content[len(bom) :].decode(codec, "replace"), name
    try:
        return content.decode("utf-8"), UTF8
    except UnicodeDecodeError:
        return codecs.charmap_decode(content, "strict", _WINDOWS_1252)[0], WINDOWS_1252
