"""A dollar named by its country's letters or in words, and party labels with a word more."""

import pytest
from docsvc.intelligence.extraction import extract
from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import currency_of, parse_date, parse_number

SCHEMA = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": ["string", "null"]},
        "currency": {"type": ["string", "null"]},
        "total": {"type": ["number", "null"]},
        "issuer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
        "customer": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
    },
}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (
            "Unit price (S$) | Total S$\nHandling ($ 0.90)\nPickup ($ 7.00)\n"
            "Delivery ($ 3.50)\nTOTAL ($ 11.40)",
            "SGD",
        ),
        ("Total HK$ 1,200.00\nDeposit $ 200.00\nBalance $ 1,000.00", "HKD"),
        ("Subtotal $ 90.00\nGST $ 9.00\nTotal $ 99.00\nAll prices are in Australian dollars", "AUD"),
        ("Total $ 12.00\nAll prices are in Singapore Dollars", "SGD"),
    ],
)
def test_a_dollar_named_by_its_country_makes_the_bare_dollar_sign_its_own(text: str, code: str) -> None:
    assert currency_of([text]) == code


def test_a_page_naming_the_us_dollar_beside_another_keeps_the_bare_sign_american() -> None:
    assert currency_of(["Fee US$ 10.00\nTax $ 1.00\nTotal $ 11.00\nor S$ 14.80"]) == "USD"


def test_a_word_ending_in_a_country_letter_before_a_dollar_sign_names_no_dollar() -> None:
    assert currency_of(["BONUS$ 5.00 and $ 6.00"]) == "USD"


def test_a_lettered_dollar_before_an_amount_reads_as_the_amount() -> None:
    assert parse_number("S$ 11.40") == (11.40, 1.0)
    assert parse_number("NZ$1,250.00") == (1250.0, 1.0)


def test_an_invoice_in_singapore_dollars_gives_sgd_though_its_amounts_print_a_bare_dollar() -> None:
    text = (
        "ACME Forwarding Pte Ltd\nINVOICE\nInvoice No: SG-1002\nDescription | Qty | Price (S$)\n"
        "Parcel | 1 | $ 7.00\nDelivery | 1 | $ 3.50\nTOTAL | | $ 10.50\n"
        "Terms: all prices stated here are in Singapore Dollars"
    )
    assert extract([text], SCHEMA).output["currency"] == "SGD"


@pytest.mark.parametrize("label", ["Bill To Customer", "Sold To Customer", "Invoice for"])
def test_a_customer_label_with_a_word_more_still_names_the_customer(label: str) -> None:
    text = (
        f"Hillside School\n\nInvoice ID\n015\n\n{label}\nAgaba Tomfrey\n\n"
        "Invoice Date\n28 Jun 2020\n\nTotal\n440.00"
    )
    output = extract([text], SCHEMA).output
    assert output["customer"]["name"] == "Agaba Tomfrey"
    assert output["issuer"]["name"] == "Hillside School"


@pytest.mark.parametrize(
    ("printed", "iso"),
    [
        ("Thu Dec 07 05:21:03 EAT 2023", "2023-12-07"),
        ("Mon Jan 15 10:00:00 GMT+03:00 2024", "2024-01-15"),
        ("JUN 24 20:49:53 2018", "2018-06-24"),
    ],
)
def test_a_date_printed_as_a_clock_prints_it_with_its_time_zone_reads_as_its_day(
    printed: str, iso: str
) -> None:
    parsed = parse_date(printed)
    assert parsed is not None and parsed.value.isoformat() == iso


def test_a_time_zone_in_lower_case_is_no_part_of_a_date() -> None:
    assert parse_date("Dec 07 05:21 the 2023") is None


def test_a_due_date_printed_with_its_time_zone_is_read() -> None:
    schema = {"type": "object", "properties": {"due_date": {"type": ["string", "null"], "format": "date"}}}
    text = "ACME Ltd\nInvoice No: 12\nDue Date: Thu Dec 07 05:21:03 EAT 2023\nTotal: 5.00"
    assert extract([text], schema).output["due_date"] == "2023-12-07"


def test_two_labels_of_one_subject_over_two_values_pair_each_with_its_own() -> None:
    text = (
        "Pahappa Ltd\n\nInvoice No: INV-2\n\nClient's Name\nClient's Contact\n\n"
        "clinton Sparrow\n0705172549\n\nTotal: 5.00"
    )
    assert extract([text], SCHEMA).output["customer"]["name"] == "clinton Sparrow"


def test_a_possessive_is_no_word_of_a_label() -> None:
    assert label_key("Client's Name") == label_key("Client Name")
    assert label_key("Customer\u2019s address") == label_key("customer address")


def test_an_upper_case_possessive_is_no_word_of_a_label() -> None:
    assert label_key("CLIENT'S NAME") == label_key("CLIENT NAME")
    assert label_key("CUSTOMER\u2019S ADDRESS") == label_key("customer address")


def test_a_c_before_the_dollar_sign_names_no_canadian_dollar_for_the_cordoba_prints_it_too() -> None:
    # the bare dollar reading holds: the page names no dollar of a country
    assert currency_of(["Total C$ 1,250.00\nAnticipo $ 250.00\nSaldo $ 1,000.00"]) == "USD"


def test_a_formulas_letter_before_a_dollar_sign_names_no_dollar_of_a_country() -> None:
    # a page of a paper or a manual with inline "$A$" or "$S$" left in its text
    assert currency_of(["Let $A$ be a matrix. Price: $ 5.00, fee $ 1.00"]) == "USD"
    assert currency_of(["For every set $S$ the cost is $ 5.00, and $ 1.00 more"]) == "USD"


def test_a_lettered_dollar_sign_names_its_dollar_only_before_an_amount_or_as_a_columns_currency() -> None:
    assert currency_of(["Total A$ 5.00\nDeposit $ 1.00"]) == "AUD"
    assert currency_of(["Total A$5.00\nDeposit $ 1.00"]) == "AUD"
    assert currency_of(["Price (S$) | Qty\nItem | $ 7.00 | 1"]) == "SGD"
    # a letter and a sign with no amount after them name no dollar
    assert currency_of(["Grade A$ is best\nFee $ 1.00"]) == "USD"
