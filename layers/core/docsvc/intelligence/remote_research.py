"""Deep research on a remote model: the tools of the built-in planner, offered by function calling.

The model is told the schema, the instructions and the limits, and shown an outline of the document
(its pages' opening lines, its tables); it reads the rest with the tools. Each step is one turn of the
model, in which it may call up to `max_tool_calls` tools: further calls are not run and are answered
with an error saying the limit. `submit_predictions` (its arguments are the predictions) does not count
against the limit; it ends the research, as does an answer in text that holds a JSON object.

Predictions are checked as the built-in extraction's are (`repair`): the schema's fields only, a field
missing is null, and a value the schema refuses is set to null (a null is "not found", whatever type
the schema gives the field). A submission with refused values is answered with what is wrong while
steps are left, and stands, with those values null, as the last predictions when the steps (or the
time) run out. A research whose model submitted nothing usable by then is a `ResearchFailed`. A
malformed tool call (an unknown tool, arguments that are not JSON or that the tool's schema refuses) is
answered with an error result, and the model goes on; a remote failure raised by `ask` ends it.

Every tool call run is in the trace, with its step, arguments, a one-line summary and its duration; a
`finish` entry ends it, as in the built-in research.
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator

from docsvc.intelligence.layout import read_layout
from docsvc.intelligence.reading import Reading
from docsvc.intelligence.repair import repair
from docsvc.intelligence.research import Research, TraceStep, field_score, schema_fields
from docsvc.intelligence.research_tools import (
    SUBMIT,
    ChatMessage,
    Lookup,
    ModelTurn,
    Tool,
    ToolCall,
    ToolError,
    ToolOffer,
    ToolResult,
    ToolResults,
    UserText,
    Workspace,
    offered_tools,
    one_line,
    submit_tool,
)
from docsvc.intelligence.schemas import Node, read_schema

# (system prompt, the conversation so far, the tools offered) -> the model's next turn
Ask = Callable[[str, Sequence[ChatMessage], Sequence[ToolOffer]], ModelTurn]

_OUTLINE_PAGES, _OUTLINE_LINES, _OUTLINE_TABLES = 30, 3, 20
_MAX_PROBLEMS = 5
_FENCED = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


class ResearchFailed(Exception):
    """A remote research that ends without predictions to answer."""


# ---------------------------------------------------------------------------------------- checking
class Predictions:
    """Predictions checked against the request's json_schema, as the built-in extraction's are."""

    def __init__(self, json_schema: Mapping[str, Any]) -> None:
        self.root = read_schema(json_schema)
        try:
            self.validator: Draft202012Validator | None = Draft202012Validator(json_schema)
        except Exception:  # a schema jsonschema cannot hold: nothing to check against
            self.validator = None

    def check(self, value: Any) -> tuple[dict[str, Any] | None, list[str]]:
        """The predictions the schema takes from `value` (None when nothing can be made of it), and
        what it refused in it."""
        if _wrapped(value) and "predictions" not in dict(self.root.properties):
            value = value["predictions"]  # the model wrapped them
        if not isinstance(value, dict):
            return None, ["the predictions are not a JSON object"]
        output = _shaped(value, self.root)
        problems = self.problems(output)
        if problems:
            repair(output, self.root, Reading(read_layout([]), self.validator, True, 1.0), {})
            if self.problems(output):  # what setting values to null cannot mend
                return None, problems
        return output, problems

    def problems(self, output: Any) -> list[str]:
        if self.validator is None:
            return []
        try:  # a null is "not found": whatever the schema says of it, it stands
            errors = [error for error in self.validator.iter_errors(output) if error.instance is not None]
        except Exception:  # a schema jsonschema cannot apply
            return []
        return [
            f"{'/'.join(str(part) for part in error.absolute_path) or '(root)'}: {error.message[:200]}"
            for error in errors
        ]


def _wrapped(value: Any) -> bool:
    return (
        isinstance(value, dict) and set(value) == {"predictions"} and isinstance(value["predictions"], dict)
    )


def _shaped(value: dict[str, Any], node: Node) -> dict[str, Any]:
    """The schema's properties of `value`, a missing one null, nested objects alike."""
    shaped: dict[str, Any] = {}
    for name, child in node.properties:
        if child.never:
            continue
        inner = copy.deepcopy(value.get(name))
        shaped[name] = _shaped(inner, child) if isinstance(inner, dict) and child.properties else inner
    return shaped if node.properties else copy.deepcopy(value)


