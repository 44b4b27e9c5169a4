"""OCR of a page without a text layer (a scan, an image), with the Tesseract that PyMuPDF carries.

Tesseract is called through its C API in PyMuPDF's own MuPDF library, which gives every word with its
box and confidence. Where that library does not export the API, MuPDF's OCR device reads the page
instead (the text only: no confidence, no orientation).

Language data is found at TESSDATA_PREFIX when that folder exists (the documents layer's `/opt/tessdata`
on AWS), else where this machine keeps Tesseract's data (Debian's `/usr/share/tesseract-ocr/5/tessdata`,
...): the local stack exports the template's TESSDATA_PREFIX on machines that have no `/opt/tessdata`.

A page is rendered in grey at the parse's resolution. A page skewed by half a degree or more (up to 6,
measured on the rendering) is read straightened: Tesseract splits skewed lines. Tesseract's layout
analysis (no recognition, a tenth of a second) finds the page's largest block of text and whether its
lines run across or down; a probe of that block (4 inches square at 100 dpi) decides the way up:
lines down are read turned 90 or 270 degrees, whichever reads more confidently, and lines across are
turned 180 degrees when the probe reads doubtfully as it is and clearly better upside down. A probe
that cannot decide (no block of text, every way up read doubtfully) is taken again at the page's own
resolution. The skew of a page turned a quarter is measured on its lines down the page.
Tesseract's own orientation detection (`osd.traineddata`) needs its legacy engine, which MuPDF's
build leaves out.

A page rendered speckled with noise (a poor scan, a phone photo: `is_noisy`) is read smoothed (a
Gaussian blur, `NOISE_BLUR`): Tesseract's own thresholding finds no text at all on such a page (measured:
bench/ocr_quality.py --real-languages --noisy). It is read again drawn twice as fine, if the page's
time allows, and the more confident of the two readings is kept: noise makes the words of a page
measure twice their height, so small print cannot be told by its words there.

A page whose ground is dark in places (text printed over a photograph: `dark_ground`) is binarised
locally (Sauvola's method, `Binarisation`): Tesseract's one threshold for the page takes the darker half
of the photograph for ink and reads little more than a title there. So is a page whose shading that
threshold takes for ink (a table's grey rows: `ink_share`).

A page of small print (its words 11 pixels high or less, 7-point print at 150 dpi) is read again drawn
twice as fine, if the page's time allows.

With no `languages` given, a page is read in English; when the words read look like another shipped
language (its most common words, `guess_language`), the page is read again in that language and
English, if the page's time allows. English pages are read once.

A page's confidence is the mean of its words' confidences (0-100), as Tesseract gives them. The PDF
reader builds pages from text, so the confidence of each page OCR'd is recorded here by page index,
and the reading child attaches it to the page (`with_confidence`).

A scan stamped with a line of text (`is_stamped_scan`) is OCR'd for the rest of the page, and the
stamp is kept once (`ocr_rest_of_page`).
"""

from __future__ import annotations

import array
import contextlib
import ctypes
import faulthandler
import glob
import heapq
import itertools
import math
import os
import re
import resource
import select
import signal
import statistics
import threading
import time
import unicodedata
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

import pymupdf

from docsvc.documents.engine.errors import LanguageNotInstalled
from docsvc.documents.engine.model import Page, ParseOptions

if TYPE_CHECKING:
    from PIL import Image  # Pillow is imported when a page is OCR'd, not with the engine

MAX_OCR_PIXELS = 40_000_000  # a page is rendered for OCR at most this large (about 6300 x 6300)
# Tesseract keeps a picture's coordinates in 16 bits: a picture longer or wider than this it refuses
# ("Image too large"), whatever its count of pixels (a long till roll, a stack of strips of a poster).
MAX_PICTURE_SIDE = 32_767
DEFAULT_LANGUAGES = ("eng",)
# Where Tesseract's language data lives when TESSDATA_PREFIX does not point at it, first match first.
DATA_FOLDERS = (
    "/usr/share/tesseract-ocr/*/tessdata",  # Debian, Ubuntu
    "/usr/share/tessdata",  # Fedora, Arch, Alpine
    "/usr/local/share/tessdata",  # built from source, Homebrew on Intel
    "/opt/homebrew/share/tessdata",  # Homebrew on Apple silicon
    "/opt/tessdata",  # the documents layer
)
# A probe of a page that reads this doubtfully is read turned too (measured: bench/ocr_quality.py).
DOUBTFUL_CONFIDENCE = 70.0
# A run of this many confident words is a line read, not noise taken for a word (`Reading.lacks_a_line_of`).
LINE_WORDS = 2
FEW_WORDS = 8
MAX_SKEW = 6.0  # degrees: a page skewed more is a page turned on purpose, or a photograph
SKEW_WIDTH = 800  # pixels: skew is measured on a rendering this wide at most
MIN_SKEW = 0.5  # degrees; a page skewed this much or more is read straightened
# Rows whose unevenness (`skew_of`) at their best turn is less than this many times that at their worst
# hold no lines across: the page's lines may run down it. Measured on the tune pages of bench/ocr_pages
# (bench/ocr_quality.py --real-languages): lines across 2.4-2.8, the same pages turned 90 degrees 1.1-1.2.
LINES_ACROSS = 1.5
SEARCH_DPI = 100  # the turns are probed on a rendering this fine at most
PROBE_PIXELS = 400  # the probe: a window of about this many pixels squared (4 inches) on text
SMALL_PROBE_PIXELS = 200  # read first: a window a quarter as large, enough where the way up is clear
MIN_PROBE_WORDS = 3  # a probe reading fewer words counts as less confident
TURN_MARGIN = 10.0  # upside down when its probe's mean confidence is this much above the page's
# A rendering whose paper differs from its median-filtered self by this much on average is speckled
# with noise and read through the filter (measured on the tune pages of bench/ocr_pages: clean pages
# 0.01-1.75; noisy copies drawn at 150 dpi 6.2-6.4, where Tesseract alone often reads nothing; noisy
# copies drawn at 300 dpi and read at 150 dpi 3.0-3.1, which Tesseract reads better unfiltered).
NOISE_LEVEL = 4.5
# A noisy rendering is smoothed before it is read, by a Gaussian of NOISE_BLUR inches (0.75 pixel at
# 150 dpi, 1.5 at 300). A 3 x 3 median filter, used before, takes a stroke a pixel wide of small
# faded print (ink in a third of its window) and the corners of letters for noise: on the noisy pages
# of fresh5 of bench/ocr_pages (read for that), Tesseract alone, its 18 pages drawn twice as fine read
# 78.6% through the median, 80.6% through the Gaussian; at 150 dpi / at 300, a Belgian invoice of
# shaded cells 18.8 / 45.9% of its words through the median, 21.2 / 49.4% through the Gaussian; a
# small receipt 44.1 / 64.7% and 67.6 / 73.5%, a ruled template 83.1 / 84.1% and 94.2 / 96.1%, a quote
# 67.8 / 86.4% and 76.3 / 81.4%.
NOISE_BLUR = 0.005
# A page whose ground is darker than its ink threshold over this share of it (`dark_ground`: text over
# a photograph) is binarised locally, by Sauvola's method, with a `k` of LOCAL_K, FADED_K when it is
# noisy. Measured on the tune pages of bench/ocr_pages: print on paper 0-0.002 (0.06 noisy); the
# declaration over a photograph 0.23-0.49, which Tesseract's global threshold reads at 7-25% (clean) and
# 0-9% (noisy), Sauvola's at 94-100% with k 0.2 (91-93% with 0.1) and 74-85% noisy with k 0.1 (0-6%
# with 0.2, no words at Tesseract's 0.34: faded ink is within 34% of its ground).
DARK_GROUND = 0.15
LOCAL_K = 0.2
FADED_K = 0.1
# A page whose pixels darker than that threshold cover this share of it or more (`ink_share`) has its
# shading taken for ink (a table's grey rows: Otsu's threshold falls between the shading and the paper
# and every shaded row reads as a black bar) and is binarised locally too, with Tesseract's own `k` (or
# FADED_K when it is noisy). Measured: print on paper 0.01-0.12 (bench/ocr_quality.py, tune and held out
# of both benches), the declaration over a photograph 0.53 (its ground caught first by DARK_GROUND);
# a table of grey rows 0.41 (held out: 27% of its words read with the global threshold, 81% locally with
# k 0.2, 93% with 0.34). The shading's rows are too thin for `dark_ground` (0.015).
SHADED_INK = 0.3
SHADED_K = 0.34
# A page whose words read at most this many pixels high (median) is read again drawn twice as fine, and that
# reading kept: 6 to 7-point print at 150 dpi reads 69 / 80% of its words at 150 dpi and 85 / 94% at 300 (two
# Brazilian invoices of bench/ocr_pages, tune). A noisy page is read at both resolutions and the more
# confident reading kept: on the noisy tune pages the finer reading was more confident where it read clearly
# more (the two invoices 22 / 34% -> 49 / 60%, the W-9 78 / 73% -> 88 / 88%, a form 95 -> 99%) and less where
# it read less (the declaration 86 -> 81%, the German guide 94 / 90% -> 82 / 82%), but for a Polish invoice
# (63 -> 53%, more confident).
SMALL_PRINT_PIXELS = 11
# So is a page of words up to FINE_PRINT_PIXELS high (9 to 10-point print) read less confidently than
# FINE_PRINT_DOUBT: such print loses what a 150 dpi drawing blurs together, a table of contents' page numbers
# at the end of their dot leaders (Tesseract reads a leader and its number as one garbled word, of low
# confidence), the commas of a small table. Read twice as fine (heldout of bench/ocr_pages, clean, upright):
# two Dutch tables of contents (14 pixels, confidence 75 / 79) 73 / 73% -> 94 / 94%, a French expense form
# (14, 79) 87.0 -> 86.5%. Read confidently, such pages read alike at either resolution for two to three times
# the time (tune: a German guide (confidence 94) 100 / 100%, a French paper (93) 97.8 / 96.5%, the W-9 (93)
# 96.5 / 95.9%); the finer reading is the more truthful even where it is the less confident (a dot leader
# reads as garble there: 75 -> 58).
FINE_PRINT_PIXELS = 14
FINE_PRINT_DOUBT = 85.0
# A second reading in a guessed language and English takes up to this many times as long as the first
# (measured: bench/ocr_quality.py --default-language); it is tried only when the page's time allows.
SECOND_READING_COST = 2.5
# Rules (thin straight lines of ink at least RULE_ACROSS inches long across the page, RULE_DOWN down it, at
# most RULE_THICKNESS thick) are taken out of the picture Tesseract reads, painted over with its paper.
# Tesseract's layout analysis takes a line of words underlined, or the words of a table between its rules,
# for part of a drawing: a self-declaration's underlined paragraphs were not read at all (66% of its
# words), a Polish invoice's cells read as "|cena |wartość|" (75%); without the rules 93 / 94% (fresh4 of
# bench/ocr_pages, read for that). Down the page the length is longer than across, so that no letter's stem
# of a title is taken for a rule (a 36-point l is 0.35 inches).
# A rule has paper along one of its sides at least (under an underline, but for the descenders through
# it; beside a table's line): a run of ink through the middle of a line of bold print that a blurred,
# faded scan runs together has ink along both (a noisy Polish invoice's headings lost a row of their
# pixels, 70 -> 49% of its words read, before this was required).
RULE_ACROSS = 0.4
RULE_DOWN = 0.5
RULE_THICKNESS = 0.045
RULE_SIDE_INK = 0.25
# A shorter line down the page, from RULE_CELL inches (longer than a 14-point l), is a rule too when an end
# of it meets a rule across:
# a table's cell dividers, left alone, read as bars on the cells' words once the rules across were painted
# out ("|metoda", "|prace": a Polish invoice of fresh3 98.1 -> 89.6%).
RULE_CELL = 0.2
# Empty check boxes (hollow squares of ink from BOX_SMALLEST to BOX_LARGEST inches a side, as wide as tall
# within BOX_SQUARE, their inside paper) are taken out of the picture Tesseract reads too: it reads a box
# in front of a word as letters glued to it ("clgrudka", "cisuchość", "c1przetłuszczone": a Polish
# consultation form's boxes cost 20 of its 186 words, fresh7 of bench/ocr_pages, read for that).
BOX_SMALLEST = 0.06
BOX_LARGEST = 0.3
BOX_SQUARE = 0.2
BOX_SIDE_INK = 0.85  # of a side's pixels dark, each of the four
BOX_INSIDE_INK = 0.03  # at most, inside the sides
BOX_ROUND = 0.08  # inches: a smaller box's sides must be straight to the pixel (a bold o is nearly square)
BOX_OUTSIDE_INK = 0.1  # at most, along a column just out of either side, a row just above and under
# (a round letter bulges out of its flat top's ends; a bold B's bowls, boxes of ink, touch each other)
# Tesseract is stopped (its monitor's deadline) once this share of the page's time has passed since the
# page's reading began, keeping the words it has read: the rest of the page's time makes its text page and
# sends it. A reading not stopped so ran on to the page's time, and the page, stopped from outside, lost
# every reading it had, the first and complete one too when a second, finer one overran.
READING_SHARE = 0.85
# A stopped reading's words are written in a fork (`_apart`) within this time: milliseconds, as a rule.
APART_SECONDS = 5.0
# Tesseract's layout analysis can take a tall thin stroke (a bracket or a bar of a formula) for a rule
# between columns and cut the lines of a page's text in two along it, losing the letters at the cut.
# Words of different blocks side by side on one line, closer than this many word heights, are such a
# cut (a real gutter between columns is wider); a page with at least CUT_LINES of them is read again as
# one block of text, kept unless it reads CUT_MARGIN less confidently.
CUT_GAP = 1.5
CUT_LINES = 3
CUT_MARGIN = 5.0
# A table of contents' dot leaders: the layout analysis takes the column of page numbers after them, a
# digit or two apart from the text, for specks, and reads none of them. Read as one column of text
# (Tesseract's PSM_SINGLE_COLUMN), each line is read to its number; read as one block, lines close
# together were lost. A leader is read as a word far flatter than the page's words (dots on the baseline:
# at most LEADER_HEIGHT of the median word's height) and wide (at least LEADER_WIDTH of it); a page with
# at least CUT_LINES lines holding one is read again as one column (before a cut page is read as one
# block), kept as a cut page's reading is and only if it reads a number after more of its leaders
# (`_read_to_numbers`). A noisy page is not: its column readings gained nothing on two contents pages,
# and lost a thesis's contents 5 words of 233.
LEADER_HEIGHT = 0.35
LEADER_WIDTH = 3.0
SINGLE_COLUMN = 4
# A text layer over at most this share of a page that images cover at least IMAGE_SHARE of is a stamp
# on a scan: the rest of the page is OCR'd.
STAMP_SHARE = 0.15
IMAGE_SHARE = 0.5
# A stamped scan's text layer of this many words or more, all on lines across the page, tells which way
# up its picture is: it is read so, not probed (`read_page`).
UPRIGHT_WORDS = 40

