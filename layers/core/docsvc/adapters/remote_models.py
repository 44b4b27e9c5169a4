"""The remote models of a deployment, each reached through its provider (Bedrock, OpenAI-compatible)."""

from __future__ import annotations

from typing import Any

from docsvc.domain.intelligence import ModelFailed, RemoteModels
from docsvc.domain.models import ModelInfo
from docsvc.tenancy import Tenant


class RemoteProviders:
    """The remote models of a deployment, each reached through its provider."""

    def __init__(self, providers: dict[str, RemoteModels]) -> None:
        self._providers = providers

    def structured(
        self, tenant: Tenant, model: ModelInfo, instructions: str, document: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        provider = self._providers.get(model.provider)
        if provider is None:
            raise ModelFailed(f"model '{model.id}' ({model.provider}) is not reachable from this deployment")
        return provider.structured(tenant, model, instructions, document, schema)
