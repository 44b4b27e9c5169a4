"""What every page of an organization's environment knows: who is looking, at which tenant, in which role.

Pages live under `/console/{organization}/{environment}/...`. The organization must be one the signed-in
member belongs to and the environment `test` or `production`; anything else is answered 404, the same as
an unknown organization, so a URL never tells whether another organization exists. Membership is global
to both environments (a member of an organization sees both); admins also manage API keys and members.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from docsvc.api.large_answers import remember_tenant
from docsvc.errors import Forbidden, NotFound
from docsvc.observability import correlate_tenant
from docsvc.tenancy import ENVIRONMENTS, Tenant
from fastapi import Depends, Request

Role = Literal["admin", "member"]


class SignInRequired(Exception):
    """No session, or one that expired or was revoked: the page answers with a redirect to sign in."""


@dataclass(frozen=True)
class Membership:
    organization_id: str
    organization_name: str
    role: Role


@dataclass(frozen=True)
class Viewer:
    """The signed-in person: their user id in the user pool, their email, their organizations."""

    user_id: str
    email: str
    memberships: tuple[Membership, ...]

    def membership(self, organization_id: str) -> Membership | None:
        return next((m for m in self.memberships if m.organization_id == organization_id), None)


def _signed_in_viewer(request: Request) -> Viewer:
    from console.session import signed_in_viewer  # the session module owns cookies and the user pool

    return signed_in_viewer(request)


SignedIn = Annotated[Viewer, Depends(_signed_in_viewer)]


@dataclass(frozen=True)
class ConsoleContext:
    tenant: Tenant
    viewer: Viewer
    membership: Membership
    csrf_token: str

    @property
    def is_admin(self) -> bool:
        return self.membership.role == "admin"

    @property
    def base(self) -> str:
        """The path of this tenant's pages: /console/<organization>/<environment>."""
        return f"/console/{self.tenant.organization_id}/{self.tenant.environment}"


def console_context(
    request: Request, organization: str, environment: str, viewer: SignedIn
) -> ConsoleContext:
    from console.forms import csrf_token

    membership = viewer.membership(organization)
    if membership is None or environment not in ENVIRONMENTS:
        raise NotFound("no such page")
    tenant = Tenant(organization, environment)
    correlate_tenant(tenant)
    remember_tenant(request.scope, tenant)  # an answer over Lambda's 6 MB is kept under its prefix
    return ConsoleContext(tenant=tenant, viewer=viewer, membership=membership, csrf_token=csrf_token(request))


def admin_context(context: Annotated[ConsoleContext, Depends(console_context)]) -> ConsoleContext:
    if not context.is_admin:
        raise Forbidden("only an admin of the organization can do this")
    return context


Console = Annotated[ConsoleContext, Depends(console_context)]
AdminConsole = Annotated[ConsoleContext, Depends(admin_context)]
