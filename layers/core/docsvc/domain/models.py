"""The models a deployment offers, by task (`GET /v1/models`).

Built-in models run inside the function, with no network, and are the defaults: a task's default is
the first built-in model listed for it. A request naming a model the deployment does not offer for
the task is a 422 that names the ones it does.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from docsvc.errors import InvalidField

Task = Literal["parse", "extract", "classify", "split", "partition", "generate_schema"]
Provider = Literal["builtin", "bedrock", "openai"]


class ModelInfo(BaseModel):
    id: str
    object: Literal["model"] = "model"
    provider: Provider
    tasks: list[Task]


BUILTIN_MODELS = (
    ModelInfo(id="docsvc-parse-1", provider="builtin", tasks=["parse"]),
    ModelInfo(
        id="docsvc-extract-1",
        provider="builtin",
        tasks=["extract", "classify", "split", "partition", "generate_schema"],
    ),
)


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
