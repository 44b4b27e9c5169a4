"""OCR word recall of the engine by orientation, skew and language, on real scans and real pages.

    .venv/bin/python bench/ocr_quality.py [--split tune|heldout|all] [--before] [--dpi N] [--json PATH]
        [--languages] [--only-scans | --only-pages]
    .venv/bin/python bench/ocr_quality.py --real-languages [--split ...] [--scan-dpi 150 300]
        [--orientations 0 90 180 270 skew] [--noisy] [--default-language] [--jobs N] [--only PREFIX ...]

The documents are those of `bench/real_documents/manifest.json` (assemble `.corpus/` first, see
bench/real_corpus.py), kept to `--split` (`tune` by default; `heldout` is kept out of tuning):

- scans: the scans and photos whose truth has text, each as shipped (a scan shipped rotated counts at
  its rotation) and, for PDFs and one-page images, turned 90, 180 and 270 degrees clockwise in memory,
  and turned 3 degrees (skew);
- pages: the first page of each text-layer PDF in a language the service ships OCR data for, drawn as a
  150 dpi grey picture (no text layer), its text layer the truth, turned the same ways.

Word recall is the share of the truth's words (casefolded, punctuation stripped, as in
bench/real_documents.py) found in the engine's output. `--before` reads with MuPDF's OCR device, English
only, never turned: the engine as it was before orientation and languages. `--languages` reads the
shipped-language sentences of tests/unit (typeset, then drawn as a picture) with English only and with
their own language, and reports recall on words with diacritics too. Every figure is computed in the run.

`--real-languages` reads the pages of `bench/ocr_pages/manifest.json` instead: real PDFs with a good
text layer in each shipped language (split into tune and heldout by document), each page drawn as a
grey picture at each `--scan-dpi` (no text layer; the text layer is the truth, its spacing accents put
on their letters and its signs of no letter or digit left out: `truth_of`; the summary's "as written"
row counts the layer as it is written, as the bench did before), turned each of
`--orientations` ways (`--page-seconds` gives a busy machine's readings more time than a synchronous
request's 20 s), clean and, with `--noisy`, as a poor scanner or a phone gives it (blurred,
faded to low contrast, speckled with noise, saved as a JPEG). Each is read in its own language, or
with no `languages` at all with `--default-language` (the engine's own choice). Recall is reported by
language, orientation, resolution and clean/noisy. `--only` keeps the documents whose id starts with
one of the prefixes given (to measure again the pages a change can alter). A page the engine refuses
(an error of the document) counts as a reading of no words, its reason printed, and the summary says
how many there were.
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import re
import statistics
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from docsvc.documents import engine  # noqa: E402
from docsvc.documents.engine import errors, ocr  # noqa: E402
from docsvc.domain.parses import OCR_LANGUAGES, SYNCHRONOUS  # noqa: E402

from bench.real_corpus import OCR_MANIFEST, corpus_path, load_manifest  # noqa: E402
from bench.real_documents import load_truth, tokens, word_recall  # noqa: E402

SHIPPED = OCR_LANGUAGES  # the languages the documents layer carries, ISO 639-1 to Tesseract
TURNS = (0, 90, 180, 270)
SKEW = 3.0
PAGES_PER_SPLIT = 12


def turned(content: bytes, kind: str, degrees: float) -> tuple[bytes, str]:
    """A copy turned `degrees` clockwise: a PDF by its pages' /Rotate (right angles), else a picture."""
    if kind == "pdf" and degrees % 90 == 0:
        with pymupdf.open(stream=content, filetype="pdf") as document:
            for page in document:
                page.set_rotation((page.rotation + int(degrees)) % 360)
            return document.tobytes(), "pdf"
    from PIL import Image

    if kind == "pdf":
        with pymupdf.open(stream=content, filetype="pdf") as document:
            content, kind = document[0].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png"), "png"
    with Image.open(io.BytesIO(content)) as image:
        buffer = io.BytesIO()
        # the picture's resolution kept: without it a reader takes it for 96 dpi and draws it larger
        resolution = image.info.get("dpi", (150, 150))
        image.convert("L").rotate(-degrees, expand=True, fillcolor=255).save(
            buffer, format="PNG", dpi=resolution
        )
    return buffer.getvalue(), "png"


