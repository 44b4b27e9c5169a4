"""The Venezuelan bolívar's sign "Bs." before or after an amount."""

from docsvc.intelligence.values import currency_of, parse_number


def test_a_bolivar_sign_before_an_amount_names_the_bolivar() -> None:
    assert currency_of(["Subtotal\nBs.1.000,00\nIVA (16 %)\nBs.160,00\nTotal\nBs.1.160,00"]) == "VES"


def test_a_bolivar_sign_after_an_amount_names_the_bolivar() -> None:
    assert currency_of(["Total 1.200,00 Bs"]) == "VES"


def test_an_amount_behind_a_bolivar_sign_reads_as_its_number() -> None:
    assert parse_number("Bs.1.836,80", decimal_comma=True) == (1836.8, 1.0)


def test_a_word_starting_with_bs_before_an_amount_names_no_currency() -> None:
    assert currency_of(["Bsp 12,50"]) is None
