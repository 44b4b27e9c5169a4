"""Ruled tables in the picture of a page read by OCR (a scan, a photo, a table drawn as an image).

A page without a text layer has no vector drawings, so its ruling lines are found in its picture: the
page is drawn in grey at RULES_DPI in the frame its OCR text page was made in (turned and straightened
as OCR read it), and every row (for horizontal rules) and column (for vertical ones) is searched for
runs of dark pixels at least MIN_HORIZONTAL / MIN_VERTICAL inches long; letters' strokes are shorter.
Runs on neighbouring rows that overlap are one rule. A run of rows thicker than MAX_THICKNESS is a dark
area (a photo, a filled box), not a rule, and so is a rule with dark on both of its sides, or one
along the edge of the picture (a scanner's border). The rules become the segments `grids.ruled_grids`
takes, in the coordinates of the OCR text page's words; a table found in a picture that is mostly
dark (a photo with straight edges) is dropped.

The frame of the OCR text page: `ocr.textpage_of` makes it the page's own (unrotated) frame when the
page was read unturned, else the rendering's turned by the reading's turn (levelled by up to 6
degrees, in tenths, plus a quarter turn), whose width and height tell that turn up to its sign and a
half turn; those are told apart by the ink under the words read.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pymupdf

from docsvc.documents.engine.grids import Box, Grid, Segment, Word, ruled_grids

if TYPE_CHECKING:
    from PIL import Image

RULES_DPI = 120  # the picture the rules are looked for in: a 1-point rule is 1.7 pixels wide
DARK = 160  # grey levels below this are ink
MIN_HORIZONTAL = 0.4  # inches: a horizontal run of ink this long is a rule (a bold 36-point T is 0.3)
MIN_VERTICAL = 0.3  # inches: a vertical one (a 24-point l is 0.24)
MAX_THICKNESS = 0.045  # inches (3.2 points): a thicker run of rows is a dark area
SIDE = 3  # pixels: the strips either side of a rule, this far out, must be mostly paper
MAX_SIDE_INK = 0.5
MAX_GRID_INK = 0.35  # a table drawn in a picture is mostly paper
EDGE = 0.01  # of the picture's width or height: a rule this close to its edge is the scan's border
MAX_SPAN = 0.97  # of the picture's width or height: a rule across all of it is a border
MAX_LEVELLED = 7.0  # degrees: OCR levels pages skewed up to 6 degrees, in tenths
_SIZE_TOLERANCE = 0.05  # points: the text page's size against a turn's
_INK_WORDS = 120  # words whose ink tells a turn from its half turn
_BAR = re.compile(r"[|]+")


@dataclass(frozen=True)
class Picture:
    """The ruled tables drawn in a page's picture."""

    grids: list[Grid]

    @staticmethod
    def blocks_without_bars(blocks: Sequence[tuple[Box, str, int]]) -> list[tuple[Box, str, int]]:
        """The blocks of text without the words that are only bars ("|"): OCR reads a vertical rule
        so (the words, `words_without_bars`, leave them out alike)."""
        kept = []
        for box, text, number in blocks:
            if "|" in text:
                lines = (
                    " ".join(word for word in line.split() if not _BAR.fullmatch(word))
                    for line in text.split("\n")
                )
                text = "\n".join(line for line in lines if line)
            if text:
                kept.append((box, text, number))
        return kept

    @staticmethod
    def words_without_bars(words: Sequence[Word]) -> list[Word]:
        """The words but bars (see `blocks_without_bars`). OCR's words stand where the picture has them
        (`ocr.textpage_of`), so the table's cells are found among them as they are."""
        return [word for word in words if not _BAR.fullmatch(word.text)]


