"""What every list of the API shares: cursors, order, date bounds, and a page with its neighbours."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from docsvc.errors import InvalidField

Order = Literal["asc", "desc"]


class HasId(Protocol):
    @property
    def id(self) -> str: ...


Item = TypeVar("Item", bound=HasId)


class ListQuery(BaseModel):
    limit: int = 10
    order: Order = "desc"
    before: str | None = None
    after: str | None = None
    from_date: datetime | None = None
    to_date: datetime | None = None

    def check(self) -> None:
        """The rules a schema cannot express; 422 naming the parameter."""
        if self.before and self.after:
            raise InvalidField(("query", "before"), "pass either 'before' or 'after', not both")
        if self.from_date and self.to_date and self.from_date > self.to_date:
            raise InvalidField(("query", "from_date"), "from_date is after to_date")


@dataclass
class Page(Generic[Item]):
    """One page of a list, in the requested order, and whether pages exist on either side of it."""

    items: list[Item]
    has_previous: bool
    has_next: bool

    @property
    def before(self) -> str | None:
        return self.items[0].id if self.items and self.has_previous else None

    @property
    def after(self) -> str | None:
        return self.items[-1].id if self.items and self.has_next else None
