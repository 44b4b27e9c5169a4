"""Files: the list (filters, pages of 25), uploads (direct, or through an upload session with the
browser's progress), deletion, and a file's pages as pictures drawn by the service, with the text of a
parse of the file beside each page and the source boxes of an extraction of it drawn over the page.

A parse or an extraction is shown on a file's page only when it is of that file: another file's, like
another environment's, answers 404. Neither service lists its records by file (their keys are by id),
so a parse or an extraction is chosen by its id; "Parse this file" starts a background parse.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from docsvc.api.params import date_bound
from docsvc.document_types import MIME_TYPES
from docsvc.domain.documents import FileRef
from docsvc.domain.files import MAX_DIRECT_UPLOAD_BYTES, FileQuery, FileRecord
from docsvc.domain.intelligence import ResultRecord
from docsvc.domain.parses import ParseRecord, ParseRequest
from docsvc.errors import InvalidField, NotFound
from docsvc.intelligence.page_tables import pipe_table_rows
from docsvc.services import file_service, intelligence_service, page_pictures, parse_service
from fastapi import APIRouter, Depends, Form, Query, Request, UploadFile
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from console.context import Console
from console.forms import checked_form
from console.notices import redirect_with_notice
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/files")
PAGE_SIZE = 25
# Kept by the browser but asked again each time (a 304 by its ETag when unchanged): a document's picture
# must not stay readable in the disk cache of a shared computer after its member signs out.
PICTURE_CACHE = "private, no-cache"
TYPES = sorted({(mime, name) for name, mime in MIME_TYPES.items()}, key=lambda pair: pair[0])


@router.get("", include_in_schema=False)
def list_files(
    request: Request,
    console: Console,
    name: Annotated[str | None, Query(max_length=255)] = None,
    mime_type: Annotated[str | None, Query(max_length=255)] = None,
    from_date: str | None = None,
    to_date: str | None = None,
    after: str | None = None,
) -> Response:
    query = FileQuery(
        limit=PAGE_SIZE,
        after=after or None,
        # A name is looked up in the index of names (a key range, however many files the environment
        # holds), so those files come in name order; without one, newest first.
        sort_by="filename" if name else "created_at",
        filename=name or None,
        mime_type=mime_type or None,
        from_date=_date("Created from", "from_date", from_date, end_of_day=False),
        to_date=_date("Created until", "to_date", to_date, end_of_day=True),
    )
    page = file_service().list(console.tenant, query)
    types = [("", "Any type")] + [(mime, mime) for mime in dict(TYPES)]
    return render(
        request,
        "files/list.html",
        console,
        files=page.items,
        cursor=page.after,
        filters={
            "name": name or "",
            "mime_type": mime_type or "",
            "from_date": from_date or "",
            "to_date": to_date or "",
        },
        types=types,
        direct_limit=MAX_DIRECT_UPLOAD_BYTES,
    )


def _date(label: str, name: str, value: str | None, *, end_of_day: bool) -> datetime | None:
    """A date filter as the API reads it; its problem named by the filter's label."""
    try:
        return date_bound(name, value, end_of_day=end_of_day)
    except InvalidField as problem:
        raise InvalidField(problem.location, f"{label}: {problem.message}") from None


@router.post("", include_in_schema=False, dependencies=[Depends(checked_form)])
async def upload(console: Console, file: UploadFile) -> Response:
    """The plain form's upload (and the script's, for a file up to the direct limit)."""
    content = await file.read(MAX_DIRECT_UPLOAD_BYTES + 1)
    record = file_service().upload(console.tenant, file.filename or "", content)
    return _to_file(console, record, f"Uploaded {record.filename}.")


class UploadStarted(BaseModel):
    file_id: str
    upload_url: str
    upload_headers: dict[str, str]
    complete_url: str


@router.post("/uploads", include_in_schema=False, dependencies=[Depends(checked_form)])
def start_upload(
    console: Console,
    filename: Annotated[str, Form(min_length=1, max_length=1024)],
    size_bytes: Annotated[int, Form(gt=0)],
    content_type: Annotated[str | None, Form(max_length=255)] = None,
) -> Response:
    """The script's upload session for a file over the direct limit: the browser PUTs the bytes to the
    presigned URL, then posts to `complete_url`. Answers JSON: the script is the only caller."""
    session, url = file_service().start_upload(
        console.tenant, filename, size_bytes, content_type or None, None
    )
    started = UploadStarted(
        file_id=session.file_id,
        upload_url=url,
        upload_headers={"Content-Type": session.content_type or "application/octet-stream"},
        complete_url=f"{console.base}/files/uploads/{session.file_id}/complete",
    )
    return JSONResponse(started.model_dump(), status_code=201)


