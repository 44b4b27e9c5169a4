"""PDF forms: the places a person fills in, and the same PDF with values written in them.

A field is an AcroForm widget where the PDF has them (text, check box, radio button, combo or list box),
labelled by its tooltip when that says something, else by the text printed next to it, else by its name
made readable. A page without widgets is read from its layout: blank lines of underscores or dots, drawn
rules with a label before or above them (or under them, where a stack of rules prints its captions so; a
blank over a line of several captions side by side is a blank over each), empty boxes, empty cells of
ruled tables (labelled by their row and column headers), boxes with their label printed in their top
part (a blank under each of several captions side by side; beside a label that ends in its colon when
the box leaves barely a line under it), rows of character cells (one field, printed dashes between its
groups or not), rules parted only by separators ("___/___/___", one field), and check boxes (small
empty squares, or glyphs such as ☐). A box opened by a sign ("= [   ]", "$ [   ]") is a field after the
sign. A label of a mark or a line number only reaches further (the line's words to its left, or the
line above); words of lines that do not run across the page (up its margin, or aslant) name no field.
The drawings of a page are read only when its text page holds vector paths; a page covered half or
more by pictures without them (a scan, a form printed over a background image) has its rules and empty
check boxes found in its picture instead. A page without widgets and without text (a scan, words drawn
as outlines) is read by OCR, while the form's reading is under `_OCR_SECONDS`. A caption that ends in
its colon, in a band ruled under it, has its blank in the room after it.

Filling sets a widget's value as a real form value (the form stays editable, its appearance made anew; a
file MuPDF rebuilds while saving it is filled again as rebuilt) and writes the value of a field without
a widget into its box, shrunk to fit, in fonts that cover Latin, Greek, Cyrillic, CJK and Arabic
(MuPDF's own, chosen per character), or ticks it.
"""

# mypy: disallow-untyped-calls=False
from __future__ import annotations

import html
import re
import time
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median
from typing import Literal

import pymupdf

from docsvc.documents.engine.errors import DocumentError
from docsvc.documents.engine.grids import ruled_grids
from docsvc.documents.engine.model import ParseOptions
from docsvc.documents.engine.ocr import MAX_OCR_PIXELS, check_boxes, ocr_textpage
from docsvc.documents.engine.pdf import _open as open_document
from docsvc.documents.engine.pdf import _rules as rules_of
from docsvc.documents.engine.pdf import unligated
from docsvc.documents.engine.picture_rules import RULES_DPI, picture_lines
from docsvc.errors import DocumentRejected
from docsvc.intelligence.form_filling import truth, unescaped
from docsvc.intelligence.labels import snake_case

FieldType = Literal["text", "checkbox"]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y downwards


@dataclass(frozen=True)
class FieldBox:
    """Where a field is, as fractions of its page from the top-left corner; `page` is 1-based."""

    page: int
    left: float
    top: float
    width: float
    height: float


@dataclass(frozen=True)
class FoundField:
    key: str  # unique within the document, from the label (or the AcroForm name)
    description: str  # the label a person reads next to the box, with hints in brackets ("[date]")
    type: FieldType
    bbox: FieldBox
    value: str | None = None  # the value already in the form, if any
    widget: str | None = None  # the AcroForm field's full name when the field is a real widget


_OCR_SECONDS = 15.0  # pages without text are OCR'd while the form's reading is younger than this (s)
_PICTURED = 0.5  # of a page's area covered by pictures: its rules and boxes are looked for in them
_MAX_DRAWINGS = 20_000  # more vector paths than this: the page is art, not a form
_BOX_GLYPHS = "☐□❑❒▢◻⬜❏"
_BLANK_RUN = re.compile(r"_{3,}|\.{5,}|…{2,}")
# Ligatures kept as drawn and expanded by `unligated`: MuPDF's own expansion writes a lam-alef backwards.
_TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_COLLECT_VECTORS
)
_VECTOR_BLOCK = 3
_KEY_WORDS = 6  # words of a label that make its key
_PHRASE_WORDS = 3  # words of a field's name, spaced, that make it a phrase a person wrote
_KEY_LENGTH = 48  # characters of a key at most
_CHECK_SIZE = (5.0, 20.0)  # a check box's side, in points
_MIN_FIELD = 24.0  # the narrowest blank a value is written on, in points
_TALLEST_TINT = 72.0  # points: a taller filled area is a panel of the page, not an input box
_LEADER_GAP = 60.0  # points between the end of a dot leader and the box it leads to
_COMB_GAP = 6.0  # points between the cells of a comb (one box per character)
_COMB_CELL = 30.0  # points: the widest cell of a comb
_SEPARATOR = re.compile(
    r"[-\u2013/.,:]+"
)  # printed between or in the cells of a comb: "123-45-6789", "1,234"
_LABEL_REACH = 150.0  # points: how far left of a field its label may end (a column of labels)
_LINE_NUMBER = re.compile(r"\(?(?:\d{1,3}[a-z]?|[a-z])[.)]?", re.I)  # "5", "1a", "c", "(3)", "b."
_CAPTION_GAP = 2.0  # font sizes between two captions printed side by side over one rule
_LABEL_LETTERS = 3  # a label before a field with fewer letters is a mark or prefix: the line above names it
_DATE = re.compile(r"\b(?:date|datum|fecha|data|дата|日付|mm\s*/\s*dd|dd\s*/\s*mm|yyyy|jjjj|aaaa)\b", re.I)
_MEANINGLESS_NAME = re.compile(
    r"^(?:[a-z]{0,4}\d+(?:[_.-]\d+)*|text\d*|field\d*|check\s*box\d*|untitled.*)$", re.I
)

Word = tuple[float, float, float, float, str]


# ---------------------------------------------------------------------------------------- finding
def form_fields(content: bytes) -> list[FoundField]:
    """The fillable places of the PDF, page by page in reading order, each with a unique key."""
    found: list[tuple[int, Rect, str, FieldType, str | None, str | None, float, float]] = []
    ocr_until = time.monotonic() + _OCR_SECONDS
    with _opened(content) as document:
        widgeted = any(widget.field_type in _FILLABLE for page in document for widget in page.widgets())
        for page in document:
            width, height = page.rect.width or 1.0, page.rect.height or 1.0
            textpage = page.get_textpage(flags=_TEXT_FLAGS)
            read = _read_words(page, textpage)
            words: list[Word] = [tuple(word[:5]) for word in read]  # type: ignore[misc]
            widgets = [widget for widget in page.widgets() if widget.field_type in _FILLABLE]
            if widgets:
                places = _widget_fields(widgets, words)
            else:
                labels, shown = textpage, read
                if not read and time.monotonic() < ocr_until and _draws_something(page):
                    labels, shown = _ocr_read(page, textpage)
                upright = _upright(shown, labels)
                places = _layout_fields(page, textpage, upright, open_blanks=not widgeted)
            for rect, label, kind, value, name in places:
                found.append((page.number + 1, rect, label, kind, value, name, width, height))
    keys: dict[str, int] = {}
    fields = []
    for number, rect, label, kind, value, name, width, height in found:
        key = _unique(_key_of(label, name), keys)
        hints = " [date]" if kind == "text" and _DATE.search(label) else ""
        hints += " [check if it applies]" if kind == "checkbox" else ""
        x0, y0, x1, y1 = rect
        box = FieldBox(
            number,
            round(max(x0, 0.0) / width, 4),
            round(max(y0, 0.0) / height, 4),
            round((min(x1, width) - max(x0, 0.0)) / width, 4),
            round((min(y1, height) - max(y0, 0.0)) / height, 4),
        )
        fields.append(FoundField(key, label + hints, kind, box, value, name))
    return fields


def _read_words(page: pymupdf.Page, textpage: pymupdf.TextPage) -> list[tuple[object, ...]]:
    """The words of a text page as PyMuPDF reads them (box, word, block, line, number), ligatures expanded."""
    return [(*word[:4], unligated(word[4]), *word[5:]) for word in page.get_text("words", textpage=textpage)]


def _draws_something(page: pymupdf.Page) -> bool:
    """Whether a page without text draws anything at all: a picture, or paths (text drawn as outlines)."""
    return bool(page.get_images()) or bool(page.get_cdrawings())


def _ocr_read(
    page: pymupdf.Page, textpage: pymupdf.TextPage
) -> tuple[pymupdf.TextPage, list[tuple[object, ...]]]:
    """The words of a page without a text layer (a scan, or a form whose text was drawn as outlines), as
    OCR reads them: the text page they were read into and the words. The page as it was when OCR is not
    installed or reads nothing."""
    ocr = ocr_textpage(page, _TEXT_FLAGS, ParseOptions(), [])
    if ocr is None:
        return textpage, []
    return ocr, _read_words(page, ocr)


def _opened(content: bytes) -> pymupdf.Document:
    if not content.lstrip()[:1024].find(b"%PDF") >= 0:
        raise DocumentRejected("unsupported_document", "the document is not a PDF; send a PDF form")
    try:
        return open_document(content, "pdf")
    except DocumentError as error:
        raise DocumentRejected(error.code, error.message) from None


Place = tuple[Rect, str, FieldType, str | None, str | None]  # box, label, type, value, widget name
# PyMuPDF's widget types (pymupdf.PDF_WIDGET_TYPE_*)
_CHECKBOX, _COMBOBOX, _LISTBOX, _RADIOBUTTON, _TEXT = 2, 3, 4, 5, 7
_TEXT_WIDGETS = {_TEXT, _COMBOBOX, _LISTBOX}
_CHECK_WIDGETS = {_CHECKBOX, _RADIOBUTTON}
_FILLABLE = _TEXT_WIDGETS | _CHECK_WIDGETS


def _widget_fields(widgets: list[pymupdf.Widget], words: list[Word]) -> list[Place]:
    places: list[Place] = []
    rects = [_rect(pymupdf.Rect(widget.rect)) for widget in widgets]
    size = _text_height(words)
    for widget in widgets:
        rect = _rect(pymupdf.Rect(widget.rect))
        checkbox = widget.field_type in _CHECK_WIDGETS
        label = (
            _tooltip(widget)
            or (
                not checkbox
                and not _label_at_top(rect, words)
                and _caption_hugging_under(rect, words, rects, size)
            )
            or _printed_label(rect, words, checkbox, rects)
            or _humanised(widget.field_name)
        )
        if widget.field_type == _RADIOBUTTON:
            state = str(widget.on_state() or "")
            if (
                any(char.isalpha() for char in state)
                and state.lower() not in {"on", "yes"}
                and state not in label
            ):
                label = f"{label} ({state})"  # the option's own name, where the page prints none
        value: str | None
        if checkbox:
            value = "true" if widget.field_value not in (False, None, "", "Off") else None
        else:
            value = str(widget.field_value) if widget.field_value not in (None, "") else None
        places.append((rect, label, "checkbox" if checkbox else "text", value, widget.field_name))
    return _in_reading_order(places)


def _label_at_top(rect: Rect, words: Sequence[Word]) -> bool:
    """Whether words stand in a widget's top half or across its top edge, over its width: its label
    printed there ("Site" in the box's top part), so the line flush under it is the next box's."""
    x0, y0, x1, y1 = rect
    return any(
        word[0] < x1 and word[2] > x0 and word[3] > y0 + 1 and word[1] < (y0 + y1) / 2 and _clean(word[4])
        for word in words
    )


def _tooltip(widget: pymupdf.Widget) -> str:
    """The widget's tooltip (/TU) when it says more than the field's name, or says what the field is as
    the name does in a phrase ("Monatliche Bruttoeinnahmen durch Wohngeld in Euro" both): the form's
    author wrote it, where the words printed by the box may be a column's shorthand ("mtl. EUR")."""
    label = " ".join(str(widget.field_label or "").split())
    name = str(widget.field_name or "")
    if not label or _MEANINGLESS_NAME.match(label) or not any(c.isalpha() for c in label):
        return ""
    if label == name and len(label.split()) < _PHRASE_WORDS:
        return ""
    return label


def _humanised(name: str | None) -> str:
    """A field's name as words: "topmostSubform[0].Page1[0].FirstName[0]" is "First Name"."""
    last = re.sub(r"\[\d+\]", "", unescaped(str(name or ""))).rsplit(".", 1)[-1]
    spaced = re.sub(r"(?<=[a-z\d])(?=[A-Z])|[_\-]+", " ", last)
    return " ".join(spaced.split()) or "field"


def _key_of(label: str, name: str | None) -> str:
    """A widget named in words is keyed by its name ("NIF ORGANISMO PUBLICO" is `nif_organismo_publico`,
    where the page prints "NIF" only), any other field by the first words of its label."""
    named = _humanised(name) if name else ""
    if named and not _MEANINGLESS_NAME.match(named) and sum(char.isalpha() for char in named) >= 3:
        key = snake_case(named)
        return key if len(key) <= _KEY_LENGTH else _ends_kept(named)
    key = snake_case(" ".join(label.split()[:_KEY_WORDS]))
    return key[:_KEY_LENGTH].strip("_") or "field"


def _ends_kept(named: str) -> str:
    """A long name's key, shortened in its middle: the names of one form tell their fields apart
    at the start ("first_member_...", "second_member_...") or at the end ("lpa-document-primaryAttorneys-
    0-address-address1", "...-address2", "...-postcode"), so words are kept from both ends in turn."""
    spelled = "_".join(snake_case(word).removeprefix("field_") for word in named.split())
    parts = [part for part in spelled.split("_") if part]
    head: list[str] = []
    tail: list[str] = []
    low, high = 0, len(parts) - 1
    while low <= high:
        word = parts[low] if len(head) <= len(tail) else parts[high]
        if len("_".join([*head, word, *tail])) > _KEY_LENGTH:
            break
        if len(head) <= len(tail):
            head.append(word)
            low += 1
        else:
            tail.insert(0, word)
            high -= 1
    key = "_".join(head + tail) or snake_case(named)[:_KEY_LENGTH].strip("_")
    if not key:
        return "field"
    return key if key[0].isalpha() else f"field_{key}"[:_KEY_LENGTH]


def _unique(key: str, keys: dict[str, int]) -> str:
    count = keys.get(key, 0) + 1
    keys[key] = count
    while count > 1 and f"{key}_{count}" in keys:
        count += 1
    unique = key if count == 1 else f"{key}_{count}"
    keys.setdefault(unique, 1)
    return unique


def _in_reading_order(places: list[Place]) -> list[Place]:
    """Top to bottom, left to right along a line (boxes whose middles are level share a line)."""
    ordered = sorted(places, key=lambda place: (place[0][1] + place[0][3]) / 2)
    lines: list[list[Place]] = []
    for place in ordered:
        middle = (place[0][1] + place[0][3]) / 2
        if lines and abs(middle - _middle(lines[-1][0][0])) <= max(3.0, _height(lines[-1][0][0]) / 2):
            lines[-1].append(place)
        else:
            lines.append([place])
    return [place for line in lines for place in sorted(line, key=lambda place: place[0][0])]


def _middle(rect: Rect) -> float:
    return (rect[1] + rect[3]) / 2


def _height(rect: Rect) -> float:
    return rect[3] - rect[1]


