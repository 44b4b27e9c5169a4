"""`make dev`: start the local stack, create an organization with a test key, a live key and an admin
of its web console, wait.

The terminal shows what a person needs: the URL, the keys, the console's URL and its admin's email and
password, a curl to try, then one line per request
(method, path, status, duration, request id: the `X-Request-Id` of its answer, to find its log lines) and
the functions' warnings and errors as JSON log lines. Metrics are not published locally (the stack sets
POWERTOOLS_METRICS_DISABLED), so no EMF lines reach it.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import signal
import sys
from types import FrameType

from docsvc.local.gateway import requests_log
from docsvc.local.stack import LocalStack, find_project_root


def print_requests() -> None:
    """One plain line per request on stdout, whatever level the functions log at."""
    console = logging.StreamHandler(sys.stdout)
    console.setFormatter(logging.Formatter("%(message)s"))
    requests_log.addHandler(console)
    requests_log.setLevel(logging.INFO)
    requests_log.propagate = False


class StopSignals:
    """Ctrl-C and SIGTERM, kept from the moment this is made until `wait` returns: one that comes while
    the stack starts stops it as soon as it is ready.

    The handler only writes a byte to a pipe. It takes no lock: Python runs a handler in the main thread
    between two of its steps, so a handler that set a `threading.Event` could run while the main thread
    held that event's own lock inside `Event.wait`, and wait for it forever (Ctrl-C then hung the stack)."""

    def __init__(self, signums: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> None:
        self._read, self._write = os.pipe()
        self._previous = {signum: signal.signal(signum, self._received) for signum in signums}

    def _received(self, signum: int, frame: FrameType | None) -> None:
        os.write(self._write, b"\0")

    def wait(self) -> None:
        os.read(self._read, 1)  # retried by Python when a signal interrupts it, after its handler ran

    def close(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        os.close(self._read)
        os.close(self._write)


LOCAL_CONSOLE_ADMIN = "admin@example.com"


def console_admin(organization_id: str) -> tuple[str, str]:
    """An admin of the organization's console with a generated password of their own (no first-sign-in
    step locally): their email and password."""
    import boto3

    from docsvc.config import settings
    from docsvc.domain.members import generate_temporary_password
    from docsvc.services import member_service

    member_service().invite(organization_id, LOCAL_CONSOLE_ADMIN, "admin", by="docsvc local")
    password = generate_temporary_password()
    boto3.client("cognito-idp").admin_set_user_password(
        UserPoolId=settings().user_pool_id, Username=LOCAL_CONSOLE_ADMIN, Password=password, Permanent=True
    )
    return LOCAL_CONSOLE_ADMIN, password


def main() -> int:
    stack = LocalStack(
        root=find_project_root(),
        port=int(os.environ.get("PORT", "3000")),
        log_level=os.environ.get("DOCSVC_LOG_LEVEL", "WARNING"),
    )
    stop_signals = StopSignals()
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 <pid>` prints where each thread of the stack is
    try:
        stack.start()
    except OSError as error:
        print(f"could not start the local stack: {error}", file=sys.stderr)
        return 1
    from docsvc.services import account_service

    accounts = account_service()
    organization = accounts.create_organization("local")
    test_key = accounts.create_key(organization.id, "test", name="local-test").key
    live_key = accounts.create_key(organization.id, "production", name="local-live").key
    email, password = console_admin(organization.id)
    print(
        f"docsvc local stack ready on {stack.url}\n"
        f"  organization: {organization.id}\n"
        f"  test key:     {test_key}\n"
        f"  live key:     {live_key}\n"
        f"  console:      {stack.url}/console\n"
        f"  console user: {email} / {password}\n"
        "\nTry:\n"
        f'  curl -s {stack.url}/v1/auth/status -H "Authorization: Bearer {test_key}"\n'
        f'  curl -s {stack.url}/v1/files -H "Authorization: Bearer {test_key}" -F file=@README.md\n'
        "\n`.venv/bin/docsvc admin ...` works on this stack while it runs. Ctrl-C stops everything.",
        flush=True,
    )
    print_requests()
    stop_signals.wait()
    stack.stop()
    print("docsvc local stack stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
