"""SQS batch of workflow runs. A message names its run; a copy of one already started does nothing."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from docsvc.adapters.queues import read_message
from docsvc.observability import observability
from docsvc.services import workflow_runner
from docsvc.workers import sqs_worker

tools = observability("workflow-worker")


def run_record(record: SQSRecord) -> None:
    tenant, run_id = read_message(record.body, "run_id")
    tools.logger.append_keys(run_id=run_id)
    workflow_runner().run(tenant, run_id)
    tools.metrics.add_metric(name="WorkflowRuns", unit=MetricUnit.Count, value=1)


handler = sqs_worker(tools, run_record)
