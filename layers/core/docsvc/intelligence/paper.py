"""Paper: a page's size, and the standard paper sizes a page set on one of them is on.

Kept apart from the models that weigh it (splitting) so that the engine, which gives each page's size,
and the domain, which carries it, name one type without loading them."""

from __future__ import annotations

# A page's width and height in points (1/72 inch) as shown: a PDF page's rectangle (an OCR'd page's
# upright), an image's pixels at its resolution. Documents of one packet printed apart often differ in it
# (A4 and Letter, a landscape page), which tells where one ends.
PageSize = tuple[float, float]

PAPER_SLACK = 0.02  # the share of a side a page may differ by from a standard paper size and be that paper
# Standard paper sizes in points, portrait (A4, US Letter, US Legal, A3, A5): a scan on one of them was
# set to that paper; a scan on none was cropped to what it shows.
PAPERS: tuple[PageSize, ...] = (
    (595.0, 842.0),
    (612.0, 792.0),
    (612.0, 1008.0),
    (842.0, 1191.0),
    (420.0, 595.0),
)


def on_paper(size: PageSize | None) -> bool:
    """Whether a page's size is a standard paper's (PAPERS), upright or landscape, within PAPER_SLACK
    of each side."""
    if size is None:
        return False
    width, height = size
    return any(
        within(width, side, PAPER_SLACK) and within(height, other, PAPER_SLACK)
        for paper in PAPERS
        for side, other in (paper, paper[::-1])
    )


def within(one: float, other: float, share: float) -> bool:
    """Whether two lengths differ by no more than `share` of the longer."""
    return abs(one - other) <= share * max(one, other)
