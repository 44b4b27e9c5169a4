"""POST /v1/partitions: the pages grouped by the value of a label found on them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from docsvc.domain import answers
from docsvc.endpoints.results import DocumentRequest, Name, Result, ResultOperation


class PartitionCreate(DocumentRequest):
    key: Name = Field(description="The label whose value groups the pages, e.g. 'invoice number'.")

    @field_validator("key")
    @classmethod
    def _words(cls, key: str) -> str:
        if not any(character.isalnum() for character in key):
            raise ValueError("the key names a label, e.g. 'invoice number': it needs a letter or a digit")
        return key


class PartitionPart(BaseModel):
    key: str
    pages: list[int] = Field(description="1-based page numbers.")


class Partition(Result):
    object: Literal["partition"] = "partition"
    output: list[PartitionPart]


PARTITION = ResultOperation(
    "partition",
    "/v1/partitions",
    PartitionCreate,
    Partition,
    lambda body: answers.partition(body.key, body.instructions),
)
