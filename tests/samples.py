"""Real documents built for the tests: PDFs with PyMuPDF, Office files with python-docx, openpyxl and
python-pptx, e-mail with the standard library. Each builder returns the file's bytes."""

from __future__ import annotations

import io
from email.message import EmailMessage

import pymupdf


def text_pdf(pages: int = 3, text: str = "Page", lines: int = 1) -> bytes:
    """`pages` pages; page n holds "<text> n" and then `lines - 1` lines of prose."""
    with pymupdf.open() as document:
        for number in range(1, pages + 1):
            page = document.new_page()
            page.insert_text((72, 72), f"{text} {number}", fontsize=14)
            for line in range(1, lines):
                page.insert_text(
                    (72, 72 + 14 * line),
                    f"Line {line} of page {number}: the quick brown fox jumps over the lazy dog.",
                    fontsize=10,
                )
        return bytes(document.tobytes())


def table_pdf(rows: list[list[str]], title: str = "Price list", note: str = "Prices include VAT.") -> bytes:
    """A title, a ruled table of `rows` (the first is the header), and a note below it."""
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 60), title, fontsize=16)
        top, height, width = 90.0, 20.0, 120.0
        columns = len(rows[0])
        for row_index, row in enumerate(rows):
            for column, value in enumerate(row):
                cell = pymupdf.Rect(72 + column * width, top + row_index * height, 0, 0)
                cell.x1, cell.y1 = cell.x0 + width, cell.y0 + height
                page.draw_rect(cell, color=(0, 0, 0), width=0.8)
                page.insert_text((cell.x0 + 4, cell.y0 + 14), value, fontsize=10)
        bottom = top + len(rows) * height
        page.insert_text((72, bottom + 30), note, fontsize=10)
        assert columns > 0
        return bytes(document.tobytes())


def two_column_pdf() -> bytes:
    """A full-width title over two columns of three lines each, written column after column."""
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 60), "Annual report", fontsize=18)
        for column, x in (("Left", 72), ("Right", 330)):
            for line in range(3):
                page.insert_text((x, 100 + 14 * line), f"{column} column line {line + 1}", fontsize=10)
        return bytes(document.tobytes())


def side_by_side_pdf(rows: list[tuple[str, str]], x: tuple[float, float] = (72, 320)) -> bytes:
    """A title over lines written across the page, left then right on each baseline (as some producers
    write two columns, and as every form writes labels and values)."""
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 60), "Quarterly bulletin", fontsize=18)
        for index, (left, right) in enumerate(rows):
            page.insert_text((x[0], 100 + 13 * index), left, fontsize=9.5)
            page.insert_text((x[1], 100 + 13 * index), right, fontsize=9.5)
        return bytes(document.tobytes())


def text_png(text: str = "INVOICE 4711", size: int = 48) -> bytes:
    """A PNG picture of `text`: no text layer, only pixels."""
    with pymupdf.open() as document:
        page = document.new_page(width=500, height=120)
        page.insert_text((20, 80), text, fontsize=size)
        return bytes(page.get_pixmap(dpi=200).tobytes("png"))


def scanned_pdf(text: str = "INVOICE 4711") -> bytes:
    """A PDF whose only page is a picture of `text`, as a scanner makes it."""
    picture = text_png(text)
    with pymupdf.open() as document:
        page = document.new_page(width=500, height=120)
        page.insert_image(page.rect, stream=picture)
        return bytes(document.tobytes())


def encrypted_pdf() -> bytes:
    with pymupdf.open() as document:
        document.new_page().insert_text((72, 72), "secret")
        return bytes(
            document.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
        )


def docx(*pages: list[str | list[list[str]]]) -> bytes:
    """A Word document; each page a list of paragraphs (strings) and tables (lists of rows), the
    pages separated by page breaks. A paragraph starting with '# ' is a Heading 1."""
    import docx as python_docx
    from docx.enum.text import WD_BREAK

    document = python_docx.Document()
    for number, page in enumerate(pages):
        if number:
            document.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
        for part in page:
            if isinstance(part, str) and part.startswith("# "):
                document.add_heading(part[2:], level=1)
            elif isinstance(part, str):
                document.add_paragraph(part)
            else:
                table = document.add_table(rows=len(part), cols=len(part[0]))
                for row, values in zip(table.rows, part, strict=True):
                    for cell, value in zip(row.cells, values, strict=True):
                        cell.text = value
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def xlsx(sheets: dict[str, list[list[object]]]) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.remove(workbook.active)  # type: ignore[arg-type]
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def pptx(slides: list[tuple[str, str]], table: list[list[str]] | None = None) -> bytes:
    """A presentation of (title, body) slides; `table` goes on the last slide."""
    from pptx import Presentation
    from pptx.util import Inches

    presentation = Presentation()
    for title, body in slides:
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    if table:
        shape = slide.shapes.add_table(len(table), len(table[0]), Inches(1), Inches(4), Inches(6), Inches(1))
        for row_index, row in enumerate(table):
            for column, value in enumerate(row):
                shape.table.cell(row_index, column).text = value
    buffer = io.BytesIO()
    presentation.save(buffer)
    return buffer.getvalue()


