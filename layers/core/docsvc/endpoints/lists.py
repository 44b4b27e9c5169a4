"""The metadata every `{data, list_metadata}` list of the API answers (spec 2.2)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from docsvc.domain.lists import Page


class ListMetadata(BaseModel):
    before: str | None
    after: str | None

    @classmethod
    def of(cls, page: Page[Any]) -> ListMetadata:
        """The cursors of the pages either side of `page`; null where there is none."""
        return cls(before=page.before, after=page.after)
