"""/parses: the environment's parses as GET /v1/parses lists them (status, filename, dates), a parse's
page (status, times, usage, error, its text page by page) and Cancel for one that has not finished."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, get_args

from docsvc.domain.parses import TERMINAL, ParseQuery, ParseService, ParseStatus
from docsvc.services import parse_service
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from console.context import Console
from console.forms import checked_form
from console.listing import chosen, options, page_query
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/parses")
STATUSES: tuple[str, ...] = get_args(ParseStatus)
PAGES_SHOWN = 5  # pages of a parse's text on one screen
PAGE_CHARACTERS = 20_000  # of one page's text; the viewer shows the rest


def parses() -> ParseService:
    """The console reads and cancels parses; it never reads a document, so it has no documents layer."""
    return parse_service("by_reader_function")


Parses = Annotated[ParseService, Depends(parses)]


@router.get("", include_in_schema=False)
def list_parses(
    request: Request,
    console: Console,
    service: Parses,
    status: str = "",
    filename: Annotated[str, Query(max_length=255)] = "",
    from_date: str = "",
    to_date: str = "",
    after: str = "",
) -> Response:
    query = ParseQuery(
        **page_query(after, from_date, to_date),
        status=chosen("status", status, STATUSES),
        filename=filename.strip() or None,
    )
    page = service.list(console.tenant, query)
    filters = {"status": status, "filename": filename, "from_date": from_date, "to_date": to_date}
    return render(
        request,
        "parses/list.html",
        console,
        parses=page.items,
        cursor=page.after,
        filters=filters,
        status_options=options(STATUSES, "Any status"),
    )


@router.get("/{parse_id}", include_in_schema=False)
def show_parse(
    request: Request,
    console: Console,
    service: Parses,
    parse_id: str,
    first: Annotated[int, Query(ge=1)] = 1,
) -> Response:
    record = service.get(console.tenant, parse_id)
    pages = record.output.pages
    shown = [
        (number, text[:PAGE_CHARACTERS], len(text) > PAGE_CHARACTERS)
        for number, text in enumerate(pages[first - 1 : first - 1 + PAGES_SHOWN], start=first)
    ]
    later = first + PAGES_SHOWN if first - 1 + PAGES_SHOWN < len(pages) else None
    earlier = max(1, first - PAGES_SHOWN) if first > 1 else None
    return render(
        request,
        "parses/detail.html",
        console,
        parse=record,
        shown=shown,
        page_count=len(pages),
        later=later,
        earlier=earlier,
        cancellable=record.status not in TERMINAL,
        took=_seconds_between(record.created_at, record.updated_at) if record.status in TERMINAL else None,
    )


@router.post("/{parse_id}/cancel", include_in_schema=False, dependencies=[Depends(checked_form)])
def cancel_parse(console: Console, service: Parses, parse_id: str) -> Response:
    service.cancel(console.tenant, parse_id)
    return redirect_with_notice(f"{console.base}/parses/{parse_id}", "The parse was cancelled.")


def _seconds_between(start: str, end: str) -> float:
    """From a parse's creation to its last change (its end, once it has ended), in seconds."""
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
