"""Values as documents print them: numbers, dates, times, booleans and check marks.

Amounts are read with currency signs or codes, thousands separators and either decimal mark; dates
numeric (day or month first), ISO or written out; booleans as yes/no words or marks; check boxes as
the ticked or unticked options of a line. A document's own amounts and dates tell which decimal mark
and which order of day and month it uses.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from docsvc.intelligence.vocabulary import HYPHENS, plain

_CURRENCY = re.compile(
    r"(?i)(?<![a-z])(?:usd|eur|gbp|jpy|chf|cad|aud|nzd|cny|rmb|inr|sek|nok|dkk|pln|czk|huf|brl|mxn|zar|"
    r"sgd|hkd|krw|rub|ils|aed|sar|try|rsd|aoa|pyg|ron|uah|bgn|mkd|us\$|ca\$|au\$|a\$|c\$|r\$|sg\$|s\$|hk\$|nz\$|rs\.?|kr\.?|fr\.|"
    r"ft|tl|kz|gs\.?|din\.?|дин\.?|руб\.?|грн\.?|ден\.?|lei|idr|vnd|uzs|rp\.?|myr|kes|twd|clp|ars|"  # noqa: RUF001
    r"dzd|egp|ngn|ghs|thb|lkr|pkr|bdt|tnd|xof|xaf|kwd|qar|isk|nt\$|ksh|kč|zł|"
    r"(?-i:RM|PEN|MAD|PHP|COP|Bs\.?|S/\.?))(?![a-z])|"
    r"新台幣|新臺幣|新台币|[$€£¥₹₩₽₺₪₫฿₴₦₱¢₲元円]"
)
_STOP_AFTER_AMOUNT = re.compile(r"(?<=\d)\s+\.$")
_UNIT_AFTER = re.compile(r"(.*?[\d)])\s*(%|[^\W\d_]{1,6}\.?)")
_GROUP_SPACES = " '\u2019\u00a0\u202f"  # thousands separated by spaces or apostrophes: 1 234,50, 1'234.50
_AMOUNT = re.compile(
    rf"(?P<open>\()?\s*(?P<sign>[-+\u2212\u2013])?\s*(?P<digits>\d(?:[\d.,{_GROUP_SPACES}]*\d)?)\s*(?P<close>\))?"
    r"\s*(?P<trail>-)?"
)
_GROUPED = re.compile(rf"\d{{1,3}}(?:[{_GROUP_SPACES}]\d{{3}})+(?:[.,]\d+)?")
_MOST_DIGITS = 15  # digits before the decimal mark of the largest number read as one
# A whole amount whose cents are a dash, as Dutch, German and Swiss prices print it: "€6,-", "1.250,--".
_WHOLE_DASH = re.compile(r"(.*\d[.,])[-\u2013\u2014]{1,2}")


# A single letter that is a currency's sign before an amount: the South African rand's "R 4 968,00", the
# Guatemalan quetzal's "Q 6,599.00", and the euro's sign as the text layer of a TeX document set with the
# eurosym fonts gives it, a lower-case "e" ("e 1 710,00"). Only before an amount with its cents, so that a
# quarter ("Q1"), a row ("R2") or a reference is no amount.
_LETTER_SIGNS = {"R": "ZAR", "Q": "GTQ", "e": "EUR"}
# A character the program that wrote the PDF could not encode, as its text layer gives it: the
# replacement character, or its UTF-8 bytes read as Latin-1 ("3.149,00ï¿½kr.", a no-break space lost).
# Between an amount and its currency it stands for a space.
_BROKEN = re.compile("\ufffd|\u00ef\u00bf\u00bd")
_LETTER_SIGN = re.compile(  # "e" not after a figure: "10,00 e 20,00" is "and" in Italian and Portuguese
    r"(?<![^\W\d_])([RQ]|(?<!\d )e)\s?(?=\d{1,3}(?:[ ,.\u00a0]?\d{3})*[.,]\d{2}(?![\d.,]|\s\d))"
)


_RULE_AFTER = re.compile(
    r"\s+(?:-{2,}|_{2,}|={2,})\s*$"
)  # "€ 59,38 ---": a rule drawn in text after the amount


def parse_number(text: str, decimal_comma: bool = False) -> tuple[float, float] | None:
    """The number written in `text` and how cleanly it was written (1.0, or less with a unit after it).

    Accepts currency signs and codes, thousands separators (",", ".", spaces, apostrophes), either
    decimal mark, whole amounts with a dash for their cents ("6,-"), and negatives as "-12.50", "12.50-"
    or "(12.50)". A lone separator before exactly
    three digits ("1,200", "1.200") is a thousands separator unless `decimal_comma` says otherwise for
    the comma or the point respectively.
    """
    cleaned = _CURRENCY.sub(
        " ", _LETTER_SIGN.sub(" ", _BROKEN.sub(" ", _RULE_AFTER.sub("", text[:100])))
    ).strip()
    # a sentence's stop after the amount, or after its currency's code: "2906.99 zł.", "ҚҚС: 571.42 ."
    cleaned = _STOP_AFTER_AMOUNT.sub("", cleaned)
    quality = 1.0
    unit = _UNIT_AFTER.fullmatch(cleaned)
    if unit:
        cleaned, quality = unit.group(1), 1.0 if unit.group(2) == "%" else 0.9
    whole = _WHOLE_DASH.fullmatch(cleaned)
    if whole:
        cleaned = whole.group(1) + "00"
    match = _AMOUNT.fullmatch(cleaned)
    if not match or bool(match["open"]) != bool(match["close"]):
        return None
    magnitude = _magnitude(match["digits"], decimal_comma)
    if magnitude is None:
        return None
    negative = bool(match["open"] or match["trail"] or (match["sign"] and match["sign"] != "+"))
    return (-magnitude if negative else magnitude), quality


def _magnitude(digits: str, decimal_comma: bool) -> float | None:
    if any(space in digits for space in _GROUP_SPACES):
        if not _GROUPED.fullmatch(digits):
            return None
        digits = "".join(char for char in digits if char not in _GROUP_SPACES)
    commas, points = digits.count(","), digits.count(".")
    if commas and points:
        decimal = "," if digits.rfind(",") > digits.rfind(".") else "."
    elif commas == 1 and (decimal_comma or not _three_after(digits, ",")):
        decimal = ","
    elif points == 1 and not (decimal_comma and _three_after(digits, ".")):
        decimal = "."
    else:
        decimal = ""
    thousands = "." if decimal == "," or (not decimal and points) else ","
    whole, _, fraction = digits.partition(decimal) if decimal else (digits, "", "")
    if not fraction.isdigit() and fraction:
        return None
    if thousands in whole and not re.fullmatch(rf"\d{{1,3}}(?:\{thousands}\d{{3}})+", whole):
        return None
    whole = whole.replace(thousands, "")
    if len(whole) > _MOST_DIGITS:
        return None  # a barcode's or an authorisation's digits, no amount (nor one a float holds exactly)
    return float(f"{whole}.{fraction or 0}") if whole.isdigit() else None


def _three_after(digits: str, separator: str) -> bool:
    before, _, after = digits.partition(separator)
    return len(after) == 3 and 1 <= len(before) <= 3


# Letters of right-to-left scripts: Hebrew, Arabic, Syriac, Thaana.
RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff"

# A sign of more than one character first: "R$" is the Brazilian real, not the dollar it contains.
_CURRENCY_SIGNS = {
    "R$": "BRL", "NT$": "TWD", "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "￥": "JPY", "₹": "INR",
    "₩": "KRW", "₽": "RUB", "₺": "TRY", "₲": "PYG", "₴": "UAH", "元": "CNY", "円": "JPY", "₪": "ILS",
    "₫": "VND",
}  # fmt: skip
# A sign written as a word after the amount ("27 333,06 zł", "701.10 zl" in a font without "ł", "1 250 Kč",
# "12 700 Ft", "1.500,00 дин", the Kuwaiti dinar's "20.000 KD"), not the start of a longer word.
_WORD_SIGNS = {
    "zł": "PLN", "zl": "PLN", "Kč": "CZK", "Ft": "HUF", "TL": "TRY", "Kz": "AOA", "kz": "AOA", "Gs": "PYG",
    "din": "RSD", "RSD": "RSD", "lei": "RON", "Fr": "CHF", "kn": "HRK", "ден": "MKD",
    "дин": "RSD", "руб": "RUB", "грн": "UAH", "лв": "BGN", "сум": "UZS", "Rp": "IDR", "đ": "VND",  # noqa: RUF001
    "RM": "MYR", "KSh": "KES", "Ksh": "KES", "KShs": "KES", "S/": "PEN", "Bs": "VES", "KD": "KWD",
}  # fmt: skip
_WORD_SIGN = re.compile(r"(?<=\d)\s?(" + "|".join(_WORD_SIGNS) + r")(?![^\W\d_])")
# A sign no word of a language is, standing as a word in a line without figures: a table's column
# heading or a label that names the currency of its amounts ("čerpáno Kč", "Kwota zł", "Цена (ден)").
_HEADING_SIGN = re.compile(r"(?<![^\W\d_])(Kč|zł|ден|лв|грн)(?![^\W\d_])")
# A sign written before the amount ("Gs. 150.000", "Kz 1 250,00", "Fr. 120.50", "TL 99,90", the Malaysian
# ringgit's "RM 100.00", the Venezuelan bolívar's "Bs.1.000,00", the Kenyan shilling's "KSh 1,184.92",
# the Peruvian sol's "S/ 380.00", "S/. 380.00").
# "Fr" only with its point: a German "Fr" before a date is Friday. "S/" only before an amount with its
# cents, no "/" after it: a reference is numbered so too ("Our ref: S/2023/145").
_SOL_AMOUNT = r"\.?\s?\d{1,3}(?:[,.\s]?\d{3})*[.,]\d{2}(?![\d/])"
_SIGN_BEFORE = re.compile(
    rf"(?<![^\W\d_])(Gs|Kz|Fr(?=\.)|TL|Ft|Rp|RM|Bs|KShs|KSh|Ksh|S/(?={_SOL_AMOUNT}))\.?\s?(?=\d)"
)
_REPLACED_BY_EURO = frozenset({"DEM", "FRF", "ITL", "NLG", "BEF", "FIM", "PTE", "IEP", "GRD", "LUF"})
_CURRENCY_CODE = re.compile(
    r"(?<![A-Za-z])(USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|RMB|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|SGD|HKD|"
    r"RSD|AOA|PYG|UAH|RUB|KRW|BGN|ILS|IDR|VND|UZS|MKD|MYR|KES|TWD|ARS|DZD|EGP|NGN|THB|LKR|PKR|"
    r"BDT|TND|XOF|XAF|KWD|QAR|ISK|NPR|MUR|GTQ|VES|BHD|OMR|JOD|"
    # the currencies the euro replaced, as invoices before 2002 and their archives print them ("Total
    # Amount (DEM)"); not "ESP" or "ATS", which name Spain and more besides
    + "|".join(sorted(_REPLACED_BY_EURO))
    + r")(?![A-Za-z])"
)
# Codes that are also English words, names or abbreviations ("TRY", "RON", "PEN", "MAD", "PHP", "GHS" for
# the Globally Harmonized System, "CLP" and "COP" of regulations and documents): a currency only beside an
# amount, or ending a line, or a table's cell before an amount's ("TOTAL A PAGAR COP", "| TOTAL A PAGAR COP |
# 30,850.00 |");
# before a number (spaces apart, as a column of amounts sets it: "TOTAL A PAGAR COP    30,850.00") only
# one shaped as an amount, no version ("PHP 8.2").
_WORD_CODES = "TRY|RON|PEN|MAD|PHP|GHS|CLP|COP"
_AMOUNT_AFTER = r"(?=\d+(?:[., ]\d{3})*(?:[.,]\d\d)?(?![\d]|[.,]\d))"
_WORD_CODE = re.compile(
    rf"(?<=\d)\s?({_WORD_CODES})(?![A-Za-z])|(?<![A-Za-z])({_WORD_CODES})[ \t]*{_AMOUNT_AFTER}|"
    rf"(?<![A-Za-z])({_WORD_CODES})(?:\s*$|[ \t]*\|[ \t]*{_AMOUNT_AFTER})"
)
_CODE_ALIASES = {"RMB": "CNY"}
# A code printed in capital and small letters beside an amount, as some report writers print it
# ("Factuurtotaal    Eur    386,03", "386,03 Eur"): only beside the amount, where no word stands.
_TITLED_CODE = re.compile(
    r"(?<![^\W\d_])(Eur|Usd|Gbp|Chf)\.?[ \t]*(?=\d)|(?<=\d)[ \t]*(Eur|Usd|Gbp|Chf)(?![^\W\d_])"
)
# A currency named in words ("ukupno dinara", "Moneda: Guaraní", "人民币"): weaker than a code, like a sign.
# Written as `plain` gives them (lower case, no accents).
_CURRENCY_WORDS = {
    "forint": "HUF", "dinara": "RSD", "kwanza": "AOA", "kwanzas": "AOA", "guarani": "PYG",
    "guaranies": "PYG", "yuan": "CNY", "renminbi": "CNY", "turk lirasi": "TRY", "schweizer franken": "CHF",
    "francs suisses": "CHF", "franchi svizzeri": "CHF", "yen": "JPY", "euro": "EUR", "euros": "EUR",
    "zlotych": "PLN", "zlote": "PLN", "zloty": "PLN", "korun": "CZK", "kuna": "HRK", "leva": "BGN",
    "динара": "RSD", "рублеи": "RUB", "рубля": "RUB", "гривень": "UAH", "гривні": "UAH",
    "сум": "UZS", "rupiah": "IDR", "soles": "PEN", "nuevos soles": "PEN",
    "shekel": "ILS", "shekels": "ILS", "شيكل": "ILS",
}  # fmt: skip
# A dollar written with its country's letters before the sign ("S$ 11.40", "A$", "HK$"; not "C$", the
# Nicaraguan córdoba's sign as well as the Canadian dollar's), or named in words ("Singapore dollars"): a
# page that names its dollar so prices in it with the bare "$" too, unless it also names the US dollar.
# The sign before an amount ("S$ 11.40") or closing a column's parenthesised currency ("Price (S$)"), and
# not after a "$": "Let $A$ be" is a formula's letter.
_LETTERED_DOLLARS = {
    "US": "USD", "SG": "SGD", "S": "SGD", "AU": "AUD", "A": "AUD", "CA": "CAD", "NZ": "NZD", "HK": "HKD",
}  # fmt: skip
_LETTERED_DOLLAR = re.compile(
    r"(?<![^\W\d_])(?<!\$)(" + "|".join(_LETTERED_DOLLARS) + r")\$(?=[ \t\u00a0]?(?:\d|\)))"
)
_DOLLAR_WORDS = {
    "singapore": "SGD", "australian": "AUD", "canadian": "CAD", "new zealand": "NZD", "hong kong": "HKD",
    "us": "USD", "u s": "USD", "united states": "USD", "american": "USD",
}  # fmt: skip
_DOLLAR_WORD = re.compile(r"(?<![^\W\d_])(" + "|".join(_DOLLAR_WORDS) + r") dollars?(?![^\W\d_])")
# The New Taiwan dollar named in Han characters: the "元" and "$" of a page that names it are its own.
_HAN_CURRENCY_WORDS = {
    "人民币": "CNY", "人民幣": "CNY", "日本円": "JPY", "新台幣": "TWD", "新臺幣": "TWD", "新台币": "TWD",
}  # fmt: skip
_CURRENCY_WORD = re.compile(
    r"(?<![^\W\d_])("
    + "|".join(sorted(map(re.escape, _CURRENCY_WORDS), key=len, reverse=True))
    + r")(?![^\W\d_])|("
    + "|".join(_HAN_CURRENCY_WORDS)
    + ")"
)
# Han characters with no kana: a Chinese document, whose "¥" is the yuan.
_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")


def currency_of(texts: Iterable[str]) -> str | None:
    """The ISO code of the currency a document's amounts are in: its codes, else its signs ("$" is
    USD, "zł" after an amount PLN), the most frequent; None when it shows none."""
    codes: dict[str, int] = {}
    signs: dict[str, int] = {}
    han = kana = False
    yen_signs = 0
    dollars: set[str] = set()  # the dollars the page names by their country
    texts_seen: list[str] = []
    for text in texts:
        texts_seen.append(text)
        han, kana = han or bool(_HAN.search(text)), kana or bool(_KANA.search(text))
        for letters in _LETTERED_DOLLAR.findall(text):
            code = _LETTERED_DOLLARS[letters]
            signs[code] = signs.get(code, 0) + 1
            dollars.add(code)
        text = _LETTERED_DOLLAR.sub(" ", text)
        for country in _DOLLAR_WORD.findall(" ".join(plain(text).replace(".", " ").split())):
            code = _DOLLAR_WORDS[country]
            signs[code] = signs.get(code, 0) + 1
            dollars.add(code)
        yen_signs += text.count("¥") + text.count("￥")
        found_codes = _CURRENCY_CODE.findall(text) + ["".join(pair) for pair in _WORD_CODE.findall(text)]
        found_codes += ["".join(pair).upper() for pair in _TITLED_CODE.findall(text)]
        for code in found_codes:
            code = _CODE_ALIASES.get(code, code)
            codes[code] = codes.get(code, 0) + 1
        for sign in _WORD_SIGN.findall(text) + _SIGN_BEFORE.findall(text):
            signs[_WORD_SIGNS[sign]] = signs.get(_WORD_SIGNS[sign], 0) + 1
        for sign in _LETTER_SIGN.findall(text):
            signs[_LETTER_SIGNS[sign]] = signs.get(_LETTER_SIGNS[sign], 0) + 1
        if not any(char.isdigit() for char in text):  # a column's heading: "čerpáno Kč", "Kwota (zł)"
            for sign in set(_HEADING_SIGN.findall(text)):
                signs[_WORD_SIGNS[sign]] = signs.get(_WORD_SIGNS[sign], 0) + 1
        for word, han_word in _CURRENCY_WORD.findall(plain(text).replace("ı", "i")):  # noqa: RUF001
            code = _CURRENCY_WORDS[word] if word else _HAN_CURRENCY_WORDS[han_word]
            signs[code] = signs.get(code, 0) + 1
        for sign, code in _CURRENCY_SIGNS.items():
            if sign in text:
                signs[code] = signs.get(code, 0) + text.count(sign)
                text = text.replace(sign, " ")
    if han and not kana and yen_signs:  # "¥" on a Chinese page (Han characters, no kana): the yuan
        signs["JPY"] -= yen_signs
        signs["CNY"] = signs.get("CNY", 0) + yen_signs
        if not signs["JPY"]:
            del signs["JPY"]
    if "TWD" in signs:  # a page naming the New Taiwan dollar prices in it with "元" and "$" too
        signs["TWD"] += signs.pop("CNY", 0) + signs.pop("USD", 0)
    if len(dollars) == 1 and "USD" not in dollars:  # "S$" or "Singapore dollars": its "$" is that dollar
        (named,) = dollars
        signs[named] += signs.pop("USD", 0)
    peso = None if dollars or "USD" not in signs else _peso_of(texts_seen)
    if peso:  # "$" on a page of a country whose sign it is: its peso
        signs[peso] = signs.get(peso, 0) + signs.pop("USD")
    if "EUR" in signs:  # a page printing "€" prices in euros: "PTE 7" is a door's number ("porte 7")
        codes = {code: count for code, count in codes.items() if code not in _REPLACED_BY_EURO}
    found = codes or signs
    return max(found, key=lambda code: (found[code], code)) if found else None


# The countries whose peso prints as a bare "$", by the country's name, its peso named in words, its tax
# id's name before its digits (the Chilean and the Uruguayan RUT, the Argentine CUIT, the Mexican RFC; not
# "RFC" alone, an Internet standard's) or a Chilean comuna in an address: a page that shows one prices in
# its peso with the "$" (not "New Mexico", a US state).
_PESO_SIGNALS = (
    (
        "CLP",
        re.compile(
            r"(?<![^\W\d_])(?:chile|pesos? chilenos?|comuna)(?![^\W\d_])|(?<![^\W\d_])r\.?u\.?t\b[.:\s]*\d"
        ),
    ),
    ("UYU", re.compile(r"(?<![^\W\d_])(?:uruguay|pesos? uruguayos?)(?![^\W\d_])")),
    (
        "ARS",
        re.compile(
            r"(?<![^\W\d_])(?:argentina|pesos? argentinos?)(?![^\W\d_])|(?<![^\W\d_])c\.?u\.?i\.?t\b[.:\s]*\d"
        ),
    ),
    (
        "MXN",
        re.compile(
            r"(?<![^\W\d_])(?<!new )(?:mexico|pesos? mexicanos?)(?![^\W\d_])"
            r"|(?<![^\W\d_])r\.?f\.?c\b[.:\s]*[a-z&]{3,4}\d"
        ),
    ),
    ("COP", re.compile(r"(?<![^\W\d_])(?:colombia|pesos? colombianos?)(?![^\W\d_])")),
)


def _peso_of(texts: Iterable[str]) -> str | None:
    """The peso of the one country among those that print it as "$" that the page shows (Uruguay's
    name before the RUT it shares with Chile); None when it shows none, or two."""
    text = " ".join(plain(each) for each in texts)
    shown = [code for code, signal in _PESO_SIGNALS if signal.search(text)]
    if "UYU" in shown and "CLP" in shown:
        shown.remove("CLP")
    return shown[0] if len(shown) == 1 else None


# "kr" after an amount ("10.000,00 kr.", "250 kr") or heading a column of them ("Moms kr", "Belopp (kr)"):
# the krone or krona of the country the document is from, which its own VAT ids or IBANs show (it
# names no other).
_KRONE = re.compile(r"(?<![^\W_])kr\b\.?", re.IGNORECASE)
_KRONE_COUNTRIES = {"DK": "DKK", "SE": "SEK", "NO": "NOK", "IS": "ISK"}


def krone_of(texts: Iterable[str], countries: Iterable[str]) -> str | None:
    """The currency of amounts printed with "kr" only: the krone or krona of the first of the
    document's `countries` that has one; None when no "kr" is printed or no such country is shown."""
    if not any(_KRONE.search(_BROKEN.sub(" ", text)) for text in texts):
        return None
    return next((_KRONE_COUNTRIES[country] for country in countries if country in _KRONE_COUNTRIES), None)


