"""Every document type upload accepts is parsed, or refused with what to send instead: spreadsheets
through calamine (typed cells, number formats), the Office Open XML variants, OpenDocument, RTF, SVG,
MHTML, Outlook messages, HEIC photos, a PDF behind a banner, and one text decoder for CSV tables and
parses."""

from __future__ import annotations

import datetime
import io
import os
import zipfile
from xml.sax.saxutils import escape

import openpyxl  # type: ignore[import-untyped]
import pytest
from docsvc.document_types import SUPPORTED_TYPES, DocumentType, detect
from docsvc.documents import engine
from docsvc.documents.engine import errors, images, ocr, pdf, spreadsheets
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.tables import render_table
from docsvc.documents.readable import READABLE_TYPES
from docsvc.domain.files import require_supported
from docsvc.errors import UnsupportedMediaType
from docsvc.lookup_tables import parse_csv

from tests import compound_files, samples

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)


def texts(content: bytes, kind: str, **options: object) -> list[str]:
    return [page.text for page in engine.parse_pages(content, kind, ParseOptions(**options))]  # type: ignore[arg-type]


def workbook(rows: list[list[object]], formats: dict[str, str] | None = None, title: str = "Sheet") -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for row in rows:
        sheet.append(row)
    for cell, number_format in (formats or {}).items():
        sheet[cell].number_format = number_format
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------- coverage
def test_every_type_upload_accepts_is_read_or_refused_with_what_to_send_instead() -> None:
    for kind in SUPPORTED_TYPES:
        if kind in READABLE_TYPES:
            engine.readers.reader_for(kind)
        else:
            with pytest.raises(errors.UnsupportedDocument, match=r"convert the \.\w+ .* to \.\w+x or PDF"):
                engine.readers.reader_for(kind)
    assert sorted(set(SUPPORTED_TYPES) - set(READABLE_TYPES)) == ["doc", "ppt"]


@pytest.mark.parametrize(("kind", "instead"), [("doc", ".docx or PDF"), ("ppt", ".pptx or PDF")])
def test_a_legacy_word_or_powerpoint_file_is_a_415_that_says_what_to_convert_it_to(
    kind: str, instead: str
) -> None:
    with pytest.raises(UnsupportedMediaType) as refused:
        require_supported(DocumentType(kind), f"old.{kind}", READABLE_TYPES)

    assert f"convert the .{kind}" in str(refused.value.message)
    assert instead in str(refused.value.message)
    with pytest.raises(errors.UnsupportedDocument, match=instead):
        texts(b"\xd0\xcf\x11\xe0", kind)


# ---------------------------------------------------------------------------------------- spreadsheets
def test_spreadsheet_dates_are_iso_dates_with_a_time_only_when_there_is_one() -> None:
    content = workbook(
        [
            ["Day", "Moment", "Time"],
            [datetime.date(2024, 1, 15), datetime.datetime(2024, 1, 15, 13, 30), datetime.time(9, 5)],
            [datetime.datetime(2024, 2, 29, 0, 0), datetime.datetime(2024, 3, 1, 8, 0, 15), None],
        ]
    )

    (text,) = texts(content, "xlsx")

    assert text == (
        "## Sheet\n\n| Day | Moment | Time |\n|---|---|---|\n"
        "| 2024-01-15 | 2024-01-15T13:30:00 | 09:05:00 |\n| 2024-02-29 | 2024-03-01T08:00:15 |  |"
    )
    assert "45306" not in text


def test_spreadsheet_numbers_show_as_their_format_shows_them() -> None:
    rows: list[list[object]] = [
        ["Share", "Rate", "Total", "Units", "Price", "Big", "Loss", "Plain", "Ratio"],
        [0.256, 0.0525, 1234567.891, 1234567, 2.5, 123456.0, -1500.5, 250.0, 1 / 3],
    ]
    formats = {"A2": "0.0%", "B2": "0.00%", "C2": "#,##0.00", "D2": "#,##0", "E2": '"$"#,##0.00'}
    formats |= {"F2": "0.00E+00", "G2": "#,##0.00;(#,##0.00)"}

    (text,) = texts(workbook(rows, formats), "xlsx")

    assert text.splitlines()[-1] == (
        "| 25.6% | 5.25% | 1,234,567.89 | 1,234,567 | $2.50 | 1.23E+05 | (1,500.50) | 250"
        " | 0.333333333333333 |"
    )