def _rect(rect: pymupdf.Rect) -> Rect:
    return (float(rect.x0), float(rect.y0), float(rect.x1), float(rect.y1))


# --------------------------------------------------------------------------------------- labels
def _printed_label(
    rect: Rect, words: Sequence[Word], checkbox: bool = False, taken: Iterable[Rect] = ()
) -> str:
    """The text a person reads as the field's label: on its line before it (after it, first, for a
    check box), else on the line just above it, else the text printed in its own top part."""
    blocked = list(taken)
    sides = ("right", "left", "above") if checkbox else ("left", "above", "inside")
    for side in sides:
        label = _label_on(side, rect, words, blocked)
        if label and side == "left" and not checkbox and _captioned_above(rect, words, blocked):
            return _label_on("above", rect, words, blocked)
        if label and side == "left" and sum(char.isalpha() for char in label) < _LABEL_LETTERS:
            asked = _question_ending_before(rect, words, label)
            if asked:
                return f"{asked} {label}"
            above = _label_on("above", rect, words, blocked)  # a mark or a prefix: "►", "A-", "$"
            return f"{above} {label}" if above else label
        if label:
            return label
    return ""


def _question_ending_before(rect: Rect, words: Sequence[Word], mark: str) -> str:
    """The question a blank after a mark answers when the question ends on the blank's line, far left
    of the mark ("5. What is the total you pay for rent, property taxes, / homeowners insurance,
    etc.?   $ ____"): its line above, over the question's span, and its end on this line. Only a run
    ending in a question mark or a colon, with no blank between it and the mark, is a question."""
    x0, middle = rect[0], _middle(rect)
    level = sorted(
        (word for word in words if word[1] - 2 <= middle <= word[3] + 2 and word[2] <= x0 + 2),
        key=lambda word: word[0],
    )
    marks = len(mark.split())
    if len(level) <= marks or any(_is_blank(word[4]) for word in level):
        return ""
    run = level[:-marks]
    if not run[-1][4].rstrip().endswith(("?", ":")):
        return ""
    tall = max(word[3] - word[1] for word in run)
    top = min(word[1] for word in run)
    above = [
        word for word in words
        if top - 1.6 * tall <= word[3] <= top + 1 and word[2] > run[0][0] - 2 and word[0] < rect[2]
        and _clean(word[4])
    ]  # fmt: skip
    lead = []
    if above:
        nearest = max(word[3] for word in above)
        lead = sorted((word for word in above if word[3] >= nearest - tall * 0.6), key=lambda word: word[0])
    return _joined_words(lead + run)


def _label_on(side: str, rect: Rect, words: Sequence[Word], blocked: list[Rect]) -> str:
    x0, _, x1, _ = rect
    middle = _middle(rect)
    if side in {"left", "right"}:
        level = [
            word for word in words
            if word[1] - 2 <= middle <= word[3] + 2 and _clean(word[4])
        ]  # fmt: skip
        if side == "left":
            run = sorted((word for word in level if word[2] <= x0 + 2), key=lambda word: -word[2])
            edge = x0
        else:
            run = sorted((word for word in level if word[0] >= x1 - 2), key=lambda word: word[0])
            edge = x1
        picked: list[Word] = []
        for word in run:
            gap = (edge - word[2]) if side == "left" else (word[0] - edge)
            size = word[3] - word[1]
            if not picked:
                reach = _LABEL_REACH
            elif side == "left" and all(_LINE_NUMBER.fullmatch(other[4].strip()) for other in picked):
                reach = 2 * _LABEL_REACH  # a line's number by its box ("Wages      1a [  ]"): words further
            else:
                reach = max(3 * size, 24.0)
            if gap > reach or any(_inside(word, other) or _between(other, word, rect) for other in blocked):
                break
            if _is_blank(word[4]):
                break
            picked.append(word)
            edge = word[0] if side == "left" else word[2]
        picked.sort(key=lambda word: word[0])
        return _joined_words(picked)
    if side == "above":
        return _joined_words(_line_above(rect, words, blocked))
    inside = [word for word in words if _inside(word, rect) and _clean(word[4])]
    return _joined_words(sorted(inside, key=lambda word: (round(word[1]), word[0])))


def _line_above(rect: Rect, words: Sequence[Word], blocked: Sequence[Rect] = ()) -> list[Word]:
    """The words of the nearest line above a field, over its width, left to right."""
    x0, y0, x1, _ = rect
    tall = max(_height(rect), 6.0)
    above = [
        word for word in words
        if y0 - 2.5 * tall <= word[3] <= y0 + 2 and word[0] < x1 and word[2] > x0 - 4 and _clean(word[4])
        and not any(_inside(word, other) for other in blocked)
    ]  # fmt: skip
    if not above:
        return []
    nearest = max(word[3] for word in above)
    line = [word for word in above if word[3] >= nearest - (word[3] - word[1]) * 0.6]
    return sorted(line, key=lambda word: word[0])


def _captioned_above(rect: Rect, words: Sequence[Word], blocked: Sequence[Rect]) -> bool:
    """Whether a field's caption is the line right above it, starting at its left edge, while the text
    on its left lies across a wide gap (the end of a line of another column)."""
    level = [
        word for word in words
        if word[1] - 2 <= _middle(rect) <= word[3] + 2 and word[2] <= rect[0] + 2 and _clean(word[4])
    ]  # fmt: skip
    nearest = max(level, key=lambda word: word[2], default=None)
    if nearest is None or rect[0] - nearest[2] <= max(3 * (nearest[3] - nearest[1]), 24.0):
        return False
    line = _line_above(rect, words, blocked)
    if not any(char.isalpha() for word in line for char in word[4]):
        return False  # nothing, or the sign at the start of the box above ("= [   ]")
    size = line[0][3] - line[0][1]
    return abs(line[0][0] - rect[0]) <= max(size, 6.0) and rect[1] - max(word[3] for word in line) <= size


def _captions(line: list[Word]) -> list[list[Word]]:
    """A line of words cut where a wide gap parts them: the captions of several blanks side by side."""
    groups: list[list[Word]] = []
    for word in line:
        size = word[3] - word[1]
        if groups and word[0] - groups[-1][-1][2] <= _CAPTION_GAP * size:
            groups[-1].append(word)
        else:
            groups.append([word])
    return groups


def _between(other: Rect, word: Word, rect: Rect) -> bool:
    """Whether another field stands on the line between a word and the field: the word is its label."""
    if other == rect or not (other[1] < _middle(rect) < other[3]):
        return False
    return min(word[2], rect[2]) <= (other[0] + other[2]) / 2 <= max(word[0], rect[0])


def _joined_words(words: Sequence[Word]) -> str:
    text = " ".join(_clean(word[4]) for word in words)
    return " ".join(text.split()).strip(" :").strip()


def _clean(text: str) -> str:
    return _BLANK_RUN.sub(" ", text).strip(_BOX_GLYPHS + " ")


def _is_blank(text: str) -> bool:
    return bool(_BLANK_RUN.fullmatch(text.strip()))


def _inside(word: Word | Rect, rect: Rect) -> bool:
    x = (word[0] + word[2]) / 2
    y = (word[1] + word[3]) / 2
    return rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]


# --------------------------------------------------------------------------------------- layout
def _upright(read: Sequence[Sequence[object]], textpage: pymupdf.TextPage) -> list[Word]:
    """The words of a page's lines that run across it: a line printed up its margin ("Print using blue
    or black ink only") or across it aslant (a "DO NOT MAIL" watermark) names no field, though its
    words stand by the blanks."""
    texts = [block for block in textpage.extractDICT()["blocks"] if block["type"] == 0]
    sideways = {  # by the numbers the words carry: a text block's rank among the text blocks, its line's
        (rank, index)
        for rank, block in enumerate(texts)
        for index, line in enumerate(block["lines"])
        if abs(line["dir"][1]) > 0.05 or line["dir"][0] < 0
    }
    return [tuple(word[:5]) for word in read if (word[5], word[6]) not in sideways]  # type: ignore[misc]


def _layout_fields(
    page: pymupdf.Page, textpage: pymupdf.TextPage, words: list[Word], open_blanks: bool = True
) -> list[Place]:
    """A page's fields as its layout draws them. Blanks of white space alone stand in for the widgets
    of a form baked flat: not on the pages without widgets of a form that keeps its widgets
    (`open_blanks` false), where white space is the page's (a report's heading over its abstract)."""
    places = _glyph_boxes(words)
    runs = _blank_runs(_segments_joined(words))
    vectors = sum(block[6] == _VECTOR_BLOCK for block in page.get_text("blocks", textpage=textpage))
    drawn: list[Place] = []
    rules: tuple[list[tuple[float, float, float]], ...] = ([], [])
    drawings = page.get_cdrawings() if vectors else []
    if len(drawings) > _MAX_DRAWINGS:
        return _in_reading_order(_in_columns(places + runs, words))
    if not drawings and _pictured(page):
        drawings = _picture_drawings(page)
    if drawings:
        drawn = _drawn_fields(drawings, words, page, [place[0] for place in places + runs])
        rules = rules_of(drawings, page.rotation_matrix if page.rotation else None)
    found = places + _leaders_to_boxes(runs, drawn)
    if open_blanks:
        found += _open_blanks(words, found, rules, page.rect.width)
    return _in_reading_order(_in_columns(_labels_kept_apart(found, words), words))


def _pictured(page: pymupdf.Page) -> bool:
    """Whether pictures cover half the page or more (a scan, a form printed over a background image),
    on a page whose picture at RULES_DPI is no larger than an OCR's (MAX_OCR_PIXELS): a poster-sized
    page is not drawn to look for its rules."""
    if abs(page.rect) * (RULES_DPI / 72) ** 2 > MAX_OCR_PIXELS:
        return False
    shown = sum(abs(pymupdf.Rect(info["bbox"]) & page.rect) for info in page.get_image_info())
    return bool(shown >= _PICTURED * abs(page.rect))


def _picture_drawings(page: pymupdf.Page) -> list[dict[str, object]]:
    """The rules and empty check boxes a page's picture draws, as the vector drawings that would draw
    them (lines and squares, in the page's own frame, as `get_cdrawings` gives them): a scanned form's
    blanks and boxes are found as a drawn form's are."""
    horizontal, vertical, ink, width, height = picture_lines(page)
    back, scale = page.derotation_matrix, 72 / RULES_DPI
    lines = [(pymupdf.Point(a, y), pymupdf.Point(b, y)) for y, a, b in horizontal]
    lines += [(pymupdf.Point(x, a), pymupdf.Point(x, b)) for x, a, b in vertical]
    drawings: list[dict[str, object]] = [
        {"items": [("l", start * back, end * back)], "color": (0.0, 0.0, 0.0), "fill": None}
        for start, end in lines
    ]
    for box in check_boxes(ink, width, height, RULES_DPI):
        rect = pymupdf.Rect(*(edge * scale for edge in box)) * back
        drawings.append({"items": [("re", rect)], "rect": rect, "color": (0.0, 0.0, 0.0), "fill": None})
    return drawings


def _labels_kept_apart(places: list[Place], words: list[Word]) -> list[Place]:
    """The labels of fields side by side on a line, each cut at the next field: a label read across
    another box ("[ ] Ending of the previous membership  [ ] Other: ____" read whole as the first box's
    label and the blank's) is that box's own words and the other's. A label is only cut shorter, to
    its words on the field's side of the other box, and only one read from the words beside the field
    (a caption under a rule, or one at each end of a box, is left as it is). A blank's label cut to one
    word is kept whole unless a colon ends that word: the blank after "Apt. [ ] Ste. [ ] Flr. [ ]" takes
    all three, "Check type of income: [ ] Rental [ ] Other ____" its question, "[ ] Other: ____" is
    "Other"."""
    boxes = [place[0] for place in places if place[2] == "checkbox"]
    kept: list[Place] = []
    for place in places:
        rect, label, kind = place[0], place[1], place[2]
        middle = _middle(rect)
        beside = [other for other in boxes if other != rect and other[1] < middle < other[3]]
        if beside and label and _printed_label(rect, words, kind == "checkbox") == label:
            cut = _printed_label(rect, words, kind == "checkbox", beside)
            shorter = cut and cut != label and (label.startswith(cut) or label.endswith(cut))
            if shorter and (kind == "checkbox" or len(cut.split()) > 1 or _colon_before(rect, words)):
                place = (rect, cut, *place[2:])
        kept.append(place)
    return kept


def _colon_before(rect: Rect, words: Sequence[Word]) -> bool:
    """Whether the word right before a field on its line ends with a colon ("[ ] Other: ____")."""
    level = [
        word for word in words
        if word[1] - 2 <= _middle(rect) <= word[3] + 2 and word[2] <= rect[0] + 2 and _clean(word[4])
    ]  # fmt: skip
    nearest = max(level, key=lambda word: word[2], default=None)
    return nearest is not None and nearest[4].rstrip().endswith(":")


# -------------------------------------------------------------------------------- open blanks
_FLUSH = 0.6  # text heights under a rule or a box that a caption flush under it starts within
_OPEN_UNDER = 1.8  # font sizes of empty space under a caption that make room to write in
_OPEN_RIGHT = 96.0  # points of empty line after a label that make a blank on its line
_OPEN_COLON = 30.0  # points after a caption that ends in its colon, in a ruled band, that make a blank
_COLON_ENDED = re.compile(r":\s*(?:\([^()]*\))?$")
_HEADING_WORDS = 16  # words at most of a column's heading (a long one names its column and says how)
_OPEN_WORDS = 8  # words of a caption at most: a longer line is a sentence, not a field's name


