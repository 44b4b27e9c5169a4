"""Remote models behind any OpenAI-compatible endpoint (`POST <base_url>/chat/completions`). The key is
read at run time from a `secret://` of the calling environment, so a test key's requests use the test
secret and a production run never falls back to a test value. The answer is asked for as a forced
function call whose parameters are the shape wanted.

A deployment lists its endpoints in OPENAI_MODELS, a JSON array of
`{"name", "base_url", "model", "api_key_secret": "secret://NAME"}`; each is offered as `openai/<name>`.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from pydantic import BaseModel

from docsvc.domain.intelligence import ConfigurationError, ModelFailed
from docsvc.domain.models import ModelInfo
from docsvc.domain.secrets import SecretResolver
from docsvc.errors import NotFound
from docsvc.tenancy import Tenant

OPENAI_PREFIX = "openai/"
TIMEOUT_SECONDS = 60
_FUNCTION = "answer"


class OpenAIEndpoint(BaseModel):
    name: str
    base_url: str
    model: str
    api_key_secret: str


def openai_models(configured: str) -> tuple[tuple[ModelInfo, ...], dict[str, OpenAIEndpoint]]:
    """The catalog entries and endpoints of OPENAI_MODELS (empty when it is not set)."""
    endpoints = [OpenAIEndpoint.model_validate(entry) for entry in json.loads(configured or "[]")]
    infos = tuple(
        ModelInfo(
            id=OPENAI_PREFIX + endpoint.name,
            provider="openai",
            tasks=["extract", "classify", "split", "partition"],
        )
        for endpoint in endpoints
    )
    return infos, {OPENAI_PREFIX + endpoint.name: endpoint for endpoint in endpoints}


class OpenAICompatibleModels:
    def __init__(self, endpoints: dict[str, OpenAIEndpoint], secrets: SecretResolver) -> None:
        self._endpoints = endpoints
        self._secrets = secrets

    def structured(
        self, tenant: Tenant, model: ModelInfo, instructions: str, document: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        endpoint = self._endpoints[model.id]
        try:
            key = self._secrets.resolve(tenant, endpoint.api_key_secret)
        except NotFound:
            raise ConfigurationError(
                f"model '{model.id}' needs the secret {endpoint.api_key_secret}, which does not exist in the "
                f"{tenant.environment} environment"
            ) from None
        body = {
            "model": endpoint.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": instructions}, {"role": "user", "content": document}],
            "tools": [{"type": "function", "function": {"name": _FUNCTION, "parameters": schema}}],
            "tool_choice": {"type": "function", "function": {"name": _FUNCTION}},
        }
        request = urllib.request.Request(  # noqa: S310 - the deployment's own configured endpoint
            endpoint.base_url.rstrip("/") + "/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            method="POST",
        )
        return _arguments(model.id, _call(model.id, request))


def _call(model_id: str, request: urllib.request.Request) -> Any:
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise ModelFailed(f"model '{model_id}' did not answer (HTTP {error.code})") from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ModelFailed(f"model '{model_id}' did not answer ({type(reason).__name__})") from None
    except ValueError:
        raise ModelFailed(f"model '{model_id}' answered something that is not JSON") from None


def _arguments(model_id: str, reply: Any) -> dict[str, Any]:
    """The arguments of the forced function call, as a JSON object."""
    try:
        call = reply["choices"][0]["message"]["tool_calls"][0]["function"]
        arguments = json.loads(call["arguments"])
    except (KeyError, IndexError, TypeError, ValueError):
        raise ModelFailed(
            f"model '{model_id}' answered without the structured answer it was asked for"
        ) from None
    if not isinstance(arguments, dict):
        raise ModelFailed(f"model '{model_id}' answered without the structured answer it was asked for")
    return arguments
