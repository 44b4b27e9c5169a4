"""Currency codes that are also words or abbreviations count only where they price an amount."""

from docsvc.intelligence.values import currency_of, parse_number


def test_a_version_after_a_code_shaped_word_names_no_currency() -> None:
    assert currency_of(["Runs on PHP 8.2", "Total $ 120.00", "Tax $ 20.00"]) == "USD"


def test_a_code_shaped_abbreviation_before_no_amount_names_no_currency() -> None:
    assert currency_of(["GHS Rev. 9 labels", "Total $120.00"]) == "USD"
    assert currency_of(["CLP Regulation 2008", "Total $120.00"]) == "USD"


def test_code_shaped_words_beside_an_amount_still_name_their_currency() -> None:
    assert currency_of(["Total COP 1.250.000"]) == "COP"
    assert currency_of(["Total GHS 120.00"]) == "GHS"
    assert currency_of(["PHP 1,250.00"]) == "PHP"


def test_a_capitalised_word_before_a_number_is_no_currency_sign() -> None:
    assert parse_number("Rm 204") is None
    assert parse_number("Pen 5") is None
    assert parse_number("RM 204") == (204.0, 1.0)


def test_a_code_shaped_word_ending_a_table_cell_before_its_amount_names_its_currency() -> None:
    assert currency_of(["| TOTAL A PAGAR COP | 30,850.00 |", "| IVA | $ 4,550.42 |"]) == "COP"
    assert currency_of(["| GHS | Rev. 9 |", "Total $120.00"]) == "USD"


def test_a_reference_numbered_after_an_s_and_a_slash_is_no_sol() -> None:
    assert currency_of(["Invoice", "Our ref: S/2023/145", "Total 100.00"]) is None
    assert currency_of(["Total S/ 380.00"]) == "PEN"
    assert currency_of(["Total S/. 1,380.00"]) == "PEN"
