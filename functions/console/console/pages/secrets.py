"""/secrets: the environment's secrets by name, with what GET /v1/secrets answers of them (who set each,
when it was created and last changed). A value goes in (set, rotate) and never comes out: no page, no
redirect and no error shows it, not even to an admin."""

from __future__ import annotations

from typing import Annotated

from docsvc.errors import DomainError
from docsvc.services import secret_service
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import Response

from console.context import Console, ConsoleContext
from console.forms import checked_form
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/secrets")
PAGE_SIZE = 25
Value = Annotated[str, Form()]  # empty: the service says a value is needed


def _list(
    request: Request,
    console: ConsoleContext,
    *,
    after: str | None = None,
    status_code: int = 200,
    **values: object,
) -> Response:
    secrets, cursor = secret_service().page(console.tenant, after, PAGE_SIZE)
    return render(
        request,
        "secrets/list.html",
        console,
        status_code=status_code,
        secrets=secrets,
        cursor=cursor,
        **values,
    )


@router.get("", include_in_schema=False)
def secrets_page(
    request: Request, console: Console, after: Annotated[str, Query(max_length=256)] = ""
) -> Response:
    return _list(request, console, after=after or None, error=None, name="")


@router.post("", include_in_schema=False, dependencies=[Depends(checked_form)])
def create_secret(
    request: Request, console: Console, name: Annotated[str, Form()] = "", value: Value = ""
) -> Response:
    try:
        secret_service().create(console.tenant, name, value, by=console.viewer.email)
    except DomainError as error:  # the page again, with the name but never the value
        return _list(request, console, status_code=error.status_code, error=error.message, name=name)
    return redirect_with_notice(f"{console.base}/secrets", f"Secret {name} is set.")


@router.get("/{name}", include_in_schema=False)
def secret_page(request: Request, console: Console, name: str) -> Response:
    meta = secret_service().get(console.tenant, name)
    return render(request, "secrets/secret.html", console, secret=meta, error=None)


@router.post("/{name}/rotate", include_in_schema=False, dependencies=[Depends(checked_form)])
def rotate_secret(request: Request, console: Console, name: str, value: Value = "") -> Response:
    secrets = secret_service()
    meta = secrets.get(console.tenant, name)  # 404 for a name this environment does not have
    try:
        secrets.set(console.tenant, name, value, by=console.viewer.email)
    except DomainError as error:
        page = "secrets/secret.html"
        return render(request, page, console, status_code=error.status_code, secret=meta, error=error.message)
    notice = f"Secret {name} has a new value; workflows and models read it within 30 seconds."
    return redirect_with_notice(f"{console.base}/secrets/{name}", notice)


@router.post("/{name}/delete", include_in_schema=False, dependencies=[Depends(checked_form)])
def delete_secret(console: Console, name: str) -> Response:
    secret_service().delete(console.tenant, name)
    return redirect_with_notice(f"{console.base}/secrets", f"Secret {name} is deleted.")
