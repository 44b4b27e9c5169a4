"""Deep research on a remote model: the research tools offered by function calling, with the model
scripted at its boundary only: a local HTTP server speaking the OpenAI chat-completions protocol, and
Bedrock's Converse through botocore's Stubber. The loop, the adapters and the tools are the real ones."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.stub import ANY, Stubber
from docsvc.adapters import aws
from docsvc.adapters.bedrock import BedrockModels
from docsvc.adapters.openai_compatible import OpenAICompatibleModels, OpenAIEndpoint
from docsvc.domain.intelligence import Model, ModelFailed
from docsvc.domain.models import ModelInfo
from docsvc.domain.secrets import SecretResolver
from docsvc.intelligence.remote_research import ResearchFailed, remote_research
from docsvc.intelligence.research import Research, research
from docsvc.intelligence.research_tools import SUBMIT, TOOLS
from docsvc.tenancy import Tenant
from jsonschema import Draft202012Validator

from tests.integration.test_remote_models import OpenAICompatibleServer
from tests.unit.test_builtin_research import POLICY_PAGES, POLICY_SCHEMA

TENANT = Tenant("org_01TEST", "test")
OPENAI = ModelInfo(id="openai/local", provider="openai", tasks=["extract"])
BEDROCK_ID = "anthropic.claude-test-v1:0"
BEDROCK = ModelInfo(id=f"bedrock/{BEDROCK_ID}", provider="bedrock", tasks=["extract"])
FOUND = {
    "policy_number": "PX-778120",
    "termination_date": "2027-03-31",
    "monthly_premium": 1250.0,
    "insurer_name": "Northwind Insurance plc",
    "insurer_id": None,
}


# ---------------------------------------------------------------------------------------- the boundary
class Vault:
    """Secrets Manager's part: the values by tenant and name."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str, str], str] = {}

    def write(self, tenant: Tenant, name: str, value: str) -> None:
        self.values[(tenant.organization_id, tenant.environment, name)] = value

    def create(self, tenant: Tenant, name: str, value: str) -> bool:
        self.write(tenant, name, value)
        return True

    def read(self, tenant: Tenant, name: str) -> str | None:
        return self.values.get((tenant.organization_id, tenant.environment, name))

    def erase(self, tenant: Tenant, name: str) -> None:
        self.values.pop((tenant.organization_id, tenant.environment, name), None)


@pytest.fixture
def server() -> Iterator[OpenAICompatibleServer]:
    chat = OpenAICompatibleServer()
    thread = threading.Thread(target=chat.serve_forever, daemon=True)
    thread.start()
    yield chat
    chat.shutdown()
    chat.server_close()


@pytest.fixture
def openai(server: OpenAICompatibleServer) -> Model:
    vault = Vault()
    vault.write(TENANT, "LLM_KEY", "k-test")
    endpoint = OpenAIEndpoint(
        name="local", base_url=server.base_url, model="m-1", api_key_secret="secret://LLM_KEY"
    )
    return Model(OPENAI, TENANT, OpenAICompatibleModels({OPENAI.id: endpoint}, SecretResolver(vault)))


def chat(
    *calls: tuple[str, Any], text: str | None = None, tokens: tuple[int, int] = (100, 20)
) -> dict[str, Any]:
    """A chat completion whose message calls these tools ((name, arguments); a str is sent as written)."""
    tool_calls = [
        {
            "id": f"call_{number}",
            "type": "function",
            "function": {
                "name": name,
                "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
            },
        }
        for number, (name, arguments) in enumerate(calls, 1)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = tool_calls
    usage = {"prompt_tokens": tokens[0], "completion_tokens": tokens[1], "total_tokens": sum(tokens)}
    return {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}], "usage": usage}


def script(server: OpenAICompatibleServer, *replies: dict[str, Any]) -> None:
    server.replies.extend((200, reply) for reply in replies)


def sent(server: OpenAICompatibleServer, number: int) -> list[dict[str, Any]]:
    """The messages of the `number`th request (from 1)."""
    messages: list[dict[str, Any]] = server.requests[number - 1][1]["messages"]
    return messages


