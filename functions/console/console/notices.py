"""The answer of a form that worked: Post/Redirect/Get to a page that shows a sentence (`?notice=`)."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi.responses import RedirectResponse


def redirect_with_notice(path: str, notice: str) -> RedirectResponse:
    """A 303 to `path` (no query of its own) with `notice` shown on it in a live region."""
    return RedirectResponse(f"{path}?{urlencode({'notice': notice})}", status_code=303)
