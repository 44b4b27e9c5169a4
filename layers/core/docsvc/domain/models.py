"""The models a deployment offers, by task (`GET /v1/models`), and the port every remote one is asked
through for JSON of a given shape.

Built-in models run inside the function, with no network, and are the defaults: a task's default is
the first built-in model listed for it. A request naming a model the deployment does not offer for
the task is a 422 that names the ones it does. A remote model that takes images (`images: true`) also
parses, and sees the pages of a document as pictures besides their text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from docsvc.errors import DomainError, InvalidField
from docsvc.tenancy import Tenant

Task = Literal["parse", "extract", "classify", "split", "partition", "generate_schema", "edit"]
Provider = Literal["builtin", "bedrock", "openai"]


class ModelInfo(BaseModel):
    id: str
    object: Literal["model"] = "model"
    provider: Provider
    tasks: list[Task]
    images: bool = Field(
        False, description="Takes page images (rendered at the request's image_resolution_dpi) with the text."
    )


BUILTIN_MODELS = (
    ModelInfo(id="docsvc-parse-1", provider="builtin", tasks=["parse"]),
    ModelInfo(
        id="docsvc-extract-1",
        provider="builtin",
        tasks=["extract", "classify", "split", "partition", "generate_schema", "edit"],
    ),
)


def remote_tasks(images: bool) -> list[Task]:
    """What a remote model is offered for: every task but schema generation, and parsing when it
    takes images."""
    tasks: list[Task] = ["extract", "classify", "split", "partition", "edit"]
    return ["parse", *tasks] if images else tasks


class ModelCatalog:
    def __init__(self, models: tuple[ModelInfo, ...] = BUILTIN_MODELS) -> None:
        self._models = models

    def list(self) -> list[ModelInfo]:
        return list(self._models)

    def resolve(self, model: str | None, task: Task) -> ModelInfo:
        """The model named for `task`, or the task's default when none is named."""
        offered = [info for info in self._models if task in info.tasks]
        if model is None:
            return next(info for info in offered if info.provider == "builtin")
        for info in offered:
            if info.id == model:
                return info
        names = ", ".join(info.id for info in offered)
        raise InvalidField(("body", "model"), f"unknown model '{model}' for {task}; available: {names}")


class ModelFailed(DomainError):
    """A model that answered nothing usable (a remote one timed out, or answered what the request's
    schema refuses): a 502, never a half-filled success."""

    code = "model_error"
    status_code = 502


@dataclass(frozen=True)
class StructuredReply:
    """A remote model's answer in the shape asked for, and the tokens its provider counted."""

    value: dict[str, Any]
    input_tokens: int = 0
    output_tokens: int = 0


class StructuredModels(Protocol):
    """Remote models asked, for a tenant (whose secrets hold the keys), for JSON of a given shape about
    a document: its text and, for a model that takes images, pictures of its pages (JPEG). A call that
    fails, times out or answers another shape is a ModelFailed; a call that fails for a while only (429,
    5xx, a timeout) is tried again with backoff, `attempts` times in all."""

    def structured(
        self,
        tenant: Tenant,
        model: ModelInfo,
        instructions: str,
        document: str,
        schema: dict[str, Any],
        *,
        images: Sequence[bytes] = (),
        attempts: int = 1,
    ) -> StructuredReply: ...


@dataclass
class Tokens:
    """The tokens counted by a provider over several calls, which may run at the same time."""

    input_tokens: int = 0
    output_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, reply: StructuredReply) -> None:
        with self._lock:
            self.input_tokens += reply.input_tokens
            self.output_tokens += reply.output_tokens


Item = TypeVar("Item")
Result = TypeVar("Result")


def in_order(function: Callable[[Item], Result], items: Iterable[Item], at_once: int) -> Iterator[Result]:
    """`function` of each item, at most `at_once` running at a time, answered in the items' order.
    Items are taken only as places free up, so a long iterable is never held whole. The first failure
    is raised once the calls in flight have ended; none is started after it."""
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        running: list[Future[Result]] = []
        try:
            for item in items:
                running.append(pool.submit(function, item))
                if len(running) >= at_once:
                    yield running.pop(0).result()
            while running:
                yield running.pop(0).result()
        finally:
            for waiting in running:
                waiting.cancel()