Box = tuple[float, float, float, float]


def reason(error: Exception) -> str:
    """A library's error as one short line for a warning or a refusal."""
    text = " ".join(str(error).split())[:200]
    return text or type(error).__name__


# ---------------------------------------------------------------------------------------- language data
@cache
def tessdata() -> str | None:
    """Where Tesseract's language data is: TESSDATA_PREFIX if that folder exists, else the first of
    DATA_FOLDERS that holds language data, else where PyMuPDF finds it, else None."""
    configured = os.environ.get("TESSDATA_PREFIX")
    if configured and os.path.isdir(configured):
        return configured
    for pattern in DATA_FOLDERS:
        for folder in sorted(glob.glob(pattern), reverse=True):  # the newest Tesseract version first
            if glob.glob(os.path.join(folder, "*.traineddata")):
                return folder
    if configured:  # PyMuPDF would answer the configured folder, which does not exist
        return None
    try:
        found = pymupdf.get_tessdata()
    except Exception:
        return None
    return str(found) if found and os.path.isdir(found) else None


def installed_languages() -> tuple[str, ...]:
    """The Tesseract codes of the languages whose data is installed, sorted (`osd` is not a language)."""
    location = tessdata()
    if location is None:
        return ()
    return tuple(sorted(file.removesuffix(".traineddata") for file in os.listdir(location) if _data(file)))


def _data(file: str) -> bool:
    return file.endswith(".traineddata") and file not in {"osd.traineddata", "equ.traineddata"}


def check_languages(languages: Sequence[str] | None) -> None:
    """LanguageNotInstalled naming the missing languages and the installed ones; None asks for the
    default (English), which is never refused: without it, scans are empty pages with a warning."""
    if not languages:
        return
    installed = installed_languages()
    missing = [language for language in languages if language not in installed]
    if missing:
        names = ", ".join(f"'{language}'" for language in missing)
        plural = "languages" if len(missing) > 1 else "language"
        raise LanguageNotInstalled(
            f"OCR {plural} {names} {'are' if len(missing) > 1 else 'is'} not installed here; "
            f"installed: {', '.join(installed) or 'none'}"
        )


# ---------------------------------------------------------------------------------------- Tesseract
@dataclass(frozen=True)
class Word:
    line: tuple[int, int, int]  # Tesseract's block, paragraph and line
    box: Box  # pixels of the rendering
    text: str
    confidence: float


