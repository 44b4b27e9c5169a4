"""Receipts photographed and read by OCR, as the built-in extractor gets them: each page as the lines
its words are printed on, a label's words set far apart, OCR's slips on letters and decimal marks,
the shop's logo read as noise. Every receipt here is written for the test."""

from __future__ import annotations

from datetime import date
from typing import Any

from docsvc.intelligence.extraction import extract
from docsvc.intelligence.values import parse_date

RECEIPT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "merchant": {
            "type": ["object", "null"],
            "properties": {"name": {"type": ["string", "null"]}, "address": {"type": ["string", "null"]}},
        },
        "date": {"type": ["string", "null"], "format": "date"},
        "total": {"type": ["number", "null"]},
    },
}
VENDOR: dict[str, Any] = {
    "type": "object",
    "properties": {
        "vendor": {
            "type": ["object", "null"],
            "properties": {"name": {"type": ["string", "null"]}, "address": {"type": ["string", "null"]}},
        }
    },
}


def _roll(*lines: str) -> list[str]:
    return ["\n".join(lines)]


def test_a_total_whose_label_words_ocr_set_far_apart_is_read() -> None:
    page = _roll("1    BIL BEER    5.00", "Sub-total:", "Taxes:", "", "Total    Due:    44.35", "THANK YOU")

    assert extract(page, RECEIPT).output["total"] == 44.35


def test_a_total_label_ocr_misread_at_its_last_letter_is_read() -> None:
    page = _roll("Subtota |    74.70", "Tax    6.00", "", "Tota]    83.50")

    assert extract(page, RECEIPT).output["total"] == 83.5


def test_a_decimal_mark_ocr_set_apart_from_its_cents_is_read() -> None:
    page = _roll("Chicken    Caprese    12.00", "Tax    6.43", "", "Total    77. 83", "Join us on Facebook")

    assert extract(page, RECEIPT).output["total"] == 77.83


def test_of_several_totals_the_largest_is_the_receipts() -> None:
    page = _roll("Tax    2.11", "Tota]    24.36", "Total    with    tip    28.00")

    assert extract(page, RECEIPT).output["total"] == 28.0


def test_german_and_french_tills_totals_are_read_and_their_net_totals_are_not() -> None:
    german = _roll("Zwischensumme    10,00", "MwSt    1,90", "SUMME    EUR    11,90", "Bar    20,00")
    french = _roll("Total    HT    10,00", "TVA    2,00", "TOTAL    TTC    12,00")

    assert extract(german, RECEIPT).output["total"] == 11.9
    assert extract(french, RECEIPT).output["total"] == 12.0
    assert extract(_roll("Summe    netto    10,00"), RECEIPT).output["total"] is None


def test_a_subtotal_or_a_tax_total_is_not_a_receipts_total() -> None:
    page = _roll("1    Coffee    3.00", "Sub    Total    12.00", "Total    Tax    1.00")

    assert extract(page, RECEIPT).output["total"] is None


def test_without_a_total_label_the_total_is_the_amount_two_above_add_up_to() -> None:
    page = _roll(
        "1    Burger    12.08", "Sub Tota!    12.08", "eh    $0.97", "Credit    $13.05", "Change    $0.00"
    )

    assert extract(page, RECEIPT).output["total"] == 13.05


def test_cash_handed_over_is_not_the_total_its_change_makes_it_add_up_to() -> None:
    page = _roll("Cash    13.25", "Food    12.06", "Tax    1.06", "Payment    13.12", "Change Due    0.13")

    assert extract(page, RECEIPT).output["total"] == 13.12


def test_an_invoice_that_prints_no_total_gets_none_from_its_subtotal_and_tax() -> None:
    page = _roll("Subtotal    2,781.27", "Tax    278.13", "Deposit    3,059.40")

    assert extract(page, RECEIPT).output["total"] is None


def test_items_that_add_up_are_no_total() -> None:
    page = _roll("1    Side Salad    4.00", "1    Quesadilla    11.00", "2    Dft Guiness    15.00")

    assert extract(page, RECEIPT).output["total"] is None


