"""The answer of a form that worked: Post/Redirect/Get to a page that shows a sentence (`?notice=`)."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi.responses import RedirectResponse


def redirect_with_notice(url: str, notice: str) -> RedirectResponse:
    """A 303 to `url` (with or without a query of its own) with `notice` shown on it in a live region."""
    separator = "&" if "?" in url else "?"
    return RedirectResponse(f"{url}{separator}{urlencode({'notice': notice})}", status_code=303)
