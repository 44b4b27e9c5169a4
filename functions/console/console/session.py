"""Who is signed in: the console's session cookie, checked on every request.

Replaced by the Cognito sign-in (sign_in.py): until a session is found this refuses every page.
"""

from __future__ import annotations

from fastapi import Request

from console.context import SignInRequired, Viewer


def signed_in_viewer(request: Request) -> Viewer:
    raise SignInRequired()