def test_numeric_dates_of_an_american_receipt_are_month_first() -> None:
    page = _roll("Katana Sushi", "2818 Hewitt Ave", "Everett, WA 98201", "05/11/18    8:47 PM")

    assert extract(page, RECEIPT).output["date"] == "2018-05-11"


def test_the_date_stamped_with_the_time_of_the_sale_is_read_under_a_head_without_address() -> None:
    page = _roll(
        "PUPEYE 11538    ©", "201-885-2085", "CARRY-OUT,    SUN    JUN    24 20:49:53    2018", "COKE"
    )

    assert extract(page, RECEIPT).output["date"] == "2018-06-24"


def test_a_north_american_telephone_number_makes_dates_month_first() -> None:
    page = _roll("Bella Pasta", "(401) 722-6297", "08/09/19    4:28 PM")

    assert extract(page, RECEIPT).output["date"] == "2019-08-09"


def test_a_telephone_number_written_for_callers_abroad_leaves_dates_day_first() -> None:
    page = _roll("Tel. +1 (415) 555-0159", "DATE 05.09.2025")

    assert extract(page, RECEIPT).output["date"] == "2025-09-05"


def test_a_german_postcode_after_a_country_code_is_no_american_address() -> None:
    page = _roll("Muster GmbH", "Hauptstraße 1", "DE 80331 München", "05/11/2018")

    assert extract(page, RECEIPT).output["date"] == "2018-11-05"


def test_dates_with_a_two_digit_year_are_read_as_tills_print_them() -> None:
    assert parse_date("Feb23'19    10:23AM").value == date(2019, 2, 23)
    assert parse_date("hk 1924 Jun28' 17 05:36P").value == date(2017, 6, 28)
    assert parse_date("Jun 26, 15 04:55 PM").value == date(2015, 6, 26)
    assert parse_date("13-Jul-18").value == date(2018, 7, 13)
    assert parse_date("CARRY-OUT,    SUN    JUN    24 20:49:53    2018").value == date(2018, 6, 24)
    assert parse_date("May 5, 12 items") is None  # a comma's year only before a time


def test_the_shop_is_read_from_the_head_of_the_roll_past_the_noise_of_its_logo() -> None:
    page = _roll(
        "—eoOoOos    ee",
        "Katana Sushi",
        "2818 Hewitt Ave",
        "Everett, WA 98201",
        "425-512-9361",
        "Server:    Michael C    05/11/18",
        "Total    143.71",
    )

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {"name": "Katana Sushi", "address": "2818 Hewitt Ave, Everett, WA 98201"}


def test_a_store_number_after_the_shops_name_leaves_it_a_name_and_a_phone_line_is_passed() -> None:
    page = _roll("CARL'S JR 1100375", "(916) 962-3415", "8105 MADISON AVE", "FAIR OAKS, CA", "Total    13.05")

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {"name": "CARL'S JR 1100375", "address": "8105 MADISON AVE, FAIR OAKS, CA"}


def test_a_shops_name_in_two_lines_and_a_street_ocr_marked_with_noise_are_read_whole() -> None:
    page = _roll(
        "Friendly Red's", "of Windham", "7519 §. ATLANTIC AVE.", "CUDAHY ,CA 90201", "Total    77.83"
    )

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {
        "name": "Friendly Red's of Windham",
        "address": "7519 S. ATLANTIC AVE., CUDAHY ,CA 90201",  # its direction, OCR read as a section sign
    }


def test_a_logo_read_as_letters_ending_like_a_state_is_no_address() -> None:
    page = _roll("OOOO KKK ROKK OKO OK OK", "Trinity Restaurant", "190 Jericho Tpke", "Floral Park NY 11001")

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {"name": "Trinity Restaurant", "address": "190 Jericho Tpke, Floral Park NY 11001"}


def test_a_receipt_without_an_address_is_named_by_its_first_line_that_reads_as_a_name() -> None:
    page = _roll("Table 24/1", "LANDFALL RESTAURANT", "Server:    Jake    06/10/17", "Total    7.55")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "LANDFALL RESTAURANT"