# "Rs" or "Rs." by an amount ("Rs.5812.00", "Rs 1,250", "250 Rs"): the rupee of the country the document
# names, for the sign is shared by several; the country names as the rupee's countries write them in English.
_RUPEE = re.compile(r"(?<![^\W\d_])Rs\.?\s?(?=\d)|(?<=\d)\s?Rs\b")
_RUPEE_COUNTRIES = {
    "nepal": "NPR", "india": "INR", "pakistan": "PKR", "sri lanka": "LKR", "mauritius": "MUR",
}  # fmt: skip
_RUPEE_COUNTRY = re.compile(r"(?<![^\W\d_])(" + "|".join(_RUPEE_COUNTRIES) + r")(?![^\W\d_])")


def rupee_of(texts: Iterable[str]) -> str | None:
    """The currency of amounts printed with "Rs" only: the rupee of the country the document names
    most often; None when no amount has "Rs" or no rupee's country is named."""
    texts = list(texts)
    if not any(_RUPEE.search(text) for text in texts):
        return None
    named: dict[str, int] = {}
    for text in texts:
        for country in _RUPEE_COUNTRY.findall(text.casefold()):
            named[country] = named.get(country, 0) + 1
    return _RUPEE_COUNTRIES[max(named, key=lambda country: named[country])] if named else None


