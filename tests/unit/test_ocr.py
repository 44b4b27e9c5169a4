"""OCR without a `languages` list (the language the words look like) and OCR of noisy scans."""

from __future__ import annotations

import io
import os
import random

import pymupdf
import pytest
from docsvc.documents import engine
from docsvc.documents.engine import ocr
from docsvc.documents.engine.model import ParseOptions

from tests import samples

OCR = pytest.mark.skipif(
    ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
    reason="Tesseract's language data is not installed (make test installs it where it can)",
)
NEEDS = {
    language: pytest.mark.skipif(language not in ocr.installed_languages(), reason=f"no {language}")
    for language in ("deu", "pol")
}

GERMAN = [
    "Die Prüfung der Bücher ergab, dass die Gebühren für die",
    "Übersetzungen größer waren als geschätzt. Der Bericht wird",
    "nach der Sitzung an alle Mitglieder des Ausschusses geschickt,",
    "die ihre Änderungen bis zum Monatsende schriftlich einreichen.",
]
POLISH = [
    "Księgowa przesłała sprawozdanie finansowe za ubiegły miesiąc",
    "i poprosiła o jego zatwierdzenie przez zarząd. Dokument jest",
    "dostępny w systemie oraz w sekretariacie, gdzie można się z nim",
    "zapoznać do końca tygodnia, a uwagi należy zgłaszać na piśmie.",
]
# What a page's second reading (in a guessed language, or drawn twice as fine) needs on a busy machine:
# these tests are about the reading, not about the page's time budget.
ROOMY = ParseOptions(page_seconds=120)
ENGLISH = [
    "Dear Ms Thompson, thank you for your order of 12 March.",
    "The goods were shipped today from our warehouse in Leeds",
    "and should reach you within five working days. Please",
    "check the delivery against the enclosed packing list and",
    "tell us at once if anything is missing or damaged.",
]


def test_words_are_taken_for_the_language_whose_common_words_they_hold() -> None:
    assert ocr.guess_language(" ".join(GERMAN).split()) == "deu"
    assert ocr.guess_language(" ".join(POLISH).split()) == "pol"
    assert ocr.guess_language(" ".join(ENGLISH).split()) == "eng"
    # as English OCR reads them: accents dropped or garbled
    garbled = "Ksiegowa przeslala i poprosila o jego sie nie w na"
    assert ocr.guess_language(garbled.split(" ")) == "pol"


def test_too_few_common_words_or_two_languages_alike_are_no_guess() -> None:
    assert ocr.guess_language(["Rechnung", "4711", "Betrag", "EUR", "12,50"]) is None
    assert ocr.guess_language(["der", "die", "und", "das", "the", "and", "of", "to"]) is None


@OCR
@NEEDS["deu"]
def test_a_german_page_is_read_in_german_when_no_language_is_given() -> None:
    (page,) = engine.parse_pages(samples.scan_png(GERMAN), "png", ROOMY)

    for word in ("Prüfung", "Bücher", "Gebühren", "größer", "Änderungen"):
        assert word in page.text, page.text


@OCR
@NEEDS["pol"]
def test_a_polish_page_is_read_with_its_letters_when_no_language_is_given() -> None:
    (page,) = engine.parse_pages(samples.scan_png(POLISH), "png", ROOMY)

    for word in ("Księgowa", "przesłała", "miesiąc", "końca"):
        assert word in page.text, page.text


@OCR
def test_an_english_page_is_recognised_once(monkeypatch: pytest.MonkeyPatch) -> None:
    languages: list[str] = []
    recognised = ocr._recognised

    def counted(*arguments: object, **named: object) -> ocr.Reading:
        languages.append(str(arguments[5]))
        return recognised(*arguments, **named)  # type: ignore[arg-type]

    monkeypatch.setattr(ocr, "_recognised", counted)
    with pymupdf.open(stream=samples.scan_png(ENGLISH), filetype="png") as document:
        reading = ocr.read_page(document[0], ParseOptions(), [])

    assert reading is not None and "Thompson," in [word.text for word in reading.words]
    assert languages == ["eng"]


@OCR
@NEEDS["deu"]
def test_without_time_for_a_second_reading_the_page_stays_english_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "second_reading_cost", lambda *arguments: 1e9)  # more than the page's time
    warnings: list[str] = []
    with pymupdf.open(stream=samples.scan_png(GERMAN), filetype="png") as document:
        reading = ocr.read_page(document[0], ROOMY, warnings)

    assert reading is not None and reading.words
    assert warnings and "looks deu" in warnings[0] and "`languages`" in warnings[0]


