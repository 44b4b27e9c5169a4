"""Request limits through the real handlers on moto: a burst over a key's or an organization's limit is
answered 429 with Retry-After and the limit it hit; other keys, environments and organizations go on;
an operator's limits for an organization hold on its next request."""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import httpx
import pytest
from docsvc import services
from docsvc.domain import limits
from docsvc.domain.limits import DEFAULT_LIMITS, RequestLimits
from docsvc.local.stack import REGION, Deployment
from docsvc_client.cli.main import main

from tests.conftest import Org, auth

SECOND = 1_800_000_000.25  # every request of a test in one window, however slow the machine


@pytest.fixture(autouse=True)
def one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "_now", lambda: SECOND)


def set_limits(org: Org, organization: int, key: int) -> None:
    services.account_service().set_limits(
        org.id, RequestLimits(organization_per_second=organization, key_per_second=key)
    )


def statuses(api: httpx.Client, key: str, count: int) -> list[int]:
    return [api.get("/v1/files", headers=auth(key)).status_code for _ in range(count)]


def test_a_burst_over_the_key_limit_is_429_with_retry_after_naming_the_key_limit(
    api: httpx.Client, org: Org
) -> None:
    set_limits(org, organization=100, key=3)

    assert statuses(api, org.test.key, 3) == [200, 200, 200]
    refused = api.get("/v1/files", headers=auth(org.test.key))

    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    body = refused.json()
    assert body["limit"] == "key" and body["limit_per_second"] == 3 and body["retry_after"] == 1
    assert "this API key may send 3 requests a second" in body["detail"]


def test_the_next_second_is_a_new_window(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_limits(org, organization=100, key=2)
    assert statuses(api, org.test.key, 3) == [200, 200, 429]

    monkeypatch.setattr(limits, "_now", lambda: SECOND + 1)

    assert statuses(api, org.test.key, 2) == [200, 200]


def test_another_key_of_the_organization_has_its_own_key_limit_within_the_organization_limit(
    api: httpx.Client, org: Org
) -> None:
    set_limits(org, organization=5, key=3)
    second = services.account_service().create_key(org.id, "test", name="second").key

    assert statuses(api, org.test.key, 4) == [200, 200, 200, 429]
    assert statuses(api, second, 3) == [200, 200, 429]  # its own 3, but the organization's 5 are spent

    refused = api.get("/v1/files", headers=auth(second)).json()
    assert refused["limit"] == "organization"
    assert "this organization may send 5 requests a second in its test environment" in refused["detail"]


def test_each_environment_has_its_own_organization_limit(api: httpx.Client, org: Org) -> None:
    set_limits(org, organization=2, key=2)

    assert statuses(api, org.test.key, 3) == [200, 200, 429]
    assert statuses(api, org.production.key, 2) == [200, 200]


def test_another_organization_is_not_slowed_by_one_over_its_limit(
    api: httpx.Client, org: Org, other_org: Org
) -> None:
    set_limits(org, organization=2, key=2)

    assert statuses(api, org.test.key, 4) == [200, 200, 429, 429]
    assert statuses(api, other_org.test.key, 10) == [200] * 10


def test_a_refused_request_is_not_counted(api: httpx.Client, org: Org) -> None:
    set_limits(org, organization=10, key=2)
    second = services.account_service().create_key(org.id, "test", name="second").key

    assert statuses(api, org.test.key, 12) == [200, 200] + [429] * 10
    assert statuses(api, second, 2) == [200, 200]  # 4 of the organization's 10 counted, not 14


def test_a_post_with_an_idempotency_key_is_counted_once(api: httpx.Client, org: Org) -> None:
    set_limits(org, organization=100, key=3)
    posted = [
        api.post(
            "/v1/secrets",
            headers=auth(org.test.key) | {"Idempotency-Key": f"secret-{number}"},
            json={"name": f"TOKEN_{number}", "value": "x"},
        ).status_code
        for number in range(4)
    ]

    assert posted == [201, 201, 201, 429]


def test_the_idempotency_middleware_answers_429_with_retry_after(api: httpx.Client, org: Org) -> None:
    set_limits(org, organization=100, key=1)
    headers = auth(org.test.key) | {"Idempotency-Key": "again"}
    body = {"name": "TOKEN", "value": "x"}
    assert api.post("/v1/secrets", headers=headers, json=body).status_code == 201

    refused = api.post("/v1/secrets", headers=headers, json=body)

    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert refused.json()["limit"] == "key"
    assert "Idempotent-Replayed" not in refused.headers


def test_without_limits_of_its_own_an_organization_has_the_defaults(api: httpx.Client, org: Org) -> None:
    allowed = DEFAULT_LIMITS.key_per_second

    answers = statuses(api, org.test.key, allowed + 1)

    assert answers == [200] * allowed + [429]


# ---------------------------------------------------------------------------- the operator

STACK_TEMPLATE = {
    "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
    "Outputs": {"AccountsTable": {"Value": "AccountsTable"}, "LimitsTable": {"Value": "LimitsTable"}},
}


@pytest.fixture
def stack(deployment: Deployment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """`docsvc admin` pointed at a stack whose outputs name the tables."""
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName="docsvc-prod", TemplateBody=json.dumps(STACK_TEMPLATE)
    )
    monkeypatch.delenv("DOCSVC_STATE_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    return ["admin", "--stack", "docsvc-prod", "--region", REGION]


def admin(capsys: pytest.CaptureFixture[str], stack: list[str], *arguments: str) -> dict[str, object]:
    assert main([*stack, *arguments, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_the_operator_sets_an_organizations_limits_effective_on_the_next_request(
    api: httpx.Client, org: Org, stack: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    shown = admin(capsys, stack, "orgs", "limits", "--org", org.id)
    assert shown == {"organization_id": org.id, **DEFAULT_LIMITS.model_dump(), "default": True}

    changed = admin(capsys, stack, "orgs", "limits", "--org", org.id, "--key-requests-per-second", "2")

    assert changed == {
        "organization_id": org.id,
        "organization_per_second": DEFAULT_LIMITS.organization_per_second,
        "key_per_second": 2,
        "default": False,
    }
    assert statuses(api, org.test.key, 3) == [200, 200, 429]
    assert statuses(api, org.production.key, 3) == [200, 200, 429]


def test_a_key_created_after_the_override_has_the_organizations_limits(
    api: httpx.Client, org: Org, stack: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    admin(capsys, stack, "orgs", "limits", "--org", org.id, "--requests-per-second", "50")
    admin(capsys, stack, "orgs", "limits", "--org", org.id, "--key-requests-per-second", "1")
    later = services.account_service().create_key(org.id, "test", name="later").key

    assert statuses(api, later, 2) == [200, 429]
    assert admin(capsys, stack, "orgs", "limits", "--org", org.id)["organization_per_second"] == 50


def test_the_operator_goes_back_to_the_defaults(
    api: httpx.Client, org: Org, stack: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    set_limits(org, organization=1, key=1)

    back = admin(capsys, stack, "orgs", "limits", "--org", org.id, "--default")

    assert back["default"] is True
    assert statuses(api, org.test.key, 3) == [200, 200, 200]


def test_a_limit_below_one_or_an_unknown_organization_is_refused(
    org: Org, stack: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*stack, "orgs", "limits", "--org", org.id, "--requests-per-second", "0"]) == 1
    assert "organization_per_second" in capsys.readouterr().err
    assert main([*stack, "orgs", "limits", "--org", "org_missing", "--requests-per-second", "5"]) == 1
    assert "no organization 'org_missing'" in capsys.readouterr().err
