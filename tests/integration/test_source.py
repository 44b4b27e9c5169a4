"""GET /v1/source and the OpenAPI document: where a deployment's users get its source (AGPL-3.0 section 13),
from the SourceUrl deployment parameter."""

from __future__ import annotations

import httpx
import pytest
from docsvc import __version__, services
from docsvc.local.functions import functions_of
from docsvc.local.openapi import merged_openapi
from docsvc.local.stack import Deployment
from docsvc.local.template import Resolver, load_template, parameter_defaults

from tests.conftest import TEMPLATE, Org, auth

SOURCE = "https://git.example.com/acme/docsvc/tree/4f2a9c1"


def test_the_source_offer_names_the_licence_and_version_and_no_address_until_one_is_deployed(
    api: httpx.Client, org: Org
) -> None:
    response = api.get("/v1/source", headers=auth(org.test.key))

    assert response.status_code == 200
    assert response.json() == {
        "object": "source",
        "url": None,
        "license": "AGPL-3.0-or-later",
        "version": __version__,
    }


def test_the_source_offer_answers_the_address_of_the_source_url_parameter(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_URL", SOURCE)
    services.reset()

    response = api.get("/v1/source", headers={"Api-Key": org.production.key})

    assert response.status_code == 200
    assert response.json()["url"] == SOURCE


def test_the_source_offer_needs_a_key_like_every_route(api: httpx.Client, deployment: Deployment) -> None:
    response = api.get("/v1/source")

    assert response.status_code == 401


def openapi_info(parameters: dict[str, str]) -> dict[str, object]:
    """The info of the OpenAPI document of template.yaml deployed with these parameters."""
    template = load_template(TEMPLATE)
    resolve = Resolver(
        pseudo={},
        parameters=parameter_defaults(template) | parameters,
        ref=str,
        attribute=lambda logical_id, attribute: f"{logical_id}.{attribute}",
    )
    info: dict[str, object] = merged_openapi(functions_of(template, resolve))["info"]
    return info


def test_the_openapi_document_names_the_licence_and_the_deployed_source() -> None:
    assert openapi_info({})["x-source-url"] is None

    info = openapi_info({"SourceUrl": SOURCE})

    assert info["license"] == {"name": "AGPL-3.0-or-later", "identifier": "AGPL-3.0-or-later"}
    assert info["x-source-url"] == SOURCE
