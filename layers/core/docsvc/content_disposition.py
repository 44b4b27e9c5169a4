"""The Content-Disposition of a download, for any file name (RFC 6266 with RFC 8187's `filename*`).

A header value is Latin-1 on the wire, and a name may hold any character: the UTF-8 name travels
percent-encoded in `filename*`, which every current client reads, and `filename` carries an ASCII
stand-in for the others. Quotes, backslashes and control characters never reach the header.
"""

from __future__ import annotations

from urllib.parse import quote

FALLBACK = "download"


def attachment(filename: str) -> str:
    """`attachment; filename="<ASCII>"; filename*=UTF-8''<percent-encoded>`."""
    printable = "".join(character for character in filename if character.isprintable()).strip()
    name = printable or FALLBACK
    ascii_name = "".join(
        character if " " <= character <= "~" and character not in '"\\' else "_" for character in name
    )
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"
