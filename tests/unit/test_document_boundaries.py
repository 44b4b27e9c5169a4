"""The built-in classification and splitting on page texts as the engine reads them: documents in the
main European languages, prose that only talks about invoices, and packets whose documents are told
apart by their page numbering."""

from __future__ import annotations

from docsvc.intelligence.classification import Category, classify
from docsvc.intelligence.splitting import Split, Subdocument, split

CATEGORIES = [
    Category("invoice", "An invoice or bill from a seller to a buyer."),
    Category("purchase_order", "A purchase order from a buyer to a seller."),
    Category("scientific_paper", "A page of an academic paper: abstract, equations, references."),
    Category("technical_documentation", "A technical manual, handbook or developer guide."),
    Category("letter", "A personal or business letter."),
]
SUBDOCUMENTS = [Subdocument(c.name, c.description, allow_multiple_instances=True) for c in CATEGORIES]


def rechnung(number: str, page: int, of: int, laid_out: bool = False) -> str:
    marker = f"Seite     von\n{page}\n{of}" if laid_out else f"Seite {page} von {of}"
    if page > 1:
        return f"Obstkontor Weber KG\n{marker}\n\nPositionen (Fortsetzung)\n\nÄpfel\n3,20\n12\n38,40\n"
    return (
        f"Obstkontor Weber KG\n{marker}\n\nRechnung\nRechnungsnummer: {number}\n"
        "Rechnungsdatum: 02.04.2025\n\n"
        "Käufer\nName:\nGemüsehof Brandt\n\nUSt.-Id.-Nr.:\nDE811234567\n\nBirnen\n2,10\n40\n84,00\n"
    )


def order_page() -> str:
    return (
        "| PURCHASE ORDER: | PO-5521 |\n|---|---|\n| Date : | 14/05/2025 |\n\n"
        "Buyer: Harbour Cafe Ltd\nSupplier: Blue Ridge Roasters\nShip to: 4 Quay Street\n\n"
        "| Item | Qty | Unit price | Amount |\n|---|---|---|---|\n"
        "| Espresso beans 1kg | 12 | 18.00 | 216.00 |\n"
        "Order total: 216.00\n"
    )


def english_invoice(number: str) -> str:
    return (
        f"Harbour Supplies Ltd\nInvoice # {number}\nBill to: Quay Bakery\n\n"
        "| Item | Qty | Price | Total |\n|---|---|---|---|\n| Flour 25kg | 4 | 21.00 | 84.00 |\n"
        "VAT 20%: 16.80\nAmount due: 100.80\nPage 1 / 1\n"
    )


def parts(splits: list[Split]) -> list[tuple[str, list[int]]]:
    return [(part.name, part.pages) for part in splits]


# -------------------------------------------------------------------------------------- classification
def test_invoices_in_german_french_dutch_and_polish_are_classified_as_invoices() -> None:
    pages = {
        "de": "Rechnung\nRechnungsnummer: 2025-114\nZahlbetrag: 84,00 EUR\nUSt.-Id.-Nr.: DE811234567\n",
        "fr": "Facture FA-2025-31\nDate de facture : 03/04/2025\nTotal TTC : 120,00 €\nTVA 20 % : 20,00 €\n",
        "nl": "Factuur\nFactuurnummer: 7781\nVervaldatum: 30-04-2025\nTe betalen: € 60,50\nBTW 21%\n",
        "pl": "Faktura VAT nr 12/2025\nSprzedawca: Piekarnia Nowak\nNabywca: Kawiarnia Róża\n"
        "Do zapłaty: 245,00 zł\n",
    }
    invoice_listed_last = CATEGORIES[::-1]
    for language, text in pages.items():
        found = classify([text], invoice_listed_last)
        assert (found.category, found.likelihood >= 0.5) == ("invoice", True), language


def test_a_developer_guide_that_talks_about_invoices_is_classified_as_documentation() -> None:
    guide = (
        "Developer Guide\n\n"
        "This chapter explains how the library writes the invoice number and the invoice date into the XML\n"
        "of an electronic invoice, and how the amount due and the VAT totals are validated against the\n"
        "schema.\n"
        "For example, a developer who sets the due date must also set the payment terms, otherwise the\n"
        "validation of the profile fails with an error that names the missing element of the invoice.\n"
        "See section 4 for the configuration of the tool and the command line parameters it accepts.\n"
    )
    assert classify([guide], CATEGORIES).category == "technical_documentation"


def test_a_page_of_a_paper_with_a_results_table_is_classified_as_a_paper() -> None:
    page = (
        "Learning Table Structure from Few Examples\n"
        "In this paper we propose a method that reduces the number of decoding steps of the model while\n"
        "keeping the accuracy of the baseline, as the results in Table 2 show for both data sets used.\n"
        "| Model | Accuracy | Time (s) |\n|---|---|---|\n"
        "| Baseline [4] | 0.91 | 2.4 |\n| Ours | 0.93 | 1.1 |\n"
        "Smith et al. [7] report similar findings; the proof of Lemma 1 is given in the appendix.\n"
        "References\n[4] A. Author. A baseline for tables. Proceedings of the Conference, 2021.\n"
    )
    assert classify([page], CATEGORIES).category == "scientific_paper"


def test_a_page_without_readable_text_is_classified_with_a_low_likelihood() -> None:
    assert classify(["", "  \n"], CATEGORIES).likelihood < 0.5


# ------------------------------------------------------------------------------------------- splitting
def test_two_invoices_back_to_back_are_split_where_page_numbering_restarts() -> None:
    pages = [rechnung("R-1", 1, 2), rechnung("R-1", 2, 2), rechnung("R-2", 1, 1)]
    assert parts(split(pages, SUBDOCUMENTS)) == [("invoice", [1, 2]), ("invoice", [3])]


def test_a_page_marker_laid_out_as_a_label_over_its_numbers_is_read() -> None:
    pages = [rechnung("R-7", 1, 3, True), rechnung("R-7", 2, 3, True), rechnung("R-7", 3, 3, True)]
    pages += [rechnung("R-8", 1, 2, True), rechnung("R-8", 2, 2, True)]
    assert parts(split(pages, SUBDOCUMENTS)) == [("invoice", [1, 2, 3]), ("invoice", [4, 5])]


def test_a_page_after_the_last_page_of_its_document_starts_a_new_document() -> None:
    pages = [english_invoice("H-100"), order_page()]
    assert parts(split(pages, SUBDOCUMENTS)) == [("invoice", [1]), ("purchase_order", [2])]


def test_invoices_each_marked_page_one_of_one_are_split_apart() -> None:
    pages = [english_invoice("H-100"), english_invoice("H-100"), english_invoice("H-101")]
    assert parts(split(pages, SUBDOCUMENTS)) == [("invoice", [1]), ("invoice", [2]), ("invoice", [3])]


def test_each_split_says_how_sure_its_boundaries_are() -> None:
    numbered = split([rechnung("R-1", 1, 2), rechnung("R-1", 2, 2), rechnung("R-2", 1, 1)], SUBDOCUMENTS)
    assert [part.likelihood for part in numbered] == [0.95, 0.95]
    unmarked = ["Invoice\nInvoice number: 7\nAmount due: 5.00\n", "Some notes about the delivery.\n"]
    guessed = split(unmarked, SUBDOCUMENTS)
    assert all(0.0 < part.likelihood < 0.95 for part in guessed)
