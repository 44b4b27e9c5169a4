"""Label words: the key a label is compared by, and the synonyms of the usual ones.

A label's key is its words lowercased, without accents, in the singular, with abbreviations spelled
out ("No.", "Nr", "Nº" and "#" are "number", "Qty" is "quantity", "PO" is "purchase order"), so that
"Invoice No.", "Invoice #" and `invoice_number` share one key. Labels in German, French, Dutch,
Spanish, Italian, Portuguese and Polish are said in English first ("Rechnungsnummer", "N° de facture"
and "Numer faktury" are "invoice number"; "Total TTC", "Gesamtbetrag" and "Te betalen" are "total"),
phrases before words, and a German compound by its parts ("Lieferdatum": "delivery" + "date").
Groups of synonyms say the same thing other ways ("Total" is also "Amount due"), and name the labels
of parties, titles and summary rows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache

Key = tuple[str, ...]

_WORD = re.compile(r"#|№|[^\W_]+")
# "n°", and the Czech and Slovak "č." (číslo, number): each the same length as its replacement "no", so
# offsets hold.
_NUMERO = re.compile(r"\b(?:[nN]\.?\s?[°º]|[čČ]\.)")  # "Nº", the Portuguese "N.º", the Czech "č."
_CAMEL = re.compile(r"(?<=[a-z\d])(?=[A-Z])")
# An English possessive's "'s" ("Client's Name", "CLIENT'S NAME", or with a typographic apostrophe): no
# word of the label; blanked, so offsets hold.
_POSSESSIVE = re.compile(r"(?<=[^\W\d_])['\u2019][sS]\b")
# A dollar or real sign with its country's letters ("VALOR TOTAL R$", "Amount US$", "Total NT$"): the
# amount's currency, no word of the label; blanked, so offsets hold.
_LETTERED_SIGN = re.compile(r"(?<![^\W\d_])[A-Z]{1,2}\$")
# The lines a sum is made of, in brackets ("Total (A+B+C+D+E)", "Total remise : (D+E)"): single letters or
# figures joined by signs, no word of the label; blanked, so offsets hold.
_FORMULA = re.compile(r"\((?:\s*[A-Za-z0-9]\s*[-+\u2212*/=]){1,12}\s*[A-Za-z0-9]\s*\)")
_ABBREVIATIONS: dict[str, Key] = {
    "#": ("number",),
    "№": ("number",),
    "no": ("number",),
    "nr": ("number",),
    "num": ("number",),
    "nbr": ("number",),
    "qty": ("quantity",),
    "qnty": ("quantity",),
    "amt": ("amount",),
    "tel": ("phone",),
    "telephone": ("phone",),
    "addr": ("address",),
    "ref": ("reference",),
    "po": ("purchase", "order"),
    "inv": ("invoice",),
    "acct": ("account",),
    "desc": ("description",),
    "cust": ("customer",),
    "pcs": ("piece",),
    "dob": ("date", "of", "birth"),
}
_MERGES: dict[tuple[str, str], str] = {("sub", "total"): "subtotal", ("e", "mail"): "email"}
_KEEP_FINAL_S = ("ss", "us", "is", "ous")


# The Turkish dotless i is read as i.
_UNDECOMPOSED = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae", "ı": "i"}  # noqa: RUF001
)


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.translate(_UNDECOMPOSED))
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower()


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(_KEEP_FINAL_S):
        return word[:-1]
    return word


_FOREIGN_TABLE: dict[tuple[str, ...], tuple[str, ...]] = {}  # filled below, from _FOREIGN


def _raw_words(text: str) -> Iterator[tuple[str, int]]:
    """Words of `text` lowercased, camelCase split, each with the offset just past it."""
    text = _FORMULA.sub(_blank, _LETTERED_SIGN.sub(_blank, _POSSESSIVE.sub("  ", _NUMERO.sub(_numero, text))))
    for match in _WORD.finditer(text):
        word, start = match.group(), match.start()
        if (_plain(word),) in _FOREIGN_TABLE:  # a word written in camel case, "MwSt", is still one word
            yield _plain(word), start + len(word)
            continue
        cuts = [cut.start() for cut in _CAMEL.finditer(word)] + [len(word)]
        begin = 0
        for cut in cuts:
            yield _plain(word[begin:cut]), start + cut
            begin = cut


def _numero(match: re.Match[str]) -> str:
    return "no".ljust(len(match.group()))  # as long as what it stands for: offsets hold


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def key_words(text: str) -> list[tuple[str, int]]:
    """The words of `text`'s key, each with the offset in `text` just past the words it came from."""
    raw = _in_english(list(_raw_words(text)))
    words: list[tuple[str, int]] = []
    index = 0
    while index < len(raw):
        word, end = raw[index]
        following = raw[index + 1] if index + 1 < len(raw) else None
        if following and (word, following[0]) in _MERGES:
            words.append((_MERGES[(word, following[0])], following[1]))
            index += 2
            continue
        words.extend((part, end) for part in _ABBREVIATIONS.get(word, (_singular(word),)))
        index += 1
    return words