def page_picture(content: bytes) -> tuple[bytes, str, int]:
    """The first page of a PDF as a 150 dpi grey PNG, its text layer, and its word count."""
    with pymupdf.open(stream=content, filetype="pdf") as document:
        page = document[0]
        text = page.get_text()
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png"), text, len(tokens(text))


PAGE_SECONDS = [SYNCHRONOUS.page_seconds]  # a page's time as a synchronous request gives it


def read(content: bytes, kind: str, languages: tuple[str, ...] | None, dpi: int) -> tuple[str, list[float]]:
    options = engine.ParseOptions(dpi=dpi, languages=languages, page_seconds=PAGE_SECONDS[0])
    pages = list(engine.parse_pages(content, kind, options))
    confidences = [page.ocr_confidence for page in pages if page.ocr_confidence is not None]
    return "\n\n".join(page.text for page in pages), confidences


def cases(split: str, only_scans: bool, only_pages: bool = False) -> list[dict[str, Any]]:
    corpus = ROOT / ".corpus"
    found = []
    pages_taken: collections.Counter[str] = collections.Counter()
    for document in load_manifest():
        if split != "all" and document["split"] != split:
            continue
        content = corpus_path(corpus, document["repo"], document["path"]).read_bytes()
        kind, language = document["kind"], document["language"]
        if document["category"] in {"scan", "photo"}:
            if only_pages:
                continue
            truth = load_truth(
                document, corpus_path(corpus, document["repo"], document["truth_path"]).read_bytes()
            )
            if not truth.has_text():
                continue
            text = "\n".join(truth.text_for(int(document["pages"])))
            turnable = kind == "pdf" or int(document["pages"]) == 1
            found.append(
                {
                    "id": document["id"],
                    "set": "scan",
                    "language": language,
                    "split": document["split"],
                    "content": content,
                    "kind": kind,
                    "truth": text,
                    "shipped": int(document["orientation"]),
                    "turnable": turnable,
                }
            )
        elif not only_scans and kind == "pdf" and language in SHIPPED:
            picture, text, words = page_picture(content)
            if words < 50 or pages_taken[document["split"]] >= PAGES_PER_SPLIT:
                continue
            pages_taken[document["split"]] += 1
            found.append(
                {
                    "id": document["id"],
                    "set": "page",
                    "language": language,
                    "split": document["split"],
                    "content": picture,
                    "kind": "png",
                    "truth": text,
                    "shipped": 0,
                    "turnable": True,
                }
            )
    return found


def run(split: str, dpi: int, only_scans: bool, only_pages: bool = False) -> dict[str, Any]:
    results = []
    for case in cases(split, only_scans, only_pages):
        languages = (SHIPPED[case["language"]],) if case["language"] in SHIPPED else None
        variants: list[float] = (
            [0.0, *(TURNS[1:] if case["turnable"] else ()), SKEW] if case["turnable"] else [0.0]
        )
        for degrees in variants:
            content, kind = (
                (case["content"], case["kind"])
                if degrees == 0
                else turned(case["content"], case["kind"], degrees)
            )
            started = time.perf_counter()
            text, confidences = read(content, kind, languages, dpi)
            seconds = time.perf_counter() - started
            found, of = word_recall([case["truth"]], text)
            orientation = "skew" if degrees == SKEW else str(int(case["shipped"] + degrees) % 360)
            results.append(
                {
                    "id": case["id"],
                    "set": case["set"],
                    "language": case["language"],
                    "split": case["split"],
                    "orientation": orientation,
                    "as_shipped": degrees == 0,
                    "found": found,
                    "of": of,
                    "seconds": seconds,
                    "confidence": statistics.fmean(confidences) if confidences else None,
                }
            )
            print(
                f"{case['id']:45} {case['set']:5} {case['language']} {orientation:>4} "
                f"{found / of if of else 0:6.1%} {seconds:5.1f}s conf {results[-1]['confidence']}",
                flush=True,
            )
    return {"results": results}