def test_an_invoices_vendor_is_not_read_as_a_receipts_shop() -> None:
    page = _roll("—eoOoOos    ee", "Katana Sushi", "2818 Hewitt Ave", "Everett, WA 98201")

    assert extract(page, VENDOR).output["vendor"]["name"] != "Katana Sushi"


def test_a_line_giving_the_stores_number_names_no_block_of_the_shop() -> None:
    page = _roll(
        "BURGER BARN",
        "STORE # CA-1661",
        "2640 Reynolds Ranch Pkwy - Ste 140",
        "Lodi, CA 95240",
        "Total    13.05",
    )

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {
        "name": "BURGER BARN",
        "address": "2640 Reynolds Ranch Pkwy - Ste 140, Lodi, CA 95240",
    }


def test_a_second_subtotal_that_adds_the_tax_to_the_first_is_the_total() -> None:
    page = _roll(
        "Coffee    2.95", "Sub Total:    63.75", "Tax:    5.50", "Sub Total:    69.25", "TOTAL:    69 -25"
    )

    assert extract(page, RECEIPT).output["total"] == 69.25


def test_a_second_subtotal_a_tax_line_apart_is_the_total_when_ocr_lost_the_taxs_amount() -> None:
    page = _roll("Coffee    2.95", "Sub Total:    48.85", "Tax:    a9", "Sub Total:    52.76", "Thank you")

    assert extract(page, RECEIPT).output["total"] == 52.76


def test_a_second_subtotal_far_above_the_first_is_no_total() -> None:
    page = _roll("Coffee    2.95", "Sub Total:    20.00", "Tax:    a9", "Sub Total:    52.76", "Thank you")

    assert extract(page, RECEIPT).output["total"] is None


def test_a_subtotal_that_items_add_up_to_without_a_tax_is_no_total() -> None:
    page = _roll("1    Burger    11.00", "1    Soda    2.00", "Sub Total:    13.00", "TOTAL:")

    assert extract(page, RECEIPT).output["total"] is None


def test_a_line_printing_a_date_is_no_shops_name_and_keeps_its_date() -> None:
    page = _roll(
        "720 hove vax yorover n    Kitchen Mass con AVE & Patio    uM 5",
        "130 WA, 92139-3308    7    N",
        'camber 10    968-080"    09/23/2017    astst',
        "9:40 PM",
        "er: Mega    30062",
        "Total    48.00",
    )

    output = extract(page, RECEIPT).output

    assert "09/23/2017" not in (output["merchant"] or {}).get("name", "")
    assert output["date"] == "2017-09-23"


def test_marks_ocr_reads_at_the_papers_edge_are_left_out_of_the_address_but_a_street_word_is_kept() -> None:
    page = _roll("CASA VERDE", "14 HIGH STREET    en    |", "SALEM, MA 01970    ae", "Total    9.50")
    street = _roll("CASA VERDE", "625 S Fair Oaks    ave", "Pasadena, CA 91105", "Total    9.50")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "14 HIGH STREET, SALEM, MA 01970"
    assert extract(street, RECEIPT).output["merchant"]["address"] == "625 S Fair Oaks ave, Pasadena, CA 91105"


def test_a_lines_closing_number_and_its_hash_are_taken_off_and_a_long_run_of_digits_is_read_once() -> None:
    from docsvc.intelligence.receipts import _without_store_number

    assert _without_store_number("STORE # 1661 ") == "STORE"
    assert _without_store_number("A1 2 3") == "A1 2"
    assert _without_store_number("Target T-1234") == "Target T-"
    assert _without_store_number("Main Street") == "Main Street"
    assert _without_store_number("7" * 200_000 + "x") == "7" * 200_000 + "x"  # quadratic as a pattern


def test_marks_ocr_reads_before_a_head_line_are_left_out_and_a_word_a_name_opens_with_is_kept() -> None:
    page = _roll(
        "|    Welcome to Yogurtland",
        "; d    12502 North Kendall    Drive",
        "oy    Miami,    FL 33186",
        "Total    9.50",
    )
    french = _roll("la    Source", "Total    9.50")

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {
        "name": "Welcome to Yogurtland",
        "address": "12502 North Kendall Drive, Miami, FL 33186",
    }
    assert extract(french, RECEIPT).output["merchant"]["name"] == "la Source"


