"""SQS batch of jobs. Each message is one job; a failing record is retried alone, and a redelivered
message finds its job no longer `queued` and does nothing. A message done with gives its tenant's slot
to the tenant's next held job (docsvc.domain.dispatch)."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from docsvc.adapters.queues import read_message
from docsvc.observability import observability
from docsvc.services import job_dispatch, job_service
from docsvc.workers import sqs_worker

tools = observability("job-worker")


def run_record(record: SQSRecord) -> None:
    tenant, job_id = read_message(record.body, "job_id")
    tools.logger.append_keys(job_id=job_id)
    job_service().run(tenant, job_id)
    job_dispatch().finished(tenant, job_id)
    tools.metrics.add_metric(name="JobsRun", unit=MetricUnit.Count, value=1)


handler = sqs_worker(tools, run_record)
