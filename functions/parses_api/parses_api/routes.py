"""Routes of /v1/parses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.parses import ParseQuery, ParseRecord, ParseService, ParseStatus, StreamedPage
from docsvc.endpoints.lists import ListMetadata
from docsvc.endpoints.parse import PARSE, Parse, ParseCreate
from docsvc.errors import DomainError
from docsvc.services import parse_service
from fastapi import APIRouter, Depends, Query, Response
from fastapi.responses import StreamingResponse

from parses_api.schemas import ParseList

router = APIRouter(prefix="/v1/parses", tags=["parses"])


def parses() -> ParseService:
    """This function has no documents layer: documents are read by the document reader function."""
    return parse_service("by_reader_function")


Parses = Annotated[ParseService, Depends(parses)]

STREAM_DESCRIPTION = (
    "With `stream: true` the answer is `text/event-stream`: an event `page` ({number, text}) for each page "
    "as it is parsed, then an event `parse` with the whole Parse. Behind API Gateway the events arrive "
    "together when the parse ends (API Gateway buffers Lambda answers); use `background: true` and poll "
    "for long documents. A failure after the first page ends the stream with an event `error` "
    "({code, message})."
)


@router.post(
    "",
    status_code=201,
    response_model=Parse,
    summary="Parse a document",
    description=STREAM_DESCRIPTION,
    responses={201: {"content": {"text/event-stream": {}}}},
)
def create_parse(tenant: CurrentTenant, parses: Parses, body: ParseCreate) -> Parse | StreamingResponse:
    if body.background:
        return Parse.of(parses.submit(tenant, body.to_request()))
    if body.stream:
        events = parses.stream(tenant, body.to_request())
        first = next(events)  # a bad document fails here, before any byte of the answer is sent
        return StreamingResponse(_server_sent(first, events), status_code=201, media_type="text/event-stream")
    return PARSE.answer(parses, tenant, body)


def _server_sent(
    first: StreamedPage | ParseRecord, rest: Iterator[StreamedPage | ParseRecord]
) -> Iterator[str]:
    """The stream's events; a failure after the first page ends it with an `error` event
    ({code, message}), as the status line has already been sent."""
    item: StreamedPage | ParseRecord | None = first
    while item is not None:
        if isinstance(item, StreamedPage):
            yield f"event: page\ndata: {item.model_dump_json()}\n\n"
        else:
            yield f"event: parse\ndata: {Parse.of(item).model_dump_json()}\n\n"
        try:
            item = next(rest, None)
        except DomainError as error:
            failure = json.dumps({"code": error.code, "message": error.message})
            yield f"event: error\ndata: {failure}\n\n"
            return


@router.get("", response_model=ParseList, summary="List parses")
def list_parses(
    tenant: CurrentTenant,
    parses: Parses,
    page_parameters: Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))],
    filename: Annotated[str | None, Query(description="Filename prefix.", max_length=255)] = None,
    status: ParseStatus | None = None,
    include_output: Annotated[
        bool, Query(description="Carry each parse's output (pages and text); null otherwise.")
    ] = False,
) -> ParseList:
    query = ParseQuery(
        **page_parameters, filename=filename or None, status=status, include_output=include_output
    )
    page = parses.list(tenant, query)
    return ParseList(
        data=[Parse.of(record, with_output=include_output) for record in page.items],
        list_metadata=ListMetadata.of(page),
    )


@router.get("/{parse_id}", response_model=Parse, summary="Get a parse (poll a background parse here)")
def get_parse(tenant: CurrentTenant, parses: Parses, parse_id: str) -> Parse:
    return Parse.of(parses.get(tenant, parse_id))


@router.post("/{parse_id}/cancel", response_model=Parse, summary="Cancel a parse that has not finished")
def cancel_parse(tenant: CurrentTenant, parses: Parses, parse_id: str) -> Parse:
    return Parse.of(parses.cancel(tenant, parse_id))


@router.delete(
    "/{parse_id}", status_code=204, response_class=Response, summary="Delete a parse and its output"
)
def delete_parse(tenant: CurrentTenant, parses: Parses, parse_id: str) -> Response:
    parses.delete(tenant, parse_id)
    return Response(status_code=204)