# Label words and phrases of other languages, said in English (the words as keys make them: without
# accents, lower case). A phrase is looked up before its words.
_FOREIGN = """
total: gesamt, summe, gesamtbetrag, rechnungsbetrag, endbetrag, zahlbetrag, bruttobetrag, gesamtsumme,
 totaalprijs, rechnungssumme, summe brutto, gesamt brutto, brutto, zu zahlen, zu zahlender betrag,
 rechnungsbeitrag, total ttc, montant ttc,
 net a payer, montant total, total a payer, totaal, te betalen, totaalbedrag, totaal incl btw, te voldoen,
 importe total, total a pagar, total factura, totale, totale documento, totale da pagare, importo totale,
 valor total, valor a pagar, valor total da nota, do zaplaty, razem do zaplaty, razem, suma, wartosc brutto,
 kwota do zaplaty, maksettava, yhteensa, loppusumma, laskun summa, verollinen yhteensa, att betala,
 summa att betala, totalt, totalbelopp, verollinen, verollinen e, factuurtotaal, factuurbedrag, fakturabelopp,
 fakturans totala belopp, fakturatotal, celkem, kokonaisuudessaan, kokonaishinta, hinta yhteensa,
 endsumme, montant a payer, totale fattura, montant total brut, gesamtbetrag brutto,
 celkem k uhrade, k uhrade, doklad celkem, celkem s dph, celkova castka, montant facture,
 montant a prelever, montant net a prelever, gesamtpreis inkl mwst, gesamtpreis brutto
net total: total net, veroton, veroton e, veroton yhteensa, veroton hinta, netto yhteensa, summa exkl moms,
 belopp fore moms, summa fore moms, totalt fore moms, belopp exkl moms, totalt exkl moms,
 netto totalt, nettobetrag, netto, summe netto, gesamt netto, nettosumme, zwischensumme, warenwert, total ht,
 montant ht, montant total ht, sous total, total hors taxe, subtotaal, totaal excl btw, totaal ex btw,
 netto bedrag,
 base imponible, importe base, imponibile, totale imponibile, valor liquido, wartosc netto, razem netto,
 montant total net, montant net, gesamtbetrag netto, summe waren, warensumme,
 celkem bez dph, zaklad dane, zaklad
tax: umsatzsteuer, mehrwertsteuer, mwst, ust, ust betrag, steuerbetrag, steuer, tva, total tva, montant tva,
 dont tva, total taxe, zuzuglich mwst, zzgl mwst, zuzuglich ust, zzgl ust, zuzuglich umsatzsteuer,
 zzgl umsatzsteuer,
 versicherungsteuer, versicherungssteuer, btw, btw bedrag, iva, importe iva, imposta, totale iva, kwota vat,
 podatek, podatek vat, podatku, kwota podatku, kwota podatku vat, suma podatku, wartosc podatku,
 impuesto, total impuesto, importe impuesto, imposto, valor do imposto, total imposto, taxe, alv,
 arvonlisavero, alv yhteensa, alv e, moms, momsbelopp, summa moms, taxe sur la valeur ajoutee,
 umsatzsteuerbetrag, mehrwertsteuerbetrag, dph, dph celkem, celkem dph, vyse dph, tps, tvq, tvh, tps tvq,
 tps tvh, qst, hst, gst qst, gst hst
vat id: ust id, ust id nr, ust id no, ust idnr, ust id number, ust identifikationsnummer, umsatzsteuer id,
 umsatzsteuer identifikationsnummer, ust identnummer, ust identnr, ust ident nr, n tva intra, tva intra,
 numero tva, mehrwertsteuernummer, mwst nummer, mwst nr, mwst number,
 numero de tva, number de tva, tva intracommunautaire, number tva intracommunautaire, number tva,
 identifiant tva, btw nummer,
 btw number, btw id, nif, cif, contribuinte, number contribuinte, number de contribuinte, no contribuinte,
 no de contribuinte, numero de contribuinte, numero contribuinte, nipc,
 partita iva, p iva, numero iva, nip, vat number, vat reg number, vat registration number, vat no,
 vat reg no, vat id no, vat id nr, no tva intra, no tva, no de tva, n de tva, no tva intracommunautaire,
 no ust id, btw nr, btw no, no intracom, numero intracom, tva intracom, no tva intracom,
 vat registration no, vat registration nr, vat number no, no d enregistrement tva,
 numero d enregistrement tva, alv numero, alv nro, alv tunnus, momsregistreringsnummer, momsreg nr,
 momsregnr, vat nro, oss vat, eu oss vat, uid, uid nr, uid nummer, dic, cvr, cvr nr, cvr nummer
tax number: steuernummer, steuer number
account number: kontonummer, konto number, numer rachunku, nr rachunku, numer konta, numero de compte,
 rekeningnummer, numero de cuenta, numero di conto, numero conto, numero da conta, tilinumero,
 saajan tilinumero, cislo uctu, cislo bankovniho uctu
bank account: rachunek bankowy, bankverbindung, compte bancaire, bankrekening, cuenta bancaria,
 conto bancario, conta bancaria
invoice: nota fiscal, nf e, nfe, nfc e, nfce, rachunek, rachunek sprzedazy
invoice number: rechnungsnummer, rechnung number, belegnummer, beleg nr, beleg nummer, belegnr,
 rechnungsnr, rechn nr, rg nr, re nr, factuurnr, fact nr, fattura n, n fattura, num factura, num de factura,
 faktura vat nr,
 numero de facture, facture number, factuurnummer, factuur number, numero de factura, factura number,
 numero fattura, fattura number,
 numero da fatura, fatura number, numer faktury, faktura number, no de facture, no facture,
 n de facture, no de factura, no factura, no fattura, no da fatura, nr faktury, no factuur, laskun numero,
 laskun nro, laskunumero, laskun no, fakturanummer, fakturanr, faktura nr, fakt nr, faktnr, cislo faktury,
 cislo dokladu, n documento, no documento, n do documento, no do documento, n de documento, no de documento,
 numero de documento, numero do documento, numero documento
invoice date: rechnungsdatum, belegdatum, beleg datum, ausstellungsdatum, date de facture, date facture,
 date d emission, factuurdatum, fecha de factura, fecha factura, fecha de emision, data fattura,
 fecha de expedicion, fecha expedicion, data emissione, data di emissione,
 data documento,
 data de emissao, data da fatura, data wystawienia, laskun paivamaara, laskupaiva, fakturadatum,
 datum vystaveni, datum vystaveni faktury, datum vystaveni dokladu, fakturadato
due date: falligkeitsdatum, falligkeitstag, falligkeit, fallig, fallig am, zahlbar bis, zahlungsziel,
 date d echeance, echeance, date limite de paiement, date limite de reglement, vervaldatum, vervaldag,
 data limite pagamento, data limite de pagamento, data lim pagamento, data limite,
 fecha de vencimiento, vencimiento, scadenza, data scadenza, data di scadenza, data de vencimento, vencimento,
 termin platnosci, termin zaplaty, erapaiva, forfallodatum, forfallodag, sista betalningsdag,
 datum splatnosti, datum splatnosti faktury, splatnost, forfaldsdato, forfaldsdag, forfallsdato, forfald
due by: zahlbar bis, zahlbar bis zum, bis zum, netto bis, bis spatestens, a payer avant le, payable avant le,
 a regler avant le, regler d ici le, payer d ici le, payable le, te betalen voor, betalen voor,
 pagar antes del, pagar antes de, vence el, betrag bis, rechnungsbetrag bis, gesamtbetrag bis, zahlung bis,
 da pagare entro il, pagare entro il, entro il, pagar ate, zaplacic do, platne do, zahlbar zum, zahlbar am
delivery date: lieferdatum, leistungsdatum, liefer und leistungsdatum, date de livraison, leverdatum,
 leveringsdatum, fecha de entrega, data di consegna, data de entrega, data dostawy, data sprzedazy
order number: bestellnummer, auftragsnummer, bon de commande, number bon de commande, numero de commande,
 bestelnummer, numero de pedido, numero ordine, numer zamowienia
customer number: kundennummer, numero client, number de client, klantnummer, numero de cliente, kundnr,
 kundnummer, kund nr, zakaznicke cislo, cislo zakaznika,
 codice cliente, numer klienta
vendor: verkaufer, lieferant, rechnungssteller, rechnungsaussteller, aussteller, absender, fournisseur,
 vendeur, emetteur, leverancier,
 verkoper, crediteur, proveedor, vendedor, emisor, fornitore, cedente prestatore, fornecedor, sprzedawca,
 dostawca, dati fornitore, dati del fornitore, dati cedente prestatore, dati del cedente prestatore,
 myyja, laskuttaja, saaja, saljare, leverantor, business details, company details, seller details,
 supplier details, vendor details, payable to, make payable to, make checks payable to, dodavatel,
 vermieter, bailleur, arrendador, locatore, verhuurder, datos del emisor, datos emisor, datos del vendedor,
 datos del proveedor, dados do emitente, dados do fornecedor, bedrijfsgegevens, leveranciersgegevens,
 issuer details, sender details, zahlbar an, konto zahlbar an, payable a, compte payable a, pagabile a,
 conto pagabile a, account payable to
customer: kaufer, kunde, rechnungsempfanger, leistungsempfanger, kaufer leistungsempfanger, rechnungsadresse,
 acheteur, destinataire, facture a, facturer a, facture pour, adresse de facturation, klant, afnemer,
 debiteur, factuuradres, cliente, comprador, doit a, cobranca para, faturar para, faturado para,
 faturar a, faturado a, facturar a, cessionario committente, destinatario, nabywca, odbiorca,
 dati cliente, dati del cliente, titular do contrato, titular del contrato,
 dati cessionario committente, dati del cessionario committente, asiakas, ostaja, laskutettava, kund,
 kopare, customer details, client details, billing details, customer information, odberatel, kober, kjoper,
 fakturaadress, faktureringsadress, faktureres til, mieter, locataire, arrendatario, inquilino, conduttore,
 huurder,
 datos del cliente, datos de cliente, datos cliente, dados do cliente, receptor, datos del receptor,
 datos receptor, datos del comprador, dados do destinatario, klantgegevens, gegevens klant, recipient,
 recipient details, empfanger, zahlbar durch, payable par, pagabile da, rechnung an
customer name: naam klant, naam van de klant, klantnaam, nom du client, nom client, nombre del cliente,
 nombre cliente, nome cliente, nome del cliente, nome do cliente, nazwa klienta, nazwa nabywcy, kundenname,
 name des kunden
ship to: lieferadresse, lieferanschrift, adresse de livraison, leveradres, direccion de envio,
 indirizzo di consegna, endereco de entrega, adres dostawy, versand an, lieferung an
currency: wahrung, devise, valuta, moneda, moeda, waluta, valuutta
quantity: menge, anzahl, quantite, qte, aantal, cantidad, quantita, quantidade, ilosc, maara, kpl, antal
unit price: einzelpreis, stuckpreis, prix unitaire, prix unitaire ht, eenheidsprijs, precio unitario,
 prezzo unitario, preco unitario, cena jednostkowa, cena netto, yksikkohinta, a hinta, a pris, styckpris
price: preis, prix, prijs, precio, prezzo, preco, cena, hinta, pris
description: beschreibung, bezeichnung, artikel, produkt, leistung, designation, libelle, omschrijving,
 descripcion, concepto, descrizione, descricao, opis, nazwa towaru, kuvaus, tuote, tuote palvelu, selite,
 beskrivning
amount paid: importo pagato, importe pagado, valor pago, montant paye, gezahlter betrag, bezahlter betrag
amount: betrag, beitrag, montant, bedrag, importe, importo, valor, kwota, wartosc, summa, belopp
address: anschrift, adresse, adres, direccion, indirizzo, endereco, osoite, domicilio
name: nom, naam, nombre, nome, nazwa, nimi, namn, razon social, raison sociale, ragione sociale, razao social,
 denominacion social, denominazione sociale
date: datum, fecha, data, paivamaara, pvm, dato
number: nummer, numero, numer
invoice: rechnung, facture, factuur, factura, fattura, fatura, faktura, lasku, facture doit
commercial invoice: handelsrechnung
credit note: gutschrift, rechnungskorrektur, avoir, facture d avoir, creditnota, nota de credito,
 nota di credito, faktura korygujaca, hyvityslasku, kreditfaktura
associated: associee, associe, ursprunglich, ursprungliche, ursprunglichen, bezogen, bezogene, zugehorige,
 oorspronkelijke, asociada, asociado, relacionada, originale, collegata, associata, powiazana, pierwotna
discount: rabatt, nachlass, remise, korting, descuento, sconto, desconto, alennus
excluding: ohne, exkl, exklusive, hors, zonder, excl, sin, senza, sem, bez
including: inkl, inklusive, incl, einschl, einschliesslich, inclus, inclusief, con, com
reference: referenz, reference, referentie, referencia, riferimento, viitenumero, viite
payment term: zahlungsbedingung, conditions de paiement, betalingsvoorwaarden, condiciones de pago,
 condizioni di pagamento, termos de pagamento, warunki platnosci, maksuehdot, betalningsvillkor
email: e mail, courriel, correo, posta elettronica
phone: telefon, telephone, telefoon, telefono, telefone, puhelin, puh
total: total operacion, toplam, genel toplam, odenecek tutar, vergiler dahil toplam tutar, toplam tutar,
 vegosszeg, fizetendo, fizetendo osszeg, osszesen, brutto osszesen, szamla vegosszege, ukupno,
 ukupno za placanje, za uplatu, za placanje, iznos za placanje, sveukupno, ukupan iznos, укупно,
 укупно за плаћање, за уплату, за плаћање, износ за плаћање, итого, итого к оплате, всего к оплате,
 к оплате, всего, разом, всього, усього, до сплати, всього до сплати, разом до сплати, συνολο,
 γενικο συνολο, πληρωτεο ποσο, συνολικο ποσο, πληρωτεο, total de plata, total plata, total general,
 de plata, celkom, spolu, celkom k uhrade, suma na uhradu, spolu k uhrade, ukupno s pdv, ukupno sa pdv,
 合計, 合計金額, 請求金額, ご請求金額, 御請求金額, 請求額, ご請求額, 御請求額, 総合計, 税込合計, 税込金額,
 総額, 价税合计, 總計, 总计, 应付金额, 應付金額, 價稅合計, 합계, 합계금액, 총액, 총 금액, 총금액, 청구금액
net total: ara toplam, mal hizmet toplam tutari, netto osszesen, netto ertek, netto osszeg, osszesen netto,
 osnovica, ukupno bez pdv, iznos bez pdv, vrednost bez pdv, vrijednost bez pdv, основица, укупно без пдв,
 износ без пдв, итого без ндс, сумма без ндс, без ндс, всього без пдв, сума без пдв, без пдв, καθαρη αξια,
 συνολο προ φπα, καθαρο ποσο, total fara tva, valoare fara tva, baza de impozitare, celkom bez dph,
 spolu bez dph, base gravada, 소계, 小計, 税抜金額, 税抜合計, 不含税金额, 金额合计, 小计, 공급가액
tax: kdv, hesaplanan kdv, toplam kdv, kdv tutari, afa, afa osszeg, afa ertek, afa osszesen, pdv, iznos pdv,
 ukupno pdv, ukupan pdv, пдв, износ пдв, ндс, сумма ндс, в том числе ндс, итого ндс, сума пдв,
 у тому числі пдв, φπα, ποσο φπα, συνολο φπα, total tva, valoare tva, dph spolu, 消費税, 消費税額, 消費税等,
 税額, 税额, 稅額, 세액, 부가세, 부가가치세
vat id: vergi no, vergi numarasi, vergi kimlik no, vergi kimlik numarasi, vkn, adoszam, kozossegi adoszam,
 pib, oib, pdv broj, ruc, rif, r i f, пиб, инн, іпн, ипн, αφμ, cif, cui, cod fiscal,
 cod de inregistrare fiscala, ic dph, 登録番号, 適格請求書発行事業者登録番号, 纳税人识别号, 納稅人識別號,
 统一社会信用代码, 사업자등록번호, 사업자 등록번호
invoice: szamla, racun, рачун, счет, счет фактура, рахунок, рахунок фактура, τιμολογιο, factura fiscala,
 faktura, 請求書, 御請求書, 发票, 發票, 增值税电子普通发票, 增值税普通发票, 增值税专用发票, 세금계산서,
 청구서, 인보이스
invoice number: szamlaszam, szamla sorszama, szamla szama, racun broj, broj fakture, рачун број,
 број фактуре, номер счета, номер счета фактуры, номер рахунку, αριθμος τιμολογιου, αρ τιμολογιου,
 numar factura, numarul facturii, nr factura, nr factura fiscala, faktura cislo, cislo faktury, 請求番号,
 請求書番号, 発票号码, 发票号码, 發票號碼, 송장번호, 청구서 번호, 인보이스 번호
invoice date: fatura tarihi, duzenlenme tarihi, duzenleme tarihi, szamla kelte, kiallitas datuma,
 kiallitas kelte, kelte, datum izdavanja, datum racuna, datum izdavanja racuna, датум издавања,
 датум рачуна, дата счета, дата выставления, дата рахунку, дата складання, ημερομηνια εκδοσης,
 ημερομηνια τιμολογιου, data emiterii, data facturii, datum vyhotovenia, datum vystavenia, 請求日, 発行日,
 請求書発行日, 開票日期, 开票日期, 작성일자, 발행일, 청구일
due date: son odeme tarihi, vade tarihi, fizetesi hatarido, esedekesseg, hatarido, rok placanja,
 datum dospeca, datum dospijeca, datum dospelosti, рок плаћања, датум доспећа, срок оплаты, оплатить до,
 термін оплати, сплатити до, ημερομηνια ληξης, προθεσμια πληρωμης, ληξη, data scadentei, scadenta,
 termen de plata, valuta placanja, 支払期限, お支払期限, 支払期日, お支払い期限, 支払い期限, 振込期限,
 お支払期日, 支払期限日, お支払期限日, 付款期限, 납부기한, 지불기한, 결제기한
delivery date: teslim tarihi, teljesites datuma, teljesites kelte, teljesites, datum prometa,
 datum isporuke, датум промета, дата поставки, data livrarii, datum zdanitelneho plneni, duzp,
 datum dodania, datum uskutecnenia plnenia
vendor: satici, duzenleyen, elado, szallito, kibocsato, prodavac, dobavljac, izdavalac, izdavatelj,
 продавац, добављач, поставщик, продавец, исполнитель, постачальник, продавець, виконавець, εκδοτης,
 πωλητης, προμηθευτης, furnizor, vanzator, prestator, 売主, 請求元, 发行方, 销售方, 销货方, 銷售方, 賣方,
 卖方, 공급자
customer: alici, sayin, vevo, vasarlo, kupac, narucilac, naručitelj, купац, наручилац, покупатель, заказчик,
 плательщик, покупець, замовник, платник, πελατης, αγοραστης, cumparator, beneficiar, 請求先,
 購入者, 购买方, 购货方, 購買方, 買方, 买方, 공급받는자
currency: para birimi, doviz, penznem, deviza, valuta, валута, валюта, νομισμα, moneda, mena, 通貨, 货币,
 貨幣, 币种, 幣別, 통화
amount: tutar, tutari, osszeg, iznos, износ, сумма, сума, ποσο, valoare, 金額, 金额, 금액
unit price: birim fiyat, egysegar, jedinicna cena, jedinicna cijena, цена, цена за единицу, ціна,
 τιμη μοναδας, pret unitar, jednotkova cena, 単価, 单价, 單價, 단가
quantity: miktar, mennyiseg, kolicina, количина, количество, кількість, ποσοτητα, cantitate, mnozstvo,
 pocet, 数量, 數量, 수량
description: aciklama, mal hizmet, megnevezes, termek, naziv, opis, назив, наименование, найменування,
 товар, περιγραφη, denumire, descriere, nazov, 品名, 品目, 摘要, 内容, 货物或应税劳务 服务名称, 项目名称,
 品目, 품목, 품명
date: tarih, datum, kelt, датум, дата, ημερομηνια, 日付, 日期, 날짜, 일자
number: sayi, sorszam, szam, broj, br, број, бр, номер, αριθμος, αρ, numar, nr, cislo, 番号, 号码, 號碼,
 번호
name: unvan, nev, ime, название, имя, ονομα, επωνυμια, nume, nazov, 名称, 名稱, 氏名, 이름, 상호
address: adres, cim, adresa, адреса, адрес, διευθυνση, 住所, 地址, 주소
bank account: banka hesabi, bankszamlaszam, bankszamla, tekuci racun, ziro racun, текући рачун,
 расчетный счет, банковский счет, розрахунковий рахунок, τραπεζικος λογαριασμος, cont bancar, bankovy ucet,
 振込先, 口座番号, 开户行及账号, 계좌번호
invoice: счет на оплату, счет договор, ҳисобварақ фактура, хисобварак фактура, hisobvaraq faktura, faktur,
 faktur penjualan, hoa don, hoa don ban hang, hoa don gtgt, فاتورة, فاتورة شراء, فاتورة بيع, فاتورة ضريبية
invoice number: no faktur, nomor faktur, nomor invoice, so hoa don, ma hoa don, رقم الفاتورة
invoice date: tanggal faktur, tgl faktur, tanggal invoice, ngay hoa don, ngay lap, ngay ban, تاريخ الفاتورة,
 تاريخ الاصدار
due date: jatuh tempo, tanggal jatuh tempo, tgl jatuh tempo, han thanh toan, تاريخ الاستحقاق
date: tanggal, tgl, ngay, sana, تاريخ, تاريخ الانشاء
total: жами, жами тулов учун, jami, jumlah total, total bayar, total tagihan, tong, tong cong,
 tong tien, tong phai tra, tong thanh toan, tong so tien, tong tien thanh toan, المبلغ الاجمالي,
 الاجمالي, المجموع, المبلغ بعد الخصم, المبلغ المستحق
net total: dpp, dasar pengenaan pajak, tong tien hang, cong tien hang, المجموع الفرعي
tax: ққс, ққс суммаси, ppn, pajak, thue, thue gtgt, tien thue, tien thue gtgt, ضريبة, ضريبة القيمة المضافة
discount: diskon, potongan, giam gia, chiet khau, الخصم, قيمة الخصم
vat id: стир, стир рақами, npwp, ma so thue, mst, الرقم الضريبي
vendor: етказиб берувчи, етказиб берувчининг, penjual, pemasok, nguoi ban, ben ban, don vi ban hang, البائع,
 المورد
customer: сотиб олувчи, сотиб олувчининг, kepada yth, kepada, pembeli, pelanggan, nguoi mua, ben mua,
 khach hang, don vi mua hang, العميل, المشتري
customer name: ten khach hang, nama pelanggan, اسم العميل
currency: mata uang, tien te, العملة
quantity: миқдор, jumlah barang, so luong, الكمية
unit price: нарх, harga satuan, don gia, السعر
price: harga, سعر
description: маҳсулот номи, nama barang, ten san pham, ten hang, المنتج, الوصف
address: манзил, alamat, dia chi, العنوان
number: рақам, рақами, nomor, رقم
invoice number: stevilka dokumenta, stevilka racuna, st racuna, racun st, folio
invoice date: datum fakture, datum racuna, datum izdaje, data emitere
due date: rok placila, datum zapadlosti, zapadlost, data scadenta
delivery date: datum dobave, datum opravljene storitve
total: skupaj, za placilo, skupaj za placilo, znesek za placilo, skupaj z ddv, skupni znesek,
 total plata
net total: neto vrednost, osnova za ddv, skupaj brez ddv, znesek brez ddv
tax total: ddv skupaj, skupaj ddv
tax amount: znesek ddv
tax: ddv, total impuestos trasladados, total imp trasladados,
 impuestos trasladados, iva trasladado
vat id: id za ddv, identifikacijska stevilka za ddv, davcna stevilka, identificatorul tva, identificator tva,
 rfc, abn, australian business number
vendor: dobavitelj, prodajalec, izdajatelj
customer: placnik, kupec, prejemnik, receptor
currency: moneda facturii, moneda
account number: cont, transakcijski racun
payment term: placilni pogoji
reference: folio fiscal
excluding: fara
number: stevilka
invoice number: број на фактура, број на фактурата, фактура број
invoice date: датум на издавање, датум на фактура, датум на фактурата
due date: рок на плаќање, датум на доспевање, рок за плаќање
delivery date: ден на извршен промет, датум на промет
total: вкупно, вкупно за плаќање, вкупен износ, износ за плаќање, вкупно со ддв
net total: вкупно без ддв, износ без ддв, основица
tax total: вкупно ддв, ддв износ, износ на ддв
tax: ддв
vendor: издавач на фактура, издавач, продавач, добавувач
customer: примател на фактура, примач на фактура, примател, купувач
vat id: едб, даночен број
invoice number: numero de comprobante, no de comprobante, numero de comprobante fiscal, ncf
vat id: rnc, rnc cedula
tax: itbis
due date: vence, dospijece racuna, dospijece
customer: consumidor
customer name: naziv kupca
invoice: boleta, boleta de venta, boleta de venta electronica, 請款單, 请款单
invoice number: boleta n, numero de boleta, 請款單編號, 请款单编号, 請款單號
invoice date: 開立日期, 开立日期
vendor: 開立公司, 开立公司
customer: 客戶, 客户
vat id: 統一編號, 统一编号
total: 總金額, 总金额
tax: 營業稅, 营业税, igv
invoice: faktura vat, faktura vat marza, danovy doklad, zjednoduseny danovy doklad
vat id: nit, rut, r u t
vat id: org nr, orgnr, organisationsnummer, organisationsnr
invoice date: data da emissao, data emissao, emissao, emision
due date: venc, vencto, deadline, payment deadline
delivery date: data da saida, data de saida, data da saida entrada, data de saida entrada,
 data da entrada saida
vendor: identificacao do emitente, emitente
net total: op gravadas, op gravada, operaciones gravadas, operacion gravada, total op gravadas
tax: i g v
customer: senor es, senores, sres, facture pour
"""  # noqa: RUF001 (Cyrillic, Greek and Arabic labels)
# German compounds end in one of these, after a part that is a word above (and a joining s):
_HEADS = {"nummer": "number", "datum": "date", "betrag": "amount", "preis": "price", "adresse": "address",
          "summe": "total", "anschrift": "address"}  # fmt: skip


