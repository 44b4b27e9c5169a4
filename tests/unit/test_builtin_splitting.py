"""The built-in splitter and partitioner on real packets: PDFs of invoices, receipts, purchase orders,
statements and forms built here and read by the parse engine."""

from __future__ import annotations

import time

import pytest
from docsvc.intelligence.partitioning import Partition, partition
from docsvc.intelligence.splitting import Split, Subdocument, folio, page_marker, split

from tests.unit.test_builtin_classification import (
    Packet,
    Sheet,
    application_form,
    bank_statement,
    invoice,
    parsed,
    purchase_order,
    receipt,
)

# A guard against runaway work (catastrophic backtracking takes minutes), not a speed target: the
# speed of the built-in models is measured by bench/intelligence_corpus.py.
HANG_SECONDS = 10.0

MIXED = (
    invoice("INV-1", pages=2)  # 1-2
    + receipt("4411")  # 3
    + invoice("INV-2")  # 4
    + invoice("INV-3")  # 5
    + purchase_order("PO-9")  # 6
    + bank_statement(pages=3)  # 7-9
    + application_form()  # 10
    + invoice("INV-4", pages=3)  # 11-13
    + receipt("4412")  # 14
    + receipt("4413", store="Deli on Main")  # 15
)


@pytest.fixture(scope="module")
def mixed() -> list[str]:
    return parsed(MIXED)


def names_and_pages(splits: list[Split]) -> list[tuple[str, list[int]]]:
    return [(entry.name, entry.pages) for entry in splits]


# ------------------------------------------------------------------------------------------- splits
def test_a_mixed_packet_splits_into_each_instance_with_its_pages(mixed: list[str]) -> None:
    subdocuments = [
        Subdocument("invoice", allow_multiple_instances=True),
        Subdocument("receipt", allow_multiple_instances=True),
        Subdocument("purchase_order"),
        Subdocument("bank_statement"),
        Subdocument("application_form"),
    ]
    assert names_and_pages(split(mixed, subdocuments)) == [
        ("invoice", [1, 2]),
        ("receipt", [3]),
        ("invoice", [4]),
        ("invoice", [5]),
        ("purchase_order", [6]),
        ("bank_statement", [7, 8, 9]),
        ("application_form", [10]),
        ("invoice", [11, 12, 13]),
        ("receipt", [14]),
        ("receipt", [15]),
    ]


def test_a_subdocument_allowed_once_gathers_all_its_pages(mixed: list[str]) -> None:
    subdocuments = [
        Subdocument("invoice"),
        Subdocument("receipt", allow_multiple_instances=True),
        Subdocument("other", "anything else"),
    ]
    assert names_and_pages(split(mixed, subdocuments)) == [
        ("invoice", [1, 2, 4, 5, 11, 12, 13]),
        ("receipt", [3]),
        ("other", [6, 7, 8, 9, 10]),
        ("receipt", [14]),
        ("receipt", [15]),
    ]


def test_back_to_back_invoices_without_page_markers_split_on_their_numbers() -> None:
    pages = parsed(invoice("A-100") + invoice("A-101") + invoice("A-102"))
    splits = split(pages, [Subdocument("invoice", allow_multiple_instances=True), Subdocument("receipt")])
    assert names_and_pages(splits) == [("invoice", [1]), ("invoice", [2]), ("invoice", [3])]


def test_pages_repeating_the_same_number_and_title_stay_one_instance() -> None:
    header = ["ACME Supplies Ltd", "Invoice number: INV-77", "Date: 12/03/2026"]
    packet = Packet(
        [
            Sheet(title="INVOICE", lines=header, table=[["Item", "Amount"], ["Widget", "$10.00"]]),
            Sheet(title="INVOICE", lines=header, after=["Total due: $20.00", "Payment terms: net 30"]),
        ]
    )
    splits = split(parsed(packet + receipt("9")), [Subdocument("invoice", allow_multiple_instances=True)])
    assert names_and_pages(splits) == [("invoice", [1, 2]), ("invoice", [3])]


def till_slip(number: str, closing: str = "", as_table: bool = False) -> Packet:
    """A shop's till slip: a header block, then its number in a title line ("RECEIPT 5713") below the
    heading lines, no number label; the same store and date on every slip."""
    header = ["93 Market Square", "80331 Munich", "Tel. +49 30 189 9040", "DATE 04.06.2025", "12:41"]
    header += [f"RECEIPT {number}", "Till 2"]
    items = [["2 x Green tea", "5.32"], ["1 x Bagel", "2.20"]]
    after = ["SUBTOTAL 7.52", "TOTAL 7.52", "CASH 10.00", "CHANGE 2.48", *([closing] if closing else [])]
    if as_table:
        rows = [[line, ""] for line in header] + items + [[line, ""] for line in after]
        return Packet([Sheet(table=rows)])
    return Packet(
        [Sheet(title="SUNRISE BOOKS", lines=header, table=[["Item", "Amount"], *items], after=after)]
    )


def test_a_new_number_in_a_title_line_below_the_heading_starts_an_instance() -> None:
    pages = parsed(
        till_slip("5713") + till_slip("5714") + purchase_order("PO-4") + till_slip("5715", as_table=True)
    )
    subdocuments = [Subdocument("receipt", allow_multiple_instances=True), Subdocument("purchase_order")]
    assert names_and_pages(split(pages, subdocuments)) == [
        ("receipt", [1]),
        ("receipt", [2]),
        ("purchase_order", [3]),
        ("receipt", [4]),
    ]


def test_a_page_after_one_closing_its_document_starts_an_instance() -> None:
    slip = Packet(
        [Sheet(title="SUNRISE BOOKS", lines=["93 Market Square"], after=["TOTAL", "$7.52", "Card"])]
    )
    closed = Packet(
        [
            Sheet(
                title="SUNRISE BOOKS",
                lines=["93 Market Square"],
                after=["TOTAL", "$7.52", "Card", "Thank you!"],
            )
        ]
    )
    subdocuments = [Subdocument("receipt", allow_multiple_instances=True)]
    assert names_and_pages(split(parsed(closed + slip), subdocuments)) == [("receipt", [1]), ("receipt", [2])]
    assert names_and_pages(split(parsed(slip + slip), subdocuments)) == [("receipt", [1, 2])]


def test_a_new_date_in_the_header_table_starts_an_instance() -> None:
    def slip(date: str) -> str:
        return "\n".join(
            [
                "Harbour Market",
                "203 Market Square",
                "Tel. +1 (212) 555-0120",
                "",
                f"| Date {date} Receipt |  | 17:24 Till 6 |",
                "|---|---|---|",
                "| Apples 1 kg | x1 | 3,49 |",
            ]
        )

    subdocuments = [Subdocument("receipt", allow_multiple_instances=True)]
    assert names_and_pages(split([slip("05/01/2025"), slip("21/09/2025")], subdocuments)) == [
        ("receipt", [1]),
        ("receipt", [2]),
    ]
    assert names_and_pages(split([slip("05/01/2025"), slip("05/01/2025")], subdocuments)) == [
        ("receipt", [1, 2])
    ]


def test_a_total_column_and_a_footer_thanking_do_not_close_a_document() -> None:
    first = Sheet(
        title="INVOICE",
        lines=[
            "ACME Supplies Ltd",
            "Invoice number: INV-31",
            "Item",
            "Qty",
            "Total",
            "Widget",
            "2",
            "$20.00",
        ],
        after=["Thank you for your business."],
    )
    last = Sheet(
        lines=["Gadget", "1", "$5.00", "Total due", "$25.00"], after=["Thank you for your business."]
    )
    subdocuments = [Subdocument("invoice", allow_multiple_instances=True)]
    assert names_and_pages(split(parsed(Packet([first, last])), subdocuments)) == [("invoice", [1, 2])]


def test_a_page_marked_continued_stays_with_the_page_before() -> None:
    packet = invoice("INV-5") + Packet([Sheet(title="Receipt (continued)", lines=["More items below"])])
    subdocuments = [Subdocument("invoice", allow_multiple_instances=True), Subdocument("receipt")]
    assert names_and_pages(split(parsed(packet), subdocuments)) == [("invoice", [1, 2])]


def test_blank_pages_join_the_instance_before_them() -> None:
    packet = invoice("INV-6") + Packet([Sheet()]) + receipt("12")
    subdocuments = [Subdocument("invoice"), Subdocument("receipt")]
    assert names_and_pages(split(parsed(packet), subdocuments)) == [("invoice", [1, 2]), ("receipt", [3])]


def test_descriptions_decide_which_subdocument_a_page_is() -> None:
    subdocuments = [
        Subdocument(
            "bill", "Asks to be paid later: amount due, payment terms", allow_multiple_instances=True
        ),
        Subdocument("proof_of_payment", "Cash register slip: change, thank you for your purchase"),
    ]
    pages = parsed(receipt("1") + invoice("INV-8"))
    assert names_and_pages(split(pages, subdocuments)) == [("proof_of_payment", [1]), ("bill", [2])]


def test_a_page_without_evidence_joins_the_next_instance_unless_instructions_name_it() -> None:
    cover = Packet([Sheet(title="FAX", lines=["To: Accounts payable", "From: ACME Supplies Ltd"])])
    pages = parsed(cover + invoice("INV-12"))
    subdocuments = [Subdocument("invoice"), Subdocument("cover_sheet")]
    assert names_and_pages(split(pages, subdocuments)) == [("invoice", [1, 2])]
    steered = split(
        pages, subdocuments, instructions='A page headed "FAX" is a cover sheet, not an "invoice".'
    )
    assert names_and_pages(steered) == [("cover_sheet", [1]), ("invoice", [2])]


def test_page_numbers_stamped_across_the_whole_packet_are_ignored() -> None:
    pages = [
        "INVOICE\nInvoice number: X-1\nTotal due: 5.00\nPage 1",
        "INVOICE\nInvoice number: X-2\nTotal due: 7.00\nPage 2",
        "INVOICE\nInvoice number: X-3\nTotal due: 9.00\nPage 3",
    ]
    splits = split(pages, [Subdocument("invoice", allow_multiple_instances=True)])
    assert [entry.pages for entry in splits] == [[1], [2], [3]]


def test_odd_input_does_not_break_splitting() -> None:
    assert split([], [Subdocument("invoice")]) == []
    assert names_and_pages(split(["", "  ", "\n"], [Subdocument("a"), Subdocument("b")])) == [
        ("a", [1, 2, 3])
    ]
    with pytest.raises(ValueError, match="at least one subdocument"):
        split(["INVOICE"], [])


