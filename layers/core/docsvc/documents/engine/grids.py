"""Tables as grids of whole words, independent of the PDF library.

A table is a box cut into rows and columns (`Grid`). Its cells are filled with the page's words whose
centre falls in them, whole: a word is never cut at a column's edge, and each word of the page goes
to exactly one place, a cell of one table or the text around the tables (`assemble`). So a table adds
structure to the page's words and never loses, cuts or repeats one.

Tables without ruling lines are found from the words alone (`aligned_grids`): runs of lines that
break at the same columns of whitespace, with short cells, at least three columns and three rows.
"""

from __future__ import annotations

import re
from bisect import bisect, bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import pairwise
from operator import attrgetter, itemgetter
from statistics import median
from typing import Any, Generic, TypeVar

from docsvc.documents.engine.layout import RIGHT_TO_LEFT, overlaps

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y downwards
_T = TypeVar("_T")


class _Once(Generic[_T]):
    """A value of an instance computed on its first read and kept in the instance's dict, where later
    reads find it without a call (`functools.cached_property` does the same, but takes a lock on each
    first read in Python 3.11: a page has thousands of lines and words)."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self.compute, self.name = compute, compute.__name__

    def __get__(self, instance: Any, owner: type | None = None) -> _T:
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


@dataclass(frozen=True, init=False)
class Word:
    box: Box
    text: str
    block: int  # the text block it belongs to, in the page's order
    order: int  # its place among the page's words (the producer's reading order)

    def __init__(self, box: Box, text: str, block: int, order: int) -> None:
        # A page has hundreds of words: set straight into the instance's dict, not through the frozen
        # class's guard (nor through keyword arguments, which build a dict of their own).
        fields = self.__dict__
        fields["box"], fields["text"], fields["block"], fields["order"] = box, text, block, order

    @_Once
    def centre(self) -> tuple[float, float]:
        box = self.box
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass(frozen=True)
class Grid:
    """A table's box, and the x of the lines between its columns and the y of those between its rows.

    A ruled table also has its `cells` as drawn: a cell that spans several rows or columns of the grid
    keeps its words in the first of them (its text is not split across the grid's lines)."""

    box: Box
    columns: tuple[float, ...]
    rows: tuple[float, ...]
    cells: tuple[Box, ...] = ()
    joints: tuple[float, ...] = ()  # heights where its vertical rules are drawn in two pieces (`_joints`)
    cell_joints: tuple[float, ...] = ()  # x of column edges taken from its rules' pieces (`_cell_joints`)

    def holds(self, word: Word) -> bool:
        x, y = word.centre
        return self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]

    def cell_of(self, word: Word) -> tuple[int, int]:
        x, y = word.centre
        place = bisect(self.rows, y), bisect(self.columns, x)
        return self._anchors.get(place, place)

    @cached_property
    def _anchors(self) -> dict[tuple[int, int], tuple[int, int]]:
        """Each place of the grid that a spanning cell covers, to the place of that cell's top left."""
        anchors: dict[tuple[int, int], tuple[int, int]] = {}
        for x0, y0, x1, y1 in self.cells:
            first_row, last_row = bisect(self.rows, y0 + _SNAP), bisect(self.rows, y1 - _SNAP)
            first_column, last_column = bisect(self.columns, x0 + _SNAP), bisect(self.columns, x1 - _SNAP)
            if first_row == last_row and first_column == last_column:
                continue
            for row in range(first_row, last_row + 1):
                for column in range(first_column, last_column + 1):
                    anchors[(row, column)] = (first_row, first_column)
        return anchors

    @property
    def area(self) -> float:
        return (self.box[2] - self.box[0]) * (self.box[3] - self.box[1])


@dataclass
class _Table:
    grid: Grid
    words: list[Word] = field(default_factory=list)

    def rows(self) -> list[list[list[Word]]]:
        """The cells' words, in reading order; rows and columns left empty are dropped."""
        cells: dict[tuple[int, int], list[Word]] = {}
        for word in self.words:
            cells.setdefault(self.grid.cell_of(word), []).append(word)
        used_rows = sorted({row for row, _ in cells})
        used_columns = sorted({column for _, column in cells})
        return [
            [_in_line_order(sorted(cells.get((row, column), []), key=_order)) for column in used_columns]
            for row in used_rows
        ]


_ONE_LINE = 0.4  # of a word's height: words whose middles lie this close are on one printed line


def _in_line_order(cell: list[Word]) -> list[Word]:
    """A cell's words of one printed line, left to right: a producer may write a line's pieces out of
    order ("Handelsrechnung (380)", then the date printed far right, then "Nr. 471102 vom" between).
    A cell of several lines, or with right-to-left words, keeps the producer's order."""
    if len(cell) < 2:
        return cell
    middles = [word.centre[1] for word in cell]
    if max(middles) - min(middles) > _ONE_LINE * min(word.height for word in cell):
        return cell  # two lines, though their words' boxes may overlap
    if any(RIGHT_TO_LEFT.search(word.text) for word in cell):
        return cell
    return sorted(cell, key=_left)


Cells = list[list[list[Word]]]  # a table's rows of cells, each cell its words


def _order(word: Word) -> int:
    return word.order


Render = Callable[[list[list[str]]], str]
Piece = tuple[Box, str]


def assemble(
    blocks: Sequence[tuple[Box, str, int]],
    words: Sequence[Word],
    grids: Sequence[Grid],
    render: Render,
    gone_on: Mapping[int, tuple[int, str]] | None = None,
) -> list[str]:
    """The page's texts in order: each block as it is, or, where some of its words belong to a table,
    the block's other words around the table, which stands where its first word was.

    `blocks` are (box, text, block number) in reading order (a block may come as several pieces, its
    columns, which share its number); `words` carry the number of their block and are the words of
    its text (see `textlayer.whole_words`). A word goes to the smallest grid that holds its centre; a
    grid that ends up with fewer than two rows or columns of words is no table, and its words stay
    text. Tables only add structure: tables and the blocks they take words from form regions (tables
    that share a block are one), and a region is written as its blocks' own texts, without tables,
    unless its blocks' words are their texts' words (each word then lands exactly once, in a cell or
    around the tables) and its tables neither cut a word hyphenated at a line's end (within a block or
    from one block to the next, as when each line is a block of its own) nor join two
    words the text does not join. Rows that cut one in a column are first joined into one row, and a
    first or last row that goes on with the text around the table is given back to the text; failing
    that, the words of each hyphenated word a table cuts or makes, with the rest of its run of
    hyphenated pieces, are taken out of the tables and written as text after them (`_cut_words_out`).

    `gone_on` gives runs of blocks that are pieces of one block, cut where a vector path crosses a
    line (`textlayer.lines_gone_on`): {index of the first: (index after the last, the block's text)};
    a run none of whose words is in a table is written as that one block.
    """
    tables = [_Table(grid) for grid in sorted(grids, key=lambda grid: grid.area)]
    boxes = [(table.grid.box, table.words) for table in tables]
    for word in words:  # into the smallest grid that holds it (`Grid.holds`, without a call a grid)
        x, y = word.centre
        for (x0, y0, x1, y1), own in boxes:
            if x0 <= x <= x1 and y0 <= y <= y1:
                own.append(word)
                break
    cells: dict[int, Cells] = {}
    owner: dict[int, int] = {}
    for index, table in enumerate(tables):
        rows = table.rows()
        if _is_table(rows):
            cells[index] = rows
            owner.update((word.order, index) for word in table.words)
    by_block: dict[int, list[Word]] = {}
    for word in words:
        by_block.setdefault(word.block, []).append(word)
    texts_of: dict[int, list[str]] = {}
    for _, text, number in blocks:
        texts_of.setdefault(number, []).append(text)
    # Over the page: a block may end with a hyphenated word's first half and the next block go on.
    hyphenated = _hyphenated(words) if cells else []
    for region, numbers in _regions(tables, cells):
        if all(_spelled_by(by_block[number], texts_of.get(number)) for number in numbers):
            broken = [
                (word, after) for word, after in hyphenated if word.block in numbers or after.block in numbers
            ]
            if _whole(broken, {index: cells[index] for index in region}):
                continue
            wrapped = {index: _hyphens_joined(cells[index]) for index in region}
            if _whole(broken, wrapped):  # a cell's lines taken for rows: one row
                cells.update(wrapped)
                continue
            trimmed = _edges_trimmed(broken, wrapped)
            if _whole(broken, trimmed) and all(_is_table(rows) for rows in trimmed.values()):
                cells.update(trimmed)  # a row that goes on with the text around the table is text
                kept = {
                    word.order for rows in trimmed.values() for row in rows for cell in row for word in cell
                }
                for index in region:
                    for word in tables[index].words:
                        if word.order not in kept:
                            owner.pop(word.order, None)
                continue
            loose = _cut_words_out(broken, wrapped, _hyphen_chains(words))
            if loose is not None:  # the words a table cuts are text after it; the table stays
                left = _places(loose)  # the words left in the tables
                for index in region:
                    for word in tables[index].words:
                        if word.order not in left:
                            owner.pop(word.order, None)
                    if _is_table(loose[index]):
                        cells[index] = loose[index]
                    else:  # too little is left of it: its words are text
                        del cells[index]
                        for word in tables[index].words:
                            owner.pop(word.order, None)
                continue
        for index in region:  # the region is written as its blocks' own text
            del cells[index]
            for word in tables[index].words:
                owner.pop(word.order, None)
    rendered = {
        index: render([[" ".join(word.text for word in cell) for cell in row] for row in rows])
        for index, rows in cells.items()
    }

    texts: list[str] = []
    placed: set[int] = set()
    rebuilt: set[int] = set()
    in_table = {word.block for table in tables for word in table.words if word.order in owner}
    runs = gone_on or {}
    index = 0
    while index < len(blocks):
        end, whole = runs.get(index, (index + 1, ""))
        if end > index + 1 and not any(number in in_table for _, _, number in blocks[index:end]):
            texts.append(whole)
            index = end
            continue
        _, text, number = blocks[index]
        index += 1
        if number not in in_table:
            texts.append(text)
            continue
        if number in rebuilt:  # another piece of a block already written from its words
            continue
        rebuilt.add(number)
        for run in _runs(by_block[number], owner):
            if isinstance(run, int):
                if run not in placed:
                    placed.add(run)
                    texts.append(rendered[run])
            else:
                texts.append(_lines(run))
        texts.append(" ".join(_unprinted(by_block[number], texts_of.get(number))))
    return [text for text in texts if text]


def _spelled_by(words: Sequence[Word], texts: Sequence[str] | None) -> bool:
    """Whether a block's words are the words of its text (its pieces' `texts`), as a multiset, but for
    the text's runs of control characters that no word holds (`_unprinted`)."""
    if texts is None:
        return False
    text = " ".join(texts)
    parts = [part for word in words for part in word.text.split()]
    if not _UNPRINTED.search(text):  # as a rule: the same words, sorted alike
        return sorted(parts) == sorted(text.split())
    have, want = Counter(parts), Counter(text.split())
    return not have - want and all(_UNPRINTED.fullmatch(part) for part in want - have)


# A glyph of a symbol font without Unicode values may be read as a control character (Zapf Dingbats'
# codes below 32); MuPDF's words leave such characters out, as spaces, where the block's text keeps them.
_UNPRINTED = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]+")


def _unprinted(words: Sequence[Word], texts: Sequence[str] | None) -> list[str]:
    """The runs of control characters of a block's text that none of its words holds: written after the
    block's words where a table takes them, so that the text keeps every one."""
    if not any(_UNPRINTED.search(text) for text in texts or ()):  # as a rule: no run to keep
        return []
    have = Counter(part for word in words for part in word.text.split())
    missing = Counter(" ".join(texts or ()).split()) - have
    return [part for part, count in missing.items() for _ in range(count) if _UNPRINTED.fullmatch(part)]


_BROKEN_AT_END = re.compile(r"\w-$")
_WORD_AT_START = re.compile(r"^\w")


def _hyphenated(words: Sequence[Word]) -> list[tuple[Word, Word]]:
    """The words (of a block, or a cell) that end a line with a hyphen after a letter or digit, each
    with the word that follows it, on a line below, starting with one: the halves of a hyphenated
    word."""
    ordered = sorted(words, key=_order)
    return [
        (word, after)
        for word, after in pairwise(ordered)
        if _goes_on(word, after) and after.box[1] >= word.box[3] - word.height / 2
    ]


def _goes_on(word: Word, after: Word) -> bool:
    """Does `word` end with a hyphen after a letter or digit, and `after` start with one?"""
    return bool(_BROKEN_AT_END.search(word.text) and _WORD_AT_START.match(after.text))


def _places(tables: dict[int, Cells]) -> dict[int, tuple[int, int, int]]:
    """Each word of the tables (its order) to its table's index, its row and its column."""
    return {
        word.order: (index, row, column)
        for index, rows in tables.items()
        for row, cells in enumerate(rows)
        for column, cell in enumerate(cells)
        for word in cell
    }


def _edges_trimmed(broken: Sequence[tuple[Word, Word]], tables: dict[int, Cells]) -> dict[int, Cells]:
    """The tables without their first or last row where it holds a half of a hyphenated word whose
    other half is outside the tables (the line that ends a paragraph above a table, taken for its
    first row), and without the columns left empty."""
    place = _places(tables)
    edges: dict[int, set[int]] = {}
    for word, after in broken:
        first, second = place.get(word.order), place.get(after.order)
        for inside, other in ((first, second), (second, first)):
            if inside is not None and other is None and inside[1] in (0, len(tables[inside[0]]) - 1):
                edges.setdefault(inside[0], set()).add(inside[1])
    trimmed: dict[int, Cells] = {}
    for index, rows in tables.items():
        kept = [row for number, row in enumerate(rows) if number not in edges.get(index, set())]
        used = [
            column
            for column in range(max((len(row) for row in kept), default=0))
            if any(column < len(row) and row[column] for row in kept)
        ]
        trimmed[index] = [[row[column] for column in used] for row in kept]
    return trimmed


def _is_table(rows: Cells) -> bool:
    return len(rows) >= 2 and max((len(row) for row in rows), default=0) >= 2


