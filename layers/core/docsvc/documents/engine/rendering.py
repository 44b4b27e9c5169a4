"""Pages as pictures for models that take images: a JPEG of the page as shown (its /Rotate applied),
at the request's resolution, made smaller when it would pass what the model providers take.

Bedrock's Converse takes images of at most 8000 pixels a side and 3.75 MB; OpenAI-compatible endpoints
scale anything over 2048 pixels down anyway. A page is therefore drawn with its longer side at most
MAX_SIDE pixels, and its JPEG quality is lowered until it is under MAX_BYTES.
"""

from __future__ import annotations

import pymupdf

MAX_SIDE = 2000  # pixels
MAX_BYTES = 3_500_000
QUALITIES = (85, 70, 50, 30)


def page_jpeg(page: pymupdf.Page, dpi: int) -> bytes:
    """The page in colour at `dpi` (less for a page whose longer side would pass MAX_SIDE), as JPEG."""
    longer = max(page.rect.width, page.rect.height) / 72  # inches
    scale = min(dpi, MAX_SIDE / longer if longer > 0 else dpi) / 72
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB, alpha=False)
    image = b""
    for quality in QUALITIES:
        image = pixmap.tobytes("jpeg", jpg_quality=quality)
        if len(image) <= MAX_BYTES:
            break
    return image