# A whole amount grouped twice ("1.418.182", as currencies without cents print it) shows the
# separator of thousands too.
_DECIMAL_COMMA_STYLE = re.compile(
    r"\d\.\d{3},\d{1,2}(?!\d)|(?<![\d.,])\d{1,3},\d{2}(?![\d.,])|(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.,])"
)
_THOUSANDS_POINT = re.compile(r"(?<![\d.,])\d{1,3}\.\d{3}(?![\d.,])")
_DECIMAL_POINT_STYLE = re.compile(
    r"\d,\d{3}\.\d{1,2}(?!\d)|(?<![\d.,])\d+\.\d{2}(?![\d.,])|(?<![\d.,])\d{1,3}(?:,\d{3}){2,}(?![\d.,])"
)


# Currencies of countries that write amounts "1.234,50": the mark a document of theirs uses when its
# own amounts show none ("20.100 din" is twenty thousand one hundred dinars).
_DECIMAL_COMMA_CURRENCIES = frozenset(
    {"RSD", "HUF", "TRY", "PYG", "AOA", "BRL", "RON", "CZK", "PLN", "DKK", "NOK", "SEK", "UAH", "RUB", "BGN",
     "IDR", "VND", "MKD", "CLP", "ARS", "UYU"}
)  # fmt: skip