@dataclass(frozen=True)
class Reading:
    """What Tesseract read on one rendering of a page."""

    words: tuple[Word, ...]
    matrix: pymupdf.Matrix  # page (unrotated) coordinates to pixels of the rendering
    dpi: float
    turn: float  # degrees clockwise the page was turned (and straightened) for reading
    complete: bool = True  # False when Tesseract was stopped at the page's deadline: the words read by then

    @property
    def confidence(self) -> float | None:
        """The mean word confidence, 0-100; None without words."""
        return round(statistics.fmean(w.confidence for w in self.words), 1) if self.words else None

    @property
    def confident_words(self) -> int:
        """How many of its words read at DOUBTFUL_CONFIDENCE or more."""
        return sum(word.confidence >= DOUBTFUL_CONFIDENCE for word in self.words)

    def more_truthful(self, other: Reading) -> bool:
        """Whether this reading of a noisy page is to be kept over `other`. Where one of the two left out
        a line the other read (`lacks_a_line_of`) and not the reverse, the one reading more words
        confidently (as many: the more confident); else the more confident. By mean confidence alone, a
        reading that left out a whole line was kept over one that read every word (a speckled letter of
        10-point print: 40 words at 95.8 against 49 at 95.5): a line left out lowers no mean. Counting
        confident words everywhere lost the better reading of a form's small print, where each reading
        read lines the other did not."""
        if self.lacks_a_line_of(other) != other.lacks_a_line_of(self):
            mine, theirs = self.confident_words, other.confident_words
            if mine != theirs:
                return mine > theirs
        return (self.confidence or 0.0) > (other.confidence or 0.0)

    def lacks_a_line_of(self, other: Reading) -> bool:
        """Whether `other` read a line (LINE_WORDS words or more at DOUBTFUL_CONFIDENCE) where this
        reading read no word at all: the places compared on the page, as the two readings may be of
        renderings of different resolutions."""
        places = [pymupdf.Rect(word.box) * ~self.matrix for word in self.words]
        points = [((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2) for r in places]
        for box, line in _lines(other.words):
            if sum(word.confidence >= DOUBTFUL_CONFIDENCE for word in line) < LINE_WORDS:
                continue
            place = pymupdf.Rect(box) * ~other.matrix
            if not any(place.x0 <= x <= place.x1 and place.y0 <= y <= place.y1 for x, y in points):
                return True
        return False

    def doubtful(self) -> bool:
        return len(self.words) < FEW_WORDS or (self.confidence or 0.0) < DOUBTFUL_CONFIDENCE


@dataclass(frozen=True)
class Binarisation:
    """How Tesseract turns the grey picture into ink and paper: one threshold for the whole page
    (Otsu's), or a threshold for each pixel from its neighbourhood (Sauvola's, `local`), which sets it
    `k` below the neighbourhood's mean: more for a clean picture, less for faded ink."""

    local: bool = False
    k: float = 0.34

    def variables(self) -> list[tuple[bytes, bytes]]:
        if not self.local:
            return [(b"thresholding_method", b"0")]
        return [(b"thresholding_method", b"2"), (b"thresholding_kfactor", str(self.k).encode())]


GLOBAL = Binarisation()


def import_pillow() -> None:
    """Imports the parts of Pillow a reading child uses, with the picture formats it opens (PNG, JPEG),
    in the process that forks the children, before the first one (about 25 ms, once).

    A child is a fork: forked while another thread of the parent is importing Pillow (a threaded local
    server answering another request, a bench making pictures), it inherits that import's lock held
    and waits on it forever when it imports Pillow itself; its page ran out of its time and read empty
    (measured: two readings started at once in one process, the first 0.0% in 60 s, 1.4 s alone).
    Imported first, Pillow is only looked up afterwards, and no lock is taken."""
    from PIL import Image, ImageChops, ImageFilter, ImageStat  # noqa: F401  (see above)

    Image.preinit()


class _Tesseract:
    """Tesseract's C API in the MuPDF library that PyMuPDF loads. MuPDF routes Leptonica's memory
    through a context of its own, set for the length of each reading; readings take turns."""

    _lock = threading.Lock()

    def __init__(self, library: ctypes.CDLL) -> None:
        self._lib = lib = library
        pointer, text, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
        signatures: dict[str, tuple[list[object], object]] = {
            "fz_new_context_imp": ([pointer, pointer, ctypes.c_size_t, text], pointer),
            "fz_set_leptonica_mem": ([pointer], None),
            "fz_clear_leptonica_mem": ([pointer], None),
            "setMsgSeverity": ([number], number),
            "TessBaseAPICreate": ([], pointer),
            "TessBaseAPIInit3": ([pointer, text, text], number),
            "TessBaseAPISetPageSegMode": ([pointer, number], None),
            "TessBaseAPISetVariable": ([pointer, text, text], number),
            "TessBaseAPISetImage": ([pointer, text, number, number, number, number], None),
            "TessBaseAPISetSourceResolution": ([pointer, number], None),
            "TessBaseAPIRecognize": ([pointer, pointer], number),
            "TessBaseAPIGetTsvText": ([pointer, number], pointer),
            "TessBaseAPIGetIterator": ([pointer], pointer),
            "TessResultIteratorGetPageIterator": ([pointer], pointer),
            "TessResultIteratorGetUTF8Text": ([pointer, number], pointer),
            "TessResultIteratorConfidence": ([pointer, number], ctypes.c_float),
            "TessResultIteratorNext": ([pointer, number], number),
            "TessResultIteratorDelete": ([pointer], None),
            "TessPageIteratorIsAtBeginningOf": ([pointer, number], number),
            "TessDeleteText": ([pointer], None),
            "TessBaseAPIEnd": ([pointer], None),
            "TessBaseAPIDelete": ([pointer], None),
            "TessBaseAPIInitForAnalysePage": ([pointer], None),
            "TessBaseAPIAnalyseLayout": ([pointer], pointer),
            "TessPageIteratorBlockType": ([pointer], number),
            "TessPageIteratorBoundingBox": ([pointer, number, pointer, pointer, pointer, pointer], number),
            "TessPageIteratorNext": ([pointer, number], number),
            "TessPageIteratorDelete": ([pointer], None),
            "TessPageIteratorOrientation": ([pointer, pointer, pointer, pointer, pointer], None),
            "TessMonitorCreate": ([], pointer),
            "TessMonitorSetDeadlineMSecs": ([pointer, number], None),
            "TessMonitorDelete": ([pointer], None),
        }
        for name, (arguments, result) in signatures.items():
            function = getattr(lib, name)
            function.argtypes, function.restype = arguments, result
        lib.setMsgSeverity(6)  # L_SEVERITY_NONE: Leptonica writes nothing to the worker's log
        self._context = lib.fz_new_context_imp(None, None, 0, pymupdf.mupdf.FZ_VERSION.encode())
        if not self._context:
            raise OSError("MuPDF refused a context")

    def words(
        self,
        samples: bytes,
        width: int,
        height: int,
        stride: int,
        dpi: float,
        languages: str,
        location: str,
        binarisation: Binarisation | None = None,
        one_block: bool = False,
        mode: int | None = None,
    ) -> list[Word]:
        """The words Tesseract reads on a grey picture (RuntimeError if Tesseract cannot start),
        binarised as `binarisation` says (Tesseract's own, global, by default); `one_block` reads it
        as a single block of text, without layout analysis; `mode`, if given, is the page segmentation
        mode instead (11: sparse text, as much as can be found in no particular order)."""
        words, _ = self.recognise(
            samples, width, height, stride, dpi, languages, location, binarisation, one_block, mode
        )
        return words

    def recognise(
        self,
        samples: bytes,
        width: int,
        height: int,
        stride: int,
        dpi: float,
        languages: str,
        location: str,
        binarisation: Binarisation | None = None,
        one_block: bool = False,
        mode: int | None = None,
        deadline: float | None = None,
    ) -> tuple[list[Word], bool]:
        """The words as `words` reads them, and whether the reading is complete. Given a `deadline`
        (a time.monotonic() instant), Tesseract's monitor stops the recognition then (at once when it
        has passed), and the words it had read by then are returned, not complete."""
        lib = self._lib
        monitor = None
        with self._lock:
            lib.fz_set_leptonica_mem(self._context)
            api = lib.TessBaseAPICreate()
            try:
                if lib.TessBaseAPIInit3(api, location.encode(), languages.encode()) != 0:
                    raise RuntimeError(f"Tesseract could not load '{languages}' from {location}")
                lib.TessBaseAPISetVariable(api, b"debug_file", os.devnull.encode())  # not the worker's log
                for name, value in (binarisation or GLOBAL).variables():
                    lib.TessBaseAPISetVariable(api, name, value)
                segmentation = mode if mode is not None else 6 if one_block else 3
                lib.TessBaseAPISetPageSegMode(api, segmentation)  # PSM_SINGLE_BLOCK or PSM_AUTO by default
                lib.TessBaseAPISetImage(api, samples, width, height, 1, stride)
                lib.TessBaseAPISetSourceResolution(api, round(dpi))
                if deadline is not None:
                    monitor = lib.TessMonitorCreate()
                    lib.TessMonitorSetDeadlineMSecs(
                        monitor, max(int((deadline - time.monotonic()) * 1000), 1)
                    )
                complete = lib.TessBaseAPIRecognize(api, monitor) == 0
                if not complete and (deadline is None or time.monotonic() < deadline):
                    raise RuntimeError("Tesseract could not read the page")
                table = self._tsv(api) if complete else _apart(lambda emit: self._tsv_rows(api, emit))
            finally:
                if monitor:
                    lib.TessMonitorDelete(monitor)
                lib.TessBaseAPIEnd(api)
                lib.TessBaseAPIDelete(api)
                lib.fz_clear_leptonica_mem(self._context)
        return list(_tsv_words(table)), complete

    def _tsv(self, api: int) -> str:
        """The TSV of the words a reading recognised."""
        tsv = self._lib.TessBaseAPIGetTsvText(api, 0)
        try:
            return ctypes.string_at(tsv).decode("utf-8", "replace") if tsv else ""
        finally:
            self._lib.TessDeleteText(tsv)

    def _tsv_rows(self, api: int, emit: Callable[[str], None]) -> None:
        """The TSV rows of the words of a reading (level 5, as `_tsv_words` reads them), each given to
        `emit` as soon as it is written, so that a word Tesseract cannot spell ends the rows there."""
        lib = self._lib
        results = lib.TessBaseAPIGetIterator(api)
        if not results:
            return
        try:
            page, numbers = lib.TessResultIteratorGetPageIterator(results), [0, 0, 0]
            while True:
                for level in (_BLOCK, _PARAGRAPH, _LINE):
                    if lib.TessPageIteratorIsAtBeginningOf(page, level):
                        numbers[level:] = [numbers[level] + 1] + [0] * (2 - level)
                edges = [ctypes.c_int() for _ in range(4)]
                if lib.TessPageIteratorBoundingBox(page, _WORD, *map(ctypes.byref, edges)):
                    left, top, right, bottom = (edge.value for edge in edges)
                    spelt = lib.TessResultIteratorGetUTF8Text(results, _WORD)
                    text = ctypes.string_at(spelt).decode("utf-8", "replace") if spelt else ""
                    lib.TessDeleteText(spelt)
                    confidence = lib.TessResultIteratorConfidence(results, _WORD)
                    emit(
                        f"5\t1\t{numbers[0]}\t{numbers[1]}\t{numbers[2]}\t0\t{left}\t{top}\t"
                        f"{right - left}\t{bottom - top}\t{confidence:.6f}\t{' '.join(text.split())}\n"
                    )
                if not lib.TessResultIteratorNext(results, _WORD):
                    return
        finally:
            lib.TessResultIteratorDelete(results)

    def text_blocks(
        self, samples: bytes, width: int, height: int, stride: int, binarisation: Binarisation | None = None
    ) -> list[tuple[Box, bool]]:
        """The boxes of the blocks of text Tesseract's layout analysis finds (no recognition) on the
        picture binarised as `binarisation` says, each with whether its lines run down the page."""
        blocks = []
        with self._layout(samples, width, height, stride, binarisation) as iterator:
            while iterator:
                edges = [ctypes.c_int() for _ in range(4)]
                found = self._lib.TessPageIteratorBoundingBox(iterator, _BLOCK, *map(ctypes.byref, edges))
                kind = self._lib.TessPageIteratorBlockType(iterator)
                if found and kind in _TEXT_BLOCKS:
                    left, top, right, bottom = (float(edge.value) for edge in edges)
                    down = kind == _VERTICAL_TEXT or self._writing(iterator) == _TOP_TO_BOTTOM
                    blocks.append(((left, top, right, bottom), down))
                if not self._lib.TessPageIteratorNext(iterator, _BLOCK):
                    break
        return blocks

    def line_heights(
        self, samples: bytes, width: int, height: int, stride: int, binarisation: Binarisation | None = None
    ) -> list[int]:
        """The heights in pixels of the lines of text Tesseract's layout analysis finds (no recognition)
        in blocks whose lines run across."""
        heights = []
        with self._layout(samples, width, height, stride, binarisation) as iterator:
            while iterator:
                edges = [ctypes.c_int() for _ in range(4)]
                found = self._lib.TessPageIteratorBoundingBox(iterator, _LINE, *map(ctypes.byref, edges))
                kind = self._lib.TessPageIteratorBlockType(iterator)
                if found and kind in _TEXT_BLOCKS and kind != _VERTICAL_TEXT:
                    heights.append(edges[3].value - edges[1].value)
                if not self._lib.TessPageIteratorNext(iterator, _LINE):
                    break
        return heights

    @contextlib.contextmanager
    def _layout(
        self, samples: bytes, width: int, height: int, stride: int, binarisation: Binarisation | None = None
    ) -> Iterator[int | None]:
        """A page iterator over what Tesseract's layout analysis finds on a grey picture (None when it
        finds nothing), while the API is held."""
        lib = self._lib
        with self._lock:
            lib.fz_set_leptonica_mem(self._context)
            api = lib.TessBaseAPICreate()
            try:
                lib.TessBaseAPIInitForAnalysePage(api)
                lib.TessBaseAPISetVariable(api, b"debug_file", os.devnull.encode())
                for name, value in (binarisation or GLOBAL).variables():
                    lib.TessBaseAPISetVariable(api, name, value)
                lib.TessBaseAPISetPageSegMode(api, 3)
                lib.TessBaseAPISetImage(api, samples, width, height, 1, stride)
                iterator = lib.TessBaseAPIAnalyseLayout(api)
                try:
                    yield iterator
                finally:
                    if iterator:
                        lib.TessPageIteratorDelete(iterator)
            finally:
                lib.TessBaseAPIEnd(api)
                lib.TessBaseAPIDelete(api)
                lib.fz_clear_leptonica_mem(self._context)

    def _writing(self, iterator: int) -> int:
        """The writing direction of the block at a page iterator."""
        orientation, writing, order, angle = ctypes.c_int(), ctypes.c_int(), ctypes.c_int(), ctypes.c_float()
        self._lib.TessPageIteratorOrientation(
            iterator, *(ctypes.byref(value) for value in (orientation, writing, order, angle))
        )
        return writing.value


# Tesseract's PolyBlockType of text: flowing, heading, pull-out, vertical and caption text.
_TEXT_BLOCKS = frozenset({1, 2, 3, 7, 8})
_VERTICAL_TEXT = 7
_TOP_TO_BOTTOM = 2  # Tesseract's WritingDirection of lines that run down the page
_BLOCK, _PARAGRAPH, _LINE, _WORD = 0, 1, 2, 3  # Tesseract's PageIteratorLevels


def _apart(write: Callable[[Callable[[str], None]], None], seconds: float = APART_SECONDS) -> str:
    """The lines `write` gives its argument, written in a fork of this process: every whole line given
    before the fork ended, crashed, or ran out of its `seconds` (then it is killed). A reading that
    Tesseract's monitor stopped can leave a word that Tesseract cannot spell (Tesseract 5.3 reads a
    null string and crashes: a Latin incunable's scan stopped at its deadline), and a crash there must
    cost that word and the ones after it, not the page's reader and the pages after it. Only stopped
    readings are written so (a fork costs a few milliseconds)."""
    source, sink = os.pipe()
    try:
        child = os.fork()
    except OSError:
        os.close(source)
        os.close(sink)
        return ""
    if child == 0:  # pragma: no cover - the fork's own lines run in the fork, out of the coverage's sight
        try:
            os.close(source)
            faulthandler.disable()  # a crash here is answered by the parent, not written to the log
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # nor dumped
            signal.alarm(math.ceil(seconds) + 1)  # a stop of its own, should the parent's kill be missed
            write(lambda line: _written(sink, line))
        finally:
            os._exit(0)
    os.close(sink)
    given, ends = bytearray(), time.monotonic() + seconds
    try:
        waiting = select.poll()
        waiting.register(source, select.POLLIN)
        while (left := ends - time.monotonic()) > 0 and waiting.poll(left * 1000):
            chunk = os.read(source, 65536)
            if not chunk:
                break
            given += chunk
    finally:
        os.close(source)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)  # gone already when it ended on its own
        os.waitpid(child, 0)
    written = given.decode("utf-8", "replace")
    return written[: written.rfind("\n") + 1]


def _written(sink: int, line: str) -> None:
    data = line.encode()
    while data:  # a pipe may take part of a write
        data = data[os.write(sink, data) :]


def _tsv_words(table: str) -> Iterable[Word]:
    """Tesseract's TSV rows of level 5 (words): level page block par line word left top width height
    conf text."""
    for row in table.splitlines():
        fields = row.split("\t")
        if len(fields) < 12 or fields[0] != "5" or not fields[11].strip():
            continue
        left, top, width, height = (int(value) for value in fields[6:10])
        block, paragraph, line = (int(value) for value in fields[2:5])
        box = (float(left), float(top), float(left + width), float(top + height))
        yield Word((block, paragraph, line), box, fields[11].strip(), max(float(fields[10]), 0.0))


@cache
def _tesseract() -> _Tesseract | None:
    """The C API, or None where PyMuPDF's library does not export it."""
    folder = os.path.dirname(pymupdf.__file__)
    for path in sorted(
        glob.glob(os.path.join(folder, "libmupdf.so*")) + glob.glob(f"{folder}/libmupdf*.dylib")
    ):
        try:
            return _Tesseract(ctypes.CDLL(path))
        except (OSError, AttributeError):
            continue
    return None