def _whole(broken: Sequence[tuple[Word, Word]], tables: dict[int, Cells]) -> bool:
    """Whether the tables leave each hyphenated word whole (both halves outside the tables or in one
    cell; halves in two cells, two tables, or a table and the text around it are a word cut) and
    make none of two words that the text does not join (a cell whose line ends with a hyphen, the
    next line of the cell another word of the text)."""
    place = _places(tables)
    if not all(place.get(word.order) == place.get(after.order) for word, after in broken):
        return False
    joined = {(word.order, after.order) for word, after in broken}
    return all(
        (word.order, after.order) in joined
        for rows in tables.values()
        for row in rows
        for cell in row
        for word, after in _hyphenated(cell)
    )


def _hyphen_chains(words: Sequence[Word]) -> dict[int, set[int]]:
    """Each word (its order) of a run of words, in the page's order, each of which but the last ends
    with a hyphen after a letter or digit and is followed by one that starts with a letter or digit,
    to the orders of its run's words: read as text, the run is one word, whatever lines or cells its
    words stand in (a row's two cells, each ending with a hyphen, read across before the lines
    below them)."""
    chains: dict[int, set[int]] = {}
    run: set[int] = set()
    previous: Word | None = None
    for word in sorted(words, key=_order):
        if previous is not None and _goes_on(previous, word):
            run.add(word.order)
        else:
            run = {word.order}
        chains[word.order] = run
        previous = word
    return chains


def _cut_words_out(
    broken: Sequence[tuple[Word, Word]], tables: dict[int, Cells], chains: Mapping[int, set[int]]
) -> dict[int, Cells] | None:
    """The tables without the words of each hyphenated word they cut or make (`_whole`), nor the
    rest of that word's run of hyphenated pieces (`chains`): those words are then text, where the
    page's order puts them (after the table), joined as the text joins them, while the table keeps
    its other cells. None when there is no such word, or the tables still cut one."""
    place = _places(tables)
    joined = {(word.order, after.order) for word, after in broken}
    bad = {
        half.order
        for word, after in broken
        if place.get(word.order) != place.get(after.order)
        for half in (word, after)
    }
    bad |= {
        half.order
        for rows in tables.values()
        for row in rows
        for cell in row
        for word, after in _hyphenated(cell)
        if (word.order, after.order) not in joined
        for half in (word, after)
    }
    if not bad:
        return None
    out = {order for first in bad for order in chains.get(first, {first})}
    stripped = {
        index: [
            row
            for row in ([[w for w in cell if w.order not in out] for cell in row] for row in rows)
            if any(row)
        ]
        for index, rows in tables.items()
    }
    return stripped if _whole(broken, stripped) else None


def _hyphens_joined(rows: Cells) -> Cells:
    """The rows, each row whose cell goes on with a word that the cell above broke with a hyphen at
    its end (a cell's lines taken for rows) joined to the row above, cell by cell."""
    joined: Cells = []
    for row in rows:
        above = joined[-1] if joined else None
        if above is not None and any(
            top and cell and _BROKEN_AT_END.search(top[-1].text) and _WORD_AT_START.match(cell[0].text)
            for top, cell in zip(above, row, strict=True)
        ):
            joined[-1] = [top + cell for top, cell in zip(above, row, strict=True)]
        else:
            joined.append(row)
    return joined


def _regions(tables: Sequence[_Table], kept: dict[int, Cells]) -> list[tuple[list[int], set[int]]]:
    """The kept tables grouped with the blocks they take words from: tables that share a block are
    one region. Each region: its tables' indexes and its blocks' numbers."""
    regions: list[tuple[list[int], set[int]]] = []
    for index in kept:
        numbers = {word.block for word in tables[index].words}
        joined = [region for region in regions if region[1] & numbers]
        regions = [region for region in regions if not region[1] & numbers]
        for _, others in joined:
            numbers |= others
        regions.append(([index, *(i for region in joined for i in region[0])], numbers))
    return regions


def _runs(own: Sequence[Word], owner: dict[int, int]) -> list[list[Word] | int]:
    """A block's words in reading order: runs of words of no table, and where a table's words are,
    the table's index (once for each stretch of its words)."""
    pieces: list[list[Word] | int] = []
    run: list[Word] = []
    for word in sorted(own, key=_order):
        index = owner.get(word.order)
        if index is None:
            run.append(word)
            continue
        if run:
            pieces.append(run)
            run = []
        pieces.append(index)
    if run:
        pieces.append(run)
    return pieces


def _lines(words: Sequence[Word]) -> str:
    """Words as lines of text: a new line where a word starts left of the one before it and below it."""
    lines: list[list[str]] = [[]]
    previous: Word | None = None
    for word in words:
        if previous is not None and word.box[1] >= previous.box[3] - previous.height / 2:
            lines.append([])
        lines[-1].append(word.text)
        previous = word
    return "\n".join(" ".join(line) for line in lines if line)


# ---------------------------------------------------------------------------------------- rules
_SNAP = 3.0  # points: rules this close are one rule; a rule reaching this close to another meets it

Segment = tuple[float, float, float]  # a rule: where it stands (y of a horizontal, x of a vertical), from, to


def ruled_grids(horizontal: Sequence[Segment], vertical: Sequence[Segment]) -> list[Grid]:
    """The tables that ruling lines draw: the cells enclosed by rules, grouped into tables by the
    corners they share (the lattice a ruled table is), each as a grid of its columns and rows."""
    rows_of = _joined(horizontal)
    edges = _cell_joints(horizontal, vertical)
    columns_of = _joined([*vertical, *edges])
    columns_of = _joined([*columns_of, *_open_sides(rows_of, columns_of)])
    crossings: dict[int, list[tuple[float, int]]] = {}  # horizontal rule -> (x, vertical rule) it meets
    downward: dict[int, list[tuple[float, int]]] = {}  # vertical rule -> (y, horizontal rule) it meets
    met: set[tuple[int, int]] = set()
    by_y = sorted(range(len(rows_of)), key=lambda index: rows_of[index][0])
    ys = [rows_of[index][0] for index in by_y]
    for v, (x, top, bottom) in enumerate(columns_of):
        for h in by_y[bisect(ys, top - _SNAP - 1e-9) : bisect(ys, bottom + _SNAP)]:
            y, left, right = rows_of[h]
            if left - _SNAP <= x <= right + _SNAP:
                crossings.setdefault(h, []).append((x, v))
                downward.setdefault(v, []).append((y, h))
                met.add((v, h))
    for points in (*crossings.values(), *downward.values()):
        points.sort()
    heights = {v: [y for y, _ in points] for v, points in downward.items()}
    cells: list[Box] = []
    for h, points in crossings.items():
        y = rows_of[h][0]
        xs = [x for x, _ in points]
        for index, (x, v) in enumerate(points):
            below = downward[v][bisect(heights[v], y + _SNAP) :]  # the rules it meets lower
            if not below:
                continue
            right = bisect(xs, x + _SNAP, index + 1)  # the first rule it meets further than _SNAP right
            cell = next(
                ((x, y, x2, y2) for x2, v2 in points[right:] for y2, h2 in below if (v2, h2) in met), None
            )
            if cell is not None:
                cells.append(cell)
    grids = [_lattice(group) for group in _touching(cells)]
    grids = [grid for grid in grids if grid.columns and grid.rows]  # a lone box is no table
    grids = [_joints(grid, vertical) for grid in grids]
    grids = [_with_cell_joints(grid, edges) for grid in grids] if edges else grids
    grids += _row_rule_frames(rows_of, columns_of)
    return grids + _column_rules([rule for index, rule in enumerate(columns_of) if index not in downward])


_CELL_RULE = 12.0  # points, at least: a piece of a rule drawn a cell at a time is as wide as a cell


def _cell_joints(horizontal: Sequence[Segment], vertical: Sequence[Segment]) -> list[Segment]:
    """Column edges of a table whose horizontal rules are drawn a cell at a time and no vertical rule
    between its columns: where more than `_FRAME_RULES` rules of one span (`_by_span`), one under the
    other, each have a piece ending where another starts at the same xs (all of them: tables of other
    columns stacked under it, their rules as wide, stop the run), a vertical rule at each down from the
    first to the last of them. Joining the pieces into one rule (`_joined`) would lose those edges; a
    cell spanning columns (a header over two) is drawn in one piece, so there the rules above it stop
    the run; one whose rules are still drawn a column at a time is found from its words
    (`_spans_over_cell_joints`). Three such rules alone (above a table, under its header, below it)
    stay a frame (`_row_rule_frames`), whose rows the words give: its body is one band of many lines.
    Where vertical rules are drawn down most of the way at that x (`_drawn_at`), they part the
    columns (and leave a spanning cell whole where they stop), so no edge is added there. Only pieces
    of `_CELL_RULE` or more meet: the narrowest cell holds a character or two and their padding, while
    a dashed or dotted rule (prose on ruled lines, a table's dashed row rules) is drawn in dashes of a
    few points, whose ends part nothing."""
    meeting: dict[Segment, tuple[float, ...]] = {}  # a whole rule -> the x where its pieces meet
    for line in _on_lines(horizontal):
        at = sum(segment[0] for segment in line) / len(line)
        left, right = min(piece[1] for piece in line), max(piece[2] for piece in line)
        cells = [piece for piece in line if piece[2] - piece[1] >= _CELL_RULE]  # no dash of a dashed rule
        starts = sorted(piece[1] for piece in cells)
        meeting[(at, left, right)] = _distinct(
            end
            for _, _, end in cells
            if left + _SNAP < end < right - _SNAP
            and bisect(starts, end + _SNAP) > bisect_left(starts, end - _SNAP)  # another piece starts there
        )
    edges: list[Segment] = []
    for same in _by_span(list(meeting)):
        if len(same) < _FRAME_RULES:
            continue
        run: list[Segment] = []  # rules one under the other whose pieces meet at the same xs
        for rule in [*sorted(same), None]:
            if rule is not None and meeting[rule] and (not run or _same_xs(meeting[rule], meeting[run[0]])):
                run.append(rule)
                continue
            if len(run) > _FRAME_RULES:
                top, bottom = run[0][0], run[-1][0]
                edges += [
                    (x, top, bottom) for x in meeting[run[0]] if not _drawn_at(x, top, bottom, vertical)
                ]
            run = [rule] if rule is not None and meeting[rule] else []
    return edges


def _same_xs(xs: Sequence[float], others: Sequence[float]) -> bool:
    return len(xs) == len(others) and all(
        abs(x - other) <= _SNAP for x, other in zip(xs, others, strict=True)
    )


def _with_cell_joints(grid: Grid, edges: Sequence[Segment]) -> Grid:
    """The grid with the x of those of its column edges that `_cell_joints` added."""
    xs = _distinct(
        x
        for x, top, bottom in edges
        if grid.box[0] < x < grid.box[2] and top < grid.box[3] and bottom > grid.box[1]
    )
    return replace(grid, cell_joints=xs) if xs else grid


def _spans_over_cell_joints(grid: Grid, words: Sequence[Word]) -> Grid:
    """A ruled grid whose cells on both sides of a column edge taken from its rules' pieces
    (`_cell_joints`) are one cell where a line of words runs across the edge (`_runs_across`): a value
    spanning the columns, its rules still drawn a column at a time."""
    if not grid.cell_joints:
        return grid
    held = sorted((word for word in words if grid.holds(word)), key=lambda word: word.centre[1])
    heights = [word.centre[1] for word in held]
    cells = set(grid.cells)
    for x in grid.cell_joints:
        starting = {
            (round(cell[1] / _SNAP), round(cell[3] / _SNAP)): cell
            for cell in cells
            if abs(cell[0] - x) <= _SNAP
        }
        pairs: list[tuple[Box, Box, tuple[float, float] | None]] = []  # cells either side, the gap at x
        for left in [cell for cell in cells if abs(cell[2] - x) <= _SNAP]:
            right = starting.get((round(left[1] / _SNAP), round(left[3] / _SNAP)))
            if right is None:
                continue
            band = held[bisect_left(heights, left[1]) : bisect(heights, left[3])]
            pairs.append(
                (
                    left,
                    right,
                    _gap_across(x, [word for word in band if left[0] <= word.centre[0] <= right[2]]),
                )
            )
        for index, (left, right, gap) in enumerate(pairs):
            others = [
                other[2][0]
                for number, other in enumerate(pairs)
                if number != index and other[2] and other[2][0] > 0
            ]
            if _runs_across(gap, median(others) if others else None):
                cells -= {left, right}
                cells.add((left[0], left[1], right[2], left[3]))
    if cells == set(grid.cells):
        return grid
    return replace(grid, cells=tuple(sorted(cells, key=lambda cell: (cell[1], cell[0]))))


def _gap_across(x: float, words: Sequence[Word]) -> tuple[float, float] | None:
    """The narrowest gap across x between two words of a line of the words (0 where a word stands
    over x) and that line's height; None where no line has words on both sides of x."""
    gaps = []
    for line in visual_lines(words):
        ordered = sorted(line.words, key=_left)
        if any(word.box[0] < x < word.box[2] for word in ordered):
            return 0.0, line.height
        gaps += [
            (after.box[0] - before.box[2], line.height)
            for before, after in pairwise(ordered)
            if before.centre[0] < x < after.centre[0]
        ]
    return min(gaps) if gaps else None


_CLEARLY = 0.6  # of an edge's usual gap in the other rows: a gap this much narrower is a word space


def _runs_across(gap: tuple[float, float] | None, usual: float | None) -> bool:
    """Whether a line runs across a column edge whose gap in it is `gap` (`_gap_across`): a word stands
    over the edge, or two words beside it stand no further apart than words of a line do
    (`_WORD_SPACE`) and clearly (`_CLEARLY`) nearer than the edge's usual gap in the other rows, if
    they have one: an amount set right and a note set left beside it stand a word's space apart
    in every row of the table, which is the columns' gap, not a line across them."""
    if gap is None:
        return False
    width, height = gap
    if width <= 0.0:
        return True
    return width <= _WORD_SPACE * height and (usual is None or width < _CLEARLY * usual)


_DRAWN = 0.5  # of the height between a table's rules: vertical rules drawn down this much part its columns


