"""The console's Workflows section through the real handler, as a member (not an admin) sees it: the
environment's workflows, a workflow's draft graph drawn (a box per block, an arrow per edge, no two
boxes overlapping) with the API's diagnosis on its blocks and listed, its runs and a run's page; and
the layout the drawing is made from."""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

import httpx
from console.pages.workflows import layout
from docsvc.local.stack import Deployment
from docsvc.workflows.diagnosis import Issue
from docsvc.workflows.graph import Graph

from tests.conftest import Org, auth
from tests.integration.test_console_runs import every_page, linked
from tests.integration.test_intelligence import doc, invoice
from tests.integration.test_workflows import SCHEMA, block, create, edge, invoice_graph, run_and_wait

Rectangle = tuple[float, float, float, float]


def boxes_of(page: httpx.Response) -> dict[str, Rectangle]:
    """Each drawn block's rectangle (x, y, width, height), by block id."""
    found = re.findall(
        r'<g class="block" data-block="([^"]+)" data-x="([\d.]+)" data-y="([\d.]+)" '
        r'data-width="([\d.]+)" data-height="([\d.]+)">',
        page.text,
    )
    return {html.unescape(b): (float(x), float(y), float(w), float(h)) for b, x, y, w, h in found}


def arrows_of(page: httpx.Response) -> list[tuple[str, str]]:
    """(source, target) of each drawn edge."""
    found = re.findall(
        r'<path class="edge[^"]*" data-edge="[^"]*" data-source="([^"]+)" data-target="([^"]+)"', page.text
    )
    return [(html.unescape(source), html.unescape(target)) for source, target in found]


def markers_of(page: httpx.Response) -> dict[str, tuple[int, str, str]]:
    """The issue marker of each block that has one: (count, severity, its words)."""
    markers = {}
    for match in re.finditer(
        r'<g class="block" data-block="([^"]+)"(.*?)(?=<g class="block"|</g>\s*</svg>)', page.text, re.S
    ):
        marker = re.search(
            r'class="issue-marker" data-severity="(\w+)" data-count="(\d+)">.*?<text[^>]*>([^<]+)</text>',
            match.group(2),
            re.S,
        )
        if marker:
            markers[html.unescape(match.group(1))] = (int(marker.group(2)), marker.group(1), marker.group(3))
    return markers


def overlap(one: Rectangle, other: Rectangle) -> bool:
    return (
        one[0] < other[0] + other[2]
        and other[0] < one[0] + one[2]
        and one[1] < other[1] + other[3]
        and other[1] < one[1] + one[3]
    )


def diagnosis(api: httpx.Client, key: str, workflow_id: str) -> dict[str, Any]:
    answer = api.post(f"/v1/workflows/{workflow_id}/diagnose-graph", headers=auth(key))
    assert answer.status_code == 200, answer.text
    diagnosed: dict[str, Any] = answer.json()
    return diagnosed


BROKEN = {
    "blocks": [
        block("start", "start_document"),
        block("extract", "extract"),  # no json_schema
        block("check", "conditional"),  # no condition
        block("mystery", "teleport"),
        block("notify", "api_call", url="https://93.184.216.34/hook", headers={"X": "secret://NOPE"}),
    ],
    "edges": [
        edge("start", "extract"),
        edge("extract", "check", "output-json-0", "input-json-0"),
        edge("check", "notify", "output-json-0", "input-json-0"),
        edge("start", "mystery"),
        edge("start", "ghost"),
    ],
}


# ---------------------------------------------------------------------------- the list