def picture_tables(page: pymupdf.Page, textpage: pymupdf.TextPage, read_turn: float = 0) -> Picture | None:
    """The ruled tables drawn in the picture of `page`, which OCR read into `textpage` at `read_turn`
    degrees, in the coordinates the page's words are given in (pdf `_words`: the text page's, turned
    by the page's /Rotate when OCR read the page unturned, in its own frame; as they are when it read
    it turned, upright already); None when there are none."""
    from PIL import Image

    boxes = [tuple(word[:4]) for word in textpage.extractWORDS()[:_INK_WORDS]]
    frame, image = _reading_frame(page, textpage.rect, boxes)  # the picture drawn in the text page's frame
    if image is None:
        return None
    ink = _ink(image)
    width, height = image.size
    across = _rules(ink, width, height, MIN_HORIZONTAL)
    if not across:
        return None
    down = _rules(_ink(image.transpose(Image.Transpose.TRANSPOSE)), height, width, MIN_VERTICAL)
    if not down:
        return None
    scale = pymupdf.Matrix(72 / RULES_DPI, 72 / RULES_DPI)  # to the text page's frame
    if page.rotation and not read_turn:  # to the page as shown, where pdf `_words` turns the words to
        scale = _to_shown(page, frame)
    horizontal: list[Segment] = []
    vertical: list[Segment] = []

    def add(x0: float, y0: float, x1: float, y1: float) -> None:
        start, end = pymupdf.Point(x0, y0) * scale, pymupdf.Point(x1, y1) * scale
        if abs(end.y - start.y) < abs(end.x - start.x):
            horizontal.append(((start.y + end.y) / 2, start.x, end.x))
        else:
            vertical.append(((start.x + end.x) / 2, start.y, end.y))

    for at, start, end in across:
        add(start, at, end, at)
    for at, start, end in down:
        add(at, start, at, end)
    to_pixels = ~scale
    grids = [
        grid
        for grid in ruled_grids(horizontal, vertical)
        if math.isfinite(grid.box[3])  # a frame open below, a table run on to the page end, is left out
        and ink_share_in(ink, width, height, tuple(pymupdf.Rect(grid.box) * to_pixels)) <= MAX_GRID_INK
    ]
    return Picture(grids) if grids else None


def picture_lines(page: pymupdf.Page) -> tuple[list[Segment], list[Segment], bytes, int, int]:
    """The horizontal and vertical rules the picture of `page` draws (a scanned form, a form whose
    lines are a background image), in the points of the page as shown; and the picture's ink (1 per
    dark pixel, row by row), width and height, drawn at RULES_DPI, for what else is looked for there."""
    from PIL import Image

    image = _picture(page, 0.0)
    ink = _ink(image)
    width, height = image.size
    scale = 72 / RULES_DPI
    across = _rules(ink, width, height, MIN_HORIZONTAL)
    down = _rules(_ink(image.transpose(Image.Transpose.TRANSPOSE)), height, width, MIN_VERTICAL)
    horizontal = [(at * scale, start * scale, end * scale) for at, start, end in across]
    vertical = [(at * scale, start * scale, end * scale) for at, start, end in down]
    return horizontal, vertical, ink, width, height


def _to_shown(page: pymupdf.Page, turn: float) -> pymupdf.Matrix:
    """From the pixels of the picture drawn at `turn` (`_picture`: the page as shown, turned `turn`
    degrees clockwise) to the points of the page as shown. The picture that fits the words of a page
    with /Rotate read unturned is the page as shown (turn 0) or the page's own frame (the turn that
    undoes its /Rotate), whichever has more ink under them: the two are the same picture turned."""
    drawn = pymupdf.Matrix(RULES_DPI / 72, RULES_DPI / 72).prerotate(turn)
    corner = (page.rect * drawn).top_left
    to_shown: pymupdf.Matrix = pymupdf.Matrix(1, 0, 0, 1, corner.x, corner.y) * ~drawn
    return to_shown


def _ink(image: Image.Image) -> bytes:
    """1 for each dark pixel of a grey picture, 0 for each other, row by row."""
    return image.point(lambda value: 1 if value < DARK else 0).tobytes()


# ---------------------------------------------------------------------------------------- the frame
def _reading_frame(
    page: pymupdf.Page, sheet: pymupdf.Rect, boxes: Sequence[tuple[float, ...]]
) -> tuple[float, Image.Image | None]:
    """The turn the page was read at and the picture drawn at that turn (None when no turn gives the
    text page's size): of the turns that do, the one with the most ink under the words."""
    from PIL import Image

    drawn: dict[float, Image.Image] = {}
    best: tuple[float, float, Image.Image | None] = (-1.0, 0.0, None)
    for turn in _turns(page, sheet):
        half = round((turn + 180) % 360, 1)
        image = drawn[half].transpose(Image.Transpose.ROTATE_180) if half in drawn else _picture(page, turn)
        drawn[round(turn % 360, 1)] = image
        share = _words_ink(_ink(image), image.width, image.height, boxes, turn, page)
        if share > best[0]:
            best = (share, turn, image)
    return best[1], best[2]