def _likelihoods(predictions: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Per field path: 1 for a value the model gave, 0 for a null (a remote model tells no more)."""
    found: dict[str, float] = {}
    for name, value in predictions.items():
        if isinstance(value, dict) and value:
            found.update(_likelihoods(value, f"{prefix}{name}."))
        else:
            found[prefix + name] = 0.0 if value is None else 1.0
    return found


def json_in(text: str) -> Any:
    """The JSON object an answer in text holds (in a code fence or not), or None."""
    fenced = _FENCED.search(text)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        return json.loads(body[start : end + 1])
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------- prompting
def _system(
    json_schema: Mapping[str, Any],
    instructions: str | None,
    tools: Sequence[Tool],
    steps: int,
    max_tool_calls: int,
) -> str:
    names = ", ".join(tool.name for tool in tools)
    prompt = (
        "You extract data from a business document for a JSON schema. You are not shown the whole "
        f"document: read it with the tools ({names}). Research step by step: you have at most {steps} "
        f"turns, and in each at most {max_tool_calls} tool calls (more are refused). When you have found "
        f"what you can, call {SUBMIT} with the data, an object valid against the schema. Use null for a "
        "value the document does not hold; never invent one. Give dates as YYYY-MM-DD and numbers "
        "without currency signs unless the schema says otherwise.\n\nThe schema:\n"
        + json.dumps(json_schema, ensure_ascii=False)
    )
    return prompt + (f"\n\nInstructions from the user: {instructions}" if instructions else "")


def _outline(workspace: Workspace) -> str:
    count = len(workspace.pages)
    lines = [f"The document has {count} page(s). The opening lines of each page:"]
    for page, page_lines in enumerate(workspace.lines[:_OUTLINE_PAGES]):
        opening = " / ".join(line[:100] for line in page_lines[:_OUTLINE_LINES]) or "(no text)"
        lines.append(f"page {page + 1}: {opening}")
    if count > _OUTLINE_PAGES:
        lines.append(f"(and {count - _OUTLINE_PAGES} more pages)")
    tables = [
        f"page {page} table {number}: {', '.join(table.header)[:120]} ({len(table.rows)} rows)"
        for table in workspace.tables[:_OUTLINE_TABLES]
        for page, number in [workspace.place(table)]
    ]
    lines += ["Tables:", *tables] if tables else ["No tables were found."]
    return "\n".join(lines)


_NO_CALL = f"Call the tools to research the document, or call {SUBMIT} with the data found."
_LAST_STEP = f"This is the last step: call {SUBMIT} now with what you have found."


def _refused(problems: Sequence[str]) -> str:
    listed = "; ".join(problems[:_MAX_PROBLEMS]) + ("; …" if len(problems) > _MAX_PROBLEMS else "")
    return (
        f"The predictions do not match the schema: {listed}. Correct them and call {SUBMIT} again "
        "(null for a value not found); otherwise those values are taken as null."
    )


# ---------------------------------------------------------------------------------------- the loop
class _Research:
    def __init__(
        self, json_schema: Mapping[str, Any], workspace: Workspace, tools: Sequence[Tool], max_tool_calls: int
    ) -> None:
        self.checker = Predictions(json_schema)
        self.workspace = workspace
        self.tools = {tool.name: tool for tool in tools}
        self.max_tool_calls = max_tool_calls
        self.trace: list[TraceStep] = []
        self.final: dict[str, Any] | None = None  # predictions the schema takes as they are: the end
        self.best: dict[str, Any] | None = None  # the last predictions, with refused values null
        self.refused_calls = 0

    def answer_calls(self, step: int, calls: Sequence[ToolCall]) -> list[ToolResult]:
        results: list[ToolResult] = []
        ran = 0
        for call in calls:
            if call.name == SUBMIT:
                results.append(self.submit(step, call))
            elif ran >= self.max_tool_calls:
                self.refused_calls += 1
                text = (
                    f"not run: at most {self.max_tool_calls} tool call(s) per step; "
                    "make this call again in the next step if it is still needed"
                )
                results.append(ToolResult(call.id, call.name, text, error=True))
            else:
                ran += 1
                results.append(self.run(step, call))
        return results

    def run(self, step: int, call: ToolCall) -> ToolResult:
        started = time.perf_counter()
        tool = self.tools.get(call.name)
        try:
            if tool is None:
                raise ToolError(f"no tool named {call.name!r}; the tools: {', '.join(self.tools)}, {SUBMIT}")
            if call.arguments is None:
                raise ToolError("the arguments are not a JSON object")
            output = tool.call(self.workspace, call.arguments)
        except ToolError as error:
            self.record(step, call, f"error: {error}", started)
            return ToolResult(call.id, call.name, f"error: {error}", error=True)
        except Exception as error:  # a tool that breaks on this document: the model is told, not the caller
            self.record(step, call, f"error: the tool failed ({type(error).__name__})", started)
            return ToolResult(call.id, call.name, f"error: the tool failed ({type(error).__name__})", True)
        self.record(step, call, output.summary, started)
        return ToolResult(call.id, call.name, output.content)

    def submit(self, step: int, call: ToolCall) -> ToolResult:
        started = time.perf_counter()
        if call.arguments is None:
            self.record(step, call, "error: the arguments are not a JSON object", started)
            return ToolResult(call.id, call.name, "error: the arguments are not a JSON object", error=True)
        predictions, problems = self.checker.check(call.arguments)
        summary = self.take(predictions, problems)
        self.record(step, call, summary, started)
        if problems:
            return ToolResult(call.id, call.name, _refused(problems), error=True)
        return ToolResult(call.id, call.name, "predictions received")

    def take(self, predictions: dict[str, Any] | None, problems: list[str]) -> str:
        """Takes what was submitted: as the end when the schema takes it, else as the best so far."""
        if predictions is not None and not problems:
            self.final = predictions
            return f"accepted: {self.filled(predictions)}"
        if predictions is not None:
            self.best = predictions
        return f"refused: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")

    def record(self, step: int, call: ToolCall, summary: str, started: float) -> None:
        arguments = call.arguments if call.arguments is not None else {"raw": call.raw[:200]}
        self.trace.append(
            TraceStep(
                step, one_line(call.name, 64) or "(unnamed)", arguments, one_line(summary), _since(started)
            )
        )

    @staticmethod
    def filled(predictions: Mapping[str, Any]) -> str:
        values = _likelihoods(predictions)
        return f"{sum(1 for value in values.values() if value)} of {len(values)} fields found"


def remote_research(
    pages: Sequence[str],
    json_schema: Mapping[str, Any],
    ask: Ask,
    *,
    num_agentic_steps: int = 7,
    max_tool_calls: int = 3,
    instructions: str | None = None,
    lookup: Lookup | None = None,
    time_limit: float | None = None,
) -> Research:
    """The predictions a remote model finds with the research tools, step by step. `ask` reaches the
    model and raises on a remote failure (a timeout, an answer that is no turn at all); `time_limit`
    (seconds) stops asking as the step limit does."""
    started = time.monotonic()
    workspace = Workspace(pages, lookup, field_score(schema_fields(json_schema)))
    tools = offered_tools(lookup is not None)
    steps, calls = max(num_agentic_steps, 1), max(max_tool_calls, 1)
    system = _system(json_schema, instructions, tools, steps, calls)
    offers: list[ToolOffer] = [*tools, submit_tool(json_schema)]
    messages: list[ChatMessage] = [UserText(_outline(workspace))]
    state = _Research(json_schema, workspace, tools, calls)
    usage = {"input_tokens": 0, "output_tokens": 0, "model_turns": 0}
    step, reason = 0, "step limit reached"
    while step < steps:
        if time_limit is not None and time.monotonic() - started > time_limit:
            reason = "time limit reached"
            break
        step += 1
        if step == steps and steps > 1:
            messages.append(UserText(_LAST_STEP))
        turn = ask(system, messages, offers)
        usage["model_turns"] += 1
        for name in ("input_tokens", "output_tokens"):
            usage[name] += max(int(turn.usage.get(name, 0) or 0), 0)
        messages.append(turn)
        if turn.calls:
            messages.append(ToolResults(tuple(state.answer_calls(step, turn.calls))))
        else:
            answered = json_in(turn.text)
            if answered is None:
                messages.append(UserText(_NO_CALL))
                continue
            predictions, problems = state.checker.check(answered)
            summary = state.take(predictions, problems)
            state.trace.append(TraceStep(step, "answer", {"text": one_line(turn.text, 200)}, summary, 0.0))
            if problems:
                messages.append(UserText(_refused(problems)))
        if state.final is not None:
            reason = "predictions submitted"
            break
    predictions = state.final if state.final is not None else state.best
    if predictions is None:
        raise ResearchFailed(f"the model submitted no usable predictions ({reason} after {step} step(s))")
    if state.final is None:
        reason += "; the last predictions submitted, the values the schema refused set to null"
    finish: dict[str, Any] = {"reason": reason}
    if state.refused_calls:
        finish["refused_calls"] = state.refused_calls
    summary = one_line(f"{reason}; {state.filled(predictions)}")
    state.trace.append(TraceStep(max(step, 1), "finish", finish, summary, 0.0))
    return Research(predictions, _likelihoods(predictions), state.trace, usage)


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)
