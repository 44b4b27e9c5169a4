"""Remote models behind any OpenAI-compatible endpoint (`POST <base_url>/chat/completions`). The key is
read at run time from a `secret://` of the calling environment, so a test key's requests use the test
secret and a production run never falls back to a test value. The answer is asked for as a forced
function call whose parameters are the shape wanted.

Deep research talks to the model in several turns (`converse`): the research tools go in `tools`
(`type: function`) with `tool_choice: "auto"`, the model's `tool_calls` are its calls (arguments that
are not a JSON object kept as written, to be answered with an error), and their answers go back as
`role: tool` messages naming the `tool_call_id`.

A deployment lists its endpoints in OPENAI_MODELS, a JSON array of
`{"name", "base_url", "model", "api_key_secret": "secret://NAME"}`; each is offered as `openai/<name>`.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from docsvc.domain.intelligence import ConfigurationError, ModelFailed
from docsvc.domain.models import ModelInfo
from docsvc.domain.secrets import SecretResolver
from docsvc.errors import NotFound
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer

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
        key = self._key(tenant, model, endpoint)
        body = {
            "model": endpoint.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": instructions}, {"role": "user", "content": document}],
            "tools": [{"type": "function", "function": {"name": _FUNCTION, "parameters": schema}}],
            "tool_choice": {"type": "function", "function": {"name": _FUNCTION}},
        }
        return _arguments(model.id, _call(model.id, _request(endpoint, key, body)))

    def converse(
        self,
        tenant: Tenant,
        model: ModelInfo,
        system: str,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolOffer],
    ) -> ModelTurn:
        endpoint = self._endpoints[model.id]
        key = self._key(tenant, model, endpoint)
        body = {
            "model": endpoint.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system}, *_messages(messages)],
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": dict(tool.parameters),
                    },
                }
                for tool in tools
            ],
            "tool_choice": "auto",
        }
        return _turn(model.id, _call(model.id, _request(endpoint, key, body)))

    def _key(self, tenant: Tenant, model: ModelInfo, endpoint: OpenAIEndpoint) -> str:
        try:
            return self._secrets.resolve(tenant, endpoint.api_key_secret)
        except NotFound:
            raise ConfigurationError(
                f"model '{model.id}' needs the secret {endpoint.api_key_secret}, which does not exist in the "
                f"{tenant.environment} environment"
            ) from None


def _request(endpoint: OpenAIEndpoint, key: str, body: dict[str, Any]) -> urllib.request.Request:
    return urllib.request.Request(  # noqa: S310 - the deployment's own configured endpoint
        endpoint.base_url.rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        method="POST",
    )


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


def _messages(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """The conversation as chat completions take it: a turn with tool calls as `tool_calls` (their
    arguments as the model wrote them), each answer as a `role: tool` message."""
    from docsvc.intelligence.research_tools import ModelTurn, UserText

    converted: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, UserText):
            converted.append({"role": "user", "content": message.text})
        elif isinstance(message, ModelTurn):
            turn: dict[str, Any] = {
                "role": "assistant",
                "content": message.text or (None if message.calls else ""),
            }
            if message.calls:
                turn["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.raw},
                    }
                    for call in message.calls
                ]
            converted.append(turn)
        else:
            converted += [
                {
                    "role": "tool",
                    "tool_call_id": result.call_id,
                    "content": result.content if not result.error else f"[error] {result.content}",
                }
                for result in message.results
            ]
    return converted


def _turn(model_id: str, reply: Any) -> ModelTurn:
    """The model's turn in a chat completion: its text, and its tool calls."""
    from docsvc.intelligence.research_tools import ModelTurn, ToolCall

    try:
        message = reply["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        message = None
    if not isinstance(message, dict):
        raise ModelFailed(f"model '{model_id}' answered something that is not a chat completion")
    content = message.get("content")
    calls: list[ToolCall] = []
    for number, call in enumerate(message.get("tool_calls") or [], 1):
        function = call.get("function") if isinstance(call, dict) else None
        function = function if isinstance(function, dict) else {}
        raw = function.get("arguments")
        raw = raw if isinstance(raw, str) else json.dumps(raw)
        try:
            arguments = json.loads(raw)
        except ValueError:
            arguments = None
        calls.append(
            ToolCall(
                id=str(call.get("id") if isinstance(call, dict) and call.get("id") else f"call_{number}"),
                name=str(function.get("name") or ""),
                arguments=arguments if isinstance(arguments, dict) else None,
                raw=raw,
            )
        )
    usage = reply.get("usage") if isinstance(reply, dict) else None
    counted = usage if isinstance(usage, dict) else {}
    tokens = {"input_tokens": counted.get("prompt_tokens"), "output_tokens": counted.get("completion_tokens")}
    return ModelTurn(
        content if isinstance(content, str) else "",
        tuple(calls),
        {name: value for name, value in tokens.items() if isinstance(value, int)},
    )
