"""`docsvc admin`: the operator's path (organizations, API keys, workflow promotion, environment purge),
standing in for a dashboard.

The client's `docsvc` finds this group through the entry point `admin` of the group
`docsvc_client.commands` (pyproject.toml). Building the parser imports nothing of the service: the
deployment, boto3 and the services are imported when an admin command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsvc.domain.accounts import AccountService, ApiKey

__all__ = ["register", "run_admin"]


def register(commands: Any) -> None:
    """Adds `admin` to the client's command tree."""
    admin = commands.add_parser("admin", help="operate a deployment: organizations and API keys")
    admin.add_argument(
        "--stack", help="CloudFormation stack name (default: the running local stack, else samconfig.toml)"
    )
    admin.add_argument("--region", help="AWS region of the stack")
    admin.add_argument(
        "--config-env", default="default", help="samconfig.toml environment (default: default)"
    )
    groups = admin.add_subparsers(dest="group", required=True)

    orgs = groups.add_parser("orgs", help="organizations").add_subparsers(dest="action", required=True)
    create_org = orgs.add_parser(
        "create", help="create an organization with its test and production environments"
    )
    create_org.add_argument("name")
    _json_flag(create_org)
    create_org.set_defaults(run=_create_org)

    keys = groups.add_parser("keys", help="API keys").add_subparsers(dest="action", required=True)
    create_key = keys.add_parser("create", help="create an API key; the key is printed once")
    create_key.add_argument("--org", required=True)
    create_key.add_argument("--env", required=True, choices=["test", "production"])
    create_key.add_argument("--name", default="default")
    create_key.add_argument("--legacy", action="store_true", help="an sk_svc_ production key")
    _json_flag(create_key)
    create_key.set_defaults(run=_create_key)

    revoke = keys.add_parser("revoke", help="revoke a key; effective on its next request")
    revoke.add_argument("key_id")
    _json_flag(revoke)
    revoke.set_defaults(run=_revoke_key)

    list_keys = keys.add_parser("list", help="list an organization's keys (never the keys themselves)")
    list_keys.add_argument("--org", required=True)
    _json_flag(list_keys)
    list_keys.set_defaults(run=_list_keys)

    workflows = groups.add_parser("workflows", help="workflows").add_subparsers(dest="action", required=True)
    promote = workflows.add_parser(
        "promote", help="copy a test workflow's draft graph into production (a new draft, or its pair's)"
    )
    promote.add_argument("workflow_id")
    promote.add_argument("--org", required=True)
    promote.add_argument("--confirm", action="store_true", help="do not ask (it writes to production)")
    _json_flag(promote)
    promote.set_defaults(run=_promote_workflow)

    environments = groups.add_parser("environments", help="environments").add_subparsers(
        dest="action", required=True
    )
    purge = environments.add_parser(
        "purge", help="delete everything one environment stored (items, objects, secrets) and report it"
    )
    purge.add_argument("--org", required=True)
    purge.add_argument("--env", required=True, choices=["test", "production"])
    purge.add_argument("--include-usage", action="store_true", help="delete its usage (the bill) too")
    purge.add_argument("--confirm", action="store_true", help="do not ask (production)")
    _json_flag(purge)
    purge.set_defaults(run=_purge_environment)
    admin.set_defaults(run_group=run_admin)


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")


def run_admin(arguments: argparse.Namespace) -> int:
    """Points this process at the deployment, then runs the command; its failures exit 1."""
    from docsvc.admin.deployment import DeploymentNotFound, use_deployment
    from docsvc.errors import DomainError

    try:
        use_deployment(arguments.stack, arguments.region, arguments.config_env)
        result: int = arguments.run(arguments)
    except (DeploymentNotFound, DomainError, ValueError) as error:
        print(f"docsvc: {error}", file=sys.stderr)
        return 1
    return result


def _accounts() -> AccountService:
    from docsvc.services import account_service

    return account_service()


def _print(arguments: argparse.Namespace, payload: Any, lines: list[str]) -> None:
    print(json.dumps(payload, indent=2) if arguments.json else "\n".join(lines))


def _key_summary(key: ApiKey) -> str:
    state = f"revoked {key.revoked_at}" if key.revoked_at else "active"
    return f"{key.id}  {key.environment:<10}  {key.prefix}…  {key.name}  ({state})"


def _create_org(arguments: argparse.Namespace) -> int:
    organization = _accounts().create_organization(arguments.name)
    _print(
        arguments,
        organization.model_dump(),
        [
            f"organization {organization.id} ({organization.name})",
            *(f"  {name}: {env_id}" for name, env_id in organization.environments.items()),
        ],
    )
    return 0


def _create_key(arguments: argparse.Namespace) -> int:
    if arguments.legacy and arguments.env != "production":
        raise ValueError("--legacy keys are production keys: use --env production")
    issued = _accounts().create_key(
        arguments.org, arguments.env, name=arguments.name, legacy=arguments.legacy
    )
    payload = {"key": issued.key, **issued.record.model_dump()}
    _print(
        arguments,
        payload,
        [
            _key_summary(issued.record),
            f"key: {issued.key}",
            "This is the only time the key is shown; store it now.",
        ],
    )
    return 0


def _revoke_key(arguments: argparse.Namespace) -> int:
    record = _accounts().revoke_key(arguments.key_id)
    _print(arguments, record.model_dump(), [_key_summary(record)])
    return 0


def _list_keys(arguments: argparse.Namespace) -> int:
    keys = _accounts().list_keys(arguments.org)
    _print(arguments, [key.model_dump() for key in keys], [_key_summary(key) for key in keys] or ["no keys"])
    return 0


def _promote_workflow(arguments: argparse.Namespace) -> int:
    from docsvc_client.cli.context import confirm_production

    from docsvc.adapters.secrets_store import DynamoSecretRepository

    confirm_production(f"promote {arguments.workflow_id} to a production draft", arguments.confirm)
    from docsvc.domain.promotion import promote
    from docsvc.services import workflow_service

    secrets = DynamoSecretRepository()
    promotion = promote(
        workflow_service(),
        lambda tenant, name: secrets.get(tenant, name) is not None,
        arguments.org,
        arguments.workflow_id,
    )
    _print(
        arguments,
        promotion.model_dump(),
        [
            f"promoted {promotion.source_workflow_id} to {promotion.target_workflow_id}",
            *(f"missing in production: secret {name}" for name in promotion.missing_secrets),
            *(f"warning: {warning}" for warning in promotion.warnings),
        ],
    )
    return 0


def _purge_environment(arguments: argparse.Namespace) -> int:
    from docsvc_client.cli.context import confirm_production

    if arguments.env == "production":
        confirm_production(f"delete everything organization {arguments.org} stored", arguments.confirm)
    from docsvc.adapters.dynamo.accounts import DynamoAccountRepository
    from docsvc.adapters.purge import EnvironmentPurge
    from docsvc.errors import NotFound
    from docsvc.tenancy import Tenant

    if DynamoAccountRepository().get_organization(arguments.org) is None:
        raise NotFound(f"no organization '{arguments.org}'; nothing was done")
    report = EnvironmentPurge().purge(
        Tenant(arguments.org, arguments.env), include_usage=arguments.include_usage
    )
    _print(arguments, asdict(report), report.lines())
    return 0