@pytest.mark.parametrize(
    ("value", "code", "shown"),
    [
        (0.5, "0%", "50%"),
        (-0.125, "0.0%", "-12.5%"),
        (1234.5, "#,##0", "1,235"),
        (3.14159, "0.000", "3.142"),
        (2.5, "0.0#", "2.5"),
        (2.555, "0.0#", "2.56"),
        (0.5, "#.00", ".50"),
        (1234.5, "[$€-407] #,##0.00", "€ 1,234.50"),
        (42.0, '0 "kg"', "42 kg"),
        (1500000.0, "#,##0,", "1,500"),
        (0.0, '#,##0;-#,##0;"-"', "-"),
        (-3.0, "0;[Red]-0", "-3"),
    ],
)
def test_number_formats_that_print_digits_are_applied(value: float, code: str, shown: str) -> None:
    assert spreadsheets.format_number(value, code) == shown


@pytest.mark.parametrize("code", ["General", "@", "# ?/?", "[>100]0;0.0", "yyyy-mm-dd"])
def test_formats_not_shown_here_fall_back_to_the_general_format(code: str) -> None:
    assert spreadsheets.format_number(0.5, code) is None
    assert spreadsheets.cell_text(0.5, code) == "0.5"


def test_empty_rows_and_columns_around_a_sheets_data_are_dropped() -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet["C3"], sheet["D3"], sheet["C4"], sheet["D4"] = "Item", "Qty", "Desk", 2
    sheet["H20"].number_format = "0.00"  # formatted but empty: not data
    sheet["J30"] = ""
    buffer = io.BytesIO()
    book.save(buffer)

    (text,) = texts(buffer.getvalue(), "xlsx")

    assert text == "## Sheet\n\n| Item | Qty |\n|---|---|\n| Desk | 2 |"


@pytest.mark.parametrize("kind", ["xlsm", "xltx", "xltm", "xlam"])
def test_macro_enabled_and_template_workbooks_are_read_like_xlsx(kind: str) -> None:
    content = samples.xlsx({"Prices": [["Item", "Price"], ["Desk", 250.5]], "Notes": []})

    assert texts(content, kind) == ["## Prices\n\n| Item | Price |\n|---|---|\n| Desk | 250.5 |", "## Notes"]


def test_an_excel_97_workbook_is_read_with_its_dates() -> None:
    content = compound_files.xls(
        [["Item", "Delivered", "Price", "Paid"], ["Desk", datetime.date(2024, 1, 15), 250.5, True]]
    )

    assert detect(content, "old.xls") == DocumentType("xls")
    assert texts(content, "xls") == [
        "## Sheet1\n\n| Item | Delivered | Price | Paid |\n|---|---|---|---|\n"
        "| Desk | 2024-01-15 | 250.5 | TRUE |"
    ]


def test_a_spreadsheet_that_is_not_one_is_refused_as_damaged() -> None:
    with pytest.raises(errors.DamagedDocument, match="XLSB workbook could not be read"):
        texts(zip_of({"xl/workbook.bin": b"\x83\x01\x00", "[Content_Types].xml": b"<Types/>"}), "xlsb")
    with pytest.raises(errors.DamagedDocument):
        texts(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 2000, "xls")


def test_a_workbook_whose_part_expands_past_the_cap_is_refused_before_calamine_reads_it() -> None:
    bomb = zip_of({"xl/worksheets/sheet1.xml": b" " * (101 * 1024 * 1024)})
    assert len(bomb) < 1024 * 1024
    with pytest.raises(errors.DecompressionLimit):
        texts(bomb, "xlsx")


# ---------------------------------------------------------------------------------------- OpenDocument
OFFICE_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"'
)
MIMETYPES = {
    "odt": "application/vnd.oasis.opendocument.text",
    "ott": "application/vnd.oasis.opendocument.text-template",
    "odp": "application/vnd.oasis.opendocument.presentation",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "ots": "application/vnd.oasis.opendocument.spreadsheet-template",
}