def writes_decimal_comma(texts: Iterable[str]) -> bool:
    """Whether the amounts of a document are mostly written "1.234,50" rather than "1,234.50"; when
    they show neither, whether its currency's country writes the former, and with no currency named,
    whether it groups a whole amount's thousands with a point ("20.000" where no amount has cents: the
    few currencies counted in thousandths are named on the documents that use them)."""
    texts = list(texts)
    comma = point = 0
    for text in texts:
        comma += len(_DECIMAL_COMMA_STYLE.findall(text))
        point += len(_DECIMAL_POINT_STYLE.findall(text))
    if comma == point == 0:
        currency = currency_of(texts)
        if currency is None:
            return any(_THOUSANDS_POINT.search(text) for text in texts)
        return currency in _DECIMAL_COMMA_CURRENCIES
    return comma > point


_MONTH_NAMES = (  # per month: its names and abbreviations in English, German, French, Dutch, Spanish,
    # Italian and Polish (in the genitive a Polish date uses), and the names in Portuguese, Turkish,
    # Hungarian, Romanian and Serbian, without accents; Russian and Ukrainian (the genitive a date uses
    # and the nominative) and Indonesian
    "january jan januar janvier janv januari enero ene "
    "gennaio gen stycznia styczen sty janeiro ocak ianuarie января январь январ січня",
    "february feb februar fevrier fevr fev februari "
    "febrero febbraio lutego luty lut fevereiro subat februarie февраля февраль феврал лютого",
    "march mar marz mars maart marzo marca marzec marco mart marcius martie марта март березня maret",
    "april apr avril avr abril aprile kwietnia kwiecien kwi nisan aprilis aprilie апреля апрель апрел квітня",
    "may mai mei mayo maggio mag maja maj maio mayis majus мая май травня",
    "june jun juni juin junio giugno giu czerwca czerwiec cze junho haziran junius iunie "
    "июня июнь июн червня",
    "july jul juli juillet juil julio luglio lug lipca lipiec lip julho temmuz julius iulie "
    "июля июль июл липня",
    "august aug aout augustus agosto ago sierpnia sierpien sie agustos augusztus avgust "
    "августа август серпня",
    "september sept sep septembre septiembre settembre set "
    "wrzesnia wrzesien wrz setembro eylul szeptember septembrie septembar сентября сентябрь сентябр вересня",
    "october oct oktober okt octobre oktober octubre ottobre "
    "ott pazdziernika pazdziernik paz outubro ekim oktobar octombrie октября октябрь октябр жовтня",
    "november nov novembre noviembre listopada listopad lis novembro kasim noiembrie novembar "
    "ноября ноябрь ноябр листопада",
    "december dec dezember dez decembre diciembre dicembre "
    "dic grudnia grudzien gru dezembro aralik decembrie decembar декабря декабрь декабр грудня desember",
)
_MONTHS = {plain(name): number for number, names in enumerate(_MONTH_NAMES, 1) for name in names.split()}
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)")
# Year first as Hungarian typesets it ("2008. 10. 17."), and as Japanese, Chinese and Korean write it
# ("2025年12月31日", "2025년 12월 31일").
_YEAR_FIRST = re.compile(
    r"(?<!\d)((?:19|20)\d{2})(?:\.\s|\s?[年년]\s?)(\d{1,2})(?:\.\s|\s?[月월]\s?)(\d{1,2})(?:\.|\s?[日일])?(?!\d)"
)
# A Japanese date counted in the years of an era ("令和6年1月15日" is 15 January 2024; "元年" the first
# year): the era's first year plus the count, less one.
_ERA_FIRST_YEARS = {"令和": 2019, "平成": 1989, "昭和": 1926}
_ERA_DATE = re.compile(r"(令和|平成|昭和)\s?(元|\d{1,2})\s?年\s?(\d{1,2})\s?月\s?(\d{1,2})\s?日")
# A sentence's full stop may follow a date: "bis zum 30.05.2017."; a part of a longer number may not.
# Typeset dates put a space after each dot, "14. 11. 2018", then with a four-digit year.
_NUMERIC_DATE = re.compile(
    r"(?<![\d.])(\d{1,2})([-/.]|\.\s(?=\d{1,2}\.\s\d{4}))(\d{1,2})\2(\d{4}|\d{2})(?!\d|\.\d)"
)
_DAY_MONTH = re.compile(  # "12 March 2026", "8. Mai 2019", "3 de enero de 2024", "12-Mar-2026"
    r"(?i)(?<![\d.])(\d{1,2})(?:st|nd|rd|th|er)?[\s.\-/]*(?:(?:of|de)\s+)?([^\W\d_]{3,12})\.?"
    r"(?:\s+de)?[\s.\-/,]*(\d{4})(?!\d)"
)
_MONTH_DAY = re.compile(
    r"(?i)(?<![^\W\d_])([^\W\d_]{3,12})[.,]?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)"
)
# A month's name with a two-digit year, as tills print them: "Feb23'19", "Jun28' 17", "Jun 26, 15 04:55 PM"
# (a comma's year only before a time), "13-Jul-18".
_MONTH_DAY_SHORT = re.compile(
    r"(?i)(?<![^\W\d_])([^\W\d_]{3,9})\.?\s?(\d{1,2})(?:\s?[\u2019']\s?|,\s?(?=\d{2}\s+\d{1,2}:\d{2}))(\d{2})(?!\d)"
)
# A month's name, its day, the time and the year, as a till's clock prints them: "JUN 24 20:49:53 2018";
# with the time zone before the year, as a program prints its clock's date ("Thu Dec 07 05:21:03 EAT 2023").
_MONTH_DAY_TIME_YEAR = re.compile(
    r"(?i)(?<![^\W\d_])([^\W\d_]{3,9})\.?\s+(\d{1,2})\s+\d{1,2}:\d{2}(?::\d{2})?"
    r"(?:\s+(?-i:[A-Z]{2,5})(?:[+-]\d{1,2}(?::?\d{2})?)?)?\s+(\d{4})(?!\d)"
)
_DAY_MONTH_SHORT = re.compile(r"(?i)(?<![\d.])(\d{1,2})-([^\W\d_]{3,9})-(\d{2})(?![\d-])")
# A time of day: hours, minutes, seconds (groups 1 to 3), and the AM or PM a till prints after it ("8:47 PM",
# "11:47a.m."), so that a caller taking the time out of a line takes all of it.
TIME_OF_DAY = re.compile(
    r"(?<!\d)([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?!\d)(?:\s?[AaPp]\.?[Mm]\.?(?![A-Za-z]))?"
)