def _turns(page: pymupdf.Page, sheet: pymupdf.Rect) -> list[float]:
    """The turns (degrees) the OCR text page's size `sheet` fits: 0 when it is the page's own frame,
    else the turns of the rendering, in tenths, whose size is the sheet's."""
    unrotated = page.rect * page.derotation_matrix
    if _same_size(sheet, unrotated.width, unrotated.height):  # read unturned, or a quarter turn of it
        return [
            0.0,
            *(turn for turn in (90.0, 180.0, 270.0) if _same_size(sheet, *_turned_size(page.rect, turn))),
        ]
    found = []
    for quarter in (0, 90, 180, 270):
        for tenths in range(-int(MAX_LEVELLED * 10), int(MAX_LEVELLED * 10) + 1):
            turn = quarter + tenths / 10
            if turn and _same_size(sheet, *_turned_size(page.rect, turn)):
                found.append(turn)
    return found


def _turned_size(rect: pymupdf.Rect, turn: float) -> tuple[float, float]:
    cos, sin = abs(math.cos(math.radians(turn))), abs(math.sin(math.radians(turn)))
    return rect.width * cos + rect.height * sin, rect.width * sin + rect.height * cos


def _same_size(sheet: pymupdf.Rect, width: float, height: float) -> bool:
    return bool(abs(sheet.width - width) <= _SIZE_TOLERANCE and abs(sheet.height - height) <= _SIZE_TOLERANCE)


def _picture(page: pymupdf.Page, turn: float) -> Image.Image:
    from PIL import Image

    matrix = pymupdf.Matrix(RULES_DPI / 72, RULES_DPI / 72).prerotate(turn)
    pixmap = page.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False)
    return Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)


def _words_ink(
    ink: bytes,
    width: int,
    height: int,
    boxes: Sequence[tuple[float, ...]],
    turn: float,
    page: pymupdf.Page,
) -> float:
    """The share of ink under the words' boxes, drawn on the picture at `turn`."""
    to_pixels = pymupdf.Matrix(RULES_DPI / 72, RULES_DPI / 72)
    if not turn and page.rotation:  # the page's own frame: the picture shows it rotated
        to_pixels = page.rotation_matrix * to_pixels
    total = dark = 0.0
    for box in boxes:
        rect = pymupdf.Rect(box[:4]) * to_pixels
        area = max(rect.width, 0) * max(rect.height, 0)
        total += area
        dark += area * ink_share_in(ink, width, height, (rect.x0, rect.y0, rect.x1, rect.y1))
    return dark / total if total else 0.0


