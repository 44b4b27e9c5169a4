"""Extraction evals: `client.evals.extract` (evals), `.documents` (the dataset and its annotations),
`.iterations`, and the runs `extract`, `process` and `split`.

A dataset too large to process in one request is run as a job:
`client.jobs.create("/v1/evals/extract/process", {"project_id": eval_id, "iteration_id": ...})`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import (
    Coro,
    DocumentInput,
    N_co,
    O_co,
    P_co,
    Requester,
    Resource,
    document,
    drop_none,
)

__all__ = ["AsyncEvals", "Evals"]

BASE = "/v1/evals/extract"


def _settings(
    model: str | None, instructions: str | None, n_consensus: int | None, image_resolution_dpi: int | None
) -> dict[str, Any]:
    """`inference_settings` of the fields given (the API fills the rest with its defaults)."""
    return drop_none(
        model=model,
        instructions=instructions,
        n_consensus=n_consensus,
        image_resolution_dpi=image_resolution_dpi,
    )


class _Documents(Resource[O_co, P_co, N_co]):
    def create(
        self,
        eval_id: str,
        source: DocumentInput,
        annotation: Mapping[str, Any],
        *,
        filename: str | None = None,
    ) -> O_co:
        """A document (a path, bytes, URL, file id or MIMEData) and its ground truth, valid against the
        eval's schema (422 naming the field that is not)."""
        body = {"document": document(source, filename), "annotation": dict(annotation)}
        return self._http.object("POST", f"{BASE}/{eval_id}/documents", json=body)

    def list(
        self, eval_id: str, *, limit: int | None = None, order: str | None = None, after: str | None = None
    ) -> P_co:
        return self._http.page(
            f"{BASE}/{eval_id}/documents", drop_none(limit=limit, order=order, after=after)
        )

    def get(self, eval_id: str, document_id: str) -> O_co:
        return self._http.object("GET", f"{BASE}/{eval_id}/documents/{document_id}")

    def update(
        self,
        eval_id: str,
        document_id: str,
        *,
        annotation: Mapping[str, Any] | None = None,
        split: str | None = None,
    ) -> O_co:
        body = drop_none(annotation=None if annotation is None else dict(annotation), split=split)
        return self._http.object("PATCH", f"{BASE}/{eval_id}/documents/{document_id}", json=body)

    def delete(self, eval_id: str, document_id: str) -> N_co:
        return self._http.none("DELETE", f"{BASE}/{eval_id}/documents/{document_id}")


class _Iterations(Resource[O_co, P_co, N_co]):
    def create(
        self,
        eval_id: str,
        *,
        model: str | None = None,
        json_schema: Mapping[str, Any] | None = None,
        instructions: str | None = None,
        n_consensus: int | None = None,
        image_resolution_dpi: int | None = None,
    ) -> O_co:
        """Settings to run the dataset with; the eval's defaults for those not given."""
        body = drop_none(json_schema=None if json_schema is None else dict(json_schema))
        settings = _settings(model, instructions, n_consensus, image_resolution_dpi)
        return self._http.object(
            "POST", f"{BASE}/{eval_id}/iterations", json=body | {"inference_settings": settings}
        )

    def list(
        self, eval_id: str, *, limit: int | None = None, order: str | None = None, after: str | None = None
    ) -> P_co:
        return self._http.page(
            f"{BASE}/{eval_id}/iterations", drop_none(limit=limit, order=order, after=after)
        )

    def get(self, eval_id: str, iteration_id: str, *, include_documents: bool | None = None) -> O_co:
        params = drop_none(include_documents=include_documents)
        return self._http.object("GET", f"{BASE}/{eval_id}/iterations/{iteration_id}", params=params)

    def delete(self, eval_id: str, iteration_id: str) -> N_co:
        return self._http.none("DELETE", f"{BASE}/{eval_id}/iterations/{iteration_id}")


class _ExtractEvals(Resource[O_co, P_co, N_co]):
    def __init__(self, http: Requester[O_co, P_co, N_co]) -> None:
        super().__init__(http)
        self.documents = _Documents(http)
        self.iterations = _Iterations(http)

    def create(
        self,
        name: str,
        json_schema: Mapping[str, Any],
        *,
        model: str | None = None,
        instructions: str | None = None,
        n_consensus: int | None = None,
        image_resolution_dpi: int | None = None,
    ) -> O_co:
        """An eval; the settings are its iterations' defaults."""
        settings = _settings(model, instructions, n_consensus, image_resolution_dpi)
        body = {"name": name, "json_schema": dict(json_schema), "inference_settings": settings}
        return self._http.object("POST", BASE, json=body)

    def list(self, *, limit: int | None = None, order: str | None = None, after: str | None = None) -> P_co:
        return self._http.page(BASE, drop_none(limit=limit, order=order, after=after))

    def get(self, eval_id: str) -> O_co:
        return self._http.object("GET", f"{BASE}/{eval_id}")

    def update(
        self,
        eval_id: str,
        *,
        name: str | None = None,
        json_schema: Mapping[str, Any] | None = None,
        inference_settings: Mapping[str, Any] | None = None,
    ) -> O_co:
        body = drop_none(
            name=name,
            json_schema=None if json_schema is None else dict(json_schema),
            inference_settings=None if inference_settings is None else dict(inference_settings),
        )
        return self._http.object("PATCH", f"{BASE}/{eval_id}", json=body)

    def delete(self, eval_id: str) -> N_co:
        """The eval with its documents and iterations."""
        return self._http.none("DELETE", f"{BASE}/{eval_id}")

    def extract(self, eval_id: str, iteration_id: str, document_id: str) -> O_co:
        """One document with one iteration's settings, scored against its annotation."""
        body = {"project_id": eval_id, "iteration_id": iteration_id, "document_id": document_id}
        return self._http.object("POST", f"{BASE}/extract", json=body)

    def process(self, eval_id: str, iteration_id: str, *, split: str | None = None) -> O_co:
        """The iteration over the dataset (or its `split`), with its metrics; at most 10 documents in one
        request (a 413 says so): run more as a job."""
        body = drop_none(project_id=eval_id, iteration_id=iteration_id, split=split)
        return self._http.object("POST", f"{BASE}/process", json=body)

    def split(self, eval_id: str, *, test_fraction: float | None = None, seed: int | None = None) -> O_co:
        """The dataset divided into a train and a test part, the same way for the same seed."""
        body = drop_none(project_id=eval_id, test_fraction=test_fraction, seed=seed)
        return self._http.object("POST", f"{BASE}/split", json=body)


class _Evals(Resource[O_co, P_co, N_co]):
    def __init__(self, http: Requester[O_co, P_co, N_co]) -> None:
        super().__init__(http)
        self.extract = _ExtractEvals(http)


class Evals(_Evals[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)


class AsyncEvals(_Evals[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