def test_a_hundred_pages_split_well_under_a_second(mixed: list[str]) -> None:
    pages = (mixed * 7)[:100]
    subdocuments = [
        Subdocument(name, allow_multiple_instances=True) for name in ("invoice", "receipt", "other")
    ]
    started = time.perf_counter()
    splits = split(pages, subdocuments)
    assert time.perf_counter() - started < HANG_SECONDS
    assert sorted(number for entry in splits for number in entry.pages) == list(range(1, 101))
    assert splits == split(pages, subdocuments)


# --------------------------------------------------------------------------------------- partitions
def test_partitions_group_pages_by_invoice_number_with_continuation_pages() -> None:
    pages = parsed(invoice("INV-1", pages=2) + invoice("INV-2") + invoice("INV-3", pages=3))
    assert partition(pages, "invoice number") == [
        Partition("INV-1", [1, 2]),
        Partition("INV-2", [3]),
        Partition("INV-3", [4, 5, 6]),
    ]


@pytest.mark.parametrize(
    "label", ["Invoice No.", "Invoice #", "INVOICE NUMBER", "invoice_number", "Invoice Nr"]
)
@pytest.mark.parametrize("key", ["invoice number", "Invoice #", "invoice_number", "InvoiceNo"])
def test_labels_match_whatever_their_case_spacing_and_punctuation(label: str, key: str) -> None:
    pages = [f"ACME\n{label}: 2026-17\nTotal 5.00", "| Item | Amount |\n|---|---|\n| Widget | 5.00 |"]
    assert partition(pages, key) == [Partition("2026-17", [1, 2])]


def test_a_number_seen_again_later_rejoins_its_partition_in_order_of_first_appearance() -> None:
    pages = ["Cover sheet", "Invoice #: B-2", "notes", "Invoice #: A-1", "Invoice # b-2", "more notes"]
    assert partition(pages, "invoice number") == [Partition("B-2", [1, 2, 3, 5, 6]), Partition("A-1", [4])]


def test_a_value_in_a_table_or_on_the_next_line_is_found() -> None:
    pages = [
        "| Invoice No | Date |\n|---|---|\n| 4711 | 12/03/2026 |",
        "Invoice number\nINV-9",
        "| PO | Invoice # | Amount |\n|---|---|---|\n| 1 | INV-10 | 5.00 |",
    ]
    assert [entry.key for entry in partition(pages, "invoice number")] == ["4711", "INV-9", "INV-10"]


def test_a_po_number_key_finds_purchase_order_labels_and_ignores_lookalikes() -> None:
    pages = parsed(purchase_order("4500-1") + purchase_order("4500-2"))
    pages += ["Purchase Order No. 4500-3\nPO Box 1234\nOrder date: 01/03/2026", "P.O. #: 4500-3"]
    assert partition(pages, "PO number") == [
        Partition("4500-1", [1]),
        Partition("4500-2", [2]),
        Partition("4500-3", [3, 4]),
    ]


def test_quoted_labels_in_instructions_are_labels_too() -> None:
    pages = ["Bill ref: 881", "Invoice number: 882"]
    assert partition(pages, "invoice number") == [Partition("882", [1, 2])]
    steered = partition(pages, "invoice number", instructions='The number may also be labelled "Bill ref".')
    assert steered == [Partition("881", [1]), Partition("882", [2])]


def test_without_any_value_one_partition_with_an_empty_key_holds_every_page() -> None:
    assert partition(["hello", "world"], "invoice number") == [Partition("", [1, 2])]
    assert partition([], "invoice number") == []
    with pytest.raises(ValueError, match="key"):
        partition(["Invoice #: 1"], "  ")


# ------------------------------------------------------------- whole-page evidence: topic and headers
ARTICLE = (
    "Tobacco companies have long sought to appear as responsible corporate citizens. This article "
    "examines how tobacco industry executives courted health ministers, sponsored community events and "
    "funded youth smoking prevention programmes in order to restore the legitimacy of the tobacco "
    "industry. Tobacco control advocates responded by exposing each sponsorship of the industry, "
    "denormalising tobacco executives and urging governments to refuse any partnership with tobacco "
    "companies. Interviews with tobacco control advocates describe the campaign against industry "
    "sponsorship, the reaction of the tobacco companies and the lessons for tobacco control elsewhere."
)
ARTICLE_FINANCES = (
    "The tobacco industry reported revenue growth and net income that pleased shareholders: the tobacco "
    "companies raised dividends, their operating income rose and their balance sheet showed assets "
    "gained through acquisition of smaller tobacco firms. Tobacco control advocates argued that the "
    "industry's earnings per share depended on selling tobacco to young smokers, and that corporate "
    "sponsorship by tobacco companies was an investment in the legitimacy of the tobacco industry "
    "rather than charity. Advocates asked governments to count tobacco sponsorship as tobacco advertising."
)
WEATHER_STUDY = (
    "Rainfall across the northern river basins was measured at forty stations during the wet season. "
    "The survey recorded flooding of farmland, soil erosion along the riverbanks and the yield of maize, "
    "soybeans and rice in each district. Farmers interviewed for the survey described late planting, "
    "damaged irrigation channels and losses of livestock. Meteorologists compared the rainfall with the "
    "averages of the previous decade and projected the harvest of the coming season for every district, "
    "estimating the maize and soybean yield from the measured rainfall and the planted area. Drought "
    "in the southern plateau lowered the wheat harvest, while cattle herders moved their herds north."
)
PAPER_CATEGORIES = [
    Subdocument("scientific_paper", "A scientific paper: abstract, authors, references.", True),
    Subdocument("financial_report", "A financial report: earnings, balance sheet, income statement.", True),
    Subdocument("report", "A report of an organisation on a topic: findings, sections, tables.", True),
]


def test_a_page_of_an_article_reading_as_another_kind_stays_when_it_keeps_the_articles_topic() -> None:
    pages = [
        "Advocacy in action\nAbstract\n" + ARTICLE + "\nReferences\n1. et al. journal",
        ARTICLE_FINANCES + " " + ARTICLE_FINANCES,
        ARTICLE + "\nConclusion\nReferences\n2. Proceedings of the conference, et al.",
    ]
    assert names_and_pages(split(pages, PAPER_CATEGORIES)) == [("scientific_paper", [1, 2, 3])]


def test_a_page_on_another_topic_leaning_to_another_kind_starts_a_document() -> None:
    leaning = " Findings and tables of the survey, with the results and the analysis of the data set."
    pages = ["Abstract\n" + ARTICLE + "\nReferences\n1. et al. journal", WEATHER_STUDY + leaning]
    assert [pages for _, pages in names_and_pages(split(pages, PAPER_CATEGORIES))] == [[1], [2]]


def test_a_short_page_under_the_same_running_header_and_footer_continues_its_document() -> None:
    header, footer = "Tobacco Control 2004;13:4 advocacy in action", "www.tobaccocontrol.com page footer"
    pages = [
        f"{header}\nAbstract\n{ARTICLE}\nReferences\n{footer} 1",
        f"{header}\nTable 2 Revenue, net income and dividends\n| revenue | 120 |\n{footer} 2",
    ]
    assert names_and_pages(split(pages, PAPER_CATEGORIES)) == [("scientific_paper", [1, 2])]


def test_two_papers_on_unrelated_topics_are_two_documents() -> None:
    pages = [
        "Abstract\n" + ARTICLE + "\nReferences\n1. et al. journal",
        "Abstract\n" + WEATHER_STUDY + "\nReferences\n1. et al. proceedings",
    ]
    assert names_and_pages(split(pages, PAPER_CATEGORIES)) == [
        ("scientific_paper", [1]),
        ("scientific_paper", [2]),
    ]


def test_a_short_title_page_between_two_unrelated_documents_opens_the_second() -> None:
    pages = [
        "Abstract\n" + ARTICLE + "\nReferences\n1. et al. journal",
        "Rainfall and harvest\nSurvey of the northern basins",
        WEATHER_STUDY + " " + WEATHER_STUDY,
    ]
    assert [pages for _, pages in names_and_pages(split(pages, PAPER_CATEGORIES))] == [[1], [2, 3]]


def test_two_short_pages_between_two_unrelated_documents_open_the_second() -> None:
    pages = [
        "Abstract\n" + ARTICLE + "\nReferences\n1. et al. journal",
        "Rainfall and harvest",
        "Survey of the northern basins\nSecond edition",
        WEATHER_STUDY + " " + WEATHER_STUDY,
    ]
    assert [pages for _, pages in names_and_pages(split(pages, PAPER_CATEGORIES))] == [[1], [2, 3, 4]]


def test_a_page_numbered_deep_into_a_document_after_an_unnumbered_page_starts_one() -> None:
    pages = ["Rainfall and harvest\nSurvey of the northern basins", WEATHER_STUDY + "\n273"]
    assert [pages for _, pages in names_and_pages(split(pages, PAPER_CATEGORIES))] == [[1], [2]]


def test_a_page_numbered_deep_into_a_document_after_an_empty_page_or_a_numbered_one_continues() -> None:
    for before in ("", WEATHER_STUDY + "\n272"):
        pages = [before, WEATHER_STUDY + "\n273"]
        assert [pages for _, pages in names_and_pages(split(pages, PAPER_CATEGORIES))] == [[1, 2]]


def test_a_short_page_leaning_a_little_to_another_kind_stays_with_its_document() -> None:
    pages = [
        "Income statement\n" + ARTICLE_FINANCES + " " + ARTICLE_FINANCES,
        "Table 4 Findings and results: the analysis by section of the data",
    ]
    assert names_and_pages(split(pages, PAPER_CATEGORIES)) == [("financial_report", [1, 2])]


def test_a_deck_of_slides_after_a_form_is_labelled_a_presentation_by_its_shape() -> None:
    from tests.unit.test_builtin_classification import PAPER_BOOK_DECK, RESEARCH

    deck = Packet(
        [
            Sheet(title=title, lines=[f"• {line}" for line in RESEARCH[: 1 + index % 3]])
            for index, title in enumerate(["Our method", "The dataset", "Results", "Evaluation"])
        ]
    )
    subdocuments = [Subdocument(category.name, category.description) for category in PAPER_BOOK_DECK]
    found = names_and_pages(split(parsed(application_form() + deck), subdocuments))
    assert found == [("form", [1]), ("presentation", [2, 3, 4, 5])]


