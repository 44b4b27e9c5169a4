"""Authentication: both header forms, the stored environment decides, revocation is immediate."""

from __future__ import annotations

import httpx
import pytest
from docsvc import services
from docsvc.adapters.dynamo.accounts import DynamoAccountRepository
from docsvc.domain.accounts import ApiKey, hash_key
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth


def test_auth_status_returns_both_documented_shapes(api: httpx.Client, org: Org) -> None:
    response = api.get("/v1/auth/status", headers=auth(org.test.key))

    assert response.status_code == 200
    body = response.json()
    organization = services.account_service()._repository.get_organization(org.id)
    assert organization is not None
    env_id = organization.environments["test"]
    assert body == {
        "authenticated": True,
        "auth_method": "api_key",
        "organization_id": org.id,
        "environment": {"id": env_id, "name": "test"},
        "environment_slug": "test",
        "environment_id": env_id,
        "key": {"prefix": org.test.key[: len("svc_test_") + 4], "name": "ci"},
    }


def test_api_key_header_is_accepted_like_bearer(api: httpx.Client, org: Org) -> None:
    response = api.get("/v1/auth/status", headers={"Api-Key": org.production.key})

    assert response.status_code == 200
    assert response.json()["environment_slug"] == "production"


def test_legacy_keys_are_production_keys(api: httpx.Client, org: Org) -> None:
    legacy = services.account_service().create_key(org.id, "production", name="old", legacy=True)

    assert legacy.key.startswith("sk_svc_")
    response = api.get("/v1/auth/status", headers=auth(legacy.key))
    assert response.json()["environment"]["name"] == "production"


def test_the_stored_environment_decides_not_the_prefix(api: httpx.Client, org: Org) -> None:
    # A key that looks like a test key but whose stored record says production.
    disguised = "svc_test_" + "x" * 40
    record = ApiKey(
        id="key_disguised",
        organization_id=org.id,
        environment="production",
        environment_id="env_p",
        name="disguised",
        prefix=disguised[:13],
        created_at="2026-01-01T00:00:00.000Z",
    )
    DynamoAccountRepository().put_key(hash_key(disguised), record)

    response = api.get("/v1/auth/status", headers=auth(disguised))

    assert response.json()["environment_slug"] == "production"


def test_only_a_hash_of_the_key_is_stored(deployment: Deployment, org: Org) -> None:
    table = DynamoAccountRepository()._table
    items = table.scan()["Items"]  # a test may look at everything; the service never scans

    assert all(org.test.key not in str(item) for item in items)
    assert any(item["pk"] == f"KEY#{hash_key(org.test.key)}" for item in items)


def test_revocation_is_effective_on_the_very_next_request(api: httpx.Client, org: Org) -> None:
    assert api.get("/v1/auth/status", headers=auth(org.test.key)).status_code == 200

    services.account_service().revoke_key(org.test.key_id)
    response = api.get("/v1/auth/status", headers=auth(org.test.key))

    assert response.status_code == 401
    assert response.json() == {"detail": "this API key has been revoked"}


@pytest.mark.parametrize(
    ("headers", "detail"),
    [
        ({}, "missing API key: send 'Authorization: Bearer <key>' or 'Api-Key: <key>'"),
        ({"Authorization": "Bearer svc_test_unknown"}, "invalid API key"),
        ({"Api-Key": "nonsense"}, "invalid API key"),
        (
            {"Authorization": "Basic dXNlcjpwYXNz"},
            "missing API key: send 'Authorization: Bearer <key>' or 'Api-Key: <key>'",
        ),
    ],
)
def test_missing_or_unknown_keys_get_401_with_a_message(
    api: httpx.Client, org: Org, headers: dict[str, str], detail: str
) -> None:
    response = api.get("/v1/auth/status", headers=headers)

    assert response.status_code == 401
    assert response.json() == {"detail": detail}
    assert response.headers["www-authenticate"] == "Bearer"


def test_an_error_never_echoes_the_presented_key(api: httpx.Client, org: Org) -> None:
    presented = "svc_live_" + "S" * 40
    response = api.get("/v1/files", headers=auth(presented))

    assert response.status_code == 401
    assert "SSSS" not in response.text


def test_every_v1_route_requires_a_key(api: httpx.Client, deployment: Deployment) -> None:
    from docsvc.local.openapi import merged_openapi

    document = merged_openapi(deployment.functions)
    checked = 0
    for path, operations in document["paths"].items():
        for method in operations:
            concrete = path.replace("{file_id}", "file_01ABC")
            response = api.request(method.upper(), concrete)
            assert response.status_code == 401, f"{method.upper()} {path} answered {response.status_code}"
            checked += 1
    assert checked >= 8
