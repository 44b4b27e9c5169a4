"""Remote models on AWS Bedrock, through the Converse API (IAM: no key to manage). The answer is asked
for as a forced tool call whose input schema is the shape wanted, so what comes back is JSON of that
shape or nothing; a failure of the call is a ModelFailed (502), with the provider's error code."""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.domain.intelligence import ModelFailed
from docsvc.domain.models import ModelInfo
from docsvc.tenancy import Tenant

BEDROCK_PREFIX = "bedrock/"
_TOOL = "answer"


class BedrockModels:
    def structured(
        self, tenant: Tenant, model: ModelInfo, instructions: str, document: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        from botocore.exceptions import BotoCoreError, ClientError

        model_id = model.id.removeprefix(BEDROCK_PREFIX)
        request = {
            "modelId": model_id,
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
        try:
            response = aws.bedrock_runtime().converse(**request)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "error")
            raise ModelFailed(f"model '{model.id}' did not answer ({code})") from None
        except BotoCoreError as error:
            raise ModelFailed(f"model '{model.id}' did not answer ({type(error).__name__})") from None
        for block in response.get("output", {}).get("message", {}).get("content", []):
            answer = block.get("toolUse", {})
            if answer.get("name") == _TOOL and isinstance(answer.get("input"), dict):
                return dict(answer["input"])
        raise ModelFailed(f"model '{model.id}' answered without the structured answer it was asked for")


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