# ------------------------------------------------- the segmentation: gaps weighed over the whole packet
def test_a_count_without_the_word_page_numbers_a_document() -> None:
    def faktura(seller: str, page: int, of: int) -> str:
        body = f"Sprzedawca: {seller}\nNabywca: Kawiarnia Róża\n" if page == 1 else "Pozycje\n"
        return f"{body}Chleb razowy 4,20\nBułki 12,00\n{page} z {of}"

    pages = [faktura("Piekarnia", 1, 3), faktura("Piekarnia", 2, 3), faktura("Piekarnia", 3, 3)]
    pages.append(faktura("Młyn", 1, 1))
    subdocuments = [Subdocument("invoice", "An invoice (faktura).", allow_multiple_instances=True)]
    assert names_and_pages(split(pages, subdocuments)) == [("invoice", [1, 2, 3]), ("invoice", [4])]


def test_a_page_named_in_a_sentence_is_no_page_marker() -> None:
    form = "Form 140 Resident Personal Income Tax Return\nYour First Name\nFiling status\nPage {} of 3"
    later = "Your Name (as shown on page 1)\nYour Social Security Number\nDependents\nExemptions\n"
    pages = [form.format(1), form.format(2), later + "Other additions\nOther subtractions"]
    assert names_and_pages(split(pages, [Subdocument("form", allow_multiple_instances=True)])) == [
        ("form", [1, 2, 3])
    ]


def test_bare_folios_that_restart_at_one_start_a_document() -> None:
    def page(folio: int, text: str) -> str:
        return f"{folio}\n{text}"

    visa = "Application for a national visa\nSurname\nFirst name\nNationality\nPurpose of the journey"
    schengen = "Schengen visa\nEmployer and address\nInviting company\nMeans of support\nSignature"
    more = "Residence in another country\nPermit number\nValid until\nPlace and date"
    pages = [page(1, visa), page(2, more), page(1, schengen), page(2, more.upper())]
    found = split(pages, [Subdocument("form", "A form to fill in.", allow_multiple_instances=True)])
    assert [part.pages for part in found] == [[1, 2], [3, 4]]


def test_a_folio_one_at_the_head_after_a_folio_further_at_the_foot_starts_a_document() -> None:
    visa = "Application for a national visa\nSurname\nFirst name\nNationality\nPurpose of the journey"
    schengen = "Schengen visa\nEmployer and address\nInviting company\nMeans of support\nSignature"
    more = "Residence in another country\nPermit number\nValid until\nPlace and date"
    pages = [f"{visa}\n6", f"{more}\n7", f"{schengen}\n1\nTravel\nItinerary", f"2\n{more.upper()}"]
    found = split(pages, [Subdocument("form", "A form to fill in.", allow_multiple_instances=True)])
    assert [part.pages for part in found] == [[1, 2], [3, 4]]


def test_a_page_ending_on_a_date_and_a_signature_to_fill_in_ends_its_document() -> None:
    proxy = "Proxy\nI, the undersigned owner of flat 4,\nappoint Mr/Ms ____________\nto represent me"
    utility = "Water supply\nCustomer: J. Silva\nPeriod: June\nConsumption 12 m3\nTotal due 40.00"
    pages = [f"{proxy}\nDate __________ Signature __________", utility]
    subdocuments = [Subdocument("form", "A form to fill in.", allow_multiple_instances=True)]
    assert [part.pages for part in split(pages, subdocuments)] == [[1], [2]]
    unsigned = [f"{proxy}\nPlease turn over", utility]
    assert [part.pages for part in split(unsigned, subdocuments)] == [[1, 2]]


def test_a_folio_on_the_last_line_stands_in_one_place_on_short_and_long_pages() -> None:
    assert folio(["Title", "Some text", "More text", "Still more", "And more", "Last words", "8"]) == (8, -1)
    assert folio(["Title", "7"]) == (7, -1)
    assert folio(["7", "Title", "Text"]) == (7, 0)


def test_a_figures_scale_of_fractions_is_no_page_marker_but_a_count_alone_is() -> None:
    assert page_marker(["Figure 2", "1/2", "1/4", "1/8", "1/16", "threshold map", "Text of the page"]) is None
    assert page_marker(["Text of the page", "More text", "2/5"]) == (2, 5)
    assert page_marker(["2/5", "Text of the page", "2/5"]) == (2, 5)  # in the header and the footer


def test_the_numbers_of_a_charts_scale_are_no_folio_but_a_spreads_two_folios_are() -> None:
    assert folio(["REANIMATION OF COLD RATS", "40", "30", "20", "Time (min)", "Text"]) is None
    assert folio(["208", "209", "Global Study on Legal Aid", "Annex", "Text"]) == (208, 0)


def test_two_pages_of_a_few_dozen_words_sharing_not_one_are_two_documents() -> None:
    lease = (
        "Lease of the flat\nThe tenant pays the landlord the monthly rent on the first day of each month. "
        "The deposit covers damage to the rooms, the kitchen and the garden. Keys are returned when the "
        "tenancy ends; repairs inside the dwelling fall to the occupant unless caused by ordinary wear. "
        "Pets require written consent, and subletting requires approval."
    )
    gas = (
        "Eastern Mediterranean\nWe're investing to grow offshore Israel and Egypt. Natural gas production "
        "helps reduce greenhouse emissions and improve air quality. Tamar and Leviathan fields export "
        "natural gas to neighboring Jordan. 2.5 kilograms CO2e/boe carbon intensity from operations in "
        "2022; a woman offshore platform engineer employed; electricity powered by these fields."
    )
    subdocuments = [
        Subdocument("contract", "A contract or lease.", allow_multiple_instances=True),
        Subdocument("report", "A report of an organisation on a topic.", allow_multiple_instances=True),
    ]
    assert [part.pages for part in split([lease, gas], subdocuments)] == [[1], [2]]


def test_a_reports_numbering_starting_after_its_cover_keeps_the_cover_with_it() -> None:
    letter = "Dear Ms Lopez,\nplease find the report enclosed.\nYours sincerely,\nAna Ruiz"
    cover = "Association for Computing Machinery\n27 de septiembre de 2015\nINFORME\nDiego Martín"
    body = [
        "Índice\nInforme\n1. Introducción 2\n2. Sección 1 3\nPágina 1 de 3",
        "Informe\nIntroducción\nEl informe describe la sección primera del estudio.\nPágina 2 de 3",
        "Informe\nConclusiones\nLas conclusiones del estudio cierran el informe.\nPágina 3 de 3",
    ]
    subdocuments = [
        Subdocument("letter", "A letter.", allow_multiple_instances=True),
        Subdocument("report", "A report (informe) of an organisation.", allow_multiple_instances=True),
    ]
    assert [part.pages for part in split([letter, cover, *body], subdocuments)] == [[1], [2, 3, 4, 5]]


def test_a_page_in_another_script_is_another_document_even_without_evidence_of_its_kind() -> None:
    persian = "بررسی دیدگاه و نظرات کتابداران و اعضای هیئت علمی دانشگاه شیراز درباره کتابخانه دیجیتال " * 3
    pages = ["Abstract\n" + ARTICLE + "\nReferences\n1. et al. journal", persian]
    assert [pages for _, pages in names_and_pages(split(pages, PAPER_CATEGORIES))] == [[1], [2]]


def test_a_running_footer_beginning_on_a_page_starts_a_document_there() -> None:
    footer = "http://tobaccocontrol.bmj.com/ downloaded from"
    contract = [
        "SPECIAL POWER OF ATTORNEY\nKnow all men by these presents that I appoint my agent to act.",
        "Signature of the principal\nDated: ........\nNotary Public",
    ]
    article = [
        f"{WEATHER_STUDY}\nRainfall 2004\n{footer}",
        f"{WEATHER_STUDY}\nTable 2\nRainfall 2004\n{footer}",
    ]
    subdocuments = [*PAPER_CATEGORIES, Subdocument("contract", "A contract or power of attorney.", True)]
    assert [part.pages for part in split(contract + article, subdocuments)] == [[1, 2], [3, 4]]


def test_one_template_filled_in_twice_is_two_documents_but_a_page_repeated_is_one() -> None:
    def membership(name: str, born: str) -> str:
        labels = ["Riverside Fitness Club", "Customer services", "Membership application"]
        fields = ["Applicant name", name, "Date of birth", born, "Plan", "Pro (35/month)", "Signature"]
        return "\n".join(labels + fields)

    subdocuments = [Subdocument("form", "An application form.", allow_multiple_instances=True)]
    two = split(
        [membership("Sofia Dubois", "15/09/1997"), membership("Kenji Haddad", "13/09/1969")], subdocuments
    )
    assert [part.pages for part in two] == [[1], [2]]
    same = membership("Sofia Dubois", "15/09/1997")
    assert [part.pages for part in split([same, same], subdocuments)] == [[1, 2]]


def test_a_new_title_counts_though_a_line_read_as_a_title_repeats() -> None:
    def application(issuer: str, title: str, fields: list[str]) -> str:
        return "\n".join([issuer, "Customer services", "PO Box 4410", title.upper(), *fields])

    pages = [
        application("Northwind Energy", "Customer account application", ["Meter number", "Tariff"]),
        application("Harbor Credit Union", "Online banking application", ["Account holder", "IBAN"]),
    ]
    found = split(pages, [Subdocument("form", "An application form.", allow_multiple_instances=True)])
    assert [part.pages for part in found] == [[1], [2]]


def test_letters_in_a_row_split_at_each_salutation_and_each_closing_formula() -> None:
    body = [
        "wir danken Ihnen für Ihre Anfrage vom letzten Monat und senden Ihnen gern die Unterlagen.",
        "Die Lieferung erfolgt wie besprochen an die angegebene Adresse in der nächsten Woche.",
    ]
    first = [
        "München, 3. Mai 2024",
        "Sehr geehrte Frau Berger,",
        *body,
        "Mit freundlichen Grüßen",
        "Max Meier",
    ]
    second_opening = ["Sehr geehrter Herr Huber,", *body, *body]  # a letter of two pages, undated
    second_end = [*body, "Mit freundlichen Grüßen", "Max Meier"]
    pages = ["\n".join(lines) for lines in (first, second_opening, second_end)]
    subdocuments = [Subdocument("letter", "A personal or business letter.", allow_multiple_instances=True)]
    assert [s.pages for s in split(pages, subdocuments)] == [[1], [2, 3]]


def test_slides_numbered_from_one_after_their_unnumbered_title_slide_stay_one_deck() -> None:
    from tests.unit.test_builtin_classification import PAPER_BOOK_DECK

    form = "Antrag auf Wohngeld\nName\nVorname\nGeburtsdatum\nAnschrift\nUnterschrift\nSeite 1 von 1"
    title = "Un modèle de présentation\nAvec LaTeX et Beamer\nPrénom NOM\nUniversité de Lille\n1er mai 2018"
    slides = [
        "Plan\n1. Introduction\n2. Le reste\nUn modèle de présentation\n1 / 3",
        "Un exemple\n• un point\n• un autre point\nUn modèle de présentation\n2 / 3",
        "La première diapo\n• un truc\n• un bloc important\nUn modèle de présentation\n3 / 3",
    ]
    subdocuments = [Subdocument(category.name, category.description, True) for category in PAPER_BOOK_DECK]
    found = names_and_pages(split([form, title, *slides], subdocuments))
    assert found == [("form", [1]), ("presentation", [2, 3, 4, 5])]