# ---------------------------------------------------------------------------------------- reading a page
def read_page(
    page: pymupdf.Page, options: ParseOptions, warnings: list[str], upright: bool = False
) -> Reading | None:
    """Tesseract's words on the page, turned the way they read best (only levelled when `upright`: the
    page's text layer tells its way up); None (with a warning) when OCR is not installed here or fails,
    or when MuPDF's own OCR has to read the page (no C API).

    Tesseract is stopped at READING_SHARE of the page's time: a first reading stopped so gives the
    words it read by then (not `complete`); a second reading (finer, in a guessed language, or as one
    block) stopped so is dropped, and the page keeps the reading it had."""
    location, tesseract = tessdata(), _tesseract()
    if location is None or tesseract is None:
        return None
    dpi = _dpi(page, options.dpi, warnings)
    if dpi is None:
        return None
    languages = "+".join(options.languages or DEFAULT_LANGUAGES)
    started = time.monotonic()
    deadline = started + READING_SHARE * options.page_seconds
    try:
        pixmap, to_pixels = _render(page, dpi, 0)
        clean = is_noisy(pixmap)
        if clean:
            pixmap = _denoised(pixmap, dpi)
        binarisation = binarisation_for(pixmap, clean)
        skew = skew_of(pixmap)
        straight = -skew if abs(skew) >= MIN_SKEW else 0.0
        turn = (
            straight
            if upright
            else _turn(tesseract, page, dpi, straight, languages, location, clean, binarisation)
        )
        recognising = time.monotonic()
        if turn == 0:
            reading = _recognised(
                tesseract,
                pixmap,
                to_pixels,
                dpi,
                0,
                languages,
                location,
                binarisation,
                deadline=deadline,
                noisy=clean,
            )
        else:
            reading = _read(
                tesseract,
                page,
                dpi,
                turn,
                languages,
                location,
                clean,
                binarisation,
                deadline=deadline,
            )
        if not reading.complete:
            warnings.append(
                f"OCR was stopped near the page's time limit ({options.page_seconds:g} s) after "
                f"{len(reading.words)} words: the rest of the page is missing from its text"
            )
            return reading
        guessed = guess_language(word.text for word in reading.words) if options.languages is None else None
        again = guessed if guessed is not None and guessed not in DEFAULT_LANGUAGES else None
        if again is not None and again not in installed_languages():
            warnings.append(
                f"the page looks {again} but was read in English only ({again} is not installed here)"
            )
            again = None
        small, read_in = _small_print(reading), languages
        finer = (
            2 * dpi if (small or (clean and again is None)) and _dpi(page, 2 * dpi, []) == 2 * dpi else dpi
        )
        if again is not None or finer != dpi:
            now = time.monotonic()
            cost = second_reading_cost(now - recognising, finer / dpi, again is not None)
            second = None
            if now - started + cost <= options.page_seconds:
                both = f"{again}+eng" if again else languages
                if turn == 0 and finer == dpi:
                    second = _recognised(
                        tesseract,
                        pixmap,
                        to_pixels,
                        dpi,
                        0,
                        both,
                        location,
                        binarisation,
                        deadline=deadline,
                        noisy=clean,
                    )
                else:
                    second = _read(
                        tesseract,
                        page,
                        finer,
                        turn,
                        both,
                        location,
                        clean,
                        binarisation,
                        deadline=deadline,
                    )
            if second is not None and second.complete:
                read_in = both
                if small or again or finer == dpi or second.more_truthful(reading):
                    reading = second
            elif again:
                warnings.append(
                    f"the page looks {again} but was read in English only (no time for a second "
                    "reading); give `languages` to read it in its own"
                )
        for led in (True, False):  # a table of contents' leaders first, then a cut layout
            if not ((not clean and _led_lines(reading) >= CUT_LINES) if led else _cut_across(reading)):
                continue
            now = time.monotonic()
            if now - started + reading.dpi / dpi * (now - recognising) > options.page_seconds:
                break
            whole = _read(
                tesseract,
                page,
                reading.dpi,
                reading.turn,
                read_in,
                location,
                clean,
                binarisation,
                not led,
                deadline=deadline,
                mode=SINGLE_COLUMN if led else None,
            )
            if (
                whole.complete
                and (whole.confidence or 0.0) >= (reading.confidence or 0.0) - CUT_MARGIN
                and (not led or _read_to_numbers(whole, reading))
            ):
                reading = whole
    except Exception as error:
        warnings.append(f"OCR failed: {reason(error)}")
        return None
    return reading


def second_reading_cost(seconds: float, scale: float, two_languages: bool) -> float:
    """What a second reading of a page is expected to take, from the `seconds` its first took: drawn
    `scale` times as fine it has scale squared times the pixels, and Tesseract's time grows with them
    (measured on held-out pages of bench/ocr_pages at 150 and 300 dpi: 1.2 to 5.2 times, 4 on a page
    of small print); in two languages SECOND_READING_COST times more. Reckoned by the scale alone, a
    finer reading was started that the page's time could not hold, and the page, stopped at its time,
    lost its first reading too (a Polish invoice of small print on a busy machine, with 20 s: none of
    its 514 words)."""
    return (SECOND_READING_COST if two_languages else 1.0) * scale * scale * seconds


def _cut_across(reading: Reading) -> bool:
    """Whether the layout analysis cut the page's lines in two: at least CUT_LINES places where words
    of different blocks stand side by side on one line, closer than CUT_GAP word heights. The words
    are taken from the top down, each compared only with those that begin above its bottom (a word
    below it shares no line with it), so a page costs about its words times a line's."""
    words = sorted(reading.words, key=lambda word: word.box[1])
    if len({word.line[0] for word in words}) < 2:
        return False
    cuts: set[tuple[int, int, int]] = set()
    for index, word in enumerate(words):
        below = index + 1
        while below < len(words) and words[below].box[1] < word.box[3]:
            other = words[below]
            if other.line[0] != word.line[0] and _side_by_side(word, other):
                cuts.update((word.line, other.line))
            below += 1
    return len(cuts) >= CUT_LINES


def _leaders(reading: Reading) -> dict[tuple[int, int, int], Word]:
    """The dot leaders of a reading by line: words at most LEADER_HEIGHT as high as the reading's median
    word and at least LEADER_WIDTH times as wide as that is high (a row of dots, however it was read);
    a line's rightmost."""
    if not reading.words:
        return {}
    height = statistics.median(word.box[3] - word.box[1] for word in reading.words)
    found: dict[tuple[int, int, int], Word] = {}
    flat = (
        word
        for word in reading.words
        if word.box[3] - word.box[1] <= LEADER_HEIGHT * height
        and word.box[2] - word.box[0] >= LEADER_WIDTH * height
    )
    for word in flat:
        if word.line not in found or word.box[0] > found[word.line].box[0]:
            found[word.line] = word
    return found


def _led_lines(reading: Reading) -> int:
    """How many lines hold a dot leader."""
    return len(_leaders(reading))


def _numbered_leaders(reading: Reading) -> int:
    """How many lines read a number after their dot leader (a table of contents' page number): a word
    with a digit ending right of the leader (whose box can reach into the number's), across most of its
    height from the leader's line, in whatever block the layout analysis put it."""
    boxes = {words[0].line: box for box, words in _lines(reading.words)}
    numbers = [word for word in reading.words if any(character.isdigit() for character in word.text)]
    return sum(
        any(
            number.box[2] > leader.box[2]
            and min(number.box[3], boxes[line][3]) - max(number.box[1], boxes[line][1])
            > (number.box[3] - number.box[1]) / 2
            for number in numbers
        )
        for line, leader in _leaders(reading).items()
    )


def _read_to_numbers(column: Reading, first: Reading) -> bool:
    """Whether a page read again as one column read a number after more leaders than the first reading
    did, and after at least half as many as the first reading found. A list of figures whose leaders
    the column reading read as letters and whose numbers it read as a column of their own, their
    digits apart, numbered 3 lines of the 12 the first reading found led."""
    numbered = _numbered_leaders(column)
    return numbered > _numbered_leaders(first) and 2 * numbered >= _led_lines(first)


def _side_by_side(first: Word, second: Word) -> bool:
    """Whether two words share a line (most of the lower one's height) with a gap narrower than
    CUT_GAP times their height between them."""
    height = min(first.box[3] - first.box[1], second.box[3] - second.box[1])
    shared = min(first.box[3], second.box[3]) - max(first.box[1], second.box[1])
    gap = max(second.box[0] - first.box[2], first.box[0] - second.box[2])
    return height > 0 and shared > height / 2 and gap < CUT_GAP * height


def _dpi(page: pymupdf.Page, dpi: float, warnings: list[str]) -> float | None:
    """`dpi`, or less (with a warning) for a page whose picture would exceed MAX_OCR_PIXELS or have a side
    longer than MAX_PICTURE_SIDE; None for a page of no area."""
    area = page.rect.width * page.rect.height / (72 * 72)  # square inches
    if area <= 0:
        return None
    longest = max(page.rect.width, page.rect.height) / 72  # inches
    if area * dpi * dpi > MAX_OCR_PIXELS or longest * dpi > MAX_PICTURE_SIDE:
        dpi = max(min(int((MAX_OCR_PIXELS / area) ** 0.5), int(MAX_PICTURE_SIDE / longest)), 1)
        warnings.append(f"the page is very large; OCR ran at {dpi} dpi")
    return dpi


def _render(
    page: pymupdf.Page, dpi: float, turn: float, clean: bool = False
) -> tuple[pymupdf.Pixmap, pymupdf.Matrix]:
    """The page in grey at `dpi`, turned `turn` degrees (smoothed when `clean`: `_denoised`), and the matrix
    from page to pixels."""
    matrix = pymupdf.Matrix(dpi / 72, dpi / 72).prerotate(turn)
    pixmap = page.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False)
    if clean:
        pixmap = _denoised(pixmap, dpi)
    # get_pixmap draws the page as displayed (page.rect, its /Rotate applied) moved to the origin
    shown = page.rect * matrix
    return pixmap, page.rotation_matrix * matrix * pymupdf.Matrix(1, 0, 0, 1, -shown.x0, -shown.y0)


def _small_print(reading: Reading) -> bool:
    """Whether the words read are so small (their median height), or small and read so doubtfully,
    that Tesseract reads them better drawn twice as large."""
    if len(reading.words) < FEW_WORDS:
        return False
    height = statistics.median(word.box[3] - word.box[1] for word in reading.words)
    doubtful = (reading.confidence or 0.0) < FINE_PRINT_DOUBT
    return height <= SMALL_PRINT_PIXELS or (height <= FINE_PRINT_PIXELS and doubtful)


def noise_level(pixmap: pymupdf.Pixmap) -> float:
    """How far the pixels of a grey rendering's paper are, on average, from the median of their 3 x 3
    neighbours: under 1 on a clean page, 3 and more on a page speckled with noise. The paper is the
    brighter half of the page after the filter (text's edges would count as noise)."""
    from PIL import ImageChops, ImageFilter, ImageStat

    image = _grey(pixmap)
    median = image.filter(ImageFilter.MedianFilter(3))
    histogram, half, seen = median.histogram(), image.width * image.height / 2, 0
    level = 255
    while level > 0 and seen + histogram[level] < half:
        seen += histogram[level]
        level -= 1
    paper = median.point(lambda value: 255 if value >= level else 0)
    return float(ImageStat.Stat(ImageChops.difference(image, median), paper).mean[0])


def dark_ground(pixmap: pymupdf.Pixmap) -> float:
    """The share of a grey rendering whose ground is darker than the threshold that splits the whole
    page into ink and paper (Otsu's): 0 for print on paper, whose ground is paper everywhere; a fifth
    to a half for text printed over a photograph, where one threshold takes the photograph's darker
    half for ink. The ground of each patch of 32 pixels square is its ink taken out (the brightest
    of 20 pixels around each point, at a quarter of the size), then averaged."""
    from PIL import ImageFilter

    image = _grey(pixmap)
    threshold = _otsu(image.histogram())
    quarter = image.reduce(4) if min(image.size) >= 4 else image
    ground = quarter.filter(ImageFilter.MaxFilter(5))
    patches = ground.reduce(8) if min(ground.size) >= 8 else ground
    histogram = patches.histogram()
    return sum(histogram[:threshold]) / max(sum(histogram), 1)


def _otsu(histogram: Sequence[int]) -> int:
    """The grey level that splits a histogram into two classes of the most different means (Otsu)."""
    total = sum(histogram)
    weighted = sum(level * count for level, count in enumerate(histogram))
    below = below_weighted = 0.0
    best, best_level = -1.0, 128
    for level, count in enumerate(histogram):
        below += count
        below_weighted += level * count
        above = total - below
        if below == 0 or above == 0:
            continue
        between = below * above * (below_weighted / below - (weighted - below_weighted) / above) ** 2
        if between > best:
            best, best_level = between, level + 1
    return best_level


def ink_share(pixmap: pymupdf.Pixmap) -> float:
    """The share of a grey rendering darker than the threshold that splits it into ink and paper
    (Otsu's): a tenth or less for print on paper, far more where shading falls on the ink's side."""
    histogram = _grey(pixmap).histogram()
    return sum(histogram[: _otsu(histogram)]) / max(sum(histogram), 1)


def binarisation_for(pixmap: pymupdf.Pixmap, noisy: bool) -> Binarisation:
    """Local binarisation for a page whose ground is dark in places (`dark_ground`) or whose shading
    one threshold would take for ink (`ink_share`), set lower for a noisy (faded) page; else
    Tesseract's global threshold."""
    if dark_ground(pixmap) >= DARK_GROUND:
        return Binarisation(local=True, k=FADED_K if noisy else LOCAL_K)
    if ink_share(pixmap) >= SHADED_INK:
        return Binarisation(local=True, k=FADED_K if noisy else SHADED_K)
    return GLOBAL


