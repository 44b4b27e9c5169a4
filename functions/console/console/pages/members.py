"""/console/<org>/<env>/members (admins): the organization's members, invitations, roles, removal.

Membership is the organization's, the same in both environments. The user pool mails an invited
person their temporary password; the answer to the form says the same sentence whether or not they
already had an account, so an admin learns nothing of the people of other organizations. Only where
the deployment says so (ShowTemporaryPasswords: the local stack, which mails nothing) is a new
temporary password shown once, on the answer to the form (never in a URL, a log line or a cookie).
The last admin can be neither removed nor made a member (409, with a sentence).
"""

from __future__ import annotations

from typing import Annotated

from docsvc.config import settings
from docsvc.services import member_service
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import Response

from console.context import AdminConsole
from console.forms import checked_form
from console.listing import Cursor
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/members")

ROLES = (("member", "Member"), ("admin", "Admin"))
Field = Annotated[str, Form()]


def _back(console: AdminConsole, notice: str) -> Response:
    return redirect_with_notice(f"{console.base}/members", notice)


@router.get("", include_in_schema=False)
def members(request: Request, console: AdminConsole, after: Cursor = None) -> Response:
    page = member_service().list(console.tenant.organization_id, after=after)
    shown = settings().show_temporary_passwords
    return render(
        request,
        "members/list.html",
        console,
        title="Members",
        page=page,
        roles=ROLES,
        show_temporary_passwords=shown,
    )


@router.post("", include_in_schema=False, dependencies=[Depends(checked_form)])
def invite(request: Request, console: AdminConsole, email: Field, role: Field) -> Response:
    invitation = member_service().invite(
        console.tenant.organization_id, email, role, by=console.viewer.user_id
    )
    if invitation.temporary_password is not None and settings().show_temporary_passwords:
        return render(request, "members/invited.html", console, title="Member invited", invitation=invitation)
    return _back(
        console,
        f"{invitation.member.email} is a member of the organization. If they have not signed in to the "
        "console yet, they get an email with how to sign in.",
    )


@router.post("/{user_id}/role", include_in_schema=False, dependencies=[Depends(checked_form)])
def change_role(console: AdminConsole, user_id: str, role: Field) -> Response:
    member = member_service().set_role(console.tenant.organization_id, user_id, role)
    return _back(console, f"{member.email} is now {'an admin' if member.role == 'admin' else 'a member'}.")


@router.get("/{user_id}/remove", include_in_schema=False)
def confirm_removal(request: Request, console: AdminConsole, user_id: str) -> Response:
    member = member_service().member(console.tenant.organization_id, user_id)
    return render(request, "members/remove.html", console, title="Remove a member", member=member)


@router.post("/{user_id}/remove", include_in_schema=False, dependencies=[Depends(checked_form)])
def remove(console: AdminConsole, user_id: str) -> Response:
    member = member_service().remove(console.tenant.organization_id, user_id)
    return _back(console, f"{member.email} is no longer a member of the organization.")
