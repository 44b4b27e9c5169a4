"""Request and response bodies of /v1/files."""

from __future__ import annotations

from typing import Literal

from docsvc.domain.files import FileRecord
from docsvc.endpoints.lists import ListMetadata
from docsvc.tenancy import ENVIRONMENT_HELP, Environment
from pydantic import BaseModel, Field


class File(BaseModel):
    object: Literal["file"] = "file"
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    filename: str
    mime_type: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    page_count: int | None = Field(None, description="Filled once the file has been inspected.")
    size_bytes: int
    sha256: str | None = None
    embeddings: list[float] | None = Field(
        None,
        description="Only with include_embeddings=true: the docsvc-hash-256 vector (null before inspection).",
    )

    @classmethod
    def of(cls, record: FileRecord, *, with_embeddings: bool = False) -> File:
        """Every field set explicitly, so responses keep nulls; `embeddings` only when asked for."""
        fields = record.model_dump(exclude={"embedding"})
        if with_embeddings:
            fields["embeddings"] = record.embedding
        return cls(object="file", **fields)


class FileList(BaseModel):
    data: list[File]
    list_metadata: ListMetadata


class UploadSessionRequest(BaseModel):
    filename: str = Field(min_length=1, max_length=1024)
    size_bytes: int = Field(gt=0, description="The exact size of the file in bytes.")
    content_type: str | None = Field(None, max_length=255)
    sha256: str | None = Field(
        None, pattern=r"^[0-9a-fA-F]{64}$", description="Checked when the upload completes."
    )


class UploadSessionResponse(BaseModel):
    file_id: str
    upload_url: str
    upload_method: Literal["PUT"] = "PUT"
    upload_headers: dict[str, str]
    expires_at: str


class DownloadLink(BaseModel):
    download_url: str
    expires_in: int
    filename: str
