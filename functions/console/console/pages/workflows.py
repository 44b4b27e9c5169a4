"""/workflows: the environment's workflows, a workflow's page with its draft graph drawn (blocks as
boxes, edges as arrows, laid out here in layers) and the diagnosis the API answers for it shown on its
blocks and listed, its runs, and a run's page with what each block did.

The drawing is an SVG template fed with the numbers `layout` computes: each block's layer is its depth
from the sources (the longest path to it, edges that close a cycle set aside), and within a layer the
blocks are ordered by the mean row of the blocks that feed them (then as the graph lists them)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Annotated

from docsvc.domain.lists import ListQuery
from docsvc.domain.workflows import WorkflowService
from docsvc.services import workflow_service
from docsvc.workflows.diagnosis import Issue
from docsvc.workflows.graph import Block, Edge, Graph
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from console.context import Console
from console.listing import PAGE_SIZE
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/workflows")
Workflows = Annotated[WorkflowService, Depends(workflow_service)]

BOX_WIDTH, BOX_HEIGHT = 200.0, 64.0
COLUMN_GAP, ROW_GAP, MARGIN = 90.0, 36.0, 24.0
LABEL_CHARACTERS = 24  # of a block's label inside its box; its title carries it whole
SEVERITIES = ("error", "warning", "info")
Node = str | tuple[int, int]  # a block by its id, or the slot (edge position, layer) a long edge passes
# The colours of an issue marker (fill, text) by severity; the marker says the severity in words too.
MARKER_COLOURS = {
    "error": ("#a4161a", "#ffffff"),
    "warning": ("#8a5a00", "#ffffff"),
    "info": ("#0b5cad", "#ffffff"),
}


@dataclass
class Box:
    """A block drawn: its top-left corner, its text, and the diagnosis issues that concern it."""

    id: str
    type: str
    label: str
    layer: int
    row: int
    x: float = 0.0
    y: float = 0.0
    width: float = BOX_WIDTH
    height: float = BOX_HEIGHT
    issues: list[Issue] = field(default_factory=list)

    @property
    def short_label(self) -> str:
        text = self.label or self.id
        return text if len(text) <= LABEL_CHARACTERS else text[: LABEL_CHARACTERS - 1] + "…"

    @property
    def severity(self) -> str | None:
        """The worst severity among its issues; None without issues."""
        found = {issue.severity for issue in self.issues}
        return next((severity for severity in SEVERITIES if severity in found), None)

    @property
    def marker(self) -> str:
        """The marker's words: `2 issues: error` — the count and the worst severity."""
        count = len(self.issues)
        return f"{count} {'issue' if count == 1 else 'issues'}: {self.severity}" if count else ""

    @property
    def marker_colours(self) -> tuple[str, str]:
        return MARKER_COLOURS[self.severity or "info"]


@dataclass(frozen=True)
class Arrow:
    """An edge drawn: an SVG path from its source box to its target box (below both, for an edge that
    goes back to an earlier layer or to its own block)."""

    id: str
    source: str
    target: str
    path: str
    back: bool


@dataclass(frozen=True)
class Drawing:
    boxes: list[Box]
    arrows: list[Arrow]
    width: float
    height: float
    undrawn: list[Edge]  # edges whose source or target is no block of the graph


