"""Request and response bodies of /v1/jobs (spec 2.3 and 4.2)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from docsvc.domain.jobs import JobEndpoint, JobError, JobRecord, JobResponse, JobStatus
from docsvc.tenancy import ENVIRONMENT_HELP, Environment
from pydantic import BaseModel, Field, StringConstraints

MetadataKey = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MetadataValue = Annotated[str, StringConstraints(max_length=512)]


class JobCreate(BaseModel):
    endpoint: JobEndpoint = Field(description="The endpoint whose work the job does.")
    request: dict[str, Any] = Field(description="The body that endpoint takes.")
    metadata: dict[MetadataKey, MetadataValue] | None = Field(
        None,
        max_length=16,
        description="At most 16 string pairs (keys up to 64 characters, values up to 512). "
        "`workflow_id` and `workflow_block_id` (or `block_id`) are read by the list filters.",
    )


class Job(BaseModel):
    id: str
    object: Literal["job"] = "job"
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    status: JobStatus
    endpoint: str
    request: dict[str, Any] | None = Field(description="The request body; null unless include_request=true.")
    response: JobResponse | None = Field(
        description="`{status_code, body}`: what the endpoint answered. Null until finished, and unless "
        "include_response=true."
    )
    error: JobError | None
    created_at: int = Field(description="Unix seconds.")
    started_at: int | None
    completed_at: int | None
    expires_at: int = Field(description="created_at + 7 days (renewed by a retry).")
    organization_id: str
    metadata: dict[str, str] | None

    @classmethod
    def of(cls, record: JobRecord) -> Job:
        return cls.model_validate(record.model_dump(include=set(cls.model_fields)))


class JobStatusView(BaseModel):
    id: str
    object: Literal["job"] = "job"
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    status: JobStatus
    created_at: int
    started_at: int | None
    completed_at: int | None
    expires_at: int
    error: JobError | None

    @classmethod
    def of(cls, record: JobRecord) -> JobStatusView:
        return cls.model_validate(record.model_dump(include=set(cls.model_fields)))


class JobList(BaseModel):
    object: Literal["list"] = "list"
    data: list[Job]
    first_id: str | None = Field(description="Id of the first job of the page: `before` for the page before.")
    last_id: str | None = Field(description="Id of the last job of the page: `after` for the next page.")
    has_more: bool = Field(description="More jobs follow in the direction read (`after`, or `before`).")
