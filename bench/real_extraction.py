"""Real documents: the built-in extraction, classification and splitting on public documents with truth.

    .venv/bin/python bench/real_corpus.py --mirrors DIR          # once: assemble .corpus/ (see there)
    .venv/bin/python bench/real_extraction.py
        [--split tune|heldout|fresh|tune2|fresh2|tune3|fresh3|tune4|fresh4|fresh5|fresh6|fresh7|fresh8|fresh9|
                 fresh10|fresh11|fresh12|fresh13|fresh14|fresh15|fresh16|fresh17|fresh18|fresh19|fresh20|fresh21|fresh22|fresh23|fresh24|
                 fresh25|fresh26|fresh27|fresh28|fresh29|fresh30|fresh31|fresh32|fresh33|fresh34|fresh35|fresh36|fresh37|fresh38|fresh39|fresh40|
                 fresh41|fresh42|fresh43|fresh44|fresh45|fresh46|fresh47|fresh48|
                 fresh49|fresh50|receipts|receipts2|receipts2-heldout|receipts3|receipts4|receipts5|all]
        [--corpus .corpus]
        [--json PATH] [--scans] [--present]

Reads the documents of `bench/real_extraction/manifest.json` from the corpus folder (the layout
bench/real_corpus.py writes), keeping the `--split` asked for (`all` by default; tune and heldout are
always reported apart). The `fresh` split holds documents of other sources and templates, kept for an
independent check that nothing is tuned on: `all` reports it in a column of its own, and its documents
are left out of the `all` column, which stays tune and heldout together. `tune2` and `fresh2` hold
invoices of further templates, split by template with a seeded draw (the manifest's `split_draw`):
tune2 may be tuned on, fresh2 is only ever measured; each has a column of its own, like fresh. `tune3`
and `fresh3` are a second such pair, drawn the same way over invoices of further templates and
languages; `tune4` and `fresh4` a third, over invoices whose truth is mostly the input an invoice
generator keeps beside its PDF (JSON, YAML, the example script) rather than embedded XML. `fresh5`
holds invoices of ten further templates (a Finnish one among them), measured only: no tune split goes
with it. `fresh6` holds ten further Factur-X / ZUGFeRD invoices of producers no other split has (a
ZUGFeRD 1.0 sample of one producer, a French validator's test invoice, a .NET library's EN16931
examples), French and German, their truth the XML they embed; measured only. `fresh7` holds ten
invoices of three further producers (a Factur-X library's PDF designer in English, French and German, a
ZUGFeRD demo rendering, an e-invoice generator's spreadsheet template with its UBL data as JSON beside
each PDF); measured only. `fresh8` holds five invoices of five further producers (Italian, German,
English and Spanish examples of a document reader, an accounting API, a text stripper, a LaTeX
invoice class and an AFIP invoice module) whose truth, with no data kept beside them, was read by hand
from the page; measured only. `fresh9` holds eight invoices of eight further producers (Dutch, Polish,
Czech, English, Spanish and Portuguese: invoice generators' samples, a sales SaaS's VAT invoice, an ERP
print, a builder's invoice), their truth likewise read by hand; measured only. `fresh10` holds ten
invoices of ten further producers (German, English from the United States, India and Pakistan,
Québec French, Swedish and Finnish: LaTeX and Python invoice templates, an HTML template, a Rust
renderer, a ticket printer's instalment invoice, two picture-only PDFs read by OCR, one of them scanned
sideways), their truth read by hand; measured only. `fresh11` holds eight invoices of eight further
producers (Danish, Italian, Polish, Spanish, German and English: an invoice-template site, a salon's
payment receipt, a workshop exercise, a Python generator, a Word-style rental invoice, two HTML-to-PDF
examples and a Markdown-to-PDF example), their truth read by hand; measured only. `fresh12` holds
eleven invoices of eleven further producers (Angolan and European Portuguese, Paraguayan Spanish, Swiss
German, Hungarian, Serbian, Japanese, Chinese, Turkish and English: a till's cash-sale invoice, an
electronic-invoice daemon's printout, a hotel project, a hospital bill scanned into a picture-only PDF,
an accounting program's sample, a shop project's bill, a browser-printed B2B invoice, a VAT e-invoice
(fapiao), an e-Fatura, a synthetic invoice rendered as a picture and a minimal generator's invoice),
their truth read by hand; measured only. `fresh13` holds seven invoices of seven further producers
(Russian, Uzbek, Indonesian, Vietnamese and Arabic: an internet provider's billing script, a PHP
accounting template, a bank portal's invoice for a sole trader, an electronic VAT invoice, a medical
distributor's warehouse application, a pet store's bill and a small generator's purchase invoice),
their truth read by hand; measured only. `fresh14` holds four invoices of three further producers (Romanian
and Australian and American English: the tax authority's and a PHP library's renderings of one UBL
e-invoice, a counsellor's tax invoice and a scanned picture-only invoice read by OCR), their truth the UBL
XML beside the PDF or read by hand; measured only. (An electricity supplier's bill, an internet provider's
tax invoice and a CFDI printout first drawn with them were withdrawn: a private customer's own bill is no
document to keep in a test set.) `fresh15` holds six invoices of six further producers (Saudi Arabic,
Macedonian, Croatian, Senegalese and Cameroonian French, Dominican Spanish: a ZATCA simplified tax invoice,
an accounting web app's invoice, a business incubator's e-invoice print, an accounting firm's invoice from a
custom Odoo report, an IT integrator's invoice and a small ERP's tax-credit invoice), their truth read by
hand; measured only. (A rural water board's bill first drawn with them was withdrawn: a private customer's
own bill is no document to keep in a test set.) `fresh16` holds four invoices of four further producers
(Peruvian Spanish, Taiwanese Chinese, Kenyan English and Polish: a dental clinic's electronic sales slip, a
POS vendor's payment request, an ERP back end's invoice and an optician's invoice scanned into a
picture-only PDF), their truth read by hand; measured only. (A supermarket chain's electronic invoice, a
learning-management system's fee invoice and a school's fees invoice first drawn with them were withdrawn: a
private customer's own bill is no document to keep in a test set.)
`fresh17` holds five invoices of five further producers (Algerian and Japanese English, Swedish/English,
Brazilian Portuguese and Italian: a software-development invoice, a business-document generator's qualified
invoice, an exporter's commercial invoice, a DANFE of an NF-e renderer and a butcher's invoice scanned
upside down into a picture-only PDF), their truth the NF-e XML beside the PDF or read by hand; measured
only. (An event-ticketing platform's pair of invoices for a conference ticket and a glazier's DANFE to a
private buyer first drawn with them were withdrawn: a private customer's own bill is no document to keep in
a test set.)
`fresh18` holds five invoices of five further producers (Indian, Greek, Sri Lankan, Moroccan and West
African: a pharmacy's GST tax invoice, a supermarket's purchase invoice, an invoice-reader's sample, a PDF
generator's facture and a Qt app's CFA-franc facture), their truth read by hand; measured only at first,
read since. (An invoicing app's "facture doit" first drawn with them was withdrawn: a private customer's own
bill is no document to keep in a test set.) `fresh19` holds three invoices of three further producers
(Hungarian, Congolese and Turkish: an accounting package's sample számla, a pharmacy app's facture and a
bill tracker's fatura sheet), their truth read by hand; measured only at first, read since. (A billing
service's electronic boleta de venta, a florist's boleta and a sole trader's faktura first drawn with them
were withdrawn: a private customer's own bill is no document to keep in a test set.) `fresh20` holds six
invoices of six further producers (Australian and British English, Japanese, Chilean Spanish, Serbian and
Slovenian: a trades contractor's two-page tax invoice, a Reiwa-dated 請求書, a freelancer's invoice with its
values above their labels, a bakery's boleta ticket, a mobile-usage racun and a restaurant's racun), their
truth read by hand; measured only at first, read since. (A tutor's script-made invoice first drawn with them
was withdrawn: a private customer's own bill is no document to keep in a test set.) `fresh21` holds six
invoices of six further producers (Guatemalan
Spanish, South African, Nepali and Tanzanian English and West African French: an electronic exchange
invoice (FEL) of a report engine, an equipment-rental invoice, a contractor's script-made invoice, a
manufacturer's tax invoice printed twice on its page, a pharmacy system's invoice with no currency and a
console sales app's CFA-franc facture with its total in words), their truth read by hand; measured only at
first, read since. `fresh22` holds four invoices of four further producers (Ugandan, Austrian and
Philippine: a school's fees invoice of a finance application, a software company's invoicing exercise with
its due date as a Java date string, a watch web shop's browser-printed Rechnung and a computer shop's
carbon-form invoice photographed on a table into a picture-only PDF), their truth read by hand; measured
only. (A parcel forwarder's spreadsheet invoice in Singapore dollars first drawn with them was withdrawn: a
private customer's own bill is no document to keep in a test set.) `fresh23`
holds four invoices of four further producers (Czech, Dutch, Colombian Spanish and Romanian: a Qt
invoicing program's daňový doklad, a student association's factuur, a Go program's factura de compra and
an offer-and-invoice program's factura with empty totals), their truth read by hand; measured only at
first, read since. `fresh24` holds six invoices of six further producers (French, Nigerian English,
Dominican Spanish and Arabic: two subscription-billing services' factures, an office-suite facture template,
a web generator's invoice in naira, a phone shop's ticket-style factura and a LaTeX فاتورة in Saudi riyals),
their truth read by hand; measured only at first, read since. (A legal-services site's order facture first
drawn with them was withdrawn: a private customer's own bill is no document to keep in a test set.)
`fresh25` holds six invoices (German, French and Indian English: two ZUGFeRD invoices rendered by
a readability stylesheet, one in pounds, a Factur-X boxed sample, two plain French factures and a GST
invoice receipt), their truth read by hand; measured only at first, read since. `fresh26` holds five
invoices (German and English: a hosting provider's Rechnung, a GnuAccounting Rechnung, an SAP-style
Rechnung in Deutsche Mark, a PHP builder's print layout and a FeRD 2.2 sample visualisation), their truth
read by hand; measured only at first, read since. `fresh27` holds five invoices (Czech and English: a
domain registry's bilingual daňový doklad in koruna, a LaTeX class's example, a signing library's PDFKit
invoice, a time tracker's ReportLab invoice and an office-suite template in dollars), their truth read by
hand; measured only at first, read since. `fresh28` holds five invoices (English, German, Venezuelan Spanish
and Brazilian Portuguese: an HTML-to-PDF book example in dollars, a PDF library's Rechnung sample, a Node
generator's example in euros, a LaTeX factura class's example in bolívares and a Node module's cobrança),
their truth read by hand; measured only. `fresh30` holds six invoices of templates no other split has
(Polish, English, Norwegian and Brazilian Portuguese: an online service's Faktura VAT, a parcel carrier's
invoice in dollars, a software vendor's Norwegian faktura, a Kuwaiti shop's bilingual invoice in dinars, an
NFC-e whose XML lies beside it and a generated invoice whose data file lies beside it), their truth that
data where there is one, else read by hand; measured only. (A brewing club's Rechnung first drawn with them
was withdrawn: a private customer's own bill is no document to keep in a test set.) `fresh31` holds six
invoices of templates no other split has (Czech, Chilean Spanish, Italian, Dutch and German: an online
invoicing service's faktura, an electronic DTE factura in pesos, a freelancer's spreadsheet fattura, an
accounting package's fattura, a haulier's draft factuur and a PL/SQL library's Factur-X example whose XML it
embeds), their truth that XML where it agrees with the page, else read by hand; measured only. (A farm app's
facture first drawn with them was withdrawn: a private customer's own bill is no document to keep in a test
set.) `fresh32` holds seven invoices of templates no other split
has (Spanish of Spain, Polish, Swedish, Czech, Indian English and Danish: a Verifactu app's factura, an
office-suite template's factura kept by an ERP module's tests, a test generator's Faktura VAT, a customs
app's commercial invoice whose generating script lies beside it, a QR-payment faktura in koruna, a GST tax
invoice in rupees and a car-rental app's faktura in kroner), their truth that script where there is one,
else read by hand; measured only. `fresh33` holds seven invoices of templates no other split has (Swedish,
German, French, Greek and Spanish of Spain: a consultancy's word-processor faktura, an automation firm's
Java faktura and an accounting program's example faktura with a house-work tax reduction, a hotel bill
retyped beside a travel-expense e-invoice, an online service's rent facture, a consultant's bilingual
XeLaTeX timologio whose input XML lies beside it and a booking app's factura), their truth that XML where
there is one, else read by hand; measured only. (A college's course factuur first drawn with them was
withdrawn: a private customer's own bill is no document to keep in a test set.)
`fresh34` holds six invoices of templates no other split has (Czech, Danish, German, Finnish, Argentine
Spanish and Indian English: an ERP demo's faktura whose ISDOC XML it embeds, a print platform's sample
faktura, a farm bakery's word-processor Rechnung, a booking app's cottage lasku, a tax agency's online
factura B and a carpenter's bill typed in a word processor), their truth that XML where there is one, else
read by hand; measured only. `fresh35` holds five invoices of templates no other split has (Polish, Dutch,
Spanish of Spain, Moroccan French and American English: a software firm's sample Faktura VAT, a wholesaler's
two-page factuur, a shop app's factura, a grocery back end's facture and a design tool's invoice template),
their truth read by hand; measured only. (A clinic's cash faktura and a power distributor's electricity nota
fiscal first drawn with them were withdrawn: a private customer's own bill is no document to keep in a test
set.) `fresh36` holds four invoices of templates no other split has (Spanish of Spain, German, European
Portuguese and French: a carmaker's dealer portal's invoice view printed from the browser, an invoicing
program's sample Rechnung, a water utility's two-page fatura and an accounting app's draft facture), their
truth read by hand; measured only. (A building firm's house-work faktura and a property manager's certified
fatura first drawn with them were withdrawn: a private customer's own bill is no document to keep in a test
set.) `fresh37` holds four invoices of templates no other split has (Argentine Spanish, German and Dutch: a
grain dealer's factura A, a consultancy's and a SaaS firm's short typed invoices and a road-pricing app's
factuur), their truth read by hand; measured only. (A telecom operator's fatura, a water company's fatura
and a hackerspace's hosted receipt first drawn with them were withdrawn: a private customer's own bill is no
document to keep in a test set.) `fresh38` holds five invoices of templates no other split has (Czech,
Polish, German and British English: an invoicing web app's faktura, a sole trader's faktura of an
order-import exercise, a plant nursery's rachunek from a LaTeX template, a small business's Rechnung of a
LaTeX accounting tool and a freelancer's LaTeX invoice whose input config lies beside it), their truth that
input where there is one, else read by hand; measured only. (A marketplace seller's tax invoice and a
university's tuition invoice first drawn with them were withdrawn: a private customer's own bill is no
document to keep in a test set.) `fresh39` holds six invoices of
templates no other split has (Czech, Italian, Spanish and English, one of them filled in in Finnish: a web
shop's simplified tax document, a builder's word-processor fattura, a dataset generator's factura whose
input JSON lies beside it, a word-processor template's invoice read by an RPA robot, and two LaTeX
packages' examples, an invoice and a customs commercial invoice, whose sources lie beside them), their truth
that input where there is one, else read by hand; measured only. `fresh40` holds five invoices of
templates no other split has (German, Dutch and Spanish: a small trader's Rechnung of a web invoicing
program, an order script's factuur, a foundation's factuur template with its placeholders unfilled, a Java
exercise's form-filled factura and a sports club's factura of a student project), their truth read by hand;
measured only. `fresh41` holds eight invoices of templates no other split has (Belgian and French French,
Czech, Indian and other English, Finnish and Dutch: an association's facture of a LaTeX package whose source
lies beside it, a PHP course's model faktura whose input script lies beside it, a consultant's LaTeX invoice
of a Shiny generator, a word-processor invoice template with its sample text, a climbing-shoe importer's
lasku of its own stock app, a student group's factuur whose order JSON lies beside it, and two Factur-X
invoices, a MINIMUM and an EN 16931 one, whose XML they embed), their truth that XML or input where there is
one, else read by hand; measured only. (A hotel's factura of a students' desktop app first drawn with them
was withdrawn: a private customer's own bill is no document to keep in a test set.)
`fresh42` holds six invoices of templates no other split has (Polish, Dutch, Brazilian Portuguese and
English: a towing firm's faktura VAT of a dispatch system kept by a KSeF upload app, a teacher's factuur
typeset from Markdown whose source lies beside it, a small Node generator's invoice whose configuration
lies beside it, an invoicing application's template example, a student script's nota fiscal whose CSV
lies beside it, and a dataset generator's eighth template whose input JSON lies beside it), their truth
that input where there is one, else read by hand; measured only.
`fresh43` holds five invoices of templates no other split has (English, Swiss English, French and German:
a PHP visualiser's rendering of a ZUGFeRD XML, a LaTeX template with a Swiss QR-bill payment part, a Typst
template's French test fixture, a pandoc LaTeX boilerplate's example and another Typst template's
Rechnung), their truth the XML, data file, Typst source, YAML or TOML beside each PDF; measured only.
`fresh44` holds four invoices of templates no other split has (French, German, English and Spanish: an
e-invoicing platform's rendering of a Factur-X XML, an IT firm's domain-fee Rechnung, a software firm's
spreadsheet invoice and a small Go program's factura de ventas), their truth the XML the PDF embeds for one,
read by hand from the page for the others; measured only. (A telecom operator's fatura, a sole trader's
faktura for a gas charge, a mobile operator's facture, an airline's GST tax invoice and a telecom operator's
Festnetz-Rechnung first drawn with them were withdrawn: a private customer's own bill is no document to keep
in a test set.)
`fresh45` holds four invoices of templates no other split has (Brazilian Portuguese, English, Spanish and
Nepali English: a mobile operator's business fatura with its call detail, a Node package's example invoice,
a student shop application's factura and a manufacturer's redesigned tax invoice), their truth read by hand
from the page; measured only. (A car museum's ticket Rechnung and a science museum's faktura VAT first drawn
with them were withdrawn: a private customer's own bill is no document to keep in a test set.)
`fresh46` holds five invoices of templates no other split has (Swiss German, German, English, Spanish and
Argentine Spanish: a Django accounting app's Rechnung with a Swiss QR-bill, an invoice generator's pandoc
Rechnung, an online PDF service's invoice template, an Odoo factura with its Spanish localisation and a
desktop shop app's factura), their truth the YAML beside the PDF for one, read by hand from the page for the
others; measured only. (An energy retailer's bolletta first drawn with them was withdrawn: a private
customer's own bill is no document to keep in a test set.)
`fresh47` holds seven invoices of templates no other split has (Romanian, Brazilian Portuguese, Spanish,
English and Belgian French: a software firm's factură from an m4 and XeTeX generator, a freelancer's
fatura typed in Word, an electricity distributor's high-voltage bill, a card processor's statement, a
bicycle-rental app's factura, an EDIFACT-to-Factur-X converter's bare page and a LaTeX package's invoice
without VAT), their truth the XML the PDF embeds for one, the .tex beside the PDF for another, read by
hand from the page for the others; measured only.
`fresh48` holds two invoices of templates no other split has (German: a tradesman's and a Japanese
supplier's Rechnung typed in a desktop editor), their truth read by hand from the page; measured only. (A
Brazilian city's service invoice first drawn with them was left out: a hospital's bill to a private person,
kept among his tax papers, is no document to name in a test set.) (A Swiss hosting provider's Rechnung, a
computer maker's online-store Rechnung and a CRM's own Rechnung, all three to one private customer, were
withdrawn later: a private customer's own bill is no document to keep in a test set.)
`fresh49` holds six invoices of templates no other split has (Swiss German, English, Dominican Spanish,
Portuguese and Spanish: the Swiss QR-bill guidelines' example Rechnung written in Word, a Factur-X test
app's plain sample invoice, an HTML-to-PDF engine's example invoice, a sausage maker's crédito fiscal
printed from its CRM, a student web shop's fatura and a sales exercise's bare factura), their truth the
HTML beside the PDF for one, read by hand from the page for the others; measured only.
`fresh50` holds seven invoices of templates no other split has (English, Indian English, German, Guatemalan
Spanish, French and Swiss French: a PDF library's Factur-X example, a Rust generator's example invoice, an
ERP's demo tax invoice, a brewing club's Rechnung, a FEL factura of an HTML template, a company kit's facture
and an invoicing guide's facture with its QR-bill), their truth the CII XML the PDF embeds for one, read by
hand from the page for the others; measured only.

Receipts (split `receipts`): photos of receipts whose truth is their key-information annotation
(the shop's name and address, the date, the total), read by OCR like any image and extracted with
a receipt schema (`RECEIPT_SCHEMA`); the annotation is written without spaces, so names and addresses
are compared on letters and digits only, the truth contained in the answer. They are not classified (the
manifest's categories have no receipt).

Receipts (splits `receipts2`, `receipts2-heldout`): photos of American restaurant and shop receipts
(ExpressExpense's free receipt images, one of them French), whose truth is the shop's name and
address, the date and the total a person typed beside them; a third of them, drawn by the receipt
(the manifest's `split_draw`), is held out. Typed names and addresses differ from the print in spaces,
case and punctuation only where the typist chose to, so names and addresses are compared without
whitespace or punctuation, the truth contained in the answer.

Receipts (split `receipts3`): receipts of other countries and printers, measured only at first, read since:
sixteen German shop receipts (discounters, supermarkets, drugstores, a pharmacy, DIY and furniture
stores, electronics, a bookshop, a petrol station) scanned at 300 dpi, cropped or lying on a grey
sheet, whose merchant, date and total are typed in their file names (softmatic/vision-data, the
address and the printed name read by hand from the scan), and five Canadian supermarket receipts
photographed by phone with their personal data blanked, whose merchant, date and total are the
expected answers kept beside them (Endle/beanbeaver; their address is blanked and not scored).

Receipts (split `receipts4`): eighteen German supermarket receipts of six chains and nine shops
(discounters, full-range supermarkets, a neighbourhood market; thermal printers of several makes),
photographed by phone at 1080x1440 on a table or a wall, some in dim light, crumpled or curled,
measured only, never tuned on: the merchant typed in the file name, the total and the address read by
hand from the photo (manfredbork/receipt_recognition's integration-test images). The photos show the
slip from its head to the total and little more: the date is not legible on them, not scored.

Receipts (split `receipts5`): eighteen Azerbaijani fiscal receipts of eighteen shops (supermarkets, a
clinic, a bookshop, clothing and shoe shops, a toy shop, fast food), each the image the tax authority's
e-kassa portal renders for the receipt (350 px wide, no resolution tag), measured only: the shop's
name, the date and the total are the fiscal record kept beside the images (Ismat-Samadov/receipt_data's
data/fiscals.csv, as the authority's API returned it); the address is not scored.

Each document is read as the service reads a document for an extraction, classification or split
(`ParseService.read`): the docsvc engine in process, tables in Markdown, at the service's default
resolution and page time budget. No AWS is needed.

Extraction. Every invoice is extracted with the built-in model (`docsvc.intelligence.extraction.extract`)
against one invoice schema (`INVOICE_SCHEMA`: invoice_number, invoice_date, due_date, currency, total,
net_total, tax_total, issuer {name, vat_id, address}, customer {name, address}, iban, line_items). Its
truth is the invoice data the PDF embeds (Factur-X / ZUGFeRD CII XML), kept in the manifest for the
fields the page prints (see the manifest's `truth_note`); a field the page does not print is not
scored. An answer is right when, after normalisation, it equals the truth:
- dates (invoice_date, due_date): the answer read as a date (ISO, d.m.y, d/m/y, y/m/d), compared as
  YYYY-MM-DD;
- amounts (total, net_total, tax_total): the answer read as a number (a string may use either decimal
  mark, thousands separators and a currency sign), rounded to 2 decimals and compared by absolute
  value (a credit note prints positive amounts where its data holds negative ones);
- currency: upper-cased, a lone sign read as its code (EUR, GBP, USD);
- identifiers (invoice_number, issuer.vat_id, iban): all whitespace removed, case ignored, equal (an
  account number the truth holds without its country code, a Polish NRB, is also right as the IBAN
  it is with that code); a VAT id's and an IBAN's hyphens and dots are their print's grouping, left
  out too (a Polish NIP printed "701-00-25-169" is "7010025169"), an invoice number's are its own;
- names (issuer.name, customer.name): whitespace collapsed, case ignored, and the truth equal to the
  answer or contained in it (an answer holding the name and more, "Lieferant GmbH Lieferantenstraße 20",
  counts as right; one holding part of it does not).
A missing or empty answer is wrong. Reported per field, per language and per split, for the core
fields (invoice_number, invoice_date, due_date, total, currency, issuer.name, customer.name) and for
all scored scalars, with the share of fields answered at all; and a reliability table: among scored
answers whose likelihood falls in a bucket (>= 0.9, 0.7-0.9, 0.5-0.7, < 0.5), the share right.

Classification. Every document (invoices and the others, `ref` entries reading the document of
bench/real_documents/manifest.json) is classified (`docsvc.intelligence.classification.classify`)
into the manifest's categories, each with its description. Accuracy per category and per split.

Splitting. Each packet of the manifest (2 to 4 documents of the corpus, in order) is built at run time
as one PDF (the documents' pages appended), read like a document and split
(`docsvc.intelligence.splitting.split`) with the categories as subdocuments allowing several
instances. A page is right when the split holding it has exactly the pages of its document and the
document's category; a packet is split exactly when all its pages are right. Boundaries alone (the
same page sets, categories ignored) are reported too.

Sources. Every invoice is extracted again with its sources, as `include_sources` answers them: the
values found, those with a source, those with a box, and the boxes whose PDF words (PyMuPDF's own,
those whose centre is inside the box, ligatures, accents and case folded) do not hold the text the source
says it read; the target is none. A box with no word of the text layer inside (text OCR read from a
picture on the page) is counted apart and not judged.

`--http` also times each invoice's extraction (with its sources, the parse cache bypassed) through
the local stack, which it starts on loopback and stops: the median of three requests after a first, by
page count.

`--scans` repeats extraction and classification on scanned copies: every page of each invoice rendered
at 200 dpi into an image-only PDF, which the engine reads with OCR (in the document's language when
Tesseract has it, else English); the extraction is given each page's OCR mean word confidence.

Prints a report; `--json PATH` writes every figure and the per-document answers. Exit code 0 whatever
the figures, 2 when the corpus is not assembled.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.documents import engine  # noqa: E402
from docsvc.documents.engine import ocr  # noqa: E402
from docsvc.documents.engine.errors import DocumentError  # noqa: E402
from docsvc.domain.evidence import Evidence, ocr_pages_laid_out, sources_tree  # noqa: E402
from docsvc.domain.parses import DEFAULT_DPI, PAGE_SECONDS  # noqa: E402
from docsvc.intelligence.classification import Category, classify  # noqa: E402
from docsvc.intelligence.extraction import extract  # noqa: E402
from docsvc.intelligence.identifiers import iban_ok  # noqa: E402
from docsvc.intelligence.splitting import Subdocument, split  # noqa: E402

from bench.real_corpus import EXTRACTION_MANIFEST, MANIFEST, corpus_path, load_manifest  # noqa: E402

SCAN_DPI = 200
TESSERACT = {
    "de": "deu",
    "fr": "fra",
    "en": "eng",
    "es": "spa",
    "it": "ita",
    "nl": "nld",
    "pl": "pol",
    "fi": "fin",
}
_NULL_STRING = {"type": ["string", "null"]}
_NULL_NUMBER = {"type": ["number", "null"]}
INVOICE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "invoice_number": {**_NULL_STRING, "description": "The invoice number"},
        "invoice_date": {**_NULL_STRING, "format": "date", "description": "The date the invoice was issued"},
        "due_date": {**_NULL_STRING, "format": "date", "description": "The date payment is due"},
        "currency": {**_NULL_STRING, "description": "ISO 4217 code of the invoice currency"},
        "total": {**_NULL_NUMBER, "description": "Grand total including tax"},
        "net_total": {**_NULL_NUMBER, "description": "Total amount without tax"},
        "tax_total": {**_NULL_NUMBER, "description": "Total tax (VAT) amount"},
        "issuer": {
            "type": ["object", "null"],
            "description": "The seller who issued the invoice",
            "properties": {
                "name": _NULL_STRING,
                "vat_id": {**_NULL_STRING, "description": "VAT identification number"},
                "address": _NULL_STRING,
            },
        },
        "customer": {
            "type": ["object", "null"],
            "description": "The buyer the invoice is addressed to",
            "properties": {"name": _NULL_STRING, "address": _NULL_STRING},
        },
        "iban": {**_NULL_STRING, "description": "IBAN of the account to pay to"},
        "line_items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "description": _NULL_STRING,
                    "quantity": _NULL_NUMBER,
                    "unit_price": _NULL_NUMBER,
                    "amount": _NULL_NUMBER,
                },
            },
        },
    },
}
# Manifest truth field -> answer path.
FIELDS = {
    "invoice_number": "invoice_number",
    "invoice_date": "invoice_date",
    "due_date": "due_date",
    "currency": "currency",
    "total": "total",
    "net_total": "net_total",
    "tax_total": "tax_total",
    "issuer_name": "issuer.name",
    "issuer_vat_id": "issuer.vat_id",
    "customer_name": "customer.name",
    "iban": "iban",
}
CORE = ("invoice_number", "invoice_date", "due_date", "total", "currency", "issuer.name", "customer.name")
# Receipts (photos read by OCR): the shop's name and address, the date and the total paid.
RECEIPT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "merchant": {
            "type": ["object", "null"],
            "description": "The shop or business that was paid.",
            "properties": {"name": _NULL_STRING, "address": _NULL_STRING},
        },
        "date": {**_NULL_STRING, "format": "date", "description": "The date of the purchase."},
        "total": {**_NULL_NUMBER, "description": "The total paid."},
    },
}
RECEIPT_FIELDS = {
    "merchant_name": "merchant.name",
    "merchant_address": "merchant.address",
    "date": "date",
    "total": "total",
}
BUCKETS = ((0.9, 1.01, ">= 0.9"), (0.7, 0.9, "0.7-0.9"), (0.5, 0.7, "0.5-0.7"), (-0.01, 0.5, "< 0.5"))
SPLITS = (
    "tune",
    "heldout",
    "fresh",
    "tune2",
    "fresh2",
    "tune3",
    "fresh3",
    "tune4",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
    "fresh17",
    "fresh18",
    "fresh19",
    "fresh20",
    "fresh21",
    "fresh22",
    "fresh23",
    "fresh24",
    "fresh25",
    "fresh26",
    "fresh27",
    "fresh28",
    "fresh29",
    "fresh30",
    "fresh31",
    "fresh32",
    "fresh33",
    "fresh34",
    "fresh35",
    "fresh36",
    "fresh37",
    "fresh38",
    "fresh39",
    "fresh40",
    "fresh41",
    "fresh42",
    "fresh43",
    "fresh44",
    "fresh45",
    "fresh46",
    "fresh47",
    "fresh48",
    "fresh49",
    "fresh50",
    "receipts",
    "receipts2",
    "receipts2-heldout",
    "receipts3",
    "receipts4",
    "receipts5",
)
POOLED = ("tune", "heldout")  # the splits the `all` column adds up; fresh stays apart


# ------------------------------------------------------------------------------------- the corpus
@dataclass
class Document:
    id: str
    category: str
    language: str
    split: str
    kind: str
    file: Path
    fields: dict[str, str] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)


def documents(corpus: Path) -> tuple[list[Document], dict[str, Any]]:
    manifest = json.loads(EXTRACTION_MANIFEST.read_text(encoding="utf-8"))
    referenced = {str(entry["id"]): entry for entry in load_manifest(MANIFEST)}
    found = []
    for entry in manifest["documents"]:
        source = referenced[entry["ref"]] if "ref" in entry else entry
        found.append(
            Document(
                id=entry["id"],
                category=entry["category"],
                language=str(source["language"]),
                split=str(source["split"]),
                kind=str(source["kind"]),
                file=corpus_path(corpus, str(source["repo"]), str(source["path"])),
                fields=dict(entry.get("fields", {})),
            )
        )
    return found, manifest


def columns(split_name: str) -> tuple[str, ...]:
    """The report columns a document of this split counts in."""
    return (split_name, "all") if split_name in POOLED else (split_name,)


def read(
    content: bytes, kind: str, languages: tuple[str, ...] | None = None, page_seconds: float = PAGE_SECONDS
) -> list[str]:
    """The pages as the service gives them to the built-in model (`ParseService.read`, then
    `IntelligenceService`): Markdown tables; a page read by OCR as the lines its words are printed on.
    `page_seconds`: a page's time, after which it is left empty."""
    return read_with_confidence(content, kind, languages, page_seconds)[0]