@dataclass(frozen=True)
class ParsedDate:
    value: date
    ambiguous: bool  # numeric, with day and month both 12 or less: their order came from a hint
    span: int  # how many characters of the text the date took
    printed: str = ""  # the date as the text prints it


def parse_date(text: str, day_first: bool = True) -> ParsedDate | None:
    """The first date in `text`: ISO (2026-03-12), written out (12 March 2026, 12-Mar-2026,
    March 12, 2026; as tills print it, with a two-digit year, Feb23'26, 12-Mar-26, or the time before
    the year, JUN 24 20:49:53 2026) or numeric (12/03/2026, 12.03.2026, 12-03-26). A numeric date
    whose day and month could be swapped is read day first unless `day_first` is False."""
    text = text[:200].translate(HYPHENS)
    return _iso_date(text) or _written_date(text) or _numeric_date(text, day_first)


def _made(year: int, month: int, day: int, ambiguous: bool, printed: str) -> ParsedDate | None:
    try:
        return ParsedDate(date(year, month, day), ambiguous, len(printed), printed)
    except ValueError:
        return None


def _iso_date(text: str) -> ParsedDate | None:
    match = _ISO_DATE.search(text)
    if match:
        return _made(int(match[1]), int(match[3]), int(match[4]), False, match[0])
    match = _YEAR_FIRST.search(text)
    if match:
        return _made(int(match[1]), int(match[2]), int(match[3]), False, match[0])
    match = _ERA_DATE.search(text)
    if match:
        year = _ERA_FIRST_YEARS[match[1]] + (1 if match[2] == "元" else int(match[2])) - 1
        return _made(year, int(match[3]), int(match[4]), False, match[0])
    return None