def summary(results: list[dict[str, Any]]) -> None:
    def line(label: str, rows: list[dict[str, Any]]) -> None:
        found, of = sum(r["found"] for r in rows), sum(r["of"] for r in rows)
        seconds = sum(r["seconds"] for r in rows) / max(len(rows), 1)
        print(
            f"  {label:28} {found / of if of else 0:6.1%} of {of:6} words, "
            f"{len(rows):3} readings, {seconds:4.1f} s each"
        )

    for split in sorted({r["split"] for r in results}):
        for kind in ("scan", "page"):
            rows = [r for r in results if r["split"] == split and r["set"] == kind]
            if not rows:
                continue
            print(f"{split} / {kind}s")
            for orientation in ("0", "90", "180", "270", "skew"):
                line(f"orientation {orientation}", [r for r in rows if r["orientation"] == orientation])
            for language in sorted({r["language"] for r in rows}):
                line(
                    f"language {language} (as shipped)",
                    [r for r in rows if r["language"] == language and r["as_shipped"]],
                )


LANGUAGE_SAMPLES = {
    "deu": "Die Prüfung der Bücher ergab, dass die Gebühren für Übersetzungen größer waren als geschätzt.",
    "fra": "Le comité a décidé à l'unanimité de reporter la réunion prévue après les fêtes de Noël.",
    "spa": "El niño pidió una canción más antes de dormir, y su abuela aceptó con una sonrisa.",
    "ita": "La città è più bella in autunno, quando le strade si riempiono di foglie già cadute.",
    "por": "A decisão foi tomada após a reunião, e o relatório será publicado na próxima semana.",
    "nld": "De vergadering werd verplaatst naar woensdag omdat de voorzitter ziek was geworden.",
    "pol": "Zażółć gęślą jaźń: księgowa przesłała sprawozdanie finansowe za ubiegły miesiąc.",
}


def languages_run(dpi: int) -> None:
    font = pymupdf.Font("tiro")
    print("language   words: eng only -> own language   diacritic words: eng only -> own language")
    for language, sentence in LANGUAGE_SAMPLES.items():
        with pymupdf.open() as document:
            page = document.new_page(width=595, height=200)
            writer = pymupdf.TextWriter(page.rect)
            writer.fill_textbox(pymupdf.Rect(40, 40, 555, 180), sentence, font=font, fontsize=13)
            writer.write_text(page)
            picture = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")
        scores = []
        for languages in (("eng",), (language,)):
            text, _ = read(picture, "png", languages, dpi)
            all_words = word_recall([sentence], text)
            marked = [w for w in sentence.split() if any(ord(c) > 127 for c in w)]
            marked_found = word_recall([" ".join(marked)], text) if marked else (0, 0)
            scores.append((all_words, marked_found))
        (a, ad), (b, bd) = scores
        print(
            f"{language}        {a[0] / a[1]:6.1%} -> {b[0] / b[1]:6.1%}"
            + (
                f"              {ad[0] / ad[1]:6.1%} -> {bd[0] / bd[1]:6.1%}"
                if ad[1]
                else "              (none)"
            )
        )


def noisy(picture: bytes, seed: int) -> bytes:
    """A page picture as a poor scan or a phone photo gives it: blurred, faded to low contrast on a
    grey ground, speckled with noise and saved as a JPEG of middling quality. The noise is the mean of
    four seeded uniform draws (near enough to a normal one, standard deviation 12), made with Pillow
    alone so the bench needs no numpy."""
    import random

    from PIL import Image, ImageChops, ImageFilter, ImageMath

    with Image.open(io.BytesIO(picture)) as image:
        grey = image.convert("L").filter(ImageFilter.GaussianBlur(0.8))
        draws = random.Random(seed)
        uniform = [
            Image.frombytes("L", grey.size, draws.randbytes(grey.width * grey.height)) for _ in range(4)
        ]
        mean = ImageChops.add(
            ImageChops.add(uniform[0], uniform[1], scale=2),
            ImageChops.add(uniform[2], uniform[3], scale=2),
            scale=2,
        )
        spread = 12 / (255 / 12**0.5 / 2)  # four uniform bytes average to a spread of 255/sqrt(12)/2
        degraded = ImageMath.lambda_eval(
            lambda e: e["convert"](95 + e["g"] * (200 - 95) / 255 + (e["n"] - 127.5) * spread, "L"),
            g=grey.convert("F"),
            n=mean.convert("F"),
        )
        buffer = io.BytesIO()
        degraded.save(buffer, format="JPEG", quality=60, dpi=image.info.get("dpi", (150, 150)))
    return buffer.getvalue()


