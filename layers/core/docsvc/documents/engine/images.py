"""HEIC/HEIF photos (iPhone pictures): decoded by pillow-heif, then read as a PNG by the image reader
(`pdf`: OCR). A page is the file's primary image; the other images of a burst or a sequence are not
read.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from docsvc.documents.engine import pdf
from docsvc.documents.engine.errors import DamagedDocument, DecompressionLimit
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.ocr import MAX_OCR_PIXELS, reason


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
