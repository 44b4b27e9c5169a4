"""`docsvc evals create|list|get|delete|add|documents|iterate|iterations|extract|process|split`:
extraction evals, their dataset (documents with their ground truth) and iterations, and their runs."""

from __future__ import annotations

import argparse
from typing import Any

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.commands.jobs import FIELDS as JOB_FIELDS
from docsvc_client.cli.context import Context, read_json_argument
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column, Progress, dump_json, render_fields

EVAL_COLUMNS: list[Column] = [
    ("id", "id"),
    ("name", "name"),
    ("documents", "document_count"),
    ("model", "inference_settings.model"),
    ("created", "created_at"),
]
DOCUMENT_COLUMNS: list[Column] = [
    ("id", "id"),
    ("filename", "filename"),
    ("split", "split"),
    ("created", "created_at"),
]
ITERATION_COLUMNS: list[Column] = [
    ("id", "id"),
    ("model", "inference_settings.model"),
    ("status", "status"),
    ("accuracy", "metrics.overall.accuracy"),
    ("precision", "metrics.overall.precision"),
    ("recall", "metrics.overall.recall"),
    ("processed", "processed_at"),
]
SCORE_FIELDS = (
    "accuracy",
    "exact_accuracy",
    "precision",
    "recall",
    "f1",
    "brier_score",
    "expected_calibration_error",
)


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "evals", "extraction evals: datasets with ground truth, run and scored")
    create = leaf(actions, "create", "create an eval", _create, common)
    create.add_argument("name")
    create.add_argument("--schema", required=True, metavar="FILE", help="a JSON schema (a file, JSON, or -)")
    _settings_options(create)
    add_paging(leaf(actions, "list", "list evals", _list, common))
    leaf(actions, "get", "show an eval", _get, common).add_argument("eval_id")
    leaf(
        actions, "delete", "delete an eval, its documents and iterations", _delete, common, confirm=True
    ).add_argument("eval_id")
    add = leaf(actions, "add", "add a document and its ground truth", _add, common)
    add.add_argument("eval_id")
    add.add_argument("document", metavar="PATH", help="a path, an http(s) URL or a file id")
    add.add_argument(
        "--annotation", required=True, metavar="FILE", help="the ground truth (a file, JSON, or -)"
    )
    documents = leaf(actions, "documents", "list an eval's documents", _documents, common)
    documents.add_argument("eval_id")
    add_paging(documents)
    iterate = leaf(
        actions, "iterate", "create an iteration (the eval's settings where not given)", _iterate, common
    )
    iterate.add_argument("eval_id")
    iterate.add_argument("--schema", metavar="FILE", help="a schema to extract with instead of the eval's")
    _settings_options(iterate)
    iterations = leaf(
        actions, "iterations", "list an eval's iterations and their scores", _iterations, common
    )
    iterations.add_argument("eval_id")
    add_paging(iterations)
    extract = leaf(
        actions, "extract", "extract one document with an iteration's settings, scored", _extract, common
    )
    for name in ("eval_id", "iteration_id", "document_id"):
        extract.add_argument(name)
    process = leaf(actions, "process", "run an iteration over the dataset and score it", _process, common)
    process.add_argument("eval_id")
    process.add_argument("iteration_id")
    process.add_argument("--split", choices=["train", "test"], help="only this part of the dataset")
    process.add_argument("--job", action="store_true", help="run it as a job (datasets of more than 10)")
    split = leaf(actions, "split", "divide the dataset into train and test parts", _split, common)
    split.add_argument("eval_id")
    split.add_argument("--test-fraction", type=float, help="share of documents in the test part (0.2)")
    split.add_argument("--seed", type=int, help="the same seed splits the same way (0)")


def _settings_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model")
    parser.add_argument("--instructions")
    parser.add_argument("--consensus", type=int, metavar="N", help="extractions per document (remote models)")
    parser.add_argument("--dpi", type=int, help="resolution of OCR rendering")


