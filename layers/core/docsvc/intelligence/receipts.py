"""Receipts: what a till roll prints in its own way, read as the rest of the model reads a document.

A receipt photographed and read by OCR keeps few of the marks an invoice's labels rely on: its words
stand far apart (a label's words in columns of their own, "Total    Due:    44.35"), OCR slips on a
label's last letter ("Tota]", "TOTL") and on a decimal mark ("77. 83", "85 07"), and its dates are
numeric in the order of the country it was printed in. So:
- the total is read from the line a total label opens (or ends, after a time: "10:51AM TOTAL DUE
  48.53"; "SUMME", "TOTAL TTC", "TOTALE", "Summa", "RAZEM" on other countries' tills; OCR's 0 or Q for an
  O inside its words read as an O: "AMQUNT DUE"), its words taken however wide apart, its
  amount at the end of the line or alone on the line under it; a subtotal, a tax (not one it includes:
  "incl. VAT"), the money handed over or given back ("IMPORTE ENTREGADO"), a net total or a
  count of items is not it, and of several the largest is (a total with the tip after the total of
  the food); without such a line, the largest amount paid (a card's or cash line) that two other
  amounts add up to (a subtotal and its tax, a quarter of it at most), or a second subtotal that an
  amount and a tax above it add up to, or that is at most a quarter above a subtotal printed before
  it, a tax's line between them (its amount lost to OCR), or the amount under a tax's line that it
  and the subtotal above add up to, its label lost ("re 92.22"); a total label glued to the time
  before it ("1:390TOTAL") is read; a card paying on the line under a total label whose amount OCR
  read as marks ("Total & |", "Visa 7.61") pays the total; the largest amount so far, right under a
  tax's line, closes the sale whatever its label when OCR lost the subtotal's amount ("DRV THRU
  34.21");
- the date is the first one printed with a time of day ("05/11/18 8:47 PM"): the moment of the
  sale, however the head of the roll around it reads; OCR's letters for digits and digits for letters
  undone inside the words shaped as a date ("O5/l1/18", "$ep07'18"); the time read out of the date it
  was set into by the layout ("December 29, 2:01 2018 PM");
- an American document (a US state and ZIP code: "Long Beach, CA 90804", or a North American
  telephone number: "(562) 597-0906") prints its dates month first (05/11/18 is 11 May 2018);
- the shop (a field under "merchant", "store" or "shop") is the head of the roll: its address the street
  line (house number first, or after the street's name over a postcode: "Lindenallee 27", no table's,
  till's or shop's number: "TABLE 12", "Store # 5260") down to the line of its place (a US state with its
  ZIP code or alone, "Windham NH", sought on the whole head first, as a street's own number reads as a
  postcode: "1234 MAIN ST"; else a postcode and a place), a telephone number between them (its word,
  "Phone:", "Telefon", taken with it) and a date or time printed beside them left out; its name the
  nearest line above that reads as a name (mostly letters; with the line above when it goes on in lower
  case, "Friendly Red's" over "of Windham", or is the shop's kind, "GENERAL POOR'S" over "TAVERN"), past
  the noise OCR makes of a logo and the marks it reads at the paper's edges (before and after a line's
  words); the line of a place is no name, nor a line speaking to the customer ("YOUR GUEST NUMBER IS"); a
  receipt without an address is named by its first such line (with its kind under it, "Primo" over "Family
  Restaurant"); a line giving the shop's number ("STORE # CA-1661") names none of the shop's blocks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from docsvc.intelligence.candidates import Candidate, Slot, candidate_of, role_of
from docsvc.intelligence.labels import DOCUMENT_TITLES, label_key
from docsvc.intelligence.lines import Line
from docsvc.intelligence.reading import Reading
from docsvc.intelligence.values import TIME_OF_DAY, parse_date, parse_time

TOTAL_LINE = 0.6  # a total read so is less likely than one a label names in the usual way
STAMPED = 0.48  # a date printed with the time of day: over a letterhead line and a first date
LABELLED_DATE = 0.46  # a date after its word, OCR's space in it: under a stamped date
SUM_OF_TWO = 0.45  # a total read only as the sum of two amounts above it
SETTLED = 0.99  # a total an earlier total and the amounts between add up to: over both labels (0.98)
_SUM_LINES = 120
SHOP_HEAD = 0.6  # the shop read from the head of the roll: above a letterhead read the usual way
_HEAD_LINES = 15  # the head of the roll: where the shop's name and address are printed
_NAME_ONLY_LINES = 3  # where a receipt that prints no address prints the shop's name
_NOISE_WORDS, _NOISE_LETTERS = 6, 3.5  # a line of this many words of fewer letters each on average is noise
_SHOP_WORDS = frozenset({"merchant", "store", "shop", "restaurant"})
# The words of a shop's kind that a name printed on two lines puts on its second ("GENERAL POOR'S" over
# "TAVERN", "Primo" over "Family Restaurant"), or a second line opening with "&" ("& SPORTS BAR").
_KIND_WORDS = frozenset(
    {"restaurant", "restaurants", "ristorante", "trattoria", "osteria", "pizzeria", "pizza", "tavern", "pub",
     "inn", "bar", "grill", "grille", "kitchen", "cafe", "café", "coffee", "bakery", "deli", "diner",
     "bistro", "brasserie", "cantina", "taqueria", "steakhouse", "eatery", "buffet", "brewery", "catering",
     "food", "sushi", "bbq", "burger", "burgers", "market", "supermarket", "pharmacy"}
)  # fmt: skip
_KIND_LINE_WORDS = 4  # a name's second line of its kind is this many words at most
_STATES = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC "
    "ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY"
)
# A US state and its ZIP code, as an address's last line prints them: "Miami, FL 33176", "CA. 90280".
# Its ZIP code ends the line, but for a little of OCR's noise: "DE 80331 München" is a German postcode.
_US_PLACE = re.compile(
    rf"[A-Za-z.,]\s*[\s,]\s*(?:{'|'.join(_STATES.split())})\.?,?\s+\d{{5}}(?:-\d{{4}})?(?:\s+\S{{1,3}})?\s*$"
)
# The same in a receipt's head, OCR's lower case second letter let through ("New Hyde Park Ny 11040"):
# not to order an invoice's dates by ("Müller Co 12345").
_HEAD_PLACE = re.compile(
    rf"[A-Za-z.,]\s*[\s,]\s*(?:{'|'.join(_STATES.split() + _STATES.title().split())})\.?,?\s+"
    r"\d{5}(?:-\d{4})?(?:\s+\S{1,3})?\s*$"
)
# The last line of an address: a US state with its ZIP code or at the end ("Windham NH", "FAIR OAKS,
# CA"), or a postcode before a place ("75015 PARIS").
_STATE_AT_END = re.compile(rf"[A-Za-z.],?\s+(?:{'|'.join(_STATES.split())})\.?(?:\s+[a-z]{{1,4}})?\s*$")
_POSTCODE_PLACE = re.compile(r"(?=(?:[BOSl]*\d){3})\d[\dBOSl]{2,3}\d\s+[^\W\d]{3,}[^\d]*$")
# A postcode OCR read with a letter for a digit, three digits at least among its characters ("5B239
# Schwerte" is 58239): a B for an 8, an O for a 0, an S for a 5, an l for a 1; a digit first and last, as
# a house number ending in a letter is not ("221B Baker Street").
_CONFUSED_POSTCODE = re.compile(r"^(?=(?:[BOSl]*\d){3})\d[\dBOSl]{2,3}\d(?=\s+[^\W\d]{3})")
_POSTCODE_DIGITS = str.maketrans("BOSl", "8051")
# A street, house number first, a mark of OCR's noise let through: "7519 §. ATLANTIC AVE.".
_HOUSE_NUMBER_FIRST = re.compile(r"^\d{1,6}(?:[-/]\d{1,4})?[a-z]?,?\s+(?:[^\w\s]{1,2}\s?)?[^\W\d]")
# A street with its house number after its name, as most of Europe prints it: "Lindenallee 27", "Via Roma
# 12/a", "Hauptstraße 5-7"; a word of three letters at least first, nothing after the number; no "#",
# "No." or "Nr." before the number ("Filiale Nr. 12" numbers a shop), nor a line `_NOT_NAME` keeps
# from a name ("TABLE 12", "Kasse 3": a table's, a server's, a till's number).
_HOUSE_NUMBER_LAST = re.compile(
    r"(?i)^[^\W\d]{3,}[^\d:@#]*?(?<!\bno\.)(?<!\bnr\.)(?<!\bno)(?<!\bnr)\s\d{1,5}"
    r"(?:\s?[-/]\s?\d{1,4})?\s?[a-z]?\s*$"
)
# A line that is no shop's name: a number first, a label, a table's or a server's line, a branch's
# ("Filiale 547", "Sucursal 12"), an amount, a line speaking to the customer ("YOUR GUEST NUMBER IS",
# "Please Pay at Cashier", "Thank you"), or a till's number ("Kasse 3", "CAJA 2": a word a bank's name
# may open with, so only before a number).
_NOT_NAME = re.compile(
    r"(?i)^\W*\d|:|^\W*(?:store|shop|branch|filiale|filiaal|sucursal|unit|table|server|order|your|please|"
    r"thank)\b|"
    r"\d[.,]\d{2}\s*$|"
    r"^\W*(?:kasse|caisse|cassa|caja|till|register|terminal|cashier|tisch|mesa|tavolo)\W*(?:n[or]\.?\s*)?\d"
)
# A greeting a till prints over the shop's name ("WILLKOMMEN", "WELCOME"): no brand.
_GREETING = re.compile(r"(?i)^(?:welcome|willkommen|bienvenue|bienvenido|benvenuto|welkom|bienvenida)$")
# A North American telephone number as it is dialled at home: one with its country code ("+1 (415)
# 555-0159") is written for callers abroad, and says nothing of where the document was printed.
# OCR may set a space after a hyphen ("770-395- 9592").
_NANP_PHONE = re.compile(r"(?<![\d-])(?<!\+1\s)(?<!\+1)(?:\(\d{3}\)\s?|\d{3}-\s?)\d{3}-\s?\d{4}(?![\d-])")
# An amount in bare dollars, its cents printed: "$30.16", "$ 1,094.78" (not "A$30.16", "US$", "C$").
_DOLLAR_AMOUNT = re.compile(r"(?<![A-Za-z$])\$\s?\d{1,3}(?:,\d{3})*\.\d{2}(?!\d)")
# The marks of a country whose dollars are no American's, or of one that writes dates day first and
# its money with a dollar sign: their currencies' codes and signs, their taxes' names (GST, HST, PST:
# Canada, Australia, New Zealand, Singapore; IVA: Mexico and South America; ABN: an Australian
# business number), "R$" of Brazil, "pesos".
_OTHER_DOLLARS = re.compile(
    r"(?<![A-Za-z])(?:AUD|NZD|CAD|SGD|HKD|MXN|ARS|CLP|COP|BRL|TWD|A\$|AU\$|NZ\$|C\$|CA\$|S\$|HK\$|"
    r"R\$|MX\$|NT\$|GST|HST|PST|QST|ABN|IVA|pesos?)(?![A-Za-z])"
)
_EDGE_NOISE = re.compile(r"(?!(?:st|rd|dr|ln|ct|pl|wy|av)\W*$)[^\w\s]*(?:[a-z]{1,2}[^\w\s]*)?")
_LEADING_NOISE = re.compile(
    r"[^\w\s]+[A-Za-z]?[^\w\s]*|[^\w\s]*[a-z][^\w\s]*|(?!(?:la|le|el|de|di|da|du|of|on|at|in|to|by)$)[a-z]{2}"
)
_LONE_SECTION_SIGN = re.compile(r"(?<=\d )§(?=\.?\s[^\W\d])")
# A line that gives a shop's number: "STORE # CA-1661", "Store No. 0423", "STORE    3451".
_NUMBERED_SHOP = re.compile(
    r"(?i)^\W*(?:store|shop|branch|restaurant|unit)\s*(?:#|no\.?|nr\.?|number)?\s*:?\s*[a-z]{0,3}[-\s]?\d[\d-]*\W*$"
)
# A numeric date with OCR's letters for digits: day, month and year of digits or O, l, I, |, S, two
# digits at least among them and the same separator twice ("O5/l1/18", "12/O8/2O19").
_CONFUSABLE = r"[\dOolI|S]"
_CONFUSED_NUMERIC_DATE = re.compile(
    rf"(?<![\w.|/-])(?=(?:[^\d\s]*\d){{2}})(?=[^\s]*[OolI|S])"
    rf"{_CONFUSABLE}{{1,2}}([/.-]){_CONFUSABLE}{{1,2}}\1(?:{_CONFUSABLE}{{4}}|{_CONFUSABLE}{{2}})(?![\w|/-])"
)
_AS_DIGITS = str.maketrans("OolI|S", "001115")
# A day and month with their dots, then the year OCR set a space before ("04.04. 2020").
_SPACED_YEAR = re.compile(r"(?<![\d.])(\d{1,2}\.\d{1,2}\.)\s+(\d{4})(?!\d)")
# The word that labels the date of the sale: "Datum:", "Date", "Fecha", "Data".
_DATE_WORD = re.compile(r"(?i)^\W*(?:datum|date|fecha|data)\b\W*")
# A month's abbreviation with OCR's digits or signs for its letters, right before its day: "$ep07'18",
# "0ct 12", "Ju1 4".
_CONFUSED_MONTH = re.compile(
    r"(?<![\w$])((?=(?:[$015]*[A-Za-z]){2})(?=[A-Za-z]*[$015])[A-Za-z$015]{3,4}?)(?=\.?\s?\d)"
)
_AS_LETTERS = str.maketrans("$501", "SSOl")
_PHONE = re.compile(r"\(?\d{3}\)?[\s.-]*\d{3}[\s.-]\d{4}")
# "Straße" as OCR reads its ß when its model knows no German: a B or an 8 ("HeisenbergstraBe 2",
# "Stra8e"), or an f before the house number ("Senefelder Strafe 2": no street is named so).
_STREET_SHARP_S = re.compile(r"(?<=[Ss]tra)(?:[B8]e\b|fe(?=\s+\d))")
# The word that names a telephone number before it: "Tel.:", "PHONE", "Ph", "Telefon", "Fon", "T:".
_PHONE_WORD = re.compile(r"(?i)^\W*(?:tel(?:efon|ephone|[eé]fono)?|t[eé]l|phone|ph|fon|t)\b\W*")
_PHONE_DIGITS = 7  # the fewest digits of a telephone number with its area code
# A total's label, OCR's slips on its last letter read too ("Tota]", "TOTL", "Tota!"), and glued to the
# time printed before it ("1:39" and "TOTAL" read "1:390TOTAL"; a letter before it makes another word);
# searched with OCR's 0 and Q for O undone inside words (`_o_repaired`). German and French tills' too:
# "SUMME", "Zu zahlen", "TOTAL TTC", "Net à payer".
_TOTAL = re.compile(
    r"(?i)(?<![^\W\d])(?<!-)(?:grand\s+|order\s+)?(?:[tf]otal|tota[l1i\]|!:)]|totl|balance\s+due|amount\s+due|"
    r"summe|gesamt(?:betrag|summe)?|zu\s+zahlen|net\s+[àa]\s+payer|montant\s+d[uû]|"
    r"totale|totaal|te\s+betalen|importe|summa|att\s+betala|i\s+alt|yhteens[äa]|razem|suma|do\s+zap[łl]aty|celkem)"
    r"(?:\s+due|\s+amount|\s+ttc|\s+eur|\s+€)?(?![\w-])"
)
# OCR's 0 or Q for an O between two letters ("T0TAL", "AMQUNT"): no total label has a Q or a 0.
_O_CONFUSED = re.compile(r"(?<=[^\W\d_])[0Q](?=[^\W\d_])")
# Words before or after a total's label that make it another amount: a subtotal, a tax, a net total, a
# count, a discount, the money handed over or given back, in each language a total label is read in
# (Spanish "IMPORTE ENTREGADO", "CAMBIO"; Italian "CONTANTI", "RESTO"; Dutch "BTW", "WISSELGELD";
# Swedish and Danish "MOMS", "KONTANT"; Finnish "ALV", "KÄTEINEN"; Polish "PTU", "RESZTA"; Czech "DPH",
# "HOTOVĚ"), their letters with or without their accents as OCR reads them.
_NOT_TOTAL = re.compile(
    r"(?i)(?<![^\W\d_])(?:sub|tax|taxes|taxable|vat|net|items?|qty|savings?|saved|discounts?|gratuity|grat|"
    r"points|count|tender|before|netto|mwst|ust|ht|tva|zwischen|sous|"
    r"entregado|recibido|efectivo|cambio|iva|base|descuentos?|contanti|resto|imponibile|sconto|"
    r"btw|contant|wisselgeld|korting|moms|kontant|v[äa]xel|tillbaka|rabatt?|byttepenge|retur|alv|"
    r"k[äa]teinen|vaihtoraha|alennus|ptu|reszta|got[óo]wka|opodatk\w*|dph|hotov[ěe]|vr[áa]ceno|sleva|"
    r"z[áa]klad)(?![^\W\d_])"
)
# A tax the amount holds, named beside a total's label: the total still ("Total incl. VAT", "Totaal incl.
# BTW", "Summa inkl. moms", "Yhteensä sis. alv", "Celkem vč. DPH", "Importe IVA incluido").
_TAXES = r"(?:tax|vat|iva|btw|moms|mwst|ust|alv|ptu|dph|tva|gst)"
_TAX_INCLUDED = re.compile(
    rf"(?i)(?<![^\W\d_])(?:(?:incl|inkl|inc|including|inclus\w*|incluid[oa]s?|compris\w*|sis|v[čc]|ink)\.?\s*"
    rf"(?:\S+\s+)?{_TAXES}|{_TAXES}\.?\s+(?:incl\w*|inkl\w*|inclus\w*|incluid[oa]s?|compris\w*))(?![^\W\d_])"
)
# An amount ending a line, OCR's space beside a decimal mark let through ("77.83", "$77. 83", "77 ,83"),
# or read as a space ("85 07"), a few letters of OCR's noise after it ("26.37 "ies"); thousands set
# apart by spaces before a decimal comma ("46 923,00"), whose last group alone is no amount.
_AMOUNT_AT_END = re.compile(
    r"(?<![\d.,])\$?\s?(\d{1,3}(?:,\d{3})*|\d{1,3}(?: \d{3})+(?=,\d{2})|\d{1,6})(?:\s?[.,]\s?|\s)(\d{2})"
    r"\s*(?:[^\w\s]*[^\d\s]{0,4})\s*$"
)
# An amount ending a line, a minus before it or not ("-0,67", "- 0,67", "~0,67": OCR's tilde for a minus;
# a dash, en or em).
_SIGNED_AT_END = re.compile(
    r"(?<![\d.,])(?P<sign>[-~\u2013\u2014]\s?)?(?P<whole>\d{1,3}(?:[.,]\d{3})*|\d{1,6})[.,](?P<cents>\d{2})"
    r"\s*(?:[^\w\s]*[A-Z]{0,2})\s*$"
)
_PAYMENT = re.compile(
    r"(?i)(?<![a-z])(?:visa|mastercard|master|amex|discover|credit|debit|card|cash|payment|paid|charged?)(?![a-z])"
)
_CARD = re.compile(
    r"(?i)(?<![a-z])(?:visa|mastercard|master\s?card|amex|discover|credit|debit|card|girocard|ec[\s-]?karte|"
    r"kreditkarte|maestro|v\s?pay|carte|tarjeta|carta)(?![a-z])"
)
# The word a card terminal's slip prints before the amount it took ("Betrag EUR 39,00", "AMOUNT $13.05").
_SLIP_AMOUNT = re.compile(r"(?i)(?<![a-z])(?:betrag|amount|importe|montant|bedrag|belopp|importo)(?![a-z])")
# Cash handed over ("Cash", "Geg. BAR", "Bargeld", "Efectivo"...) and the change given back ("Change",
# "Rückgeld" as OCR reads its ü too: "Ruckgeld", "Riickgeld", "Rickgeld"; "Zurück", "Cambio", "Resto"...).
_CASH = re.compile(
    r"(?i)(?<![a-z])(?:cash|bar|bargeld|gegeben|efectivo|contanti|esp[eè]ces|contant|kontant|got[óo]wka)(?![a-z])"
)
_CHANGE_BACK = re.compile(
    r"(?i)(?<![a-z])(?:change|r(?:ü|u|ii|i)ckgeld|zur(?:ü|u|ii|i)ck|cambio|resto|rendu|wisselgeld|v[äa]xel|"
    r"reszta)(?![a-z])"
)
_CHANGE_LINES = 4  # the change is printed within this many lines from the cash handed over, its own counted
# (on one of the three under it)
# An amount paid ending its line, either decimal mark, its currency's sign or code before or after it.
_PAID_AT_END = re.compile(r"(?i)(?<![\d.,])(\d{1,6})\s?[.,]\s?(\d{2})\s*(?:€|eur|usd)?\s*$")
_TAX = re.compile(r"(?i)(?<![a-z])(?:tax|vat|gst|hst|pst|mwst|tva)(?![a-z])")
_SUBTOTAL = re.compile(r"(?i)(?<![a-z])sub[\s-]*total(?![a-z])")
_CHANGE = re.compile(r"(?i)(?<![a-z])change(?![a-z])")
_CENTS_AT_END = re.compile(r"(?<![\d.,])\$?(?P<whole>\d{1,3}(?:,\d{3})*|\d{1,6})\.(?P<cents>\d{2})\s*$")
# An amount alone on its line, its currency's sign or code before or after it ("$ 12.50", "€ 6,48",
# "6,48 EUR"): a total label printed large sets its amount on a line of its own.
_LONE_AMOUNT = re.compile(
    r"(?i)^\s*(?:(?:€|eur)\s*|\$\s?)?(\d{1,3}(?:,\d{3})*|\d{1,6})\s?[.,]\s?(\d{2})\s*(?:€|eur)?\s*$"
)


def prints_month_first(texts: Iterable[str]) -> bool:
    """Whether the document reads as American, so that its numeric dates are month first: it prints
    a US state and ZIP code, or a North American telephone number without its country code ("(305)
    386-6638", "516-341-7075"), or its amounts in bare dollars ("$30.16") with nothing of another
    dollar's country (`_OTHER_DOLLARS`): OCR often garbles a receipt's address and telephone number
    ("GS15S3,!N 46226", "516) park, 394-1358") and keeps its prices, and the United States print
    most of the documents priced in bare dollars."""
    texts = list(texts)
    if any(_US_PLACE.search(text) or _NANP_PHONE.search(text) for text in texts):
        return True
    return any(_DOLLAR_AMOUNT.search(text) for text in texts) and not any(
        _OTHER_DOLLARS.search(text) for text in texts
    )


def receipt_totals(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The total a receipt prints after a total label, however far apart OCR set its words: the
    largest of the amounts so labelled (see the module)."""
    lines = reading.layout.lines
    found: list[tuple[float, Candidate]] = []
    for index, line in enumerate(lines):
        text = " ".join(line.text.split())
        label = _TOTAL.search(_o_repaired(text))
        if label is None or _NOT_TOTAL.search(_TAX_INCLUDED.sub(" ", _beside(text, label))):
            continue
        amount, at = _AMOUNT_AT_END.search(text[label.end() :]), index
        if amount is None and not text[label.end() :].strip(" :|.") and index + 1 < len(lines):
            amount, at = _LONE_AMOUNT.match(lines[index + 1].text), index + 1
        if amount is None and not re.search(r"\w", text[label.end() :]) and index + 1 < len(lines):
            amount, at = _card_paying(lines[index + 1].text), index + 1
        if amount is None:
            continue
        value = f"{amount[1].replace(',', '').replace(' ', '')}.{amount[2]}"
        candidate = candidate_of(
            slot, value, TOTAL_LINE, (index, 0), frozenset({(index, -7), (at, -8)}), reading
        )
        if candidate is not None and isinstance(candidate.value, int | float):
            found.append((float(candidate.value), candidate))
    if found:
        yield _settled(found, lines)
        return
    summed = list(_sum_of_two(slot, reading)) or list(_paid_twice(slot, reading))
    yield from summed or _cash_less_change(slot, reading)


def _settled(found: list[tuple[float, Candidate]], lines: Sequence[Line]) -> Candidate:
    """Of several totals, the last one that an earlier one and the amounts ending the lines between
    them add up to: a total, then a discount or a tip, then the total paid ("Summe 28,30", "10 % Theke
    -0,67", "SUMME 27,63"); else one that two labels print alike ("zu zahlen 26,60" and the tax table's
    "Summe 1,74 24,86 26,60"); both over a label read the usual way, which takes a row's first amount.
    Else the largest (a total with the tip after the total of the food). Only the totals within the
    lines `_sum_of_two` reads are so settled: each line's amount is read once (`_running_cents`)."""
    ordered = sorted(found, key=lambda item: item[1].order)
    added, amounts = _running_cents(lines[:_SUM_LINES])
    within = [item for item in ordered if item[1].order[0] < len(added) - 1]
    for later in range(len(within) - 1, 0, -1):
        value, candidate = within[later]
        for earlier_value, earlier in within[:later]:
            first, last = earlier.order[0] + 1, candidate.order[0]
            between = added[last] - added[first]
            if amounts[last] > amounts[first] and round(earlier_value * 100) + between == round(value * 100):
                return replace(candidate, score=max(candidate.score, SETTLED), checked=True)
    for index, (value, candidate) in enumerate(ordered):  # nothing to pay is no total, however printed
        if value > 0 and any(
            other == value and there.order[0] != candidate.order[0] for other, there in ordered[index + 1 :]
        ):
            return replace(candidate, score=max(candidate.score, SETTLED), checked=True)
    return max(found, key=lambda item: item[0])[1]


def _running_cents(lines: Sequence[Line]) -> tuple[list[int], list[int]]:
    """The amounts ending the lines added up, and how many lines end with one that is not nought, both
    before each line (and after the last): each line read once, so that any run of lines between two
    totals is added up by one subtraction however many totals a page prints."""
    added, amounts = [0], [0]
    for line in lines:
        cents = _cents_at_end(" ".join(line.text.split()), signed=True)
        added.append(added[-1] + (cents or 0))
        amounts.append(amounts[-1] + (1 if cents else 0))
    return added, amounts


def _cents_at_end(text: str, signed: bool = False) -> int | None:
    """The amount ending a line in cents, None without one: a dollar amount with its point
    (`_CENTS_AT_END`), or, `signed`, either decimal mark and negative with a minus before it ("-0,67":
    `_SIGNED_AT_END`)."""
    amount = (_SIGNED_AT_END if signed else _CENTS_AT_END).search(text)
    if amount is None:
        return None
    cents = int(re.sub(r"[.,]", "", amount["whole"])) * 100 + int(amount["cents"])
    return -cents if signed and amount["sign"] else cents


def _cash_less_change(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """A receipt whose total OCR lost, paid in cash: the cash handed over less the change given back
    ("Geg. BAR 10,00", "Rückgeld BAR 0,26": 9,74), the change's amount on its line or, its label
    alone, on the line under it ("Rückgeld", "Bar € -0,02"); the first cash line with its change
    within the next lines."""
    lines = [" ".join(line.text.split()) for line in reading.layout.lines[:_SUM_LINES]]
    for index, text in enumerate(lines):
        cash = _PAID_AT_END.search(text)
        if cash is None or not _CASH.search(text[: cash.start()]) or _CHANGE_BACK.search(text):
            continue
        change = _change_after(lines, index)
        if change is None:
            continue
        cents = int(cash[1]) * 100 + int(cash[2]) - change
        if cents > 0:
            value = f"{cents // 100}.{cents % 100:02d}"
            candidate = candidate_of(slot, value, SUM_OF_TWO, (index, 0), frozenset({(index, -7)}), reading)
            yield from [candidate] if candidate else []
        return


def _change_after(lines: Sequence[str], at: int) -> int | None:
    """The change given back (in cents) on the lines just under the cash handed over on line `at`."""
    for index in range(at + 1, min(at + _CHANGE_LINES, len(lines))):
        label = _CHANGE_BACK.search(lines[index])
        if label is None:
            continue
        amount = _PAID_AT_END.search(lines[index][label.end() :])
        if amount is None and index + 1 < len(lines) and not _PAID_AT_END.search(lines[index]):
            amount = _PAID_AT_END.search(lines[index + 1])
        return int(amount[1]) * 100 + int(amount[2]) if amount else None
    return None


def _paid_twice(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """A receipt whose total OCR lost (its label, "Total EUR", or its amount) that a card paid: the
    amount a card's line and the terminal's slip print alike ("GIROCARD 39,00" and "Betrag EUR
    39,00"; "EC-Karte € 49,90" and "Betrag 49.90 EUR"), the largest so printed; no line giving change
    back. Two cards paying alike with no slip are a bill split in two, no total; two cards each with a
    slip printing the same amount still yield that amount."""
    seen: dict[tuple[bool, int], int] = {}  # (a card's line, not the slip's; cents): its first line
    best: tuple[int, int] | None = None
    for index, line in enumerate(reading.layout.lines[:_SUM_LINES]):
        text = " ".join(line.text.split())
        amount = _PAID_AT_END.search(text)
        if amount is None or _CHANGE.search(text) or _TAX.search(text):
            continue
        card = bool(_CARD.search(text[: amount.start()]))
        if not card and not _SLIP_AMOUNT.search(text[: amount.start()]):
            continue
        cents = int(amount[1]) * 100 + int(amount[2])
        if (not card, cents) in seen and (best is None or cents > best[1]):
            best = (seen[(not card, cents)], cents)
        seen.setdefault((card, cents), index)
    if best is not None:
        value = f"{best[1] // 100}.{best[1] % 100:02d}"
        candidate = candidate_of(slot, value, SUM_OF_TWO, (best[0], 0), frozenset({(best[0], -7)}), reading)
        yield from [candidate] if candidate else []


def _card_paying(text: str) -> re.Match[str] | None:
    """The amount a card pays on the line under a total label whose amount OCR lost, read as marks
    ("Total    & |", then "Visa    eee 7.61"): a card pays the total (cash may be more, its change
    given back)."""
    if not _CARD.search(text):
        return None
    return _AMOUNT_AT_END.search(text)


def _sum_of_two(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """A receipt whose total's label OCR lost: the largest amount paid (by card or cash) that two
    other amounts it prints add up to, neither of them paid nor change (a subtotal and its tax, "12.08",
    "0.97", then "Credit $13.05"; not "Cash 13.25", which is "Payment 13.12" and "Change 0.13"), or that
    the line above it prints too (`_paid_as_printed_above`); or a
    subtotal that an amount and a tax above it add up to (tills that print the subtotal with its tax
    as a second "Sub Total": "Sub Total: 63.75", "Tax: 5.50", "Sub Total: 69.25")."""
    amounts: list[tuple[int, int]] = []  # (line, cents) of each line ending with an amount
    paid: set[int] = set()  # the lines that pay or give change: "Credit $13.05", "VISA 6.56", "Change 0.13"
    taxes: set[int] = set()  # the lines of a tax: "Tax: 5.50", "Sales Tax 0.35"
    lines = reading.layout.lines[:_SUM_LINES]
    for index, line in enumerate(lines):
        cents = _cents_at_end(line.text)
        if cents is not None:
            amounts.append((index, cents))
            if _PAYMENT.search(line.text) or _CHANGE.search(line.text):
                paid.add(index)
            if _TAX.search(line.text):
                taxes.add(index)
    best: tuple[int, int] | None = None
    for at, total in amounts:
        if at in paid and not _CHANGE.search(lines[at].text):
            parts = [cents for index, cents in amounts if index not in paid and 0 < cents < total]
            smaller = parts
        elif _SUBTOTAL.search(lines[at].text):
            parts = [cents for index, cents in amounts if index < at and 0 < cents < total]
            smaller = [cents for index, cents in amounts if index < at and index in taxes]
            smaller += [total - cents for cents in _subtotal_taxed_apart(lines, amounts, at)]
        elif _label_lost(lines[at].text) and any(index in taxes for index, _ in amounts if index == at - 1):
            parts = [cents for index, cents in amounts if index < at and _SUBTOTAL.search(lines[index].text)]
            smaller = [cents for index, cents in amounts if index == at - 1]
        elif at - 1 in taxes and at not in taxes | paid:
            parts, smaller = [], []
        else:
            continue
        adds_up = any(total - cents in parts for cents in smaller if 0 < 4 * cents <= total)
        adds_up = adds_up or _tops_under_a_tax(lines, amounts, taxes, paid, at)
        if at in paid and _paid_as_printed_above(lines, amounts, paid | taxes, at):
            adds_up = True
        if (best is None or total > best[1]) and adds_up:
            best = (at, total)
    if best is not None:
        value = f"{best[1] // 100}.{best[1] % 100:02d}"
        candidate = candidate_of(slot, value, SUM_OF_TWO, (best[0], 0), frozenset({(best[0], -7)}), reading)
        yield from [candidate] if candidate else []


def _tops_under_a_tax(
    lines: Sequence[Line], amounts: list[tuple[int, int]], taxes: set[int], paid: set[int], at: int
) -> bool:
    """Whether the amount on line `at` closes the sale under a tax's line whatever its label ("DRV THRU
    34.21" under "Tax 2.57"), when OCR lost the subtotal's amount (with it read, the amounts must add
    up): a till prints the total right under the tax, and it is the largest amount printed so far, the
    tax a quarter of it at most; no payment, tax or subtotal line."""
    above = dict(amounts)
    tax, total = above.get(at - 1), above[at]
    if tax is None or at - 1 not in taxes or at in taxes | paid or _SUBTOTAL.search(lines[at].text):
        return False
    if any(_SUBTOTAL.search(lines[index].text) for index, _ in amounts if index < at):
        return False  # the subtotal's amount read: the amount under the tax must add up (`_label_lost`)
    return 0 < 4 * tax <= total and all(cents <= total for index, cents in amounts if index < at)


def _paid_as_printed_above(
    lines: Sequence[Line], amounts: list[tuple[int, int]], kinds: set[int], at: int
) -> bool:
    """Whether the amount paid on line `at` is the amount of the nearest line above that ends in one,
    that line no payment, tax or subtotal: the total and the card that paid it, the total's label lost
    to OCR ("TO-—GO    13.78", "VISA    13.78")."""
    above = [(index, cents) for index, cents in amounts if index < at]
    if not above:
        return False
    index, cents = above[-1]
    return cents == dict(amounts)[at] and index not in kinds and not _SUBTOTAL.search(lines[index].text)


def _label_lost(text: str) -> bool:
    """Whether a line ending in an amount has lost its label to OCR: no word of three letters before
    the amount ("re 92.22" under a subtotal and its tax; "Deposit 3,059.40" keeps its label)."""
    amount = _CENTS_AT_END.search(text)
    return amount is not None and not re.search(r"[^\W\d_]{3}", text[: amount.start()])


def _subtotal_taxed_apart(lines: Sequence[Line], amounts: list[tuple[int, int]], at: int) -> list[int]:
    """The amounts of the subtotals above the subtotal on line `at` with a tax's line between them,
    its amount lost or not: a till printing the subtotal with its tax as a second "Sub Total" whose tax
    OCR misread ("Sub Total: 48.85", "Tax: a9", "Sub Total: 52.76")."""
    return [
        cents
        for index, cents in amounts
        if index < at
        and _SUBTOTAL.search(lines[index].text)
        and any(_TAX.search(lines[between].text) for between in range(index + 1, at))
    ]


def _beside(text: str, label: re.Match[str]) -> str:
    """The words just before a total's label and those between it and its amount: what may make it
    another amount (`_NOT_TOTAL`)."""
    return text[: label.start()][-12:] + " " + _after(text, label.end())


def _after(text: str, end: int) -> str:
    """The words between a label and its amount."""
    rest = text[end:]
    amount = _AMOUNT_AT_END.search(rest)
    return rest[: amount.start()] if amount else rest


def shop_fields(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The shop's name or address read from the head of a receipt (see the module), for a field under
    "merchant", "store" or "shop"."""
    if not is_shop_field(slot):
        return
    role = role_of(slot.path[-1])
    if role not in {"name", "address"}:
        return
    name, address = _shop_head(reading)
    texts = [_without_edge_noise(line.text) for line in reading.layout.lines[:_HEAD_LINES]]
    if role == "address":
        address = [index for index in address if not _only_a_phone(texts[index])]
    lines = address if role == "address" else name
    if not lines:
        return
    separator = ", " if role == "address" else " "
    place = lines[-1] if role == "address" else None  # the postcode opens the address's last line
    shown = [postcode_repaired(texts[index]) if index == place else texts[index] for index in lines]
    text = separator.join(shown)
    if role == "address":
        text = street_repaired(text)
    uses = frozenset((index, 0) for index in lines)
    candidate = candidate_of(slot, text, SHOP_HEAD, (lines[0], 0), uses, reading)
    if candidate is not None:
        yield candidate


def postcode_repaired(text: str) -> str:
    """An address's line with the postcode that opens it read as digits where OCR read a digit as a
    letter ("5B239 Schwerte" is 58239 Schwerte: `_CONFUSED_POSTCODE`); any other line as it is. For the
    address's place line only: a street's house number may end in a letter ("101B Oak Plaza")."""
    return _CONFUSED_POSTCODE.sub(lambda found: found[0].translate(_POSTCODE_DIGITS), text)


def street_repaired(text: str) -> str:
    """An address with the ß of its street word read again where OCR read it as a B, an 8, or an f
    before the house number ("WesternstraBe 2" is Westernstraße 2): a German street ends so, and no
    word of an address does otherwise. Upper case ("STRABE") is left as read: a till printing its
    address in capitals writes "STRASSE"."""
    return _STREET_SHARP_S.sub("ße", text)


def _only_a_phone(text: str) -> bool:
    """Whether an address's line is a telephone number alone ("956-350-8686", "Tel.: (562) 860-2530",
    "Phone: 956-350-8686", "Telefon 0221 123456"), printed between the street and its place: no part of
    the address. The word naming it taken off, no letter is left and a number of seven digits at least."""
    number = _PHONE_WORD.sub("", text, count=1)
    return not any(char.isalpha() for char in number) and sum(map(str.isdigit, number)) >= _PHONE_DIGITS


def _stamp(part: str) -> bool:
    """Whether a part of a head line set far apart after its words is the date or time the till printed
    beside it ("1955 BROADWAY    Jan 25, 2018", "SANTA MONICA, CA 90404    11:47 AM"): not the shop's."""
    return bool(TIME_OF_DAY.fullmatch(part)) or _reads_as_date(part)


def _reads_as_date(text: str) -> bool:
    """Whether a part of a line is a date and nothing else of note (its words all the date's)."""
    found = parse_date(text, False)
    return (
        found is not None and len(re.sub(r"[\W_]", "", text)) <= len(re.sub(r"[\W_]", "", found.printed)) + 1
    )


def is_shop_field(slot: Slot) -> bool:
    """Whether a field is the shop's: under "merchant", "store", "shop" or "restaurant"."""
    return len(slot.path) >= 2 and bool(set(label_key(slot.path[-2])) & _SHOP_WORDS)


def numbers_the_shop(text: str) -> bool:
    """Whether a line gives a shop's number ("STORE # CA-1661", "Store No. 0423"): its "store" labels
    that number, not the shop's name or address printed around it."""
    return bool(_NUMBERED_SHOP.match(" ".join(text.split())))


def _without_edge_noise(text: str) -> str:
    """A head line without the marks OCR reads at the paper's edges, set far apart after it ("99
    BROADWAY    en    |", "SOMERVILLE, MA 02145    ae", "12 ELM ROAD    | '"): a trailing part of
    signs, or of two letters at most in lower case but a street's ("st", "rd"), its spaces ignored; no
    digit (a state, "FAIR OAKS    CA", is kept); or the date or time the till printed there (`_stamp`);
    and before it ("———    17588 Castleton St", "oy    Kapolei, HI 96707", "; d    12502 North Drive"):
    a leading part of signs with a letter at most, or of one or two letters in lower case but a word
    a name opens with ("la    Source", "de    Luca"). A street's direction OCR read as a section sign
    is its S again ("7519 §. ATLANTIC AVE.": no address prints a section sign)."""
    parts = re.split(r"\s{4,}", text.strip())
    while len(parts) > 1 and (_EDGE_NOISE.fullmatch(parts[-1].replace(" ", "")) or _stamp(parts[-1])):
        parts.pop()
    while len(parts) > 1 and _LEADING_NOISE.fullmatch(parts[0].replace(" ", "")):
        parts.pop(0)
    return _LONE_SECTION_SIGN.sub("S", " ".join(" ".join(parts).split()))


def _shop_head(reading: Reading) -> tuple[list[int], list[int]]:
    """The lines of the shop's name (none when no line reads as one; two when the line over it reads
    as a name too) and the lines of its address, at the head of the first page."""
    lines = reading.layout.lines
    texts = [_without_edge_noise(line.text) for line in lines[:_HEAD_LINES] if line.page == 0]
    block = _address_at(texts)
    if block is None:
        return _first_name(texts), []
    start, place = block
    name = next((at for at in range(start - 1, max(start - 4, -1), -1) if _reads_as_name(texts[at])), None)
    if name is not None and name > 0 and _continues(texts[name]) and _opens_a_name(texts[name - 1]):
        return [name - 1, name], list(range(start, place + 1))
    if name is None:
        return [], list(range(start, place + 1))
    brand = _brand_over(texts, name)
    return ([name] if brand is None else [brand, name]), list(range(start, place + 1))


def _brand_over(texts: list[str], name: int) -> int | None:
    """The line of a brand printed over the shop's name: the head's first line of words, right over the
    name (blank lines or OCR's marks between), one word in capitals that the name does not hold
    ("EDEKA" over "Schmitt", the merchant who runs the shop; "SPAR" over "Markt Huber"): the shop is
    known by both. Not the document's title in capitals ("RECEIPT", "KASSENBON", "DUPLICATE"), nor a
    greeting ("WILLKOMMEN"); a word that is also a label may be a brand ("NETTO", a chain of shops)."""
    worded = [at for at, text in enumerate(texts[:name]) if sum(char.isalpha() for char in text) >= 2]
    if len(worded) != 1:
        return None
    words = texts[worded[0]].split()
    brand = words[0] if len(words) == 1 else ""
    if len(brand) < 3 or not brand.isalpha() or not brand.isupper() or not _reads_as_name(brand):
        return None
    if label_key(brand) in DOCUMENT_TITLES or _GREETING.match(brand):  # not every label: "NETTO" is a brand
        return None
    return None if brand.casefold() in texts[name].casefold() else worded[0]


def _address_at(texts: list[str]) -> tuple[int, int] | None:
    """The first and last line of the head's address: a US place (`_is_place`) with its street on
    that line or one of the two above, on any line of the head, before a postcode and its place right
    under its street (else that postcode is a street's own house number: "1234 MAIN ST"), the street's
    number before or after its name."""
    for at, text in enumerate(texts):
        if _is_place(text):
            for street in (at, at - 1, at - 2):
                if street >= 0 and _HOUSE_NUMBER_FIRST.match(texts[street]):
                    return street, at
    for at in range(1, len(texts)):
        if _POSTCODE_PLACE.match(texts[at]) and _is_street(texts[at - 1]):
            return at - 1, at
    return None


def _is_street(text: str) -> bool:
    """A street line over a postcode and its place: its house number first ("12 rue de la Paix") or
    after its name ("Lindenallee 27", no line `_NOT_NAME` keeps from a name), no telephone number."""
    numbered_last = _HOUSE_NUMBER_LAST.match(text) and not _NOT_NAME.search(text)
    return bool(_HOUSE_NUMBER_FIRST.match(text) or numbered_last) and not _PHONE.search(text)


def _first_name(texts: list[str]) -> list[int]:
    """The shop's name on a receipt that prints no address block: the first line that reads as one,
    among its first lines of words; the lines of OCR's marks above them (a logo's or the paper's edge,
    "- 1", "” {", "i|": a letter at most) are passed without counting."""
    worded = [at for at, text in enumerate(texts) if sum(char.isalpha() for char in text) >= 2]
    first = [at for at in worded[:_NAME_ONLY_LINES] if _reads_as_name(texts[at])][:1]
    after = [at for at in worded if first and first[0] < at <= first[0] + 2][:1]
    if after and _names_a_kind(texts[after[0]]) and _reads_as_name(texts[after[0]]):
        return first + after
    return first


def _continues(text: str) -> bool:
    """Whether a line goes on with the name of the line above: it opens in lower case ("of Windham"), or
    it is the shop's kind (`_names_a_kind`)."""
    first = next((char for char in text if char.isalpha()), "")
    return first.islower() or _names_a_kind(text)


def _opens_a_name(text: str) -> bool:
    """Whether a line may be the first of a name printed on two lines: it reads as a name and opens with
    a letter or digit (a logo's noise opens with OCR's marks: "—eoOoOos    ee")."""
    return _reads_as_name(text) and text.strip()[:1].isalnum()


def _names_a_kind(text: str) -> bool:
    """Whether a line is the second line of a name printed on two, the shop's kind: a few words, one of
    them a kind of shop ("TAVERN", "Family Restaurant", "MEXICAN FOOD"... `_KIND_WORDS`), or opening
    with "&" ("& SPORTS BAR")."""
    words = text.split()
    if not words or len(words) > _KIND_LINE_WORDS:
        return False
    return words[0] == "&" or any(word.strip(".,'\u2019").casefold() in _KIND_WORDS for word in words)


def _is_place(text: str) -> bool:
    return bool(_HEAD_PLACE.search(text) or _STATE_AT_END.search(text))


def _reads_as_name(text: str) -> bool:
    """A line that may be a shop's name: mostly letters (a store number after it left out: "CARL'S JR
    1100375", "King Taco # 30"), a word of three letters or more; no phone number, no street or other
    line opening with a number, no label ("Server:", "Store #"), no amount, not the line of an
    address's place ("Pasadena, CA 91105"), not a logo's noise (`_logo_noise`)."""
    chars = [char for char in _without_store_number(text) if not char.isspace()]
    letters = sum(char.isalpha() for char in chars)
    return (
        bool(chars)
        and letters >= 0.6 * len(chars)
        and any(sum(char.isalpha() for char in word) >= 3 for word in text.split())
        and not _PHONE.search(text)
        and not _NOT_NAME.search(text)
        and not _is_place(text)
        and not _logo_noise(text)
    )


def _logo_noise(text: str) -> bool:
    """Whether a line reads as OCR's noise of a logo or a picture rather than print: many words
    (NOISE_WORDS) of few letters each on average ("SS SE Ream ats Rune ts mek es emcee ay"); a name's
    words are fewer or longer ("MOOYAH Burgers Fries & Shakes #199")."""
    words = text.split()
    letters = sum(char.isalpha() for char in text)
    return len(words) >= _NOISE_WORDS and letters < _NOISE_LETTERS * len(words)


def stamped_date(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The first date printed with a time of day on its line, as a till stamps the sale; a date OCR
    read with a letter for a digit or a digit for a letter read as it is printed (`date_repaired`)."""
    for index, line in enumerate(reading.layout.lines[:_SUM_LINES]):
        if parse_time(line.text) is None:
            continue
        found = parse_date(line.text, reading.day_first)
        found = found or parse_date(date_repaired(line.text), reading.day_first)
        found = found or parse_date(TIME_OF_DAY.sub(" ", line.text), reading.day_first)
        if found is None:
            continue
        value = found.value.isoformat()
        if reading.valid(slot.node, value):
            yield Candidate(STAMPED, (index, 0), frozenset({(index, 0)}), value, found.printed)
            return
    yield from _labelled_date(slot, reading)


def _labelled_date(slot: Slot, reading: Reading) -> Iterator[Candidate]:
    """The date after the word that labels it ("Datum: 04.04. 2020"), when no line stamps the sale with
    a time: OCR's confusions and its space before the year undone (`date_repaired`)."""
    for index, line in enumerate(reading.layout.lines[:_SUM_LINES]):
        label = _DATE_WORD.match(" ".join(line.text.split()))
        if label is None:
            continue
        found = parse_date(date_repaired(" ".join(line.text.split())[label.end() :]), reading.day_first)
        if found is not None and reading.valid(slot.node, found.value.isoformat()):
            value = found.value.isoformat()
            yield Candidate(LABELLED_DATE, (index, 0), frozenset({(index, 0)}), value, found.printed)
            return


def date_repaired(text: str) -> str:
    """A line with OCR's confusions undone inside the words shaped as a date only, nowhere else: in a
    numeric date, O for 0, l, I or | for 1, S for 5 ("O5/l1/18" is 05/11/18); in a month's name
    before its day, $ or 5 for S, 0 for O, 1 for l ("$ep07'18" is Sep07'18). A word of letters and
    digits elsewhere on the line ("T0TAL", "S1") is left as it is read."""
    text = _SPACED_YEAR.sub(r"\1\2", text)
    text = _CONFUSED_NUMERIC_DATE.sub(lambda found: found[0].translate(_AS_DIGITS), text)
    return _CONFUSED_MONTH.sub(lambda found: found[1].translate(_AS_LETTERS), text)


def _o_repaired(text: str) -> str:
    """A line with OCR's 0 and Q for an O between two letters read as O ("T0TAL", "AMQUNT DUE"), its
    length kept so that what is found in it is found at the same place in the line as printed."""
    return _O_CONFUSED.sub("O", text)


def _without_store_number(text: str) -> str:
    """A line without the number that ends it and the "#" before it ("Shop # 12" -> "Shop"); taken off
    from the end, in one pass (a pattern searched from every start is quadratic on a long run of digits)."""
    line = text.rstrip()
    rest = line.rstrip("".join(char for char in set(line) if char.isdecimal()))
    if rest == line:
        return text
    rest = rest.rstrip()
    return rest[:-1].rstrip() if rest.endswith("#") else rest
