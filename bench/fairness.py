"""Fairness of background work: one tenant's backlog against another tenant's lone job.

    .venv/bin/python bench/fairness.py [--backlog 5000] [--json PATH] [--unfair]

Starts the local stack in this process (moto server, the gateway and the pollers of template.yaml, on a
free port, with its own state file) and makes two organizations. The first (its request limits raised
by the operator's call, as `docsvc admin orgs limits` does) sends `--backlog` jobs through
POST /v1/jobs, from `--senders` threads: background parses of a one-page text PDF. When they are all
accepted, the second organization sends one job of the same kind, and its wait is measured: from its
POST to the moment a GET first shows it `in_progress` or done (the client's view, polled every
`--poll-interval` s), and from `created_at` to `started_at` as the service stored them (whole seconds).
It also reports how much of the first tenant's backlog was still waiting when the lone job was sent,
and that backlog's drain rate meanwhile.

The local stack runs one poller per queue, so the job worker runs one job at a time: the lone job
waits for the jobs ahead of it on the queue, which fair dispatch bounds to the first tenant's slots
(docsvc.domain.dispatch.IN_FLIGHT_PER_TENANT). `--unfair` gives every tenant unbounded slots (every job
sent at once, as before fair dispatch) for comparison: the lone job then waits behind the whole
remaining backlog; use a smaller `--backlog` with it. The exit code is 1 if the lone job did not start
within `--target` seconds (10 by default).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from docsvc.local.stack import LocalStack, free_port  # noqa: E402
from parse_throughput import text_pdf  # noqa: E402

HTTP_TIMEOUT = 120.0
STARTED = frozenset({"in_progress", "completed", "failed", "cancelled", "expired"})


def job_body(url: str) -> dict[str, Any]:
    request = {"document": {"filename": "bench.pdf", "url": url}, "bust_cache": True}
    return {"endpoint": "/v1/parses", "request": request}


def send_backlog(base_url: str, key: str, body: dict[str, Any], count: int, senders: int) -> list[str]:
    local = threading.local()

    def send(_: int) -> str:
        client = getattr(local, "client", None)
        if client is None:
            client = local.client = httpx.Client(
                base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=HTTP_TIMEOUT
            )
        for _attempt in range(20):
            response = client.post("/v1/jobs", json=body)
            if response.status_code == 201:
                return str(response.json()["id"])
            if response.status_code not in (429, 503):
                raise RuntimeError(f"POST /v1/jobs answered {response.status_code}: {response.text[:300]}")
            time.sleep(float(response.headers.get("Retry-After", "1")))
        raise RuntimeError("POST /v1/jobs kept answering 429/503")

    with ThreadPoolExecutor(senders) as pool:
        return list(pool.map(send, range(count)))


def backlog_state(tenant: Any) -> dict[str, int]:
    """The first tenant's jobs held and in its slots, read from the limits table."""
    from docsvc.adapters.dynamo.limits import DynamoJobSlots

    slots = DynamoJobSlots()
    held = 0
    query: dict[str, Any] = {
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :held)",
        "ExpressionAttributeValues": {":pk": tenant.key, ":held": "HELD#"},
        "Select": "COUNT",
    }
    while True:
        page = slots._table.query(**query)
        held += int(page["Count"])
        if "LastEvaluatedKey" not in page:
            break
        query["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return {"held": held, "in_slots": len(slots.in_flight(tenant))}


def run(backlog: int, senders: int, interval: float, timeout: float, unfair: bool) -> dict[str, Any]:
    url = "data:application/pdf;base64," + base64.b64encode(text_pdf(1)).decode("ascii")
    body = job_body(url)
    with tempfile.TemporaryDirectory(prefix="docsvc-bench-") as folder:
        os.environ["DOCSVC_STATE_FILE"] = str(Path(folder) / "local.json")
        stack = LocalStack(ROOT, port=free_port())
        stack.start()
        try:
            from docsvc.domain.limits import RequestLimits
            from docsvc.services import account_service, job_dispatch, job_service

            if unfair:
                job_dispatch()._per_tenant = 10**9  # every job sent at once, as without fair dispatch
            accounts = account_service()
            busy = accounts.create_organization("busy")
            accounts.set_limits(busy.id, RequestLimits(organization_per_second=1000, key_per_second=1000))
            busy_key = accounts.create_key(busy.id, "test", name="bench").key
            quiet = accounts.create_organization("quiet")
            quiet_key = accounts.create_key(quiet.id, "test", name="bench").key
            busy_tenant = accounts.authenticate(busy_key).tenant

            started = time.perf_counter()
            send_backlog(stack.url, busy_key, body, backlog, senders)
            submit_seconds = time.perf_counter() - started
            before = backlog_state(busy_tenant)

            with httpx.Client(
                base_url=stack.url, headers={"Authorization": f"Bearer {quiet_key}"}, timeout=HTTP_TIMEOUT
            ) as client:
                sent = time.perf_counter()
                response = client.post("/v1/jobs", json=body)
                response.raise_for_status()
                lone = response.json()["id"]
                seen: float | None = None
                status = "queued"
                while time.perf_counter() - sent < timeout:
                    status = client.get(f"/v1/jobs/{lone}/status").json()["status"]
                    if status in STARTED:
                        seen = time.perf_counter()
                        break
                    time.sleep(interval)
            after = backlog_state(busy_tenant)
            record = job_service().get(accounts.authenticate(quiet_key).tenant, lone)
        finally:
            stack.stop()
    waited = None if seen is None else seen - sent
    stored = None if record.started_at is None else record.started_at - record.created_at
    return {
        "backlog_jobs": backlog,
        "fair_dispatch": not unfair,
        "submit_seconds": submit_seconds,
        "busy_tenant_when_lone_job_sent": before,
        "busy_tenant_when_lone_job_started": after,
        "lone_job_status": status,
        "lone_job_wait_seconds_client": waited,
        "lone_job_wait_seconds_stored": stored,
        "poll_interval": interval,
    }


def report(figures: dict[str, Any]) -> None:
    mode = "fair dispatch" if figures["fair_dispatch"] else "without fair dispatch (--unfair)"
    before, after = figures["busy_tenant_when_lone_job_sent"], figures["busy_tenant_when_lone_job_started"]
    print(
        f"{mode}: {figures['backlog_jobs']} jobs of one tenant sent in {figures['submit_seconds']:.1f} s; "
        f"then {before['held']} held and {before['in_slots']} in its slots"
    )
    if figures["lone_job_wait_seconds_client"] is None:
        print(f"  the other tenant's job did not start ({figures['lone_job_status']})")
        return
    waited = figures["lone_job_wait_seconds_client"]
    print(
        f"  the other tenant's lone job started {waited:.2f} s after its POST "
        f"(stored: {figures['lone_job_wait_seconds_stored']} s, whole seconds); "
        f"the busy tenant then had {after['held']} held, {after['in_slots']} in its slots"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backlog", type=int, default=5000, help="jobs of the busy tenant")
    parser.add_argument("--senders", type=int, default=4, help="threads sending the backlog")
    parser.add_argument(
        "--poll-interval", type=float, default=0.1, help="seconds between GETs of the lone job"
    )
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for the lone job")
    parser.add_argument("--target", type=float, default=10.0, help="seconds the lone job may wait")
    parser.add_argument("--unfair", action="store_true", help="unbounded slots, for comparison")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()
    if arguments.backlog < 1 or arguments.senders < 1:
        parser.error("--backlog and --senders must be at least 1")
    figures = run(
        arguments.backlog, arguments.senders, arguments.poll_interval, arguments.timeout, arguments.unfair
    )
    report(figures)
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n")
    waited = figures["lone_job_wait_seconds_client"]
    return 0 if waited is not None and waited <= arguments.target else 1


if __name__ == "__main__":
    sys.exit(main())