def test_the_line_of_an_address_place_does_not_read_as_a_shops_name() -> None:
    from docsvc.intelligence.receipts import _reads_as_name

    assert not _reads_as_name("Pasadena, CA, 91105")
    assert not _reads_as_name("Windham NH")
    assert _reads_as_name("Katana Sushi")


def test_a_telephone_number_ocr_spaced_after_its_hyphen_makes_dates_month_first() -> None:
    page = _roll("HAMMOCKS TRADING COMPANY", "Nice 770-395- 9592", "3/10/2017 6:23 pm")

    assert extract(page, RECEIPT).output["date"] == "2017-03-10"


def test_a_stamped_date_ocr_read_with_letters_for_digits_or_digits_for_letters_is_read() -> None:
    month = _roll("Micros Demo System", "Date:    $ep07'18 09:28PM", "Total    9.50")
    numeric = _roll("Katana Sushi", "425-512-9361", "O5/l1/18    8:47 PM", "Total    9.50")

    assert extract(month, RECEIPT).output["date"] == "2018-09-07"
    assert extract(numeric, RECEIPT).output["date"] == "2018-05-11"


def test_ocrs_confusions_are_undone_inside_words_shaped_as_a_date_only() -> None:
    from docsvc.intelligence.receipts import date_repaired

    assert date_repaired("O5/l1/18 8:47 PM") == "05/11/18 8:47 PM"
    assert date_repaired("Date: $ep07'18 0ct 12 Ju1 4") == "Date: Sep07'18 Oct 12 Jul 4"
    assert date_repaired("T0TAL 12.50 S1 Table 5/1 STORE 3451") == "T0TAL 12.50 S1 Table 5/1 STORE 3451"


def test_a_line_of_many_short_words_ocr_made_of_a_logo_is_no_shops_name() -> None:
    from docsvc.intelligence.receipts import _reads_as_name

    noise = "SS SE    Ream ats Rune    ts mek    es emcee ay"
    page = _roll(noise, "", "DOUGLAS BURGERS    #15", "Total    9.50")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "DOUGLAS BURGERS #15"
    assert _reads_as_name("MOOYAH Burgers Fries & Shakes #199")


def test_a_state_ocr_read_with_a_lower_case_letter_before_its_zip_code_ends_the_address() -> None:
    page = _roll("CASA VERDE", "12 Elm Road", "Garden City Ny 11530", "Total    9.50")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "12 Elm Road, Garden City Ny 11530"


def test_edge_marks_ocr_spaced_apart_after_a_head_line_are_left_out() -> None:
    page = _roll("CASA VERDE", "14 HIGH STREET    | '", "SALEM, MA 01970", "Total    9.50")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "14 HIGH STREET, SALEM, MA 01970"


def test_a_total_label_ocr_glued_to_the_time_before_it_is_read() -> None:
    page = _roll("Sub Total:    6.00", "Tax    0.40", "06/10    1:390TOTAL    :    7.55", "LUNCH & DINNER")

    assert extract(page, RECEIPT).output["total"] == 7.55


def test_the_amount_under_a_subtotal_and_its_tax_adding_them_up_is_the_total_its_label_lost() -> None:
    page = _roll("1    SENIOR DINNER    18.09", "SUBTOTAL : 84.02", "Tax (9.75%) : 8.20", "re    92.22", "nn")

    assert extract(page, RECEIPT).output["total"] == 92.22


def test_marks_ocr_read_over_a_head_without_address_are_passed_to_find_the_shops_name() -> None:
    page = _roll("- 1", "” {", "i|", "Store #1291", "Panda Express", "Everett, WA", "3/16/2013 4:03 PM")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "Panda Express"


def test_a_card_paying_the_amount_of_the_line_above_it_pays_the_total_whose_label_ocr_lost() -> None:
    page = _roll(
        "1 ORDEN CHIPS    1.50", "Sub/Tt]    12.67", "Tax 8.75%    tanh", "TO-—GO    13.78", "VISA    13.78"
    )

    assert extract(page, RECEIPT).output["total"] == 13.78


