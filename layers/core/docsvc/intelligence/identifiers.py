"""Identifiers with a form and, where they have one, a check digit: IBANs (ISO 13616, mod 97), EU VAT
ids (the country's form; the check digits of Germany, France, Italy, Belgium, the Netherlands, Poland,
Portugal and Spain where they are public), Indian GSTINs (mod 36), French SIREN and SIRET (Luhn), and
BICs (ISO 9362 form).

A field is taken for one of them by its name ("iban", "vat_id", "vat_number", "tax_id", "gstin",
"siren", "siret", "bic", "swift"); its value is then the identifier found in the text read for it (as
printed, without the words around it), and text holding none is no value for it. One that passes its
check is preferred to one that only has the form; the latter (an OCR misreading, a specimen's made-up
number) is taken with a lower likelihood.

Some are printed at home in a national form, without their country code: a Polish account number
(NRB) is the IBAN less its "PL", a NIP, NIF or partita IVA the VAT id's digits alone, a Spanish CIF or
NIF the VAT id less its "ES". They are read as
such only for the countries the document shows it is from (`countries_of`): an account number is then
answered as the IBAN it makes with its country code, a national VAT id as printed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from docsvc.intelligence.labels import label_key
from docsvc.intelligence.vocabulary import HYPHENS

_IBAN = re.compile(r"\b([A-Z]{2}[ ]?\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?)\b")
_VAT = re.compile(
    r"\b(ATU\d{8}|BE ?[01]\d{3}[ .]?\d{3}[ .]?\d{3}|DE ?\d{3} ?\d{3} ?\d{3}|"
    r"FR ?[0-9A-Z]{2} ?\d{3} ?\d{3} ?\d{3}|"
    r"IT ?\d{11}|NL ?(?:\d[ .]?){9}B ?\d{2}|PL ?\d{3}[- ]?\d{3}[- ]?\d{2}[- ]?\d{2}|PT ?\d{9}|"
    r"ES ?[0-9A-Z]\d{7}[0-9A-Z]|GB ?\d{3} ?\d{4} ?\d{2}(?: ?\d{3})?|CHE[- ]?\d{3}\.?\d{3}\.?\d{3}|"
    r"(?:AT|BG|CY|CZ|DK|EE|EL|FI|HR|HU|IE|LT|LU|LV|MT|RO|SE|SI|SK|XI) ?(?=(?:[A-Z]*\d){6})[0-9A-Z]{8,12}|"
    r"EU ?\d{9})\b"
)
_GSTIN = re.compile(r"\b(\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z])\b")
_SIRET = re.compile(r"\b(\d{3} ?\d{3} ?\d{3}(?: ?\d{5})?)\b")
_BIC = re.compile(r"\b([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b")
_EU = frozenset(
    {"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "GB", "HR", "HU", "IE", "IT",
     "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK", "XI"}
)  # fmt: skip


def identifier_kind(name: str) -> str | None:
    """Which identifier a field named `name` holds, if it is one."""
    key = label_key(name)
    words = set(key)
    if "iban" in words:
        return "iban"
    if words & {"bic", "swift"}:
        return "bic"
    if "gstin" in words:
        return "gstin"
    if words & {"siret", "siren"}:
        return "siret"
    if key in {("vat", "id"), ("tax", "id"), ("vat",), ("vat", "registration", "number")} or (
        key[-2:] in {("vat", "id"), ("tax", "id")}
    ):
        return "vat"
    return None


FORM_ONLY = 0.6  # how much a value that only has an identifier's form is worth against a checked one


LOOKALIKE = (
    0.97  # how much an identifier is worth whose check passes once OCR's look-alikes are read as digits
)
_LOOKALIKES = str.maketrans("OoQDIl|", "0000111")  # letters OCR reads for 0 and 1
_MOSTLY_DIGITS = re.compile(r"\b([A-Z]{2})([0-9OoQDIl|]{2}[0-9A-Z Il|o]{6,40}?)(?=\s{2}|$|[^0-9A-Za-z |])")


def upper(text: str) -> str:
    """`text` in capitals, letter for letter: a letter whose capital is longer keeps its place ("ß" is
    not "SS"), so that offsets found in it are the text's own."""
    return "".join(char if len(char.upper()) != 1 else char.upper() for char in text)


_MASKED = re.compile(r"[Xx*]{3,}")  # digits hidden behind letters x or stars