def _open_blanks(
    words: list[Word], found: list[Place], rules: tuple[list[tuple[float, float, float]], ...], width: float
) -> list[Place]:
    """Blanks nothing but white space marks: the form printed its captions and left room to write (a
    fillable form's box without a border, baked flat). A short caption with empty space under it, as
    wide as the space to the next caption on its line, is the blank under it ("Last Name" over an empty
    band); else a label followed by a long empty stretch of its line ("Calle ______ , nº") is the blank
    after it. A line that ends a paragraph (the line above runs on past it) names no blank, and the room
    must hold no word, no drawn rule and no field already found."""
    taken = [place[0] for place in found]
    labels = [place[1] for place in found]
    texts = [word for word in words if _clean(word[4]) and not _is_blank(word[4])]
    marks = [word for word in words if word[4].strip()]  # dots and underscores take room too
    if not texts:
        return []
    right_edge = max(max(word[2] for word in texts), width - min(word[0] for word in texts))
    horizontal, vertical = rules
    named = " | ".join(_clean(label).casefold() for label in labels)
    places: list[Place] = []
    for line in _text_lines(texts):
        groups = _captions(line)
        for index, group in enumerate(groups):
            label = _joined_words(group)
            if len(group) > _OPEN_WORDS or sum(char.isalpha() for char in label) < _LABEL_LETTERS:
                continue
            if label.casefold() in named:
                continue  # the caption of a field already found
            size = median([word[3] - word[1] for word in group])
            x0, y0 = group[0][0], min(word[1] for word in group)
            x1, y1 = group[-1][2], max(word[3] for word in group)
            end = groups[index + 1][0][0] - size if index + 1 < len(groups) else right_edge
            end = min([end] + [x for x, a, b in vertical if x > x1 and a < y1 and b > y0])  # a frame's side
            if _ends_paragraph((x0, y0, x1, y1), texts, size, horizontal):
                continue  # running text
            under = _room_under((x0, y1, end, y1), marks, horizontal, size)
            right = (x1 + 0.5 * size, y0 - 0.2 * size, end, y1 + 0.2 * size)
            near = (right[0], y0 - 0.8 * size, right[2], y1 + 0.8 * size)  # no rule right over or under it
            level = (right[0], _middle(right) - 0.3 * size, right[2], _middle(right) + 0.3 * size)
            below = (x0, y1, end, y1 + 3 * size)
            open_right = (
                right[2] - right[0] >= _OPEN_RIGHT
                and _empty(level, marks, [], [])
                and _empty(near, [], horizontal, vertical)
            )
            # a caption ending in its colon may sit right under or over a rule drawn across it too (a
            # frame's top, a shaded heading's edge): that rule is no line to write on
            after = [rule for rule in horizontal if rule[1] > x0 + size]  # rules that start past it
            open_after_colon = _COLON_ENDED.search(" ".join(word[4] for word in group)) and (
                open_right
                or (
                    right[2] - right[0] >= _OPEN_RIGHT
                    and _empty(level, marks, [], [])
                    and _empty(near, [], after, vertical)
                )
            )
            if banded := _in_band(group, right, level, marks, horizontal, vertical, size):
                box = banded
            elif open_after_colon:
                # "Titel:" with its line empty after it: the value goes after the colon; within its line
                # where the room reaches over a field found (a caption stacked right under it)
                line_only = (right[0], y0 + 0.1 * size, right[2], y1 - 0.1 * size)
                box = (
                    line_only
                    if not open_right or any(_overlap(right, other) > 0 for other in taken)
                    else right
                )
            elif any(_overlap(below, other) > 0 for other in taken):
                continue  # a heading over fields found: the room under it is theirs
            elif under is not None and _empty(under, marks, horizontal, vertical):
                box = under
            elif open_right:
                box = right
            else:
                continue
            if any(_overlap(box, other) > 0 for other in taken):
                continue
            taken.append(box)
            places.append((box, label, "text", None, None))
    return places


def _in_band(
    group: list[Word],
    right: Rect,
    level: Rect,
    marks: list[Word],
    horizontal: list[tuple[float, float, float]],
    vertical: list[tuple[float, float, float]],
    size: float,
) -> Rect | None:
    """The blank after a caption that ends in its colon (or its colon and a note in brackets, "Name:
    (please print)") in the ruled band its line sits in ("Height:  Weight:  Pulse:" in a row between two
    rules, a cell's "Exam Date:"): the room after it, empty, no rule across its line, a rule right under
    it all along (drawn in one piece or several), wide enough for a short value; its box starts under
    the rule over the line if one cuts its top. None where the room is no such blank."""
    x0, y0, x1, y1 = right
    if not _COLON_ENDED.search(" ".join(word[4] for word in group)) or x1 - x0 < _OPEN_COLON:
        return None
    if not _empty(level, marks, horizontal, vertical):
        return None
    under = sorted((a, b) for y, a, b in horizontal if y1 - 0.2 * size <= y <= y1 + 0.8 * size)
    reach = x0 + size
    for a, b in under:
        if a > reach + _TOUCH:
            break
        reach = max(reach, b)
    if reach < x1 - size:
        return None
    roof = max((y for y, a, b in horizontal if y0 <= y <= level[1] and a < x1 and b > x0), default=y0 - 1.0)
    return (x0, roof + 1.0, x1, y1)


