"""HEIC/HEIF photos (iPhone pictures): decoded by pillow-heif, then read as a PNG by the image reader
(`pdf`: OCR). A page is the file's primary image; the other images of a burst or a sequence are not
read.

Photos of print (a till roll on a table): after OCR of a page, the paper to the right of each line
that ends without a number is read again, cut out up to where the background begins
(`with_words_beside_lines`): Tesseract's layout analysis loses the right-aligned column of a roll's
amounts, which the same pixels read clearly without the page around them. Then the page's head (its
first lines) is read again as one column (`read_head_again`), and a doubtful word there gives way to a
more confident other one: a shop's name and address in large or bold print. Both run on every page read
by OCR, scans too, while the page's time allows.
"""

from __future__ import annotations

import io
import re
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import pymupdf

from docsvc.documents.engine import pdf
from docsvc.documents.engine.errors import DamagedDocument, DecompressionLimit
from docsvc.documents.engine.layout import overlaps
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.ocr import (
    DEFAULT_LANGUAGES,
    DOUBTFUL_CONFIDENCE,
    MAX_OCR_PIXELS,
    MAX_PICTURE_SIDE,
    Reading,
    Word,
    _grey,
    _otsu,
    _render,
    _Tesseract,
    _tesseract,
    reason,
    tessdata,
)

if TYPE_CHECKING:
    from PIL import Image


def count_pages(content: bytes, kind: str) -> int:
    return 1


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    if first > 1:
        return
    yield from pdf.read_pages(as_png(content, kind), "png", options, 1)


def as_png(content: bytes, kind: str) -> bytes:
    """The primary image as PNG bytes, refused before decoding when it has more pixels than OCR reads."""
    import pillow_heif  # here: its libraries (15 MB) load only for a HEIC, not at every cold start

    try:
        heif = pillow_heif.open_heif(content, convert_hdr_to_8bit=True)
        width, height = heif.size
        if width * height > MAX_OCR_PIXELS:
            raise DecompressionLimit(
                f"the {kind.upper()} image is {width} x {height} pixels; at most {MAX_OCR_PIXELS} are read"
            )
        image = heif.to_pillow()
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="PNG")
    except DecompressionLimit:
        raise
    except Exception as error:  # libheif raises plain ValueErrors and RuntimeErrors for damaged files
        raise DamagedDocument(f"the {kind.upper()} could not be decoded: {reason(error)}") from None
    return buffer.getvalue()


# ------------------------------------------------------------------------- values beside a line (photos)
# Tesseract's layout analysis of a photo of a till roll takes the right-aligned column of amounts for a
# block of its own and reads nothing there ("TOTAL:" with no number on the page); the same amount,
# cut out with the paper around it and nothing of the background, reads clearly. So the paper to the
# right of each line read is cut out (up to where the paper gives way to the background, or another
# word read at that height), and the strips, stacked into one picture, are read as one block of text:
# one more reading per page, about as large as its blank paper beside its lines.
BESIDE_MIN_WIDTH = 3.0  # line heights: paper narrower than this to a line's right holds no value
BESIDE_PAD = 0.5  # line heights of paper kept above and below the line in its strip
BESIDE_CONFIDENCE = 70.0  # a word read beside a line is kept from this confidence up (blank paper reads
# as a few letters of confidence 40 and less: "ny", "9c")
SPARSE_TEXT = 11  # Tesseract's page segmentation mode that finds what text it can, in no order: read as
# one block (6), the stack lost two of the five amounts of a till roll's strips
BESIDE_CONTRAST = 25  # grey levels between a strip's ink and its paper (Otsu's two classes' means) below
# which it holds no print (shadows and grain)
BESIDE_HEIGHT = 30.0  # pixels: strips of smaller print are drawn larger to be read at about this height
BESIDE_MAX_SCALE = 3.0
BESIDE_MAX_SHARE = 0.5  # the strips, stacked, are at most this share of the page's area
# The reading beside the lines costs 8% of a photo's reading on average (30 receipt photos), the rest of
# the page's reading (its text page, its tables, the reader's start) a little more: a page is read so
# only when its OCR so far took at most this share of the page's time (a receipt photo whose OCR took
# 7.9 of its 10 s on a busy machine came out empty, over its time, when read so too).
BESIDE_TIME_SHARE = 0.6
# Only numbers are taken from the paper beside the lines: the words of letters read there (confidence 90
# and up) were the heads of rolls read again worse, or print beside the roll ("oy", "Rd Rd")


