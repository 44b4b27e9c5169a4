"""/extractions: the environment's results as GET /v1/extractions (and /v1/classifications, /v1/splits,
/v1/partitions: one store, a kind to choose) list them, and a result's page: its values as a table
(field, value, page, confidence, the words it was read from) and a link to the viewer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, get_args

from docsvc.domain.intelligence import ID_PREFIX, IntelligenceService, ResultKind, ResultRecord
from docsvc.domain.lists import ListQuery
from docsvc.errors import NotFound
from docsvc.services import intelligence_service
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from console.context import Console
from console.listing import chosen, page_query
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/extractions")
KINDS: tuple[str, ...] = get_args(ResultKind)
KIND_NAMES = {
    "extraction": "Extractions",
    "classification": "Classifications",
    "split": "Splits",
    "partition": "Partitions",
}
VALUE_CHARACTERS = 2_000  # of one value in the table


def intelligence() -> IntelligenceService:
    """The console reads results; it never reads a document, so it has no documents layer."""
    return intelligence_service("by_reader_function")


Intelligence = Annotated[IntelligenceService, Depends(intelligence)]


@dataclass(frozen=True)
class Value:
    """One row of a result's table: a leaf of its output."""

    field: str
    value: str
    page: int | None
    confidence: float | None
    source: str | None


@router.get("", include_in_schema=False)
def list_results(
    request: Request,
    console: Console,
    service: Intelligence,
    kind: str = "",
    from_date: str = "",
    to_date: str = "",
    after: str = "",
) -> Response:
    chosen_kind: Any = chosen("kind", kind, KINDS) or "extraction"
    page = service.list(console.tenant, chosen_kind, ListQuery(**page_query(after, from_date, to_date)))
    return render(
        request,
        "extractions/list.html",
        console,
        results=page.items,
        cursor=page.after,
        kind=chosen_kind,
        kind_options=list(KIND_NAMES.items()),
        filters={"from_date": from_date, "to_date": to_date},
        heading=KIND_NAMES[chosen_kind],
    )


@router.get("/{result_id}", include_in_schema=False)
def show_result(request: Request, console: Console, service: Intelligence, result_id: str) -> Response:
    record = service.get(console.tenant, kind_of(result_id), result_id)
    return render(
        request,
        "extractions/detail.html",
        console,
        result=record,
        values=values_of(record),
        heading=KIND_NAMES[record.object][:-1],
    )


def kind_of(result_id: str) -> Any:
    """The kind of result an id names, by its prefix (`extr_...`); an id of none is not found."""
    prefix = result_id.split("_", 1)[0]
    for kind, known in ID_PREFIX.items():
        if prefix == known:
            return kind
    raise NotFound(f"no result '{result_id}'")


def values_of(record: ResultRecord) -> list[Value]:
    """Every leaf of the output in order, as a dotted field path (list items by index), with the page
    and words it was read from when the result kept its sources, and its likelihood when it has one."""
    if isinstance(record.sources, dict):
        return list(_sourced(record.sources, ()))
    return list(_plain(record.output, (), None, record.likelihoods or {}))


def _sourced(node: Any, path: tuple[str, ...]) -> Any:
    if isinstance(node, dict) and set(node) == {"value", "source", "likelihood"}:
        source = node["source"] if isinstance(node["source"], dict) else {}
        anchor = source.get("anchor") if isinstance(source.get("anchor"), dict) else {}
        yield Value(
            ".".join(path),
            _text(node["value"]),
            anchor.get("page") if anchor else None,
            node["likelihood"],
            source.get("content"),
        )
    elif isinstance(node, dict):
        for key, child in node.items():
            yield from _sourced(child, (*path, str(key)))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _sourced(child, (*path, str(index)))
    else:
        yield Value(".".join(path), _text(node), None, None, None)


def _plain(node: Any, path: tuple[str, ...], array: str | None, likelihoods: dict[str, float]) -> Any:
    """A leaf takes the likelihood of its dotted path, or of its array (as the API computes them)."""
    if isinstance(node, dict) and node:
        for key, child in node.items():
            yield from _plain(child, (*path, str(key)), array, likelihoods)
    elif isinstance(node, list) and node:
        name = array or ".".join(path)
        for index, child in enumerate(node):
            yield from _plain(child, (*path, str(index)), name, likelihoods)
    else:
        dotted = ".".join(path) or "output"
        yield Value(dotted, _text(node), None, likelihoods.get(array or dotted), None)


def _text(value: Any) -> str:
    text = "" if value is None else value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= VALUE_CHARACTERS else text[:VALUE_CHARACTERS] + "…"