def _drawn_at(x: float, top: float, bottom: float, vertical: Sequence[Segment]) -> bool:
    """Whether vertical rules at x (within _SNAP) are drawn down most (`_DRAWN`) of the height from
    top to bottom: then they part the columns there, and where they stop a cell spans the columns; a
    box drawn round the header alone is no such rule."""
    spans = sorted(
        (max(min(a, b), top), min(max(a, b), bottom)) for at, a, b in vertical if abs(at - x) <= _SNAP
    )
    covered, reach = 0.0, top
    for start, end in spans:
        if end > reach:
            covered += end - max(start, reach)
            reach = end
    return covered >= _DRAWN * (bottom - top)


_TOUCH = 1.0  # points: a vertical rule's piece ending this close to where the next begins meets it


def _joints(grid: Grid, vertical: Sequence[Segment]) -> Grid:
    """A ruled grid with the heights, inside its rows, where every vertical rule across the row is
    drawn in two pieces that meet, no horizontal rule there: LaTeX draws a tabular's vertical rules a
    row at a time, so there two rows of its source meet (a header of two rows with no rule between,
    "Total" over "ICCG"), while a cell whose text wraps has the rules beside it whole. The words say
    whether they part rows (`_rows_at_joints`)."""
    edges = (grid.box[1], *grid.rows, grid.box[3])
    xs = (grid.box[0], *grid.columns, grid.box[2])
    inside = [rule for rule in vertical if grid.box[0] - _SNAP <= rule[0] <= grid.box[2] + _SNAP]
    joints: list[float] = []
    every_end = sorted(end for _, start, stop in inside for end in (start, stop))
    for top, bottom in pairwise(edges):  # the ends within the row, found in them all by bisection
        ends = _distinct(every_end[bisect(every_end, top + _SNAP) : bisect_left(every_end, bottom - _SNAP)])
        joints += [y for y in ends if _all_rules_meet_at(y, top, bottom, xs, inside)]
    return replace(grid, joints=tuple(joints)) if joints else grid


_ACROSS = 0.25  # of a word's height from its top and bottom: a joint between is across the word


def _rows_at_joints(grid: Grid, words: Sequence[Word]) -> Grid:
    """A ruled grid with a row line at each of its joints that crosses no word's middle (a label
    centred across both lines, LaTeX's multirow, keeps them one row of cells of two lines, as
    `split_stacked_rows` keeps lines under one label spanning them), its drawn cells cut there."""
    added = [
        y
        for y in grid.joints
        if not any(
            grid.holds(word) and word.box[1] + _ACROSS * word.height < y < word.box[3] - _ACROSS * word.height
            for word in words
        )
    ]
    if not added:
        return grid
    cells = tuple(
        piece
        for x0, y0, x1, y1 in grid.cells
        for piece in _cut_between(x0, x1, [y0, *(y for y in added if y0 + _SNAP < y < y1 - _SNAP), y1])
    )
    return replace(grid, rows=tuple(sorted((*grid.rows, *added))), cells=cells, joints=())


def _all_rules_meet_at(
    y: float, top: float, bottom: float, xs: Sequence[float], rules: Sequence[Segment]
) -> bool:
    """Every vertical rule across the row from top to bottom (two at least) is two pieces meeting at y,
    each longer than _SNAP (no dashes)."""
    crossing = 0
    for x in xs:
        pieces = [
            (min(a, b), max(a, b))
            for at, a, b in rules
            if abs(at - x) <= _SNAP and min(a, b) < bottom and max(a, b) > top
        ]
        if not pieces:
            continue
        above = any(abs(stop - y) <= _TOUCH and stop - start > _SNAP for start, stop in pieces)
        below = any(abs(start - y) <= _TOUCH and stop - start > _SNAP for start, stop in pieces)
        through = any(start < y - _TOUCH and stop > y + _TOUCH for start, stop in pieces)
        if not above or not below or through:
            return False
        crossing += 1
    return crossing >= 2


def _cut_between(x0: float, x1: float, ys: Sequence[float]) -> list[Box]:
    return [(x0, top, x1, bottom) for top, bottom in pairwise(ys)]


def _by_span(rules: Sequence[Segment]) -> list[list[Segment]]:
    """Rules grouped by the stretch they run along: both ends in the same `_SNAP`-wide steps
    (`round(end / _SNAP)`), so that rules drawn to the same lengths fall together."""
    groups: dict[tuple[int, int], list[Segment]] = {}
    for rule in rules:
        groups.setdefault((round(rule[1] / _SNAP), round(rule[2] / _SNAP)), []).append(rule)
    return list(groups.values())


def _column_rules(rules: Sequence[Segment]) -> list[Grid]:
    """Vertical rules that meet no horizontal one, grouped by the stretch of the page they run down
    (`_by_span`): each group may part the columns of a table ruled between its columns
    only (LaTeX's `{r|l}`), a grid with no rows yet, its box as narrow as its rules stand: the words
    beside the rules say whether it is a table, and give its rows and width (`_beside_column_rules`)."""
    grids = []
    for same in _by_span(rules):
        columns = _distinct(x for x, _, _ in same)
        box = (columns[0], min(top for _, top, _ in same), columns[-1], max(bottom for _, _, bottom in same))
        grids.append(Grid(box, columns, ()))
    return grids


_FRAME_RULES = 3  # horizontal rules of one span, at least: above a table, under its header, below it
_FRAME_HEADER = 40.0  # points, at most, between two of them (the header's): underlines stand further apart


def _row_rule_frames(rows: Sequence[Segment], columns: Sequence[Segment]) -> list[Grid]:
    """Horizontal rules of one span (`_by_span`), `_FRAME_RULES` or more, with no
    vertical rule between their ends: a table ruled between some of its rows only (above it, under
    its header, below it, as LaTeX's booktabs draws), a grid with no columns, its rows at the rules.
    The words between the rules say whether it is a table of two columns (`_between_row_rules`);
    wider ones are found from the words alone (`aligned_grids`), as tables without rules are.
    A span's rules may frame several tables, one under another (`_frames_of`); under such tables,
    the rule above a header and the one under it, the last rules of the span, open a table the page
    ends before its last rule is drawn: its frame is open below (`_OPEN`)."""
    frames = []
    for same in _by_span(rows):
        if _header_rules(sorted(y for y, _, _ in same)):
            left, right = min(rule[1] for rule in same), max(rule[2] for rule in same)
            top, under = sorted(y for y, _, _ in same)
            if not any(left - _SNAP <= x <= right + _SNAP and bottom > top for x, _, bottom in columns):
                frames.append(Grid((left, top, right, _OPEN), (), (under,)))
            continue
        if len(same) < _FRAME_RULES:
            continue
        left, right = min(rule[1] for rule in same), max(rule[2] for rule in same)
        parts = _frames_of(sorted(y for y, _, _ in same))
        closed = sum(1 for ys in parts if _framing(ys))
        for ys in parts:
            if closed and ys is parts[-1] and len(ys) == 2 and ys[1] - ys[0] <= _FRAME_HEADER:
                ys = [*ys, _OPEN]  # a table whose page ends before its last rule, under the others
            elif not _framing(ys):
                continue
            if any(
                left - _SNAP <= x <= right + _SNAP and top < ys[-1] and bottom > ys[0]
                for x, top, bottom in columns
            ):
                continue  # rules of a lattice, or beside column rules: read as those
            frames.append(Grid((left, ys[0], right, ys[-1]), (), tuple(ys[1:-1])))
    return frames


_OPEN = float("inf")  # the bottom of a frame whose table runs on to the page's end, its last rule not drawn
_FRAME_GAP = 2 * _FRAME_HEADER  # points, at most, between two tables framed by rules of one span


def joined_frames(grids: Sequence[Grid], words: Sequence[Word]) -> list[Grid]:
    """Frames of rules of one span, one under another (`_frames_of`), joined again into one where the
    words between them, within the rules' width, hold a line of two runs of words or more (a row of
    a table ruled between its groups of rows): a new frame opens only after a gap that holds no such
    line (a heading, a caption, prose, or nothing). A frame open below (`_OPEN`) that is joined ends
    at its last rule. Other grids are kept as they are, in their order."""
    joined: list[Grid] = []
    for grid in grids:  # a span's frames come one after another, top to bottom (`_row_rule_frames`)
        above = joined[-1] if joined else None
        if (
            above is None
            or not (_is_frame(above) and _is_frame(grid))
            or above.box[3] == _OPEN
            or abs(above.box[0] - grid.box[0]) > _SNAP
            or abs(above.box[2] - grid.box[2]) > _SNAP
            or not above.box[3] < grid.box[1]
            or not _table_words_between(grid.box[0], above.box[3], grid.box[2], grid.box[1], words)
        ):
            joined.append(grid)
            continue
        rows, bottom = grid.rows, grid.box[3]
        if bottom == _OPEN and rows:
            rows, bottom = rows[:-1], rows[-1]
        box = (above.box[0], above.box[1], above.box[2], bottom)
        joined[-1] = Grid(box, (), (*above.rows, above.box[3], grid.box[1], *rows))
    return joined


def _is_frame(grid: Grid) -> bool:
    return not grid.columns and not grid.cells


def _table_words_between(x0: float, y0: float, x1: float, y1: float, words: Sequence[Word]) -> bool:
    inside = [
        word
        for word in words
        if x0 - _SNAP <= word.box[0] and word.box[2] <= x1 + _SNAP and y0 < word.centre[1] < y1
    ]
    return any(line.runs >= 2 for line in visual_lines(inside))


def _frames_of(ys: Sequence[float]) -> list[list[float]]:
    """Rules of one span (their heights, in order) parted into the frames of the tables they draw,
    one under another: each table's frame opens with a rule above its header and one under it, close
    (`_FRAME_HEADER`), after a gap wider than a header but no wider than a heading between two tables
    (`_FRAME_GAP`), once the frame above has its own header's rules (`_framing`). Rules drawn close
    under every row, rules between groups of rows above a pair that stand close, and a rule between
    groups of rows further above a total row's rules (booktabs' midrules) are one frame; where the
    words in a narrower gap are a table's rows, `joined_frames` joins the frames again."""
    frames: list[list[float]] = []
    for index, y in enumerate(ys):
        opens = (
            index + 1 < len(ys)
            and ys[index + 1] - y <= _FRAME_HEADER
            and (index == 0 or _FRAME_HEADER < y - ys[index - 1] <= _FRAME_GAP)
            and (not frames or _framing(frames[-1]))
        )
        if opens or not frames:
            frames.append([])
        frames[-1].append(y)
    return frames


def _header_rules(ys: Sequence[float]) -> bool:
    """Whether rules of one span at these heights (in order) are only the two drawn above a table's
    header and under it, a header's height apart (`_FRAME_HEADER`), with no rule below the table (its
    rows end where a gap parts them from what follows): the frame they open is open below (`_OPEN`)."""
    return len(ys) == 2 and ys[1] - ys[0] <= _FRAME_HEADER


def _framing(ys: Sequence[float]) -> bool:
    """Whether rules of one span at these heights (in order) may frame a table: `_FRAME_RULES` of
    them, two in a row within `_FRAME_HEADER` (a header's height) of each other: rules under a page's
    headings stand further apart."""
    return len(ys) >= _FRAME_RULES and any(b - a <= _FRAME_HEADER for a, b in pairwise(ys))


def may_hold_ruled_table(pieces: Sequence[Box], rule: float) -> bool:
    """A cheap first look, before a page's drawings are read: could its vector paths, known by the
    boxes of their pieces, draw the rules of a table? Every rule lies within a piece, and is at least
    `rule` long: a horizontal one within a piece at least that wide, a vertical one within a piece at
    least that tall. `ruled_grids` keeps a lattice only with cells in two rows and in two columns,
    whose edges stand more than _SNAP apart: rules at three heights and three x positions (or two
    sides, which `_open_sides` may add from the ends of horizontal rules), so the pieces spread over
    more than twice _SNAP both ways; or vertical rules alone (no piece as wide), which may part the
    columns of a table ruled between its columns only (`_column_rules`); or horizontal rules alone
    that may frame a table ruled between some rows only (`_framing`). A page whose only paths are
    rules under headings, underlines or a row of small marks stops here."""
    wide = tall = False
    left = top = float("inf")
    right = bottom = float("-inf")
    spans: dict[tuple[int, int], list[float]] = {}  # heights of horizontal rules, by span
    for x0, y0, x1, y1 in pieces:
        wide = wide or x1 - x0 >= rule
        tall = tall or y1 - y0 >= rule
        if x1 - x0 >= rule > y1 - y0:  # `_row_rule_frames` may frame a table
            spans.setdefault((round(x0 / _SNAP), round(x1 / _SNAP)), []).append((y0 + y1) / 2)
        left, top, right, bottom = min(left, x0), min(top, y0), max(right, x1), max(bottom, y1)
    if tall:
        return bottom - top > 2 * _SNAP and (not wide or right - left > 2 * _SNAP)
    return any(_framing(ys) or _header_rules(ys) for ys in (sorted(ys) for ys in spans.values()))


def _open_sides(rules: Sequence[Segment], verticals: Sequence[Segment]) -> list[Segment]:
    """The sides of tables drawn without them: where three horizontal rules or more start and end at
    the same x and inner vertical rules run between them, a vertical rule is taken at each end, as far
    down as the inner ones run (rules of the same width elsewhere on the page, such as the lines under
    a form's sections, do not join the table)."""
    sides: list[Segment] = []
    for same in _by_span(rules):
        if len(same) < 3:
            continue
        left, right = min(rule[1] for rule in same), max(rule[2] for rule in same)
        inner = [
            (top, bottom)
            for x, top, bottom in verticals
            if left + _SNAP < x < right - _SNAP
            and sum(top - _SNAP <= rule[0] <= bottom + _SNAP for rule in same) >= 2
        ]
        runs: list[list[float]] = []  # the stretches the inner rules cover, one per table
        for top, bottom in sorted(inner):
            if runs and top <= runs[-1][1] + _SNAP:
                runs[-1][1] = max(runs[-1][1], bottom)
            else:
                runs.append([top, bottom])
        sides += [side for top, bottom in runs for side in ((left, top, bottom), (right, top, bottom))]
    return sides


