"""Webhook delivery under mixed load: two organizations and two environments each, healthy, flaky and dead
receivers, the whole production schedule crossed by moving the clock.

Nothing crosses an environment: no delivery, no signature, no log row, no dead letter; and every
emitted event ends delivered or exhausted at every endpoint that wanted it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import time_machine
from docsvc.domain.deliveries import RETRY_DELAYS
from docsvc.local.stack import Deployment
from docsvc_client.webhooks import SignatureError, verify

from tests.conftest import Org, Tenant, auth, make_org
from tests.integration.test_webhooks import add_endpoint, dead_letters, deliver, deliveries, parse_event
from tests.integration.webhook_receivers import Receiver, Receivers


@dataclass
class Subscriber:
    tenant: Tenant
    healthy: Receiver
    flaky: Receiver  # down for its first three requests, then up
    dead: Receiver  # never answers 2xx
    events: int


def test_mixed_load_across_organizations_and_environments_never_crosses_and_loses_nothing(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    other = make_org("globex")
    tenants = [org.test, org.production, other.test, other.production]
    subscribers = []
    for count, tenant in enumerate(tenants, start=2):
        subscriber = Subscriber(
            tenant, receivers.start(), receivers.start(answers=[500, 502, 503]), receivers.start(500), count
        )
        for receiver in (subscriber.healthy, subscriber.flaky, subscriber.dead):
            add_endpoint(api, tenant.key, receiver.url)
        subscribers.append(subscriber)
    secrets = {
        tenant.key: api.get("/v1/webhooks/signing-secret", headers=auth(tenant.key)).json()["signing_secret"]
        for tenant in tenants
    }

    with time_machine.travel(datetime.now(UTC), tick=True) as clock:
        for round_ in range(max(subscriber.events for subscriber in subscribers)):
            for subscriber in subscribers:  # interleaved: the tenants' events mix in the stream
                if round_ < subscriber.events:
                    parse_event(api, subscriber.tenant.key)
            deliver(deployment)
        # Eight days in six-hour steps: past the production schedule (at most 4.7 days with jitter, plus
        # up to a step of lateness per attempt: each is made at the first step after it is due).
        for _ in range(4 * 8):
            clock.shift(timedelta(hours=6))
            deliver(deployment)
        letters = [json.loads(body) for body in drain_dead_letters()]

    emitted_total = 0
    for subscriber in subscribers:
        tenant = subscriber.tenant
        log = api.get("/v1/events", headers=auth(tenant.key), params={"limit": 100}).json()["data"]
        emitted = {event["id"] for event in log}
        assert len(emitted) == subscriber.events
        emitted_total += len(emitted)
        for receiver in (subscriber.healthy, subscriber.flaky, subscriber.dead):
            for received in receiver.received:
                event = received.event
                assert (event["organization_id"], event["environment"]) == (
                    tenant.organization_id,
                    tenant.environment,
                )
                assert received.headers["X-Service-Environment"] == tenant.environment
                assert event["id"] in emitted
                header = received.headers["X-Service-Signature"]
                signed_at = int(header.split(",")[0].removeprefix("t="))
                assert verify(received.body, header, secrets[tenant.key], now=signed_at)
                for other_key, other_secret in secrets.items():
                    if other_key != tenant.key:
                        with pytest.raises(SignatureError):
                            verify(received.body, header, other_secret, now=signed_at)
        assert {event["id"] for event in subscriber.healthy.events()} == emitted
        assert {event["id"] for event in subscriber.flaky.events()} == emitted
        attempts = len(RETRY_DELAYS[tenant.environment]) + 1
        assert len(subscriber.dead.received) == attempts * len(emitted)

        rows = deliveries(api, tenant.key)
        assert {row["environment"] for row in rows} == {tenant.environment}
        assert {row["event_id"] for row in rows} == emitted
        delivered = [row for row in rows if row["status"] == "delivered"]
        exhausted = [row for row in rows if row["status"] == "failed"]
        assert len(delivered) + len(exhausted) == 3 * len(emitted)  # every event at every endpoint
        assert len(exhausted) == len(emitted)
        assert all(row["attempt_count"] == attempts for row in exhausted)
        mine = [letter for letter in letters if letter["environment"] == tenant.environment]
        mine = [letter for letter in mine if letter["organization_id"] == tenant.organization_id]
        assert {letter["delivery_id"] for letter in mine} == {row["id"] for row in exhausted}
    assert len(letters) == emitted_total  # the dead receivers' deliveries, one per event


def drain_dead_letters() -> list[str]:
    found: list[str] = []
    while batch := dead_letters():
        found += batch
    return found
