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

MuPDF, asked for the page's vector paths too, cuts a line of text where a path is drawn over it (a
link's box, a highlighted word): the line's two pieces become blocks of their own ("force" and "[2].
It is seen…"), written apart as two paragraphs, and a word the line held with no space between the
pieces ("Customs.We") is cut in two. `lines_gone_on` finds the blocks that go on with the last line
of the block before them and, from the same page read without paths, the text they are one block of;
`runs_as_blocks` makes each such run one block again where the page's words are read for tables, so
that a word across the cut is one word in a table's cell too ("force[2]." beside an infobox).

Asked for paths, MuPDF may also write a line twice: in its block, and again as a block of its own
right after a path (a superscript's letter after a rule drawn in the line): `repeats_last_lines`.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import regex

from docsvc.documents.engine.layout import RIGHT_TO_LEFT, RTL, Box, overlaps

if TYPE_CHECKING:
    from docsvc.documents.engine.grids import Word

UNMAPPED = "\ufffd"  # what MuPDF writes for a glyph whose font gives it no Unicode value
Char = tuple[str, float, float, float]  # a character of a line: itself, its x0 and x1, its font size
_LOST_SPACE = 0.15  # of the font size: a gap this wide between two glyphs is a space (kerning is less)
_WORD = re.compile(r"\S+")
# A right-to-left character next to any other that is no space, with no space between: a letter or
# digit of no such script, or a sign ("10%" in the cell beside a Hebrew one, a slide's bullet "\u25c0"
# far right of an Arabic line). A glyph of no Unicode value (a letter's dots) and a joiner or
# direction mark are the word's own.
_MIXED = re.compile(f"[{RTL}][^\\s{RTL}{UNMAPPED}\u200b-\u200f]|[^\\s{RTL}{UNMAPPED}\u200b-\u200f][{RTL}]")
_OF_NO_DIRECTION = re.compile(f"[{UNMAPPED}\u200b-\u200f]")
REACH = 3  # blocks on each side of a run looked at for the one block the page without paths makes
Piece = tuple[Box, str]  # a block of text: its box and its text
Numbered = tuple[Box, str, int]  # a block of text: its box, its text, its number on the page
_WITHIN = 1.0  # points a block's box may stick out of another's and still be within it
# A glyph set off a formula's line stands apart from the glyph written before it when it is more than
# _OFF_LINE_GAP of the font size past it (more than the spaces a formula sets before a fraction or a
# script) and its baseline more than _OFF_LINE_SHIFT of the font size above or below the other's
# (more than a superscript's or a subscript's shift).
_OFF_LINE_GAP = 0.6
_OFF_LINE_SHIFT = 0.5
_MATH_SYMBOL = regex.compile(r"[\p{Sm}--\p{ASCII}]", regex.V1)  # a math symbol beyond ASCII
Placed = tuple[str, float, float, float, float]  # a character: itself, its x0 and x1, font size, baseline


def unmapped_apart(lines: Iterable[Sequence[Char]], coded: Sequence[Sequence[Char]] = ()) -> dict[str, str]:
    """The words of the lines (as whitespace cuts them) in which glyphs of no Unicode value and text
    meet a space's width apart, each with a space put back there ("\ufffd\ufffdDatabase" to
    "\ufffd\ufffd Database", "Name\ufffd\u03c9" to "Name\ufffd \u03c9": a glyph before a word, or
    after one, stands apart from it as its place does). Two such glyphs a space's width apart in a
    word are set apart too: in a font that maps only some of its glyphs, a word may end and the next
    begin with glyphs of no value, and the space between them is lost with them ("word\ufffd\ufffdnext"
    to "word\ufffd \ufffdnext"). Only a letter, its mark or a digit is set apart from such a glyph
    (`_of_a_word`): beside a formula's symbol, the glyph is the formula's ("\u2208\ufffdr", a big
    operator after a relation, stays as the text layer writes it). After a glyph of no value that
    MuPDF gives no width (`_zero_width_unmapped`), the gap may be a glyph's that was not read: `coded`,
    the same lines read with glyph codes, says whether a glyph fills it (`_filled`). A combining mark
    is never set apart from the glyph before it: it is drawn on that glyph, wherever it stands (a
    Nastaliq kasra set below a letter further on), and no word begins with one."""
    apart: dict[str, str] = {}
    for line in lines:
        text = "".join(char for char, *_ in line)
        for found in _WORD.finditer(text):
            word = found.group()
            if UNMAPPED not in word or not word.strip(UNMAPPED):
                continue
            cuts = [
                index
                for index in range(1, len(word))
                if UNMAPPED in word[index - 1 : index + 1]
                and all(map(_of_a_word, word[index - 1 : index + 1]))
                and not _mark(word[index])
                and _gap(line[found.start() + index - 1], line[found.start() + index])
                and not _filled(line[found.start() + index - 1], line[found.start() + index], coded)
            ]
            if cuts:
                ends = [0, *cuts, len(word)]
                apart[word] = " ".join(word[start:end] for start, end in itertools.pairwise(ends))
    return apart


def cut_after_unmapped(
    blocks: Sequence[Sequence[tuple[Sequence[Char], float]]], coded: Sequence[Sequence[Char]] = ()
) -> dict[str, str]:
    """Lines MuPDF cut after a glyph of no Unicode value, as {the two lines written apart ("a\\nb"):
    the two written as one ("ab")}. `blocks` holds each block's lines, each its characters and its
    baseline. Such a glyph is given no width, so the pen's advance over it (most of an em) reads as a
    jump, and MuPDF begins a new line of the same block on the same baseline. Two lines are one when
    the first ends in a zero-width glyph of no value (its vowel signs may follow it) and the second
    begins on its baseline, within 1.5 em to its right, or further where `coded`, the same lines read
    with glyph codes, fills the jump with glyphs (`_filled`): a conjunct's part drawn from the sign's
    place, which MuPDF drops reading U+FFFD, may be wider than an em and a half. Read with glyph
    codes, MuPDF keeps such a line, mostly with no space at the jump, so none is put there."""
    joins: dict[str, str] = {}
    for first, second, glyph, jump in _cuts_after_unmapped(blocks):
        if jump <= 1.5 * glyph[3] or _filled(glyph, second[0], coded):
            before, after = "".join(c[0] for c in first), "".join(c[0] for c in second)
            joins[f"{before}\n{after}"] = before + after
    return joins


def cut_far_after_unmapped(blocks: Sequence[Sequence[tuple[Sequence[Char], float]]]) -> bool:
    """Does a line go on more than 1.5 em after a cut `cut_after_unmapped` looks at? Only then are
    the lines worth reading again with glyph codes."""
    return any(jump > 1.5 * glyph[3] for _, _, glyph, jump in _cuts_after_unmapped(blocks))


def _cuts_after_unmapped(
    blocks: Iterable[Sequence[tuple[Sequence[Char], float]]],
) -> Iterator[tuple[Sequence[Char], Sequence[Char], Char, float]]:
    """(first line, the line after it, the zero-width glyph of no value ending the first, the jump
    from it to the second line's start) for two lines of a block on one baseline, the second to the
    right of that glyph."""
    for lines in blocks:
        for (first, baseline), (second, next_baseline) in itertools.pairwise(lines):
            glyph = _zero_width_unmapped_end(first)
            if glyph is None or not second:
                continue
            jump = second[0][1] - glyph[2]
            if abs(baseline - next_baseline) <= 0.1 * glyph[3] and jump >= 0:
                yield first, second, glyph, jump


def _zero_width_unmapped_end(chars: Sequence[Char]) -> Char | None:
    """The glyph of no Unicode value and no width that ends the line `chars`, marks after it aside."""
    at = len(chars) - 1
    while at >= 0 and _mark(chars[at][0]):
        at -= 1
    if at < 0 or not _zero_width_unmapped(chars[at]):
        return None
    return chars[at]


def _filled(before: Char, after: Char, coded: Sequence[Sequence[Char]]) -> bool:
    """Is the gap between `before`, a glyph of no value and no width, and `after` filled, less than a
    space's width left, by glyphs of a line read with glyph codes that holds `before` at its place?
    MuPDF, reading U+FFFD, drops a second glyph of no value drawn where such a glyph stands (it takes
    the two for one glyph drawn twice, as for fake bold); with codes it keeps it."""
    if not _zero_width_unmapped(before):
        return False
    _, start, _, size = before
    end = after[1]
    for line in coded:
        if not any(abs(char[1] - start) <= 0.01 * size and char[2] - char[1] <= 0.01 * size for char in line):
            continue
        reach = start
        for char in sorted(line, key=lambda char: char[1]):
            if char[0] != " " and char[1] <= reach + 0.01 * size:
                reach = max(reach, char[2])
        if end - reach <= _LOST_SPACE * size:
            return True
    return False


def _zero_width_unmapped(char: Char) -> bool:
    """Is the character a glyph of no Unicode value that MuPDF gives no width? Its drawing (a vowel
    sign, the part of a conjunct set after its letter) still takes the place the pen moves over, and
    a second such glyph drawn where it stands is not read at all (MuPDF takes the two for one glyph
    drawn twice, as for fake bold): so the gap after it is no measure of a lost space."""
    return char[0] == UNMAPPED and _no_width(char)


def _no_width(char: Char) -> bool:
    """Does MuPDF give the glyph no width?"""
    _, start, end, size = char
    return end - start <= 0.01 * size


# A glyph of no Unicode value, or an Arabic lam-alef (a ligature a font may draw as one glyph, its
# alef given no width), then a space before a right-to-left letter (`spaces_after_marks`).
SPACED_AFTER_UNMAPPED = re.compile(f"(?:{UNMAPPED}|\u0644[\u0622\u0623\u0625\u0627]) (?=[{RTL}])")


def spaces_after_marks(lines: Iterable[Sequence[Char]]) -> dict[str, str]:
    """{line: the line without its spaces that stand right after a glyph of no width, on its left,
    where a glyph written before covers the space}. In a right-to-left line, a mark of no value (a
    Nastaliq letter's dots) stands within its letter, as does the alef of a lam-alef drawn as one
    glyph, and MuPDF measures the gap to the next letter from it: it writes a space where the letters
    join and their glyphs cover it ("\u0628\ufffd \u062a", one word
    drawn with no space glyph). A space the page draws stands past the letter's edge, uncovered."""
    unspaced: dict[str, str] = {}
    for line in lines:
        text = "".join(char for char, *_ in line)
        kept = "".join(
            char
            for index, (char, x0, x1, size) in enumerate(line)
            if char != " "
            or not (
                index > 0
                and _no_width(line[index - 1])
                and x1 <= line[index - 1][1] + 0.01 * size
                and _covered_before(line[index], line[:index])
            )
        )
        if kept != text:  # a block's text has no space at its lines' ends
            unspaced[text.strip()] = kept.strip()
    return unspaced


def _covered_before(space: Char, before: Sequence[Char]) -> bool:
    """Do glyphs of `before` (no spaces), side by side as joined letters are, cover all of `space`?"""
    _, x0, x1, size = space
    slack = 0.01 * size
    reach = x0
    for char, start, end, _ in sorted(before, key=lambda char: char[1]):
        if char != " " and end > start and start <= reach + slack:
            reach = max(reach, end)
    return reach >= x1 - slack


def joined_lines(text: str, joins: dict[str, str]) -> str:
    """The block's text with the lines `cut_after_unmapped` found written as one."""
    for cut, whole in joins.items():
        if cut in text:
            text = text.replace(cut, whole)
    return text


def _of_a_word(char: str) -> bool:
    """Is the character one a word is written with (a letter, its mark, a digit), or a glyph of no
    Unicode value? A formula's symbols (a relation, an operator) are spaced by their places, and the
    text layer writes them with no space between, whatever the gap ("\u2208Z+"): a glyph of no value
    beside one is a formula's glyph too (a big operator), not a word's first or last."""
    return char == UNMAPPED or unicodedata.category(char)[0] in "LMN"


def _mark(char: str) -> bool:
    """Is the character a combining mark (a vowel sign, a diacritic), drawn on the glyph before it?"""
    return unicodedata.category(char).startswith("M")


def mixed_directions(text: str) -> bool:
    """Does the text hold a right-to-left character next to another of no such script (`_MIXED`)?"""
    return _MIXED.search(text) is not None


def directions_apart(lines: Iterable[Sequence[Char]]) -> dict[str, str]:
    """The words of the lines (as whitespace cuts them) that hold right-to-left characters and others,
    each with a space put where two of its runs of one direction are a space's width apart or more
    ("\u0664U+0600\u0639\u0644\u0627\u0645\u0629" to "\u0664 U+0600 \u0639\u0644\u0627\u0645\u0629":
    three cells of a table's row). Where a line that holds right-to-left letters changes direction,
    MuPDF writes no space, however far apart the glyphs are. A run is measured whole, as its
    characters' span, for a run of the other direction is laid out in its own order: a Hebrew word
    and the number that follows it with no space between stay one word."""
    apart: dict[str, str] = {}
    for line in lines:
        text = "".join(char for char, *_ in line)
        for found in _WORD.finditer(text):
            word = found.group()
            if not _MIXED.search(word):
                continue
            runs = _direction_runs(line[found.start() : found.end()])
            cuts = [end for (_, end, span), (_, _, after) in itertools.pairwise(runs) if _apart(span, after)]
            if cuts:
                ends = [0, *cuts, len(word)]
                apart[word] = " ".join(word[start:end] for start, end in itertools.pairwise(ends))
    return apart


def _direction_runs(chars: Sequence[Char]) -> list[tuple[int, int, tuple[float, float, float]]]:
    """The characters' runs of one direction (right to left or not): (start, end, (x0, x1, size)). A
    glyph of no Unicode value or a joiner has none: it is of the run it stands in (an Arabic letter's
    dots, drawn apart from the letter they stand over)."""
    runs: list[tuple[int, int, tuple[float, float, float]]] = []
    backwards = False
    for index, (char, x0, x1, size) in enumerate(chars):
        before, backwards = backwards, bool(RIGHT_TO_LEFT.match(char))
        if _OF_NO_DIRECTION.match(char) and runs:
            backwards = before
        if runs and index > 0 and before == backwards:
            start, _, (a0, a1, a_size) = runs[-1]
            runs[-1] = (start, index + 1, (min(a0, x0), max(a1, x1), max(a_size, size)))
        else:
            runs.append((index, index + 1, (x0, x1, size)))
    return runs


def _apart(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Are the two spans (x0, x1, font size) a space's width or more apart, on either side?"""
    return max(b[0] - a[1], a[0] - b[1]) > _LOST_SPACE * max(a[2], b[2])


def _gap(before: Char, after: Char) -> bool:
    """Is `after` a space's width or more past the end of `before` (kerning is less)?"""
    _, _, end, size = before
    _, start, _, _ = after
    return start - end > _LOST_SPACE * size


def holds_formula(text: str) -> bool:
    """Does the text hold a word with a math symbol beyond ASCII in it (Unicode category Sm: a minus
    sign, an arrow, a quantifier), as a formula set in a math font does, where `off_line_apart` may find
    glyphs set off their line? ASCII's signs are prose's too (a phone number's "+", "=>" in a table),
    and a page's characters cost several times its text: those words are not read so. Every block of
    every page is asked: a text of ASCII alone, or without such a symbol, is answered without a word
    walked (a search of all blocks letter by letter cost about a tenth of MuPDF's own reading). Only a
    word that sets such a symbol with a letter or another math symbol is a formula's: a proof's label
    ("\u2200\u2212", "\u2192\u2212") and a formula ("a\u2264b") are, a sign before or between
    numbers in prose ("\u22125%", "1920\u00d71080", "\u00b10.2") is not, and its block is not read
    character by character."""
    if text.isascii() or _MATH_SYMBOL.search(text) is None:
        return False
    return any(
        _formula_word(word) for word in _WORD.findall(text) if len(word) > 1 and _MATH_SYMBOL.search(word)
    )


def _formula_word(word: str) -> bool:
    """Does the word set a math symbol beyond ASCII with a letter or with another math symbol?"""
    symbols = sum(unicodedata.category(char) == "Sm" for char in word)
    return symbols > 1 or any(char.isalpha() for char in word)


def off_line_apart(lines: Iterable[Sequence[Placed]]) -> dict[str, str]:
    """The words of the lines (as whitespace cuts them) with a space put between two of their glyphs
    that stand apart off each other's line (`_off_line`): MuPDF takes into a line a glyph whose baseline
    is within its reach (a proof's rule label half a line below its formula, a fraction's numerator
    after a minus) and, in a font whose spacing it cannot measure (a math font with no space glyph),
    writes no space before it however far it stands: "\u2200y\u03b2\u2200\u2212", the formula
    "\u2200y\u03b2" and the label "\u2200\u2212" three quarters of an em further and lower."""
    apart: dict[str, str] = {}
    for line in lines:
        text = "".join(char for char, *_ in line)
        for found in _WORD.finditer(text):
            chars = line[found.start() : found.end()]
            written = chars[0][0] + "".join(
                (" " if _off_line(before, after) else "") + after[0]
                for before, after in itertools.pairwise(chars)
            )
            if written != found.group():
                apart[found.group()] = written
    return apart


def on_one_baseline(baselines: Sequence[float], sizes: Sequence[float]) -> bool:
    """Do a line's glyphs (their baselines, and the font sizes of its spans) stand on about one
    baseline, so that no two of them are off each other's line (`_off_line`): all within
    `_OFF_LINE_SHIFT` of the smallest size of each other? Such a line has no word `off_line_apart`
    cuts, and is not walked glyph by glyph. A line without glyphs has none."""
    if not baselines or not sizes:
        return True
    return max(baselines) - min(baselines) <= _OFF_LINE_SHIFT * min(sizes)


def _off_line(before: Placed, after: Placed) -> bool:
    """Is `after`, written right after `before`, further past it than a formula's spaces
    (`_OFF_LINE_GAP`), on a baseline of its own (`_OFF_LINE_SHIFT`)?"""
    size = max(before[3], after[3])
    return after[1] - before[2] > _OFF_LINE_GAP * size and abs(after[4] - before[4]) > _OFF_LINE_SHIFT * size


def set_apart(text: str, apart: dict[str, str]) -> str:
    """The text, each of its words that `apart` names written as `apart` gives it."""
    return _WORD.sub(lambda found: apart.get(found.group(), found.group()), text)


def words_apart(words: Sequence[Word], apart: dict[str, str]) -> list[Word]:
    """The words, each that `apart` names cut into the words it gives (their boxes shared in
    proportion to their characters), numbered again in order. A MuPDF word is cut at spaces only, so
    it may hold other whitespace (an ideographic space, U+3000): each of its
    pieces between whitespace is looked up, as `set_apart` looks up those of a block's text."""
    cut: list[Word] = []
    for word in words:
        parts = set_apart(word.text, apart).split(" ")
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


def goes_on(before: Piece, after: Piece) -> bool:
    """Does the block `after` start on the last line of the block `before`, where that line ends (its
    top within that line's height, its left edge within the block's width and a line's height past
    it)? MuPDF writes the next line of a block below its last. A block that starts higher but comes
    down into that line goes on with it too: a formula's piece after a fraction's bar holds a
    numerator above its line ("k+ c" over "b", the denominator before it, `_stands_in_line`)."""
    (x0, y0, x1, y1), text = before
    pitch = (y1 - y0) / (text.count("\n") + 1)
    (after_x0, after_y0, _, after_y1), _ = after
    on_last = y1 - 1.5 * pitch < after_y0 < y1 - 0.25 * pitch
    return (on_last or _stands_in_line(after_y0, after_y1, y1, pitch)) and x0 - 1 <= after_x0 <= x1 + pitch


def _stands_in_line(top: float, bottom: float, line_bottom: float, pitch: float) -> bool:
    """Does a block from `top` to `bottom` start above the line that ends at `line_bottom` and reach a
    quarter of that line's height into it (a denominator hangs below its formula's line)?"""
    return top <= line_bottom - 1.5 * pitch and bottom > line_bottom - 0.75 * pitch


def lines_gone_on(pieces: Sequence[Piece], whole: Sequence[Piece]) -> dict[int, tuple[int, str]]:
    """Runs of the blocks `pieces` (in order) that are one block of `whole`, the same page read
    without vector paths, as {index of the run's first block: (index after its last, the whole
    block's text)}: a run holds a block that `goes_on` with the one before it, and its blocks'
    characters, whitespace aside, are the whole block's: in order, or, on a line that holds
    right-to-left letters, in any order (MuPDF gives such a line's pieces in the order they were drawn,
    not read, and a mark may sit on the piece beside its letter). Blocks that are not so stay apart.
    A piece that begins with the one glyph of the piece before it, where that piece begins, is that
    glyph drawn again at its place (a plot's marker, a symbol font's glyphs of no width at one point):
    the page read without paths has it once, MuPDF dropping a glyph drawn again where it stands."""
    runs: dict[int, tuple[int, str]] = {}
    bare = ["".join(text.split()) for _, text in pieces]
    for at in range(1, len(pieces)):  # a glyph drawn again where it stands: MuPDF keeps it once
        (box, _), (before, text) = pieces[at], pieces[at - 1]  # where no path parts the two
        glyph = "".join(text.split())
        if len(glyph) == 1 and box[:2] == before[:2] and bare[at].startswith(glyph):
            bare[at] = bare[at][1:]
    index = 1
    while index < len(pieces):
        if not goes_on(pieces[index - 1], pieces[index]):
            index += 1
            continue
        found = _whole_run(index - 1, bare, pieces, whole)
        if found is None:
            index += 1
            continue
        first, end, text = found
        for start in [start for start in runs if start >= first]:
            del runs[start]
        runs[first] = (end, text)
        index = end
    return runs


def _whole_run(
    index: int, bare: Sequence[str], pieces: Sequence[Piece], whole: Sequence[Piece]
) -> tuple[int, int, str] | None:
    """(first, end, text) of the run of pieces, around `index` and `index + 1`, that is one block of
    `whole`; None when no block of `whole` over both is exactly theirs."""
    box_a, box_b = pieces[index][0], pieces[index + 1][0]
    for box, text in whole:
        if not (_meet(box, box_a) and _meet(box, box_b)):
            continue
        target = "".join(text.split())
        if not RIGHT_TO_LEFT.search(target):
            found = _run_in_order(index, bare, target)
            if found is not None:
                return found[0], found[1], text
            over = _run_over_lines(index, bare, pieces, text)
            if over is not None:
                return over
            continue
        for first in range(index, max(-1, index - REACH), -1):
            for end in range(index + 2, min(len(pieces), index + 2 + REACH) + 1):
                if _same_letters("".join(bare[first:end]), target):
                    return first, end, text
    return None


def _run_in_order(index: int, bare: Sequence[str], target: str) -> tuple[int, int] | None:
    """(first, end) of the run of pieces, from at most REACH before `index` and through `index + 1`,
    whose characters in order are `target`'s: as many pieces after as it takes (a paragraph with a
    link on every line is cut as many times)."""
    for first in range(index, max(-1, index - REACH), -1):
        spelled = "".join(bare[first : index + 2])
        if not target.startswith(spelled):
            continue
        end = index + 2
        while spelled != target and end < len(bare) and target.startswith(spelled + bare[end]):
            spelled += bare[end]
            end += 1
        if spelled == target:
            return first, end
    return None


def _meet(a: Box, b: Box) -> bool:
    """Do the boxes share some area, or, where one has none (a block of glyphs of no width is a line
    or a point), some point?"""
    if a[0] < a[2] and a[1] < a[3] and b[0] < b[2] and b[1] < b[3]:
        return overlaps(a, b)
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _run_over_lines(
    index: int, bare: Sequence[str], pieces: Sequence[Piece], text: str
) -> tuple[int, int, str] | None:
    """(first, end, its text) of the run of pieces, around `index` and `index + 1`, whose characters in
    order are the block `text`'s once the first piece's lines before it and the last piece's lines
    after it are left out; those lines are kept before and after `text`. Asked for paths, MuPDF may
    gather the lines below a cut line into the block of the cut's second piece (a marker's glyph, a
    disc drawn over it, the number on the disc: "•" and "18 Cash Advances\nThese include: …"), where
    the page read without paths makes the cut line a block of its own ("•18 Cash Advances")."""
    target = "".join(text.split())
    for first in range(index, max(-1, index - REACH), -1):
        head = pieces[first][1].splitlines()
        for lead in range(len(head)):
            spelled = _bare(head[lead:]) + "".join(bare[first + 1 : index + 1])
            if not spelled or not target.startswith(spelled):
                continue
            end = index + 1
            while spelled != target and end < len(bare) and target.startswith(spelled + bare[end]):
                spelled += bare[end]
                end += 1
            if spelled == target and end > index + 1:
                return first, end, "\n".join([*head[:lead], text])
            tail = pieces[end][1].splitlines() if end < len(pieces) else []
            for cut in range(1, len(tail)):
                if spelled + _bare(tail[:cut]) == target:
                    return first, end + 1, "\n".join([*head[:lead], text, *tail[cut:]])
    return None


def _bare(lines: Sequence[str]) -> str:
    return "".join("".join(lines).split())


def _same_letters(a: str, b: str) -> bool:
    """The same characters, in whatever order."""
    return sorted(a) == sorted(b)


def repeats_last_lines(before: Piece, piece: Piece, last_lines: Box | None = None) -> bool:
    """Is the block `piece` the last lines of the block `before` once more, within its box, and within
    the box of those lines (`last_lines`, when it is known)? MuPDF, asked for vector paths, writes a
    line that follows a path both in the block it is a line of and as a block of its own at the same
    place; the page read without paths has it once. The same text elsewhere in the block's box is
    another line (a formula's "1" over a fraction's bar, the block's last line the "1" of another)."""
    box, text = before
    lines, mine = text.splitlines(), piece[1].splitlines()
    if not _box_within(piece[0], box) or not 0 < len(mine) < len(lines):
        return False
    if last_lines is not None and not _box_within(piece[0], last_lines):
        return False
    return [line.strip() for line in lines[-len(mine) :]] == [line.strip() for line in mine]


def _box_within(inner: Box, outer: Box) -> bool:
    """Does the box `inner` lie within `outer`, sticking out of it by no more than `_WITHIN`?"""
    (a0, b0, a1, b1), (x0, y0, x1, y1) = inner, outer
    return x0 - _WITHIN <= a0 and a1 <= x1 + _WITHIN and y0 - _WITHIN <= b0 and b1 <= y1 + _WITHIN


def runs_as_blocks(
    blocks: Sequence[Numbered], runs: dict[int, tuple[int, str]]
) -> tuple[list[Numbered], dict[int, int], dict[int, tuple[int, str]]]:
    """The blocks with each run of pieces of one block (`lines_gone_on`: {first: (end, text)}) made
    that block: the union of their boxes, its text, the first piece's number; the numbers so
    replaced, each to that number (the words carry their block's number); and the runs left as they
    were, at their places among the blocks returned. A run whose pieces share a number with a block
    outside it (a block written as its columns) is left."""
    merged: list[Numbered] = []
    renumbered: dict[int, int] = {}
    left: dict[int, tuple[int, str]] = {}
    index = 0
    while index < len(blocks):
        end, text = runs.get(index, (index + 1, ""))
        run = blocks[index:end]
        numbers = {number for _, _, number in run}
        if end > index + 1 and any(number in numbers for _, _, number in (*blocks[:index], *blocks[end:])):
            left[len(merged)] = (len(merged) + end - index, text)
            merged.extend(run)
            index = end
            continue
        box = (
            min(box[0] for box, _, _ in run),
            min(box[1] for box, _, _ in run),
            max(box[2] for box, _, _ in run),
            max(box[3] for box, _, _ in run),
        )
        first = run[0][2]
        merged.append(run[0] if end == index + 1 else (box, text, first))
        renumbered.update((number, first) for number in numbers if number != first)
        index = end
    return merged, renumbered, left


# ------------------------------------------------------------------------------ unreadable text layers
UNREADABLE_SHARE = 0.5  # of a page's words (not its numbers) holding a glyph of no character
UNREADABLE_WORDS = 6  # such words at least: a page whose text layer no reader can use, OCR'd instead
_GLYPHS_OF_A_WORD = 3  # glyphs of no character that make a word of them alone, not a symbol's
UNREADABLE_LAYER = "its text layer maps most glyphs to no character"  # the warnings' words
UNREADABLE_READ = f"{UNREADABLE_LAYER}; the page was OCR'd"  # the warning of a page so read
# The script a page's readable letters are in, by their code points, and the Tesseract language that
# reads it (Latin, or no readable letter at all, reads with the default languages).
_SCRIPTS = (
    ("\u0370", "\u03ff", "ell"),  # Greek
    ("\u0400", "\u052f", "rus"),  # Cyrillic
    ("\u0590", "\u05ff", "heb"),  # Hebrew
    ("\u0600", "\u06ff", "ara"),  # Arabic, and its presentation forms below
    ("\u0750", "\u077f", "ara"),
    ("\ufb50", "\ufdff", "ara"),
    ("\ufe70", "\ufeff", "ara"),
    ("\u0900", "\u097f", "hin"),  # Devanagari
    ("\u0980", "\u09ff", "ben"),  # Bengali
    ("\u0b80", "\u0bff", "tam"),  # Tamil
    ("\u0c00", "\u0c7f", "tel"),  # Telugu
    ("\u0d00", "\u0d7f", "mal"),  # Malayalam
    ("\u0e00", "\u0e7f", "tha"),  # Thai
)


def unreadable(texts: Iterable[str]) -> bool:
    """Whether a page's text layer is mostly glyphs of no character: half of its words (its numbers
    and a symbol's glyph or two, a bullet, apart) hold one, six of them at least. Its fonts map their
    glyphs to nothing (a font of glyphs without Unicode values, an Arabic font whose letters' dots are
    glyphs of their own): what it shows, only a picture of it can read."""
    words = [
        word
        for text in texts
        for word in text.split()
        if any(char.isalpha() for char in word) or word.count(UNMAPPED) >= _GLYPHS_OF_A_WORD
    ]
    broken = sum(1 for word in words if UNMAPPED in word)
    return broken >= UNREADABLE_WORDS and broken >= UNREADABLE_SHARE * len(words)


CODES_READ_SHARE = 0.95  # of a page's words with letters that are letters of one script, read by codes


def read_by_codes(texts: Iterable[str]) -> bool:
    """Whether a page read with its glyphs' codes where they have no Unicode value reads as text: no
    glyph left without a character, no control or private character (a symbol font's bullet read as
    "r\x01"), and nineteen words in twenty of those with letters are letters of one script (an Arabic font
    whose dots are glyphs of their own reads its codes as Latin letters inside Arabic words). A font
    whose codes are its characters (a subset numbered as the text it sets) is then read exactly."""
    texts = list(texts)
    if any(_NO_TEXT.search(text) for text in texts):
        return False
    words = [word for text in texts for word in text.split() if any(char.isalpha() for char in word)]
    scripts = [{_script(char) for char in word if char.isalpha()} for word in words]
    return bool(words) and sum(1 for found in scripts if len(found) == 1) >= CODES_READ_SHARE * len(words)


_NO_TEXT = re.compile(f"[{UNMAPPED}\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\uf8ff]")


def _script(char: str) -> str:
    return next((code for first, last, code in _SCRIPTS if first <= char <= last), "latin")


def script_language(texts: Iterable[str]) -> str | None:
    """The Tesseract language of the script most readable letters of a page are in ("ara" for an Arabic
    layer whose dots are lost); None for Latin letters or none."""
    counts: dict[str, int] = {}
    latin = 0
    for text in texts:
        for char in text:
            if not char.isalpha():
                continue
            language = _script(char)
            if language == "latin":
                latin += 1
            else:
                counts[language] = counts.get(language, 0) + 1
    best = max(counts, key=lambda code: counts[code], default=None)
    return best if best is not None and counts[best] > latin else None