@OCR
def test_a_page_that_looks_like_a_language_not_installed_is_read_in_english_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "installed_languages", lambda: ("eng",))
    warnings: list[str] = []
    with pymupdf.open(stream=samples.scan_png(GERMAN), filetype="png") as document:
        reading = ocr.read_page(document[0], ParseOptions(), warnings)

    assert reading is not None and "Sitzung" in [word.text for word in reading.words]
    assert warnings == ["the page looks deu but was read in English only (deu is not installed here)"]


@OCR
@NEEDS["deu"]
def test_given_languages_are_read_as_given_without_a_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "guess_language", lambda words: pytest.fail("guessed"))
    (page,) = engine.parse_pages(samples.scan_png(GERMAN), "png", ParseOptions(languages=("deu",)))
    assert "Prüfung" in page.text


def speckled(picture: bytes, seed: int = 7) -> bytes:
    """A scan as a poor scanner or a phone gives it: blurred, faded to grey ink on grey paper,
    speckled with noise, saved as a JPEG."""
    from PIL import Image, ImageFilter

    noise = random.Random(seed)
    with Image.open(io.BytesIO(picture)) as image:
        grey = image.convert("L").filter(ImageFilter.GaussianBlur(0.8))
        faded = bytes(
            max(0, min(255, int(95 + value * 105 / 255 + noise.gauss(0, 12)))) for value in grey.tobytes()
        )
        buffer = io.BytesIO()
        Image.frombytes("L", grey.size, faded).save(buffer, format="JPEG", quality=60, dpi=(150, 150))
    return buffer.getvalue()


def rendering(picture: bytes) -> pymupdf.Pixmap:
    with pymupdf.open(stream=picture) as document:
        return document[0].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)


def test_a_speckled_scan_measures_noisy_and_a_clean_one_does_not() -> None:
    clean = samples.scan_png(ENGLISH)
    assert ocr.noise_level(rendering(clean)) < 1 < ocr.NOISE_LEVEL
    assert ocr.noise_level(rendering(speckled(clean))) > ocr.NOISE_LEVEL


@OCR
def test_a_speckled_low_contrast_scan_of_small_print_is_read() -> None:
    """Tesseract alone finds no text at all on it."""
    (page,) = engine.parse_pages(speckled(samples.scan_png(ENGLISH, fontsize=11)), "jpeg", ROOMY)

    found = {word.strip(".,") for word in page.text.split()}
    expected = {word.strip(".,") for line in ENGLISH for word in line.split()}
    assert len(found & expected) >= 0.9 * len(expected), page.text


@OCR
def test_small_print_is_read_drawn_twice_as_fine() -> None:
    """5-point print at 150 dpi: its words are about 8 pixels high."""
    (page,) = engine.parse_pages(samples.scan_png(ENGLISH, fontsize=5), "png", ParseOptions(page_seconds=60))

    found = {word.strip(".,") for word in page.text.split()}
    expected = {word.strip(".,") for line in ENGLISH for word in line.split()}
    assert found >= expected, page.text


@OCR
def test_a_table_of_contents_in_ten_point_print_keeps_its_page_numbers() -> None:
    """10-point print at 150 dpi (words about 14 pixels high): read as drawn, each dot leader and the
    page number after it come out as one garbled word and every number is lost."""
    titles = ["Introduction", "Scope of the service", "Starting points", "Schema and rules", "Addresses"]
    numbers = [str(4 + 3 * index) for index in range(len(titles))]
    lines = [
        f"{index + 1}.  {title} {'.' * (70 - len(title))} {number}"
        for index, (title, number) in enumerate(zip(titles, numbers, strict=True))
    ]
    (page,) = engine.parse_pages(samples.scan_png(lines, fontsize=10), "png", ROOMY)

    assert set(numbers) <= set(page.text.split()), page.text


