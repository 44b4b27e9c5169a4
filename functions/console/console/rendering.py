"""Pages as HTML: Jinja2 templates (autoescaped) in templates/, one layout (base.html) for every page.

The layout shows the environment switch, the organization, the sections and the signed-in member; a page
template extends it and fills `content`. Values reach templates escaped; nothing is marked safe but the
SVG the pages draw themselves from numbers.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from console.context import ConsoleContext
from console.forms import csrf_token

TEMPLATES = Path(__file__).parent / "templates"

# The sections of an environment, in the order of the navigation: (path segment, label, admins only).
SECTIONS: tuple[tuple[str, str, bool], ...] = (
    ("files", "Files", False),
    ("parses", "Parses", False),
    ("extractions", "Extractions", False),
    ("jobs", "Jobs", False),
    ("workflows", "Workflows", False),
    ("secrets", "Secrets", False),
    ("tables", "Lookup tables", False),
    ("webhooks", "Webhooks", False),
    ("usage", "Usage", False),
    ("keys", "API keys", True),
    ("members", "Members", True),
)


def _when(value: Any) -> str:
    """An ISO time or datetime as `2026-11-26 08:34 UTC` (what the API answers is UTC)."""
    if value in (None, ""):
        return ""
    moment = (
        value if isinstance(value, datetime) else datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    )
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _size(value: Any) -> str:
    if value is None:
        return ""
    size = float(value)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    return ""


def _query_with(params: Any, name: str, value: str) -> str:
    """The query string of `params` with `name` set to `value` (for paging links)."""
    pairs = [(k, v) for k, v in params.multi_items() if k != name] + [(name, value)]
    return urlencode(pairs)


def _query_without(params: Any, name: str) -> str:
    return urlencode([(k, v) for k, v in params.multi_items() if k != name])


def switch_environment(request: Request, context: ConsoleContext, environment: str) -> str:
    """The same section in the other environment (an object's page goes to its section's list: its id
    is not the other environment's)."""
    parts = request.url.path.split("/")  # '', 'console', org, env, section, ...
    section = parts[4] if len(parts) > 4 and parts[4] else "files"
    return f"/console/{context.tenant.organization_id}/{environment}/{section}"


def _environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["when"] = _when
    environment.filters["size"] = _size
    environment.filters["query_with"] = _query_with
    environment.filters["query_without"] = _query_without
    environment.globals["SECTIONS"] = SECTIONS
    environment.globals["switch_environment"] = switch_environment
    environment.globals["csrf_token"] = csrf_token  # every page's sign-out form, in a tenant or not
    return environment


templates = _environment()


def render(
    request: Request,
    template: str,
    context: ConsoleContext | None = None,
    *,
    status_code: int = 200,
    **values: Any,
) -> HTMLResponse:
    """The page `template` with the layout's values (`request`, `console` — None outside a tenant —,
    `section`, `notice`) and the page's own."""
    values.setdefault("section", _section(request))
    values.setdefault("notice", request.query_params.get("notice"))
    html = templates.get_template(template).render(request=request, console=context, **values)
    return HTMLResponse(html, status_code=status_code)


def _section(request: Request) -> str:
    parts = request.url.path.split("/")
    return parts[4] if len(parts) > 4 else ""
