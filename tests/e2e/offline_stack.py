"""`make dev`, in a process that can reach loopback only: for tests that send the service whatever a
generator makes up (URLs of documents to fetch, webhook receivers), so that nothing leaves the machine.

Every name but localhost fails to resolve without a query being sent, and a connection to any address
outside 127.0.0.0/8 and ::1 is refused, before the service's own checks run.

    python -m tests.e2e.offline_stack    (PORT and DOCSVC_STATE_FILE as for make dev)
"""

from __future__ import annotations

import ipaddress
import runpy
import socket
from typing import Any

_LOCAL_NAMES = {"localhost", "localhost.", "127.0.0.1", "::1"}
_getaddrinfo = socket.getaddrinfo
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(str(host).split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if host is not None and not _is_loopback(host):
        raise socket.gaierror(socket.EAI_NONAME, f"{host}: this test stack resolves loopback names only")
    return _getaddrinfo(host, *args, **kwargs)


def _refused(address: Any) -> bool:
    return isinstance(address, tuple) and not _is_loopback(address[0])


def connect(self: socket.socket, address: Any) -> None:
    if _refused(address):
        raise ConnectionRefusedError(f"{address[0]}: this test stack connects to loopback only")
    _connect(self, address)


def connect_ex(self: socket.socket, address: Any) -> int:
    if _refused(address):
        return 111  # ECONNREFUSED
    return _connect_ex(self, address)


def keep_to_loopback() -> None:
    socket.getaddrinfo = getaddrinfo
    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]


if __name__ == "__main__":
    keep_to_loopback()
    runpy.run_module("docsvc.local", run_name="__main__", alter_sys=True)