def with_words_beside_lines(
    page: pymupdf.Page, reading: Reading, options: ParseOptions, spent: float = 0.0
) -> Reading:
    """The page's reading with the words read on the paper beside its lines (`read_beside_lines`), then
    its head read again as one column (`read_head_again`: after, so that the lines beside which the
    paper is read are the first reading's), on the page drawn as it was read; as it is when the page's
    time (`spent` on reading it so far) would not allow it."""
    tesseract, location = _tesseract(), tessdata()
    if tesseract is None or location is None or not reading.words:
        return reading
    if spent > BESIDE_TIME_SHARE * options.page_seconds:
        return reading
    pixmap, _ = _render(page, reading.dpi, reading.turn)
    languages = "+".join(options.languages or DEFAULT_LANGUAGES)
    grey, started = _grey(pixmap), time.monotonic()
    try:  # each a second look: one Tesseract refuses (a picture too large, say) keeps the reading before it
        reading = read_beside_lines(tesseract, grey, reading, languages, location)
        if spent + time.monotonic() - started > BESIDE_TIME_SHARE * options.page_seconds:
            return reading
        return read_head_again(tesseract, grey, reading, languages, location)
    except RuntimeError:
        return reading


def read_beside_lines(
    tesseract: _Tesseract, grey: Image.Image, reading: Reading, languages: str, location: str
) -> Reading:
    """The reading with the words read on the paper beside its lines, each set on the line it stands
    beside (see BESIDE_MIN_WIDTH and above). `grey` is the rendering the reading was made on."""
    strips = _strips_beside(grey, reading.words)
    if not strips:
        return reading
    height = statistics.median(word.box[3] - word.box[1] for word in reading.words)
    scale = min(max(BESIDE_HEIGHT / max(height, 1.0), 1.0), BESIDE_MAX_SCALE)
    bare = {line for line, _ in strips}  # a word read in the pad of a strip joins no line that has its value
    added: list[Word] = []
    for stacked, offsets in (_stacked(grey, group, scale) for group in _stackable(strips, scale)):
        words = tesseract.words(
            stacked.tobytes(),
            stacked.width,
            stacked.height,
            stacked.width,
            reading.dpi,
            languages,
            location,
            None,
            False,
            SPARSE_TEXT,
        )
        _place(words, offsets, scale, reading.words, bare, added)
    if not added:
        return reading
    replaced = {
        word
        for word in reading.words
        if _doubtful_end(word) and any(overlaps(word.box, other.box) and _numeric(other) for other in added)
    }
    kept = tuple(word for word in reading.words if word not in replaced)
    return replace(reading, words=kept + tuple(added))


def _place(
    words: Sequence[Word],
    offsets: Sequence[tuple[int, int, float, float]],
    scale: float,
    lines: Sequence[Word],
    bare: set[tuple[int, int, int]],
    added: list[Word],
) -> None:
    """Adds to `added` each number read confidently on a stack of strips (`offsets`, as `_stacked` gives
    them), moved to where it stands on the page and set on the line read beside it, when that line is one
    of `bare` and nothing added already stands there."""
    for word in words:
        if word.confidence < BESIDE_CONFIDENCE or not _numeric(word):
            continue
        middle = (word.box[1] + word.box[3]) / 2
        for top, bottom, x0, y0 in offsets:
            if top <= middle < bottom:
                box = (
                    x0 + word.box[0] / scale,
                    y0 + (word.box[1] - top) / scale,
                    x0 + word.box[2] / scale,
                    y0 + (word.box[3] - top) / scale,
                )
                line = _line_at(lines, (box[1] + box[3]) / 2)
                if line in bare and not any(overlaps(box, other.box) for other in added):
                    added.append(replace(word, line=line, box=box))
                break


