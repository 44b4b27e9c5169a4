"""A form's values from instructions in plain words: which field each statement fills, and with what.

Instructions state values as "Label: value" or "Label = value" lines (with or without a bullet), or
inside sentences ("the applicant's name is Jane Roe", "set the city to Lyon", "name 'John Doe'",
"check the box for US citizen", "Geburtsdatum ist 1.2.1990"). A statement's label is matched to the
fields by their descriptions (and keys): words lowercased, accents folded, plurals dropped, numbering
left out, abbreviations spelled out as the extractor's labels do ("DOB", "Tel."), and the words forms
use in English, German, French, Spanish, Italian, Portuguese, Dutch, Polish, Russian and Japanese said
as one concept ("Vorname", "prénom" and "given name" are a first name). Each statement fills the one
field it names best (several when its label names several: "home and work phone"); a check box gets
"true" or "false". A field no statement names is left out. The result depends on nothing but the input.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from docsvc.intelligence.labels import label_key
from docsvc.intelligence.values import parse_bool
from docsvc.intelligence.vocabulary import STOP_WORDS, phrase

Words = tuple[str, ...]

# Concepts forms ask for, and the phrases that name them (as vocabulary.phrase makes them: lower case,
# no accents, no plural). A phrase is looked up before its words, the longest first.
_CONCEPTS = """
given_name: first name, given name, forename, christian name, vorname, rufname, prenom, nombre de pila,
 primer nombre, nome proprio, primeiro nome, voornaam, imie, имя, 名
family_name: last name, surname, family name, nachname, familienname, zuname, nom de famille, nom d usage,
 apellido, primer apellido, segundo apellido, cognome, sobrenome, apelido, achternaam, nazwisko,
 фамилия, 姓, 氏
birth_name: birth name, maiden name, name at birth, geburtsname, nom de naissance, apellido de soltera
birth_date: date of birth, birth date, birthdate, dob, born on, geburtsdatum, geboren am, date de naissance,
 ne le, fecha de nacimiento, fecha nacimiento, data di nascita, data de nascimento, geboortedatum,
 data urodzenia, дата рождения, 生年月日
birth_place: place of birth, birthplace, birth place, geburtsort, lieu de naissance, lugar de nacimiento,
 luogo di nascita, local de nascimento, geboorteplaats, miejsce urodzenia, место рождения
ssn: ssn, social security number, social security no, sozialversicherungsnummer, rentenversicherungsnummer,
 numero de securite sociale, numero de la seguridad social, numero afiliacion
tax_id: tin, tax id, taxpayer identification number, tax identification number, ein,
 employer identification number, steuer id, steueridentifikationsnummer, identifikationsnummer, idnr,
 steuernummer, numero fiscal, numero d identification fiscale, nif, nie, codice fiscale, nip
phone: phone, telephone, tel, mobile, cell, cell phone, phone number, telephone number, telefon,
 telefonnummer, rufnummer, handy, telefono, numero de telephone, telefone, telefoon, телефон, 電話番号, 電話
fax: fax, telefax, fax number
email: email, e mail, email address, courriel, adresse electronique, correo, correo electronico,
 posta elettronica, メール, 電子メール
postcode: zip, zip code, postal code, postcode, post code, plz, postleitzahl, code postal, cp,
 codigo postal, cap, codice postale, postcode, kod pocztowy, почтовый индекс, 郵便番号
city: city, town, place, ort, wohnort, stadt, gemeinde, ville, commune, localite, ciudad, localidad,
 municipio, poblacion, citta, comune, cidade, localidade, woonplaats, plaats, miejscowosc, город
street: street, street address, strasse, hausnummer, strasse und hausnummer, rue, adresse postale,
 calle, domicilio, via, rua, straat, ulica, улица
country: country, land, staat, pays, pais, paese, nazione, kraj, страна, 国
state: state, province, bundesland, provincia, region, estado, provincie, województwo
nationality: nationality, citizenship, staatsangehorigkeit, nationalitat, nationalite, nacionalidad,
 nazionalita, cittadinanza, nacionalidade, nationaliteit, obywatelstwo, гражданство, 国籍
sex: sex, gender, geschlecht, sexe, sexo, sesso, geslacht, plec, пол, 性別
signature: signature, unterschrift, firma, assinatura, handtekening, podpis, подпись, 署名
passport: passport, reisepass, pass, passeport, pasaporte, passaporto, passaporte, paspoort, paszport,
 паспорт, 旅券
occupation: occupation, profession, job, job title, beruf, taetigkeit, metier, ocupacion, profesion,
 professione, profissao, beroep, zawod, профессия, 職業
employer: employer, arbeitgeber, employeur, empleador, datore di lavoro, empregador, werkgever, pracodawca
spouse: spouse, husband, wife, ehepartner, ehegatte, ehefrau, ehemann, conjoint, epoux, epouse, conyuge,
 esposo, esposa, coniuge, conjuge, echtgenoot, malzonek, супруг
