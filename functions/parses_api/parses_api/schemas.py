"""Response bodies of the /v1/parses lists; the Parse and its create body are the parse operation's
(docsvc.endpoints.parse)."""

from __future__ import annotations

from docsvc.endpoints.lists import ListMetadata
from docsvc.endpoints.parse import Parse
from pydantic import BaseModel


class ParseList(BaseModel):
    data: list[Parse]
    list_metadata: ListMetadata
