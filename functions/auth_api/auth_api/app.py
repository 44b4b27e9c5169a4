"""Who the caller is: organization, environment and key, resolved from the stored key record; and where this
deployment's source is (AGPL-3.0 section 13: a modified service offers its users its source)."""

from __future__ import annotations

from typing import Literal

from docsvc import __license__, __version__
from docsvc.api.app import create_app
from docsvc.api.auth import CurrentKey, authenticated_key
from docsvc.config import settings
from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field


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


class SourceOffer(BaseModel):
    object: Literal["source"] = "source"
    url: str | None = Field(
        description="Where to get the Corresponding Source of this deployment (its SourceUrl); null when "
        "the deployer has not set it"
    )
    license: str = Field(description="SPDX identifier of the service's licence")
    version: str = Field(description="The version of docsvc this deployment runs")


source_router = APIRouter(prefix="/v1", tags=["source"])


@source_router.get(
    "/source",
    response_model=SourceOffer,
    summary="Where to get the source of this service, and its licence",
    dependencies=[Depends(authenticated_key)],
)
def source_offer() -> SourceOffer:
    return SourceOffer(url=settings().source_url, license=__license__, version=__version__)


app = create_app("docsvc auth", [router, source_router])