child: child, kind, enfant, hijo, nino, figlio, filho, dziecko, ребенок
marital_status: marital status, civil status, familienstand, situation de famille, etat civil, estado civil,
 stato civile, burgerlijke staat, stan cywilny, семейное положение
address: address, anschrift, adresse, wohnanschrift, direccion, indirizzo, endereco, adres, адрес, 住所
date: date, datum, fecha, data, дата, 日付, date signed, signature date, date of signature,
 signing date, date of signing, datum der unterschrift, unterschriftsdatum, date de signature,
 fecha de firma, fecha firma, data della firma, data firma, data de assinatura, datum ondertekening,
 data podpisu
amount: amount, betrag, montant, importe, importo, valor, bedrag, kwota, сумма
account: account, konto, compte, cuenta, conto, conta, rekening
iban: iban
attorney: attorney, lawyer, counsel, solicitor, barrister, rechtsanwalt, anwalt, avocat, abogado, avvocato,
 advogado, advocaat, adwokat, адвокат, 弁護士
alias: alias, aka, also known as, other name, other names used, other name used, alias name, known as
name: name, full name, nom complet, nombre completo, nome completo, naam, imie i nazwisko, фио, 氏名, 名前
"""
_HINT = re.compile(r"\[[^\]]*[^\W\d_][^\]]*\]")  # "[date]"; a number in brackets ("Address [1]") is no hint
_NUMBERING = re.compile(r"^(?:\(?[0-9ivx]{1,4}[a-z]?[.)]?|[a-z][.)])$")
_GENERIC = frozenset({"name", "number", "date", "address", "amount", "code", "line", "information", "detail"})
_DROPPED = frozenset({"s", "please", "enter", "your", "the", "if", "any", "optional", "here", "box", "field"})
# Yes and no beyond those values.parse_bool reads (English, French, German, "x", ticks), Finnish,
# Northern Sami, the Scandinavian languages and Korean among them:
_MORE_TRUE = frozenset(
    {
        "sí",
        "sim",
        "tak",
        "да",
        "так",
        "はい",
        "是",
        "نعم",
        "sì",
        "wahr",
        "vrai",
        "verdadero",
        "selected",
        "kyllä",
        "juo",
        "예",
    }
)
_MORE_FALSE = frozenset(
    {
        "nee",
        "nie",
        "нет",
        "ні",
        "いいえ",
        "否",
        "لا",
        "falsch",
        "faux",
        "falso",
        "não",
        "nao",
        "ei",
        "ii",
        "nej",
        "nei",
        "아니요",
    }
)
_THRESHOLD = 0.55
_SURE = 0.85


_JOINED = 7  # letters at least of a phrase run together that still names its concept


def _concept_table() -> tuple[dict[Words, str], int]:
    """The concepts by their phrases, and by the phrases of several words run together as a field's
    name writes them ("firstname", "zipcode", "dateofbirth"); a short run ("nele") could be a word."""
    table: dict[Words, str] = {}
    joined: dict[Words, str] = {}
    for entry in _CONCEPTS.strip().split("\n"):
        if ":" in entry:
            concept, _, listing = entry.partition(":")
            concept = concept.strip()
        else:
            listing = entry
        for item in listing.split(","):
            words = phrase(item, pairs=False)
            if words:
                table.setdefault(words, concept)
            if len(words) > 1 and len("".join(words)) >= _JOINED:
                joined.setdefault(("".join(words),), concept)
    for words, concept in joined.items():
        table.setdefault(words, concept)
    return table, max(len(words) for words in table)


_CONCEPT_TABLE, _LONGEST = _concept_table()


_NAME_ESCAPES = re.compile(r"(?:#[0-9A-Fa-f]{2})+")
_ESCAPED = frozenset(" \t()<>[]{}/%#")  # what a PDF name writes escaped (beyond ASCII aside)


def unescaped(text: str) -> str:
    """A PDF name's hex escapes read back ("Imi#C4#99 i nazwisko" is "Imię i nazwisko", "First#20Name"
    is "First Name"), as a field's name copied from the file writes them; a run of escapes that is no
    text in UTF-8, or stands apart from any letter ("No. #12"), is left as it is."""

    def decoded(match: re.Match[str]) -> str:
        glued = match.start() > 0 and text[match.start() - 1].isalpha()
        glued = glued or (match.end() < len(text) and text[match.end()].isalpha())
        try:
            read = bytes.fromhex(match.group().replace("#", "")).decode("utf-8")
        except UnicodeDecodeError:
            return match.group()
        if not glued or any(char < " " for char in read):
            return match.group()
        # a writer escapes only what a name cannot hold as it is: a space, a delimiter, a byte beyond
        # ASCII; "Apt#42" and "Code#30B" are a number sign and figures
        if all(char.isascii() and char not in _ESCAPED for char in read):
            return match.group()
        return read

    return _NAME_ESCAPES.sub(decoded, text) if "#" in text else text


@lru_cache(maxsize=16384)
def concepts(text: str) -> Words:
    """The words of a label as compared: concepts for the phrases forms use, the rest as the
    extractor's label keys say them (abbreviations spelled out), without stop words or numbering."""
    text = _HINT.sub(" ", unescaped(text))
    text = re.sub(r"['\u2019]s\b", "", text)
    raw = _cjk_apart(phrase(text, pairs=False))  # runs of CJK cut by the concepts they hold
    said = _said(raw)
    expanded: list[str] = []
    for word in said:
        if word.startswith("@"):
            expanded.append(word)
        else:
            expanded.extend(label_key(word) or (word,))
    return tuple(
        word.lstrip("@")
        for word in _said(tuple(expanded))
        if word.lstrip("@") not in STOP_WORDS and word not in _DROPPED
    )


