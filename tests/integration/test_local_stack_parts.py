"""The local stack's parts against moto: resources from the template, pollers, schedules, OpenAPI."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import boto3
import pytest
from docsvc.config import configuration_problems
from docsvc.local.functions import LocalFunction, Route, ScheduleTrigger
from docsvc.local.gateway import RouteTable
from docsvc.local.openapi import function_app, render
from docsvc.local.pollers import QueuePoller, SchedulePoller
from docsvc.local.stack import REGION, Deployment, deploy_template

from tests.conftest import ROOT
from tests.integration import stub_worker

WORKER_TEMPLATE = """
Transform: AWS::Serverless-2016-10-31
Resources:
  Work:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 1
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt WorkDeadLetters.Arn
        maxReceiveCount: 2
  WorkDeadLetters:
    Type: AWS::SQS::Queue
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      Handler: tests.integration.stub_worker.handler
      Timeout: 5
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: !GetAtt Work.Arn
            BatchSize: 10
            FunctionResponseTypes: [ReportBatchItemFailures]
"""


@pytest.fixture
def worker(deployment: Deployment, tmp_path: Path) -> tuple[Deployment, QueuePoller]:
    template = tmp_path / "template.yaml"
    template.write_text(WORKER_TEMPLATE)
    small = deploy_template(template)
    function = small.function("Worker")
    trigger = function.queues[0]
    stub_worker.seen.clear()
    return small, QueuePoller(
        function, trigger, small.queue_url(trigger.queue_arn), REGION, threading.Event()
    )


def messages_in(queue_url: str) -> int:
    attributes = boto3.client("sqs", region_name=REGION).get_queue_attributes(
        QueueUrl=queue_url,
        AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    )["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"]) + int(
        attributes["ApproximateNumberOfMessagesNotVisible"]
    )


def test_template_resources_exist_with_their_indexes_and_redrive(deployment: Deployment) -> None:
    files = boto3.client("dynamodb", region_name=REGION).describe_table(TableName="FilesTable")["Table"]
    queue_url = deployment.queue_url(deployment.function("FileInspectorFunction").queues[0].queue_arn)
    queue = boto3.client("sqs", region_name=REGION).get_queue_attributes(
        QueueUrl=queue_url, AttributeNames=["All"]
    )
    bucket = deployment.provisioned.refs["FilesBucket"]
    notification = boto3.client("s3", region_name=REGION).get_bucket_notification_configuration(Bucket=bucket)

    assert {index["IndexName"] for index in files["GlobalSecondaryIndexes"]} == {
        "files_by_mime",
        "files_by_filename",
    }
    assert json.loads(queue["Attributes"]["RedrivePolicy"])["maxReceiveCount"] == 5
    assert queue["Attributes"]["VisibilityTimeout"] == "720"
    assert notification["QueueConfigurations"][0]["QueueArn"].endswith(":InspectionQueue")


def test_every_function_of_the_template_is_given_the_settings_it_checks_at_start(
    deployment: Deployment,
) -> None:
    problems = {
        function.logical_id: configuration_problems(function.environment) for function in deployment.functions
    }

    assert problems == {function.logical_id: [] for function in deployment.functions}


def test_a_partial_batch_failure_deletes_only_the_successes(worker: tuple[Deployment, QueuePoller]) -> None:
    _, poller = worker
    sqs = boto3.client("sqs", region_name=REGION)
    for body in ("ok-1", "fail", "ok-2"):
        sqs.send_message(QueueUrl=poller.queue_url, MessageBody=body)

    assert poller.poll_once() == 3

    assert messages_in(poller.queue_url) == 1  # only the failed one is left, invisible for now
    time.sleep(1.2)
    assert poller.poll_once() == 1
    assert stub_worker.seen[-1] == "fail"


def test_a_failing_message_goes_to_the_dead_letter_queue(worker: tuple[Deployment, QueuePoller]) -> None:
    small, poller = worker
    boto3.client("sqs", region_name=REGION).send_message(QueueUrl=poller.queue_url, MessageBody="crash")

    for _ in range(3):  # received twice (maxReceiveCount 2), then moved to the dead-letter queue
        poller.poll_once()
        time.sleep(1.1)

    assert stub_worker.seen.count("crash") == 2
    assert messages_in(poller.queue_url) == 0
    assert messages_in(small.provisioned.refs["WorkDeadLetters"]) == 1


def test_scheduled_functions_run_on_their_rate() -> None:
    calls: list[dict[str, object]] = []
    function = LocalFunction("Sweeper", "unused.handler", timeout=5, memory=128, environment={})
    function._handler = lambda event, context: calls.append(event)
    function.load()
    stop = threading.Event()
    poller = SchedulePoller(function, ScheduleTrigger(seconds=1, name="Sweep"), stop)

    poller.start()
    time.sleep(2.5)
    stop.set()
    poller.join(timeout=3)

    assert len(calls) == 2
    assert calls[0]["detail-type"] == "Scheduled Event"


def test_a_slow_function_times_out_at_the_gateway() -> None:
    function = LocalFunction(
        "Slow", "unused.handler", timeout=1, memory=128, environment={}, routes=[Route("GET", "/v1/slow")]
    )
    function._handler = lambda event, context: time.sleep(3)
    function.load()
    from docsvc.local.gateway import dispatch

    answer = dispatch(RouteTable([function]), "GET", "/v1/slow", {}, b"")

    assert answer.status == 504
    assert b"time limit" in answer.body


def test_openapi_document_is_up_to_date(deployment: Deployment) -> None:
    written = (ROOT / "docs" / "openapi.json").read_text()

    assert written == render(deployment.functions), "docs/openapi.json is stale: run `make openapi`"


def test_every_route_of_every_app_is_reachable_through_the_template(deployment: Deployment) -> None:
    routes = RouteTable(deployment.functions)
    for function in deployment.functions:
        if not function.routes:
            continue
        for path, operations in function_app(function).openapi()["paths"].items():
            concrete = path.replace("{file_id}", "file_X")
            for method in operations:
                match = routes.match(method.upper(), concrete)
                assert match is not None, f"{method.upper()} {path} is not in template.yaml"
                assert match.function is function, (
                    f"{method.upper()} {path} is routed to {match.function.logical_id}"
                )