def test_the_workflow_list_shows_its_environments_workflows_25_a_page(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    made = [create(api, org.test.key, name=f"Flow {number}")["id"] for number in range(26)]
    production = create(api, org.production.key, name="Live flow")
    theirs = create(api, other_org.test.key, name="Their flow")
    console = signed_in(org, role="member")

    pages = every_page(console, f"{console.base()}/workflows", "workflows")

    assert [len(ids) for ids in pages] == [25, 1]
    assert pages[0] + pages[1] == list(reversed(made))
    assert linked(console.get(f"{console.base('production')}/workflows"), "workflows") == [production["id"]]
    assert theirs["id"] not in str(pages)


# ---------------------------------------------------------------------------- the graph


def test_the_graph_has_a_box_per_block_and_an_arrow_per_edge_none_overlapping(
    signed_in, api: httpx.Client, org: Org
) -> None:
    graph = invoice_graph("https://93.184.216.34/ledger")
    workflow = create(api, org.test.key, graph)
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/workflows/{workflow['id']}")

    assert page.status_code == 200
    boxes = boxes_of(page)
    assert sorted(boxes) == sorted(item["id"] for item in graph["blocks"])
    assert Counter(arrows_of(page)) == Counter((item["source"], item["target"]) for item in graph["edges"])
    rectangles = list(boxes.values())
    assert not any(overlap(a, b) for i, a in enumerate(rectangles) for b in rectangles[i + 1 :])
    # layered from the start block: each edge goes to a later column
    for source, target in arrows_of(page):
        assert boxes[source][0] < boxes[target][0]
    assert (
        'role="img"' in page.text
        and '<title id="graph-title">The draft graph of Invoices</title>' in page.text
    )


def test_each_diagnosis_issue_is_shown_on_its_block_and_listed_with_it(
    signed_in, api: httpx.Client, org: Org
) -> None:
    workflow = create(api, org.test.key, BROKEN, name="Broken")
    expected = diagnosis(api, org.test.key, workflow["id"])
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/workflows/{workflow['id']}")

    per_block = Counter(issue["block_id"] for issue in expected["issues"] if issue["block_id"])
    assert per_block, expected  # the graph has issues on blocks
    markers = markers_of(page)
    assert {block_id: marker[0] for block_id, marker in markers.items()} == dict(per_block)
    for block_id, (count, severity, words) in markers.items():
        severities = {issue["severity"] for issue in expected["issues"] if issue["block_id"] == block_id}
        worst = next(level for level in ("error", "warning", "info") if level in severities)
        assert severity == worst
        assert words == f"{count} {'issue' if count == 1 else 'issues'}: {worst}"
    rows = re.findall(r'<tr data-block="([^"]*)">(.*?)</tr>', page.text, re.S)
    assert len(rows) == len(expected["issues"])
    for issue, (block_id, row) in zip(expected["issues"], rows, strict=True):
        assert html.unescape(block_id) == (issue["block_id"] or "")
        assert issue["message"] in html.unescape(row)
        assert issue["severity"] in row
        assert (issue["block_id"] or "the whole graph") in html.unescape(row)
    assert "cannot be published" in page.text
    assert "ghost" in page.text and "Not drawn" in page.text  # the dangling edge, said in words
    assert len(arrows_of(page)) == len(BROKEN["edges"]) - 1


def test_a_graph_with_a_cycle_is_drawn_with_every_edge_and_the_cycle_named(
    signed_in, api: httpx.Client, org: Org
) -> None:
    graph = {
        "blocks": [
            block("start", "start_document"),
            block("a", "extract", json_schema=SCHEMA),
            block("b", "extract", json_schema=SCHEMA),
        ],
        "edges": [edge("start", "a"), edge("a", "b"), edge("b", "a")],
    }
    workflow = create(api, org.test.key, graph)
    console = signed_in(org, role="member")

    page = console.get(f"{console.base()}/workflows/{workflow['id']}")

    boxes = boxes_of(page)
    assert boxes["start"][0] < boxes["a"][0] < boxes["b"][0]
    assert Counter(arrows_of(page)) == Counter([("start", "a"), ("a", "b"), ("b", "a")])
    assert page.text.count('class="edge edge-back"') == 1
    assert "CYCLE" in page.text


# ---------------------------------------------------------------------------- runs


def test_a_workflows_runs_are_listed_and_a_run_shows_what_each_block_did(
    signed_in, api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    graph = {
        "blocks": [block("start", "start_document"), block("extract", "extract", json_schema=SCHEMA)],
        "edges": [edge("start", "extract")],
    }
    workflow = create(api, org.test.key, graph)
    run = run_and_wait(
        api,
        deployment,
        org.test.key,
        workflow["id"],
        {"documents": {"start": doc(invoice())}, "version": "draft"},
    )
    console = signed_in(org, role="member")

    listed = console.get(f"{console.base()}/workflows/{workflow['id']}")
    shown = console.get(f"{console.base()}/workflows/runs/{run['id']}")

    assert run["status"] == "completed"
    assert f'{console.base()}/workflows/runs/{run["id"]}"' in listed.text
    assert shown.status_code == 200
    extract_job = run["blocks"]["extract"]["job_id"]
    assert f'href="{console.base()}/jobs/{extract_job}"' in shown.text
    rows = dict(re.findall(r"<tr>\s*<td>([^<]+)</td>\s*<td><span class=\"status status-(\w+)\">", shown.text))
    assert rows == {block_id: state["status"] for block_id, state in run["blocks"].items()}
    assert console.get(f"{console.base()}/jobs/{extract_job}").status_code == 200


def test_a_failed_run_shows_its_error(signed_in, api: httpx.Client, deployment: Deployment, org: Org) -> None:
    workflow = create(api, org.test.key, invoice_graph("https://93.184.216.34/ledger"))  # no API_TOKEN secret
    body = {"documents": {"start": doc(invoice())}, "version": "draft"}
    failed = run_and_wait(api, deployment, org.test.key, workflow["id"], body)
    console = signed_in(org, role="member")

    shown = console.get(f"{console.base()}/workflows/runs/{failed['id']}")

    assert failed["status"] == "failed"
    assert failed["error"]["message"] in html.unescape(shown.text)
    assert "status-failed" in shown.text


def test_a_workflow_or_run_of_another_environment_or_organization_is_not_found(
    signed_in, api: httpx.Client, deployment: Deployment, org: Org, other_org: Org
) -> None:
    production = create(api, org.production.key)
    theirs = create(api, other_org.test.key)
    body = {"documents": {"start": doc(invoice())}, "version": "draft"}
    graph = {"blocks": [block("start", "start_document")], "edges": []}
    their_run = run_and_wait(
        api, deployment, other_org.test.key, create(api, other_org.test.key, graph)["id"], body
    )
    console = signed_in(org, role="member")

    for path in (
        f"/workflows/{production['id']}",
        f"/workflows/{theirs['id']}",
        "/workflows/wf_nothing",
        f"/workflows/runs/{their_run['id']}",
        "/workflows/runs/run_nothing",
    ):
        assert console.get(console.base() + path).status_code == 404, path


# ---------------------------------------------------------------------------- the layout


def test_the_layout_puts_each_block_at_its_longest_path_from_the_sources() -> None:
    graph = Graph.model_validate(
        {
            "blocks": [block(name, "extract") for name in ("a", "b", "c", "d")],
            "edges": [edge("a", "b"), edge("b", "d"), edge("a", "c"), edge("a", "d")],
        }
    )

    drawing = layout(graph)

    layers = {box.id: box.layer for box in drawing.boxes}
    assert layers == {"a": 0, "b": 1, "c": 1, "d": 2}
    assert len(drawing.arrows) == 4 and not any(arrow.back for arrow in drawing.arrows)


def test_the_layout_draws_loops_duplicates_and_parallel_edges_apart() -> None:
    graph = Graph.model_validate(
        {
            "blocks": [block("a", "extract"), block("b", "extract"), block("a", "parse")],
            "edges": [
                edge("a", "a"),
                edge("a", "b"),
                {**edge("a", "b"), "id": "second", "source_handle": "output-json-0"},
                edge("b", "nowhere"),
            ],
        }
    )
    issue = Issue(severity="error", code="DUPLICATE_BLOCK_ID", message="two blocks are a", block_id="a")

    drawing = layout(graph, [issue])

    assert [box.id for box in drawing.boxes] == ["a", "b"]
    assert drawing.boxes[0].type == "extract" and drawing.boxes[0].marker == "1 issue: error"
    assert [arrow.back for arrow in drawing.arrows] == [True, False, False]
    assert drawing.arrows[1].path != drawing.arrows[2].path
    assert [item.id for item in drawing.undrawn] == ["b->nowhere"]


def test_an_edge_that_spans_layers_passes_beside_the_boxes_between() -> None:
    graph = Graph.model_validate(
        {
            "blocks": [block(name, "extract") for name in ("start", "x", "y", "end")],
            "edges": [edge("start", "x"), edge("x", "y"), edge("y", "end"), edge("start", "end")],
        }
    )

    drawing = layout(graph)

    long = next(arrow for arrow in drawing.arrows if (arrow.source, arrow.target) == ("start", "end"))
    numbers = [float(number) for number in re.findall(r"-?[\d.]+", long.path)]
    points = list(zip(numbers[::2], numbers[1::2], strict=True))
    assert " L " in long.path  # straight through the slots of the layers between
    for box in drawing.boxes:
        for x, y in points:
            assert not (box.x < x < box.x + box.width and box.y < y < box.y + box.height), (box.id, x, y)
    rectangles = [(box.x, box.y, box.width, box.height) for box in drawing.boxes]
    assert not any(overlap(a, b) for i, a in enumerate(rectangles) for b in rectangles[i + 1 :])
