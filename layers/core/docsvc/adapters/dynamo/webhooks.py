"""Webhook endpoints and deliveries in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort keys `WHE#<id>`
(endpoints) and `DEL#<id>` (deliveries, ids ordered like their events). A delivery is kept
DELIVERY_DAYS after its last change (the table's TTL attribute `expires_at`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.values import from_dynamo, to_dynamo
from docsvc.config import settings
from docsvc.domain.deliveries import DeliveryQuery, DeliveryStatus, WebhookDelivery
from docsvc.domain.lists import Page
from docsvc.domain.webhooks import WebhookEndpoint
from docsvc.ids import LATEST_MILLIS, created_millis
from docsvc.tenancy import Tenant

ENDPOINT = "WHE#"
DELIVERY = "DEL#"
DELIVERY_DAYS = 30
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class DynamoWebhookStore(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().webhooks_table)

    # ------------------------------------------------------------------ endpoints
    def put_endpoint(self, tenant: Tenant, endpoint: WebhookEndpoint, *, new: bool) -> bool:
        item = {"pk": tenant.key, "sk": ENDPOINT + endpoint.id, **endpoint.model_dump()}
        condition = "attribute_not_exists(pk)" if new else "attribute_exists(pk)"
        return aws.written(lambda: self._table.put_item(Item=item, ConditionExpression=condition))

    def get_endpoint(self, tenant: Tenant, endpoint_id: str) -> WebhookEndpoint | None:
        item = self._table.get_item(
            Key={"pk": tenant.key, "sk": ENDPOINT + endpoint_id}, ConsistentRead=True
        ).get("Item")
        return _endpoint(item) if item else None

    def endpoints(self, tenant: Tenant) -> list[WebhookEndpoint]:
        """All of the environment's endpoints (at most MAX_ENDPOINTS: one page)."""
        params: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :endpoint)",
            "ExpressionAttributeValues": {":pk": tenant.key, ":endpoint": ENDPOINT},
            "ConsistentRead": True,
        }
        found: list[WebhookEndpoint] = []
        while True:
            response = self._table.query(**params)
            found += [_endpoint(item) for item in response["Items"]]
            if "LastEvaluatedKey" not in response:
                return found
            params["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def delete_endpoint(self, tenant: Tenant, endpoint_id: str) -> bool:
        old = self._table.delete_item(
            Key={"pk": tenant.key, "sk": ENDPOINT + endpoint_id}, ReturnValues="ALL_OLD"
        )
        return "Attributes" in old

    def disable_endpoint(self, tenant: Tenant, endpoint_id: str, reason: str, at: str) -> None:
        aws.written(
            lambda: self._table.update_item(
                Key={"pk": tenant.key, "sk": ENDPOINT + endpoint_id},
                UpdateExpression="SET enabled = :off, disabled_reason = :reason, updated_at = :at",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":off": False, ":reason": reason, ":at": at},
            )
        )

    # ------------------------------------------------------------------ deliveries
    def save_delivery(
        self, tenant: Tenant, delivery: WebhookDelivery, *, expected: tuple[DeliveryStatus, int] | None
    ) -> bool:
        item = to_dynamo(
            {
                "pk": tenant.key,
                "sk": DELIVERY + delivery.id,
                "endpoint_pk": _by_endpoint(tenant, delivery.endpoint_id),
                "status_pk": _by_status(tenant, delivery.status),
                "expires_at": int(time.time()) + DELIVERY_DAYS * 86_400,
                **delivery.model_dump(),
            }
        )
        if expected is None:
            condition: dict[str, Any] = {"ConditionExpression": "attribute_not_exists(pk)"}
        else:
            condition = {
                "ConditionExpression": "#status = :status AND attempt_count = :count",
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": {":status": expected[0], ":count": expected[1]},
            }
        return aws.written(lambda: self._table.put_item(Item=item, **condition))

    def get_delivery(self, tenant: Tenant, delivery_id: str) -> WebhookDelivery | None:
        item = self._table.get_item(
            Key={"pk": tenant.key, "sk": DELIVERY + delivery_id}, ConsistentRead=True
        ).get("Item")
        return _delivery(item) if item else None

    def deliveries(self, tenant: Tenant, query: DeliveryQuery) -> Page[WebhookDelivery]:
        """By key: an event's deliveries are one millisecond of the log; an endpoint's and a status's
        have their index. What the chosen key does not answer is filtered on the items it reads."""
        listing = Listing(tenant.key, DELIVERY, "del", tenant.key)
        answered: set[str] = set()
        if query.event_id is None and query.endpoint_id is not None:
            partition = _by_endpoint(tenant, query.endpoint_id)
            listing = Listing(tenant.key, DELIVERY, "del", partition, "endpoint_pk", "deliveries_by_endpoint")
            answered.add("endpoint_id")
        elif query.event_id is None and query.status is not None:
            partition = _by_status(tenant, query.status)
            listing = Listing(tenant.key, DELIVERY, "del", partition, "status_pk", "deliveries_by_status")
            answered.add("status")
        filters = {
            name: value
            for name, value in (
                ("status", query.status),
                ("endpoint_id", query.endpoint_id),
                ("event_id", query.event_id),
            )
            if value is not None and name not in answered
        }
        expression = " AND ".join(f"#{name} = :{name}" for name in filters) or None
        page = list_page(
            self._table,
            listing,
            _within_event(query),
            filter_expression=expression,
            filter_values={f":{name}": value for name, value in filters.items()} or None,
            filter_names={f"#{name}": name for name in filters} or None,
        )
        return page.of(_delivery)


def _by_endpoint(tenant: Tenant, endpoint_id: str) -> str:
    return f"{tenant.key}#WHE#{endpoint_id}"


def _by_status(tenant: Tenant, status: str) -> str:
    return f"{tenant.key}#DEL#{status}"


def _within_event(query: DeliveryQuery) -> DeliveryQuery:
    """A delivery's id carries its event's creation time (`delivery_id`), so the deliveries of one
    event are a key range of one millisecond: read that range, not the whole log."""
    millis = created_millis(query.event_id) if query.event_id else None
    if millis is None:
        return query
    moment = EPOCH + timedelta(milliseconds=millis)
    if (query.from_date and moment < query.from_date) or (query.to_date and moment > query.to_date):
        return query  # outside the asked range: the filter finds nothing, as it should
    slack = timedelta(milliseconds=1)  # the bounds go through float seconds; the filter stays exact
    after = moment + slack if millis < LATEST_MILLIS else moment  # no date follows the last one
    return query.model_copy(update={"from_date": moment - slack, "to_date": after})


def _endpoint(item: dict[str, Any]) -> WebhookEndpoint:
    return WebhookEndpoint.model_validate(
        {key: value for key, value in from_dynamo(item).items() if key in WebhookEndpoint.model_fields}
    )


def _delivery(item: dict[str, Any]) -> WebhookDelivery:
    return WebhookDelivery.model_validate(
        {key: value for key, value in from_dynamo(item).items() if key in WebhookDelivery.model_fields}
    )
