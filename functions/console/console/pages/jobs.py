"""/jobs: the environment's jobs as GET /v1/jobs lists them, by the filters a key answers (status,
endpoint, dates: a page reads about one page of jobs however many the environment holds; the API's
filename and source filters read on until they fill a page, every job of the environment when few match),
a job's page (its times, error and the result it made) with Cancel and Retry, which do what
POST /v1/jobs/{id}/cancel and /retry do; their refusals are the service's messages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, get_args

from docsvc.domain.jobs import (
    JOB_ENDPOINTS,
    RETRYABLE,
    UNFINISHED,
    JobQuery,
    JobRecord,
    JobService,
    JobStatus,
)
from docsvc.services import job_service
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from console.context import Console
from console.forms import checked_form
from console.listing import chosen, options, page_query
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/jobs")
Jobs = Annotated[JobService, Depends(job_service)]
STATUSES: tuple[str, ...] = get_args(JobStatus)
# The console's section of each kind of result a job answers (its response body's `object`).
RESULT_SECTIONS = {
    "parse": "parses",
    "extraction": "extractions",
    "classification": "extractions",
    "split": "extractions",
    "partition": "extractions",
}


@router.get("", include_in_schema=False)
def list_jobs(
    request: Request,
    console: Console,
    jobs: Jobs,
    status: str = "",
    endpoint: str = "",
    from_date: str = "",
    to_date: str = "",
    after: str = "",
) -> Response:
    query = JobQuery(
        **page_query(after, from_date, to_date),
        status=chosen("status", status, STATUSES),
        endpoint=chosen("endpoint", endpoint, JOB_ENDPOINTS),
    )
    page = jobs.list(console.tenant, query)
    filters = {
        "status": status,
        "endpoint": endpoint,
        "from_date": from_date,
        "to_date": to_date,
    }
    return render(
        request,
        "jobs/list.html",
        console,
        jobs=page.items,
        cursor=page.after,
        filters=filters,
        status_options=options(STATUSES, "Any status"),
        endpoint_options=[("", "Any endpoint")] + [(value, value) for value in JOB_ENDPOINTS],
        at=moment,
    )


@router.get("/{job_id}", include_in_schema=False)
def show_job(request: Request, console: Console, jobs: Jobs, job_id: str) -> Response:
    job = jobs.get(console.tenant, job_id, with_response=True)
    return render(
        request,
        "jobs/detail.html",
        console,
        job=job,
        result=result_of(job),
        cancellable=job.status in UNFINISHED,
        retryable=job.status in RETRYABLE,
        at=moment,
    )


@router.post("/{job_id}/cancel", include_in_schema=False, dependencies=[Depends(checked_form)])
def cancel_job(console: Console, jobs: Jobs, job_id: str) -> Response:
    jobs.cancel(console.tenant, job_id)
    return _to_job(console.base, job_id, "The job was cancelled.")


@router.post("/{job_id}/retry", include_in_schema=False, dependencies=[Depends(checked_form)])
def retry_job(console: Console, jobs: Jobs, job_id: str) -> Response:
    job = jobs.retry(console.tenant, job_id)
    return _to_job(console.base, job_id, f"The job runs again: it is {job.status.replace('_', ' ')}.")


def result_of(job: JobRecord) -> dict[str, str] | None:
    """The parse or result a completed job made ({kind, id, section}), from its response; None for a
    job whose answer is no stored result (or whose response was removed after its expires_at)."""
    body: Any = job.response.body if job.response else None
    if job.status != "completed" or not isinstance(body, dict):
        return None
    kind, result_id = body.get("object"), body.get("id")
    if kind not in RESULT_SECTIONS or not isinstance(result_id, str):
        return None
    return {"kind": kind, "id": result_id, "section": RESULT_SECTIONS[kind]}


def moment(seconds: int | None) -> datetime | None:
    """A job's time (Unix seconds, as the API answers it) as a UTC datetime for the `when` filter."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _to_job(base: str, job_id: str, notice: str) -> Response:
    return redirect_with_notice(f"{base}/jobs/{job_id}", notice)