def test_an_unnumbered_slide_after_one_promising_more_pages_stays_in_its_deck() -> None:
    from tests.unit.test_builtin_classification import PAPER_BOOK_DECK

    title = "Master Thesis Title\nGraduate student\nThesis supervisor\nDefence date"
    slides = [
        "Our Method\n1 Idea:\nWe tag every page with the words it shares with its neighbours.\n2 / {of}",
        "Results\nThe tagging\nNine of twelve packets are split exactly.\n3 / {of}",
    ]
    letter = "Dear Ms Smith,\nthank you for your letter of 3 May.\nYours sincerely,\nJohn Doe"
    subdocuments = [Subdocument(category.name, category.description, True) for category in PAPER_BOOK_DECK]
    # the closing slide repeats the title slide
    promised = [title, *(slide.format(of=4) for slide in slides), title, letter]
    assert names_and_pages(split(promised, subdocuments))[0] == ("presentation", [1, 2, 3, 4])
    complete = [title, *(slide.format(of=3) for slide in slides), letter]
    assert names_and_pages(split(complete, subdocuments))[0] == ("presentation", [1, 2, 3])


def test_a_numbered_section_heading_naming_a_kind_is_no_new_title() -> None:
    first = (
        "Annual survey of the river basins\n1. Rainfall\n"
        + WEATHER_STUDY
        + "\nThe survey covered every district of the northern basins."
    )
    second = "2. Financial report\n" + WEATHER_STUDY
    assert [part.pages for part in split([first, second], PAPER_CATEGORIES)] == [[1, 2]]


def test_a_part_that_takes_in_a_page_without_evidence_is_labelled_as_its_pages_sent_alone() -> None:
    from docsvc.intelligence.classification import Category, classify

    from tests.unit.test_builtin_classification import PAPER_BOOK_DECK

    categories = [*PAPER_BOOK_DECK, Category("report", "A report of an organisation: findings, sections.")]
    slides = [
        "Key findings\n• Rivers rose early\n• Farms flooded\n1",
        "The harvest\n• Maize fell\n• Rice held\n2",
        "Next season\n• Plant later\n• Repair channels\n7",  # its folio breaks the run: a weak boundary
    ]
    found = split(slides, [Subdocument(c.name, c.description, True) for c in categories])
    assert names_and_pages(found) == [(classify(slides, categories).category, [1, 2, 3])]
    assert found[0].name == "presentation"


def test_papers_in_a_row_split_at_the_abstract_and_affiliations_of_each() -> None:
    body = (
        "The network learns to segment the scanned pages into text lines, and the training images are "
        "annotated by hand; the segmentation network reaches a higher accuracy on the scanned pages than "
        "the baseline segmentation, and the text lines of the test images are found with fewer errors."
    )

    def front(title: str, mail: str) -> str:
        return "\n".join(
            [
                title,
                "Ana Souza and Rui Lima",
                f"Department of Computer Science, {mail}",
                "Abstract",
                body,
                body,
            ]
        )

    pages = [
        front("Segmenting text lines in scanned pages", "ana@uni-a.edu"),
        f"{body}\n{body}\n2",
        front("Learning to segment scanned text lines", "rui@uni-b.edu"),
        f"{body}\n{body}\n2",
    ]
    assert [part.pages for part in split(pages, PAPER_CATEGORIES)] == [[1, 2], [3, 4]]


def test_two_pages_in_one_language_share_no_topic_through_its_function_words() -> None:
    from docsvc.intelligence.splitting import cohesion, read_signals

    dairy = (
        "A fazenda registra a produção de leite das búfalas para o controle do manejo com uma planilha "
        "e os dados são enviados pelo aplicativo ao produtor que acompanha as vacas. "
    )
    firmware = (
        "O firmware do microcontrolador deve ser robusto para que a atualização remota não falhe com uma "
        "queda de energia e os testes são feitos pelo sistema em cada placa. "
    )
    first, second = (read_signals(text * 5, [], []) for text in (dairy, firmware))
    topic = cohesion(first, second)
    assert topic is not None and topic < 0.07


def test_the_body_after_a_title_pages_blank_back_stays_with_its_title_page() -> None:
    invoice_page = "Invoice INV-7\nInvoice date: 2024-03-01\nTotal due: 120.00 EUR\nVAT 20.00 EUR"
    title = "Research proposal\nSoil moisture in maple stands\nJane Doe"
    body = "Introduction\n" + WEATHER_STUDY + "\nThe method and the results follow; references close it."
    found = names_and_pages(split([invoice_page, title, "", body, body + "\n3"], PAPER_CATEGORIES))
    assert [pages for _, pages in found][-1] == [2, 3, 4, 5]


def test_dates_listed_down_a_page_are_no_date_of_a_document() -> None:
    from docsvc.intelligence.splitting import read_signals

    chain = "Technical review: J. Wilson\nDate: 12/07/2024\nQuality approval: M. Garcia\nDate: 12/08/2024"
    assert read_signals(chain, [], []).date is None
    assert read_signals("Order\nDate: 12/07/2024\nShip to: Austin", [], []).date == "12/07/2024"


def test_a_letters_short_last_page_is_not_compared_through_to_the_next_documents_title() -> None:
    letter = (
        "Gentile Proprietario,\nè convocata l'assemblea condominiale del condominio Aurora presso la sala "
        "riunioni per discutere e deliberare sul bilancio, sul preventivo delle spese e sui lavori di "
        "manutenzione straordinaria del condominio; in caso di impossibilità a partecipare il proprietario "
        "può delegare un altro condomino con il modulo di delega, e la validità della convocazione "
        "dell'assemblea è subordinata alla presenza dei condomini che rappresentino i millesimi."
    )
    last = (
        "Milano, 29/10/2024\nL'amministratore\nDELEGA\nIl sottoscritto proprietario dell'appartamento "
        "delega il signor a rappresentarlo nell'assemblea condominiale del condominio Aurora"
    )
    order = (
        "PURCHASE ORDER\nVendor: Quantum Electronics Manufacturing, Hoofdorp\nShip to: Global Tech "
        "Solutions, Austin\nPayment terms: net 45, shipping terms delivered duty paid, insurance required, "
        "preferred carrier DHL or FedEx, required delivery date in January; all shipments must include a "
        "certificate of conformance, sensitive items packaged, partial shipments accepted on approval, "
        "quote the number on every correspondence with the buyer and the supplier."
    )
    subdocuments = [
        Subdocument("letter", "A personal or business letter.", True),
        Subdocument("purchase_order", "A purchase order from a buyer to a seller.", True),
    ]
    from docsvc.intelligence.classification import build_profiles
    from docsvc.intelligence.splitting import ALIASES, gap_evidence, read_signals

    pages = [letter + "\n" + letter, last, order + "\n" + order]
    assert [part.pages for part in split(pages, subdocuments)] == [[1, 2], [3]]
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments])
    evidence = gap_evidence([read_signals(page, profiles, list(ALIASES)) for page in pages])
    assert "no topic shared with the page before" not in [item.reason for item in evidence[1]]


def test_a_sheet_of_a_couple_dozen_words_sharing_none_with_a_long_page_before_shares_no_topic() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    log = (
        "Kurzwellen Logbuch Jahr Datum Zeit Beginn Ende Rufzeichen gegeben erhalten Band Frequenz Modus "
        "Bemerkungen Operator Bestätigung Karte versandt Karte empfangen Sender Leistung Antenne Standort"
    )
    signals = [read_signals(text, [], []) for text in (WEATHER_STUDY, log)]
    assert "no topic shared with the page before" in [item.reason for item in gap_evidence(signals)[1]]


REFERENCES = (
    "References\n[1] K. S. Bersha, Spectral imaging and analysis of human skin. University of Eastern "
    "Finland, 2010.\n[2] A. D. Perez, Optical diffuse reflection in biological tissue. Zacatenco, 2012.\n"
    "[3] Hunter Associates Laboratory, Universal Software versions 4.10 and above: user's manual. Reston, "
    "Virginia, 2001.\n[4] I. Sommerville, Software engineering, seventh edition. Madrid: Pearson, 2005.\n"
    "[5] J. Wagner et al., Comparing quantitative measures of erythema, pigmentation and skin response "
    "using reflectometry. Pigment Cell Research, 2002.\n[6] F. Narea et al., Recovering the absorption "
    "coefficient of the epidermis in human skin. Spanish Optical Society, 2015.\n[7] Absorption spectrum. "
    "Random House Kernerman Webster's College Dictionary, New York, 2010."
)


def test_a_page_of_references_sharing_no_words_with_the_body_ends_its_document() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    pages = [ARTICLE + "\n" + ARTICLE, REFERENCES]
    signals = [read_signals(text, [], []) for text in pages]
    assert "no topic shared with the page before" in [item.reason for item in gap_evidence(signals)[1]]
    assert [part.pages for part in split(pages, PAPER_CATEGORIES)] == [[1, 2]]


def test_an_orders_references_label_is_no_list_of_references() -> None:
    from docsvc.intelligence.classification import heads_references

    order = ["PURCHASE ORDER", "Order number: PO-2024-117", "References:", "Contract CT-88", "Quote Q-17"]
    assert not heads_references(order)
    assert heads_references(["Conclusion", "We showed it works.", "References", "[1] A. Author. 2019."])


def test_a_short_page_keeping_the_running_footer_is_its_documents_not_compared_through() -> None:
    footer = "Iambic Keyer Shield - Construction Manual and Reference"
    manual = (
        "Troubleshooting\nComponent failures are very rare: look for obvious problems first. The first "
        "problem is a soldering error; most bad parts are due to a soldering error causing an overload. "
        "If the display does not work, plug in a key to hear the sidetone; if the sidetone works, the "
        "display is the problem: adjust the trim pot first. The display is connected to the board, "
        "except for the backlight switched by the transistor. Check the resistors and capacitors, the "
        "phone jacks and the speaker, then try some headphones."
    )
    appendix = (
        "Appendix A: Schematic\nAppendix B: Hardware Specifications\nPower: 50-200mA\n"
        "Radio jack: up to 60V 200mA 400mW with positive or negative keying\nPhones jack: 250mW at 4 ohms"
    )
    subdocuments = [
        Subdocument("technical_documentation", "A technical manual or handbook.", True),
        Subdocument("report", "A report of an organisation on a topic: findings, sections.", True),
    ]
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    pages = [f"{manual}\n{manual}\n{footer}", f"{appendix}\n{footer}", WEATHER_STUDY + " " + WEATHER_STUDY]
    evidence = gap_evidence([read_signals(page, [], []) for page in pages])
    assert "no topic shared with the page before" not in [item.reason for item in evidence[1]]
    assert [part.pages for part in split(pages, subdocuments)] == [[1, 2], [3]]


