"""A real browser for the console's tests: the system's Chromium driven by Playwright, axe-core's checks,
a keyboard walk, and screenshots for docs/console/.

Chromium is `DOCSVC_CHROMIUM`, else `chromium` or `chromium-browser` on the PATH (`make browser` installs
Debian's). Without one the browser tests are skipped, unless DOCSVC_REQUIRE_BROWSER is set (CI), where
they fail. Screenshots are written only when DOCSVC_SCREENSHOTS names a folder (`make screenshots`).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SERIOUS = {"serious", "critical"}


def chromium() -> str | None:
    named = os.environ.get("DOCSVC_CHROMIUM")
    if named:
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser")


def require_chromium() -> str:
    found = chromium()
    if found is None:
        if os.environ.get("DOCSVC_REQUIRE_BROWSER"):
            pytest.fail("no Chromium to run the browser tests: make browser (or set DOCSVC_CHROMIUM)")
        pytest.skip("no Chromium: make browser installs it")
    return found


def launched_browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = require_chromium()
    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def serious_violations(page: Any) -> list[str]:
    """axe-core's violations of impact serious or critical on the page as it is now, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    problems = []
    for violation in results.response["violations"]:
        if violation.get("impact") in SERIOUS:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:3]]
            problems.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    return problems


# What a keyboard can reach: links, buttons and form controls that are shown and enabled.
_CONTROLS = """() => Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]'))
  .filter(e => !e.disabled && e.tabIndex >= 0 && e.offsetParent !== null)
  .map((e, i) => { e.dataset.walk = String(i); return i; }).length"""


def unreachable_by_keyboard(page: Any, limit: int = 400) -> list[str]:
    """The visible controls that pressing Tab from the top of the page never focuses."""
    total = page.evaluate(_CONTROLS)
    reached: set[str] = set()
    page.locator("body").focus()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(min(limit, total * 2 + 5)):
        page.keyboard.press("Tab")
        mark = page.evaluate("() => document.activeElement && document.activeElement.dataset.walk")
        if mark is not None:
            reached.add(mark)
        if len(reached) == total:
            break
    missing = page.evaluate(
        """(reached) => Array.from(document.querySelectorAll('[data-walk]'))
             .filter(e => !reached.includes(e.dataset.walk))
             .map(e => e.outerHTML.slice(0, 120))""",
        sorted(reached),
    )
    return list(missing)


def screenshot(page: Any, name: str) -> None:
    """docs/console/<name>.png when DOCSVC_SCREENSHOTS names the folder to write them to."""
    folder = os.environ.get("DOCSVC_SCREENSHOTS")
    if not folder:
        return
    if not re.fullmatch(r"[a-z0-9-]+", name):
        raise ValueError(f"screenshot names are lower-case words with dashes: {name!r}")
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