def layout(graph: Graph, issues: Sequence[Issue] = ()) -> Drawing:
    """The boxes and arrows of `graph`, each block in its layer and row, and `issues` on their blocks.
    A block id given twice is drawn once (the first, as the diagnosis reads it). An edge that spans
    several layers passes through a free slot of each layer between (a row of its own there), so no
    arrow crosses a box."""
    blocks: dict[str, Block] = {}
    for block in graph.blocks:
        blocks.setdefault(block.id, block)
    edges = [edge for edge in graph.edges if edge.source_block in blocks and edge.target_block in blocks]
    backward = _closing_edges(list(blocks), edges)
    forward = {index: edge for index, edge in enumerate(edges) if index not in backward}
    depth = _depths(list(blocks), list(forward.values()))
    via: dict[int, list[Node]] = {}  # the slots a long edge passes through, by its position in `edges`
    links: list[tuple[Node, Node]] = []
    for index, edge in forward.items():
        spanned = range(depth[edge.source_block] + 1, depth[edge.target_block])
        via[index] = [(index, layer) for layer in spanned]
        depth.update({(index, layer): layer for layer in spanned})
        links += list(pairwise([edge.source_block, *via[index], edge.target_block]))
    rows = _rows([*blocks, *(slot for slots in via.values() for slot in slots)], links, depth)
    boxes: dict[str, Box] = {}
    for block_id, block in blocks.items():
        box = Box(block_id, block.type, block.label, depth[block_id], rows[block_id])
        box.x, box.y = _corner(box.layer, box.row)
        boxes[block_id] = box
    for issue in issues:
        if issue.block_id in boxes:
            boxes[issue.block_id].issues.append(issue)
    slots = {slot: _corner(depth[slot], rows[slot]) for slots in via.values() for slot in slots}
    arrows = _arrows(edges, boxes, {index: [slots[slot] for slot in names] for index, names in via.items()})
    layers = max(depth.values(), default=-1) + 1
    tallest = max(rows.values(), default=-1) + 1
    width = 2 * MARGIN + max(layers, 1) * BOX_WIDTH + max(layers - 1, 0) * COLUMN_GAP
    height = 2 * MARGIN + max(tallest, 1) * BOX_HEIGHT + max(tallest - 1, 0) * ROW_GAP + ROW_GAP
    undrawn = [edge for edge in graph.edges if edge not in edges]
    return Drawing(list(boxes.values()), arrows, width, height, undrawn)


def _corner(layer: int, row: int) -> tuple[float, float]:
    return MARGIN + layer * (BOX_WIDTH + COLUMN_GAP), MARGIN + row * (BOX_HEIGHT + ROW_GAP)


def _closing_edges(order: list[str], edges: list[Edge]) -> set[int]:
    """The positions in `edges` of those that close a cycle: found by a depth-first walk from the
    blocks without inputs (then from any block not reached yet), an edge to a block still on the
    walk's path."""
    following: dict[str, list[int]] = defaultdict(list)
    for position, link in enumerate(edges):
        following[link.source_block].append(position)
    fed = {link.target_block for link in edges}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    closing: set[int] = set()
    for root in [block for block in order if block not in fed] + order:
        if root in state:
            continue
        stack: list[tuple[str, Iterator[int]]] = [(root, iter(following[root]))]
        state[root] = 1
        while stack:
            block, rest = stack[-1]
            index = next(rest, None)
            if index is None:
                state[block] = 2
                stack.pop()
                continue
            target = edges[index].target_block
            if state.get(target) == 1:
                closing.add(index)
            elif target not in state:
                state[target] = 1
                stack.append((target, iter(following[target])))
    return closing


def _depths(order: list[str], edges: list[Edge]) -> dict[Node, int]:
    """The longest path from a source to each block, over edges that form no cycle (Kahn's order)."""
    incoming = {block: 0 for block in order}
    following: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        following[edge.source_block].append(edge.target_block)
        incoming[edge.target_block] += 1
    depth: dict[Node, int] = dict.fromkeys(order, 0)
    ready = [block for block in order if incoming[block] == 0]
    while ready:
        block = ready.pop(0)
        for target in following[block]:
            depth[target] = max(depth[target], depth[block] + 1)
            incoming[target] -= 1
            if incoming[target] == 0:
                ready.append(target)
    return depth