def test_a_page_in_another_language_than_the_latest_page_telling_one_starts_a_document() -> None:
    from docsvc.intelligence.splitting import gap_evidence, language_of, read_signals

    spanish = (
        "El software permite conectar y calibrar el equipo, realizar las mediciones y mostrar los datos "
        "obtenidos con una interfaz sencilla; los usuarios y las muestras se gestionan como en el manual. "
    )
    figures = "FIGURA 2. Vista principal\nFIGURA 3. Curva de reflectancia\n| 1 | 2 | 3 |"
    slide = (
        "Debugging mit dem Arduino\n• Ausgabe von Werten über die serielle Schnittstelle\n"
        "• Keine Breakpoints möglich, das ist der Nachteil\n• Eventuell sind Pausen notwendig"
    )
    assert (language_of(spanish), language_of(figures), language_of(slide)) == ("es", None, "de")
    signals = [read_signals(text, [], []) for text in (spanish * 3, figures, slide)]
    assert "another language" in [item.reason for item in gap_evidence(signals)[2]]


def test_a_numbered_forms_title_repeated_with_its_revision_on_its_next_page_is_no_new_title() -> None:
    fields = "Name of taxpayer\nSocial security number\nOld address\nNew address\nSignature\nDate"
    instructions = (
        "General instructions\nPurpose of this notice: use it to tell the office your home or business "
        "address changed.\nWhere to file: send it to the office for the area of your old address.\n"
        "Signature: the taxpayer signs the notice; an agent signs with a power of attorney."
    )
    first = "Form 8822\nChange of Address\n" + fields
    second = "Form 8822 (Rev. 2-2018)\nPage 2\n" + instructions
    other = "Form 4506\nRequest for Copy of Tax Return\n" + fields.replace("Old address", "Tax year")
    subdocuments = [Subdocument("form", "A form to fill in: fields, boxes, signature.", True)]
    assert [part.pages for part in split([first, second, other], subdocuments)] == [[1, 2], [3]]


MANUAL_OF_A_TEMPLATE = (
    "Invoice template: user guide\n"
    "1 Installation\n"
    "Copy the template class into the folder of your document and load it with the command usepackage. "
    "The template sets the company data, the customer data and the invoice table with its own commands. "
    "Each command takes its value in braces; a command left empty prints nothing on the invoice.\n"
    "2 Company data\n"
    "The commands companyname, companystreet and companytown set the sender block of the template. "
    "The command companyiban sets the bank account printed in the footer of the template. The commands "
    "customername and customerstreet set the customer block; the command invoicetable opens the table "
    "of items, each command item adding a row with its quantity and price.\n"
    "{folio}"
)
EXAMPLE_INVOICE_PAGE = (
    "Invoice\n"
    "Invoice date 21.04.2024\n"
    "Dear customer,\n"
    "Figure 2: the template's invoice with the customer data and the invoice table set by the commands.\n"
    "The commands customername, customerstreet and customertown set the customer block of the template. "
    "The command invoicetable opens the table of the template; each command item adds a row with its "
    "quantity and price, and the command total closes the table with the amount due. The template "
    "prints the company data of the sender block and the bank account of the footer as the commands "
    "companyname, companystreet and companyiban set them; a command left empty prints nothing, and "
    "the class loads its own fonts and colours for the sender block and the table of items.\n"
    "{folio}"
)
TEMPLATE_GUIDE_SUBDOCUMENTS = [
    Subdocument("technical_documentation", "A technical manual, handbook or developer guide.", True),
    Subdocument("invoice", "An invoice: invoice number, dates, amounts due.", True),
]


def test_a_manuals_page_numbered_on_and_on_its_topic_showing_an_example_invoice_stays_in_the_manual() -> None:
    pages = [MANUAL_OF_A_TEMPLATE.format(folio=3), EXAMPLE_INVOICE_PAGE.format(folio=4)]
    assert [part.pages for part in split(pages, TEMPLATE_GUIDE_SUBDOCUMENTS)] == [[1, 2]]


def test_an_invoice_titled_and_greeting_its_reader_after_a_manual_numbered_apart_is_cut_from_it() -> None:
    pages = [MANUAL_OF_A_TEMPLATE.format(folio=3), EXAMPLE_INVOICE_PAGE.format(folio=1)]
    assert [part.pages for part in split(pages, TEMPLATE_GUIDE_SUBDOCUMENTS)] == [[1], [2]]


LAB_REPORT_PAGE = (
    "The current through the electrolyte was kept constant while the copper settled on the cathode. "
    "The mass of each electrode was measured before and after the run on an electronic balance."
)


def test_a_sections_number_at_the_top_of_a_page_does_not_hide_its_folio_at_the_foot() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    before = f"{LAB_REPORT_PAGE}\n{LAB_REPORT_PAGE}\n2"
    page = f"2\nCarrying out the experiment\n{LAB_REPORT_PAGE}\n3"
    evidence = gap_evidence([read_signals(text, [], []) for text in (before, page)])
    assert "the folios follow" in [item.reason for item in evidence[1]]


def test_a_references_line_ending_a_sentence_on_a_kind_is_no_title() -> None:
    from docsvc.intelligence.splitting import ALIASES, title_lines

    titles = list(ALIASES)
    assert title_lines(
        ["[vL09]", "Axel van Lamsweerde. Requirements", "Specifications. Wiley, 2009."], titles
    ) == (frozenset())
    assert title_lines(["Technical specification", "Version 2"], titles) == frozenset(
        {"technical specification"}
    )


def test_a_short_last_page_is_not_compared_through_to_a_page_in_another_script() -> None:
    rows = "\n".join(
        f"{name}\n{amount},000.00"
        for name, amount in [
            ("Petty Cash", 5),
            ("Accounts Receivable", 590),
            ("Prepaid Expenses", 808),
            ("Office Furniture and Fixtures", 120),
            ("Computer Equipment", 95),
            ("Vehicles and Machinery", 300),
            ("Security Deposits Paid", 45),
            ("Inventory of Brochures", 12),
            ("Advances to Suppliers", 60),
            ("Accrued Interest Income", 8),
            ("Trade Payables", 210),
            ("Provision for Gratuity", 40),
        ]
    )
    sheet = (
        "Balance Sheet\nAs of 30/04/2023\nAccount\nTotal\nAssets\nCurrent Assets\n"
        + rows
        + "\nTotal for Current Assets\n1,403,000.00\nLiabilities and Equities\nCurrent Liabilities\n"
        "Salary Payable\n100,000.00\nUnearned Revenue\n590,000.00\nTotal for Current Liabilities\n"
        "690,000.00\nTotal for Liabilities\n690,000.00\nOther current assets\nInput tax credits\n"
        "Total for Other current assets\nBank\nCash\nTotal for Bank\nTotal for Cash"
    )
    last = (
        "Account\nTotal\nEquities\nInvestments\n100,000.00\nCurrent Year Earnings\n195,000.00\n"
        "Total for Equities\n295,000.00\nTotal for Liabilities and Equities\n985,000.00\n"
        "Amount is displayed in your base currency"
    )
    arabic = (
        "بين كل من السيد الجنسية والمقيم طرف أول شريك متضامن والسيد الجنسية والمقيم طرف ثان شريك متضامن "
        "بعد أن أقر الطرفين بأهليتهما للتصرف والتعاقد اتفقا على تكوين شركة تضامن فيما بينهما بالشروط "
        "الآتي بيانها اسم الشركة والسمة التجارية لها وغرض الشركة ومركز الشركة ورأس مال الشركة "
    ) * 2
    subdocuments = [
        Subdocument("financial_report", "A financial report: balance sheet, income statement.", True),
        Subdocument("contract", "A contract or agreement between parties.", True),
    ]
    from docsvc.intelligence.classification import build_profiles
    from docsvc.intelligence.splitting import ALIASES, gap_evidence, read_signals

    pages = [sheet, last, arabic, arabic]
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments])
    evidence = gap_evidence([read_signals(page, profiles, list(ALIASES)) for page in pages])
    assert "no topic shared with the page before" not in [item.reason for item in evidence[1]]
    assert [part.pages for part in split(pages, subdocuments)] == [[1, 2], [3, 4]]


def test_a_page_titled_balance_sheet_after_a_letter_on_money_opens_a_financial_report() -> None:
    from docsvc.intelligence.classification import build_profiles
    from docsvc.intelligence.splitting import ALIASES, gap_evidence, read_signals

    subdocuments = [
        Subdocument("letter", "A personal or business letter.", True),
        Subdocument("financial_report", "A financial report: annual results, income statement.", True),
    ]
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments])
    page = read_signals(
        "TravelTrax Tours\nBalance Sheet\nAs of 30/04/2023\nAccount\nTotal", profiles, list(ALIASES)
    )
    assert page.titles, "an English balance sheet's name is a title, as the other languages' are"
    evidence = gap_evidence([read_signals("Dear Sir,\nI hold savings.", profiles, list(ALIASES)), page])
    assert "a new title" in [item.reason for item in evidence[1]]


def test_a_heading_naming_a_kind_not_asked_for_on_the_pages_topic_is_no_new_document() -> None:
    from docsvc.intelligence.splitting import names_unasked_kinds
    from docsvc.intelligence.vocabulary import ALIASES, phrase

    first = "Annual survey of the river basins\n" + WEATHER_STUDY
    appendix = "STATEMENT\nThe survey was written by its authors alone.\n" + WEATHER_STUDY
    assert [part.pages for part in split([first, appendix], PAPER_CATEGORIES)] == [[1, 2]]
    # the same heading over a page on another topic still opens a document
    assert (
        len(split(["Abstract\n" + ARTICLE + "\nReferences\n1. et al. journal", appendix], PAPER_CATEGORIES))
        == 2
    )
    # a statement is asked for when a subdocument is one: then its title opens a document
    from docsvc.intelligence.classification import build_profiles

    titles = [*ALIASES, *(phrase(sub.name) for sub in PAPER_CATEGORIES)]
    papers = build_profiles([(sub.name, sub.description) for sub in PAPER_CATEGORIES])
    statements = build_profiles([("bank_statement", "A bank statement: balances, transactions.")])
    assert names_unasked_kinds(["STATEMENT"], titles, papers)
    assert not names_unasked_kinds(["STATEMENT"], titles, statements)
    assert not names_unasked_kinds(["Financial report"], titles, papers)


