"""`docsvc webhooks endpoints create|list|delete` and `docsvc webhooks deliveries [list]`."""

from __future__ import annotations

import argparse

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context
from docsvc_client.cli.output import Column

ENDPOINT_COLUMNS: list[Column] = [
    ("id", "id"),
    ("url", "url"),
    ("events", lambda endpoint: endpoint.get("events") or "all"),
    ("enabled", "enabled"),
    ("description", "description"),
]
DELIVERY_COLUMNS: list[Column] = [
    ("id", "id"),
    ("event", "event_type"),
    ("status", "status"),
    ("attempts", lambda delivery: f"{delivery.get('attempt_count')}/{delivery.get('max_attempts')}"),
    ("endpoint", "endpoint_id"),
    ("created", "created_at"),
]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    groups = group(commands, "webhooks", "webhook endpoints and deliveries")
    endpoints = group(groups, "endpoints", "where events are delivered")
    create = leaf(endpoints, "create", "add an endpoint", _create, common)
    create.add_argument("url")
    create.add_argument(
        "--event",
        action="append",
        metavar="TYPE",
        help="a type (job.completed) or family (job.*); default all",
    )
    create.add_argument("--description")
    create.add_argument("--disabled", action="store_true", help="create it disabled")
    leaf(endpoints, "list", "list endpoints", _list_endpoints, common)
    leaf(endpoints, "delete", "delete an endpoint", _delete, common, confirm=True).add_argument("id")
    deliveries = leaf(groups, "deliveries", "the delivery log, newest first", _deliveries, common)
    deliveries.add_argument("list", nargs="?", choices=["list"], help="(the only action; may be left out)")
    deliveries.add_argument("--status")
    deliveries.add_argument("--endpoint-id")
    deliveries.add_argument("--event-id")
    add_paging(deliveries)


def _create(context: Context) -> int:
    args = context.args
    endpoint = context.client.webhooks.endpoints.create(
        args.url, events=args.event, enabled=False if args.disabled else None, description=args.description
    )
    context.show(endpoint, ENDPOINT_COLUMNS)
    return 0


def _list_endpoints(context: Context) -> int:
    context.show_list(list(context.client.webhooks.endpoints.list()), ENDPOINT_COLUMNS, "endpoints")
    return 0


def _delete(context: Context) -> int:
    endpoint_id = context.args.id
    context.confirm_production(f"delete webhook endpoint {endpoint_id}")
    context.client.webhooks.endpoints.delete(endpoint_id)
    context.emit({"id": endpoint_id, "deleted": True}, f"deleted {endpoint_id}")
    return 0


def _deliveries(context: Context) -> int:
    args = context.args
    page = context.client.webhooks.deliveries.list(
        status=args.status, endpoint_id=args.endpoint_id, event_id=args.event_id, **paging(context)
    )
    context.show_list(context.items(page), DELIVERY_COLUMNS, "deliveries")
    return 0