def read_receipt(document: Document) -> list[str]:
    """A receipt's photo as `read` gives it; one the reader gave up on (its page over its time on a busy
    machine, "the reader ran out of memory or crashed") is read as an empty page, its fields then
    scored wrong, so that one photo does not stop the run."""
    try:
        return read(document.file.read_bytes(), document.kind)
    except DocumentError as error:
        print(f"  {document.id}: not read ({error}); scored as an empty page")
        return [""]


def read_with_confidence(
    content: bytes, kind: str, languages: tuple[str, ...] | None = None, page_seconds: float = PAGE_SECONDS
) -> tuple[list[str], list[float | None]]:
    """The pages as `read` gives them, and each one's OCR mean word confidence (None: a text layer)."""
    options = engine.ParseOptions(
        table_format="markdown", dpi=DEFAULT_DPI, page_seconds=page_seconds, languages=languages, words="also"
    )
    read = list(engine.parse_pages(content, kind, options))
    confidence = [page.ocr_confidence for page in read]
    ocr = [each is not None for each in confidence]
    return ocr_pages_laid_out([page.text for page in read], [page.words for page in read], ocr), confidence


def source_boxes(invoices: Iterable[Document]) -> dict[str, Any]:
    """Each invoice extracted with its sources as the service gives them (`docsvc.domain.evidence`):
    per leaf value found, whether it has a source, a box, and whether the box holds what the source
    says it read (the PDF's own words inside the box, widened by a hair, hold the source's words)."""
    counts = {"values": 0, "with_source": 0, "with_box": 0, "box_holds_text": 0, "box_on_picture": 0}
    wrong: list[str] = []
    for document in invoices:
        content = document.file.read_bytes()
        options = engine.ParseOptions(table_format="markdown", dpi=DEFAULT_DPI, words="also")
        read = list(engine.parse_pages(content, document.kind, options))
        texts = [page.text for page in read]
        found = extract(texts, INVOICE_SCHEMA)
        evidence = {path: Evidence(*where) for path, where in found.evidence.items()}
        tree = sources_tree(found.output, found.likelihoods, evidence, texts, [page.words for page in read])
        with pymupdf.open(stream=content, filetype="pdf") as pdf:
            for path, leaf in _leaves(tree):
                if leaf["value"] is None:
                    continue
                counts["values"] += 1
                source = leaf["source"]
                if source is None:
                    continue
                counts["with_source"] += 1
                anchor = source["anchor"]
                if anchor["kind"] != "pdf_bbox":
                    continue
                counts["with_box"] += 1
                held = _box_holds(pdf[anchor["page"] - 1], anchor, source["content"])
                if held is None:
                    counts["box_on_picture"] += 1
                elif held:
                    counts["box_holds_text"] += 1
                else:
                    wrong.append(f"{document.id} {path}: {source['content']!r}")
    print("\n== Sources of the extracted values (text layer)")
    print(
        f"  values found {counts['values']}, with a source {counts['with_source']}, with a box "
        f"{counts['with_box']}, boxes holding their text {counts['box_holds_text']}, boxes on a picture "
        f"(no PDF word inside to check) {counts['box_on_picture']}, boxes that do not: {len(wrong)}"
    )
    for line in wrong[:10]:
        print("   ", line)
    return {**counts, "boxes_not_holding_text": wrong}


