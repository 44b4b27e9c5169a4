"""What each kind of result asks of its model: the built-in models of `docsvc.intelligence` run here,
in the function. Every answer is checked before it is stored: an extraction's output must validate
against the request's schema (a value not found is null, whatever type the schema gives it), a
classification must name one of the categories, splits and partitions must cover the pages. A model
that breaks that is a ModelFailed (502), never a half-filled success."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from docsvc.domain.intelligence import Answer, Answerer, ModelFailed, require_builtin
from docsvc.domain.models import ModelInfo


def extraction(json_schema: Mapping[str, Any], instructions: str | None) -> Answerer:
    def answer(pages: list[str], model: ModelInfo) -> Answer:
        from jsonschema import Draft202012Validator

        from docsvc.intelligence.extraction import extract

        require_builtin(model)
        found = extract(pages, json_schema, instructions)
        validator = Draft202012Validator(json_schema)
        # A value not found is null wherever it stands, whatever type the schema gives it.
        problems = [
            problem for problem in validator.iter_errors(found.output) if problem.instance is not None
        ]
        if problems:
            first = min(problems, key=lambda problem: len(problem.absolute_path))
            where = "/".join(str(part) for part in first.absolute_path) or "(root)"
            raise ModelFailed(f"the model's output does not match json_schema at {where}: {first.message}")
        return Answer(output=found.output, likelihoods=found.likelihoods)

    return answer


def classification(categories: Sequence[tuple[str, str]], instructions: str | None) -> Answerer:
    def answer(pages: list[str], model: ModelInfo) -> Answer:
        from docsvc.intelligence.classification import Category, classify

        require_builtin(model)
        found = classify(
            pages, [Category(name, description) for name, description in categories], instructions
        )
        if found.category not in {name for name, _ in categories}:
            raise ModelFailed(f"the model answered a category that was not asked for: '{found.category}'")
        return Answer(
            output={"category": found.category, "reasoning": found.reasoning},
            likelihoods={"category": found.likelihood},
        )

    return answer


def split(subdocuments: Sequence[tuple[str, str, bool]], instructions: str | None) -> Answerer:
    def answer(pages: list[str], model: ModelInfo) -> Answer:
        from docsvc.intelligence.splitting import Subdocument, split

        require_builtin(model)
        asked = [Subdocument(name, description, multiple) for name, description, multiple in subdocuments]
        found = split(pages, asked, instructions)
        _check_cover([part.pages for part in found], len(pages))
        return Answer(output=[{"name": part.name, "pages": part.pages} for part in found])

    return answer


def partition(key: str, instructions: str | None) -> Answerer:
    def answer(pages: list[str], model: ModelInfo) -> Answer:
        from docsvc.intelligence.partitioning import partition

        require_builtin(model)
        found = partition(pages, key, instructions)
        _check_cover([part.pages for part in found], len(pages))
        return Answer(output=[{"key": part.key, "pages": part.pages} for part in found])

    return answer


def _check_cover(groups: list[list[int]], page_count: int) -> None:
    """Every page in exactly one group."""
    numbers = sorted(number for group in groups for number in group)
    if numbers != list(range(1, page_count + 1)):
        raise ModelFailed("the model's groups do not cover every page exactly once")
