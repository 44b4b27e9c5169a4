"""Workflows: graphs of blocks, their diagnosis, published versions and runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import Coro, DocumentInput, N_co, O_co, P_co, Resource, document, drop_none

__all__ = ["AsyncWorkflows", "Workflows"]

Blocks = Sequence[Mapping[str, Any]]
Edges = Sequence[Mapping[str, Any]]


def _list(items: Blocks | Edges | None) -> list[dict[str, Any]] | None:
    return None if items is None else [dict(item) for item in items]


class _Workflows(Resource[O_co, P_co, N_co]):
    def create(
        self,
        name: str,
        *,
        description: str | None = None,
        blocks: Blocks | None = None,
        edges: Edges | None = None,
    ) -> O_co:
        body = drop_none(name=name, description=description, blocks=_list(blocks), edges=_list(edges))
        return self._http.object("POST", "/v1/workflows", json=body)

    def list(
        self,
        *,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        params = {
            "limit": limit,
            "order": order,
            "after": after,
            "before": before,
            "from_date": from_date,
            "to_date": to_date,
        }
        return self._http.page("/v1/workflows", params)

    def get(self, workflow_id: str) -> O_co:
        return self._http.object("GET", f"/v1/workflows/{workflow_id}")

    def update(self, workflow_id: str, *, name: str | None = None, description: str | None = None) -> O_co:
        """Changes only the fields given."""
        body = drop_none(name=name, description=description)
        return self._http.object("PATCH", f"/v1/workflows/{workflow_id}", json=body)

    def delete(self, workflow_id: str) -> N_co:
        return self._http.none("DELETE", f"/v1/workflows/{workflow_id}")

    def get_graph(self, workflow_id: str) -> O_co:
        """The draft `{blocks, edges}`."""
        return self._http.object("GET", f"/v1/workflows/{workflow_id}/graph")

    def set_graph(self, workflow_id: str, blocks: Blocks, edges: Edges) -> O_co:
        """Replaces the draft graph."""
        body = {"blocks": _list(blocks), "edges": _list(edges)}
        return self._http.object("PUT", f"/v1/workflows/{workflow_id}/graph", json=body)

    def diagnose(
        self,
        workflow_id: str,
        blocks: Blocks | None = None,
        edges: Edges | None = None,
        re_propagate: bool = True,
    ) -> O_co:
        """`{is_valid, issues, suggestions, stats}` of the given graph, or of the stored draft when
        neither blocks nor edges are given."""
        body = drop_none(blocks=_list(blocks), edges=_list(edges), re_propagate=re_propagate)
        return self._http.object("POST", f"/v1/workflows/{workflow_id}/diagnose-graph", json=body)

    def publish(self, workflow_id: str) -> O_co:
        """Publishes the draft as a new version (a 400 BadRequestError with `issues` if it has errors)."""
        return self._http.object("POST", f"/v1/workflows/{workflow_id}/publish")

    def promote(self, workflow_id: str) -> O_co:
        """Copies a test workflow's draft to production (`POST /v1/workflows/{id}/promotions`), sent
        with a production key of the same organization: `{promotion_id, source_workflow_id,
        target_workflow_id, created, missing_secrets, warnings}`. A test key is a PermissionDeniedError."""
        return self._http.object("POST", f"/v1/workflows/{workflow_id}/promotions")

    def run(
        self,
        workflow_id: str,
        documents: Mapping[str, DocumentInput] | None = None,
        *,
        json_inputs: Mapping[str, Any] | None = None,
        version: Literal["published", "draft"] | int | None = None,
    ) -> O_co:
        """Starts a run (`queued`). `documents` maps each start block id to a document (path, bytes,
        URL, file id, …); `version` is "published" (the default), "draft" or a version number."""
        body = drop_none(
            documents={block: document(item) for block, item in (documents or {}).items()},
            json_inputs=None if json_inputs is None else dict(json_inputs),
            version=version,
        )
        return self._http.object("POST", f"/v1/workflows/{workflow_id}/runs", json=body)

    def runs(
        self,
        workflow_id: str,
        *,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        params = {
            "limit": limit,
            "order": order,
            "after": after,
            "before": before,
            "from_date": from_date,
            "to_date": to_date,
        }
        return self._http.page(f"/v1/workflows/{workflow_id}/runs", params)

    def get_run(self, run_id: str) -> O_co:
        return self._http.object("GET", f"/v1/workflows/runs/{run_id}")

    def delete_run(self, run_id: str) -> N_co:
        """An ended run; a queued or running one is a ConflictError."""
        return self._http.none("DELETE", f"/v1/workflows/runs/{run_id}")


class Workflows(_Workflows[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncWorkflows(_Workflows[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
