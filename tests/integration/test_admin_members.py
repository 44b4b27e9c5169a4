"""`docsvc admin members`: an operator adds the first admin of an organization's console, lists and
removes members, on a stack found by its outputs (moto CloudFormation)."""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import pytest
from docsvc.local.stack import REGION, Deployment
from docsvc_client.cli.main import main

from tests.integration.console_client import PASSWORD, console_client, sign_in_with

SETTINGS = ("ACCOUNTS_TABLE", "MEMBERS_TABLE", "USER_POOL_ID", "USER_POOL_CLIENT_ID")


@pytest.fixture
def stack(deployment: Deployment, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A stack whose outputs name the accounts and members tables and the user pool; the arguments
    that point `docsvc admin` at it."""
    outputs = {
        "AccountsTable": deployment.environment["ACCOUNTS_TABLE"],
        "MembersTable": deployment.environment["MEMBERS_TABLE"],
        "UserPoolId": deployment.environment["USER_POOL_ID"],
        "UserPoolClientId": deployment.environment["USER_POOL_CLIENT_ID"],
    }
    template = {
        "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {name: {"Value": value} for name, value in outputs.items()},
    }
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName="docsvc-prod", TemplateBody=json.dumps(template)
    )
    for name in SETTINGS:
        monkeypatch.setenv(name, "wrong-until-the-stack-is-read")
    monkeypatch.delenv("DOCSVC_STATE_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    return ["admin", "--stack", "docsvc-prod", "--region", REGION]


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> object:
    assert main(list(arguments)) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_an_operator_adds_the_first_admin_who_then_signs_in(
    stack: list[str], deployment: Deployment, capsys: pytest.CaptureFixture[str]
) -> None:
    organization = run(capsys, *stack, "orgs", "create", "Acme", "--json")
    assert isinstance(organization, dict)

    added = run(
        capsys,
        *stack,
        "members",
        "add",
        "ada@acme.example",
        "--org",
        organization["id"],
        "--role",
        "admin",
        "--json",
    )

    assert isinstance(added, dict)
    assert added["role"] == "admin" and added["email"] == "ada@acme.example"
    assert added["temporary_password"]
    with console_client(deployment) as browser:
        first = sign_in_with(browser, "ada@acme.example", added["temporary_password"])
    assert first.status_code == 303 and first.headers["location"].startswith("/console/new-password")


def test_the_temporary_password_is_printed_once_and_only_for_a_person_who_never_signed_in(
    stack: list[str], deployment: Deployment, capsys: pytest.CaptureFixture[str]
) -> None:
    acme = run(capsys, *stack, "orgs", "create", "Acme", "--json")
    globex = run(capsys, *stack, "orgs", "create", "Globex", "--json")
    initech = run(capsys, *stack, "orgs", "create", "Initech", "--json")
    assert isinstance(acme, dict) and isinstance(globex, dict) and isinstance(initech, dict)

    assert main([*stack, "members", "add", "ada@acme.example", "--org", acme["id"], "--role", "admin"]) == 0
    first = capsys.readouterr().out
    again = run(capsys, *stack, "members", "add", "ada@acme.example", "--org", globex["id"], "--json")
    assert isinstance(again, dict)
    boto3.client("cognito-idp", region_name=REGION).admin_set_user_password(
        UserPoolId=deployment.environment["USER_POOL_ID"],
        Username="ada@acme.example",
        Password=PASSWORD,
        Permanent=True,
    )
    assert main([*stack, "members", "add", "ada@acme.example", "--org", initech["id"]]) == 0
    signed_in_before = capsys.readouterr().out

    assert "temporary password: " in first and "only time it is shown" in first
    printed = first.split("temporary password: ")[1].split()[0]
    assert again["temporary_password"] and again["temporary_password"] != printed
    with console_client(deployment) as browser:
        assert sign_in_with(browser, "ada@acme.example", printed).status_code == 401
    assert "temporary password" not in signed_in_before and "already had an account" in signed_in_before


def test_members_are_listed_and_removed_but_the_last_admin_stays(
    stack: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    organization = run(capsys, *stack, "orgs", "create", "Acme", "--json")
    assert isinstance(organization, dict)
    org = organization["id"]
    run(capsys, *stack, "members", "add", "ada@acme.example", "--org", org, "--role", "admin", "--json")
    grace = run(capsys, *stack, "members", "add", "grace@acme.example", "--org", org, "--json")
    assert isinstance(grace, dict)

    listed = run(capsys, *stack, "members", "list", "--org", org, "--json")
    assert isinstance(listed, list)
    assert sorted((m["email"], m["role"]) for m in listed) == [
        ("ada@acme.example", "admin"),
        ("grace@acme.example", "member"),
    ]

    removed = run(capsys, *stack, "members", "remove", grace["user_id"], "--org", org, "--json")
    assert isinstance(removed, dict) and removed["email"] == "grace@acme.example"
    assert main([*stack, "members", "remove", "ada@acme.example", "--org", org]) == 1
    assert "at least one admin" in capsys.readouterr().err
    assert [m["email"] for m in run(capsys, *stack, "members", "list", "--org", org, "--json")] == [
        "ada@acme.example"
    ]  # type: ignore[union-attr]


def test_members_of_an_unknown_organization_or_a_bad_email_are_errors(
    stack: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    organization = run(capsys, *stack, "orgs", "create", "Acme", "--json")
    assert isinstance(organization, dict)

    assert main([*stack, "members", "list", "--org", "org_nope"]) == 1
    assert main([*stack, "members", "add", "ada@acme.example", "--org", "org_nope"]) == 1
    assert main([*stack, "members", "add", "not-an-email", "--org", organization["id"]]) == 1
    assert main([*stack, "members", "remove", "nobody@acme.example", "--org", organization["id"]]) == 1

    err = capsys.readouterr().err
    assert err.count("no organization 'org_nope'") == 2
    assert "is not an email address" in err
    assert "nobody with the email nobody@acme.example" in err


def test_members_of_a_stack_without_a_user_pool_say_so(
    stack: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    older = {
        "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {"AccountsTable": {"Value": "AccountsTable"}},
    }
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName="older", TemplateBody=json.dumps(older)
    )
    monkeypatch.delenv("USER_POOL_ID")

    assert (
        main(
            [
                "admin",
                "--stack",
                "older",
                "--region",
                REGION,
                "members",
                "add",
                "ada@acme.example",
                "--org",
                "org_x",
            ]
        )
        == 1
    )

    assert "no user pool (stack output UserPoolId)" in capsys.readouterr().err
