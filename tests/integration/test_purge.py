"""`docsvc admin environments purge` on moto: every item, object and secret of the purged environment is
gone, and not one of another environment or organization, counted independently of the purge (every
table, the whole bucket, every secret)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import httpx
import pytest
from docsvc.admin import deployment as admin_deployment
from docsvc.config import settings
from docsvc.local.stack import REGION, Deployment
from docsvc_client.cli.main import main

from tests.conftest import Org, Tenant, auth, drain
from tests.integration.test_files import pdf_bytes, upload
from tests.integration.test_intelligence import INVOICE_SCHEMA, doc, invoice
from tests.integration.test_jobs import create_job, parse_request
from tests.integration.test_parses import document
from tests.integration.webhook_receivers import Receivers


@pytest.fixture
def admin(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`docsvc admin` pointed at the deployment this process is configured for."""
    monkeypatch.setattr(admin_deployment, "use_deployment", lambda *arguments: "the test deployment")
    yield


def populate(api: httpx.Client, deployment: Deployment, tenant: Tenant, hooks: str) -> None:
    """One of nearly everything an environment can store: a file, a parse, a job (with its request and
    response in S3), an extraction made with an Idempotency-Key, a secret, a webhook endpoint and its
    signing secret, and their events and usage."""
    key = tenant.key
    assert upload(api, key, "a.pdf", pdf_bytes(pages=1)).status_code == 201
    parse = api.post("/v1/parses", headers=auth(key), json={"document": document(pdf_bytes(pages=2))})
    assert parse.status_code == 201, parse.text
    job = create_job(api, key, parse_request() | {"instructions": "x" * 20_000})
    assert job.status_code == 201, job.text
    drain(deployment, "JobWorkerFunction")
    extraction = api.post(
        "/v1/extractions",
        headers=auth(key) | {"Idempotency-Key": "purge-test"},
        json={"document": doc(invoice()), "json_schema": INVOICE_SCHEMA},
    )
    assert extraction.status_code == 201, extraction.text
    secret = {"name": "LEDGER_TOKEN", "value": "s3cr3t"}
    assert api.post("/v1/secrets", headers=auth(key), json=secret).status_code == 201
    endpoint = {"url": hooks}
    assert api.post("/v1/webhooks/endpoints", headers=auth(key), json=endpoint).status_code == 201
    assert api.get("/v1/webhooks/signing-secret", headers=auth(key)).status_code == 200


def census(tenant: Tenant) -> dict[str, int]:
    """The tenant's items in every table, objects in the whole bucket, secrets: by reading everything."""
    partition = f"ORG#{tenant.organization_id}#ENV#{tenant.environment}"
    segment = f"/{tenant.organization_id}/{tenant.environment}/"
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    counts: dict[str, int] = {}
    for name in dynamodb.list_tables()["TableNames"]:
        items = dynamodb.get_paginator("scan").paginate(TableName=name)
        counts[name] = sum(
            1
            for page in items
            for item in page["Items"]
            if str(item["pk"].get("S", "")).startswith(partition)
        )
    pages = boto3.client("s3", region_name=REGION).get_paginator("list_objects_v2")
    counts["objects"] = sum(
        1
        for page in pages.paginate(Bucket=settings().files_bucket)
        for entry in page.get("Contents", [])
        if segment in entry["Key"]
    )
    secrets = boto3.client("secretsmanager", region_name=REGION).list_secrets()["SecretList"]
    counts["secrets"] = sum(1 for secret in secrets if segment in secret["Name"])
    return counts


def purge(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, Any]:
    capsys.readouterr()  # the functions' log lines so far
    code = main(["admin", "environments", "purge", *arguments, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if code == 0 else out


def test_a_purge_removes_every_item_object_and_secret_of_the_environment_and_nothing_else(
    api: httpx.Client,
    deployment: Deployment,
    org: Org,
    other_org: Org,
    admin: None,
    receivers: Receivers,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for tenant in (org.test, org.production, other_org.test):
        populate(api, deployment, tenant, receivers.start().url)
    before = {tenant: census(tenant) for tenant in (org.test, org.production, other_org.test)}
    usage_table = settings().usage_table
    assert before[org.test]["objects"] > 0 and sum(before[org.test].values()) > 10

    code, report = purge(capsys, "--org", org.id, "--env", "test")

    assert code == 0
    after = census(org.test)
    assert after == {name: (before[org.test][name] if name == usage_table else 0) for name in after}
    assert before[org.test][usage_table] > 0  # the bill stays
    assert census(org.production) == before[org.production]
    assert census(other_org.test) == before[other_org.test]
    removed_items = sum(report["items"].values())
    expected_items = sum(
        count for name, count in before[org.test].items() if name not in {usage_table, "objects", "secrets"}
    )
    assert removed_items == expected_items
    assert sum(report["objects"].values()) == before[org.test]["objects"]
    assert report["secrets"] == before[org.test]["secrets"] == 2  # LEDGER_TOKEN and the signing secret
    assert "usage (the bill)" in report["kept"]
    listed = api.get("/v1/files", headers=auth(org.test.key))
    assert listed.status_code == 200 and listed.json()["data"] == []  # its key still works, on nothing


def test_a_purge_with_usage_removes_the_usage_too(
    api: httpx.Client,
    deployment: Deployment,
    org: Org,
    admin: None,
    receivers: Receivers,
    capsys: pytest.CaptureFixture[str],
) -> None:
    populate(api, deployment, org.test, receivers.start().url)

    code, report = purge(capsys, "--org", org.id, "--env", "test", "--include-usage")

    assert code == 0 and report["items"]["usage"] > 0
    assert set(census(org.test).values()) == {0}


def test_a_production_purge_needs_confirmation_and_an_unknown_organization_is_refused(
    api: httpx.Client,
    deployment: Deployment,
    org: Org,
    admin: None,
    receivers: Receivers,
    capsys: pytest.CaptureFixture[str],
) -> None:
    populate(api, deployment, org.production, receivers.start().url)
    before = census(org.production)

    capsys.readouterr()
    unconfirmed = main(["admin", "environments", "purge", "--org", org.id, "--env", "production"])
    unknown = main(["admin", "environments", "purge", "--org", "org_nobody", "--env", "test"])

    assert unconfirmed == 2 and "without --confirm" in capsys.readouterr().err
    assert unknown == 1
    assert census(org.production) == before
    code, report = purge(capsys, "--org", org.id, "--env", "production", "--confirm")
    assert code == 0 and sum(report["items"].values()) > 0
    assert census(org.production)["objects"] == 0