def test_an_invoice_signed_for_its_company_above_its_signatory_signs_no_letter_off() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    from tests.unit.test_builtin_classification import INDIAN_TAX_INVOICE

    greeted = INDIAN_TAX_INVOICE.replace("TAX INVOICE", "Dear Customer,")
    letter = "Dear Mr Rao,\nWe confirm your order of steel brackets.\nFor ACME Traders Pvt. Ltd.,\nA. Prasad"
    for before, signs in ((INDIAN_TAX_INVOICE, False), (greeted, False), (letter, True)):
        signals = [read_signals(text, [], []) for text in (before, INDIAN_TAX_INVOICE)]
        reasons = [item.reason for item in gap_evidence(signals)[1]]
        assert ("the page before signed a letter off" in reasons) == signs, before


def test_a_kind_word_in_a_list_of_names_is_no_title() -> None:
    from docsvc.intelligence.splitting import ALIASES, title_lines

    titles = list(ALIASES)
    # "Manuel" spells a manual in French, but between two names it is a name of a slide's list
    assert title_lines(["Personagens", "Oliver", "Manuel", "Ada", "Antônio"], titles) == frozenset()
    assert title_lines(["Manuel", "Version 2.1 du logiciel"], titles) == frozenset({"manuel"})
    # a kind word among names that are kinds, or upper-case names, stays a title
    assert title_lines(["ACME", "Invoice", "Bill"], titles) == frozenset({"invoice"})


def test_pages_without_evidence_between_sure_cuts_stay_one_instance() -> None:
    from docsvc.intelligence.splitting import Instance, _without_empty

    letter = Instance([0], [2.0, 0.0])
    first_slide = Instance([1], [0.0, 0.0], likelihood=0.95, opening=0.95)
    more_slides = Instance([2, 3], [0.0, 0.0], likelihood=0.55, opening=0.55)  # a weak cut inside
    invoice = Instance([4], [0.0, 3.0], likelihood=0.95, opening=0.95)
    kept = _without_empty([letter, first_slide, more_slides, invoice])
    assert [instance.pages for instance in kept] == [[0], [1, 2, 3], [4]]


def test_a_page_without_evidence_goes_across_the_weaker_of_its_cuts() -> None:
    from docsvc.intelligence.splitting import Instance, _without_empty

    def packet(opening: float, closing: float) -> list[list[int]]:
        instances = [
            Instance([0], [2.0, 0.0]),
            Instance([1], [0.0, 0.0], likelihood=opening, opening=opening),
            Instance([2, 3], [0.0, 3.0], likelihood=closing, opening=closing),
        ]
        return [instance.pages for instance in _without_empty(instances)]

    assert packet(opening=0.95, closing=0.55) == [[0], [1, 2, 3]]  # opened surely: it opens the next
    assert packet(opening=0.55, closing=0.95) == [[0, 1], [2, 3]]  # closed surely: it ends the one before


def test_a_page_count_in_a_headers_two_cells_is_a_page_marker() -> None:
    assert page_marker(["2 || 4", "", "1. General information"]) == (2, 4)
    assert page_marker(["3 | 4", "2. Getting started"]) == (3, 4)
    # a table's row of numbers starts with its bar: no marker
    assert page_marker(["| 2 | 4 |", "Results"]) is None


FIELDS_PAGE = (
    "Application for a room in a student house of Northbridge Technical University\n"
    "Full name: ........ Faculty: ........ Album number: ........ Telephone: ........\n"
    "Permanent address of the applicant: ........ Correspondence address if different: ........\n"
    "Distance from home in kilometres: ........ Travel difficulty: none, train or bus, train and bus "
    "and walking more than two kilometres, ferry crossing\n"
    "Number of persons in the family: ........ Average monthly income per person in the previous year "
    "after tax: ........ Disability certificate: yes no. Orphan: yes no. Pregnancy: yes no.\n"
    "Preferred house: Aurora, Borealis, Cedar, Dunes. Preferred roommate: ........ Smoking: yes no.\n"
    "Bicycle parking needed: yes no. Parking permit for a car: yes no. Pets: yes no."
)
DECLARATIONS_PAGE = (
    "Aware of criminal, civil and disciplinary liability for giving false data, I declare that all "
    "data contained herein and in the attached documents agree with the actual state of affairs.\n"
    "Date and signature of the student\n"
    "I declare that I have read the regulations on benefits for students of Northbridge Technical "
    "University (ordinance of the rector, September 2019) and accept them without reservation.\n"
    "Date and signature of the student\n"
    "I acknowledge that notices concerning this request, including any need to complete the "
    "paperwork, will be sent through the electronic service of the dean's office only.\n"
    "Date and signature of the student\n"
    "A completed request must be handed in before the deadline announced each spring, together with "
    "proof of earnings; otherwise it is rejected without further consideration or appeal."
)


def test_a_page_naming_again_the_name_the_page_before_gave_keeps_its_topic() -> None:
    from docsvc.intelligence.splitting import gap_evidence, proper_names, read_signals

    assert "northbridge technical" in proper_names(FIELDS_PAGE)
    assert proper_names("POLITECHNIKA POZNAŃSKA\nDate and signature") == frozenset()
    named = [read_signals(text, [], []) for text in (FIELDS_PAGE, DECLARATIONS_PAGE)]
    assert "no topic shared with the page before" not in [item.reason for item in gap_evidence(named)[1]]
    unnamed = DECLARATIONS_PAGE.replace("Northbridge Technical University", "the university")
    signals = [read_signals(text, [], []) for text in (FIELDS_PAGE, unnamed)]
    assert "no topic shared with the page before" in [item.reason for item in gap_evidence(signals)[1]]


def test_a_bilingual_deck_keeps_its_frame_across_a_page_in_its_other_script() -> None:
    from tests.unit.test_builtin_classification import PAPER_BOOK_DECK

    frame = "Outline Introduction"
    arabic = "مقدمة العرض التقديمي عن الصف بيمر "
    slides = [
        f"{frame}\nOverview of the Beamer class\nFeatures of the class: overlays, themes, no external "
        f"programs needed, and a normal LaTeX class.\n{arabic}\n{frame}",
        f"{frame}\n" + arabic * 6 + f"\n{frame}",
    ]
    subdocuments = [Subdocument(category.name, category.description, True) for category in PAPER_BOOK_DECK]
    assert [part.pages for part in split(slides, subdocuments)] == [[1, 2]]


def test_a_page_in_a_script_the_page_before_never_wrote_opens_a_document_under_a_shared_line() -> None:
    from tests.unit.test_builtin_classification import PAPER_BOOK_DECK

    frame = "Outline Introduction"
    slides = [
        f"{frame}\nOverview of the Beamer class\nFeatures of the class: overlays, themes, no external "
        f"programs needed, and a normal LaTeX class.\n{frame}",
        f"{frame}\n" + "مقدمة العرض التقديمي عن الصف بيمر " * 6 + f"\n{frame}",
    ]
    subdocuments = [Subdocument(category.name, category.description, True) for category in PAPER_BOOK_DECK]
    assert [part.pages for part in split(slides, subdocuments)] == [[1], [2]]


def test_the_tail_of_a_sentence_naming_a_kind_at_a_pages_top_is_no_new_title() -> None:
    from docsvc.intelligence.splitting import carries_sentence_on, gap_evidence, read_signals
    from docsvc.intelligence.vocabulary import ALIASES

    clauses = (
        "The Buyer shall inspect the goods delivered by the Seller within eight days of their receipt\n"
        "and report any defect found in writing to the address of the Seller given in the preamble.\n"
    )
    carried = (
        "The Buyer bears the risk of loss of the goods from the moment they are handed over under\n"
        "this contract.\n"
        "Article 6\n" + clauses
    )
    titled = "Article 6\nContract\n" + clauses
    lines = carried.splitlines()
    assert carries_sentence_on(lines, 1)
    assert not carries_sentence_on(["Acme GmbH", "Hauptstraße 1", "contract"], 2)
    assert not carries_sentence_on(titled.splitlines(), 1)
    titles = list(ALIASES)
    for page, renamed in ((carried, False), (titled, True)):
        signals = [read_signals(text, [], titles) for text in ("Sales contract\n" + clauses, page)]
        reasons = [item.reason for item in gap_evidence(signals)[1]]
        assert ("a new title" in reasons) is renamed


def test_two_letters_of_one_sender_on_one_letterhead_split_at_the_second_salutation() -> None:
    letterhead = ["Kapitän Hook", "Piraten GmbH", "Bucht der Totenkopfinsel", "Nimmerland"]
    body = [
        "nachdem es mir gelungen ist, das Krokodil an die Kette zu legen, warte ich sehnsüchtig darauf,",
        "dich zu einem Zweikampf auf die Totenkopfinsel einzuladen, den du nicht ablehnen wirst.",
        "Da es schade wäre, wenn du statt durch meinen neuen Liebling durch eine Blutvergiftung",
        "dahingerafft würdest, werde ich bei unserem Kampf meinen silbernen Sonntagshaken tragen.",
        "Ich hoffe, du wirst diese Ehre zu schätzen wissen und pünktlich zur Flut am Strand sein,",
        "wo meine Mannschaft die Fahnen hisst und die Kanonen des Schiffes zum Gruß abfeuert.",
    ]
    # the same letterhead and the same words on both pages: only the second greeting tells them apart
    pages = [
        "\n".join([*letterhead, "12. März 2018", f"{name},", *body, "In freundlichster Feindschaft", "Hook"])
        for name in ("Bester Feind", "Liebster Feind")
    ]
    subdocuments = [Subdocument("letter", "A personal or business letter.", allow_multiple_instances=True)]
    assert [s.pages for s in split(pages, subdocuments)] == [[1], [2]]


def test_a_statement_opening_with_the_first_pages_top_lines_again_opens_a_document() -> None:
    """A company's balance sheet of two pages, then its profit and loss on one: the third page repeats
    the first page's company and basis lines, which the second, a table carried over, does not show."""
    row = "| Account | Total |\n|---|---|\n"
    pages = [
        "TravelTrax Tours\nBalance Sheet\nBasis: Accrual\nAs of 31/03/2024\n"
        + row
        + "| Petty Cash | 5,000.00 |\n| Total for Assets | 4,93,000.00 |",
        row + "| Owner's Equity | 1,00,000.00 |\n| Total for Liabilities & Equities | 4,93,000.00 |",
        "TravelTrax Tours\nProfit and Loss\nBasis: Accrual\nFrom 01/04/2023 To 31/03/2024\n"
        + row
        + "| Sales | 6,00,000.00 |\n| Net Profit/Loss | -5,23,000.00 |",
    ]
    subdocuments = [Subdocument("financial_report", "A financial statement.", allow_multiple_instances=True)]
    assert [s.pages for s in split(pages, subdocuments)] == [[1, 2], [3]]