def test_a_card_paying_what_another_card_paid_above_it_is_no_total() -> None:
    page = _roll("1 ORDEN CHIPS    1.50", "VISA    13.78", "VISA    13.78")

    assert extract(page, RECEIPT).output["total"] is None


def test_amounts_in_bare_dollars_make_dates_month_first_when_ocr_garbled_the_address() -> None:
    page = _roll("Bella Pasta", "ts} Neupo    A", "Check #4    08/09/19 Table 44", "Total    $30.16")

    assert extract(page, RECEIPT).output["date"] == "2019-08-09"


def test_dollars_of_a_country_that_names_its_gst_leave_dates_day_first() -> None:
    page = _roll("Corner Cafe", "08/09/19    12:40", "GST    $2.74", "Total    $30.16")

    assert extract(page, RECEIPT).output["date"] == "2019-09-08"


def test_a_card_paying_under_a_total_label_whose_amount_ocr_read_as_marks_pays_the_total() -> None:
    page = _roll(
        "1 Power Veg Bowl    4.99",
        "SubTotal    6.98    2 <4 |",
        "Tax    0.63",
        "Total    & |",
        "Visa    eee 7.61",
    )

    assert extract(page, RECEIPT).output["total"] == 7.61


def test_cash_under_a_total_label_whose_amount_ocr_lost_is_no_total() -> None:
    page = _roll("1 Power Veg Bowl    4.99", "Total    & |", "Cash    20.00", "Change    11.04")

    assert extract(page, RECEIPT).output["total"] != 20.0


def test_the_largest_amount_right_under_a_tax_closes_the_sale_whatever_its_label() -> None:
    page = _roll(
        "1 Burger    9.99", "1 Family Meal    21.65", "Sub/Tt1    sis", "Tax    2.57", "DRV THRU    34.21"
    )

    assert extract(page, RECEIPT).output["total"] == 34.21


def test_an_amount_under_a_tax_smaller_than_an_item_above_it_is_no_total() -> None:
    page = _roll("1 Family Meal    21.65", "Sub/Tt1    sis", "Tax    2.57", "Donation    12.00")

    assert extract(page, RECEIPT).output["total"] != 12.0


def test_a_street_whose_house_number_follows_its_name_opens_the_address_over_a_postcode() -> None:
    page = _roll(
        "Bäckerei Sonnenschein", "Lindenallee 27", "50667 Köln", "Tel. 0221 123456", "Summe    12,40"
    )

    merchant = extract(page, RECEIPT).output["merchant"]

    assert merchant == {"name": "Bäckerei Sonnenschein", "address": "Lindenallee 27, 50667 Köln"}


def test_a_name_printed_over_its_kind_on_a_second_line_is_read_whole() -> None:
    page = _roll("OLD MILL'S", "TAVERN", "12 CHURCH STREET", "SPRINGFIELD, IL 62701", "Total    18.20")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "OLD MILL'S TAVERN"


def test_a_name_over_its_kind_is_read_whole_on_a_head_without_an_address() -> None:
    page = _roll("Rosario", "", "Family Restaurant", "Table: 4    Guests: 2", "Total    41.10")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "Rosario Family Restaurant"


def test_a_line_speaking_to_the_customer_is_no_shops_name() -> None:
    page = _roll("12:04 PM", "YOUR ORDER NUMBER IS", "77", "HAPPY BURGER DOWNTOWN", "Total    9.40")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "HAPPY BURGER DOWNTOWN"


def test_a_telephone_number_between_the_street_and_its_place_is_no_part_of_the_address() -> None:
    page = _roll("TACO PLACE", "410 W. Main St", "555-301-4488", "Dallas, TX 75201", "Total    11.04")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "410 W. Main St, Dallas, TX 75201"


def test_the_date_and_time_printed_beside_the_head_are_no_part_of_the_address() -> None:
    page = _roll(
        "SUNNY DINER", "88 OCEAN AVE    Mar 3, 2019", "SEASIDE, CA 93955    11:47 AM", "Total    21.00"
    )

    assert extract(page, RECEIPT).output["merchant"]["address"] == "88 OCEAN AVE, SEASIDE, CA 93955"


