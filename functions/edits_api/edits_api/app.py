"""Edits: /v1/edits (forms filled from instructions) and /v1/edits/templates."""

from docsvc.api.app import create_app

from edits_api.routes import router

app = create_app("docsvc edits", [router])