def test_a_slide_repeating_its_frames_number_does_not_break_the_folios() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    first = "Why this theme?\n• named after a city\n• tried on a live course\n3"
    built = "Why this theme?\n• named after a city\n• tried on a live course\n• in Hangzhou\n3"
    signals = [read_signals(text, [], []) for text in (first, built)]
    assert "the folios break" not in [item.reason for item in gap_evidence(signals)[1]]


def test_an_articles_heading_naming_its_contract_is_no_new_title() -> None:
    from docsvc.intelligence.splitting import read_signals
    from docsvc.intelligence.vocabulary import ALIASES

    titles = list(ALIASES)
    body = "Le présent contrat a pour objet de déterminer les conditions de la collaboration des parties."
    for heading in ("Article 1 - Objet du contrat", "§ 3 Vertrag", "Cláusula 2 Contrato"):
        assert not read_signals(f"Il a été convenu ce qui suit :\n{heading}\n{body}", [], titles).titles
    assert read_signals(f"Contrat de parrainage\n{body}", [], titles).titles  # a title of its own


def test_a_page_opens_the_next_document_with_two_of_its_first_pages_top_lines_not_one() -> None:
    from docsvc.intelligence.splitting import TOP_AGAIN, gap_evidence, read_signals

    assert TOP_AGAIN == 2
    table = "| Account | Total |\n|---|---|\n| Sales | 6,00,000.00 |"
    reason = "the top lines of its document's first page again"

    def evidence(third: str) -> list[str]:
        pages = ["TravelTrax Tours\nBalance Sheet\nBasis: Accrual\n" + table, table, third + "\n" + table]
        return [item.reason for item in gap_evidence([read_signals(text, [], []) for text in pages])[2]]

    assert reason in evidence("TravelTrax Tours\nProfit and Loss\nBasis: Accrual")
    assert reason not in evidence("TravelTrax Tours\nProfit and Loss\nBasis: Cash")  # one line only


CONTRACT_CLAUSES = (
    "Art. 6 - Garanzia\nL'Appaltatore garantisce la qualità dei lavori per due anni dalla fine.\n"
    "Art. 7 - Risoluzione del contratto\n"
    "Il contratto potrà essere risolto da entrambe le parti in caso di grave"
)
CONTRACT_END = (
    "inadempimento degli obblighi contrattuali da parte di una delle due parti firmatarie del contratto.\n"
    "Art. 8 - Controversie\nLe controversie saranno risolte presso la Camera di Commercio di Roma.\n"
    "Letto, approvato e sottoscritto."
)


def test_a_sentence_carried_over_and_the_next_numbered_article_continue_a_contract() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    def reasons(before: str, page: str) -> list[str]:
        signals = [read_signals(text, [], []) for text in (before, page)]
        return [item.reason for item in gap_evidence(signals)[1]]

    carried = "a sentence carried over from the page before"
    follows = "its numbered sections follow the page before's"
    assert {carried, follows} <= set(reasons(CONTRACT_CLAUSES, CONTRACT_END))
    # the sentence closed on the page before, or the page opening on a capital: nothing carried over
    assert carried not in reasons(CONTRACT_CLAUSES + " inadempimento.", CONTRACT_END)
    assert carried not in reasons(CONTRACT_CLAUSES, "I" + CONTRACT_END[1:])
    # an article numbered on by another word, or not the next one, follows nothing
    assert follows not in reasons(CONTRACT_CLAUSES, CONTRACT_END.replace("Art. 8", "Clause 8"))
    assert follows not in reasons(CONTRACT_CLAUSES, CONTRACT_END.replace("Art. 8", "Art. 9"))


def test_numbered_sections_are_read_by_their_word_and_number_not_from_measures_or_years() -> None:
    from docsvc.intelligence.splitting import sections

    lines = ["Art. 8 - Controversie", "§ 3 Zahlung", "8. Disposizioni finali", "3) Payment"]
    lines += ["12.5 kg", "2024 report"]
    assert sections(lines) == [("art", 8), ("§", 3), ("", 8), ("", 3)]


def test_the_first_title_after_a_cover_of_a_few_lines_names_the_covers_document() -> None:
    from docsvc.intelligence.splitting import COVER_LINES, gap_evidence, read_signals
    from docsvc.intelligence.vocabulary import ALIASES

    assert COVER_LINES == 4
    titles = list(ALIASES)
    manual = (
        "USER MANUAL\nKeep this manual in a safe place for quick reference at all times.\n"
        "This manual contains important safety and operation instructions for the power supply."
    )

    def reasons(cover: str) -> list[str]:
        signals = [read_signals(text, [], titles) for text in (cover, manual)]
        return [item.reason for item in gap_evidence(signals)[1]]

    cover = "SWITCHING MODE POWER SUPPLY\nMP710079, MP710080 and MP710081\nVersion 2\nMade in Taiwan"
    assert "the first title after its document's cover" in reasons(cover)
    assert "a new title" in reasons(cover + "\nFor laboratory use")  # five lines: a page of its own
    assert "a new title" in reasons("INVOICE\nNo. 12\nTotal 40.00")  # a cover naming a kind of its own


def test_a_page_after_a_stub_of_a_few_lines_reads_as_no_other_kind_than_it() -> None:
    from docsvc.intelligence.classification import build_profiles
    from docsvc.intelligence.splitting import ALIASES, gap_evidence, read_signals

    from tests.unit.test_builtin_classification import INDIAN_TAX_INVOICE

    subdocuments = [
        Subdocument("invoice", "An invoice: a bill for goods or services.", True),
        Subdocument("report", "A report.", True),
    ]
    profiles = build_profiles([(sub.name, sub.description) for sub in subdocuments])
    reason = "the page reads as another kind of document"

    def reasons(before: str) -> list[str]:
        signals = [read_signals(text, profiles, list(ALIASES)) for text in (before, INDIAN_TAX_INVOICE)]
        return [item.reason for item in gap_evidence(signals)[1]]

    assert reason not in reasons("Abstract\nYour abstract.")
    before = "Walking the river basins\nThe survey counts the birds along the banks each spring."
    assert reason in reasons(before + "\nIt was written by its authors.\nThe survey ends here.\nIt is done.")


def test_a_cover_holds_fewer_content_words_than_a_topic_needs_and_an_article_three_digits() -> None:
    from docsvc.intelligence.splitting import FEWEST_TOPIC_WORDS, _bare_cover, read_signals, sections

    assert FEWEST_TOPIC_WORDS == 15
    words = ["transformer", "amplifier", "capacitor", "resistor", "inductor", "oscillator", "regulator",
             "rectifier", "battery", "charger", "adapter", "converter", "inverter", "monitor",
             "display"]  # fmt: skip

    def cover(count: int) -> bool:
        lines = [" ".join(words[:5]), " ".join(words[5:10]), " ".join(words[10:count])]
        signals = read_signals("\n".join(lines), [], [])
        assert sum(signals.words.values()) == count
        return _bare_cover(signals)

    assert cover(FEWEST_TOPIC_WORDS - 1) and not cover(FEWEST_TOPIC_WORDS)
    assert sections(["Art. 999 Schluss", "Art. 1000 Schluss", "99. Ende", "100. Ende"]) == [
        ("art", 999),
        ("", 99),
    ]


def test_roman_numerals_are_read_up_to_their_limit_in_one_case() -> None:
    from docsvc.intelligence.splitting import roman_value

    assert [roman_value(numeral) for numeral in ("i", "IV", "ix", "XIV", "xxxix")] == [1, 4, 9, 14, 39]
    assert [roman_value(numeral) for numeral in ("Xi", "iiii", "vx", "xl", "")] == [None] * 5


def test_front_matter_numbered_in_roman_numerals_follows_on() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    pages = [
        "Abstract\nThe thesis studies the growth of thin films on a substrate.\nKey words: films\nIII",
        "Contents\n1 Introduction . . . 1\n2 Methods . . . 7\nIV",
    ]
    signals = [read_signals(text, [], []) for text in pages]
    assert "the folios follow" in [item.reason for item in gap_evidence(signals)[1]]
    skipped = [read_signals(text, [], []) for text in (pages[0], pages[1].replace("IV", "VI"))]
    assert "the folios follow" not in [item.reason for item in gap_evidence(skipped)[1]]


def test_a_manuscripts_folio_beside_its_line_numbers_follows_on() -> None:
    from docsvc.intelligence.splitting import folio, gap_evidence, read_signals

    def manuscript(first: int, folio: int) -> str:
        lines = [
            f"the sentence of line {number} of the manuscript\n{number}" for number in range(first, first + 8)
        ]
        return "\n".join(lines) + f"\n{folio}"

    pages = [manuscript(427, 15), manuscript(435, 16)]
    assert folio(pages[1].splitlines()) != (16, -1)  # a number among numbers is no folio alone
    signals = [read_signals(text, [], []) for text in pages]
    assert "the folios follow" in [item.reason for item in gap_evidence(signals)[1]]


def test_a_slide_built_in_steps_repeats_its_number_of_as_many_and_is_no_template_filled_again() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    frame = (
        "www.example.edu\nMathematics\nDrawing on the slide\nEvery fraction consists of:\na =\nx + y\ny - z"
    )
    footer = "Jan Kowalski (AGH)\nBeamer theme AGH\nExamples\n10 / 17"
    steps = [
        f"{frame}\n{footer}",
        f"{frame}\nNumerator\n{footer}",
        f"{frame}\nNumerator\nDenominator\n{footer}",
    ]
    signals = [read_signals(text, [], ["mathematics"]) for text in steps]
    for evidence in gap_evidence(signals)[1:]:
        reasons = [item.reason for item in evidence]
        assert "the page before's number again, of as many pages" in reasons
        assert "the same template filled in again" not in reasons
    other = [read_signals(text, [], []) for text in (steps[0], steps[0].replace("10 / 17", "10 / 12"))]
    assert "the page before's number again, of as many pages" not in [
        item.reason for item in gap_evidence(other)[1]
    ]