def test_a_date_ocr_read_with_its_time_between_day_and_year_is_the_stamped_date() -> None:
    page = _roll("Poke Bowl Co", "Server: Kim", "December 29, 2:01 2018 PM", "Total    14.90")

    assert extract(page, RECEIPT).output["date"] == "2018-12-29"


def test_an_amount_due_label_ocr_misread_is_the_total() -> None:
    page = _roll("Food Subtotal:    19.90", "Tax    1:    1.78", "AMQUNT    DUE:    $21.69", "Cash    22.00")

    assert extract(page, RECEIPT).output["total"] == 21.69


def test_total_labels_of_other_languages_name_the_total() -> None:
    for label in ("TOTALE    EURO", "Summa", "RAZEM    PLN", "I    ALT", "CELKEM", "IMPORTE"):
        page = _roll("Pane    2,00", "Latte    12,00", f"{label}    14,00", "Contanti    20,00")

        assert extract(page, RECEIPT).output["total"] == 14.0, label


def test_a_us_place_under_its_street_opens_the_address_before_a_street_numbered_after_its_name() -> None:
    page = _roll("MAPLE GROCERY", "Store # 5260", "1234 MAIN ST", "SPRINGFIELD, IL 62704", "TOTAL    8.10")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "1234 MAIN ST, SPRINGFIELD, IL 62704"


def test_a_tables_a_servers_or_a_tills_number_is_no_street_over_a_postcode() -> None:
    for label in ("TABLE 12", "Server 4", "Kasse 3", "Filiale # 12", "Markt Nr. 7", "Caisse No 2"):
        page = _roll("Café Linde", label, "1030 Wien", "Summe    12,40")

        assert label not in (extract(page, RECEIPT).output["merchant"]["address"] or ""), label


def test_money_handed_over_or_given_back_beside_a_total_label_of_another_language_is_no_total() -> None:
    page = _roll("Pan    4,50", "IMPORTE    4,50", "IMPORTE ENTREGADO    10,00", "CAMBIO    5,50")

    assert extract(page, RECEIPT).output["total"] == 4.5


def test_a_tax_a_total_includes_named_beside_its_label_leaves_it_the_total() -> None:
    for label in ("Total incl. VAT", "Totaal incl. BTW", "Importe IVA incluido", "Celkem vč. DPH"):
        page = _roll("Item    3,00", "Item    5,00", f"{label}    8,00", "VAT    1,33")

        assert extract(page, RECEIPT).output["total"] == 8.0, label


def test_a_telephone_number_named_by_its_word_between_street_and_place_is_no_part_of_the_address() -> None:
    for phone in ("Phone: 956-350-8686", "PHONE (562) 860-2530", "Telefon 0221 123456", "T: +49 30 1234567"):
        page = _roll("TACO PLACE", "410 W. Main St", phone, "Dallas, TX 75201", "Total    11.04")
        address = extract(page, RECEIPT).output["merchant"]["address"]

        assert address == "410 W. Main St, Dallas, TX 75201", phone


def test_ocrs_zero_or_q_for_an_o_inside_a_total_labels_words_is_read_as_o() -> None:
    for label in ("T0TAL", "AM0UNT    DUE:", "BALANCE    DUE", "T0TALE"):
        page = _roll("Food Subtotal:    19.90", "Tax    1:    1.78", f"{label}    $21.69", "Cash    22.00")

        assert extract(page, RECEIPT).output["total"] == 21.69, label


def test_a_time_printed_beside_a_head_line_after_the_papers_edge_marks_is_no_part_of_the_address() -> None:
    page = _roll("SUNNY DINER", "88 OCEAN AVE", "SEASIDE, CA 93955    11:47 AM    |", "Total    21.00")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "88 OCEAN AVE, SEASIDE, CA 93955"


def test_a_word_a_tills_number_opens_with_begins_a_shops_name_when_no_number_follows() -> None:
    page = _roll("Welcome", "Caja Rural", "Calle Mayor 12", "28013 Madrid", "CAJA 2", "TOTAL    12,40")

    assert extract(page, RECEIPT).output["merchant"]["name"] == "Caja Rural"


