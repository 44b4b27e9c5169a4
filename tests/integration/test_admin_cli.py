"""`docsvc admin` against a deployed stack, found by name or through samconfig.toml (moto CloudFormation)."""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import pytest
from docsvc.local.stack import REGION, Deployment
from docsvc_client.cli.main import main

STACK_TEMPLATE = {
    "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
    "Outputs": {
        name: {"Value": value}
        for name, value in {
            "AccountsTable": "AccountsTable",
            "FilesTable": "FilesTable",
            "FilesBucket": "docsvc-local-files-123456789012",
        }.items()
    },
}


@pytest.fixture
def deployed(deployment: Deployment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """A stack named docsvc-prod whose outputs name the tables; run from a folder with no local stack."""
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName="docsvc-prod", TemplateBody=json.dumps(STACK_TEMPLATE)
    )
    for name in ("ACCOUNTS_TABLE", "FILES_TABLE", "FILES_BUCKET"):
        monkeypatch.setenv(name, "wrong-until-the-stack-is-read")
    monkeypatch.delenv("DOCSVC_STATE_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    return "docsvc-prod"


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> object:
    assert main(list(arguments)) == 0
    return json.loads(capsys.readouterr().out)


def test_admin_finds_the_stack_by_name(deployed: str, capsys: pytest.CaptureFixture[str]) -> None:
    organization = run(
        capsys, "admin", "--stack", deployed, "--region", REGION, "orgs", "create", "Acme", "--json"
    )
    assert isinstance(organization, dict)
    assert set(organization["environments"]) == {"test", "production"}

    key = run(
        capsys,
        "admin",
        "--stack",
        deployed,
        "--region",
        REGION,
        "keys",
        "create",
        "--org",
        organization["id"],
        "--env",
        "test",
        "--name",
        "ci",
        "--json",
    )

    assert isinstance(key, dict)
    assert key["key"].startswith("svc_test_")
    assert key["environment"] == "test"
    assert key["id"].startswith("key_")


def test_admin_reads_the_stack_from_samconfig(
    deployed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "samconfig.toml").write_text(
        f'version = 0.1\n[prod.deploy.parameters]\nstack_name = "{deployed}"\nregion = "{REGION}"\n'
    )

    organization = run(capsys, "admin", "--config-env", "prod", "orgs", "create", "Acme", "--json")

    assert isinstance(organization, dict)
    assert organization["name"] == "Acme"


def test_admin_without_any_deployment_says_what_to_do(
    deployed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["admin", "orgs", "create", "Acme"]) == 1

    assert "make dev" in capsys.readouterr().err


def test_admin_reports_an_unknown_stack(deployed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin", "--stack", "nope", "--region", REGION, "orgs", "create", "Acme"]) == 1

    assert "stack nope" in capsys.readouterr().err


def test_admin_refuses_a_legacy_test_key(deployed: str, capsys: pytest.CaptureFixture[str]) -> None:
    organization = run(
        capsys, "admin", "--stack", deployed, "--region", REGION, "orgs", "create", "A", "--json"
    )
    assert isinstance(organization, dict)

    code = main(
        [
            "admin",
            "--stack",
            deployed,
            "--region",
            REGION,
            "keys",
            "create",
            "--org",
            organization["id"],
            "--env",
            "test",
            "--legacy",
        ]
    )

    assert code == 1
    assert "production" in capsys.readouterr().err


def test_admin_unknown_organization_and_key(deployed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin", "--stack", deployed, "--region", REGION, "keys", "list", "--org", "org_nope"]) == 1
    assert main(["admin", "--stack", deployed, "--region", REGION, "keys", "revoke", "key_nope"]) == 1

    err = capsys.readouterr().err
    assert "no organization 'org_nope'" in err
    assert "no API key 'key_nope'" in err
