"""A stand-in for socket.getaddrinfo, so that no test of the URL guard looks up a real name."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import pytest


class FakeResolver:
    """Known names answer their addresses; every call is recorded."""

    def __init__(self) -> None:
        self.names: dict[str, list[str]] = {}
        self.calls: list[str] = []

    def __call__(self, host: str, port: int | str | None, *args: Any, **kwargs: Any) -> list[Any]:
        self.calls.append(host)
        if host not in self.names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        answers: list[Any] = []
        for text in self.names[host]:
            if ipaddress.ip_address(text).version == 4:
                answers.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (text, port)))
            else:
                answers.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (text, port, 0, 0)))
        return answers


def install(monkeypatch: pytest.MonkeyPatch) -> FakeResolver:
    fake = FakeResolver()
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake
