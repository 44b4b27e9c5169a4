"""The local stack: an AWS emulator, the resources and functions of template.yaml, a gateway, pollers."""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsvc.local import STATE_FILE
from docsvc.local.functions import LocalFunction, functions_of
from docsvc.local.gateway import GatewayServer
from docsvc.local.pollers import QueuePoller, SchedulePoller
from docsvc.local.provision import Provisioner
from docsvc.local.template import load_template

REGION = "us-east-1"
ACCOUNT_ID = "123456789012"
# Deployment settings the local stack chooses: loopback webhook receivers are allowed here only.
LOCAL_PARAMETERS = {"AllowLoopbackWebhooks": "true", "Stage": "dev"}
LOCAL_ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "local",
    "AWS_SECRET_ACCESS_KEY": "local",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
}


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def find_project_root(start: Path | None = None) -> Path:
    for folder in [start or Path.cwd(), *(start or Path.cwd()).parents]:
        if (folder / "template.yaml").is_file():
            return folder
    raise FileNotFoundError("no template.yaml here or above: run from the docsvc checkout")


@dataclass
class LocalStack:
    root: Path
    port: int = 3000
    host: str = "127.0.0.1"
    log_level: str = "WARNING"
    functions: list[LocalFunction] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _moto: Any = None
    _gateway: GatewayServer | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def state_file(self) -> Path:
        return self.root / STATE_FILE

    def start(self) -> None:
        from moto.server import ThreadedMotoServer

        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        moto_port = free_port(self.host)
        self._moto = ThreadedMotoServer(ip_address=self.host, port=moto_port, verbose=False)
        self._moto.start()
        endpoint = f"http://{self.host}:{moto_port}"
        os.environ.update(
            LOCAL_ENVIRONMENT | {"AWS_ENDPOINT_URL": endpoint, "POWERTOOLS_LOG_LEVEL": self.log_level}
        )

        template = load_template(self.root / "template.yaml")
        provisioner = Provisioner(
            template,
            region=REGION,
            account_id=ACCOUNT_ID,
            parameters=LOCAL_PARAMETERS | {"LogLevel": self.log_level},
        )
        provisioned = provisioner.provision()
        self.functions = functions_of(template, provisioner.resolve)
        self.environment = _shared_environment(self.functions)
        os.environ.update(self.environment)
        _forget_cached_clients()

        self._gateway = GatewayServer(self.host, self.port, self.functions)
        self.port = self._gateway.server_address[1]
        self._spawn(threading.Thread(target=self._gateway.serve_forever, name="gateway", daemon=True))
        urls_by_arn = {
            arn: provisioned.refs[logical_id]
            for (logical_id, attribute), arn in provisioned.attributes.items()
            if attribute == "Arn"
        }
        for function in self.functions:
            for queue in function.queues:
                self._spawn(QueuePoller(function, queue, urls_by_arn[queue.queue_arn], REGION, self._stop))
            for schedule in function.schedules:
                self._spawn(SchedulePoller(function, schedule, self._stop))
        self._write_state(endpoint)

    def _spawn(self, thread: threading.Thread) -> None:
        self._threads.append(thread)
        thread.start()

    def _write_state(self, endpoint: str) -> None:
        state = {
            "pid": os.getpid(),
            "url": self.url,
            "endpoint_url": endpoint,
            "environment": LOCAL_ENVIRONMENT | self.environment | {"AWS_ENDPOINT_URL": endpoint},
        }
        self.state_file.parent.mkdir(exist_ok=True)
        temporary = self.state_file.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2))
        temporary.replace(self.state_file)

    def stop(self) -> None:
        self._stop.set()
        if self._gateway is not None:
            self._gateway.shutdown()
            self._gateway.server_close()
        for function in self.functions:
            function.shutdown()
        for thread in self._threads:
            thread.join(timeout=5)
        if self._moto is not None:
            self._moto.stop()
        if self.state_file.exists() and json.loads(self.state_file.read_text()).get("pid") == os.getpid():
            self.state_file.unlink()


def _shared_environment(functions: list[LocalFunction]) -> dict[str, str]:
    """All functions run in this one process, so they must agree on every variable they share."""
    merged: dict[str, str] = {}
    for function in functions:
        for name, value in function.environment.items():
            if merged.setdefault(name, value) != value:
                raise ValueError(f"functions disagree on {name}; the local stack shares one environment")
    return merged


def _forget_cached_clients() -> None:
    from docsvc import services
    from docsvc.adapters import aws
    from docsvc.config import settings

    aws.reset()
    settings.cache_clear()
    services.account_service.cache_clear()
    services.file_service.cache_clear()