def eml(subject: str = "Invoice 4711", body: str = "Please find the invoice attached.") -> bytes:
    message = EmailMessage()
    message["From"] = "Billing <billing@example.com>"
    message["To"] = "accounts@example.org"
    message["Subject"] = subject
    message["Date"] = "Mon, 23 Nov 2026 09:00:00 +0000"
    message.set_content(body)
    message.add_attachment(b"%PDF-1.4 ...", maintype="application", subtype="pdf", filename="invoice.pdf")
    return message.as_bytes()


def aligned_columns_pdf(rows: list[list[str]]) -> bytes:
    """A table without ruling lines: its columns only aligned by position, under a heading."""
    with pymupdf.open() as document:
        page = document.new_page()
        page.insert_text((72, 60), "Shipment summary", fontsize=14)
        for row_index, row in enumerate(rows):
            for column, value in enumerate(row):
                page.insert_text((72 + column * 130, 100 + row_index * 16), value, fontsize=10)
        return bytes(document.tobytes())


def scan_png(lines: list[str], turn: float = 0, fontsize: int = 14, font: str = "tiro") -> bytes:
    """A grey 150 dpi picture of a page of `lines` (no text layer), turned `turn` degrees clockwise."""
    from PIL import Image

    with pymupdf.open() as document:
        page = document.new_page(width=595, height=120 + 22 * len(lines))
        writer = pymupdf.TextWriter(page.rect)
        for index, line in enumerate(lines):
            writer.append((60, 80 + 22 * index), line, font=pymupdf.Font(font), fontsize=fontsize)
        writer.write_text(page)
        picture = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")
    if not turn:
        return bytes(picture)
    with Image.open(io.BytesIO(picture)) as image:
        buffer = io.BytesIO()
        image.rotate(-turn, expand=True, fillcolor=255).save(buffer, format="PNG")
    return buffer.getvalue()


def stamped_scan_pdf(lines: list[str], stamp: str) -> bytes:
    """A scanned page (a picture of `lines` over the whole page) with `stamp` as its only text layer,
    as a scanner's software stamps a page."""
    picture = scan_png(lines)
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=120 + 22 * len(lines))
        page.insert_image(page.rect, stream=picture)
        page.insert_text((60, 30), stamp, fontsize=10)
        return bytes(document.tobytes())


def turned_table_pdf(rows: list[list[str]]) -> bytes:
    """table_pdf's page laid on its side in a portrait page whose /Rotate turns it upright again, as
    landscape reports often come (the text runs up the unrotated page)."""
    with pymupdf.open(stream=table_pdf(rows), filetype="pdf") as upright, pymupdf.open() as document:
        width, height = upright[0].rect.width, upright[0].rect.height
        page = document.new_page(width=height, height=width)
        page.show_pdf_page(page.rect, upright, 0, rotate=90)
        page.set_rotation(90)
        return bytes(document.tobytes())


def form_pdf(*, widgets: bool = True) -> bytes:
    """A one-page application: two labelled text fields and a checkbox, as widgets or as blanks."""
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 60), "APPLICATION FOR MEMBERSHIP", fontsize=14)
    rows = [("Full name", 110), ("Date of birth", 150)]
    for label, y in rows:
        page.insert_text((72, y), f"{label}:", fontsize=11)
        box = pymupdf.Rect(180, y - 14, 460, y + 4)
        if widgets:
            widget = pymupdf.Widget()
            widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
            widget.field_name = label.lower().replace(" ", "_")
            widget.field_label = label
            widget.rect = box
            page.add_widget(widget)
        else:
            page.draw_line(box.bl, box.br)
    page.insert_text((100, 190), "I am a citizen", fontsize=11)
    tick = pymupdf.Rect(72, 179, 84, 191)
    if widgets:
        widget = pymupdf.Widget()
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
        widget.field_name = "citizen"
        widget.field_label = "I am a citizen"
        widget.rect = tick
        page.add_widget(widget)
    else:
        page.draw_rect(tick)
    return bytes(document.tobytes())


def named_glyphs_pdf(
    names: list[str], shown: str, width: float = 400, advances: dict[int, int] | None = None
) -> bytes:
    """A page whose font draws codes 1, 2, ... as the glyphs `names` (a `Differences` encoding, as fonts
    that name their glyphs by code point, `uni0639`, do), showing the text operators `shown` in it.
    `advances` gives codes their widths (thousandths of the font size; 0 for a glyph of no width, as
    an Indic font's vowel signs are); the other codes keep Helvetica's."""
    with pymupdf.open() as document:
        page = document.new_page(width=width, height=300)
        page.insert_text((50, 50), "x", fontname="helv")
        font = page.get_fonts()[0]
        differences = " ".join(f"{code}/{name}" for code, name in enumerate(names, start=1))
        document.xref_set_key(
            font[0], "Encoding", f"<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[{differences}]>>"
        )
        if advances:
            helvetica = pymupdf.Font("helv")
            widths = [
                advances.get(code, round(helvetica.text_length(chr(code), 1000))) for code in range(1, 256)
            ]
            document.xref_set_key(font[0], "FirstChar", "1")
            document.xref_set_key(font[0], "LastChar", "255")
            document.xref_set_key(font[0], "Widths", f"[{' '.join(map(str, widths))}]")
        document.update_stream(page.get_contents()[0], f"BT /{font[4]} 11 Tf {shown} ET".encode("latin-1"))
        return bytes(document.tobytes())
