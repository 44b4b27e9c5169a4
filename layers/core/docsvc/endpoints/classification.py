"""POST /v1/classifications: the category of a document among those asked for, with the reasoning."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints, field_validator

from docsvc.domain import answers
from docsvc.endpoints.results import DocumentRequest, Name, Result, ResultOperation
from docsvc.names import check_distinct


class CategoryIn(BaseModel):
    name: Name
    description: Annotated[str, StringConstraints(max_length=2_000)] = ""


class ClassificationCreate(DocumentRequest):
    categories: list[CategoryIn] = Field(min_length=1, max_length=100)
    first_n_pages: int | None = Field(None, ge=1, description="Classify from the first pages only.")

    @field_validator("categories")
    @classmethod
    def _distinct(cls, categories: list[CategoryIn]) -> list[CategoryIn]:
        check_distinct([category.name for category in categories], "category")
        return categories


class ClassificationOutput(BaseModel):
    category: str
    reasoning: str


class Classification(Result):
    object: Literal["classification"] = "classification"
    output: ClassificationOutput
    likelihoods: dict[str, float] = Field(
        description="`category`: how sure the model is (0-1); under 0.5 the category is a guess."
    )


CLASSIFICATION = ResultOperation(
    "classification",
    "/v1/classifications",
    ClassificationCreate,
    Classification,
    lambda body: answers.classification(
        [(category.name, category.description) for category in body.categories], body.instructions
    ),
    lambda body: body.first_n_pages,
)
