"""The remote models of a deployment, each reached through its provider (Bedrock, OpenAI-compatible)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docsvc.domain.intelligence import ModelFailed, RemoteModels
from docsvc.domain.models import ModelInfo
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer


class RemoteProviders:
    """The remote models of a deployment, each reached through its provider."""

    def __init__(self, providers: dict[str, RemoteModels]) -> None:
        self._providers = providers

    def structured(
        self, tenant: Tenant, model: ModelInfo, instructions: str, document: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        return self._provider(model).structured(tenant, model, instructions, document, schema)

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