@router.post("/uploads/{file_id}/complete", include_in_schema=False, dependencies=[Depends(checked_form)])
def complete_upload(console: Console, file_id: str) -> Response:
    record = file_service().complete_upload(console.tenant, file_id)
    return _to_file(console, record, f"Uploaded {record.filename}.")


@router.post("/{file_id}/delete", include_in_schema=False, dependencies=[Depends(checked_form)])
def delete(console: Console, file_id: str) -> Response:
    files = file_service()
    record = files.get(console.tenant, file_id)
    files.delete(console.tenant, file_id)
    return redirect_with_notice(f"{console.base}/files", f"Deleted {record.filename}.")


@router.post("/{file_id}/parse", include_in_schema=False, dependencies=[Depends(checked_form)])
def parse(console: Console, file_id: str) -> Response:
    """A background parse of the file with the default model, as POST /v1/parses with background."""
    file_service().get(console.tenant, file_id)
    record = parse_service("by_reader_function").submit(
        console.tenant, ParseRequest(document=FileRef(id=file_id))
    )
    return redirect_with_notice(
        f"{console.base}/files/{file_id}?parse={record.id}", f"Parse {record.id} started: {record.status}."
    )


@router.get("/{file_id}", include_in_schema=False)
def file_page(
    request: Request,
    console: Console,
    file_id: str,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    parse: Annotated[str | None, Query(max_length=64)] = None,
    extraction: Annotated[str | None, Query(max_length=64)] = None,
) -> Response:
    file = file_service().get(console.tenant, file_id)
    pictures = page_pictures()
    parsed = _parse_of(console, file, parse) if parse else None
    extracted = _extraction_of(console, file, extraction) if extraction else None
    page_count = _page_count(file, parsed, extracted)
    if page_count is not None and page > max(page_count, 1):
        raise NotFound(f"'{file.filename}' has no page {page}")
    text: list[Block] | None = None
    if parsed is not None and parsed.status == "completed":
        text = page_text(parsed, page)
    fields = extraction_fields(extracted) if extracted is not None else []
    return render(
        request,
        "files/file.html",
        console,
        file=file,
        page=page,
        page_count=page_count,
        has_pictures=pictures.has_pictures(file),
        pages=_page_links(page, page_count),
        parse=parsed,
        text=text,
        extraction=extracted,
        fields=fields,
        boxes=page_boxes(fields, page),
        shown={"parse": parse or "", "extraction": extraction or ""},
        view_query={name: value for name, value in (("parse", parse), ("extraction", extraction)) if value},
        scale=SCALE,
    )


@router.get("/{file_id}/pages/{number}.jpg", include_in_schema=False)
def page_picture(request: Request, console: Console, file_id: str, number: int) -> Response:
    """Page `number` drawn by the document reader function; kept by the browser for an hour, and
    answered 304 while its tag (the file's bytes, the page) is the one the browser has."""
    pictures = page_pictures()
    file = pictures.page(console.tenant, file_id, number)
    tag = pictures.etag(file, number)
    headers = {"cache-control": PICTURE_CACHE, "etag": tag}
    if tag in (request.headers.get("if-none-match") or "").split(", "):
        return Response(status_code=304, headers=headers)
    picture = pictures.draw(console.tenant, file, number)
    return Response(picture.jpeg, media_type="image/jpeg", headers=headers)


def _parse_of(console: Console, file: FileRecord, parse_id: str) -> ParseRecord:
    record = parse_service("by_reader_function").get(console.tenant, parse_id)
    if record.file.id != file.id:
        raise NotFound(f"no parse '{parse_id}' of this file")
    return record


def _extraction_of(console: Console, file: FileRecord, extraction_id: str) -> ResultRecord:
    record = intelligence_service("by_reader_function").get(console.tenant, "extraction", extraction_id)
    if record.file.id != file.id:
        raise NotFound(f"no extraction '{extraction_id}' of this file")
    return record