def test_a_page_in_another_script_under_a_running_line_written_in_it_keeps_its_document() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    head = "重庆大学硕士学位论文"
    chinese = f"{head}\n中文摘要\n" + "本文档是论文模板的示例文档介绍模板的使用方法和排版要求。" * 3 + "\nIII"
    english = (
        f"{head}\nABSTRACT\nLaTeX is a document preparation system for high-quality typesetting, most "
        "often used for medium-to-large technical or scientific documents.\nII"
    )
    signals = [read_signals(text, [], []) for text in (english, chinese)]
    reasons = [item.reason for item in gap_evidence(signals)[1]]
    assert "another script" not in reasons
    assert "another script under the running line of a page written in it too" in reasons
    latin_head = [
        read_signals(text.replace(head, "Chongqing University"), [], []) for text in (english, chinese)
    ]
    assert "another script" in [item.reason for item in gap_evidence(latin_head)[1]]


def test_a_kinds_name_in_the_plural_alone_heads_a_section_not_a_document() -> None:
    from docsvc.intelligence.splitting import title_lines
    from docsvc.intelligence.vocabulary import ALIASES

    titles = list(ALIASES)
    assert title_lines(["SPECIFICATIONS", "Input Voltage 100 - 240Vac"], titles) == frozenset()
    assert title_lines(["Forms"], titles) == frozenset()
    assert title_lines(["SPECIFICATION"], titles) == frozenset({"specification"})
    assert title_lines(["Thesis"], titles) == frozenset({"thesis"})
    assert title_lines(["Technical Specifications"], titles)  # a document's title of two words


def test_a_heading_read_in_another_word_order_on_the_next_page_is_no_new_title() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals
    from docsvc.intelligence.vocabulary import ALIASES

    titles = list(ALIASES)
    body = "Revenue grows by ten percent a year and salaries by five percent, costs follow the plan."
    pages = [f"Company name    Report of the year\n{body}", f"Report of the year Company name\n{body}"]
    signals = [read_signals(text, [], titles) for text in pages]
    assert signals[1].titles  # the kind's name opens the line on the second page only
    assert "a new title" not in [item.reason for item in gap_evidence(signals)[1]]
    other = [read_signals(text, [], titles) for text in (pages[0], f"Report of the board\n{body}")]
    assert "a new title" in [item.reason for item in gap_evidence(other)[1]]


def test_an_order_ending_on_a_computer_generated_note_closes_its_document() -> None:
    from docsvc.intelligence.splitting import ends_generated, gap_evidence, read_signals

    assert ends_generated(["Payment within 45 days.", "**Computer Generated**"])
    assert ends_generated(["Diese Rechnung wurde maschinell erstellt und ist ohne Unterschrift gültig."])
    assert not ends_generated(["The report was generated from the survey data.", "Thank you"])
    ending = (
        "Deliveries are accepted from Monday to Friday.\nThe buyer may reject goods.\n**Computer Generated**"
    )
    following = "| Line | Product | Quantity |\n|---|---|---|\n| 1 | Steel sheet | 4 |"
    signals = [read_signals(text, [], []) for text in (ending, following)]
    reason = "the page before ended on a note that a computer made it"
    assert reason in [item.reason for item in gap_evidence(signals)[1]]
    footed = [read_signals(text, [], []) for text in (ending, following + "\nComputer generated")]
    assert reason not in [item.reason for item in gap_evidence(footed)[1]]


def test_a_products_back_page_closes_its_manual() -> None:
    from docsvc.intelligence.splitting import gap_evidence, is_back_page, read_signals

    assert is_back_page(["Made in China", "LS12 2QQ", "INFORMATION ON WASTE DISPOSAL FOR CONSUMERS"])
    assert is_back_page(["MADE IN GERMANY"])
    assert not is_back_page(["The fixtures are made in-house and tested before shipping."])
    manual = (
        "OVER TEMPERATURE PROTECTION\nWhen the temperature inside the power supply rises above a set value, "
        "the output voltage and current decrease to zero.\nPC CONNECTION\nThe supply can be controlled "
        "remotely from a computer over USB with the software provided."
    )
    back = (
        "Made in China\nLS12 2QQ\nINFORMATION ON WASTE DISPOSAL FOR CONSUMERS OF ELECTRICAL & ELECTRONIC "
        "EQUIPMENT. When this product has reached the end of its life it must be treated as Waste Electrical "
        "& Electronics Equipment (WEEE)."
    )
    signals = [read_signals(text, [], []) for text in (manual, back)]
    assert "a product's back page closes the document before" in [
        item.reason for item in gap_evidence(signals)[1]
    ]
    steps = [f"Step {number}: check the fuse and the cable." for number in range(10)]
    assert is_back_page([*back.splitlines(), *steps[:9]])  # twelve lines
    assert not is_back_page([*back.splitlines(), *steps])  # thirteen: a page of its own


def test_a_letters_copies_and_enclosures_after_its_closing_are_its_last_page() -> None:
    from docsvc.intelligence.splitting import gap_evidence, lists_copies, read_signals

    assert lists_copies(["Jane Doe", "Director", "cc: Legal department", "Enclosures (2): offer, terms"])
    assert lists_copies(["Załączniki:", "1. Umowa"])
    assert not lists_copies(["The cc: field of the form lists who gets a copy."])
    letter = (
        "Dear Ms Novak,\nThank you for your offer of 3 March, which we accept on the terms set out in it. "
        "We shall send the signed order within a week.\nYours sincerely,"
    )
    tail = "Jan Kowalski\nPurchasing manager\ncc: Finance department\nEnclosures: signed terms"
    signals = [read_signals(text, [], []) for text in (letter, tail)]
    reasons = [item.reason for item in gap_evidence(signals)[1]]
    assert "the copies and enclosures of the letter signed off before" in reasons
    assert "the page before signed a letter off" not in reasons
    other = [
        read_signals(text, [], []) for text in (letter, "Jan Kowalski\nPurchasing manager\nOffice hours")
    ]
    assert "the page before signed a letter off" in [item.reason for item in gap_evidence(other)[1]]


def test_a_table_of_contents_after_an_unnumbered_title_page_goes_on_with_its_document() -> None:
    from docsvc.intelligence.classification import lists_contents
    from docsvc.intelligence.splitting import gap_evidence, read_signals, title_lines
    from docsvc.intelligence.vocabulary import ALIASES

    assert title_lines(["Présentation du projet . . . . . . . . . . 3"], list(ALIASES)) == frozenset()
    assert lists_contents(["Table des matières", "1", "Introduction . . . . . 2"])
    assert lists_contents(["Contents:"]) and lists_contents(["Spis treści"]) and lists_contents(["目录"])
    assert not lists_contents(["The contents of the box are listed below."])
    title = (
        "Interface graphique pour le jeu Pingouins\nProjet d'études\nNom des élèves\nDate du rapport\n2017"
    )
    contents = (
        "Table des matières\n1\nIntroduction . . . . . . . . . . 2\n2\n"
        "Présentation du projet . . . . . . . 3\n3\nConclusion . . . . . . . . . . 9"
    )
    signals = [read_signals(text, [], list(ALIASES)) for text in (title, contents)]
    reasons = [item.reason for item in gap_evidence(signals)[1]]
    assert "a table of contents after an unnumbered page" in reasons
    assert "a new title" not in reasons
    assert "the folios restart elsewhere on the page" not in reasons  # "2017" under the title is a year
    numbered = [read_signals(text, [], list(ALIASES)) for text in (title.replace("\n2017", "\n12"), contents)]
    reasons = [item.reason for item in gap_evidence(numbered)[1]]
    assert "a table of contents after an unnumbered page" not in reasons
    assert "the folios restart elsewhere on the page" in reasons


def test_a_short_page_naming_the_page_befores_name_is_no_topic_apart_though_the_page_after_is() -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    terms = (
        "Allgemeine Geschäftsbedingungen der Stadt Oberderdingen\n"
        "1. Verbindliche Anmeldungen haben schriftlich per Mail zu erfolgen und werden bestätigt.\n"
        "2. Der Platz bleibt mit der Anmeldung sieben Tage reserviert, danach wird er vergeben.\n"
        "3. Aus organisatorischen Gründen können keine Ersatzstunden angeboten werden.\n"
        "4. Die Eltern sind in der letzten Stunde des Kurses anwesend, um den Fortschritt zu sehen.\n"
        "5. Die Kursleitung darf zum Wohle des Kindes den Zeitpunkt des Unterrichtes verschieben.\n"
        "6. Kursteilnehmer finden sich fünfzehn Minuten vor Kursbeginn am Veranstaltungsort ein.\n"
        "7. Persönliche Daten werden zur Kontaktaufnahme, Kursabwicklung und Beratung gespeichert.\n"
        "8. Sollten einzelne Bestimmungen unwirksam sein, bleibt die Gültigkeit der übrigen unberührt.\n"
        "9. Schwimmbrillen, Handtücher und Badekappen bringen die Kinder selbst mit ins Hallenbad."
    )
    payment = (
        "Stadt Oberderdingen\nAmthof 13\nBitte überweisen:\nVolksbank Kraichgau\nIBAN: DE67672922000094009804"
    )
    report = (
        "Consolidated balance sheet as of 31 December\nTotal assets rose to 4.2 million, driven by "
        "receivables and cash; liabilities fell as the revolving credit facility was repaid in full. "
        "Equity increased by retained earnings of the year and the capital increase in March. Revenue "
        "from subscriptions grew in every region, while hardware sales declined after the product "
        "line was discontinued. Operating expenses were held flat through lower travel, consulting "
        "and marketing spending, and the effective tax rate fell with the research credit claimed. "
        "Free cash flow covered the dividend twice, and the board proposes a higher payout next year."
    )
    signals = [read_signals(text, [], []) for text in (terms, payment, report)]
    assert "no topic shared with the page before" not in [item.reason for item in gap_evidence(signals)[1]]
    unnamed = [
        read_signals(text, [], [])
        for text in (terms, payment.replace("Stadt Oberderdingen", "Kasse"), report)
    ]
    assert "no topic shared with the page before" in [item.reason for item in gap_evidence(unnamed)[1]]


@pytest.mark.parametrize(("head", "framed"), [("大学论文", True), ("大学论", False)])
def test_a_running_line_tells_its_script_from_four_letters(head: str, framed: bool) -> None:
    from docsvc.intelligence.splitting import gap_evidence, read_signals

    english = (
        f"{head}\nABSTRACT\nLaTeX is a document preparation system for high-quality typesetting, most "
        "often used for medium-to-large technical or scientific documents.\nII"
    )
    chinese = f"{head}\n目录\n" + "本文档是论文模板的示例文档介绍模板的使用方法和排版要求。" * 3 + "\nIII"
    signals = [read_signals(text, [], []) for text in (english, chinese)]
    assert ("another script" not in [item.reason for item in gap_evidence(signals)[1]]) is framed