def test_a_branchs_number_is_no_shops_name_and_the_name_above_it_is() -> None:
    page = _roll(
        "HORNBACH    Baumarkt    AG", "Filiale    547", "Heisenbergstraße    2", "33104    Paderborn"
    )

    assert extract(page, RECEIPT).output["merchant"]["name"] == "HORNBACH Baumarkt AG"


def test_a_street_whose_sharp_s_ocr_read_as_a_b_or_an_f_is_read_with_its_sharp_s() -> None:
    page = _roll("Thalia    Bücher", "WesternstraBe    2", "33098    Paderborn", "SUMME    EUR    9,99")
    other = _roll("ROLLER", "Senefelder    Strafe    2", "33100    Paderborn", "SUMME    EUR    9,99")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "Westernstraße 2, 33098 Paderborn"
    assert extract(other, RECEIPT).output["merchant"]["address"] == "Senefelder Straße 2, 33100 Paderborn"


def test_a_total_label_printed_large_over_its_amount_and_euro_sign_names_the_total() -> None:
    page = _roll("Bananen    0,95    A", "Posten:    6", "SUMME", "€    6,48", "Bar    €    6,50")

    assert extract(page, RECEIPT).output["total"] == 6.48


def test_the_amount_a_card_and_its_terminals_slip_print_alike_is_the_total_ocr_lost() -> None:
    page = _roll(
        "LADEKABEL    39,00    b",
        "Total    EUR",
        "**    (ena    *",
        "Betrag    EUR    39,00",
        "Zahlung    erfolgt",
        "GIROCARD    39,00",
        "inkl.    19,00%    MwSt    6,23",
    )

    assert extract(page, RECEIPT).output["total"] == 39.0


def test_a_date_after_its_word_with_ocrs_space_before_the_year_is_read() -> None:
    page = _roll(
        "toom    Baumarkt", "SUMME    EUR    48,77", "Datum:    04.04.    2020", "Betrag    EUR    48,77"
    )

    assert extract(page, RECEIPT).output["date"] == "2020-04-04"


def test_the_cash_handed_over_less_the_change_given_back_is_the_total_whose_label_ocr_lost() -> None:
    page = _roll(
        "MON    CHERI    5,98    B",
        "SUNNE    EUR",
        "Geg.    BAR    EUR    10,00",
        "Rückgeld    BAR    EUR    0,26",
    )
    under = _roll(
        "Bananen    0,95    A", "Posten:    6", "Bar    €    6,50", "", "Rückgeld", "Bar    €    -0,02"
    )

    assert extract(page, RECEIPT).output["total"] == 9.74
    assert extract(under, RECEIPT).output["total"] == 6.48


def test_a_line_asking_the_customer_to_pay_is_no_shops_name() -> None:
    page = _roll(
        "Argonaut    Diner",
        "Please    Pay    at    Cashier",
        "1084    Yonkers    Avenue    Yonkers,    NY    10704",
    )

    assert extract(page, RECEIPT).output["merchant"]["name"] == "Argonaut Diner"


def test_a_total_that_an_earlier_total_and_a_discount_between_add_up_to_is_the_total() -> None:
    page = _roll(
        "Apfel    1,85    AW",
        "Summe    28,30",
        "10    %    Theke    Wurst    -0,67",
        "SUMME    €    27,63",
        "Bar    €    27,70",
    )

    assert extract(page, RECEIPT).output["total"] == 27.63


def test_change_given_back_that_ocr_read_with_an_i_for_its_umlaut_makes_the_total() -> None:
    page = _roll(
        "APFELSCHORLE    0,45    A",
        "Geg.    BAR    EUR    20,19",
        "Rickgeld    BAR    EUR    15, 01",
    )

    assert extract(page, RECEIPT).output["total"] == 5.18


_SHOP_HEAD = (  # a receipt's lines under the shop's name: address, phone, currency, a first item
    "Rosenweg    29",
    "58239    Schwerte-Holzen",
    "Tel.    02304 / 983113",
    "EUR",
    "Wasa    2,49    A",
)


