"""At least 200 broken or hostile documents through the synchronous parse route: every one gets a 201 or
a 4xx with a message, none a 500, none crashes the process, none hangs."""

from __future__ import annotations

import base64
import time

import httpx
import pytest

from tests.conftest import Org, auth
from tests.integration.hostile_corpus import corpus

CORPUS = corpus()
SECONDS_EACH = 15


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 200


@pytest.mark.timeout(900)
def test_no_hostile_document_gets_a_500_or_hangs(api: httpx.Client, org: Org) -> None:
    failures = []
    slowest = (0.0, "")
    for name, filename, content in CORPUS:
        url = "data:application/octet-stream;base64," + base64.b64encode(content).decode()
        started = time.monotonic()
        response = api.post(
            "/v1/parses",
            headers=auth(org.test.key),
            json={"document": {"filename": filename, "url": url}, "bust_cache": True},
        )
        elapsed = time.monotonic() - started
        slowest = max(slowest, (elapsed, name))
        body = response.json()
        if response.status_code >= 500 or elapsed > SECONDS_EACH:
            failures.append(f"{name}: {response.status_code} in {elapsed:.1f}s: {str(body)[:200]}")
        elif response.status_code >= 400 and not body.get("detail"):
            failures.append(f"{name}: {response.status_code} without a message")
        elif response.status_code == 201 and body["status"] != "completed":
            failures.append(f"{name}: 201 but {body['status']}")

    assert failures == [], "\n".join(failures)
    assert slowest[0] < SECONDS_EACH, slowest