def zip_of(members: dict[str, bytes], mimetype: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if mimetype is not None:
            archive.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def opendocument(kind: str, body: str, styles: str = "") -> bytes:
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {OFFICE_NS} office:version="1.3">'
        f"<office:automatic-styles>{styles}</office:automatic-styles><office:body>{body}</office:body>"
        "</office:document-content>"
    )
    manifest = b'<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'
    return zip_of(
        {"content.xml": content.encode(), "META-INF/manifest.xml": manifest}, mimetype=MIMETYPES[kind]
    )


ODT_BODY = (
    "<office:text><text:sequence-decls/>"
    '<text:h text:outline-level="1">Offer</text:h>'
    '<text:p>Dear<text:s text:c="2"/>customer,<text:note><text:note-body><text:p>a footnote</text:p>'
    "</text:note-body></text:note> <text:span>welcome</text:span>.</text:p>"
    "<text:list><text:list-item><text:p>one</text:p></text:list-item>"
    "<text:list-item><text:p>two</text:p></text:list-item></text:list>"
    "<table:table><table:table-column table:number-columns-repeated='2'/>"
    "<table:table-header-rows><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell>"
    "<table:table-cell><text:p>Price</text:p></table:table-cell></table:table-row></table:table-header-rows>"
    "<table:table-row><table:table-cell><text:p>Desk</text:p></table:table-cell>"
    "<table:table-cell><text:p>250</text:p></table:table-cell>"
    "<table:table-cell table:number-columns-repeated='1000'/></table:table-row></table:table>"
    '<text:p text:style-name="P1">Terms apply.</text:p>'
    "<text:soft-page-break/><text:p>Annex</text:p>"
    "</office:text>"
)
BREAK_BEFORE = (
    '<style:style style:name="P1" style:family="paragraph">'
    '<style:paragraph-properties fo:break-before="page"/></style:style>'
)


@pytest.mark.parametrize("kind", ["odt", "ott"])
def test_an_opendocument_text_reads_headings_lists_tables_and_page_breaks(kind: str) -> None:
    content = opendocument(kind, ODT_BODY, BREAK_BEFORE)

    assert detect(content, f"letter.{kind}") == DocumentType(kind)
    assert texts(content, kind) == [
        "# Offer\n\nDear  customer, welcome.\n\n- one\n\n- two\n\n"
        "| Item | Price |\n|---|---|\n| Desk | 250 |",
        "Terms apply.",
        "Annex",
    ]


def test_an_opendocument_presentation_is_a_page_per_slide_with_titles_and_tables() -> None:
    def frame(kind: str, text: str) -> str:
        return (
            f'<draw:frame presentation:class="{kind}"><draw:text-box><text:p>{text}</text:p>'
            "</draw:text-box></draw:frame>"
        )

    table = (
        "<draw:frame><table:table><table:table-row><table:table-cell><text:p>Q</text:p></table:table-cell>"
        "<table:table-cell><text:p>Revenue</text:p></table:table-cell></table:table-row>"
        "<table:table-row><table:table-cell><text:p>Q1</text:p></table:table-cell>"
        "<table:table-cell><text:p>10</text:p></table:table-cell></table:table-row></table:table></draw:frame>"
    )
    notes = (
        "<presentation:notes><draw:frame><draw:text-box><text:p>speaker only</text:p></draw:text-box>"
        "</draw:frame></presentation:notes>"
    )
    body = (
        "<office:presentation>"
        f'<draw:page draw:name="1">{frame("title", "Roadmap")}{frame("outline", "Ship the API")}'
        f"{notes}</draw:page>"
        f'<draw:page draw:name="2">{frame("title", "Numbers")}{table}</draw:page>'
        "</office:presentation>"
    )

    content = opendocument("odp", body)

    assert texts(content, "odp") == [
        "# Roadmap\n\nShip the API",
        "# Numbers\n\n| Q | Revenue |\n|---|---|\n| Q1 | 10 |",
    ]


def ods_cell(value: object) -> str:
    if isinstance(value, datetime.date):
        return (
            f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
            f"<text:p>{value:%d.%m.%Y}</text:p></table:table-cell>"
        )
    if isinstance(value, float):
        return (
            f'<table:table-cell office:value-type="float" office:value="{value}">'
            f"<text:p>{value}</text:p></table:table-cell>"
        )
    text = escape(str(value))
    return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'


