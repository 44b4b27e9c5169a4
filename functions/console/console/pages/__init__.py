"""The console's pages, one module a section; ROUTERS is what the application serves, in order."""

from __future__ import annotations

from fastapi import APIRouter

from console.pages import home, secrets, tables, usage, webhooks

ROUTERS: list[APIRouter] = [home.router, secrets.router, tables.router, webhooks.router, usage.router]