def _doubtful_end(word: Word) -> bool:
    """Whether a word that ends a line is read doubtfully and is no amount as printed (an amount in a
    shadow read as "a", or with its digits half lost: "7.", "17" then ".S@"): the paper under it is read
    again with the paper beside it, and the word replaced by a number read there (a word of letters read
    again is as often worse: "Lombard" as "oabard"). A doubtful word read as an amount, "55.51", is kept:
    read again it was as often another amount ("59.51")."""
    return word.confidence < BESIDE_CONFIDENCE and not _AMOUNT.fullmatch(word.text)


# A word read as a number as printed: an amount (a sign at most, digits with separators, a decimal mark
# and cents), or a whole number of three digits or more (a ZIP code ending an address: "11001" read
# again beside its line came out "11008").
_AMOUNT = re.compile(r"[^\w.,]?-?\d[\d,.]*[.,]\d\d|\d{3,}")


def _numeric(word: Word) -> bool:
    return any(character.isdigit() for character in word.text)


def _line_at(words: Sequence[Word], middle: float) -> tuple[int, int, int] | None:
    """The line read whose words' median top and bottom hold `middle` (the nearest such line's middle
    first), or None: a word found between lines (the edge of a strip) stands on none."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    best, distance = None, float("inf")
    for line, members in lines.items():
        top = statistics.median(w.box[1] for w in members)
        bottom = statistics.median(w.box[3] for w in members)
        if top <= middle <= bottom and abs((top + bottom) / 2 - middle) < distance:
            best, distance = line, abs((top + bottom) / 2 - middle)
    return best


def _strips_beside(
    grey: Image.Image, words: Sequence[Word]
) -> list[tuple[tuple[int, int, int], tuple[int, int, int, int]]]:
    """For each line read, the box of the paper to its right (past every word read at its height, up to
    where the background begins), when that paper is at least BESIDE_MIN_WIDTH line heights wide and
    the last word read at that height holds no digit (a line that ends in a number has its value: the
    paper past it is another sheet's, or the table's, as often as not)."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    threshold = _otsu(grey.histogram())
    strips: list[tuple[tuple[int, int, int], tuple[int, int, int, int]]] = []
    area, last_bottom = 0, 0.0
    for line, members in sorted(lines.items(), key=lambda item: min(w.box[1] for w in item[1])):
        height = statistics.median(w.box[3] - w.box[1] for w in members)
        top = min(statistics.median(w.box[1] for w in members), grey.height)
        bottom = max(statistics.median(w.box[3] for w in members), top + 1)
        level = sorted(
            {*members, *(w for w in words if top <= (w.box[1] + w.box[3]) / 2 <= bottom)},
            key=lambda w: w.box[2],
        )
        while len(level) > 1 and _doubtful_end(level[-1]):
            level.pop()
        last = level[-1]
        if any(character.isdigit() for character in last.text):  # its value was read
            continue
        left = int(last.box[2] + height / 2)
        pad = BESIDE_PAD * height
        y0, y1 = max(int(top - pad), 0), min(int(bottom + pad), grey.height)
        right = _paper_end(grey, left, y0, y1, threshold, height) - int(height / 2)
        if right - left < BESIDE_MIN_WIDTH * height or y1 <= y0:
            continue
        if top < last_bottom:  # a line at the height of the one before it (another block's)
            continue
        last_bottom = bottom
        area += (right - left) * (y1 - y0)
        if area > BESIDE_MAX_SHARE * grey.width * grey.height:
            break
        strips.append((line, (left, y0, right, y1)))
    return strips


