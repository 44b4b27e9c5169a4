"""Document type detection: content first, filename second, None for anything the service does not accept."""

from __future__ import annotations

import io
import random
import struct
import zipfile

import pymupdf
import pytest
from docsvc.document_types import MIME_TYPES, SUPPORTED_TYPES, detect

OLE_HEADER = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 16 + b"\x3e\x00\x03\x00\xfe\xff" + b"\x00" * 482
GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00"
    b"!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
TIFF_LITTLE_ENDIAN = b"II*\x00\x08\x00\x00\x00" + b"\x00" * 32
TIFF_BIG_ENDIAN = b"MM\x00*\x00\x00\x00\x08" + b"\x00" * 32
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
HEIC = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 32


def pdf_bytes() -> bytes:
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 72), "Invoice 2026-001")
    return bytes(document.tobytes())


def pixmap() -> pymupdf.Pixmap:
    image = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 4, 4), False)
    image.clear_with(200)
    return image


def png_bytes() -> bytes:
    return bytes(pixmap().tobytes("png"))


def jpeg_bytes() -> bytes:
    return bytes(pixmap().tobytes("jpg"))


def bmp_bytes() -> bytes:
    """A 1x1 24-bit bitmap: file header, BITMAPINFOHEADER, one padded pixel row."""
    pixels = b"\x00\x00\xff\x00"
    info = struct.pack("<IiiHHIIiiII", 40, 1, 1, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    header = struct.pack("<2sIHHI", b"BM", 14 + len(info) + len(pixels), 0, 0, 14 + len(info))
    return header + info + pixels


def zip_bytes(members: dict[str, bytes], *, mimetype: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if mimetype is not None:  # OpenDocument: first, and stored uncompressed
            archive.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


CONTENT_TYPES = (
    b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'
)
DOCX = {"[Content_Types].xml": CONTENT_TYPES, "word/document.xml": b"<w:document/>"}
XLSX = {"[Content_Types].xml": CONTENT_TYPES, "xl/workbook.xml": b"<workbook/>"}
PPTX = {"[Content_Types].xml": CONTENT_TYPES, "ppt/presentation.xml": b"<p:presentation/>"}
ODT = {"content.xml": b"<office:document-content/>", "META-INF/manifest.xml": b"<manifest/>"}


def docx_bytes() -> bytes:
    return zip_bytes(DOCX)


EMAIL = (
    b"From: Ana <ana@example.com>\r\nTo: billing@example.com\r\nSubject: Invoice 42\r\n"
    b"MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nPlease find the invoice attached.\r\n"
)

# (content, filename, expected type name)
RECOGNISED: dict[str, tuple[bytes, str, str]] = {
    "pdf": (pdf_bytes(), "report.pdf", "pdf"),
    "png": (png_bytes(), "image.png", "png"),
    "jpeg named .jpg": (jpeg_bytes(), "photo.jpg", "jpg"),
    "jpeg named .jpeg": (jpeg_bytes(), "photo.jpeg", "jpeg"),
    "jpeg without a name": (jpeg_bytes(), "", "jpg"),
    "gif": (GIF, "anim.gif", "gif"),
    "tiff little-endian": (TIFF_LITTLE_ENDIAN, "scan.tiff", "tiff"),
    "tiff big-endian": (TIFF_BIG_ENDIAN, "scan", "tiff"),
    "tiff named .tif": (TIFF_LITTLE_ENDIAN, "scan.tif", "tif"),
    "bmp": (bmp_bytes(), "pixel.bmp", "bmp"),
    "webp": (WEBP, "image.webp", "webp"),
    "heic": (HEIC, "IMG_0001.HEIC", "heic"),
    "heif named .heif": (HEIC, "IMG_0001.heif", "heif"),
    "docx": (zip_bytes(DOCX), "letter.docx", "docx"),
    "docx without a name": (zip_bytes(DOCX), "", "docx"),
    "docm keeps its extension": (zip_bytes(DOCX), "macros.docm", "docm"),
    "xlsx": (zip_bytes(XLSX), "sheet.xlsx", "xlsx"),
    "xlsm keeps its extension": (zip_bytes(XLSX), "macros.xlsm", "xlsm"),
    "pptx": (zip_bytes(PPTX), "deck.pptx", "pptx"),
    "odt": (zip_bytes(ODT, mimetype="application/vnd.oasis.opendocument.text"), "text.odt", "odt"),
    "ods": (zip_bytes(ODT, mimetype="application/vnd.oasis.opendocument.spreadsheet"), "", "ods"),
    "ole named .doc": (OLE_HEADER, "old.doc", "doc"),
    "ole named .xls": (OLE_HEADER, "old.XLS", "xls"),
    "rtf": (b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Hello}", "letter.rtf", "rtf"),
    "html": (b"<!DOCTYPE html>\n<html><body><p>Hello</p></body></html>", "", "html"),
    "html without doctype": (b"<html><body>Hello</body></html>", "", "html"),
    "html named .htm": (b"<html><body>Hello</body></html>", "page.htm", "htm"),
    "svg": (b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', "", "svg"),
    "svg with an xml declaration": (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>',
        "",
        "svg",
    ),
    "xml": (b'<?xml version="1.0"?>\n<invoice><total>12.50</total></invoice>', "", "xml"),
    "json": (b'{"invoice": 42, "lines": [1, 2]}', "", "json"),
    "json array": (b'\n[{"a": 1}]', "data", "json"),
    "csv by extension": (b"name,amount\nacme,12.50\n", "ledger.csv", "csv"),
    "tsv by extension": (b"name\tamount\nacme\t12.50\n", "ledger.tsv", "tsv"),
    "markdown by extension": (b"# Title\n\nSome *text*.\n", "README.md", "md"),
    "yaml by extension": (b"invoice: 42\n", "invoice.yaml", "yaml"),
    "eml by headers": (EMAIL, "", "eml"),
    "eml by a received header": (b"Received: from mail.example.com\r\nSubject: hi\r\n\r\nbody", "", "eml"),
    "plain text": (b"Meeting notes\n- ship the release\n", "notes", "txt"),
    "utf-8 text with a bom": ("\ufeffCaf\u00e9 cr\u00e8me br\u00fbl\u00e9e".encode(), "menu.txt", "txt"),
    "latin-1 text": (
        "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, cr\u00eapes and g\u00e2teaux for d\u00e9jeuner".encode(
            "latin-1"
        ),
        "menu.txt",
        "txt",
    ),
}


@pytest.mark.parametrize(("content", "filename", "expected"), RECOGNISED.values(), ids=RECOGNISED.keys())
def test_documents_are_recognised_by_their_content(content: bytes, filename: str, expected: str) -> None:
    detected = detect(content, filename)

    assert detected is not None
    assert detected.name == expected


@pytest.mark.parametrize(("content", "filename", "expected"), RECOGNISED.values(), ids=RECOGNISED.keys())
def test_every_detected_type_is_supported_and_has_a_mime_type(
    content: bytes, filename: str, expected: str
) -> None:
    detected = detect(content, filename)

    assert detected is not None
    assert detected.name in SUPPORTED_TYPES
    assert detected.mime_type == MIME_TYPES[detected.name]
    kind, _, subtype = detected.mime_type.partition("/")
    assert kind and subtype


def test_mime_types_follow_the_detected_type() -> None:
    pdf = detect(pdf_bytes(), "a.pdf")
    docx = detect(docx_bytes(), "a.docx")
    jpeg = detect(jpeg_bytes(), "a.jpg")

    assert pdf is not None and pdf.mime_type == "application/pdf"
    assert docx is not None
    assert docx.mime_type == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert jpeg is not None and jpeg.mime_type == "image/jpeg"


@pytest.mark.parametrize(
    ("content", "misleading_name", "expected"),
    [
        (pdf_bytes(), "x.txt", "pdf"),
        (pdf_bytes(), "photo.png", "pdf"),
        (png_bytes(), "report.pdf", "png"),
        (docx_bytes(), "sheet.xlsx", "docx"),
        (b'{"a": 1}', "notes.txt", "json"),
        (b"<!DOCTYPE html><html></html>", "page.txt", "html"),
    ],
)
def test_content_beats_the_filename(content: bytes, misleading_name: str, expected: str) -> None:
    detected = detect(content, misleading_name)

    assert detected is not None
    assert detected.name == expected


def test_text_that_is_not_json_is_plain_text_even_when_it_starts_like_json() -> None:
    detected = detect(b"{ this is a note, not json", "")

    assert detected is not None
    assert detected.name == "txt"


def test_csv_content_without_a_csv_name_is_plain_text() -> None:
    detected = detect(b"name,amount\nacme,12.50\n", "")

    assert detected is not None
    assert detected.name == "txt"


def test_a_utf8_character_cut_at_the_end_of_a_sample_is_still_text() -> None:
    sample = ("x" * 8190 + "\u00e9").encode()[:8192]  # "é" is two bytes: only the first one is in the sample

    detected = detect(sample, "")

    assert detected is not None
    assert detected.name == "txt"


def test_an_ole_document_with_an_unknown_extension_is_not_accepted() -> None:
    assert detect(OLE_HEADER, "mystery.bin") is None
    assert detect(OLE_HEADER, "") is None


@pytest.mark.parametrize(
    ("content", "filename"),
    [
        (random.Random(7).randbytes(4096) + b"\x00", "data.bin"),
        (random.Random(7).randbytes(4096) + b"\x00", "notes.txt"),
        (b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x02\x00\x3e\x00" + b"\x00" * 48, "program"),
        (b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x02\x00\x3e\x00" + b"\x00" * 48, "readme.txt"),
        (bytes(range(128, 256)) * 16, "data.csv"),  # no NUL, but mostly unprintable in any 8-bit reading
        (zip_bytes({"readme.txt": b"hello", "data/values.csv": b"a,b\n"}), "bundle.zip"),
        (zip_bytes({"readme.txt": b"hello"}), "letter.docx"),
        (zip_bytes({"OEBPS/content.opf": b"<package/>"}, mimetype="application/epub+zip"), "book.epub"),
        (b"PK\x03\x04" + b"\x00" * 60, "broken.docx"),
        (b"", "empty.txt"),
    ],
    ids=[
        "random bytes",
        "random bytes named .txt",
        "elf",
        "elf named .txt",
        "high bytes named .csv",
        "plain zip",
        "plain zip named .docx",
        "epub",
        "broken zip",
        "empty",
    ],
)
def test_binary_junk_and_foreign_containers_are_not_accepted(content: bytes, filename: str) -> None:
    detected = detect(content, filename)

    assert detected is None


def test_a_large_office_file_is_recognised_from_a_sample_and_its_stream() -> None:
    # Given a docx whose central directory lies far beyond the first 8 KB
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("word/media/image1.bin", random.Random(1).randbytes(64 * 1024))
        archive.writestr("word/document.xml", b"<w:document/>")
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
    sample = buffer.getvalue()[:8192]

    # When detecting from the sample alone, then from the sample with the whole file as a stream
    alone = detect(sample, "big.docx")
    with_stream = detect(sample, "big.docx", archive=io.BytesIO(buffer.getvalue()))

    # Then only the stream lets the zip be read
    assert alone is None
    assert with_stream is not None
    assert with_stream.name == "docx"


def test_the_stream_is_read_from_its_start_whatever_its_position() -> None:
    stream = io.BytesIO(zip_bytes(XLSX))
    sample = stream.read(8192)  # the caller has already read the sample: the stream is at its end

    detected = detect(sample, "", archive=stream)

    assert detected is not None
    assert detected.name == "xlsx"


def test_text_that_starts_with_bm_is_text_not_a_bitmap() -> None:
    content = b"BMW service history: oil changed at 30,000 km, brakes at 45,000 km.\n"

    detected = detect(content, "car.txt")

    assert detected is not None
    assert detected.name == "txt"


def test_text_that_mentions_the_pdf_header_is_text_not_a_pdf() -> None:
    content = b"# PDF notes\n\nEvery PDF file begins with a header such as %PDF-1.7 on its first line.\n"

    detected = detect(content, "notes.md")

    assert detected is not None
    assert detected.name == "md"


def test_a_binary_excel_workbook_keeps_its_type() -> None:
    content = zip_bytes({"[Content_Types].xml": CONTENT_TYPES, "xl/workbook.bin": b"\x83\x01\x00"})

    detected = detect(content, "book.xlsb")

    assert detected is not None
    assert detected.name == "xlsb"
    assert detected.mime_type == "application/vnd.ms-excel.sheet.binary.macroenabled.12"
