"""The words of a page's text layer made whole, for tables that hold them exactly as the text does.

A page's text comes from two readings of one text page: its blocks of text (what is written where no
table is) and its words (what fills the tables). Both read the same characters, but they do not cut
them into words alike: the words break where a script's direction changes (a Hebrew word and the
digit or hyphen that follows it with no space between), the blocks only at whitespace. `whole_words`
joins them back into the words of their block's text, and `grids.assemble` keeps a table only where
its blocks' words are their texts' words.

A glyph whose font gives it no Unicode value is read as U+FFFD (`UNMAPPED`), and the space after it,
of the same font, is often lost with it: a bullet of a symbol font then sticks to the word it stands
before ("\ufffd\ufffdDatabase"), which is no longer that word. `unmapped_apart` finds such words from
the characters' places (a space's width between the glyph and the letter after it) and `set_apart`
and `words_apart` write them apart, alike in a block's text and in its words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docsvc.documents.engine.grids import Word

UNMAPPED = "\ufffd"  # what MuPDF writes for a glyph whose font gives it no Unicode value
Char = tuple[str, float, float, float]  # a character of a line: itself, its x0 and x1, its font size
_LOST_SPACE = 0.15  # of the font size: a gap this wide between two glyphs is a space (kerning is less)
_WORD = re.compile(r"\S+")


def unmapped_apart(lines: Iterable[Sequence[Char]]) -> dict[str, str]:
    """The words of the lines (as whitespace cuts them) that start with glyphs of no Unicode value
    followed, a space's width further, by text, each with a space put back between the two
    ("\ufffd\ufffdDatabase" to "\ufffd\ufffd Database")."""
    apart: dict[str, str] = {}
    for line in lines:
        text = "".join(char for char, *_ in line)
        for found in _WORD.finditer(text):
            word = found.group()
            glyphs = len(word) - len(word.lstrip(UNMAPPED))
            if not 0 < glyphs < len(word):
                continue
            _, _, end, size = line[found.start() + glyphs - 1]
            _, start, _, _ = line[found.start() + glyphs]
            if start - end > _LOST_SPACE * size:
                apart[word] = f"{word[:glyphs]} {word[glyphs:]}"
    return apart


def set_apart(text: str, apart: dict[str, str]) -> str:
    """The text, each of its words that `apart` names written as `apart` gives it."""
    return _WORD.sub(lambda found: apart.get(found.group(), found.group()), text)


def words_apart(words: Sequence[Word], apart: dict[str, str]) -> list[Word]:
    """The words, each that `apart` names cut into the words it gives (their boxes shared in
    proportion to their characters), numbered again in order."""
    cut: list[Word] = []
    for word in words:
        parts = apart.get(word.text, word.text).split(" ")
        x0, y0, x1, y1 = word.box
        at = x0
        for part in parts:
            width = (x1 - x0) * len(part) / len(word.text)
            cut.append(replace(word, box=(at, y0, at + width, y1), text=part, order=len(cut)))
            at += width
    return cut


def whole_words(words: Sequence[Word], texts: dict[int, str]) -> list[Word]:
    """The words, those that the text of their block (`texts`, by block number) holds as one word
    joined back into one (its box the union of theirs). A block whose words do not spell its text
    in order (its lines were read apart as columns) keeps its words as they are."""
    if sum(len(text.split()) for text in texts.values()) == len(words):
        return list(words)  # as many words as the texts hold: nothing to join (`assemble` checks)
    by_block: dict[int, list[Word]] = {}
    for word in words:
        by_block.setdefault(word.block, []).append(word)
    joined: list[Word] = []
    for number, own in by_block.items():
        text = texts.get(number)
        merged = _spelled(own, text.split()) if text is not None and len(own) > 1 else None
        joined.extend(own if merged is None else merged)
    if len(joined) == len(words):
        return list(words)
    return sorted(joined, key=lambda word: word.order)


def _spelled(words: Sequence[Word], tokens: Sequence[str]) -> list[Word] | None:
    """The words joined into the tokens they spell in order, or None when they do not spell them."""
    if len(tokens) == len(words):
        return None  # nothing to join (or nothing that could be joined safely)
    merged: list[Word] = []
    at = 0
    for token in tokens:
        if at >= len(words):
            return None
        parts = [words[at]]
        spelled = words[at].text
        at += 1
        while spelled != token:
            if at >= len(words) or not token.startswith(spelled + words[at].text):
                return None
            parts.append(words[at])
            spelled += words[at].text
            at += 1
        merged.append(parts[0] if len(parts) == 1 else _joined(parts, spelled))
    return merged if at == len(words) else None


def _joined(parts: Sequence[Word], text: str) -> Word:
    box = (
        min(word.box[0] for word in parts),
        min(word.box[1] for word in parts),
        max(word.box[2] for word in parts),
        max(word.box[3] for word in parts),
    )
    return replace(parts[0], box=box, text=text)
