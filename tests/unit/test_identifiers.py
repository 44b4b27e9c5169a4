"""Identifiers read by their form and check digits, and the codes of reference fields."""

from __future__ import annotations

import pytest
from docsvc.intelligence.identifiers import (
    FORM_ONLY,
    LOOKALIKE,
    find_identifier,
    identifier_kind,
    reference_code,
)


@pytest.mark.parametrize(
    ("kind", "text", "found"),
    [
        ("iban", "IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX", "DE89 3704 0044 0532 0130 00"),
        ("iban", "GB82WEST12345698765432", "GB82WEST12345698765432"),
        ("vat", "USt-ID: DE136695976", "DE136695976"),
        ("vat", "TVA : FR11999999998 - SIRET : 99999999800010", "FR11999999998"),
        ("vat", "P.IVA IT00743110157", "IT00743110157"),
        ("vat", "BTW NL004495445B01", "NL004495445B01"),
        ("vat", "NIP PL5260250995", "PL5260250995"),
        ("vat", "EU OSS VAT EU372041333", "EU372041333"),
        ("gstin", "GSTIN: 27AAPFU0939F1ZV", "27AAPFU0939F1ZV"),
        ("siret", "SIRET 732 829 320 00074", "732 829 320 00074"),
        ("bic", "BIC : FIDCFR21XXX - Banque", "FIDCFR21XXX"),
    ],
)
def test_an_identifier_that_passes_its_check_is_taken_as_printed(kind: str, text: str, found: str) -> None:
    assert find_identifier(kind, text) == (found, 1.0)


def test_one_that_only_has_the_form_is_taken_with_less_likelihood_after_any_that_checks() -> None:
    assert find_identifier("iban", "DE89 3704 0044 0532 0130 01") == (
        "DE89 3704 0044 0532 0130 01",
        FORM_ONLY,
    )
    assert find_identifier("vat", "DE123456789 or DE136695976") == ("DE136695976", 1.0)
    assert find_identifier("iban", "Account 12345678") is None


@pytest.mark.parametrize(
    ("name", "kind"),
    [("iban", "iban"), ("vat_id", "vat"), ("issuer_vat_id", "vat"), ("tax_id", "vat"), ("gstin", "gstin"),
     ("siret", "siret"), ("swift_code", "bic"), ("invoice_number", None), ("vat_rate", None)],
)  # fmt: skip
def test_a_field_is_an_identifier_by_its_name(name: str, kind: str | None) -> None:
    assert identifier_kind(name) == kind


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("RE-20170509/505 von 09.05.2017", "RE-20170509/505"),
        ("RE-20190610/507 issued at 2019-06-10", "RE-20190610/507"),
        ("INV 2041", "INV 2041"),
        ("471102   vom", "471102"),
        ("INV-001 2024-01-15", "INV-001"),
        ("9314110911/00/M/00/N", "9314110911/00/M/00/N"),
        ("Buyer contact name", None),
        ("(380)", None),
    ],
)
def test_a_reference_is_the_code_its_text_starts_with(text: str, code: str | None) -> None:
    assert reference_code(text) == code


def test_an_identifier_ocr_printed_with_letters_for_0_and_1_is_read_when_its_check_then_passes() -> None:
    assert find_identifier("iban", "IBAN: DEO2120300000000202051") == ("DE02120300000000202051", LOOKALIKE)
    assert find_identifier("vat", "USt-IdNr.: DEl36695976") == ("DE136695976", LOOKALIKE)
    assert find_identifier("iban", "IBAN: DE02 1203 0000 0000 2020 5l") == (
        "DE02 1203 0000 0000 2020 51",
        LOOKALIKE,
    )


def test_letters_read_as_digits_do_not_make_an_identifier_whose_check_still_fails() -> None:
    assert find_identifier("iban", "IBAN: DEO2120300000000202052") is None


def test_a_grouped_number_opening_with_one_zero_is_kept_as_printed() -> None:
    from docsvc.intelligence.identifiers import reference_code

    assert reference_code("012.345.678") == "012.345.678"
    assert reference_code("001.234.567") == "1234567"
