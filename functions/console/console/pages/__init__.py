"""The console's pages, one module a section; ROUTERS is what the application serves, in order."""

from __future__ import annotations

from fastapi import APIRouter

from console.pages import home, keys, members, sign_in

ROUTERS: list[APIRouter] = [home.router, sign_in.router, keys.router, members.router]
