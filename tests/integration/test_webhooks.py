"""Webhooks through the handlers: endpoints, the signing secret, deliveries and their log.

Events are made the way customers make them (a parse through the API); the event log's stream feeds
the dispatcher, the delivery queue feeds the worker, and receivers are real HTTP servers on loopback.
Long waits are crossed by moving the clock (moto's queue delays follow it too).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import stripe
import time_machine
from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.local.stack import Deployment
from docsvc_client.webhooks import verify

from tests.conftest import Org, auth, drain, drain_streams
from tests.integration.test_files import pdf_bytes
from tests.integration.test_parses import create, document
from tests.integration.webhook_receivers import Receivers


def deliver(deployment: Deployment) -> None:
    """What the event source mappings would do now: new events to deliveries, due attempts made."""
    for _ in range(3):
        dispatched = drain_streams(deployment, "WebhookDispatcherFunction")
        attempted = drain(deployment, "WebhookWorkerFunction", rounds=20)
        if not dispatched and not attempted:
            return


def parse_event(api: httpx.Client, key: str) -> str:
    """A parse through the API: its parse.completed event's subject id."""
    return str(create(api, key, document=document(pdf_bytes(pages=1))).json()["id"])


def add_endpoint(api: httpx.Client, key: str, url: str, **fields: Any) -> dict[str, Any]:
    response = api.post("/v1/webhooks/endpoints", headers=auth(key), json={"url": url, **fields})
    assert response.status_code == 201, response.text
    endpoint: dict[str, Any] = response.json()["endpoint"]
    return endpoint


def secret_of(api: httpx.Client, key: str) -> str:
    return str(api.get("/v1/webhooks/signing-secret", headers=auth(key)).json()["signing_secret"])


def deliveries(api: httpx.Client, key: str, **params: Any) -> list[dict[str, Any]]:
    response = api.get("/v1/webhooks/deliveries", headers=auth(key), params={"limit": 100, **params})
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["data"]
    return found


def dead_letters() -> list[str]:
    url = settings().webhook_dead_letter_url
    messages = aws.sqs().receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
    return [message["Body"] for message in messages]


# ---------------------------------------------------------------------------- endpoints


def test_endpoints_are_created_listed_changed_and_deleted_per_environment(
    api: httpx.Client, org: Org, receivers: Receivers
) -> None:
    url = receivers.start().url
    created = add_endpoint(api, org.test.key, url, events=["job.*", "parse.completed"], description="ops")

    assert created["id"].startswith("whe_") and created["enabled"] is True
    assert created["events"] == ["job.*", "parse.completed"] and created["environment"] == "test"
    listed = api.get("/v1/webhooks/endpoints", headers=auth(org.test.key)).json()["endpoints"]
    assert [endpoint["id"] for endpoint in listed] == [created["id"]]
    changed = api.patch(
        f"/v1/webhooks/endpoints/{created['id']}",
        headers=auth(org.test.key),
        json={"enabled": False, "events": None},
    ).json()["endpoint"]
    assert changed["enabled"] is False and changed["events"] is None and changed["description"] == "ops"
    production = auth(org.production.key)
    assert api.get("/v1/webhooks/endpoints", headers=production).json()["endpoints"] == []
    assert api.get(f"/v1/webhooks/endpoints/{created['id']}", headers=production).status_code == 404
    assert (
        api.patch(
            f"/v1/webhooks/endpoints/{created['id']}", headers=production, json={"enabled": True}
        ).status_code
        == 404
    )
    assert api.delete(f"/v1/webhooks/endpoints/{created['id']}", headers=production).status_code == 404
    assert (
        api.delete(f"/v1/webhooks/endpoints/{created['id']}", headers=auth(org.test.key)).status_code == 204
    )
    assert api.get(f"/v1/webhooks/endpoints/{created['id']}", headers=auth(org.test.key)).status_code == 404


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"url": "http://10.0.0.7/hook"}, "url", "private address"),
        ({"url": "http://169.254.169.254/latest/meta-data"}, "url", "not allowed"),
        ({"url": "file:///etc/passwd"}, "url", "not allowed"),
        ({"url": "https://93.184.216.34/" + "a" * 2100}, "url", "at most 2048"),
        ({"url": "https://93.184.216.34/hook", "events": ["parse.done"]}, "events", "unknown event type"),
        ({"url": "https://93.184.216.34/hook", "events": []}, "events", "at least one"),
        ({"url": "https://93.184.216.34/hook", "description": "d" * 501}, "description", "at most 500"),
        ({"url": "https://93.184.216.34/hook", "secret": "x"}, "secret", "Extra inputs"),
        ({"events": ["job.*"]}, "url", "Field required"),
    ],
)
def test_bad_endpoints_are_refused_with_the_field_named(
    api: httpx.Client, org: Org, body: dict[str, Any], field: str, message: str
) -> None:
    response = api.post("/v1/webhooks/endpoints", headers=auth(org.test.key), json=body)

    assert response.status_code == 422
    detail = response.json()["detail"]
    assert any(problem["loc"][-1] == field and message in problem["msg"] for problem in detail), detail


