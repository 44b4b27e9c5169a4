"""Authentication: one dependency resolves the API key to its stored record and tenant.

Both `Authorization: Bearer <key>` and `Api-Key: <key>` are accepted on every route. The tenant comes
from the stored key record, never from the key's prefix or a header.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from docsvc.api.large_answers import remember_tenant
from docsvc.domain.accounts import AccountService, ApiKey
from docsvc.services import account_service
from docsvc.tenancy import Tenant

_bearer = HTTPBearer(auto_error=False, scheme_name="BearerAuth", description="Authorization: Bearer <key>")
_api_key = APIKeyHeader(
    name="Api-Key", auto_error=False, scheme_name="ApiKeyAuth", description="Api-Key: <key>"
)


def authenticated_key(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)],
    api_key: Annotated[str | None, Security(_api_key)],
    accounts: Annotated[AccountService, Depends(account_service)],
) -> ApiKey:
    presented = api_key or (bearer.credentials if bearer else None)
    key = accounts.authenticate(presented)
    remember_tenant(request.scope, key.tenant)
    return key


def current_tenant(key: Annotated[ApiKey, Depends(authenticated_key)]) -> Tenant:
    return key.tenant


CurrentKey = Annotated[ApiKey, Depends(authenticated_key)]
CurrentTenant = Annotated[Tenant, Depends(current_tenant)]
