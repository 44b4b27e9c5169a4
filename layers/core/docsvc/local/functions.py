"""The functions of template.yaml, loaded in this process the way Lambda would load them."""

from __future__ import annotations

import asyncio
import importlib
import json
import queue
import re
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from docsvc.local.template import Resolver

Handler = Callable[[dict[str, Any], Any], Any]


@dataclass(frozen=True)
class Route:
    method: str  # upper case, or ANY
    path: str  # as in the template: /v1/files/{file_id} or /v1/files/{proxy+}

    @property
    def route_key(self) -> str:
        return f"{self.method} {self.path}"

    def pattern(self) -> re.Pattern[str]:
        parts = []
        for segment in self.path.strip("/").split("/"):
            if segment.startswith("{") and segment.endswith("+}"):
                parts.append(f"(?P<{segment[1:-2]}>.+)")
            elif segment.startswith("{") and segment.endswith("}"):
                parts.append(f"(?P<{segment[1:-1]}>[^/]+)")
            else:
                parts.append(re.escape(segment))
        return re.compile("^/" + "/".join(parts) + "$")


@dataclass(frozen=True)
class QueueTrigger:
    queue_arn: str
    batch_size: int
    reports_failures: bool


@dataclass(frozen=True)
class StreamTrigger:
    """A DynamoDB event source: the function reads a table's stream, shard by shard, in order.

    `starting_position` is TRIM_HORIZON or LATEST. `maximum_retry_attempts` is None for Lambda's
    default of retrying a failing batch until its records expire (locally: for ever).
    `event_names` is the set of eventName values (INSERT, MODIFY, REMOVE) the FilterCriteria let
    through, or None for all records. Only the `eventName` key of a filter pattern is read, and only
    as a list of plain strings: other keys (content filters on `dynamodb.NewImage` and the like) are
    ignored locally, so such a function may see more records here than on AWS. Several filters pass
    a record that any of them passes, as on AWS. BisectBatchOnFunctionError, MaximumRecordAgeInSeconds,
    ParallelizationFactor and destinations are not emulated.
    """

    stream_arn: str
    starting_position: str
    batch_size: int = 100
    reports_failures: bool = False
    event_names: frozenset[str] | None = None
    maximum_retry_attempts: int | None = None


@dataclass(frozen=True)
class ScheduleTrigger:
    seconds: int
    name: str


@dataclass
class LocalFunction:
    logical_id: str
    handler_path: str
    timeout: int
    memory: int
    environment: dict[str, str]
    routes: list[Route] = field(default_factory=list)
    queues: list[QueueTrigger] = field(default_factory=list)
    streams: list[StreamTrigger] = field(default_factory=list)
    schedules: list[ScheduleTrigger] = field(default_factory=list)
    _handler: Handler | None = None
    _executor: WarmInstances | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def load(self) -> Handler:
        with self._lock:
            if self._handler is None:
                module_name, _, attribute = self.handler_path.rpartition(".")
                self._handler = getattr(importlib.import_module(module_name), attribute)
            if self._executor is None:
                # Threads stand for warm instances; each keeps its own event loop (Mangum needs one).
                self._executor = WarmInstances(self.logical_id, WARM_INSTANCES)
            return self._handler

    def invoke(self, event: dict[str, Any], *, timeout: float | None = None) -> Any:
        """Runs the handler with a Lambda-like context; raises TimeoutError past the function's timeout."""
        handler = self.load()
        assert self._executor is not None
        context = LambdaContext(self, timeout or self.timeout)
        future = self._executor.submit(handler, event, context)
        return future.result(timeout=timeout or self.timeout)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()


WARM_INSTANCES = 4
_Work = tuple[Handler, dict[str, Any], Any, "Future[Any]"]