def _settings(context: Context) -> dict[str, Any]:
    args = context.args
    return {
        "model": args.model,
        "instructions": args.instructions,
        "n_consensus": args.consensus,
        "image_resolution_dpi": args.dpi,
    }


def _json_object(value: str, what: str) -> dict[str, Any]:
    read = read_json_argument(value, what)
    if not isinstance(read, dict):
        raise UsageError(f"{what} is a JSON object")
    return read


def _create(context: Context) -> int:
    schema = _json_object(context.args.schema, "--schema")
    evaluation = context.client.evals.extract.create(context.args.name, schema, **_settings(context))
    context.show(evaluation, EVAL_COLUMNS)
    return 0


def _list(context: Context) -> int:
    page = context.client.evals.extract.list(**paging(context))
    context.show_list(context.items(page), EVAL_COLUMNS, "evals")
    return 0


def _get(context: Context) -> int:
    context.show(context.client.evals.extract.get(context.args.eval_id), EVAL_COLUMNS)
    return 0


def _delete(context: Context) -> int:
    eval_id = context.args.eval_id
    context.confirm_production(f"delete eval {eval_id} with its documents and iterations")
    context.client.evals.extract.delete(eval_id)
    context.emit({"id": eval_id, "deleted": True}, f"deleted {eval_id}")
    return 0


def _add(context: Context) -> int:
    args = context.args
    annotation = _json_object(args.annotation, "--annotation")
    added = context.client.evals.extract.documents.create(args.eval_id, args.document, annotation)
    context.show(added, DOCUMENT_COLUMNS)
    return 0


def _documents(context: Context) -> int:
    page = context.client.evals.extract.documents.list(context.args.eval_id, **paging(context))
    context.show_list(context.items(page), DOCUMENT_COLUMNS, "documents")
    return 0


def _iterate(context: Context) -> int:
    args = context.args
    schema = _json_object(args.schema, "--schema") if args.schema else None
    settings = _settings(context)
    iteration = context.client.evals.extract.iterations.create(args.eval_id, json_schema=schema, **settings)
    context.show(iteration, ITERATION_COLUMNS)
    return 0


def _iterations(context: Context) -> int:
    page = context.client.evals.extract.iterations.list(context.args.eval_id, **paging(context))
    context.show_list(context.items(page), ITERATION_COLUMNS, "iterations")
    return 0


def _extract(context: Context) -> int:
    args = context.args
    with Progress(f"extracting {args.document_id}"):
        result = context.client.evals.extract.extract(args.eval_id, args.iteration_id, args.document_id)
    fields = [(name, f"scores.overall.{name}") for name in SCORE_FIELDS]
    text = render_fields(result, [("extraction", "extraction_id"), ("filename", "filename"), *fields])
    context.emit(result, text + "\n\n" + dump_json(result.get("output")))
    return 0


def _process(context: Context) -> int:
    args = context.args
    if args.job:
        request = {"project_id": args.eval_id, "iteration_id": args.iteration_id}
        if args.split:
            request["split"] = args.split
        job = context.client.jobs.create("/v1/evals/extract/process", request)
        context.show(job, JOB_FIELDS)
        return 0
    with Progress(f"processing {args.iteration_id}"):
        iteration = context.client.evals.extract.process(args.eval_id, args.iteration_id, split=args.split)
    overall = [(name, f"metrics.overall.{name}") for name in SCORE_FIELDS]
    context.emit(iteration, render_fields(iteration, [("id", "id"), ("status", "status"), *overall]))
    return 0


def _split(context: Context) -> int:
    args = context.args
    split = context.client.evals.extract.split(args.eval_id, test_fraction=args.test_fraction, seed=args.seed)
    text = f"train: {len(split.get('train', []))} documents\ntest: {len(split.get('test', []))} documents"
    context.emit(split, text)
    return 0