@pytest.mark.parametrize("kind", ["ods", "ots"])
def test_an_opendocument_spreadsheet_is_a_page_per_sheet_with_iso_dates(kind: str) -> None:
    rows: list[list[object]] = [["Item", "Delivered", "Price"], ["Desk", datetime.date(2024, 1, 15), 250.5]]
    sheet = "".join(
        "<table:table-row>" + "".join(ods_cell(v) for v in row) + "</table:table-row>" for row in rows
    )
    body = f'<office:spreadsheet><table:table table:name="Orders">{sheet}</table:table></office:spreadsheet>'

    content = opendocument(kind, body)

    assert detect(content, "") == DocumentType(kind)
    assert texts(content, kind) == [
        "## Orders\n\n| Item | Delivered | Price |\n|---|---|---|\n| Desk | 2024-01-15 | 250.5 |"
    ]


# ---------------------------------------------------------------------------------------- Word variants
@pytest.mark.parametrize("kind", ["docm", "dotx", "dotm"])
def test_macro_enabled_and_template_word_files_are_read_like_docx(kind: str) -> None:
    content = samples.docx(["# Offer", "Dear customer,"], ["Terms apply."])

    assert texts(content, kind) == ["# Offer\n\nDear customer,", "Terms apply."]


# ---------------------------------------------------------------------------------------- text formats
def test_rtf_reads_its_text_and_splits_at_page_breaks() -> None:
    content = (
        rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}{\info{\title hidden}}"
        rb"\f0 Caf\'e9 cr\u232?me\par Second line\page Page two\par}"
    )

    assert detect(content, "letter.rtf") == DocumentType("rtf")
    assert texts(content, "rtf") == ["Café crème\nSecond line", "Page two"]


def test_svg_reads_its_title_and_text_elements() -> None:
    content = (
        b'<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
        b'<svg xmlns="http://www.w3.org/2000/svg"><title>Floor plan</title><rect width="9" height="9"/>'
        b'<text x="1" y="2">Kitchen</text><g><text x="5" y="2">Room <tspan>2.1</tspan></text></g></svg>'
    )

    assert texts(content, "svg") == ["# Floor plan\nKitchen\nRoom 2.1"]


def test_an_svg_with_entity_declarations_is_refused_not_expanded() -> None:
    content = (
        b'<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>'
    )

    with pytest.raises(errors.DamagedDocument, match="entities"):
        texts(content, "svg")


def test_mhtml_reads_the_html_part_of_the_saved_page() -> None:
    content = (
        b"From: <Saved by Blink>\r\nSubject: Invoice\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n'
        b"--B\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
        b"Content-Location: https://example.com/invoice\r\n\r\n"
        b"<html><body><h1>Invoice</h1><p>Caf=C3=A9 total</p>"
        b"<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>\r\n"
        b"--B\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        b"iVBORw0KGgo=\r\n--B--\r\n"
    )

    assert texts(content, "mhtml") == ["# Invoice\n\nCafé total\n\n| A | B |\n|---|---|\n| 1 | 2 |"]


# ---------------------------------------------------------------------------------------- Outlook
def test_an_outlook_message_reads_like_an_email() -> None:
    content = compound_files.msg(
        subject="Invoice 4711",
        sender=("Billing", "billing@example.com"),
        to="Ana Lopez",
        sent=datetime.datetime(2024, 1, 15, 9, 30, tzinfo=datetime.UTC),
        body="Please pay by Friday.\r\nThanks",
        attachments=[("invoice.pdf", "application/pdf")],
    )

    assert detect(content, "mail.msg") == DocumentType("msg")
    assert texts(content, "msg") == [
        "From: Billing <billing@example.com>\nTo: Ana Lopez\nDate: Mon, 15 Jan 2024 09:30:00 +0000\n"
        "Subject: Invoice 4711\n\nPlease pay by Friday.\nThanks\n\n"
        "Attachments:\n- invoice.pdf (application/pdf)"
    ]


def test_an_outlook_message_with_only_an_html_body_reads_it_as_html() -> None:
    content = compound_files.msg(
        subject="Offer",
        sender=("Sales", "sales@example.com"),
        to="Ana Lopez",
        sent=datetime.datetime(2024, 1, 15, tzinfo=datetime.UTC),
        html="<html><body><p>Our <b>best</b> price</p><ul><li>desk</li></ul></body></html>",
    )

    (text,) = texts(content, "msg")

    assert text.endswith("Subject: Offer\n\nOur best price\n\n- desk")


