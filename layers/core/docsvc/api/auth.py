"""Authentication: one dependency resolves the API key to its stored record and tenant.

Both `Authorization: Bearer <key>` and `Api-Key: <key>` are accepted on every route; two different keys
in the two headers are refused (401). The tenant comes from the stored key record, never from the key's
prefix or a header.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from docsvc.api.large_answers import Message, remember_tenant
from docsvc.domain.accounts import AccountService, ApiKey
from docsvc.errors import Unauthorized
from docsvc.observability import correlate_tenant
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
    from_bearer = bearer.credentials if bearer else None
    if api_key and from_bearer and api_key != from_bearer:
        # Which one was meant cannot be known: a test key and a live key together must not reach production.
        raise Unauthorized(
            "two different API keys were sent, one in 'Authorization' and one in 'Api-Key': send one of them"
        )
    presented = api_key or from_bearer
    known = request.scope.get("state", {}).get(_AUTHENTICATED)
    key = known[1] if known is not None and known[0] == presented else accounts.authenticate(presented)
    remember_tenant(request.scope, key.tenant)
    correlate_tenant(key.tenant)
    return key


_AUTHENTICATED = "authenticated_key"


def remember_key(scope: Message, presented: str, key: ApiKey) -> None:
    """A key authenticated before the routes (by a middleware), so this request does not read it twice."""
    scope.setdefault("state", {})[_AUTHENTICATED] = (presented, key)
    remember_tenant(scope, key.tenant)
    correlate_tenant(key.tenant)  # an answer replayed without its route is logged with its tenant too


def current_tenant(key: Annotated[ApiKey, Depends(authenticated_key)]) -> Tenant:
    return key.tenant


CurrentKey = Annotated[ApiKey, Depends(authenticated_key)]
CurrentTenant = Annotated[Tenant, Depends(current_tenant)]