def _cjk_apart(words: Words) -> Words:
    """CJK text has no spaces: its concepts are looked for inside each run of it."""
    found: list[str] = []
    for word in words:
        if not any("\u3040" <= char <= "\u9fff" for char in word):
            found.append(word)
            continue
        rest = word
        while rest:
            match = next(
                (size for size in range(min(len(rest), 6), 0, -1) if (rest[:size],) in _CONCEPT_TABLE), 0
            )
            found.append(rest[: match or 1])
            rest = rest[match or 1 :]
    return tuple(found)


def _said(words: Words) -> list[str]:
    """Words with the phrases of the concept table said as their concept (marked with "@")."""
    said: list[str] = []
    index = 0
    while index < len(words):
        for size in range(min(_LONGEST, len(words) - index), 0, -1):
            concept = _CONCEPT_TABLE.get(words[index : index + size])
            if concept:
                said.append("@" + concept)
                index += size
                break
        else:
            said.append(words[index])
            index += 1
    return said


# ------------------------------------------------------------------------------------ statements
@dataclass(frozen=True)
class Statement:
    label: str
    value: str  # "true"/"false" for a box to tick or clear
    check: bool | None = None  # a sentence that ticks (True) or clears (False) a box
    order: int = 0
    mark: str = ""  # the numbering the line opened with ("3."), read as a list's, not as the label's


_BULLET = re.compile(r"^\s*(?:[-*•·▪‣\u2013\u2014]|\d{1,3}[.)]|[a-z][.)])\s+")
_QUOTES = "\"'\u201c\u201d\u2018\u2019«»„「」"
_ARTICLES = (
    r"(?:the|my|our|his|her|their|its|a|an|der|die|das|den|dem|des|mein|meine|ihr|ihre|le|la|les|l'|son|sa"
    r"|ses|mon|ma|el|los|las|su|sus|mi|il|lo|gli|i|o|os|as|seu|sua|het|de|zijn|haar)"
)
_COPULA = re.compile(
    rf"^(?:{_ARTICLES}\s+)?(?P<label>.+?)\s+(?:is|are|should be|must be|will be|shall be|ist|lautet|sind|"
    r"soll|est|sont|sera|es|son|sera|è|sono|é|são|is gelijk aan|wynosi|to|это)\s+(?P<value>.+)$",
    re.IGNORECASE,
)
_SET = re.compile(
    r"^(?:please\s+)?(?:set|fill(?:\s+in)?|fill\s+out|complete|put|use|write|enter|type|mettre|remplir|"
    r"indiquer|poner|rellenar|eintragen|setzen|trage|impostare|inserire)\s+"
    rf"(?:{_ARTICLES}\s+)?(?P<label>.+?)\s+(?:to|with|as|=|à|a|avec|con|mit|auf|als|como|en)\s+(?P<value>.+)$",
    re.IGNORECASE,
)
_ENTER = re.compile(
    r"^(?:please\s+)?(?:enter|put|write|type|use|inscrire|écrire|escribir|schreiben)\s+(?P<value>.+?)\s+"
    r"(?:as|in|into|for|under|comme|dans|pour|en|como|para|als|in das|im)\s+"
    rf"(?:{_ARTICLES}\s+)?(?P<label>.+)$",
    re.IGNORECASE,
)
_CHECK = re.compile(
    r"^(?:please\s+)?(?:check|tick|mark|select|choose|cross|cocher|cochez|coche|sélectionner|marque|marcar|"
    r"marca|marcad|seleccionar|seleccione|ankreuzen|kreuzen sie|markieren sie|wählen sie|spuntare|spunta|"
    r"selezionare|assinalar|assinale|aanvinken|zaznacz|отметьте|отметить|выберите)\s+"
    r"(?:(?:the|a|la|le|el|das|die|den)\s+)?(?:(?:check\s*)?box(?:es)?|case|casilla|kästchen|feld|casella)?\s*"
    r"(?:for|of|labelled|labeled|marked|next to|pour|de|para|für|bei|per|voor|dla)?\s*(?P<label>.+)$",
    re.IGNORECASE,
)
_UNCHECK = re.compile(
    r"^(?:please\s+)?(?:uncheck|untick|unmark|clear|deselect|do not check|don't check|do not tick|"
    r"ne pas cocher|décocher|decocher|no marcar|desmarcar|nicht ankreuzen|non spuntare)\s+"
    r"(?:(?:the|la|le|el|das|die)\s+)?(?:(?:check\s*)?box(?:es)?|case|casilla|kästchen)?\s*"
    r"(?:for|of|labelled|labeled|marked|next to|pour|de|para|für|bei)?\s*(?P<label>.+)$",
    re.IGNORECASE,
)
_CHECK_AFTER = re.compile(r"^(?P<label>.+?)\s+(?:ankreuzen|anhaken|markieren|cochez|cocher)$", re.IGNORECASE)
_QUOTED_VALUE = re.compile(rf"^(?P<label>.+?)\s*[{_QUOTES}](?P<value>[^{_QUOTES}]+)[{_QUOTES}]$")
_PARTS = re.compile(r"\s*;\s*|,\s+(?:and\s+|und\s+|et\s+|y\s+)?(?=\S)|\s+(?:and|und|et|y|e|en|i)\s+")
_PIECE = re.compile(r"\s*;\s*|(?<=[^\s.]{2}[.!?])\s+(?=\S)")
_SHORT_LABEL = 5  # words (spaces + 1) of a label short enough that a line can hold several
_SENTENCE_END = re.compile(r"(?<=[^\s.]{3}[.!?])\s+(?=[A-ZÀ-ÖØ-Þ\"“])|\n")