def test_an_ole_file_that_is_not_an_outlook_message_is_refused_as_damaged() -> None:
    with pytest.raises(errors.DamagedDocument, match="not an Outlook message"):
        texts(compound_files.compound_file({"WordDocument": b"x" * 100}), "msg")


# ---------------------------------------------------------------------------------------- HEIC
def heic(png: bytes) -> bytes:
    import pillow_heif
    from PIL import Image

    buffer = io.BytesIO()
    pillow_heif.from_pillow(Image.open(io.BytesIO(png)).convert("RGB")).save(buffer, quality=95)
    return buffer.getvalue()


def test_a_heic_photo_is_decoded_and_read_as_a_png_image(monkeypatch: pytest.MonkeyPatch) -> None:
    content = heic(samples.text_png("ORDER 2026"))
    handed: list[tuple[bytes, str]] = []

    def read_png(png: bytes, kind: str, options: ParseOptions, first: int = 1) -> list[Page]:
        handed.append((png, kind))
        return [Page(1, "read")]

    monkeypatch.setattr(pdf, "read_pages", read_png)

    assert detect(content, "IMG_0001.HEIC") == DocumentType("heic")
    assert [page.text for page in images.read_pages(content, "heic", ParseOptions())] == ["read"]
    ((png, kind),) = handed
    assert kind == "png" and png.startswith(b"\x89PNG")


@OCR
@pytest.mark.parametrize("kind", ["heic", "heif"])
def test_heic_and_heif_photos_are_read_by_ocr(kind: str) -> None:
    assert "ORDER 2026" in texts(heic(samples.text_png("ORDER 2026")), kind)[0]


def test_a_heic_larger_than_ocr_reads_is_refused_before_it_is_decoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(images, "MAX_OCR_PIXELS", 100)

    with pytest.raises(errors.DecompressionLimit, match="pixels"):
        list(images.read_pages(heic(samples.text_png("ORDER 2026")), "heic", ParseOptions()))


def test_a_damaged_heic_is_refused_as_damaged() -> None:
    with pytest.raises(errors.DamagedDocument, match="HEIC could not be decoded"):
        texts(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64, "heic")


# ---------------------------------------------------------------------------------------- PDF banner
@pytest.mark.parametrize(
    "banner", [b"X-Scanned-By: mail gateway 4.2\r\n\r\n", b"Content-Type: application/pdf\n\n"]
)
def test_a_pdf_behind_a_few_lines_of_banner_is_detected_and_read(banner: bytes) -> None:
    content = banner + samples.text_pdf(pages=1, text="Invoice")

    assert detect(content, "") == DocumentType("pdf")
    assert detect(content, "scan.txt") == DocumentType("pdf")
    assert texts(content, "pdf") == ["Invoice 1"]


def test_a_zip_compressed_by_a_method_python_does_not_know_is_not_a_document() -> None:
    content = bytearray(opendocument("odt", ODT_BODY))
    central = content.find(b"PK\x01\x02")  # the mimetype member's entry in the central directory
    content[central + 10 : central + 12] = (99).to_bytes(2, "little")  # its method: AES, unknown to zipfile

    assert detect(bytes(content), "letter.odt") is None


def test_text_that_quotes_a_pdf_header_on_its_own_line_is_still_text() -> None:
    content = b"Notes on the format\n%PDF-1.7\nThe header comes first; objects follow it.\n"

    assert detect(content, "notes.txt") == DocumentType("txt")


# ---------------------------------------------------------------------------------------- CSV decoding
def test_a_windows_1252_csv_reads_the_same_as_a_table_and_as_a_parse() -> None:
    content = "nom;ville;prix\nRené;Orléans;€5 \u2013 “net”\nZoë;Kraków;".encode("cp1252") + b"\x81\n"

    table = parse_csv(content)
    (parsed,) = texts(content, "csv")

    assert table.encoding == "windows-1252"
    assert table.rows == [["René", "Orléans", "€5 \u2013 “net”"], ["Zoë", "Kraków", "\x81"]]
    assert parsed == render_table([[c.name for c in table.columns], *table.rows], "markdown")