def is_noisy(pixmap: pymupdf.Pixmap) -> bool:
    return noise_level(pixmap) >= NOISE_LEVEL


def _denoised(pixmap: pymupdf.Pixmap, dpi: float) -> pymupdf.Pixmap:
    """The grey rendering at `dpi` smoothed by a Gaussian of NOISE_BLUR inches."""
    from PIL import ImageFilter

    image = _grey(pixmap).filter(ImageFilter.GaussianBlur(NOISE_BLUR * dpi))
    filtered = pymupdf.Pixmap(pymupdf.csGRAY, image.width, image.height, image.tobytes(), False)
    filtered.set_dpi(pixmap.xres, pixmap.yres)
    return filtered


def _read(
    tesseract: _Tesseract,
    page: pymupdf.Page,
    dpi: float,
    turn: float,
    languages: str,
    location: str,
    clean: bool = False,
    binarisation: Binarisation = GLOBAL,
    one_block: bool = False,
    deadline: float | None = None,
    mode: int | None = None,
) -> Reading:
    pixmap, to_pixels = _render(page, dpi, turn, clean)
    if turn % 90:
        # straightened: the corners it adds are white, which can move the page's one threshold between
        # a light grey ground and them (the whole page then reads as ink), so it is measured again
        binarisation = binarisation_for(pixmap, clean)
    return _recognised(
        tesseract,
        pixmap,
        to_pixels,
        dpi,
        turn,
        languages,
        location,
        binarisation,
        one_block,
        deadline=deadline,
        noisy=clean,
        mode=mode,
    )


def _recognised(
    tesseract: _Tesseract,
    pixmap: pymupdf.Pixmap,
    to_pixels: pymupdf.Matrix,
    dpi: float,
    turn: float,
    languages: str,
    location: str,
    binarisation: Binarisation = GLOBAL,
    one_block: bool = False,
    deadline: float | None = None,
    noisy: bool = False,
    mode: int | None = None,
) -> Reading:
    pixmap = without_rules(pixmap, dpi, noisy or bool(turn % 90))
    if not noisy:  # a noisy page's boxes are seldom found whole, and what is was not measured to help
        pixmap = without_check_boxes(pixmap, dpi)
    words, complete = tesseract.recognise(
        pixmap.samples,
        pixmap.width,
        pixmap.height,
        pixmap.stride,
        dpi,
        languages,
        location,
        binarisation,
        one_block,
        mode,
        deadline=deadline,
    )
    return Reading(tuple(words), to_pixels, dpi, turn, complete)


def without_rules(pixmap: pymupdf.Pixmap, dpi: float, blurred: bool = False) -> pymupdf.Pixmap:
    """The grey rendering with its rules (see RULE_ACROSS) painted over with its paper's grey (the
    commonest level lighter than the ink), the same pixmap when it has none. Ink is what is darker
    than the threshold that splits the page into ink and paper (Otsu's). On a `blurred` picture (a
    noisy scan, or a page drawn turned by a fraction of a degree to level it, whose rules step from
    row to row) a rule's grey edges are painted over too, a pixel either side at 150 dpi: left, they
    read as faint broken rules (a ruled table drawn 2 degrees skewed lost two of its rows) or as two
    faint rules where there was one (a noisy Polish invoice 49 -> 74% of its words read, which
    Tesseract read at 70% with its rules). On a clean picture only the rule's rows of ink are: the
    same invoice clean 94% against 85% with its edges too."""
    from PIL import Image

    from docsvc.documents.engine.picture_rules import ink_share_in, thin_lines

    image = _grey(pixmap)
    histogram = image.histogram()
    threshold = _otsu(histogram)
    paper = max(range(threshold, 256), key=lambda level: histogram[level], default=255)
    ruled = None
    across: list[tuple[int, int, int]] = []  # the rules across painted: row, from, to
    side = max(round(dpi / 75), 2)  # pixels beyond the rule's edge: 2 at 150 dpi
    for down in (False, True):
        view = image.transpose(Image.Transpose.TRANSPOSE) if down else image
        ink = view.point(lambda value: 1 if value < threshold else 0).tobytes()
        least = max(round((RULE_CELL if down else RULE_ACROSS) * dpi), 2)
        for line in thin_lines(ink, view.width, least, max(RULE_THICKNESS * dpi, 2.0)):
            top, bottom = min(row for row, _, _ in line), max(row for row, _, _ in line)
            start, end = min(run[1] for run in line), max(run[2] for run in line)
            if down and end - start < RULE_DOWN * dpi and not _meets(across, top, start, end, side + 1):
                continue  # short, and no rule across at either end: a letter's stem
            above = ink_share_in(ink, view.width, view.height, (start, top - side, end, top - side + 1))
            below = ink_share_in(ink, view.width, view.height, (start, bottom + side, end, bottom + side + 1))
            if min(above, below) > RULE_SIDE_INK:
                continue  # ink along both sides: print run together, not a rule
            ruled = ruled or image.copy()
            if not down:
                across.extend(line)
            for row, start, end in line:  # with its blurred edges, when blurred
                first, last = (row - side + 1, row + side) if blurred else (row, row + 1)
                ruled.paste(paper, (first, start, last, end) if down else (start, first, end, last))
    if ruled is None:
        return pixmap
    unruled = pymupdf.Pixmap(pymupdf.csGRAY, ruled.width, ruled.height, ruled.tobytes(), False)
    unruled.set_dpi(pixmap.xres, pixmap.yres)
    return unruled


def without_check_boxes(pixmap: pymupdf.Pixmap, dpi: float) -> pymupdf.Pixmap:
    """The grey rendering with its empty check boxes (see BOX_SMALLEST) painted over with its paper's
    grey, the same pixmap when it has none. A box is found from its top edge: a run of ink along a row
    as long as a box is wide, with a run of about the same ends under it as far down as it is long
    (its bottom edge), the columns at both ends dark between them (its sides) and the inside paper.
    A box stands apart, paper just out of it all round: a letter with a hollow does not (an o or a D
    bulges out beyond its flat top's ends, a bold B's two bowls touch), and a ticked box's inside is
    ink (it is kept)."""
    image = _grey(pixmap)
    histogram = image.histogram()
    threshold = _otsu(histogram)
    paper = max(range(threshold, 256), key=lambda level: histogram[level], default=255)
    width, height = image.size
    ink = image.point(lambda value: 1 if value < threshold else 0).tobytes()
    boxes = check_boxes(ink, width, height, dpi)
    if not boxes:
        return pixmap
    cleared, edge = image.copy(), max(round(dpi / 75), 2)  # with the box's grey edges
    for left, top, right, bottom in boxes:
        cleared.paste(
            paper,
            (max(left - edge, 0), max(top - edge, 0), min(right + edge, width), min(bottom + edge, height)),
        )
    out = pymupdf.Pixmap(pymupdf.csGRAY, cleared.width, cleared.height, cleared.tobytes(), False)
    out.set_dpi(pixmap.xres, pixmap.yres)
    return out


def check_boxes(ink: bytes, width: int, height: int, dpi: float) -> list[tuple[int, int, int, int]]:
    """The empty check boxes of a picture `width` pixels wide whose `ink` is 1 per dark pixel: left,
    top, right, bottom (exclusive), in pixels."""
    least, most = max(round(BOX_SMALLEST * dpi), 5), round(BOX_LARGEST * dpi)
    pattern = re.compile(b"\x01{%d,%d}" % (least, most + 2))
    edges: dict[tuple[int, int], int] = {}  # (row, from): to (exclusive), runs alone as long as a box
    for found in pattern.finditer(ink):
        start, end = found.span()
        row = start // width
        if (
            end // width == row
            and end < len(ink)
            and not ink[end]
            and (start % width == 0 or not ink[start - 1])
        ):
            edges[row, start - row * width] = end - row * width
    slack = max(round(dpi / 75), 2)  # two pixels at 150 dpi
    boxes: list[tuple[int, int, int, int]] = []
    found_edges: set[tuple[int, int]] = set()  # (row, from) of the edges of the boxes found
    for (row, left), right in sorted(edges.items()):
        if (row, left) in found_edges:
            continue
        side = right - left
        for below in range(
            row + round((1 - BOX_SQUARE) * side) - 1, row + round((1 + BOX_SQUARE) * side) + 1
        ):
            bottom = next(
                (
                    (start, edges[below, start])
                    for start in range(left - slack, left + slack + 1)
                    if (below, start) in edges and abs(edges[below, start] - right) <= slack
                ),
                None,
            )
            if bottom is None:
                continue
            box = (min(left, bottom[0]), row, max(right, bottom[1]), below + 1)
            if _empty_box(ink, width, height, box, slack, dpi):
                boxes.append(box)
                found_edges.update(
                    (edge_row, start)
                    for edge_row in range(row, below + slack + 1)
                    for start in range(left - slack, left + slack + 1)
                )
                break
    return boxes


def _empty_box(
    ink: bytes, width: int, height: int, box: tuple[int, int, int, int], slack: int, dpi: float
) -> bool:
    """Whether the columns at both ends of a box are dark from its top to its bottom (within `slack`
    pixels of its ends), the columns just out of them paper, and its inside paper."""
    from docsvc.documents.engine.picture_rules import ink_share_in

    left, top, right, bottom = box
    sides = [
        max(
            _column_ink(ink, width, column, top, bottom)
            for column in (range(left, left + slack) if end == 0 else range(right - slack, right))
        )
        for end in (0, 1)
    ]
    if min(sides) < BOX_SIDE_INK or not _straight_sides(ink, width, box, slack, dpi):
        return False
    beside = (  # just out of the box, a column either side and a row above and under: paper along them
        ink_share_in(ink, width, height, (left - slack - 1, top, left - slack, bottom)),
        ink_share_in(ink, width, height, (right + slack, top, right + slack + 1, bottom)),
        ink_share_in(ink, width, height, (left, top - slack - 1, right, top - slack)),
        ink_share_in(ink, width, height, (left, bottom + slack, right, bottom + slack + 1)),
    )
    if max(beside) > BOX_OUTSIDE_INK:
        return False
    inside = (left + slack + 1, top + slack + 1, right - slack - 1, bottom - slack - 1)
    return (
        inside[2] > inside[0]
        and inside[3] > inside[1]
        and ink_share_in(ink, width, height, inside) <= BOX_INSIDE_INK
    )


def _straight_sides(ink: bytes, width: int, box: tuple[int, int, int, int], slack: int, dpi: float) -> bool:
    """Whether a box's sides are straight: on every row from its top to its bottom, its edges
    included, the ink nearest either side begins in the same column, within a pixel on a box of
    BOX_ROUND inches or more (a round letter's outline moves out and back, a bold o's by a pixel at
    150 dpi, an O's by more; a box's corners are square)."""
    left, top, right, bottom = box
    half = (right - left) // 2
    for columns in (
        range(max(left - slack, 0), left + half),
        range(min(right + slack, width) - 1, right - half, -1),
    ):
        ends = []
        for row in range(top, bottom):
            end = next((column for column in columns if ink[row * width + column]), None)
            if end is None:
                return False
            ends.append(end)
        if max(ends) - min(ends) > (1 if right - left >= BOX_ROUND * dpi else 0):
            return False
    return True


def _column_ink(ink: bytes, width: int, column: int, top: int, bottom: int) -> float:
    """The share of a column's pixels from `top` to `bottom` (exclusive) that are dark."""
    return sum(ink[row * width + column] for row in range(top, bottom)) / max(bottom - top, 1)


def _meets(across: Sequence[tuple[int, int, int]], column: int, top: int, bottom: int, reach: int) -> bool:
    """Whether a line down the page at `column` from `top` to `bottom` (pixels) ends within `reach` of
    one of the runs of the rules `across` (row, from, to)."""
    return any(
        start - reach <= column < end + reach and (abs(row - top) <= reach or abs(row - bottom) <= reach)
        for row, start, end in across
    )


