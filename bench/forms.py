"""Form filling on real public PDF forms: does each value land in the field it was meant for?

    .venv/bin/python bench/real_corpus.py --mirrors DIR          # once: assemble .corpus/ (see there)
    .venv/bin/python bench/forms.py [--split tune|heldout|...|heldout37|all]
                                    [--corpus .corpus] [--json PATH] [--speed]

The forms are those of `bench/forms/manifest.json`, in thirty-eight splits reported apart: `tune`, the forms
read while changing the code; `heldout`, the first held-out forms; `heldout2`, forms of other sources
and layouts added later (US state returns and intake sheets, a Canadian federal return, German and
French university forms, commercial forms); `heldout3`, forms of yet other sources (Michigan benefit
applications, Michigan, Utah and Massachusetts court forms, a UK power of attorney, a form library's
one-page demo forms in Arabic, Chinese and Ukrainian), read since; `heldout4`, forms added later (UK
Office of the Public Guardian forms, IRS and state forms, a broker's form), read since; `heldout5`,
forms added in the fifth round (USCIS and immigration court forms, an FDA form, a school report card,
German health insurers' and a German university's forms, a French Cerfa, a Polish municipal
application), read since; `heldout6`, forms added in the sixth round (a US Social Security and Missouri
and New York State applications, a Medicare form, a French boat registration sheet, German associations'
applications and SEPA mandate, a broker's and a student organisation's forms), read since; `heldout7`,
forms added in the seventh round (Spanish university and commercial forms, a Minnesota health care
application, a Canadian tuition certificate, a French Cerfa, German association forms), read since (a
Chilean health notification filled with a named person's details first drawn with them was withdrawn: a
private person's own filled form is no document to keep in a test set); `heldout8`, forms added in the
eighth round (English commercial forms, US federal forms, one in Spanish, a German court form, a Japanese
form), read since (two French Cerfas first drawn with them, a company registration and a prior
declaration of works filled with real-looking persons' details, were withdrawn: a private person's own
filled form is no document to keep in a test set); `heldout9`, forms added in the ninth round (US
bankruptcy, Social Security, USCIS and state court forms, a library's shipping label, German club forms,
a French Cerfa and its annex), read since; `heldout10`, forms added in the tenth round (German legal aid
court forms, a US asylum form, a Spanish tax form, Italian, Dutch and Portuguese commercial forms...),
read since (a US labour certification filled for a named researcher's own immigration petition first
drawn with them was withdrawn: a private person's own filled form is no document to keep in a test set);
`heldout11`, forms added in the eleventh round (a Danish standard lease, a Norwegian motor claim report,
Swedish giro payment slips, an Italian enrolment form, a German student council's locker form, an ICAO
flight plan, a USCIS form, an Indian insurance quote, a US dealer's buyers guide), read since;
`heldout12`, forms added in the twelfth round (Massachusetts, Illinois and appeals court forms, a debt
collection lawyer's intake sheet), measured before and after that round's change and not read then, read
in the thirteenth (the UK family court's FL401 first drawn with them, which carried a private applicant's
own details, was withdrawn: a private person's own filled form is no document to keep in a test set);
`heldout13`, forms added in the thirteenth round (a bilingual Arabic and English travel application,
USCIS I-539, Ontario's bilingual health coverage registration, the Austrian Meldezettel, a German
football association's form, Italian energy contracts and an emergency medical sheet, a Colombian union's
membership form, a French bank details sheet, a US construction intake form), measured before that
round's changes and on the rules it tried, aggregates only, read in the fourteenth (a German university's
thesis application filled with a student's own details first drawn with them was withdrawn: a private
person's own filled form is no document to keep in a test set); `heldout14`, forms added in
the fourteenth round (Finnish tax forms in English and Finnish, a French Cerfa donation receipt, Swedish
social insurance medical certificates, IRS 4506-T, a US merchant application, a Korean labour contract,
a Louisiana asset form, a UK crew deal sheet, an employer's disciplinary form), measured before that
round's changes and after them, aggregates only, read in the fifteenth; `heldout15`, forms added in the
fifteenth round (a German private health insurer's application, a South African telecom reseller's sales
application, a clinical trial's adverse event report, a Canadian life insurance application), measured
before that round's changes and after them, aggregates only, read in the sixteenth (the forms of it then
in the corpus; USCIS I-130 filled with a petitioner's own details first drawn with them was withdrawn: a
private person's own filled form is no document to keep in a test set); `heldout16`, forms added in the
sixteenth round, files of repositories already mirrored (most of them used by other splits) that no
manifest listed (German health insurers' and club forms, a Polish association's declaration, USCIS I-821,
an immigration court's EOIR-61, Missouri, Massachusetts and US bankruptcy court forms, a life insurer's
request form), measured before that round's changes and after them, aggregates only, read in the
seventeenth; `heldout17`, forms added in the seventeenth round, files of repositories already mirrored
(all used by other splits) that no manifest listed (Missouri court and vital records forms, the
immigration court's EOIR-33, the US bankruptcy courts' B 2030, a juvenile court sheet, a German health
insurer's bonus applications, a German shooting club's registration, a Spanish university's payment
request), measured before that round's changes and after them, aggregates only, read in the eighteenth;
`heldout18`, forms added in the eighteenth round, files of repositories already mirrored that no manifest
listed (OSHA 301, a first page of USCIS I-129F, a Connecticut court appearance, Missouri court forms, a
New Jersey return's continuation sheet, German insurers' and a German club's forms, a trade agreement, a
Spanish service request), measured before that round's changes and after them, aggregates only, read in
the nineteenth; `heldout19`, forms added in the nineteenth round, files of repositories already mirrored
that no manifest listed (US bankruptcy Official Forms 103A, 121, 108 and 106G, Massachusetts child
support affidavits, an Illinois fee waiver order, a French INPI trademark Cerfa, a French solar
installer's planning letter, a Swiss bank's power of attorney, an Italian pro forma invoice), measured
before that round's changes and after them, aggregates only, read in the twentieth (USCIS I-907 filled
for a named researcher's own petition first drawn with them was withdrawn: a private person's own filled
form is no document to keep in a test set); `heldout20`, forms added in the
twentieth round, files of repositories already mirrored (all used by other splits) that no manifest
listed (Pennsylvania's MV-105, the US National Medical Support Notice, SSA-634, the US bankruptcy
courts' Official Form 101A, a Missouri dissolution judgment, a Massachusetts 209A complaint page, an
insurer's driver interview certificate, a German makerspace's membership application), measured before
that round's changes and after them, aggregates only, read in the twenty-first; `heldout21`, forms added
in the twenty-first round, files of repositories already mirrored (all used by other splits) that no
manifest listed (Arizona's and Maryland's payment vouchers, the US bankruptcy courts' Official Form
122A-1, USCIS I-765 of 2017, Illinois' fee waiver application, a California vehicle lease, a broker's cost
basis form, a German makerspace's expense claim), measured before that round's changes and after them,
aggregates only; `heldout22`, forms added in the twenty-second round, files of repositories
already mirrored that no manifest listed (Idaho, Maryland and Arizona tax forms, a PDF library's demo
forms in Polish, Korean, Swedish and Portuguese), measured before that round's changes, aggregates only;
`heldout23`, forms added in the twenty-third round, files that no manifest listed, all but two of
repositories other splits use (US bankruptcy Schedules D and H, USCIS I-765 of 2025, a Massachusetts
209A affidavit page, the Finnish tax form 8A in English, the Quebec CNESST's accident investigation
form, a Spanish football club's registration sheets), measured once, aggregates only; `heldout24`, forms
added in the twenty-fourth round, files that no manifest listed, most of repositories other splits use
(New York State's school health examination form, a camp programme's medical history form, a training
company's purchase order, California's caregiver's authorization affidavit, the US bankruptcy courts'
Official Form 106Dec, the Colombian National Protection Unit's displacement request, a Spanish football
club's registration sheet, a Kenyan safari operator's service agreement in German, an Italian energy
supplier's retail proposal), measured once, aggregates only; `heldout25`, forms added in the
twenty-fifth round, files that no manifest listed, all of repositories other splits use, most of them
removed from their repository since (the US bankruptcy courts' Official Form 122A-2, New York State's
IT-213-ATT and TR-579-IT, a camp's medical examination form, the Massachusetts civil action cover
sheet and a Probate and Family Court motion, the University of Freiburg's assistant hiring request,
the Saxon Football Association's player permit application, a Spanish football club's registration
sheet), measured once, aggregates only; `heldout26`, forms added in the twenty-sixth round, files that
no manifest listed, all of repositories other splits use, most of them removed from their repository
since (Missouri's parenting plan CAFC501, the US bankruptcy courts' Official Form 107, Maryland's
Forms 502CR and 502R, the Massachusetts affidavit disclosing care or custody proceedings, a Spanish
football club's registration sheets, a Berlin grammar school's course plan, the University of Ulm's
travel reimbursement request in English), measured once, aggregates only; `heldout27`, forms added in
the twenty-seventh round, files that no manifest listed, all of repositories other splits use (the US
bankruptcy courts' Schedules A/B and E/F, the first page of the Massachusetts 209A complaint and the
FA-13 motion to modify an abuse prevention order, a community centre camp's medical form, the
University of Freiburg's tutor application and graduation ceremony registration, a Kenyan safari
operator's invoice in German, a Spanish football club's campus registration sheet and image rights
clause), measured once, aggregates only; `heldout28`, forms added in the twenty-eighth round, files that
no manifest listed, two of a repository no bench used before (a German citizens' broadcaster's user
registration card and Saxony-Anhalt's open channels' single permit application, a blank Swedish PlusGirot
payment slip, IRS Schedules 8812 and EIC of 2021, a volunteer tax service's taxpayer consent, the US
bankruptcy courts' Schedule I, a Massachusetts motion for a minor's temporary guardian and a 209A
impoundment motion), measured once, aggregates only (the University of Ulm's business travel application
first drawn with them, filled with an employee's own address and bank account, was withdrawn: a private
person's own filled form is no document to keep in a test set); `heldout29`, forms added in the
twenty-ninth round, files that no manifest listed, most of them other copies or editions of forms other
splits have, chosen for tooltips or names that are the printed captions (the University of Freiburg's
assistant hiring request with some values, the Massachusetts Housing Court's temporary restraining order
complaint and a petition to seal juvenile and criminal records, a Universidad de Alcalá department's
collaboration payment request, IRS Form 1040 of 2021, a Swiss oxygen prescription, an Italian energy
supplier's business proposal, Missouri's birth and death certificate request made in Word, a LiveCycle
SS-5), measured once, aggregates only (the French pleasure-boat registration sheet filled with an owner's
own name and address first drawn with them was withdrawn: a private person's own filled form is no
document to keep in a test set); `heldout30`, forms added in the thirtieth round, files that no
manifest listed, four of them of repositories no bench used before, chosen for tooltips or names that
are the printed captions (the Spanish Social Security's self-employed registration TA.0521 and the
Ministry of Justice's General Archive consultation request, the French apprenticeship contract Cerfa
10103 made in Word and a company donation receipt Cerfa 16216, an Italian energy supplier's household
proposal, USCIS I-821 of 2025, Maryland's 502SU and Arizona's AZ-8879 of 2023, iText's state fact sheet
made in Word, a camp's medical form filled as an example), measured once, aggregates only; `heldout31`,
forms added in the thirty-first round, files that no manifest listed, all of repositories other splits
use, most of them other copies or versions of forms other splits have, chosen for tooltips or names that
are the printed captions (the Universidad de Alcalá's collaboration payment request filled by a tool, the
Polish PIT-2 statement, an Italian energy supplier's household proposal with corrected fields, the French
refrigerant handling certificate Cerfa 15497 made in LibreOffice, New York State's IT-214 of 2022, IRS
Form 13614-C of 2021, New York State's school health examination form filled as an example, a German
student council's locker form), measured once, aggregates only (the University of Ulm's travel expense
claim with an employee's own address and bank account and a life insurance brokerage's request with
insured persons' birth dates and telephones first drawn with them were withdrawn: a private person's own
filled form is no document to keep in a test set); `heldout32`, forms added in the
thirty-second round, files that no manifest listed, two of a repository no bench used before, the others
other copies or editions of forms other splits have, chosen for tooltips or names that are the printed
captions (the Spanish migration office's EX-15 NIE application and EX-18 EU citizen registration,
Maryland's Form 502 and New Jersey's NJ-2450 of 2023, IRS Form 13614-C of 2022, the French apprenticeship
contract Cerfa 10103 filled by a tool, a voided Swedish FK 7443 temporary parental benefit certificate,
the Spanish Ministry of Justice's General Archive consultation request filled with test values),
measured once, aggregates only; `heldout33`, forms added in the thirty-third round, files that no
manifest listed, six of them of three repositories no bench used before, chosen for tooltips or names
that are the printed captions (the Finnish population agency's marriage impediment examination
certificate in Finnish and Swedish and its certificate of capacity to marry abroad in English, the Dutch
Tax Administration's wage tax details form LH 008, a Spanish training company's course record sheet and
attendance form, three Utah court forms made in Word with the fields Acrobat detected on them), measured
once, aggregates only; `heldout34`, forms added in the thirty-fourth round, files that no manifest
listed, three of two repositories no bench used before, the others other editions or copies of forms
other splits have, chosen for tooltips or names that are the printed captions (a document API's invoice
made in Excel, USCIS I-765 of 2022, the Finnish population agency's marriage impediment examination
certificate in Northern Sami and its certificate of capacity to marry abroad in Finnish and Swedish, the
French apprenticeship contract Cerfa 10103 filled by a tool with no apprentice, a Spanish vocational
training course's annexes I and II on occupational risk prevention made in Word, the Dutch wage tax
details form LH 008 filled with test values), measured once, aggregates only; `heldout35`, forms added in
the thirty-fifth round, files that no manifest listed, one of a repository no bench used before, the
others other copies or editions of forms other splits have, chosen for tooltips or names that are the
printed captions (the Polish social insurer ZUS's EWYP accident notification, the Spanish TGSS's TA.0521
filled with test values, the UK FL401 filled for a made-up applicant, New York State's DOH-4220 filled
with test values, the Canadian T2202 in its LiveCycle edition, a sport flight plan made in Word, USCIS
I-485 of 2023 unlocked, an office suite's PDF form example filled by pdf-lib), measured once, aggregates
only; `heldout36`, forms added in the thirty-sixth round, files that no manifest listed, two of a
repository no bench used before and one of an issuer no split had, the others other copies or editions of
forms other splits have (the French Cerfas 13703 prior declaration of works and 13406 house building permit
filled with test values, a German health insurer's family insurance questionnaire, a clinical trial's
adverse event report filled with test values, USCIS I-129F of 2018, a life insurance brokerage's
application request, the SS-5 filled at a hackathon, two Utah court forms made in Word with the fields
Acrobat detected on them, iText's state fact sheet filled for California), measured once, aggregates
only; `heldout37`, forms added in the thirty-seventh round, files that no manifest listed, eight of four
repositories no bench used before, seven of them of issuers no split had, chosen for tooltips or names
that are the printed captions (Polish banks' income and employment certificates, mortgage application and
its supplement, a French students' union federation's mileage reimbursement form and proxy letter made in
Word, the Spanish Modelo 145 of 2024, a Dutch job seekers' portal's network meeting form, the CDC's ICAR
tool with the facility type chosen and USCIS I-140 filled with test values), measured once, aggregates
only. A form missing from the corpus is left out, and the run
says how many were.

Their truth does not come from the detector: each text field or check box widget with a tooltip
(/TU), or else a name of words ("FirstName"), is a field given, its label that tooltip or name; a label
two widgets share is left out (nobody could tell which is meant), and so are read-only, hidden and
zero-sized widgets and check boxes that share a name.
The instructions are "<label>: <value>" lines, a made-up value of the label's kind for each (a name, a
date, an amount, an address... in the form's language; a check box gets the language's "yes"). A value
cut to a widget's maximum length loses the spaces it then ends in, as the instruction line is read
without them.

Two paths are measured, with the same instructions:
- AcroForm: `form_fields` + `field_values` + `filled` on the form as it is; a field is right when the
  value given is the value of its widget afterwards (a check box: on), wrong when the widget holds
  something else or the value went to another widget, missing when the widget stayed empty.
- layout: the same form with its widgets emptied and baked into the page (a blank printed form, no
  AcroForm left), text fields only; a field is right when the value's text, searched for on the filled
  page, lies mostly (half of its box or more) inside the original widget's box, wrong when it is found
  elsewhere only, missing when it is not found. Two truths, both reported:
  - tooltip truth: every text field given, labelled by its tooltip. The words printed on the page are
    often not the tooltip's, and a person filling the flat form would not write them, so this measures
    label matching across wordings as much as the layout detection;
  - printed truth (fairer): only the fields whose tooltip, or a substantial run of its words, is printed
    next to the widget's box (left of it on its line within 150 points, on the line just above it or in
    its top part, or else just under it), the printed words the instruction's label; a printed label
    two fields share is left out. It is read from the page's words here, not from the detector's label
    code, and keeps fewer fields (the count of each truth is its "given" column).
Every filled PDF is opened again with PyMuPDF and must keep its widgets (AcroForm path). Times are per
form, for the three steps together. Figures go per split, category and language. `--speed` times the
detection alone on the baked forms instead (best of three per form, per page and per form).
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.documents.forms import FoundField, filled, form_fields  # noqa: E402
from docsvc.intelligence.form_filling import field_values  # noqa: E402

from bench.real_corpus import FORMS_MANIFEST, corpus_arguments, corpus_path, load_manifest  # noqa: E402

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

TEXT, CHECKBOX = 7, 2  # PyMuPDF's widget types
READ_ONLY, HIDDEN = 1, 2  # a field's /Ff bit, an annotation's /F bit
YES = {
    "en": "yes",
    "de": "ja",
    "fr": "oui",
    "es": "sí",
    "ja": "はい",
    "ar": "نعم",
    "zh": "是",
    "uk": "так",
    "pl": "tak",
    "it": "sì",
    "nl": "ja",
    "pt": "sim",
    "da": "ja",
    "nb": "ja",
    "sv": "ja",
    "se": "juo",
    "fi": "kyllä",
    "ko": "예",
}
NAMES = {
    "en": ["Jane Roe", "John Smith", "Maria Garcia", "David Chen", "Laura Miller", "Peter Brown"],
    "de": ["Anna Schmidt", "Jürgen Müller", "Petra Weiß", "Lukas Becker", "Sabine Krüger", "Tobias Schäfer"],
    "fr": [
        "Élodie Martin",
        "François Dubois",
        "Hélène Girard",
        "Jérôme Lefèvre",
        "Chloé Bernard",
        "Noël Petit",
    ],
    "es": ["María López", "José Martínez", "Lucía Sánchez", "Álvaro Pérez", "Nuria Gómez", "Íñigo Ruiz"],
    "ja": ["山田 太郎", "佐藤 花子", "鈴木 一郎", "高橋 美咲", "田中 健", "伊藤 さくら"],
    "ar": ["أحمد خالد", "فاطمة علي", "يوسف حسن", "مريم سعيد", "عمر نبيل", "ليلى كريم"],
    "zh": ["王 小明", "李 娜", "张 伟", "刘 洋", "陈 静", "杨 磊"],
    "uk": ["Олена Коваль", "Тарас Шевчук", "Ірина Бондар", "Андрій Мельник", "Оксана Ткач", "Богдан Кравець"],  # noqa: RUF001
    "pl": [
        "Agnieszka Wójcik",
        "Łukasz Zieliński",
        "Małgorzata Król",
        "Paweł Dąbrowski",
        "Zofia Kowalczyk",
        "Jakub Nowak",
    ],
    "it": [
        "Giulia Rossi",
        "Niccolò Bianchi",
        "Chiara Esposito",
        "Marco Ricci",
        "Francesca Romano",
        "Luca Colombo",
    ],
    "nl": ["Sanne de Vries", "Joost van Dijk", "Eline Bakker", "Bram Janssen", "Femke Visser", "Daan Smit"],
    "pt": ["João Silva", "Inês Costa", "Tiago Ferreira", "Beatriz Sousa", "Gonçalo Pereira", "Mariana Gomes"],
    "da": ["Søren Jørgensen", "Mette Hansen", "Anders Nielsen", "Line Møller", "Jens Kjær", "Ida Sørensen"],
    "nb": ["Ola Nordmann", "Kari Bø", "Håkon Lie", "Ingrid Dahl", "Øystein Berg", "Sigrid Haugen"],
    "sv": ["Anna Svensson", "Erik Lindström", "Åsa Berg", "Lars Öberg", "Karin Ekström", "Johan Nilsson"],
    "se": ["Máret Sara", "Niillas Somby", "Ánne Gaup", "Ovllá Magga", "Inga Eira", "Jovnna Länsman"],
    "fi": [
        "Aino Mäkinen",
        "Jussi Virtanen",
        "Päivi Järvinen",
        "Mikko Häkkinen",
        "Satu Lehtonen",
        "Ville Nieminen",
    ],
    "ko": ["김 민준", "이 서연", "박 지훈", "최 수빈", "정 예준", "강 하은"],
}
CITIES = {
    "en": ["Springfield", "Portland", "Madison"],
    "de": ["München", "Köln", "Düsseldorf"],
    "fr": ["Lyon", "Besançon", "Orléans"],
    "es": ["Sevilla", "Málaga", "Córdoba"],
    "ja": ["東京都", "大阪市", "京都市"],
    "ar": ["القاهرة", "عمّان", "بيروت"],
    "zh": ["北京市", "上海市", "广州市"],
    "uk": ["Київ", "Львів", "Одеса"],
    "pl": ["Wrocław", "Kraków", "Łódź"],
    "it": ["Torino", "Forlì", "Cantù"],
    "nl": ["Utrecht", "Den Haag", "Zwolle"],
    "pt": ["Lisboa", "Évora", "Braga"],
    "da": ["Århus", "Køge", "Odense"],
    "nb": ["Tromsø", "Bodø", "Bergen"],
    "sv": ["Göteborg", "Malmö", "Umeå"],
    "se": ["Kárášjohka", "Guovdageaidnu", "Ohcejohka"],
    "fi": ["Jyväskylä", "Hämeenlinna", "Oulu"],
    "ko": ["서울특별시", "부산광역시", "대구광역시"],
}
STREETS = {
    "en": "{n} Oak Street",
    "de": "Hauptstraße {n}",
    "fr": "{n} rue de la Paix",
    "es": "Calle Mayor {n}",
    "ja": "千代田区{n}丁目",
    "ar": "شارع النيل {n}",
    "zh": "长安街{n}号",
    "uk": "вул. Хрещатик, {n}",
    "pl": "ul. Świdnicka {n}",
    "it": "Via Roma {n}",
    "nl": "Dorpsstraat {n}",
    "pt": "Rua Augusta {n}",
    "da": "Søndergade {n}",
    "nb": "Storgata {n}",
    "sv": "Storgatan {n}",
    "se": "Beaivvášgeaidnu {n}",
    "fi": "Mannerheimintie {n}",
    "ko": "세종대로 {n}",
}
KINDS = [  # the kind of a label's value, from its words
    ("email", re.compile(r"e-?mail|courriel|correo", re.I)),
    ("phone", re.compile(r"phone|telefon|téléphone|teléfono|tel\b|fax|電話", re.I)),
    (
        "ssn",
        re.compile(
            r"social security|\bssn\b|taxpayer identification|\bein\b|\btin\b|identifikationsnummer|\bnif\b",
            re.I,
        ),
    ),
    ("zip", re.compile(r"\bzip|postal|postleitzahl|\bplz\b|code postal|código postal|郵便", re.I)),
    ("date", re.compile(r"date|datum|fecha|\bmm\b|yyyy|生年月日|日付", re.I)),
    ("city", re.compile(r"\bcity\b|\btown\b|\bort\b|ville|ciudad|localidad|municipio", re.I)),
    ("street", re.compile(r"address|street|straße|strasse|anschrift|adresse|dirección|domicilio|住所", re.I)),
    ("name", re.compile(r"name|nombre|apellido|\bnom\b|prénom|vorname|名前|氏名", re.I)),
    (
        "amount",
        re.compile(r"amount|total|\bline\b|income|tax|wages|\$|payment|betrag|montant|importe|credit", re.I),
    ),
]
SPLITS = (  # in order
    "tune",
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout17",
    "heldout18",
    "heldout19",
    "heldout20",
    "heldout21",
    "heldout22",
    "heldout23",
    "heldout24",
    "heldout25",
    "heldout26",
    "heldout27",
    "heldout28",
    "heldout29",
    "heldout30",
    "heldout31",
    "heldout32",
    "heldout33",
    "heldout34",
    "heldout35",
    "heldout36",
    "heldout37",
)
MEANINGLESS = re.compile(
    r"^(?:[a-z]{0,4}[\d_.\-]+|text\s*\d*|field\s*\d*|check\s*box\s*\d*|untitled.*)$", re.I
)


# ----------------------------------------------------------------------------------------- truth
@dataclass
class Given:
    """A field the instructions fill: its widget and the value meant for it."""

    xref: int
    name: str
    page: int  # 0-based
    rect: tuple[float, float, float, float]
    kind: str  # "text" or "checkbox"
    label: str
    value: str
    printed: str = ""  # the words printed next to the box that say its tooltip, if any (see `printed`)


def _label(widget: pymupdf.Widget) -> str:
    tooltip = " ".join(str(widget.field_label or "").split())
    name = str(widget.field_name or "")
    if tooltip and tooltip != name and any(char.isalpha() for char in tooltip):
        return tooltip
    last = re.sub(r"\[\d+\]", "", name).rsplit(".", 1)[-1]
    words = " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])|[_\-]+", " ", last).split())
    if MEANINGLESS.match(words) or sum(char.isalpha() for char in words) < 3:
        return ""
    return words


def _grouped(document: pymupdf.Document, xref: int) -> bool:
    kind, parent = document.xref_get_key(xref, "Parent")
    if kind != "xref":
        return False
    kind, kids = document.xref_get_key(int(parent.split()[0]), "Kids")
    return kind == "array" and kids.count(" R") > 1


def _value(label: str, kind: str, language: str, number: int) -> str:
    if kind == "checkbox":
        return YES.get(language, "yes")
    name = next((kind for kind, pattern in KINDS if pattern.search(label)), "word")
    if name == "email":
        return f"person{number}@example.org"
    if name == "phone":
        return f"555-01{number % 100:02d}"
    if name == "ssn":
        return f"123-45-{6000 + number}"
    if name == "zip":
        return f"{10000 + 137 * number}"
    if name == "date":
        day, month = number % 28 + 1, number % 12 + 1
        return f"{month:02d}/{day:02d}/1987" if language == "en" else f"{day:02d}.{month:02d}.1987"
    if name == "city":
        return f"{CITIES[language][number % 3]} {number}"
    if name == "street":
        return STREETS[language].format(n=number + 2)
    if name == "name":
        return f"{NAMES[language][number % 6]} {number}"
    if name == "amount":
        return f"{1000 + 37 * number:,}.{number % 100:02d}"
    return f"Sample {number}"


def _cut(value: str, length: int) -> str:
    """A value cut to a widget's maximum length, without the spaces it then ends in: the instruction
    "<label>: <value>" is read without its trailing spaces, as a person's would be, so a value kept
    with them ("Sample " of "Sample 12") would count the widget's right "Sample" as wrong."""
    return value[:length].rstrip()


