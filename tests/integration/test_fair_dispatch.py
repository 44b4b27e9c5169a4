"""Fair dispatch of jobs through the real handlers on moto: a tenant has at most IN_FLIGHT_PER_TENANT jobs
on the queue, the rest wait held and follow one by one as the worker finishes; another tenant's job is
never behind a backlog; a slot whose message was lost is freed by the sweep."""

from __future__ import annotations

import threading
from typing import Any

import boto3
import httpx
from docsvc.config import settings
from docsvc.domain.dispatch import IN_FLIGHT_PER_TENANT
from docsvc.local.pollers import QueuePoller
from docsvc.local.stack import REGION, Deployment
from docsvc.services import job_dispatch
from docsvc.tenancy import Tenant

from tests.conftest import Org, auth, drain
from tests.integration.test_jobs import create_job, get_job, parse_request


def queued_messages() -> list[dict[str, Any]]:
    """The job queue's messages, read without taking them (visibility 0)."""
    sqs = boto3.client("sqs", region_name=REGION)
    seen: dict[str, dict[str, Any]] = {}
    for _ in range(20):
        batch = sqs.receive_message(
            QueueUrl=settings().job_queue_url,
            MaxNumberOfMessages=10,
            VisibilityTimeout=0,
            AttributeNames=["All"],
        ).get("Messages", [])
        seen |= {message["MessageId"]: message for message in batch}
    return list(seen.values())


def lose_message(job_id: str) -> None:
    sqs = boto3.client("sqs", region_name=REGION)
    for _ in range(50):
        batch = sqs.receive_message(
            QueueUrl=settings().job_queue_url, MaxNumberOfMessages=10, VisibilityTimeout=0
        ).get("Messages", [])
        for message in batch:
            if job_id in message["Body"]:
                sqs.delete_message(QueueUrl=settings().job_queue_url, ReceiptHandle=message["ReceiptHandle"])
                return
    raise AssertionError(f"no message of {job_id}")


def worker(deployment: Deployment) -> QueuePoller:
    function = deployment.function("JobWorkerFunction")
    trigger = function.queues[0]
    return QueuePoller(function, trigger, deployment.queue_url(trigger.queue_arn), REGION, threading.Event())


def create_jobs(api: httpx.Client, key: str, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        response = create_job(api, key, parse_request(pages=1))
        assert response.status_code == 201, response.text
        ids.append(response.json()["id"])
    return ids


def test_a_tenant_has_at_most_its_slots_on_the_queue_and_the_rest_held_queued(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    jobs = create_jobs(api, org.test.key, IN_FLIGHT_PER_TENANT + 3)

    messages = queued_messages()

    assert len(messages) == IN_FLIGHT_PER_TENANT
    assert {message["Attributes"]["MessageGroupId"] for message in messages} == {f"{org.id}#test"}
    assert {get_job(api, org.test.key, job_id)["status"] for job_id in jobs} == {"queued"}


def test_held_jobs_follow_as_the_worker_finishes_until_every_job_is_done(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    jobs = create_jobs(api, org.test.key, IN_FLIGHT_PER_TENANT + 3)

    drain(deployment, "JobWorkerFunction", rounds=len(jobs) + 2)

    assert {get_job(api, org.test.key, job_id)["status"] for job_id in jobs} == {"completed"}
    assert queued_messages() == []


def test_another_tenants_job_is_not_behind_the_backlog_of_one_tenant(
    api: httpx.Client, deployment: Deployment, org: Org, other_org: Org
) -> None:
    backlog = create_jobs(api, org.test.key, IN_FLIGHT_PER_TENANT + 10)
    [lone] = create_jobs(api, other_org.test.key, 1)
    poller = worker(deployment)

    handled = 0
    while get_job(api, other_org.test.key, lone)["status"] != "completed":
        assert poller.poll_once() == 1
        handled += 1

    assert handled <= IN_FLIGHT_PER_TENANT + 1  # behind the slots of the busy tenant, not its backlog
    statuses = [get_job(api, org.test.key, job_id)["status"] for job_id in backlog]
    assert statuses.count("queued") >= len(backlog) - IN_FLIGHT_PER_TENANT


def test_the_environments_of_an_organization_have_their_own_slots(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    create_jobs(api, org.test.key, IN_FLIGHT_PER_TENANT + 2)
    create_jobs(api, org.production.key, 1)

    groups = [message["Attributes"]["MessageGroupId"] for message in queued_messages()]

    assert groups.count(f"{org.id}#production") == 1
    assert groups.count(f"{org.id}#test") == IN_FLIGHT_PER_TENANT


def test_the_sweep_frees_the_slot_of_a_job_whose_message_was_lost_and_sends_a_held_job(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    sent = create_jobs(api, org.test.key, IN_FLIGHT_PER_TENANT)
    [held] = create_jobs(api, org.test.key, 1)
    lose_message(sent[0])  # gone to the dead-letter queue, say
    assert api.post(f"/v1/jobs/{sent[0]}/cancel", headers=auth(org.test.key)).status_code == 200
    assert not any(held in message["Body"] for message in queued_messages())

    counts = job_dispatch().sweep()

    assert counts == {"slots_freed": 1, "held_sent": 1}
    assert any(held in message["Body"] for message in queued_messages())
    assert job_dispatch().sweep() == {"slots_freed": 0, "held_sent": 0}


def test_a_job_done_with_gives_its_slot_once_however_often_it_is_reported(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    create_jobs(api, org.test.key, IN_FLIGHT_PER_TENANT)
    held = create_jobs(api, org.test.key, 3)
    tenant = Tenant(org.id, "test")
    first = next(iter(queued_messages()))
    finished = first["Body"].split('"job_id": "')[1].split('"')[0]

    for _ in range(3):
        job_dispatch().finished(tenant, finished)

    bodies = [message["Body"] for message in queued_messages()]
    assert sum(job_id in body for job_id in held for body in bodies) == 1