def skew_of(pixmap: pymupdf.Pixmap) -> float:
    """The degrees a grey rendering's lines of text are turned counter-clockwise from level (or, on a
    page turned a quarter, from upright), within MAX_SKEW: the turn of its ink whose rows are most
    unequal (lines of ink between blank gaps).

    On a page turned a quarter the lines run down: its rows are about as even at every turn, and the
    most unequal of them is noise (measured: a German guide turned 90 degrees read as skewed 4.4
    degrees, and nothing of it was read). When the rows' unevenness varies by less than LINES_ACROSS
    times over the turns tried, the columns are measured too, and the more unequal of the two kept: a
    turn levels lines down the page as it levels lines across."""
    from PIL import Image

    image = _grey(pixmap)
    scale = min(1.0, SKEW_WIDTH / max(image.width, 1))
    if scale < 1:
        image = image.resize((max(int(image.width * scale), 1), max(int(image.height * scale), 1)))
    threshold = _otsu(image.histogram())  # the page's own: faded ink is lighter than mid-grey
    ink = image.point(lambda value: 255 if value < threshold else 0)
    level, most, least = _levelled(ink)
    if most < LINES_ACROSS * least:
        down, most_down, _ = _levelled(ink.transpose(Image.Transpose.ROTATE_90))
        if most_down > most:
            level = down
    return round(level, 1)


def _levelled(ink: Image.Image) -> tuple[float, float, float]:
    """The turn within MAX_SKEW (to a tenth of a degree) at which the rows of a picture of ink are most
    unequal, how unequal they are then, and how unequal at the most even of the coarse turns."""
    coarse = {
        step * 0.5: _unevenness(ink, step * 0.5) for step in range(int(-MAX_SKEW * 2), int(MAX_SKEW * 2) + 1)
    }
    best = max(coarse, key=coarse.__getitem__)
    fine = {best + step * 0.1: _unevenness(ink, best + step * 0.1) for step in range(-4, 5)}
    level = max(fine, key=fine.__getitem__)
    return level, fine[level], min(coarse.values())


def _unevenness(ink: Image.Image, angle: float) -> float:
    """The mean square of the rows' ink of a picture of ink turned `angle` degrees: high where lines of
    ink alternate with blank gaps, low where every row holds about as much ink."""
    from PIL import Image

    turned = ink.rotate(angle, resample=Image.Resampling.NEAREST, expand=False)
    rows = turned.resize((1, turned.height), Image.Resampling.BOX).tobytes()
    return float(sum(row * row for row in rows)) / max(len(rows), 1)


def _turn(
    tesseract: _Tesseract,
    page: pymupdf.Page,
    dpi: float,
    straight: float,
    languages: str,
    location: str,
    clean: bool = False,
    binarisation: Binarisation = GLOBAL,
) -> float:
    """The degrees to turn the page by to read it: `straight` (which levels its lines), plus a turn.

    Tesseract's layout analysis tells whether the lines of the page's largest block of text run
    across the page or down it. Lines down the page are read turned 90 or 270 degrees, whichever way
    a probe of that block reads more confidently. Lines across are turned 180 degrees when the probe
    reads doubtfully as it is and clearly more confidently upside down.

    A probe that leaves the way up undecided (no block of text found, or every turn read doubtfully:
    small print on shaded boxes reads at 100 dpi as garble every way up) is probed again at the page's
    own resolution, if finer: the page pays for it only then. The finer probe's turn is kept when it
    decides, or reads more confidently than the coarse one."""
    coarse = min(dpi, SEARCH_DPI)
    turn, quality, decided = _probed_turn(
        tesseract, page, coarse, straight, languages, location, clean, binarisation
    )
    if not decided and coarse < dpi:
        finer, finer_quality, decided = _probed_turn(
            tesseract, page, dpi, straight, languages, location, clean, binarisation
        )
        if decided or finer_quality > quality:
            turn = finer
    return straight + turn


def _probed_turn(
    tesseract: _Tesseract,
    page: pymupdf.Page,
    dpi: float,
    straight: float,
    languages: str,
    location: str,
    clean: bool = False,
    binarisation: Binarisation = GLOBAL,
) -> tuple[int, float, bool]:
    """The quarter turn a probe of the page drawn at `dpi` reads best at (see `_turn`), the quality of
    its reading (mean confidence, less for a probe of few words; 0 without a block of text), and whether
    the probe decided it: a block of text was found and read confidently at least one way up.

    The probe is read first in a window of SMALL_PROBE_PIXELS squared, and in the whole PROBE_PIXELS
    window only when the small one leaves the way up in doubt (`_clear_turn`): Tesseract's time grows
    with the pixels, and most pages tell their way up in a quarter of the window."""
    pixmap, _ = _render(page, dpi, straight, clean)
    scale = dpi / SEARCH_DPI
    block = _probe_block(tesseract, pixmap, binarisation)
    if block is None:
        return 0, 0.0, False
    image, down = _grey(pixmap), block[1]
    small = _window(image, block[0], round(SMALL_PROBE_PIXELS * scale))
    qualities, readings = _turn_qualities(tesseract, small, down, dpi, languages, location, binarisation)
    if _clear_turn(qualities, readings, down):
        return _best_turn(qualities, down)
    window = _window(image, block[0], round(PROBE_PIXELS * scale))
    if window.size == small.size:
        return _best_turn(qualities, down)
    qualities, _ = _turn_qualities(tesseract, window, down, dpi, languages, location, binarisation)
    return _best_turn(qualities, down)


def _turn_qualities(
    tesseract: _Tesseract,
    probe: Image.Image,
    down: bool,
    dpi: float,
    languages: str,
    location: str,
    binarisation: Binarisation,
) -> tuple[dict[int, float], dict[int, Reading]]:
    """The quality of a probe's reading at each of the turns it may need (90 and 270 for lines down
    the page, else 0 and 180): mean confidence, less for a probe of few words. Upright lines read
    confidently as they lie are not read upside down."""
    quality: dict[int, float] = {}
    readings: dict[int, Reading] = {}
    for turn in (90, 270) if down else (0, 180):
        image = probe.transpose(_transpose(turn)) if turn else probe
        words = tesseract.words(
            image.tobytes(), image.width, image.height, image.width, dpi, languages, location, binarisation
        )
        reading = readings[turn] = Reading(tuple(words), pymupdf.Identity, dpi, turn)
        quality[turn] = (reading.confidence or 0.0) * min(1.0, len(words) / MIN_PROBE_WORDS)
        if turn == 0 and not reading.doubtful():
            break
    return quality, readings


def _best_turn(quality: dict[int, float], down: bool) -> tuple[int, float, bool]:
    """The turn, quality and decision of a probe read at the turns of `quality` (see `_probed_turn`)."""
    best = max(quality.values())
    decided = best >= DOUBTFUL_CONFIDENCE
    if down:
        return (90 if quality[90] >= quality[270] else 270), best, decided
    if 180 not in quality:  # read confidently as it lies
        return 0, quality[0], True
    if quality[180] >= quality[0] + TURN_MARGIN:
        return 180, quality[180], True
    return 0, quality[0], decided


def _clear_turn(quality: dict[int, float], readings: dict[int, Reading], down: bool) -> bool:
    """Whether a small probe's readings settle the way up: the turn they choose read not doubtfully
    (FEW_WORDS or more, confidently), and, when there were two ways to choose from, TURN_MARGIN more
    confidently than the other way. Else the whole probe window is read."""
    turn, _, _ = _best_turn(quality, down)
    if readings[turn].doubtful():
        return False
    others = [value for other, value in quality.items() if other != turn]
    return all(quality[turn] >= value + TURN_MARGIN for value in others)


def _transpose(turn: int) -> Image.Transpose:
    """Pillow's transpose that turns a picture `turn` (90, 180 or 270) degrees clockwise."""
    from PIL import Image

    return {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180}.get(
        turn, Image.Transpose.ROTATE_90
    )


def _probe_block(
    tesseract: _Tesseract, pixmap: pymupdf.Pixmap, binarisation: Binarisation = GLOBAL
) -> tuple[Box, bool] | None:
    """The largest block of text Tesseract's layout analysis finds on a rendering (None without one),
    and whether its lines run down the page."""
    blocks = tesseract.text_blocks(pixmap.samples, pixmap.width, pixmap.height, pixmap.stride, binarisation)
    return max(blocks, key=lambda block: _area(block[0])) if blocks else None


def _window(image: Image.Image, box: Box, side: int) -> Image.Image:
    """A window of about `side` pixels squared (the picture's own shape when it is a strip) centred
    on a box, kept within the picture."""
    x0, y0, x1, y1 = box
    short = min(image.width, image.height, side)
    long = min(max(image.width, image.height), side * side // max(short, 1))
    width, height = (long, short) if image.width >= image.height else (short, long)
    left = min(max(int((x0 + x1 - width) / 2), 0), image.width - width)
    top = min(max(int((y0 + y1 - height) / 2), 0), image.height - height)
    return image.crop((left, top, left + width, top + height))


def _area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _grey(pixmap: pymupdf.Pixmap) -> Image.Image:
    from PIL import Image

    return Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples_mv, "raw", "L", pixmap.stride)


# ---------------------------------------------------------------------------------------- languages
# The most common words of each shipped language, written without their accents (English OCR drops
# or garbles them): a page read in English whose words are mostly another language's is that
# language's. Words several languages share count for each of them.
COMMON_WORDS = {
    "eng": "the and of to is that for with are this be from or which have not on by was it as at an will you",
    "deu": "der die und das ist nicht mit den von zu fur auf im dem des eine ein sich auch wird werden oder "
    "bei sind nach aus wir sie ihre einer zur zum",
    "fra": "le les et des du est pour dans qui sur avec sont aux vous nous une ce par pas au cette ou leur "
    "ne sa son ces",
    "spa": "el los las y del que por con para es se su como una al lo sus este esta entre sobre o sin "
    "pero mas",
    "ita": "il di che per della dei non gli nel alla anche sono delle un una con del si al da dal degli "
    "questo essere e",
    "por": "os do da em nao no na dos das ao sao uma com para pelo pela que se um mais ou seu sua e",
    "nld": "het een en van dat op voor met niet zijn worden door aan bij ook te wordt deze naar kan of "
    "dan uit",
    "pol": "i w na z sie nie do ze jest od za po jak przez dla oraz sa lub to o ich tym jako",
}
_COMMON = {language: frozenset(words.split()) for language, words in COMMON_WORDS.items()}
MIN_COMMON_WORDS = 4  # a guess needs at least this many of its language's common words
COMMON_MARGIN = 1.5  # and this many times as many as English and as any other language has


_PUNCTUATION = ".,;:!?()[]\"'«»\u201e\u201c\u201d\u2018\u2019-"  # with the quotation marks of print


def _folded(word: str) -> str:
    """A word lowercased, without accents or the punctuation around it."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().strip(_PUNCTUATION))
    return "".join(character for character in decomposed if not unicodedata.combining(character)).replace(
        "ł", "l"
    )


def guess_language(words: Iterable[str]) -> str | None:
    """The shipped language whose common words the words hold clearly most of, or None when they hold
    too few of any, or as many of two."""
    counts = dict.fromkeys(_COMMON, 0)
    for word in words:
        folded = _folded(word)
        for language, common in _COMMON.items():
            if folded in common:
                counts[language] += 1
    first, second = sorted(counts, key=counts.__getitem__, reverse=True)[:2]
    if counts[first] < MIN_COMMON_WORDS or counts[first] < COMMON_MARGIN * counts[second]:
        return None
    return first


def ocr_textpage(
    page: pymupdf.Page, flags: int, options: ParseOptions, warnings: list[str]
) -> pymupdf.TextPage | None:
    """The page's text as OCR reads it, as a text page made with `flags`; None (with a warning) when
    OCR is not installed or fails. Records the page's confidence (see `take_confidence`)."""
    if tessdata() is None:
        warnings.append("the page has no text layer and OCR is not installed here; it was left empty")
        return None
    if _tesseract() is None:
        return _mupdf_textpage(page, flags, options, warnings)
    started = time.monotonic()
    reading = read_page(page, options, warnings)
    if reading is None:
        return None
    from docsvc.documents.engine import images  # images reads through pdf, which reads through here

    reading = images.with_words_beside_lines(page, reading, options, time.monotonic() - started)
    _record(page, reading)
    quarter = quarter_of(reading.turn)
    if quarter:
        warnings.append(f"the page reads turned {quarter} degrees clockwise; it was OCR'd that way")
    return textpage_of(page, reading, flags)


def _mupdf_textpage(
    page: pymupdf.Page, flags: int, options: ParseOptions, warnings: list[str]
) -> pymupdf.TextPage | None:
    """MuPDF's OCR device, where Tesseract's C API is not exported."""
    dpi = _dpi(page, options.dpi, warnings)
    if dpi is None:
        return None
    try:
        ocr: pymupdf.TextPage = page.get_textpage_ocr(
            flags=flags,
            language="+".join(options.languages or DEFAULT_LANGUAGES),
            dpi=int(dpi),
            full=True,
            tessdata=tessdata(),
        )
    except Exception as error:
        warnings.append(f"OCR failed: {reason(error)}")
        return None
    return ocr


