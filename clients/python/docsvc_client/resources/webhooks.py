"""Webhooks: endpoints, the environment's signing secret, and the delivery log.

Check a delivery's signature with `docsvc_client.webhooks.verify`.
"""

from __future__ import annotations

from collections.abc import Sequence

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Requester, Resource, drop_none

__all__ = ["AsyncWebhooks", "Webhooks"]


class _Endpoints(Resource[O_co, P_co, N_co]):
    """Methods answer the endpoint itself (the API's `{"endpoint": …}` envelope is taken off)."""

    def create(
        self,
        url: str,
        *,
        events: Sequence[str] | None = None,
        enabled: bool | None = None,
        description: str | None = None,
    ) -> O_co:
        """`events` lists types (`job.completed`) or families (`job.*`); none means every event."""
        body = drop_none(
            url=url, events=None if events is None else list(events), enabled=enabled, description=description
        )
        return self._http.object("POST", "/v1/webhooks/endpoints", json=body, unwrap="endpoint")

    def list(self) -> P_co:
        return self._http.page("/v1/webhooks/endpoints", key="endpoints")

    def get(self, endpoint_id: str) -> O_co:
        return self._http.object("GET", f"/v1/webhooks/endpoints/{endpoint_id}", unwrap="endpoint")

    def update(
        self,
        endpoint_id: str,
        *,
        url: str | None = None,
        events: Sequence[str] | None = None,
        enabled: bool | None = None,
        description: str | None = None,
    ) -> O_co:
        """Changes only the fields given."""
        body = drop_none(
            url=url, events=None if events is None else list(events), enabled=enabled, description=description
        )
        return self._http.object(
            "PATCH", f"/v1/webhooks/endpoints/{endpoint_id}", json=body, unwrap="endpoint"
        )

    def delete(self, endpoint_id: str) -> N_co:
        return self._http.none("DELETE", f"/v1/webhooks/endpoints/{endpoint_id}")


class _Deliveries(Resource[O_co, P_co, N_co]):
    def list(
        self,
        *,
        status: str | None = None,
        endpoint_id: str | None = None,
        event_id: str | None = None,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        params = {
            "status": status,
            "endpoint_id": endpoint_id,
            "event_id": event_id,
            "limit": limit,
            "order": order,
            "after": after,
            "before": before,
            "from_date": from_date,
            "to_date": to_date,
        }
        return self._http.page("/v1/webhooks/deliveries", params)

    def get(self, delivery_id: str) -> O_co:
        return self._http.object("GET", f"/v1/webhooks/deliveries/{delivery_id}")

    def retry(self, delivery_id: str) -> O_co:
        """One more attempt now, for a delivery that has ended (ConflictError while it is pending)."""
        return self._http.object("POST", f"/v1/webhooks/deliveries/{delivery_id}/retry")


class _Webhooks(Resource[O_co, P_co, N_co]):
    def __init__(self, http: Requester[O_co, P_co, N_co]) -> None:
        super().__init__(http)
        self.endpoints = _Endpoints(http)
        self.deliveries = _Deliveries(http)

    def signing_secret(self) -> O_co:
        """`{signing_secret: "whsec_…", environment, created_at, previous_secret_expires_at}`."""
        return self._http.object("GET", "/v1/webhooks/signing-secret")

    def rotate_signing_secret(self) -> O_co:
        """The new secret; the old one keeps signing beside it for 24 hours."""
        return self._http.object("POST", "/v1/webhooks/signing-secret/rotate")


class Webhooks(_Webhooks[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncWebhooks(_Webhooks[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
