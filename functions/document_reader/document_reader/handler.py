"""A ReadRequest from an API function in, its ReadAnswer out (a FormRequest, its FormAnswer; a
PictureRequest, its PictureAnswer): the engine of the documents layer, so the API functions need not
carry it."""

from __future__ import annotations

from typing import Any

from docsvc.documents.reader_messages import FormRequest, PictureRequest, ReadRequest
from docsvc.observability import observability
from docsvc.services import document_reads

tools = observability("document-reader")


@tools.logger.inject_lambda_context
@tools.traced
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    if event.get("task") == "draw_page":
        return document_reads().picture(PictureRequest.model_validate(event)).model_dump(mode="json")
    if "task" in event:
        return document_reads().form(FormRequest.model_validate(event)).model_dump(mode="json")
    return document_reads().answer(ReadRequest.model_validate(event)).model_dump(mode="json")
