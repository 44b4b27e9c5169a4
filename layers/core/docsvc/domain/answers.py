"""What each kind of result asks of its model. Built-in models (`docsvc.intelligence`) run here, in
the function; remote ones are asked for JSON of the result's shape. Every answer is checked before it
is stored: an extraction's output must validate against the request's schema (a value not found is
null, whatever type the schema gives it), a classification must name one of the categories, splits and
partitions must cover every page once. A model that breaks that is a ModelFailed (502), never a
half-filled success.

An extraction on a remote model may be run several times (`n_consensus`, at most CONSENSUS_AT_ONCE
calls at a time): each run must match the schema, and the answer is the majority value of every leaf,
its likelihood the share of runs that agree with it (see docsvc.domain.consensus). The built-in model
is deterministic: it runs once, whatever `n_consensus` says."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from docsvc.domain.evidence import Evidence
from docsvc.domain.intelligence import Answer, Answerer, Model
from docsvc.domain.models import ModelFailed, in_order

_READ = "You read business documents and answer exactly in the shape of the tool you are given."
CONSENSUS_AT_ONCE = 4  # runs of one extraction asked of a remote model at a time


def extraction(json_schema: Mapping[str, Any], instructions: str | None, n_consensus: int = 1) -> Answerer:
    def answer(pages: list[str], model: Model) -> Answer:
        if model.builtin:
            from docsvc.intelligence.extraction import extract

            found = extract(pages, json_schema, instructions, model.ocr_confidence)
            output, likelihoods = found.output, found.likelihoods
            evidence = {path: Evidence(*where) for path, where in found.evidence.items()}
        else:
            from docsvc.domain.consensus import consensus

            prompt = _prompt(_EXTRACT_WITH_EVIDENCE, instructions)
            asked = _with_evidence(json_schema)

            def run(_: int) -> tuple[dict[str, Any], dict[str, Evidence]]:
                value, quoted = _unwrapped(model.structured(prompt, pages, asked), len(pages))
                _check_against(json_schema, value)
                return value, quoted

            runs = list(in_order(run, range(n_consensus), CONSENSUS_AT_ONCE))
            output, likelihoods = consensus([value for value, _ in runs])
            evidence = _agreeing_evidence(output, runs)
        _check_against(json_schema, output)
        return Answer(output=output, likelihoods=likelihoods, evidence=evidence)

    return answer


def classification(categories: Sequence[tuple[str, str]], instructions: str | None) -> Answerer:
    names = [name for name, _ in categories]

    def answer(pages: list[str], model: Model) -> Answer:
        if model.builtin:
            from docsvc.intelligence.classification import Category, classify

            asked = [Category(name, description) for name, description in categories]
            found = classify(pages, asked, instructions)
            category: Any = found.category
            reasoning, likelihood = found.reasoning, found.likelihood
        else:
            listed = "\n".join(f"- {name}: {description}" for name, description in categories)
            schema = {
                "type": "object",
                "properties": {
                    "category": {"type": "string", "enum": names},
                    "reasoning": {"type": "string"},
                },
                "required": ["category", "reasoning"],
            }
            task = f"Classify the document into one of these categories:\n{listed}"
            reply = model.structured(_prompt(task, instructions), pages, schema)
            category, reasoning, likelihood = reply.get("category"), str(reply.get("reasoning", "")), 1.0
        if category not in names:
            raise ModelFailed(f"the model answered a category that was not asked for: {category!r}")
        warnings: tuple[str, ...] = ()
        if likelihood < 0.5:
            warnings = (f"the document matches no category clearly: '{category}' is a guess",)
        return Answer(
            output={"category": category, "reasoning": reasoning},
            likelihoods={"category": likelihood},
            warnings=warnings,
        )

    return answer


def split(subdocuments: Sequence[tuple[str, str, bool]], instructions: str | None) -> Answerer:
    def answer(pages: list[str], model: Model) -> Answer:
        if model.builtin:
            from docsvc.intelligence.splitting import Subdocument, split

            asked = [Subdocument(name, description, multiple) for name, description, multiple in subdocuments]
            parts: list[dict[str, Any]] = [
                {"name": part.name, "pages": part.pages, "likelihood": part.likelihood}
                for part in split(pages, asked, instructions, model.page_sizes, model.scanned)
            ]
            warnings = tuple(
                f"the boundaries of '{part['name']}' (pages {_span(part['pages'])}) are a guess"
                for part in parts
                if part["likelihood"] < 0.5
            )
        else:
            listed = "\n".join(
                f"- {name}: {description}{' (may occur several times)' if multiple else ''}"
                for name, description, multiple in subdocuments
            )
            task = f"Split the pages into these subdocuments; every page in exactly one part:\n{listed}"
            names = [name for name, _, _ in subdocuments]
            parts = _remote_groups(model, _prompt(task, instructions), pages, "name", {"enum": names})
            warnings = ()
        _check_cover([part["pages"] for part in parts], len(pages))
        return Answer(output=parts, warnings=warnings)

    return answer


def _span(pages: list[int]) -> str:
    return f"{pages[0]}-{pages[-1]}" if len(pages) > 1 else str(pages[0])


def partition(key: str, instructions: str | None) -> Answerer:
    def answer(pages: list[str], model: Model) -> Answer:
        if model.builtin:
            from docsvc.intelligence.partitioning import partition

            parts: list[dict[str, Any]] = [
                {"key": part.key, "pages": part.pages} for part in partition(pages, key, instructions)
            ]
        else:
            task = f"Group the pages by the value of '{key}' found on them; every page in exactly one group."
            parts = _remote_groups(model, _prompt(task, instructions), pages, "key", {"type": "string"})
        _check_cover([part["pages"] for part in parts], len(pages))
        return Answer(output=parts)

    return answer


# ---------------------------------------------------------------------------- evidence of remote models
_EXTRACT_WITH_EVIDENCE = (
    "Extract the data the schema describes into `data`; use null for what the document does not hold. "
    "In `evidence`, for every value you give, quote the text you read it from exactly as the page "
    "prints it (a few words at most), with the value's path (property names joined by dots: "
    "`total`, `vendor.name`; `line_items.0.amount` inside arrays) and the page number (1-based)."
)
_EVIDENCE_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "quote": {"type": "string"},
            "page": {"type": "integer", "minimum": 1},
        },
        "required": ["path", "quote", "page"],
    },
}


def _with_evidence(json_schema: Mapping[str, Any]) -> dict[str, Any]:
    """What a remote model is asked for: the data, and where it read each value."""
    return {
        "type": "object",
        "properties": {"data": dict(json_schema), "evidence": _EVIDENCE_SCHEMA},
        "required": ["data", "evidence"],
    }


def _unwrapped(reply: dict[str, Any], page_count: int) -> tuple[dict[str, Any], dict[str, Evidence]]:
    """The data of a reply and its evidence per path (quotes on pages that exist only). A model that
    answered the data alone, without the wrapper, is taken at its word with no evidence."""
    if not (isinstance(reply.get("data"), dict) and set(reply) <= {"data", "evidence"}):
        return reply, {}
    quoted: dict[str, Evidence] = {}
    for item in reply.get("evidence") or ():
        if not isinstance(item, dict):
            continue
        path, quote, page = item.get("path"), item.get("quote"), item.get("page")
        if not (isinstance(path, str) and isinstance(quote, str) and isinstance(page, int)):
            continue
        if quote.strip() and 1 <= page <= page_count and path not in quoted:
            quoted[path] = Evidence(page - 1, quote.strip())
    return reply["data"], quoted


def _agreeing_evidence(
    output: dict[str, Any], runs: Sequence[tuple[dict[str, Any], dict[str, Evidence]]]
) -> dict[str, Evidence]:
    """Per path, the quote of the first run whose value there is the answer's."""
    evidence: dict[str, Evidence] = {}
    for value, quoted in runs:
        for path, where in quoted.items():
            if path not in evidence and _at(value, path) == _at(output, path) is not None:
                evidence[path] = where
    return evidence