def _leaves(tree: Any, path: str = "") -> Iterable[tuple[str, dict[str, Any]]]:
    if isinstance(tree, dict) and "value" in tree and "source" in tree:
        yield path, tree
    elif isinstance(tree, dict):
        for key, child in tree.items():
            yield from _leaves(child, f"{path}.{key}" if path else key)
    elif isinstance(tree, list):
        for index, child in enumerate(tree):
            yield from _leaves(child, f"{path}.{index}")


def _box_holds(page: pymupdf.Page, anchor: dict[str, Any], content: str) -> bool | None:
    """Whether the words PyMuPDF finds inside the box (as the page is shown) hold every word of
    `content` (a separator printed between them, "Ecke 12 • 12345 Stadthausen", may be there too);
    None when no word of the text layer is inside it (text OCR read from a picture: nothing to check).

    A word is inside when its centre is: the boxes of a page read by OCR are OCR's, tight around the
    ink, while the text layer's words span their font's ascent and descent (a line of 13 points of
    ink is a word 19 points high). Words are compared as the engine writes them, ligatures as their
    letters ("Huﬁec" is "Hufiec"), and with case and accents folded, which OCR may lose ("João" read
    "Joao")."""
    width, height = page.rect.width, page.rect.height
    box = pymupdf.Rect(
        (anchor["left"] - 0.002) * width,
        (anchor["top"] - 0.002) * height,
        (anchor["left"] + anchor["width"] + 0.002) * width,
        (anchor["top"] + anchor["height"] + 0.002) * height,
    )
    turn = page.rotation_matrix if page.rotation else None
    inside = []
    for x0, y0, x1, y1, text, *_ in page.get_text("words"):
        rect = pymupdf.Rect(x0, y0, x1, y1) * turn if turn is not None else pymupdf.Rect(x0, y0, x1, y1)
        if box.contains(pymupdf.Point((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)):
            inside.append(_folded(text))
    if not inside:
        return None
    return not Counter(map(_folded, content.split())) - Counter(inside)  # every word of it is in the box


def _folded(word: str) -> str:
    """A word with its ligatures as letters, its accents dropped and its case folded."""
    letters = unicodedata.normalize("NFKD", word)
    return "".join(char for char in letters if not unicodedata.combining(char)).casefold()


def scanned(content: bytes) -> bytes:
    """An image-only copy of a PDF: each page rendered at SCAN_DPI."""
    with pymupdf.open(stream=content, filetype="pdf") as source, pymupdf.open() as copy:
        for page in source:
            image = page.get_pixmap(dpi=SCAN_DPI).tobytes("png")
            blank = copy.new_page(width=page.rect.width, height=page.rect.height)
            blank.insert_image(blank.rect, stream=image)
        return bytes(copy.tobytes(garbage=3, deflate=True))


def page_sizes(content: bytes) -> list[tuple[float, float]]:
    """Each page's width and height in points as the engine gives them beside its text (the page's
    rectangle as shown), for splitting to weigh a change of paper between two pages. A page scanned
    sideways that OCR reads upright is given here as it is shown (the bench keeps the pages' text only)."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        return [(round(page.rect.width, 1), round(page.rect.height, 1)) for page in document]


def scanned_pages(content: bytes) -> list[bool]:
    """Per page, whether the engine reads it by OCR as the service tells splitting: a page with no text
    in its layer and a picture on it (a stamped scan, read from both, is counted as its text layer)."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        return [not page.get_text().strip() and bool(page.get_images()) for page in document]


def packet_pdf(files: Sequence[Path]) -> bytes:
    with pymupdf.open() as packet:
        for file in files:
            with pymupdf.open(file) as part:
                packet.insert_pdf(part)
        return bytes(packet.tobytes(garbage=3, deflate=True))


# ------------------------------------------------------------------------------------ normalising
_DATE_FORMS = (
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})"), (1, 2, 3)),
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"), (1, 2, 3)),
    (re.compile(r"^(\d{1,2})[./](\d{1,2})[./](\d{4})$"), (3, 2, 1)),
    (re.compile(r"^(\d{4})(\d{2})(\d{2})$"), (1, 2, 3)),
)
_SIGNS = {"€": "EUR", "£": "GBP", "$": "USD"}