def _rows(order: list[Node], links: list[tuple[Node, Node]], depth: dict[Node, int]) -> dict[Node, int]:
    """Each block's (or slot's) row in its layer: layer by layer, by the mean row of what feeds it,
    then in the graph's order."""
    feeding: dict[Node, list[Node]] = defaultdict(list)
    for source, target in links:
        feeding[target].append(source)
    position = {name: index for index, name in enumerate(order)}
    rows: dict[Node, int] = {}
    for layer in sorted({depth[name] for name in order}):
        members = [name for name in order if depth[name] == layer]

        def weight(name: Node) -> tuple[float, int]:
            fed_by = [rows[source] for source in feeding[name] if source in rows]
            return (sum(fed_by) / len(fed_by) if fed_by else float(position[name]), position[name])

        for row, name in enumerate(sorted(members, key=weight)):
            rows[name] = row
    return rows


def _arrows(
    edges: list[Edge], boxes: dict[str, Box], via: dict[int, list[tuple[float, float]]]
) -> list[Arrow]:
    """One path per edge: forward ones from the right of the source to the left of the target, curved
    across the gaps between layers and straight through the slots `via` gives them; edges between
    the same two blocks a few points apart."""
    seen: dict[tuple[str, str], int] = defaultdict(int)
    arrows = []
    for index, edge in enumerate(edges):
        source, target = boxes[edge.source_block], boxes[edge.target_block]
        nth = seen[(source.id, target.id)]
        seen[(source.id, target.id)] += 1
        shift = 8.0 * nth
        if index in via:
            middle = BOX_HEIGHT / 2 + shift
            points = [(source.x + source.width, source.y + middle)]
            for x, y in via[index]:
                points += [(x, y + middle), (x + BOX_WIDTH, y + middle)]
            points.append((target.x, target.y + middle))
            path = f"M {points[0][0]:g} {points[0][1]:g}"
            for step, ((x1, y1), (x2, y2)) in enumerate(pairwise(points)):
                bend = (x2 - x1) / 2
                if step % 2:  # through a slot
                    path += f" L {x2:g} {y2:g}"
                else:  # across a gap
                    path += f" C {x1 + bend:g} {y1:g} {x2 - bend:g} {y2:g} {x2:g} {y2:g}"
            arrows.append(Arrow(edge.id, source.id, target.id, path, back=False))
        else:  # back to an earlier layer, the same layer, or its own block: a loop below the boxes
            x1, y1 = source.x + source.width / 2 + shift, source.y + source.height
            x2, y2 = target.x + target.width / 2 - shift, target.y + target.height
            low = max(y1, y2) + ROW_GAP * 0.8
            path = f"M {x1:g} {y1:g} C {x1:g} {low:g} {x2:g} {low:g} {x2:g} {y2:g}"
            arrows.append(Arrow(edge.id, source.id, target.id, path, back=True))
    return arrows


# ---------------------------------------------------------------------------------------- the pages
@router.get("", include_in_schema=False)
def list_workflows(request: Request, console: Console, workflows: Workflows, after: str = "") -> Response:
    page = workflows.list(console.tenant, ListQuery(limit=PAGE_SIZE, after=after or None))
    return render(request, "workflows/list.html", console, workflows=page.items, cursor=page.after)


@router.get("/runs/{run_id}", include_in_schema=False)
def show_run(request: Request, console: Console, workflows: Workflows, run_id: str) -> Response:
    run = workflows.get_run(console.tenant, run_id)
    return render(request, "workflows/run.html", console, run=run)


@router.get("/{workflow_id}", include_in_schema=False)
def show_workflow(
    request: Request, console: Console, workflows: Workflows, workflow_id: str, after: str = ""
) -> Response:
    workflow = workflows.get(console.tenant, workflow_id)
    graph = workflows.graph(console.tenant, workflow_id)
    diagnosis = workflows.diagnose(console.tenant, workflow_id, graph)
    runs = workflows.runs(console.tenant, workflow_id, ListQuery(limit=PAGE_SIZE, after=after or None))
    drawing = layout(graph, diagnosis.issues)
    return render(
        request,
        "workflows/detail.html",
        console,
        workflow=workflow,
        graph=graph,
        diagnosis=diagnosis,
        drawing=drawing,
        labels={block.id: block.label or block.id for block in graph.blocks},
        runs=runs.items,
        cursor=runs.after,
    )
