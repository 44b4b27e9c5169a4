"""The real-document bench's table truth read from the source a PDF was made from (an HTML page, a
workbook, a CSV file, a Word document, a LaTeX or Markdown file, a generator's literal rows), and
scored only where the PDF's text layer shows each source cell."""

from __future__ import annotations

from bench.real_documents import (
    ENGINE,
    RAW,
    DocumentResult,
    Output,
    _score_tables,
    load_truth,
    typed_truth,
)
from tests.samples import docx, xlsx


def _cells(kind: str, data: bytes, select: str | None = None) -> list[str]:
    truth = load_truth({"truth_kind": kind, "truth_select": select}, data)
    assert truth.from_source
    return [cell for _, cell in truth.cells]


def test_html_truth_is_every_td_and_th_with_line_breaks_as_spaces() -> None:
    page = b"<p>Not a cell</p><table><tr><th>Item<br>name</th><th>Price</th></tr>"
    page += b"<tr><td>Tea &amp; cake</td><td>3.50</td></tr></table>"
    assert _cells("html-tables", page) == ["Item name", "Price", "Tea & cake", "3.50"]


def test_workbook_truth_writes_whole_numbers_without_a_decimal_point() -> None:
    rows: list[list[object]] = [["Cores", "Mean wait"], [4.0, 31.24], [None, True]]  # no empty, no bool
    book = xlsx({"Results": rows, "Notes": [["Draft"]]})
    assert _cells("xlsx-cells", book) == ["Cores", "Mean wait", "4", "31.24", "Draft"]
    assert _cells("xlsx-cells", book, "Results") == ["Cores", "Mean wait", "4", "31.24"]


def test_word_truth_is_every_table_cell_and_no_paragraph_outside_a_table() -> None:
    document = docx(["Not a cell", [["Item", "Price"], ["Tea", "3.50"]], "Nor this"], [[["Total", "7.00"]]])
    assert _cells("docx-tables", document) == ["Item", "Price", "Tea", "3.50", "Total", "7.00"]


def test_latex_truth_keeps_plain_cells_and_leaves_markup_out() -> None:
    source = rb"""
\begin{tabular}{|l|r|}\hline
\textbf{Name} & Cost \\ \hline
Tea \& cake & 3--4 \\ % a comment & not a cell
\multicolumn{2}{c}{\emph{Total}} & $x^2$ \\
\end{tabular}
Text & outside a table \\
"""
    assert _cells("latex-tables", source) == ["Name", "Cost", "Tea & cake", "3\u20134", "Total"]


def test_markdown_truth_is_the_pipe_tables_cells_without_emphasis() -> None:
    source = b"# Title\n\n| Header | **Bold** |\n|---|---|\n| `code` | plain |\n\nA | not a table\n"
    assert _cells("markdown-tables", source) == ["Header", "Bold", "code", "plain"]


def test_csv_truth_is_every_cell_of_every_row_with_its_header() -> None:
    rows = '\ufeffDate,Description,Debit,Credit\n01/02/24,"Transfer, rent",500.00,\n'.encode()
    expected = ["Date", "Description", "Debit", "Credit", "01/02/24", "Transfer, rent", "500.00"]
    assert _cells("csv-cells", rows) == expected


def test_python_literal_truth_is_the_named_rows() -> None:
    source = b'OTHER = (("x",),)\nTABLE_DATA = (\n    ("First", "Age"),\n    ("Jules", 34),\n)\n'
    assert _cells("python-literal", source, "TABLE_DATA") == ["First", "Age", "Jules", "34"]


def test_source_cells_the_text_layer_does_not_show_are_not_expected() -> None:
    truth = load_truth({"truth_kind": "html-tables"}, b"<td>Cores</td><td>31.24</td><td>4</td>")
    raw = Output(pages=["Cores 31,24 4"], text="Cores 31,24 4")  # the PDF writes the number otherwise
    found = Output(pages=["|Cores|4|"], tables=[["Cores", "4"]], table_pages={1})
    result = DocumentResult("doc", "table-ruled", "en", "s", "pdf", 1)
    _score_tables(result, truth, {RAW: raw, ENGINE: found})
    assert (result.cells_expected, result.cells_strict[ENGINE]) == (2, 2)


def test_truth_read_from_the_pdf_itself_is_expected_whatever_the_text_layer_shows() -> None:
    truth = load_truth({"truth_kind": "tabula-csv"}, b"Cores,31.24\n")
    raw = Output(pages=["Cores 31,24"], text="Cores 31,24")
    result = DocumentResult("doc", "table-ruled", "en", "s", "pdf", 1)
    _score_tables(result, truth, {RAW: raw, ENGINE: Output(pages=[""], tables=[[]])})
    assert result.cells_expected == 2


def test_a_source_cell_is_expected_only_as_often_as_the_text_layer_shows_it() -> None:
    book = xlsx({"Printed": [["Slot", "1"], ["Next", "1"]], "Not printed": [["1"], ["1"], ["1"]]})
    truth = load_truth({"truth_kind": "xlsx-cells"}, book)
    raw = Output(pages=["Slot 1 Next 1 Page 10"], text="Slot 1 Next 1 Page 10")
    found = Output(pages=[""], tables=[["Slot", "1", "Next", "1"]], table_pages={1})
    result = DocumentResult("doc", "table-ruled", "en", "s", "pdf", 1)
    _score_tables(result, truth, {RAW: raw, ENGINE: found})
    assert (result.cells_expected, result.cells_strict[ENGINE]) == (4, 4)


def test_cells_typed_from_the_page_are_expected_on_their_page_where_the_text_layer_shows_them() -> None:
    truth = typed_truth([{"page": 2, "rows": [["Date", "Amount", ""], ["01/05", "5O.00"]]}])  # a slip: O
    raw = Output(pages=["Cover", "Date Amount 01/05 50.00"], text="Cover\n\nDate Amount 01/05 50.00")
    found = Output(pages=["", ""], tables=[[], ["Date", "Amount", "01/05 50.00"]], table_pages={2})
    result = DocumentResult("doc", "table-borderless", "en", "s", "pdf", 2)
    _score_tables(result, truth, {RAW: raw, ENGINE: found})
    assert (result.cells_expected, result.cells_strict[ENGINE], result.truth_table_pages) == (3, 2, [2])
