"""Who the caller is: organization, environment and key, resolved from the stored key record."""

from __future__ import annotations

from docsvc.api.app import create_app
from docsvc.api.auth import CurrentKey
from fastapi import APIRouter
from pydantic import BaseModel


class EnvironmentRef(BaseModel):
    id: str
    name: str


class KeyRef(BaseModel):
    prefix: str
    name: str


class AuthStatus(BaseModel):
    authenticated: bool = True
    auth_method: str = "api_key"
    organization_id: str
    environment: EnvironmentRef
    environment_slug: str
    environment_id: str
    key: KeyRef


router = APIRouter(prefix="/v1/auth", tags=["auth"])


@router.get("/status", response_model=AuthStatus, summary="The organization and environment of this key")
def auth_status(key: CurrentKey) -> AuthStatus:
    return AuthStatus(
        organization_id=key.organization_id,
        environment=EnvironmentRef(id=key.environment_id, name=key.environment),
        environment_slug=key.environment,
        environment_id=key.environment_id,
        key=KeyRef(prefix=key.prefix, name=key.name),
    )


app = create_app("docsvc auth", [router])