def language_pages(split: str, scan_dpis: list[int], only: list[str] | None = None) -> list[dict[str, Any]]:
    """The pages of the language manifest (those whose id starts with one of `only`, when given), each
    drawn as a grey PNG at each resolution."""
    found = []
    for document in load_manifest(OCR_MANIFEST):
        if split != "all" and document["split"] != split:
            continue
        if only and not str(document["id"]).startswith(tuple(only)):
            continue
        content = corpus_path(ROOT / ".corpus", str(document["repo"]), str(document["path"])).read_bytes()
        with pymupdf.open(stream=content, filetype="pdf") as pdf:
            for index in document["read_pages"]:  # type: ignore[attr-defined]
                page = pdf[index]
                for scan_dpi in scan_dpis:
                    found.append(
                        {
                            "id": f"{document['id']}#{index + 1}",
                            "language": document["language"],
                            "split": document["split"],
                            "scan_dpi": scan_dpi,
                            "picture": page.get_pixmap(dpi=scan_dpi, colorspace=pymupdf.csGRAY).tobytes(
                                "png"
                            ),
                            "truth": truth_of(page.get_text()),
                            "layer": page.get_text(),
                        }
                    )
    return found


# TeX's older fonts draw an accent as a glyph of its own, and a text layer writes it as a spacing accent
# beside its letter: "indispon´ıvel", "R´esum´e" (over the letter after it), "requisic¸˜oes" or  # noqa: RUF003
# "fran¸caise" (a cedilla beside its c, after it or before it), "e˛" (an ogonek after its letter).  # noqa: RUF003
# Print shows, and OCR reads, the accented letter.
_ACCENTS = {
    "\u0060": "\u0300",  # grave
    "\u00b4": "\u0301",  # acute
    "\u02c6": "\u0302",  # circumflex
    "\u02dc": "\u0303",  # tilde
    "\u00af": "\u0304",  # macron
    "\u02d8": "\u0306",  # breve
    "\u02d9": "\u0307",  # dot above
    "\u00a8": "\u0308",  # diaeresis
    "\u02da": "\u030a",  # ring above
    "\u02dd": "\u030b",  # double acute
    "\u02c7": "\u030c",  # caron
    "\u00b8": "\u0327",  # cedilla
    "\u02db": "\u0328",  # ogonek
}
_OVER = "\u0060\u00b4\u02c6\u02dc\u00af\u02d8\u02d9\u00a8\u02da\u02dd\u02c7"  # the accents over a letter
_ACCENT_OVER = re.compile(f"([{_OVER}])([^\\W\\d_])")
_MARK_UNDER = re.compile("([cCsStT])([\u00b8])|([\u00b8])([cCsStT])|([^\\W\\d_])([\u02db])")
_DOTLESS = {"\u0131": "i", "\u0237": "j"}  # an accent over i or j is drawn over the dotless letter


def accents_composed(text: str) -> str:
    """The text with the spacing accents a text layer writes beside their letters (`_ACCENTS`) put on
    them: the words as printed, as OCR reads them. An accent with no letter of its own beside it (a
    letter it makes one character with) is left: a grave accent as an opening quote, "`quoted'"."""

    def composed(found: re.Match[str], letter: str, accent: str) -> str:
        accented = unicodedata.normalize("NFC", _DOTLESS.get(letter, letter) + _ACCENTS[accent])
        return accented if len(accented) == 1 else found.group()  # a letter the accent is never on

    def under(found: re.Match[str]) -> str:
        letter = found.group(1) or found.group(4) or found.group(5)
        return composed(found, letter, found.group(2) or found.group(3) or found.group(6))

    text = _MARK_UNDER.sub(under, text)
    return _ACCENT_OVER.sub(lambda found: composed(found, found.group(2), found.group(1)), text)


