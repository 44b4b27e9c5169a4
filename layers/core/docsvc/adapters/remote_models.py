"""The remote models of a deployment, each reached through its provider (Bedrock, OpenAI-compatible),
and how their calls are tried again when a provider fails for a while."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from docsvc.domain.intelligence import RemoteModels
from docsvc.domain.models import ModelFailed, ModelInfo, StructuredReply
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer

RETRY_SECONDS = 1.0  # the first wait before another try; each later wait doubles, with jitter
MAX_WAIT_SECONDS = 20.0  # a provider's Retry-After is followed up to this
Answer = TypeVar("Answer")


class TransientFailure(ModelFailed):
    """A call that failed for a while (429, a 5xx, a timeout, throttling): worth another try, after
    `wait` seconds when the provider said how long."""

    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


def with_retries(call: Callable[[], Answer], attempts: int) -> Answer:
    """`call`, tried again after a TransientFailure with exponential backoff and jitter, `attempts`
    times in all; the last failure is raised (it is a ModelFailed)."""
    for attempt in range(1, attempts):
        try:
            return call()
        except TransientFailure as failure:
            backoff = RETRY_SECONDS * 2 ** (attempt - 1) * random.uniform(0.5, 1.5)
            time.sleep(min(failure.wait if failure.wait is not None else backoff, MAX_WAIT_SECONDS))
    return call()


class RemoteProviders:
    """The remote models of a deployment, each reached through its provider."""

    def __init__(self, providers: dict[str, RemoteModels]) -> None:
        self._providers = providers

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
    ) -> StructuredReply:
        return self._provider(model).structured(
            tenant, model, instructions, document, schema, images=images, attempts=attempts
        )

    def converse(
        self,
        tenant: Tenant,
        model: ModelInfo,
        system: str,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolOffer],
    ) -> ModelTurn:
        return self._provider(model).converse(tenant, model, system, messages, tools)

    def _provider(self, model: ModelInfo) -> RemoteModels:
        provider = self._providers.get(model.provider)
        if provider is None:
            raise ModelFailed(f"model '{model.id}' ({model.provider}) is not reachable from this deployment")
        return provider