def as_date(value: Any) -> str | None:
    text = str(value).strip() if value is not None else ""
    for pattern, (y, m, d) in _DATE_FORMS:
        match = pattern.match(text)
        if match:
            try:
                return date(int(match[y]), int(match[m]), int(match[d])).isoformat()
            except ValueError:
                return None
    return None


def as_amount(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return round(abs(float(value)), 2)
    text = re.sub(r"[^\d.,\-]", "", str(value))
    if not re.search(r"\d", text):
        return None
    last = max(text.rfind("."), text.rfind(","))
    if last >= 0 and len(text) - last - 1 in (1, 2):
        whole, decimals = re.sub(r"[.,]", "", text[:last]), text[last + 1 :]
        text = f"{whole}.{decimals}"
    else:
        text = re.sub(r"[.,]", "", text)
    try:
        return round(abs(float(text)), 2)
    except ValueError:
        return None


def _squash(value: Any) -> str:
    return "".join(str(value).split()).casefold()


def _bare(value: Any) -> str:
    """Letters and digits only, case ignored: how a typed shop name or address is compared."""
    return "".join(char for char in str(value).casefold() if char.isalnum())


def _collapse(value: Any) -> str:
    return " ".join(str(value).split()).casefold()


def right(path: str, answer: Any, truth: str) -> bool:
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return False
    if path in ("merchant.name", "merchant.address"):  # receipt truth is written without spaces, or typed
        return _bare(truth) in _bare(answer)
    if path in ("invoice_date", "due_date", "date"):
        return as_date(answer) == truth
    if path in ("total", "net_total", "tax_total"):
        return as_amount(answer) == round(abs(float(truth)), 2)
    if path == "currency":
        text = str(answer).strip()
        return _SIGNS.get(text, text.upper()) == truth.upper()
    if path in ("issuer.name", "customer.name"):
        return _collapse(truth) in _collapse(answer)
    if path == "iban" and _squash(truth).isdigit():  # an account number the data keeps without its
        # country code (a Polish NRB): right as itself or as the IBAN it is with the code
        squashed = _squash(answer)
        return squashed == _squash(truth) or (squashed[2:] == _squash(truth) and iban_ok(squashed.upper()))
    if path in ("issuer.vat_id", "iban"):
        return _ungrouped(answer) == _ungrouped(truth)
    return _squash(answer) == _squash(truth)


def _ungrouped(value: Any) -> str:
    """An identifier without the spaces, hyphens and dots its print groups it by, case ignored."""
    return re.sub(r"[.\-]", "", _squash(value))


def at(output: dict[str, Any], path: str) -> Any:
    value: Any = output
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


# ------------------------------------------------------------------------------------- measuring
@dataclass
class Tally:
    right: int = 0
    answered: int = 0
    scored: int = 0

    def add(self, ok: bool, answered: bool) -> None:
        self.right += ok
        self.answered += answered
        self.scored += 1

    def figures(self) -> dict[str, Any]:
        share = self.right / self.scored if self.scored else None
        return {"right": self.right, "answered": self.answered, "scored": self.scored, "accuracy": share}


def _pct(tally: Tally) -> str:
    return (
        f"{100 * tally.right / tally.scored:5.1f}% ({tally.right}/{tally.scored})" if tally.scored else "   -"
    )


def extraction(
    invoices: Iterable[Document],
    pages_of: dict[str, list[str]],
    confidence_of: dict[str, list[float | None]] | None = None,
) -> dict[str, Any]:
    per_field: dict[tuple[str, str], Tally] = defaultdict(Tally)
    per_language: dict[tuple[str, str, str], Tally] = defaultdict(Tally)  # (split, language, core|all)
    overall: dict[tuple[str, str], Tally] = defaultdict(Tally)
    buckets: dict[tuple[str, str], Tally] = defaultdict(Tally)
    answers = []
    for document in invoices:
        started = time.perf_counter()
        confidence = (confidence_of or {}).get(document.id, [])
        result = extract(pages_of[document.id], INVOICE_SCHEMA, ocr_confidence=confidence)
        seconds = time.perf_counter() - started
        checked = {}
        for name, truth in document.fields.items():
            path = FIELDS[name]
            answer = at(result.output, path)
            ok = right(path, answer, truth)
            answered = answer not in (None, "")
            likelihood = result.likelihoods.get(path, 0.0)
            checked[path] = {"truth": truth, "answer": answer, "right": ok, "likelihood": likelihood}
            for split_name in columns(document.split):
                per_field[(split_name, path)].add(ok, answered)
                kinds = ("core", "all") if path in CORE else ("all",)
                for kind in kinds:
                    per_language[(split_name, document.language, kind)].add(ok, answered)
                    overall[(split_name, kind)].add(ok, answered)
                label = next(name for low, high, name in BUCKETS if low <= likelihood < high)
                buckets[(split_name, label)].add(ok, answered)
        answers.append(
            {
                "id": document.id,
                "language": document.language,
                "split": document.split,
                "seconds": round(seconds, 3),
                "fields": checked,
                "line_items": len(result.output.get("line_items") or []),
            }
        )
    return {
        "per_field": {f"{s}/{p}": t.figures() for (s, p), t in sorted(per_field.items())},
        "per_language": {f"{s}/{lang}/{k}": t.figures() for (s, lang, k), t in sorted(per_language.items())},
        "overall": {f"{s}/{k}": t.figures() for (s, k), t in sorted(overall.items())},
        "reliability": {f"{s}/{b}": t.figures() for (s, b), t in sorted(buckets.items())},
        "documents": answers,
        "_tallies": (per_field, per_language, overall, buckets),
    }


def receipt_extraction(receipts: Iterable[Document], pages_of: dict[str, list[str]]) -> dict[str, Any]:
    """Each receipt extracted with the receipt schema from its pages read by OCR: per field, right and
    answered, and the answers."""
    per_field: dict[tuple[str, str], Tally] = defaultdict(Tally)
    answers = []
    for document in receipts:
        result = extract(pages_of[document.id], RECEIPT_SCHEMA)
        checked = {}
        for name, truth in document.fields.items():
            path = RECEIPT_FIELDS[name]
            answer = at(result.output, path)
            ok = right(path, answer, truth)
            per_field[(document.split, path)].add(ok, answer not in (None, ""))
            per_field[(document.split, "*")].add(ok, answer not in (None, ""))
            checked[path] = {
                "truth": truth,
                "answer": answer,
                "right": ok,
                "likelihood": result.likelihoods.get(path, 0.0),
            }
        answers.append({"id": document.id, "split": document.split, "fields": checked})
    for split_name in sorted({s for s, _ in per_field}):
        print(f"\n== Extraction, receipts (photos, OCR): {split_name}")
        shown = sorted((p, t) for (s, p), t in per_field.items() if s == split_name)
        for path, tally in sorted(shown, key=lambda item: item[0] == "*"):
            name = "= all fields" if path == "*" else path
            print(f"  {name:<28} {_pct(tally)}   answered {tally.answered}/{tally.scored}")
    return {"per_field": {f"{s}/{p}": t.figures() for (s, p), t in per_field.items()}, "documents": answers}


def classification(
    docs: Iterable[Document], pages_of: dict[str, list[str]], categories: Sequence[Category]
) -> dict[str, Any]:
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    confusions: list[dict[str, Any]] = []
    for document in docs:
        found = classify(pages_of[document.id], categories)
        ok = found.category == document.category
        for split_name in columns(document.split):
            tallies[(split_name, document.category)].add(ok, True)
            tallies[(split_name, "*")].add(ok, True)
        if not ok:
            confusions.append(
                {
                    "id": document.id,
                    "split": document.split,
                    "truth": document.category,
                    "answer": found.category,
                }
            )
    return {
        "per_category": {f"{s}/{c}": t.figures() for (s, c), t in sorted(tallies.items())},
        "wrong": confusions,
        "_tallies": tallies,
    }


def splitting(
    packets: Sequence[dict[str, Any]], by_id: dict[str, Document], categories: Sequence[Category]
) -> dict[str, Any]:
    subdocuments = [Subdocument(c.name, c.description, allow_multiple_instances=True) for c in categories]
    pages: dict[str, Tally] = defaultdict(Tally)
    exact: dict[str, Tally] = defaultdict(Tally)
    bounds: dict[str, Tally] = defaultdict(Tally)
    results = []
    for packet in packets:
        parts = [by_id[i] for i in packet["documents"]]
        content = packet_pdf([part.file for part in parts])
        texts = read(content, "pdf")
        truth: list[tuple[str, frozenset[int]]] = []
        start = 0
        for part in parts:
            count = len(pymupdf.open(part.file))
            truth.append((part.category, frozenset(range(start, start + count))))
            start += count
        cut = split(texts, subdocuments, sizes=page_sizes(content), scanned=scanned_pages(content))
        found = [(s.name, frozenset(p - 1 for p in s.pages)) for s in cut]
        holder = {page: item for item in found for page in item[1]}
        page_right = [holder.get(page) in truth for _, members in truth for page in sorted(members)]
        same_sets = {members for _, members in found} == {members for _, members in truth}
        for split_name in columns(packet["split"]):
            for ok in page_right:
                pages[split_name].add(ok, True)
            exact[split_name].add(all(page_right) and len(found) == len(truth), True)
            bounds[split_name].add(same_sets, True)
        results.append(
            {
                "id": packet["id"],
                "split": packet["split"],
                "truth": [[name, sorted(p + 1 for p in members)] for name, members in truth],
                "answer": [[name, sorted(p + 1 for p in members)] for name, members in found],
            }
        )
    return {
        "pages": {k: t.figures() for k, t in pages.items()},
        "exact": {k: t.figures() for k, t in exact.items()},
        "boundaries": {k: t.figures() for k, t in bounds.items()},
        "packets": results,
        "_tallies": (pages, exact, bounds),
    }


# --------------------------------------------------------------------------------------- report
def report_extraction(title: str, figures: dict[str, Any], splits: Sequence[str]) -> None:
    per_field, per_language, overall, buckets = figures["_tallies"]
    print(f"\n== {title}")
    print(f"{'field':<16}" + "".join(f"{s:>22}" for s in splits) + "   answered (all)")
    for path in FIELDS.values():
        shown = [per_field.get((s, path), Tally()) for s in splits if s != "all"]
        all_tally = Tally(
            sum(t.right for t in shown), sum(t.answered for t in shown), sum(t.scored for t in shown)
        )
        row = "".join(f"{_pct(per_field.get((s, path), Tally())):>22}" for s in splits)
        print(f"{path:<16}{row}   {all_tally.answered}/{all_tally.scored}")
    for kind in ("core", "all"):
        row = "".join(f"{_pct(overall.get((s, kind), Tally())):>22}" for s in splits)
        print(f"{'= ' + kind + ' fields':<16}{row}")
    languages = sorted({lang for (_, lang, _) in per_language})
    print(f"\n{'language':<16}" + "".join(f"{s + ' core':>22}{s + ' all':>22}" for s in splits))
    for lang in languages:
        row = "".join(
            f"{_pct(per_language.get((s, lang, 'core'), Tally())):>22}"
            f"{_pct(per_language.get((s, lang, 'all'), Tally())):>22}"
            for s in splits
        )
        print(f"{lang:<16}{row}")
    print(f"\n{'likelihood':<16}" + "".join(f"{s + ' share right':>22}" for s in splits))
    for _, _, label in BUCKETS:
        print(f"{label:<16}" + "".join(f"{_pct(buckets.get((s, label), Tally())):>22}" for s in splits))


def report_classification(title: str, figures: dict[str, Any], splits: Sequence[str]) -> None:
    tallies = figures["_tallies"]
    print(f"\n== {title}")
    print(f"{'category':<24}" + "".join(f"{s:>22}" for s in splits))
    for category in sorted({c for (_, c) in tallies}):
        name = "= all" if category == "*" else category
        print(f"{name:<24}" + "".join(f"{_pct(tallies.get((s, category), Tally())):>22}" for s in splits))
    for wrong in figures["wrong"]:
        print(f"  wrong: {wrong['id']} ({wrong['split']}): {wrong['truth']} read as {wrong['answer']}")


def report_splitting(figures: dict[str, Any], splits: Sequence[str]) -> None:
    pages, exact, bounds = figures["_tallies"]
    print("\n== Splitting (packets built from the corpus)")
    print(f"{'':<24}" + "".join(f"{s:>22}" for s in splits))
    for label, tallies in (("pages right", pages), ("packets exact", exact), ("boundaries exact", bounds)):
        print(f"{label:<24}" + "".join(f"{_pct(tallies.get(s, Tally())):>22}" for s in splits))
    for packet in figures["packets"]:
        if packet["truth"] != packet["answer"]:
            print(f"  {packet['id']} ({packet['split']}): truth {packet['truth']} answer {packet['answer']}")


def http_latency(invoices: Sequence[Document], repeat: int = 3) -> dict[str, Any]:
    """Each invoice extracted through the local stack (`make dev`, started on loopback and stopped at
    the end) with the invoice schema and its sources: the median of `repeat` requests after a first
    that warms the stack, by page count. The earlier parse cache is not used (`bust_cache`)."""
    import base64
    import tempfile

    import httpx

    from tests.e2e.conftest import start_stack, stop_stack

    timings: dict[int, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="docsvc-extraction-") as folder:
        stack = start_stack(Path(folder) / "local.json")
        try:
            with httpx.Client(base_url=stack.url, headers={"Api-Key": stack.test_key}, timeout=60) as client:
                for document in invoices:
                    content = document.file.read_bytes()
                    body = {
                        "document": {
                            "filename": document.file.name,
                            "url": "data:application/pdf;base64," + base64.b64encode(content).decode(),
                        },
                        "json_schema": INVOICE_SCHEMA,
                        "include_sources": True,
                        "bust_cache": True,
                    }
                    seconds = []
                    for _ in range(repeat + 1):
                        started = time.perf_counter()
                        response = client.post("/v1/extractions", json=body)
                        seconds.append(time.perf_counter() - started)
                        response.raise_for_status()
                    with pymupdf.open(stream=content, filetype="pdf") as pdf:
                        timings[pdf.page_count].append(statistics.median(seconds[1:]))
        finally:
            stop_stack(stack)
    print("\n== Extraction through the local stack (median of each invoice's requests)")
    figures: dict[str, Any] = {}
    for pages in sorted(timings):
        values = sorted(timings[pages])
        figures[str(pages)] = {"documents": len(values), "p50": statistics.median(values), "max": values[-1]}
        p50 = statistics.median(values)
        print(f"  {pages} page(s): {len(values)} invoices, p50 {p50:.3f} s, max {values[-1]:.3f} s")
    return figures


def _public(figures: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in figures.items() if not key.startswith("_")}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument(
        "--corpus", type=Path, default=ROOT / ".corpus", help="as bench/real_corpus.py wrote it"
    )
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument(
        "--present",
        action="store_true",
        help="measure the documents the corpus holds and the packets made only of them",
    )
    parser.add_argument("--scans", action="store_true", help="also read OCR'd scanned copies of the invoices")
    parser.add_argument(
        "--http", action="store_true", help="also time each invoice's extraction through the local stack"
    )
    args = parser.parse_args()

    docs, manifest = documents(args.corpus)
    kept = [d for d in docs if args.split in ("all", d.split)]
    wanted = {d.id for d in kept} | {
        ref for p in manifest["packets"] if args.split in ("all", p["split"]) for ref in p["documents"]
    }
    missing = [d.id for d in docs if d.id in wanted and not d.file.is_file()]
    if missing and args.present:
        print(f"{len(missing)} documents are not in {args.corpus}: left out, with the packets holding them")
        kept = [d for d in kept if d.id not in missing]
        manifest = {
            **manifest,
            "packets": [p for p in manifest["packets"] if not set(p["documents"]) & set(missing)],
        }
    elif missing:
        print(
            f"{len(missing)} documents are not in {args.corpus}: run bench/real_corpus.py --mirrors DIR first"
        )
        return 2
    present = {d.split for d in kept}
    splits = [s for s in SPLITS if args.split == s or (args.split == "all" and s in present)]
    if args.split == "all":
        splits.insert(len([s for s in splits if s in POOLED]), "all")
    categories = [Category(c["name"], c["description"]) for c in manifest["categories"]]
    by_id = {d.id: d for d in docs}

    started = time.perf_counter()
    pages_of = {
        d.id: read_receipt(d) if d.category == "receipt" else read(d.file.read_bytes(), d.kind) for d in kept
    }
    read_seconds = time.perf_counter() - started
    invoices = [d for d in kept if d.fields and d.category == "invoice"]
    receipts = [d for d in kept if d.category == "receipt"]
    counts = defaultdict(int)
    for d in kept:
        counts[(d.category, d.language, d.split)] += 1
    print(f"{len(kept)} documents read in {read_seconds:.1f} s ({len(invoices)} invoices with truth)")
    for (category, language, split_name), count in sorted(counts.items()):
        print(f"  {category:<24} {language}  {split_name:<8} {count}")

    results: dict[str, Any] = {"split": args.split, "documents": len(kept), "invoices": len(invoices)}
    figures = extraction(invoices, pages_of)
    report_extraction("Extraction, invoices (text layer)", figures, splits)
    results["extraction"] = _public(figures)
    results["sources"] = source_boxes(invoices)
    figures = classification([d for d in kept if d.category != "receipt"], pages_of, categories)
    report_classification("Classification (text layer)", figures, splits)
    results["classification"] = _public(figures)
    packets = [p for p in manifest["packets"] if args.split in ("all", p["split"])]
    figures = splitting(packets, by_id, categories)
    report_splitting(figures, splits)
    results["splitting"] = _public(figures)

    if receipts:
        results["receipts"] = receipt_extraction(receipts, pages_of)

    if args.scans:
        installed = set(ocr.installed_languages())
        started = time.perf_counter()
        scan_pages, scan_confidence = {}, {}
        for d in invoices:
            language = TESSERACT.get(d.language, "eng")
            languages = (language,) if language in installed else None
            scan = read_with_confidence(scanned(d.file.read_bytes()), "pdf", languages)
            scan_pages[d.id], scan_confidence[d.id] = scan
        print(f"\n{len(invoices)} scanned copies read with OCR in {time.perf_counter() - started:.1f} s")
        figures = extraction(invoices, scan_pages, scan_confidence)
        report_extraction(f"Extraction, invoices (scanned copies, {SCAN_DPI} dpi, OCR)", figures, splits)
        results["extraction_scans"] = _public(figures)
        figures = classification(invoices, scan_pages, categories)
        report_classification("Classification of the scanned invoices", figures, splits)
        results["classification_scans"] = _public(figures)

    if args.http:
        results["http"] = http_latency(invoices)

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