def textpage_of(page: pymupdf.Page, reading: Reading, flags: int) -> pymupdf.TextPage:
    """A text page of `page` holding the words read, line by line, as invisible text. Its coordinates are
    the page's when the page was read unturned, else those of the page turned upright. Each word stands
    on its own box, drawn at its line's font size and stretched across to the box's width; the space after
    it is stretched to reach the next word, so that a line of words far apart (a row of a table) is
    still one line of text."""
    frame = ""  # how the lines, drawn as the picture read shows them, are set on the text page
    if reading.turn:
        upright = page.rect * pymupdf.Matrix(reading.turn)
        width, height, to_points = (
            upright.width,
            upright.height,
            pymupdf.Matrix(72 / reading.dpi, 72 / reading.dpi),
        )
        sheet_size = (width, height)
    else:
        unrotated = page.rect * page.derotation_matrix  # the frame of the page's own coordinates
        width, height, to_points = unrotated.width, unrotated.height, ~reading.matrix
        sheet_size = (width, height)
        if page.rotation:
            # the picture read is the page as shown (its /Rotate applied): its lines run across the page
            # as shown, and down or up the page's own frame. They are drawn on the page as shown and
            # turned into the page's own frame as a whole, so each line's glyphs run along it there.
            width, height = page.rect.width, page.rect.height
            to_points = ~reading.matrix * page.rotation_matrix
            frame = _shown_to_own(page, height, unrotated.height)
    font = pymupdf.Font("helv")
    drawn = [f"q {frame} cm BT 3 Tr" if frame else "BT 3 Tr"]  # invisible, as OCR layers are
    for box, words in _lines(reading.words):
        line = pymupdf.Rect(box) * to_points
        if line.is_empty:
            continue
        text = " ".join(word.text for word in words)  # a line as wide as its words at this size
        size = max(min(line.height / 1.15, line.width / max(font.text_length(text, 1), 0.01)), 0.5)
        baseline = height - (line.y1 - 0.22 * size)  # PDF's y runs up
        end = line.x0  # where the text drawn so far ends
        for number, word in enumerate(words):
            rect = pymupdf.Rect(word.box) * to_points
            x0 = max(rect.x0, end)
            if number:  # the space between the last word and this one
                drawn.append(_stretched(font, " ", size, end, max(x0, end + 0.01), baseline))
            end = max(rect.x1, x0 + 0.01)
            drawn.append(_stretched(font, word.text, size, x0, end, baseline))
    drawn.append("ET Q" if frame else "ET")
    with pymupdf.open() as scratch:
        sheet = scratch.new_page(width=sheet_size[0], height=sheet_size[1])
        sheet.insert_font(fontname=_FONT, fontbuffer=font.buffer)
        contents = scratch.get_new_xref()
        scratch.update_object(contents, "<<>>")
        scratch.update_stream(contents, "\n".join(drawn).encode())
        scratch.xref_set_key(sheet.xref, "Contents", f"{contents} 0 R")
        textpage: pymupdf.TextPage = sheet.get_textpage(flags=flags)
    textpage.parent = weakref.proxy(page)
    return textpage


def _shown_to_own(page: pymupdf.Page, shown_height: float, own_height: float) -> str:
    """The PDF matrix (`cm` operands) from the page as shown (its /Rotate applied) to the page's own
    frame, both in PDF coordinates (y up from the bottom edge)."""
    flip_shown = pymupdf.Matrix(1, 0, 0, -1, 0, shown_height)
    flip_own = pymupdf.Matrix(1, 0, 0, -1, 0, own_height)
    matrix = flip_shown * page.derotation_matrix * flip_own
    return " ".join(f"{value:.5f}" for value in matrix)


_FONT = "OCR"  # the text page's font resource: Helvetica's glyphs by their numbers, with their Unicode


def _stretched(font: pymupdf.Font, text: str, size: float, x0: float, x1: float, baseline: float) -> str:
    """The PDF operators that show `text` at font size `size` from x0 to x1 on the baseline (PDF
    coordinates), its glyphs scaled across to fit. A character the font has no glyph for is drawn as
    "?" and the text given as the words' actual text, which MuPDF reads instead."""
    numbers = [font.has_glyph(ord(char)) for char in text]
    shown = text
    if not all(numbers):
        shown = "".join(char if number else "?" for char, number in zip(text, numbers, strict=True))
        numbers = [number or font.has_glyph(ord("?")) for number in numbers]
    scale = (x1 - x0) / max(font.text_length(shown, size), 0.01)
    glyphs = "".join(f"{number:04x}" for number in numbers)
    shows = f"/{_FONT} {size:.4f} Tf {scale:.5f} 0 0 1 {x0:.3f} {baseline:.3f} Tm <{glyphs}> Tj"
    if shown == text:
        return shows
    return f"/Span <</ActualText <feff{text.encode('utf-16-be').hex()}>>> BDC {shows} EMC"


def _lines(words: Iterable[Word]) -> list[tuple[Box, list[Word]]]:
    """Tesseract's lines, in its reading order: their boxes and their words."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    boxed = []
    for line in lines.values():
        x0, y0 = min(w.box[0] for w in line), min(w.box[1] for w in line)
        x1, y1 = max(w.box[2] for w in line), max(w.box[3] for w in line)
        boxed.append(((x0, y0, x1, y1), line))
    return boxed


# ---------------------------------------------------------------------------------------- confidence
_confidences: dict[int, float | None] = {}
_turns: dict[int, float] = {}  # by page index: the turn (degrees clockwise) OCR read a page at


def forget_confidences() -> None:
    """Before a document is read (confidences and turns are kept by page index)."""
    _confidences.clear()
    _turns.clear()


def _record(page: pymupdf.Page, reading: Reading) -> None:
    """What the page's reading leaves for the page made of it: its confidence and its quarter turn."""
    _confidences[page.number] = reading.confidence
    _turns[page.number] = reading.turn


def recorded_confidence(page: pymupdf.Page) -> float | None:
    """The mean word confidence OCR recorded for the page since `forget_confidences`, if any."""
    return _confidences.get(page.number)


def forget_reading(page: pymupdf.Page) -> None:
    """The page's recorded confidence and turn forgotten: a reading the caller does not keep."""
    _confidences.pop(page.number, None)
    _turns.pop(page.number, None)


def quarter_of(turn: float) -> int:
    """The quarter turn (0, 90, 180, 270) nearest the turn a page was read at (a skew of a few degrees
    is none)."""
    return round(turn / 90) * 90 % 360


def turn_read(page: pymupdf.Page) -> float:
    """The turn (degrees clockwise) OCR read the page at since `forget_confidences`, kept (see
    `taken_turn`): the text page of a page read turned at all, levelled too, is of the page so turned
    (`textpage_of`), not in the page's own frame."""
    return _turns.get(page.number, 0)


def taken_turn(page: pymupdf.Page) -> float:
    """The turn (degrees clockwise) OCR read the page at since `forget_confidences` (0 when it read it
    upright or not at all), forgotten once taken."""
    return _turns.pop(page.number, 0)


def with_confidence(page: Page) -> Page:
    """The page with the mean word confidence OCR recorded for it since `forget_confidences`, if any
    (the PDF reader makes pages from text; the OCR of a page records its confidence by page index)."""
    confidence = _confidences.pop(page.number - 1, None)
    return page if confidence is None else replace(page, ocr_confidence=confidence)


# ---------------------------------------------------------------------------------------- stamped scans
def is_stamped_scan(page: pymupdf.Page, blocks: Sequence[tuple[Box, str]]) -> bool:
    """Whether a page with a text layer is a scan with a stamped line of text: its text covers at most
    STAMP_SHARE of the page, and images at least IMAGE_SHARE of it. The page's bounds are read once
    (each read of `page.rect` asks MuPDF for them again, about 20 µs: much of a small page's time)."""
    rect = page.rect
    area = abs(rect)
    if not blocks or area <= 0:
        return False
    x0, y0, x1, y1 = rect
    text_area = sum(
        max(0.0, min(box[2], x1) - max(box[0], x0)) * max(0.0, min(box[3], y1) - max(box[1], y0))
        for box, _ in blocks
    )
    if text_area > STAMP_SHARE * area:
        return False
    if not _may_draw_images(page):  # nothing to look for: not worth interpreting the page again
        return False
    covered = _images_cover(page, IMAGE_SHARE * area, rect)  # the images alone, before their text page
    if covered is not None:
        return covered
    images = [pymupdf.Rect(info["bbox"]) & rect for info in page.get_image_info()]
    return bool(_union_area(images) >= IMAGE_SHARE * area)


# A shading is met by the text page as an image of its box within the clip, rounded out to whole units:
# the boxes met here are widened by this much so that they hold the text page's.
_ROUNDING = 2.0


def _images_cover(page: pymupdf.Page, least: float, rect: pymupdf.Rect) -> bool | None:
    """Do the page's images (those, masks and shadings, the image info's text page meets) cover
    `least` of its area (`rect`: its bounds)? They are met by interpreting the page with a device
    that handles nothing but them, at about two thirds of a text page's cost; the image info builds a
    text page of the whole page (its characters too) to give the same boxes. The device's boxes lie
    within the text page's (a shading's is rounded out there), so: True when they cover `least`, False
    when they cannot even widened by _ROUNDING, None (the image info decides) in between, when the page
    is turned (the boxes would be of the turned page) or cannot be interpreted."""
    if page.rotation:
        return None
    try:
        device = _ImageBoxes()
        fz_page = page.this if isinstance(page.this, _mupdf.FzPage) else page.this.super()
        _mupdf.fz_run_page(fz_page, device, _mupdf.FzMatrix(), _mupdf.FzCookie())
        _mupdf.fz_close_device(device)
    except Exception:  # a damaged page: the image info decides
        return None
    bounds = (rect.x0, rect.y0, rect.x1, rect.y1)
    if _union_area([_within_page(box, bounds) for box in device.boxes]) >= least:
        return True
    widened = [
        (x0 - _ROUNDING, y0 - _ROUNDING, x1 + _ROUNDING, y1 + _ROUNDING) for x0, y0, x1, y1 in device.boxes
    ]
    if _union_area([_within_page(_as_floats(box), bounds) for box in widened]) < least:
        return False
    return None


def _within_page(box: Box, bounds: Box) -> Box:
    """The part of `box` within the page's `bounds`, as `pymupdf.Rect(box) & bounds` gives it (MuPDF's
    intersection of the boxes: an empty box is left as it is, the infinite one is the page's), without
    two `Rect`s and a call into MuPDF a box (about 10 µs each, a third of the look on a page of text
    with a picture). `box` holds MuPDF's single-precision values (`_as_floats`), so taking the larger
    and the smaller of the edges rounds nothing."""
    x0, y0, x1, y1 = box
    if x0 >= x1 or y0 >= y1:
        return box
    return max(x0, bounds[0]), max(y0, bounds[1]), min(x1, bounds[2]), min(y1, bounds[3])


def _as_floats(box: Box) -> Box:
    """The box with each edge rounded to single precision, as MuPDF holds it (a box widened here is
    rounded so when MuPDF intersects it) where it is not empty (an empty box is never rounded there)."""
    if box[0] >= box[2] or box[1] >= box[3]:
        return box
    x0, y0, x1, y1 = array.array("f", box)
    return x0, y0, x1, y1


_mupdf = pymupdf.mupdf


class _ImageBoxes(_mupdf.FzDevice2):  # type: ignore[misc, name-defined]
    """A device that keeps the box of each image, image mask and shading the page draws, as the text
    page of the image info places them (an image: its unit square through its matrix; a shading: its
    box within the current clip), and ignores all else (text, paths: handled by MuPDF's no-ops)."""

    def __init__(self) -> None:
        super().__init__()
        self.boxes: list[Box] = []
        self.use_virtual_fill_image()
        self.use_virtual_fill_image_mask()
        self.use_virtual_fill_shade()

    def _placed(self, ctm: object) -> None:
        rect = _mupdf.ll_fz_transform_rect(_mupdf.fz_unit_rect, ctm)
        self.boxes.append((rect.x0, rect.y0, rect.x1, rect.y1))

    def fill_image(self, ctx: object, image: object, ctm: object, *_: object) -> None:
        self._placed(ctm)

    def fill_image_mask(self, ctx: object, image: object, ctm: object, *_: object) -> None:
        self._placed(ctm)

    def fill_shade(self, ctx: object, shade: object, ctm: object, *_: object) -> None:
        scissor = _mupdf.ll_fz_device_current_scissor(self.m_internal)
        rect = _mupdf.ll_fz_intersect_rect(_mupdf.ll_fz_bound_shade(shade, ctm), scissor)
        self.boxes.append((rect.x0, rect.y0, rect.x1, rect.y1))