def test_production_endpoints_need_https_except_on_loopback_where_the_deployment_allows_it(
    api: httpx.Client, org: Org, receivers: Receivers
) -> None:
    plain = api.post(
        "/v1/webhooks/endpoints", headers=auth(org.production.key), json={"url": "http://93.184.216.34/h"}
    )

    assert plain.status_code == 422 and "https://" in plain.json()["detail"][0]["msg"]
    assert add_endpoint(api, org.production.key, "https://93.184.216.34/hook")["environment"] == "production"
    assert add_endpoint(api, org.production.key, receivers.start().url)  # loopback: the local stack


def test_loopback_receivers_are_refused_where_the_deployment_does_not_allow_them(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc import services

    monkeypatch.setenv("ALLOW_LOOPBACK_WEBHOOKS", "false")
    services.reset()
    response = api.post(
        "/v1/webhooks/endpoints", headers=auth(org.test.key), json={"url": "http://127.0.0.1:9/hook"}
    )

    assert response.status_code == 422 and "loopback" in response.json()["detail"][0]["msg"]


def test_an_environment_holds_at_most_sixteen_endpoints(api: httpx.Client, org: Org) -> None:
    for index in range(16):
        add_endpoint(api, org.test.key, f"https://93.184.216.34/hook/{index}")

    response = api.post(
        "/v1/webhooks/endpoints", headers=auth(org.test.key), json={"url": "https://93.184.216.34/17"}
    )

    assert response.status_code == 400 and "at most 16" in response.json()["detail"]
    assert add_endpoint(api, org.production.key, "https://93.184.216.34/hook")  # the other environment's own


# ---------------------------------------------------------------------------- the signing secret


def test_each_environment_has_its_own_signing_secret_and_rotation_keeps_the_old_one_for_a_day(
    api: httpx.Client, org: Org
) -> None:
    test = api.get("/v1/webhooks/signing-secret", headers=auth(org.test.key)).json()
    production = api.get("/v1/webhooks/signing-secret", headers=auth(org.production.key)).json()

    assert test["signing_secret"].startswith("whsec_") and test["environment"] == "test"
    assert production["signing_secret"].startswith("whsec_") and production["environment"] == "production"
    assert test["signing_secret"] != production["signing_secret"]
    assert secret_of(api, org.test.key) == test["signing_secret"]  # made once, then kept
    rotated = api.post("/v1/webhooks/signing-secret/rotate", headers=auth(org.test.key)).json()
    assert rotated["signing_secret"] != test["signing_secret"]
    expires = datetime.fromisoformat(rotated["previous_secret_expires_at"].replace("Z", "+00:00"))
    assert timedelta(hours=23, minutes=59) < expires - datetime.now(UTC) <= timedelta(hours=24)
    assert test["signing_secret"] not in str(rotated)
    assert secret_of(api, org.production.key) == production["signing_secret"]  # rule 2: untouched


# ---------------------------------------------------------------------------- delivery


def test_an_event_is_delivered_signed_with_its_environments_secret(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start()
    endpoint = add_endpoint(api, org.test.key, receiver.url)
    parse_id = parse_event(api, org.test.key)

    deliver(deployment)

    assert len(receiver.received) == 1
    got = receiver.received[0]
    event = got.event
    assert event["type"] == "parse.completed" and event["data"]["id"] == parse_id
    assert event["environment"] == "test" and event["organization_id"] == org.id
    assert event["id"].startswith("evt_") and set(event) == {
        "id",
        "type",
        "environment",
        "organization_id",
        "created_at",
        "data",
    }
    assert got.headers["Content-Type"] == "application/json"
    assert got.headers["X-Service-Environment"] == "test"
    header = got.headers["X-Service-Signature"]
    assert verify(got.body, header, secret_of(api, org.test.key))
    assert stripe.WebhookSignature.verify_header(got.body.decode(), header, secret_of(api, org.test.key))
    with pytest.raises(ValueError, match="no signature matches"):
        verify(got.body, header, secret_of(api, org.production.key))
    (delivery,) = deliveries(api, org.test.key)
    assert delivery["status"] == "delivered" and delivery["event_id"] == event["id"]
    assert delivery["endpoint_id"] == endpoint["id"] and delivery["attempt_count"] == 1
    assert delivery["attempts"][0]["status_code"] == 200 and delivery["attempts"][0]["error"] is None
    assert delivery["attempts"][0]["latency_ms"] >= 0 and delivery["next_attempt_at"] is None
    assert api.get(f"/v1/webhooks/deliveries/{delivery['id']}", headers=auth(org.test.key)).json() == delivery
    assert deliveries(api, org.production.key) == []
    assert (
        api.get(f"/v1/webhooks/deliveries/{delivery['id']}", headers=auth(org.production.key)).status_code
        == 404
    )


def test_endpoints_get_only_the_types_they_asked_for_and_disabled_ones_get_nothing(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    parses, jobs, disabled = receivers.start(), receivers.start(), receivers.start()
    add_endpoint(api, org.test.key, parses.url, events=["parse.*"])
    add_endpoint(api, org.test.key, jobs.url, events=["job.completed"])
    add_endpoint(api, org.test.key, disabled.url, enabled=False)

    parse_event(api, org.test.key)
    deliver(deployment)

    assert [event["type"] for event in parses.events()] == ["parse.completed"]
    assert jobs.received == [] and disabled.received == []


def test_a_dispatched_event_dispatched_again_is_not_delivered_twice(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    from docsvc import services

    receiver = receivers.start()
    add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)
    deliver(deployment)
    (event,) = api.get("/v1/events", headers=auth(org.test.key)).json()["data"]

    from docsvc.domain.events import Event

    services.delivery_service().dispatch(Event.model_validate(event))  # a stream batch read again
    deliver(deployment)

    assert len(receiver.received) == 1 and len(deliveries(api, org.test.key)) == 1


def test_a_receiver_down_for_a_while_gets_the_same_event_once_it_is_up(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start(answers=[500, 503, 502])
    add_endpoint(api, org.production.key, receiver.url)
    parse_event(api, org.production.key)

    with time_machine.travel(datetime.now(UTC), tick=True) as clock:
        deliver(deployment)
        for _ in range(12):  # 15-minute steps: long waits hop through the queue
            clock.shift(timedelta(minutes=15))
            deliver(deployment)

    ids = {event["id"] for event in receiver.events()}
    (delivery,) = deliveries(api, org.production.key)
    assert len(receiver.received) == 4 and len(ids) == 1
    assert delivery["status"] == "delivered" and delivery["attempt_count"] == 4
    assert [attempt["status_code"] for attempt in delivery["attempts"]] == [500, 503, 502, 200]
    assert delivery["attempts"][0]["error"] == "answered HTTP 500"


def test_attempts_wait_for_their_due_time_and_retry_after_is_honoured(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start(answers=[(503, {"Retry-After": "3600"})])
    add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)

    with time_machine.travel(datetime.now(UTC), tick=True) as clock:
        deliver(deployment)
        (waiting,) = deliveries(api, org.test.key)
        due = datetime.fromisoformat(waiting["next_attempt_at"].replace("Z", "+00:00"))
        assert waiting["status"] == "pending" and waiting["attempt_count"] == 1
        assert timedelta(minutes=59) < due - datetime.now(UTC) <= timedelta(hours=1)
        for _ in range(3):  # 45 minutes on: not due yet, whatever the queue hands over
            clock.shift(timedelta(minutes=15))
            deliver(deployment)
        assert len(receiver.received) == 1
        clock.shift(timedelta(minutes=16))
        deliver(deployment)

    assert len(receiver.received) == 2
    assert deliveries(api, org.test.key)[0]["status"] == "delivered"


def test_a_test_delivery_gives_up_after_four_attempts_and_goes_to_the_dead_letter_queue(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start(status=500)
    add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)

    with time_machine.travel(datetime.now(UTC), tick=True) as clock:
        deliver(deployment)
        for _ in range(4 * 4):  # four hours in 15-minute steps: past the test schedule
            clock.shift(timedelta(minutes=15))
            deliver(deployment)

    (delivery,) = deliveries(api, org.test.key)
    assert len(receiver.received) == 4
    assert delivery["status"] == "failed" and delivery["attempt_count"] == 4
    assert delivery["next_attempt_at"] is None
    (letter,) = dead_letters()
    assert delivery["id"] in letter and "answered HTTP 500" in letter
    assert deliveries(api, org.test.key, status="failed") == [delivery]
    assert deliveries(api, org.test.key, status="delivered") == []


def test_410_gone_disables_the_endpoint_at_once(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start(status=410)
    endpoint = add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)
    deliver(deployment)
    parse_event(api, org.test.key)
    deliver(deployment)

    stored = api.get(f"/v1/webhooks/endpoints/{endpoint['id']}", headers=auth(org.test.key)).json()
    (delivery,) = deliveries(api, org.test.key)
    assert len(receiver.received) == 1
    assert stored["endpoint"]["enabled"] is False and "410" in stored["endpoint"]["disabled_reason"]
    assert delivery["status"] == "failed" and "disabled" in delivery["attempts"][0]["error"]
    enabled = api.patch(
        f"/v1/webhooks/endpoints/{endpoint['id']}", headers=auth(org.test.key), json={"enabled": True}
    ).json()["endpoint"]
    assert enabled["enabled"] is True and enabled["disabled_reason"] is None


def test_redirects_are_not_followed(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    target = receivers.start()
    redirecting = receivers.start(answers=[(302, {"Location": target.url})])
    add_endpoint(api, org.test.key, redirecting.url)
    parse_event(api, org.test.key)

    deliver(deployment)

    (delivery,) = deliveries(api, org.test.key)
    assert target.received == [] and delivery["attempts"][0]["status_code"] == 302
    assert "redirects are not followed" in delivery["attempts"][0]["error"]


def test_a_failed_delivery_is_retried_on_request(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start(status=410)
    endpoint = add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)
    deliver(deployment)
    (failed,) = deliveries(api, org.test.key)
    retry = f"/v1/webhooks/deliveries/{failed['id']}/retry"

    disabled = api.post(retry, headers=auth(org.test.key))
    assert disabled.status_code == 409 and "disabled" in disabled.json()["detail"]
    api.patch(f"/v1/webhooks/endpoints/{endpoint['id']}", headers=auth(org.test.key), json={"enabled": True})
    receiver.status = 200
    assert api.post(retry, headers=auth(org.production.key)).status_code == 404
    accepted = api.post(retry, headers=auth(org.test.key))
    assert accepted.status_code == 202 and accepted.json()["status"] == "pending"
    assert api.post(retry, headers=auth(org.test.key)).status_code == 409  # still pending
    deliver(deployment)

    (delivered,) = deliveries(api, org.test.key)
    assert delivered["status"] == "delivered" and delivered["attempt_count"] == 2
    assert delivered["attempts"][-1]["requested"] is True and delivered["retry_requested_at"]
    assert len({event["id"] for event in receiver.events()}) == 1
    assert len(dead_letters()) == 1  # the first failure only: a requested retry is not dead-lettered again


def test_a_delivery_made_during_a_rotation_carries_both_signatures_for_a_day(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    from docsvc import services

    receiver = receivers.start()
    add_endpoint(api, org.test.key, receiver.url)
    old = secret_of(api, org.test.key)
    new = api.post("/v1/webhooks/signing-secret/rotate", headers=auth(org.test.key)).json()["signing_secret"]

    parse_event(api, org.test.key)
    deliver(deployment)
    (during,) = receiver.received
    assert during.headers["X-Service-Signature"].count("v1=") == 2
    assert verify(during.body, during.headers["X-Service-Signature"], old)
    assert verify(during.body, during.headers["X-Service-Signature"], new)
    with time_machine.travel(datetime.now(UTC) + timedelta(hours=24, minutes=1), tick=True):
        services.reset()  # a worker started after the overlap
        parse_event(api, org.test.key)
        deliver(deployment)
        after = receiver.received[1]
        assert after.headers["X-Service-Signature"].count("v1=") == 1
        assert verify(after.body, after.headers["X-Service-Signature"], new)
        with pytest.raises(ValueError, match="no signature matches"):
            verify(after.body, after.headers["X-Service-Signature"], old)


def test_copies_of_a_handled_message_make_no_second_attempt(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    from docsvc import services
    from docsvc.tenancy import Tenant

    receiver = receivers.start(answers=[500])
    add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)
    deliver(deployment)
    (pending,) = deliveries(api, org.test.key)
    tenant = Tenant(org.id, "test")
    worker = services.delivery_service()

    for _ in range(3):  # SQS delivers at least once: the first attempt's message again
        worker.attempt(tenant, pending["id"], 1)
    worker.attempt(tenant, pending["id"], 3)  # a message from the future is ignored too
    assert len(receiver.received) == 1
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=2), tick=True):
        deliver(deployment)

    (delivered,) = deliveries(api, org.test.key)
    assert len(receiver.received) == 2 and delivered["status"] == "delivered"
    assert delivered["attempt_count"] == 2


def test_no_signing_secret_reaches_a_log_line(
    api: httpx.Client,
    org: Org,
    deployment: Deployment,
    receivers: Receivers,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    receiver = receivers.start(answers=[500])
    add_endpoint(api, org.test.key, receiver.url)
    first = secret_of(api, org.test.key)
    rotated = api.post("/v1/webhooks/signing-secret/rotate", headers=auth(org.test.key))
    second = rotated.json()["signing_secret"]
    parse_event(api, org.test.key)
    deliver(deployment)

    assert len(receiver.received) == 1
    assert first not in caplog.text and second not in caplog.text


@pytest.mark.parametrize("field", ["url", "enabled"])
def test_a_null_url_or_enabled_is_refused_and_changes_nothing(
    api: httpx.Client, org: Org, field: str
) -> None:
    endpoint = add_endpoint(api, org.test.key, "https://93.184.216.34/hook")
    path = f"/v1/webhooks/endpoints/{endpoint['id']}"

    response = api.patch(path, headers=auth(org.test.key), json={field: None})

    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", field]
    assert api.get(path, headers=auth(org.test.key)).json()["endpoint"] == endpoint


def test_a_url_and_description_of_exactly_the_largest_size_are_taken(api: httpx.Client, org: Org) -> None:
    base = "https://93.184.216.34/"
    url = base + "a" * (2048 - len(base))

    endpoint = add_endpoint(api, org.test.key, url, description="d" * 500)

    assert len(endpoint["url"]) == 2048 and len(endpoint["description"]) == 500


def test_the_log_filtered_by_event_reads_that_events_deliveries_only(
    api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    first, second = receivers.start(), receivers.start()
    add_endpoint(api, org.test.key, first.url)
    add_endpoint(api, org.test.key, second.url)
    for _ in range(3):
        parse_event(api, org.test.key)
    deliver(deployment)
    events = [event["id"] for event in api.get("/v1/events", headers=auth(org.test.key)).json()["data"]]

    for event_id in events:
        found = deliveries(api, org.test.key, event_id=event_id)
        assert len(found) == 2 and {row["event_id"] for row in found} == {event_id}
    assert deliveries(api, org.test.key, event_id=events[0], from_date="2999-01-01") == []
    assert deliveries(api, org.test.key, event_id="evt_unknown") == []
    assert len(deliveries(api, org.test.key)) == 6


class CountingTable:
    """The webhooks table, keeping which index each Query used and how many items it read."""

    def __init__(self, table: Any, reads: list[tuple[str | None, int]]) -> None:
        self._table, self._reads = table, reads

    def query(self, **params: Any) -> Any:
        response = self._table.query(**params)
        self._reads.append((params.get("IndexName"), int(response["ScannedCount"])))
        return response

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


def test_the_delivery_log_by_status_or_endpoint_reads_its_index_not_the_whole_log(
    deployment: Deployment, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.adapters.dynamo.webhooks import DynamoWebhookStore
    from docsvc.domain.deliveries import DeliveryQuery, WebhookDelivery
    from docsvc.ids import new_id
    from docsvc.tenancy import Tenant

    tenant = Tenant(org.id, "test")
    store = DynamoWebhookStore()

    def delivery(endpoint_id: str, status: str) -> WebhookDelivery:
        now = datetime.now(UTC).isoformat()
        return WebhookDelivery.model_validate(
            {
                "id": new_id("del"),
                "endpoint_id": endpoint_id,
                "event_id": new_id("evt"),
                "event_type": "parse.completed",
                "environment": "test",
                "url": "https://hooks.example.com/in",
                "status": status,
                "attempt_count": 1,
                "max_attempts": 4,
                "next_attempt_at": None,
                "attempts": [],
                "created_at": now,
                "updated_at": now,
            }
        )

    rare = [delivery("whe_rare", "failed") for _ in range(2)]
    for saved in [*rare, *(delivery("whe_busy", "delivered") for _ in range(60))]:
        assert store.save_delivery(tenant, saved, expected=None)
    reads: list[tuple[str | None, int]] = []
    table = aws.table
    monkeypatch.setattr(aws, "table", lambda name: CountingTable(table(name), reads))

    by_status = store.deliveries(tenant, DeliveryQuery(status="failed", limit=10))
    by_endpoint = store.deliveries(tenant, DeliveryQuery(endpoint_id="whe_rare", limit=10))
    both = store.deliveries(tenant, DeliveryQuery(endpoint_id="whe_busy", status="failed", limit=10))

    newest_first = [saved.id for saved in reversed(rare)]
    assert [found.id for found in by_status.items] == newest_first
    assert [found.id for found in by_endpoint.items] == newest_first
    assert both.items == []
    assert reads[:2] == [("deliveries_by_status", 2), ("deliveries_by_endpoint", 2)]
    assert all(index == "deliveries_by_endpoint" for index, _ in reads[2:])