@OCR
def test_ten_point_prose_read_confidently_is_not_read_again_twice_as_fine() -> None:
    """As small as the table of contents above, but read confidently: a finer reading would cost two to
    three times as long for the same words."""
    with pymupdf.open(stream=samples.scan_png(ENGLISH, fontsize=10), filetype="png") as document:
        reading = ocr.read_page(document[0], ROOMY, [])

    assert reading is not None and reading.confidence is not None
    heights = sorted(word.box[3] - word.box[1] for word in reading.words)
    assert heights[len(heights) // 2] <= ocr.FINE_PRINT_PIXELS and reading.confidence >= ocr.FINE_PRINT_DOUBT
    assert reading.dpi == 150


def test_a_reading_twice_as_fine_is_reckoned_to_take_four_times_the_first() -> None:
    """Four times the pixels: reckoned at twice the time, it was started where the page's time could
    not hold it, and the page was stopped with nothing read."""
    assert ocr.second_reading_cost(2.0, 2.0, two_languages=False) == 8.0
    assert ocr.second_reading_cost(2.0, 1.0, two_languages=True) == 2.0 * ocr.SECOND_READING_COST


def read_words(picture: bytes) -> list[str]:
    """The words `ocr.read_page` reads on a picture (PNG)."""
    with pymupdf.open(stream=picture, filetype="png") as document:
        reading = ocr.read_page(document[0], ROOMY, [])
    assert reading is not None
    return [word.text for word in reading.words]


def share_of_english(words: list[str]) -> float:
    """The share of the words of `ENGLISH` among `words`, punctuation at their ends aside."""
    expected = {word.strip(".,") for line in ENGLISH for word in line.split()}
    return len({word.strip(".,") for word in words} & expected) / len(expected)


def over_a_photograph(picture: bytes, seed: int = 3) -> bytes:
    """A page's print laid over a photograph: a bright sky along the top, a dark blotchy ground
    (grass, rock) under the text."""
    from PIL import Image, ImageChops, ImageFilter

    noise = random.Random(seed)
    with Image.open(io.BytesIO(picture)) as scan:
        width, height = scan.size
        cells = (width // 8 + 1, height // 8 + 1)
        shades = bytes(noise.randrange(256) for _ in range(cells[0] * cells[1]))
        blotches = Image.frombytes("L", cells, shades)
        ground = (
            blotches.resize((width, height), Image.Resampling.BICUBIC)
            .filter(ImageFilter.GaussianBlur(6))
            .point(lambda value: 50 + value // 2)
        )
        ground.paste(225, (0, 0, width, 100))
        ink = scan.convert("L").point(lambda value: 20 if value < 128 else 255)
        buffer = io.BytesIO()
        ImageChops.darker(ground, ink).save(buffer, format="PNG", dpi=(150, 150))
    return buffer.getvalue()


def test_a_ground_darker_than_the_ink_threshold_is_measured_on_a_photograph_only() -> None:
    clean = samples.scan_png(ENGLISH)
    assert ocr.dark_ground(rendering(clean)) == 0
    assert ocr.dark_ground(rendering(speckled(clean))) < ocr.DARK_GROUND
    assert ocr.dark_ground(rendering(over_a_photograph(clean))) > ocr.DARK_GROUND
    assert ocr.binarisation_for(rendering(clean), noisy=False) == ocr.GLOBAL
    assert ocr.binarisation_for(rendering(over_a_photograph(clean)), noisy=True).local


@OCR
def test_text_printed_over_a_photograph_is_read() -> None:
    """Tesseract's one threshold for the page reads no word of it."""
    words = read_words(over_a_photograph(samples.scan_png(ENGLISH)))
    assert share_of_english(words) >= 0.8, words


def shaded_rows(picture: bytes, grey: int = 190) -> bytes:
    """A page of `ENGLISH` whose every line stands on a grey band, as a table shades its rows."""
    from PIL import Image, ImageChops, ImageDraw

    with Image.open(io.BytesIO(picture)) as scan:
        ground = Image.new("L", scan.size, 255)
        draw = ImageDraw.Draw(ground)
        for index in range(len(ENGLISH)):
            top = round((80 + 22 * index - 16) * 150 / 72)  # the lines of samples.scan_png
            draw.rectangle((0, top, scan.width, top + round(21 * 150 / 72)), fill=grey)
        buffer = io.BytesIO()
        ImageChops.darker(ground, scan.convert("L")).save(buffer, format="PNG", dpi=(150, 150))
    return buffer.getvalue()


def test_shading_that_one_threshold_takes_for_ink_is_measured_on_shaded_pages_only() -> None:
    clean = samples.scan_png(ENGLISH)
    assert ocr.ink_share(rendering(clean)) < ocr.SHADED_INK
    assert ocr.ink_share(rendering(shaded_rows(clean))) > ocr.SHADED_INK
    assert ocr.dark_ground(rendering(shaded_rows(clean))) < ocr.DARK_GROUND  # bands too thin for it
    assert ocr.binarisation_for(rendering(shaded_rows(clean)), noisy=False).local


@OCR
def test_text_on_shaded_table_rows_is_read() -> None:
    """Tesseract's one threshold for the page falls between the grey and the paper: it reads no word."""
    words = read_words(shaded_rows(samples.scan_png(ENGLISH)))
    assert share_of_english(words) >= 0.9, words


@OCR
@pytest.mark.parametrize("turn", [90, 270])
def test_text_on_shaded_table_rows_is_read_turned(turn: int) -> None:
    """The layout analysis that finds which way the lines run sees the page binarised as it is read:
    under one threshold the shaded rows are black bars, in which it finds no line of text."""
    from PIL import Image

    with Image.open(io.BytesIO(shaded_rows(samples.scan_png(ENGLISH)))) as upright:
        buffer = io.BytesIO()
        upright.rotate(-turn, expand=True).save(buffer, format="PNG", dpi=(150, 150))
    words = read_words(buffer.getvalue())
    assert share_of_english(words) >= 0.9, words


@OCR
def test_a_skewed_page_on_a_light_grey_ground_is_read_straightened() -> None:
    """Straightening adds white corners: one threshold for the page then falls between them and the
    grey ground, and the whole page reads as ink unless the straightened rendering is measured."""
    from PIL import Image

    with Image.open(io.BytesIO(samples.scan_png(ENGLISH))) as scan:
        grey = scan.convert("L").point(lambda value: min(value, 211))
        page = Image.new("L", (grey.width, grey.width * 2 // 3), 211)  # landscape, its ground grey
        page.paste(grey, (0, 0))
        buffer = io.BytesIO()
        page.rotate(-3, expand=True, fillcolor=255).save(buffer, format="PNG", dpi=(150, 150))
    words = read_words(buffer.getvalue())
    assert share_of_english(words) >= 0.8, words


def test_a_speckled_page_of_small_print_is_not_taken_for_a_skewed_one() -> None:
    """Its faded ink is lighter than mid-grey: a fixed threshold found too little ink to level and
    turned the page 6 degrees, where Tesseract read no word."""
    pixmap = rendering(speckled(samples.scan_png(ENGLISH, fontsize=8)))
    assert ocr.is_noisy(pixmap)

    assert ocr.skew_of(ocr._denoised(pixmap, 150)) == 0


@OCR
def test_a_noisy_page_is_read_again_twice_as_fine_and_the_more_truthful_reading_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings: list[ocr.Reading] = []
    recognised = ocr._recognised

    def kept(*arguments: object, **named: object) -> ocr.Reading:
        readings.append(recognised(*arguments, **named))  # type: ignore[arg-type]
        return readings[-1]

    monkeypatch.setattr(ocr, "_recognised", kept)
    picture = speckled(samples.scan_png(ENGLISH, fontsize=9))
    with pymupdf.open(stream=picture, filetype="jpeg") as document:
        reading = ocr.read_page(document[0], ParseOptions(page_seconds=60), [])

    assert [r.dpi for r in readings] == [150, 300]
    other = readings[0] if reading is readings[1] else readings[1]
    assert reading.more_truthful(other)
    assert len({word.text.strip(".,") for word in reading.words} & set(" ".join(ENGLISH).split())) >= 20


def _lined_reading(dpi: float, lines: int, confidences: list[float]) -> ocr.Reading:
    """A reading at `dpi` of `lines` lines of 10-point print (one inch apart on the page), its words
    given these confidences in turn, as many words a line as it takes."""
    scale, per_line = dpi / 72, -(-len(confidences) // lines)
    words = []
    for n, confidence in enumerate(confidences):
        line, place = divmod(n, per_line)
        x, y = (72 + 40 * place) * scale, 72 * (line + 1) * scale
        words.append(ocr.Word((1, 1, line), (x, y, x + 30 * scale, y + 10 * scale), "word", confidence))
    return ocr.Reading(tuple(words), pymupdf.Matrix(scale, scale), dpi, 0)


def test_a_reading_that_leaves_out_a_line_is_not_kept_for_its_higher_mean_confidence() -> None:
    every_line = _lined_reading(300, 7, [95.0] * 49)
    a_line_left_out = _lined_reading(150, 6, [96.0] * 42)
    with_noise_read = _lined_reading(150, 7, [95.0] * 49 + [20.0] * 7)

    assert (a_line_left_out.confidence or 0) > (every_line.confidence or 0)
    assert every_line.more_truthful(a_line_left_out) and not a_line_left_out.more_truthful(every_line)
    assert every_line.more_truthful(with_noise_read)  # the same lines read, more confident


def test_of_two_readings_of_the_same_lines_the_more_confident_is_kept_not_the_most_sure_words() -> None:
    """Neither reading left out a line: the finer reads them with fewer words doubtful, the coarser more
    words confidently and many doubtfully (counting confident words kept it)."""
    finer = _lined_reading(300, 6, [92.0] * 42)
    coarser = _lined_reading(150, 6, [80.0] * 48 + [30.0] * 12)

    assert sum(w.confidence >= ocr.DOUBTFUL_CONFIDENCE for w in coarser.words) > 42
    assert finer.more_truthful(coarser) and not coarser.more_truthful(finer)


def test_a_reading_that_left_out_a_line_is_kept_where_it_reads_far_more_words_confidently() -> None:
    """A line left out is not all a reading can lose: one that reads each line's words in full is kept
    over one that read one more line but few words on each."""
    lines_in_full = _lined_reading(300, 6, [85.0] * 48)
    one_line_more = _lined_reading(150, 7, [90.0] * 21)

    assert lines_in_full.lacks_a_line_of(one_line_more) and not one_line_more.lacks_a_line_of(lines_in_full)
    assert lines_in_full.more_truthful(one_line_more) and not one_line_more.more_truthful(lines_in_full)


def test_smoothing_a_noisy_rendering_keeps_a_stroke_one_pixel_thin() -> None:
    """A 3 x 3 median filter took such strokes of small faded print for noise and left paper."""
    from PIL import Image

    image = Image.new("L", (40, 40), 200)
    image.paste(95, (20, 5, 21, 35))  # a faded stroke a pixel wide, down the picture
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, 40, 40, image.tobytes(), False)

    smoothed = ocr._grey(ocr._denoised(pixmap, 150))

    assert smoothed.getpixel((20, 20)) < 160 < smoothed.getpixel((10, 20))


@OCR
def test_a_speckled_page_of_8_point_print_is_read_through_the_smoothing() -> None:
    """Through a 3 x 3 median filter 40 of its 49 words were read, through the Gaussian 48."""
    (page,) = engine.parse_pages(speckled(samples.scan_png(ENGLISH, fontsize=8)), "jpeg", ROOMY)

    read = {word.strip(".,") for word in page.text.split()}
    found = [word for word in " ".join(ENGLISH).split() if word.strip(".,") in read]
    assert len(found) >= 45, page.text


@OCR
def test_the_words_read_stand_where_their_ink_is_and_a_line_stays_one_line() -> None:
    with pymupdf.open() as source:
        page = source.new_page(width=595, height=842)
        for x, text in ((72, "Invoice"), (300, "Amount"), (470, "Total")):
            page.insert_text((x, 200), text, fontsize=14)
        drawn = {word[4]: word[:4] for word in page.get_text("words")}
        picture = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
    with pymupdf.open() as scan:
        sheet = scan.new_page(width=595, height=842)
        sheet.insert_image(sheet.rect, pixmap=picture)
        content = scan.tobytes()

    (read,) = engine.parse_pages(content, "pdf", ParseOptions(words="also"))

    assert "Invoice Amount Total" in read.text, read.text
    assert [word[4] for word in read.words] == ["Invoice", "Amount", "Total"], read.words
    for x0, y0, x1, y1, text in read.words:
        left, top, right, bottom = drawn[text]
        assert abs(x0 * 595 - left) < 4 and abs(x1 * 595 - right) < 4, (text, x0 * 595, x1 * 595)
        assert top - 4 < y0 * 842 < bottom and top < y1 * 842 < bottom + 4, (text, y0 * 842, y1 * 842)


def test_a_line_of_words_far_apart_is_one_line_with_each_word_on_its_box() -> None:
    boxes = {"Item": (100, 200, 180, 230), "✓": (600, 200, 630, 230), "12.50": (1000, 201, 1100, 231)}
    words = tuple(ocr.Word((1, 1, 1), box, text, 90.0) for text, box in boxes.items())
    reading = ocr.Reading(words, pymupdf.Matrix(2, 2), 144, 0.0)  # pixels at 144 dpi
    with pymupdf.open() as document:
        page = document.new_page(width=612, height=792)

        textpage = ocr.textpage_of(page, reading, 0)

        assert textpage.extractText() == "Item ✓ 12.50\n"  # a glyph Helvetica lacks keeps its text
        read = textpage.extractWORDS()
    assert [word[4] for word in read] == list(boxes)
    assert len({(word[5], word[6]) for word in read}) == 1  # one block, one line
    for x0, _, x1, _, text, *_ in read:
        assert abs(x0 - boxes[text][0] / 2) < 0.1 and abs(x1 - boxes[text][2] / 2) < 0.1, text


def _two_blocks(gap: int) -> ocr.Reading:
    """Three lines of words 20 pixels high, each line's left half in block 1 and its right half in
    block 2, `gap` pixels apart."""
    words = []
    for line in range(3):
        top = 100 + 40 * line
        words.append(ocr.Word((1, 1, line), (100, top, 400, top + 20), "left", 90.0))
        words.append(ocr.Word((2, 1, line), (400 + gap, top, 700 + gap, top + 20), "right", 90.0))
    return ocr.Reading(tuple(words), pymupdf.Identity, 150, 0.0)


def test_lines_cut_in_two_between_blocks_are_a_cut_layout() -> None:
    assert ocr._cut_across(_two_blocks(gap=8))


def test_two_columns_apart_by_a_gutter_are_not_a_cut_layout() -> None:
    assert not ocr._cut_across(_two_blocks(gap=60))


@OCR
def test_a_page_whose_layout_cuts_its_lines_is_read_again_as_one_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    modes: list[bool] = []
    recognise = ocr._Tesseract.recognise

    def spied(self: ocr._Tesseract, *arguments: object, **named: object) -> tuple[list[ocr.Word], bool]:
        found = recognise(self, *arguments, **named)  # type: ignore[arg-type]
        modes.append(bool(arguments[8]) if len(arguments) > 8 else False)
        return found

    monkeypatch.setattr(ocr._Tesseract, "recognise", spied)
    monkeypatch.setattr(ocr, "_cut_across", lambda reading: not modes[-1])
    with pymupdf.open(stream=samples.scan_png(ENGLISH), filetype="png") as document:
        reading = ocr.read_page(document[0], ROOMY, [])

    assert reading is not None and "Thompson," in [word.text for word in reading.words]
    assert modes[-1] is True and modes.count(True) == 1


def _led(flat: int) -> ocr.Reading:
    """Five lines of a title 20 pixels high; the first `flat` of them followed by a row of dots read as
    a word 4 pixels high and 300 wide."""
    words = []
    for line in range(5):
        top = 100 + 40 * line
        words.append(ocr.Word((1, 1, line), (100, top, 300, top + 20), "Title", 90.0))
        if line < flat:
            words.append(ocr.Word((1, 1, line), (320, top + 15, 620, top + 19), "........", 20.0))
    return ocr.Reading(tuple(words), pymupdf.Identity, 150, 0.0)


def test_lines_holding_a_row_of_dots_are_counted_as_led() -> None:
    assert ocr._led_lines(_led(3)) == 3


def test_a_flat_word_no_wider_than_a_word_is_high_is_no_leader() -> None:
    led = _led(5)
    dots = [ocr.Word(word.line, (320, word.box[1], 340, word.box[3]), ".", 20.0) for word in led.words[1::2]]
    titles = led.words[::2]
    assert ocr._led_lines(ocr.Reading(titles + tuple(dots), pymupdf.Identity, 150, 0.0)) == 0


def _numbered(reading: ocr.Reading, lines: int) -> ocr.Reading:
    """`reading` with a page number read after the leaders of its first `lines` led lines, in a block
    of their own."""
    leaders = [word for word in reading.words if word.text.startswith(".")][:lines]
    numbers = tuple(
        ocr.Word((9, 1, n), (640, w.box[1] - 15, 670, w.box[3]), str(n + 3), 90.0)
        for n, w in enumerate(leaders)
    )
    return ocr.Reading(reading.words + numbers, reading.matrix, reading.dpi, reading.turn)


def _read_again(
    monkeypatch: pytest.MonkeyPatch, first: ocr.Reading, again: ocr.Reading, noisy: bool = False
) -> tuple[ocr.Reading | None, list[object]]:
    """What `read_page` keeps of a blank page (taken for a noisy one if `noisy`) whose reading is
    `first` and whose reading again is `again`, and the page segmentation modes it read again in."""
    monkeypatch.setattr(ocr, "is_noisy", lambda pixmap: noisy)
    modes: list[object] = []

    def read_again(*arguments: object, **named: object) -> ocr.Reading:
        modes.append(named.get("mode"))
        return (
            again if named.get("mode") == ocr.SINGLE_COLUMN else first
        )  # a finer reading reads as the first

    monkeypatch.setattr(ocr, "_turn", lambda *arguments, **named: 0)
    monkeypatch.setattr(ocr, "_recognised", lambda *arguments, **named: first)
    monkeypatch.setattr(ocr, "_read", read_again)
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        return ocr.read_page(page, ParseOptions(page_seconds=120, languages=("eng",)), []), modes


@OCR
def test_a_page_whose_leaders_lead_to_no_number_is_read_again_as_one_column_to_its_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = _led(5)
    column = _numbered(first, 5)

    kept, modes = _read_again(monkeypatch, first, column)

    assert kept is column and modes.count(ocr.SINGLE_COLUMN) == 1


@OCR
def test_a_column_reading_numbering_fewer_than_half_the_leaders_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = _led(5)

    kept, modes = _read_again(monkeypatch, first, _numbered(first, 2))

    assert kept is first and modes.count(ocr.SINGLE_COLUMN) == 1


@OCR
def test_a_noisy_page_with_leaders_is_not_read_again_as_one_column(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _led(5)

    kept, modes = _read_again(monkeypatch, first, _numbered(first, 5), noisy=True)

    assert kept is first and ocr.SINGLE_COLUMN not in modes


def stepped_blocks(turn: int = 0, seed: int = 5) -> bytes:
    """A 150 dpi grey picture of an A4 page of short paragraphs set at stepped indents, each closed by a
    rule (a guide's layout), turned `turn` degrees clockwise."""
    from PIL import Image

    rng = random.Random(seed)
    words = " ".join(ENGLISH + GERMAN).split()
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        top = 60.0
        for block in range(8):
            writer = pymupdf.TextWriter(page.rect)
            for _ in range(rng.randint(3, 7)):
                line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 8)))
                writer.append((50 + 40 * (block % 4), top), line, font=pymupdf.Font("tiro"), fontsize=10)
                top += 13
            writer.write_text(page)
            top += 20
            page.draw_line((50, top - 12), (545, top - 12))
        picture = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")
    with Image.open(io.BytesIO(picture)) as image:
        buffer = io.BytesIO()
        image.rotate(-turn, expand=True, fillcolor=255).save(buffer, format="PNG", dpi=(150, 150))
    return buffer.getvalue()


@pytest.mark.parametrize("turn", [90, 270])
def test_a_page_turned_a_quarter_is_levelled_by_its_lines_down_the_page(turn: int) -> None:
    """Its rows are about as even at every turn: levelled by them, the stepped indents read as lines
    skewed 5 to 6 degrees, and the page was read straightened by that much."""
    assert abs(ocr.skew_of(rendering(stepped_blocks(turn)))) < ocr.MIN_SKEW


def test_a_skewed_page_turned_a_quarter_is_levelled_by_its_lines_down_the_page() -> None:
    from PIL import Image

    with Image.open(io.BytesIO(stepped_blocks(90))) as turned:
        buffer = io.BytesIO()
        turned.rotate(-3, expand=True, fillcolor=255).save(buffer, format="PNG", dpi=(150, 150))
    assert ocr.skew_of(rendering(buffer.getvalue())) == pytest.approx(3.0, abs=0.3)


def tiny_print_on_grey(turn: int) -> pymupdf.Page:
    """A page of 5-point sans-serif italic on a light grey ground (an invoice's shaded boxes), as a
    150 dpi picture turned `turn` degrees clockwise."""
    from PIL import Image

    with Image.open(io.BytesIO(samples.scan_png(ENGLISH * 4, fontsize=5, font="heit"))) as upright:
        buffer = io.BytesIO()
        grey = upright.point(lambda value: min(value, 215))
        grey.rotate(-turn, expand=True, fillcolor=255).save(buffer, format="PNG", dpi=(150, 150))
    return pymupdf.open(stream=buffer.getvalue(), filetype="png")[0]


@OCR
@pytest.mark.parametrize("turn", [180, 270])
def test_tiny_print_that_a_coarse_probe_reads_as_garble_every_way_is_turned_by_a_finer_one(turn: int) -> None:
    """At 100 dpi the probe reads doubtfully every way up, and the page was read as it lay."""
    page = tiny_print_on_grey(turn)
    found = ocr._turn(ocr._tesseract(), page, 150, 0.0, "eng", ocr.tessdata())
    assert found % 360 == (360 - turn) % 360


@OCR
def test_an_upright_page_read_confidently_at_100_dpi_is_probed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    tesseract = ocr._tesseract()
    readings = []
    original = type(tesseract).words

    def counted(self: object, *arguments: object, **keywords: object) -> list[ocr.Word]:
        readings.append(arguments[4])  # the resolution
        return original(self, *arguments, **keywords)  # type: ignore[arg-type]

    monkeypatch.setattr(type(tesseract), "words", counted)
    page = pymupdf.open(stream=samples.scan_png(ENGLISH * 3), filetype="png")[0]

    assert ocr._turn(tesseract, page, 150, 0.0, "eng", ocr.tessdata()) == 0
    assert readings == [ocr.SEARCH_DPI]


def probe_reading(confidence: float, words: int = 20, turn: int = 0) -> ocr.Reading:
    word = ocr.Word((1, 1, 1), (0.0, 0.0, 10.0, 10.0), "word", confidence)
    return ocr.Reading((word,) * words, pymupdf.Identity, 100, turn)


def test_a_small_probe_read_confidently_as_it_lies_settles_the_way_up() -> None:
    readings = {0: probe_reading(92.0)}
    assert ocr._clear_turn({0: 92.0}, readings, down=False)
    assert ocr._best_turn({0: 92.0}, down=False) == (0, 92.0, True)


def test_a_small_probe_whose_two_ways_read_about_as_well_leaves_the_way_up_in_doubt() -> None:
    readings = {90: probe_reading(80.0, turn=90), 270: probe_reading(74.0, turn=270)}
    assert not ocr._clear_turn({90: 80.0, 270: 74.0}, readings, down=True)
    readings = {0: probe_reading(60.0), 180: probe_reading(85.0, turn=180)}
    assert ocr._clear_turn({0: 60.0, 180: 85.0}, readings, down=False)


def test_a_small_probe_whose_chosen_way_reads_few_words_or_doubtfully_leaves_the_way_up_in_doubt() -> None:
    few = {90: probe_reading(95.0, words=ocr.FEW_WORDS - 1, turn=90), 270: probe_reading(20.0, turn=270)}
    assert not ocr._clear_turn({90: 95.0, 270: 20.0}, few, down=True)
    doubtful = {0: probe_reading(40.0), 180: probe_reading(65.0, turn=180)}
    assert not ocr._clear_turn({0: 40.0, 180: 65.0}, doubtful, down=False)


@OCR
def test_an_upright_page_is_probed_in_the_small_window_only(monkeypatch: pytest.MonkeyPatch) -> None:
    tesseract = ocr._tesseract()
    sides = []
    original = type(tesseract).words

    def counted(self: object, *arguments: object, **keywords: object) -> list[ocr.Word]:
        sides.append(max(arguments[1], arguments[2]))  # type: ignore[call-overload]
        return original(self, *arguments, **keywords)  # type: ignore[arg-type]

    monkeypatch.setattr(type(tesseract), "words", counted)
    page = pymupdf.open(stream=samples.scan_png(ENGLISH * 3), filetype="png")[0]

    assert ocr._turn(tesseract, page, 150, 0.0, "eng", ocr.tessdata()) == 0
    assert len(sides) == 1 and sides[0] <= ocr.SMALL_PROBE_PIXELS * 2


@OCR
def test_a_small_probe_left_in_doubt_is_read_again_in_the_whole_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tesseract = ocr._tesseract()
    sides = []
    original = type(tesseract).words

    def doubtful_when_small(self: object, *arguments: object, **keywords: object) -> list[ocr.Word]:
        side = max(arguments[1], arguments[2])  # type: ignore[call-overload]
        sides.append(side)
        words = original(self, *arguments, **keywords)  # type: ignore[arg-type]
        return words[: ocr.FEW_WORDS - 1] if side <= ocr.SMALL_PROBE_PIXELS else words

    monkeypatch.setattr(type(tesseract), "words", doubtful_when_small)
    page = pymupdf.open(stream=samples.scan_png(ENGLISH * 6), filetype="png")[0]

    assert ocr._turn(tesseract, page, 150, 0.0, "eng", ocr.tessdata()) == 0
    assert sides[:2] == [ocr.SMALL_PROBE_PIXELS] * 2 and max(sides) > ocr.SMALL_PROBE_PIXELS


@OCR
@pytest.mark.parametrize("turn", [90, 180, 270])
def test_a_page_turned_any_way_is_read_upright_from_its_probes(turn: int) -> None:
    from PIL import Image

    with Image.open(io.BytesIO(samples.scan_png(ENGLISH * 4))) as upright:
        buffer = io.BytesIO()
        upright.rotate(-turn, expand=True, fillcolor=255).save(buffer, format="PNG", dpi=(150, 150))
    page = pymupdf.open(stream=buffer.getvalue(), filetype="png")[0]
    found = ocr._turn(ocr._tesseract(), page, 150, 0.0, "eng", ocr.tessdata())
    assert found % 360 == (360 - turn) % 360


def test_a_page_longer_than_tesseract_takes_is_read_coarser_within_its_side() -> None:
    document = pymupdf.open()
    page = document.new_page(width=6 * 72, height=240 * 72)  # a roll 6 inches wide, 20 feet long
    warnings: list[str] = []
    dpi = ocr._dpi(page, 150, warnings)
    assert dpi is not None and 240 * dpi <= ocr.MAX_PICTURE_SIDE < 240 * (dpi + 1)
    assert warnings == [f"the page is very large; OCR ran at {dpi} dpi"]
