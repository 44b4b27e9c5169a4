"""The functions of a template as the local stack runs them: route patterns, triggers, and invocation."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import pytest
from docsvc.local.functions import (
    LocalFunction,
    QueueTrigger,
    Route,
    ScheduleTrigger,
    StreamTrigger,
    functions_of,
)
from docsvc.local.template import Resolver

# ---------------------------------------------------------------------------- route patterns


def test_a_literal_route_matches_exactly_its_path() -> None:
    pattern = Route("GET", "/v1/auth/status").pattern()

    assert pattern.match("/v1/auth/status")
    assert not pattern.match("/v1/auth/status/")
    assert not pattern.match("/v1/auth/statusx")
    assert not pattern.match("/v1/auth")
    assert not pattern.match("/prefix/v1/auth/status")


def test_regex_characters_in_a_literal_path_match_only_themselves() -> None:
    pattern = Route("GET", "/v1/files.json").pattern()

    assert pattern.match("/v1/files.json")
    assert not pattern.match("/v1/filesXjson")


def test_a_path_parameter_matches_one_segment() -> None:
    pattern = Route("GET", "/v1/files/{file_id}/content").pattern()

    found = pattern.match("/v1/files/file_01/content")

    assert found is not None
    assert found.groupdict() == {"file_id": "file_01"}
    assert not pattern.match("/v1/files/a/b/content")
    assert not pattern.match("/v1/files//content")


def test_a_greedy_proxy_matches_one_or_more_segments() -> None:
    pattern = Route("ANY", "/v1/files/{proxy+}").pattern()

    one = pattern.match("/v1/files/file_01")
    many = pattern.match("/v1/files/file_01/download/now")

    assert one is not None and one.groupdict() == {"proxy": "file_01"}
    assert many is not None and many.groupdict() == {"proxy": "file_01/download/now"}
    assert not pattern.match("/v1/files")
    assert not pattern.match("/v1/files/")
    assert not pattern.match("/v1/other/file_01")


def test_parameters_and_a_proxy_combine() -> None:
    pattern = Route("ANY", "/v1/orgs/{org_id}/{proxy+}").pattern()

    found = pattern.match("/v1/orgs/org_1/keys/key_2")

    assert found is not None
    assert found.groupdict() == {"org_id": "org_1", "proxy": "keys/key_2"}


def test_the_route_key_is_the_method_and_the_template_path() -> None:
    assert Route("GET", "/v1/files/{file_id}").route_key == "GET /v1/files/{file_id}"


# ---------------------------------------------------------------------------- functions from a template


def resolver() -> Resolver:
    return Resolver(
        pseudo={"AWS::Region": "eu-west-1", "AWS::AccountId": "123456789012"},
        parameters={"Stage": "dev"},
        ref=lambda logical_id: f"physical-{logical_id}",
        attribute=lambda logical_id, attribute: (
            f"arn:aws:sqs:eu-west-1:123456789012:{logical_id}-{attribute}"
        ),
    )


def template() -> dict[str, Any]:
    return {
        "Globals": {
            "Function": {
                "Timeout": 10,
                "MemorySize": 512,
                "Environment": {"Variables": {"STAGE": {"Ref": "Stage"}, "LOG_LEVEL": "INFO"}},
            }
        },
        "Resources": {
            "Bucket": {"Type": "AWS::S3::Bucket"},
            "InspectionQueue": {"Type": "AWS::SQS::Queue"},
            "FilesApiFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "files_api.handler.handler",
                    "MemorySize": 1024,
                    "Environment": {"Variables": {"BUCKET": {"Ref": "Bucket"}, "LOG_LEVEL": "DEBUG"}},
                    "Events": {
                        "Root": {"Type": "HttpApi", "Properties": {"Path": "/v1/files", "Method": "get"}},
                        "Proxy": {"Type": "HttpApi", "Properties": {"Path": "/v1/files/{proxy+}"}},
                    },
                },
            },
            "InspectorFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "file_inspector.handler.handler",
                    "Timeout": 60,
                    "Events": {
                        "Inspections": {
                            "Type": "SQS",
                            "Properties": {
                                "Queue": {"Fn::GetAtt": ["InspectionQueue", "Arn"]},
                                "BatchSize": 5,
                                "FunctionResponseTypes": ["ReportBatchItemFailures"],
                            },
                        },
                        "Plain": {"Type": "SQS", "Properties": {"Queue": "arn:aws:sqs:eu-west-1:1:plain"}},
                    },
                },
            },
            "SweeperFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "sweeper.handler.handler",
                    "Events": {
                        "Every5Minutes": {"Type": "Schedule", "Properties": {"Schedule": "rate(5 minutes)"}},
                        "Hourly": {"Type": "Schedule", "Properties": {"Schedule": "rate(1 hour)"}},
                        "Daily": {"Type": "ScheduleV2", "Properties": {"ScheduleExpression": "rate(2 days)"}},
                    },
                },
            },
        },
    }


def by_id(functions: list[LocalFunction]) -> dict[str, LocalFunction]:
    return {function.logical_id: function for function in functions}


def test_every_serverless_function_and_nothing_else_becomes_a_function() -> None:
    functions = functions_of(template(), resolver())

    assert sorted(by_id(functions)) == ["FilesApiFunction", "InspectorFunction", "SweeperFunction"]
    assert by_id(functions)["FilesApiFunction"].handler_path == "files_api.handler.handler"


def test_timeout_and_memory_come_from_the_function_then_globals() -> None:
    functions = by_id(functions_of(template(), resolver()))

    assert (functions["FilesApiFunction"].timeout, functions["FilesApiFunction"].memory) == (10, 1024)
    assert (functions["InspectorFunction"].timeout, functions["InspectorFunction"].memory) == (60, 512)


def test_without_globals_lambda_defaults_apply() -> None:
    bare = {
        "Resources": {"Fn": {"Type": "AWS::Serverless::Function", "Properties": {"Handler": "m.handler"}}},
    }

    (function,) = functions_of(bare, resolver())

    assert (function.timeout, function.memory) == (3, 128)
    assert function.environment == {}
    assert (function.routes, function.queues, function.streams, function.schedules) == ([], [], [], [])


def test_environment_merges_globals_and_function_variables_resolved_to_strings() -> None:
    functions = by_id(functions_of(template(), resolver()))

    assert functions["FilesApiFunction"].environment == {
        "STAGE": "dev",
        "LOG_LEVEL": "DEBUG",  # the function's own value wins
        "BUCKET": "physical-Bucket",
    }
    assert functions["SweeperFunction"].environment == {"STAGE": "dev", "LOG_LEVEL": "INFO"}


def test_http_api_events_become_routes_with_upper_case_methods_or_any() -> None:
    files_api = by_id(functions_of(template(), resolver()))["FilesApiFunction"]

    assert files_api.routes == [Route("GET", "/v1/files"), Route("ANY", "/v1/files/{proxy+}")]


def test_sqs_events_become_queue_triggers_with_batch_size_and_partial_failures() -> None:
    inspector = by_id(functions_of(template(), resolver()))["InspectorFunction"]

    assert inspector.queues == [
        QueueTrigger(
            queue_arn="arn:aws:sqs:eu-west-1:123456789012:InspectionQueue-Arn",
            batch_size=5,
            reports_failures=True,
        ),
        QueueTrigger(queue_arn="arn:aws:sqs:eu-west-1:1:plain", batch_size=10, reports_failures=False),
    ]


def test_rate_schedules_become_periods_in_seconds() -> None:
    sweeper = by_id(functions_of(template(), resolver()))["SweeperFunction"]

    assert sweeper.schedules == [
        ScheduleTrigger(seconds=300, name="Every5Minutes"),
        ScheduleTrigger(seconds=3600, name="Hourly"),
        ScheduleTrigger(seconds=2 * 86400, name="Daily"),
    ]


@pytest.mark.parametrize("expression", ["cron(0 12 * * ? *)", "rate(5 weeks)", "rate(five minutes)", ""])
def test_a_schedule_other_than_a_rate_is_refused_naming_the_function_and_event(expression: str) -> None:
    cron = {
        "Resources": {
            "NightlyFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "m.handler",
                    "Events": {"Nightly": {"Type": "Schedule", "Properties": {"Schedule": expression}}},
                },
            }
        }
    }

    with pytest.raises(ValueError, match=r"NightlyFunction\.Nightly"):
        functions_of(cron, resolver())


# ---------------------------------------------------------------------------- DynamoDB streams


def stream_function(**properties: Any) -> dict[str, Any]:
    return {
        "Resources": {
            "ProjectorFunction": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "m.handler",
                    "Events": {
                        "NewEvents": {
                            "Type": "DynamoDB",
                            "Properties": {
                                "Stream": {"Fn::GetAtt": ["EventsTable", "StreamArn"]},
                                "StartingPosition": "TRIM_HORIZON",
                            }
                            | properties,
                        }
                    },
                },
            }
        }
    }


def streams_of(**properties: Any) -> list[StreamTrigger]:
    (function,) = functions_of(stream_function(**properties), resolver())
    return function.streams


def test_dynamodb_events_become_stream_triggers_with_their_settings() -> None:
    streams = streams_of(
        BatchSize=25,
        MaximumRetryAttempts=10,
        BisectBatchOnFunctionError=True,
        FunctionResponseTypes=["ReportBatchItemFailures"],
        FilterCriteria={"Filters": [{"Pattern": '{"eventName": ["INSERT"]}'}]},
    )

    assert streams == [
        StreamTrigger(
            stream_arn="arn:aws:sqs:eu-west-1:123456789012:EventsTable-StreamArn",
            starting_position="TRIM_HORIZON",
            batch_size=25,
            reports_failures=True,
            event_names=frozenset({"INSERT"}),
            maximum_retry_attempts=10,
        )
    ]


def test_a_stream_trigger_defaults_to_lambdas_batch_of_100_all_records_and_endless_retries() -> None:
    (trigger,) = streams_of(StartingPosition="LATEST")

    assert trigger.starting_position == "LATEST"
    assert trigger.batch_size == 100
    assert not trigger.reports_failures
    assert trigger.event_names is None
    assert trigger.maximum_retry_attempts is None


def test_minus_one_retry_attempts_means_endless_retries_as_on_aws() -> None:
    (trigger,) = streams_of(MaximumRetryAttempts=-1)

    assert trigger.maximum_retry_attempts is None


def test_several_filters_let_through_the_event_names_of_any_of_them() -> None:
    (trigger,) = streams_of(
        FilterCriteria={
            "Filters": [
                {"Pattern": '{"eventName": ["INSERT"]}'},
                {"Pattern": {"eventName": ["MODIFY"], "dynamodb": {"NewImage": {"kind": {"S": ["x"]}}}}},
            ]
        }
    )

    assert trigger.event_names == frozenset({"INSERT", "MODIFY"})


def test_a_filter_without_an_event_name_lets_every_event_name_through() -> None:
    (trigger,) = streams_of(
        FilterCriteria={
            "Filters": [
                {"Pattern": '{"eventName": ["INSERT"]}'},
                {"Pattern": '{"dynamodb": {"Keys": {"pk": {"S": ["a"]}}}}'},
            ]
        }
    )

    assert trigger.event_names is None


def test_an_event_name_filter_other_than_a_list_of_names_is_refused() -> None:
    with pytest.raises(ValueError, match=r"ProjectorFunction\.NewEvents"):
        streams_of(FilterCriteria={"Filters": [{"Pattern": '{"eventName": [{"prefix": "INS"}]}'}]})


@pytest.mark.parametrize("position", ["AT_TIMESTAMP", None])
def test_a_starting_position_other_than_trim_horizon_or_latest_is_refused(position: str | None) -> None:
    with pytest.raises(ValueError, match=r"ProjectorFunction\.NewEvents"):
        streams_of(StartingPosition=position)


# ---------------------------------------------------------------------------- invocation


def answer(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return {
        "event": event,
        "function_name": context.function_name,
        "memory": context.memory_limit_in_mb,
        "arn": context.invoked_function_arn,
        "remaining_ms": context.get_remaining_time_in_millis(),
    }


def sleep(event: dict[str, Any], context: Any) -> None:
    time.sleep(event["seconds"])


@pytest.fixture
def local_function() -> Iterator[LocalFunction]:
    function = LocalFunction("Answer", f"{__name__}.answer", timeout=5, memory=256, environment={})
    yield function
    function.shutdown()


def test_invoke_runs_the_handler_with_the_event_and_a_lambda_context(local_function: LocalFunction) -> None:
    result = local_function.invoke({"hello": "world"})

    assert result["event"] == {"hello": "world"}
    assert result["function_name"] == "Answer"
    assert result["memory"] == 256
    assert result["arn"].endswith(":function:Answer")
    assert 4000 < result["remaining_ms"] <= 5000


def test_the_remaining_time_follows_the_timeout_of_the_call(local_function: LocalFunction) -> None:
    result = local_function.invoke({}, timeout=1)

    assert 0 < result["remaining_ms"] <= 1000


def test_a_handler_running_past_the_timeout_raises_timeout_error() -> None:
    function = LocalFunction("Sleepy", f"{__name__}.sleep", timeout=1, memory=128, environment={})

    try:
        with pytest.raises(FutureTimeout):
            function.invoke({"seconds": 0.5}, timeout=0.05)
    finally:
        function.shutdown()


HUNG_INVOCATION = """
import threading
from docsvc.local.functions import LocalFunction

def hangs(event, context):
    threading.Event().wait()

import sys
sys.modules["hung"] = sys.modules["__main__"]
function = LocalFunction("Hung", "hung.hangs", timeout=1, memory=128, environment={})
try:
    function.invoke({}, timeout=0.2)
except TimeoutError:
    print("timed out")
"""


def test_an_invocation_that_never_returns_does_not_hold_the_process_at_exit() -> None:
    import subprocess
    import sys

    finished = subprocess.run(
        [sys.executable, "-c", HUNG_INVOCATION], capture_output=True, text=True, timeout=30, check=False
    )

    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "timed out"
