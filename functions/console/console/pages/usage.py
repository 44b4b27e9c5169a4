"""/usage: this environment's usage per day (GET /v1/usage's figures) as an SVG bar chart, stacked by
operation, with the same figures in a table; a date range (by default the last 30 days, at most the
API's 366) and one operation or all. The chart is drawn by a template from the numbers computed here."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Any, Literal

from docsvc.domain.usage import MAX_DAYS, OPERATIONS, UsageDay
from docsvc.errors import DomainError, InvalidField
from docsvc.services import usage_service
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from console.context import Console
from console.rendering import render

router = APIRouter(prefix="/console/{organization}/{environment}/usage")
Measure = Literal["pages", "credits", "operations"]
MEASURES: dict[str, str] = {"pages": "Pages", "credits": "Credits", "operations": "Operations"}

# The chart's frame, in SVG user units.
WIDTH, HEIGHT = 800, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 16, 64
X_LABELS = 10  # at most this many day labels under the bars


@dataclass(frozen=True)
class Segment:
    operation: str
    value: float
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Bar:
    day: str
    total: float
    segments: list[Segment]
    label_x: float
    labelled: bool


@dataclass(frozen=True)
class Tick:
    value: float
    y: float


@dataclass
class Chart:
    """Everything the SVG template draws: bars of stacked segments, the y axis' ticks, the frame."""

    measure: str
    operations: list[str]
    bars: list[Bar] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)
    totals: dict[str, float] = field(default_factory=dict)  # each day's height: the sum of its segments
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom: float = HEIGHT - BOTTOM
    right: float = WIDTH - RIGHT


def amount(day: UsageDay, operation: str, measure: str) -> float:
    share = day.by_operation.get(operation)
    return float(getattr(share, measure)) if share is not None else 0.0


def _step(top: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most 5 steps up to `top`."""
    raw = top / 5
    power: float = 10.0 ** math.floor(math.log10(raw))
    return next(power * factor for factor in (1, 2, 5, 10) if power * factor >= raw)


def chart(first: date, last: date, days: list[UsageDay], measure: str) -> Chart:
    """Bars for every day from `first` to `last` (a day without usage is an empty bar), each stacked by
    operation in the order of OPERATIONS, scaled to the frame."""
    by_day = {day.day: day for day in days}
    present = {operation for day in days for operation in day.by_operation}
    operations = [operation for operation in OPERATIONS if operation in present]
    dates = [(first + timedelta(days=offset)).isoformat() for offset in range((last - first).days + 1)]
    totals = {
        d: sum(amount(by_day[d], op, measure) for op in operations) if d in by_day else 0.0 for d in dates
    }
    peak = max(totals.values(), default=0.0)
    step = _step(peak) if peak > 0 else 1.0
    top = step * math.ceil(peak / step) if peak > 0 else step * 5
    result = Chart(measure=measure, operations=operations, totals=totals)
    plot_height = result.bottom - TOP
    slot = (result.right - LEFT) / len(dates)
    every = max(1, math.ceil(len(dates) / X_LABELS))
    for index, day in enumerate(dates):
        x = LEFT + index * slot + slot * 0.1
        base = result.bottom
        segments = []
        for operation in operations:
            value = amount(by_day[day], operation, measure) if day in by_day else 0.0
            if value <= 0:
                continue
            height = value / top * plot_height
            base -= height
            segments.append(
                Segment(operation, value, round(x, 2), round(base, 2), round(slot * 0.8, 2), round(height, 2))
            )
        labelled = index % every == 0
        result.bars.append(Bar(day, totals[day], segments, round(LEFT + (index + 0.5) * slot, 2), labelled))
    ticks = round(top / step)
    result.ticks = [
        Tick(step * n, round(result.bottom - step * n / top * plot_height, 2)) for n in range(ticks + 1)
    ]
    return result


def _day(name: str, value: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidField(("query", name), f"{name} is a day as YYYY-MM-DD, not '{value}'") from None


@router.get("", include_in_schema=False)
def usage_page(
    request: Request,
    console: Console,
    from_date: Annotated[str, Query(max_length=10)] = "",
    to_date: Annotated[str, Query(max_length=10)] = "",
    operation: Annotated[str, Query(max_length=100)] = "",
    measure: Annotated[Measure, Query()] = "pages",
) -> Response:
    form = {"from_date": from_date, "to_date": to_date, "operation": operation, "measure": measure}
    try:
        first, last, days = usage_service().days(
            console.tenant, _day("from_date", from_date), _day("to_date", to_date), operation or None
        )
    except DomainError as error:  # the form again, with the service's reason
        status = error.status_code
        page = "usage/usage.html"
        return render(
            request,
            page,
            console,
            status_code=status,
            error=error.message,
            chart=None,
            days=[],
            form=form,
            **_choices(),
        )
    form |= {"from_date": first.isoformat(), "to_date": last.isoformat()}
    ordered = sorted(days, key=lambda day: day.day)
    drawn = chart(first, last, ordered, measure)
    return render(
        request, "usage/usage.html", console, error=None, chart=drawn, days=ordered, form=form, **_choices()
    )


def _choices() -> dict[str, Any]:
    operation_options = [("", "All operations")] + [(operation, operation) for operation in OPERATIONS]
    return {
        "operation_options": operation_options,
        "measures": MEASURES,
        "max_days": MAX_DAYS,
        "amount": amount,
    }