def _written_date(text: str) -> ParsedDate | None:
    for pattern, day_group, month_group in ((_DAY_MONTH, 1, 2), (_MONTH_DAY, 2, 1)):
        for match in pattern.finditer(text):
            month = _MONTHS.get(plain(match[month_group]))
            if month:
                return _made(int(match[3]), month, int(match[day_group]), False, match[0])
    for pattern, day_group, month_group in (
        (_MONTH_DAY_SHORT, 2, 1),
        (_DAY_MONTH_SHORT, 1, 2),
        (_MONTH_DAY_TIME_YEAR, 2, 1),
    ):
        for match in pattern.finditer(text):
            month = _MONTHS.get(plain(match[month_group]))
            if month:
                year = int(match[3]) if len(match[3]) == 4 else 2000 + int(match[3])
                return _made(year, month, int(match[day_group]), False, match[0])
    return None


def _numeric_date(text: str, day_first: bool) -> ParsedDate | None:
    match = _NUMERIC_DATE.search(text)
    if not match:
        return None
    first, second, year = int(match[1]), int(match[3]), int(match[4])
    if len(match[4]) == 2:
        year += 2000 if year < 70 else 1900
    ambiguous = first <= 12 and second <= 12 and first != second
    if first > 12 or (second <= 12 and day_first):
        return _made(year, second, first, ambiguous, match[0])
    return _made(year, first, second, ambiguous, match[0])