def _page_count(file: FileRecord, parse: ParseRecord | None, extraction: ResultRecord | None) -> int | None:
    """The file's page count once inspected; until then, what a completed parse or an extraction of it
    counted; None when nothing has counted them yet."""
    if file.page_count is not None:
        return file.page_count
    if parse is not None and parse.status == "completed":
        return parse.usage.page_count
    return extraction.usage.page_count if extraction is not None else None


def _page_links(page: int, page_count: int | None) -> list[int]:
    """The pages to link to around `page`: the first, two either side, the last (when known)."""
    last = page_count if page_count is not None else page + 1
    near = range(max(1, page - 2), min(last, page + 2) + 1)
    return sorted({1, *near, last})


def _to_file(console: Console, record: FileRecord, notice: str) -> Response:
    return redirect_with_notice(f"{console.base}/files/{record.id}", notice)


# ---------------------------------------------------------------------------------------------- page text
@dataclass(frozen=True)
class Block:
    """A piece of a page's parsed text: a paragraph, or a table (its first row the header)."""

    kind: Literal["text", "table"]
    text: str = ""
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


def page_text(parse: ParseRecord, page: int) -> list[Block] | None:
    """The parse's text of `page` as paragraphs and tables (markdown pipe tables); None past its pages."""
    if not 1 <= page <= len(parse.output.pages):
        return None
    blocks: list[Block] = []
    lines: list[str] = []
    table: list[str] = []

    def flush_text() -> None:
        text = "\n".join(lines).strip()
        if text:
            blocks.extend(Block("text", part.strip()) for part in text.split("\n\n") if part.strip())
        lines.clear()

    def flush_table() -> None:
        if table:
            header, *rows = pipe_table_rows(table)
            blocks.append(Block("table", header=header, rows=tuple(rows)))
            table.clear()

    for line in parse.output.pages[page - 1].splitlines():
        stripped = line.strip()
        if (
            parse.table_parsing_format == "markdown"
            and len(stripped) > 1
            and stripped[0] == stripped[-1] == "|"
        ):
            flush_text()
            table.append(stripped)
        else:
            flush_table()
            lines.append(line)
    flush_table()
    flush_text()
    return blocks


# ---------------------------------------------------------------------------------- extraction sources
SCALE = 1000  # the overlay's viewBox: the page as 1000 x 1000 units (sources are fractions of the page)


@dataclass(frozen=True)
class SourcedField:
    """A value of an extraction, numbered, with where it was read (1-based page; box in overlay units)."""

    number: int
    path: str
    value: str
    page: int | None
    box: tuple[float, float, float, float] | None  # x, y, width, height


def extraction_fields(record: ResultRecord) -> list[SourcedField]:
    """Every leaf value of the extraction in the order of its output, with its source when it has one."""
    leaves: list[tuple[str, Any, Any]] = []
    _leaves(
        record.sources if record.sources is not None else record.output,
        "",
        leaves,
        record.sources is not None,
    )
    fields = []
    for number, (path, value, source) in enumerate(leaves, start=1):
        anchor = (source or {}).get("anchor") or {}
        page = anchor.get("page") if isinstance(anchor.get("page"), int) else None
        box = None
        if anchor.get("kind") == "pdf_bbox":
            box = tuple(round(float(anchor[name]) * SCALE, 1) for name in ("left", "top", "width", "height"))
        shown = value if isinstance(value, str) else "" if value is None else json.dumps(value)
        fields.append(SourcedField(number, path, shown, page, box))  # type: ignore[arg-type]
    return fields


def _leaves(node: Any, path: str, into: list[tuple[str, Any, Any]], sourced: bool) -> None:
    if sourced and isinstance(node, dict) and set(node) == {"value", "source", "likelihood"}:
        into.append((path, node["value"], node["source"]))
    elif isinstance(node, dict):
        for key, child in node.items():
            _leaves(child, f"{path}.{key}" if path else str(key), into, sourced)
    elif isinstance(node, list):
        for index, child in enumerate(node):
            _leaves(child, f"{path}[{index}]", into, sourced)
    else:
        into.append((path, node, None))


def page_boxes(fields: list[SourcedField], page: int) -> list[SourcedField]:
    return [field for field in fields if field.page == page and field.box is not None]