def statements(instructions: str) -> list[Statement]:
    """What the instructions state, in order: labelled values and boxes to tick or clear. A sentence
    read two ways ("enter the zip code as 90210", "enter 90210 as the zip code") gives both readings,
    as one statement (one `order`): the field named best takes it."""
    found: list[Statement] = []
    order = 0
    for line in instructions.splitlines():
        bullet = _BULLET.match(line)
        mark = bullet.group(0).strip() if bullet and any(char.isalnum() for char in bullet.group(0)) else ""
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        pieces = _PIECE.split(line)
        short = sum(1 for piece in pieces if _short_pair(piece))
        if len(pieces) < 2 or short < 2:
            labelled = _labelled(line)
            if labelled:
                found.append(Statement(*labelled, order=order, mark=mark))
                order += 1
                continue
        for piece in pieces if short >= 2 else _SENTENCE_END.split(line):
            for readings in _in_sentence(_without_full_stop(piece.strip().rstrip("!;"))):
                found.extend(Statement(label, value, check, order) for label, value, check in readings)
                order += 1
    return found


def _short_pair(piece: str) -> bool:
    """A "Label: value" of a few words each: one of several a line can hold."""
    label, value = _labelled(piece) or ("", "")
    return bool(label) and label.count(" ") < _SHORT_LABEL and value.count(" ") < _SHORT_LABEL


def _labelled(line: str) -> tuple[str, str] | None:
    """A "Label: value" or "Label = value" line (the label may hold a colon: the last one that a space
    follows is the label's)."""
    for separator in (re.compile(":(?=\\s|$)|\uff1a"), re.compile(r"\s=\s?|=\s")):
        matches = list(separator.finditer(line))
        if not matches:
            continue
        for match in reversed(matches):
            label, value = line[: match.start()].strip(), line[match.end() :].strip()
            if label and value and any(char.isalpha() for char in label) and _label_length(label, value):
                return label, _unquoted(value)
    return None


_LABEL_CHARACTERS = 300  # a label of a line is no longer than this...
_LONG_LABEL_VALUE = 12  # ...unless the value after it has no more words than this


def _label_length(label: str, value: str) -> bool:
    """Whether `label` is short enough to be a field's label. Official forms' tooltips run to several
    sentences ("Part A. III. 5. Provide the following information about your parents...: Sibling 1.
    Enter City/Town"), and a value after one is short; a long text before a long one is prose. A label
    too long here would hand an earlier colon the line, its value taking the rest of the label."""
    return len(label) <= _LABEL_CHARACTERS or value.count(" ") < _LONG_LABEL_VALUE


Reading = tuple[str, str, bool | None]  # label, value, whether it ticks (True) or clears a box


def _in_sentence(sentence: str) -> list[list[Reading]]:
    """The statements of a sentence, each as its readings; one naming several values is cut at its
    commas and "and"s when each part states one."""
    whole = _readings(sentence)
    parts = [part for part in _PARTS.split(sentence) if part.strip()]
    if len(parts) > 1:
        stated = [_readings(part) for part in parts]
        if all(stated):
            return stated
        if whole:  # a value with a comma or an "and" in it: the parts that state nothing go back into it
            merged: list[list[Reading]] = []
            for part, found in zip(parts, stated, strict=True):
                if found:
                    merged.append(found)
                elif merged and merged[-1][0][2] is None:
                    merged[-1] = [
                        (label, _joined_back(sentence, value, part), None) for label, value, _ in merged[-1]
                    ]
                else:
                    return [whole]
            return merged
    return [whole] if whole else []


