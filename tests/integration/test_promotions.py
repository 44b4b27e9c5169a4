"""`POST /v1/workflows/{id}/promotions` through the real handlers: a production key of the organization
promotes a test workflow's draft and is told what the operator's command tells (the same domain call);
a test key is refused with a 403 that says how promotion is done; nothing else crosses."""

from __future__ import annotations

from typing import Any

import httpx
from docsvc import services
from docsvc.adapters.secrets_store import DynamoSecretRepository
from docsvc.domain.promotion import Promotion, promote

from tests.conftest import Org, auth
from tests.integration.test_workflows import add_secret, create, invoice_graph


def promotion(api: httpx.Client, key: str, workflow_id: str, **headers: str) -> httpx.Response:
    return api.post(f"/v1/workflows/{workflow_id}/promotions", headers={**auth(key), **headers})


def workflows_of(api: httpx.Client, key: str) -> list[dict[str, Any]]:
    return list(api.get("/v1/workflows", headers=auth(key)).json()["data"])


def test_a_production_key_promotes_a_test_workflow_and_is_told_the_missing_secrets_and_local_urls(
    api: httpx.Client, org: Org
) -> None:
    add_secret(api, org.test.key, "API_TOKEN", "Bearer test-token")
    source = create(api, org.test.key, invoice_graph("https://abc123.ngrok-free.app/ledger"))

    response = promotion(api, org.production.key, source["id"])

    assert response.status_code == 201, response.text
    first = response.json()
    assert set(first) == set(Promotion.model_fields)
    assert first["promotion_id"].startswith("prm_") and first["source_workflow_id"] == source["id"]
    assert first["created"] is True and first["missing_secrets"] == ["API_TOKEN"]
    assert len(first["warnings"]) == 1 and "tunnel" in first["warnings"][0]
    (target,) = workflows_of(api, org.production.key)
    assert target["id"] == first["target_workflow_id"] and target["promoted_from"] == source["id"]
    copied = api.get(f"/v1/workflows/{target['id']}/graph", headers=auth(org.production.key)).json()
    assert copied == api.get(f"/v1/workflows/{source['id']}/graph", headers=auth(org.test.key)).json()
    assert api.get("/v1/secrets", headers=auth(org.production.key)).json()["secrets"] == []

    add_secret(api, org.production.key, "API_TOKEN", "Bearer live")
    second = promotion(api, org.production.key, source["id"]).json()

    assert second["target_workflow_id"] == first["target_workflow_id"] and second["created"] is False
    assert second["missing_secrets"] == [] and second["promotion_id"] != first["promotion_id"]
    assert len(workflows_of(api, org.production.key)) == 1


def test_the_answer_is_the_report_of_the_operators_command(api: httpx.Client, org: Org) -> None:
    source = create(api, org.test.key, invoice_graph("https://ledger.example.com/in"))
    secrets = DynamoSecretRepository()

    over_http = promotion(api, org.production.key, source["id"]).json()
    by_operator = promote(
        services.workflow_service(),
        lambda tenant, name: secrets.get(tenant, name) is not None,
        org.id,
        source["id"],
    ).model_dump()

    differing = {"promotion_id", "created"}  # a promotion's own id; the second one replaces the draft
    assert {name: over_http[name] for name in set(over_http) - differing} == {
        name: by_operator[name] for name in set(by_operator) - differing
    }
    assert over_http["missing_secrets"] == by_operator["missing_secrets"] == ["API_TOKEN"]


def test_a_test_key_is_refused_with_a_403_saying_promotion_takes_a_production_key(
    api: httpx.Client, org: Org
) -> None:
    source = create(api, org.test.key, invoice_graph("https://ledger.example.com/in"))

    response = promotion(api, org.test.key, source["id"], **{"Idempotency-Key": "promote-1"})

    assert response.status_code == 403
    assert "production key" in response.json()["detail"]
    assert workflows_of(api, org.production.key) == []
    assert workflows_of(api, org.test.key)[0].get("promoted_to") in (None, "")


def test_an_unknown_workflow_or_another_organizations_is_a_404(
    api: httpx.Client, org: Org, other_org: Org
) -> None:
    theirs = create(api, other_org.test.key, invoice_graph("https://ledger.example.com/in"))
    production_one = create(api, org.production.key, invoice_graph("https://ledger.example.com/in"))

    for workflow_id in ("wf_00000000000000000000000000", theirs["id"], production_one["id"]):
        response = promotion(api, org.production.key, workflow_id)
        assert response.status_code == 404, workflow_id
        assert response.json() == {"detail": f"no workflow '{workflow_id}'"}
    assert [workflow["id"] for workflow in workflows_of(api, org.production.key)] == [production_one["id"]]
    assert len(workflows_of(api, other_org.production.key)) == 0