def _at(value: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


# ---------------------------------------------------------------------------- helpers
def _prompt(task: str, instructions: str | None) -> str:
    return f"{_READ}\n{task}" + (f"\nInstructions from the user: {instructions}" if instructions else "")


def _remote_groups(
    model: Model, prompt: str, pages: list[str], label: str, label_schema: dict[str, Any]
) -> list[dict[str, Any]]:
    """Pages in groups, as a remote model answers them: `{parts: [{<label>, pages}]}`."""
    schema = {
        "type": "object",
        "properties": {
            "parts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        label: label_schema,
                        "pages": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                    },
                    "required": [label, "pages"],
                },
            }
        },
        "required": ["parts"],
    }
    reply = model.structured(prompt, pages, schema)
    _check_against(schema, reply)
    return [{label: part[label], "pages": sorted(part["pages"])} for part in reply["parts"]]


def _check_against(schema: Mapping[str, Any], value: Any) -> None:
    from jsonschema import Draft202012Validator

    problems = [
        problem for problem in Draft202012Validator(schema).iter_errors(value) if problem.instance is not None
    ]
    if problems:
        first = min(problems, key=lambda problem: len(problem.absolute_path))
        where = "/".join(str(part) for part in first.absolute_path) or "(root)"
        raise ModelFailed(f"the model's answer does not match its schema at {where}: {first.message}")


def _check_cover(groups: list[list[int]], page_count: int) -> None:
    """Every page in exactly one group."""
    numbers = sorted(number for group in groups for number in group)
    if numbers != list(range(1, page_count + 1)):
        raise ModelFailed("the model's groups do not cover every page exactly once")
