"""Response bodies of the /v1/parses lists; the Parse and its create body are shared resources."""

from __future__ import annotations

from docsvc.resources.parses import Parse
from pydantic import BaseModel


class ListMetadata(BaseModel):
    before: str | None
    after: str | None


class ParseList(BaseModel):
    data: list[Parse]
    list_metadata: ListMetadata
