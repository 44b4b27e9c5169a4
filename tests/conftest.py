"""Fixtures shared by the integration tests: a moto account built from template.yaml, tenants, keys,
and an HTTP client that reaches the real Lambda handlers through the template's routes."""

from __future__ import annotations

import functools
import json
import os
import pickle
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from docsvc import services
from docsvc.local import stack
from docsvc.local.emulator import adapt_emulator
from docsvc.local.gateway import RouteTable
from docsvc.local.pollers import QueuePoller, StreamPoller
from docsvc.local.stack import REGION, Deployment, deploy_template
from docsvc.local.template import load_template
from docsvc.local.transport import LambdaTransport
from docsvc.tenancy import Environment
from moto import mock_aws

from tests.integration.webhook_receivers import Receivers

# The console's signed-in browser (`signed_in`), for the console's page tests.
pytest_plugins = ["tests.integration.console_client"]

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "template.yaml"

os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")


def _read_aws_models_once() -> None:
    """Every `mock_aws()` hands boto3 a new default session, and every botocore session reads the
    service models it needs (JSON, megabytes for S3 or DynamoDB) afresh: a quarter of a second for each
    test's account. One loader for the whole run reads each model once; what it holds is the botocore
    package's data, the same for every session, and nothing of a test's account."""
    import botocore.loaders
    import botocore.session

    loaders: dict[str | None, botocore.loaders.Loader] = {}

    def create_loader(search_path_string: str | None = None) -> botocore.loaders.Loader:
        if search_path_string not in loaders:
            loaders[search_path_string] = botocore.loaders.create_loader(search_path_string)
        return loaders[search_path_string]

    botocore.session.create_loader = create_loader  # type: ignore[assignment]


def _import_the_user_pool_key_once() -> None:
    """moto gives every user pool the same signing key (a file of its own) and imports it from its JSON
    form each time, which recovers the RSA primes: a third of a second for every test's user pool. The
    key is imported once and shared; it is the same key either way, and it is never changed."""
    from joserfc import jwk
    from moto.cognitoidp import models

    imported: dict[str, Any] = {}
    real = jwk.RSAKey

    class RSAKey:
        @staticmethod
        def import_key(value: Any, *args: Any, **kwargs: Any) -> Any:
            if args or kwargs or not isinstance(value, dict):
                return real.import_key(value, *args, **kwargs)
            cache_key = json.dumps(value, sort_keys=True)
            if cache_key not in imported:
                imported[cache_key] = real.import_key(value)
            return imported[cache_key]

    models.jwk = SimpleNamespace(RSAKey=RSAKey)  # type: ignore[attr-defined]


_read_aws_models_once()
_import_the_user_pool_key_once()


@functools.cache
def _parsed_template(path: Path, modified: int) -> bytes:
    return pickle.dumps(load_template(path))


