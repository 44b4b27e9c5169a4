"""The SDK against the real handlers, with the connection dropped after the server committed: the SDK's
retry sends the call's Idempotency-Key again, so each create is made once and charged once, and the call
returns the first attempt's answer as if nothing had happened."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from docsvc.local.gateway import RouteTable
from docsvc.local.stack import Deployment
from docsvc.local.transport import LambdaTransport
from docsvc_client import Client

from tests.conftest import Org, auth
from tests.integration.test_idempotency_keys import operations
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, invoice


class DropsFirstAnswer(httpx.BaseTransport):
    """Hands each POST to the server, then loses the first answer as a dropped connection would."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        self.posts: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method != "POST":
            return response
        self.posts.append(request)
        if len(self.posts) == 1:
            response.read()  # the server has answered: whatever it made is made
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


@dataclass(frozen=True)
class Call:
    name: str
    create: Callable[[Client], Any]
    listed: str  # the list route that shows what the call made
    key: str = "data"
    billed: bool = False


INVOICE = invoice()
CALLS = [
    Call("files.upload", lambda sdk: sdk.files.upload(INVOICE, "invoice.pdf"), "/v1/files"),
    Call(
        "parses.create", lambda sdk: sdk.parses.create(INVOICE, filename="a.pdf"), "/v1/parses", billed=True
    ),
    Call(
        "extractions.create",
        lambda sdk: sdk.extractions.create(INVOICE, INVOICE_SCHEMA, filename="a.pdf"),
        "/v1/extractions",
        billed=True,
    ),
    Call(
        "classifications.create",
        lambda sdk: sdk.classifications.create(INVOICE, CATEGORIES, filename="a.pdf"),
        "/v1/classifications",
        billed=True,
    ),
    Call(
        "secrets.create",
        lambda sdk: sdk.secrets.create("LEDGER_TOKEN", "s3cret"),
        "/v1/secrets",
        key="secrets",
    ),
    Call(
        "tables.create",
        lambda sdk: sdk.tables.create("rates", b"code,rate\nA,1\n"),
        "/v1/tables",
        key="tables",
    ),
    Call(
        "webhooks.endpoints.create",
        lambda sdk: sdk.webhooks.endpoints.create("http://127.0.0.1:9/in"),
        "/v1/webhooks/endpoints",
        key="endpoints",
    ),
    Call("workflows.create", lambda sdk: sdk.workflows.create("Invoices"), "/v1/workflows"),
]


@pytest.fixture
def dropping(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[DropsFirstAnswer]:
    monkeypatch.setattr("docsvc_client._http._sleep", lambda seconds: None)
    yield DropsFirstAnswer(LambdaTransport(RouteTable(deployment.functions)))


@pytest.mark.parametrize("call", CALLS, ids=lambda call: call.name)
def test_a_create_whose_answer_was_lost_is_made_once_and_answered_by_the_retry(
    call: Call, dropping: DropsFirstAnswer, api: httpx.Client, org: Org
) -> None:
    charged = operations(api, org.test.key)
    base_url = "https://api.docsvc.test"
    with (
        httpx.Client(transport=dropping, base_url=base_url, timeout=60) as http,
        Client(api_key=org.test.key, base_url=base_url, http_client=http) as sdk,
    ):
        made = call.create(sdk)

    first, retry = dropping.posts
    assert first.headers["Idempotency-Key"] == retry.headers["Idempotency-Key"]
    listed = api.get(call.listed, headers=auth(org.test.key)).json()[call.key]
    assert len(listed) == 1
    assert made["id"] == listed[0]["id"] if "id" in made else made["name"] == listed[0]["name"]
    assert operations(api, org.test.key) == charged + (1 if call.billed else 0)