def _on_lines(segments: Sequence[Segment]) -> list[list[Segment]]:
    """Rules grouped by the line they stand on (within _SNAP of the line's first), each from its
    lower end to its higher."""
    lines: list[list[Segment]] = []
    first = float("-inf")  # where the line being gathered starts
    for segment in sorted((at, a, b) if a <= b else (at, b, a) for at, a, b in segments):
        if segment[0] - first <= _SNAP:
            lines[-1].append(segment)
        else:
            lines.append([segment])
            first = segment[0]
    return lines


def _joined(segments: Sequence[Segment]) -> list[Segment]:
    """Rules on one line (within _SNAP of each other) that overlap or nearly meet, as one rule, at
    their mean position."""
    joined: list[Segment] = []
    for line in _on_lines(segments):
        at = sum(segment[0] for segment in line) / len(line)
        if len(line) == 1:  # most rules are alone on their line
            joined.append((at, line[0][1], line[0][2]))
            continue
        spans: list[list[float]] = []
        for _, start, end in sorted(line, key=_START):
            if spans and start <= spans[-1][1] + _SNAP:
                spans[-1][1] = max(spans[-1][1], end)
            else:
                spans.append([start, end])
        joined += [(at, start, end) for start, end in spans]
    return joined


_START = itemgetter(1)  # of a segment