def _template_read_once(path: Path) -> dict[str, Any]:
    """template.yaml as `load_template` reads it, parsed once per version of the file: each test gets a
    copy of its own (the parse takes longer than the rest of a deployment)."""
    document: dict[str, Any] = pickle.loads(_parsed_template(path, path.stat().st_mtime_ns))  # noqa: S301
    return document


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test its own id. Schemathesis names each operation's test `test_…[GET /v1/…]`, but under
    pytest 9 its items all carry the function's id; pytest-xdist, which hands tests to its workers by
    id, would then run the fuzz test of one operation and drop the others. Such tests take the id their
    name gives."""
    ids = Counter(item.nodeid for item in items)
    for item in items:
        if ids[item.nodeid] > 1 and item.parent is not None:
            item._id = item.parent.id.child(item.name)
    shared = sorted(nodeid for nodeid, count in Counter(item.nodeid for item in items).items() if count > 1)
    if shared:  # pytest-xdist would run one of each and drop the rest without a word
        raise pytest.UsageError(
            f"{len(shared)} test ids are each given to several tests: {', '.join(shared[:5])}"
        )


@pytest.fixture(autouse=True)
def fresh_document_readers(request: pytest.FixtureRequest) -> Iterator[None]:
    """The document engine keeps its reading children between documents; a test that patches the
    readers or the environment gets children forked after its patches, and leaves none behind."""
    if "monkeypatch" not in request.fixturenames:
        yield
        return
    from docsvc.documents.engine import isolation

    isolation.retire_idle_children()
    yield
    isolation.retire_idle_children()


@pytest.fixture
def deployment(monkeypatch: pytest.MonkeyPatch) -> Iterator[Deployment]:
    """Every resource of template.yaml in a fresh moto account; this process configured like a function."""
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setattr(stack, "load_template", _template_read_once)
    adapt_emulator()
    with mock_aws():
        services.reset()
        yield deploy_template(TEMPLATE)
    services.reset()


@dataclass(frozen=True)
class Tenant:
    organization_id: str
    environment: Environment
    key: str
    key_id: str


@dataclass(frozen=True)
class Org:
    id: str
    test: Tenant
    production: Tenant


def make_org(name: str) -> Org:
    accounts = services.account_service()
    organization = accounts.create_organization(name)
    test = accounts.create_key(organization.id, "test", name="ci")
    live = accounts.create_key(organization.id, "production", name="live")
    return Org(
        id=organization.id,
        test=Tenant(organization.id, "test", test.key, test.record.id),
        production=Tenant(organization.id, "production", live.key, live.record.id),
    )


@pytest.fixture
def org(deployment: Deployment) -> Org:
    return make_org("acme")


def without_request_limits(org: Org) -> None:
    """For a test that walks every route as fast as it can: far over the default request limits."""
    from docsvc.domain.limits import RequestLimits

    limits = RequestLimits(organization_per_second=1000, key_per_second=1000)
    services.account_service().set_limits(org.id, limits)


@pytest.fixture
def other_org(deployment: Deployment) -> Org:
    return make_org("globex")


@pytest.fixture
def api(deployment: Deployment) -> Iterator[httpx.Client]:
    """HTTP through the template's routes to the real handlers (API Gateway events, Mangum, decorators)."""
    transport = LambdaTransport(RouteTable(deployment.functions))
    with httpx.Client(transport=transport, base_url="https://api.docsvc.test") as client:
        yield client


@pytest.fixture
def receivers() -> Iterator[Receivers]:
    """Webhook receivers on loopback, started by the test, stopped after it."""
    started = Receivers()
    yield started
    started.stop()


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def drain(deployment: Deployment, function_logical_id: str, *, rounds: int = 5) -> int:
    """Deliver what waits in the function's queues, as the event source mapping would; returns the count."""
    function = deployment.function(function_logical_id)
    pollers = [
        QueuePoller(function, trigger, deployment.queue_url(trigger.queue_arn), REGION, threading.Event())
        for trigger in function.queues
    ]
    return _poll(pollers, rounds)


def _poll(pollers: Sequence[QueuePoller | StreamPoller], rounds: int) -> int:
    """Each poller in turn until a poll hands nothing over, `rounds` polls at most; the records handed."""
    delivered = 0
    for poller in pollers:
        for _ in range(rounds):
            count = poller.poll_once()
            delivered += count
            if count == 0:
                break
    return delivered


def stream_pollers(deployment: Deployment, function_logical_id: str) -> list[StreamPoller]:
    """The function's stream pollers (one per DynamoDB event), created on the first call and kept on
    the deployment, so that every later call, and `drain_streams`, continues where the last stopped.

    A poller takes its shard iterators when it is created: for a LATEST trigger, call this before
    writing the records the test wants delivered; TRIM_HORIZON pollers see the stream from its start.
    """
    pollers = deployment.stream_pollers.get(function_logical_id)
    if pollers is None:
        function = deployment.function(function_logical_id)
        pollers = [StreamPoller(function, trigger, REGION, threading.Event()) for trigger in function.streams]
        deployment.stream_pollers[function_logical_id] = pollers
    return pollers


def drain_streams(deployment: Deployment, function_logical_id: str, *, rounds: int = 5) -> int:
    """Deliver the records waiting in the function's DynamoDB streams, as the event source mapping
    would; returns the number of records handed to the function (a retried record counts each time).
    Stops after `rounds` polls per stream, or at the first poll that delivers nothing."""
    return _poll(stream_pollers(deployment, function_logical_id), rounds)