def find_identifier(kind: str, text: str) -> tuple[str, float] | None:
    """The first identifier of `kind` in `text` as printed, one that passes its check first (quality
    1.0), else one that passes it with the letters OCR mistakes for 0 and 1 among its digits read as
    those digits ("DEO2 1203 ..." for "DE02 1203 ...", LOOKALIKE, as it then reads), else the first
    with its form (FORM_ONLY)."""
    pattern, check = _KINDS[kind]
    formed: str | None = None
    for match in pattern.finditer(upper(text)):
        printed = text[match.start(1) : match.end(1)].strip()
        if check(re.sub(r"[ .\-]", "", match.group(1).upper())):
            return printed, 1.0
        shorter = _checked_head(printed, check) if kind == "iban" else None
        if shorter is not None:
            return shorter, 1.0
        if kind == "iban" and _MASKED.search(printed):
            continue  # "DE493505000013010XXXXX": a customer's account shown in part, no one's to pay to
        formed = formed or printed
    if kind in {"iban", "vat"}:
        for match in _MOSTLY_DIGITS.finditer(text):
            rest = match.group(2)
            if sum(char.isdigit() for char in rest) < 0.6 * len(rest.replace(" ", "")):
                continue
            read = match.group(1) + rest.translate(_LOOKALIKES)
            for found in pattern.finditer(upper(read)):
                if check(re.sub(r"[ .\-]", "", found.group(1).upper())):
                    return read[found.start(1) : found.end(1)].strip(), LOOKALIKE
    return (formed, FORM_ONLY) if formed else None


def _checked_head(printed: str, check: Callable[[str], bool]) -> str | None:
    """The IBAN that opens a run of groups taken for one with the word after it ("BE95 0011 8359 9858
    avant le ...": "avant" reads as a last group), cut at its last space or spaces until its check is
    right at its country's length; None when no head of three groups or more is."""
    parts = printed.split(" ")
    for count in range(len(parts) - 1, 2, -1):
        head = " ".join(parts[:count])
        joined = head.replace(" ", "").upper()
        if _IBAN_SIZES.get(joined[:2], len(joined)) == len(joined) and check(joined):
            return head
    return None


# A tax id in no form `find_identifier` or `national_vat` knows: a country's prefix of up to three letters
# or none, then seven digits or more, apart by spaces, dots or hyphens at most ("DE09687654321" of a
# sample, a Paraguayan RUC "4849678-2", a Japanese "T3011502011134"); no slash (a German "Steuernummer"
# 201/113/40209 is no VAT id) and no date. Or a Mexican RFC: three letters (a company's) or four (a
# person's), six digits (the date of registration, not checked as one) and a three-character check
# ("ISA691119E20").
_UNFORMED_TAX_ID = re.compile(r"[A-Z]{0,3}[ -]?\d[\d .-]{5,20}[\dA-Z]|[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}")


def unformed_tax_id(text: str) -> str | None:
    """The value labelled as a tax id when it is one code of that shape and nothing else: a country's
    tax id, or a sample's, whose form the known forms do not hold. Only a value printed with its own
    label is taken so (a code anywhere else could be any number)."""
    value = text.strip().lstrip("#:.°º ").rstrip(" .,;")
    if not _UNFORMED_TAX_ID.fullmatch(value) or sum(char.isdigit() for char in value) < 7:
        return None
    if re.fullmatch(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}", value):
        return None  # a date
    return value


# The length of the IBANs of countries whose national account number is the IBAN without its country
# code (its first two digits the check digits, as a Polish NRB prints them).
_IBAN_LENGTHS = {"PL": 28}
# The length of each country's IBAN (ISO 13616's registry), for the countries invoices here come from: a
# head of a longer run that passes the check is an IBAN only at its country's length.
_IBAN_SIZES = {"AD": 24, "AE": 23, "AT": 20, "BA": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24,
               "DE": 22, "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GI": 23,
               "GL": 18, "GR": 27, "HR": 21, "HU": 28, "IE": 22, "IS": 26, "IT": 27, "LI": 21, "LT": 20,
               "LU": 20, "LV": 21, "MC": 27, "ME": 22, "MK": 19, "MT": 31, "NL": 18, "NO": 15, "PL": 28,
               "PT": 25, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26,
               "UA": 29}  # fmt: skip
_CURRENCY_COUNTRIES = {"PLN": "PL", "CZK": "CZ", "HUF": "HU", "SEK": "SE", "NOK": "NO", "DKK": "DK",
                       "CHF": "CH", "RUB": "RU", "UZS": "UZ"}  # fmt: skip
_ACCOUNT_DIGITS = re.compile(r"(?<![\w-])(\d{2}(?:[ ]?\d){10,30})(?![\w-])")


