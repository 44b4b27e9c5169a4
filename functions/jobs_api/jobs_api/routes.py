"""Routes of /v1/jobs."""

from __future__ import annotations

from typing import Annotated, Any

from docsvc.api.auth import CurrentTenant
from docsvc.api.json_bodies import loads
from docsvc.api.params import list_parameters
from docsvc.domain.jobs import JobEndpoint, JobQuery, JobService, JobSource, JobStatus
from docsvc.errors import InvalidField
from docsvc.services import job_service
from fastapi import APIRouter, Depends, Header, Query, Response

from jobs_api.schemas import Job, JobCreate, JobList, JobStatusView

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])
Jobs = Annotated[JobService, Depends(job_service)]


@router.post("", status_code=201, response_model=Job, summary="Create a job")
def create_job(
    tenant: CurrentTenant,
    jobs: Jobs,
    body: JobCreate,
    response: Response,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            min_length=1,
            max_length=255,
            description="The same key and body within 24 hours answer the same job; another body, 409.",
        ),
    ] = None,
) -> Job:
    job, replayed = jobs.create(tenant, body.endpoint, body.request, body.metadata, idempotency_key)
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return Job.of(job)


@router.get("", response_model=JobList, summary="List jobs")
def list_jobs(
    tenant: CurrentTenant,
    jobs: Jobs,
    page_parameters: Annotated[dict[str, Any], Depends(list_parameters(default_limit=20))],
    id: Annotated[str | None, Query(description="Exact job id.", max_length=64)] = None,
    status: JobStatus | None = None,
    endpoint: JobEndpoint | None = None,
    source: Annotated[
        JobSource | None,
        Query(description="api, project (request.project_id) or workflow (metadata.workflow_id)."),
    ] = None,
    project_id: Annotated[str | None, Query(max_length=255)] = None,
    workflow_id: Annotated[str | None, Query(max_length=255)] = None,
    workflow_block_id: Annotated[
        str | None, Query(max_length=255, description="metadata.workflow_block_id or metadata.block_id.")
    ] = None,
    model: Annotated[str | None, Query(max_length=255)] = None,
    filename_regex: Annotated[
        str | None, Query(description="Anchored at both ends, on the request's filenames.")
    ] = None,
    filename_contains: Annotated[str | None, Query(max_length=255)] = None,
    document_type: Annotated[
        list[str] | None, Query(description="Repeatable; by the extension of the request's filenames.")
    ] = None,
    metadata: Annotated[
        str | None, Query(description='A JSON object of strings, e.g. {"team":"billing"}: exact matches.')
    ] = None,
    include_request: bool = False,
    include_response: Annotated[bool, Query(description="Only with limit 20 or less.")] = False,
    access_token: Annotated[str | None, Query(description="Accepted; not used.")] = None,
    operation_name: Annotated[str | None, Query(description="Accepted; not used.")] = None,
) -> JobList:
    query = JobQuery(
        **page_parameters,
        id=id,
        status=status,
        endpoint=endpoint,
        source=source,
        project_id=project_id,
        workflow_id=workflow_id,
        workflow_block_id=workflow_block_id,
        model=model,
        filename_regex=filename_regex,
        filename_contains=filename_contains,
        document_types=document_type or [],
        metadata=_metadata(metadata),
        include_request=include_request,
        include_response=include_response,
    )
    page = jobs.list(tenant, query)
    items = page.items
    return JobList(
        data=[Job.of(job) for job in items],
        first_id=items[0].id if items else None,
        last_id=items[-1].id if items else None,
        has_more=page.has_previous if query.before else page.has_next,
    )


@router.get("/{job_id}", response_model=Job, summary="Get a job")
def get_job(
    tenant: CurrentTenant,
    jobs: Jobs,
    job_id: str,
    include_request: bool = False,
    include_response: bool = False,
) -> Job:
    return Job.of(jobs.get(tenant, job_id, with_request=include_request, with_response=include_response))


@router.get("/{job_id}/status", response_model=JobStatusView, summary="A job's status, times and error")
def get_job_status(tenant: CurrentTenant, jobs: Jobs, job_id: str) -> JobStatusView:
    return JobStatusView.of(jobs.get(tenant, job_id))


@router.post("/{job_id}/cancel", response_model=Job, summary="Cancel a job that has not finished")
def cancel_job(tenant: CurrentTenant, jobs: Jobs, job_id: str) -> Job:
    return Job.of(jobs.cancel(tenant, job_id))


@router.post("/{job_id}/retry", response_model=Job, summary="Run a failed, cancelled or expired job again")
def retry_job(tenant: CurrentTenant, jobs: Jobs, job_id: str) -> Job:
    return Job.of(jobs.retry(tenant, job_id))


@router.delete("/{job_id}", status_code=204, response_class=Response, summary="Delete an ended job")
def delete_job(tenant: CurrentTenant, jobs: Jobs, job_id: str) -> Response:
    """The job with its request and response; a job that has not ended is a 409 (cancel it first)."""
    jobs.delete(tenant, job_id)
    return Response(status_code=204)


def _metadata(value: str | None) -> dict[str, str] | None:
    if value is None:
        return None
    location = ("query", "metadata")
    parsed = loads(value, location, 'send an object such as {"team":"billing"}')
    if not isinstance(parsed, dict) or not all(isinstance(item, str) for item in parsed.values()):
        raise InvalidField(location, "metadata must be a JSON object whose values are strings")
    return parsed
