"""Webhook deliveries: each event to each endpoint of its environment that wants it, until a 2xx answer
or the retry schedule runs out (spec 6).

A delivery moves `pending` → `delivered` or `failed`. Its attempts are numbered; an attempt's outcome
is recorded only if the delivery still has the attempt count it had when the attempt began, so two
copies of one queue message cannot both record an attempt. Messages name the attempt they are for:
a copy of an old message finds the count moved on and does nothing.

The queue cannot delay a message more than 15 minutes, so a longer wait is a chain of delayed
messages, each of which compares the delivery's due time with the clock and sends the next.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Literal, Protocol

from docsvc_client.webhooks import ENVIRONMENT_HEADER, SIGNATURE_HEADER, signature_header
from pydantic import BaseModel

from docsvc.clock import iso, utc_now
from docsvc.domain.events import Event, EventLog
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.webhooks import EndpointStore, SigningSecrets, WebhookEndpoint
from docsvc.errors import Conflict, NotFound
from docsvc.tenancy import Environment, Tenant

DeliveryStatus = Literal["pending", "delivered", "failed"]

# Seconds to wait after each failed attempt; one attempt more than there are waits.
RETRY_DELAYS: dict[Environment, tuple[int, ...]] = {
    # 10 attempts over about 3.9 days (3.1 at the least jitter).
    "production": (60, 300, 1_800, 7_200, 21_600, 43_200, 86_400, 86_400, 86_400),
    # 4 attempts over about 2.2 hours: a test environment learns of a broken receiver quickly.
    "test": (60, 600, 7_200),
}
JITTER = 0.2  # each wait is drawn from ±20 % of its value, so receivers coming back are not stampeded
MAX_RETRY_AFTER = 86_400  # a receiver's Retry-After is honoured up to a day
MAX_QUEUE_DELAY = 900  # what SQS can delay a message
KEPT_ATTEMPTS = 20  # the attempts a delivery shows (the newest)
GONE = 410


class DeliveryAttempt(BaseModel):
    number: int
    attempted_at: str
    status_code: int | None  # None: no HTTP answer (refused, timed out, not allowed)
    latency_ms: int
    error: str | None
    requested: bool = False  # made by POST /v1/webhooks/deliveries/{id}/retry


class WebhookDelivery(BaseModel):
    id: str
    endpoint_id: str
    event_id: str
    event_type: str
    environment: Environment
    url: str
    status: DeliveryStatus
    attempt_count: int
    max_attempts: int
    next_attempt_at: str | None
    attempts: list[DeliveryAttempt]
    retry_requested_at: str | None = None
    created_at: str
    updated_at: str


class DeliveryQuery(ListQuery):
    status: DeliveryStatus | None = None
    endpoint_id: str | None = None
    event_id: str | None = None


class ReceiverAnswer(Protocol):
    @property
    def status_code(self) -> int | None: ...
    @property
    def latency_ms(self) -> int: ...
    @property
    def retry_after_seconds(self) -> int | None: ...
    @property
    def error(self) -> str | None: ...


Post = Callable[[str, bytes, dict[str, str]], ReceiverAnswer]


class DeliveryStore(Protocol):
    def save_delivery(
        self, tenant: Tenant, delivery: WebhookDelivery, *, expected: tuple[DeliveryStatus, int] | None
    ) -> bool:
        """Writes `delivery` if the stored one has the `expected` (status, attempt_count), or if none is
        stored when `expected` is None; False otherwise."""
        ...

    def get_delivery(self, tenant: Tenant, delivery_id: str) -> WebhookDelivery | None: ...
    def deliveries(self, tenant: Tenant, query: DeliveryQuery) -> Page[WebhookDelivery]: ...
    def disable_endpoint(self, tenant: Tenant, endpoint_id: str, reason: str, at: str) -> None: ...


class DeliveryQueue(Protocol):
    def send(self, tenant: Tenant, delivery_id: str, attempt: int, delay_seconds: int) -> None: ...
    def dead_letter(self, tenant: Tenant, delivery: WebhookDelivery) -> None: ...


def delivery_id(event_id: str, endpoint_id: str) -> str:
    """The same for every dispatch of one event to one endpoint, and ordered like the event's id."""
    digest = int.from_bytes(hashlib.sha256(f"{event_id}|{endpoint_id}".encode()).digest()[:10], "big")
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    random_part = "".join(alphabet[(digest >> (5 * index)) & 31] for index in reversed(range(16)))
    return f"del_{event_id.removeprefix('evt_')[:10]}{random_part}"