def countries_of(currency: str | None, texts: Iterable[str]) -> tuple[str, ...]:
    """The countries a document is from, as far as it shows them: its national currency's, then the
    country codes of the VAT ids and the IBANs in `texts` that pass their check, then (the Nordic
    countries, whose krone or krona "kr" names; Italy, whose euro names none) the name of a national
    register's number ("CVR", "P.IVA") or a telephone's country code ("+45")."""
    texts = list(texts)
    found = [_CURRENCY_COUNTRIES[currency]] if currency in _CURRENCY_COUNTRIES else []
    for text in texts:
        for match in _VAT.finditer(text.upper()):
            vat = re.sub(r"[ .\-]", "", match.group(1))
            if vat[:2] not in found and vat_ok(vat):
                found.append(vat[:2])
        for match in _IBAN.finditer(text):  # the bank the document is paid to is in its country
            iban = match.group(1).replace(" ", "")
            if iban[:2] not in found and iban_ok(iban):
                found.append(iban[:2])
    for mark, country in _COUNTRY_MARKS:
        if country not in found and any(mark.search(text) for text in texts):
            found.append(country)
    return tuple(found)


# A Nordic country's own register numbers and telephone codes, in the order they tell it, and the
# Italian VAT number's name.
_COUNTRY_MARKS = (
    (re.compile(r"(?i)(?<!\w)cvr(?:[\s.-]?n(?:r|ummer))?(?!\w)"), "DK"),
    (re.compile(r"(?i)(?<!\w)momsreg"), "SE"),
    (re.compile(r"(?i)(?<!\w)(?:mva|foretaksregisteret)(?!\w)"), "NO"),
    (re.compile(r"(?i)(?<!\w)y-tunnus(?!\w)"), "FI"),
    (re.compile(r"\+45[\s-]?\d"), "DK"),
    (re.compile(r"\+46[\s-]?\d"), "SE"),
    (re.compile(r"\+47[\s-]?\d"), "NO"),
    (re.compile(r"\+354[\s-]?\d"), "IS"),
    (re.compile(r"(?i)(?<!\w)(?:p\.\s?iva|partita\s+iva)(?!\w)"), "IT"),
)


def national_iban(text: str, countries: tuple[str, ...]) -> tuple[str, str] | None:
    """An account number printed without its country code that is an IBAN of one of the document's
    `countries` once the code is put before it, checked by mod 97: (as printed, the IBAN). Any number
    of that length passes the check by chance 1 in 97, so only the document's own countries, and only
    those whose national number is so printed, are tried."""
    for match in _ACCOUNT_DIGITS.finditer(text):
        digits = match.group(1).replace(" ", "")
        for country in countries:
            if _IBAN_LENGTHS.get(country) == len(digits) + 2 and iban_ok(country + digits):
                return match.group(1), country + digits
    return None


# Countries whose VAT id is usually printed at home as its digits alone, under its national name (the
# Polish NIP, the Portuguese NIF, the Italian partita IVA, the Russian ИНН of a company's ten digits or a
# sole trader's twelve, the Uzbek СТИР of nine): the digits and their check.
_NATIONAL_VAT = {"PL": re.compile(r"(?<![\w-])(\d{3}-?\d{3}-?\d{2}-?\d{2}|\d{3}-\d{2}-\d{2}-\d{3})(?![\w-])"),
                 "PT": re.compile(r"(?<![\w-])(\d{3} ?\d{3} ?\d{3})(?![\w-])"),
                 "IT": re.compile(r"(?<![\w-])(\d{11})(?![\w-])"),
                 "ES": re.compile(r"(?<![\w-])([A-HJNP-SUVW]\d{7}[0-9A-J]|[XYZ]?\d{7,8}[A-Z])(?![\w-])"),
                 "RU": re.compile(r"(?<![\w-])(\d{12}|\d{10})(?![\w-])"),
                 "UZ": re.compile(r"(?<![\w-])(\d{9})(?![\w-])"),
                 }  # fmt: skip


def national_vat(text: str, countries: tuple[str, ...]) -> tuple[str, float] | None:
    """A VAT id printed without its country code (a Polish NIP "545-182-41-19") in the national form
    of one of the document's `countries`, as printed: one that passes that country's check first
    (quality 1.0), else the first with the form (FORM_ONLY, as `find_identifier` takes one)."""
    formed: str | None = None
    for country in countries:
        pattern = _NATIONAL_VAT.get(country)
        for match in pattern.finditer(text) if pattern else ():
            digits = re.sub(r"[ \-]", "", match.group(1))
            if _NATIONAL_CHECKS[country](digits) if country in _NATIONAL_CHECKS else vat_ok(country + digits):
                return match.group(1), 1.0
            formed = formed or match.group(1)
    return (formed, FORM_ONLY) if formed else None


