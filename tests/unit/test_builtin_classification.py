"""The built-in classifier on real documents: PDFs built here, read by the parse engine, classified by
their words; and the sample documents the splitting tests assemble into packets."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pymupdf
import pytest
from docsvc.documents.engine import parse_pages
from docsvc.documents.engine.model import ParseOptions
from docsvc.intelligence.classification import (
    Category,
    classify,
    document_shapes,
    greets_before_prose,
    is_salutation,
    leads_to_pages,
    lines_of,
    whole_occurrences,
)
from docsvc.intelligence.vocabulary import IndexedText, compound_kind, phrase, word_count

# A guard against runaway work (catastrophic backtracking takes minutes), not a speed target: the
# speed of the built-in models is measured by bench/intelligence_corpus.py.
HANG_SECONDS = 10.0


# ------------------------------------------------------------------------------------ sample documents
@dataclass(frozen=True)
class Sheet:
    """One PDF page: lines at the top, an optional ruled table, lines below it, a footer line."""

    lines: Sequence[str] = ()
    table: Sequence[Sequence[str]] = ()
    after: Sequence[str] = ()
    footer: str = ""
    title: str = ""  # large type, above the lines


@dataclass(frozen=True)
class Packet:
    sheets: list[Sheet] = field(default_factory=list)

    def __add__(self, other: Packet) -> Packet:
        return Packet([*self.sheets, *other.sheets])


def pdf(packet: Packet) -> bytes:
    with pymupdf.open() as document:  # type: ignore[no-untyped-call]
        for sheet in packet.sheets:
            _draw(document.new_page(), sheet)
        return bytes(document.tobytes())


def _draw(page: pymupdf.Page, sheet: Sheet) -> None:
    y = 60.0
    if sheet.title:
        page.insert_text((72, y), sheet.title, fontsize=20)
        y += 34
    for line in sheet.lines:
        page.insert_text((72, y), line, fontsize=10)
        y += 15
    if sheet.table:
        y += 10
        width = min(115.0, 460.0 / max(len(row) for row in sheet.table))
        for row in sheet.table:
            for column, value in enumerate(row):
                cell = pymupdf.Rect(72 + column * width, y, 72 + (column + 1) * width, y + 20)  # type: ignore[no-untyped-call]
                page.draw_rect(cell, color=(0, 0, 0), width=0.8)
                page.insert_text((cell.x0 + 4, cell.y0 + 14), value, fontsize=10)
            y += 20
        y += 25
    for line in sheet.after:
        page.insert_text((72, y), line, fontsize=10)
        y += 15
    if sheet.footer:
        page.insert_text((260, 800), sheet.footer, fontsize=8)


def parsed(packet: Packet) -> list[str]:
    """The packet as a PDF, read back by the parse engine: one text per page."""
    return [page.text for page in parse_pages(pdf(packet), "pdf", ParseOptions())]


ITEMS = ["Description", "Qty", "Unit price", "Amount"]


def invoice(number: str, pages: int = 1, customer: str = "Globex Corp", paid: bool = False) -> Packet:
    """An invoice; beyond the first page, pages hold only more item rows and "Page n of N"."""

    def marker(n: int) -> str:
        return f"Page {n} of {pages}" if pages > 1 else ""

    first = Sheet(
        title="INVOICE",
        lines=["ACME Supplies Ltd", f"Invoice number: {number}", "Date: 12/03/2026", f"Bill to: {customer}"],
        table=[ITEMS, ["Widget", "2", "$1,200.00", "$2,400.00"], ["Shipping", "1", "$99.50", "$99.50"]],
        after=["Paid by card - thank you, payment received."]
        if paid
        else ["Total due: $2,499.50", "Payment terms: net 30. Please pay by the due date 11/04/2026."],
        footer=marker(1),
    )
    rest = [
        Sheet(table=[ITEMS, [f"Part {n}", "1", "$10.00", "$10.00"]], footer=marker(n))
        for n in range(2, pages + 1)
    ]
    return Packet([first, *rest])


def receipt(number: str, store: str = "Corner Store") -> Packet:
    return Packet(
        [
            Sheet(
                title=store,
                lines=["12 High Street", f"Receipt #{number}", "Cashier: Ann   Till 3"],
                table=[["Item", "Price"], ["Milk", "2.50"], ["Bread", "3.00"]],
                after=[
                    "Subtotal 5.50",
                    "Total 5.50",
                    "Cash 10.00",
                    "Change 4.50",
                    "Thank you for your purchase!",
                ],
            )
        ]
    )


def purchase_order(number: str) -> Packet:
    return Packet(
        [
            Sheet(
                title="PURCHASE ORDER",
                lines=[f"PO number: {number}", "Order date: 02/03/2026", "Vendor: ACME Supplies Ltd"],
                table=[["Item", "Quantity", "Deliver by"], ["Widget", "40", "20/03/2026"]],
                after=["Ship to: Globex Corp, Dock 4", "Authorized by: J. Smith"],
            )
        ]
    )


def bank_statement(pages: int = 2) -> Packet:
    """A statement whose later pages are transaction tables only."""
    rows = [["Date", "Details", "Withdrawals", "Deposits", "Balance"]]
    first = Sheet(
        title="Bank Statement",
        lines=["First Bank plc", "Account number: 12345678", "Statement period: 01/02/2026 to 28/02/2026"],
        table=[
            *rows,
            ["01/02", "Opening balance", "", "", "1,000.00"],
            ["03/02", "Salary", "", "2,000.00", "3,000.00"],
        ],
        after=["Closing balance carried forward"],
    )
    rest = [
        Sheet(table=[*rows, [f"{n:02}/02", "Card payment", "20.00", "", "2,980.00"]])
        for n in range(2, pages + 1)
    ]
    return Packet([first, *rest])


def application_form() -> Packet:
    return Packet(
        [
            Sheet(
                title="Membership Application Form",
                lines=[
                    "Please complete in block capitals.",
                    "Full name: ____________",
                    "Date of birth: ____________",
                    "Email: ____________",
                    "I declare that the information above is true.",
                    "Signature: ____________",
                    "For office use only",
                ],
            )
        ]
    )


CATEGORIES = [
    Category("invoice"),
    Category("receipt"),
    Category("purchase_order"),
    Category("bank_statement"),
    Category("application_form"),
]


# ---------------------------------------------------------------------------------------------- tests
def test_an_invoice_is_classified_as_invoice_citing_its_labels() -> None:
    result = classify(parsed(invoice("INV-2026-0042")), CATEGORIES)
    assert result.category == "invoice"
    assert "INVOICE" in result.reasoning
    assert "Invoice number" in result.reasoning
    assert result.likelihood > 0.6


@pytest.mark.parametrize(
    ("packet", "expected", "evidence"),
    [
        (receipt("4411"), "receipt", "Thank you for your purchase"),
        (purchase_order("PO-7781"), "purchase_order", "PURCHASE ORDER"),
        (bank_statement(), "bank_statement", "Bank Statement"),
        (application_form(), "application_form", "Application Form"),
    ],
)
def test_each_kind_of_document_goes_to_the_category_naming_it(
    packet: Packet, expected: str, evidence: str
) -> None:
    result = classify(parsed(packet), CATEGORIES)
    assert result.category == expected
    assert evidence in result.reasoning
    assert 0.5 < result.likelihood <= 1.0


def test_descriptions_alone_tell_categories_with_neutral_names_apart() -> None:
    categories = [
        Category("type_a", "A bill asking to be paid later: invoice number, amount due, payment terms"),
        Category("type_b", "A till slip from a shop: cash register, change, thank you for your purchase"),
    ]
    assert classify(parsed(invoice("INV-1")), categories).category == "type_a"
    result = classify(parsed(receipt("77")), categories)
    assert result.category == "type_b"
    assert "Thank you for your purchase" in result.reasoning


def test_descriptions_steer_between_close_categories() -> None:
    categories = [
        Category("unpaid_invoice", "An invoice still to be paid: total due, please pay by the due date"),
        Category("paid_invoice", "An invoice already settled: paid by card, payment received, thank you"),
    ]
    unpaid = classify(parsed(invoice("INV-1")), categories)
    paid = classify(parsed(invoice("INV-2", paid=True)), categories)
    assert (unpaid.category, paid.category) == ("unpaid_invoice", "paid_invoice")
    assert "Payment received" in paid.reasoning or "payment received" in paid.reasoning


def test_a_negated_kind_in_a_description_is_not_evidence_for_that_category() -> None:
    categories = [
        Category("billing", "Anything asking for money: invoice, bill, amount due"),
        Category("shop_slip", "A sales receipt, not an invoice"),
    ]
    assert classify(parsed(invoice("INV-3")), categories).category == "billing"


def test_the_first_pages_weigh_most() -> None:
    pages = parsed(invoice("INV-9") + bank_statement(pages=1))
    assert classify(pages, [Category("bank_statement"), Category("invoice")]).category == "invoice"
    reversed_pages = parsed(bank_statement(pages=1) + invoice("INV-9"))
    assert (
        classify(reversed_pages, [Category("invoice"), Category("bank_statement")]).category
        == "bank_statement"
    )


def test_a_till_slip_showing_vat_is_a_receipt_rather_than_an_invoice() -> None:
    slip = Sheet(
        title="WILLOW HARDWARE",
        lines=["DATE 03/14/2026 13:32", "Till 6"],
        table=[["QTY", "ITEM", "AMOUNT"], ["2", "Chicken wrap", "11.60"], ["1", "Toothpaste", "2.11"]],
        after=["INCL. TAX 8.25% 1.05", "TOTAL 13.71", "CASH 20.00", "CHANGE 6.29", "VAT no. GB 423 2371 61"],
    )
    categories = [
        Category(
            "invoice", "A bill asking for payment: invoice number, dates, line items, tax and amount due."
        ),
        Category("receipt", "Proof of a payment made at a shop: items bought, total paid, cash or card."),
    ]
    assert classify(parsed(Packet([slip])), categories).category == "receipt"


def test_names_match_whatever_their_case_spacing_and_plural() -> None:
    categories = [Category("Invoices"), Category("PurchaseOrders"), Category("bank-statements")]
    assert classify(parsed(purchase_order("PO-1")), categories).category == "PurchaseOrders"
    assert classify(parsed(bank_statement()), categories).category == "bank-statements"


def test_quoted_phrases_in_instructions_back_the_category_they_name() -> None:
    pages = ["Widget Corp\nWork order WO-17\nTechnician: Sam\nLabour 2h"]
    categories = [Category("maintenance"), Category("repair")]
    assert classify(pages, categories).category == "maintenance"  # no evidence: the first listed
    steered = classify(pages, categories, instructions='Documents mentioning "work order" are repairs.')
    assert steered.category == "repair"
    assert "Work order" in steered.reasoning


def test_a_catch_all_category_takes_documents_that_fit_no_other() -> None:
    categories = [Category("invoice"), Category("receipt"), Category("misc", "anything else")]
    result = classify(parsed(purchase_order("PO-3")), categories)
    assert result.category == "misc"
    assert "no other category had enough evidence" in result.reasoning
    assert classify(parsed(invoice("INV-3")), categories).category == "invoice"


def test_without_any_evidence_the_first_category_wins_with_low_likelihood() -> None:
    result = classify(["", "   "], [Category("letter_of_credit"), Category("tax_form")])
    assert result.category == "letter_of_credit"
    assert result.likelihood <= 0.5
    assert "No words" in result.reasoning
    assert classify([], [Category("invoice")]).category == "invoice"


def test_no_categories_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="at least one category"):
        classify(["INVOICE"], [])


def test_classification_is_deterministic_and_fast() -> None:
    pages = parsed(invoice("INV-5", pages=3)) * 34
    started = time.perf_counter()
    results = {classify(pages, CATEGORIES) for _ in range(3)}
    assert time.perf_counter() - started < HANG_SECONDS
    assert len(results) == 1


# ------------------------------------------------------------------- kinds named in other languages
KINDS_OF_DOCUMENTS = [
    Category("invoice", "An invoice from a seller to a buyer: invoice number, amounts due, VAT."),
    Category("technical_documentation", "A technical manual, handbook, specification or developer guide."),
    Category("book", "A book, such as a textbook or a novel, a chapter or a page of one."),
    Category("report", "A report of an organisation on a topic."),
    Category("presentation", "Slides of a presentation."),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a German specification of electronic invoices is full of invoice words
            "ZUGFeRD 2.1.1\nSpezifikation\nTechnischer Anhang\nKapitel 3 Datenmodell\n"
            "Die Rechnung enthält die Rechnungsnummer, das Rechnungsdatum und den Rechnungsbetrag. "
            "Der Verkäufer und der Käufer werden mit ihrer USt-ID angegeben. Beispiel: Bruttosumme.",
            "technical_documentation",
        ),
        ("Kapitel 2\nVorwort\nInhaltsverzeichnis\nDie Geschichte beginnt im Winter.", "book"),
        ("Rapport\nSynthèse\nRecommandations\nLes constats de l'étude portent sur la région.", "report"),
        ("Presentación\nAgenda\nDiapositivas del proyecto\nPreguntas", "presentation"),
    ],
)
def test_document_kinds_are_recognised_by_their_names_in_other_languages(text: str, expected: str) -> None:
    assert classify([text], KINDS_OF_DOCUMENTS).category == expected


def test_a_specification_speaking_of_invoices_in_sentences_is_not_an_invoice() -> None:
    categories = [
        Category("invoice", "An invoice from a seller to a buyer: invoice number, amounts due, VAT."),
        Category(
            "technical_documentation", "A technical manual, handbook, specification or developer guide."
        ),
    ]
    page = (
        "Chapter 4 Business rules\n"
        "Every invoice sent under this profile must give"
        " the invoice number and the invoice date in the header.\n"
        "The seller states the amount due and the VAT of each line so that"
        " the buyer can check the total due.\n"
        "An invoice without a due date is rejected by"
        " the validation of the receiving system in this version.\n"
        "Section 4.2 gives the syntax of each element and an example for the developers of the software.\n"
    )
    assert classify([page], categories).category == "technical_documentation"


@pytest.mark.parametrize(
    ("title", "expected"),
    [("RAPPORT DE DÉPENSES\nEmployé(e) :\nDate :", "form"), ("Injury and Illness Incident Report", "form")],
)
def test_forms_titled_as_reports_are_forms(title: str, expected: str) -> None:
    categories = [
        Category("report", "A report of an organisation on a topic: findings, sections, tables and figures."),
        Category("form", "A form to fill in: boxes, checkboxes and field labels."),
    ]
    assert classify([title], categories).category == expected


# ------------------------------------------------------------------ the shape of the pages as a whole
PAPER_BOOK_DECK = [
    Category(
        "scientific_paper",
        "A scientific or academic paper or thesis: title, authors and affiliations, abstract, equations, "
        "figures, references.",
    ),
    Category(
        "book", "A book, a chapter or a page of one: a textbook, a novel, with chapters and running text."
    ),
    Category(
        "presentation", "Slides of a presentation: one title and a few bullet points or a chart per page."
    ),
    Category("form", "A form to fill in: boxes, checkboxes and field labels."),
    Category(
        "contract", "A contract or agreement between parties: the parties, terms and clauses, signatures."
    ),
]
RESEARCH = (
    "We propose a model of the experiment and evaluate it on the dataset.",
    "The results of the analysis show the performance of the algorithm.",
    "The method improves on the baseline in every evaluation we ran.",
)


def test_a_deck_of_short_titled_pages_is_a_presentation_whatever_its_topic() -> None:
    slides = Packet(
        [
            Sheet(title=title, lines=[f"• {line}" for line in RESEARCH[: 1 + index % 3]])
            for index, title in enumerate(["Our method", "The dataset", "Results", "Evaluation", "Next"])
        ]
    )
    result = classify(parsed(slides), PAPER_BOOK_DECK)
    assert result.category == "presentation"
    assert "short pages" in result.reasoning


def test_a_deck_of_text_slides_is_a_presentation_though_its_slides_hold_more_lines_than_bullets() -> None:
    code = ["func main() {", "x := compute(a, b)", "fmt.Println(x)", "}", "// compile with go build"]
    slides = [
        "\n".join([title, RESEARCH[page % 3], *code, *[f"{n}. step {n}" for n in range(10)], f"{page} / 12"])
        for page, title in enumerate(["Go for optimization", "Goroutines", "Benchmarks", "Profiling"], 1)
    ]
    result = classify(slides, PAPER_BOOK_DECK)
    assert result.category == "presentation"
    assert "short pages" in result.reasoning


def _prose(lines: int, start: int = 0) -> list[str]:
    return [RESEARCH[(start + n) % 3] for n in range(lines)]


TEXTBOOK = (
    "The proof of the next theorem goes by induction on the number of steps.",
    "Each lemma of this section follows from the definition given before it.",
    "Try the exercises at the end of the section before reading on to the next.",
)


def test_a_chapter_with_a_running_head_and_no_abstract_or_references_is_a_book() -> None:
    prose = [TEXTBOOK[n % 3] for n in range(30)]
    pages = [Sheet(lines=["Chapter 3", "Proofs by induction", *prose])]
    pages += [Sheet(lines=[f"{100 + n}    CHAPTER 3. PROOFS BY INDUCTION", *prose]) for n in range(1, 5)]
    result = classify(parsed(Packet(pages)), PAPER_BOOK_DECK)
    assert result.category == "book"
    assert "chapters" in result.reasoning


def test_a_paper_with_an_abstract_affiliations_and_references_stays_a_paper() -> None:
    pages = [
        Sheet(
            lines=[
                "Learning to read forms",
                "A. Author, Department of Computer Science, University of Ghent",
                "Abstract",
                *_prose(20),
            ]
        ),
        *[Sheet(lines=[f"Journal of Reading {n}", *_prose(30, n)]) for n in range(2, 5)],
        Sheet(lines=["References", "[1] B. Author. Chapter 2 of a book on forms. doi: 10.1000/182"]),
    ]
    assert classify(parsed(Packet(pages)), PAPER_BOOK_DECK).category == "scientific_paper"


def test_a_form_titled_as_a_contract_is_a_form_by_its_blanks_to_fill_in() -> None:
    labels = ["Nom", "Prénom", "Adresse", "Employeur", "Date de début", "Salaire", "Lieu", "Diplôme"]
    page = Sheet(
        title="CONTRAT D'APPRENTISSAGE",
        lines=[
            *[f"{label} ____________________" for label in labels],
            "☐ Oui    ☐ Non",
            "Signature de l'employeur ____________",
        ],
    )
    result = classify(parsed(Packet([page])), PAPER_BOOK_DECK)
    assert result.category == "form"
    assert "boxes and blanks" in result.reasoning


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("In brief, these steps matter.\nThese are the chapters of the novel.", "scientific_paper"),
        ("A brief history of the town.\nChapter 1\nThe novel begins.", "letter"),
    ],
)
def test_english_words_spelt_like_a_kind_in_another_language_are_not_evidence(text: str, wrong: str) -> None:
    categories = [
        Category("scientific_paper", "A scientific paper or thesis."),
        Category("letter", "A personal or business letter."),
        Category("book", "A book, such as a textbook or a novel."),
    ]
    assert classify([text], categories).category != wrong


# ------------------------------------------------------------------- the parts of a letter and a form
LETTER_OR_FORM = [
    Category("letter", "A personal or business letter."),
    Category(
        "form",
        "A form to fill in, such as a tax return, an application or a declaration to a government office: "
        "boxes, checkboxes and field labels.",
    ),
    Category(
        "scientific_paper",
        "A scientific or academic paper or thesis: title, authors and affiliations, abstract, equations, "
        "figures, references.",
    ),
    Category("report", "A report of an organisation on a topic: findings, sections, tables and figures."),
]
BODY = "Lorem ipsum dolor sit amet, consectetuer adipiscing elit, sed diam nonummy nibh euismod tincidunt."


@pytest.mark.parametrize(
    ("address", "date", "salutation", "closing"),
    [
        (
            ["Vorname Nachname", "Musterstraße 1", "12345 Musterstadt", "Telefon 0111 1111"],
            "18. August 2022",
            "Sehr geehrte Damen und Herren,",
            "Mit freundlichen Grüßen",
        ),
        (
            ["Nom Prénom", "1 rue de l'Église", "31000 Toulouse", "Téléphone 01 02 03 04 05"],
            "Toulouse, 28 octobre 2018",
            "Madame, Monsieur,",
            "Cordialement,",
        ),
        (
            ["Nombre Apellidos", "Calle Mayor 1", "28001 Madrid", "Teléfono 600 000 000"],
            "Madrid, 3 de mayo de 2021",
            "Estimada señora:",
            "Atentamente,",
        ),
        (
            ["Nome Cognome", "Via Roma 1", "33100 Udine", "Telefono 0432 000000"],
            "Udine, 12 maggio 2017",
            "Gentile dottoressa,",
            "Cordiali saluti",
        ),
        (
            ["Voornaam Achternaam", "Dorpsstraat 1", "1018 TV Amsterdam", "Telefoon 020 000 0000"],
            "Amsterdam, 1 juni 2020",
            "Geachte heer Jansen,",
            "Met vriendelijke groet,",
        ),
        (
            ["Imię Nazwisko", "ul. Długa 1", "00-001 Warszawa", "Telefon 600 000 000"],
            "Warszawa, 5 marca 2019",
            "Szanowni Państwo,",
            "Z poważaniem",
        ),
        (
            ["Nome Apelido", "Rua Direita 1", "1000-001 Lisboa", "Telefone 210 000 000"],
            "Lisboa, 2 de abril de 2020",
            "Prezados senhores,",
            "Atenciosamente,",
        ),
    ],
)
def test_a_letter_is_a_letter_by_its_parts_though_its_address_block_reads_like_form_fields(
    address: list[str], date: str, salutation: str, closing: str
) -> None:
    page = "\n".join([*address, "", date, "", salutation, "", BODY, BODY, BODY, "", closing, "", "Name"])
    result = classify([page], LETTER_OR_FORM)
    assert result.category == "letter"
    assert "a salutation" in result.reasoning


def test_a_cerfa_citing_articles_of_law_and_the_official_journal_is_a_form_not_a_paper() -> None:
    page = "\n".join(
        [
            "Reçu des dons et versements effectués par les entreprises",
            "au titre de l'article 238 bis du code général des impôts",
            "N° Cerfa : 16216*02",
            "Dénomination de l'organisme :",
            "Adresse :",
            "Code postal :",
            "Association reconnue d'utilité publique par décret publié au Journal officiel du ../../....",
            "Fondation mentionnée aux articles L.719-12 et L.719-13 du code de l'éducation",
            "Date et signature",
        ]
    )
    assert classify([page], LETTER_OR_FORM).category == "form"


@pytest.mark.parametrize(
    ("title", "labels"),
    [
        (
            "Demande de carte nationale d'identité",
            [
                "Écrire en lettres majuscules",
                "Nom de famille",
                "Lieu de naissance",
                "Nationalité",
                "Code postal    Commune",
                "Cochez la case correspondante",
                "Je certifie sur l'honneur",
                "Cadre réservé à l'administration",
            ],
        ),
        (
            "Antrag auf Ausstellung eines Personalausweises",
            [
                "Bitte in Druckbuchstaben ausfüllen",
                "Familienname",
                "Geburtsort",
                "Staatsangehörigkeit",
                "Postleitzahl    Wohnort",
                "Zutreffendes bitte ankreuzen",
                "Ich versichere die Richtigkeit",
                "Nur für Vermerke der Behörde",
            ],
        ),
        (
            "Solicitud de documento nacional de identidad",
            [
                "Escriba en letras mayúsculas",
                "Primer apellido",
                "Lugar de nacimiento",
                "Nacionalidad",
                "Código postal    Municipio",
                "Marque con una X",
                "Declaro bajo mi responsabilidad",
                "A cumplimentar por la administración",
            ],
        ),
        (
            "Richiesta della carta d'identità",
            [
                "Scrivere in stampatello",
                "Cognome",
                "Luogo di nascita",
                "Cittadinanza",
                "Codice postale    Comune",
                "Barrare la casella",
                "Dichiaro sotto la mia responsabilità",
                "Spazio riservato all'ufficio",
            ],
        ),
        (
            "Aanvraag van een identiteitskaart",
            [
                "Invullen in blokletters",
                "Achternaam",
                "Geboorteplaats",
                "Nationaliteit",
                "Postcode    Woonplaats",
                "Aankruisen wat van toepassing is",
                "Ik verklaar naar waarheid",
                "In te vullen door de gemeente",
            ],
        ),
        (
            "Pedido de cartão de cidadão",
            [
                "Preencher em letras maiúsculas",
                "Nome completo",
                "Local de nascimento",
                "Nacionalidade",
                "Código postal    Localidade",
                "Assinale com um X",
                "Declaro por minha honra",
                "A preencher pelos serviços",
            ],
        ),
        (
            "Wniosek o wydanie dowodu osobistego",
            [
                "Wypełnić drukowanymi literami",
                "Nazwisko rodowe",
                "Miejsce urodzenia",
                "Obywatelstwo",
                "Kod pocztowy    Miejscowość",
                "Zaznaczyć znakiem X",
                "Oświadczam, że dane są prawdziwe",
                "Wypełnia urząd",
            ],
        ),
    ],
)
def test_a_form_is_a_form_by_its_labels_and_instructions_in_every_language(
    title: str, labels: list[str]
) -> None:
    page = "\n".join([title.upper(), *labels])
    assert classify([page], LETTER_OR_FORM).category == "form"


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("Bachelorarbeit", ["im Studiengang Informatik", "Betreuer: Prof. Dr. Weber", "Universität Kassel"]),
        ("Masterproef", ["Academiejaar 2022-2023", "Promotor: dr. De Smet", "Hogeschool Gent"]),
        (
            "Trabajo Fin de Grado",
            ["Grado en Ingeniería Informática", "Tutor: Dr. Ruiz", "Universidad de Alcalá"],
        ),
        (
            "Tesina di laurea",
            ["Corso di laurea in Informatica", "Relatore: prof. Rossi", "Università di Padova"],
        ),
        (
            "Trabalho de Conclusão de Curso",
            ["Curso de Engenharia", "Orientador: Prof. Silva", "Universidade do Estado"],
        ),
        (
            "Praca dyplomowa inżynierska",
            ["Kierunek: Informatyka", "Promotor: dr Nowak", "Politechnika Wrocławska"],
        ),
        ("Projet de fin d'études", ["Master informatique", "Encadrant : M. Martin", "Université de Lille"]),
    ],
)
def test_a_student_thesis_is_named_in_every_language(name: str, lines: list[str]) -> None:
    page = "\n".join([name.upper(), "Analyse eines verteilten Systems", *lines, "2023"])
    assert classify([page], LETTER_OR_FORM).category == "scientific_paper"


@pytest.mark.parametrize("title", ["Relazione tecnica sul progetto", "Sprawozdanie z badań terenowych"])
def test_a_report_is_named_in_italian_and_polish(title: str) -> None:
    page = "\n".join([title.upper(), "Anno 2023 / Rok 2023", BODY, BODY])
    assert classify([page], LETTER_OR_FORM).category == "report"


def test_labels_left_without_a_value_and_bracket_boxes_are_fields_to_fill_in() -> None:
    labels = ["Name:", "Institut:", "Kostenstelle:", "Beginn der Tätigkeit:", "Ende der Tätigkeit:"]
    page = "\n".join(
        [
            "Beschäftigung einer wissenschaftlichen Hilfskraft",
            *labels,
            "Begründung:",
            "[ ] Betreuung eines Praktikums",
            "[ ] kürzere Laufzeit des Drittmittelprojekts",
            "Die Angaben im Bericht der Abteilung sind vollständig und richtig.",
        ]
    )
    result = classify([page], LETTER_OR_FORM)
    assert result.category == "form"
    assert "boxes and blanks" in result.reasoning


def test_a_deck_whose_slides_build_up_over_several_pages_is_a_presentation() -> None:
    points = [
        "Chaque fichier du cours se compile avec la commande make depuis son dossier.",
        "Les images se rangent dans un dossier à part et se citent par leur nom.",
        "Un thème change les couleurs, les polices et le pied de chaque page du cours.",
    ]
    frames = []
    for number, title in enumerate(["Introduction", "Présentation", "Conseils", "Références"], 1):
        slide = [title, *points, *points, *points, f"Université de Lille — {number} / 4"]
        frames += [slide, slide, [*slide, "Une dernière ligne révélée."]]  # the slide building up
    pages = ["\n".join(lines) for lines in frames]
    result = classify(pages, PAPER_BOOK_DECK)
    assert result.category == "presentation"
    assert "short pages" in result.reasoning


def test_a_bill_written_as_a_letter_stays_a_bill() -> None:
    page = "\n".join(
        [
            "Versicherungsverein Musterstadt",
            "Herrn Max Mustermann",
            "Musterstr. 11",
            "12346 Bad Musterhausen",
            "Beitragsrechnung, Rechnung Nr. 2014-0042",
            "24. Januar 2014",
            "Sehr geehrter Herr Mustermann,",
            "zu Ihrer Versicherung wird der Beitrag für den folgenden Zeitraum fällig.",
            "| Beitrag | 120,00 EUR |",
            "| MwSt | 22,80 EUR |",
            "| Rechnungsbetrag, zahlbar bis 6. Februar 2014 | 142,80 EUR |",
            "Mit freundlichen Grüßen",
        ]
    )
    categories = [Category("invoice", "An invoice or bill: amounts due, VAT."), *LETTER_OR_FORM]
    assert classify([page], categories).category == "invoice"


def test_an_initial_glued_to_a_name_by_an_apostrophe_is_no_abbreviation() -> None:
    categories = [Category("purchase_order"), Category("report")]
    page = (
        "Police Department\nJames P. O\u2019Neill\nCommissioner\nCrime complaints of the week, compared with "
        "the year before, by precinct, as this report counts them."
    )
    assert classify([page], categories).category == "report"
    assert (
        classify(["P. O. 4471\nShip to: depot\nPolice Department"], categories).category == "purchase_order"
    )


def test_a_letter_with_a_resume_of_short_pages_after_it_is_a_letter_not_a_deck() -> None:
    letter = "\n".join(
        [
            "Anna Beispiel",
            "Musterweg 3, 10115 Berlin",
            "Berlin, 3. März 2024",
            "Bewerbung als Entwicklerin",
            "Sehr geehrte Damen und Herren,",
            "mit großem Interesse habe ich Ihre Anzeige gelesen und bewerbe mich hiermit bei Ihnen.",
            "Mit freundlichen Grüßen",
            "Anna Beispiel",
        ]
    )
    resume = [
        "\n".join([title, *lines])
        for title, lines in [
            ("Lebenslauf", ["Anna Beispiel", "geboren 1990 in Köln", "ledig"]),
            ("Ausbildung", ["2010 Abitur", "2015 Studium der Informatik"]),
            ("Berufserfahrung", ["2015 Entwicklerin", "2020 Teamleiterin"]),
            ("Kenntnisse", ["Python", "Englisch fließend"]),
        ]
    ]
    categories = [*PAPER_BOOK_DECK, *LETTER_OR_FORM]
    result = classify([letter, *resume], categories)
    assert result.category == "letter"


def test_a_deck_of_bullet_points_too_wordy_for_short_slides_is_a_presentation() -> None:
    point = "The volunteers will meet at the school on Tuesday to plan the spring fair together"
    slides = [
        "\n".join([title, *[f"\u25cf {point}, item {n}." for n in range(7)], str(number)])
        for number, title in enumerate(["Welcome", "Budget", "Events", "Volunteers", "Next meeting"], 1)
    ]
    result = classify(slides, PAPER_BOOK_DECK)
    assert result.category == "presentation"
    assert "short pages" in result.reasoning


def test_a_dutch_guide_to_the_fields_of_an_invoice_is_technical_documentation() -> None:
    page = "\n".join(
        [
            "Handreiking basisfactuur",
            "Deze handreiking beschrijft welke gegevens een elektronische factuur aan de overheid bevat.",
            "| Veld | Omschrijving |",
            "| Factuurnummer | Het unieke nummer van de factuur |",
            "| Factuurdatum | De datum waarop de factuur is uitgereikt |",
            "| BTW | Het btw-bedrag per tarief |",
        ]
    )
    categories = [
        Category("invoice", "An invoice, bill or credit note from a seller to a buyer: invoice number, VAT."),
        Category(
            "technical_documentation", "A technical manual, handbook, specification or developer guide."
        ),
    ]
    assert classify([page], categories).category == "technical_documentation"


@pytest.mark.parametrize("title", ["Versuchsprotokoll Torsionsmodul", "Laborprotokoll Werkstoffprüfung"])
def test_a_lab_or_internship_report_named_so_is_a_report_not_a_paper(title: str) -> None:
    steps = [
        "Die Probe wurde eingespannt und langsam verdreht.",
        "Der Winkel wurde abgelesen.",
        *RESEARCH[:1],
    ]
    page = "\n".join([title, "Durchführung", "Messwerte", *steps])
    categories = [
        Category("scientific_paper", "A scientific or academic paper or thesis: abstract, references."),
        Category("report", "A report of an organisation on a topic: findings, sections, tables and figures."),
    ]
    assert classify([page], categories).category == "report"


@pytest.mark.parametrize(
    "lines",
    [
        ["Jahr:_____ FUNKBETRIEB", "Station DK0XX Seite:__", "| DATUM | ZEIT | RUFZEICHEN | BAND | MODE |"],
        [
            "Additional Information",
            "Direct Deposit Information",
            "Type of account:   ☐ Checking      ☐ Savings",
            "Bank name: ______________________",
            "Routing number: _________________",
            "Account number: _________________",
        ],
    ],
)
def test_a_short_sheet_with_a_few_blanks_to_fill_in_is_a_form(lines: list[str]) -> None:
    result = classify(["\n".join(lines)], [*PAPER_BOOK_DECK, *LETTER_OR_FORM])
    assert result.category == "form"
    assert "boxes and blanks" in result.reasoning


def test_an_invitation_greeting_its_readers_as_verehrte_and_signing_off_warmly_is_a_letter() -> None:
    page = "\n".join(
        [
            "Einladung zum Gesprächsabend",
            "Verehrte Mitglieder und Freunde des Vereins,",
            "wir laden Sie herzlich zu unserem nächsten Abend über die Geschichte der Stadt ein.",
            "Wir bitten um Anmeldung bis zum 13. März.",
            "Mit herzlichen Grüßen",
            "Anna Schmidt",
        ]
    )
    result = classify([page], LETTER_OR_FORM)
    assert result.category == "letter"
    assert "a salutation" in result.reasoning


def test_a_power_of_attorney_named_in_german_is_a_contract() -> None:
    contract = Category(
        "contract", "A contract or agreement between parties (a sale, a lease, a power of attorney)."
    )
    page = "VOLLMACHT\nRechtsanwältin Eva Berg\nwird hiermit in Sachen\nVollmacht erteilt\n1. Prozessführung"
    assert classify([page], [*KINDS_OF_DOCUMENTS, contract]).category == "contract"


def test_a_guide_showing_its_code_is_technical_documentation_though_it_speaks_of_forms() -> None:
    prose = "Filling a PDF form with data from a CSV file: each row of the file writes its text at x, y."
    code = [
        "WIDTH=8.3; HEIGHT=11.7",
        "# paper size A4, in inches",
        "pdf('filled.pdf', WIDTH, HEIGHT)",
        "par(mar=c(0, 0, 0, 0))",
        "plot.new()",
        "d=read.csv(DATA, as.is=TRUE)",
        "ltext(d$x, d$y, d$text)",
        "dev.off()",
        "# save the overlay",
        "makePdf('form.pdf', 'form.csv', 'filled.pdf')",
        "}",
    ]
    pages = [f"Usage\n{prose}\n" + "\n".join(code), f"Generating many forms\n{prose}\n" + "\n".join(code)]
    assert classify(pages, [*KINDS_OF_DOCUMENTS, *LETTER_OR_FORM]).category == "technical_documentation"


def test_a_kind_named_only_inside_running_text_is_spoken_of_not_shown() -> None:
    # the narrow columns of a paper: lines too short to read as sentences, their words running on
    page = "\n".join(
        [
            "We show how the definition of new",
            "functional forms follows from the rules of",
            "the algebra, and how the application of",
            "one function to another is then written;",
            "the results of our method are given",
            "in the next section, with a proof.",
            "Theorem 1 extends the algebra of Backus",
            "et al. to recursive definitions (Lemma 2).",
        ]
    )
    form = next(category for category in LETTER_OR_FORM if category.name == "form")
    assert classify([page], [PAPER_BOOK_DECK[0], form]).category == "scientific_paper"


def test_a_kind_named_at_the_head_of_its_line_is_shown_though_sentences_follow() -> None:
    page = "\n".join(
        [
            "Application for a parking permit",
            "Please tell us about the vehicle you want to park in the zone and where you live.",
            "Vehicle registration number",
            "Signature",
        ]
    )
    assert classify([page], [*PAPER_BOOK_DECK, *LETTER_OR_FORM]).category == "form"


def test_short_pages_after_a_table_of_contents_with_page_numbers_are_a_manual_not_a_deck() -> None:
    steps = ["Datensicherung", "Bestandsliste drucken", "Zinsen buchen", "Listen erstellen", "Abschluss"]
    contents = "\n".join(
        ["Dokumentation", *[f"1.{n}. {step} {'.' * 40} {n + 1}" for n, step in enumerate(steps, 1)]]
    )
    pages = [
        "\n".join([f"1.{n}.", step, f"• {step} ist anzuklicken", f"Seite {n + 1}"])
        for n, step in enumerate(steps, 1)
    ]
    result = classify([contents, *pages], [*PAPER_BOOK_DECK, *KINDS_OF_DOCUMENTS[1:2]])
    assert result.category == "technical_documentation"
    assert "short pages" not in result.reasoning


def test_a_table_of_contents_whose_page_numbers_stand_on_the_line_after_their_dots_is_one() -> None:
    from docsvc.intelligence.classification import leads_to_pages

    steps = ["Les types de données", "Les nombres entiers", "Les expressions booléennes", "Les listes"]
    apart = [line for n, step in enumerate(steps, 1) for line in (f"{step} {'. ' * 20}", str(n + 12))]
    assert leads_to_pages(["TABLE DES MATIÈRES", *apart])
    # dots ending a line before a count of anything but pages: a blank to fill in, then a quantity
    assert not leads_to_pages(["Nom ..........", "Quantité", "Prénom ..........", "Adresse .........."])


def test_a_letter_typeset_with_spacing_accents_reads_as_the_letter_its_accents_joined_make() -> None:
    letter = "\n".join(
        [
            "Montr\u00b4eal, Canada",
            "12 f\u00b4evrier 2022",
            "Chers recruteurs,",
            "J\u2019ai accord\u00b4e la majorit\u00b4e de mon temps `a ce projet",
            "avec les autres parties de l\u2019\u00b4equipe.",
            "Votre entreprise m\u2019int\u00b4eresse fortement et j\u2019aimerais y faire un stage.",
            "Au plaisir,",
            "Maxime",
        ]
    )
    categories = [
        Category("letter", "A personal or business letter."),
        Category("contract", "A contract or agreement between parties: the parties, terms and clauses."),
    ]
    result = classify([letter], categories)
    assert result.category == "letter"
    assert "a date line" in result.reasoning and "a closing formula" in result.reasoning


def test_a_balance_sheet_in_italian_or_french_is_a_financial_report_though_it_never_says_so_in_english() -> (
    None
):
    categories = [
        Category("report", "A report of an organisation on a topic (a study, a survey, a policy report)."),
        Category("financial_report", "A financial report: annual results, balance sheet, income statement."),
    ]
    italian = "\n".join(
        [
            "| ATTIVO | PASSIVO |",
            "|---|---|",
            "| Immobilizzazioni | Patrimonio netto |",
            "| Totale | Totale |",
        ]
    )
    french = "\n".join(["| ACTIF | PASSIF |", "|---|---|", "| Immobilisations | Capitaux propres |"])
    assert classify([italian], categories).category == "financial_report"
    assert classify([french], categories).category == "financial_report"


def test_a_games_rules_for_its_players_are_a_rule_book_not_a_manual() -> None:
    rules = "\n".join(
        [
            "Rules",
            "Each player rolls three dice and keeps the best set; the opponent should be ready to answer.",
            "During character creation players share ten points among their stats, as the example shows.",
            "A turn ends when both players have rolled; the game master may add a step between turns.",
        ]
    )
    result = classify([rules], KINDS_OF_DOCUMENTS)
    assert result.category == "book"


def test_a_manual_whose_title_page_names_it_is_one_though_its_pages_read_as_slides() -> None:
    steps = ["Webseite aufrufen", "Registrieren", "Einloggen", "Passwort ändern", "Abmelden"]
    pages = [
        f"● {step}\n● im Menü „Intern“ auswählen\n● den Punkt auswählen\n{n}.1 {step}:"
        for n, step in enumerate(steps, 1)
    ]
    named = classify(
        ["Sportverein Musterstadt e.V.\nAnleitung\nMitgliederbereich nutzen", *pages], KINDS_OF_DOCUMENTS
    )
    assert named.category == "technical_documentation"
    assert "a title page naming it" in named.reasoning
    # a kind inside a longer title is the topic of a talk, not what the document calls itself
    topic = classify(
        ["Sportverein Musterstadt e.V.\nDie neue Anleitung des Vereins", *pages], KINDS_OF_DOCUMENTS
    )
    assert topic.category == "presentation"


def test_a_letter_dated_in_figures_after_its_place_is_a_letter_though_it_speaks_of_a_budget() -> None:
    letter = "\n".join(
        [
            "Spett.le",
            "Rossi Mario",
            "Via Garibaldi 45, 20100 Milano",
            "Gentile Proprietario,",
            "è convocata l'assemblea condominiale per il giorno 15/11/2024 alle ore 18:00",
            "per discutere e deliberare sul seguente ordine del giorno:",
            "1. Approvazione bilancio consuntivo 2024",
            "2. Preventivo spese 2025",
            "Milano, 29/10/2024",
            "L'amministratore",
        ]
    )
    categories = [
        Category("financial_report", "A financial report or disclosure: annual results, balance sheet."),
        Category("purchase_order", "A purchase order from a buyer to a seller."),
        Category("letter", "A personal or business letter."),
    ]
    result = classify([letter], categories)
    assert result.category == "letter"
    assert "a date line" in result.reasoning


def test_a_letter_greeting_its_reader_and_signing_off_is_a_letter_though_its_heading_names_a_form() -> None:
    first = "\n".join(
        [
            "FORMAL APPLICATION TO THE",
            "DISTRICT HOUSING PANEL",
            "1 High Street",
            "Springfield",
            "Email: tenant@example.org",
            "Phone: 0123 456 789",
            "June 10, 2025",
            "Re: Formal application about my deposit",
            "Dear Sir or Madam,",
            "My tenancy ended in March, and the letting agent has kept my deposit since.",
            BODY,
            BODY,
        ]
    )
    middle = "\n".join([BODY, BODY, BODY])
    last = "\n".join(
        [
            BODY,
            "I enclose my tenancy agreement and a declaration of the sums paid.",
            "Yours faithfully,",
            "A. Tenant",
        ]
    )
    result = classify([first, middle, middle, last], LETTER_OR_FORM)
    assert result.category == "letter"
    assert "a salutation and a closing formula" in result.reasoning


def test_a_form_greeting_its_reader_and_signing_off_is_still_a_form_by_its_blanks() -> None:
    form = "\n".join(
        [
            "APPLICATION FORM",
            "Dear applicant,",
            "please fill in every field in block letters.",
            "Full name: ____________________",
            "Date of birth: ____________________",
            "Address: ____________________",
            "Phone: ____________________",
            "Email: ____________________",
            "Signature: ____________________",
            "Yours sincerely,",
            "The Admissions Office",
        ]
    )
    result = classify([form], LETTER_OR_FORM)
    assert result.category == "form"


def test_a_utility_bill_read_from_a_scan_is_an_invoice_by_its_consumption_period_and_grand_total() -> None:
    bill = "\n".join(
        [
            "Nome: Joao da Silva",
            "Data: 01/07/2024",
            "Periodo de Consumo: 01/06/2024 - 30/06/2024",
            "Descrigao    Quantidade    Prego Unitario    Total",
            "Tarifa Basica    1    R$ 30.00    R$ 30.00",
            "Total Geral:    R$ 222.50",
        ]
    )
    result = classify([bill], [Category("purchase_order", "A purchase order."), *KINDS_OF_DOCUMENTS])
    assert result.category == "invoice"


GO_TALK = (
    "The compiler checks the types of every call before the program runs, so that a function given a "
    "string where it expects a number is refused at once; the speaker shows how the standard library "
    "prints values of any type, how the package is imported and how the main function is found, and "
    "asks the audience which of the three calls on the slide would be refused and why."
)


def test_slides_of_code_counted_n_of_n_in_a_corner_are_a_deck_but_a_form_counted_so_stays_a_form() -> None:
    lines = [
        "package main",
        'import "fmt"',
        "func main() {",
        '    fmt.Println("hello", "world", 1, 2, 3)',
        "}",
    ]
    code = "\n".join(lines * 6)
    slides = [f"Echo in Go, part {n}\n{code}\n{GO_TALK}\n{n} / 5" for n in range(1, 6)]
    assert classify(slides, KINDS_OF_DOCUMENTS).category == "presentation"
    form = [
        f"{n}/3\nAttestation de travaux\nNom du demandeur :\nCode postal :\nVille :\nDate :\nSignature :"
        for n in range(1, 4)
    ]
    categories = [
        *KINDS_OF_DOCUMENTS,
        Category("form", "A form to fill in: boxes, checkboxes and field labels."),
    ]
    assert classify(form, categories).category == "form"


def test_a_brazilian_electronic_invoice_is_an_invoice_by_its_issuer_recipient_and_access_key() -> None:
    danfe = "\n".join(
        [
            "| DANFE SIMPLIFICADO | |",
            "| DATA EMISSAO | 27/03/2015 |",
            "| CHAVE DE ACESSO | 35150300822602000124550010009923461099234656 |",
            "| EMITENTE | Plotag Sistemas Ltda |",
            "| DESTINATARIO | Rua Jaragua, 774, Sao Paulo |",
            "| TOTAL DA NF-e | R$ 689,91 |",
        ]
    )
    categories = [
        Category("financial_report", "A financial report: results, fiscal year."),
        *KINDS_OF_DOCUMENTS,
    ]
    assert classify([danfe], categories).category == "invoice"


def test_a_students_work_whose_title_page_names_its_course_is_a_report_though_it_has_chapters() -> None:
    chapters = [f"Chapter {n}\nMethod {n}\n" + "\n".join(_prose(12, 3 * n)) for n in range(1, 4)]
    student = classify(
        [
            "A small study\nJane Doe\nCourse: Computer Graphics\nProfessor: Dr. Ann Lee\nSpring 2021",
            *chapters,
        ],
        KINDS_OF_DOCUMENTS,
    )
    assert student.category == "report"
    assert "a student's title page" in student.reasoning
    # a professor alone is an author's title: no course, no term, no student's work
    authored = classify(["A small study\nJane Doe\nProfessor Dr. Ann Lee", *chapters], KINDS_OF_DOCUMENTS)
    assert authored.category == "book"


def test_a_students_title_page_halves_a_papers_shape_of_abstract_and_references() -> None:
    body = "\n".join(["The wire was twisted by ten degrees and the angle was read on the scale."] * 14)
    parts = [
        f"Abstract\n{body}",
        f"{body}\nReferences\n[1] A. Author. Journal of Tests, 2019. doi:10.1000/xyz123\n"
        "[2] B. Author. Methods, 2020. doi:10.1000/abc456",
    ]
    head = "Torsion of a wire\nJane Doe\njane@uni.example"
    authored = document_shapes([head, *parts])
    student = document_shapes([f"{head}\nStudent ID: 123456\nInstructor: Dr. Ann Lee", *parts])
    assert "report" not in authored
    assert student["report"].surface == "a student's title page"
    assert student["scientific paper"].points == authored["scientific paper"].points / 2


def test_a_students_title_page_names_the_student_and_the_students_number_as_course_details() -> None:
    from docsvc.intelligence.classification import is_coursework

    assert is_coursework([["Relazione progetto Reti 2021-22", "Studente: Anna Rossi", "Matricola: 0000988"]])
    # a thesis names its degree programme and its supervisor: no course's work
    thesis = ["Corso di Laurea in Informatica", "Tesi di laurea triennale", "Relatore", "Prof. Paolo Baldan"]
    assert not is_coursework([thesis])


def test_a_numbered_assignment_heading_a_title_page_is_a_course_detail_beside_its_teacher() -> None:
    from docsvc.intelligence.classification import is_coursework

    lab = ["Facultad de Ingeniería", "LABORATORIO 2: FILTROS FIR EN SEÑALES ANALÓGICAS Y SUS RESULTADOS"]
    assert is_coursework([[*lab, "Profesor:", "Carlos Pérez", "Ayudantes:", "Ana Ruiz"]])
    assert is_coursework([["Trabajo Práctico N°1:", "File Transfer", "Student ID: 107585"]])
    # the assignment alone, or a laboratory named without a number, is no course's work
    assert not is_coursework([lab])
    assert not is_coursework([["Laboratorio de Señales", "Profesor:", "Carlos Pérez"]])


def test_a_title_page_calling_itself_a_practical_placement_report_is_a_report() -> None:
    chapters = [f"Kapitel {n}\nProjekt {n}\n" + "\n".join(_prose(12, 3 * n)) for n in range(1, 4)]
    title = "Praxisbericht\nZur betreuten Praxisphase\nbei Beispiel GmbH\nMax Muster\n15. August 2018"
    assert classify([title, *chapters], KINDS_OF_DOCUMENTS).category == "report"


def test_slides_counted_at_the_end_of_a_footline_in_cells_are_a_deck() -> None:
    from docsvc.intelligence.classification import counted_slides

    footline = "| Sergio Salinas | Modelling a database | October 25, 2016 {n} / 5 |"
    slides = [[f"Slide {n}", "Some words on the slide", footline.format(n=n)] for n in range(1, 6)]
    assert counted_slides(slides) == 1.0
    # a date closing a row is no count: its numbers do not rise under one total
    rows = [[f"Title {n}", "| Issued | 12/05/2024 |"] for n in range(1, 6)]
    assert counted_slides(rows) == 0.0


def test_a_sales_slip_thanking_for_the_purchase_is_an_invoice_rather_than_a_form() -> None:
    slip = (
        "Charo Comunicaciones\nTel: 849-403-8743\nFecha: 15-01-25 10:09\nCliente: Jeremy\nProducto:\n"
        "Samsung A14\nPrecio:\n$12000.00\nTotal: $12000.00\n¡Gracias por su compra!\nFirma"
    )
    categories = [*KINDS_OF_DOCUMENTS, Category("form", "A form to fill in: boxes and field labels.")]
    assert classify([slip], categories).category == "invoice"


def test_a_single_slide_of_bullet_points_sent_alone_is_a_presentation() -> None:
    slide = (
        "Debugging with the Arduino\n• Print values over the serial port\n• No breakpoints\n"
        "• Delays may be needed\n• Takes memory\n• Comment out in the release version"
    )
    assert classify([slide], KINDS_OF_DOCUMENTS).category == "presentation"
    notice = "Opening hours\nThe office opens at nine and closes at five, version two of the notice."
    assert "presentation" not in document_shapes([notice])


ORDER_OR_REPORT = [
    Category("purchase_order", "A purchase order from a buyer to a seller."),
    Category("invoice", "An invoice, bill or credit note from a seller to a buyer: invoice number, VAT."),
    Category("report", "A report of an organisation on a topic: findings, sections, tables and figures."),
]


def test_a_two_letter_abbreviation_counts_only_in_capitals() -> None:
    lab = (
        "Wykonanie ćwiczenia\n"
        "Po dokładnym osuszeniu każda z elektrod została zważona osobno na wadze elektronicznej.\n"
        "Wnioski\n"
        "Wyznaczona wartość stałej jest bliska wartości tablicowej."
    )
    assert classify([lab], ORDER_OR_REPORT).category == "report"
    order = "PO 4711\nShip to: Main Street 5\nQty 10 Cables"
    assert classify([order], ORDER_OR_REPORT).category == "purchase_order"


def test_a_two_letter_cue_counts_in_lower_case_while_a_two_letter_name_needs_capitals() -> None:
    text = IndexedText.of("as shown in eq. 3, po czym")
    assert whole_occurrences(text, ("eq",), frozenset({("po",)})) == [3]
    assert whole_occurrences(text, ("po",), frozenset({("po",)})) == []


def test_an_order_and_an_invoice_are_named_in_ukrainian_and_russian() -> None:
    order = "Замовлення №1\nПостачальник: ТОВ Альянс\nСтакан одноразовий 180мл | 11 | 98.89"  # noqa: RUF001
    bill = "Счет на оплату № 12 от 3 мая 2024 г.\nПоставщик: ООО Ромашка\nИтого к оплате: 1 200,00"  # noqa: RUF001
    assert classify([order], ORDER_OR_REPORT).category == "purchase_order"
    assert classify([bill], ORDER_OR_REPORT).category == "invoice"


def test_an_advance_invoice_is_named_in_latvian() -> None:
    bill = "Avansa rēķins Nr. 15\nPakalpojuma sniedzējs: SIA Birojs\nSumma: 120,00 EUR"
    assert classify([bill], ORDER_OR_REPORT).category == "invoice"


def test_a_spanish_letter_template_with_blanks_greeting_and_signing_off_is_a_letter() -> None:
    page = "\n".join(
        [
            "En ……………, a … de ………… de …",
            "De ……………………………(Nombre trabajador)",
            "A/A …………………………(RRHH; Gerente, Director)",
            "Muy Sr/a mio/a:",
            "Por la presente, y para que quede constancia por escrito, desearía solicitar los días de",
            "vacaciones correspondientes a este año, del … de ………… al … de ………, ambos inclusive.",
            "Sin otro particular, reciba un cordial saludo.",
            "Fdo.: ………………………………(nombre trabajador)",
        ]
    )
    result = classify([page], LETTER_OR_FORM)
    assert result.category == "letter"
    assert "a salutation and a closing formula" in result.reasoning


def test_a_title_page_naming_a_kind_before_a_noun_names_a_topic_not_the_documents_kind() -> None:
    from docsvc.intelligence.classification import build_profiles, document_scores

    form = build_profiles([("form", "A form to fill in: boxes, checkboxes and field labels.")])

    body = "The findings of our tests are given in the sections below with tables and figures."

    def evidence(title: str) -> float:
        return document_scores(form, [f"{title}\nFinal project 2018", body])[0].total

    assert evidence("APPLICATION FORM READER") < 0.6 * evidence("APPLICATION FORM")
    assert evidence("Application form for members") > 1.6 * evidence("APPLICATION FORM READER")
    alone = document_scores(form, ["APPLICATION FORM READER\nFinal project 2018"])[0].total
    assert alone > 1.6 * evidence("APPLICATION FORM READER")  # one page is no title page


def test_a_kind_whose_words_a_short_word_joins_is_followed_by_its_name_not_its_topic() -> None:
    from docsvc.intelligence.classification import names_topic
    from docsvc.intelligence.vocabulary import IndexedText

    assert names_topic(IndexedText.of("Application Form Reader"), 0, 2)
    assert not names_topic(IndexedText.of("Rapport de projet Alpha"), 0, 3)
    assert not names_topic(IndexedText.of("Versuchsprotokoll Torsionsmodul"), 0, 1)


@pytest.mark.parametrize(
    "title_page",
    [
        ["3. Elektroliza", "Zespół 3: Górski Paweł, Sozańska Ada", "prof. Jan Nowak"],
        ["Tracking Robot", "Course: ITSP 2018", "Members-", "1. Ann Lee", "2. Raj Patel"],
    ],
)
def test_a_title_page_naming_the_team_that_wrote_it_and_a_course_detail_opens_a_report(
    title_page: list[str],
) -> None:
    from docsvc.intelligence.classification import is_coursework

    assert is_coursework([title_page])


@pytest.mark.parametrize(
    "title_page",
    [
        ["Minutes of the Board Meeting", "Members: John Smith, Jane Doe", "12 March 2024"],
        ["Clinical Study Report", "Group 1: Placebo", "Group 2: 10 mg daily"],
    ],
)
def test_a_team_alone_does_not_make_a_title_page_coursework(title_page: list[str]) -> None:
    from docsvc.intelligence.classification import is_coursework

    assert not is_coursework([title_page])


def test_a_team_label_left_blank_on_a_form_is_no_report() -> None:
    from docsvc.intelligence.classification import is_coursework

    assert not is_coursework([["Club registration", "Members:", "____________________", "Signature:"]])


def test_an_assignment_named_at_the_end_of_its_title_with_its_questions_answered_is_coursework() -> None:
    from docsvc.intelligence.classification import is_coursework

    title = [
        "DURHAM COMPUTER SCIENCE",
        "Network Analysis Assignment - AB12",
        "QUESTION ONE",
        "A graph is ...",
    ]
    assert is_coursework([title])
    assert is_coursework([["Linear Algebra Homework", "Exercise 2:", "Let A be a matrix."]])
    # the assignment alone, or a question alone, is no course's work
    assert not is_coursework([title[:2]])
    assert not is_coursework([["Assignment of rights under the agreement", "QUESTION ONE"]])
    assert not is_coursework([["Durham Computer Science", "QUESTION ONE", "A graph is ..."]])


CONTRACT_OR_INVOICE = [
    Category("invoice", "An invoice, bill or credit note from a seller to a buyer: invoice number, VAT."),
    Category(
        "contract", "A contract or agreement between parties: the parties, terms and clauses, signatures."
    ),
]


def test_an_arabic_contract_between_a_first_and_a_second_party_is_a_contract() -> None:
    page = "\n".join(
        [
            "عقد شركة",
            "بين كل من :",
            "أولا : السيد ..... ( طرف أول )",
            "ثانيا : السيد ..... ( طرف ثان )",
            "بعد أن أقر الطرفين بأهليتهما للتصرف والتعاقد اتفقا على ما يلي",
        ]
    )
    result = classify([page], CONTRACT_OR_INVOICE)
    assert result.category == "contract"
    assert result.likelihood >= 0.5


def test_arabic_minutes_of_a_board_that_held_its_meeting_are_no_contract() -> None:
    page = "\n".join(
        [
            "محضر اجتماع",
            "عقد مجلس الإدارة اجتماعه الدوري يوم الأحد في مقر الشركة",
            "وناقش المجلس التقرير المالي للربع الأول",
        ]
    )
    result = classify([page], CONTRACT_OR_INVOICE)
    assert result.category != "contract" or result.likelihood < 0.2


def test_a_chilean_sales_voucher_is_an_invoice_not_a_form() -> None:
    page = "\n".join(
        [
            "Comprobante de Venta",
            "Nro Venta: 211",
            "Fecha: 15-04-2025",
            "Nombre: Ana Ortiz",
            "Email: ana@example.com",
            "Detalle de la Venta:",
            "Acelga x 1",
            "$1.000",
        ]
    )
    assert classify([page], [*CONTRACT_OR_INVOICE, *LETTER_OR_FORM[1:]]).category == "invoice"


def test_a_letter_dated_month_first_greeting_its_reader_is_a_letter_not_the_form_it_speaks_of() -> None:
    page = "\n".join(
        [
            "Ann Lee",
            "ADDRESS",
            "Montreal, Quebec POSTAL CODE",
            "Applicant Number:",
            "947140287",
            "February 4, 2025",
            "Dear Immigration Officer,",
            "I am writing to provide proof of my financial capacity as part of my application.",
            "My funding and my savings cover my tuition, my rent and my living costs for the next year.",
            "I hold a scholarship and a teaching position at the university, both paid every month.",
            "I enclose my bank statements for the past eight months and a letter from the university.",
            "Should you require any more information, please feel free to contact me at any time.",
            "Thank you for your time and consideration.",
            "Ann Lee",
        ]
    )
    result = classify([page], LETTER_OR_FORM)
    assert result.category == "letter"
    assert "a salutation and a date line" in result.reasoning


def test_slides_built_up_step_by_step_repeat_their_count_and_are_still_a_deck() -> None:
    from docsvc.intelligence.classification import counted_slides

    footline = "| Ann Lee (Computing Society) | Version control | March 23, 2018 {n} / 27 |"
    steps = [1, 2, 3, 3, 3, 4, 4, 5]
    slides = [[f"Slide {n}", "A point revealed", footline.format(n=n)] for n in steps]
    assert counted_slides(slides) == 1.0
    # one count on every page, or counts falling back, are no deck's
    assert counted_slides([[f"Page {n}", "| Form 12 | 1 / 1 |"] for n in range(1, 6)]) == 0.0
    assert counted_slides([[f"Slide {n}", footline.format(n=n)] for n in [1, 2, 3, 2, 4]]) == 0.0


@pytest.mark.parametrize(
    ("greeting", "closing"),
    [
        ("Dear Dr Lee,", "With my best regards,"),
        ("Hej Anna,", "Med vänliga hälsningar"),
        ("Kære Lars,", "Med venlig hilsen"),
        ("Vážený pane řediteli,", "S pozdravem"),
        ("Stimate domnule director,", "Cu stimă,"),
        ("Sayın Müdür,", "Saygılarımla"),  # noqa: RUF001
        ("Уважаемый Иван Петрович!", "С уважением,"),  # noqa: RUF001
        ("Dengan hormat,", "Hormat kami,"),
        ("Assalamu'alaikum Wr. Wb.", "Wassalamu'alaikum Wr. Wb."),
    ],
)
def test_a_letters_greeting_and_closing_are_known_in_more_languages(greeting: str, closing: str) -> None:
    from docsvc.intelligence.classification import is_closing_formula, is_salutation

    assert is_salutation(greeting)
    assert is_closing_formula(closing)
    assert not is_salutation("Karen Lee") and not is_closing_formula("With the results below")


def test_an_indonesian_school_letter_to_parents_listing_fees_is_a_letter() -> None:
    page = "\n".join(
        [
            "SMK Nusantara",
            "Jl. Merdeka No. 5, Semarang",
            "Semarang, 31 October 2020",
            "Kepada Yth,",
            "Bapak / Ibu Orang Tua Wali Murid",
            "Assalamu'alaikum Wr. Wb.",
            "Bersama datangnya surat ini kami informasikan kekurangan biaya pendidikan:",
            "Seragam",
            "Rp. 750.000,-",
            "Demikian pemberitahuan ini kami sampaikan, atas perhatian kami ucapkan terima kasih.",
            "Wassalamu'alaikum Wr. Wb.",
            "Kepala Sekolah,",
        ]
    )
    result = classify([page], [*CONTRACT_OR_INVOICE, *LETTER_OR_FORM])
    assert result.category == "letter"
    assert result.likelihood >= 0.5


def test_a_table_of_contents_whose_page_numbers_stand_below_their_dots_is_no_form_to_fill_in() -> None:
    parts = [f"Part {letter} {'. ' * 30}" for letter in "abcdefgh"]
    contents = ["Contents", *[line for n, part in enumerate(parts, 2) for line in (part, str(n))]]
    assert "form" not in document_shapes(["\n".join(contents)])
    # dots before a label, not a page number, are still blanks
    blanks = [line for part in parts for line in (part.replace("Part", "Name"), "Signature")]
    assert "form" in document_shapes(["\n".join(["Registration", *blanks])])


def test_a_title_page_naming_a_courses_report_or_its_supervisors_with_the_term_is_coursework() -> None:
    from docsvc.intelligence.classification import is_coursework

    assert is_coursework([["Effects of Filters on Perception", "Spring 2022 - W241 Final Report", "Ann Lee"]])
    assert is_coursework([["Model Building", "Spring 2015", "Supervisors:", "Marc Smith"]])
    # the term alone, or a report's name alone, is no course's work
    assert not is_coursework([["Effects of Filters on Perception", "Final Report", "Ann Lee"]])
    assert not is_coursework([["Model Building", "Spring 2015", "Ann Lee"]])


def test_a_volume_or_chapter_and_a_line_opening_acknowledgements_are_no_letter_parts() -> None:
    from docsvc.intelligence.classification import letter_parts

    paper = ["Vol. 12, 2019", "Chapter 3, 2021", "With thanks to the reviewers for their comments"]
    assert letter_parts([paper]) == []
    letter = ["Toulouse, 28 octobre 2018", "With kind regards,"]
    assert letter_parts([letter]) == ["a closing formula", "a date line"]


def test_a_boleta_is_an_invoice_as_its_labels_are_filed() -> None:
    categories = [
        Category("invoice", "An invoice, bill or credit note from a seller to a buyer: invoice number, VAT."),
        Category("receipt", "A till receipt from a shop: items, total, payment."),
    ]
    page = "BOLETA\nNro: B001-00000123\nFecha: 12/03/2025\nCliente: Ana Ortiz\nTotal: S/ 25.00"
    assert classify([page], categories).category == "invoice"


def test_a_russian_insurance_contract_is_a_contract() -> None:
    page = "\n".join(
        [
            "ДОГОВОР СТРАХОВАНИЯ",
            "ФИО Клиента: Иванов Иван Иванович",
            "Дата рождения: 01.02.1985",
            "Страховая сумма: 50000 ₽",
            "Общие условия:",
            "1. Данный договор регламентирует страховые условия.",
            "2. Клиент обязан соблюдать все условия, указанные в договоре.",
            "Подпись клиента        Подпись компании",
        ]
    )
    result = classify([page], [*CONTRACT_OR_INVOICE, *LETTER_OR_FORM])
    assert result.category == "contract"


def test_to_whomsoever_it_may_concern_greets_a_reader_as_to_whom_it_may_concern_does() -> None:
    assert is_salutation("To Whomsoever it may Concern")
    assert is_salutation("To whom it may concern,")
    assert not is_salutation("To whom the goods are delivered")


def test_a_russian_reports_on_the_other_hand_is_no_contracts_parties() -> None:
    page = "\n".join(
        [
            "ГОДОВОЙ ОТЧЕТ ЗА 2023 ГОД",  # noqa: RUF001
            "Выручка компании выросла на двенадцать процентов по сравнению с прошлым годом.",  # noqa: RUF001
            "С другой стороны, расходы увеличились из-за роста цен со стороны поставщиков.",  # noqa: RUF001
            "Совет директоров рассмотрел итоги года и утвердил планы развития.",
        ]
    )
    assert classify([page], CONTRACT_OR_INVOICE).category != "contract"


def test_a_russian_contracts_parties_named_hereinafter_make_it_a_contract() -> None:
    page = "\n".join(
        [
            "ООО «Альфа», именуемое в дальнейшем «Исполнитель», в лице директора Петрова П. П.,",  # noqa: RUF001
            "и ООО «Бета», именуемое в дальнейшем «Заказчик», заключили настоящий документ.",  # noqa: RUF001
            "Исполнитель обязуется оказать услуги, а Заказчик оплатить их.",  # noqa: RUF001
        ]
    )
    assert classify([page], CONTRACT_OR_INVOICE).category == "contract"


def test_a_friend_greeted_as_my_dear_and_a_familiar_sign_off_make_a_letter_parts() -> None:
    from docsvc.intelligence.classification import is_closing_formula, letter_parts

    assert is_salutation("Ma bien chère Alix,")
    assert is_salutation("Mon très cher ami,")
    assert is_salutation("My dearest Anna,")
    assert not is_salutation("Ma maison est loin de la gare")
    for closing in ("La bise,", "Je t'embrasse", "Liebe Grüße", "Un abrazo", "Love,"):
        assert is_closing_formula(closing), closing
    assert not is_closing_formula("Love and war in the novels of the period")
    assert letter_parts([["Ma bien chère Alix,", "Voilà des nouvelles.", "La bise,"]]) == [
        "a salutation",
        "a closing formula",
    ]


def test_a_friends_letter_speaking_of_a_work_contract_is_a_letter() -> None:
    page = "\n".join(
        [
            "Ma bien chère Alix,",
            "Il s'en est écoulé du temps depuis notre dernier voyage, et je pense souvent à toi là-bas.",
            "De mon côté je termine cette année, en alternance, et je ne resterai pas après mon contrat.",
            "Hâte de te revoir et de te faire à manger à la première occasion qui se présentera.",
            "La bise,",
            "Alex",
        ]
    )
    assert classify([page], [*CONTRACT_OR_INVOICE, *LETTER_OR_FORM]).category == "letter"


def test_a_company_signing_through_its_officer_closes_a_letter() -> None:
    from docsvc.intelligence.classification import is_closing_formula, letter_parts, signs_for_a_company

    assert is_closing_formula("For and on behalf of Acme")
    assert not is_closing_formula("For example, the limited company")
    assert not is_closing_formula("For the reasons above the company")
    letter = ["Dear Mr Rao,", "We confirm your appointment.", "For Consim Info Pvt. Ltd.,", "A. Prasad"]
    assert signs_for_a_company(letter)
    assert signs_for_a_company(letter, 2)
    assert "a closing formula" in letter_parts([letter])


def test_a_company_signing_with_no_greeting_or_beside_its_signatory_or_total_is_no_letters_closing() -> None:
    from docsvc.intelligence.classification import is_closing_formula, letter_parts, signs_for_a_company

    assert not is_closing_formula("For ACME TRADERS PVT. LTD.")
    ungreeted = ["We confirm your appointment.", "For Consim Info Pvt. Ltd.,", "A. Prasad"]
    assert not signs_for_a_company(ungreeted)
    for beside in (
        "Authorised Signatory",
        "AUTHORIZED SIGNATORY",
        "Grand Total 5,900.00",
        "| Total | 5.00 |",
    ):
        page = ["Dear Sir,", "Steel brackets 5,000.00", "For ACME TRADERS PVT. LTD.", beside]
        assert not signs_for_a_company(page), beside
        assert letter_parts([page]) == ["a salutation"], beside


INDIAN_TAX_INVOICE = (
    "ACME TRADERS PVT. LTD.\nGSTIN: 27AAACA1234F1Z5\nTAX INVOICE\nInvoice No: AT/2023/118\n"
    "Invoice Date: 12-08-2023\nBill To: Sharma Enterprises, Pune\n"
    "Description | HSN | Qty | Rate | Amount\nSteel brackets | 7308 | 40 | 125.00 | 5,000.00\n"
    "Sub Total | | | | 5,000.00\nCGST 9% | | | | 450.00\nSGST 9% | | | | 450.00\n"
    "Grand Total | | | | 5,900.00\nAmount in words: Five thousand nine hundred only\n"
    "For ACME TRADERS PVT. LTD.\nAuthorised Signatory"
)


def test_an_indian_tax_invoice_signed_for_its_company_has_no_letter_parts_and_is_an_invoice() -> None:
    from docsvc.intelligence.classification import letter_parts

    assert letter_parts([INDIAN_TAX_INVOICE.splitlines()]) == []
    categories = [Category("invoice", "An invoice"), Category("letter", "A letter")]
    assert classify([INDIAN_TAX_INVOICE], categories).category == "invoice"


def test_a_service_certificate_to_whom_it_may_concern_signed_for_a_company_is_a_letter() -> None:
    page = "\n".join(
        [
            "Employee Separation Process - Service Certificate",
            "To Whomsoever it may Concern",
            "Date: 21.2.2008",
            "Employee name    Ravi Kumar",
            "Designation while Resigning    Sr. Software Engineer",
            "Reason for Resignation    Personal",
            "Compensation while Relieving    Rs.3,83,052/- p.a",
            "For Example Info Pvt. Ltd.,",
            "A. Prasad",
            "Chief Financial Officer",
        ]
    )
    categories = [
        Category("financial_report", "A financial report: annual results, earnings, balance sheet."),
        *LETTER_OR_FORM,
    ]
    assert classify([page], categories).category == "letter"


def test_a_contents_page_listing_an_assignments_questions_is_a_course_detail() -> None:
    from docsvc.intelligence.classification import is_coursework

    cover = ["Model Organisms", "C. Elegans: egl-3 gene", "Spring 2015", "Author:", "Cedric Lood"]
    contents = ["Contents", "Question 1: Protein family", "Question 2: Tissues", "Question 3: Mutants"]
    assert is_coursework([cover, contents])
    # the term alone, or a paper's sections named for their topics, is no course's work
    assert not is_coursework([cover, ["Contents", "1 Introduction", "2 Methods", "3 Results"]])
    assert not is_coursework([["Model Organisms", "Spring 2015"], ["Question 1: Protein family"]])


def test_a_course_code_opening_an_assignments_title_is_a_course_detail() -> None:
    from docsvc.intelligence.classification import is_coursework

    assert is_coursework([["AIML 425 Assignment 3", "James Thompson", "Victoria University of Wellington"]])
    assert is_coursework([["CS101 Homework", "Jane Doe"]])
    # the assignment alone, or a standard's code in a title, is no course's work
    assert not is_coursework([["Network Analysis Assignment 2", "Jane Doe"]])
    assert not is_coursework([["IEEE 802.11 in dense networks", "Jane Doe", "University of Nowhere"]])


def test_a_payment_receipt_goes_to_the_bills_category_when_no_category_names_receipts() -> None:
    page = "\n".join(
        [
            "MABOU SARL",
            "REÇU DE PAIEMENT",
            "Client : Modibo Sissoko",
            "Objet : paiement de matériel",
            "Montant payé : 500000 FCFA",
            "Fait à Bamako, le 30/12/2025",
        ]
    )
    bills, letters = CONTRACT_OR_INVOICE[0], LETTER_OR_FORM[0]
    assert classify([page], [bills, letters]).category == "invoice"
    # a category of receipts takes it, and the invoices' category borrows nothing
    receipts = Category("receipt", "A receipt of a payment.")
    assert classify([page], [bills, receipts, letters]).category == "receipt"


def test_a_receipt_headed_by_its_one_word_name_goes_to_the_bills_category() -> None:
    page = "\n".join(
        [
            "RECIBO",
            "Khanda Microcredito",
            "Av. Central 12",
            "2000 MT",
            "RECIBO No. #000034",
            "Recebemos do Exmo Sr. Paulo Mate a quantia de 2000 MT",
            "Metodo de pagamento usado ..........................",
            "Assinatura e Carimbo",
            ".........................................",
        ]
    )
    bills, letters = CONTRACT_OR_INVOICE[0], LETTER_OR_FORM[0]
    forms = LETTER_OR_FORM[1]
    assert classify([page], [bills, letters, forms]).category == "invoice"


def test_a_one_word_name_of_a_receipt_inside_a_form_is_no_receipt_for_the_bills_category() -> None:
    page = "\n".join(
        [
            "FORMULÁRIO DE INSCRIÇÃO",
            "Nome: ..........................",
            "Morada: ..........................",
            "Junte o recibo do pagamento da quota a este formulário.",
            "Assinatura: ..........................",
        ]
    )
    bills, forms = CONTRACT_OR_INVOICE[0], LETTER_OR_FORM[1]
    assert classify([page], [bills, forms]).category == "form"


def test_a_letter_saying_it_received_something_is_no_receipt_for_the_bills_category() -> None:
    page = "\n".join(
        [
            "Madame,",
            "J'ai bien reçu votre courrier du 3 mars et je vous en remercie.",
            "Je vous prie d'agréer, Madame, mes salutations distinguées.",
        ]
    )
    bills, letters = CONTRACT_OR_INVOICE[0], LETTER_OR_FORM[0]
    assert classify([page], [bills, letters]).category == "letter"


def test_an_italian_letter_greeting_its_reader_as_esimio_is_a_letter() -> None:
    from docsvc.intelligence.classification import is_salutation

    assert is_salutation("Esimio dottor Giove,")
    assert is_salutation("Esimia professoressa Rossi,")
    assert not is_salutation("Il dottor Giove, esimio collega, scrive il manuale")


def test_a_polish_transport_order_is_a_purchase_order() -> None:
    from docsvc.intelligence.classification import Category, classify

    categories = [
        Category("invoice", "An invoice or bill from a seller to a buyer: invoice number, amounts due, VAT."),
        Category("purchase_order", "A purchase order from a buyer to a seller."),
        Category(
            "technical_documentation", "A technical manual, handbook, specification or developer guide."
        ),
    ]
    page = (
        "Zlecenie transportowe nr 15/ABC/2024\nWarszawa 25-07-2024\n"
        "| 1. Zleceniodawca | 2. Zleceniobiorca |\n| Firma A Sp. z o.o. NIP: 5210000000 | Firma B S.A. |\n"
        "1. ZAŁADUNEK: Miejsce: Magazyn 1, Data: 30.07.2024\n"
        "2. WYŁADUNEK: Miejsce: Sklep 2, Data: 31.07.2024\n"
        "Fracht: 4000 EUR netto\nTermin płatności: 60 dni"
    )
    assert classify([page], categories).category == "purchase_order"


def test_a_russian_bachelors_thesis_is_a_scientific_paper() -> None:
    from docsvc.intelligence.classification import Category, classify

    categories = [
        Category("report", "A report of an organisation on a topic: findings, sections, tables and figures."),
        Category("scientific_paper", "A scientific or academic paper or thesis: abstract, references."),
    ]
    cover = "Выпускная квалификационная работа бакалавра\nНаучный руководитель\nЯрославль, 2020"  # noqa: RUF001
    abstract = "РЕФЕРАТ\nКлючевые слова: машинное обучение, нейронные сети."  # noqa: RUF001
    assert classify([cover, abstract], categories).category == "scientific_paper"


def test_a_return_address_over_the_window_and_betrifft_are_letter_parts() -> None:
    from docsvc.intelligence.classification import letter_parts

    letter = ["Peter Muster · Hinter dem Tal 2 · 54321 Musterheim", "Petra Beispiel", "Vor dem Berg 1"]
    assert letter_parts([letter]) == ["a return address line"]
    assert letter_parts([["Betrifft: Mitgliederversammlung"]]) == ["a subject line"]
    # a citation or a list of figures has the commas of an address, not a street and its number
    assert letter_parts([["Smith, John, 2019, 12345 pages", "Invoice No. 12345, Date 2024"]]) == []


def test_a_letter_dated_a_day_its_month_does_not_have_is_still_dated() -> None:
    from docsvc.intelligence.classification import dates_by_month, letter_parts

    assert dates_by_month("Musterheim, 29. Februar 2011")
    assert not dates_by_month("Vol. 12, 2019")
    assert letter_parts([["Musterheim, 29. Februar 2011", "Liebe Vereinsvorsitzende,"]]) == [
        "a salutation",
        "a date line",
    ]


def test_a_letter_greeting_in_no_language_known_is_told_by_its_address_line_and_date() -> None:
    text = (
        "Vorname Name · Straße 32a · 12345 Ort\n\nEmpfänger\nz. H. Max Muster\nStraße 32a\n12345 Ort\n\n"
        "Vorname Name\nStraße 32a\n12345 Ort\nTelefon\n+49 1234 555 555\n\nOrt, den 12. September 2018\n\n"
        "Lorem ipsum dolor sit amet\n\nAve Caesar,\n\nDuis quis matis est, a imperdiet massa. Donec cursus "
        "ex urna, ac feugiat leo vestibulum quis. Maecenas feugiat quis nisl non lacinia.\n\nSalve,\n\n"
        "Vorname Name"
    )
    categories = [Category(name) for name in ("invoice", "letter", "form", "report")]
    result = classify([text], categories)
    assert result.category == "letter"
    assert "a return address line and a date line" in result.reasoning


def test_a_chinese_students_title_page_laid_out_as_a_grid_names_its_course_details() -> None:
    from docsvc.intelligence.classification import is_coursework

    colon = "\uff1a"  # the full-width colon of Chinese labels
    school = f"| 学 院{colon} | 计算学部 | 专 业{colon}计算机科学与技术 |"
    grid = [
        "哈尔滨工业大学报告",
        "实验一",
        school,
        f"| 班 级{colon} | 1803105 | 学 号{colon} 1180310840 |",
        f"| 指导老师{colon} | 王老师 | 学 期{colon} 2021 春季学期 |",
    ]
    assert is_coursework([grid])
    # a school and a programme name no course's work: a thesis's title page names them too
    assert not is_coursework([["哈尔滨工业大学", school]])


def test_a_right_to_left_table_of_contents_read_with_its_page_numbers_first_is_one() -> None:
    from docsvc.intelligence.classification import leads_to_pages

    dots = " ." * 17
    # page numbers in Arabic-Indic digits, the introduction's in an abjad letter, before the dots
    numbers = ["\u0627", "\u0661", "\u0662", "\u0663"]
    titles = ["المقدمة", "مستند يدعم الكتابة باللغة العربية", "الملحقات", "المصادر"]
    contents = ["الفهرس", *[f"{number}{dots} {title}" for number, title in zip(numbers, titles, strict=True)]]
    assert leads_to_pages(contents)
    shapes = document_shapes(["\n".join(contents)])
    assert "form" not in shapes and "book" in shapes
    # dots after a label, nothing before them, are blanks to fill in still
    assert not leads_to_pages([f"{label}{dots}" for label in ("الاسم", "العنوان", "التوقيع")])


def test_a_line_of_authors_and_a_conference_with_its_year_are_parts_of_a_paper() -> None:
    from docsvc.intelligence.classification import is_byline, names_venue, paper_parts

    assert is_byline("T. Arulalan, T. Shrinivasan, and A. Muthiah")
    assert is_byline("Jean-Marc Nuzillard¹, Anne Dupont² und Jörg Weiß*")
    assert not is_byline("Anton Absender, Hauptstraße 12, 67890 Aalen")  # an address has figures
    assert not is_byline("Tables, Figures and Equations")  # one word is no name
    assert not is_byline("The Buyer and the Seller")
    assert not is_byline("Authors: Ada Lovelace and Charles Babbage")  # a label
    assert names_venue("INFITT 2016 Tamil Conference")
    assert names_venue("Proceedings of the Workshop on Tables, 2019")
    assert not names_venue("Journal of Physics")  # no year: a journal spoken of
    front = ["INFITT 2016 Tamil Conference", "Developments in a Library", "T. Arulalan and A. Muthiah"]
    pages = [front + _prose(20), ["Conclusion", *_prose(10), "References", "1. B. Author, a book, 2014."]]
    assert paper_parts(["\n".join(page) for page in pages], pages) == [
        "a list of references",
        "a conference or journal",
        "a line of authors",
    ]
    # a front that shows an abstract, references and a DOI already is told: its authors add nothing
    told = [[*front, "Abstract", *_prose(5)], [*_prose(5), "References", "1. doi: 10.1000/182"]]
    assert paper_parts(["\n".join(page) for page in told], told) == [
        "an abstract",
        "a list of references",
        "a DOI",
    ]


def test_a_conference_paper_on_a_software_library_without_an_abstract_is_a_paper() -> None:
    categories = [
        *PAPER_BOOK_DECK,
        Category(
            "technical_documentation", "A technical manual, handbook, specification or developer guide."
        ),
    ]
    library = (
        "The library helps software developers build applications; its API covers every module.",
        "Developers of the library added examples and tests for the software of each new version.",
    )
    header = "INFITT 2016 Tamil Conference"
    body = [library[n % 2] for n in range(20)]
    pages = [
        Sheet(
            lines=[
                header,
                "Developments in the Open Library",
                "T. Arulalan, T. Shrinivasan, and A. Muthiah",
                *body,
            ]
        ),
        *[Sheet(lines=[header, *body]) for _ in range(2)],
        Sheet(lines=[header, *body[:6], "References", "1. A. Author, Text Processing Tools, 2014."]),
    ]
    result = classify(parsed(Packet(pages)), categories)
    assert result.category == "scientific_paper"
    assert "a line of authors" in result.reasoning


def _dotless(text: str) -> str:
    """Arabic text as a broken text layer gives it: letters of one skeleton mapped to their dotless forms,
    a lost dot read as a replacement character after them."""
    lost = {"ب": "ٮ\ufffd", "ت": "ٮ\ufffd", "ن": "ٮ\ufffd", "ي": "ٮ\ufffd", "ض": "ص\ufffd", "ف": "ڡ\ufffd"}
    return "".join(lost.get(character, character) for character in text)


ARABIC_LETTER = [
    "شركة المثال للتجارة",
    "التاريخ: ٧ أغسطس ٢٠٢٦",  # noqa: RUF001
    "السيد المحترم،",
    "الموضوع: عرض تعاون تجاري",
    "تحية طيبة وبعد،",
    "يسرنا أن نتقدم إليكم بهذا العرض للتعاون بين شركتينا في مجال التوريد والخدمات"
    " اللوجستية خلال العام القادم.",
    "وتفضلوا بقبول فائق الاحترام والتقدير،",
    "المدير العام",
]


@pytest.mark.parametrize("broken", [False, True])
def test_an_arabic_letter_shows_its_salutation_subject_and_closing_even_in_a_dotless_text_layer(
    broken: bool,
) -> None:
    from docsvc.intelligence.classification import is_closing_formula, is_subject_line, letter_parts

    lines = [_dotless(line) if broken else line for line in ARABIC_LETTER]
    assert is_salutation(lines[2]) and is_subject_line(lines[3]) and is_closing_formula(lines[6])
    assert letter_parts([lines]) == ["a salutation", "a closing formula", "a subject line"]
    categories = [*PAPER_BOOK_DECK, Category("letter", "A personal or business letter.")]
    assert classify(["\n".join(lines)], categories).category == "letter"


def test_arabic_words_of_a_letter_in_a_label_or_another_line_are_no_letters_parts() -> None:
    from docsvc.intelligence.classification import is_closing_formula, is_subject_line

    assert not is_salutation("السيد: ____________")  # a form's label to fill in
    assert not is_salutation("اسم السيد")  # not opening the line
    assert not is_subject_line("الموضوع")  # no label without its colon
    assert not is_closing_formula("شكرا لكم")
    assert arabic_letters_alike("الموضوع", "الموص\ufffdوع")


def arabic_letters_alike(first: str, second: str) -> bool:
    from docsvc.intelligence.classification import arabic_skeleton

    return arabic_skeleton(first) == arabic_skeleton(second)


@pytest.mark.parametrize(
    "text",
    [
        "Про фактура бр. 1001/19\nОПИС\nЕдинечна цена\nКол\nВКУПНА ЦЕНА\nДДВ 18%\nЦЕНА СО ДДВ\n3.500,00 ден",  # noqa: RUF001
        "ДАНЪЧНА ФАКТУРА № 0000012\nДоставчик\nПолучател\nСума\nДДС 20%\nОбщо: 120,00 лв.",  # noqa: RUF001
    ],
)
def test_a_macedonian_or_bulgarian_invoice_is_an_invoice_by_its_name_and_vat(text: str) -> None:
    result = classify([text], list(reversed(KINDS_OF_DOCUMENTS)))  # the invoice listed last: no tie won
    assert result.category == "invoice"
    assert result.likelihood >= 0.5


def test_a_run_of_kanji_kana_or_thai_is_cut_into_pairs_so_a_name_is_found_inside_it() -> None:
    from docsvc.intelligence.classification import heading_lines
    from docsvc.intelligence.vocabulary import phrase, tokenize

    text = IndexedText.of("本書は請求書です。pTEXマニュアル\nรายงานฉบับสุดท้าย")
    assert text.occurrences(phrase("請求書")) and text.occurrences(phrase("รายงาน"))
    assert text.occurrences(phrase("マニュアル")) and text.occurrences(phrase("ptex"))
    assert not text.occurrences(phrase("書類"))  # pairs in a row, not characters anywhere
    assert [token.stem for token in tokenize("Invoice 報告")] == ["invoice", "報告"]  # short runs whole
    assert heading_lines("ソフトウェア取扱説明書\n本文") == [
        "ソフトウェア取扱説明書",
        "本文",
    ]  # a run: a word


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("御請求書\n請求番号 1234\n合計金額 12,000円\n消費税 1,200円", "invoice"),
        (
            "ソフトウェア取扱説明書\n第1章 インストール\nコマンドの構文とパラメータを説明します。",
            "technical_documentation",
        ),
        ("年度工作报告\n本报告总结了本年度的主要工作和结论。", "report"),
        ("B2G — รายงาน QA ฉบับสุดท้าย\nเอกสาร: งบประมาณ\nข้อผิดพลาด ก่อนแก้ → หลังแก้", "report"),
    ],
)
def test_document_kinds_are_recognised_by_their_names_in_japanese_chinese_and_thai(
    text: str, expected: str
) -> None:
    assert classify([text], list(reversed(KINDS_OF_DOCUMENTS))).category == expected


def test_a_spacing_accent_over_a_dotless_i_as_tex_sets_it_makes_an_accented_i() -> None:
    from docsvc.intelligence.classification import with_accents_joined

    assert with_accents_joined("T\u00b4\u0131tulo de la Secci\u00b4on") == "Título de la Sección"


def test_an_internship_reports_trainee_and_supervisors_are_course_details() -> None:
    from docsvc.intelligence.classification import is_coursework

    title = ["Stage de fin d'études.", "Etudiante stagiaire : Diba Dupont", "Encadrants de Stage : A. Martin"]
    assert is_coursework([title])
    assert is_coursework([["Projektbericht", "Praktikant: Max Muster", "Betreuer: Dr. Ute Berg"]])
    # the trainee alone is one detail of a course's work, not two
    assert not is_coursework([title[:2]])


def test_field_labels_printed_alone_are_blanks_to_fill_in() -> None:
    """A form whose boxes are drawn, not written: the text layer holds its field labels alone on their
    lines ("Full name", "Signature or mark of first witness", "Postcode"), which make it a form; a
    sentence about a signature, or a label with a value, is no blank."""
    from docsvc.intelligence.classification import is_blank

    assert is_blank("Full name")
    assert is_blank("Signature or mark of first witness")
    assert is_blank("Postcode")
    assert not is_blank("The signature of the donor must be witnessed by two people who are not attorneys.")
    assert not is_blank("Full name Jane Doe 12")
    assert not is_blank("Email: office@example.org")
    sheet = [
        "Continuation sheet 3",
        "Only fill in this page if the donor cannot sign",
        *["Signed as a deed and delivered in the presence of two witnesses of the power of attorney."] * 6,
        *("Full name", "Signature or mark", "Full name of first witness", "Address of first witness"),
        *("Postcode", "Full name of second witness", "Address of second witness", "Postcode"),
    ]
    assert "form" in document_shapes(["\n".join(sheet)])


def test_a_short_cover_letter_arguing_for_a_paper_is_a_letter() -> None:
    """Two pages that greet the editors and sign off on behalf of the authors are a letter, however
    much they speak of the paper they send (its method, its results, its journal); the same words
    without the greeting and the signing off are no letter."""
    categories = [
        Category("scientific_paper", "A scientific or academic paper or thesis: abstract, references."),
        Category("letter", "A personal or business letter."),
        Category("report", "A report of an organisation on a topic."),
    ]
    argued = [
        "Our paper presents a state-of-the-art method for association mapping in genomics.",
        "Our method is computationally efficient and statistically superior to other methods.",
        "The analysis of the results shows the performance of the model on real data sets.",
        "The paper is suitable for publication in your journal, one of the top methods journals.",
    ]
    first = "\n".join(
        ["Corresponding Author:", "Dr Jane Doe", "23/10/18", "", "Dear Editors,", "", *argued * 3]
    )
    last = "\n".join(
        [*argued * 2, "Thank you for considering our paper.", "", "On behalf of the authors,", "Dr Jane Doe"]
    )

    assert classify([first, last], categories).category == "letter"
    assert classify(["\n".join(argued * 3), "\n".join(argued * 2)], categories).category != "letter"


def test_a_field_label_alone_counts_up_to_its_word_limit_and_a_letter_counts_whole_up_to_its_pages() -> None:
    """The limits at their boundaries: a field's label of FIELD_LABEL_WORDS words printed alone is a
    blank, one word more is a line of text; a letter of LETTER_WHOLE_PAGES pages that greets and signs
    off has its shape count LETTER_WHOLE whole shapes, one page more only its parts twice."""
    from docsvc.intelligence.classification import (
        FIELD_LABEL_WORDS,
        LETTER_WHOLE,
        LETTER_WHOLE_PAGES,
        SHAPE_POINTS,
        names_a_field,
    )

    label = ["Signature", "or", "mark", "of", "the", "first", "witness", "here", "today"]
    assert names_a_field(" ".join(label[:FIELD_LABEL_WORDS]))
    assert not names_a_field(" ".join(label[: FIELD_LABEL_WORDS + 1]))
    body = ["We write about the results of the study and what they mean for the work ahead of us."] * 6
    first, last = "\n".join(["Dear Editors,", *body]), "\n".join([*body, "Yours sincerely,", "Jane Doe"])
    middle = ["\n".join(body)] * (LETTER_WHOLE_PAGES - 1)
    short = document_shapes([first, *middle[: LETTER_WHOLE_PAGES - 2], last])["letter"]
    longer = document_shapes([first, *middle, last])["letter"]
    assert short.points == LETTER_WHOLE * SHAPE_POINTS
    assert longer.points < short.points


def test_a_table_of_contents_set_as_a_table_under_its_heading_makes_short_pages_no_deck() -> None:
    from docsvc.intelligence.classification import written_parts

    rows = ["| 1 | Einleitung | 3 |", "| 2 | Theorie | 3 |", "| 3 | Versuchsaufbau | 4 |"]
    assert written_parts([["Inhaltsverzeichnis", "|---|---|---|", *rows]])
    # without its heading, a table of counts is no table of contents
    assert not written_parts([["Bestand", "|---|---|---|", *rows]])
    # nor is one whose last cells are words
    worded = ["| 1 | Intro | one |", "| 2 | Theory | two |", "| 3 | End | six |"]
    assert not written_parts([["Contents", *worded]])


def test_a_numbered_lab_experiment_handed_in_on_a_date_is_coursework() -> None:
    from docsvc.intelligence.classification import is_coursework

    title = [
        "Versuch 101 ”Das Trägheitsmoment”",
        "Robert Konradi",
        "Durchführung: 17.11.2017, Abgabe: 24.11.2017",
    ]
    assert is_coursework([title])
    assert not is_coursework([title[:2]])  # the experiment's number alone


def test_a_chinese_balance_sheet_page_is_a_financial_report_not_an_invoice() -> None:
    """A research report's page set out as the balance sheet, in Chinese: the statement's name and its
    totals ("负债合计", "股东权益合计") say a financial report; its amounts and "合计" lean to an invoice."""
    page = "\n".join(
        [
            "公司深度",
            "表21：资产负债表（单位：百万元）",  # noqa: RUF001
            "| 负债和股东权益 | 2021 | 2022 | 2023E |",
            "|---|---|---|---|",
            "| 短期借款 | 1,200 | 1,350 | 1,400 |",
            "| 流动负债合计 | 5,210 | 5,620 | 6,010 |",
            "| 负债合计 | 8,430 | 8,950 | 9,300 |",
            "| 股本 | 1,000 | 1,000 | 1,000 |",
            "| 未分配利润 | 3,120 | 3,560 | 4,020 |",
            "| 股东权益合计 | 6,880 | 7,320 | 7,790 |",
            "资料来源：公司公告",  # noqa: RUF001
        ]
    )
    categories = [Category("invoice"), Category("financial_report"), Category("report")]
    assert classify([page], categories).category == "financial_report"


@pytest.mark.parametrize(
    "title", ["注\u00a0\u00a0文\u00a0\u00a0書", "注  文  書", "注\u3000文\u3000請\u3000書"]
)
def test_a_japanese_order_titled_letter_spaced_is_a_purchase_order_not_the_report_it_asks_for(
    title: str,
) -> None:
    """A purchase order whose title is set letter-spaced ("注  文  書") and whose terms ask for work
    reports ("作業報告書") every month: the title names its kind, the reports are what it orders."""
    page = "\n".join(
        [
            "注文番号：EB251231I00002",  # noqa: RUF001
            title,
            "有限会社サンプル企画 御中",
            "下記の通り注文致しますので、ご了承の上、折り返しご送付下さい。",
            "| 業務名称 | システム改修 |",
            "|---|---|",
            "| 納入物件 | 月別作業報告書 |",
            "| 支払条件 | 作業報告書査収による毎月末締め |",
        ]
    )
    categories = [Category("invoice"), Category("purchase_order"), Category("report")]
    assert classify([page], categories).category == "purchase_order"


def test_a_trial_balance_of_a_ledgers_accounts_is_a_financial_report_not_an_invoice() -> None:
    page = "\n".join(
        [
            "Balance générale",
            "Vue globale des comptes mouvementés",
            "| Compte | Libellé | Débit | Crédit | Solde |",
            "|---|---|---|---|---|",
            "| 401 | Fournisseurs | 0,00 € | 20,00 € | -20,00 € |",
            "| 44571 | TVA collectée | 0,00 € | 758,81 € | -758,81 € |",
            "| 512 | Banque | 5 988,20 € | 1 140,00 € | 4 848,20 € |",
            "Totaux 8 506,00 € 8 506,00 €",
        ]
    )
    categories = [Category("invoice"), Category("financial_report"), Category("report")]
    assert classify([page], categories).category == "financial_report"


ELEVEN_KINDS = [
    Category(
        "invoice",
        "An invoice, bill or credit note from a seller to a buyer: invoice number, amounts due, VAT.",
    ),
    Category(
        "purchase_order", "A purchase order (order, order change or order response) from a buyer to a seller."
    ),
    Category(
        "scientific_paper", "A scientific or academic paper or thesis: title, authors, abstract, references."
    ),
    Category(
        "book", "A book, a chapter or a page of one: a textbook, a novel, with chapters and running text."
    ),
    Category(
        "financial_report",
        "A financial report: annual results, balance sheet, income and cash-flow statements.",
    ),
    Category("report", "A report of an organisation on a topic: findings, sections, tables and figures."),
    Category("presentation", "Slides of a presentation: one title and a few bullet points per page."),
    Category("letter", "A personal or business letter."),
    Category(
        "contract", "A contract or agreement between parties: the parties, terms and clauses, signatures."
    ),
    Category("form", "A form to fill in, such as a tax return or an application: boxes and field labels."),
    Category("technical_documentation", "A technical manual, handbook, specification or developer guide."),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a Russian standard form of a personnel order: blanks labelled under their lines
            "Типовая форма № 7\nФорма по ОКУД 0301099\n(наименование организации)\nПРИКАЗ\n"  # noqa: RUF001
            "(фамилия, имя, отчество)\n(должность)\nТрудовой договор от __________\n"  # noqa: RUF001
            "Руководитель ________ (личная подпись) (расшифровка подписи)",
            "form",
        ),
        (  # a Ukrainian application with its blanks
            "Заява\nПрізвище ____________\nІм'я ____________\nПо батькові ____________\n"  # noqa: RUF001
            "Дата народження ____________\nПідпис ____________",  # noqa: RUF001
            "form",
        ),
        (  # a Russian standard, its kind set letter-spaced as such titles are
            "ГОСТ 1.99\nМ Е Ж Г О С У Д А Р С Т В Е Н Н Ы Й\nС Т А Н Д А Р Т\nСистема стандартов\n"  # noqa: RUF001
            "1 Область применения\n2 Нормативные ссылки\n3 Термины и определения\n"
            "Примечание — см. приложение А.",  # noqa: RUF001
            "technical_documentation",
        ),
        (  # a Chinese national standard: its scope, normative references, terms and definitions
            "GB/T 1234-2020\n中华人民共和国国家标准\n目次\n1 范围\n2 规范性引用文件\n3 术语和定义",
            "technical_documentation",
        ),
        (  # a French general ledger, its entries' accounts as the rows of a table
            "Grand livre\nÉcritures comptables\n| Date | Journal | Pièce | Compte | Débit | Crédit |\n"
            "| 2025-01-03 | AC | FACTURE 118 | 606 | 120,00 | 0,00 |\n"
            "| 2025-01-03 | BQ | FACTURE 118 | 512 | 0,00 | 120,00 |",
            "financial_report",
        ),
        (  # a Polish report of profit by product
            "Zysk ze sprzedaży produktów\n31/03/2024\n| Produkt | Koszt zakupu | Przychody | Zysk |\n"
            "| Opona A | 100 | 130 | 30 |",
            "financial_report",
        ),
        (  # an Arabic company's financial statements
            "القوائم المالية\nالميزانية العمومية\nالأصول\nالخصوم\nحقوق الملكية\nصافي الربح 120,000",  # noqa: RUF001
            "financial_report",
        ),
        (  # an Arabic book's front matter
            "الكتاب\nالطبعة الأولى\nجميع الحقوق محفوظة\nالفهرس\nالفصل الأول\nمقدمة",  # noqa: RUF001
            "book",
        ),
        (  # a Russian business letter
            "Уважаемый Иван Петрович!\nНаправляем Вам сведения о поставке оборудования по вашему запросу. "  # noqa: RUF001
            "Просим подтвердить получение.\nС уважением,\nДиректор А. Смирнов",  # noqa: RUF001
            "letter",
        ),
        (  # a Greek invoice
            "ΤΙΜΟΛΟΓΙΟ ΠΑΡΟΧΗΣ ΥΠΗΡΕΣΙΩΝ\nΑΦΜ 123456789\nΦΠΑ 24%\nΠΛΗΡΩΤΕΟ 124,00 €",  # noqa: RUF001
            "invoice",
        ),
    ],
)
def test_kinds_are_recognised_in_cyrillic_arabic_greek_and_chinese_and_ledgers_as_financial(
    text: str, expected: str
) -> None:
    assert classify([text], ELEVEN_KINDS).category == expected


def test_a_word_of_capitals_set_letter_spaced_is_read_as_one_word() -> None:
    assert phrase("R A P P O R T annuel") == ("rapport", "annuel")
    assert phrase("С Т А Н Д А Р Т") == ("стандарт",)  # noqa: RUF001
    # three letters, or letters in lower case, are letters: initials, a list of variables
    assert phrase("A B C") == ("a", "b", "c")
    assert phrase("T E S T") == ("test",)  # four letters: a word
    assert phrase("x y z w") == ("x", "y", "z", "w")
    assert word_count("I N V O I C E") == 1


def test_a_reference_letter_greeting_at_length_and_speaking_of_research_is_a_letter() -> None:
    first = "\n".join(
        [
            "3rd May 2022",
            "Dear Members of the Committee for Research Appointments and Promotions,",
            "I am writing in support of Dr. Jane Roe, whose scientific articles on statistical models and "
            "algorithms for disease progression are widely cited in the research community.",
            "Her model has been evaluated on three datasets and outperforms the baseline methods.",
        ]
    )
    last = "Please contact me if I can provide further information.\n\nSincerely,\nProf. John Doe"
    assert classify([first, last], ELEVEN_KINDS).category == "letter"


def test_an_invitation_to_members_signed_by_the_board_is_a_letter() -> None:
    page = "\n".join(
        [
            "Einladung zur Mitgliederversammlung",
            "Sehr geehrte Mitglieder,",
            "hiermit laden wir Sie herzlich zur Mitgliederversammlung ein.",
            "Tagesordnung",
            "1. Bericht des Vorstands",
            "2. Bericht der Kassenprüfer",
            "3. Wahlen",
            "Im Namen des Vorstands",
            "Erika Muster",
        ]
    )
    assert classify([page], ELEVEN_KINDS).category == "letter"


def test_a_portfolio_summary_of_short_pages_is_a_financial_report_not_slides() -> None:
    summary = "\n".join(
        [
            "Datum: 2025-11-01",
            "Portfolio-Zusammenfassung",
            "| Gesamtwert | $50,000.00 |\n|---|---|\n| Jahresrendite | 8.50% |\n| Volatilität | 10.30% |",
        ]
    )
    chart = "Datum: 2025-11-01\nAktien\nAnleihen\nRohstoffe"
    disclaimer = "Datum: 2025-11-01\nHinweis\nDieser Bericht dient nur der Information."
    assert classify([summary, chart, disclaimer], ELEVEN_KINDS).category == "financial_report"


def test_a_greeting_of_more_than_eight_words_is_one_only_up_to_sixteen_ending_in_its_comma() -> None:
    sixteen = "Dear " + " ".join(["Members"] * 15) + ","
    assert is_salutation(sixteen)
    assert not is_salutation("Dear " + " ".join(["Members"] * 16) + ",")  # seventeen words
    assert not is_salutation("Dear " + " ".join(["Members"] * 8))  # nine words, no comma
    assert is_salutation("Dear " + " ".join(["Members"] * 7))  # eight words


def test_a_letter_greeting_in_words_it_does_not_know_before_a_paragraph_is_a_letter() -> None:
    page = "\n".join(
        [
            "Kapitän Hook",
            "Bucht der Totenkopfinsel",
            "12. März 2018",
            "Werter Widersacher,",
            "nachdem es mir gelungen ist, das Krokodil an die Kette zu legen, warte ich sehnsüchtig",
            "darauf, ihm nicht nur deine Hände, sondern den ganzen verteufelten Kerl vorzuwerfen.",
            "In freundlichster Feindschaft",
            "Kapitän Hook",
        ]
    )
    assert classify([page], ELEVEN_KINDS).category == "letter"
    assert is_salutation("Bester Feind,") and is_salutation("Liebster Bruder,")


def test_a_short_line_ending_in_a_comma_greets_only_before_a_paragraph_of_prose() -> None:
    prose = "the committee met on the second day and agreed that the budget will be spent on the new"
    assert greets_before_prose(["Werter Widersacher,", prose, prose])
    assert not greets_before_prose(["Werter Widersacher,", prose])  # one line is no paragraph
    assert not greets_before_prose(["Hooks Flaggschiff,", "12. März 2018", prose, prose])
    assert not greets_before_prose(["Berlin 2018,", prose, prose])  # a number: no greeting
    assert not greets_before_prose(["however the results show,", prose, prose])  # no capital


def test_pages_opening_under_chapters_named_by_ordinals_are_a_book_not_slides() -> None:
    pages = [
        "Knjiga Prva\nOvo je naslov prve knjige",
        "GLAVA Prva\nOvo je naslov prve glave\n" + "tekst " * 40,
        "GLAVA Druga\nOvo je naslov druge glave\n4",
        "GLAVA Treća\nOvo je naslov treće glave\n5",
    ]
    shapes = document_shapes(pages)
    assert "presentation" not in shapes and "book" in shapes
    assert classify(pages, ELEVEN_KINDS).category == "book"


def test_a_table_of_contents_led_to_chinese_numerals_is_no_form_to_fill_in() -> None:
    rows = ["| 当写覚紹録試率峡係印庭使喰東暮 | ........................... 一 |"] * 3
    page = "Example Contents\n| Title | Page |\n|---|---|\n" + "\n".join(rows)
    assert "form" not in document_shapes(["Title of Book", page])
    assert leads_to_pages(lines_of(page))


def test_a_package_manual_listing_its_numbered_tex_source_is_technical_documentation() -> None:
    front = "\n".join(
        [
            "Language Support for XeLaTeX",
            "A. Author",
            "University of Somewhere, Department of Informatics",
            "Abstract",
            "The package provides support for typesetting with XeLaTeX and LuaLaTeX.",
            "1 Introduction",
            "The package provides support for typesetting. Users select the appropriate option.",
        ]
    )
    source = "\n".join(
        f'{n} \\global\\lccode"03{n:02d}="03{n:02d} \\global\\uccode"03{n:02d}="0370' for n in range(1, 30)
    )
    assert "technical documentation" in document_shapes([front, source])


def test_a_title_naming_its_kind_in_a_compound_word_gives_the_kind() -> None:
    page = "\n".join(
        [
            "Tullgranskningsrapport",
            "Tullsyn — automatiserad granskning mot EU:s tulltaxa",
            "| Fakturanummer: | EVAL-2026-002 |\n|---|---|\n| Datum: | 2026-06-15 |",
            "Rekommenderade åtgärder",
            "1. Låt tullombud verifiera HS-koden för varan.",
        ]
    )
    assert classify([page], ELEVEN_KINDS).category == "report"
    assert compound_kind("stromrechnung") is not None and compound_kind("newsletter") is None
    assert compound_kind("rechnung") is None  # the word itself is no compound


def test_a_greeting_known_by_its_place_has_four_words_at_most_before_lines_of_eight_words() -> None:
    from docsvc.intelligence.classification import GREETED_WORDS, GREETING_WORDS

    eight = " ".join(["word"] * GREETED_WORDS)
    seven = " ".join(["word"] * (GREETED_WORDS - 1))
    four = " ".join(["Werter"] * GREETING_WORDS) + ","
    five = " ".join(["Werter"] * (GREETING_WORDS + 1)) + ","
    assert greets_before_prose([four, eight, eight])
    assert not greets_before_prose([five, eight, eight])
    assert not greets_before_prose([four, eight, seven])


def test_a_compound_title_names_its_kind_on_a_line_of_three_words_at_most_after_a_head_of_three_letters() -> (
    None
):
    from docsvc.intelligence.classification import compound_title_kind

    assert compound_title_kind([["Jahres Prüfungs Tullrapport"], ["text"]]) is not None  # three words
    assert compound_title_kind([["Der erste Jahres Tullrapport"], ["text"]]) is None  # four
    assert compound_kind("abcrapport") is not None  # a head of three letters
    assert compound_kind("abrapport") is None  # of two


LETTER_OR_PAPER = [
    Category("letter", "A letter or e-mail from a person or an organisation to another."),
    Category("scientific_paper", "A scientific paper or article: abstract, authors, references."),
    Category("report", "A report, study or assessment."),
]


def test_a_three_page_letter_of_support_speaking_of_research_is_a_letter_not_a_paper() -> None:
    research = (
        "His algorithms and datasets set the state of the art in the evaluation of disease progression "
        "models, and his scientific articles in journals and at conferences were accepted and cited."
    )
    first = "\n".join(
        [
            "Faculty of Engineering",
            "Department of Electrical & Computer Engineering",
            "13 April, 2021",
            "Department of Homeland Security",
            "United States Citizenship and Immigration Services",
            "Dear USCIS Officer,",
            "I am writing this recommendation letter as an independent reviewer of Dr. Lee's research.",
            *[research] * 6,
        ]
    )
    middle = "\n".join(["Faculty of Engineering", *[research] * 8])
    last = "\n".join(["Faculty of Engineering", *[research] * 4, "Very Truly Yours,", "Associate Professor"])
    result = classify([first, middle, last], LETTER_OR_PAPER)
    assert result.category == "letter"
    assert "a salutation and a closing formula and a date line" in result.reasoning


def test_a_paper_with_an_abstract_keeps_its_shape_beside_a_letters_parts() -> None:
    from docsvc.intelligence.classification import document_shapes

    front = ["Ada Lovelace and Charles Babbage", "Department of Mathematics, University of London"]
    paper = [*front, "Abstract", "We study the analytical engine."]
    greeted = document_shapes(["\n".join([*paper, "Dear reader,", "Yours sincerely,"]), "References"])
    plain = document_shapes(["\n".join(paper), "References"])
    assert greeted["scientific paper"].points == plain["scientific paper"].points > 0


@pytest.mark.parametrize("closing", ["Very Truly Yours,", "Yours very truly,", "Sincerely yours,"])
def test_a_closing_with_very_or_its_yours_last_is_a_closing(closing: str) -> None:
    from docsvc.intelligence.classification import is_closing_formula

    assert is_closing_formula(closing)
    assert not is_closing_formula("Very truly, the results hold")


def test_a_date_line_with_a_comma_after_its_month_is_a_letters_date_line() -> None:
    from docsvc.intelligence.classification import letter_parts

    assert letter_parts([["13 April, 2021", "Dear Ann,"]]) == ["a salutation", "a date line"]


def test_a_street_named_after_a_college_and_a_line_of_offices_are_no_papers_front() -> None:
    from docsvc.intelligence.classification import is_affiliation, is_byline, paper_parts

    assert not is_affiliation("One College Square South,") and not is_affiliation("12 University Avenue")
    assert is_affiliation("Department of Physics, University College London")
    assert not is_byline("Chief Executive and Chief Financial Officer")
    assert is_byline("Ada Lovelace and Charles Babbage")
    cover = ["One College Square South,", "Hargreaves Lansdown plc", "Report and Financial Statements"]
    signed = ["Ian Gorham", "Chief Executive and Chief Financial Officer", "16 September 2014"]
    assert paper_parts(["\n".join(cover), "\n".join(signed)], [cover, signed]) == []
