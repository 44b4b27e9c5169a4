"""Starts the local stack exactly as a user does (`make dev`) and stops it with Ctrl-C (SIGINT)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from docsvc.local.stack import free_port

from tests.conftest import ROOT

READY = re.compile(r"docsvc local stack ready on (http://\S+)")
# `console user: <email> / <password>` is one field, split in two.
FIELDS = re.compile(
    r"^\s+(organization|test key|live key|console|console user):\s+(\S+(?: / \S+)?)\s*$", re.MULTILINE
)
START_SECONDS = 60


@dataclass
class RunningStack:
    url: str
    organization_id: str
    test_key: str
    live_key: str
    state_file: Path
    process: subprocess.Popen[str]
    output: list[str]
    reader: threading.Thread  # appends what the stack prints to `output`, so a full pipe never blocks it
    console_user: str = ""  # the email and password of the local organization's console admin
    console_password: str = ""


MAKE_DEV = ("make", "--no-print-directory", "dev")


def start_stack(state_file: Path, command: Sequence[str] = MAKE_DEV) -> RunningStack:
    """The stack as `command` starts it (`make dev` unless told otherwise), once it says it is ready."""
    port = free_port()
    environment = dict(os.environ, PORT=str(port), DOCSVC_STATE_FILE=str(state_file), PYTHONUNBUFFERED="1")
    environment.pop("AWS_ENDPOINT_URL", None)
    process = subprocess.Popen(
        list(command),
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    output: list[str] = []
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        output.append(line)
        if line.startswith("`.venv/bin/docsvc admin"):
            text = "".join(output)
            url = READY.search(text)
            fields = dict(FIELDS.findall(text))
            assert url is not None, text
            reader = threading.Thread(target=lambda: output.extend(process.stdout or ()), daemon=True)
            reader.start()
            console_user, console_password = fields["console user"].split(" / ")
            return RunningStack(
                url.group(1),
                fields["organization"],
                fields["test key"],
                fields["live key"],
                state_file,
                process,
                output,
                reader,
                console_user,
                console_password,
            )
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("the local stack did not start:\n" + "".join(output))


def stop_stack(stack: RunningStack) -> str:
    """Ctrl-C: SIGINT to the whole process group, as a terminal sends it; returns what was printed after."""
    printed_before = len(stack.output)
    os.killpg(stack.process.pid, signal.SIGINT)
    try:
        stack.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(stack.process.pid, signal.SIGUSR1)  # the stack prints where each of its threads is
        time.sleep(1)
        os.killpg(stack.process.pid, signal.SIGKILL)
        stack.reader.join(timeout=5)
        raise AssertionError(
            "the stack did not stop within 30 s of Ctrl-C:\n" + "".join(stack.output[printed_before:])
        ) from None
    stack.reader.join(timeout=5)  # it ends when the pipe closes, with the last lines read
    return "".join(stack.output[printed_before:])


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningStack]:
    running = start_stack(tmp_path_factory.mktemp("stack") / "local.json")
    yield running
    if running.process.poll() is None:
        stop_stack(running)
