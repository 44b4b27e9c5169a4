"""/console/<org>/<env>/keys (admins): this environment's API keys; create one, revoke one.

A new key is shown once, on the answer to the form; only its SHA-256 is kept. A key of the other
environment or organization is not found here. The console's own session is never a key.
"""

from __future__ import annotations

from typing import Annotated

from docsvc.errors import BadRequest
from docsvc.services import account_service
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import Response

from console.context import AdminConsole
from console.forms import checked_form
from console.listing import Cursor
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/keys")

NAME_LENGTH = 64


@router.get("", include_in_schema=False)
def keys(request: Request, console: AdminConsole, after: Cursor = None) -> Response:
    page = account_service().environment_keys(console.tenant, after=after)
    return render(request, "keys/list.html", console, title="API keys", page=page)


@router.post("", include_in_schema=False, dependencies=[Depends(checked_form)])
def create(request: Request, console: AdminConsole, name: Annotated[str, Form()]) -> Response:
    name = name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise BadRequest(f"A key needs a name of 1 to {NAME_LENGTH} characters.")
    tenant = console.tenant
    issued = account_service().create_key(tenant.organization_id, tenant.environment, name=name)
    return render(request, "keys/created.html", console, title="API key created", issued=issued)


@router.get("/{key_id}/revoke", include_in_schema=False)
def confirm_revocation(request: Request, console: AdminConsole, key_id: str) -> Response:
    key = account_service().environment_key(console.tenant, key_id)
    return render(request, "keys/revoke.html", console, title="Revoke an API key", key=key)


@router.post("/{key_id}/revoke", include_in_schema=False, dependencies=[Depends(checked_form)])
def revoke(console: AdminConsole, key_id: str) -> Response:
    key = account_service().revoke_environment_key(console.tenant, key_id)
    notice = f"The key {key.name} ({key.prefix}…) is revoked: it no longer opens the API."
    return redirect_with_notice(f"{console.base}/keys", notice)