def _paper_end(grey: Image.Image, left: int, y0: int, y1: int, threshold: int, height: float) -> int:
    """Where the paper of rows y0..y1 ends right of `left`: before the first run of columns half a line
    height wide whose median is darker than the page's ink threshold (the background), else the page's
    edge."""
    from PIL import Image

    if left >= grey.width or y1 <= y0:
        return left
    strip = grey.crop((left, y0, grey.width, y1))
    run, needed = 0, max(int(height / 2), 2)
    rows = strip.height
    columns = strip.transpose(Image.Transpose.ROTATE_90).tobytes()  # column x is row (width - 1 - x)
    for x in range(strip.width):
        start = (strip.width - 1 - x) * rows
        column = sorted(columns[start : start + rows])
        if column[rows // 2] < threshold:
            run += 1
            if run >= needed:
                return left + x - run + 1
        else:
            run = 0
    return grey.width


def _stackable(
    strips: Sequence[tuple[tuple[int, int, int], tuple[int, int, int, int]]], scale: float
) -> list[list[tuple[tuple[int, int, int], tuple[int, int, int, int]]]]:
    """The strips in runs, in order, each of which `_stacked` draws within MAX_PICTURE_SIDE a side (the
    strips of a poster's sixty lines, its headings' half a page apart, stack 39,000 pixels high, a picture
    Tesseract refuses); a strip too wide to be stacked at all is left out."""
    runs: list[list[tuple[tuple[int, int, int], tuple[int, int, int, int]]]] = []
    run: list[tuple[tuple[int, int, int], tuple[int, int, int, int]]] = []
    for strip in strips:
        if max(_stack_size([strip], scale)) > MAX_PICTURE_SIDE:
            continue
        if run and max(_stack_size([*run, strip], scale)) > MAX_PICTURE_SIDE:
            runs.append(run)
            run = []
        run.append(strip)
    return [*runs, run] if run else runs


def _stack_size(
    strips: Sequence[tuple[tuple[int, int, int], tuple[int, int, int, int]]], scale: float
) -> tuple[int, int]:
    """The width and height of the picture `_stacked` draws of the strips."""
    sizes = [
        (round((right - left) * scale), round((bottom - top) * scale))
        if scale > 1
        else (right - left, bottom - top)
        for _, (left, top, right, bottom) in strips
    ]
    width, height, _ = _stack_geometry(sizes)
    return width, height


def _stack_geometry(sizes: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """The width and height of a stack of pictures of `sizes` (width, height), and the gap between
    them: the tallest one's height, above each and left of all."""
    gap = max(height for _, height in sizes)
    return max(width for width, _ in sizes) + gap, gap + sum(height + gap for _, height in sizes), gap


def _stacked(
    grey: Image.Image,
    strips: Sequence[tuple[tuple[int, int, int], tuple[int, int, int, int]]],
    scale: float = 1.0,
) -> tuple[Image.Image, list[tuple[int, int, float, float]]]:
    """The strips cut out, drawn `scale` times as large, each in black and white by its own threshold
    (`_inked`), and stacked on white, a strip's height apart, each `gap` from the left; and each strip's
    rows in the stack with where its left top corner is on the rendering (a word at x, y of the stack
    is at left + x / scale, top + (y - first row) / scale there: the gap is cut from the left)."""
    from PIL import Image

    crops = []
    for _, box in strips:
        crop = grey.crop(box)
        if scale > 1:
            size = (round(crop.width * scale), round(crop.height * scale))
            crop = crop.resize(size, Image.Resampling.BICUBIC)
        crops.append(_inked(crop))
    width, height, gap = _stack_geometry([crop.size for crop in crops])
    stacked = Image.new("L", (width, height), 255)
    offsets, y = [], gap
    for crop, (_, box) in zip(crops, strips, strict=True):
        stacked.paste(crop, (0, y))
        offsets.append((y, y + crop.height, float(box[0]), float(box[1])))
        y += crop.height + gap
    return stacked, offsets


def _inked(strip: Image.Image) -> Image.Image:
    """A strip in black and white by its own threshold (Otsu's): the light falls unevenly along a
    photographed roll, and one threshold for the stack would drop the ink of its darker strips."""
    histogram = strip.histogram()
    threshold = _otsu(histogram)
    dark, light = histogram[:threshold], histogram[threshold:]
    if not sum(dark) or not sum(light):
        return strip.point(lambda value: 255)
    ink = sum(level * count for level, count in enumerate(dark)) / sum(dark)
    paper = sum((threshold + level) * count for level, count in enumerate(light)) / sum(light)
    if paper - ink < BESIDE_CONTRAST:
        return strip.point(lambda value: 255)
    return strip.point(lambda value: 0 if value < threshold else 255)


# ---------------------------------------------------------------------------- the head read again (photos)
# The head of a till roll (the shop's name over its address, telephone and the first stamp, in print of
# several sizes, often small and faint over a large name) is where Tesseract's layout analysis (PSM 3)
# loses most: it splits the head into blocks, takes the background beside the paper into them, and reads
# small print over a logo as noise. The same pixels, cut out from the page's top to below the head's
# lines and read as one column of text of various sizes (PSM 4), read more of the shop's name and
# address: on 69 receipt photos, of the typed names' and addresses' words, 132 -> 138 of 166 and 309 ->
# 315 of 404 were in the page's words, none lost (drawn twice as large, or read as one block, PSM 6, it
# read fewer, and replacing whole lines lost words that the first reading had right). About 0.5 s a photo.
HEAD_LINES = 8  # the lines read first, from the top, that the head is cut out to hold
HEAD_MARGIN = 2.0  # line heights of paper kept left and right of the head's words (and one below)
HEAD_COLUMN = 4  # Tesseract's page segmentation mode for a single column of text of various sizes
HEAD_SAME = 0.3  # a word read again stands where a word read first stands when their boxes share this
# share of their union
HEAD_BETTER = 10.0  # a word read again replaces the doubtful words first read where it stands when its
# confidence is this much above theirs
HEAD_COVER = 0.8  # a word read again spans this share of a word's width at least to replace it
HEAD_NEW = 60.0  # a word read again where nothing was read first is added from this confidence up
HEAD_BLOCK = 1 << 20  # the block number the head's own lines are given (none of the first reading's)


def read_head_again(
    tesseract: _Tesseract, grey: Image.Image, reading: Reading, languages: str, location: str
) -> Reading:
    """The reading with its head read again as one column (see HEAD_LINES and above): a word read again
    more confidently (by HEAD_BETTER) than the words first read where it stands takes their place, and
    one read where nothing was read is added (from HEAD_NEW); the rest of the reading is kept as read.
    `grey` is the rendering the reading was made on."""
    box = _head_box(grey, reading.words)
    if box is None:
        return reading
    crop = grey.crop(box)
    read = tesseract.words(
        crop.tobytes(),
        crop.width,
        crop.height,
        crop.width,
        reading.dpi,
        languages,
        location,
        None,
        False,
        HEAD_COLUMN,
    )
    first = reading.words
    placed: dict[int, list[Word]] = {}
    dropped: set[int] = set()
    added: list[Word] = []
    for word in read:
        moved = (word.box[0] + box[0], word.box[1] + box[1], word.box[2] + box[0], word.box[3] + box[1])
        under = [
            index
            for index, other in enumerate(first)
            if _shared(other.box, moved) > HEAD_SAME and _covers(moved, other.box)
        ]
        if not any(overlaps(other.box, moved) for other in first):
            if word.confidence >= HEAD_NEW:
                line = _line_at(first, (moved[1] + moved[3]) / 2) or (
                    HEAD_BLOCK + word.line[0],
                    word.line[1],
                    word.line[2],
                )
                added.append(replace(word, box=moved, line=line))
        elif under and _better(word, [first[index] for index in under]):
            dropped.update(under)
            placed.setdefault(min(under), []).append(replace(word, box=moved, line=first[min(under)].line))
    if not placed and not added:
        return reading
    words: list[Word] = []
    for index, word in enumerate(first):
        words.extend(placed.get(index, []))
        if index not in dropped:
            words.append(word)
    words.extend(added)
    touched = {word.line for word in added} | {word.line for words_ in placed.values() for word in words_}
    return replace(reading, words=_left_to_right(words, touched))


def _better(word: Word, first: Sequence[Word]) -> bool:
    """Whether a word read again takes the place of the words first read where it stands: they were read
    doubtfully (under DOUBTFUL_CONFIDENCE), it HEAD_BETTER more confidently, and as another word, not the
    same one a letter apart: read as one column, a word is as often read a letter worse with more
    confidence (small print drawn finer, "warehouse" at 29 read again "warchouse" at 91) as a letter
    better; the words it mends are the ones the layout analysis garbled ("ee" for GRAND, "sees" for 11325)."""
    confidence = max(other.confidence for other in first)
    if confidence >= DOUBTFUL_CONFIDENCE or word.confidence <= confidence + HEAD_BETTER:
        return False
    return len(first) > 1 or not _a_letter_apart(word.text, first[0].text)


def _covers(box: Sequence[float], other: Sequence[float]) -> bool:
    """Whether `box` spans HEAD_COVER of `other`'s width: a word read again shorter than the word first
    read there ("24-Mar" where "24-Mar-2019" was read) is a part of it, and does not replace it."""
    across = min(box[2], other[2]) - max(box[0], other[0])
    return across >= HEAD_COVER * (other[2] - other[0])


def _a_letter_apart(a: str, b: str) -> bool:
    """Whether two words are the same but for one letter at most: one changed, left out or put in."""
    a, b = a.casefold(), b.casefold()
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    start = next((index for index, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[start + (len(a) == len(b)) :] == b[start + 1 :]


def _head_box(grey: Image.Image, words: Sequence[Word]) -> tuple[int, int, int, int] | None:
    """The box of the page's head: from the page's top to a line height below the first HEAD_LINES lines
    read, as wide as their words and HEAD_MARGIN line heights either side."""
    if not words:
        return None
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    head = sorted(lines.values(), key=lambda members: min(w.box[1] for w in members))[:HEAD_LINES]
    members = [word for line in head for word in line]
    height = statistics.median(word.box[3] - word.box[1] for word in words)
    x0 = max(int(min(word.box[0] for word in members) - HEAD_MARGIN * height), 0)
    x1 = min(int(max(word.box[2] for word in members) + HEAD_MARGIN * height), grey.width)
    y1 = min(int(max(word.box[3] for word in members) + height), grey.height)
    return (x0, 0, x1, y1) if x1 > x0 and y1 > 0 else None


def _shared(a: Sequence[float], b: Sequence[float]) -> float:
    """The share of their union that two boxes share (0 when apart)."""
    across = max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
    down = max(min(a[3], b[3]) - max(a[1], b[1]), 0.0)
    common = across * down
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - common
    return common / union if union > 0 else 0.0


def _left_to_right(words: Sequence[Word], lines: set[tuple[int, int, int]]) -> tuple[Word, ...]:
    """The words with those of `lines` put in the order they stand from left to right (each line's words
    keep their places in the sequence): the text page draws a line's words in their order."""
    ordered = {
        line: iter(sorted((w for w in words if w.line == line), key=lambda w: w.box[0])) for line in lines
    }
    return tuple(next(ordered[word.line]) if word.line in ordered else word for word in words)
