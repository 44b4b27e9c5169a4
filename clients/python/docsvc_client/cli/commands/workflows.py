"""`docsvc workflows list|diagnose|run` (promotion to production is `docsvc admin workflows promote`)."""

from __future__ import annotations

import argparse
from typing import Any

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context, key_value, read_json_argument
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column, Progress, render_fields, render_table

COLUMNS: list[Column] = [
    ("id", "id"),
    ("name", "name"),
    ("published", "published_version"),
    ("updated", "updated_at"),
]
RUN_FIELDS: list[Column] = [
    ("id", "id"),
    ("workflow", "workflow_id"),
    ("version", "version"),
    ("status", "status"),
    ("created", "created_at"),
    ("finished", "finished_at"),
    ("error", "error"),
]
RUN_FINISHED = frozenset({"completed", "failed"})


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "workflows", "graphs of blocks and their runs")
    add_paging(leaf(actions, "list", "list workflows", _list, common))
    diagnose = leaf(
        actions, "diagnose", "check a workflow's graph (the stored draft by default)", _diagnose, common
    )
    diagnose.add_argument("id")
    diagnose.add_argument("--graph", metavar="FILE", help="a JSON file {blocks, edges} to check instead")
    run = leaf(actions, "run", "start a run of a workflow", _run, common)
    run.add_argument("id")
    run.add_argument(
        "--document", action="append", default=[], metavar="BLOCK=PATH", help="a document for a start block"
    )
    run.add_argument(
        "--input", action="append", default=[], metavar="BLOCK=JSON", help="JSON for a start_json block"
    )
    run.add_argument("--version", default=None, help="draft, published (the default) or a version number")
    run.add_argument("--wait", action="store_true", help="wait until the run has finished")
    run.add_argument("--timeout", type=float, default=600, help="seconds --wait waits (default 600)")


def _list(context: Context) -> int:
    page = context.client.workflows.list(**paging(context))
    context.show_list(context.items(page), COLUMNS, "workflows")
    return 0


def _diagnose(context: Context) -> int:
    args = context.args
    blocks = edges = None
    if args.graph is not None:
        graph = read_json_argument(args.graph, "--graph")
        if not isinstance(graph, dict):
            raise UsageError("--graph is a JSON object {blocks, edges}")
        blocks, edges = graph.get("blocks", []), graph.get("edges", [])
    diagnosis = context.client.workflows.diagnose(args.id, blocks, edges)
    issues = diagnosis.get("issues") or []
    text = render_fields(
        diagnosis, [("valid", "is_valid"), ("blocks", "stats.total_blocks"), ("edges", "stats.total_edges")]
    )
    if issues:
        columns: list[Column] = [
            ("severity", "severity"),
            ("block", "block_id"),
            ("code", "code"),
            ("message", "message"),
        ]
        text += "\n\n" + render_table(issues, columns)
    text += "".join(f"\nsuggestion: {line}" for line in diagnosis.get("suggestions") or [])
    context.emit(diagnosis, text)
    return 0 if diagnosis.get("is_valid") else 1


def _version(value: str | None) -> Any:
    if value is None or value in {"draft", "published"}:
        return value
    if value.isdigit():
        return int(value)
    raise UsageError(f"--version is draft, published or a number, not {value!r}")


def _run(context: Context) -> int:
    args = context.args
    documents = dict(key_value(value, "--document") for value in args.document)
    inputs = {block: read_json_argument(raw, "--input") for block, raw in map(_split_input, args.input)}
    with Progress(f"starting a run of {args.id}"):
        run = context.client.workflows.run(
            args.id, documents, json_inputs=inputs or None, version=_version(args.version)
        )
    if args.wait and run.get("status") not in RUN_FINISHED:
        workflows = context.client.workflows
        run = context.wait(lambda: workflows.get_run(run.id), RUN_FINISHED, f"run {run.id}", args.timeout)
    context.show(run, RUN_FIELDS)
    return 1 if args.wait and run.get("status") != "completed" else 0


def _split_input(value: str) -> tuple[str, str]:
    return key_value(value, "--input")
