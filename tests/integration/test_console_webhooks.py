"""The console's Webhooks section through the real ConsoleFunction handler: endpoints of this environment
only, a signing secret shown once when it is rotated (and then signing the deliveries), each endpoint's
delivery log with every attempt and its error, and a retry that re-queues a delivery as the API's does."""

from __future__ import annotations

import html
import logging
import re
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import time_machine
from docsvc.local.stack import Deployment
from docsvc_client.webhooks import verify

from tests.conftest import Org, auth
from tests.integration.console_client import ConsolePage
from tests.integration.test_console_settings import followed, opened
from tests.integration.test_webhooks import add_endpoint, deliver, deliveries, parse_event, secret_of
from tests.integration.webhook_receivers import Receivers


def endpoints(api: httpx.Client, key: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = api.get("/v1/webhooks/endpoints", headers=auth(key)).json()["endpoints"]
    return found


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def text(answer: httpx.Response) -> str:
    """A page's words, tags out and entities read, on one line."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", answer.text)).split())


# ---------------------------------------------------------------------------- endpoints


def test_the_webhooks_page_lists_this_environments_endpoints_only(
    signed_in, api: httpx.Client, org: Org, other_org: Org
) -> None:
    test = add_endpoint(api, org.test.key, "https://93.184.216.34/test-hook", description="billing")
    production = add_endpoint(api, org.production.key, "https://93.184.216.34/live-hook")
    foreign = add_endpoint(api, other_org.test.key, "https://93.184.216.34/foreign-hook")
    page = opened(signed_in(org, role="member"))

    listed = page.get(f"{page.base()}/webhooks")

    assert "test-hook" in listed.text and "billing" in listed.text
    assert "live-hook" not in listed.text and "foreign-hook" not in listed.text
    assert "live-hook" in page.get(f"{page.base('production')}/webhooks").text
    for endpoint in (production, foreign):
        path = f"{page.base()}/webhooks/endpoints/{endpoint['id']}"
        assert page.get(path).status_code == 404
        for action, data in (("", {"url": "https://93.184.216.34/x"}), ("/enable", {}), ("/disable", {})):
            assert page.post(path + action, data).status_code == 404, action
        assert page.post(f"{path}/delete").status_code == 404
    assert endpoints(api, org.production.key) == [production] and endpoints(api, other_org.test.key) == [
        foreign
    ]
    assert page.get(f"{page.base()}/webhooks/endpoints/{test['id']}").status_code == 200


def test_an_endpoint_is_added_changed_disabled_enabled_and_deleted_as_the_api_shows(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = opened(signed_in(org, role="member"))

    added = page.post(
        f"{page.base()}/webhooks/endpoints",
        {"url": "https://93.184.216.34/hook", "events": ["job.*", "parse.completed"], "enabled": "true"},
    )
    (endpoint,) = endpoints(api, org.test.key)
    assert added.headers["location"].startswith(f"{page.base()}/webhooks/endpoints/{endpoint['id']}?")
    assert endpoint["events"] == ["job.*", "parse.completed"] and endpoint["enabled"] is True
    assert "An endpoint at 93.184.216.34 is added." in followed(page, added).text
    assert "/hook" not in added.headers["location"]  # a receiver's path may hold a token: not in a URL
    path = f"{page.base()}/webhooks/endpoints/{endpoint['id']}"

    followed(page, page.post(path, {"url": "https://93.184.216.34/new", "description": "ops"}))
    (changed,) = endpoints(api, org.test.key)
    assert changed["url"] == "https://93.184.216.34/new" and changed["events"] is None
    assert changed["description"] == "ops"
    assert "disabled" in followed(page, page.post(f"{path}/disable")).text
    assert endpoints(api, org.test.key)[0]["enabled"] is False
    followed(page, page.post(f"{path}/enable"))
    assert endpoints(api, org.test.key)[0]["enabled"] is True
    assert "is deleted" in followed(page, page.post(f"{path}/delete")).text
    assert endpoints(api, org.test.key) == []


def test_a_refused_endpoint_shows_the_services_message_and_is_not_stored(
    signed_in, api: httpx.Client, org: Org
) -> None:
    page = opened(signed_in(org))

    private = page.post(f"{page.base()}/webhooks/endpoints", {"url": "http://10.0.0.7/hook"})
    plain = opened(signed_in(org, email="second@example.com"))
    production = plain.client.post(
        f"{plain.base('production')}/webhooks/endpoints",
        data={"csrf": plain.csrf(), "url": "http://93.184.216.34/hook"},
    )
    unknown = page.post(
        f"{page.base()}/webhooks/endpoints", {"url": "https://93.184.216.34/h", "events": ["x.y"]}
    )

    assert private.status_code == 422 and "private address" in text(private)
    assert 'value="http://10.0.0.7/hook"' in private.text  # the form keeps what was typed
    assert production.status_code == 422 and "needs an https:// URL" in text(production)
    assert unknown.status_code == 422 and "unknown event type 'x.y'" in text(unknown)
    assert endpoints(api, org.test.key) == [] and endpoints(api, org.production.key) == []


# ---------------------------------------------------------------------------- the signing secret


def test_a_rotated_signing_secret_is_shown_once_and_then_signs_the_deliveries(
    signed_in,
    api: httpx.Client,
    org: Org,
    deployment: Deployment,
    receivers: Receivers,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    caplog.set_level(logging.DEBUG)
    old = secret_of(api, org.test.key)
    page = opened(signed_in(org, role="member"))
    before = page.get(f"{page.base()}/webhooks")
    assert old not in before.text and "The current secret was made" in before.text

    rotated = page.post(f"{page.base()}/webhooks/signing-secret/rotate")

    assert rotated.status_code == 200 and "location" not in rotated.headers
    new = re.search(r'<output id="new-secret" class="secret-once">(whsec_[^<]+)</output>', rotated.text)
    assert new and new.group(1) != old and old not in rotated.text
    assert secret_of(api, org.test.key) == new.group(1)
    assert "still signs beside this one until" in rotated.text and "(24 hours)" in rotated.text
    assert rotated.headers["cache-control"] == "no-store"
    after = page.get(f"{page.base()}/webhooks")
    assert (
        new.group(1) not in after.text and "The secret it replaced still signs beside it until" in after.text
    )
    assert secret_of(api, org.production.key) not in rotated.text
    receiver = receivers.start()
    add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)
    deliver(deployment)
    (got,) = receiver.received
    assert verify(got.body, got.headers["X-Service-Signature"], new.group(1))
    assert verify(got.body, got.headers["X-Service-Signature"], old)  # the replaced one, for its day
    printed = capsys.readouterr()
    assert new.group(1) not in caplog.text + printed.out + printed.err  # in no log line


# ---------------------------------------------------------------------------- the delivery log


def failed_delivery(api: httpx.Client, org: Org, deployment: Deployment) -> tuple[dict[str, Any], str]:
    """An endpoint on a closed port and its delivery, failed after the test schedule's four attempts."""
    endpoint = add_endpoint(api, org.test.key, f"http://127.0.0.1:{closed_port()}/hook")
    parse_event(api, org.test.key)
    with time_machine.travel(datetime.now(UTC), tick=True) as clock:
        deliver(deployment)
        for _ in range(4 * 4):  # four hours in 15-minute steps: past the test schedule
            clock.shift(timedelta(minutes=15))
            deliver(deployment)
    return endpoint, deliveries(api, org.test.key)[0]["id"]


def test_a_delivery_to_a_closed_port_shows_as_failed_with_each_attempt_and_its_error(
    signed_in, api: httpx.Client, org: Org, deployment: Deployment
) -> None:
    endpoint, delivery_id = failed_delivery(api, org, deployment)
    page = opened(signed_in(org, role="member"))

    log = page.get(f"{page.base()}/webhooks/endpoints/{endpoint['id']}")
    shown = page.get(f"{page.base()}/webhooks/deliveries/{delivery_id}")

    stored = api.get(f"/v1/webhooks/deliveries/{delivery_id}", headers=auth(org.test.key)).json()
    assert stored["status"] == "failed" and len(stored["attempts"]) == 4
    assert delivery_id in log.text and "parse.completed" in log.text
    assert '<span class="status status-failed">failed</span>' in log.text
    assert text(log).count("no HTTP answer: connection refused") == 4
    assert "4 of at most 4" in text(log)
    rows = re.findall(
        r"<tr>\s*<td>(\d+)</td>\s*<td><time[^>]*>([^<]+)</time></td>\s*"
        r"<td>([^<]+)</td>\s*<td>([^<]+)</td>\s*<td>(\d+) ms</td>",
        shown.text,
    )
    assert [(int(n), code, error, int(ms)) for n, _, code, error, ms in rows] == [
        (attempt["number"], "no answer", attempt["error"], attempt["latency_ms"])
        for attempt in stored["attempts"]
    ]
    assert all(error == "connection refused" for _, _, _, error, _ in rows)
    assert "Retry delivery" in shown.text
    filtered = page.get(f"{page.base()}/webhooks/endpoints/{endpoint['id']}?status=delivered")
    assert delivery_id not in filtered.text and "No deliveries with status delivered." in filtered.text
    assert page.get(f"{page.base('production')}/webhooks/deliveries/{delivery_id}").status_code == 404


def test_an_error_answer_shows_its_status_and_the_attempt_still_to_come(
    signed_in, api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    receiver = receivers.start(status=500)
    endpoint = add_endpoint(api, org.test.key, receiver.url)
    parse_event(api, org.test.key)
    deliver(deployment)
    page = opened(signed_in(org))

    log = page.get(f"{page.base()}/webhooks/endpoints/{endpoint['id']}?status=pending")

    (delivery,) = deliveries(api, org.test.key)
    assert delivery["status"] == "pending" and delivery["attempts"][0]["error"] == "answered HTTP 500"
    assert '<span class="status status-pending">pending</span>' in log.text
    assert "HTTP 500: answered HTTP 500" in text(log) and "1 of at most 4" in text(log)
    assert delivery["attempts"][0]["attempted_at"][:19].replace("T", " ") in log.text
    shown = page.get(f"{page.base()}/webhooks/deliveries/{delivery['id']}")
    assert "still being attempted" in shown.text and "Retry delivery" not in shown.text


def test_a_retry_requeues_the_delivery_as_the_apis_retry_does(
    signed_in, api: httpx.Client, org: Org, deployment: Deployment, receivers: Receivers
) -> None:
    endpoint, delivery_id = failed_delivery(api, org, deployment)
    receiver = receivers.start()
    page = opened(signed_in(org, role="member"))
    retry = f"{page.base()}/webhooks/deliveries/{delivery_id}/retry"

    assert page.post(f"{page.base('production')}/webhooks/deliveries/{delivery_id}/retry").status_code == 404
    page.post(f"{page.base()}/webhooks/endpoints/{endpoint['id']}/disable")
    disabled = page.post(retry)
    assert disabled.status_code == 409 and "is disabled; enable it, then retry" in text(disabled)
    page.post(f"{page.base()}/webhooks/endpoints/{endpoint['id']}", {"url": receiver.url})
    page.post(f"{page.base()}/webhooks/endpoints/{endpoint['id']}/enable")

    queued = page.post(retry)
    pending = api.get(f"/v1/webhooks/deliveries/{delivery_id}", headers=auth(org.test.key)).json()
    assert "Attempt 5 is queued" in followed(page, queued).text
    assert pending["status"] == "pending" and pending["max_attempts"] == 5 and pending["retry_requested_at"]
    again = page.post(retry)
    assert again.status_code == 409 and "still being attempted" in text(again)
    deliver(deployment)

    shown = page.get(f"{page.base()}/webhooks/deliveries/{delivery_id}")
    assert len(receiver.received) == 1
    assert '<span class="status status-delivered">delivered</span>' in shown.text
    assert "<td>5</td>" in shown.text and "on request" in shown.text and "<td>200</td>" in shown.text


def test_webhook_forms_without_the_csrf_token_are_refused(signed_in, api: httpx.Client, org: Org) -> None:
    endpoint = add_endpoint(api, org.test.key, "https://93.184.216.34/hook")
    old = secret_of(api, org.test.key)
    page: ConsolePage = opened(signed_in(org))
    base = f"{page.base()}/webhooks"

    for path in (
        "/endpoints",
        f"/endpoints/{endpoint['id']}",
        f"/endpoints/{endpoint['id']}/disable",
        f"/endpoints/{endpoint['id']}/delete",
        "/signing-secret/rotate",
        "/deliveries/del_x/retry",
    ):
        for sent in (
            {"url": "https://93.184.216.34/other"},
            {"csrf": "forged", "url": "https://93.184.216.34/o"},
        ):
            answer = page.client.post(base + path, data=sent)
            assert answer.status_code == 403 and "the form has expired" in answer.text, path
    assert endpoints(api, org.test.key) == [endpoint] and secret_of(api, org.test.key) == old
