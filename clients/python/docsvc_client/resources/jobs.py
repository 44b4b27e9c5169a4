"""Jobs: the work of a job endpoint, in the background."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docsvc_client._http import IDEMPOTENCY_HEADER, APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, N_co, O_co, P_co, Resource, apoll, document, poll

__all__ = ["FINISHED", "AsyncJobs", "Jobs"]

FINISHED = frozenset({"completed", "failed", "cancelled", "expired"})


class _Jobs(Resource[O_co, P_co, N_co]):
    def create(
        self,
        endpoint: str,
        request: Mapping[str, Any],
        metadata: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> O_co:
        """`POST /v1/jobs`. An `Idempotency-Key` is always sent (`idempotency_key`, else a new uuid4, as
        for every POST), the same on every retry of this call, so a retried create never makes a second job.

        A `document` in `request` may be a path, bytes or URL, as for the endpoints themselves.
        """
        body: dict[str, Any] = {"endpoint": endpoint, "request": _request(request)}
        if metadata is not None:
            body["metadata"] = dict(metadata)
        headers = {IDEMPOTENCY_HEADER: idempotency_key} if idempotency_key else None
        return self._http.object("POST", "/v1/jobs", json=body, headers=headers)

    def get(self, job_id: str, *, include_request: bool = False, include_response: bool = False) -> O_co:
        params = {"include_request": include_request or None, "include_response": include_response or None}
        return self._http.object("GET", f"/v1/jobs/{job_id}", params=params)

    def status(self, job_id: str) -> O_co:
        """`GET /v1/jobs/{id}/status`: status, times and error, without request or response."""
        return self._http.object("GET", f"/v1/jobs/{job_id}/status")

    def list(self, **filters: Any) -> P_co:
        """`GET /v1/jobs` with any of its filters (`status`, `endpoint`, `workflow_id`, `metadata={…}`,
        `document_type=[…]`, `limit`, `order`, `from_date`, `include_response`, …)."""
        return self._http.page("/v1/jobs", filters)

    def cancel(self, job_id: str) -> O_co:
        return self._http.object("POST", f"/v1/jobs/{job_id}/cancel")

    def delete(self, job_id: str) -> N_co:
        """An ended job with its request and response; a job that has not ended is a ConflictError."""
        return self._http.none("DELETE", f"/v1/jobs/{job_id}")

    def retry(self, job_id: str) -> O_co:
        return self._http.object("POST", f"/v1/jobs/{job_id}/retry")


def _request(request: Mapping[str, Any]) -> dict[str, Any]:
    body = dict(request)
    if "document" in body and not isinstance(body["document"], Mapping):
        body["document"] = document(body["document"])
    if "documents" in body and isinstance(body["documents"], list | tuple):
        body["documents"] = [
            item if isinstance(item, Mapping) else document(item) for item in body["documents"]
        ]
    return body


class Jobs(_Jobs[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)

    def wait(self, job_id: str, timeout: float = 600, poll_interval: float = 1.0) -> APIObject:
        """Polls until the job is completed, failed, cancelled or expired; the finished job with its
        response. TimeoutError after `timeout` seconds."""
        poll(
            lambda: self.status(job_id),
            lambda job: job.get("status") in FINISHED,
            timeout=timeout,
            poll_interval=poll_interval,
            what=f"job {job_id}",
        )
        return self.get(job_id, include_response=True)


class AsyncJobs(_Jobs[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)

    async def wait(self, job_id: str, timeout: float = 600, poll_interval: float = 1.0) -> APIObject:
        """Polls until the job is completed, failed, cancelled or expired; the finished job with its
        response. TimeoutError after `timeout` seconds."""
        await apoll(
            lambda: self.status(job_id),
            lambda job: job.get("status") in FINISHED,
            timeout=timeout,
            poll_interval=poll_interval,
            what=f"job {job_id}",
        )
        return await self.get(job_id, include_response=True)
