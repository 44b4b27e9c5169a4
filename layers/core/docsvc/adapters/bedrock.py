"""Remote models on AWS Bedrock, through the Converse API (IAM: no key to manage). The answer is asked
for as a forced tool call whose input schema is the shape wanted, so what comes back is JSON of that
shape or nothing; a failure of the call is a ModelFailed (502), with the provider's error code.

Deep research talks to the model in several turns (`converse`): the research tools are offered in
`toolConfig` (`toolSpec: {name, description, inputSchema: {json}}`, the model choosing), the model's
`toolUse` blocks are its calls, and their answers go back as `toolResult` blocks of the next user
message, with `status: "error"` for a call that was refused or failed.

A model listed as `<id>+images` in BEDROCK_MODELS takes pictures: it also parses, and the pages it is
shown go in the user message as `image` blocks (JPEG bytes) after the text. Throttling, a model
timeout, an unavailable or failing service, and a connection that fails or times out fail for a while:
the caller may ask for such a call to be tried again (`attempts`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docsvc.adapters import aws
from docsvc.adapters.remote_models import TransientFailure, with_retries
from docsvc.domain.models import ModelFailed, ModelInfo, StructuredReply, remote_tasks
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer

BEDROCK_PREFIX = "bedrock/"
IMAGES_SUFFIX = "+images"  # BEDROCK_MODELS: a model that takes pictures
_TOOL = "answer"
# Error codes of a call that may succeed when tried again.
_TRANSIENT = frozenset(
    {
        "ThrottlingException",
        "ModelTimeoutException",
        "ServiceUnavailableException",
        "InternalServerException",
        "ModelNotReadyException",
        "TooManyRequestsException",
    }
)


class BedrockModels:
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
        content: list[dict[str, Any]] = [{"text": document}]
        content += [{"image": {"format": "jpeg", "source": {"bytes": image}}} for image in images]
        request = {
            "modelId": model.id.removeprefix(BEDROCK_PREFIX),
            "system": [{"text": instructions}],
            "messages": [{"role": "user", "content": content}],
            "toolConfig": {
                "tools": [
                    {
                        "toolSpec": {
                            "name": _TOOL,
                            "description": "Give the answer, in exactly this shape.",
                            "inputSchema": {"json": schema},
                        }
                    }
                ],
                "toolChoice": {"tool": {"name": _TOOL}},
            },
            "inferenceConfig": {"temperature": 0},
        }
        response = with_retries(lambda: _converse(model, request), attempts)
        output = response.get("output")
        message = output.get("message") if isinstance(output, dict) else None
        blocks = message.get("content") if isinstance(message, dict) else None
        for block in blocks if isinstance(blocks, list) else []:
            answer = block.get("toolUse") if isinstance(block, dict) else None
            if (
                isinstance(answer, dict)
                and answer.get("name") == _TOOL
                and isinstance(answer.get("input"), dict)
            ):
                return StructuredReply(dict(answer["input"]), **_tokens(response))
        raise ModelFailed(f"model '{model.id}' answered without the structured answer it was asked for")

    def converse(
        self,
        tenant: Tenant,
        model: ModelInfo,
        system: str,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolOffer],
    ) -> ModelTurn:
        request = {
            "modelId": model.id.removeprefix(BEDROCK_PREFIX),
            "system": [{"text": system}],
            "messages": _messages(messages),
            "toolConfig": {
                "tools": [
                    {
                        "toolSpec": {
                            "name": tool.name,
                            "description": tool.description,
                            "inputSchema": {"json": dict(tool.parameters)},
                        }
                    }
                    for tool in tools
                ],
                "toolChoice": {"auto": {}},
            },
            "inferenceConfig": {"temperature": 0},
        }
        return _turn(model, _converse(model, request))


def _converse(model: ModelInfo, request: dict[str, Any]) -> dict[str, Any]:
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        response: dict[str, Any] = aws.bedrock_runtime().converse(**request)
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "error")
        status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        message = f"model '{model.id}' did not answer ({code})"
        if code in _TRANSIENT or status == 429 or status >= 500:
            raise TransientFailure(message) from None
        raise ModelFailed(message) from None
    except BotoCoreError as error:
        raise TransientFailure(f"model '{model.id}' did not answer ({type(error).__name__})") from None
    return response


def _tokens(response: dict[str, Any]) -> dict[str, int]:
    """The tokens Bedrock counted (`usage.inputTokens`, `usage.outputTokens`)."""
    usage = response.get("usage")
    counted = usage if isinstance(usage, dict) else {}
    tokens = {"input_tokens": counted.get("inputTokens"), "output_tokens": counted.get("outputTokens")}
    return {name: value for name, value in tokens.items() if isinstance(value, int)}


def _messages(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """The conversation as Converse takes it: roles alternating (a user message after tool results
    joins them), tool calls as `toolUse` blocks, their answers as `toolResult` blocks."""
    from docsvc.intelligence.research_tools import ModelTurn, UserText

    converted: list[dict[str, Any]] = []
    for message in messages:
        content: list[dict[str, Any]]
        if isinstance(message, UserText):
            role, content = "user", [{"text": message.text}]
        elif isinstance(message, ModelTurn):
            role = "assistant"
            content = [{"text": message.text}] if message.text.strip() else []
            content += [
                {"toolUse": {"toolUseId": call.id, "name": call.name, "input": call.arguments or {}}}
                for call in message.calls
            ]
            content = content or [{"text": "(no answer)"}]
        else:
            role = "user"
            content = [
                {
                    "toolResult": {
                        "toolUseId": result.call_id,
                        "content": [{"text": result.content}],
                        "status": "error" if result.error else "success",
                    }
                }
                for result in message.results
            ]
        if converted and converted[-1]["role"] == role:
            converted[-1]["content"].extend(content)
        else:
            converted.append({"role": role, "content": content})
    return converted


def _turn(model: ModelInfo, response: dict[str, Any]) -> ModelTurn:
    """The model's turn in a Converse answer: its text, and its `toolUse` blocks as calls."""
    from docsvc.intelligence.research_tools import ModelTurn, ToolCall

    output = response.get("output")
    message = output.get("message") if isinstance(output, dict) else None
    blocks = message.get("content") if isinstance(message, dict) else None
    if not isinstance(blocks, list):
        raise ModelFailed(f"model '{model.id}' answered without a message")
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        if isinstance(block.get("text"), str):
            texts.append(block["text"])
        use = block.get("toolUse")
        if isinstance(use, dict):
            value = use.get("input")
            calls.append(
                ToolCall(
                    id=str(use.get("toolUseId") or f"call_{len(calls) + 1}"),
                    name=str(use.get("name") or ""),
                    arguments=dict(value) if isinstance(value, dict) else None,
                    raw=json.dumps(value, default=str),
                )
            )
    return ModelTurn("\n".join(texts), tuple(calls), _tokens(response))


def bedrock_models(entries: list[str]) -> tuple[ModelInfo, ...]:
    """The catalog entries of the Bedrock models a deployment configures (BEDROCK_MODELS): model ids,
    each followed by `+images` when the model takes pictures."""
    models = []
    for entry in entries:
        images = entry.endswith(IMAGES_SUFFIX)
        model_id = entry.removesuffix(IMAGES_SUFFIX).strip()
        if not model_id:
            raise ValueError(f"BEDROCK_MODELS: '{entry}' names no model")
        models.append(
            ModelInfo(
                id=BEDROCK_PREFIX + model_id, provider="bedrock", tasks=remote_tasks(images), images=images
            )
        )
    return tuple(models)