def ink_share_in(ink: bytes, width: int, height: int, box: tuple[float, float, float, float]) -> float:
    x0, y0 = max(int(box[0]), 0), max(int(box[1]), 0)
    x1, y1 = min(math.ceil(box[2]), width), min(math.ceil(box[3]), height)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    step = max((y1 - y0) // 40, 1)  # a large box is sampled every few rows
    rows = range(y0, y1, step)
    dark = sum(ink.count(1, row * width + x0, row * width + x1) for row in rows)
    return dark / (len(rows) * (x1 - x0))


# ---------------------------------------------------------------------------------------- the rules
_RUN_CACHE: dict[int, re.Pattern[bytes]] = {}


def _rules(ink: bytes, width: int, height: int, min_inches: float) -> list[Segment]:
    """The rules along the rows of a picture of `width` x `height` pixels whose `ink` is 1 per dark
    pixel: where each stands (a row, in pixels, fractional), from, to (pixels)."""
    margin = EDGE * height
    rules: list[Segment] = []
    for line in thin_lines(
        ink, width, max(int(min_inches * RULES_DPI), 2), max(MAX_THICKNESS * RULES_DPI, 2.0)
    ):
        top, bottom = min(r for r, _, _ in line), max(r for r, _, _ in line)
        start, end = min(a for _, a, _ in line), max(b for _, _, b in line)
        length = sum(b - a for _, a, b in line)
        at = sum((r + 0.5) * (b - a) for r, a, b in line) / length
        if at < margin or at > height - margin or end - start > MAX_SPAN * width:
            continue  # the edge of the scan, or a border along it
        above = ink_share_in(ink, width, height, (start, top - SIDE - 1, end, top - SIDE + 1))
        below = ink_share_in(ink, width, height, (start, bottom + SIDE, end, bottom + SIDE + 2))
        if above > MAX_SIDE_INK and below > MAX_SIDE_INK:
            continue  # dark on both sides: an edge inside a photo
        rules.append((at, float(start), float(end)))
    return rules


def thin_lines(ink: bytes, width: int, least: int, thickest: float) -> list[list[tuple[int, int, int]]]:
    """The lines along the rows of a picture `width` pixels wide whose `ink` is 1 per dark pixel, each
    as its runs (row, from, to exclusive) of at least `least` dark pixels, on average no thicker than
    `thickest` rows (a thicker one is a dark area: a photo, a filled box)."""
    pattern = _RUN_CACHE.setdefault(least, re.compile(b"\x01{%d,}" % least))
    runs: list[tuple[int, int, int]] = []  # row, from, to (exclusive)
    for found in pattern.finditer(ink):
        start, end = found.span()
        row = start // width
        while start < end:  # a run may go on into the next row
            stop = min(end, (row + 1) * width)
            if stop - start >= least:
                runs.append((row, start - row * width, stop - row * width))
            start, row = stop, row + 1
    thin = []
    for line in _lines(runs):
        if _thickness(line) <= thickest:
            thin.append(line)
            continue
        pieces = _outside_band(line, least, thickest)  # lines crossing a dark band, without it
        thin += [piece for piece in _lines(pieces) if _thickness(piece) <= thickest]
    return thin


def _thickness(line: Sequence[tuple[int, int, int]]) -> float:
    """A line's ink over its length: the rows it is thick, on average."""
    start, end = min(a for _, a, _ in line), max(b for _, _, b in line)
    return sum(b - a for _, a, b in line) / (end - start)


def _outside_band(
    line: Sequence[tuple[int, int, int]], least: int, thickest: float
) -> list[tuple[int, int, int]]:
    """The runs of a thick line cut where more than `thickest` of its rows, and more than half the most
    at any point, are dark at once (a dark band: a shaded heading row that the column dividers of a
    table cross), the pieces of at least
    `least` pixels kept. Seen down the page each divider's column is dark the band's height too, so
    the dividers and the band run together into one wide area that would be dropped whole; outside
    the band a divider is as thin as a rule again."""
    offset = min(a for _, a, _ in line)
    steps = [0] * (max(b for _, _, b in line) - offset + 1)
    for _, a, b in line:
        steps[a - offset] += 1
        steps[b - offset] -= 1
    depths = list(itertools.accumulate(steps))
    least_band = max(thickest, max(depths) / 2)  # the dividers' rows together are fewer than the band's
    bands: list[tuple[int, int]] = []  # from, to (exclusive), along the rows
    for at, depth in enumerate(depths):
        if depth > least_band:
            if bands and bands[-1][1] == at + offset:
                bands[-1] = (bands[-1][0], at + offset + 1)
            else:
                bands.append((at + offset, at + offset + 1))
    starts = [band[0] for band in bands]
    pieces = []
    for row, a, b in line:
        start = a
        for first, last in bands[max(bisect.bisect_right(starts, a) - 1, 0) :]:
            if first >= b:
                break
            if last <= start:
                continue
            if first - start >= least:
                pieces.append((row, start, first))
            start = max(start, last)
        if b - start >= least:
            pieces.append((row, start, b))
    return sorted(pieces)


def _lines(runs: Sequence[tuple[int, int, int]]) -> list[list[tuple[int, int, int]]]:
    """Runs grouped into lines: a run joins a line whose last run is on the row above or the one
    before (a rule two pixels thick, or one skewed a little, steps a row down), overlapping or touching
    it along the row."""
    open_lines: list[tuple[list[tuple[int, int, int]], list[int]]] = []  # runs, [last row, from, to]
    done: list[list[tuple[int, int, int]]] = []
    for run in runs:  # in order of rows
        row, start, end = run
        still = []
        joined = False
        for line, (last, left, right) in open_lines:
            if last < row - 2:
                done.append(line)
                continue
            if not joined and start <= right + 2 and end >= left - 2:
                line.append(run)
                last, left, right = row, min(left, start), max(right, end)
                joined = True
            still.append((line, [last, left, right]))
        if not joined:
            still.append(([run], [row, start, end]))
        open_lines = still
    done += [line for line, _ in open_lines]
    return done