def _text_lines(words: list[Word]) -> list[list[Word]]:
    """The page's words in lines: words whose middles lie within half a height of each other, left to
    right."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda word: (_middle(word[:4]), word[0])):
        if lines and abs(_middle(lines[-1][-1][:4]) - _middle(word[:4])) <= 0.5 * (word[3] - word[1]):
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda word: word[0]) for line in lines]


def _ends_paragraph(
    rect: Rect, words: list[Word], size: float, horizontal: Sequence[tuple[float, float, float]] = ()
) -> bool:
    """Whether the words are a line of running text, not a caption: a sentence (five words or more that
    end with a full stop), the line after one of a block (the run of words right above starts about
    where they do and holds five words or more, or, a line's pitch above, runs on past their end), or
    the first line of a block (the run right under them starts there and holds five words or more).
    Captions stacked apart
    (a band to write in between them) are no block, however long the one above; nor are lines a drawn
    rule parts (a row of captions over a table's heading)."""
    line = [word for word in words if _inside(word, rect)]
    if len(line) >= 5 and line[-1][4].endswith("."):
        return True
    colon = bool(line) and line[-1][4].endswith(":")
    middle = _middle(rect)
    for low, high in ((middle - 2.2 * size, middle - 0.5 * size), (middle + 0.5 * size, middle + 2.2 * size)):
        near = sorted(
            (word for word in words if low <= _middle(word[:4]) <= high and word[2] > rect[0] - size),
            key=lambda word: word[0],
        )
        run = _captions(near)[0] if near else []
        if not run or run[0][0] > rect[0] + size:
            continue
        top, bottom = sorted((middle, _middle(run[0][:4])))
        if any(top < y < bottom and a < rect[2] and b > rect[0] for y, a, b in horizontal):
            continue
        if low < middle and _set_apart(run, middle, words, size):
            continue  # the last line of a paragraph an empty line above the caption
        if colon and any(word[4].endswith(":") for word in run):
            continue  # labels stacked, each ending in its colon ("Forme juridique :" under "Dénomination :")
        if len(run) >= 5:
            return True
        tight = low < middle and middle - _middle(run[0][:4]) <= 1.5 * size
        if tight and run[-1][2] > rect[2] + 2 * size:
            return True
    return False


def _set_apart(run: list[Word], middle: float, words: list[Word], size: float) -> bool:
    """Whether a line above a caption is the last of a paragraph set apart from it: the paragraph's own
    lines are closer to each other, by half a font size or more, than that line is to the caption (an
    empty line between them)."""
    above = _middle(run[0][:4])
    previous = [
        _middle(word[:4])
        for word in words
        if above - 2.2 * size <= _middle(word[:4]) <= above - 0.5 * size and abs(word[0] - run[0][0]) <= size
    ]
    return bool(previous) and middle - above > above - max(previous) + 0.5 * size


def _room_under(
    span: Rect, words: list[Word], horizontal: list[tuple[float, float, float]], size: float
) -> Rect | None:
    """The empty band under a caption over its span, down to the next word or drawn rule across it
    (four lines deep at most), when it is deep enough to write in; else None."""
    x0, top, x1, _ = span
    if x1 - x0 < _MIN_FIELD:
        return None
    floor = top + 4 * size
    for word in words:
        if word[1] >= top - 0.1 * size and word[0] < x1 and word[2] > x0:
            floor = min(floor, word[1])
    for y, a, b in horizontal:
        if y > top - 0.3 * size and a < x1 and b > x0:  # a rule under the caption's words counts
            floor = min(floor, y)
    if floor - top < _OPEN_UNDER * size:
        return None
    return (x0, top + 1.0, x1, floor - 1.0)


def _empty(
    rect: Rect,
    words: list[Word],
    horizontal: list[tuple[float, float, float]],
    vertical: list[tuple[float, float, float]],
) -> bool:
    """Whether no word and no drawn rule lies in the rectangle."""
    x0, y0, x1, y1 = rect
    if any(word[0] < x1 and word[2] > x0 and word[1] < y1 and word[3] > y0 for word in words):
        return False
    if any(y0 < y < y1 and a < x1 and b > x0 for y, a, b in horizontal):
        return False
    return not any(x0 < x < x1 and a < y1 and b > y0 for x, a, b in vertical)


def _in_columns(places: list[Place], words: list[Word]) -> list[Place]:
    """Fields in a grid of boxes (a row's label at its left, a column's heading over it, as in "You",
    "Spouse" columns of a tax schedule), whose row alone does not tell them apart: each labelled by
    its row and its column."""
    texts = [place for place in places if place[2] == "text"]
    columns: list[list[Place]] = []
    for place in sorted(texts, key=lambda place: (place[0][0], place[0][1])):
        column = next(
            (
                column
                for column in columns
                if abs(column[-1][0][0] - place[0][0]) <= 3 and abs(column[-1][0][2] - place[0][2]) <= 3
            ),
            None,
        )
        if column is None:
            columns.append([place])
        else:
            column.append(place)
    headed: dict[Rect, str] = {}
    for column in columns:
        if len(column) < 3:
            continue
        top = min(column, key=lambda place: place[0][1])[0]
        over = [
            word for word in words
            if top[1] - 40 <= word[3] <= top[1] + 1 and word[0] >= top[0] - 6 and word[2] <= top[2] + 6
            and _clean(word[4]) and not any(_inside(word, place[0]) for place in places)
        ]  # fmt: skip
        heading = _joined_words(sorted(over, key=lambda word: (round(word[1]), word[0])))
        if heading:
            headed.update((place[0], heading) for place in column)
    if not headed:
        return places
    rows: dict[Rect, str] = {}
    for place in texts:
        level = _row_of(place, [other for other in texts if abs(_middle(other[0]) - _middle(place[0])) <= 3])
        labels = [other[1] for other in level]
        if len(level) >= 2 and (labels.count(place[1]) > 1 or _says_little(place[1])):
            first = min(level, key=lambda other: other[0][0])
            rows[place[0]] = first[1]
    return [
        (place[0], f"{rows[place[0]]}, {headed[place[0]]}", *place[2:])
        if place[0] in headed and place[0] in rows
        else place
        for place in places
    ]


def _row_of(place: Place, level: list[Place]) -> list[Place]:
    """The fields of `place`'s row (`level`: the text fields on its line), a box drawn twice (as a
    cell, and as a frame inside it) counted once: its twin is no second field of its label. Unless
    another box of the row says the same words (the row's label at its left, one box with the "00"
    of its cents): the row does not tell those boxes apart, and the twin keeps them in the columns."""
    twins = [
        other for other in level
        if other is not place and min(_overlap(place[0], other[0]), _overlap(other[0], place[0])) >= 0.8
    ]  # fmt: skip
    apart = [other for other in level if not any(other is twin for twin in twins)]
    said = _worded(place[1])
    if any(other is not place and _worded(other[1]) == said for other in apart):
        return level
    return apart


def _worded(label: str) -> list[str]:
    """A label's words that hold a letter: labels that differ only by figures or signs ("00", "$")
    say the same thing."""
    return [word.casefold() for word in label.split() if any(char.isalpha() for char in word)]


def _says_little(label: str) -> bool:
    """A label that names nothing: none found ("blank"), or a mark, a number or a letter only."""
    return label == "blank" or sum(char.isalpha() for char in label) < _LABEL_LETTERS


def _leaders_to_boxes(runs: list[Place], drawn: list[Place]) -> list[Place]:
    """Dots that lead to a box on their line ("Total income ........ [    ]") are no blank: the box is
    the field, and the dots' label is its label. A box that holds a blank run of its own (underscores
    typed in it) is a blank of the line like the run before it, not the end of a leader."""
    kept: list[Place] = []
    labelled: dict[int, str] = {}
    for run in runs:
        rect = run[0]
        target = next(
            (
                index
                for index, place in enumerate(drawn)
                if place[0][1] - 2 <= _middle(rect) <= place[0][3] + 2
                and 0 <= place[0][0] - rect[2] <= _LEADER_GAP
                and not any(_overlap(other[0], place[0]) > 0.5 for other in runs if other is not run)
            ),
            None,
        )
        if target is None:
            kept.append(run)
        elif target not in labelled:
            labelled[target] = run[1]
    boxes = [
        (place[0], labelled[index], place[2], place[3], place[4]) if index in labelled else place
        for index, place in enumerate(drawn)
    ]
    return kept + boxes


def _glyph_boxes(words: list[Word]) -> list[Place]:
    """Check boxes printed as a glyph (☐ US citizen)."""
    places: list[Place] = []
    for index, word in enumerate(words):
        text = word[4]
        if not text or text[0] not in _BOX_GLYPHS:
            continue
        size = word[3] - word[1]
        box = (word[0], word[1], word[0] + min(size, word[2] - word[0]), word[3])
        rest = text[1:].strip()
        label = rest + " " + _label_on("right", box, words[index + 1 :], []) if rest else ""
        label = label.strip() or _printed_label(box, words, checkbox=True)
        places.append((box, label or "check box", "checkbox", None, None))
    return places


_SEGMENT_GAP = 0.6  # word heights: underscore runs this close on a line are one segmented blank


def _segments_joined(words: list[Word]) -> list[Word]:
    """The words with runs of underscores a space apart on one line joined into one run: a blank typed
    in segments ("Bank: ___ ___ ___ ___", each segment two underscores or more) is one blank, wider than
    any of its segments, which alone are too narrow to write on. The joined run stands where its first
    segment stood and every other word keeps its place: the order of the words decides which blank a
    label takes first."""
    order = sorted(range(len(words)), key=lambda at: (round(words[at][1]), words[at][0]))
    joined: list[tuple[Word, list[int]]] = []  # each run as joined so far, with the words it holds
    for at in order:
        word = words[at]
        if joined and _segment_after(joined[-1][0], word):
            last, held = joined[-1]
            run = (last[0], min(last[1], word[1]), word[2], max(last[3], word[3]), last[4] + "_" + word[4])
            joined[-1] = (run, [*held, at])
        else:
            joined.append((word, [at]))
    standing = {min(held): run for run, held in joined}
    return [standing[at] for at in range(len(words)) if at in standing]


def _segment_after(last: Word, word: Word) -> bool:
    """Whether `word` is a run of underscores a space after the run `last`, on its line."""
    return (
        _underscores(word[4])
        and _underscores(last[4])
        and abs(word[1] - last[1]) < 2
        and abs(word[3] - last[3]) < 2
        and 0 <= word[0] - last[2] <= _SEGMENT_GAP * (word[3] - word[1])
    )


def _underscores(text: str) -> bool:
    return len(text) >= 2 and not text.strip("_")


def _blank_runs(words: list[Word]) -> list[Place]:
    """Blanks typed as underscores or dots ("Name: ________"), each with the text before it."""
    places: list[Place] = []
    taken: list[Rect] = []
    for word in words:
        text = word[4]
        for match in _BLANK_RUN.finditer(text):
            share = (word[2] - word[0]) / max(len(text), 1)
            box = (word[0] + share * match.start(), word[1], word[0] + share * match.end(), word[3])
            if box[2] - box[0] < _MIN_FIELD:
                continue
            before = text[: match.start()]
            label = _clean(before.rsplit("_", 1)[-1]) if before.strip("_. ") else ""
            if label and not label.endswith(":") and _glued_to_words(word, words):
                start = (word[0], word[1], word[0] + 1.0, word[3])
                label = f"{_label_on('left', start, words, taken)} {label}"
            elif not label or len(label) < 3:
                previous = _label_on("left", box, words, taken)
                label = " ".join(part for part in (previous, label) if part)
            asked = ""
            if label.strip() and sum(char.isalpha() for char in label) < _LABEL_LETTERS:
                asked = _question_ending_before(box, words, label)  # "...etc.?   $ ______"
            if asked:
                label = f"{asked} {label}"
            elif not any(char.isalnum() for char in label):
                label = ""  # a mark before the blank ("✗ ______" where one signs): it names nothing
            underscores = match.group().startswith("_")
            captions = _captions_under_run(box, words) if underscores else []
            if underscores and not captions and label and not label.endswith(":"):
                caption = _caption_under_run(box, words)
                label = f"{caption}, {label}" if caption else label
            if captions:  # "Print ________" over "Last Name   First Name   Middle Name": a blank each
                pieces = _under_captions(box, captions)
                first = pieces[0]
                taken.append(box)
                places += [(first[0], ", ".join(p for p in (first[1], label.strip(" :")) if p), *first[2:])]
                places += pieces[1:]
                continue
            label = (
                label
                or (underscores and not _labelled_over(box, words, taken) and _caption_under_run(box, words))
                or _caption_alone_under(box, words, taken)
                or _label_on("above", box, words, taken)
            )
            taken.append(box)
            places.append((box, label.strip(" :") or "blank", "text", None, None))
    return places


def _captions_under_run(box: Rect, words: list[Word]) -> list[Word]:
    """A line of several captions parted by wide gaps flush under a blank typed as underscores, all of
    it under the blank and no blank of its own in it: one caption for each part of the blank ("Print
    ______" over "Last Name   First Name   Middle Name"). A line under the blank that holds blanks of
    its own, or runs out left of it, is a line of the form, not captions; dots lead to a box, and the
    line under them is the next row's."""
    height = _height(box)
    line = [
        word for word in words
        if box[3] - 0.25 * height <= word[1] <= box[3] + 0.3 * height
        and word[2] > box[0] and word[0] < box[2]
    ]  # fmt: skip
    if not line or any(_BLANK_RUN.search(word[4]) for word in line):
        return []
    line.sort(key=lambda word: word[0])
    if line[0][0] < box[0] - 2 or line[-1][2] > box[2] + 2 or not all(_clean(word[4]) for word in line):
        return []
    if max(word[1] for word in line) - min(word[1] for word in line) >= 3:
        return []
    if len(_captions(line)) < 2 or line[0][0] > box[0] + 0.25 * (box[2] - box[0]):
        return []
    return line


def _labelled_over(box: Rect, words: list[Word], taken: list[Rect]) -> bool:
    """Whether a line of words stands right over a blank (within half its height): its label there."""
    above = _line_above(box, words, taken)
    return bool(above) and box[1] - max(word[3] for word in above) < 0.5 * _height(box)


def _caption_under_run(box: Rect, words: list[Word]) -> str:
    """The one caption flush under a blank typed as underscores, from its very start and within its
    width ("Your dependents  ________" over "How many dependents?"): it says what the blank takes,
    where the text before the blank names the row, so the label holds both."""
    height = _height(box)
    line = sorted(
        (
            word for word in words
            if box[3] - 0.25 * height <= word[1] <= box[3] + 0.5 * height
            and word[2] > box[0] and word[0] < box[2]
        ),
        key=lambda word: word[0],
    )  # fmt: skip
    if not line or any(_BLANK_RUN.search(word[4]) or not _clean(word[4]) for word in line):
        return ""
    if abs(line[0][0] - box[0]) > 2 or line[-1][2] > box[2] + 2 or len(_captions(line)) != 1:
        return ""
    if max(word[1] for word in line) - min(word[1] for word in line) >= 3:
        return ""
    return _joined_words(line)


def _glued_to_words(word: Word, words: list[Word]) -> bool:
    """Whether a word that runs into a dot leader ("income.........") ends a line of words, one space
    before it: the label is that line up to the leader, not its last word."""
    size = word[3] - word[1]
    return any(
        abs(_middle(other[:4]) - _middle(word[:4])) <= size / 2
        and 0 <= word[0] - other[2] <= 0.5 * size
        and _clean(other[4])
        for other in words
        if other is not word
    )


def _caption_alone_under(box: Rect, words: list[Word], taken: list[Rect]) -> str:
    """The caption flush under a blank from its start ("_______ / Case Number") or centred under it
    ("......" over "(Ort, Datum)"), when the line above the blank stands across an empty line (a
    title, or the caption of the blank above): that caption is the blank's own. A line right over the
    blank is its label instead."""
    height = _height(box)
    caption = [
        word for word in words
        if box[3] - 0.25 * height <= word[1] <= box[3] + 0.3 * height and box[0] - 2 <= word[0] < box[2]
        and _clean(word[4]) and not _is_blank(word[4])
    ]  # fmt: skip
    if not caption:
        return ""
    if min(word[0] for word in caption) > box[0] + 0.25 * (box[2] - box[0]) and not _centred(
        caption, box[0], box[2], height
    ):
        return ""
    above = _line_above(box, words, taken)
    if above and box[1] - max(word[3] for word in above) < 0.5 * height:
        return ""
    top = min(word[1] for word in caption)
    return _joined_words(sorted((w for w in caption if w[1] <= top + 2), key=lambda word: word[0]))


def _drawn_fields(
    drawings: list[dict[str, object]], words: list[Word], page: pymupdf.Page, known: list[Rect]
) -> list[Place]:
    """Fields drawn with vector paths: empty cells of ruled tables and boxes, the blank part of a
    labelled box, small empty squares (check boxes) and rules with a label before or above them."""
    turn = page.rotation_matrix if page.rotation else None
    # a line drawn right to left (or upwards) is the same rule; a box's rounded corner closes it
    drawn_rules = rules_of(drawings, turn, corners=True)
    horizontal, vertical = ([(at, min(a, b), max(a, b)) for at, a, b in rules] for rules in drawn_rules)
    grids = ruled_grids(horizontal, vertical)
    rectangles = _rectangles(drawings, turn) + _ruled_boxes(horizontal, vertical)
    rectangles += _striped_rows(rectangles, _tints(drawings, turn), words)
    places, combed = _combs([cell for grid in grids for cell in grid.cells] + rectangles, words)
    cells: list[Rect] = []
    text_height = _text_height(words)
    corners: dict[tuple[int, int], list[Rect]] = {}  # the boxes by their top-left corner, to 4 points
    for grid in grids:
        cells += list(grid.cells)
        free = [cell for cell in grid.cells if cell not in combed]
        places += _table_cells(free, words, bool(grid.rows and grid.columns))
    table_cells = set(cells)
    for cell in cells:
        corners.setdefault((round(cell[0] / 4), round(cell[1] / 4)), []).append(cell)
    for rect in rectangles:
        corner = round(rect[0] / 4), round(rect[1] / 4)
        near = list(_near_corner(corners, corner))
        if any(_same_box(rect, cell) for cell in near):
            continue  # drawn twice, or a cell of a table already read
        if any(_frames(rect, cell) for cell in near if cell in table_cells):
            continue  # the outline of a row (or a block) of a table's cells: they are its fields
        cells.append(rect)
        corners.setdefault(corner, []).append(rect)
        if rect not in combed:
            places += _box_field(rect, words, boxes=rectangles, text_height=text_height)
    edges: dict[int, list[tuple[float, float]]] = {}  # the cells' tops and bottoms, by their height
    for cell in cells:
        for y in (cell[1], cell[3]):
            edges.setdefault(round(y / 2), []).append((cell[0], cell[2]))
    whole = _across_separators(_pieces_joined(horizontal, (vertical, words, text_height)), words, text_height)
    walls = {
        rule: _walls_rising(*rule, (horizontal, vertical), cells)
        if _colon_over(*rule, words, text_height)
        else []
        for rule in whole
        if rule[2] - rule[1] >= _MIN_FIELD * 1.5
    }
    blanks = [
        (y, x0, x1)
        for (y, x0, x1), risen in walls.items()
        if not any(
            _edge_or_inside(y, x0, x1, cell, words) and not _parts_room_over(y, risen, cell) for cell in cells
        )
        and (risen or not _along_edges(y, x0, x1, edges))
    ]  # not the edge of a box or a table, nor a line inside an empty box (the box is the field)
    long_rules = [rule for rule in whole if rule[2] - rule[1] >= _MIN_FIELD]  # a check box's edge is none
    under = _captioned_under(blanks, long_rules, words, text_height)
    taken = known + [place[0] for place in places]
    blanks += _short_labelled_rules(whole, blanks, taken, words, text_height, cells, edges)
    claimed = [  # the captions those rules take: no other rule's label from above
        word[:4] for y, x0, x1 in under for word in _caption_under(y, x0, x1, words, text_height)
    ]
    ruled: list[Rect] = []  # the rules' blanks found so far: one before a rule on its line ends its label
    for y, x0, x1 in blanks:
        found = _rule_field(
            y, x0, x1, words, text_height, taken, (y, x0, x1) in under, claimed, whole, vertical, ruled
        )
        places += found
        ruled += [place[0] for place in found]
    return places


_SHORT_RULE = 18.0  # points: the shortest rule a label at its left makes a blank of (an age, a rate)


def _short_labelled_rules(
    whole: Sequence[tuple[float, float, float]],
    blanks: Sequence[tuple[float, float, float]],
    taken: Sequence[Rect],
    words: list[Word],
    text_height: float,
    cells: list[Rect],
    edges: dict[int, list[tuple[float, float]]],
) -> list[tuple[float, float, float]]:
    """The short rules after a label that are blanks (see `_short_labelled_rule`), only on a line where
    no other field stands: a line that already holds a blank (a tax table's line and its amount box) or
    a rule to write on has its value's place, and a short rule beside it is a piece of the table."""
    height = max(text_height, 9.0) * 1.1
    fields = list(taken) + [(x0, y - height, x1, y) for y, x0, x1 in blanks]
    return [
        (y, x0, x1)
        for y, x0, x1 in whole
        if x1 - x0 < _MIN_FIELD * 1.5
        and not any(_edge_or_inside(y, x0, x1, cell, words) for cell in cells)
        and not _along_edges(y, x0, x1, edges)
        and not _field_on_line((x0, y - height, x1, y), fields)
        and _short_labelled_rule((y, x0, x1), whole, words, text_height)
    ]


def _field_on_line(box: Rect, fields: Sequence[Rect]) -> bool:
    """Whether another field's middle stands in the band of `box`'s line, anywhere across the page."""
    return any(
        box[1] <= _middle(field) <= box[3] + 2.0 and (field[2] <= box[0] or field[0] >= box[2])
        for field in fields
    )


def _short_labelled_rule(
    rule: tuple[float, float, float],
    rules: Sequence[tuple[float, float, float]],
    words: list[Word],
    text_height: float,
) -> bool:
    """Whether a rule too short to be a blank alone ("Spouse's Age ____", "Self ____" of a tax form's
    columns) has a label right at its left on its line and nothing printed on it: a short rule by
    itself may be an ornament or a piece of a drawing, one after a label is its blank. A short rule
    that another rule runs into is that blank's tail (the cents after "$ ______")."""
    y, x0, x1 = rule
    if x1 - x0 < _SHORT_RULE:
        return False
    if any(abs(other[0] - y) <= _TOUCH and abs(other[2] - x0) <= 2 * _TOUCH for other in rules):
        return False
    box = (x0, y - max(text_height, 9.0) * 1.1, x1, y)
    if any(_inside(word, box) and _clean(word[4]) for word in words):
        return False
    middle = _middle(box)
    ends = [word[2] for word in words if word[1] - 2 <= middle <= word[3] + 2 and word[2] <= x0 + 2]
    if not ends or x0 - max(ends) > max(3 * text_height, 24.0):
        return False  # the label stands right before it, not a column's width away
    return sum(char.isalpha() for char in _label_on("left", box, words, [])) >= _LABEL_LETTERS


def _across_separators(
    rules: Sequence[tuple[float, float, float]], words: list[Word], text_height: float
) -> list[tuple[float, float, float]]:
    """Rules on one line parted only by separators printed between them ("___/___/___" of a date,
    "___-___" of a number in groups) as one rule: one value written in its groups. The gap holds a
    separator and nothing else, no wider than a few characters."""
    joined: list[tuple[float, float, float]] = []
    height = max(text_height, 9.0) * 1.1
    for rule in sorted(rules, key=lambda rule: (round(rule[0] / _TOUCH), rule[1])):
        if joined and abs(rule[0] - joined[-1][0]) <= _TOUCH and 0 < rule[1] - joined[-1][2] <= 2 * height:
            y, x0, x1 = joined[-1]
            gap = (x1, y - height, rule[1], y)
            between = [word for word in words if _inside(word, gap) and word[4].strip()]
            if between and all(_SEPARATOR.fullmatch(word[4].strip()) for word in between):
                joined[-1] = (y, x0, rule[2])
                continue
        joined.append(rule)
    return joined


_TOUCH = 1.0  # points: rule pieces this close, end to start and in height, are one rule
_EVEN_STEPS = 1.5  # points: a stack of rules this evenly spaced is lines to write on, whatever their spans


def _pieces_joined(
    rules: Sequence[tuple[float, float, float]],
    walls: tuple[Sequence[tuple[float, float, float]], list[Word], float] | None = None,
) -> list[tuple[float, float, float]]:
    """Rules drawn in short pieces that touch end to start, each too short to be a blank (a comb's
    baseline drawn cell by cell), as one rule. A long piece stays apart from the pieces it meets: two
    long ones are two blanks side by side (the rules of "Last name" and "Date of death" butting), a
    short one before a long one is the rule under a line's number; pieces parted by a gap stay apart
    too ("City ___ State ___"). A piece within the one before it is that one drawn again. So the table
    finder's looser joining is not for blanks. With `walls` (the vertical rules, the words and their
    height), long pieces that meet where a vertical rule hangs down from the line, none rises above it
    and a word over the line stands across the joint are one rule: the floor of a room drawn in pieces
    at the walls of the cells under it, which part the cells below, not the room above, whose caption
    runs on over the joint ("Make/maka A:s efternamn efter vigseln:")."""
    lines: list[list[tuple[float, float, float]]] = []
    for rule in sorted(rules):
        if lines and rule[0] - lines[-1][0][0] <= _TOUCH:
            lines[-1].append(rule)
        else:
            lines.append([rule])
    joined: list[list[float]] = []  # y, start, end, and the length of the run's last piece
    for line in lines:
        start = len(joined)
        for y, x0, x1 in sorted(line, key=lambda rule: rule[1]):
            last = joined[-1] if len(joined) > start else None
            if last and x0 >= last[1] - _TOUCH and x1 <= last[2] + _TOUCH:
                continue  # drawn twice (a form's rule and the edge of its widget baked over it)
            if last and max(x1 - x0, last[3]) < _MIN_FIELD * 1.5 and x0 <= last[2] + _TOUCH:
                last[2], last[3] = max(last[2], x1), x1 - x0
            elif last and walls and abs(x0 - last[2]) <= _TOUCH and _wall_below_only(y, x0, *walls):
                last[2], last[3] = x1, x1 - x0
            else:
                joined.append([y, x0, x1, x1 - x0])
    return [(y, x0, x1) for y, x0, x1, _ in joined]


def _walls_rising(
    y: float,
    x0: float,
    x1: float,
    rules: tuple[Sequence[tuple[float, float, float]], Sequence[tuple[float, float, float]]],
    cells: Sequence[Rect],
) -> list[tuple[float, float]]:
    """(x, top) of the vertical rules (of `rules`, horizontal and vertical) that rise from a rule, within
    its span, up to no horizontal rule, and are no side of a cell standing on the rule: walls parting a
    room over it, open at its top, that no cell accounts for ("Make/maka A:s efternamn: | Make/maka B:s
    efternamn:" over a row of boxes)."""
    horizontal, vertical = rules
    over = [cell for cell in cells if abs(cell[3] - y) <= 2]
    return [
        (x, top)
        for x, top, bottom in vertical
        if x0 - 2 <= x <= x1 + 2
        and abs(bottom - y) <= 2
        and top < y - 6
        and not any(abs(cell[0] - x) <= 2 or abs(cell[2] - x) <= 2 for cell in over)
        and not any(abs(at - top) <= 2 and left - 2 <= x <= right + 2 for at, left, right in horizontal)
    ]


def _colon_over(y: float, x0: float, x1: float, words: list[Word], height: float) -> bool:
    """Whether a caption ending in its colon stands over a rule, within its span and two lines of text
    of it: a label whose value is written on the rule."""
    return any(
        word[4].endswith(":") and x0 - 2 <= word[0] and word[2] <= x1 + 2 and y - 2 * height <= word[3] <= y
        for word in words
    )


def _parts_room_over(y: float, walls: list[tuple[float, float]], cell: Rect) -> bool:
    """Whether walls rising from a rule make it the floor of a row open at its top, though it is an edge
    of `cell`: the cell stands under the rule (the rule along the boxes' tops is that row's writing line
    too), or over it with a wall inside it that the cell does not account for."""
    if abs(y - cell[1]) <= 2:
        return bool(walls)
    return any(cell[0] + 2 < x < cell[2] - 2 and top > cell[1] + 2 for x, top in walls)


def _wall_below_only(
    y: float, x: float, vertical: Sequence[tuple[float, float, float]], words: list[Word], height: float
) -> bool:
    """Whether a vertical rule hangs down from the point (x, y) of a horizontal one, none rises above it
    there, and the words of a line in the room over the rule (up to three lines of text) run on across x."""
    near = [(top, bottom) for at, top, bottom in vertical if abs(at - x) <= _TOUCH]
    below = any(abs(top - y) <= 2 * _TOUCH and bottom > y + 3 for top, bottom in near)
    if not below or any(top < y - 3 and bottom >= y - _TOUCH for top, bottom in near):
        return False
    over = [word for word in words if y - 3 * height <= word[3] <= y + _TOUCH]
    return any(word[0] < x < word[2] for word in over) or any(
        left[2] <= x <= right[0] and right[0] - left[2] <= height / 2 and abs(left[3] - right[3]) <= 1
        for left in over
        for right in over
    )  # a word across x, or a space between two words of one line


def _edge_or_inside(y: float, x0: float, x1: float, cell: Rect, words: list[Word]) -> bool:
    """Whether a rule is the top or bottom of a box (or of a cell), or lies inside an empty one. A rule
    inside a box that holds text (a frame round a section: "Reason: ______" in it) is a blank of its own."""
    if not (cell[0] - 2 <= x0 and x1 <= cell[2] + 2 and cell[1] - 2 <= y <= cell[3] + 2):
        return False
    if y <= cell[1] + 2 or y >= cell[3] - 2:
        return True
    return not _holds_text(cell, words)


def _captioned_under(
    blanks: list[tuple[float, float, float]],
    rules: Sequence[tuple[float, float, float]],
    words: list[Word],
    text_height: float,
) -> set[tuple[float, float, float]]:
    """The rules of the stacks (rules of one left edge, one under the other) that print each rule's
    caption under it: the last rule of such a stack has a caption flush under it, and no rule under
    that caption for it to name (none within one and a half times the stack's spacing), or else every
    rule has a caption flush under it and nothing is printed over the top rule, within the spacing (a
    rule closing the section under the last caption then names nothing). A top rule with no caption
    under it over rules that all have one is the section's top line, not one of them."""
    stacks: list[list[tuple[float, float, float]]] = []
    for column in _left_aligned(blanks):
        column.sort()
        stacks.append(column[:1])
        for above, rule in pairwise(column):
            if rule[0] - above[0] <= 3.5 * text_height and not _sections_border(
                rule, above, words, text_height
            ):
                stacks[-1].append(rule)
            else:
                stacks.append([rule])  # a wide gap, or a border across: another stack, of another section
    found: set[tuple[float, float, float]] = set()
    for stack in stacks:
        if (
            len(stack) > 2
            and not _caption_under(*stack[0], words, text_height)
            and all(_caption_under(*rule, words, text_height) for rule in stack[1:])
        ):
            stack = stack[1:]  # the section's top line over a stack whose every rule is captioned under
        if len(stack) > 2 and not _caption_under(*stack[-1], words, text_height):
            kept = stack[:-1]  # the last rule may close the section under the stack's last caption
            if _open_topped(
                kept, median([b[0] - a[0] for a, b in pairwise(kept)]), rules, words, text_height
            ):
                stack = kept
        if len(stack) < 2:
            if _lone_captioned_under(stack[0], rules, words, text_height):
                found.add(stack[0])
            continue
        spacing = median([b[0] - a[0] for a, b in pairwise(stack)])
        y, x0, x1 = stack[-1]
        if spacing < text_height * 1.5 or _roofed(stack[0], rules, text_height):
            continue
        if not _caption_under(y, x0, x1, words, text_height):
            continue
        if any(
            y < other[0] <= y + 1.5 * spacing
            and other[1] < x1
            and other[2] > x0
            and not _sections_border(other, (y, x0, x1), words, text_height)
            for other in rules
        ) and not _open_topped(stack, spacing, rules, words, text_height):
            continue
        found.update(stack)
    return found | _row_mates(found, blanks, words, text_height)


def _row_mates(
    found: set[tuple[float, float, float]],
    blanks: list[tuple[float, float, float]],
    words: list[Word],
    text_height: float,
) -> set[tuple[float, float, float]]:
    """The rules beside a rule captioned under, on its line, whose captions stand flush under them at
    the same height as its caption: a row of blanks side by side ("First Name", "MI", "Last Name"
    under one line of rules) is captioned one way, though a rule under the row names another stack."""
    mates: set[tuple[float, float, float]] = set()
    for rule in found:
        caption = _caption_under(*rule, words, text_height)
        if not caption:
            continue
        top = min(word[1] for word in caption)
        for other in blanks:
            if other in found or abs(other[0] - rule[0]) > 1:
                continue
            beside = _caption_under(*other, words, text_height)
            if beside and abs(min(word[1] for word in beside) - top) <= 1:
                mates.add(other)
    return mates


_BORDER = 1.25  # times a rule's length: a rule under it this much longer, over all of it, parts sections


def _sections_border(
    other: tuple[float, float, float], rule: tuple[float, float, float], words: list[Word], text_height: float
) -> bool:
    """Whether a rule under another runs over all of its span and well beyond, with no caption under
    it (nothing, or a sentence: the next section's text): the border closing the section (a line across
    the page under a block of captioned rules), not a blank under the captions."""
    _, x0, x1 = rule
    return (
        other[1] <= x0 + 3
        and other[2] >= x1 - 3
        and other[2] - other[1] >= _BORDER * (x1 - x0)
        and len(_caption_under(*other, words, text_height)) not in range(1, _OPEN_WORDS + 1)
    )


_ALIGNED = 4.0  # points: rules whose left ends lie this near (one to the next) start at one left edge


def _left_aligned(rules: Sequence[tuple[float, float, float]]) -> list[list[tuple[float, float, float]]]:
    """The rules grouped by their left ends, a group holding the rules that start within a few points of
    the next one, and within twice that of its leftmost: rules drawn a little apart (a thin filled box
    under a stroked line, 2 points further left) stand in one column, which cutting the page into fixed
    bands of x could part; rules stepping right a few points at a time (an indented list's lines) do not
    chain into one column however far they go."""
    columns: list[list[tuple[float, float, float]]] = []
    for rule in sorted(rules, key=lambda rule: rule[1]):
        if (
            columns
            and rule[1] - columns[-1][-1][1] <= _ALIGNED
            and rule[1] - columns[-1][0][1] <= 2 * _ALIGNED
        ):
            columns[-1].append(rule)
        else:
            columns.append([rule])
    return columns


def _roofed(
    rule: tuple[float, float, float], rules: Sequence[tuple[float, float, float]], text_height: float
) -> bool:
    """Whether another rule runs over a rule nearer than a line of text: no one writes on it, it is the
    top of a band whose caption stands at its top (a return's "Your social security number" under
    the ruled head of its column), not a line to write on with its caption under it."""
    y, x0, x1 = rule
    return any(y - text_height <= other[0] < y - 1 and other[1] < x1 and other[2] > x0 for other in rules)


def _open_topped(
    stack: list[tuple[float, float, float]],
    spacing: float,
    rules: Sequence[tuple[float, float, float]],
    words: list[Word],
    text_height: float,
) -> bool:
    """Whether each rule of a stack, all of one span or evenly spaced (rules of several spans at uneven
    steps are the edges of boxes), has a caption flush under it and nothing is printed or drawn over its
    top rule within the stack's spacing: a caption could not stand over that rule, so they stand under."""
    top, x0, x1 = stack[0]
    steps = [b[0] - a[0] for a, b in pairwise(stack)]
    if any(abs(rule[1] - x0) > 3 or abs(rule[2] - x1) > 3 for rule in stack) and (
        not steps or max(steps) - min(steps) > _EVEN_STEPS
    ):
        return False  # rules of several spans at uneven steps: the edges of boxes, not lines to write on
    if any(top - spacing <= other[0] < top - 1 and other[1] < x1 and other[2] > x0 for other in rules):
        return False  # a rule right over the top one: the top of a box whose caption is at its top
    if not all(_caption_under(y, left, right, words, text_height) for y, left, right in stack):
        return False
    return not any(
        top - spacing <= word[3] <= top + 1 and word[0] < x1 and word[2] > x0 and _clean(word[4])
        for word in words
    )


def _lone_captioned_under(
    rule: tuple[float, float, float],
    rules: Sequence[tuple[float, float, float]],
    words: list[Word],
    text_height: float,
) -> bool:
    """A rule of no stack with its caption flush under it, from its start ("HOME" under a phone's
    rule), and no text right above it (the nearest line above is a heading across a gap): the caption
    names it, unless a rule just under the caption takes it as the caption over its own blank."""
    y, x0, x1 = rule
    caption = _caption_under(y, x0, x1, words, text_height)
    if not caption or caption[0][0] > x0 + max(text_height, 6.0):
        return False
    bottom = max(word[3] for word in caption)
    if any(
        bottom < other[0] <= bottom + 2 * text_height and other[1] < x1 and other[2] > x0 for other in rules
    ):
        return False
    above = [
        word[3] for word in words if word[3] <= y + 1 and word[0] < x1 and word[2] > x0 and _clean(word[4])
    ]
    return not above or y - max(above) > 1.5 * text_height


_CAPTION_LEAD = 4.0  # points: a caption under a rule may start this far before it (a rule drawn inset)


def _caption_under(
    y: float, x0: float, x1: float, words: list[Word], text_height: float, reach: float = _FLUSH
) -> list[Word]:
    """The words flush under a rule, from its start: a caption printed under the line to write on (it
    may start a little before the rule, which a form may draw inset from its column's edge)."""
    line = [word for word in _flush_under(y, words, text_height, reach) if x0 - _CAPTION_LEAD <= word[0] < x1]
    if not line or line[0][0] > x0 + 0.25 * (x1 - x0):
        return []
    return line


def _flush_under(y: float, words: list[Word], text_height: float, reach: float = _FLUSH) -> list[Word]:
    """The words of text whose tops lie flush under a line at `y` (within `reach` of a text's height),
    left to right: the line a caption under a rule or a box is printed on."""
    return sorted(
        (word for word in words if y - 1 <= word[1] <= y + reach * text_height and _clean(word[4])),
        key=lambda word: word[0],
    )


def _rectangles(drawings: list[dict[str, object]], turn: pymupdf.Matrix | None) -> list[Rect]:
    found: list[Rect] = []
    for drawing in drawings:
        fill = drawing.get("fill")
        if fill is not None and drawing.get("color") is None and not _light(fill):
            continue  # a dark area (a bar, shading), not a box to write in; a light one is an input box
        items = list(drawing.get("items", ()))  # type: ignore[call-overload]
        if fill is not None and 3 <= len(items) <= 4 and all(_axis_line(item) for item in items):
            items = [("re", drawing["rect"])]  # a filled box drawn as a closed path of lines
        for item in items:
            if item[0] != "re":
                continue
            rect = pymupdf.Rect(item[1])
            if turn is not None:
                rect = rect * turn
            filled_only = fill is not None and drawing.get("color") is None
            tall_enough = rect.width >= _CHECK_SIZE[0] and rect.height >= _CHECK_SIZE[0]
            if tall_enough and (not filled_only or rect.height <= _TALLEST_TINT):
                found.append(_rect(rect))
    return found


def _tints(drawings: list[dict[str, object]], turn: pymupdf.Matrix | None) -> list[Rect]:
    """The pale bands filled without an outline, not white: the shaded rows of a form striped row by
    row (white boxes are a page's own colour, the backgrounds of boxes with their captions between)."""
    found: list[Rect] = []
    for drawing in drawings:
        fill = drawing.get("fill")
        if drawing.get("color") is not None or not _light(fill) or min(fill) >= _WHITE:  # type: ignore[call-overload]
            continue
        for item in drawing.get("items", ()):  # type: ignore[attr-defined]
            if item[0] == "re":
                rect = pymupdf.Rect(item[1]) * turn if turn is not None else pymupdf.Rect(item[1])
                found.append(_rect(rect))
    return found


def _striped_rows(boxes: list[Rect], tints: list[Rect], words: list[Word]) -> list[Rect]:
    """The white rows of a form striped row by row, a pale band every other row (each shaded row is
    a box of its own): between two bands of one column and one height, the gap as tall as they are,
    and over the first band and under the last a row of that height, each with its caption at its left.
    Two bands at least make the stripes; a row where something else is drawn is none."""
    columns: dict[tuple[int, int], list[Rect]] = {}
    for band in tints:
        columns.setdefault((round(band[0]), round(band[2])), []).append(band)
    rows: list[Rect] = []
    for column in columns.values():
        for bands in _runs_of_stripes(sorted(set(column), key=lambda band: band[1])):
            height, x0, x1 = _height(bands[0]), bands[0][0], bands[0][2]
            gaps = [(upper[3], lower[1]) for upper, lower in pairwise(bands)]
            ends = [(bands[0][1] - height, bands[0][1]), (bands[-1][3], bands[-1][3] + height)]
            for top, bottom in gaps + ends:
                row = (x0, top, x1, bottom)
                if _caption_at_left(row, words) and not any(_overlap(row, box) > 0.1 for box in boxes):
                    rows.append(row)
    return rows


def _runs_of_stripes(bands: list[Rect]) -> list[list[Rect]]:
    """Bands of one column (in order down the page) in runs of two or more of one height, each apart
    from the next by that height: every other row of a striped stack (bands apart by other gaps are
    no stripes)."""
    runs: list[list[Rect]] = []
    run: list[Rect] = []
    for band in bands:
        height = _height(band)
        previous = run[-1] if run else None
        if (
            previous is not None
            and abs(_height(previous) - height) <= _STRIPE_SLACK
            and abs(band[1] - previous[3] - height) <= _STRIPE_SLACK
        ):
            run.append(band)
            continue
        runs.append(run)
        run = [band] if height >= 8 else []
    runs.append(run)
    return [run for run in runs if len(run) >= 2]


def _caption_at_left(row: Rect, words: list[Word]) -> bool:
    """Whether a word starts a row: its middle inside the row's height, its start in the row's first
    fifth."""
    x0, top, x1, bottom = row
    return any(
        top <= (word[1] + word[3]) / 2 <= bottom and x0 <= word[0] <= x0 + 0.2 * (x1 - x0) for word in words
    )


def _ruled_boxes(
    horizontal: Sequence[tuple[float, float, float]], vertical: Sequence[tuple[float, float, float]]
) -> list[Rect]:
    """Boxes drawn with four lines that make no table (a lone box, a column of boxes): two rules of one
    span, one under the other, joined at both ends by vertical rules; a comb's cell (a short span) needs
    one vertical across it only, as forms draw each cell's top and bottom with a tick at its start."""
    spans: dict[tuple[int, int], list[float]] = {}
    for y, x0, x1 in horizontal:
        spans.setdefault((round(min(x0, x1) / 2), round(max(x0, x1) / 2)), []).append(y)
    sides: dict[int, list[tuple[float, float]]] = {}
    for x, y0, y1 in vertical:
        sides.setdefault(round(x / 2), []).append((min(y0, y1), max(y0, y1)))

    def side(x: int, top: float, bottom: float) -> bool:
        return any(
            start <= top + 2 and end >= bottom - 2
            for near in (x - 1, x, x + 1)
            for start, end in sides.get(near, ())
        )

    def tick(left: int, right: int, top: float, bottom: float) -> bool:
        return any(side(x, top, bottom) for x in range(left, right + 1))

    boxes: list[Rect] = []
    for (left, right), tops in spans.items():
        # the rule under each, among those of this span give or take the rounding of its ends
        ys = sorted(
            {y for dx in (-1, 0, 1) for dy in (-1, 0, 1) for y in spans.get((left + dx, right + dy), ())}
        )
        cell = (right - left) * 2 <= _COMB_CELL  # a comb's cell: a tick anywhere across it parts it
        for top in tops:
            bottom = next((y for y in ys if y > top + 0.5), None)
            if bottom is None or not 6 <= bottom - top <= _TALLEST_TINT:
                continue
            if (side(left, top, bottom) and side(right, top, bottom)) or (
                cell and tick(left, right, top, bottom)
            ):
                boxes.append((left * 2.0, top, right * 2.0, bottom))
    return boxes


def _axis_line(item: Sequence[object]) -> bool:
    if item[0] != "l":
        return False
    start: Sequence[float] = item[1]  # type: ignore[assignment]
    end: Sequence[float] = item[2]  # type: ignore[assignment]
    return abs(start[0] - end[0]) < 0.5 or abs(start[1] - end[1]) < 0.5


def _light(fill: object) -> bool:
    """A pale tint (or white, over a tinted band), as forms give their input boxes."""
    if not isinstance(fill, tuple | list) or len(fill) != 3:
        return False
    shade = 0.3 * float(fill[0]) + 0.59 * float(fill[1]) + 0.11 * float(fill[2])
    return shade >= 0.75


def _combs(rects: list[Rect], words: list[Word]) -> tuple[list[Place], set[Rect]]:
    """Rows of three small empty boxes or more, side by side (one per character, as for a tax number):
    one field each row."""
    marks = sorted(
        (word for word in words if _clean(word[4]) and not _SEPARATOR.fullmatch(word[4])),
        key=lambda word: (word[1] + word[3]) / 2,
    )
    middles = [(word[1] + word[3]) / 2 for word in marks]  # the marks by height, to look up a cell's
    separators = [word for word in words if _SEPARATOR.fullmatch(word[4])]
    small = sorted(
        {
            rect
            for rect in rects
            if rect[2] - rect[0] <= _COMB_CELL
            and 8 <= _height(rect) <= 30
            and not _holds_text(rect, marks[bisect_left(middles, rect[1]) : bisect_right(middles, rect[3])])
        },
        key=lambda rect: (round(rect[1]), rect[0]),
    )
    first = _once_each(small)
    chains: list[list[Rect]] = []
    for rect in sorted(small, key=lambda rect: rect[0]):  # left to right, whatever their rows' heights
        if first[rect] != rect:
            continue
        for chain in chains:
            last = chain[-1]
            gap = rect[0] - last[2]
            if (
                abs(last[1] - rect[1]) <= 1.5
                and abs(last[3] - rect[3]) <= 1.5
                and (
                    -2 <= gap <= _COMB_GAP  # cells drawn a point over each other too
                    or (
                        gap <= 2 * (rect[2] - rect[0])
                        and _holds_text((last[2], rect[1], rect[0], rect[3]), separators)
                    )
                )
            ):
                chain.append(rect)
                break
        else:
            chains.append([rect])
    places: list[Place] = []
    used: set[Rect] = set()
    for chain in chains:
        if len(chain) < 3:
            continue
        box = (chain[0][0], min(rect[1] for rect in chain), chain[-1][2], max(rect[3] for rect in chain))
        places.append((box, _printed_label(box, words) or "blank", "text", None, None))
        used.update(chain)
    used.update(rect for rect in small if first[rect] in used)  # and their second copies
    return places, used


def _once_each(cells: list[Rect]) -> dict[Rect, Rect]:
    """Each cell's first copy: cells drawn twice a point or so apart (a fill and its outline drawn as
    two paths) are one, as two copies of a row of cells would make two chains of every other cell."""
    first: dict[Rect, Rect] = {}
    near: dict[tuple[int, int], list[Rect]] = {}
    for cell in cells:
        corner = round(cell[0] / 3), round(cell[1] / 3)
        copies = [
            other
            for other in _near_corner(near, corner)
            if all(abs(a - b) <= 1.5 for a, b in zip(cell, other, strict=True))
        ]
        first[cell] = copies[0] if copies else cell
        if not copies:
            near.setdefault(corner, []).append(cell)
    return first


def _near_corner(boxes: dict[tuple[int, int], list[Rect]], corner: tuple[int, int]) -> Iterator[Rect]:
    """The boxes (kept by their top-left corner rounded to a grid) whose corner falls in the grid
    square of `corner` or one of its eight neighbours."""
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            yield from boxes.get((corner[0] + dx, corner[1] + dy), ())


def _holds_text(rect: Rect, words: list[Word]) -> bool:
    return any(_inside(word, rect) and _clean(word[4]) for word in words)


def _same_box(a: Rect, b: Rect) -> bool:
    return all(abs(p - q) <= 2.0 for p, q in zip(a, b, strict=True))


def _along_edges(y: float, x0: float, x1: float, edges: dict[int, list[tuple[float, float]]]) -> bool:
    """Whether a rule runs along the tops or bottoms of cells for nearly all its length: a line of a
    table drawn in one stroke across several cells, not a blank of its own."""
    spans = sorted(
        span for key in (round(y / 2) - 1, round(y / 2), round(y / 2) + 1) for span in edges.get(key, ())
    )
    covered, reached = 0.0, x0
    for start, end in spans:
        start, end = max(start, reached), min(end, x1)
        if end > start:
            covered += end - start
            reached = end
    return covered >= 0.9 * (x1 - x0)


def _frames(box: Rect, cell: Rect) -> bool:
    """Whether a box shares its top-left corner with a smaller cell inside it: it draws round cells."""
    return (
        abs(box[0] - cell[0]) <= 2.0
        and abs(box[1] - cell[1]) <= 2.0
        and cell[2] <= box[2] + 2.0
        and cell[3] <= box[3] + 2.0
        and (cell[2] < box[2] - 2.0 or cell[3] < box[3] - 2.0)
    )


def _table_cells(cells: Sequence[Rect], words: list[Word], table: bool) -> list[Place]:
    places: list[Place] = []
    held = {cell: [word for word in words if _inside(word, cell) and _clean(word[4])] for cell in cells}
    for cell in cells:
        inside = held[cell]
        if inside:
            places += _box_field(cell, words, inside, not _heads_column(cell, cells, held), cells)
            continue
        if cell[2] - cell[0] < _MIN_FIELD or _height(cell) < 8:
            continue
        label = _header_label(cell, cells, held) if table else ""
        if _says_little(label):  # no header, or the line's number only ("a [    ]"): the line's words
            label = _printed_label(cell, words) or label
        places.append((cell, label or "blank", "text", None, None))
    return places


def _heads_column(cell: Rect, cells: Sequence[Rect], held: dict[Rect, list[Word]]) -> bool:
    """Whether an empty cell of the same span stands right under a cell: the cell is its column's
    heading ("TIN" over the rows' numbers), all of it a label, though its words leave room at the right."""
    return any(
        not held[other] and abs(other[0] - cell[0]) <= 2 and abs(other[2] - cell[2]) <= 2
        and abs(other[1] - cell[3]) <= 2
        for other in cells
    )  # fmt: skip


def _header_label(cell: Rect, cells: Sequence[Rect], held: dict[Rect, list[Word]]) -> str:
    """An empty cell's label: the text of the first cell of its row and of the top cell of its column
    (`held`: the words in each cell), or the label ending in a colon in the cell at its left."""
    row = [other for other in cells if abs(_middle(other) - _middle(cell)) < 2 and other[2] <= cell[0] + 2]
    column = [
        other for other in cells
        if abs((other[0] + other[2]) / 2 - (cell[0] + cell[2]) / 2) < 2 and other[3] <= cell[1] + 2
    ]  # fmt: skip
    # a cell whose row says what it is (a row's label at its left) is a table's, its column's
    # heading no caption of its own
    caption = "" if any(held[other] for other in row) else _caption_cell_over(cell, column, held)
    if caption:
        return caption
    beside = next((other for other in sorted(row, key=lambda rect: -rect[0]) if held[other]), None)
    if beside is not None and max(held[beside], key=lambda word: word[2])[4].endswith(":"):
        # a row of labels each before its box ("Name: [ ] Abbreviation: [ ]"): the label ending in
        # its colon nearest at the left is the box's own
        return _joined_words(held[beside])
    parts = []
    for group in (row, column):
        for other in sorted(group, key=lambda rect: (rect[0], rect[1])):
            text = _joined_words(held[other])
            if text:
                if group is row or not _runs_on(text):  # a column's heading, no paragraph over the grid
                    parts.append(text)
                break
    return ", ".join(parts)


_SENTENCE_BREAK = re.compile(r"\.\s+\S")  # a full stop inside the text, or the dots of a leader


def _runs_on(text: str) -> bool:
    """Whether a cell's text is running text, no heading: it opens in small letters (a sentence's middle),
    breaks after a full stop inside it or is a leader's dots, or has more words than a heading."""
    return text[:1].islower() or bool(_SENTENCE_BREAK.search(text)) or len(text.split()) > _HEADING_WORDS


def _caption_cell_over(cell: Rect, column: Sequence[Rect], held: dict[Rect, list[Word]]) -> str:
    """The text of the cell right over an empty cell, when it is one line in a strip no taller than
    the cell and the column's top cell says something else: a grid that ruled each box's caption in
    a strip of its own, row after row ("DEFENDANT'S NAME" over its box, "OTHER NAMES USED" over the
    next), names each box by its strip, not by the column's first."""
    over = [other for other in column if abs(other[3] - cell[1]) <= 2 and held[other]]
    if len(over) != 1:
        return ""
    strip, words = over[0], held[over[0]]
    if len(_captions_lines(words)) != 1 or _height(strip) > _height(cell):
        return ""
    top = min(column, key=lambda rect: (rect[1], rect[0]))
    return _joined_words(words) if top != strip else ""


def _opened_by_signs(inside: list[Word], x0: float, x1: float) -> bool:
    """Whether the words on a blank are signs only ("$", "="), at its start: they open it."""
    return all(not any(char.isalnum() for char in word[4]) for word in inside) and max(
        word[2] for word in inside
    ) <= x0 + 0.3 * (x1 - x0)


_LABEL_SHARE = 0.5  # of a rule's length: a label printed on it at its start ends before this
_BOX_LABEL_SHARE = 0.65  # of a box's width: its frame shows where the blank after its label ends


def _opened_by_label(on: list[Word], x0: float, x1: float, share: float = _LABEL_SHARE) -> bool:
    """Whether the words on a rule are a label at its start, the rest of it left free to write on (a
    form that runs each line's rule under its label too): they begin at the rule's start, end before
    its middle, on two lines at most, and leave a blank twice the narrowest a value is written on. A
    heading's underline, or a value written on the line, runs on under the words to the rule's end."""
    if _says_little(_joined_words(on)):
        return False  # a line's number or mark ("l", "3a") at the start: the box is all blank
    if len(_captions_lines(on)) > 2:
        return False  # labels one under the other ("Name:", "Address:", "City:"): a blank for each
    start, end = min(word[0] for word in on), max(word[2] for word in on)
    return (
        start <= x0 + max(0.1 * (x1 - x0), 12.0)
        and end <= x0 + share * (x1 - x0)
        and x1 - end >= 2 * _MIN_FIELD
    )


def _captions_lines(words: list[Word]) -> list[float]:
    """The heights of the lines the words stand on (a word whose middle is within 3 points of a line's
    is on it)."""
    lines: list[float] = []
    for middle in sorted((word[1] + word[3]) / 2 for word in words):
        if not lines or middle - lines[-1] > 3:
            lines.append(middle)
    return lines


def _box_field(
    rect: Rect,
    words: list[Word],
    inside: list[Word] | None = None,
    label_left: bool = True,
    boxes: Sequence[Rect] = (),
    text_height: float | None = None,
) -> list[Place]:
    """A box: a check box when small and square, a field when empty, its blank part when its label is
    printed in its top part (or at its left, unless `label_left` is false: a column's heading); nothing
    when text fills it."""
    inside = [word for word in words if _inside(word, rect) and _clean(word[4])] if inside is None else inside
    width, height = rect[2] - rect[0], _height(rect)
    signs = [word for word in inside if not any(char.isalnum() for char in word[4])]
    if inside and len(signs) == len(inside) and min(word[0] for word in signs) >= rect[0] + 0.5 * width:
        # "Commission [        %]": a unit closes the box, the blank is before it
        end = min(word[0] for word in signs) - 1.0
        if end - rect[0] < _MIN_FIELD or height < 8:
            return []
        label = _printed_label(rect, words)
        if not any(char.isalnum() for char in label):
            label = ""
        return [((rect[0], rect[1], end, rect[3]), label or "blank", "text", None, None)]
    if inside and _opened_by_signs(inside, rect[0], rect[2]):
        start = max(word[2] for word in signs) + 1.0  # "= [     ]", "$ [     ]": a sign opens the box
        if rect[2] - start < _MIN_FIELD or height < 8:
            return []
        label = _printed_label(rect, words)
        if not any(char.isalnum() for char in label):
            label = ""  # the sign itself, read in the box's top part, names nothing
        return [((start, rect[1], rect[2], rect[3]), label or "blank", "text", None, None)]
    if not inside:
        if _CHECK_SIZE[0] <= width <= _CHECK_SIZE[1] and _CHECK_SIZE[0] <= height <= _CHECK_SIZE[1]:
            if 0.7 <= width / height <= 1.4:
                return [
                    (rect, _printed_label(rect, words, checkbox=True) or "check box", "checkbox", None, None)
                ]
            return []
        if width < _MIN_FIELD or height < 8:
            return []
        label = _caption_hugging_under(rect, words, boxes, text_height) or _printed_label(rect, words)
        return [(rect, label or "blank", "text", None, None)]
    caption = [word for word in inside if word not in signs] or inside
    bottom = max(word[3] for word in caption)
    below = [word for word in signs if word[1] >= bottom - 1 and word[0] <= rect[0] + 0.3 * width]
    if len(below) < len(signs) or len(caption) == len(inside):  # a sign among the caption's lines
        caption, below = inside, []
        bottom = max(word[3] for word in caption)
    size = median([word[3] - word[1] for word in caption])
    beside = (  # a label of one line at the box's left ending in its colon, the box's width free after it
        label_left
        and not signs
        and len(_captions_lines(inside)) == 1
        and max(inside, key=lambda word: word[2])[4].rstrip().endswith(":")
        and _opened_by_label(inside, rect[0], rect[2], _box_label_share(inside))
    )
    if (  # room under the caption for a line of its size (a word's box is some 1.2-1.4 font sizes tall)
        rect[3] - bottom >= max(0.8 * size, 9.0)
        and (rect[3] - bottom) >= 0.4 * height
        and width >= _MIN_FIELD
        and not (beside and rect[3] - bottom < _ROOM_UNDER * size)  # barely a line under "Name:": beside it
    ):  # the blank under the caption, after a sign that opens it ("1 Unemployment compensation / $ ___")
        start = max([rect[0]] + [word[2] for word in below]) + 1
        blank = (start, bottom + 1, rect[2] - 1, rect[3] - 1)
        return _under_captions(blank, sorted(caption, key=lambda word: (round(word[1]), word[0])))
    tallest = median([word[3] - word[1] for word in inside])  # a superscript's taller box aside ("6th")
    if (
        label_left
        and not signs
        and height >= 1.5 * tallest
        and _opened_by_label(inside, rect[0], rect[2], _box_label_share(inside))
        and not _empty_box_after(rect, boxes, words)
    ):
        # "Name (first, last) [      ]" in one box; a band no taller than its words is a caption strip
        blank = (max(word[2] for word in inside) + 1.0, rect[1] + 1, rect[2] - 1, rect[3] - 1)
        label = _joined_words(sorted(inside, key=lambda word: (round(word[1]), word[0])))
        return [(blank, label, "text", None, None)]
    if (
        label_left
        and not signs
        and height <= _ONE_ROW * tallest
        and len(_captions_lines(inside)) <= 2
        and not _strip_over_boxes(rect, boxes, words)
    ):
        # one row of captions (a twin may sit a little higher); a taller box stacks captions of its own
        # a row of a stack of ruled rows, no empty box after it ("Device | [      ]": that box is the field)
        lone = _in_a_stack(rect, boxes) and not _empty_box_after(rect, boxes, words)
        return _blanks_between_captions((rect[0], rect[1] + 1, rect[2], rect[3] - 1), inside, lone)
    return []


def _text_height(words: list[Word]) -> float:
    """The median height of the page's words (10 points on a page without any)."""
    return median([word[3] - word[1] for word in words] or [10.0])


_ROOM_UNDER = 1.5  # word heights under a label with its colon at a box's left: less, the value goes beside it
_HUGGING = 2.0  # points: a caption this much nearer an empty box's bottom than the line over the box is its
_NEARER = 1.5  # points: nor is it that box's when it is not this much nearer the box than the box under it
_HUGGING_REACH = 1.0  # text heights under an empty box its caption may start (flush or a little below)


def _caption_hugging_under(
    rect: Rect, words: list[Word], boxes: Sequence[Rect] = (), size: float | None = None
) -> str:
    """The caption flush under an empty box, from its left edge or centred under it, that hugs the box
    closer than the line over it does and closer than the box under it, when nothing is printed on its
    left: a form that prints each box's caption under it ("[      ] / Name", "[      ] / Vorname", or
    "[          ] / Property Tag Number" centred), where the line over a box is the caption of the box
    above it, a little further off."""
    x0, y0, x1, y1 = rect
    if _label_on("left", rect, words, []):
        return ""
    size = _text_height(words) if size is None else size  # the page's, measured once by the caller
    under = _caption_under(y1, x0, x1, words, size, _HUGGING_REACH) or _caption_centred_under(
        y1, x0, x1, words, size
    )
    if not under or (under[0][0] > x0 + max(size, 6.0) and not _centred(under, x0, x1, size)):
        return ""
    gap = min(word[1] for word in under) - y1
    above = _line_above(rect, words)
    if above and (y0 - max(word[3] for word in above)) - gap < _HUGGING:
        return ""
    bottom = max(word[3] for word in under)
    if any(
        bottom - 2 <= box[1] < bottom + gap + _NEARER and box[0] < under[0][2] and box[2] > under[0][0]
        for box in boxes
        if box != rect
    ):
        return ""  # a box right under the caption, as near to it: the caption may be that box's
    return _joined_words(under)


def _centred(line: list[Word], x0: float, x1: float, size: float) -> bool:
    """Whether the words stand in the middle of the span from x0 to x1, a font size either way."""
    middle = (min(word[0] for word in line) + max(word[2] for word in line)) / 2
    return abs(middle - (x0 + x1) / 2) <= max(size, 6.0)


def _caption_centred_under(
    y: float, x0: float, x1: float, words: list[Word], text_height: float
) -> list[Word]:
    """The words flush under a box and centred under it (a caption set in the middle, under its box)."""
    line = [word for word in _flush_under(y, words, text_height) if x0 - 2 <= word[0] and word[2] <= x1 + 2]
    return line if line and _centred(line, x0, x1, text_height) else []


def _box_label_share(inside: list[Word]) -> float:
    """How far across a box its label may run and leave the rest to write in: further than on a rule
    for a label of one line (the box's frame shows where the room ends), as far for one of two lines (a
    section's heading and its first caption)."""
    return _BOX_LABEL_SHARE if len(_captions_lines(inside)) == 1 else _LABEL_SHARE


def _strip_over_boxes(rect: Rect, boxes: Sequence[Rect], words: list[Word]) -> bool:
    """Whether an empty box lies right under the box, or under another box of its row: the box is a
    strip of captions over the boxes they name ("City   State   Zip Code" over three boxes)."""

    def heads(cell: Rect) -> bool:
        return any(
            abs(box[1] - cell[3]) <= 2.0
            and min(box[2], cell[2]) - max(box[0], cell[0]) >= 0.5 * (cell[2] - cell[0])
            and not _holds_text(box, words)
            for box in boxes
            if box != cell
        )

    row = [box for box in boxes if abs(box[1] - rect[1]) <= 2.0 and abs(box[3] - rect[3]) <= 2.0]
    return heads(rect) or any(heads(box) for box in row)


def _empty_box_after(rect: Rect, boxes: Sequence[Rect], words: list[Word]) -> bool:
    """Whether an empty box adjoins the box on its right, on its row: the words in the box are that
    box's label ("OTHER NAMES USED | [        ]"), not a label with room to write after it."""
    return any(
        abs(box[0] - rect[2]) <= 2.0
        and min(box[3], rect[3]) - max(box[1], rect[1]) >= 0.5 * _height(rect)
        and box[2] - box[0] >= _MIN_FIELD
        and not _holds_text(box, words)
        for box in boxes
        if box != rect
    )


def _under_captions(blank: Rect, caption: list[Word]) -> list[Place]:
    """The blank under a caption; under one line of several captions parted by wide gaps ("City   State
    ZIP code"), a blank under each, from its caption's start to the next one's."""
    groups = _captions(caption) if max(w[1] for w in caption) - min(w[1] for w in caption) < 3 else []
    x0, x1 = blank[0], blank[2]
    if len(groups) > 1 and groups[0][0][0] <= x0 + 0.25 * (x1 - x0):
        starts = [x0] + [group[0][0] - 2 for group in groups[1:]] + [x1]
        return [
            ((left, blank[1], right, blank[3]), _joined_words(group), "text", None, None)
            for group, left, right in zip(groups, starts, starts[1:], strict=False)
            if right - left >= _MIN_FIELD / 2
        ]
    return [(blank, _joined_words(caption), "text", None, None)]


def _rule_field(
    y: float,
    x0: float,
    x1: float,
    words: list[Word],
    text_height: float,
    known: list[Rect],
    captioned_under: bool = False,
    claimed: list[Rect] | None = None,
    rules: Sequence[tuple[float, float, float]] = (),
    posts: Sequence[tuple[float, float, float]] = (),
    before: Sequence[Rect] = (),
) -> list[Place]:
    """A rule drawn to write on: blank just above it, with its label before it (on its line, up to a
    rule's blank `before` it: "___/___/___ Lugar ____" is named "Lugar") or above, or under it where
    its stack prints its captions so; a rule under several captions parted by wide gaps is a blank
    under each; a rule with its caption printed on it at the foot of an open-topped
    cell (vertical rules, `posts`, rising from its ends) is the room over the caption. Captions side by
    side that a rule takes from under it join `claimed` (rules are read top to bottom): they name no
    rule under them from above."""
    claimed = [] if claimed is None else claimed
    box = (x0, y - max(text_height, 9.0) * 1.1, x1, y)
    if any(_overlap(box, other) > 0.3 for other in known):
        return []  # an underscore run already gave this blank
    on = [word for word in words if _inside(word, box) and _clean(word[4])]
    on = [word for word in on if not _SEPARATOR.fullmatch(word[4].strip())]  # a date's "/" between groups
    if on and _opened_by_signs(on, x0, x1):  # "$ ______": the blank starts after the sign
        x0 = max(word[2] for word in on) + 1.0
        if x1 - x0 < _MIN_FIELD:
            return []
        box, words, on = (x0, box[1], x1, y), [word for word in words if word not in on], []
    room = _room_over_foot_caption(y, x0, x1, on, words, posts, text_height) if on else None
    if room:
        return [(room, _joined_words(on), "text", None, None)]
    if on and _opened_by_label(on, x0, x1):  # "Name (first, last) ______" on one rule: the rest is blank
        x0 = max(word[2] for word in on) + 1.0
        box = (x0, box[1], x1, y)
        label = _joined_words(sorted(on, key=lambda word: (round(word[1]), word[0])))
        return [(box, label, "text", None, None)]
    if on:
        return []  # written on: a heading's underline or a value already filled in
    label = _label_on("left", box, words, list(before))
    if not label and captioned_under:
        under = _caption_under(y, x0, x1, words, text_height)
        return _under_captions(box, under) if under else [(box, "", "text", None, None)]
    caption = _caption_under(y, x0, x1, words, text_height) if label else []
    bottom = max((word[3] for word in caption), default=y)
    if any(y < other[0] < bottom and other[1] < x1 and other[2] > x0 for other in rules) or any(
        bottom < other[0] <= bottom + 2.5 * text_height
        and abs(other[1] - x0) <= 3
        and abs(other[2] - x1) <= 3
        for other in rules
    ):
        caption = []  # a rule right under this one, or under the caption with its span: the edges of a
        # box under this rule, the caption printed at its top
    if caption and max(word[1] for word in caption) - min(word[1] for word in caption) < 3:
        # a blank inside a sentence ("who resides at ____") with its captions printed under it: they name it
        pieces = _under_captions(box, caption)
        first = pieces[0]
        claimed += [word[:4] for word in caption]  # this rule's: no label of the rule under them
        return [(first[0], f"{first[1]}, {label}", *first[2:]), *pieces[1:]]
    nearest = _line_above(box, words) if not label else []
    if nearest and all(any(_inside(word, other) for other in claimed) for word in nearest):
        nearest = []  # the line right above is the caption under the rule over this one: not its label
    above = _line_above(box, words, claimed) if nearest else []
    if above:
        return _under_captions(box, above)
    if not label:
        below = (x0, y, x1, y + max(text_height, 9.0) * 1.2)
        under = [word for word in words if _inside(word, below) and _clean(word[4])]
        if under and max(word[1] for word in under) - min(word[1] for word in under) < 3:
            pieces = _under_captions(box, sorted(under, key=lambda word: word[0]))
            if len(pieces) > 1:  # a caption each: theirs, not the label of a rule under them
                claimed += [word[:4] for word in under]
            return pieces
        label = _joined_words(under)
    return [(box, label, "text", None, None)] if label else []


def _room_over_foot_caption(
    y: float,
    x0: float,
    x1: float,
    on: list[Word],
    words: list[Word],
    posts: Sequence[tuple[float, float, float]],
    text_height: float,
) -> Rect | None:
    """The room to write in over a caption printed on its rule at the foot of an open-topped cell (a
    registration's row "| Plate Number | Title Number | Year |" whose vertical rules rise from the
    rule a line or more over the captions, the cells' tops open): the cell's part over the caption,
    when a vertical rule rises from one end of the rule at least and nothing is printed there. One line
    of caption only, within the rule's span."""
    top = min(word[1] for word in on)
    if max(word[1] for word in on) - top > 3 or min(word[0] for word in on) < x0 - 2:
        return None
    if max(word[2] for word in on) > x1 + 2:
        return None
    risen = [
        post[1]
        for post in posts
        if min(abs(post[0] - x0), abs(post[0] - x1)) <= 3 and abs(post[2] - y) <= 3
        and post[1] <= top - max(text_height, 6.0)
    ]  # fmt: skip
    if not risen:
        return None
    room = (x0, max(min(risen), top - 3 * max(text_height, 6.0)), x1, top - 0.5)
    if any(_inside(word, room) and _clean(word[4]) for word in words):
        return None
    return room


_ONE_ROW = 2.5  # a box's height over its words' at most: one row of a form, not a panel of captions
_WHITE = 0.99  # each of a fill's components at least: white, no shade
_STRIPE_SLACK = 2.0  # points a white row between two shaded ones may differ from their height
_LONE_CAPTION_ROOM = 2 / 3  # of a closed row's width left empty after its one caption, no colon after it
_APART = 2 * _MIN_FIELD  # points of empty rule between two captions on it that make a blank


def _blanks_between_captions(box: Rect, on: list[Word], lone: bool = False) -> list[Place]:
    """The blanks of a box (one row of a ruled form) that holds several captions, wide empty stretches
    between them: a row of a bilingual form prints its caption at the box's start and its twin in the
    other language at its end ("Mother's Name: ______ اسم الأم"), or two such pairs side by side. Each
    stretch is a blank, named by the caption before it (and by the one after it too when that one
    closes the box: the twin). The first caption must open the box and none be a sentence; a lone
    caption makes a blank of the rest of the row when it ends in a colon and leaves most of it empty, or,
    with `lone` (no empty box beside the row to take its value), when it leaves two thirds of it empty."""
    x0, top, x1, y = box
    ordered = sorted(on, key=lambda word: word[0])
    groups: list[list[Word]] = [[ordered[0]]]
    for word in ordered[1:]:
        if word[0] - max(other[2] for other in groups[-1]) >= _APART:
            groups.append([word])
        else:
            groups[-1].append(word)
    if groups[0][0][0] > x0 + max(0.1 * (x1 - x0), 12.0):
        return []
    if (
        len(groups) < 2
        and not _colon_opens(groups[0], x0, x1)
        and not (lone and _leaves_row_open(groups[0], x0, x1))
    ):
        return []
    if any(len(group) > _OPEN_WORDS or _says_little(_joined_words(group)) for group in groups):
        return []
    closing = x1 - max(word[2] for word in groups[-1]) < _APART
    places: list[Place] = []
    for index, group in enumerate(groups):
        start = max(word[2] for word in group) + 1.0
        if index + 1 < len(groups):
            end = groups[index + 1][0][0] - 1.0
        elif closing:
            break
        else:
            end = x1
        named = group + groups[-1] if closing and index == len(groups) - 2 else group
        label = _joined_words(sorted(named, key=lambda word: word[0]))
        places.append(((start, top, end, y), label, "text", None, None))
    return places


def _colon_opens(caption: list[Word], x0: float, x1: float) -> bool:
    """Whether a row's one caption ends in a colon and leaves most of the row empty ("SVP Name:  ...."):
    the value follows it on the row, however tall the caption's letters stand in it."""
    end = max(word[2] for word in caption)
    last = max(caption, key=lambda word: word[2])
    return last[4].rstrip().endswith(":") and x1 - end >= 0.5 * (x1 - x0)


def _in_a_stack(rect: Rect, boxes: Sequence[Rect]) -> bool:
    """Whether a box shares its top or its bottom edge with another box over half its width: a row of a
    form's stack of ruled rows, not a strip standing apart."""
    return any(
        (abs(box[3] - rect[1]) <= 2.0 or abs(box[1] - rect[3]) <= 2.0)
        and min(box[2], rect[2]) - max(box[0], rect[0]) >= 0.5 * (rect[2] - rect[0])
        for box in boxes
        if box != rect
    )


def _leaves_row_open(caption: list[Word], x0: float, x1: float) -> bool:
    """Whether a row's one caption, with no colon, leaves most of its closed box empty after it
    ("Salesman" at the start of a ruled row of a sales application): the row is its field."""
    return x1 - max(word[2] for word in caption) >= _LONE_CAPTION_ROOM * (x1 - x0)


def _overlap(a: Rect, b: Rect) -> float:
    """The share of `a` that `b` covers."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    area = (a[2] - a[0]) * (a[3] - a[1])
    return width * height / area if width > 0 and height > 0 and area > 0 else 0.0


# ---------------------------------------------------------------------------------------- filling
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_MAX_FONT = 11.0  # points: the size a drawn value starts from before it is shrunk to fit its box
_MIN_FONT = 4.0
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")  # Hebrew, Arabic, Syriac, Thaana
_MATCHING_RECT = 0.6  # how much a widget and a field's box must share to be the same place


def parse_color(color: str) -> tuple[float, float, float]:
    """`#rgb` or `#rrggbb` as RGB fractions; ValueError otherwise."""
    if not isinstance(color, str) or not _HEX.fullmatch(color.strip()):
        raise ValueError(f"color must be a hex colour such as #1f3a93 or #000, not {color!r}")
    digits = color.strip()[1:]
    if len(digits) == 3:
        digits = "".join(digit * 2 for digit in digits)
    red, green, blue = (int(digits[at : at + 2], 16) / 255 for at in (0, 2, 4))
    return red, green, blue


def is_true(value: str) -> bool:
    """Whether a value ticks a check box: "true", "yes", "x", "checked", "on", "1" (or "ja", "oui"...),
    in any case."""
    return truth(value) is True


def filled(content: bytes, fields: Sequence[FoundField], color: str = "#000000") -> bytes:
    """The PDF with each field that has a value written: a widget gets it as its form value (the form
    stays editable); a place without a widget gets the text drawn in its box, or a tick.

    A file whose cross-reference table points amiss at an object nothing read before is rebuilt by
    MuPDF while it is saved, from the file's own bytes: the values written are lost. Such a file is
    filled again, as MuPDF rebuilt it, before any value was written."""
    written, rebuilt = _written(content, fields, color)
    if not rebuilt:
        return written
    with _opened(content) as document:
        clean = bytes(document.tobytes())
    return _written(clean, fields, color)[0]


def _written(content: bytes, fields: Sequence[FoundField], color: str) -> tuple[bytes, bool]:
    """The filled PDF, and whether MuPDF rebuilt the file while saving it."""
    rgb = parse_color(color)
    with _opened(content) as document:
        repaired = document.is_repaired
        pages: dict[int, tuple[pymupdf.Page, list[pymupdf.Widget]]] = {}  # a widget needs its page alive
        pen = _Pen(rgb, color)
        drawn = False
        for field in fields:
            if field.value is None or field.value == "":
                continue
            if not 1 <= field.bbox.page <= document.page_count:
                continue
            if field.bbox.page not in pages:
                page = document[field.bbox.page - 1]
                pages[field.bbox.page] = page, list(page.widgets())
            page, widgets = pages[field.bbox.page]
            rect = _page_rect(page, field.bbox)
            widget = _widget_for(field, rect, widgets)
            if widget is not None:
                try:
                    _set_widget(document, widget, field.value, widgets)
                except (RuntimeError, TypeError, ValueError):  # a damaged widget: the others are filled
                    continue
            elif field.type == "checkbox":
                if is_true(field.value):
                    _tick(page, rect, rgb)
                    drawn = True
            else:
                pen.write(page, rect, field.value)
                drawn = True
        pen.finish(document)
        if any(widgets for _, widgets in pages.values()):
            _need_appearances(document)
        out = bytes(document.tobytes(garbage=3 if pen.embedded else 1 if drawn else 0, deflate=True))
        return out, document.is_repaired and not repaired


def _page_rect(page: pymupdf.Page, box: FieldBox) -> pymupdf.Rect:
    width, height = page.rect.width, page.rect.height
    return pymupdf.Rect(
        box.left * width, box.top * height, (box.left + box.width) * width, (box.top + box.height) * height
    )


def _widget_for(
    field: FoundField, rect: pymupdf.Rect, widgets: list[pymupdf.Widget]
) -> pymupdf.Widget | None:
    """The widget a field names (the one whose box is the field's, among buttons of one name), else the
    widget whose box is the field's."""
    named = [widget for widget in widgets if field.widget and widget.field_name == field.widget]
    candidates = named or widgets
    best, best_share = None, 0.0
    for widget in candidates:
        share = min(
            _overlap(_rect(rect), _rect(pymupdf.Rect(widget.rect))),
            _overlap(_rect(pymupdf.Rect(widget.rect)), _rect(rect)),
        )
        if share > best_share:
            best, best_share = widget, share
    if best is not None and (best_share >= _MATCHING_RECT or (len(named) == 1 and best_share > 0)):
        return best
    return named[0] if len(named) == 1 else None


def _set_widget(
    document: pymupdf.Document, widget: pymupdf.Widget, value: str, page_widgets: list[pymupdf.Widget]
) -> None:
    kind = widget.field_type
    if kind in _CHECK_WIDGETS:
        _set_button(
            document,
            widget,
            is_true(value) or value.strip().lower() == _on_state(document, widget).lower(),
            page_widgets,
        )
        return
    if kind in {_COMBOBOX, _LISTBOX}:
        choices = [choice if isinstance(choice, str) else choice[-1] for choice in widget.choice_values or []]
        wanted = value.strip().lower()
        widget.field_value = next((choice for choice in choices if choice.lower() == wanted), value)
    else:
        limit = widget.text_maxlen
        widget.field_value = value[:limit] if limit else value
    widget.update()


def _on_state(document: pymupdf.Document, widget: pymupdf.Widget) -> str:
    """A button's on state as its appearance dictionary names it, escapes kept ("S#ED" for "Sí")."""
    kind, states = document.xref_get_key(widget.xref, "AP/N")
    if kind == "xref":
        states = document.xref_object(int(states.split()[0]))
    names = [name for name in re.findall(r"/([^\s/<>\[\]()]+)\s+\d+\s+\d+\s+R", states) if name != "Off"]
    return names[0] if names else "Yes"


def _set_button(
    document: pymupdf.Document, widget: pymupdf.Widget, on: bool, page_widgets: list[pymupdf.Widget]
) -> None:
    """A check box or radio button on or off, written into the PDF as it is: its appearance state and
    its field's value (the widget's own, or its parent's when the widget is one of its buttons)."""
    state = _on_state(document, widget) if on else "Off"
    has_name = document.xref_get_key(widget.xref, "T")[0] != "null"
    kind, parent = document.xref_get_key(widget.xref, "Parent")
    field = widget.xref if has_name or kind != "xref" else int(parent.split()[0])
    if on and field != widget.xref:
        for other in page_widgets:  # the group's other buttons go off
            if other.field_name == widget.field_name and other.xref != widget.xref:
                document.xref_set_key(other.xref, "AS", "/Off")
    document.xref_set_key(widget.xref, "AS", f"/{state}")
    document.xref_set_key(field, "V", f"/{state}")


def _need_appearances(document: pymupdf.Document) -> None:
    """Tell viewers to draw the fields anew from their values (a value in a script the field's own
    font lacks shows then too)."""
    catalog = document.pdf_catalog()
    kind, form = document.xref_get_key(catalog, "AcroForm")
    if kind == "xref":
        document.xref_set_key(int(form.split()[0]), "NeedAppearances", "true")
    elif kind == "dict":
        document.xref_set_key(catalog, "AcroForm/NeedAppearances", "true")


class _Pen:
    """Writes values into boxes: one TextWriter a page, fonts chosen per character (Nimbus Sans for
    Latin, Greek and Cyrillic, Droid Sans Fallback for CJK and the rest MuPDF has), each embedded once;
    text in a right-to-left script goes through MuPDF's HTML layout, which shapes it."""

    def __init__(self, rgb: tuple[float, float, float], color: str) -> None:
        self.rgb, self.color = rgb, color
        self.fonts = [pymupdf.Font("helv"), pymupdf.Font("cjk")]
        self.writers: dict[int, tuple[pymupdf.Page, pymupdf.TextWriter]] = {}
        self.embedded = False  # a font other than the base one: subset the fonts at the end

    def write(self, page: pymupdf.Page, rect: pymupdf.Rect, value: str) -> None:
        box = pymupdf.Rect(rect.x0 + 1, rect.y0, rect.x1 - 1, rect.y1)
        if box.width <= 2 or box.height <= 2:
            return
        if _RIGHT_TO_LEFT.search(value):
            self._shaped(page, box, value)
            return
        size, lines = self._fitted(box, value)
        if page.number not in self.writers:
            self.writers[page.number] = page, pymupdf.TextWriter(page.rect, color=self.rgb)
        writer = self.writers[page.number][1]
        leading = size * 1.15
        top = box.y0 + max((box.height - leading * len(lines)) / 2, 0.0)
        for number, line in enumerate(lines):
            x, y = box.x0, top + leading * number + size * 0.95
            for run, font in self._runs(line):
                writer.append((x, y), run, font=font, fontsize=size)
                x += font.text_length(run, fontsize=size)

    def finish(self, document: pymupdf.Document) -> None:
        for page, writer in self.writers.values():
            writer.write_text(page, morph=(page.rect.tl, page.derotation_matrix) if page.rotation else None)
        if self.embedded:
            document.subset_fonts()

    def _runs(self, text: str) -> list[tuple[str, pymupdf.Font]]:
        runs: list[tuple[str, pymupdf.Font]] = []
        for char in text:
            font = next((font for font in self.fonts if font.has_glyph(ord(char))), self.fonts[0])
            self.embedded |= font is not self.fonts[0]
            if runs and runs[-1][1] is font:
                runs[-1] = (runs[-1][0] + char, font)
            else:
                runs.append((char, font))
        return runs

    def _length(self, text: str, size: float) -> float:
        return float(sum(font.text_length(run, fontsize=size) for run, font in self._runs(text)))

    def _fitted(self, box: pymupdf.Rect, value: str) -> tuple[float, list[str]]:
        """The largest size (up to _MAX_FONT, and to the box's height) at which the value, wrapped at
        spaces (anywhere in a word too long for a line), fits the box; at the smallest size, what fits."""
        size = max(min(_MAX_FONT, box.height * 0.8), _MIN_FONT)
        while True:
            lines = self._wrapped(value, box.width, size)
            if len(lines) * size * 1.15 <= box.height + 0.5 or size <= _MIN_FONT:
                return size, lines[: max(int((box.height + 0.5) // (size * 1.15)), 1)]
            size = max(size * 0.9, _MIN_FONT)

    def _wrapped(self, value: str, width: float, size: float) -> list[str]:
        lines: list[str] = []
        for paragraph in value.splitlines() or [""]:
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}" if line else word
                if self._length(candidate, size) <= width:
                    line = candidate
                    continue
                if line:
                    lines.append(line)
                line = ""
                for char in word:  # a word wider than the box: cut where it must be
                    if line and self._length(line + char, size) > width:
                        lines.append(line)
                        line = ""
                    line += char
            lines.append(line)
        return lines

    def _shaped(self, page: pymupdf.Page, box: pymupdf.Rect, value: str) -> None:
        self.embedded = True
        if page.rotation:
            box = box * page.derotation_matrix
        size = max(min(_MAX_FONT, box.height * 0.8), _MIN_FONT)
        css = f"* {{font-family: sans-serif; font-size: {size:.1f}pt; color: {self.color}; margin: 0;}}"
        text = html.escape(value).replace("\n", "<br/>")
        page.insert_htmlbox(box, text, css=css, scale_low=0, rotate=page.rotation)


def _tick(page: pymupdf.Page, rect: pymupdf.Rect, rgb: tuple[float, float, float]) -> None:
    """An X across the box."""
    inset = min(rect.width, rect.height) * 0.2
    inner = pymupdf.Rect(rect.x0 + inset, rect.y0 + inset, rect.x1 - inset, rect.y1 - inset)
    if page.rotation:
        inner = inner * page.derotation_matrix
    shape = page.new_shape()
    shape.draw_line(inner.tl, inner.br)
    shape.draw_line(inner.tr, inner.bl)
    shape.finish(color=rgb, width=max(min(rect.width, rect.height) * 0.1, 0.8))
    shape.commit()
