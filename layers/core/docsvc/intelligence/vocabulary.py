"""Words shared by the built-in classification, splitting and partitioning: tokens normalised for
comparison (case, punctuation, plurals), an index of a text's tokens for phrase look-ups, and a
vocabulary of common business document kinds with the phrases that name them and the cue phrases
typical of their content."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

Phrase = tuple[str, ...]

# Scripts written without spaces between words (Thai, Japanese kana and kanji, Chinese hanzi) and Korean,
# whose words carry their particles: a run of them is cut into overlapping pairs of characters.
# Hyphens a typesetter may print for "-" (U+2010 and U+2011: "18\u201008\u20102026"), read as it.
HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})
_UNSPACED = "\u0e01-\u0e4e\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_WORD = re.compile(rf"([{_UNSPACED}]+)|[^\W_{_UNSPACED}]+")
_UNSPACED_RUN = re.compile(rf"[{_UNSPACED}]{{3}}")
# A title of such a script set letter-spaced ("注  文  書", "御　請　求　書"): single characters apart by
# spaces (no-break or ideographic ones too) on one line, read as the run they spell.
_LETTER_SPACED = re.compile(
    rf"(?<![{_UNSPACED}])[{_UNSPACED}](?:[ \u00a0\u3000]{{1,4}}[{_UNSPACED}](?![{_UNSPACED}]))+"
)
# A heading of capitals set letter-spaced ("R A P P O R T", in any alphabet): four or more single
# letters apart by one space each, read as the word they spell.
_SPACED_CAPITALS = re.compile(r"(?<![^\W\d_])[^\W\d_](?:[ \u00a0][^\W\d_]){3,}(?![^\W\d_])")
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_QUOTED = re.compile(r""""([^"]+)"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)""")


_UNDECOMPOSED = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae"}
)


