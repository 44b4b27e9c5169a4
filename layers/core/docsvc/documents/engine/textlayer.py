"""The words of a page's text layer made whole, for tables that hold them exactly as the text does.

A page's text comes from two readings of one text page: its blocks of text (what is written where no
table is) and its words (what fills the tables). Both read the same characters, but they do not cut
them into words alike: the words break where a script's direction changes (a Hebrew word and the
digit or hyphen that follows it with no space between), the blocks only at whitespace. `whole_words`
joins them back into the words of their block's text, and `grids.assemble` keeps a table only where
its blocks' words are their texts' words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docsvc.documents.engine.grids import Word


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
