"""Routes of /v1/secrets. Bodies carry a value in; no answer ever carries one out."""

from __future__ import annotations

from typing import Annotated

from docsvc.api.auth import CurrentKey
from docsvc.domain.secrets import SecretMeta, SecretService
from docsvc.services import secret_service
from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, Field

router = APIRouter(prefix="/v1/secrets", tags=["secrets"])
Secrets = Annotated[SecretService, Depends(secret_service)]
NAME_RULE = "A letter or an underscore, then up to 127 letters, digits or underscores."


class SecretCreate(BaseModel):
    name: str = Field(description=NAME_RULE)
    value: str = Field(description="Up to 64 KiB. Stored in AWS Secrets Manager; never answered.")


class SecretValue(BaseModel):
    value: str = Field(description="The new value (a rotation). Never answered.")


class SecretAnswer(BaseModel):
    secret: SecretMeta


class SecretListAnswer(BaseModel):
    secrets: list[SecretMeta]


@router.post("", status_code=201, response_model=SecretAnswer, summary="Create a secret (409 if it exists)")
def create_secret(key: CurrentKey, secrets: Secrets, body: SecretCreate) -> SecretAnswer:
    return SecretAnswer(secret=secrets.create(key.tenant, body.name, body.value, by=key.id))


@router.get("", response_model=SecretListAnswer, summary="List the secrets of this environment")
def list_secrets(key: CurrentKey, secrets: Secrets) -> SecretListAnswer:
    return SecretListAnswer(secrets=secrets.list(key.tenant))


@router.get("/{name}", response_model=SecretAnswer, summary="A secret's metadata")
def get_secret(key: CurrentKey, secrets: Secrets, name: str) -> SecretAnswer:
    return SecretAnswer(secret=secrets.get(key.tenant, name))


@router.put(
    "/{name}",
    response_model=SecretAnswer,
    summary="Set or rotate a secret's value",
    responses={201: {"description": "Created", "model": SecretAnswer}},
)
def set_secret(
    key: CurrentKey, secrets: Secrets, name: str, body: SecretValue, response: Response
) -> SecretAnswer:
    meta, created = secrets.set(key.tenant, name, body.value, by=key.id)
    response.status_code = 201 if created else 200
    return SecretAnswer(secret=meta)


@router.delete("/{name}", status_code=204, response_class=Response, summary="Delete a secret")
def delete_secret(key: CurrentKey, secrets: Secrets, name: str) -> Response:
    secrets.delete(key.tenant, name)
    return Response(status_code=204)
