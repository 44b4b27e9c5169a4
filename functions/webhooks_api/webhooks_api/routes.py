"""Routes of /v1/webhooks. Everything is the calling key's environment's: its endpoints, its secret,
its deliveries; another environment's ids answer 404."""

from __future__ import annotations

from typing import Annotated, Any

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.deliveries import DeliveryQuery, DeliveryService, DeliveryStatus, WebhookDelivery
from docsvc.domain.webhooks import EndpointService, SigningSecrets, SigningSecretView, WebhookEndpoint
from docsvc.endpoints.lists import ListMetadata
from docsvc.services import delivery_service, endpoint_service, signing_secrets
from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel, ConfigDict, Field

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"])
Endpoints = Annotated[EndpointService, Depends(endpoint_service)]
Deliveries = Annotated[DeliveryService, Depends(delivery_service)]
Secrets = Annotated[SigningSecrets, Depends(signing_secrets)]
EVENTS_HELP = 'Event types ("job.completed") or families ("job.*"); leave out for every event.'


class EndpointCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(description="http(s) receiver; production endpoints need https.")
    events: list[str] | None = Field(default=None, description=EVENTS_HELP)
    enabled: bool = True
    description: str | None = None


class EndpointChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str | None = None
    events: list[str] | None = Field(default=None, description=EVENTS_HELP + " null: every event.")
    enabled: bool | None = None
    description: str | None = None


class EndpointAnswer(BaseModel):
    endpoint: WebhookEndpoint


class EndpointListAnswer(BaseModel):
    endpoints: list[WebhookEndpoint]


class DeliveryList(BaseModel):
    data: list[WebhookDelivery]
    list_metadata: ListMetadata


@router.post("/endpoints", status_code=201, response_model=EndpointAnswer, summary="Add an endpoint")
def create_endpoint(tenant: CurrentTenant, endpoints: Endpoints, body: EndpointCreate) -> EndpointAnswer:
    endpoint = endpoints.create(tenant, body.url, body.events, body.enabled, body.description)
    return EndpointAnswer(endpoint=endpoint)


@router.get("/endpoints", response_model=EndpointListAnswer, summary="The environment's endpoints")
def list_endpoints(tenant: CurrentTenant, endpoints: Endpoints) -> EndpointListAnswer:
    return EndpointListAnswer(endpoints=endpoints.list(tenant))


@router.get("/endpoints/{endpoint_id}", response_model=EndpointAnswer, summary="One endpoint")
def get_endpoint(tenant: CurrentTenant, endpoints: Endpoints, endpoint_id: str) -> EndpointAnswer:
    return EndpointAnswer(endpoint=endpoints.get(tenant, endpoint_id))


@router.patch("/endpoints/{endpoint_id}", response_model=EndpointAnswer, summary="Change an endpoint")
def update_endpoint(
    tenant: CurrentTenant, endpoints: Endpoints, endpoint_id: str, body: EndpointChange
) -> EndpointAnswer:
    changes: dict[str, Any] = body.model_dump(exclude_unset=True)
    return EndpointAnswer(endpoint=endpoints.update(tenant, endpoint_id, changes))


@router.delete(
    "/endpoints/{endpoint_id}", status_code=204, response_class=Response, summary="Delete an endpoint"
)
def delete_endpoint(tenant: CurrentTenant, endpoints: Endpoints, endpoint_id: str) -> Response:
    endpoints.delete(tenant, endpoint_id)
    return Response(status_code=204)


@router.get("/signing-secret", response_model=SigningSecretView, summary="The environment's signing secret")
def get_signing_secret(tenant: CurrentTenant, secrets: Secrets) -> SigningSecretView:
    return SigningSecretView.of(tenant, secrets.current(tenant))


@router.post(
    "/signing-secret/rotate",
    response_model=SigningSecretView,
    summary="A new signing secret; the old one keeps signing beside it for 24 hours",
)
def rotate_signing_secret(tenant: CurrentTenant, secrets: Secrets) -> SigningSecretView:
    return SigningSecretView.of(tenant, secrets.rotate(tenant))


@router.get("/deliveries", response_model=DeliveryList, summary="The environment's delivery log")
def list_deliveries(
    tenant: CurrentTenant,
    deliveries: Deliveries,
    paging: Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))],
    status: DeliveryStatus | None = None,
    endpoint_id: Annotated[str | None, Query(max_length=64)] = None,
    event_id: Annotated[str | None, Query(max_length=64)] = None,
) -> DeliveryList:
    query = DeliveryQuery(**paging, status=status, endpoint_id=endpoint_id, event_id=event_id)
    page = deliveries.list(tenant, query)
    return DeliveryList(data=page.items, list_metadata=ListMetadata.of(page))


@router.get("/deliveries/{delivery_id}", response_model=WebhookDelivery, summary="One delivery")
def get_delivery(tenant: CurrentTenant, deliveries: Deliveries, delivery_id: str) -> WebhookDelivery:
    return deliveries.get(tenant, delivery_id)


@router.post(
    "/deliveries/{delivery_id}/retry",
    status_code=202,
    response_model=WebhookDelivery,
    summary="Attempt an ended delivery once more, now",
)
def retry_delivery(tenant: CurrentTenant, deliveries: Deliveries, delivery_id: str) -> WebhookDelivery:
    return deliveries.retry(tenant, delivery_id)