def plain(word: str) -> str:
    """`word` lower-cased without accents: "Käufer" -> "kaufer", "Płatności" -> "platnosci"."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_UNDECOMPOSED))
    return "".join(character for character in decomposed if not unicodedata.combining(character)).lower()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """`word` lower-cased, without accents, with a plural ending removed: "Invoices" -> "invoice",
    "parties" -> "party", "Käufer" -> "kaufer"."""
    word = plain(word)
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _stems(listing: str) -> frozenset[str]:
    return frozenset(stem(word) for word in listing.split())


STOP_WORDS = _stems(
    "a an and are as at be been by can do does e eg etc for from g has have i ie in into is it its may "
    "might must of on one or our should so such than that the their them then there these they this "
    "those to typically usually often was we were what when where which while who will with would you "
    "your any all each other usual like document documents page pages file files contain contains "
    "containing include includes including mention mentions mentioning show shows showing list lists "
    "listing kind type sort something anything about also"
)
# The function words of the main European languages besides English (articles, pronouns, prepositions,
# conjunctions, auxiliaries): on every page of a text in that language, whatever its topic.
FUNCTION_WORDS = _stems(
    "der die das den dem des ein eine einer eines einem einen und oder aber nicht mit von vom zum zur auf "
    "aus bei fur uber unter nach vor durch gegen ohne als auch noch nur wie wenn dass ist sind war wird "
    "werden wurde wurden hat haben hatte kann konnen muss mussen soll sollen sich sie ihr ihre ihrem ihren "
    "ihres wir unser unsere sein seine dies diese dieser dieses jede jeder jedes alle allen sowie bzw "
    "zwischen beim hier dort sehr mehr "
    "les une dans pour par sur avec sans est sont ete etre qui que dont leur leurs cette ces son ses aux "
    "mais plus moins comme aussi tout tous toute toutes nous vous ils elles pas peut entre "
    "los las del una unos unas para por con sin como mas pero sus este esta estos estas ese esa eso ser "
    "fue han hay sobre desde hasta tambien cuando donde muy todo todos "
    "gli della delle degli dei dello nella nelle nel negli per che uno sono essere piu anche questo "
    "questa questi queste sulla sul alla alle agli dal dalla tra fra "
    "dos das umas com sem seu sua seus suas estes isso sao foi pelo pela pelos pelas muito nas nos num "
    "numa aos "
    "het een van voor met zijn niet ook aan door bij naar uit maar dat deze dit worden wordt werd moet "
    "heeft hebben wij zij hun onze over tot "
    "jest sie nie oraz jak lub dla przez przy ich jego jej tym tego ktore ktory ktora byc zostal moze tak "
    "tez"
)
# The commonest function words of each main European language that no other of them writes alike (no
# "de", "la", "que", "en"): a page's language, counted, whatever its topic.
LANGUAGE_WORDS = {
    language: _stems(listing)
    for language, listing in (
        ("en", "the and of to is that with are this from which have not were been would"),
        ("de", "der die das und ist nicht mit von dem den ein eine einer auf sich auch wird sind im zur"),
        ("fr", "les est une dans pour sur avec qui sont aux du au pas ce cette et nous vous"),
        ("es", "los las una con es como pero sus este esta el y muy"),
        ("it", "gli della delle dei nella per che sono di non anche questo nel alla"),
        ("pt", "dos uma com sao os do da em na ao nao pelo"),
        ("nl", "het een van voor met zijn niet ook aan door bij naar uit maar dat deze dit"),
        ("pl", "jest nie oraz jak lub dla przez przy ich jego jej tym tego ktore ktory"),
    )
}
# Words found on most business documents: evidence, but weak evidence.
GENERIC_WORDS = _stems(
    "date number name amount total price address phone email company customer item description "
    "quantity qty value reference ref no id"
)
NEGATIONS = _stems("not unlike except excluding without never nor")


class Token(NamedTuple):
    stem: str
    start: int
    end: int


def tokenize(text: str, pairs: bool = True) -> list[Token]:
    """The words and numbers of `text`, stemmed, with where each stands in `text`. A run of a script
    written without spaces ("請求書を送付します", "รายงานฉบับสุดท้าย") gives its overlapping pairs of
    characters, so that a phrase of such a script is found inside a run as the same pairs in a row
    (without `pairs`, the run as one word). A word of capitals set letter-spaced is one word."""
    tokens = _tokens(text, pairs)
    spelt = [match.span() for match in _SPACED_CAPITALS.finditer(text) if match.group().isupper()]
    if not spelt:
        return tokens
    tokens = [token for token in tokens if not any(first <= token.start < last for first, last in spelt)]
    tokens.extend(Token(stem(re.sub(r"\s", "", text[first:last])), first, last) for first, last in spelt)
    return sorted(tokens, key=lambda token: token.start)


def _tokens(text: str, pairs: bool) -> list[Token]:
    spaced = pairs and _LETTER_SPACED.search(text)
    if not pairs or not (_UNSPACED_RUN.search(text) or spaced):
        return [Token(stem(match.group()), match.start(), match.end()) for match in _WORD.finditer(text)]
    tokens: list[Token] = []
    spans = [match.span() for match in _LETTER_SPACED.finditer(text)] if spaced else []
    for match in _WORD.finditer(text):
        run, start = match.group(), match.start()
        if any(first <= start < last for first, last in spans):
            continue  # a letter of a spaced title: its pairs stand for it (below)
        if match.group(1) is None or len(run) < 3:
            tokens.append(Token(stem(run), start, match.end()))
        else:
            tokens.extend(
                Token(stem(run[at : at + 2]), start + at, start + at + 2) for at in range(len(run) - 1)
            )
    for first, last in spans:
        places = [at for at in range(first, last) if not text[at].isspace()]
        tokens.extend(
            Token(stem(text[first] + text[second]), first, second + 1) for first, second in pairwise(places)
        )
    return sorted(tokens, key=lambda token: token.start) if spaced else tokens


def word_count(text: str) -> int:
    """The words of `text`, a run of a script written without spaces, or of capitals set letter-spaced,
    counting as one."""
    return len(tokenize(text, pairs=False))


def phrase(text: str, pairs: bool = True) -> Phrase:
    """`text` as a phrase to look for; underscores, hyphens and camel case separate words (a run of a
    script written without spaces gives its pairs of characters, or without `pairs` the whole run)."""
    return tuple(token.stem for token in tokenize(uncamel(text), pairs))


def uncamel(text: str) -> str:
    """`text` with camel-case words apart: "InvoiceNo" -> "Invoice No"."""
    return _CAMEL_HUMP.sub(" ", text)


def quoted(text: str, affirmed_only: bool = False) -> list[str]:
    """The phrases `text` quotes, in "double", “curly” or 'single' quotes; with `affirmed_only`, not
    those right after a negation ('not an "invoice"')."""
    found: list[str] = []
    for match in _QUOTED.finditer(text):
        before = phrase(text[max(0, match.start() - 40) : match.start()])[-2:]
        if not (affirmed_only and any(word in NEGATIONS for word in before)):
            found.append(next(group for group in match.groups() if group))
    return found


def unquoted(text: str) -> str:
    """`text` without the phrases it quotes."""
    return _QUOTED.sub(" ", text)


@dataclass(frozen=True)
class IndexedText:
    """A text with its tokens indexed, so a phrase is found in time proportional to its occurrences."""

    text: str
    tokens: list[Token]
    stems: tuple[str, ...] = field(repr=False)
    positions: dict[str, list[int]] = field(repr=False)

    @classmethod
    def of(cls, text: str) -> IndexedText:
        tokens = tokenize(text)
        positions: dict[str, list[int]] = {}
        for index, token in enumerate(tokens):
            positions.setdefault(token.stem, []).append(index)
        return cls(text, tokens, tuple(token.stem for token in tokens), positions)

    def occurrences(self, words: Phrase) -> list[int]:
        """The token indexes where `words` starts."""
        if not words:
            return []
        size = len(words)
        return [
            index for index in self.positions.get(words[0], []) if self.stems[index : index + size] == words
        ]

    def surface(self, index: int, size: int) -> str:
        """The original text of the `size` tokens starting at token `index`."""
        return self.text[self.tokens[index].start : self.tokens[index + size - 1].end]


def find_phrases(words: Phrase, candidates: Iterable[Phrase]) -> list[tuple[int, Phrase]]:
    """(position, candidate) for each candidate found in `words`, leaving out any candidate that
    only occurs inside a longer one found at an overlapping position."""
    found: list[tuple[int, Phrase]] = []
    for candidate in candidates:
        size = len(candidate)
        found.extend(
            (start, candidate)
            for start in range(len(words) - size + 1)
            if size and words[start : start + size] == candidate
        )
    return [
        (start, candidate)
        for start, candidate in found
        if not any(
            len(other) > len(candidate)
            and other_start <= start
            and start + len(candidate) <= other_start + len(other)
            for other_start, other in found
        )
    ]


FIELDS = "fields"  # a document of labelled values, amounts and tables: invoices, orders, forms
PROSE = "prose"  # a document of sentences: letters, contracts, papers, manuals


@dataclass(frozen=True)
class DocumentKind:
    """A common kind of business document: phrases naming it (in English and the main European
    languages), cue phrases typical of its content, and the layout its pages usually have (FIELDS,
    PROSE, or "" when it has both)."""

    name: str
    aliases: tuple[Phrase, ...]
    cues: tuple[Phrase, ...]
    layout: str = ""


def _kind(name: str, aliases: str, cues: str, layout: str = "") -> DocumentKind:
    return DocumentKind(name, _phrases(aliases), _phrases(cues), layout)


def _phrases(listing: str) -> tuple[Phrase, ...]:
    return tuple(phrase(item) for item in listing.split(",") if item.strip())


KINDS: tuple[DocumentKind, ...] = (
    _kind(
        "invoice",
        "invoice, tax invoice, commercial invoice, sales invoice, vendor bill, utility bill, "
        "rechnung, handelsrechnung, steuerrechnung, facture, facture commerciale, factuur, factura, "
        "factura comercial, fattura, fattura commerciale, fatura, faktura, faktura vat, nota fiscal, "
        "nota fiscal eletronica, danfe, nf e, "
        # Latvian and Lithuanian: an invoice, an advance invoice, a VAT invoice
        "rekins, avansa rekins, pvn rekins, saskaita faktura, pvm saskaita faktura, "
        # Chile and Peru: the sale's voucher a seller issues for a tax authority (a factura or a boleta)
        # (a boleta is the invoice a Peruvian or Chilean seller issues to a consumer, as the labels file it)
        "comprobante de venta, comprobante de pago, boleta, boleta de venta, boleta electronica, "
        # Macedonian, Bulgarian and Serbian: an invoice, a pro forma and a tax invoice
        "фактура, про фактура, профактура, проформа фактура, даночна фактура, данъчна фактура, "
        # Greek, Arabic and Hebrew: an invoice, a tax invoice
        "τιμολογιο, τιμολογιο παροχης υπηρεσιων, τιμολογιο πωλησης, فاتورة, الفاتورة, فاتورة ضريبية, "
        "חשבונית, חשבונית מס",
        "invoice number, invoice no, invoice date, bill to, billed to, sold to, amount due, total due, "
        "balance due, due date, payment due, payment terms, remit to, please pay, payable, net 30, vat, "
        "subtotal, tax, vat id, "
        "rechnungsnummer, rechnungsdatum, rechnungsbetrag, rechnungssumme, leistungsdatum, "
        "zahlungsbedingungen, zahlbar, zahlbetrag, bruttosumme, nettobetrag, steuerbetrag, umsatzsteuer, "
        "ust, mwst, ust id nr, verkaufer, kaufer, leistungsempfanger, rechnungsempfanger, "
        "numero de facture, date de facture, date d echeance, echeance, total ttc, total ht, montant ttc, "
        "tva, net a payer, conditions de paiement, factuurnummer, factuurdatum, vervaldatum, btw, "
        "te betalen, numero de factura, fecha de factura, fecha de vencimiento, iva, base imponible, "
        "total a pagar, numero fattura, data fattura, scadenza, imponibile, partita iva, "
        "numero da fatura, data de vencimento, numer faktury, data wystawienia, termin platnosci, "
        "do zaplaty, sprzedawca, nabywca, nip, "
        "total geral, valor a pagar, periodo de consumo, periodo de facturacion, periodo di fatturazione, "
        "abrechnungszeitraum, periode de facturation, emitente, destinatario, chave de acesso, "
        "data de emissao, data emissao, valor total da nota, "
        "gracias por su compra, thank you for your purchase, vielen dank fur ihren einkauf, "
        "merci pour votre achat, grazie per il suo acquisto, obrigado pela sua compra, "
        # Ukrainian and Russian: an invoice ("рахунок-фактура", "счёт на оплату"), its VAT, its total due
        "рахунок фактура, рахунок на оплату, счет фактура, счет на оплату, пдв, ндс, до сплати, к оплате, "
        "всього до сплати, итого к оплате, "
        # Macedonian and Bulgarian: VAT ("ДДВ", "ДДС") and the price with it
        "ддв, ддс, цена со ддв, вкупно со ддв, "  # noqa: RUF001
        # Arabic and Greek: VAT, the amount due, the tax number, the invoice's number and date
        "ضريبة القيمة المضافة, المبلغ المستحق, الرقم الضريبي, رقم الفاتورة, تاريخ الفاتورة, φπα, αφμ, "
        "πληρωτεο",
        FIELDS,
    ),
    _kind(
        "receipt",
        "receipt, sales receipt, payment receipt, cash receipt, till receipt, quittung, kassenbon, "
        "kassenbeleg, recu, ticket de caisse, kassabon, recibo, ricevuta, scontrino, paragon, "
        "recu de paiement, recibo de pago, ricevuta di pagamento, "
        "nota de venta, "  # Spanish (Latin America): a receipt slip
        "кассовый чек, квитанция, касовий чек, квитанція, إيصال, ايصال, إيصال استلام, αποδειξη",
        "thank you for your purchase, thank you for shopping, thanks for shopping, cash, change, cashier, "
        "card, visa, mastercard, amex, paid, amount paid, payment received, tendered, transaction, "
        "terminal, register, till, store, auth code, approval code, return policy, receipt number, subtotal, "
        "tax, vat, come again, please come again, proof of purchase, bar, ruckgeld, gegeben, "
        "vielen dank fur ihren einkauf, merci de votre visite, especes, rendu, bedankt, contanti, resto, "
        "efectivo, cambio, gotowka, detalle de la venta, nro venta, numero de venta",
        FIELDS,
    ),
    _kind(
        "purchase order",
        "purchase order, po, p o, bestellung, einkaufsbestellung, bon de commande, commande, "
        "bestelling, inkooporder, orden de compra, pedido, pedido de compra, ordine di acquisto, "
        "ordine, encomenda, nota de encomenda, zamowienie, замовлення, заказ, заказ покупателя, "
        "замовлення постачальнику, заказ поставщику, transport order, transportauftrag, ordre de transport, "
        "zlecenie transportowe, zlecenie, أمر شراء, امر شراء, طلب شراء, παραγγελια",
        "po number, po no, purchase order number, order date, ship to, vendor, supplier, deliver by, "
        "delivery date, requested by, authorized by, authorised by, approved by, buyer, requisition, "
        "shipping method, order total, order id, order number, bestellnummer, bestelldatum, lieferant, "
        "liefertermin, numero de commande, date de commande, fournisseur, bestelnummer, leverancier, "
        "numero de pedido, proveedor, numero ordine, fornitore, numer zamowienia, dostawca, "
        "номер замовлення, постачальник, замовник, номер заказа, поставщик, заказчик, zleceniodawca, "
        "zleceniobiorca",
        FIELDS,
    ),
    _kind(
        "quote",
        "quote, quotation, estimate, price quote, proposal, angebot, kostenvoranschlag, devis, offerte, "
        "presupuesto, cotizacion, preventivo, orcamento, oferta",
        "quote number, quotation number, estimate number, valid until, valid for, validity, expiry date, "
        "expires, prepared for, prepared by, acceptance, accept this quote, estimated, gultig bis, "
        "angebotsnummer, valable jusqu au, bon pour accord, geldig tot, valido hasta, valido fino",
        FIELDS,
    ),
    _kind(
        "bank statement",
        "bank statement, account statement, statement of account, statement, kontoauszug, "
        "releve de compte, releve bancaire, rekeningafschrift, extracto bancario, extracto, "
        "estratto conto, extrato bancario, wyciag bankowy",
        "statement period, opening balance, closing balance, balance brought forward, balance carried "
        "forward, previous balance, new balance, deposit, withdrawal, debit, sort code, iban, bic, swift, "
        "account number, account holder, available balance, interest, direct debit, standing order, "
        "transfer, atm, balance, kontostand, alter kontostand, neuer kontostand, lastschrift, gutschrift, "
        "solde, ancien solde, nouveau solde, saldo, saldo anterior, saldo iniziale",
        FIELDS,
    ),
    _kind(
        "payslip",
        "payslip, pay slip, pay stub, paystub, salary slip, wage slip, earnings statement, pay statement, "
        "lohnabrechnung, gehaltsabrechnung, entgeltabrechnung, bulletin de paie, fiche de paie, "
        "bulletin de salaire, loonstrook, nomina, busta paga, cedolino, recibo de vencimento, "
        "pasek wynagrodzen",
        "gross pay, net pay, earnings, deductions, pay period, pay date, employee, employee id, employee "
        "number, employer, year to date, ytd, national insurance, income tax, paye, tax code, hourly rate, "
        "hours worked, overtime, basic salary, pension, salary, bruttolohn, nettolohn, bruttogehalt, "
        "nettogehalt, lohnsteuer, arbeitgeber, arbeitnehmer, salaire brut, salaire net, employeur, "
        "salarie, brutoloon, nettoloon, salario bruto, salario neto, stipendio, retribuzione, "
        "wynagrodzenie",
        FIELDS,
    ),
    _kind(
        "contract",
        "contract, agreement, service agreement, lease, non disclosure agreement, nda, vertrag, "
        "mietvertrag, arbeitsvertrag, vereinbarung, contrat, accord, overeenkomst, contrato, contratto, "
        "umowa, power of attorney, vollmacht, prozessvollmacht, procuration, volmacht, poder notarial, "
        "pelnomocnictwo, "
        # Arabic: the contract, a partnership, lease, sale or employment contract, an agreement (the bare
        # "عقد" is also the verb "held": "عقد مجلس الإدارة اجتماعه", the board held its meeting)
        "العقد, عقد شركة, عقد إيجار, عقد بيع, عقد عمل, اتفاقية, الاتفاقية, "
        # Russian and Ukrainian: a contract (its cases), an agreement
        "договор, договора, договору, договір, соглашение, соглашения, угода, контракт",
        "party, hereby, whereas, hereinafter, shall, termination, governing law, jurisdiction, "
        "obligations, liability, indemnify, confidentiality, effective date, in witness whereof, breach, "
        "entire agreement, clause, signed by, vertragspartner, kundigung, gerichtsstand, "
        "les parties, resiliation, partijen, las partes, le parti, strony, "
        # Arabic: the first and second party (with and without the article), the two parties, contracting
        "الطرف الأول, الطرف الثاني, طرف أول, طرف ثان, الطرفين, الطرفان, التعاقد, المتعاقدين, "
        # Russian and Ukrainian: the parties to the contract, the terms of the contract, a party "hereinafter
        # called", "represented by"; not the bare word for the parties, which ordinary prose says for "on the
        # other hand" and "on the part of"
        "стороны договора, сторон договора, сторони договору, именуемое в дальнейшем, "
        "именуемый в дальнейшем, в лице, іменоване надалі, в особі, "  # noqa: RUF001
        "условия договора, умови договору",
        PROSE,
    ),
    _kind(
        "form",
        "form, application, application form, registration form, enrollment form, questionnaire, "
        "expense report, expense claim, reisekostenabrechnung, spesenabrechnung, rapport de depenses, "
        "note de frais, declaracion de gastos, nota spese, relatorio de despesas, incident report, "
        "formular, antrag, formblatt, vordruck, formulaire, cerfa, formulier, formulario, modulo, formularz, "
        "wniosek, "
        # Russian, Ukrainian, Arabic and Greek: a standard or blank form, a questionnaire, an application
        # (not the bare "форма", which prose says for "in written form", nor "نموذج", also a "model")
        "унифицированная форма, типовая форма, форма по окуд, бланк, анкета, заявление, типова форма, "
        "заява, استمارة, الاستمارة, نموذج طلب, طلب التحاق, αιτηση, εντυπο",
        "if applicable, please specify, other specify, check all that apply, check one, select one, "
        "please complete, please print, applicant, full name, first name, last name, surname, date of "
        "birth, signature, phone, email, address, postcode, post code, checkbox, tick, for office use only, "
        "i declare, "
        "declaration, i certify, vorname, nachname, geburtsdatum, unterschrift, prenom, date de naissance, "
        "voornaam, achternaam, geboortedatum, handtekening, nombre, apellidos, fecha de nacimiento, firma, "
        "cognome, data di nascita, imie, nazwisko, podpis, "
        # the same labels and instructions in the main European languages: block letters, place of
        # birth, nationality, postal code, boxes to tick, a declaration, the space kept for the office
        "block letters, block capitals, place of birth, nationality, postal code, zip code, tick the box, "
        "lettres majuscules, en majuscules, nom de famille, nom d usage, lieu de naissance, nationalite, "
        "code postal, cochez, cocher, je certifie, je declare, cadre reserve, reserve a l administration, "
        "druckbuchstaben, familienname, geburtsname, geburtsort, staatsangehorigkeit, postleitzahl, "
        "ankreuzen, ich versichere, ich erklare, vermerke der behorde, "
        "letras mayusculas, primer apellido, lugar de nacimiento, nacionalidad, codigo postal, marque con, "
        "declaro, a cumplimentar, stampatello, luogo di nascita, cittadinanza, codice postale, "
        "codice fiscale, barrare, dichiaro, riservato all ufficio, blokletters, geboorteplaats, "
        "nationaliteit, aankruisen, ik verklaar, in te vullen door, letras maiusculas, nome completo, "
        "data de nascimento, local de nascimento, nacionalidade, assinale, assinatura, a preencher, "
        "drukowanymi literami, nazwisko rodowe, miejsce urodzenia, obywatelstwo, kod pocztowy, zaznaczyc, "
        "oswiadczam, wypelnia, "
        # the same in Russian, Ukrainian, Arabic and Greek: surname, name, patronymic, date and place of
        # birth, signature and its transcript, citizenship, the organisation's name
        "фамилия, имя, отчество, дата рождения, место рождения, подпись, личная подпись, "
        "расшифровка подписи, гражданство, наименование организации, прізвище, ім я, по батькові, "
        "дата народження, місце народження, підпис, громадянство, الاسم الكامل, تاريخ الميلاد, "
        "مكان الميلاد, التوقيع, الجنسية, رقم الهاتف, επωνυμο, ημερομηνια γεννησης, υπογραφη",
        FIELDS,
    ),
    _kind(
        "letter",
        "letter, cover letter, correspondence, geschaftsbrief, anschreiben, lettre, courrier, carta, "
        "lettera, "
        # an invitation sent to members, a notice convening a meeting
        "invitation, einladung, uitnodiging, invitacion, invito, convite, zaproszenie, convocation, "
        "convocatoria, convocazione",
        "dear, sincerely, yours sincerely, yours faithfully, kind regards, best regards, regards, "
        "to whom it may concern, i am writing, we are writing, please find enclosed, enclosure, "
        "sehr geehrte, sehr geehrter, mit freundlichen grussen, madame, monsieur, "
        "veuillez agreer, cordialement, geachte, met vriendelijke groet, estimado, estimada, "
        "atentamente, gentile, cordiali saluti, distinti saluti, prezados, szanowni, z powazaniem, "
        "mit herzlichen grussen, herzliche grusse, viele grusse, beste grusse, sehr verehrte, verehrte, "
        "muy senor, muy senora, muy senores, muy sr, muy sres, sin otro particular, "
        "reciba un cordial saludo, "
        # Russian, Ukrainian, Arabic and Greek salutations and closings
        "уважаемый, уважаемая, уважаемые, с уважением, шановний, шановна, шановні, з повагою, "  # noqa: RUF001
        "تحية طيبة, تحية طيبة وبعد, مع خالص التحية, وتفضلوا بقبول فائق الاحترام, αγαπητε, αγαπητη, "
        "με εκτιμηση",
        PROSE,
    ),
    _kind(
        "delivery note",
        "delivery note, packing slip, packing list, delivery receipt, dispatch note, shipping note, "
        "bill of lading, goods received note, lieferschein, bon de livraison, pakbon, albaran, "
        "nota de entrega, documento di trasporto, bolla di consegna, guia de remessa",
        "shipped, ship to, deliver to, delivery address, tracking number, carrier, received by, received "
        "in good condition, quantity shipped, qty shipped, quantity ordered, backordered, back order, "
        "consignee, shipment, dispatch date, delivery date, package, lieferadresse, lieferdatum, "
        "adresse de livraison, date de livraison, afleveradres, direccion de entrega",
        FIELDS,
    ),
    _kind(
        "credit note",
        "credit note, credit memo, credit memorandum, gutschrift, rechnungskorrektur, avoir, "
        "facture d avoir, creditnota, creditfactuur, nota de credito, factura rectificativa, "
        "nota di credito, faktura korygujaca",
        "credit amount, amount credited, credited, refund, original invoice, returned, credit total, "
        "adjustment, reason for credit, erstattung, remboursement, terugbetaling, reembolso, rimborso",
        FIELDS,
    ),
    _kind(
        "tax form",
        "tax form, tax return, w 2, w 9, 1099, 1040, p60, p45, self assessment, steuererklarung, "
        "declaration de revenus, belastingaangifte, declaracion de la renta",
        "tax year, taxpayer, taxpayer identification number, tin, ssn, social security number, irs, "
        "internal revenue service, hmrc, federal income tax withheld, wages tips, employer identification "
        "number, ein, filing status, adjusted gross income, taxable income, department of the treasury, "
        "steuer id, steuernummer, finanzamt, numero fiscal",
        FIELDS,
    ),
    _kind(
        "scientific paper",
        "scientific paper, academic paper, research paper, scientific article, research article, "
        "journal article, paper, preprint, thesis, dissertation, textbook, "
        "wissenschaftlicher artikel, fachartikel, doktorarbeit, dissertation, article scientifique, "
        "these de doctorat, "
        "wetenschappelijk artikel, proefschrift, articulo cientifico, tesis, articolo scientifico, tesi, "
        "artigo cientifico, artykul naukowy, praca doktorska, "
        # a student's thesis, as universities name it
        "bachelor thesis, master thesis, bachelorarbeit, masterarbeit, diplomarbeit, abschlussarbeit, "
        "bachelorproef, masterproef, scriptie, afstudeerscriptie, projet de fin d etudes, "
        "travail de fin d etudes, memoire de fin d etudes, trabajo fin de grado, trabajo de fin de grado, "
        "trabajo fin de master, trabajo de fin de master, tesina, tesi di laurea, "
        "trabalho de conclusao de curso, dissertacao, praca dyplomowa, praca magisterska, "
        "praca inzynierska, praca licencjacka, выпускная квалификационная работа, дипломная работа, "
        "магистерская диссертация, диссертация, научная статья, дисертація, наукова стаття, "
        "ورقة بحثية, رسالة ماجستير, أطروحة, أطروحة دكتوراه, مذكرة تخرج",
        "abstract, introduction, related work, conclusion, references, bibliography, et al, figure, fig, "
        "table, equation, eq, theorem, lemma, proof, corollary, proposition, definition, experiment, "
        "dataset, data set, arxiv, doi, proceedings, journal, conference, university, we propose, "
        "we present, we show, in this paper, in this work, our method, our model, our approach, results, "
        "evaluation, baseline, state of the art, hypothesis, appendix, acknowledgments, methodology, "
        "literature, analysis, model, algorithm, performance, significantly, corresponding author, "
        "correspondence to, keywords, key words, received, accepted, published online, affiliation, issn, "
        "zusammenfassung, einleitung, schlussfolgerung, literaturverzeichnis, stichworter, mots cles, "
        "conclusion, bibliographie, samenvatting, inleiding, trefwoorden, resumen, introduccion, "
        "conclusiones, palabras clave, bibliografia, riassunto, introduzione, parole chiave, resumo, "
        "introducao, palavras chave, streszczenie, wstep, slowa kluczowe, bibliografia, реферат, аннотация, "
        "ключевые слова, введение, заключение, список литературы, научный руководитель, анотація, вступ, "
        "висновки, список літератури, ключові слова, الملخص, الكلمات المفتاحية, قائمة المراجع, المراجع",
        PROSE,
    ),
    _kind(
        "financial report",
        "financial report, annual report, quarterly report, financial statements, financial statement, "
        "earnings report, 10 k, 10 q, geschaftsbericht, jahresabschluss, rapport annuel, rapport financier, "
        "jaarverslag, informe anual, relazione finanziaria, sprawozdanie finansowe, "
        # the statements themselves, as each language names them
        "bilanz, gewinn und verlustrechnung, bilan comptable, compte de resultat, jaarrekening, "
        "winst en verliesrekening, balance general, estado de resultados, bilancio, bilancio d esercizio, "
        "stato patrimoniale, conto economico, balanco patrimonial, demonstracao do resultado, "
        "rachunek zyskow i strat, "
        # the trial balance of a ledger's accounts
        "balance generale, balance des comptes, summen und saldenliste, saldenliste, "
        "balance de comprobacion, bilancio di verifica, "
        # and as English names them
        "balance sheet, income statement, profit and loss statement, profit and loss account, "
        "cash flow statement, statement of financial position, trial balance, "
        # a ledger of the accounts' entries, and a company's financial model and projections
        "general ledger, ledger, grand livre, hauptbuch, libro mayor, libro mastro, livro razao, "
        "grootboek, ksiega glowna, financial model, financial projections, "
        # an investment portfolio's statement of its value, returns and holdings
        "portfolio summary, portfolio statement, portfolio report, investment report, portfolio "
        "zusammenfassung, depotauszug, vermogensubersicht, resumen de cartera, resume du portefeuille, "
        "releve de portefeuille, riepilogo del portafoglio, "
        # Russian, Ukrainian, Arabic and Greek: financial statements, the balance sheet, the statements of
        # financial results, profit and loss and cash flows, an annual report, a trial balance, a ledger
        "финансовая отчетность, бухгалтерская отчетность, бухгалтерский баланс, "
        "отчет о финансовых результатах, отчет о прибылях и убытках, отчет о движении денежных средств, "  # noqa: RUF001
        "годовой отчет, оборотно сальдовая ведомость, главная книга, фінансова звітність, "
        "звіт про фінансові результати, річний звіт, القوائم المالية, التقرير المالي, التقرير السنوي, "
        "الميزانية العمومية, قائمة الدخل, قائمة المركز المالي, قائمة التدفقات النقدية, "
        "الأرباح والخسائر, النموذج المالي, التوقعات المالية, οικονομικες καταστασεις, ισολογισμος",
        "revenue, revenues, net income, net loss, fiscal year, fiscal, consolidated, balance sheet, "
        "income statement, statement of operations, cash flow, cash flows, earnings per share, "
        "shareholders, stockholders, operating income, operating expenses, gross margin, gaap, non gaap, "
        "assets, liabilities, equity, dividend, dividends, accounting, depreciation, amortization, "
        "segment, quarter, securities, auditor, goodwill, disclosure, disclosures, fasb, "
        "accounting standard, compensation, acquisition, umsatzerlose, chiffre d affaires, omzet, "
        "aktiva, passiva, eigenkapital, anlagevermogen, umlaufvermogen, bilanzsumme, jahresuberschuss, "
        "actif, passif, capitaux propres, immobilisations, resultat net, activa, passiva, eigen vermogen, "
        "activo, pasivo, patrimonio neto, attivo, passivo, patrimonio netto, immobilizzazioni, "
        "ativo, patrimonio liquido, aktywa, pasywa, kapital wlasny, "
        # profit and loss, and the entries of accounts, as the main languages write them
        "gross profit, net profit, profit margin, operating profit, journal entries, chart of accounts, "
        "annual return, volatility, sharpe ratio, asset allocation, jahresrendite, volatilitat, "
        "vermogensallokation, rentabilidad anual, volatilidad, rendement annuel, volatilite, "
        "ecritures comptables, plan comptable, "
        "zysk, strata, przychody, koszty, zysk netto, zysk brutto, "
        "выручка, чистая прибыль, прибыль, убыток, активы, пассивы, собственный капитал, "
        "денежные средства, виручка, чистий прибуток, прибуток, збиток, активи, пасиви, "
        "الإيرادات, الايرادات, صافي الربح, الأرباح, الخسائر, الأصول, الخصوم, حقوق الملكية, "
        "التدفق النقدي, التدفقات النقدية, المصاريف, إجمالي الإيرادات",
    ),
    _kind(
        "technical documentation",
        "technical documentation, documentation, technical manual, manual, user manual, user guide, "
        "handbook, developer guide, guide, reference manual, specification, installation guide, "
        "handbuch, bedienungsanleitung, anleitung, manuel, handleiding, manual de usuario, manuale, "
        "technical specification, spezifikation, technische dokumentation, dokumentation, benutzerhandbuch, "
        "leitfaden, technischer anhang, specification technique, documentation technique, "
        "guide de l utilisateur, mode d emploi, specificatie, technische documentatie, "
        "gebruikershandleiding, "
        "especificacion, especificacion tecnica, documentacion tecnica, guia del usuario, specifica tecnica, "
        "documentazione tecnica, guida utente, especificacao, documentacao tecnica, manual do utilizador, "
        "specyfikacja, dokumentacja techniczna, instrukcja obslugi, "
        "handreiking, leeswijzer, gebruiksaanwijzing, guia do usuario, "
        # a standard, which specifies as a specification does
        "international standard, national standard, interstate standard, technical standard, "
        "deutsche norm, europaische norm, norme internationale, norme francaise, norma espanola, "
        "norma italiana, polska norma, "
        # Russian, Ukrainian, Arabic and Greek: a standard, a manual, instructions, a specification
        "межгосударственный стандарт, национальный стандарт, государственный стандарт, "
        "стандарт организации, технические условия, руководство пользователя, руководство по эксплуатации, "
        "руководство администратора, руководство программиста, инструкция, инструкция по эксплуатации, "
        "техническое описание, спецификация, техническое задание, документация, національний стандарт, "
        "інструкція, настанова, посібник користувача, دليل المستخدم, دليل الاستخدام, دليل التشغيل, "
        "المواصفات الفنية, مواصفة قياسية, الوثائق التقنية, εγχειριδιο, οδηγος χρησης, προτυπο",
        "chapter, section, see section, see figure, figure, note, warning, caution, procedure, step, "
        "install, installation, configure, configuration, example, for example, api, version, parameter, "
        "attribute, element, schema, library, code, command, software, tool, xml, implementation, "
        "developer, developers, must be, should be, refer to, specification, standard, format, "
        "profile, syntax, validation, maintenance, inspection, assembly, bolt, screw, torque, component, "
        "kapitel, abschnitt, beispiel, hinweis, beschreibung, anhang, datenmodell, attribut, kardinalitat, "
        "chapitre, exemple, remarque, annexe, hoofdstuk, voorbeeld, opmerking, bijlage, capitulo, ejemplo, "
        "nota, anexo, capitolo, esempio, allegato, rozdzial, przyklad, uwaga, zalacznik, "
        # a standard's parts: its scope, normative references, terms and definitions
        "normative references, terms and definitions, normative verweisungen, begriffe, "
        "anwendungsbereich, references normatives, termes et definitions, domaine d application, "
        "referencias normativas, terminos y definiciones, riferimenti normativi, termini e definizioni, "
        "нормативные ссылки, термины и определения, область применения, нормативні посилання, "
        "терміни та визначення, сфера застосування, примечание, пример, приложение, раздел, "
        "примітка, приклад, додаток, مثال, ملاحظة, تنبيه, التثبيت, تثبيت, تركيب, الإعدادات, إعدادات, "
        "البرنامج, برنامج, القائمة, واجهة",
        PROSE,
    ),
    _kind(
        "book",
        "textbook, novel, rule book, lehrbuch, livre, manuel scolaire, boek, leerboek, libro, "
        "libro de texto, novela, libro di testo, livro, ksiazka, podrecznik, powiesc, "
        # a game's rule book
        "rulebook, rules of play, game rules, spielregeln, regelwerk, regles du jeu, reglas del juego, "
        "regole del gioco, regras do jogo, "
        # Russian, Ukrainian and Arabic: a book, a textbook, a novel
        "учебник, роман, учебное пособие, підручник, رواية, الرواية, كتاب مدرسي",
        "chapter, kapitel, chapitre, hoofdstuk, capitulo, capitolo, rozdzial, preface, foreword, prologue, "
        "epilogue, contents, table of contents, index, glossary, isbn, edition, "
        "publisher, published by, copyright, all rights reserved, printed in, volume, exercises, "
        "vorwort, einleitung, inhalt, inhaltsverzeichnis, auflage, verlag, band, gedruckt, preface, "
        "table des matieres, edition, editions, imprime, voorwoord, inhoud, uitgeverij, prologo, indice, "
        "editorial, edicion, prefazione, sommario, edizione, editore, prefacio, sumario, editora, "
        "przedmowa, spis tresci, wydanie, wydawnictwo, "
        "книга, глава, предисловие, оглавление, издательство, издание, все права защищены, розділ, "
        "передмова, كتاب, الكتاب, "
        "зміст, видавництво, видання, الفصل الأول, مقدمة, المقدمة, الفهرس, فهرس المحتويات, المحتويات, "
        "الطبعة الأولى, الطبعة, دار النشر, حقوق الطبع محفوظة, جميع الحقوق محفوظة, إهداء, الإهداء, "
        "player, players, dice, opponent, game master, character creation, spieler, wurfel, joueur, "
        "joueurs, jugador, jugadores, giocatore, giocatori, jogador, jogadores",
        PROSE,
    ),
    _kind(
        "report",
        "report, white paper, policy brief, sustainability report, bericht, gutachten, rapport, verslag, "
        "informe, rapporto, relatorio, raport, relazione, relazione tecnica, sprawozdanie, laborbericht, "
        "projektbericht, praktikumsbericht, versuchsprotokoll, laborprotokoll, praktikumsprotokoll, "
        "praxisbericht, abschlussbericht, zwischenbericht, tatigkeitsbericht, erfahrungsbericht, "
        "relazione di progetto, relazione finale, rapport de projet, informe final, relatorio final, "
        "rapport de stage, compte rendu, rapport technique, informe tecnico, "
        "relazione di laboratorio, sprawozdanie z praktyki, "
        "отчет, доклад, аналитический отчет, звіт, доповідь, تقرير, التقرير",
        "study, survey, assessment, studie, etude, onderzoek, estudio, studio, estudo, badanie, "
        "executive summary, summary, key findings, findings, recommendations, methodology, scope, "
        "background, objectives, conclusions, stakeholders, annex, survey, respondents, indicators, "
        "estimate, estimated, projected, trend, sustainability, emissions, programme, program, policy, "
        "zusammenfassung, ergebnisse, empfehlungen, synthese, constats, recommandations, samenvatting, "
        "aanbevelingen, resumen ejecutivo, hallazgos, recomendaciones, sintesi, risultati, raccomandazioni, "
        "sumario executivo, recomendacoes, podsumowanie, wnioski, rekomendacje, "
        "выводы, рекомендации, результаты, исследование, висновки, рекомендації, результати, дослідження, "
        "التوصيات, النتائج, الملخص التنفيذي, المنهجية, الدراسة",
    ),
    _kind(
        "presentation",
        "presentation, slides, slide deck, pitch deck, slideshow, prasentation, folien, vortrag, "
        "diaporama, presentatie, presentacion, diapositivas, presentazione, apresentacao, prezentacja, "
        "презентация, слайды, презентація, عرض تقديمي, العرض التقديمي, شرائح",
        "slide, agenda, outline, overview, questions, key takeaways, next steps, q a",
    ),
)
# The kinds as Japanese, Chinese, Korean and Thai name them, and the headings of a paper in them (found
# inside runs of those scripts as the pairs of characters `tokenize` cuts them into)
_UNSPACED_NAMES = {
    "invoice": "請求書, 御請求書, 发票, 發票, 세금계산서, 청구서, ใบแจ้งหนี้, ใบกำกับภาษี",
    "receipt": "領収書, 領収証, 收据, 收據, 영수증, ใบเสร็จรับเงิน",
    "purchase order": "注文書, 発注書, 注文請書, 発注請書, 采购订单, 訂購單, 订购单, 발주서, 주문서, ใบสั่งซื้อ",
    "quote": "見積書, 报价单, 報價單, 견적서, ใบเสนอราคา",
    "contract": "契約書, 合同书, 劳动合同, 租赁合同, 买卖合同, "
    "协议书, 協議書, 계약서, หนังสือสัญญา, สัญญาเช่า, สัญญาจ้าง",
    "form": "申請書, 申込書, 届出書, 申请表, 申請表, 申请书, 登记表, 신청서, 지원서, แบบฟอร์ม, ใบสมัคร, คำร้อง",
    "letter": "手紙, 書簡, 信函, 편지, 서한, จดหมาย",
    "scientific paper": "論文, 卒業論文, 修士論文, 博士論文, 论文, "
    "学位论文, 毕业论文, 논문, 학위논문, วิทยานิพนธ์",
    "financial report": "決算書, 財務諸表, 有価証券報告書, 财务报表, "
    "財務報表, 재무제표, 사업보고서, งบการเงิน, "
    # the statements themselves
    "资产负债表, 資產負債表, 利润表, 损益表, 現金流量表, 现金流量表, 貸借対照表, 損益計算書, "
    "재무상태표, 손익계산서, 현금흐름표, งบดุล, งบกำไรขาดทุน",
    "technical documentation": "マニュアル, 取扱説明書, 説明書, 仕様書, 手引き, 日本産業規格, "
    "国家标准, 行业标准, 标准文件, 技术标准, 技术规范, "
    "手册, 手冊, 说明书, 說明書, 매뉴얼, 설명서, 사양서, คู่มือ",
    "book": "教科書, 小説, 教科书, 小说, 교과서, 소설, หนังสือเรียน, นวนิยาย",
    "report": "報告書, レポート, 报告, 报告书, 報告, 보고서, รายงาน",
    "presentation": "スライド, プレゼンテーション, 演示文稿, 幻灯片, 프레젠테이션, งานนำเสนอ, สไลด์",
}
_UNSPACED_CUES = {
    "financial report": "负债合计, 资产总计, 股东权益, 净利润, 营业收入, 流动资产, 流动负债, 未分配利润, "
    "資產總計, 負債合計, 純資産, 売上高, 営業利益, 当期純利益, 자산총계, 부채총계, 당기순이익, 영업이익, "
    "สินทรัพย์รวม, หนี้สินรวม, กำไรสุทธิ",
    "scientific paper": "要旨, 摘要, 参考文献, 참고문헌, 초록, บทคัดย่อ, เอกสารอ้างอิง, บรรณานุกรม",
    "technical documentation": "仕様, コマンド, パラメータ, インストール, 構文, 使用例, "
    "安装, 参数, 命令, 示例, 规范性引用文件, 术语和定义, 术语与定义, "
    "설치, 매개변수, 명령어, การติดตั้ง",
}
KINDS = tuple(
    replace(
        kind,
        aliases=kind.aliases + _phrases(_UNSPACED_NAMES.get(kind.name, "")),
        cues=kind.cues + _phrases(_UNSPACED_CUES.get(kind.name, "")),
    )
    for kind in KINDS
)
ALIASES: dict[Phrase, DocumentKind] = {alias: kind for kind in KINDS for alias in kind.aliases}


# Single words naming a kind long enough to close a compound ("rapport" of the Swedish
# "Tullgranskningsrapport", "bericht" of "Prüfungsbericht", "rechnung" of "Stromrechnung"), longest first.
COMPOUND_ENDING = 6  # letters at least of a kind's word closing a compound
# English words, which English does not close into compounds, and that end other words ("newsletter",
# "hypothesis", "misstatement", "disagreement", "coordinate")
_CLOSES_OTHER_WORDS = frozenset(
    {
        "letter",
        "thesis",
        "statement",
        "estimate",
        "agreement",
        "application",
        "documentation",
        "specification",
        "presentation",
        "invitation",
        "quotation",
        "correspondence",
        "questionnaire",
        "dissertation",
        "proposal",
        "manual",
        "ordine",
        "nomina",
        "accord",
        "contract",
        "receipt",
        "invoice",
        "report",
        "ledger",
        "handbook",
        "textbook",
        "rulebook",
        "preprint",
        "slideshow",
    }
)
COMPOUND_HEAD = 3  # and of the word before it
_COMPOUND_ENDINGS = sorted(
    (
        (alias[0], kind)
        for alias, kind in ALIASES.items()
        if len(alias) == 1
        and len(alias[0]) >= COMPOUND_ENDING
        and alias[0].isascii()
        and alias[0].isalpha()
        and alias[0] not in _CLOSES_OTHER_WORDS
    ),
    key=lambda item: -len(item[0]),
)


def compound_kind(word: str) -> DocumentKind | None:
    """The kind a compound word closes with the name of ("tullgranskningsrapport": a report), None for
    a word that names a kind itself or none."""
    if (word,) in ALIASES:
        return None
    return next(
        (
            kind
            for ending, kind in _COMPOUND_ENDINGS
            if word.endswith(ending) and len(word) - len(ending) >= COMPOUND_HEAD
        ),
        None,
    )


def kinds_named(words: Phrase) -> list[DocumentKind]:
    """The document kinds `words` names, in the order they are named (longest alias wins)."""
    found = sorted(find_phrases(words, ALIASES))
    kinds: list[DocumentKind] = []
    for _, alias in found:
        if ALIASES[alias] not in kinds:
            kinds.append(ALIASES[alias])
    return kinds


def content_words(words: Sequence[str]) -> list[str]:
    """`words` without stop words."""
    return [word for word in words if word not in STOP_WORDS]
