"""POST /v1/splits: the pages of a packet grouped into the subdocuments asked for."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, field_validator

from docsvc.domain import answers
from docsvc.endpoints.results import DocumentRequest, Name, Result, ResultOperation
from docsvc.names import check_distinct


class SubdocumentIn(BaseModel):
    name: Name
    description: Annotated[str, StringConstraints(max_length=2_000)] = ""
    allow_multiple_instances: bool = False


class SplitCreate(DocumentRequest):
    subdocuments: list[SubdocumentIn] = Field(min_length=1, max_length=100)

    @field_validator("subdocuments")
    @classmethod
    def _distinct(cls, subdocuments: list[SubdocumentIn]) -> list[SubdocumentIn]:
        check_distinct([subdocument.name for subdocument in subdocuments], "subdocument")
        return subdocuments


class SplitPart(BaseModel):
    name: str
    pages: list[int] = Field(description="1-based page numbers.")
    likelihood: float | None = Field(
        default=None,
        description="How sure the model is of this part's boundaries (0-1); under 0.5 they are a guess. "
        "Null when the model does not say.",
    )


class Split(Result):
    object: Literal["split"] = "split"
    output: list[SplitPart]


SPLIT = ResultOperation(
    "split",
    "/v1/splits",
    SplitCreate,
    Split,
    lambda body: answers.split(
        [(part.name, part.description, part.allow_multiple_instances) for part in body.subdocuments],
        body.instructions,
    ),
)