def day_first_in(texts: Iterable[str]) -> bool | None:
    """What the unambiguous numeric dates of a document say about the order of day and month: True
    for day first (25/03/2026), False for month first (03/25/2026), None when they do not tell."""
    day_first = month_first = 0
    for text in texts:
        for match in _NUMERIC_DATE.finditer(text):
            first, second = int(match[1]), int(match[3])
            day_first += first > 12 >= second
            month_first += second > 12 >= first
    return None if day_first == month_first else day_first > month_first


def parse_time(text: str) -> str | None:
    match = TIME_OF_DAY.search(text)
    return f"{int(match[1]):02d}:{match[2]}:{match[3] or '00'}" if match else None


_TRUE = frozenset(
    {"yes", "y", "true", "t", "x", "1", "on", "checked", "ticked", "✓", "✔", "☑", "☒", "[x]", "(x)", "[✓]",
     "oui", "ja", "si"}
)  # fmt: skip
_FALSE = frozenset(
    {"no", "n", "false", "f", "0", "off", "unchecked", "☐", "□", "[]", "[ ]", "()", "( )", "✗", "✘", "none",
     "non", "nein"}
)  # fmt: skip


_TICKED = r"\[\s*[xX\u2713\u2714]\s*\]|\(\s*[xX\u2713\u2714\u2022]\s*\)|[\u2612\u2611\u25a0\u2713\u2714]"
_UNTICKED = r"\[\s*\]|\(\s*\)|[\u2610\u25a1]"
_MARK = re.compile(rf"(?P<ticked>{_TICKED})|(?P<unticked>{_UNTICKED})")
_X_PREFIX = re.compile(r"[xX\u2713\u2714]\s+(?=\S)")


