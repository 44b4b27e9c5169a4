"""`docsvc admin`: the operator's path (organizations, API keys, the console's members, workflow
promotion, environment purge). The first admin of an organization's console is added here.

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
    from docsvc.domain.members import Member, MemberService

__all__ = ["register", "run_admin"]


def register(commands: Any) -> None:
    """Adds `admin` to the client's command tree."""
    admin = commands.add_parser("admin", help="operate a deployment: organizations, API keys and members")
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

    limits = orgs.add_parser(
        "limits",
        help="show or set an organization's request limits (each environment, and each key, has them)",
    )
    limits.add_argument("--org", required=True)
    limits.add_argument(
        "--requests-per-second",
        type=int,
        metavar="N",
        help="requests a second of all the organization's keys of one environment together",
    )
    limits.add_argument(
        "--key-requests-per-second", type=int, metavar="N", help="requests a second of each key"
    )
    limits.add_argument("--default", action="store_true", help="go back to the deployment's defaults")
    _json_flag(limits)
    limits.set_defaults(run=_org_limits)

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

    members = groups.add_parser("members", help="the console's members of an organization").add_subparsers(
        dest="action", required=True
    )
    add_member = members.add_parser(
        "add",
        help="make EMAIL a member (one who never signed in gets a new temporary password, printed once)",
    )
    add_member.add_argument("email")
    add_member.add_argument("--org", required=True)
    add_member.add_argument("--role", choices=["admin", "member"], default="member")
    _json_flag(add_member)
    add_member.set_defaults(run=_add_member)

    list_members = members.add_parser("list", help="list an organization's members")
    list_members.add_argument("--org", required=True)
    _json_flag(list_members)
    list_members.set_defaults(run=_list_members)

    remove_member = members.add_parser(
        "remove", help="remove a member (by email or user id); the last admin stays"
    )
    remove_member.add_argument("member", help="their email or user id")
    remove_member.add_argument("--org", required=True)
    _json_flag(remove_member)
    remove_member.set_defaults(run=_remove_member)

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


def _org_limits(arguments: argparse.Namespace) -> int:
    from docsvc.domain.limits import DEFAULT_LIMITS, RequestLimits

    accounts = _accounts()
    organization = accounts.organization(arguments.org)
    changes = {
        "organization_per_second": arguments.requests_per_second,
        "key_per_second": arguments.key_requests_per_second,
    }
    changes = {name: value for name, value in changes.items() if value is not None}
    if arguments.default and changes:
        raise ValueError("--default goes back to the defaults: give it without limits")
    if arguments.default:
        organization = accounts.set_limits(organization.id, None)
    elif changes:
        current = organization.limits or DEFAULT_LIMITS
        wanted = RequestLimits.model_validate(current.model_dump() | changes)
        organization = accounts.set_limits(organization.id, wanted)
    effective = organization.limits or DEFAULT_LIMITS
    payload = {
        "organization_id": organization.id,
        **effective.model_dump(),
        "default": organization.limits is None,
    }
    source = "the defaults" if organization.limits is None else "set for this organization"
    _print(
        arguments,
        payload,
        [
            f"organization {organization.id} ({source}):",
            f"  {effective.organization_per_second} requests a second in each environment, all keys together",
            f"  {effective.key_per_second} requests a second for each key",
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


def _members() -> MemberService:
    from docsvc.config import settings
    from docsvc.services import member_service

    if not settings().user_pool_id:
        raise ValueError(
            "this deployment has no user pool (stack output UserPoolId): deploy the current template"
        )
    return member_service()


def _member_summary(member: Member) -> str:
    return f"{member.user_id}  {member.role:<7}  {member.email}  (added {member.added_at})"


def _add_member(arguments: argparse.Namespace) -> int:
    invitation = _members().invite(arguments.org, arguments.email, arguments.role, by="docsvc admin")
    payload = invitation.member.model_dump() | {"temporary_password": invitation.temporary_password}
    lines = [_member_summary(invitation.member)]
    if invitation.temporary_password:
        lines += [
            f"temporary password: {invitation.temporary_password}",
            "This is the only time it is shown (the user pool also mails it to them; any temporary password "
            "given before stops working); they choose their own password at their first sign-in.",
        ]
    else:
        lines.append("They already had an account: they sign in with their own password.")
    _print(arguments, payload, lines)
    return 0


def _list_members(arguments: argparse.Namespace) -> int:
    _accounts().organization(arguments.org)  # an unknown organization is an error, not an empty list
    found: list[Member] = []
    after: str | None = None
    while True:
        page = _members().list(arguments.org, after=after)
        found += page.items
        if page.after is None:
            break
        after = page.after
    _print(arguments, [m.model_dump() for m in found], [_member_summary(m) for m in found] or ["no members"])
    return 0


def _remove_member(arguments: argparse.Namespace) -> int:
    members = _members()
    user_id = arguments.member
    if "@" in user_id:
        user_id = members.user_by_email(user_id).user_id
    removed = members.remove(arguments.org, user_id)
    _print(arguments, removed.model_dump(), [f"removed {_member_summary(removed)}"])
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
