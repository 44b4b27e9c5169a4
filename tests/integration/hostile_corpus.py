"""A corpus of broken and hostile documents, generated on the fly (nothing binary is committed).

Every entry is (name, filename, bytes). The generators are seeded, so a failure names a file that can
be generated again.
"""

from __future__ import annotations

import io
import random
import zipfile
import zlib
from collections.abc import Iterator

import pymupdf

Entry = tuple[str, str, bytes]


def base_pdf(pages: int = 3) -> bytes:
    document = pymupdf.open()
    for number in range(pages):
        page = document.new_page()
        page.insert_text((72, 72), f"Invoice 1000{number} total 1,234.56 EUR")
        page.draw_rect(pymupdf.Rect(72, 100, 300, 160))
        page.insert_text((80, 120), "Item   Qty   Price")
    return bytes(document.tobytes())


def truncations(source: bytes, count: int) -> Iterator[Entry]:
    for index in range(count):
        cut = max(1, int(len(source) * (index + 1) / (count + 1)))
        yield f"truncated-{cut}", "truncated.pdf", source[:cut]


def mutations(source: bytes, count: int, seed: int = 7) -> Iterator[Entry]:
    rng = random.Random(seed)
    for index in range(count):
        data = bytearray(source)
        for _ in range(rng.randint(1, 40)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        yield f"mutated-{index}", "mutated.pdf", bytes(data)


def random_blobs(count: int, seed: int = 11) -> Iterator[Entry]:
    rng = random.Random(seed)
    for index in range(count):
        body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 4000)))
        yield f"random-pdf-header-{index}", "random.pdf", b"%PDF-1.7\n" + body


def raw_pdf(objects: list[bytes], root: int = 1) -> bytes:
    """A hand-made PDF: objects numbered from 1, an xref table and a trailer."""
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)
    )
    return out.getvalue()


def crafted() -> Iterator[Entry]:
    catalog = b"<< /Type /Catalog /Pages 2 0 R >>"
    yield "zero-pages", "empty.pdf", raw_pdf([catalog, b"<< /Type /Pages /Kids [] /Count 0 >>"])
    yield "count-lies", "lies.pdf", raw_pdf([catalog, b"<< /Type /Pages /Kids [] /Count 100000 >>"])
    huge_box = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1000000 1000000] /Contents 4 0 R >>"
    text = b"BT /F1 12 Tf 72 72 Td (huge) Tj ET"
    stream = b"<< /Length %d >>\nstream\n" % len(text) + text + b"\nendstream"
    yield (
        "huge-page-box",
        "huge.pdf",
        raw_pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", huge_box, stream]),
    )
    negative_box = huge_box.replace(b"[0 0 1000000 1000000]", b"[0 0 -50 -50]")
    yield (
        "negative-page-box",
        "negative.pdf",
        raw_pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", negative_box, stream]),
    )
    bomb = zlib.compress(b"0 0 m 1 1 l S\n" * 3_000_000, 9)  # ~40 MB of drawing operators
    bomb_stream = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(bomb) + bomb + b"\nendstream"
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"
    yield (
        "deflate-bomb",
        "bomb.pdf",
        raw_pdf([catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page, bomb_stream]),
    )
    loop = b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"
    yield "self-referencing-pages", "loop.pdf", raw_pdf([catalog, loop])
    deep = b"[" * 5000 + b"]" * 5000
    yield (
        "deep-nesting",
        "deep.pdf",
        raw_pdf([catalog, b"<< /Type /Pages /Kids [] /Count 0 /X " + deep + b" >>"]),
    )
    yield "no-trailer", "notrailer.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"
    yield "header-only", "header.pdf", b"%PDF-1.7\n"
    yield "empty", "empty.pdf", b""
    yield "whitespace", "blank.txt", b"   \n\n  \t "
    document = pymupdf.open(stream=base_pdf(), filetype="pdf")
    encrypted = document.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="secret")
    yield "encrypted", "locked.pdf", bytes(encrypted)
    yield "wrong-extension", "image.png", base_pdf()
    yield (
        "png-named-pdf",
        "scan.pdf",
        pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), 0).tobytes("png"),
    )
    yield "huge-image-dimensions", "huge.png", _png_header_claiming(60000, 60000)
    yield "zip-bomb-docx", "bomb.docx", _zip_bomb("word/document.xml")
    yield "zip-bomb-xlsx", "bomb.xlsx", _zip_bomb("xl/worksheets/sheet1.xml")
    yield "billion-laughs-docx", "laughs.docx", _docx(_BILLION_LAUGHS)
    yield "docx-not-xml", "broken.docx", _docx(b"this is not xml <<<")
    yield "html-script-only", "page.html", b"<html><script>" + b"x" * 100_000 + b"</script></html>"
    yield "deep-html", "deep.html", b"<div>" * 50_000 + b"text" + b"</div>" * 50_000
    yield "csv-huge-field", "wide.csv", b'"' + b"x" * 2_000_000 + b'"\n'
    yield "json-deep", "deep.json", b"[" * 100_000 + b"]" * 100_000
    yield "eml-no-body", "mail.eml", b"From: a@example.com\nSubject: hi\n\n"
    yield "utf8-garbage-txt", "garbage.txt", "\udcff".encode("utf-8", "surrogatepass") * 100


_BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">'
    b'<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">'
    b'<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">'
    b'<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">'
    b'<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">'
    b'<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">'
    b'<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>'
    b"<w:document><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
)


def _docx(document_xml: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", document_xml)
    return buffer.getvalue()


def _zip_bomb(member: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open(member, "w") as handle:
            chunk = b"<a>" + b"A" * (1024 * 1024) + b"</a>"
            for _ in range(400):  # 400 MB uncompressed, a few hundred KB compressed
                handle.write(chunk)
    return buffer.getvalue()


def _png_header_claiming(width: int, height: int) -> bytes:
    import struct

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 100))
        + chunk(b"IEND", b"")
    )


def corpus() -> list[Entry]:
    source = base_pdf()
    entries = [*crafted(), *truncations(source, 60), *mutations(source, 100), *random_blobs(40)]
    assert len(entries) >= 200
    return entries