def _touching(cells: Sequence[Box]) -> list[list[Box]]:
    """Cells grouped by shared corners (rounded to _SNAP)."""
    parent = list(range(len(cells)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    owner: dict[tuple[int, int], int] = {}
    for index, (x0, y0, x1, y1) in enumerate(cells):
        left, top, right, bottom = round(x0 / _SNAP), round(y0 / _SNAP), round(x1 / _SNAP), round(y1 / _SNAP)
        for key in ((left, top), (right, top), (left, bottom), (right, bottom)):
            other = owner.setdefault(key, index)
            if other != index:
                parent[root(index)] = root(other)
    groups: dict[int, list[Box]] = {}
    for index, cell in enumerate(cells):
        groups.setdefault(root(index), []).append(cell)
    return list(groups.values())


def _lattice(cells: Sequence[Box]) -> Grid:
    box = (
        min(cell[0] for cell in cells),
        min(cell[1] for cell in cells),
        max(cell[2] for cell in cells),
        max(cell[3] for cell in cells),
    )
    columns = _distinct(cell[0] for cell in cells if cell[0] > box[0] + _SNAP)
    rows = _distinct(cell[1] for cell in cells if cell[1] > box[1] + _SNAP)
    return Grid(box, columns, rows, tuple(cells))


def _distinct(values: Iterable[float]) -> tuple[float, ...]:
    kept: list[float] = []
    for value in sorted(values):
        if not kept or value - kept[-1] > _SNAP:
            kept.append(value)
    return tuple(kept)


_NUMBER = re.compile(r"[-+\u2212(]?[$€£¥]?[\d.,' ]*\d[\d.,']*%?\)?")


def _mostly_numbers(lines: Sequence[_Line]) -> bool:
    words = [word.text for line in lines for word in line.words]
    return sum(bool(_NUMBER.fullmatch(text)) for text in words) >= len(words) / 2


def _number_a_line(lines: Sequence[_Line], columns: Sequence[float]) -> bool:
    """Whether nearly every one of the lines ends in a cell that is a single number (amounts beside
    their labels, a line item's or a section total's column): a number is not wrapped onto the next
    line, so such lines are rows, however long their labels."""
    ending = 0
    for line in lines:
        texts: dict[int, list[str]] = {}
        for word in sorted(line.words, key=_left):
            texts.setdefault(bisect(columns, word.centre[0]), []).append(word.text)
        ending += bool(_NUMBER.fullmatch(" ".join(texts[max(texts)])))
    return bool(lines) and ending >= _SAME_COLUMNS * len(lines)


def split_stacked_rows(grid: Grid, words: Sequence[Word]) -> Grid:
    """A ruled grid whose rows hold several lines of cells each (rules only around the header and the
    body, as in statistical reports) with a row for each such line: a band is split at every line that
    fills two columns or more, once two of its lines do, nearly all of those fill the same columns or
    each has a label of its own in the first column, and they are mostly numbers or one column holds
    a number on each of them (`_number_a_line`); a line of one cell
    stays with the row above it (a label wrapped). Lines that fill different columns under one label
    (a cell beside them spans the band), or text wrapped in every column, stay one row of cells of
    several lines."""
    if not grid.rows and not grid.cells:
        return _beside_column_rules(grid, words)
    if not grid.columns and not grid.cells:
        return _between_row_rules(grid, words)
    grid = _spans_over_cell_joints(_rows_at_joints(grid, words), words)
    bands: dict[int, list[Word]] = {}
    for word in words:
        if grid.holds(word):
            bands.setdefault(bisect(grid.rows, word.centre[1]), []).append(word)
    rows = list(grid.rows)
    split: list[tuple[float, float]] = []  # the bands split, top and bottom
    for number, band in bands.items():
        lines = visual_lines(band)
        filled = [frozenset(bisect(grid.columns, word.centre[0]) for word in line.words) for line in lines]
        centred = _centred_labels(filled)
        filled = [columns | {0} if index in centred else columns for index, columns in enumerate(filled)]
        several = [columns for columns in filled if len(columns) >= 2]
        if len(several) < 2:
            continue  # one line of cells
        same = Counter(several).most_common(1)[0][1] >= _SAME_COLUMNS * len(several)
        if not same and not all(0 in columns for columns in several):
            continue  # lines that fill other columns, not all labelled: cells spanning the row's lines
        multi = [line for line, columns in zip(lines, filled, strict=True) if len(columns) >= 2]
        if not _mostly_numbers(multi) and not _number_a_line(multi, grid.columns):
            continue  # text wrapped in every column: one row of cells of several lines
        starts = [
            index - (index in centred)  # a label wrapped around its row's line starts the row
            for index, columns in enumerate(filled)
            if len(columns) >= 2 and index - (index in centred) > 0
        ]
        rows += [(lines[index - 1].bottom + lines[index].top) / 2 for index in starts]
        edges = (grid.box[1], *grid.rows, grid.box[3])
        split.append((edges[number], edges[number + 1]))
    cells = tuple(  # a cell of a band now split spans nothing: its lines are rows
        cell
        for cell in grid.cells
        if not any(abs(cell[1] - top) <= _SNAP and abs(cell[3] - bottom) <= _SNAP for top, bottom in split)
    )
    return _level_lines_apart(Grid(grid.box, grid.columns, tuple(sorted(rows)), cells), words)


def _centred_labels(filled: Sequence[frozenset[int]]) -> set[int]:
    """The lines of cells (given by the columns each fills) whose label, wrapped over two lines, is
    centred on them: a line filling two columns or more but not the first, with a line holding the
    first column alone just above and just below it, the line above that one (if any) a row's line
    of cells or the last line of a label centred so. Such a line is its row's, and the row starts at
    the label's first line."""
    first = frozenset({0})
    centred: set[int] = set()
    for index in range(1, len(filled) - 1):
        if (
            len(filled[index]) >= 2
            and 0 not in filled[index]
            and filled[index - 1] == first
            and filled[index + 1] == first
            and (index < 2 or len(filled[index - 2]) >= 2 or index - 3 in centred)
        ):
            centred.add(index)
    return centred


_LEVEL = 0.3  # of a line's height: two lines whose middles stand closer are level with each other


def _level_lines_apart(grid: Grid, words: Sequence[Word]) -> Grid:
    """A ruled grid whose drawn cells spanning several rows hold a line level with each row beside
    them, one line a row, `_MIN_ROWS` of them at least (a workbook's merged column of labels beside
    a column of amounts, each label on its amount's line), with those cells cut at the rows: each
    line is its row's cell. A cell whose lines stand apart from the rows beside it (a label wrapped,
    centred in its span), or of two lines (a header's cell over two header rows), stays one cell."""
    if not grid.rows or not grid.cells:
        return grid
    inside = [word for word in words if grid.holds(word)]
    edges = (grid.box[1], *grid.rows, grid.box[3])
    ordered = all(top <= bottom for top, bottom in pairwise(edges))
    by_middle = sorted(range(len(inside)), key=lambda index: inside[index].centre[1])
    middles = [inside[index].centre[1] for index in by_middle]
    cut: list[Box] = []
    changed = False
    for cell in grid.cells:
        pieces = _cut_at_level_lines(cell, edges, inside, ordered, (middles, by_middle))
        changed = changed or len(pieces) > 1
        cut += pieces
    return Grid(grid.box, grid.columns, grid.rows, tuple(cut)) if changed else grid


def _cut_at_level_lines(
    cell: Box,
    edges: Sequence[float],
    words: Sequence[Word],
    ordered: bool,
    by_middle: tuple[list[float], list[int]],
) -> list[Box]:
    """`_level_lines_apart` of one cell. `ordered`: whether `edges` rise, so that only the rows
    between the cell's top and bottom need be looked at; `by_middle`: the words' middles, rising, and
    the place in `words` of each, so that only the words level with the cell are."""
    x0, y0, x1, y1 = cell
    if ordered:  # a row that ends above the cell or starts below it overlaps it by nothing
        pairs = range(max(0, bisect(edges, y0) - 1), min(len(edges) - 1, bisect_left(edges, y1)))
    else:
        pairs = range(len(edges) - 1)
    spanned = [  # the rows it overlaps, cut to its box (a row split under it may reach below it)
        (max(edges[at], y0), min(edges[at + 1], y1))
        for at in pairs
        if min(edges[at + 1], y1) - max(edges[at], y0) > _SNAP
    ]
    if len(spanned) < 2:
        return [cell]
    middles, places = by_middle
    near = [words[at] for at in sorted(places[bisect_left(middles, y0) : bisect(middles, y1)])]
    own = [word for word in near if x0 <= word.centre[0] <= x1]
    beside = [word for word in near if not x0 <= word.centre[0] <= x1]
    lines = visual_lines(own)
    if len(lines) < _MIN_ROWS:  # two lines level with two rows may be a header's cell wrapped
        return [cell]
    levels = [(line.top + line.bottom) / 2 for line in visual_lines(beside)]
    taken: set[int] = set()
    for line in lines:
        middle = (line.top + line.bottom) / 2
        band = next((index for index, (top, bottom) in enumerate(spanned) if top <= middle <= bottom), -1)
        level = any(abs(middle - other) <= _LEVEL * line.height for other in levels)
        if band < 0 or band in taken or not level:
            return [cell]
        taken.add(band)
    return [(x0, top, x1, bottom) for top, bottom in spanned]


_NO_TABLE = Grid((0.0, 0.0, 0.0, 0.0), (), ())  # holds no word, meets no other grid
_MAX_WORDS_A_RULED_CELL = 8.0  # on average, in cells parted by drawn rules: a line of prose has more


def _beside_column_rules(grid: Grid, words: Sequence[Word]) -> Grid:
    """The table whose columns rules alone part (`_column_rules`): the lines of words level with the
    rules, which run down beside them from the first line to the last, none of whose words crosses a
    rule, `_MIN_ROWS` of them at least with words on both sides of one, their cells short. Its rows
    start where `_row_starts` says (a cell's text wrapped continues its row), its box is its words'.
    Otherwise, no table (a rule beside a quotation, between two columns of prose)."""
    columns, (_, top, _, bottom) = grid.columns, grid.box
    lines = visual_lines([word for word in words if top - _SNAP <= word.centre[1] <= bottom + _SNAP])
    if len(lines) < _MIN_ROWS:
        return _NO_TABLE
    if _run_on(lines, top, bottom):
        return _NO_TABLE  # a frame, a margin
    if not all(_fits(line, columns) for line in lines):
        return _NO_TABLE
    cells = [[cell for cell in _cells(line, columns) if cell] for line in lines]
    if sum(1 for filled in cells if len(filled) >= 2) < _MIN_ROWS:
        return _NO_TABLE
    filled = [cell for line_cells in cells for cell in line_cells]
    if sum(len(cell) for cell in filled) / len(filled) > _MAX_WORDS_A_RULED_CELL:
        return _NO_TABLE
    starts = _row_starts(lines, columns)
    return _grid_of(lines, columns, starts)


def _run_on(lines: Sequence[_Line], top: float, bottom: float) -> bool:
    """Whether rules from top to bottom run on further than the lines of words they stand beside or
    around, by more than a line's height: a table's rules end at its first and last lines; a page's
    frame, margin or running-head and footer rules do not."""
    return abs(lines[0].top - top) > lines[0].height or abs(bottom - lines[-1].bottom) > lines[-1].height


def _grid_of(lines: Sequence[_Line], columns: Sequence[float], starts: Sequence[int]) -> Grid:
    """The table of `lines` (top to bottom), parted at x by `columns`, its rows starting at the lines
    `starts` names: its box is its words' and its lines' extent."""
    box = (
        min(word.box[0] for line in lines for word in line.words),
        lines[0].top,
        max(word.box[2] for line in lines for word in line.words),
        lines[-1].bottom,
    )
    return Grid(box, tuple(columns), tuple((lines[i - 1].bottom + lines[i].top) / 2 for i in starts[1:]))


def _between_row_rules(grid: Grid, words: Sequence[Word]) -> Grid:
    """The table of two columns that rules drawn between its rows frame (`_row_rule_frames`): the
    lines of words between the first rule and the last, within the rules' width, `_MIN_ROWS` of them
    at least, parted by one range of x wider than a word space that no word crosses, with words on
    both sides of it in nearly every row (`_SAME_COLUMNS`), their cells short (a metric and its
    value, a term and its meaning: what the right column holds is not checked), the rules ending a
    line's height or less from the first and last lines (`_run_on`). Without the rules such lines
    are no table (two columns are too few for one found from the words alone); where those words
    hold one (of three columns or more), or the lines between the rules are prose, it is left to
    `aligned_grids`. Its rows start where `_row_starts` says."""
    x0, y0, x1, y1 = grid.box
    inside = [
        word
        for word in words
        if x0 - _SNAP <= word.box[0] and word.box[2] <= x1 + _SNAP and y0 < word.centre[1] < y1
    ]
    lines = visual_lines(inside)
    opened = y1 == _OPEN
    if opened and lines:  # the table's lines run on from the header's rule while no gap parts them
        end = next((i for i, (a, b) in enumerate(pairwise(lines), 1) if not _continues(a, b)), len(lines))
        lines, y1 = lines[:end], lines[end - 1].bottom
        inside = [word for line in lines for word in line.words]
    if len(lines) < _MIN_ROWS or _run_on(lines, y0, y1):
        return _NO_TABLE
    wider = aligned_grids(inside, two_columns=False)
    if wider:
        return _framed(wider, lines, opened)
    edges = sorted(edge for line in lines for edge in line.edges)
    wide, depth, gaps = _column_gap(lines), 0, []
    for (x, step), (after, _) in pairwise(edges):
        depth += step
        if depth == 0 and after - x >= wide:
            gaps.append((x + after) / 2)
    if len(gaps) != 1:
        return _NO_TABLE
    cells = [[cell for cell in _cells(line, gaps) if cell] for line in lines]
    starts = _row_starts(lines, gaps)
    if sum(len(filled) == 2 for filled in cells) < max(_MIN_ROWS, _SAME_COLUMNS * len(starts)):
        return _NO_TABLE
    filled = [cell for line_cells in cells for cell in line_cells]
    if sum(len(cell) for cell in filled) / len(filled) > _MAX_WORDS_A_CELL:
        return _NO_TABLE
    return _grid_of(lines, gaps, starts)


def _framed(found: Sequence[Grid], lines: Sequence[_Line], opened: bool) -> Grid:
    """The table of three columns or more that the words between a table's row rules hold, found as
    tables without rules are (`aligned_grids`): kept as the framed table when it begins at the first
    line under the top rule (the header) and, in a frame closed below, is the only one and ends at
    the last line above the bottom rule; in a frame open below, the first one found, the lines after
    it (a heading, the next table) no part of it. The page's search for tables without rules, over
    lines that run on from one table to the next (a heading set between them), may find neither.
    Otherwise no table here: the page's search decides. So it does where a column of the table found
    holds two below its first line (`_hidden_columns`): a header spanning two columns hid the line
    between them from the words of the frame alone."""
    first, last = lines[0], lines[-1]
    if not found or abs(found[0].box[1] - first.top) > first.height / 2:
        return _NO_TABLE
    if not opened and (len(found) != 1 or abs(found[0].box[3] - last.bottom) > last.height / 2):
        return _NO_TABLE
    if _hidden_columns(found[0], lines[1:]):
        return _NO_TABLE
    return found[0]


def _hidden_columns(grid: Grid, lines: Sequence[_Line]) -> bool:
    """Whether a column of `grid` holds, in the `lines` under its first, two columns parted by whitespace
    in nearly every row (`_whitespace_columns`): a header spanning both, over them, left them one."""
    words = [word for line in lines for word in line.words if grid.holds(word)]
    edges = (grid.box[0], *grid.columns, grid.box[2])
    return any(
        _whitespace_columns([word for word in words if left <= word.centre[0] < right], grid.rows)
        for left, right in pairwise(edges)
    )


def split_aligned_columns(grid: Grid, words: Sequence[Word]) -> Grid:
    """A ruled grid whose drawn columns hold several columns of words each, parted by whitespace alone
    (a table ruled around its first column and between its rows only), with a column line at each such
    whitespace (`_whitespace_columns`); the drawn cells it crosses are cut there, so that their words
    are not joined again as one spanning cell's."""
    inside = [word for word in words if grid.holds(word)]
    grid = _parted_spans(grid, inside)
    edges = (grid.box[0], *grid.columns, grid.box[2])
    added: list[float] = []
    for column, (left, right) in enumerate(pairwise(edges)):
        own = [word for word in inside if bisect(grid.columns, word.centre[0]) == column]
        added += [x for x in _whitespace_columns(own, grid.rows) if left + _SNAP < x < right - _SNAP]
    if not added:
        return grid
    cells = tuple(piece for cell in grid.cells for piece in _cut(cell, added))
    return Grid(grid.box, tuple(sorted((*grid.columns, *added))), grid.rows, cells)


def _parted_spans(grid: Grid, words: Sequence[Word]) -> Grid:
    """A ruled grid whose column line is drawn over some rows only (a header's boxes, a shaded
    column's) and whose cells drawn across it below hold words on both its sides, a column's gap
    apart (as wide as a line is high), in `_MIN_ROWS` rows at least, or in every cell it crosses (a
    header's boxes over one row of amounts): those cells are cut at the line, so that a row's label and
    its value are not joined as one spanning cell's. A phrase spanning the columns leaves no such gap
    there, and stays one cell."""
    cells = set(grid.cells)
    owned: dict[Box, list[Word]] = {}  # a cell's words, found once however many column lines cross it

    def own(cell: Box) -> list[Word]:
        if cell not in owned:
            owned[cell] = [
                word
                for word in words
                if cell[0] <= word.centre[0] <= cell[2] and cell[1] <= word.centre[1] <= cell[3]
            ]
        return owned[cell]

    for x in grid.columns:
        crossed = [cell for cell in cells if cell[0] + _SNAP < x < cell[2] - _SNAP]
        parted = [cell for cell in crossed if _gap_at(x, own(cell))]
        if len(parted) >= _MIN_ROWS or (parted and len(parted) == len(crossed)):
            cells = (cells - set(parted)) | {piece for cell in parted for piece in _cut(cell, [x])}
    if cells == set(grid.cells):
        return grid
    return replace(grid, cells=tuple(sorted(cells, key=lambda cell: (cell[1], cell[0]))))


def _gap_at(x: float, own: Sequence[Word]) -> bool:
    """Whether a cell's words (`own`), one line of them (a row's label and its value; a box of many
    lines, a page's frame, is no row), stand on both sides of x, none over it, the nearest a line's
    height apart (`_CELL_GAP`) or more."""
    left = [word.box[2] for word in own if word.box[2] <= x]
    right = [word.box[0] for word in own if word.box[0] >= x]
    if not left or not right or len(left) + len(right) < len(own) or len(visual_lines(own)) > 1:
        return False
    height = median([word.box[3] - word.box[1] for word in own])
    return min(right) - max(left) >= max(_MIN_GAP, _CELL_GAP * height)


def _whitespace_columns(words: Sequence[Word], rows: Sequence[float]) -> list[float]:
    """The middles of the x ranges, as wide as a line is high, that none of the words crosses and that
    nearly every row of the grid holding words has words on both sides of: `_MIN_ROWS` rows at least.
    Text wrapped in a cell, or an indented line, leaves no such range."""
    if len(words) < 2 * _MIN_ROWS:
        return []
    wide = max(_MIN_GAP, _CELL_GAP * median([word.box[3] - word.box[1] for word in words]))
    edges = sorted([(word.box[0], 1) for word in words] + [(word.box[2], -1) for word in words])
    bands: dict[int, list[Word]] = {}
    for word in words:
        bands.setdefault(bisect(rows, word.centre[1]), []).append(word)
    found: list[float] = []
    depth = 0
    for (x, step), (after, _) in pairwise(edges):
        depth += step
        if depth == 0 and after - x >= wide:
            middle = (x + after) / 2
            parted = sum(
                1
                for band in bands.values()
                if any(word.box[2] <= middle for word in band) and any(word.box[0] >= middle for word in band)
            )
            if parted >= max(_MIN_ROWS, _SAME_COLUMNS * len(bands)):
                found.append(middle)
    return found


def _cut(cell: Box, xs: Sequence[float]) -> list[Box]:
    """A drawn cell cut at the new column lines that cross it."""
    x0, y0, x1, y1 = cell
    cuts = [x for x in xs if x0 + _SNAP < x < x1 - _SNAP]
    bounds = [x0, *cuts, x1]
    return [(a, y0, b, y1) for a, b in pairwise(bounds)]


def with_labels_outside(
    grid: Grid, words: Sequence[Word], grids: Sequence[Grid], free: Sequence[Word] | None = None
) -> Grid:
    """A ruled grid with the labels a spreadsheet prints outside its borders (rules drawn around the
    numbers only): a column of row labels left of its left rule (`_label_column`), and a row of
    column headers right above its top rule (`_header_row`). Words another of the page's `grids`
    holds are none of its labels, and its box grows over no other grid. `free`: the words none of
    `grids` holds, when the caller has them already."""
    if not grid.rows or not grid.columns:
        return grid  # a grid of rules between columns only: its box is its words' already
    if free is None:
        free = _held_by_none(words, grids)
    others = [other.box for other in grids if other is not grid]
    return _header_row(_label_column(grid, free, others), free, others)


def each_with_labels_outside(grids: Sequence[Grid], words: Sequence[Word]) -> list[Grid]:
    """`with_labels_outside` of each of the page's grids, the words none of them holds found once."""
    free: list[Word] | None = None
    labelled = []
    for grid in grids:
        if free is None and grid.rows and grid.columns:
            free = _held_by_none(words, grids)
        labelled.append(with_labels_outside(grid, words, grids, free))
    return labelled


def _held_by_none(words: Sequence[Word], grids: Sequence[Grid]) -> list[Word]:
    """The words no grid holds (`Grid.holds`, without a call a grid)."""
    boxes = [grid.box for grid in grids]
    free = []
    for word in words:
        x, y = word.centre
        if not any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes):
            free.append(word)
    return free


def _label_column(grid: Grid, words: Sequence[Word], others: Sequence[Box]) -> Grid:
    """The grid with a first column of the lines of words left of its left rule and level with its
    rows: each line within one row's band (none crosses a row rule, as a paragraph or an address
    beside a ruled box does), in nearly every band (`_SAME_COLUMNS`, `_MIN_ROWS` at least), the lines
    one column (one run of words each, their left, right or middle edges in line), nothing else there."""
    x0, y0, x1, y1 = grid.box
    beside = [word for word in words if y0 <= word.centre[1] <= y1 and word.box[2] <= x0 + _SNAP / 3]
    if not beside:
        return grid
    lines = visual_lines(beside)
    edges = (y0, *grid.rows, y1)
    bands = set()
    for line in lines:
        band = bisect(grid.rows, (line.top + line.bottom) / 2)
        slack = line.height / 4
        if line.top < edges[band] - slack or line.bottom > edges[band + 1] + slack or line.runs > 1:
            return grid
        bands.add(band)
    if len(bands) < max(_MIN_ROWS, _SAME_COLUMNS * (len(edges) - 1)) or not _one_column(lines):
        return grid
    box = (min(word.box[0] for word in beside), y0, x1, y1)
    if any(overlaps(box, other) for other in others):
        return grid
    return Grid(box, (x0, *grid.columns), grid.rows, grid.cells)


def _header_row(grid: Grid, words: Sequence[Word], others: Sequence[Box]) -> Grid:
    """The grid with a first row of the line of words right above its top rule (no further than a
    line's height): every word within the grid's width and within one of its columns, and half its
    columns filled at least (two or more), as a spreadsheet's column headers printed outside the
    borders are; a title or a caption fills one column or crosses a column's rule."""
    x0, y0, x1, y1 = grid.box
    above = [word for word in words if word.box[3] <= y0 + _SNAP / 3 and word.centre[1] < y0]
    if not above:
        return grid
    line = visual_lines(above)[-1]  # the lowest: lines further up are no nearer
    if y0 - line.bottom > line.height:
        return grid
    edges = (x0, *grid.columns, x1)
    filled = set()
    for word in line.words:
        column = bisect(grid.columns, word.centre[0])
        if word.box[0] < edges[column] - _SNAP or word.box[2] > edges[column + 1] + _SNAP:
            return grid
        filled.add(column)
    if len(filled) < max(2, (len(edges) - 1) / 2):
        return grid
    box = (x0, line.top, x1, y1)
    if any(overlaps(box, other) for other in others):
        return grid
    return _stacked_header_rows(Grid(box, grid.columns, (y0, *grid.rows), grid.cells), above, others)


def _stacked_header_rows(grid: Grid, words: Sequence[Word], others: Sequence[Box]) -> Grid:
    """The grid with the header lines stacked over its header row, each a row of its own
    (`_stacked_header`), its box grown over no other grid."""
    x0, _, x1, _ = grid.box
    lines = visual_lines([word for word in words if word.centre[1] < grid.box[1]])
    below = _Line([], grid.box[1], grid.box[1])
    for line in _stacked_header([*lines, below], len(lines), (x0, *grid.columns, x1)):
        box = (x0, line.top, *grid.box[2:])
        if any(overlaps(box, other) for other in others):
            break
        grid = Grid(box, grid.columns, (grid.box[1], *grid.rows), grid.cells)
    return grid


def _stacked_header(lines: Sequence[_Line], first: int, edges: Sequence[float]) -> list[_Line]:
    """The header lines stacked over the table whose first line is `lines[first]`, up from the lowest:
    each no further than its height above the one below and over the columns (`_over_columns`),
    up to the highest that holds a heading over a group of columns ("GREEDY" over "Av. Sol." and
    "Av. Comp."), as a header of several lines without vertical rules is set; none without such a
    heading (the rows of another table, a title's words set apart). A title or a caption, one run,
    ends the header."""
    stacked: list[_Line] = []
    taken = 0
    while first > 0:
        line = lines[first - 1]
        spanning = _over_columns(line, edges)
        if lines[first].top - line.bottom > line.height or spanning is None:
            break
        stacked.append(line)
        if spanning:
            taken = len(stacked)
        first -= 1
    return stacked[:taken]


def _over_columns(line: _Line, edges: Sequence[float]) -> int | None:
    """How many runs of a line cross a column line over a group of neighbouring columns, their
    middles between the middles of the group's first and last columns; None unless the line is two
    runs of words or more, no number among them, each within columns of its own, one or such a
    group (`edges`, the grid's left, column and right edges: those of a table without rules are
    where its words start and end, and a heading centred over its group may be off their middle)."""
    gap = max(_MIN_GAP, _CELL_GAP * line.height)
    runs: list[list[float]] = []
    for word in sorted(line.words, key=_left):
        if runs and word.box[0] - runs[-1][1] <= gap:
            runs[-1][1] = max(runs[-1][1], word.box[2])
        else:
            runs.append([word.box[0], word.box[2]])
    if len(runs) < 2 or any(_NUMBER.fullmatch(word.text) for word in line.words):
        return None  # one run is a title or a caption; a line with a number is a row of values
    spanning, taken = 0, 0
    for left, right in runs:
        first = bisect(edges, left + _SNAP) - 1
        last = bisect(edges, right - _SNAP)
        if first < taken or last >= len(edges):
            return None  # out of the table, or in a column another run of the line is in
        taken = last
        if last - first > 1:
            if not edges[first] + edges[first + 1] <= left + right <= edges[last - 1] + edges[last]:
                return None
            spanning += 1
    return spanning


def _one_column(lines: Sequence[_Line]) -> bool:
    """Whether lines stand in one column: their left edges, right edges or middles in line."""
    lefts = [min(word.box[0] for word in line.words) for line in lines]
    rights = [max(word.box[2] for word in line.words) for line in lines]
    middles = [(left + right) / 2 for left, right in zip(lefts, rights, strict=True)]
    return any(max(values) - min(values) <= _SNAP for values in (lefts, rights, middles))


# ---------------------------------------------------------------------------------------- no rules
_CELL_GAP = 1.0  # whitespace wider than this many line heights separates two cells of a line
_MIN_GAP = 6.0  # points, at least
_ROW_GAP = 2.5  # line heights: a wider vertical gap ends a table
_MIN_COLUMNS = 3
_SAME_COLUMNS = 0.8  # of a ruled row's lines of cells fill the same columns: the row is split into lines
_MIN_ROWS = 3
_MAX_WORDS_A_CELL = 5.0  # on average: longer cells are prose set in columns, not a table
_MISFITS = 0.15  # of a table's lines may cross a column line (a title, a spanning header)
_WORD_SPACE = 0.45  # line heights: a column's edge is wider than the space between two words
_WRAPPED = 1.15  # a line this close to the one above (in pitches of the closest lines) continues its row
_ROW_SPACING = 1.3  # ... when the table's rows stand visibly further apart than that
_FULL_ROWS = 0.8  # of the rows of a table found above another in their run of lines fill every column
_BOX = attrgetter("box")


class _Line:
    """Words that share a line of the page, and the extent of their boxes; its height, segments and
    edges are read when first asked for, once."""

    def __init__(self, words: list[Word], top: float, bottom: float) -> None:
        self.words = words
        self.top, self.bottom = top, bottom

    @_Once
    def height(self) -> float:
        if len(self.words) == 1:
            box = self.words[0].box
            return box[3] - box[1]
        return median([word.box[3] - word.box[1] for word in self.words])

    @_Once
    def runs(self) -> int:
        """How many runs of words the line has, broken where the whitespace is wider than a cell gap."""
        return 1 if len(self.words) == 1 else len(_runs_of(self.words, self.height))

    @_Once
    def edges(self) -> list[tuple[float, int]]:
        """Where its words start (+1) and end (-1), for a sweep across the line."""
        return [(word.box[0], 1) for word in self.words] + [(word.box[2], -1) for word in self.words]


def _left(word: Word) -> float:
    return word.box[0]


def visual_lines(words: Sequence[Word]) -> list[_Line]:
    """Words grouped into lines by their vertical overlap, top to bottom: a word whose vertical centre
    falls within the extent of the line above joins it. (Words are taken in the order of their
    vertical centre, then their left edge, then their order in `words`.)"""
    lines: list[_Line] = []
    current: list[Word] = []
    top = bottom = 0.0
    places = sorted([((box[1] + box[3]) / 2, box[0], index) for index, box in enumerate(map(_BOX, words))])
    for centre, _, index in places:
        word = words[index]
        _, y0, _, y1 = word.box
        if current and top <= centre <= bottom:
            current.append(word)
            if y0 < top:
                top = y0
            if y1 > bottom:
                bottom = y1
        else:
            if current:
                lines.append(_Line(current, top, bottom))
            current, top, bottom = [word], y0, y1
    if current:
        lines.append(_Line(current, top, bottom))
    return lines


def may_hold_aligned_grid(found: Iterable[Sequence[Any]]) -> bool:
    """A cheap first look at a page's words as MuPDF gives them, (x0, y0, x1, y1, text, block, line,
    word) in the order it wrote them, before the engine's words are built: can `aligned_grids` find
    a table here? A table of `_MIN_ROWS` rows of `_MIN_COLUMNS` cells shows as that many rows of the
    page, in one run of rows, each holding that many pieces side by side with whitespace wider than
    `_MIN_GAP` between them. MuPDF's lines are cut into pieces at such whitespace (no sort: a line's
    words come left to right), the pieces grouped into rows as `visual_lines` groups words, and a
    row's pieces counted left to right. Prose stops here: its lines are one piece, and two columns of
    prose give rows of two; so does a page of label-and-value lines.

    The columns of a table are parted by whitespace its rows share (the search's gutters), so the
    rows of three pieces must also leave whitespace between their pieces at `_MIN_COLUMNS` - 1
    places side by side, each place in that many rows of the run (`_shared_gaps`): rows of three
    pieces whose gaps stand anywhere (a justified line's wide spaces, a line of a form's labels
    under one of dates) stop here too."""
    rows = 0  # of enough cells, in this run of rows
    gaps: list[tuple[float, float]] = []  # between the pieces of those rows
    pairs: list[tuple[float, float]] = []  # the gaps of the rows of two pieces just above, one after another
    longs: list[bool] = []  # whether each of those rows has a long second run
    under = False  # whether a row of one run under their second runs stands among them
    above: tuple[float, float] | None = None  # the bottom and height of the row above
    for top, bottom, height, xs in _piece_rows(_pieces(found)):
        if above is not None and top - above[0] > _ROW_GAP * max(height, above[1]):
            rows, gaps, pairs, longs, under = 0, [], [], [], False  # a gap no table's rows leave
        runs, between, counts = _side_by_side(xs)
        if runs >= _MIN_COLUMNS:
            rows += 1
            gaps += between
            if rows >= _MIN_ROWS and _shared_gaps(gaps) >= _MIN_COLUMNS - 1:
                return True
        # A table of two columns (`_two_column_tables`): `_TWO_ROWS` rows of two runs in a row, with
        # whitespace between them that they all share, each run short; or its second run of any length
        # where a row of one run under the second runs (`_under_second`) stands among them.
        if runs == 2 and counts[0] < _PROSE_WORDS:
            pairs, longs = pairs + between, [*longs, counts[1] > _TWO_WORDS]
        elif not (runs == 1 and pairs and abs(xs[0][0] - pairs[-1][1]) <= _STRAIGHT):
            pairs, longs, under = [], [], False
        else:
            under = True
        if (
            len(pairs) >= _TWO_ROWS
            and (under or not any(longs[-_TWO_ROWS:]))
            and _shared_gaps(pairs[-_TWO_ROWS:], _TWO_ROWS)
        ):
            return True
        above = bottom, height
    return False


_Piece = tuple[float, float, float, float, float, int]  # vertical centre, x0, y0, x1, y1, words


def _pieces(found: Iterable[Sequence[Any]]) -> list[_Piece]:
    """MuPDF's lines cut where whitespace wider than `_MIN_GAP` parts two words (or where a word
    starts left of the one before); a word of whitespace alone (a no-break space) bridges nothing."""
    pieces: list[_Piece] = []
    at_block = at_line = -1  # MuPDF's block and line of the piece
    x0 = y0 = x1 = y1 = left = 0.0
    count = 0
    for w0, v0, w1, v1, text, block, line, _ in found:  # hundreds a page: no other call a word
        if text.isspace():
            continue
        if line == at_line and block == at_block and left <= w0 <= x1 + _MIN_GAP:
            if v0 < y0:
                y0 = v0
            if v1 > y1:
                y1 = v1
            if w1 > x1:
                x1 = w1
            left = w0
            count += 1
            continue
        if at_block != -1:
            pieces.append(((y0 + y1) / 2, x0, y0, x1, y1, count))
        at_block, at_line, x0, y0, x1, y1, left, count = block, line, w0, v0, w1, v1, w0, 1
    if at_block != -1:
        pieces.append(((y0 + y1) / 2, x0, y0, x1, y1, count))
    return pieces


def _piece_rows(pieces: list[_Piece]) -> list[tuple[float, float, float, list[tuple[float, float, int]]]]:
    """The pieces grouped into rows by their vertical overlap, as `visual_lines` groups words: each
    row's top, bottom, tallest piece, and its pieces' (x0, x1, words)."""
    rows: list[tuple[float, float, float, list[tuple[float, float, int]]]] = []
    top = bottom = height = 0.0
    xs: list[tuple[float, float, int]] = []
    for centre, x0, y0, x1, y1, count in sorted(pieces):
        if xs and top <= centre <= bottom:
            xs.append((x0, x1, count))
            if y0 < top:
                top = y0
            if y1 > bottom:
                bottom = y1
            if y1 - y0 > height:
                height = y1 - y0
            continue
        if xs:
            rows.append((top, bottom, height, xs))
        xs, top, bottom, height = [(x0, x1, count)], y0, y1, y1 - y0
    if xs:
        rows.append((top, bottom, height, xs))
    return rows


def _side_by_side(xs: list[tuple[float, float, int]]) -> tuple[int, list[tuple[float, float]], list[int]]:
    """How many runs of pieces a row holds, left to right, parted by more than `_MIN_GAP`, the
    whitespace between them (from where a run ends to where the next starts), and their words."""
    xs.sort()
    runs, end = 0, -float("inf")
    gaps: list[tuple[float, float]] = []
    counts: list[int] = []
    for x0, x1, count in xs:
        if x0 - end > _MIN_GAP:
            if runs:
                gaps.append((end, x0))
            runs += 1
            counts.append(0)
        counts[-1] += count
        if x1 > end:
            end = x1
    return runs, gaps, counts


def _shared_gaps(gaps: list[tuple[float, float]], rows: int = _MIN_ROWS) -> int:
    """How many stretches of x, apart from each other, lie within the whitespace of `rows` of the
    rows (`gaps`: those of every row, a row's own gaps never overlapping)."""
    edges = sorted([(start, 1) for start, _ in gaps] + [(end, -1) for _, end in gaps])
    stretches, depth, inside = 0, 0, False
    for _, step in edges:
        depth += step
        if depth >= rows and not inside:
            stretches += 1
        inside = depth >= rows
    return stretches


def aligned_grids(words: Sequence[Word], two_columns: bool = True) -> list[Grid]:
    """Tables without ruling lines: runs of at least three lines of at least three cells each that
    share their columns of whitespace, and (with `two_columns`) the stricter tables of two columns
    (`_two_column_tables`). Where a page is set in two columns of text (`_page_columns`),
    the words of each column are searched apart: a line of the page there is two lines, one of each
    column, and a table in one column is neither taken with the text beside it in the other nor
    missed because that text crosses its column lines."""
    lines = visual_lines(words)
    stretches = _page_columns(lines)
    if not stretches:
        found = _Search(lines).tables(0, len(lines))
        return found + _two_column_tables(lines, found) if two_columns else found
    parts: dict[tuple[int, bool], list[Word]] = {}
    for word in words:
        x, y = word.centre
        at = next((index for index, (top, bottom, _) in enumerate(stretches) if top <= y <= bottom), -1)
        parts.setdefault((at, at >= 0 and x > stretches[at][2]), []).append(word)
    grids: list[Grid] = []
    for part in parts.values():
        part_lines = visual_lines(part)
        found = _Search(part_lines).tables(0, len(part_lines))
        grids += found + _two_column_tables(part_lines, found) if two_columns else found
    return grids


_TWO_ROWS = 4  # lines, at least, of a table of two columns found from the words alone
# A first cell of _PROSE_WORDS words or more is a row's only beside a second of _SHORT_SECOND word at
# most, and of _LONG_TERM words at most ("Cour de cassation en assemblée plénière    cassass").
_LONG_TERM = 8
_SHORT_SECOND = 1
_TWO_WORDS = 6  # words, at most, in a cell of its second column; its first holds fewer than a line of prose
_STRAIGHT = 2.0  # points: the cells of a column set straight start (or end) this close to each other


def _two_column_tables(lines: Sequence[_Line], found: Sequence[Grid]) -> list[Grid]:
    """Tables of two columns without rules (a term and its meaning, a version and its change, a
    language and how well it is spoken): `_TWO_ROWS` lines at least, one after another (no gap a
    table's rows leave), each of two runs of words (`_runs_of`), the first of fewer words than a
    column of prose has on a line (`_PROSE_WORDS`), the whitespace between the runs shared by all the
    lines, and each column set straight (its cells start, or end, at one x). A line of one run that
    starts where the second column does (`_under_second`: a meaning wrapped within its column, or a
    row that leaves the first column empty) goes on with the table, and so does a line of one run
    whose words start where both columns do (`_at_the_columns`: a term that reaches up to the second
    column). A line of prose is one run, a label close to its value too, two columns of prose have
    more words a line; the lines of a table already found are left to it. The second column's cells
    are short (`_TWO_WORDS`) unless such a line under it shows the column (`_two_column_grid`)."""
    grids: list[Grid] = []
    run: list[tuple[_Line, list[list[Word]]]] = []
    for line in [*lines, None]:
        cells = None
        if line is not None and not any(grid.holds(line.words[0]) for grid in found):
            if line.runs == 2:
                cells = _runs_of(line.words, line.height)
                if len(cells[0]) >= _PROSE_WORDS and (
                    len(cells[0]) > _LONG_TERM or len(cells[1]) > _SHORT_SECOND
                ):
                    cells = None  # a line of prose; a long term beside a word or two is a row
            elif line.runs == 1 and run and _under_second(line, run):
                cells = [[], sorted(line.words, key=_left)]
            elif line.runs == 1 and run:
                cells = _at_the_columns(line, run)
        if run and (cells is None or line is None or not _continues(run[-1][0], line)):
            if len(run) >= _TWO_ROWS:
                grids += _two_column_grid(run) or _between_long_terms(run)
            run = []
        if line is not None and cells is not None and (run or cells[0]):
            run.append((line, cells))
    return grids


def _between_long_terms(run: Sequence[tuple[_Line, list[list[Word]]]]) -> list[Grid]:
    """The tables of a run that is none as a whole, parted at its rows of a long term
    (`_PROSE_WORDS` words or more: a criterion's name beside "Supports" in a list of them whose
    whitespace only the short ones share)."""
    grids: list[Grid] = []
    part: list[tuple[_Line, list[list[Word]]]] = []
    for item in [*run, None]:
        if item is None or len(item[1][0]) >= _PROSE_WORDS:
            if len(part) >= _TWO_ROWS and len(part) < len(run):
                grids += _two_column_grid(part)
            part = []
        else:
            part.append(item)
    return grids


def _at_the_columns(line: _Line, run: Sequence[tuple[_Line, list[list[Word]]]]) -> list[list[Word]] | None:
    """A line of one run whose words start where the two columns of the rows above start, a term too
    long for its column's usual whitespace ("humanw →Humanwissenschaften", "Folio numbers: on top
    right ..."): its two cells, parted at the word that starts the second column; each short, as a
    row's are. None for any other line (prose that happens to have a word there holds more words)."""
    words = sorted(line.words, key=_left)
    first, second = run[0][1]
    if not first or abs(words[0].box[0] - first[0].box[0]) > _STRAIGHT:
        return None
    for index in range(1, min(len(words), _PROSE_WORDS)):
        if abs(words[index].box[0] - second[0].box[0]) <= _STRAIGHT:
            if words[index].box[0] <= words[index - 1].box[2] or len(words) - index > _TWO_WORDS:
                return None
            return [words[:index], words[index:]]
    return None


def _under_second(line: _Line, run: Sequence[tuple[_Line, list[list[Word]]]]) -> bool:
    """Whether a line of one run starts where the second column of the rows above starts, right of
    where their first column ends."""
    x = min(word.box[0] for word in line.words)
    end = max(cells[0][-1].box[2] for _, cells in run if cells[0])
    return x > end and abs(x - run[0][1][1][0].box[0]) <= _STRAIGHT


def _short_cells(first: int, second: int) -> bool:
    """Whether a line's two runs of words are short enough for a row of a table of two columns."""
    return first < _PROSE_WORDS and second <= _TWO_WORDS


# A list's label rather than a table's cell: a mark of two characters at most (a bullet, a dash, a
# letter, a glyph without a character), a number or a section's number ("2.1", "(3)", "iv."), a
# bibliography's key in brackets.
_LIST_LABEL = re.compile(r"\S{0,2}|\(?\d{1,3}(?:\.\d{1,3})*[.)]?|\(?[ivxlcIVXLC]{1,6}[.)]|\[[^\]]{1,16}\]")


def _list_label(cell: Sequence[Word]) -> bool:
    return bool(_LIST_LABEL.fullmatch(_text(cell).strip()))


def _two_column_grid(run: Sequence[tuple[_Line, list[list[Word]]]]) -> list[Grid]:
    """The table of a run of lines of two runs each, and of lines under its second column
    (`_two_column_tables`), when the whitespace between the runs is shared by them all (most rows
    part their cells by a cell gap's width, a term that reaches up to the second column comes closer)
    and each column is set straight; none otherwise. Its second column's cells are short, or some
    line under that column alone shows the column: a meaning wrapped within it or a row without a
    first cell; then the first column is no list's labels (bullets, numbers, a bibliography's keys:
    the text of a list hangs at one x too), nor labels set beside a paragraph (most of them level with
    a line of it that the line above wrapped to). A line under the second column continues the row
    above when it is the meaning wrapped (`_wrapped_in_column`), and starts a row of its own
    otherwise."""
    firsts = [cells[0] for _, cells in run if cells[0]]
    rights = [cells[1] for _, cells in run]
    under = len(firsts) < len(run)
    if not under and any(len(cell) > _TWO_WORDS for cell in rights):
        return _short_rows(run)
    if len(firsts) < _TWO_ROWS - 1:
        return []
    end = max(cell[-1].box[2] for cell in firsts)
    start = min(cell[0].box[0] for cell in rights)
    lines = [line for line, _ in run]
    gaps = [cells[1][0].box[0] - cells[0][-1].box[2] for _, cells in run if cells[0]]
    if median(gaps) < max(_MIN_GAP, _CELL_GAP * median([line.height for line in lines])):
        return []
    if not (_straight(firsts) and _straight(rights)) and not (
        len(run) > _TWO_ROWS and run[0][1][0] and _straight(firsts[1:]) and _straight(rights[1:])
    ):
        return []  # (a header row may stand apart from its columns' line: "Juridiction", then "mot-clé")
    if all(_NUMBER.fullmatch(_text(cell)) for cell in rights):
        return []  # labels and their amounts (a receipt's lines, an invoice's totals) stay lines
    if under and sum(1 for cell in firsts if _list_label(cell)) * 2 > len(firsts):
        return _short_rows(run)
    right = max(cell[-1].box[2] for cell in rights)
    wrapped = [
        index > 0 and _wrapped_in_column(rights[index - 1], rights[index], right) for index in range(len(run))
    ]
    if under and sum(1 for index, (_, cells) in enumerate(run) if cells[0] and wrapped[index]) * 2 > len(
        firsts
    ):
        return _short_rows(run)  # labels beside a paragraph: most stand level with a line it wrapped to
    starts = [index for index, (_, cells) in enumerate(run) if index == 0 or cells[0] or not wrapped[index]]
    return [_grid_of(lines, [(start + end) / 2], starts)]


def _short_rows(run: Sequence[tuple[_Line, list[list[Word]]]]) -> list[Grid]:
    """The tables of the lines of a run that are rows of two short cells, `_TWO_ROWS` at least one
    after another: a row of a long meaning, or a line under the second column, parts them."""
    grids: list[Grid] = []
    part: list[tuple[_Line, list[list[Word]]]] = []
    for item in [*run, None]:
        if item is None or not item[1][0] or len(item[1][1]) > _TWO_WORDS:
            if len(part) >= _TWO_ROWS:
                grids += _two_column_grid(part)
            part = []
        else:
            part.append(item)
    return grids


def _wrapped_in_column(above: Sequence[Word], below: Sequence[Word], right: float) -> bool:
    """Whether the words of a line under a column are the text of the line above wrapped: the first
    of them would not have fitted on that line, within the column's right edge (a line that ends
    short of it ends its cell, as the last line of a paragraph does)."""
    space = 0.25 * (above[-1].box[3] - above[-1].box[1])
    width = below[0].box[2] - below[0].box[0]
    return above[-1].box[2] + space + width > right


def _straight(cells: Sequence[Sequence[Word]]) -> bool:
    """Whether a column's cells all start, or all end, within `_STRAIGHT` of each other."""
    starts = [cell[0].box[0] for cell in cells]
    ends = [cell[-1].box[2] for cell in cells]
    return max(starts) - min(starts) <= _STRAIGHT or max(ends) - min(ends) <= _STRAIGHT


_PROSE_WORDS = 4  # words of one run, at least, on each side of a line of two columns of text
_PROSE_LINES = 5  # such lines, at least, in a stretch of a page set in two columns


def _page_columns(lines: Sequence[_Line]) -> list[tuple[float, float, float]]:
    """The stretches of a page set in two columns of text, each as its top, its bottom and the x of
    the gutter between the columns: the x that lies in the gap of the most lines that are two runs of
    `_PROSE_WORDS` words or more, side by side (`_PROSE_LINES` of them at least); a stretch is lines in
    a row that no word crosses at that x, each with text on one side at least (one run of two words
    or more, beside a table's row in the other column), holding `_PROSE_LINES` such lines. A line of
    cells on both sides (a table across the page, whose column gap falls at the gutter) or a word
    across the gutter (a title, a figure's caption across the page) ends a stretch."""
    gaps: list[tuple[float, float, int]] = []
    for index, line in enumerate(lines):
        if line.runs == 2 and len(line.words) >= 2 * _PROSE_WORDS:
            left, right = _runs_of(line.words, line.height)
            if len(left) >= _PROSE_WORDS and len(right) >= _PROSE_WORDS:
                gaps.append((max(word.box[2] for word in left), min(word.box[0] for word in right), index))
    if len(gaps) < _PROSE_LINES:
        return []
    x = _most_within(gaps)
    prose = {index for start, end, index in gaps if start < x < end}
    if len(prose) < _PROSE_LINES:
        return []
    stretches: list[tuple[float, float, float]] = []
    first, count = None, 0
    for index in range(len(lines) + 1):
        if index < len(lines) and not _across_the_gutter(lines[index], x):
            first = index if first is None else first
            count += index in prose
            continue
        if first is not None and count >= _PROSE_LINES:
            stretches.append((lines[first].top, lines[index - 1].bottom, x))
        first, count = None, 0
    return stretches


def _most_within(gaps: Sequence[tuple[float, float, int]]) -> float:
    """The middle of the stretch of x that lies within the most of the gaps (start, end, _)."""
    edges = sorted([(start, 1) for start, _, _ in gaps] + [(end, -1) for _, end, _ in gaps])
    depth = best = 0
    middle = 0.0
    for (x, step), (after, _) in pairwise(edges):
        depth += step
        if depth > best and after > x:
            best, middle = depth, (x + after) / 2
    return middle


def _across_the_gutter(line: _Line, x: float) -> bool:
    """Whether a line crosses a page's gutter at x: a word across it, or words on both sides with
    neither side text (one run of two words or more), or with text of fewer than `_PROSE_WORDS`
    words on one side and cells on the other (a table's row across the page, its label left of the
    gutter: a line of text beside a table's row in the other column is longer)."""
    if any(word.box[0] < x < word.box[2] for word in line.words):
        return True
    left = [word for word in line.words if word.box[2] <= x]
    right = [word for word in line.words if word.box[0] >= x]
    if not left or not right:
        return False
    runs = [len(_runs_of(side, line.height)) for side in (left, right)]
    text = [len(side) >= 2 and count == 1 for side, count in zip((left, right), runs, strict=True)]
    if not any(text):
        return True
    short = [len(side) < _PROSE_WORDS for side in (left, right)]
    return any(text[i] and short[i] and runs[1 - i] >= 2 for i in (0, 1))


def _runs_of(words: Sequence[Word], height: float) -> list[list[Word]]:
    """The words of a line in runs, left to right, broken where the whitespace is wider than a cell
    gap (`_Line.runs` counts them)."""
    gap = max(_MIN_GAP, _CELL_GAP * height)
    runs: list[list[Word]] = []
    end = 0.0
    for word in sorted(words, key=_left):
        if not runs or word.box[0] - end > gap:
            runs.append([])
        runs[-1].append(word)
        end = word.box[2]
    return runs


class _Search:
    """The tables of aligned columns of a page's lines, looked for in the runs of lines a gap no
    table's rows leave does not part, a first row tried at a time (`_grid`)."""

    def __init__(self, lines: Sequence[_Line]) -> None:
        self.lines = lines
        self.ends = _run_ends(lines)
        self.broken = [index for index, line in enumerate(lines) if line.runs >= _MIN_COLUMNS - 1]
        self.sweep = _Sweep(lines)

    def tables(self, start: int, stop: int) -> list[Grid]:
        """The tables of the lines from `start` to `stop`. A run's columns are those its lines share:
        two tables one above the other in a run share few, and the one found, with the columns of the
        other where they cross none of its words, may begin below the run's first line; the lines
        above it are then looked at on their own, as a run of their own (a table of other columns
        just above it, lost otherwise), kept only when nearly all its rows fill every column (a
        form's blocks side by side, address above address, above an invoice's items are no table)."""
        lines, broken = self.lines, self.broken
        grids: list[Grid] = []
        while start < stop:
            if lines[start].runs < _MIN_COLUMNS - 1:
                start += 1
                continue
            end = min(self.ends[start], stop)
            if bisect_left(broken, end) - bisect_left(broken, start) < _MIN_ROWS:
                start = end  # too few lines broken at a wide gap left in this run of lines for any table
                continue
            found = _grid(lines[start:end], self.sweep.edges(start, end))
            if found is None:
                start += 1
                continue
            grid, first, after = found
            grid = _own_columns(grid, lines[start + first : start + after]) if after < end - start else grid
            if first >= _MIN_ROWS:
                above = lines[start : start + first]
                grids += [grid for grid in self.tables(start, start + first) if _full(grid, above)]
            grids.append(grid)
            start += after
        return grids


def _own_columns(grid: Grid, lines: Sequence[_Line]) -> Grid:
    """A table found in a run of lines that goes on below it, with the columns its own lines share:
    the run's columns are those all its broken lines share, and lines below the table (a list, a
    second table of other columns) may cross a column line the table's rows all leave open (a
    narrow gap between a label and a number). Kept only when its own lines make one table of them
    all, with the run's columns among its own."""
    tabular = [line for line in lines if line.runs >= _MIN_COLUMNS - 1]
    if len(tabular) < _MIN_ROWS:
        return grid
    found = _grid(lines, sorted(edge for line in tabular for edge in line.edges))
    if found is None or found[1] != 0 or found[2] != len(lines):
        return grid
    own = found[0]
    inside = [x for x in grid.columns if grid.box[0] < x < grid.box[2]]
    words = [word for line in lines for word in line.words]
    if not all(any(_open_between(x, y, words) for y in own.columns) for x in inside):
        return grid
    return own if len(own.columns) > len(inside) else grid


def _open_between(x: float, y: float, words: Sequence[Word]) -> bool:
    """Whether no word stands between two column lines (the same gap, found by other lines)."""
    low, high = min(x, y), max(x, y)
    return not any(word.box[0] < high and word.box[2] > low for word in words)


def _full(grid: Grid, lines: Sequence[_Line]) -> bool:
    """Whether `_FULL_ROWS` of the rows of a table of aligned columns have words in every column (of
    those within its box: the run's columns may reach beyond it)."""
    columns = [x for x in grid.columns if grid.box[0] < x < grid.box[2]]
    filled: dict[int, set[int]] = {}
    for line in lines:
        for word in line.words:
            if grid.holds(word):
                row = filled.setdefault(bisect(grid.rows, word.centre[1]), set())
                row.add(bisect(columns, word.centre[0]))
    full = sum(1 for row in filled.values() if len(row) > len(columns))
    return full >= _FULL_ROWS * len(filled)


def _run_ends(lines: Sequence[_Line]) -> list[int]:
    """For each line, the index after the last line of its run: the lines below it that follow each
    other without a gap wider than a table's rows leave."""
    ends = [0] * len(lines)
    end = len(lines)
    for index in range(len(lines) - 1, -1, -1):
        ends[index] = end
        if index > 0 and not _continues(lines[index - 1], lines[index]):
            end = index
    return ends


def _continues(above: _Line, below: _Line) -> bool:
    return below.top - above.bottom <= _ROW_GAP * max(above.height, below.height)


class _Sweep:
    """The edges of the broken lines of a run from a line to the run's end, in order, for the sweep
    that finds their columns (`_column_lines`). The tries of a table's first row go down a run a
    line or a table at a time: its edges are sorted once, and the edges of each line a try leaves
    above are taken out, rather than the edges below sorted anew for every try."""

    def __init__(self, lines: Sequence[_Line]) -> None:
        self.lines = lines
        self.start = self.end = -1
        self.sorted: list[tuple[float, int]] = []

    def edges(self, start: int, end: int) -> list[tuple[float, int]]:
        if end != self.end or start < self.start:
            self.sorted = sorted(
                edge for line in self.lines[start:end] if line.runs >= _MIN_COLUMNS - 1 for edge in line.edges
            )
        else:
            for line in self.lines[self.start : start]:
                if line.runs >= _MIN_COLUMNS - 1:
                    for edge in line.edges:
                        del self.sorted[bisect_left(self.sorted, edge)]
        self.start, self.end = start, end
        return self.sorted


def _grid(lines: Sequence[_Line], edges: Sequence[tuple[float, int]]) -> tuple[Grid, int, int] | None:
    """The grid of a run of lines, trimmed to the lines that fit its columns, with the index of its
    first line and of the line after it; None when the run holds no table. `edges`: those of its
    broken lines, in order."""
    tabular = [line for line in lines if line.runs >= _MIN_COLUMNS - 1]
    if len(tabular) < _MIN_ROWS:
        return None
    # Whether the lines hold a table, and which, is read from the wide column lines alone: a narrow
    # one (`_column_lines`) only parts the cells of a table found without it.
    gutters, narrow = _column_lines(tabular, edges)
    if len(gutters) < _MIN_COLUMNS - 1:
        return None
    fits = [_fits(line, gutters) for line in lines]
    cells_of: dict[int, list[list[Word]]] = {}

    def cells(index: int) -> list[list[Word]]:
        if index not in cells_of:
            cells_of[index] = _cells(lines[index], gutters)
        return cells_of[index]

    # The table is the longest stretch of fitting lines that holds enough rows of several cells.
    best: tuple[int, int] | None = None
    first = None
    for index, fit in enumerate([*fits, False]):
        if fit and first is None:
            first = index
        elif not fit and first is not None:
            if best is None or index - first > best[1] - best[0]:
                best = (first, index)
            first = None
    if best is None:
        return None
    first = best[0]
    filled = [sum(1 for cell in cells(index) if cell) for index in range(*best)]
    typical = sorted(filled)[len(filled) // 2]
    for count in filled:  # lines above the header that fill two columns fewer (an address) are not rows
        if count >= typical - 1:
            break
        first += 1
    if first > 0 and _continues(lines[first - 1], lines[first]) and lines[first - 1].runs > 1:
        # a header whose words run over a column line; a caption, one run of words, spans the columns
        above = {bisect(gutters, word.centre[0]) for word in lines[first - 1].words}
        if len(above) >= max(_MIN_COLUMNS, typical - 1):
            first -= 1
    first = _stacked_header_lines(lines, first, best[1], gutters)
    kept = lines[first : best[1]]
    rows_of_cells = [
        index for index in range(first, best[1]) if sum(1 for cell in cells(index) if cell) >= _MIN_COLUMNS
    ]
    if len(rows_of_cells) < _MIN_ROWS:
        return None
    filled_cells = [cell for index in range(first, best[1]) for cell in cells(index) if cell]
    if sum(len(cell) for cell in filled_cells) / len(filled_cells) > _MAX_WORDS_A_CELL:
        return None
    starts = _row_starts(kept, gutters)
    rows = tuple((kept[i - 1].bottom + kept[i].top) / 2 for i in starts[1:])
    box = (
        min(word.box[0] for line in kept for word in line.words),
        min(line.top for line in kept),
        max(word.box[2] for line in kept for word in line.words),
        max(line.bottom for line in kept),
    )
    wide, unbroken = _column_gap(tabular), [line for line in kept if line.runs < _MIN_COLUMNS - 1]
    narrow = [
        x for x in narrow if _parts_filled_cells(kept, gutters, x) and not _parts_a_phrase(unbroken, x, wide)
    ]
    gutters = _clear_of_phrases(kept, gutters, wide)
    return Grid(box, tuple(sorted(gutters + narrow)), rows), first, best[1]


def _clear_of_phrases(lines: Sequence[_Line], gutters: Sequence[float], wide: float) -> list[float]:
    """The wide column lines of a table found, each moved out of a phrase it parts: drawn in the middle
    of the range its column's short cells leave, a line may fall into the word space of a header
    wider than its column ("Equivalent code" over "\\ho", "\\s", ...). It then goes to the middle of
    the widest range that no word of the table crosses, wider than a word space, within the range the
    other lines leave it (so that no cell of theirs changes its column); it stays where it is when
    there is none."""
    moved = []
    for x in gutters:
        parting = [line for line in lines if _parts_a_phrase([line], x, wide)]
        if not parting:
            moved.append(x)
            continue
        others = [word for line in lines if line not in parting for word in line.words]
        low = max((word.box[2] for word in others if word.centre[0] < x), default=x)
        high = min((word.box[0] for word in others if word.centre[0] > x), default=x)
        spans = sorted(
            (word.box[0], word.box[2])
            for line in parting
            for word in line.words
            if low < word.centre[0] < high
        )
        best: tuple[float, float] | None = None
        reach = low
        for start, end in [*spans, (high, high)]:
            if start - reach >= wide and (best is None or start - reach > best[1] - best[0]):
                best = (reach, start)
            reach = max(reach, end)
        moved.append((best[0] + best[1]) / 2 if best else x)
    return moved


def _stacked_header_lines(lines: Sequence[_Line], first: int, end: int, gutters: Sequence[float]) -> int:
    """The index of the table's first line once the header lines stacked over it are taken in
    (`_stacked_header`): a heading over a group of columns crosses a column line and fits none."""
    left = min(word.box[0] for line in lines[first:end] for word in line.words)
    right = max(word.box[2] for line in lines[first:end] for word in line.words)
    return first - len(_stacked_header(lines, first, (left, *gutters, right)))


def _parts_filled_cells(lines: Sequence[_Line], gutters: Sequence[float], x: float) -> bool:
    """Whether a narrow column line parts words on both its sides in `_MIN_ROWS` lines at least,
    within the column of the wide lines it stands in: a column of short numbers set in the middle
    of a wide column has narrow ranges on both its sides, and no cell on either."""
    index = bisect(gutters, x)
    low = gutters[index - 1] if index else -float("inf")
    high = gutters[index] if index < len(gutters) else float("inf")
    parted = 0
    for line in lines:
        middles = [word.centre[0] for word in line.words if low < word.centre[0] < high]
        if any(m < x for m in middles) and any(m > x for m in middles):
            parted += 1
    return parted >= _MIN_ROWS


def _parts_a_phrase(lines: Sequence[_Line], x: float, wide: float) -> bool:
    """Whether a narrow column line falls between two neighbouring words of a line, one middle on
    each side, less than `wide` apart. The lines are those the line was not found from (`_grid`'s
    lines of one run: `_apart_in_each_line` looked at the others, where a word across the line, a
    long label close to its number, is one of the few a column line may cross): the first line of a
    label wrapped over its row is one phrase, not two cells."""
    for line in lines:
        words = sorted(line.words, key=_left)
        for before, after in pairwise(words):
            if before.centre[0] < x < after.centre[0] and after.box[0] - before.box[2] < wide:
                return True
    return False


def _row_starts(lines: Sequence[_Line], gutters: Sequence[float]) -> list[int]:
    """The lines that start a row. A line continues the row above (a cell's text wrapped) when the rows
    of the table stand visibly further apart than its lines, it is as close to the line above as the
    closest lines, and its first column is empty while the row's is not; unless it fills every other
    column, `_MIN_COLUMNS` at least (a row under a label that spans a group of rows, in a column of its
    own: text wrapped in a row's cells seldom fills them all), or its cells are figures under figures
    (`_figures_under_figures`)."""
    pitches = [b.top - a.top for a, b in pairwise(lines)]
    starts = [0]
    if not pitches or max(pitches) <= _ROW_SPACING * min(pitches):
        return list(range(len(lines)))
    closest = min(pitches)
    left = min(word.box[0] for line in lines for word in line.words)
    right = max(word.box[2] for line in lines for word in line.words)
    inside = [x for x in gutters if left < x < right]  # a run's columns may reach beyond the table
    cells = [_cells(line, inside) for line in lines]
    first_filled = [bool(_cells(line, gutters)[0]) for line in lines]
    for index in range(1, len(lines)):
        row = len(inside) >= _MIN_COLUMNS and all(cells[index][1:])
        row = row or _figures_under_figures(cells[index][1:], cells[index - 1][1:])
        wrapped = pitches[index - 1] <= _WRAPPED * closest and not first_filled[index] and not row
        if not (wrapped and first_filled[starts[-1]]):
            starts.append(index)
    return starts


# A figure: a number, and the marks of significance a regression table sets after its coefficients.
_FIGURE = re.compile(rf"(?:{_NUMBER.pattern})[*\u2217\u2020\u2021]*")


def _figures_under_figures(cells: Sequence[Sequence[Word]], above: Sequence[Sequence[Word]]) -> bool:
    """Whether every filled one of a line's cells is a number standing under a figure of the
    line above (a regression's standard errors under its coefficients, a statement's second entry
    under the first): a number is never wrapped onto the next line, so the line is a row of its own.
    A number under words (a reference wrapped off the end of a description) may be their wrap."""
    filled = [(_text(cell), _text(over)) for cell, over in zip(cells, above, strict=True) if cell]
    return bool(filled) and all(
        _NUMBER.fullmatch(cell) is not None and _FIGURE.fullmatch(over) is not None for cell, over in filled
    )


def _text(cell: Sequence[Word]) -> str:
    return " ".join(word.text for word in sorted(cell, key=_left))


def _column_lines(
    lines: Sequence[_Line], edges: Sequence[tuple[float, int]]
) -> tuple[list[float], list[float]]:
    """The column lines of the lines (`edges`: where their words start and end, in order): the
    middles of the x ranges, wider than a word space, that no word crosses in all but a few of the
    lines, between the leftmost and rightmost words. Words, not runs of words: a long cell may come
    close to the next one, never across its edge.

    And, apart, the narrow column lines: those of narrower ranges where each line that no word
    crosses leaves a gap wider than a word space (`_apart_in_each_line`): the ragged edges of a
    column of labels set left and of a column of numbers set right come close, or pass each other,
    from row to row, while every row holds its label well apart from its number. Such a line is
    drawn where the fewest words cross it, and a word across it, in one of the few lines that may
    cross one, falls in the column of its middle (a header wider than its column, a long label)."""
    allowed = int(len(lines) * _MISFITS)
    wide = _column_gap(lines)
    gutters: list[float] = []
    narrow: list[float] = []
    depth = 0
    opened: float | None = None
    since = 0.0  # where the open range's present depth began
    fewest: tuple[int, float, float, float] | None = None  # (depth, -width, start, end): the least crossed
    left = edges[0][0]
    for x, step in edges:
        if opened is not None:
            if x > since and (fewest is None or (depth, since - x) < fewest[:2]):
                fewest = (depth, since - x, since, x)
            since = x
        depth += step
        if opened is None:
            if depth <= allowed and x > left:
                opened, since, fewest = x, x, None
        elif depth > allowed:
            if x - opened >= wide:
                gutters.append((opened + x) / 2)
            elif fewest is not None and _apart_in_each_line(lines, (fewest[2] + fewest[3]) / 2, wide):
                middle = (fewest[2] + fewest[3]) / 2
                if not narrow or _between(lines, narrow[-1], middle):  # not two lines for one edge
                    narrow.append(middle)
            opened = None
    return gutters, narrow


def _column_gap(lines: Sequence[_Line]) -> float:
    """The least width of a column's edge: wider than the space between two words of the lines."""
    return max(_MIN_GAP, _WORD_SPACE * max(line.height for line in lines))


def _between(lines: Sequence[_Line], x0: float, x1: float) -> bool:
    """Whether a word stands wholly between two x: two narrow ranges that only a few words part (a
    header wider than its column, a long label) are one column's edge, drawn once."""
    return any(x0 <= word.box[0] and word.box[2] <= x1 for line in lines for word in line.words)


def _apart_in_each_line(lines: Sequence[_Line], x: float, wide: float) -> bool:
    """Whether each line with words on both sides of `x`, none across it, leaves a gap at least
    `wide` about it (a line with a word across it is one of the few a column line may cross)."""
    for line in lines:
        before = [word.box[2] for word in line.words if word.box[2] <= x]
        after = [word.box[0] for word in line.words if word.box[0] >= x]
        if (
            len(before) + len(after) == len(line.words)
            and before
            and after
            and min(after) - max(before) < wide
        ):
            return False
    return True


def _fits(line: _Line, gutters: Sequence[float]) -> bool:
    """A line fits the columns when none of its words crosses a column line."""
    for word in line.words:
        index = bisect(gutters, word.box[0])
        if index < len(gutters) and gutters[index] < word.box[2]:
            return False
    return True


def _cells(line: _Line, gutters: Sequence[float]) -> list[list[Word]]:
    cells: list[list[Word]] = [[] for _ in range(len(gutters) + 1)]
    for word in line.words:
        cells[bisect(gutters, word.centre[0])].append(word)
    return cells
