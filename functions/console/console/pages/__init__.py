"""The console's pages, one module a section; ROUTERS is what the application serves, in order."""

from __future__ import annotations

from fastapi import APIRouter

from console.pages import (
    extractions,
    files,
    home,
    jobs,
    keys,
    members,
    parses,
    secrets,
    sign_in,
    tables,
    usage,
    webhooks,
    workflows,
)

ROUTERS: list[APIRouter] = [
    home.router,
    sign_in.router,
    files.router,
    parses.router,
    extractions.router,
    jobs.router,
    workflows.router,
    secrets.router,
    tables.router,
    webhooks.router,
    usage.router,
    keys.router,
    members.router,
]
