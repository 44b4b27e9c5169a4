"""Response bodies of the /v1/parses lists; the Parse and its create body are shared resources."""

from __future__ import annotations

from docsvc.resources.lists import ListMetadata
from docsvc.resources.parses import Parse
from pydantic import BaseModel


class ParseList(BaseModel):
    data: list[Parse]
    list_metadata: ListMetadata