def _joined_back(sentence: str, value: str, part: str) -> str:
    start = sentence.find(value)
    end = sentence.find(part, start + len(value)) if start >= 0 else -1
    return sentence[start : end + len(part)] if start >= 0 and end >= 0 else f"{value}, {part}"


def _readings(text: str) -> list[Reading]:
    text = _without_full_stop(text.strip())
    for pattern, check in ((_UNCHECK, False), (_CHECK, True), (_CHECK_AFTER, True)):
        match = pattern.match(text)
        if match:
            return [(match.group("label"), "true" if check else "false", check)]
    labelled = _labelled(text)
    if labelled:
        return [(labelled[0], labelled[1], None)]
    readings: list[Reading] = []
    for pattern in (_SET, _ENTER, _COPULA, _QUOTED_VALUE):
        match = pattern.match(text)
        if match:
            reading = (match.group("label"), _unquoted(match.group("value")), None)
            if reading not in readings:
                readings.append(reading)
            if pattern is _COPULA or pattern is _QUOTED_VALUE:
                break
    return readings


_INITIAL = re.compile(r"(?:^|[\s.])\w\.$")  # "D.C.", "J." keep their full stop


def _without_full_stop(text: str) -> str:
    """A sentence's text without the full stop that ends it (an initial's stays)."""
    while text.endswith(".") and not _INITIAL.search(text[-3:]):  # the tail only: linear in dots
        text = text[:-1].rstrip()
    return text


def _unquoted(value: str) -> str:
    value = _without_full_stop(value.strip().rstrip(";"))
    if len(value) >= 2 and value[0] in _QUOTES and value[-1] in _QUOTES:
        value = value[1:-1]
    return value.strip()


# -------------------------------------------------------------------------------------- matching
def truth(value: str) -> bool | None:
    """Whether a value says yes or no ("x", "ja", "non", "sí", "нет"), or neither."""
    said = parse_bool(value)
    if said is not None:
        return said
    plain = value.strip().lower().rstrip(".!")
    return True if plain in _MORE_TRUE else False if plain in _MORE_FALSE else None


@lru_cache(maxsize=65536)
def _weight(word: str) -> float:
    """Numbering ("6", "c") tells apart fields of one wording, but names nothing: it weighs little."""
    if _NUMBERING.match(word):
        return 0.25
    return 0.5 if word in _GENERIC else 1.0


@lru_cache(maxsize=65536)
def _mass(words: frozenset[str]) -> float:
    return sum(_weight(word) for word in sorted(words))  # in one order: the same sum in every run


@lru_cache(maxsize=65536)
def _as_set(words: Words) -> frozenset[str]:
    return frozenset(words)


def similarity(label: Words, field: Words) -> float:
    """How well a statement's label names a field: the share of the label's words the field has, and
    a little of the share of the field's words the label has."""
    if not label or not field:
        return 0.0
    return _alike(label, frozenset(label), field, frozenset(field), _mass)


def _alike(
    label: Words,
    label_set: frozenset[str],
    field: Words,
    field_set: frozenset[str],
    mass: Callable[[frozenset[str]], float],
) -> float:
    if label == field:
        return 1.0
    common = label_set & field_set
    if all(_weight(word) < 0.5 for word in common):
        return 0.0  # nothing but numbering in common
    shared = mass(common)
    recall = shared / (mass(label_set) or 1.0)
    precision = shared / (mass(field_set) or 1.0)
    in_order = 0.02 if _ordered(label, field) else 0.0
    return 0.7 * recall + 0.28 * precision + in_order


def _ordered(label: Words, field: Words) -> bool:
    size = len(label)
    return any(field[start : start + size] == label for start in range(len(field) - size + 1))


@dataclass(frozen=True)
class _Field:
    key: str
    type: str
    words: Words
    wording: str  # the description as written, spaces and case aside
    named: Words  # the key's words: a form's own name for the field
    name: str
    plain: Words = ()  # the description's words as printed, stop words kept (see `_plain_words`)

    @property
    def names(self) -> tuple[str, ...]:
        """The key as a person writes it, spaces and case aside: a key that had to open with a letter
        ("field_066_page_0" for the widget "066_page_0") is also named without the prefix it was given."""
        bare = _DIGIT_KEY.match(self.name)
        return (self.name, bare.group(1)) if bare else (self.name,)

    @property
    def word_set(self) -> frozenset[str]:
        return frozenset(self.words)

    @property
    def named_set(self) -> frozenset[str]:
        return frozenset(self.named)

    @property
    def described_apart(self) -> bool:
        """The field's own name (its key) and its description share no word: the description, read
        from the words printed near the box, is then the caption of a neighbour as often as its own
        (a form whose captions stand under their lines), and its name says surer what it is."""
        return bool(self.named) and not self.named_set & self.word_set


_DIGIT_KEY = re.compile(r"^field (\d.*)$")  # the prefix a key opening with a digit is given

_FEW = 6  # fields or statements: fewer, and no word is common among them