class WarmInstances:
    """Threads standing for a function's warm instances, each with its own event loop (Mangum needs
    one). They are daemon threads: an invocation that never returns (its caller timed out long ago)
    cannot hold the process open at exit, as a ThreadPoolExecutor's threads would. Idle threads end
    when the function is shut down or forgotten."""

    def __init__(self, name: str, size: int) -> None:
        self._work: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        for index in range(size):
            threading.Thread(target=_serve, args=(self._work,), name=f"{name}_{index}", daemon=True).start()
        self._stop = weakref.finalize(self, _stop, self._work, size)

    def submit(self, handler: Handler, event: dict[str, Any], context: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self._work.put((handler, event, context, future))
        return future

    def shutdown(self) -> None:
        self._stop()


def _stop(work: queue.SimpleQueue[_Work | None], size: int) -> None:
    for _ in range(size):
        work.put(None)


def _serve(work: queue.SimpleQueue[_Work | None]) -> None:
    loop = asyncio.new_event_loop()  # held here for the thread's life, not only by the policy
    asyncio.set_event_loop(loop)
    try:
        while (item := work.get()) is not None:
            handler, event, context, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(handler(event, context))
            except BaseException as error:  # handed to the caller, as an invocation error
                future.set_exception(error)
    finally:
        # Closed by its own thread: left to the garbage collector, a loop may be closed during the
        # interpreter's shutdown, after its self-pipe, and print a traceback on the way out.
        asyncio.set_event_loop(None)
        loop.close()


class LambdaContext:
    """The attributes of Lambda's context object that handlers and Powertools read."""

    def __init__(self, function: LocalFunction, timeout: float) -> None:
        self.function_name = function.logical_id
        self.function_version = "$LATEST"
        self.memory_limit_in_mb = function.memory
        self.invoked_function_arn = f"arn:aws:lambda:local:000000000000:function:{function.logical_id}"
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{function.logical_id}"
        self.log_stream_name = "local"
        self._deadline = time.monotonic() + timeout

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


_RATE = re.compile(r"^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$")
_UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}


def functions_of(template: dict[str, Any], resolve: Resolver) -> list[LocalFunction]:
    globals_ = template.get("Globals", {}).get("Function", {})
    functions = []
    for logical_id, resource in template["Resources"].items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        props = resource["Properties"]
        variables = dict(globals_.get("Environment", {}).get("Variables", {}))
        variables.update(props.get("Environment", {}).get("Variables", {}))
        function = LocalFunction(
            logical_id=logical_id,
            handler_path=props["Handler"],
            timeout=int(props.get("Timeout", globals_.get("Timeout", 3))),
            memory=int(props.get("MemorySize", globals_.get("MemorySize", 128))),
            environment={name: str(resolve(value)) for name, value in variables.items()},
        )
        for event_name, event in props.get("Events", {}).items():
            _add_trigger(function, event_name, event["Type"], resolve(event.get("Properties", {})))
        functions.append(function)
    return functions


def _add_trigger(function: LocalFunction, name: str, kind: str, props: dict[str, Any]) -> None:
    if kind in {"HttpApi", "Api"}:
        function.routes.append(Route(str(props.get("Method", "ANY")).upper(), props["Path"]))
    elif kind == "SQS":
        function.queues.append(
            QueueTrigger(
                queue_arn=props["Queue"],
                batch_size=int(props.get("BatchSize", 10)),
                reports_failures="ReportBatchItemFailures" in props.get("FunctionResponseTypes", []),
            )
        )
    elif kind == "DynamoDB":
        function.streams.append(_stream_trigger(f"{function.logical_id}.{name}", props))
    elif kind in {"Schedule", "ScheduleV2"}:
        expression = props.get("Schedule") or props.get("ScheduleExpression", "")
        match = _RATE.match(expression)
        if match is None:
            raise ValueError(f"{function.logical_id}.{name}: the local stack runs rate() schedules only")
        unit = match.group(2).rstrip("s")
        function.schedules.append(ScheduleTrigger(int(match.group(1)) * _UNIT_SECONDS[unit], name))


_STARTING_POSITIONS = {"TRIM_HORIZON", "LATEST"}


def _stream_trigger(where: str, props: dict[str, Any]) -> StreamTrigger:
    position = props.get("StartingPosition")
    if position not in _STARTING_POSITIONS:
        raise ValueError(f"{where}: StartingPosition must be TRIM_HORIZON or LATEST, not {position!r}")
    retries = props.get("MaximumRetryAttempts")
    return StreamTrigger(
        stream_arn=props["Stream"],
        starting_position=str(position),
        batch_size=int(props.get("BatchSize", 100)),
        reports_failures="ReportBatchItemFailures" in props.get("FunctionResponseTypes", []),
        event_names=_event_names(where, props.get("FilterCriteria", {}).get("Filters", [])),
        maximum_retry_attempts=None if retries is None or int(retries) < 0 else int(retries),
    )


def _event_names(where: str, filters: list[dict[str, Any]]) -> frozenset[str] | None:
    """The eventName values the filters let through (any filter may pass a record); None for all."""
    allowed: set[str] = set()
    for entry in filters:
        pattern = entry.get("Pattern", {})
        if isinstance(pattern, str):
            pattern = json.loads(pattern)
        names = pattern.get("eventName")
        if names is None:
            return None  # this filter passes every event name
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ValueError(f"{where}: the local stack filters eventName on a list of names only")
        allowed.update(names)
    return frozenset(allowed) if filters else None