def signs_dropped(text: str) -> str:
    """The text without its pieces (between spaces) of no letter and no digit: a bullet, a dash, a
    sign of a formula (•, =, ≤) is no word, and OCR writes it as it can (a bullet as "e" or "«",
    an en dash as an em dash) or not at all. Lines are kept (a word hyphenated at a line's end is
    joined by the count)."""
    return "\n".join(
        " ".join(piece for piece in line.split() if any(character.isalnum() for character in piece))
        for line in text.splitlines()
    )


def truth_of(layer: str) -> str:
    """The words of a page's text layer as print shows them: its accents on their letters, its signs
    dropped."""
    return signs_dropped(accents_composed(layer))


def _reading(job: tuple[dict[str, Any], str, bool, bool, int]) -> dict[str, Any]:
    page, orientation, degraded, default, dpi = job
    content, kind = page["picture"], "png"
    if degraded:
        content, kind = noisy(content, seed=len(page.get("layer", page["truth"]))), "jpeg"
    if orientation != "0":
        content, kind = turned(content, kind, SKEW if orientation == "skew" else float(orientation))
    languages = None if default else (SHIPPED[page["language"]],)
    started = time.perf_counter()
    text, confidences, failed = attempted(content, kind, languages, dpi)
    found, of = word_recall([page["truth"]], text)
    folded, _ = word_recall([apostrophes_folded(page["truth"])], apostrophes_folded(text))
    as_written = word_recall([page.get("layer", page["truth"])], text)
    return {
        "id": page["id"],
        "language": page["language"],
        "split": page["split"],
        "scan_dpi": page["scan_dpi"],
        "orientation": orientation,
        "noisy": degraded,
        "found": found,
        "folded": folded,
        "of": of,
        "as_written": as_written,
        "seconds": time.perf_counter() - started,
        "confidence": statistics.fmean(confidences) if confidences else None,
        "failed": failed,
    }


def attempted(
    content: bytes, kind: str, languages: tuple[str, ...] | None, dpi: int
) -> tuple[str, list[float], str | None]:
    """`read`, with a page the engine refuses (an error of the document, such as a picture Tesseract
    cannot read) taken for a reading of no words and its reason: one such page stopped the whole run
    and the part's figures with it."""
    try:
        return (*read(content, kind, languages, dpi), None)
    except errors.DocumentError as error:
        return "", [], str(error)


def languages_real_run(
    split: str,
    scan_dpis: list[int],
    orientations: list[str],
    with_noisy: bool | str,
    default: bool,
    dpi: int,
    jobs: int,
    only: list[str] | None = None,
) -> list[dict[str, Any]]:
    from concurrent.futures import ThreadPoolExecutor  # each reading runs in the engine's own child

    jobs_list = [
        (page, orientation, degraded, default, dpi)
        for page in language_pages(split, scan_dpis, only)
        for orientation in orientations
        for degraded in ((True,) if with_noisy == "only" else (False, True) if with_noisy else (False,))
    ]
    results = []
    with ThreadPoolExecutor(jobs) as pool:
        for row in pool.map(_reading, jobs_list):
            results.append(row)
            print(
                f"{row['id']:32} {row['language']} {row['scan_dpi']:3}dpi {row['orientation']:>4} "
                f"{'noisy' if row['noisy'] else 'clean'} {row['found'] / max(row['of'], 1):6.1%} "
                f"{row['seconds']:5.1f}s conf {row['confidence']}"
                + (f" FAILED: {row['failed']}" if row["failed"] else ""),
                flush=True,
            )
    return results


def apostrophes_folded(text: str) -> str:
    """The text with its typographic apostrophes (U+2019, U+2018) as the typewriter's ('): OCR reads them
    so, and a word is the same word either way (French and Italian elide with one: l'article, all'interno)."""
    return text.replace("\u2019", "'").replace("\u2018", "'")


def reached_deadline(rows: list[dict[str, Any]]) -> int:
    """How many readings ran to the page's time: on a busy machine those are cut short, and a figure
    that counts them measures the machine's load as much as the engine."""
    return sum(r["seconds"] >= 0.97 * PAGE_SECONDS[0] for r in rows)