def _foreign_table() -> dict[tuple[str, ...], tuple[str, ...]]:
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for entry in _FOREIGN.strip().split("\n"):
        if ":" in entry:
            english, _, listing = entry.partition(":")
            said = tuple(english.split())
        else:
            listing = entry
        for phrase in listing.split(","):
            words = tuple(word for word, _ in _raw_words(phrase))
            if words:
                table[words] = said
    return table


_FOREIGN_TABLE = _foreign_table()
_LONGEST_FOREIGN = max(len(words) for words in _FOREIGN_TABLE)


def _in_english(raw: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Raw label words with the phrases and words of other languages said in English (each English word
    with the offset just past the words it says)."""
    said: list[tuple[str, int]] = []
    index = 0
    while index < len(raw):
        for size in range(min(_LONGEST_FOREIGN, len(raw) - index), 0, -1):
            words = tuple(word for word, _ in raw[index : index + size])
            english = (
                _FOREIGN_TABLE.get(words)
                or _FOREIGN_TABLE.get(tuple(_singular(word) for word in words))  # "Total taxes"
                or (_single(words[0]) if size == 1 else None)
            )
            if english:
                end = raw[index + size - 1][1]
                said.extend((word, end) for word in english if not said or said[-1][0] != word)
                index += size
                break
        else:
            said.append(raw[index])
            index += 1
    return said


def _single(word: str) -> tuple[str, ...] | None:
    """A German word with its joining s ("Rechnungs-Nr."), a kind of invoice, or a compound said by its parts:
    "Lieferdatum" is "delivery date", "Kundennummer" is "customer number"."""
    if word.endswith("s") and (word[:-1],) in _FOREIGN_TABLE:
        return _FOREIGN_TABLE[(word[:-1],)]
    for invoice in ("rechnung", "faktura", "factuur"):
        if word.endswith(invoice) and len(word) > len(invoice) + 2:
            # a kind of invoice: "Mietrechnung", "Schlussrechnung", the Swedish "Kontantfaktura" (paid
            # in cash or by card), the Dutch "Eindfactuur"
            return ("invoice",)
    for head, english in _HEADS.items():
        if word.endswith(head) and len(word) > len(head) + 2:
            part = word[: -len(head)]
            first = _FOREIGN_TABLE.get((part,)) or _FOREIGN_TABLE.get((part.removesuffix("s"),))
            if first:
                return (*first, english)
    return None


@lru_cache(maxsize=8192)
def label_key(text: str) -> Key:
    """The key of a label; "Date of birth" is said "birth date", "Name of applicant" "applicant name".
    A title printed letter-spaced ("I N V O I C E", "御　請　求　書") is read as its word."""
    letters = text[:200].split()
    if len(letters) >= 3 and all(len(letter) == 1 for letter in letters):
        text = "".join(letters)
    key = tuple(word for word, _ in key_words(text[:200]))
    if key.count("of") == 1 and 0 < key.index("of") < len(key) - 1:
        at = key.index("of")
        return key[at + 1 :] + key[:at]
    return _said_in_brackets(text[:200], _one_of_two_languages(text[:200], key))


_BILINGUAL = re.compile(r"(?<=[^\W\d_.])\.?\s?/\s?(?=[^\W\d_])")
_KNOWN_KEYS: frozenset[Key] = frozenset()  # filled below, from the synonym groups


def _one_of_two_languages(text: str, key: Key) -> Key:
    """A label printed in two languages apart by a slash ("Nettó/Net", "Szállító/Sold by", "Sorszám/
    Invoice No."): the key of the longer half that is a known label, when the whole is none and the
    halves say the same thing (a word in common, or one group of synonyms); "Destinatário/Remetente"
    (recipient or sender) names two things and keeps its key."""
    parts = _BILINGUAL.split(text, maxsplit=1)
    if key in _KNOWN_KEYS or len(parts) != 2:
        return key
    first, second = label_key(parts[0]), label_key(parts[1])
    alike = set(first) & set(second) or any(first in group and second in group for group in SYNONYM_GROUPS)
    known = [half for half in (first, second) if half in _KNOWN_KEYS]
    return max(known, key=len) if known and alike else key


_BRACKETED = re.compile(r"\(([^()]{1,60})\)")


def _said_in_brackets(text: str, key: Key) -> Key:
    """A label that no synonym group knows, even with its brackets aside, that says in brackets which
    known label it is ("Référence de la commande (n° facture)", an order reference that is the invoice's
    number): the bracket's key. A known label keeps its own ("Customer (VAT number)" names the customer,
    "Grand Total (USD)" the total), and a bracket of one word names none ("Shipping (date)")."""
    if key in _KNOWN_KEYS or not _KNOWN_KEYS:
        return key
    said = [label_key(inner) for inner in _BRACKETED.findall(text)]
    # a field named in more than one word: "Shipping (date)" or "Contact (phone)" say what kind of value
    # follows, not which of the document's it is
    known = [inner for inner in said if inner in _KNOWN_KEYS and len(inner) > 1]
    if len(known) != 1 or label_key(_BRACKETED.sub(" ", text)) in _KNOWN_KEYS:
        return key
    return known[0]


def snake_case(label: str) -> str:
    """A property name for a label: "Invoice #" gives `invoice_number`, "Unit price" `unit_price`."""
    words = [_plain(word) for word, _ in _raw_words(label)]
    words = ["number" if word in {"#", "№", "no", "nr"} else word for word in words]
    name = "_".join(word for word in words if word.isalnum())[:64].strip("_")
    return name if not name or name[0].isalpha() else f"field_{name}"


# A rate, with the amount it is taken of ("19.00% of €121.50", "19 % auf 121,50 €") or the sum it names
# in its brackets ("Tax (16.00% on subtotal)"); Turkish prints the sign first ("KDV (%20)").
_RATE = re.compile(
    r"\(?(?:\d+(?:[.,]\d+)?\s*%|%\s?\d+(?:[.,]\d+)?(?![\d.,]))"
    r"(?:\s+(?:of|on|auf|von|sur|de|su|sobre|van|over)\s+"
    r"(?:[€$£]?\s?\d[\d.,\u00a0 ]*(?:\s?[€$£])?|[^\W\d_]+(?:\s[^\W\d_]+)?(?=\s*\))))?\)?"
)


# The amount a tax is taken of, printed after the tax's name at the label's end ("zzgl. 19,00 % USt. auf
# 10,00 €"): the rate stands apart from it.
_BASE_AT_END = re.compile(
    r"\s(?:of|on|auf|von|sur|de|su|sobre|van|over)\s+[€$£]?\s?\d[\d.,\u00a0 ]*(?:\s?[€$£])?\s*$"
)


def without_rate(label: str) -> str:
    """A label without the rate printed in it: "VAT 20%" is labelled "VAT", "zzgl. 19 % USt. auf 10,00 €"
    "zzgl. USt."."""
    if _RATE.search(label):
        label = _BASE_AT_END.sub(" ", label)
    return " ".join(_RATE.sub(" ", label).split()) or label


# A gloss in brackets after a label: its translation ("Celkem (total)"), a word or a few, no figure.
_GLOSS = re.compile(r"\((?=[^()]*[^\W\d_]{2})(?:\s*[^()\d\s]+){1,4}\s*\)")


def is_label_text(text: str) -> bool:
    """Whether a line reads like a label: a few words, no digits, no sentence. A gloss in brackets
    ("Datum vystavení faktury (invoice date):", a bilingual form's label) is not counted in its length."""
    stripped = text.strip().rstrip(":").strip()
    unglossed = " ".join(_GLOSS.sub(" ", stripped).split())
    if unglossed and unglossed != stripped and _GLOSS.search(stripped):
        return is_label_text(unglossed) and not any(char.isdigit() for char in stripped)
    return (
        0 < len(stripped) <= 40
        and len(stripped.split()) <= 5
        and stripped[0].isalpha()
        and not any(char.isdigit() for char in stripped)
        and ":" not in stripped
    )


_SYNONYM_PHRASES: tuple[tuple[str, ...], ...] = (
    # The first phrase of a group names it: a property named so takes that group only.
    ("total", "total due", "amount due", "grand total", "balance due", "total amount", "total amount due",
     "amount payable", "total payable", "invoice total", "total to pay", "amount to pay", "balance",
     "total paid", "amount paid", "order total", "due payable", "total including tax", "total including vat",
     "total amount including tax", "total amount including vat", "amount including tax",
     "amount including vat", "total with tax", "total with vat", "total paid with tax",
     "total paid with vat", "amount with tax", "amount with vat"),
    ("subtotal", "net total", "net amount", "total before tax", "total excl tax", "total excluding tax",
     "total excluding vat", "total amount excluding tax", "total amount excluding vat",
     "amount excluding tax", "amount excluding vat", "excluding tax", "excluding vat", "taxable amount",
     "tax base", "base amount", "taxable total", "taxable value", "total taxable value",
     "subtotal without tax", "subtotal excluding tax", "subtotal excl tax", "subtotal before tax",
     "subtotal without vat", "subtotal excluding vat", "total without tax", "total without vat",
     "amount without tax", "amount without vat", "net total excluding tax", "net total excluding vat",
     "net amount excluding tax", "net amount excluding vat", "amount before tax", "amount before vat",
     "total before vat", "subtotal before vat"),
    ("tax", "vat", "gst", "sales tax", "tax amount", "vat amount", "tax total", "total tax", "tax paid",
     "vat paid"),
    ("date", "invoice date", "issue date", "date issued", "issued", "issued on", "issued at", "date of issue",
     "dated", "document date", "receipt date"),
    ("due date", "payment due", "due", "pay by", "payment due date", "due by", "payable by", "remit by",
     "remit until", "pay until", "payable until", "pay before", "payable before", "payment until"),
    ("delivery date", "required by", "deliver by", "delivery by", "needed by", "expected delivery",
     "requested delivery", "date required"),
    ("order date", "date ordered", "ordered on", "purchase order date", "date of order"),
    ("vendor", "supplier", "seller", "merchant", "sold by", "issued by", "issuer", "store", "shop", "biller",
     "payee", "vendor name", "supplier name", "invoice from", "invoiced by", "bill from", "billed from",
     "billed by", "pay to", "remit to", "remit payment to", "please remit to", "landlord", "lessor"),
    ("customer", "bill to", "billed to", "buyer", "sold to", "client", "purchaser", "invoice to",
     "invoiced to", "payer", "customer name", "client name", "invoice for", "bill to customer",
     "billed to customer", "sold to customer", "bill to client", "tenant", "lessee", "billing address"),
    ("ship to", "deliver to", "delivery address", "shipping address", "consignee", "shipped to"),
    ("quantity", "unit", "count", "piece", "hour"),
    ("unit price", "price", "unit cost", "rate", "price per unit", "each", "unit amount", "cost"),
    ("description", "item", "product", "article", "service", "detail", "particular", "item description",
     "product name", "designation", "line item"),
    ("amount", "line total", "total", "extended price", "ext price", "line amount", "sum", "value"),
    ("name", "full name"),
    ("email", "email address", "mail"),
    ("phone", "phone number", "mobile", "mobile number", "cell", "contact number"),
    ("address", "street address", "location"),
    ("invoice number", "invoice id", "bill number", "invoice serial number", "invoice serial"),
    ("vat id", "vat number", "vat identification number", "vat registration number", "tax id", "vat", "tax",
     "tax identification number", "tax registration number", "gstin", "gst number",
     "gst registration number", "tax identifier", "vat identifier"),
    ("iban", "bank account", "account number", "bank account number", "iban number"),
    ("receipt number", "receipt id", "transaction number", "transaction id"),
    ("order number", "order id", "purchase order number"),
    ("reference", "reference number", "our reference", "your reference"),
    ("payment method", "paid by", "payment type", "tender", "payment"),
    ("currency", "currency code"),
    ("discount", "rebate"),
    ("note", "remark", "comment", "memo"),
    ("term", "payment term"),
)  # fmt: skip
SYNONYM_GROUPS: tuple[tuple[Key, ...], ...] = tuple(
    tuple(label_key(phrase) for phrase in group) for group in _SYNONYM_PHRASES
)
_KNOWN_KEYS = frozenset(key for group in SYNONYM_GROUPS for key in group)


def glossed_label(text: str) -> str | None:
    """What a label glossed in brackets says in words the synonym groups know, the label before its
    gloss first: "Odběratel" of "Odběratel (Client)", "DIČ" of "DIČ (VAT number)", "total" of "Celkem
    (total)" (a bilingual form prints each label so); None when the whole label is known as it is, the
    gloss is a currency's code, or neither part is known."""
    found = _GLOSS.search(text)
    if found is None or label_key(text) in _KNOWN_KEYS:
        return None
    unglossed = " ".join(_GLOSS.sub(" ", text).split())
    gloss = found[0].strip("() ")
    if re.fullmatch(r"[A-Z]{3}", gloss):
        return None  # "Grand Total (USD)": the amount's currency, no translation
    return next((part for part in (unglossed, gloss) if part and label_key(part) in _KNOWN_KEYS), None)


def is_known_label(text: str) -> bool:
    """Whether `text` says a label the synonym groups know ("Invoice date", "Nr. factura"), a bracketed
    rate or currency after it aside ("Grand Total (USD)", "VAT (10%)")."""
    return label_key(re.sub(r"\([^)]*\)", " ", text)) in _KNOWN_KEYS


def is_party_label(text: str) -> bool:
    """Whether `text` names a party ("Customer", "Bill to", "Kunde", "Vendor", "Ship to"): a label a
    name is printed under, not a figure."""
    return label_key(text) in _PARTY_KEYS


def _group(head: str) -> tuple[Key, ...]:
    return next(group for group in SYNONYM_GROUPS if group[0] == label_key(head))


_PARTY_KEYS = frozenset(_group("vendor") + _group("customer") + _group("ship to"))
_AMOUNT_GROUPS = {"total": frozenset(_group("total")), "net": frozenset(_group("subtotal")),
                  "tax": frozenset(_group("tax"))}  # fmt: skip


def amount_role(aliases: dict[Key, float]) -> str | None:
    """Whether a field is a document's total, its net amount or its tax: the group of its best label."""
    best = max(aliases.items(), key=lambda item: item[1], default=None)
    if best is None:
        return None
    return next((role for role, keys in _AMOUNT_GROUPS.items() if best[0] in keys), None)


VENDOR_KEYS = frozenset(_group("vendor"))
CUSTOMER_KEYS = frozenset(_group("customer"))
SHIP_TO_KEYS = frozenset(_group("ship to"))
ORDER_TITLES = frozenset(label_key(title) for title in ("purchase order", "order", "order form"))
TOTAL_KEYS = frozenset(_group("total"))
_STRONG_SUMMARY_KEYS = TOTAL_KEYS | frozenset(_group("subtotal"))
SUMMARY_KEYS = _STRONG_SUMMARY_KEYS | frozenset(_group("tax") + _group("discount"))
# Words that turn a label into another thing: "Sub total" or "Total before tax" is not "Total", and
# "Tax ID" or "VAT number" is not the tax.
QUALIFIERS = frozenset(
    {"subtotal", "sub", "tax", "vat", "gst", "net", "before", "after", "excl", "excluding", "discount",
     "shipping", "delivery", "due", "previous", "deposit", "ship", "birth", "expiry", "associated",
     "original", "related", "referenced", "preceding", "corrected",
     "expiration", "start", "end", "from", "to", "per", "unit", "line",
     # and an identifier's: "Tax ID", "VAT number", "NIP" (said "vat id") are no tax amount
     "id", "number", "identification", "identifier", "registration"}
)  # fmt: skip
# Words that make a number a way to reach someone: "Phone No", "Contact No.", "Mobile number" label a
# phone, never a document's or an account's number.
CONTACT_WORDS = frozenset({"phone", "mobile", "contact", "cell", "fax", "whatsapp", "handy"})
DOCUMENT_TITLES = frozenset(
    label_key(title)
    for title in (
        "invoice", "tax invoice", "commercial invoice", "receipt", "sales receipt", "purchase order",
        "quote", "quotation",
        "estimate", "statement", "bill", "credit note", "order confirmation", "delivery note",
        "packing slip", "proforma invoice", "pro forma invoice", "order", "corrected invoice",
        "corrective invoice",
        # a till's receipt and the copy it prints again
        "kassenbon", "kassenbeleg", "quittung", "beleg", "ticket", "copy", "duplicate",
        # the copy a page is ("Original", the Portuguese "Duplicado", the Brazilian "Segunda via")
        "original", "duplicado", "triplicado", "segunda via", "oryginal", "kopia", "oryginal kopia",
    )
)  # fmt: skip


@lru_cache(maxsize=4096)
def synonyms(key: Key) -> tuple[Key, ...]:
    """Other keys for the same thing: the group `key` names, else every group it belongs to."""
    named = [group for group in SYNONYM_GROUPS if group[0] == key]
    groups = named or [group for group in SYNONYM_GROUPS if key in group]
    found: dict[Key, None] = {}
    for group in groups:
        found.update((other, None) for other in group if other != key)
    return tuple(found)


def variants(key: Key) -> Iterator[Key]:
    """`key` with one of its parts said another way: ("vendor", "name") gives ("supplier", "name")."""
    for size in (1, 2):
        for start in range(len(key) - size + 1):
            part = key[start : start + size]
            if part == key:
                continue
            for other in synonyms(part):
                yield key[:start] + other + key[start + size :]


def is_blank_cell(cell: str) -> bool:
    """A table cell holding nothing, or only the dash a table prints for nothing ("| VAT | 5% | - |
    260 |")."""
    return cell.strip(" -\u2013\u2014") == ""


def is_summary_row(cells: Iterable[str]) -> bool:
    """A table row that totals the others ("Subtotal", "Total due", "VAT 20%") rather than adds one."""
    cells = list(cells)
    filled = [cell for cell in cells if not is_blank_cell(cell)]
    for cell in filled:
        key = tuple(word for word in label_key(cell) if not word.isdigit())
        if key in _STRONG_SUMMARY_KEYS or (key in SUMMARY_KEYS and len(filled) < len(cells)):
            return True
    return False