def run(model: Model, **options: Any) -> Research:
    return remote_research(POLICY_PAGES, POLICY_SCHEMA, model.converse, **options)


def steps_of(found: Research) -> list[tuple[int, str]]:
    return [(entry.step, entry.tool) for entry in found.trace]


def well_formed(found: Research, max_tool_calls: int = 3) -> None:
    assert list(Draft202012Validator(POLICY_SCHEMA).iter_errors(found.predictions)) == []
    assert found.trace[-1].tool == "finish"
    for entry in found.trace:
        assert entry.duration_ms >= 0 and 0 < len(entry.output_summary) <= 200
        assert "\n" not in entry.output_summary
    run_per_step: dict[int, int] = {}
    for entry in found.trace:
        if entry.tool in TOOLS:
            run_per_step[entry.step] = run_per_step.get(entry.step, 0) + 1
    assert all(count <= max_tool_calls for count in run_per_step.values())


# ---------------------------------------------------------------------------------------- the tools
def test_the_builtin_planner_calls_the_tools_a_remote_model_is_offered(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    def lookup(column: str, value: str) -> list[dict[str, Any]]:
        return [{"insurer_name": value, "insurer_id": "INS-1"}]

    tables = "| Policy | Renews on |\n|---|---|\n| HM-88123 | 01/04/2027 |"
    renewal: dict[str, Any] = {"type": "object", "properties": {"renewal_date": {"type": ["string", "null"]}}}
    insurer = {key: POLICY_SCHEMA["properties"][key] for key in ("insurer_name", "insurer_id")}
    builtin = [
        *research(POLICY_PAGES, POLICY_SCHEMA).trace,
        *research([tables], renewal).trace,
        *research(
            ["Insurer: Northwind Insurance plc"], {"type": "object", "properties": insurer}, lookup=lookup
        ).trace,
    ]
    script(server, chat((SUBMIT, FOUND)))
    run(openai, lookup=lookup)

    offered = {tool["function"]["name"]: tool["function"] for tool in server.requests[0][1]["tools"]}
    assert list(offered) == [*TOOLS, SUBMIT]
    assert offered[SUBMIT]["parameters"] == POLICY_SCHEMA
    called = [entry for entry in builtin if entry.tool not in {"extract", "finish"}]
    assert {entry.tool for entry in called} == set(TOOLS)
    for entry in called:  # the planner's calls are calls of the offered tools, as a model may make them
        assert list(Draft202012Validator(offered[entry.tool]["parameters"]).iter_errors(entry.input)) == []
        assert offered[entry.tool]["description"] == TOOLS[entry.tool].description


def test_without_lookup_tables_no_lookup_tool_is_offered(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    script(server, chat((SUBMIT, FOUND)))

    run(openai)

    names = [tool["function"]["name"] for tool in server.requests[0][1]["tools"]]
    assert names == ["search_text", "read_page", "read_table", SUBMIT]


# ---------------------------------------------------------------------------------------- OpenAI-compatible
def test_a_model_searches_reads_a_page_and_submits(openai: Model, server: OpenAICompatibleServer) -> None:
    script(
        server,
        chat(("search_text", {"terms": ["policy number"]})),
        chat(("read_page", {"page": 2, "field": "policy_number"})),
        chat((SUBMIT, FOUND), tokens=(300, 40)),
    )

    found = run(openai, num_agentic_steps=5, max_tool_calls=2, instructions="Dates are day first.")

    well_formed(found, 2)
    assert found.predictions == FOUND
    assert steps_of(found) == [(1, "search_text"), (2, "read_page"), (3, SUBMIT), (3, "finish")]
    search, read, submit, finish = found.trace
    assert search.input == {"terms": ["policy number"]}
    assert search.output_summary.startswith("1 line(s) on page 1")
    assert read.output_summary == "page 2, 5 lines"
    assert submit.input == FOUND and submit.output_summary.startswith("accepted")
    assert finish.input == {"reason": "predictions submitted"}
    assert found.likelihoods["policy_number"] == 1.0 and found.likelihoods["insurer_id"] == 0.0
    assert found.usage == {"input_tokens": 500, "output_tokens": 80, "model_turns": 3}

    headers, first = server.requests[0]
    assert headers["authorization"] == "Bearer k-test"
    assert first["tool_choice"] == "auto" and first["model"] == "m-1"
    system, outline = first["messages"]
    assert system["role"] == "system" and '"policy_number"' in system["content"]
    assert "at most 5 turns" in system["content"] and "at most 2 tool calls" in system["content"]
    assert "Dates are day first." in system["content"]
    assert outline["role"] == "user" and "2 page(s)" in outline["content"]
    assert "page 2 table 1: Covered risk, Limit (EUR)" in outline["content"]
    # each tool answer goes back as a tool message after the model's turn, which is echoed as it was
    second = sent(server, 2)
    assert second[2]["tool_calls"][0]["function"] == {
        "name": "search_text",
        "arguments": '{"terms": ["policy number"]}',
    }
    assert second[3]["role"] == "tool" and second[3]["tool_call_id"] == "call_1"
    assert "page 1, line 5: Policy number" in second[3]["content"]
    third = sent(server, 3)
    assert third[-1]["role"] == "tool" and "PX-778120" in third[-1]["content"]


def test_calls_over_the_limit_are_answered_with_an_error_and_not_run(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    script(
        server,
        chat(
            ("search_text", {"terms": ["premium"]}),
            ("read_page", {"page": 1}),
            ("read_table", {"page": 2, "table": 1}),
            ("read_page", {"page": 2}),
        ),
        chat((SUBMIT, FOUND)),
    )

    found = run(openai, max_tool_calls=2)

    well_formed(found, 2)
    assert steps_of(found) == [(1, "search_text"), (1, "read_page"), (2, SUBMIT), (2, "finish")]
    assert found.trace[-1].input == {"reason": "predictions submitted", "refused_calls": 2}
    answers = [message for message in sent(server, 2) if message["role"] == "tool"]
    assert [answer["tool_call_id"] for answer in answers] == ["call_1", "call_2", "call_3", "call_4"]
    assert "Covered risk" not in answers[2]["content"]
    for refused in answers[2:]:
        assert refused["content"].startswith("[error] not run: at most 2 tool call(s) per step")


def test_submitting_does_not_count_against_the_limit(openai: Model, server: OpenAICompatibleServer) -> None:
    script(server, chat(("read_page", {"page": 2}), (SUBMIT, FOUND)))

    found = run(openai, max_tool_calls=1)

    assert steps_of(found) == [(1, "read_page"), (1, SUBMIT), (1, "finish")]
    assert found.predictions == FOUND


def test_malformed_calls_are_answered_as_errors_and_the_research_goes_on(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    script(
        server,
        chat(
            ("read_page", "{not json"),
            ("read_page", {"page": 9}),
            ("read_table", {"page": 1, "table": "first"}),
        ),
        chat(("delete_everything", {}), ("search_text", {}), (SUBMIT, "[1, 2]")),
        chat((SUBMIT, FOUND)),
    )

    found = run(openai, max_tool_calls=3)

    well_formed(found)
    assert found.predictions == FOUND
    summaries = {(entry.step, entry.tool): entry.output_summary for entry in found.trace}
    assert summaries[(1, "read_page")].startswith("error: ")  # the last read_page of step 1: no page 9
    assert found.trace[0].input == {"raw": "{not json"}
    assert found.trace[0].output_summary == "error: the arguments are not a JSON object"
    assert "no page 9; the document has 2 page(s)" in found.trace[1].output_summary
    assert "arguments refused at table" in found.trace[2].output_summary
    assert "no tool named 'delete_everything'" in summaries[(2, "delete_everything")]
    assert "give terms to search for" in summaries[(2, "search_text")]
    errors = [message["content"] for message in sent(server, 3) if message["role"] == "tool"]
    assert len(errors) == 6 and all(error.startswith("[error] ") for error in errors)
    echoed = sent(server, 2)[2]["tool_calls"][0]["function"]["arguments"]
    assert echoed == "{not json"  # the model's own call, echoed as it wrote it


def test_predictions_the_schema_refuses_are_sent_back_then_taken_with_those_values_null(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    wrong = {**FOUND, "monthly_premium": "EUR 1,250.00", "termination_date": 20270331, "extra": 1}
    script(
        server,
        chat((SUBMIT, wrong)),
        chat(("search_text", {"terms": ["premium"]})),
    )

    found = run(openai, num_agentic_steps=2)

    well_formed(found)
    assert found.predictions == {**FOUND, "monthly_premium": None, "termination_date": None}
    assert steps_of(found) == [(1, SUBMIT), (2, "search_text"), (2, "finish")]
    assert found.trace[0].output_summary.startswith("refused: ")
    assert "values the schema refused set to null" in found.trace[-1].input["reason"]
    refusal, last_step = sent(server, 2)[-2:]
    assert refusal["role"] == "tool" and refusal["content"].startswith("[error] The predictions do not match")
    assert "monthly_premium" in refusal["content"] and "termination_date" in refusal["content"]
    assert last_step == {
        "role": "user",
        "content": f"This is the last step: call {SUBMIT} now with what you have found.",
    }


def test_a_model_that_never_submits_fails_at_the_step_limit(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    script(server, *[chat(("search_text", {"terms": ["policy"]})) for _ in range(3)])

    with pytest.raises(ResearchFailed, match="no usable predictions"):
        run(openai, num_agentic_steps=3)

    assert len(server.requests) == 3  # one turn a step, never more


def test_an_answer_in_text_with_json_ends_the_research(openai: Model, server: OpenAICompatibleServer) -> None:
    answer = "Here is what I found:\n```json\n" + json.dumps({"policy_number": "PX-778120"}) + "\n```"
    script(server, chat(text="Let me think."), chat(text=answer))

    found = run(openai)

    assert found.predictions == {**dict.fromkeys(FOUND), "policy_number": "PX-778120"}
    assert steps_of(found) == [(2, "answer"), (2, "finish")]
    assert sent(server, 2)[-1] == {
        "role": "user",
        "content": f"Call the tools to research the document, or call {SUBMIT} with the data found.",
    }


def test_lookup_table_answers_the_rows_of_the_lookup_it_is_given(
    openai: Model, server: OpenAICompatibleServer
) -> None:
    asked: list[tuple[str, str]] = []

    def lookup(column: str, value: str) -> list[dict[str, Any]]:
        asked.append((column, value))
        return [{"insurer_name": value, "insurer_id": "INS-0042"}]

    script(
        server,
        chat(("lookup_table", {"column": "insurer_name", "value": "Northwind Insurance plc"})),
        chat((SUBMIT, {**FOUND, "insurer_id": "INS-0042"})),
    )

    found = run(openai, lookup=lookup)

    assert asked == [("insurer_name", "Northwind Insurance plc")]
    assert found.trace[0].output_summary == "1 row(s)"
    assert "INS-0042" in sent(server, 2)[-1]["content"]
    assert found.predictions["insurer_id"] == "INS-0042"


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        ((500, {"error": "boom"}), "HTTP 500"),
        ((200, b"<html>"), "not JSON"),
        ((200, {"choices": []}), "not a chat completion"),
        ((200, {"choices": [{"message": "hello"}]}), "not a chat completion"),
    ],
)
def test_a_remote_failure_is_a_model_failure(
    openai: Model, server: OpenAICompatibleServer, reply: tuple[int, Any], said: str
) -> None:
    script(server, chat(("read_page", {"page": 1})))
    server.replies.append(reply)

    with pytest.raises(ModelFailed, match=said):
        run(openai)


def test_a_time_limit_stops_asking(openai: Model, server: OpenAICompatibleServer) -> None:
    with pytest.raises(ResearchFailed, match="time limit reached after 0 step"):
        run(openai, time_limit=0.0)

    assert server.requests == []


# ---------------------------------------------------------------------------------------- Bedrock
@pytest.fixture
def bedrock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stubber]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    aws.reset()
    with Stubber(aws.bedrock_runtime()) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()
    aws.reset()


class Sent:
    """Matches any parameter, and keeps what was sent."""

    def __init__(self) -> None:
        self.values: list[Any] = []

    def __eq__(self, other: object) -> bool:
        self.values.append(other)
        return True

    __hash__ = None  # type: ignore[assignment]


def converse(stubber: Stubber, *blocks: dict[str, Any], messages: Sent, tools: Sent) -> None:
    response = {
        "output": {"message": {"role": "assistant", "content": list(blocks)}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 50, "outputTokens": 10, "totalTokens": 60},
        "metrics": {"latencyMs": 100},
    }
    expected = {
        "modelId": BEDROCK_ID,
        "system": ANY,
        "messages": messages,
        "toolConfig": tools,
        "inferenceConfig": {"temperature": 0},
    }
    stubber.add_response("converse", response, expected)


def use(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": arguments}}


def test_bedrock_converses_with_tool_use_and_tool_result_blocks(bedrock: Stubber) -> None:
    messages, tools = Sent(), Sent()
    converse(bedrock, {"text": "Looking for the table."}, use("t1", "read_table", {"page": 2, "table": 1}),
             use("t2", "read_page", {"page": 7}), messages=messages, tools=tools)  # fmt: skip
    converse(bedrock, use("t3", SUBMIT, FOUND), messages=messages, tools=tools)

    found = run(Model(BEDROCK, TENANT, BedrockModels()))

    well_formed(found)
    assert found.predictions == FOUND
    assert steps_of(found) == [(1, "read_table"), (1, "read_page"), (2, SUBMIT), (2, "finish")]
    assert found.usage == {"input_tokens": 100, "output_tokens": 20, "model_turns": 2}
    config = tools.values[0]
    assert config["toolChoice"] == {"auto": {}}
    specs = {tool["toolSpec"]["name"]: tool["toolSpec"] for tool in config["tools"]}
    assert list(specs) == ["search_text", "read_page", "read_table", SUBMIT]
    assert specs[SUBMIT]["inputSchema"] == {"json": POLICY_SCHEMA}
    assert specs["read_page"]["inputSchema"] == {"json": TOOLS["read_page"].parameters}
    outline, turn, results = messages.values[1]
    assert outline["role"] == "user" and turn["role"] == "assistant"
    assert turn["content"][0] == {"text": "Looking for the table."}
    assert turn["content"][1] == use("t1", "read_table", {"page": 2, "table": 1})
    assert results["role"] == "user"
    first, second = (block["toolResult"] for block in results["content"])
    assert first["toolUseId"] == "t1" and first["status"] == "success"
    assert "| Fire | 500,000.00 |" in first["content"][0]["text"]
    assert second["toolUseId"] == "t2" and second["status"] == "error"
    assert "no page 7" in second["content"][0]["text"]


def test_bedrock_input_that_is_not_an_object_is_an_error_result(bedrock: Stubber) -> None:
    messages, tools = Sent(), Sent()
    converse(bedrock, use("t1", "search_text", ["policy"]), messages=messages, tools=tools)
    converse(bedrock, {"text": "I am done."}, messages=messages, tools=tools)

    with pytest.raises(ResearchFailed, match="step limit reached after 2 step"):
        run(Model(BEDROCK, TENANT, BedrockModels()), num_agentic_steps=2)

    last = messages.values[1]
    result = last[2]["content"][0]["toolResult"]
    assert result["status"] == "error" and "not a JSON object" in result["content"][0]["text"]
    assert last[1]["content"][0]["toolUse"]["input"] == {}
    assert last[2]["content"][1] == {
        "text": f"This is the last step: call {SUBMIT} now with what you have found."
    }


@pytest.mark.parametrize("code", ["ModelTimeoutException", "ValidationException"])
def test_a_bedrock_error_is_a_model_failure_naming_it(bedrock: Stubber, code: str) -> None:
    bedrock.add_client_error("converse", service_error_code=code, http_status_code=400)

    with pytest.raises(ModelFailed, match=code):
        run(Model(BEDROCK, TENANT, BedrockModels()))
