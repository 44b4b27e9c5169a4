"""Edits: PDF forms filled from instructions (`/v1/edits`), and edit templates, blank forms kept with
their fields (`/v1/edits/templates`).

```python
edit = client.edits.create(document="form.pdf", instructions="Name: Jane Roe\\nDate: 2026-11-26")
client.edits.save_filled(edit, "filled.pdf")
```
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
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
    Results,
    drop_none,
)
from docsvc_client.resources._base import document as as_document

__all__ = ["AsyncEdits", "Edits", "filled_bytes"]


def _fields(form_fields: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]] | None:
    return None if form_fields is None else [dict(field) for field in form_fields]


def _listing(limit: int | None, order: str | None, after: str | None, before: str | None) -> dict[str, Any]:
    return {"limit": limit, "order": order, "after": after, "before": before}


class _Templates(Resource[O_co, P_co, N_co]):
    path = "/v1/edits/templates"

    def create(
        self,
        name: str,
        document: DocumentInput,
        *,
        form_fields: Sequence[Mapping[str, Any]] | None = None,
        filename: str | None = None,
    ) -> O_co:
        """A template of a blank PDF form; its fields are found on the form when none are given."""
        body = drop_none(
            name=name, document=as_document(document, filename), form_fields=_fields(form_fields)
        )
        return self._http.object("POST", self.path, json=body)

    def generate(
        self, document: DocumentInput, *, name: str | None = None, filename: str | None = None
    ) -> O_co:
        """The fields found on a blank form, as a template draft (nothing is stored)."""
        body = drop_none(document=as_document(document, filename), name=name)
        return self._http.object("POST", f"{self.path}/generate", json=body)

    def fill(
        self,
        template_id: str,
        *,
        instructions: str | None = None,
        data: Mapping[str, Any] | None = None,
        model: str | None = None,
        color: str | None = None,
    ) -> O_co:
        """An edit of the template: values from `data` (by field key) and from `instructions`."""
        body = drop_none(
            template_id=template_id,
            instructions=instructions,
            data=None if data is None else dict(data),
            model=model,
            config=None if color is None else {"color": color},
        )
        return self._http.object("POST", f"{self.path}/fill", json=body)

    def list(
        self,
        *,
        name: str | None = None,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> P_co:
        return self._http.page(self.path, {"name": name, **_listing(limit, order, after, before)})

    def get(self, template_id: str) -> O_co:
        return self._http.object("GET", f"{self.path}/{template_id}")

    def update(
        self,
        template_id: str,
        *,
        name: str | None = None,
        form_fields: Sequence[Mapping[str, Any]] | None = None,
    ) -> O_co:
        body = drop_none(name=name, form_fields=_fields(form_fields))
        return self._http.object("PATCH", f"{self.path}/{template_id}", json=body)

    def delete(self, template_id: str) -> N_co:
        return self._http.none("DELETE", f"{self.path}/{template_id}")


class _Edits(Results[O_co, P_co, N_co]):
    path = "/v1/edits"

    def __init__(self, http: Requester[O_co, P_co, N_co]) -> None:
        super().__init__(http)
        self.templates = _Templates(http)

    def create(
        self,
        document: DocumentInput | None = None,
        *,
        instructions: str,
        template_id: str | None = None,
        model: str | None = None,
        color: str | None = None,
        filename: str | None = None,
    ) -> O_co:
        """The form (`document`, a PDF, or a template) filled from `instructions`: `output.form_data`
        has each field with its value and box, `output.filled_document` the filled PDF."""
        body = drop_none(
            document=None if document is None else as_document(document, filename),
            template_id=template_id,
            instructions=instructions,
            model=model,
            config=None if color is None else {"color": color},
        )
        return self._http.object("POST", self.path, json=body)

    def list(
        self,
        *,
        filename: str | None = None,
        template_id: str | None = None,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
    ) -> P_co:
        """Newest first by default; `filename` is a prefix of the filled document's name."""
        filters = {"filename": filename, "template_id": template_id}
        return self._listed(filters, limit, order, after, before, from_date, to_date)

    def delete(self, edit_id: str) -> N_co:
        """The edit and its filled document."""
        return self._http.none("DELETE", f"{self.path}/{edit_id}")


def filled_bytes(edit: Mapping[str, Any]) -> bytes | None:
    """The filled PDF of an edit answered inline (a data: URL); None when it is a link (over 2 MB:
    download it from `output.filled_document.url`) or absent."""
    filled = (edit.get("output") or {}).get("filled_document") or {}
    url = str(filled.get("url") or "")
    if not url.startswith("data:"):
        return None
    return base64.b64decode(url.split(",", 1)[1])


class Edits(_Edits[APIObject, SyncPage, None]):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)
        self._sync = http

    def save_filled(self, edit: Mapping[str, Any], to: str | os.PathLike[str]) -> Path:
        """Writes the edit's filled PDF to `to`, inline or downloaded from its link."""
        content = filled_bytes(edit)
        if content is None:
            url = str(((edit.get("output") or {}).get("filled_document") or {}).get("url") or "")
            if not url:
                raise ValueError(f"edit {edit.get('id')!r} has no filled document")
            content = self._sync.request("GET", url, auth=False).content
        path = Path(to)
        path.write_bytes(content)
        return path


class AsyncEdits(_Edits[Coro[APIObject], Coro[AsyncPage], Coro[None]]):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