_LINK = 1  # MuPDF's PDF_ANNOT_LINK, the kind of annotation with no appearance of its own
# The operators of a content stream through which MuPDF may meet an image: an XObject (an image, or a
# form holding one), an image in line, a shading (met as an image), a pattern's colour (a tiling may
# draw an image; a colour operator names one only where the page's resources have patterns), a
# graphics state (its soft mask is a form). A token stands between whitespace or
# delimiters; the same letters inside a string only send the page to the full look. The operator is
# matched first and what stands before it checked after (`_token`): a pattern that begins with a look
# behind is tried at every byte of the stream, four times slower on a page's content.
_MAY_DRAW_IMAGE = re.compile(rb"(?:Do|BI|sh|scn|SCN|gs)(?![^\s\x00\[(</%])")
_BEFORE_TOKEN = frozenset(b" \t\n\r\x0b\x0c\x00])>}")  # whitespace, NUL, the delimiters a token may follow
_SOFT_MASK = re.compile(r"/SMask(?!\s*/None)")  # a graphics state's soft mask other than none
_REFERENCE = re.compile(r"(\d+)\s+\d+\s+R\b")


def _may_draw_images(page: pymupdf.Page) -> bool:
    """Whether drawing the page may draw an image, from its content stream's operators and its
    annotations (a link has no appearance of its own; any other may) without interpreting the page.
    Graphics states alone (opacity, line widths: common on pages of text) draw none unless one of
    the page's own has a soft mask; colours alone (of a separation, a calibrated space: common in
    the PDFs of some makers) none unless the page's resources have patterns."""
    try:
        if any(kind != _LINK for _, kind, _ in page.annot_xrefs()):
            return True
        contents = page.read_contents()
        found = _token(_MAY_DRAW_IMAGE, contents)
        if found is None:
            return False
        if found.group() not in _COLOURING_OR_STATES or _token(_DRAWS_IMAGE, contents, found.end()):
            return True  # an operator that draws as it stands: nothing of the resources read
        # colours and graphics states alone: each draws an image only through the page's resources
        colours = found.group() in _COLOURING or _token(_COLOURS, contents, found.end())
        if colours and _may_fill_patterns(page):
            return True
        states = found.group() == b"gs" or _token(_STATES, contents, found.end())
        return bool(states) and _may_soft_mask(page)
    except Exception:  # a damaged page, or not a PDF's: the full look decides
        return True


_DRAWS_IMAGE = re.compile(rb"(?:Do|BI|sh)(?![^\s\x00\[(</%])")  # an XObject, an image in line, a shading
_COLOURS = re.compile(rb"(?:scn|SCN)(?![^\s\x00\[(</%])")  # an image only through a pattern
_STATES = re.compile(rb"gs(?![^\s\x00\[(</%])")  # an image only through a soft mask
_COLOURING = frozenset({b"scn", b"SCN"})
_COLOURING_OR_STATES = _COLOURING | {b"gs"}


def _may_fill_patterns(page: pymupdf.Page) -> bool:
    """Whether the page's colour operators may name a pattern (a tiling may draw an image, a shading's
    is met as one): its own resources have patterns, or its resources are not its own (inherited) or
    not found. A colour operator naming no pattern of the resources paints none."""
    document = page.parent
    if document.xref_get_key(page.xref, "Resources")[0] not in {"dict", "xref"}:
        return True
    return bool(document.xref_get_key(page.xref, "Resources/Pattern")[0] != "null")


def _token(operators: re.Pattern[bytes], contents: bytes, start: int = 0) -> re.Match[bytes] | None:
    """The first of `operators` in `contents` from `start` that stands as a token: at the start, or
    after whitespace or a delimiter (`operators` checks what follows)."""
    for found in operators.finditer(contents, start):
        at = found.start()
        if at == 0 or contents[at - 1] in _BEFORE_TOKEN:
            return found
    return None


def _may_soft_mask(page: pymupdf.Page) -> bool:
    """Whether a graphics state of the page's resources may have a soft mask (whose form may draw an
    image); True too when the page's resources are not its own (inherited) or not found."""
    document = page.parent
    if document.xref_get_key(page.xref, "Resources")[0] not in {"dict", "xref"}:
        return True
    kind, value = document.xref_get_key(page.xref, "Resources/ExtGState")
    if kind == "xref":
        value = document.xref_object(int(value.split()[0]))
    elif kind != "dict":
        return True
    states = [value] + [document.xref_object(int(xref)) for xref in _REFERENCE.findall(value)]
    return any(_SOFT_MASK.search(state) for state in states)


def _union_area(rects: Sequence[Box] | Sequence[pymupdf.Rect]) -> float:
    """The area the rectangles (x0, y0, x1, y1) cover together: strip by strip between their x edges."""
    kept = [rect for rect in rects if not (rect[0] >= rect[2] or rect[1] >= rect[3])]  # not empty
    total = 0.0
    for left, right in itertools.pairwise(sorted({x for rect in kept for x in (rect[0], rect[2])})):
        spans = sorted((rect[1], rect[3]) for rect in kept if rect[0] <= left and rect[2] >= right)
        covered, reached = 0.0, float("-inf")
        for top, bottom in spans:
            covered += max(0.0, bottom - max(top, reached))
            reached = max(reached, bottom)
        total += covered * (right - left)
    return total


def ocr_rest_of_page(
    page: pymupdf.Page,
    blocks: Sequence[tuple[Box, str]],
    flags: int,
    options: ParseOptions,
    warnings: list[str],
) -> tuple[list[tuple[Box, str]], pymupdf.TextPage | None]:
    """The blocks of a stamped scan (see `is_stamped_scan`): its text layer's `blocks` and what OCR
    reads on the rest of the page, merged in reading order as `merge_stamped` says (column by column,
    not across the page top to bottom); the text layer's alone when OCR cannot read it. And the text
    page OCR read (None without one): its words are the page's, as a scan's are."""
    if tessdata() is None or _tesseract() is None:
        return list(blocks), None
    reading = read_page(page, options, warnings, upright=_layer_upright(page, blocks))
    if reading is None:
        return list(blocks), None
    _record(page, reading)
    textpage = textpage_of(page, reading, flags)
    read = [
        ((x0, y0, x1, y1), "\n".join(line.rstrip() for line in text.strip().splitlines()))
        for x0, y0, x1, y1, text, _, kind in page.get_text("blocks", textpage=textpage)
        if kind == 0 and text.strip()
    ]
    return merge_stamped(page, blocks, read, reading), textpage


def _layer_upright(page: pymupdf.Page, blocks: Sequence[tuple[Box, str]]) -> bool:
    """Whether a stamped scan's text layer shows which way up its picture is: UPRIGHT_WORDS words or
    more, on lines that all run left to right across the page. A page printed on a picture of its
    form (a utility bill's boxes and labels drawn as one image, its data a text layer of small print)
    is no scan turned round; a probe of its picture alone may read its small print best upside down."""
    if sum(len(text.split()) for _, text in blocks) < UPRIGHT_WORDS:
        return False
    lines = [
        line
        for block in page.get_text("dict", flags=0)["blocks"]
        if block.get("type") == 0
        for line in block["lines"]
    ]
    return bool(lines) and all(line["dir"][0] > 0.99 for line in lines)


def merge_stamped(
    page: pymupdf.Page,
    text_blocks: Sequence[tuple[Box, str]],
    ocr_blocks: Sequence[tuple[Box, str]],
    reading: Reading | None = None,
) -> list[tuple[Box, str]]:
    """The text layer's blocks and the OCR'd blocks of the rest of the page, in reading order.

    An OCR'd block that overlaps a text-layer block is the stamp read again, and is dropped. The text
    layer's blocks keep their own order but for blocks of one column (see `_read_before`), which go
    top to bottom (a footer the text layer draws before its header still comes last). They are not
    sorted by place across the page: a word hyphenated across two of its blocks (a table's narrow
    heading cell, "Ta-" over "xes", beside a cell whose top is level with the first piece) would be
    parted by the cell beside it. Each OCR'd block goes after the last text-layer block above it in
    its column, else before the first one below it in its column, else (no text-layer block shares
    its column) before the first one that begins below it: an OCR'd block of a right-hand column
    follows that column, not the left one level with it. `ocr_blocks` are in the coordinates of the
    OCR text page (the page's, unless `reading` turned it)."""
    turned = reading is not None and reading.turn != 0
    rest: list[tuple[Box, str]] = []
    for box, text in ocr_blocks:
        on_page = _to_page(page, box, reading) if turned and reading is not None else box
        if not any(_overlap(on_page, other) > 0.3 for other, _ in text_blocks):
            rest.append((on_page, text))
    ordered = _columns_top_to_bottom(text_blocks)
    placed = sorted(((*_stamped_slot(ordered, block[0]), *_reading_place(block)), block) for block in rest)
    merged: list[tuple[Box, str]] = []
    for index, block in enumerate(ordered):
        while placed and placed[0][0][0] <= index:
            merged.append(placed.pop(0)[1])
        merged.append(block)
    return merged + [block for _, block in placed]


def _columns_top_to_bottom(blocks: Sequence[tuple[Box, str]]) -> list[tuple[Box, str]]:
    """The blocks in their own order, but each after every block read before it in its column (see
    `_read_before`): of the blocks no other block not yet taken precedes, the first is taken."""
    following: list[list[int]] = [[] for _ in blocks]
    waiting = [0] * len(blocks)
    for (first, (a, _)), (second, (b, _)) in itertools.permutations(enumerate(blocks), 2):
        if _read_before(a, b):
            following[first].append(second)
            waiting[second] += 1
    ready = [index for index, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    ordered: list[tuple[Box, str]] = []
    while ready:
        index = heapq.heappop(ready)
        ordered.append(blocks[index])
        for later in following[index]:
            waiting[later] -= 1
            if waiting[later] == 0:
                heapq.heappush(ready, later)
    return ordered


def _stamped_slot(ordered: Sequence[tuple[Box, str]], box: Box) -> tuple[int, int]:
    """Where an OCR'd block goes among the ordered text-layer blocks: the index it goes before, and 0
    when it follows a block of its column (so it comes before blocks put ahead of that index's)."""
    above = [index for index, (other, _) in enumerate(ordered) if _read_before(other, box)]
    if above:
        return max(above) + 1, 0
    below = [index for index, (other, _) in enumerate(ordered) if _read_before(box, other)]
    if below:
        return min(below), 1
    place = _reading_place((box, ""))
    return next((i for i, block in enumerate(ordered) if _reading_place(block) > place), len(ordered)), 1


def _read_before(a: Box, b: Box) -> bool:
    """Whether block `a` is read before block `b` as the one above it in a column: they share some
    width, `a` begins higher, and they share less than half the height of the shorter one (two
    blocks side by side that merely touch are not one above the other)."""
    shared_width = min(a[2], b[2]) - max(a[0], b[0])
    shared_height = a[3] - b[1]
    return shared_width > 0 and a[1] < b[1] and shared_height < 0.5 * min(a[3] - a[1], b[3] - b[1])


def _reading_place(block: tuple[Box, str]) -> tuple[int, float]:
    """Where a block is read on the page: its top (to the point), then its left edge."""
    return round(block[0][1]), block[0][0]


def _to_page(page: pymupdf.Page, box: Box, reading: Reading) -> Box:
    """A box of a turned reading's text page in the page's coordinates."""
    upright = pymupdf.Matrix(reading.dpi / 72, reading.dpi / 72)
    rect = pymupdf.Rect(box) * upright * ~reading.matrix
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def _overlap(a: Box, b: Box) -> float:
    """The share of the smaller box that the two boxes share."""
    common = abs(pymupdf.Rect(a) & pymupdf.Rect(b))
    smaller = min(abs(pymupdf.Rect(a)), abs(pymupdf.Rect(b)))
    return common / smaller if smaller > 0 else 0.0