def test_a_brand_in_capitals_over_the_merchants_name_opens_the_shops_name() -> None:
    head = _SHOP_HEAD
    brand_over = _roll("EDEKA", "", "Schmitt", *head)
    brand_in = _roll("EDEKA", "", "EDEKA    Schmitt", *head)

    assert extract(brand_over, RECEIPT).output["merchant"]["name"] == "EDEKA Schmitt"
    assert extract(brand_in, RECEIPT).output["merchant"]["name"] == "EDEKA Schmitt"


def test_a_total_two_labels_print_alike_is_the_total_over_a_tax_tables_first_amount() -> None:
    page = _roll(
        "Florentiner    2,49    A",
        "zu    zahlen    26 ,60",
        "Bar    52,00",
        "MWST%    MWST    +    Netto    =    Brutto",
        "Summe    1,74    24,86    26,60",
    )

    assert extract(page, RECEIPT).output["total"] == 26.6


def test_two_labels_printing_nothing_to_pay_alike_do_not_make_it_the_total() -> None:
    page = _roll(
        "Gesamtbetrag    der    Zuschläge    0,00",
        "Gesamtbetrag    der    Abschläge    -0,00",
        "Bruttosumme    197,65",
        "Zahlbetrag    197,65",
    )

    assert extract(page, RECEIPT).output["total"] == 197.65


def test_a_postcode_ocr_read_with_a_letter_for_a_digit_closes_the_address_read_as_digits() -> None:
    page = _roll("theq OM", "Rosenweg    25/27", "5B239    Schwerte", "scout    BIR", "Pflaumen    0,87    A")

    assert extract(page, RECEIPT).output["merchant"]["address"] == "Rosenweg 25/27, 58239 Schwerte"


def test_a_page_of_many_totals_reads_each_lines_amount_once(monkeypatch: Any) -> None:
    from docsvc.intelligence import receipts

    page = _roll(*(f"Total    {index}.00" for index in range(1, 401)))
    read: list[str] = []
    cents_at_end = receipts._cents_at_end
    monkeypatch.setattr(
        receipts, "_cents_at_end", lambda text, signed=False: read.append(text) or cents_at_end(text, signed)
    )

    assert extract(page, RECEIPT).output["total"] is not None
    assert len(read) <= 2 * receipts._SUM_LINES  # once settling the totals, once adding two of them up


def test_a_house_number_ending_in_a_letter_is_kept_as_printed_in_the_address() -> None:
    page = _roll(
        "Acme    Hardware", "12    Main    Street", "101B    Oak    Plaza", "Springfield,    IL    62701"
    )

    address = extract(page, RECEIPT).output["merchant"]["address"]

    assert "101B Oak Plaza" in address


def test_a_postcode_ending_in_a_letter_is_no_postcode_to_repair() -> None:
    from docsvc.intelligence.receipts import postcode_repaired

    assert postcode_repaired("221B Baker Street") == "221B Baker Street"
    assert postcode_repaired("5B239 Schwerte") == "58239 Schwerte"


def test_a_title_or_a_greeting_in_capitals_over_the_merchants_name_is_no_brand() -> None:
    head = _SHOP_HEAD

    for title in ("RECEIPT", "KASSENBON", "QUITTUNG", "DUPLICATE", "WILLKOMMEN"):
        page = _roll(title, "", "Schmitt", *head)
        assert extract(page, RECEIPT).output["merchant"]["name"] == "Schmitt", title


def test_an_amount_ending_a_line_is_read_in_cents_signed_only_when_asked() -> None:
    from docsvc.intelligence.receipts import _cents_at_end

    assert _cents_at_end("Credit    $1,305.07") == 130507
    assert _cents_at_end("Rabatt -1.234,56", signed=True) == -123456
    assert _cents_at_end("Rabatt -0.67") == 67
    assert _cents_at_end("Rabatt 0,67") is None


def test_a_brand_that_is_also_a_label_word_still_opens_the_shops_name() -> None:
    head = _SHOP_HEAD

    page = _roll("NETTO", "", "Schmitt", *head)

    assert extract(page, RECEIPT).output["merchant"]["name"] == "NETTO Schmitt"