def ticked_options(lines: list[str]) -> list[tuple[bool, str]]:
    """The check boxes of some lines, each ticked or not with the text after it: "[X] yes  [ ] no",
    "( ) Basic", "(x) Pro", or option lines of which one starts with an X."""
    text = "\n".join(lines)
    marks = list(_MARK.finditer(text))
    if marks:
        ends = [mark.start() for mark in marks[1:]] + [len(text)]
        return [
            (mark["ticked"] is not None, " ".join(text[mark.end() : end].split()))
            for mark, end in zip(marks, ends, strict=True)
        ]
    crossed = [bool(_X_PREFIX.match(line)) for line in lines]
    if len(lines) >= 2 and sum(crossed) == 1:
        return [
            (ticked, _X_PREFIX.sub("", line, count=1).strip())
            for ticked, line in zip(crossed, lines, strict=True)
        ]
    return []


def crossed(text: str) -> str | None:
    """The text after the lone X or tick a line starts with ("X Send me the newsletter"): a drawn box
    whose tick came out as a letter; None when the line starts otherwise."""
    match = _X_PREFIX.match(text)
    return text[match.end() :] if match else None


def parse_bool(text: str) -> bool | None:
    word = " ".join(text.lower().split()).strip(" .!")
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return None


# A spacing accent set before its letter, as a PDF typeset with TeX gives its accented letters ("L",
# an acute on its own, "azaro" for "Lázaro"): the letter and its accent are one letter, and a word is
# not cut at its accent. A grave accent only before a vowel (a backquote before any other letter is
# code's); a dotless i under an accent, as TeX sets an accented i, is an i.
_COMBINING = {
    "\u00b4": "\u0301", "\u00a8": "\u0308", "\u02c6": "\u0302", "\u02dc": "\u0303", "`": "\u0300",
    "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02da": "\u030a", "\u02dd": "\u030b", "\u00af": "\u0304",
    "\u02d9": "\u0307",
}  # fmt: skip
_SPACING_ACCENT = re.compile(
    r"([\u00b4\u00a8\u02c6\u02dc\u02c7\u02d8\u02da\u02dd\u00af\u02d9]|`(?=\s?[aeiouAEIOU]))\s?([^\W\d_])"
)


def with_accents_joined(text: str) -> str:
    """`text` with each spacing accent set before its letter joined to that letter ("T\u00b4\u0131tulo"
    is "Título")."""
    if not _SPACING_ACCENT.search(text):
        return text
    joined = _SPACING_ACCENT.sub(lambda found: found[2].replace("\u0131", "i") + _COMBINING[found[1]], text)
    return unicodedata.normalize("NFC", joined)


# Number words, as `plain` writes them, of the languages whose invoices print their total in words
# ("SON TREINTA Y DOS MIL TRESCIENTOS VEINTIOCHO PESOS", "Eight Hundred Twenty Six Rupees Only").
_NUMBER_WORDS_TEXT = """
    uno una dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince veinte
    treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento cientos doscientos
    trescientos cuatrocientos quinientos seiscientos setecientos ochocientos novecientos mil millon
    millones um dois duas quatro sete oito nove dez onze doze treze catorze vinte trinta quarenta
    cinquenta sessenta oitenta cem cento duzentos trezentos quatrocentos quinhentos seiscentos
    setecentos oitocentos novecentos milhao milhoes deux trois quatre cinq sept huit neuf dix douze
    treize quatorze seize vingt trente quarante cinquante soixante cent cents mille due tre quattro
    cinque sei sette otto dieci venti quaranta sessanta settanta ottanta novanta one two three four
    five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen
    nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million lakh crore
"""
_NUMBER_WORDS = frozenset(_NUMBER_WORDS_TEXT.split())
_NUMBER_PREFIXES = ("veinti", "dieci", "dezes", "dezen")  # "veintiocho", "dieciséis", "dezesseis"


def in_words(text: str) -> bool:
    """Whether a line writes an amount out in words: three number words at least, half its words."""
    words = [plain(word) for word in re.findall(r"[^\W\d_]+", text)]
    numbers = sum(1 for word in words if word in _NUMBER_WORDS or word.startswith(_NUMBER_PREFIXES))
    return numbers >= 3 and 2 * numbers >= len(words)
