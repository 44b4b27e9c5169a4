"""The local stack: an AWS emulator, the resources and functions of template.yaml, a gateway, pollers."""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsvc import services
from docsvc.adapters.functions import serve_locally
from docsvc.config import ConfigurationError, configuration_problems
from docsvc.local import state_path
from docsvc.local.emulator import adapt_emulator
from docsvc.local.functions import LocalFunction, functions_of
from docsvc.local.gateway import GatewayServer
from docsvc.local.pollers import QueuePoller, SchedulePoller, StreamPoller
from docsvc.local.provision import Provisioned, Provisioner
from docsvc.local.template import load_template

REGION = "us-east-1"
ACCOUNT_ID = "123456789012"
# Deployment settings the local stack chooses: loopback webhook receivers are allowed here only, and
# the console shows an invitee's temporary password to whoever invited them (no mail goes out here).
LOCAL_PARAMETERS = {"AllowLoopbackWebhooks": "true", "ShowTemporaryPasswords": "true", "Stage": "dev"}
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
        return state_path(self.root)

    def start(self) -> None:
        from moto.server import ThreadedMotoServer

        adapt_emulator()
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        moto_port = free_port(self.host)
        self._moto = ThreadedMotoServer(ip_address=self.host, port=moto_port, verbose=False)
        self._moto.start()
        endpoint = f"http://{self.host}:{moto_port}"
        os.environ.update(
            LOCAL_ENVIRONMENT | {"AWS_ENDPOINT_URL": endpoint, "POWERTOOLS_LOG_LEVEL": self.log_level}
        )

        deployment = deploy_template(self.root / "template.yaml", {"LogLevel": self.log_level})
        for function in deployment.functions:  # as each function checks them when it starts on Lambda
            problems = configuration_problems(function.environment)
            if problems:
                raise ConfigurationError(f"{function.logical_id}: " + "; ".join(problems))
        self.functions = deployment.functions
        self.environment = deployment.environment

        self._gateway = GatewayServer(self.host, self.port, self.functions)
        self.port = self._gateway.server_address[1]
        self._spawn(threading.Thread(target=self._gateway.serve_forever, name="gateway", daemon=True))
        for function in self.functions:
            for queue in function.queues:
                queue_url = deployment.queue_url(queue.queue_arn)
                self._spawn(QueuePoller(function, queue, queue_url, REGION, self._stop))
            for stream in function.streams:
                self._spawn(StreamPoller(function, stream, REGION, self._stop))
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
        deadline = time.monotonic() + 5  # pollers notice the stop within a second; none may hold Ctrl-C up
        for thread in self._threads:
            thread.join(timeout=max(deadline - time.monotonic(), 0))
        if self._moto is not None:
            self._moto.stop()
        if self.state_file.exists() and json.loads(self.state_file.read_text()).get("pid") == os.getpid():
            self.state_file.unlink()


@dataclass
class Deployment:
    functions: list[LocalFunction]
    environment: dict[str, str]
    provisioned: Provisioned
    # Stream pollers the tests drive by hand, by function logical id: kept so that each drain goes on
    # from where the last one stopped instead of replaying the stream (see tests/conftest.py).
    stream_pollers: dict[str, list[StreamPoller]] = field(default_factory=dict)

    def queue_url(self, queue_arn: str) -> str:
        for (logical_id, attribute), value in self.provisioned.attributes.items():
            if attribute == "Arn" and value == queue_arn:
                return self.provisioned.refs[logical_id]
        raise KeyError(f"no queue {queue_arn} in the template")

    def function(self, logical_id: str) -> LocalFunction:
        return next(function for function in self.functions if function.logical_id == logical_id)


def deploy_template(template_path: Path, parameters: dict[str, str] | None = None) -> Deployment:
    """Create the template's resources at the current AWS endpoint (the emulator, or moto's mock) and
    give this process the environment its functions get. Used by the local stack and by the tests."""
    template = load_template(template_path)
    provisioner = Provisioner(
        template, region=REGION, account_id=ACCOUNT_ID, parameters=LOCAL_PARAMETERS | (parameters or {})
    )
    provisioned = provisioner.provision()
    functions = functions_of(template, provisioner.resolve)
    serve_locally({function.logical_id: function.invoke for function in functions})
    environment = _shared_environment(functions)
    os.environ.update(environment)
    services.reset()
    return Deployment(functions, environment, provisioned)


def _shared_environment(functions: list[LocalFunction]) -> dict[str, str]:
    """All functions run in this one process, so they must agree on every variable they share."""
    merged: dict[str, str] = {}
    for function in functions:
        for name, value in function.environment.items():
            if merged.setdefault(name, value) != value:
                raise ValueError(f"functions disagree on {name}; the local stack shares one environment")
    return merged
