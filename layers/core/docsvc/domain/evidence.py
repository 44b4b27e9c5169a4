"""Where an extracted value came from: its page, the box of the words it was read from, and that text.

A model says what it read a value from (`Evidence`: a page and a text, and the line around it when it
knows it); the words of the page with their boxes (`WordBox`, as the documents engine gives them) say
where that text is printed. The text is looked for in the page's words with spacing ignored, then with
everything but letters and digits ignored (a value read as "INV 2041" from "INV-2041", an address
joined with commas from its lines); inside the line around it first, when there is one, so that the
value "12.00" is placed on its own line and not on the first line printing the same amount. The box
is the union of the words that hold the text, and the source's `content` is those words: a box always
contains what it claims.

A source answers as Retab's do: `{content, anchor}`, the anchor `{kind: "pdf_bbox", page, left, top,
width, height}` (fractions of the page) where the words have boxes, `{kind: "text", page}` where the
document has pages but no geometry (an Office or text document), and no source at all for a value
that is not printed where the model said (or anywhere, for a value without evidence).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

# A word and its box on the page as shown: left, top, right, bottom (fractions of the page), the word.
WordBox = tuple[float, float, float, float, str]
PageWords = Sequence[WordBox]
_APART = re.compile(r"\s*\n\s*|\s{2,}")
WIDE_GAP = 0.02  # of the page's width: wider than a space between words, a gap between columns
Box = tuple[float, float, float, float]  # left, top, right, bottom
# What a read gives of a page's words: none, the words with the text, or the words alone (a page's
# text already known from an earlier parse; a page without a text layer then has no words).
Words = Literal["no", "also", "only"]


@dataclass(frozen=True)
class Evidence:
    page: int  # 0-based, among the pages the model read
    text: str  # what the value was read from
    context: str | None = None  # the line (or lines) it stands in


@dataclass(frozen=True)
class Located:
    content: str
    box: Box | None  # None without geometry
    page: int  # 0-based


def locate(
    text: str,
    words: PageWords,
    context: str | None = None,
    near: Box | None = None,
    page: int = 0,
    taken: Collection[Box] = (),
) -> Located | None:
    """The words of the page that print `text`: inside `context` when it is found there; else the
    place nearest the box `near` (on its line first), else the first. Whole words first; a part of a
    word only when the text has evidence (a `context`), never for a value looked for by its form.
    A place whose box is `taken` (another value's of the same row) comes after the others: a row
    printing 30.00 as its unit price and as its amount has each value on its own words."""
    for keep in (_not_space, _alnum, _unaccented):
        chars, owners, starts = _compact(words, keep)  # the same lists of words are read again and again
        needle = "".join(map(keep, text.casefold()))
        if not needle:
            return None
        places = _places(chars, needle)
        if not places:
            continue
        whole = [at for at in places if _whole(at, len(needle), owners, starts, len(chars))]
        for piece in _pieces(context) if context else ():
            around = "".join(map(keep, piece.casefold()))
            inside = [at for at in places if _inside(at, len(needle), chars, around)]
            if inside:
                return _first_free(words, owners, inside, len(needle), page, taken)
        candidates = whole or (places if context else [])
        if candidates:
            if near is not None:
                candidates = sorted(candidates, key=lambda at: _distance(words[owners[at]], near))
            return _first_free(words, owners, candidates, len(needle), page, taken)
    return None


def source_of(
    evidence: Evidence | None,
    value: Any,
    pages: Sequence[str],
    words: Sequence[PageWords] | None,
    near: tuple[int, Box] | None = None,
    taken: Collection[Box] = (),
) -> Located | None:
    """Where a value was read: where its evidence is printed; for a value without evidence, where the
    value itself is printed (on the page and nearest the box `near` when given, else first)."""
    texts = [evidence.text] if evidence and evidence.text else printed_forms(value)
    numbers: Sequence[int] = [evidence.page] if evidence else range(len(pages))
    if near is not None and not evidence:
        numbers = [near[0], *(number for number in numbers if number != near[0])]
    for number in numbers:
        if not 0 <= number < len(pages):
            continue
        for text in texts:
            if words is not None and number < len(words) and words[number]:
                close = near[1] if near is not None and near[0] == number else None
                context = evidence.context if evidence else None
                found = locate(text, words[number], context, close, number, taken)
                if found is not None:
                    return found
            elif _in_text(text, pages[number]):
                return Located(text, None, number)
    return None


def sources_tree(
    output: Any,
    likelihoods: Mapping[str, float],
    evidence: Mapping[str, Evidence],
    pages: Sequence[str],
    words: Sequence[PageWords] | None,
) -> Any:
    """The output's shape with every leaf value as `{value, source, likelihood}`. A leaf inside an
    array takes the likelihood of its array. In an object, the leaves with evidence (or strings) are
    placed first, and the others are looked for near them (a line item's amount on its own row). The
    values of one object, and of the objects of one array, are placed on words no other of them took
    first, when the text is printed elsewhere too: two items never print their quantity "1" with the
    same word."""

    def leaf(
        value: Any, dotted: str, likelihood: float, near: tuple[int, Box] | None, taken: set[Box]
    ) -> tuple[Any, Located | None]:
        if value is None:
            return {"value": None, "source": None, "likelihood": 0.0}, None
        found = source_of(evidence.get(dotted), value, pages, words, near, taken)
        if found is not None and found.box is not None:
            taken.add(found.box)
        return {"value": value, "source": _answer(found), "likelihood": likelihood}, found

    def walk(node: Any, path: tuple[str, ...], in_array: str | None, shared: set[Box] | None = None) -> Any:
        if isinstance(node, list):
            name = in_array or ".".join(path)
            items: set[Box] = set()
            return [walk(child, (*path, str(index)), name, items) for index, child in enumerate(node)]
        taken = shared if shared is not None else set()
        if not isinstance(node, dict):
            dotted = ".".join(path)
            return leaf(node, dotted, likelihoods.get(in_array or dotted, 0.0), None, taken)[0]
        answered: dict[str, Any] = {}
        placed: list[Located] = []
        first = [key for key, child in node.items() if _anchors(child, ".".join((*path, key)), evidence)]
        for key in [*first, *(key for key in node if key not in first)]:
            child, dotted = node[key], ".".join((*path, key))
            if isinstance(child, dict | list):
                answered[key] = walk(child, (*path, key), in_array)
                continue
            near = (placed[0].page, placed[0].box) if placed and placed[0].box else None
            answered[key], found = leaf(child, dotted, likelihoods.get(in_array or dotted, 0.0), near, taken)
            if found is not None and key in first:
                placed.append(found)
        return {key: answered[key] for key in node}

    return walk(output, (), None)


def laid_out(words: PageWords) -> str:
    """A page's words as the lines they are printed on: words whose middles share a height join one
    line, left to right, with wide spacing where a gap is wider than WIDE_GAP of the page ("Zahlbetrag
    529,87"), and a blank line where the lines part by more than twice a line's height. OCR reads a
    form's labels and values as separate blocks; this puts each value back beside its label. Words
    that stand one over the other are never one line (`_printed_lines`)."""
    rows: list[list[WordBox]] = []
    middles: list[float] = []
    for word in sorted(words, key=lambda word: ((word[1] + word[3]) / 2, word[0])):
        middle, height = (word[1] + word[3]) / 2, word[3] - word[1]
        if rows and abs(middles[-1] - middle) < max(rows[-1][0][3] - rows[-1][0][1], height) / 2:
            rows[-1].append(word)
            middles[-1] = _middle(rows[-1])
        else:
            rows.append([word])
            middles.append(middle)
    rows = [line for row in rows for line in _printed_lines(row)]
    middles = [_middle(row) for row in rows]
    lines: list[str] = []
    for number, row in enumerate(rows):
        height = max(word[3] - word[1] for word in row)
        if number and middles[number] - middles[number - 1] > 2 * height:
            lines.append("")
        text, right = "", None
        for word in sorted(row, key=lambda word: word[0]):
            if right is not None:
                text += "    " if word[0] - right > WIDE_GAP else " "
            text, right = text + word[4], word[2]
        lines.append(text)
    return "\n".join(lines)


def ocr_pages_laid_out(pages: Sequence[str], words: Sequence[PageWords], ocr: Sequence[bool]) -> list[str]:
    """The pages, each one read by OCR as the lines its words are printed on (`laid_out`). A page
    whose words give no text keeps its own: a page read is never made empty by its layout."""
    return [
        (laid_out(words[number]) if number < min(len(ocr), len(words)) and ocr[number] else "") or text
        for number, text in enumerate(pages)
    ]


def printed_forms(value: Any) -> list[str]:
    """How a value may be printed: a string as it is (a currency code also as its sign); a number
    with either decimal mark, with and without thousands separators; nothing for a boolean."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int | float):
        forms = [f"{value:,.2f}", f"{value:.2f}", str(value)]
        if float(value).is_integer():
            forms = [f"{int(value):,}", str(int(value)), *forms]
        swapped = [form.translate(str.maketrans(",.", ".,")) for form in forms]
        return list(dict.fromkeys(forms + swapped))
    if isinstance(value, str):
        return [value, _CURRENCY_SIGNS[value]] if value in _CURRENCY_SIGNS else [value]
    return []


# ---------------------------------------------------------------------------- helpers
def _middle(row: Sequence[WordBox]) -> float:
    return sum((word[1] + word[3]) / 2 for word in row) / len(row)


def _printed_lines(row: list[WordBox]) -> list[list[WordBox]]:
    """A row of words joined by their heights, as the printed lines it holds. OCR's text page draws
    each word on its whole line's box, and a line photographed a little turned has a box as tall as
    two printed lines: the words of the line under it then share its height, and the two would read
    word by word in one line. Words of one line stand side by side, never one over the other; so the
    row's words are taken top to bottom in runs sharing a height (an OCR line's), and a run that
    stands over or under the words of the line being made begins the next line."""
    runs: list[list[WordBox]] = []
    for word in row:  # in order of their middles
        height = word[3] - word[1]
        if runs and abs((word[1] + word[3]) / 2 - (runs[-1][0][1] + runs[-1][0][3]) / 2) < height / 4:
            runs[-1].append(word)
        else:
            runs.append([word])
    lines: list[list[WordBox]] = []
    for run in runs:
        if lines and not any(_over(word, other) for word in run for other in lines[-1]):
            lines[-1].extend(run)
        else:
            lines.append(list(run))
    return lines


def _over(word: WordBox, other: WordBox) -> bool:
    """Whether two words stand one over the other: they share more than a quarter of the narrower's width."""
    shared = min(word[2], other[2]) - max(word[0], other[0])
    return shared > min(word[2] - word[0], other[2] - other[0]) / 4


# A currency answered as its code may be printed as its sign only.
_CURRENCY_SIGNS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹", "PLN": "zł", "KRW": "₩"}


def _not_space(char: str) -> str:
    return "" if char.isspace() else char


def _alnum(char: str) -> str:
    return char if char.isalnum() else ""


def _unaccented(char: str) -> str:
    """A letter or digit without its accents: OCR may read "João" as "Joao", "Básica" as "Basica"."""
    return "".join(part for part in unicodedata.normalize("NFKD", char) if part.isalnum())


def _anchors(child: Any, dotted: str, evidence: Mapping[str, Evidence]) -> bool:
    """Whether a leaf can be placed on its own: it has evidence, or it is a text of some length."""
    if isinstance(child, dict | list) or child is None:
        return False
    return dotted in evidence or (isinstance(child, str) and len(child) >= 3)


_COMPACTED: dict[tuple[int, Any], tuple[PageWords, tuple[str, list[int], set[int]]]] = {}
_COMPACTED_PAGES = 64  # pages of words kept compacted (a document's, while its sources are placed)
_COMPACTING = threading.Lock()


def _compact(words: PageWords, keep: Any) -> tuple[str, list[int], set[int]]:
    """The page's words as one string of the characters `keep` keeps, the word of each character,
    and where each word starts in it; made once for a list of words looked into many times."""
    key = (id(words), keep)
    with _COMPACTING:
        held = _COMPACTED.get(key)
    if held is not None and held[0] is words:  # the very list, not another one at its old address
        return held[1]
    compacted = _compacted(words, keep)
    with _COMPACTING:
        while len(_COMPACTED) >= _COMPACTED_PAGES:
            _COMPACTED.pop(next(iter(_COMPACTED)))
        _COMPACTED[key] = (words, compacted)
    return compacted


def _compacted(words: PageWords, keep: Any) -> tuple[str, list[int], set[int]]:
    chars: list[str] = []
    owners: list[int] = []
    starts: set[int] = set()
    for index, word in enumerate(words):
        kept = [part for char in word[4].casefold() for part in keep(char)]
        if kept:
            starts.add(len(chars))
        chars.extend(kept)
        owners.extend([index] * len(kept))
    return "".join(chars), owners, starts


def _places(chars: str, needle: str) -> list[int]:
    places: list[int] = []
    at = chars.find(needle)
    while at >= 0 and len(places) < 200:
        places.append(at)
        at = chars.find(needle, at + 1)
    return places


def _whole(at: int, size: int, owners: list[int], starts: set[int], length: int) -> bool:
    """Whether chars[at:at+size] begins a word and ends one."""
    end = at + size
    return at in starts and (end == length or end in starts)


def _inside(at: int, size: int, chars: str, around: str) -> bool:
    """Whether the place is inside a place of `around` (the context) that holds it."""
    return bool(around) and any(
        start <= at and at + size <= start + len(around) for start in _places(chars, around)
    )


def _located(words: PageWords, owners: list[int], at: int, size: int, page: int) -> Located:
    held = [words[index] for index in sorted(set(owners[at : at + size]))]
    left = min(word[0] for word in held)
    top = min(word[1] for word in held)
    right = max(word[2] for word in held)
    bottom = max(word[3] for word in held)
    return Located(" ".join(word[4] for word in held), (left, top, right, bottom), page)


def _pieces(context: str) -> list[str]:
    """The context, then its pieces printed apart (lines, or runs of text two spaces apart), without
    the bars a table's row is written with: a row of headings and a row of sums, given together, are
    printed on lines of their own, and no word prints the bars."""
    pieces = [bare for piece in _APART.split(context) if (bare := piece.replace("|", " ")).strip()]
    return [context, *pieces] if len(pieces) > 1 or "|" in context else [context]


def _first_free(
    words: PageWords, owners: list[int], places: list[int], size: int, page: int, taken: Collection[Box]
) -> Located:
    """The first of the places whose words no other value took, else the first."""
    first = _located(words, owners, places[0], size, page)
    if first.box not in taken:
        return first
    found = (_located(words, owners, at, size, page) for at in places[1:])
    return next((each for each in found if each.box not in taken), first)


def _distance(word: WordBox, box: Box) -> tuple[float, float]:
    """How far a word is from a box: apart in height first (its line), then across."""
    return (
        abs((word[1] + word[3]) - (box[1] + box[3])) / 2,
        abs((word[0] + word[2]) - (box[0] + box[2])) / 2,
    )


def _answer(found: Located | None) -> dict[str, Any] | None:
    if found is None:
        return None
    number = found.page
    if found.box is None:
        return {"content": found.content, "anchor": {"kind": "text", "page": number + 1}}
    left, top, right, bottom = found.box
    anchor = {
        "kind": "pdf_bbox",
        "page": number + 1,
        "left": left,
        "top": top,
        "width": round(right - left, 4),
        "height": round(bottom - top, 4),
    }
    return {"content": found.content, "anchor": anchor}


def _in_text(text: str, page: str) -> bool:
    needle = "".join(text.casefold().split())
    return bool(needle) and needle in "".join(page.casefold().split())