def iban_ok(iban: str) -> bool:
    if not 15 <= len(iban) <= 34 or not iban[:2].isalpha() or not iban[2:4].isdigit():
        return False
    moved = iban[4:] + iban[:4]
    digits = "".join(str(int(char, 36)) for char in moved)
    return int(digits) % 97 == 1


def vat_ok(vat: str) -> bool:
    country, rest = vat[:2], vat[2:]
    if vat.startswith("CHE"):
        return len(vat) == 12
    if country == "EU":  # a seller outside the Union registered for its one-stop shop (OSS): EU + 9 digits
        return len(rest) == 9 and rest.isdigit()
    if country not in _EU:
        return False
    check = _VAT_CHECKS.get(country)
    return check(rest) if check else 8 <= len(rest) <= 12


def luhn_ok(number: str) -> bool:
    if not number.isdigit():
        return False
    total = 0
    for index, char in enumerate(reversed(number)):
        digit = int(char) * (2 if index % 2 else 1)
        total += digit - 9 if digit > 9 else digit
    return total % 10 == 0


def gstin_ok(gstin: str) -> bool:
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if len(gstin) != 15 or any(char not in alphabet for char in gstin):
        return False
    total = 0
    for index, char in enumerate(gstin[:14]):
        product = alphabet.index(char) * (2 if index % 2 else 1)
        total += product // 36 + product % 36
    return alphabet[(36 - total % 36) % 36] == gstin[14]


def _de(rest: str) -> bool:  # ISO 7064 MOD 11,10
    if len(rest) != 9 or not rest.isdigit():
        return False
    product = 10
    for char in rest[:8]:
        total = (int(char) + product) % 10 or 10
        product = (2 * total) % 11
    return (11 - product) % 10 == int(rest[8])


def _fr(rest: str) -> bool:
    if len(rest) != 11 or not rest[2:].isdigit():
        return False
    if not rest[:2].isdigit():
        return True  # the newer alphanumeric keys
    return int(rest[:2]) == (12 + 3 * (int(rest[2:]) % 97)) % 97


def _it(rest: str) -> bool:
    return len(rest) == 11 and luhn_ok(rest)


def _be(rest: str) -> bool:
    rest = rest.zfill(10)
    return len(rest) == 10 and rest.isdigit() and 97 - int(rest[:8]) % 97 == int(rest[8:])


def _nl(rest: str) -> bool:
    if len(rest) != 12 or rest[9] != "B" or not rest[:9].isdigit() or not rest[10:].isdigit():
        return False
    total = sum(int(digit) * weight for digit, weight in zip(rest[:8], range(9, 1, -1), strict=True))
    if (total % 11) % 10 == int(rest[8]) and total % 11 != 10:
        return True
    digits = "".join(str(int(char, 36)) for char in "NL" + rest)  # the 2020 sole-trader ids: mod 97
    return int(digits) % 97 == 1


def _pl(rest: str) -> bool:
    if len(rest) != 10 or not rest.isdigit():
        return False
    weights = (6, 5, 7, 2, 3, 4, 5, 6, 7)
    return sum(int(digit) * weight for digit, weight in zip(rest, weights, strict=False)) % 11 == int(rest[9])


def _pt(rest: str) -> bool:
    if len(rest) != 9 or not rest.isdigit():
        return False
    total = sum(int(digit) * weight for digit, weight in zip(rest[:8], range(9, 1, -1), strict=True))
    check = 11 - total % 11
    return (0 if check >= 10 else check) == int(rest[8])


def _es(rest: str) -> bool:
    return len(rest) == 9


def _es_national(number: str) -> bool:
    """A Spanish tax id printed alone: a company's CIF (a letter, seven digits and a control digit or
    letter) or a person's NIF / NIE (eight digits, or X, Y or Z and seven, and a control letter)."""
    if number[0].isdigit() or number[0] in "XYZ":
        digits = str("XYZ".find(number[0])) + number[1:-1] if number[0] in "XYZ" else number[:-1]
        return len(number) == 9 and digits.isdigit() and _NIF_LETTERS[int(digits) % 23] == number[-1]
    middle = number[1:8]
    odd = sum(sum(divmod(int(digit) * 2, 10)) for digit in middle[0::2])
    control = (10 - (odd + sum(int(digit) for digit in middle[1::2])) % 10) % 10
    return number[-1] in {str(control), "JABCDEFGHI"[control]}


