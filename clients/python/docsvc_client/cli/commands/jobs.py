"""`docsvc jobs create|get|list|wait|cancel|retry|delete`: the work of an endpoint, in the background."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context, key_value, read_json_argument
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column

if TYPE_CHECKING:
    from docsvc_client import APIObject

STATUSES = ["validating", "queued", "in_progress", "completed", "failed", "cancelled", "expired"]
COLUMNS: list[Column] = [
    ("id", "id"),
    ("status", "status"),
    ("endpoint", "endpoint"),
    ("created", "created_at"),
    ("completed", "completed_at"),
]
FIELDS: list[Column] = [
    *COLUMNS,
    ("started", "started_at"),
    ("expires", "expires_at"),
    ("metadata", "metadata"),
    ("error", "error.message"),
    ("response status", "response.status_code"),
]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "jobs", "background work of an endpoint")
    create = leaf(actions, "create", "create a job", _create, common)
    create.add_argument("--endpoint", required=True, help="e.g. /v1/parses")
    create.add_argument(
        "--request",
        required=True,
        metavar="FILE_OR_JSON",
        help="the endpoint's body: JSON, a JSON file, or -",
    )
    create.add_argument("--metadata", action="append", metavar="KEY=VALUE", help="repeatable")
    create.add_argument("--idempotency-key")
    _wait_options(create, flag=True)
    get = leaf(actions, "get", "a job", _get, common)
    get.add_argument("id")
    get.add_argument("--response", action="store_true", help="with the response")
    listing = leaf(actions, "list", "list jobs, newest first", _list, common)
    listing.add_argument("--status", choices=STATUSES)
    listing.add_argument("--endpoint")
    listing.add_argument("--workflow-id")
    listing.add_argument("--model")
    listing.add_argument("--filename-contains")
    listing.add_argument("--metadata", action="append", metavar="KEY=VALUE", help="exact match; repeatable")
    add_paging(listing)
    wait = leaf(actions, "wait", "wait until a job has finished", _wait, common)
    wait.add_argument("id")
    _wait_options(wait, flag=False)
    leaf(actions, "cancel", "cancel a queued or running job", _cancel, common).add_argument("id")
    leaf(actions, "retry", "run a failed job again", _retry, common, confirm=True).add_argument("id")
    leaf(actions, "delete", "delete an ended job", _delete, common, confirm=True).add_argument("id")


def _wait_options(parser: argparse.ArgumentParser, *, flag: bool) -> None:
    if flag:
        parser.add_argument("--wait", action="store_true", help="wait until the job has finished")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait (default 600)")


def _metadata(values: list[str] | None) -> dict[str, str] | None:
    return dict(key_value(value, "--metadata") for value in values) if values else None


def _create(context: Context) -> int:
    args = context.args
    request = read_json_argument(args.request, "--request")
    if not isinstance(request, dict):
        raise UsageError("--request is a JSON object: the body the endpoint takes")
    job = context.client.jobs.create(args.endpoint, request, _metadata(args.metadata), args.idempotency_key)
    if args.wait:
        return _finish(context, job.id)
    context.show(job, FIELDS)
    return 0


def _get(context: Context) -> int:
    args = context.args
    context.show(context.client.jobs.get(args.id, include_response=args.response), FIELDS)
    return 0


def _list(context: Context) -> int:
    args = context.args
    filters: dict[str, Any] = {
        "status": args.status,
        "endpoint": args.endpoint,
        "workflow_id": args.workflow_id,
        "model": args.model,
        "filename_contains": args.filename_contains,
        "metadata": _metadata(args.metadata),
        **paging(context),
    }
    page = context.client.jobs.list(**{name: value for name, value in filters.items() if value is not None})
    context.show_list(context.items(page), COLUMNS, "jobs")
    return 0


def _wait(context: Context) -> int:
    return _finish(context, context.args.id)


def _finish(context: Context, job_id: str) -> int:
    from docsvc_client.resources.jobs import FINISHED

    jobs = context.client.jobs
    context.wait(lambda: jobs.status(job_id), FINISHED, f"job {job_id}", context.args.timeout)
    job: APIObject = jobs.get(job_id, include_response=True)
    context.show(job, FIELDS)
    return 0 if job.get("status") == "completed" else 1


def _cancel(context: Context) -> int:
    context.show(context.client.jobs.cancel(context.args.id), FIELDS)
    return 0


def _retry(context: Context) -> int:
    job_id = context.args.id
    context.confirm_production(f"retry job {job_id}")
    context.show(context.client.jobs.retry(job_id), FIELDS)
    return 0


def _delete(context: Context) -> int:
    job_id = context.args.id
    context.confirm_production(f"delete job {job_id}")
    context.client.jobs.delete(job_id)
    context.emit({"id": job_id, "deleted": True}, f"deleted {job_id}")
    return 0
