"""Files: upload (directly or through an upload session), list, get, download, delete."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, overload

from docsvc_client._http import APIObject, AsyncHTTP, SyncHTTP
from docsvc_client.pagination import AsyncPage, SyncPage
from docsvc_client.resources._base import FileInput, Resource, content_type, read_file

__all__ = ["DIRECT_UPLOAD_LIMIT", "AsyncFiles", "Files"]

# The largest file `POST /v1/files` takes; a larger one goes through an upload session.
DIRECT_UPLOAD_LIMIT = 4_500_000


class _FilesBase(Resource[Any, Any, Any]):
    def _list_params(
        self,
        *,
        limit: int | None,
        order: str | None,
        after: str | None,
        before: str | None,
        filename: str | None,
        mime_type: str | None,
        sort_by: str | None,
        from_date: str | None,
        to_date: str | None,
        include_embeddings: bool | None,
    ) -> dict[str, Any]:
        return {
            "limit": limit,
            "order": order,
            "after": after,
            "before": before,
            "filename": filename,
            "mime_type": mime_type,
            "sort_by": sort_by,
            "from_date": from_date,
            "to_date": to_date,
            "include_embeddings": include_embeddings,
        }

    @staticmethod
    def _session_body(name: str, content: bytes) -> dict[str, Any]:
        return {
            "filename": name,
            "size_bytes": len(content),
            "content_type": content_type(name, content),
            "sha256": hashlib.sha256(content).hexdigest(),
        }


class Files(_FilesBase):
    def __init__(self, http: SyncHTTP) -> None:
        super().__init__(http)
        self._sync = http

    def upload(self, path_or_bytes: FileInput, filename: str | None = None) -> APIObject:
        """Uploads a file: `POST /v1/files` up to 4,500,000 bytes, an upload session above. The File."""
        name, content = read_file(path_or_bytes, filename)
        if len(content) <= DIRECT_UPLOAD_LIMIT:
            return self._sync.object("POST", "/v1/files", files={"file": (name, content)})
        session = self._sync.object("POST", "/v1/files/upload", json=self._session_body(name, content))
        self._sync.request(
            str(session.get("upload_method") or "PUT"),
            session["upload_url"],
            content=content,
            headers=dict(session.get("upload_headers") or {}),
            auth=False,
        )
        return self._sync.object("POST", f"/v1/files/upload/{session['file_id']}/complete")

    def list(
        self,
        *,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        filename: str | None = None,
        mime_type: str | None = None,
        sort_by: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
        include_embeddings: bool | None = None,
    ) -> SyncPage:
        params = self._list_params(
            limit=limit,
            order=order,
            after=after,
            before=before,
            filename=filename,
            mime_type=mime_type,
            sort_by=sort_by,
            from_date=from_date,
            to_date=to_date,
            include_embeddings=include_embeddings,
        )
        return self._sync.page("/v1/files", params)

    def get(self, file_id: str) -> APIObject:
        return self._sync.object("GET", f"/v1/files/{file_id}")

    def download_link(self, file_id: str) -> APIObject:
        """`{download_url, expires_in, filename}`: a presigned link, valid 15 minutes."""
        return self._sync.object("GET", f"/v1/files/{file_id}/download-link")

    @overload
    def download(self, file_id: str) -> bytes: ...
    @overload
    def download(self, file_id: str, to: str | os.PathLike[str]) -> Path: ...
    def download(self, file_id: str, to: str | os.PathLike[str] | None = None) -> bytes | Path:
        """The file's bytes; with `to`, writes them there (into a folder: under the file's name) and
        gives the path."""
        link = self.download_link(file_id)
        content = self._sync.request("GET", link["download_url"], auth=False).content
        return _save(content, to, str(link.get("filename") or file_id)) if to is not None else content

    def delete(self, file_id: str) -> None:
        self._sync.none("DELETE", f"/v1/files/{file_id}")


class AsyncFiles(_FilesBase):
    def __init__(self, http: AsyncHTTP) -> None:
        super().__init__(http)
        self._async = http

    async def upload(self, path_or_bytes: FileInput, filename: str | None = None) -> APIObject:
        """Uploads a file: `POST /v1/files` up to 4,500,000 bytes, an upload session above. The File."""
        name, content = read_file(path_or_bytes, filename)
        if len(content) <= DIRECT_UPLOAD_LIMIT:
            return await self._async.object("POST", "/v1/files", files={"file": (name, content)})
        session = await self._async.object("POST", "/v1/files/upload", json=self._session_body(name, content))
        await self._async.request(
            str(session.get("upload_method") or "PUT"),
            session["upload_url"],
            content=content,
            headers=dict(session.get("upload_headers") or {}),
            auth=False,
        )
        return await self._async.object("POST", f"/v1/files/upload/{session['file_id']}/complete")

    def list(
        self,
        *,
        limit: int | None = None,
        order: str | None = None,
        after: str | None = None,
        before: str | None = None,
        filename: str | None = None,
        mime_type: str | None = None,
        sort_by: str | None = None,
        from_date: str | None = None,
        to_date: str | None = None,
        include_embeddings: bool | None = None,
    ) -> Coroutine[Any, Any, AsyncPage]:
        params = self._list_params(
            limit=limit,
            order=order,
            after=after,
            before=before,
            filename=filename,
            mime_type=mime_type,
            sort_by=sort_by,
            from_date=from_date,
            to_date=to_date,
            include_embeddings=include_embeddings,
        )
        return self._async.page("/v1/files", params)

    def get(self, file_id: str) -> Coroutine[Any, Any, APIObject]:
        return self._async.object("GET", f"/v1/files/{file_id}")

    def download_link(self, file_id: str) -> Coroutine[Any, Any, APIObject]:
        return self._async.object("GET", f"/v1/files/{file_id}/download-link")

    @overload
    async def download(self, file_id: str) -> bytes: ...
    @overload
    async def download(self, file_id: str, to: str | os.PathLike[str]) -> Path: ...
    async def download(self, file_id: str, to: str | os.PathLike[str] | None = None) -> bytes | Path:
        link = await self.download_link(file_id)
        content = (await self._async.request("GET", link["download_url"], auth=False)).content
        return _save(content, to, str(link.get("filename") or file_id)) if to is not None else content

    def delete(self, file_id: str) -> Coroutine[Any, Any, None]:
        return self._async.none("DELETE", f"/v1/files/{file_id}")


def _save(content: bytes, to: str | os.PathLike[str], filename: str) -> Path:
    target = Path(to)
    if target.is_dir():
        target = target / Path(filename).name
    target.write_bytes(content)
    return target
