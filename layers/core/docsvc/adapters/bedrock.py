"""Remote models on AWS Bedrock, through the Converse API (IAM: no key to manage). The answer is asked
for as a forced tool call whose input schema is the shape wanted, so what comes back is JSON of that
shape or nothing; a failure of the call is a ModelFailed (502), with the provider's error code.

Deep research talks to the model in several turns (`converse`): the research tools are offered in
`toolConfig` (`toolSpec: {name, description, inputSchema: {json}}`, the model choosing), the model's
`toolUse` blocks are its calls, and their answers go back as `toolResult` blocks of the next user
message, with `status: "error"` for a call that was refused or failed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docsvc.adapters import aws
from docsvc.domain.intelligence import ModelFailed
from docsvc.domain.models import ModelInfo
from docsvc.tenancy import Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer

BEDROCK_PREFIX = "bedrock/"
_TOOL = "answer"


class BedrockModels:
    def structured(
        self, tenant: Tenant, model: ModelInfo, instructions: str, document: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        request = {
            "modelId": model.id.removeprefix(BEDROCK_PREFIX),
            "system": [{"text": instructions}],
            "messages": [{"role": "user", "content": [{"text": document}]}],
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
        response = _converse(model, request)
        for block in response.get("output", {}).get("message", {}).get("content", []):
            answer = block.get("toolUse", {})
            if answer.get("name") == _TOOL and isinstance(answer.get("input"), dict):
                return dict(answer["input"])
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
        raise ModelFailed(f"model '{model.id}' did not answer ({code})") from None
    except BotoCoreError as error:
        raise ModelFailed(f"model '{model.id}' did not answer ({type(error).__name__})") from None
    return response


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
    usage = response.get("usage")
    counted = usage if isinstance(usage, dict) else {}
    tokens = {"input_tokens": counted.get("inputTokens"), "output_tokens": counted.get("outputTokens")}
    return ModelTurn(
        "\n".join(texts),
        tuple(calls),
        {name: value for name, value in tokens.items() if isinstance(value, int)},
    )


def bedrock_models(model_ids: list[str]) -> tuple[ModelInfo, ...]:
    """The catalog entries of the Bedrock models a deployment configures (BEDROCK_MODELS)."""
    return tuple(
        ModelInfo(
            id=BEDROCK_PREFIX + model_id,
            provider="bedrock",
            tasks=["extract", "classify", "split", "partition"],
        )
        for model_id in model_ids
    )