def truth(content: bytes, language: str) -> list[Given]:
    """The fields given, and their values."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        found: list[tuple[pymupdf.Widget, int, str]] = []
        names: dict[str, int] = defaultdict(int)
        for page in document:
            for widget in page.widgets():
                names[widget.field_name] += 1
                if widget.field_type not in (TEXT, CHECKBOX) or widget.field_flags & READ_ONLY:
                    continue
                if widget.rect.is_empty or widget.rect.width < 4 or widget.rect.height < 4:
                    continue
                if document.xref_get_key(widget.xref, "F")[1].isdigit() and (
                    int(document.xref_get_key(widget.xref, "F")[1]) & HIDDEN
                ):
                    continue
                if widget.field_type == CHECKBOX and _grouped(document, widget.xref):
                    continue  # one of several boxes of one field: they are ticked one at a time
                label = _label(widget)
                if label:
                    found.append((widget, page.number, label))
        labels: dict[str, int] = defaultdict(int)
        for _, _, label in found:
            labels[label.lower()] += 1
        given: list[Given] = []
        for widget, page_number, label in found:
            if labels[label.lower()] > 1 or names[widget.field_name] > 1:
                continue
            kind = "checkbox" if widget.field_type == CHECKBOX else "text"
            value = _value(label, kind, language, len(given) + 1)
            if kind == "text" and widget.text_maxlen and len(value) > widget.text_maxlen:
                value = _cut(value, widget.text_maxlen)
            rect = (widget.rect.x0, widget.rect.y0, widget.rect.x1, widget.rect.y1)
            given.append(Given(widget.xref, widget.field_name, page_number, rect, kind, label, value))
        return given


_PRINTED_REACH = 150.0  # points left of a box its label's nearest word may end
_PRINTED_GAP = 24.0  # points between two words of one label on a line
_PRINTED_ABOVE = 14.0  # points above a box (besides its height) its label's line may end


_PRINTED_STOP = frozenset(
    {"a", "an", "and", "any", "for", "if", "in", "of", "on", "or", "the", "to", "your", "you", "s"}
)


def _tokens(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text.casefold())
    return re.findall(r"[^\W_]+", "".join(char for char in folded if not unicodedata.combining(char)))


def _near_words(words: list[tuple], rect: tuple[float, ...], boxes: list[tuple[float, ...]]) -> list[list]:
    """The printed lines a person reads as a box's label: the words left of it on its line (up to a
    wide gap or another box), the nearest line above it that overlaps it (a caption printed in the
    box's top part counts), and the nearest line under it (a caption under a rule)."""
    x0, y0, x1, y1 = rect
    middle = (y0 + y1) / 2
    level = sorted(
        (word for word in words if word[1] - 2 <= middle <= word[3] + 2 and word[2] <= x0 + 2),
        key=lambda word: -word[2],
    )
    left: list = []
    edge, reach = x0, _PRINTED_REACH
    for word in level:
        if edge - word[2] > reach or any(
            box[1] - 2 <= middle <= box[3] + 2
            and word[2] - 2 <= box[0]
            and box[2] <= edge + 2
            and box != rect
            for box in boxes
        ):
            break
        left.insert(0, word)
        edge, reach = word[0], _PRINTED_GAP
    over = [word for word in words if word[0] < x1 and word[2] > x0 - 4]
    above = [word for word in over if y0 - _PRINTED_ABOVE - (y1 - y0) <= word[3] <= middle + 2]
    if above:
        nearest = max(word[3] for word in above)
        above = sorted((word for word in above if word[3] >= nearest - 4), key=lambda word: word[0])
    below = [word for word in over if y1 - 2 <= word[1] <= y1 + _PRINTED_ABOVE]
    if below:
        nearest = min(word[1] for word in below)
        below = sorted((word for word in below if word[1] <= nearest + 4), key=lambda word: word[0])
    return [line for line in (left, above, below) if line]


def _printed_run(label: str, line: list) -> tuple[int, str] | None:
    """The printed words of a line that say the label: a run of the label's words in their order, kept
    when it is the whole label or a substantial part of it (three words or more, or two that are half
    of it, two of them at least not "the", "of", "your"... nor a letter). Of those, the run nearest the
    label's end (a tooltip ends with the field's own words, "Part 3. Information About... 1.a. Family
    Name"; it opens with its section's), the longest at that; with how many words of the label follow it,
    and the printed text of the run as it reads on the page."""
    wanted = _tokens(label)
    printed = [(token, index) for index, word in enumerate(line) for token in _tokens(word[4])]
    best: tuple[int, int, int] | None = None  # words of the label after the run, minus its size, start
    for at in range(len(printed)):
        for begin in range(len(wanted)):
            size = 0
            while (
                at + size < len(printed)
                and begin + size < len(wanted)
                and printed[at + size][0] == wanted[begin + size]
            ):
                size += 1
            telling = sum(
                1 for token, _ in printed[at : at + size] if len(token) >= 2 and token not in _PRINTED_STOP
            )
            whole = size == len(wanted) and telling >= 1
            if not whole and not (telling >= 2 and (size >= 3 or 2 * size >= len(wanted))):
                continue
            key = (len(wanted) - begin - size, -size, at)
            if best is None or key < best:
                best = key
    if best is None:
        return None
    after, size, start = best[0], -best[1], best[2]
    run = line[printed[start][1] : printed[start + size - 1][1] + 1]
    text = " ".join(" ".join(str(word[4]) for word in run).split()).strip(" .:,;")
    return (after, text) if sum(char.isalpha() for char in text) >= 2 else None


def printed(content: bytes, given: list[Given]) -> list[Given]:
    """The fields a person filling the printed form can name: those whose tooltip (or a substantial run
    of its words) is printed next to the widget's box, left of it on its line, on the line just above
    (or in the box's top part), or just under it, that printed text their label (the run nearest the
    tooltip's end; on a tie, left before above before under); a printed label
    two fields share is left out. Read from the page's own words, not from the detector."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        pages: dict[int, tuple[list[tuple], list[tuple[float, ...]]]] = {}
        found: list[Given] = []
        for item in given:
            if item.kind != "text":
                continue
            if item.page not in pages:
                page = document[item.page]
                boxes = [tuple(widget.rect) for widget in page.widgets()]
                words = [tuple(word[:5]) for word in page.get_text("words")]  # no widget's value
                pages[item.page] = words, boxes
            words, boxes = pages[item.page]
            runs = [
                run
                for line in _near_words(words, item.rect, boxes)
                if (run := _printed_run(item.label, line))
            ]
            if runs:  # the line whose run comes nearest the label's end; the nearer line on a tie
                found.append(replace(item, printed=min(runs, key=lambda run: run[0])[1]))
    counts: dict[str, int] = defaultdict(int)
    for item in found:
        counts[" ".join(_tokens(item.printed))] += 1
    return [item for item in found if counts[" ".join(_tokens(item.printed))] == 1]


def instructions(given: list[Given], printed_labels: bool = False) -> str:
    return "\n".join(f"{item.printed if printed_labels else item.label}: {item.value}" for item in given)


# ------------------------------------------------------------------------------------------ runs
@dataclass
class Outcome:
    given: int = 0
    right: int = 0
    wrong: int = 0
    missing: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)  # the labels whose value did not land, to read

    def count(self, verdict: str, label: str) -> None:
        """One field more that is "right", "wrong" or "missing"."""
        setattr(self, verdict, getattr(self, verdict) + 1)
        if verdict != "right":
            self.misses.append(label)


def fill(content: bytes, text: str) -> tuple[bytes, list[FoundField], float]:
    started = time.perf_counter()
    fields = form_fields(content)
    values = field_values([(item.key, item.description, item.type) for item in fields], text)
    out = filled(content, [replace(item, value=values.get(item.key)) for item in fields])
    return out, fields, time.perf_counter() - started


def acroform_path(content: bytes, given: list[Given]) -> Outcome:
    outcome = Outcome(given=len(given))
    out, _, outcome.seconds = fill(content, instructions(given))
    with pymupdf.open(stream=content, filetype="pdf") as before:
        widgets_before = sum(1 for page in before for _ in page.widgets())
    with pymupdf.open(stream=out, filetype="pdf") as document:
        values: dict[int, Any] = {}
        for page in document:
            for widget in page.widgets():
                values[widget.xref] = widget.field_value
        if len(values) != widgets_before:
            outcome.problems.append(f"{widgets_before} widgets before filling, {len(values)} after")
        if not document.is_form_pdf:
            outcome.problems.append("no AcroForm after filling")
    placed = {str(value) for value in values.values() if value not in (None, "", False, "Off")}
    for item in given:
        value = values.get(item.xref)
        if item.kind == "checkbox":
            outcome.count("right" if value not in (None, "", False, "Off") else "missing", item.label)
        elif str(value or "") == item.value:
            outcome.count("right", item.label)
        else:
            outcome.count(
                "wrong" if value not in (None, "") or item.value in placed else "missing", item.label
            )
    return outcome


def flattened(content: bytes) -> bytes:
    """The form with its widgets baked into its pages, emptied first: a blank printed form, no AcroForm
    (a value the form came with would be printed on the blank, which is then no blank)."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        for page in document:
            for widget in page.widgets():
                if widget.field_type == TEXT and widget.field_value:
                    widget.field_value = " "  # an empty value leaves the old appearance
                    widget.update()
        document.bake(annots=False, widgets=True)
        return bytes(document.tobytes(garbage=1))


def layout_path(content: bytes, given: list[Given], printed_labels: bool = False) -> Outcome:
    texts = [item for item in given if item.kind == "text"]
    outcome = Outcome(given=len(texts))
    flat = flattened(content)
    out, _, outcome.seconds = fill(flat, instructions(texts, printed_labels))
    with pymupdf.open(stream=out, filetype="pdf") as document:
        if any(True for page in document for _ in page.widgets()):
            outcome.problems.append("widgets left after baking")
        for item in texts:
            found = _found(document, item.value)
            inside = [
                (page, rect)
                for page, rect in found
                if page == item.page and _share_inside(rect, item.rect) >= 0.5
            ]
            label = item.printed if printed_labels else item.label
            outcome.count("right" if inside else "wrong" if found else "missing", label)
    return outcome


def _found(document: pymupdf.Document, value: str) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Where the value's text is on the pages (its first word when the whole was wrapped or cut)."""
    hits: list[tuple[int, tuple[float, float, float, float]]] = []
    for needle in (value, value.split()[0] if value.split() else value):
        for page in document:
            for rect in page.search_for(needle):
                hits.append((page.number, (rect.x0, rect.y0, rect.x1, rect.y1)))
        if hits:
            break
    return hits


def _share_inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> float:
    width = min(inner[2], outer[2]) - max(inner[0], outer[0])
    height = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return width * height / area if width > 0 and height > 0 and area > 0 else 0.0


# --------------------------------------------------------------------------------------- report
PATHS = {
    "acroform": "AcroForm path (values into widgets)",
    "layout": "Layout path, tooltip truth (widgets baked into the page; text fields, labelled by tooltip)",
    "printed": "Layout path, printed truth (text fields whose tooltip is printed by the box, labelled so)",
}


def _row(name: str, outcomes: list[Outcome]) -> str:
    given = sum(outcome.given for outcome in outcomes)
    right = sum(outcome.right for outcome in outcomes)
    wrong = sum(outcome.wrong for outcome in outcomes)
    missing = sum(outcome.missing for outcome in outcomes)
    times = [outcome.seconds for outcome in outcomes]
    share = f"{100 * right / given:5.1f}%" if given else "    -"
    median = statistics.median(times) if times else 0.0
    return (
        f"{name:28s} {len(outcomes):5d} {given:6d} {right:6d} {wrong:6d} {missing:7d} {share:>7s}"
        f" {median:8.3f} {max(times, default=0.0):8.3f}"
    )


def _table(title: str, results: list[dict[str, Any]], path: str) -> list[str]:
    lines = [
        f"{title}",
        f"{'':28s} {'forms':>5s} {'given':>6s} {'right':>6s} {'wrong':>6s} {'missing':>7s} {'right%':>7s}"
        f" {'median s':>8s} {'max s':>8s}",
    ]
    for split in SPLITS:
        chosen = [result for result in results if result["split"] == split]
        if not chosen:
            continue
        lines.append(_row(f"{split}", [result[path] for result in chosen]))
        for key in ("category", "language"):
            for value in sorted({result[key] for result in chosen}):
                group = [result[path] for result in chosen if result[key] == value]
                lines.append(_row(f"  {split} {key}={value}", group))
    return lines


def detection_speed(documents: list[dict[str, Any]], corpus: Path) -> list[str]:
    """How long finding the fields of each baked form takes (the layout path's detection alone), best
    of three: milliseconds a page at the median and for the slowest page, seconds a form likewise."""
    per_page: list[float] = []
    per_form: list[float] = []
    processor = 0.0  # CPU seconds, best of three per form: steadier than the clock on a busy machine
    for document in documents:
        flat = flattened(corpus_path(corpus, str(document["repo"]), str(document["path"])).read_bytes())
        with pymupdf.open(stream=flat, filetype="pdf") as opened:
            pages = opened.page_count
        best, best_cpu = float("inf"), float("inf")
        for _ in range(3):
            started, started_cpu = time.perf_counter(), time.process_time()
            form_fields(flat)
            best = min(best, time.perf_counter() - started)
            best_cpu = min(best_cpu, time.process_time() - started_cpu)
        per_form.append(best)
        per_page += [best / max(pages, 1)] * pages
        processor += best_cpu
    return [
        f"Finding the fields of {len(documents)} baked forms ({len(per_page)} pages), best of three:",
        f"  {statistics.median(per_page) * 1000:.1f} ms a page at the median, "
        f"{max(per_page) * 1000:.0f} ms for the slowest form's pages (a form's time over its pages)",
        f"  {statistics.median(per_form):.3f} s a form at the median, {max(per_form):.2f} s for the slowest",
        f"  CPU time: {processor:.2f} s in all, {processor / max(len(per_page), 1) * 1000:.1f} ms a page",
    ]


def forms_of(split: str) -> list[dict[str, Any]]:
    """The forms of the manifest in `split` ("all": every one)."""
    return [document for document in load_manifest(FORMS_MANIFEST) if split in ("all", document["split"])]


def main() -> int:
    parser = corpus_arguments(__doc__, SPLITS)
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--misses", action="store_true", help="print the labels that did not land")
    parser.add_argument("--speed", action="store_true", help="time the detection on the baked forms only")
    parser.set_defaults(split="all")
    args = parser.parse_args()
    documents = forms_of(args.split)
    missing = [
        document
        for document in documents
        if not corpus_path(args.corpus, str(document["repo"]), str(document["path"])).is_file()
    ]
    if missing:  # measured on the forms present; the figures then say so
        print(f"{len(missing)} forms are not in {args.corpus} and are left out (real_corpus.py fetches them)")
        documents = [document for document in documents if document not in missing]
    if args.speed:
        print("\n".join(detection_speed(documents, args.corpus)))
        return 0
    results: list[dict[str, Any]] = []
    for document in documents:
        content = corpus_path(args.corpus, str(document["repo"]), str(document["path"])).read_bytes()
        given = truth(content, str(document["language"]))
        result = {key: document[key] for key in ("id", "split", "category", "language")}
        result["acroform"] = acroform_path(content, given)
        result["layout"] = layout_path(content, given)
        result["printed"] = layout_path(content, printed(content, given), printed_labels=True)
        results.append(result)
        for path in PATHS:
            outcome = result[path]
            for problem in outcome.problems:
                print(f"PROBLEM {document['id']} ({path}): {problem}")
            if args.misses and outcome.misses:
                missed = "; ".join(label[:60] for label in outcome.misses[:8])
                print(f"{document['id']} ({path}) missed: {missed}")
    print()
    for path, title in PATHS.items():
        print("\n".join(_table(title, results, path)))
        print()
    if args.json:
        payload = [
            {**{key: value for key, value in result.items() if key not in PATHS},
             **{path: vars(result[path]) for path in PATHS}}
            for result in results
        ]  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=1, ensure_ascii=False), encoding="utf-8")
    problems = sum(len(result["acroform"].problems) for result in results)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
