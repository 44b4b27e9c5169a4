"""/webhooks: the environment's endpoints (add, change, enable or disable, delete), its signing secret
(rotated here, the new one shown once on the answer, never in a URL), and each endpoint's delivery log
with every attempt; a delivery that ended can be attempted once more, as POST .../retry does."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from docsvc.domain.deliveries import DeliveryQuery, DeliveryStatus
from docsvc.domain.webhooks import (
    EVENT_FAMILIES,
    EVENT_TYPES,
    MAX_ENDPOINTS,
    ROTATION_OVERLAP,
    SigningSecretView,
    WebhookEndpoint,
)
from docsvc.errors import DomainError, NotFound
from docsvc.services import delivery_service, endpoint_service, signing_secrets
from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import Response

from console.context import Console, ConsoleContext
from console.forms import checked_form
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/webhooks")
PAGE_SIZE = 25
Events = Annotated[list[str], Form()]
Text = Annotated[str, Form()]
OVERLAP_HOURS = int(ROTATION_OVERLAP.total_seconds() // 3600)


def _secret_dates(console: ConsoleContext) -> dict[str, str | None]:
    """When the signing secret was made and until when the one it replaced still signs: never the secret."""
    view = SigningSecretView.of(console.tenant, signing_secrets().current(console.tenant))
    return {"created_at": view.created_at, "previous_expires_at": view.previous_secret_expires_at}


def _events(chosen: list[str]) -> list[str] | None:
    """The boxes ticked; none ticked: every event (the API's `events` left out)."""
    return chosen or None


def _choices() -> dict[str, Any]:
    return {"event_types": EVENT_TYPES, "event_families": EVENT_FAMILIES, "overlap_hours": OVERLAP_HOURS}


def _list(request: Request, console: ConsoleContext, *, status_code: int = 200, **values: Any) -> Response:
    return render(
        request,
        "webhooks/list.html",
        console,
        status_code=status_code,
        endpoints=endpoint_service().list(console.tenant),
        max_endpoints=MAX_ENDPOINTS,
        secret=_secret_dates(console),
        **_choices(),
        **values,
    )


@router.get("", include_in_schema=False)
def webhooks_page(request: Request, console: Console) -> Response:
    return _list(request, console, error=None, form={"events": []})


@router.post("/endpoints", include_in_schema=False, dependencies=[Depends(checked_form)])
def create_endpoint(
    request: Request,
    console: Console,
    url: Text = "",
    events: Events = [],  # noqa: B006 - FastAPI copies a parameter's default
    description: Text = "",
    enabled: Text = "",
) -> Response:
    try:
        endpoint = endpoint_service().create(
            console.tenant, url.strip(), _events(events), bool(enabled), description.strip() or None
        )
    except DomainError as error:
        form = {"url": url, "events": events, "description": description}
        return _list(request, console, status_code=error.status_code, error=error.message, form=form)
    return redirect_with_notice(
        f"{console.base}/webhooks/endpoints/{endpoint.id}", f"An endpoint at {_host(endpoint.url)} is added."
    )


def _endpoint_page(
    request: Request,
    console: ConsoleContext,
    endpoint: WebhookEndpoint,
    *,
    status_code: int = 200,
    error: str | None = None,
    form: dict[str, Any] | None = None,
    status: DeliveryStatus | None = None,
    after: str | None = None,
) -> Response:
    query = DeliveryQuery(limit=PAGE_SIZE, after=after, endpoint_id=endpoint.id, status=status)
    page = delivery_service().list(console.tenant, query)
    values = form or {
        "url": endpoint.url,
        "events": endpoint.events or [],
        "description": endpoint.description,
    }
    return render(
        request,
        "webhooks/endpoint.html",
        console,
        status_code=status_code,
        endpoint=endpoint,
        deliveries=page.items,
        cursor=page.after,
        status=status or "",
        error=error,
        form=values,
        **_choices(),
    )


@router.get("/endpoints/{endpoint_id}", include_in_schema=False)
def endpoint_page(
    request: Request,
    console: Console,
    endpoint_id: str,
    status: Annotated[DeliveryStatus | Literal[""], Query()] = "",
    after: Annotated[str, Query(max_length=64)] = "",
) -> Response:
    endpoint = endpoint_service().get(console.tenant, endpoint_id)
    return _endpoint_page(request, console, endpoint, status=status or None, after=after or None)


@router.post("/endpoints/{endpoint_id}", include_in_schema=False, dependencies=[Depends(checked_form)])
def change_endpoint(
    request: Request,
    console: Console,
    endpoint_id: str,
    url: Text = "",
    events: Events = [],  # noqa: B006 - FastAPI copies a parameter's default
    description: Text = "",
) -> Response:
    endpoints = endpoint_service()
    current = endpoints.get(console.tenant, endpoint_id)
    changes: dict[str, object] = {
        "url": url.strip(),
        "events": _events(events),
        "description": description.strip() or None,
    }
    try:
        endpoint = endpoints.update(console.tenant, endpoint_id, changes)
    except DomainError as error:
        form = {"url": url, "events": events, "description": description}
        page = _endpoint_page
        return page(request, console, current, status_code=error.status_code, error=error.message, form=form)
    return redirect_with_notice(f"{console.base}/webhooks/endpoints/{endpoint.id}", "The endpoint is saved.")


@router.post("/endpoints/{endpoint_id}/enable", include_in_schema=False, dependencies=[Depends(checked_form)])
def enable_endpoint(console: Console, endpoint_id: str) -> Response:
    endpoint_service().update(console.tenant, endpoint_id, {"enabled": True})
    notice = "The endpoint is enabled: it gets the events of its types from now on."
    return redirect_with_notice(f"{console.base}/webhooks/endpoints/{endpoint_id}", notice)


@router.post(
    "/endpoints/{endpoint_id}/disable", include_in_schema=False, dependencies=[Depends(checked_form)]
)
def disable_endpoint(console: Console, endpoint_id: str) -> Response:
    endpoint_service().update(console.tenant, endpoint_id, {"enabled": False})
    notice = "The endpoint is disabled: it gets no events, and its pending deliveries end failed."
    return redirect_with_notice(f"{console.base}/webhooks/endpoints/{endpoint_id}", notice)


@router.post("/endpoints/{endpoint_id}/delete", include_in_schema=False, dependencies=[Depends(checked_form)])
def delete_endpoint(console: Console, endpoint_id: str) -> Response:
    endpoints = endpoint_service()
    endpoint = endpoints.get(console.tenant, endpoint_id)
    endpoints.delete(console.tenant, endpoint_id)
    return redirect_with_notice(
        f"{console.base}/webhooks", f"The endpoint at {_host(endpoint.url)} is deleted."
    )


@router.post("/signing-secret/rotate", include_in_schema=False, dependencies=[Depends(checked_form)])
def rotate_signing_secret(request: Request, console: Console) -> Response:
    """The new secret on this answer only (no redirect: it must never be in a URL)."""
    view = SigningSecretView.of(console.tenant, signing_secrets().rotate(console.tenant))
    return render(request, "webhooks/rotated.html", console, secret=view, overlap_hours=OVERLAP_HOURS)


@router.get("/deliveries/{delivery_id}", include_in_schema=False)
def delivery_page(request: Request, console: Console, delivery_id: str) -> Response:
    delivery = delivery_service().get(console.tenant, delivery_id)
    try:
        endpoint: WebhookEndpoint | None = endpoint_service().get(console.tenant, delivery.endpoint_id)
    except NotFound:  # deleted since: the log keeps its deliveries
        endpoint = None
    return render(request, "webhooks/delivery.html", console, delivery=delivery, endpoint=endpoint)


@router.post("/deliveries/{delivery_id}/retry", include_in_schema=False, dependencies=[Depends(checked_form)])
def retry_delivery(console: Console, delivery_id: str) -> Response:
    pending = delivery_service().retry(console.tenant, delivery_id)  # its refusals: 404 or 409 pages
    notice = f"Attempt {pending.attempt_count + 1} is queued, to be made now; this page shows its outcome."
    return redirect_with_notice(f"{console.base}/webhooks/deliveries/{delivery_id}", notice)


def _host(url: str) -> str:
    """An endpoint named in a notice by its host only: a receiver's path or query often holds a token,
    which must not go into a URL (the notice's) and the browser's history."""
    return urlsplit(url).netloc or "the address given"
