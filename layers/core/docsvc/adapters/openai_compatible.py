"""Remote models behind any OpenAI-compatible endpoint (`POST <base_url>/chat/completions`). The key is
read at run time from a `secret://` of the calling environment, so a test key's requests use the test
secret and a production run never falls back to a test value. The answer is asked for as a forced
function call whose parameters are the shape wanted.

Deep research talks to the model in several turns (`converse`): the research tools go in `tools`
(`type: function`) with `tool_choice: "auto"`, the model's `tool_calls` are its calls (arguments that
are not a JSON object kept as written, to be answered with an error), and their answers go back as
`role: tool` messages naming the `tool_call_id`.

A deployment lists its endpoints in OPENAI_MODELS, a JSON array of
`{"name", "base_url", "model", "api_key_secret": "secret://NAME", "images": false}`; each is offered as
`openai/<name>`. An endpoint with `"images": true` takes pictures: it also parses, and the pages it is
shown go in the user message as `image_url` parts (`data:image/jpeg;base64,…`) after the text.

A call answered 429 or 5xx, or that times out or cannot connect, fails for a while: the caller may
ask for it to be tried again (`attempts`); a 429's Retry-After (seconds) is followed.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from docsvc.adapters.remote_models import TransientFailure, with_retries
from docsvc.domain.intelligence import ConfigurationError
from docsvc.domain.models import ModelFailed, ModelInfo, StructuredReply, remote_tasks
from docsvc.domain.secrets import SecretResolver
from docsvc.errors import NotFound
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer

OPENAI_PREFIX = "openai/"
TIMEOUT_SECONDS = 60
_FUNCTION = "answer"


class OpenAIEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt setting ("image") is refused, not ignored

    name: str
    base_url: str
    model: str
    api_key_secret: str
    images: bool = False  # the model takes pictures (pages as JPEG): it parses too


def openai_models(configured: str) -> tuple[tuple[ModelInfo, ...], dict[str, OpenAIEndpoint]]:
    """The catalog entries and endpoints of OPENAI_MODELS (empty when it is not set)."""
    endpoints = [OpenAIEndpoint.model_validate(entry) for entry in json.loads(configured or "[]")]
    infos = tuple(
        ModelInfo(
            id=OPENAI_PREFIX + endpoint.name,
            provider="openai",
            tasks=remote_tasks(endpoint.images),
            images=endpoint.images,
        )
        for endpoint in endpoints
    )
    return infos, {OPENAI_PREFIX + endpoint.name: endpoint for endpoint in endpoints}


class OpenAICompatibleModels:
    def __init__(self, endpoints: dict[str, OpenAIEndpoint], secrets: SecretResolver) -> None:
        self._endpoints = endpoints
        self._secrets = secrets

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
        endpoint = self._endpoints[model.id]
        key = self._key(tenant, model, endpoint)
        content: str | list[dict[str, Any]] = document
        if images:
            content = [{"type": "text", "text": document}] + [
                {"type": "image_url", "image_url": {"url": _data_url(image)}} for image in images
            ]
        body = {
            "model": endpoint.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": instructions}, {"role": "user", "content": content}],
            "tools": [{"type": "function", "function": {"name": _FUNCTION, "parameters": schema}}],
            "tool_choice": {"type": "function", "function": {"name": _FUNCTION}},
        }
        reply = with_retries(lambda: _call(model.id, _request(endpoint, key, body)), attempts)
        return StructuredReply(_arguments(model.id, reply), **_tokens(reply))

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


def _data_url(image: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(image).decode("ascii")


def _call(model_id: str, request: urllib.request.Request) -> Any:
    """The endpoint's JSON answer. 429, 5xx, a timeout or no connection are TransientFailures."""
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        message = f"model '{model_id}' did not answer (HTTP {error.code})"
        if error.code == 429 or error.code >= 500:
            raise TransientFailure(message, _retry_after(error.headers.get("Retry-After"))) from None
        raise ModelFailed(message) from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise TransientFailure(f"model '{model_id}' did not answer ({type(reason).__name__})") from None
    except ValueError:
        raise ModelFailed(f"model '{model_id}' answered something that is not JSON") from None


def _retry_after(value: str | None) -> float | None:
    """A Retry-After in seconds (its HTTP-date form is not followed)."""
    try:
        return max(float(value), 0.0) if value else None
    except ValueError:
        return None


def _tokens(reply: Any) -> dict[str, int]:
    """The tokens the endpoint counted (`usage.prompt_tokens`, `usage.completion_tokens`)."""
    usage = reply.get("usage") if isinstance(reply, dict) else None
    counted = usage if isinstance(usage, dict) else {}
    tokens = {"input_tokens": counted.get("prompt_tokens"), "output_tokens": counted.get("completion_tokens")}
    return {name: value for name, value in tokens.items() if isinstance(value, int)}


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
    return ModelTurn(content if isinstance(content, str) else "", tuple(calls), _tokens(reply))