def _rarity(fields: list[frozenset[str]], labels: list[frozenset[str]]) -> dict[str, float]:
    counted: dict[str, list[int]] = {}
    for group, sets in enumerate((fields, labels)):
        for words in sets:
            for word in words:
                counted.setdefault(word, [0, 0])[group] += 1
    sizes = (len(fields), len(labels))
    rarity: dict[str, float] = {}
    for word, counts in counted.items():
        share = max(count / size if size >= _FEW else 0.0 for count, size in zip(counts, sizes, strict=True))
        rarity[word] = 1.0 / (1.0 + 3.0 * share)
    return rarity


@dataclass
class _Targets:
    """The fields, indexed by their words (a statement is compared with the fields sharing a word
    with it only) and by their wording."""

    fields: list[_Field]

    labels: list[frozenset[str]]  # the words of every statement's label

    def __post_init__(self) -> None:
        self.by_word: dict[str, set[int]] = {}
        self.sets = [(field.word_set, field.named_set) for field in self.fields]
        for index, (words, named) in enumerate(self.sets):
            for word in words | named:
                if _weight(word) >= 0.5:
                    self.by_word.setdefault(word, set()).add(index)
        self.rarity = _rarity([words | named for words, named in self.sets], self.labels)
        self.masses: dict[frozenset[str], float] = {}

    def mass(self, words: frozenset[str]) -> float:
        """The words' weight, each as rare as it is among the fields and among the statements: on a
        long form whose every label opens with "Part 1. Information About You", those words weigh
        little, and what tells the labels apart ("Family Name") weighs the most."""
        if words not in self.masses:
            self.masses[words] = sum(_weight(word) * self.rarity.get(word, 1.0) for word in sorted(words))
        return self.masses[words]

    def near(self, *groups: Words) -> list[int]:
        """The fields sharing a word with the groups; a word most fields have ("part", "information"
        on a long form) nominates none."""
        common = max(len(self.fields) // 2, 8)
        found: set[int] = set()
        for words in groups:
            for word in words:
                holders = self.by_word.get(word, set())
                if len(holders) <= common:
                    found |= holders
        return sorted(found)

    def worded(self, text: str) -> list[int]:
        """The fields whose description is worded as `text`, spaces and case aside."""
        wording = _wording(text)
        return [index for index, field in enumerate(self.fields) if field.wording == wording]

    def keyed(self, text: str) -> list[int]:
        """The fields whose key is `text`, spaces, case and punctuation aside ("Textfeld 1 5" is the key
        `textfeld_1_5`): a field named by its key is that field, however many share its words (a form
        whose every field is "Textfeld" and a number)."""
        wording = _wording(re.sub(r"[\W_]+", " ", text))
        return [index for index, field in enumerate(self.fields) if wording in field.names]

    def likeness(self, label: Words, index: int) -> float:
        """The label's likeness to the field's description, or (a little less) to its key."""
        if not label:
            return 0.0
        field, (words, named) = self.fields[index], self.sets[index]
        label_set = _as_set(label)
        if field.plain and label_set <= STOP_WORDS and label_set <= frozenset(field.plain):
            # a label of stop words only, all of them printed in the field's description
            return _alike(label, label_set, field.plain, frozenset(field.plain), _mass)
        by_words = _alike(label, label_set, field.words, words, self.mass) if words else 0.0
        by_name = _alike(label, label_set, field.named, named, self.mass) * 0.97 if named else 0.0
        return max(by_words, by_name)


_EXACT = 1.2  # a label worded as the field's description: above any likeness of words
_APART = 1.01  # a label worded as the key of a field described apart from it: above any description


def _wording(text: str) -> str:
    return " ".join(_HINT.sub(" ", text).casefold().split()).strip(" .:")


def field_values(fields: Sequence[tuple[str, str, str]], instructions: str) -> dict[str, str]:
    """Each field's value as the instructions state it, for (key, description, type) fields; a check
    box's value is "true" or "false". Fields the instructions do not name are left out."""
    stated = statements(instructions)
    targets = _Targets(
        [
            _Field(
                key,
                kind,
                concepts(description) or concepts(key.replace("_", " ")),
                _wording(description),
                concepts(key.replace("_", " ")),
                _wording(key.replace("_", " ")),
                _plain_words(description),
            )
            for key, description, kind in fields
        ],
        [_as_set(concepts(statement.label)) for statement in stated],
    )
    stated = [_with_mark(statement, targets) for statement in stated]
    ranked: list[tuple[float, int, int, str]] = []
    allowed: dict[int, int] = {}
    for statement in stated:
        named = _named(statement.label)
        worded = targets.worded(statement.label)
        plain = (
            () if named[0][0] or worded or targets.keyed(statement.label) else _plain_words(statement.label)
        )
        if plain:  # a label of stop words only ("Other", "To"): its printed words name the field
            allowed[statement.order] = 1
            for index, target in enumerate(targets.fields):
                if set(plain) <= set(target.plain) and (
                    scored := _scored(statement, (plain,), targets, index)
                ):
                    ranked.append((-round(scored[0], 9), statement.order, index, scored[1]))
            continue
        if worded and all(targets.fields[index].described_apart for index in worded):
            # worded so only by the descriptions of fields named otherwise (captions read off the page,
            # maybe a neighbour's): a field whose own name is the label, described apart, vies with them
            keyed = targets.keyed(statement.label)
            worded = sorted(set(worded) | {index for index in keyed if targets.fields[index].described_apart})
        near = worded or sorted(
            set(targets.near(*named[-1], named[0][0], tail_words(statement.label), concepts(statement.value)))
            | set(targets.keyed(statement.label))
        )
        if worded:  # worded as a description: that field (or those, if several are worded alike)
            named = named[:1]
        whole = max((targets.likeness(named[0][0], index) for index in near), default=0.0)
        if whole >= _SURE:  # the label names one field well: its parts are not looked at
            named = named[:1]
        allowed[statement.order] = len(named[-1])
        for labels in named:
            for index in near:
                scored = _scored(statement, labels, targets, index)
                if scored:
                    ranked.append((-round(scored[0], 9), statement.order, index, scored[1]))
    ranked.sort()
    chosen: dict[int, str] = {}
    filler: dict[int, int] = {}  # field index -> the order of the statement that fills it
    fills: dict[int, int] = {}
    for _, order, index, value in ranked:
        if index in chosen or fills.get(order, 0) >= allowed[order]:
            continue
        chosen[index] = value
        filler[index] = order
        fills[order] = fills.get(order, 0) + 1
    _in_form_order(filler, chosen, ranked)
    _alike_in_order(targets, chosen, filler, ranked)
    return {targets.fields[index].key: value for index, value in sorted(chosen.items())}


def _plain_words(text: str) -> Words:
    """A label's words as printed, case, accents and hints aside, stop words kept: how a label that is
    nothing but stop words ("Other", "From", "To") is told apart, where its concepts are none."""
    return tuple(
        word for word in phrase(_HINT.sub(" ", unescaped(text)), pairs=False) if word not in _DROPPED
    )


def _with_mark(statement: Statement, targets: _Targets) -> Statement:
    """The statement labelled with the numbering its line opened with, when a field is worded so: a
    form that numbers its fields anew in each section ("2. Title", "3. Title") is told which is meant
    by the number, which reads as a list's numbering otherwise."""
    if not statement.mark:
        return statement
    marked = f"{statement.mark} {statement.label}"
    return replace(statement, label=marked) if targets.worded(marked) else statement


_TIE = 1e-9  # scores this close name two fields equally well


def _in_form_order(
    filler: dict[int, int], chosen: dict[int, str], ranked: list[tuple[float, int, int, str]]
) -> None:
    """Among fields a statement names equally well (a form that prints "City" or "Date of birth" at
    two places), the one that lies between the fields its neighbouring statements fill: instructions
    that follow the form's order say which is meant, where nothing else can. Only statements that fill
    one field move; the fields are in reading order."""
    scores: dict[tuple[int, int], tuple[float, str]] = {}
    for score, order, index, value in ranked:
        scores.setdefault((order, index), (-score, value))  # the statement's best reading for the field
    fields = Counter(filler.values())
    field_of = {order: index for index, order in sorted(filler.items()) if fields[order] == 1}
    orders = sorted(field_of)
    for position, order in enumerate(orders):
        index = field_of[order]
        before = field_of[orders[position - 1]] if position else -1
        after = field_of[orders[position + 1]] if position + 1 < len(orders) else math.inf
        if before < index < after:
            continue
        best = scores[(order, index)][0]
        between = sorted(
            other
            for (said, other), (score, _) in scores.items()
            if said == order and other not in chosen and before < other < after and abs(score - best) <= _TIE
        )
        if between:
            chosen[between[0]] = scores[(order, between[0])][1]
            del chosen[index]
            field_of[order] = between[0]
            filler[between[0]] = filler.pop(index)


_CLOSE = 0.1  # below the likeness of the statements that fill fields alike: another names them less


def _alike_in_order(
    targets: _Targets,
    chosen: dict[int, str],
    filler: dict[int, int],
    ranked: list[tuple[float, int, int, str]],
) -> None:
    """Fields a form asks alike (its "Given Name" in five parts, each field named by those words and a
    number only, as keys made unique are) fill in the form's order, one statement each: the statements
    that fill them each name them all, in words no field has ("Part 2. Beneficiary. Enter Given Name"),
    and what tells the fields apart is the number a key was given to be unique, which a statement's own
    numbering ("3. Enter Given Name") matches by chance. The first such statement fills the first of
    the fields, and so on; each keeps its own value. A statement naming one field by its key alone (a
    likeness no other of them has) stays where it is."""
    scores: dict[tuple[int, int], tuple[float, str]] = {}
    for score, order, index, value in ranked:
        scores.setdefault((order, index), (-score, value))
    fills = Counter(filler.values())
    groups: dict[tuple[Words, Words], list[int]] = {}
    for index, order in filler.items():
        field = targets.fields[index]
        if fills[order] == 1 and field.words:
            unnumbered = tuple(word for word in field.named if not _NUMBERING.match(word))
            groups.setdefault((field.words, unnumbered), []).append(index)
    for indices in groups.values():
        if len(indices) < 2:
            continue
        orders = sorted(filler[index] for index in indices)
        fields = sorted(indices)
        if [filler[index] for index in fields] == orders:
            continue  # in order already
        if not all((order, index) in scores for order in orders for index in fields):
            continue  # a statement that does not name one of them: it is not among those alike
        if any(scores[(order, index)][0] >= _EXACT * 0.98 for order in orders for index in fields):
            continue  # a statement worded as a field's description or key: it names that field
        floor = min(scores[(order, index)][0] for order, index in zip(orders, fields, strict=True)) - _CLOSE
        rivals = {
            order for (order, index), (score, _) in scores.items() if index in fields and score >= floor
        }
        if len(rivals) > len(fields):
            continue  # more statements name them as well than there are fields: which ones is not sure
        for order, index in zip(orders, fields, strict=True):
            chosen[index] = scores[(order, index)][1]
            filler[index] = order


def _named(label: str) -> list[tuple[Words, ...]]:
    """The label as one, and (when it joins several with "and") as its parts."""
    whole = concepts(label)
    parts = [concepts(part) for part in re.split(r"\s+(?:and|und|et|y|e|en|i|&)\s+|\s*/\s*|,\s*", label)]
    parts = [part for part in parts if part]
    if len(parts) > 1:
        shared = parts[-1][-1:]  # "home and work phone": each part is a phone
        parts = [part if set(part) & set(shared) else part + shared for part in parts]
        return [(whole,), tuple(parts)]
    return [(whole,)]


_TAIL = 0.9  # a long label's last sentence names the field a little less surely than the whole
_SENTENCE_BREAK = re.compile(r"(?<=[.;:!?])\s+")


@lru_cache(maxsize=16384)
def tail_words(label: str) -> Words:
    """A label of several sentences by its last one, with the numbering before it ("Part 4. Processing
    Information. If you provided a foreign address... 3. C. Enter City or Town." is "3 c city"): where
    long labels say what the field is. Empty for a label of one sentence."""
    pieces = [piece for piece in _SENTENCE_BREAK.split(label.strip()) if piece]
    if len(pieces) < 2:
        return ()
    index = len(pieces) - 1
    while index > 0 and not any(_weight(word) >= 0.5 for word in concepts(pieces[index])):
        index -= 1  # a last sentence of numbering only
    start = index
    while start > 0 and all(_NUMBERING.match(word) for word in concepts(pieces[start - 1]) or ("x1",)):
        start -= 1  # "3. C." before "Enter City or Town."
    if start == 0:
        return ()
    return concepts(" ".join(pieces[start : index + 1]))


def _scored(
    statement: Statement, labels: tuple[Words, ...], targets: _Targets, index: int
) -> tuple[float, str] | None:
    target = targets.fields[index]
    if len(labels) == 1 and _wording(statement.label) == target.wording:
        best = _EXACT
    elif len(labels) == 1 and _wording(re.sub(r"[\W_]+", " ", statement.label)) in target.names:
        best = _EXACT * (_APART if target.described_apart else 0.99)
    else:
        best = max(targets.likeness(label, index) for label in labels)
        tail = tail_words(statement.label) if len(labels) == 1 else ()
        if tail:
            best = max(best, targets.likeness(tail, index) * _TAIL)
    if len(labels) > 1:
        best *= 0.98  # a part named is a little less sure than the whole
    value = statement.value
    if target.type == "checkbox":
        said = statement.check if statement.check is not None else truth(value)
        if said is None:  # "Sex: female" ticks the box of the option "Female"
            if similarity(concepts(value), target.words) < 0.99:
                return None
            best, said = 0.6 + 0.3 * best, True
        value = "true" if said else "false"
    elif statement.check is not None or not _may_sign(labels, target):
        return None
    return (best, value) if best >= _THRESHOLD else None


_BESIDE_SIGNATURE = frozenset({"date", "city"})  # "Place, date, signature": written in the signing box


def _may_sign(labels: tuple[Words, ...], target: _Field) -> bool:
    """A box for a signature takes only a value said to be a signature, or the date or place the box
    asks for beside it ("Date and signature"), or one that names it by its key (a form's widget for the
    signer's typed name): an employee's id written where the employee signs, or
    the date of signing in the box for the signature itself, is a value lost and a form spoilt, worse
    than a field left empty."""
    said = {word for label in labels for word in label}
    if "signature" not in target.words or (target.named and set(target.named) <= said):
        return True  # no signature box, or one named by the form's own name for it ("users1_name")
    if "date" in said and "date" not in target.words:
        return False  # "Signature date", "Date of signature": the date signed, not the signature
    return "signature" in said or bool(said & set(target.words) & _BESIDE_SIGNATURE)
