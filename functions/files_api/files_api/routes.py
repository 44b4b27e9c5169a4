"""Routes of /v1/files. Each one authenticates, calls the file service and shapes the answer."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.files import DOWNLOAD_URL_SECONDS, MAX_DIRECT_UPLOAD_BYTES, FileQuery, FileService
from docsvc.endpoints.lists import ListMetadata
from docsvc.services import file_service
from fastapi import APIRouter, Depends, Form, Query, Response, UploadFile

from files_api.schemas import (
    DownloadLink,
    File,
    FileList,
    UploadSessionRequest,
    UploadSessionResponse,
)

router = APIRouter(prefix="/v1/files", tags=["files"])
Files = Annotated[FileService, Depends(file_service)]


@router.post(
    "",
    status_code=201,
    response_model=File,
    response_model_exclude_unset=True,
    summary="Upload a file (at most 4.5 MB; use an upload session above that)",
)
async def upload_file(
    tenant: CurrentTenant,
    files: Files,
    file: UploadFile,
    filename: Annotated[str | None, Form(description="Overrides the name of the uploaded part.")] = None,
) -> File:
    content = await file.read(MAX_DIRECT_UPLOAD_BYTES + 1)
    record = files.upload(tenant, filename or file.filename or "", content)
    return File.of(record)


@router.post(
    "/upload",
    status_code=201,
    response_model=UploadSessionResponse,
    summary="Start an upload session for a file of any size",
)
def start_upload(tenant: CurrentTenant, files: Files, body: UploadSessionRequest) -> UploadSessionResponse:
    session, url = files.start_upload(tenant, body.filename, body.size_bytes, body.content_type, body.sha256)
    return UploadSessionResponse(
        file_id=session.file_id,
        upload_url=url,
        upload_headers={"Content-Type": session.content_type or "application/octet-stream"},
        expires_at=session.expires_at,
    )


@router.post(
    "/upload/{file_id}/complete",
    response_model=File,
    response_model_exclude_unset=True,
    summary="Finish an upload session: checks the size and the sha256",
)
def complete_upload(tenant: CurrentTenant, files: Files, file_id: str) -> File:
    return File.of(files.complete_upload(tenant, file_id))


@router.get("", response_model=FileList, response_model_exclude_unset=True, summary="List files")
def list_files(
    tenant: CurrentTenant,
    files: Files,
    page_parameters: Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))],
    filename: Annotated[str | None, Query(description="Filename prefix.", max_length=255)] = None,
    mime_type: Annotated[str | None, Query(max_length=255)] = None,
    include_embeddings: bool = False,
    sort_by: Literal["created_at", "filename"] = "created_at",
) -> FileList:
    query = FileQuery(
        **page_parameters,
        filename=filename or None,
        mime_type=mime_type or None,
        sort_by=sort_by,
        include_embeddings=include_embeddings,
    )
    page = files.list(tenant, query)
    return FileList(
        data=[File.of(record, with_embeddings=include_embeddings) for record in page.items],
        list_metadata=ListMetadata.of(page),
    )


@router.get("/{file_id}", response_model=File, response_model_exclude_unset=True, summary="Get a file")
def get_file(tenant: CurrentTenant, files: Files, file_id: str) -> File:
    return File.of(files.get(tenant, file_id))


@router.get("/{file_id}/download-link", response_model=DownloadLink, summary="A short-lived download URL")
def download_link(tenant: CurrentTenant, files: Files, file_id: str) -> DownloadLink:
    record, url = files.download_url(tenant, file_id)
    return DownloadLink(download_url=url, expires_in=DOWNLOAD_URL_SECONDS, filename=record.filename)


@router.delete("/{file_id}", status_code=204, response_class=Response, summary="Delete a file and its bytes")
def delete_file(tenant: CurrentTenant, files: Files, file_id: str) -> Response:
    files.delete(tenant, file_id)
    return Response(status_code=204)