def languages_real_summary(results: list[dict[str, Any]]) -> None:
    def recall(rows: list[dict[str, Any]]) -> str:
        found, of = sum(r["found"] for r in rows), sum(r["of"] for r in rows)
        return f"{found / of:6.1%}" if of else "     -"

    orientations = [
        o for o in ("0", "90", "180", "270", "skew") if any(r["orientation"] == o for r in results)
    ]
    for split in sorted({r["split"] for r in results}):
        for scan_dpi in sorted({r["scan_dpi"] for r in results}):
            for degraded in sorted({r["noisy"] for r in results}):
                rows = [
                    r
                    for r in results
                    if r["split"] == split and r["scan_dpi"] == scan_dpi and r["noisy"] == degraded
                ]
                seconds = statistics.fmean(r["seconds"] for r in rows)
                print(
                    f"{split} / {scan_dpi} dpi / {'noisy' if degraded else 'clean'} "
                    f"({len(rows)} readings, {seconds:.1f} s each, "
                    f"{reached_deadline(rows)} at the page's time, "
                    f"{sum(bool(r['failed']) for r in rows)} refused by the engine, counted as no words)"
                )
                print("  language  " + " ".join(f"{o:>6}" for o in orientations) + "    all")
                for language in [*sorted({r["language"] for r in rows}), "all"]:
                    mine = [r for r in rows if language in ("all", r["language"])]
                    cells = [recall([r for r in mine if r["orientation"] == o]) for o in orientations]
                    print(f"  {language:8}  " + " ".join(cells) + f" {recall(mine)}")
                folded = [{**r, "found": r["folded"]} for r in rows]
                cells = [recall([r for r in folded if r["orientation"] == o]) for o in orientations]
                print("  all, apostrophes folded  " + " ".join(cells) + f" {recall(folded)}")
                written = [{**r, "found": r["as_written"][0], "of": r["as_written"][1]} for r in rows]
                cells = [recall([r for r in written if r["orientation"] == o]) for o in orientations]
                print("  all, layer as written     " + " ".join(cells) + f" {recall(written)}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--split",
        choices=(
            "tune",
            "heldout",
            "fresh",
            "fresh2",
            "fresh3",
            "fresh4",
            "fresh5",
            "fresh6",
            "fresh7",
            "fresh8",
            "fresh9",
            "fresh10",
            "fresh11",
            "fresh12",
            "fresh13",
            "fresh14",
            "all",
        ),
        default="tune",
    )
    parser.add_argument("--before", action="store_true", help="MuPDF's OCR device, English, never turned")
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--only-scans", action="store_true")
    parser.add_argument("--only-pages", action="store_true", help="the text-layer pages, not the scans")
    parser.add_argument("--only", nargs="+", help="--real-languages: documents whose id starts so")
    parser.add_argument("--languages", action="store_true", help="the language samples only")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--real-languages", action="store_true", help="the pages of bench/ocr_pages")
    parser.add_argument("--scan-dpi", type=int, nargs="+", default=[150])
    parser.add_argument("--orientations", nargs="+", default=["0", "90", "180", "270", "skew"])
    parser.add_argument("--noisy", action="store_true", help="noisy copies beside the clean ones")
    parser.add_argument("--only-noisy", action="store_true", help="the noisy copies alone")
    parser.add_argument("--default-language", action="store_true", help="read with no languages given")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--page-seconds",
        type=float,
        help="a page's time (default: a synchronous request's), for a busy machine",
    )
    arguments = parser.parse_args()
    if arguments.page_seconds:
        PAGE_SECONDS[0] = arguments.page_seconds
    if ocr.tessdata() is None:
        print("no Tesseract language data here", file=sys.stderr)
        return 2
    if arguments.before:
        ocr._tesseract = lambda: None  # type: ignore[assignment]
    if arguments.languages:
        languages_run(arguments.dpi)
        return 0
    if arguments.real_languages:
        rows = languages_real_run(
            arguments.split,
            arguments.scan_dpi,
            arguments.orientations,
            "only" if arguments.only_noisy else arguments.noisy,
            arguments.default_language,
            arguments.dpi,
            arguments.jobs,
            arguments.only,
        )
        languages_real_summary(rows)
        if arguments.json:
            arguments.json.write_text(json.dumps({"results": rows}, indent=1))
        return 0
    measured = run(arguments.split, arguments.dpi, arguments.only_scans, arguments.only_pages)
    summary(measured["results"])
    if arguments.json:
        arguments.json.write_text(json.dumps(measured, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