_NIF_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _inn_digit(digits: str, weights: tuple[int, ...]) -> int:
    return sum(int(digit) * weight for digit, weight in zip(digits, weights, strict=False)) % 11 % 10


def _ru_national(number: str) -> bool:
    """The Russian taxpayer number (ИНН): ten digits whose last checks the nine before it, or twelve
    whose last two check the ten and eleven before them."""
    weights = (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
    if len(number) == 10:
        return _inn_digit(number, weights[2:]) == int(number[9])
    if len(number) == 12:
        tenth = _inn_digit(number, weights[1:]) == int(number[10])
        return tenth and _inn_digit(number, weights) == int(number[11])
    return False


_NATIONAL_CHECKS: dict[str, Callable[[str], bool]] = {"ES": _es_national, "RU": _ru_national}


def _siret_ok(number: str) -> bool:
    return len(number) in {9, 14} and luhn_ok(number)


def _bic_ok(bic: str) -> bool:
    return len(bic) in {8, 11} and bic[4:6].isalpha()


_VAT_CHECKS: dict[str, Callable[[str], bool]] = {
    "DE": _de, "FR": _fr, "IT": _it, "BE": _be, "NL": _nl, "PL": _pl, "PT": _pt, "ES": _es,
}  # fmt: skip
_KINDS: dict[str, tuple[re.Pattern[str], Callable[[str], bool]]] = {
    "iban": (_IBAN, iban_ok),
    "vat": (_VAT, vat_ok),
    "gstin": (_GSTIN, gstin_ok),
    "siret": (_SIRET, _siret_ok),
    "bic": (_BIC, _bic_ok),
}


_DATE_TOKEN = re.compile(r"^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\.?$")
# A date whose parts are printed a space apart, as Czech and Slovak documents do ("10. 02. 2015").
_SPACED_DATE = re.compile(r"\d{1,2}\.\s\d{1,2}\.\s\d{4}(?!\d)")


def is_reference_field(key: tuple[str, ...]) -> bool:
    """A field holding a document's reference ("invoice number", "order id"): a code, not a phone
    number or an identifier with a form of its own."""
    return key[-1:] in {("number",), ("id",)} and not set(key) & {"phone", "fax", "mobile", "vat", "tax"}


def reference_code(text: str, dated: bool = False) -> str | None:
    """The code a reference field's text starts with: its first words while they read as a code (a
    digit in them, or a short prefix in capitals before one), up to a word of a sentence or a date
    ("RE-505 von 09.05.2017" is "RE-505"); None when the text starts with no code, or with a date
    (unless `dated`: its label says it is a number, "Faktura nr 1/3/2024")."""
    text = text.translate(HYPHENS)
    if _SPACED_DATE.match(text) and not dated:
        return None
    tokens = [token for token in text.split() if not (token.startswith("(") and token.endswith(")"))]
    taken: list[str] = []
    for index, token in enumerate(tokens):
        bare = token.strip(",;:")
        digit = any(char.isdigit() for char in bare)
        prefix = bare.isupper() and len(bare) <= 5 and index + 1 < len(tokens)
        if prefix and taken and _DATE_TOKEN.match(tokens[index + 1].strip(",;:")):
            prefix = False  # a word in capitals between a code and its date: "B424-020171400 DU 26/10/2024"
        if (
            _DATE_TOKEN.match(bare)
            and not (dated and not taken)
            and not (taken and not any(char.isdigit() for char in "".join(taken)))
        ):
            break  # a date ends a code, and is none: "Data da emissão 03/06/2025" dates, numbers nothing
        # (after a prefix alone it is the code's number: Polish "FV 3/05/2021" is invoice 3 of May 2021)
        if not bare or not (digit or (prefix and any(char.isdigit() for char in tokens[index + 1]))):
            break
        taken.append(_unpadded(bare))
        if token.endswith((",", ";")):
            break
    return " ".join(taken) or None


# A number zero-padded to a fixed width and printed in groups of three ("000.043.445", "000,001,452":
# how Brazil's DANFE prints the NF-e's nine-digit number): the number it pads is the reference. Its first
# group opens with "00": one zero ("012.345.678") is as likely a code's own digit as padding.
_PADDED_GROUPS = re.compile(r"00\d([.,])\d{3}(?:\1\d{3})+")


def _unpadded(code: str) -> str:
    """`code` without its padding zeros and group separators when it is a padded, grouped number
    ("000.043.445" is 43445); any other code as printed ("0001234", "2024.001", "012.345",
    "012.345.678")."""
    if not _PADDED_GROUPS.fullmatch(code):
        return code
    return code.replace(code[3], "").lstrip("0") or "0"
