"""Work for background functions, sent to SQS. A message names its tenant and its business id in its
JSON body, and carries the request id of the work that sent it as the string message attribute
`request_id` (when there is one: a scheduled sweep has none), which the worker puts on its log lines
and on what it sends in turn (docsvc.workers). A tenant's message has its tenant as `MessageGroupId`
(`<org>#<env>`): on a standard queue with SQS fair queues, a tenant with a backlog does not delay the
messages of the others."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from docsvc.adapters import aws
from docsvc.observability import current_request_id
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.domain.deliveries import WebhookDelivery


class TenantQueue:
    def __init__(self, queue_url: str, id_field: str) -> None:
        self._queue_url = queue_url
        self._id_field = id_field

    def __call__(self, tenant: Tenant, resource_id: str) -> None:
        body = {
            "organization_id": tenant.organization_id,
            "environment": tenant.environment,
            self._id_field: resource_id,
        }
        _send(self._queue_url, body, MessageGroupId=f"{tenant.organization_id}#{tenant.environment}")


def _send(queue_url: str, body: dict[str, Any], **options: Any) -> None:
    request_id = current_request_id()
    if request_id:
        options["MessageAttributes"] = {"request_id": {"DataType": "String", "StringValue": request_id}}
    aws.sqs().send_message(QueueUrl=queue_url, MessageBody=json.dumps(body), **options)


def read_message(body: str, id_field: str) -> tuple[Tenant, str]:
    """The tenant and business id of a message sent by TenantQueue."""
    message = json.loads(body)
    environment = message["environment"]
    if environment not in ("test", "production"):
        raise ValueError(f"unknown environment {environment!r}")
    return Tenant(str(message["organization_id"]), environment), str(message[id_field])


class DeliveryMessages:
    """Webhook attempts on the delivery queue (each names the attempt it is for), and deliveries that
    ran out of attempts on its dead-letter queue."""

    def __init__(self, queue_url: str, dead_letter_url: str) -> None:
        self._queue_url = queue_url
        self._dead_letter_url = dead_letter_url

    def send(self, tenant: Tenant, delivery_id: str, attempt: int, delay_seconds: int) -> None:
        body = {
            "organization_id": tenant.organization_id,
            "environment": tenant.environment,
            "delivery_id": delivery_id,
            "attempt": attempt,
        }
        _send(self._queue_url, body, DelaySeconds=delay_seconds)

    def dead_letter(self, tenant: Tenant, delivery: WebhookDelivery) -> None:
        last = delivery.attempts[-1] if delivery.attempts else None
        body = {
            "organization_id": tenant.organization_id,
            "environment": tenant.environment,
            "delivery_id": delivery.id,
            "event_id": delivery.event_id,
            "endpoint_id": delivery.endpoint_id,
            "attempts": delivery.attempt_count,
            "error": last.error if last else None,
        }
        _send(self._dead_letter_url, body)


def read_delivery_message(body: str) -> tuple[Tenant, str, int]:
    """The tenant, delivery id and attempt number of a message sent by DeliveryMessages."""
    tenant, delivery_id = read_message(body, "delivery_id")
    return tenant, delivery_id, int(json.loads(body)["attempt"])
