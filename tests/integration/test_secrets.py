"""Secrets through the real handlers, with AWS Secrets Manager in moto: metadata only ever answered,
values kept per organization and environment, rotation, and the resolver of `secret://NAME`."""

from __future__ import annotations

import logging
from typing import Any

import boto3
import httpx
import pytest
from docsvc import services
from docsvc.config import settings
from docsvc.errors import NotFound
from docsvc.local.stack import REGION, Deployment
from docsvc.tenancy import Tenant

from tests.conftest import Org, auth

VALUE = "sk-live-5c2b7f0e9d1a4b6c8e3f"


def create(api: httpx.Client, key: str, name: str = "OPENAI_KEY", value: str = VALUE) -> httpx.Response:
    return api.post("/v1/secrets", headers=auth(key), json={"name": name, "value": value})


def stored_value(org: Org, environment: str, name: str) -> str:
    client = boto3.client("secretsmanager", region_name=REGION)
    secret_id = f"{settings().secrets_prefix}/{org.id}/{environment}/{name}"
    return str(client.get_secret_value(SecretId=secret_id)["SecretString"])


def test_a_created_secret_answers_its_metadata_and_never_its_value(api: httpx.Client, org: Org) -> None:
    created = create(api, org.test.key)

    assert created.status_code == 201, created.text
    meta = created.json()["secret"]
    assert set(meta) == {"name", "environment", "created_by", "updated_by", "created_at", "updated_at"}
    assert meta["environment"] == "test"
    assert meta["name"] == "OPENAI_KEY"
    assert meta["created_by"] == meta["updated_by"] == org.test.key_id
    assert stored_value(org, "test", "OPENAI_KEY") == VALUE
    for response in (
        created,
        api.get("/v1/secrets/OPENAI_KEY", headers=auth(org.test.key)),
        api.get("/v1/secrets", headers=auth(org.test.key)),
    ):
        assert VALUE not in response.text
    assert api.get("/v1/secrets", headers=auth(org.test.key)).json() == {"secrets": [meta]}


def test_creating_a_secret_twice_is_409_and_put_rotates_it(api: httpx.Client, org: Org) -> None:
    first = create(api, org.test.key).json()["secret"]

    again = create(api, org.test.key, value="another")
    rotated = api.put("/v1/secrets/OPENAI_KEY", headers=auth(org.test.key), json={"value": "rotated-value"})

    assert again.status_code == 409
    assert "rotated" not in again.text
    assert rotated.status_code == 200
    assert rotated.json()["secret"]["created_at"] == first["created_at"]
    assert rotated.json()["secret"]["updated_at"] >= first["updated_at"]
    assert stored_value(org, "test", "OPENAI_KEY") == "rotated-value"


def test_put_creates_a_secret_that_does_not_exist(api: httpx.Client, org: Org) -> None:
    response = api.put("/v1/secrets/NEW_ONE", headers=auth(org.test.key), json={"value": "v"})

    assert response.status_code == 201
    assert response.json()["secret"]["name"] == "NEW_ONE"


def test_a_test_key_never_sees_or_touches_a_production_secret(
    api: httpx.Client, org: Org, other_org: Org
) -> None:
    create(api, org.production.key, value="production-value")

    for key in (org.test.key, other_org.production.key):
        assert api.get("/v1/secrets/OPENAI_KEY", headers=auth(key)).status_code == 404
        assert api.delete("/v1/secrets/OPENAI_KEY", headers=auth(key)).status_code == 404
        assert api.get("/v1/secrets", headers=auth(key)).json() == {"secrets": []}
    create(api, org.test.key, value="test-value")  # the same name in test is another secret

    assert stored_value(org, "production", "OPENAI_KEY") == "production-value"
    assert stored_value(org, "test", "OPENAI_KEY") == "test-value"


def test_a_deleted_secret_is_gone_and_can_be_created_again(api: httpx.Client, org: Org) -> None:
    create(api, org.test.key)

    deleted = api.delete("/v1/secrets/OPENAI_KEY", headers=auth(org.test.key))

    assert deleted.status_code == 204
    assert api.get("/v1/secrets/OPENAI_KEY", headers=auth(org.test.key)).status_code == 404
    assert create(api, org.test.key, value="fresh").status_code == 201
    assert stored_value(org, "test", "OPENAI_KEY") == "fresh"


@pytest.mark.parametrize(
    "body",
    [
        {"name": "1STARTS_WITH_DIGIT", "value": "v"},
        {"name": "has-dash", "value": "v"},
        {"name": "A" * 129, "value": "v"},
        {"name": "", "value": "v"},
        {"name": "EMPTY", "value": ""},
        {"name": "HUGE", "value": "x" * 65_537},
        {"name": "NO_VALUE"},
        {"value": "v"},
    ],
)
def test_bad_names_and_values_are_422_without_echoing_the_value(
    api: httpx.Client, org: Org, body: dict[str, Any]
) -> None:
    response = api.post("/v1/secrets", headers=auth(org.test.key), json=body)

    assert response.status_code == 422
    assert "x" * 100 not in response.text


def test_no_value_reaches_a_log_line(api: httpx.Client, org: Org, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    create(api, org.test.key)
    api.put("/v1/secrets/OPENAI_KEY", headers=auth(org.test.key), json={"value": VALUE + "-2"})
    create(api, org.test.key)  # a 409

    assert VALUE not in caplog.text


def test_the_resolver_reads_the_value_of_its_own_environment_and_forgets_it_on_rotation(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    create(api, org.test.key)
    create(api, org.production.key, value="production-value")
    resolver = services.secret_resolver()
    test, production = Tenant(org.id, "test"), Tenant(org.id, "production")

    assert resolver.resolve(test, "secret://OPENAI_KEY") == VALUE
    assert resolver.resolve(production, "secret://OPENAI_KEY") == "production-value"
    services.secret_service().set(test, "OPENAI_KEY", "rotated", by="key_x")
    assert resolver.resolve(test, "secret://OPENAI_KEY") == "rotated"
    with pytest.raises(NotFound):
        resolver.resolve(test, "secret://MISSING")


def test_a_value_of_exactly_64_kib_is_taken(api: httpx.Client, org: Org) -> None:
    value = "x" * 65_536

    assert create(api, org.test.key, name="LARGEST", value=value).status_code == 201
    assert stored_value(org, "test", "LARGEST") == value
    assert (
        api.put("/v1/secrets/LARGEST", headers=auth(org.test.key), json={"value": value + "x"}).status_code
        == 422
    )


def test_a_name_of_exactly_128_characters_is_taken(api: httpx.Client, org: Org) -> None:
    assert create(api, org.test.key, name="N" * 128).status_code == 201