def wait_after(
    environment: Environment, attempt: int, retry_after: int | None, draw: Callable[[], float]
) -> int:
    """Seconds before the attempt after `attempt` (which failed): the schedule's wait with jitter, or
    longer if the receiver's Retry-After asked for more."""
    base = RETRY_DELAYS[environment][attempt - 1]
    jittered = round(base * (1 - JITTER + 2 * JITTER * draw()))
    return max(jittered, min(retry_after or 0, MAX_RETRY_AFTER))


class DeliveryService:
    def __init__(
        self,
        store: DeliveryStore,
        endpoints: EndpointStore,
        events: EventLog,
        signing: SigningSecrets,
        queue: DeliveryQueue,
        post: Post,
        *,
        now: Callable[[], datetime] = utc_now,
        draw: Callable[[], float] = random.random,
    ) -> None:
        self._store = store
        self._endpoints = endpoints
        self._events = events
        self._signing = signing
        self._queue = queue
        self._post = post
        self._now = now
        self._draw = draw

    # ------------------------------------------------------------------ reading the log
    def get(self, tenant: Tenant, delivery_id: str) -> WebhookDelivery:
        delivery = self._store.get_delivery(tenant, delivery_id)
        if delivery is None:
            raise NotFound(f"no webhook delivery '{delivery_id}'")
        return delivery

    def list(self, tenant: Tenant, query: DeliveryQuery) -> Page[WebhookDelivery]:
        query.check()
        return self._store.deliveries(tenant, query)

    # ------------------------------------------------------------------ from the event log
    def dispatch(self, event: Event) -> tuple[str, ...]:
        """A delivery of `event` for each enabled endpoint of its environment that wants its type; the
        ids. Dispatching an event again finds its deliveries made and only sends what never started."""
        tenant = Tenant(event.organization_id, event.environment)
        wanting = [endpoint for endpoint in self._endpoints.endpoints(tenant) if endpoint.wants(event.type)]
        return tuple(self._start(tenant, event, endpoint) for endpoint in wanting)

    def _start(self, tenant: Tenant, event: Event, endpoint: WebhookEndpoint) -> str:
        now = iso(self._now())
        delivery = WebhookDelivery(
            id=delivery_id(event.id, endpoint.id),
            endpoint_id=endpoint.id,
            event_id=event.id,
            event_type=event.type,
            environment=tenant.environment,
            url=endpoint.url,
            status="pending",
            attempt_count=0,
            max_attempts=len(RETRY_DELAYS[tenant.environment]) + 1,
            next_attempt_at=now,
            attempts=[],
            created_at=now,
            updated_at=now,
        )
        if not self._store.save_delivery(tenant, delivery, expected=None):
            stored = self._store.get_delivery(tenant, delivery.id)
            if stored is None or stored.status != "pending" or stored.attempt_count > 0:
                return delivery.id  # dispatched before, and under way since
        self._queue.send(tenant, delivery.id, 1, 0)
        return delivery.id

    # ------------------------------------------------------------------ by request
    def retry(self, tenant: Tenant, delivery_id: str) -> WebhookDelivery:
        """One more attempt now, for a delivery that has ended (failed, or delivered: sent again)."""
        delivery = self.get(tenant, delivery_id)
        if delivery.status == "pending":
            raise Conflict("this delivery is still being attempted; retry it once it has ended")
        endpoint = self._endpoints.get_endpoint(tenant, delivery.endpoint_id)
        if endpoint is None:
            raise Conflict(f"the endpoint '{delivery.endpoint_id}' of this delivery was deleted")
        if not endpoint.enabled:
            raise Conflict(f"the endpoint '{endpoint.id}' is disabled; enable it, then retry")
        now = iso(self._now())
        pending = delivery.model_copy(
            update={
                "status": "pending",
                "max_attempts": delivery.attempt_count + 1,
                "next_attempt_at": now,
                "retry_requested_at": now,
                "updated_at": now,
            }
        )
        if not self._store.save_delivery(tenant, pending, expected=(delivery.status, delivery.attempt_count)):
            raise Conflict("this delivery changed while the retry was asked for; look at it again")
        self._queue.send(tenant, delivery.id, delivery.attempt_count + 1, 0)
        return pending

    # ------------------------------------------------------------------ from the delivery queue
    def attempt(self, tenant: Tenant, delivery_id: str, number: int) -> None:
        """Handles the queue's message for attempt `number`: waits on, makes the attempt, or (for a
        copy of a message already handled) does nothing."""
        delivery = self._store.get_delivery(tenant, delivery_id)
        if delivery is None or delivery.status != "pending":
            return
        if delivery.attempt_count == number:  # recorded, but the next message may not have been sent
            self._send_next(tenant, delivery)
            return
        if delivery.attempt_count != number - 1:
            return
        if self._waiting(tenant, delivery):
            return
        ended = self._attempted(tenant, delivery, number)
        if not self._store.save_delivery(tenant, ended, expected=("pending", number - 1)):
            return  # another copy of this message recorded the attempt first
        if ended.status == "pending":
            self._send_next(tenant, ended)
        elif ended.status == "failed" and ended.retry_requested_at is None:
            self._queue.dead_letter(tenant, ended)

    def _waiting(self, tenant: Tenant, delivery: WebhookDelivery) -> bool:
        """Whether the next attempt is not due yet; if so its message is sent again to wait on."""
        if self._seconds_until(delivery.next_attempt_at) <= 1:
            return False
        self._send_next(tenant, delivery)
        return True

    def _send_next(self, tenant: Tenant, delivery: WebhookDelivery) -> None:
        """The message of the next attempt, delayed until it is due (or as long as the queue can)."""
        wait = min(max(math.ceil(self._seconds_until(delivery.next_attempt_at)), 0), MAX_QUEUE_DELAY)
        self._queue.send(tenant, delivery.id, delivery.attempt_count + 1, wait)

    def _seconds_until(self, moment: str | None) -> float:
        if moment is None:
            return 0.0
        return (datetime.fromisoformat(moment.replace("Z", "+00:00")) - self._now()).total_seconds()

    def _attempted(self, tenant: Tenant, delivery: WebhookDelivery, number: int) -> WebhookDelivery:
        """The delivery after attempt `number`: made now, or ended without one if it cannot be made."""
        started = self._now()
        endpoint = self._endpoints.get_endpoint(tenant, delivery.endpoint_id)
        event = self._events.get(tenant, delivery.event_id)
        record = DeliveryAttempt(
            number=number,
            attempted_at=iso(started),
            status_code=None,
            latency_ms=0,
            error=None,
            requested=delivery.retry_requested_at is not None,
        )
        if endpoint is None or not endpoint.enabled or event is None:
            return self._after(delivery, record.model_copy(update={"error": _obstacle(endpoint)}), "failed")
        answer = self._send(tenant, endpoint.url, event, started)
        record = record.model_copy(
            update={"status_code": answer.status_code, "latency_ms": answer.latency_ms, "error": answer.error}
        )
        delivery = delivery.model_copy(update={"url": endpoint.url})
        if answer.status_code is not None and 200 <= answer.status_code < 300:
            return self._after(delivery, record, "delivered")
        if answer.status_code == GONE:
            reason = "the receiver answered 410 Gone"
            self._store.disable_endpoint(tenant, endpoint.id, reason, iso(self._now()))
            gone = record.model_copy(update={"error": f"{reason}: the endpoint is now disabled"})
            return self._after(delivery, gone, "failed")
        if number >= delivery.max_attempts:
            return self._after(delivery, record, "failed")
        wait = wait_after(tenant.environment, number, answer.retry_after_seconds, self._draw)
        return self._after(delivery, record, "pending", started + timedelta(seconds=wait))

    def _send(self, tenant: Tenant, url: str, event: Event, now: datetime) -> ReceiverAnswer:
        body = event.model_dump_json().encode()
        headers = {
            "Content-Type": "application/json",
            ENVIRONMENT_HEADER: tenant.environment,
            SIGNATURE_HEADER: signature_header(self._signing.signing(tenant), int(now.timestamp()), body),
        }
        return self._post(url, body, headers)

    def _after(
        self,
        delivery: WebhookDelivery,
        record: DeliveryAttempt,
        status: DeliveryStatus,
        next_attempt: datetime | None = None,
    ) -> WebhookDelivery:
        return delivery.model_copy(
            update={
                "status": status,
                "attempt_count": record.number,
                "attempts": [*delivery.attempts, record][-KEPT_ATTEMPTS:],
                "next_attempt_at": iso(next_attempt) if next_attempt else None,
                "updated_at": iso(self._now()),
            }
        )


def _obstacle(endpoint: WebhookEndpoint | None) -> str:
    """Why an attempt cannot be made (the endpoint, or else the event, is gone)."""
    if endpoint is None:
        return "the endpoint was deleted"
    if not endpoint.enabled:
        return "the endpoint is disabled"
    return "the event is no longer in the event log"
