"""Work for background functions, sent to SQS. A message names its tenant and its business id."""

from __future__ import annotations

import json

from docsvc.adapters import aws
from docsvc.tenancy import Tenant


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
        aws.sqs().send_message(QueueUrl=self._queue_url, MessageBody=json.dumps(body))


def read_message(body: str, id_field: str) -> tuple[Tenant, str]:
    """The tenant and business id of a message sent by TenantQueue."""
    message = json.loads(body)
    environment = message["environment"]
    if environment not in ("test", "production"):
        raise ValueError(f"unknown environment {environment!r}")
    return Tenant(str(message["organization_id"]), environment), str(message[id_field])
