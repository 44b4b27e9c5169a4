"""/console: to the first organization's test environment, or a page saying the member has none."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from console.context import Console, SignedIn
from console.rendering import render

router = APIRouter()


@router.get("/console", include_in_schema=False)
@router.get("/console/", include_in_schema=False)
def home(request: Request, viewer: SignedIn) -> Response:
    if not viewer.memberships:
        return render(request, "home.html", viewer=viewer)
    first = sorted(viewer.memberships, key=lambda m: m.organization_name.lower())[0]
    return RedirectResponse(f"/console/{first.organization_id}/test/files", status_code=303)


@router.get("/console/{organization}/{environment}", include_in_schema=False)
def environment_home(console: Console) -> Response:
    return RedirectResponse(f"{console.base}/files", status_code=303)
